"""The names an expression of the rules language may read, by the place it is written at.

Each table is declared once, with each name's type and a note for readers. The compiler checks an
expression against its place's table (a name not in it is refused when the ruleset loads); the
schema's description of the place lists the names from it; and the engine fills the same names
in when it evaluates the expression (tests/test_keys_names.py plays deals of every ruleset and
compares what the engine gives with what is declared here).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from interpreter.language.dsl.scope import Type

BOOL, INT, CARD, CARDS = Type.BOOL, Type.INT, Type.CARD, Type.CARDS


@dataclass(frozen=True)
class Known:
    """One name an expression may read: its type, a note for readers, and how the schema lists
    it where that is not by its name (the tricks of a deal, read through functions)."""

    type: Type
    note: str = ""
    shown: str | None = None

    def listed(self, name: str) -> str:
        if self.shown is not None:
            return self.shown
        return f"{name} ({self.note})" if self.note else name


class NameTable(Mapping[str, Known]):
    """The names one place may read, in the order the schema lists them."""

    def __init__(self, entries: Mapping[str, Known] | None = None, **more: Known):
        self._entries: dict[str, Known] = {**(entries or {}), **more}

    def __getitem__(self, name: str) -> Known:
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"NameTable({', '.join(self._entries)})"

    def __or__(self, other: Mapping[str, Known]) -> NameTable:
        return NameTable({**self._entries, **other})

    def without(self, *names: str) -> NameTable:
        return NameTable({name: known for name, known in self._entries.items() if name not in names})

    @property
    def types(self) -> dict[str, Type]:
        """What the compiler checks against: each name's type."""
        return {name: known.type for name, known in self._entries.items()}

    def listed(self) -> str:
        return ", ".join(known.listed(name) for name, known in self._entries.items())


def table(**names: Known) -> NameTable:
    return NameTable(names)


def _k(type_: Type, note: str = "", shown: str | None = None) -> Known:
    return Known(type_, note, shown)


PLAYERS = _k(INT)
HAND = _k(CARDS)

# -- the auction and the exchange -------------------------------------------------------------------

# A bid's condition, and when a bid is compulsory: the speaker's hand and place in the phase.
AUCTION = table(
    hand=HAND,
    position=_k(INT, "0 = first to speak in the phase"),
    speakers=_k(INT, "how many speak in the phase"),
    bid_made=_k(BOOL, "somebody has bid in the phase"),
    players=PLAYERS,
)
# A card of a discard, judged alone or as one of a class.
DISCARD = table(card=_k(CARD), hand=HAND, players=PLAYERS)
# A condition on one hand alone (a claim, a withheld card, a skinned Solo).
HAND_ONLY = table(hand=HAND)
# Partners: who may call what (the declarer's hand).
PARTNER = table(hand=HAND)
# A forced discard: the talon picked up, and the hand.
FORCED = table(taken=_k(CARDS, "the talon picked up"), hand=HAND)
# Giving up once the talon is seen.
CONCEDE = table(hand=HAND, called=_k(CARDS, "the cards called for a partner"), talon=_k(CARDS))

# -- counting and the outcome ----------------------------------------------------------------------

