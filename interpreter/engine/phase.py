"""The phases of a deal."""

import enum


class Phase(enum.Enum):
    AUCTION = "auction"
    EXCHANGE = "exchange"
    ANNOUNCE = "announce"
    PLAY = "play"
    OVER = "over"
