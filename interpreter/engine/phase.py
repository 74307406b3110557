"""The phases of a deal."""

import enum


class Phase(enum.Enum):
    AUCTION = "auction"
    EXCHANGE = "exchange"
    ANNOUNCE = "announce"
    PLAY = "play"
    OVER = "over"
    DEAL = "deal"  # the dealer chooses how the cards are dealt (deal.choice); before the auction