# Where the cards out of play count (`counting.aside`): the tricks each side took.
ASIDE = table(declarer_tricks=_k(INT), defender_tricks=_k(INT), tricks=_k(INT, "in all"))
# Where a contract sends the cards out of play: the tricks, the called cards, the talon left over
# and the discards.
ROUTE = ASIDE | table(called=_k(CARDS, "the cards called for a partner"), talon=_k(CARDS), discards=_k(CARDS))
# Whether the declarer won, and whether the game is drawn.
OUTCOME = table(
    declarer_points=_k(INT),
    defender_points=_k(INT),
    declarer_tricks=_k(INT),
    defender_tricks=_k(INT),
    tricks=_k(INT, "in all"),
    players=PLAYERS,
    declarer_cards=_k(INT, "cards in the declarer's side's pile"),
    defender_cards=_k(INT, "cards in the opponents' pile"),
    last_trick_won_with=_k(
        CARDS, "the declarer's card in the last trick, if the declarer won it: a set of one card or none"
    ),
    tricks_won_with=_k(CARDS, "the declarer's cards in the tricks the declarer won"),
    called_in_talon=_k(BOOL, "the card called for a partner lay in the talon as dealt (the declarer plays alone)"),
    trump_suit=_k(
        CARDS,
        "the cards of the suit that is trumps in this deal (named by the declarer or the contract's own), none "
        "where only the pack's trumps are (`count(trump_suit & hearts) > 0`: Hearts are trumps)",
    ),
    played_tricks=_k(
        Type.TRICKS,
        shown="trick(n) (the cards of trick n: 1 the first, -1 the last), winning_card(n), won_by_side(n) (by the "
        "declarer's side), trick_of(card) (the number of the trick the card was played to, 0 if it was not played)",
    ),
)
# What a game is worth: the outcome, and who won with which factor and kontra.
AMOUNT = OUTCOME | table(
    winner_points=_k(INT),
    loser_points=_k(INT),
    factor=_k(INT, "the contract's factor, as won or lost"),
    declarer_won=_k(BOOL),
    kontra=_k(INT, "the game's multiplier from doubling: 1, times 2 for each kontra"),
)
# When the game is drawn: the outcome, and its value as reckoned (a game worth nothing).
DRAWN = AMOUNT | table(amount=_k(INT, "the game's value as reckoned, before the draw makes it 0"))
# When some opponents pay for the whole team.
LIABLE_WHEN = OUTCOME | table(declarer_won=_k(BOOL), bidders=_k(INT, "how many players bid in the auction"))
# What they pay, and the others.
LIABLE = AMOUNT | table(
    amount=_k(INT, "the game's amount"),
    defenders=_k(INT, "how many opponents pay"),
    liable=_k(INT, "how many are liable"),
    bidders=_k(INT, "how many players bid in the auction"),
)
# What the declarer pays into the pot.
POT = AMOUNT | table(amount=_k(INT, "the game's amount"), pot=_k(INT, "its size before"))

# -- payments outside the game ----------------------------------------------------------------------

# What a player pays who gives up, and the dealer's ante.
BREACH = table(players=PLAYERS)
# A pass against a compulsion.
COMPULSION_BREACH = BREACH | table(
    lost_every_trick=_k(
        INT,
        "what the compelled bid, lost without a trick or a card point, would cost the offender "
        "with each opponent in the game being played",
    )
)
# An offence at the table.
PENALTY = BREACH | table(
    factor=_k(INT, "the contract's factor when won; 1 before a contract or in one without"),
    kontra=_k(INT, "the game's doublings so far"),
    misdeal=_k(BOOL, "the offence is a misdeal"),
)
# A card laid out in an announcement.
CARD_ONLY = table(card=_k(CARD))

# -- everyone for themselves ----------------------------------------------------------------------

INDIVIDUAL = table(
    loser_points=_k(INT),
    loser_is_vorhand=_k(BOOL),
    without_tricks=_k(INT, "players who took no trick"),
    losers=_k(INT),
    players=PLAYERS,
    receiver_tricks=_k(INT, "the tricks of the player paid"),
    kontra=_k(INT, "2 per doubling"),
)
# One class of payments, per seat.
PAYMENT = table(
    points=_k(INT),
    tricks=_k(INT),
    place=_k(INT, "1 + players with more points"),
    rank=_k(INT, "place with equal points ranked by order from Vorhand"),
    sharing=_k(INT, "how many players share the seat's place, itself included: 2 in a tie of two"),
    most_points=_k(
        INT, "the most card points any player took (`most_points <= 35`: nobody took more than 35, this seat neither)"
    ),
    without_tricks=_k(INT, "how many players took no trick"),
    is_vorhand=_k(BOOL),
    players=PLAYERS,
    kontra=_k(INT, "2 per doubling"),
    sitting_out=_k(
        BOOL,
        "this seat sits out (`players.sit_out`: the dealer, or another seat) and takes part because "
        "`settlement.sitting_out` is defender; such seats are placed after every player, with no points and no trick",
    ),
)

# -- bonuses, announcements and kontra -----------------------------------------------------------

# A bonus judged for a side: what it took and played, whether it announced the bonus, and the
# tricks as the trick functions read them (`side_points`: Sack is 46 or more).
BONUS_JUDGED = table(
    side_cards=_k(CARDS, "its tricks and its share of the talon and discards"),
    side_points=_k(INT, "those cards counted as `counting` says"),
    side_won=_k(CARDS, "cards of tricks it won"),
    side_played=_k(CARDS),
    opponents_played=_k(CARDS),
    side_tricks=_k(INT),
    opponent_tricks=_k(INT),
    tricks=_k(INT),
    called=_k(CARDS, "the cards called for a partner"),
    is_declarer_side=_k(BOOL),
    players=PLAYERS,
    announced=_k(BOOL, "the side announced it"),
    played_tricks=_k(
        Type.TRICKS,
        shown="trick(n) (the cards of trick n: 1 the first, -1 the last), winning_card(n), won_by_side(n), "
        "trick_of(card) (the number of the trick the card was played to, 0 if it was not played)",
    ),
)
# … the same but whether the side announced it.
BONUS = BONUS_JUDGED.without("announced")
# A bonus's values.
BONUS_VALUE = table(
    game=_k(INT, "the game's value"),
    players=PLAYERS,
    kontra=_k(
        INT,
        "the game's multiplier from doubling: 1, times 2 for each kontra of the game (a bonus doubled "
        "with the game: `1 * kontra`)",
    ),
)
# A combination in one player's hand (scope: seat): the hand when play starts, who holds it, and
# what became of the cards it played.
SEAT_BONUS = table(
    hand=_k(CARDS, "its cards when play starts, after the exchange"),
    is_declarer=_k(BOOL),
    is_partner=_k(BOOL),
    players=PLAYERS,
    announced=_k(BOOL, "this seat announced it"),
    played=_k(CARDS, "the cards the seat played to the tricks"),
    captured=_k(CARDS, "those of them the other side took (a seat's Mond captured: `T21 in captured`)"),
)
# Who may announce, per seat, in the round of announcements.
SEAT = table(
    hand=HAND,
    is_declarer=_k(BOOL),
    is_partner=_k(BOOL, "holds the called card"),
    revealed=_k(BOOL, "the seat's side is public"),
    spoken=_k(BOOL, "the seat has had a turn in this round"),
    card_called=_k(BOOL, "a card was called for a partner in this deal"),
)
# Who may double: per seat, and what the auction says of it.
KONTRA = SEAT | table(
    made_bid=_k(BOOL, "the seat bid in the auction"),
    bid_before_turn=_k(
        BOOL,
        "somebody had bid before the seat's first turn in the auction, or before the auction ended "
        "without giving it one, so it could not have opened the bidding",
    ),
)

# -- play -----------------------------------------------------------------------------------------

# Duties over the trick history, for the player to play.
DUTY = table(
    hand=HAND,
    trick_cards=_k(CARDS, "the cards on the table in this trick"),
    trick_number=_k(INT, "1 = first"),
    trump_leads=_k(INT, "the tricks so far in which a trump was led, this one included once a trump leads it"),
    led_trump=_k(BOOL, "a trump leads this trick"),
    leading=_k(BOOL, "the player leads"),
    players=PLAYERS,
)

# When a trick exception applies: the trick whose cards include all of the exception's.
EXCEPTION = table(
    led_trump=_k(BOOL, "a trump leads the trick"),
    trick_number=_k(INT, "1 = first"),
    last_trick=_k(BOOL, "the deal's last trick"),
    trick_cards=_k(CARDS, "the cards of the trick"),
    players=PLAYERS,
)

# When play ends early: the tricks played so far (by the sides).
PLAY_END = table(
    declarer_tricks=_k(INT, "so far"),
    defender_tricks=_k(INT, "so far"),
    tricks=_k(INT, "played so far"),
    tricks_left=_k(INT, "not yet played"),
    players=PLAYERS,
)

# -- the session ---------------------------------------------------------------------------------

# The deal just finished, as the session reads it: who deals next, and each seat's row on the
# score sheet.
LAST_DEAL = table(
    thrown_in=_k(BOOL, "nobody played: the cards were thrown in"),
    abandoned=_k(BOOL, "the deal was abandoned (an offence, a misdeal)"),
    misdeal=_k(BOOL, "the deal was abandoned as a misdeal"),
    has_declarer=_k(BOOL, "somebody played a game as declarer"),
    declarer_won=_k(BOOL, "false where nobody declared"),
    players=PLAYERS,
)
# One seat's row on the score sheet after a deal.
SHEET = LAST_DEAL | table(
    payment=_k(INT, "what the seat won (or paid, below 0) in the deal"),
    is_declarer=_k(BOOL),
    is_partner=_k(BOOL, "the declarer's partner, where one was called"),
    points=_k(INT, "the card points of the seat's side (its own where everyone plays alone), 0 if none were counted"),
    score=_k(INT, "the seat's score on the sheet before this deal"),
)
# A pay-out of a pot of the session after a deal (each pot's name reads what it holds, too).
POT_PAYOUT = LAST_DEAL | table(
    declarer_payment=_k(INT, "what the declarer won in the deal (below 0: paid), 0 where nobody declared"),
    opponents=_k(INT, "the seats the declarer played against (0 where nobody declared)"),
    declarer=_k(INT, "the declarer's seat (-1 where nobody declared)"),
    dealer=_k(INT, "the dealer's seat"),
)
# Whether the session has come to its end, after each deal.
SESSION_END = table(
    deals=_k(INT, "deals played so far"),
    rounds=_k(INT, "complete rounds so far: every seat has had its turn to deal"),
    highest_score=_k(INT, "the highest score on the sheet (without one: the highest running total)"),
    lowest_score=_k(INT, "the lowest"),
    pot=_k(INT, "what the pot holds (0 without one)"),
    players=PLAYERS,
)

# Every table, by the name the compiler knew it by (interpreter.language.compiler re-exports them).
TABLES: dict[str, NameTable] = {
    "AUCTION": AUCTION,
    "DISCARD": DISCARD,
    "HAND_ONLY": HAND_ONLY,
    "PARTNER": PARTNER,
    "FORCED": FORCED,
    "CONCEDE": CONCEDE,
    "ASIDE": ASIDE,
    "ROUTE": ROUTE,
    "OUTCOME": OUTCOME,
    "AMOUNT": AMOUNT,
    "DRAWN": DRAWN,
    "LIABLE_WHEN": LIABLE_WHEN,
    "LIABLE": LIABLE,
    "POT": POT,
    "BREACH": BREACH,
    "COMPULSION_BREACH": COMPULSION_BREACH,
    "PENALTY": PENALTY,
    "CARD_ONLY": CARD_ONLY,
    "INDIVIDUAL": INDIVIDUAL,
    "PAYMENT": PAYMENT,
    "BONUS": BONUS,
    "BONUS_JUDGED": BONUS_JUDGED,
    "BONUS_VALUE": BONUS_VALUE,
    "SEAT_BONUS": SEAT_BONUS,
    "SEAT": SEAT,
    "KONTRA": KONTRA,
    "DUTY": DUTY,
    "EXCEPTION": EXCEPTION,
    "PLAY_END": PLAY_END,
    "LAST_DEAL": LAST_DEAL,
    "SHEET": SHEET,
    "SESSION_END": SESSION_END,
    "POT_PAYOUT": POT_PAYOUT,
}
# Every name some expression reads as a value of the game: a set of the deck named so would hide it.
GAME_NAMES = frozenset(name for names in TABLES.values() for name in names)
