"""The keys of the calls and the auction."""

from __future__ import annotations

from interpreter.language.keys import names
from interpreter.language.keys.kinds import (
    Boolean,
    Choice,
    Computed,
    Entries,
    Integer,
    Key,
    ListOf,
    Node,
    Null,
    OneOf,
    Rule,
    Said,
    Text,
    card,
    condition,
    formula,
    name,
    reason,
    title,
)

call = Rule("A call players can make.", {"title": title("What players say (Fort, Ich dappe).", Computed("the call"))})

CALLS = Key(
    Entries(
        "Display names of calls (pass, solo, …).",
        Key(call, said=Said("Call {call}", words="a call", missing="no such call", rule="call")),
    ),
)

_LEVEL_KEYS: dict[str, Key | Node] = {
    "call": name("The call that bids this level."),
    "contract": Key(
        OneOf(
            "The contract played if this level wins (default: the call's name); null: none, its bidder chooses one when uncontested (`then.choose`: Mein Spiel).",
            (name(), Null()),
        ),
        default=Computed("the call"),
    ),
    "requires": condition(
        "A condition on the bidder's hand to bid or hold this level. Besides it, a level whose contract keeps cards before the talon (`exchange: [{keep: ...}]`) may be bid or held only by a hand holding such cards: nobody bids a game they could not carry out.",
        names.AUCTION,
    ),
    "holdable": Key(Boolean("Whether an earlier bidder may hold this level (default true)."), default=True),
    "jump": Key(
        Boolean(
            "This level may be bid over any lower one, not only over the level below it (special games that outrank the normal ones at any stage of the bidding)."
        ),
        default=False,
    ),
    "ends": Choice(
        "Bidding this level ends the phase or the whole auction at once; throw_in: the deal is thrown in (a hand of seven empty cards).",
        ("phase", "auction", "throw_in"),
    ),
    "title": title("A display name for the level."),
}

# A game a winning bidder chooses (`then.choose`): a level that is not said in the bidding.
chosen_level = Rule("A game the winning bidder may choose.", _LEVEL_KEYS, ("call",))

ladder_level = Rule(
    "One level of a bidding ladder, lowest first.",
    {
        **_LEVEL_KEYS,
        "answered_by": Key(
            Rule(
                "The call is a proposal another player answers before it takes effect (a redeal asked for, which "
                "the dealer grants or refuses): accepted, it is as if said; refused, it is void, the proposer's "
                "turn goes on, and the proposer may not say it again this deal.",
                {
                    "by": Key(Choice("Who answers: the dealer.", ("dealer",)), default="dealer"),
                    "accept": name("The answer's call that grants it (ja)."),
                    "refuse": name("The answer's call that refuses it (nein)."),
                },
                ("accept", "refuse"),
                provenance=False,
            ),
        ),
    },
    ("call",),
)

compulsory = Rule(
    "A bid a player must make when a condition holds (a pass is then refused).",
    {
        "when": condition("When the bid is compulsory.", names.AUCTION),
        "call": name(
            "The call the player must make: any other bid and the pass are refused (the special games the phase lets anyone say out of turn, its `interrupts`, stay open); the compulsion lapses once that call is not legal."
        ),
        "reason": reason("What the refusal of a pass tells the player.", Computed("you must bid CALL here")),
        "or_higher": Key(
            Boolean(
                "The call or any higher bid of the ladder (modern Tapp: one who said 'ich spiele' must state a contract, the lowest or any other); default false: that call alone."
            ),
            default=False,
        ),
        "breach": Rule(
            "What a player owes who passed anyway (when the auction's `breaches` is penalize: records of real games).",
            {
                "pays_each": formula(
                    "What the offender pays each other player (a sitting-out dealer too, when `settlement.sitting_out` is defender); the deal is abandoned.",
                    names.COMPULSION_BREACH,
                ),
            },
            ("pays_each",),
        ),
    },
    ("when", "call"),
)


def _phase(
    rule: str,
    label: str,
    *,
    words: dict[object, str] | str | None = None,
    text: str | None = None,
    missing: str = "none",
    whole: bool = False,
) -> Said:
    """The sentence of a rule of one auction phase, labelled with the phase's title."""
    return Said("{phase}: " + label, words, text, missing, f"auction.{rule}", whole=whole)


side_bid = Rule(
    "A side bid.",
    {
        "call": name("The call."),
        "contract": Key(name("Its contract (default: the call)."), default=Computed("the call")),
        "over": ListOf("The current bids it may be made over.", name()),
        "requires": condition("A condition on the bidder's hand.", names.AUCTION),
    },
    ("call", "over"),
)

then = Rule(
    "What follows the phase.",
    {
        "pass_out": Key(
            Text(
                "When everybody passed: `throw_in` (no play, no payment), `play` (the contract named by `play`, with no declarer: Räuber, Ramsch), or the name of the next phase."
            ),
            default="throw_in",
            said=_phase("pass_out", "when everybody passes", text="pass_out"),
        ),
        "play": Key(
            name("The contract played when everybody passed and `pass_out` is `play`."),
            said=_phase("pass_out_play", "the game when everybody passes", text="contract_title"),
        ),
        "holder_of": Key(
            ListOf(
                "When everybody passed and `pass_out` is `play`: the player holding the first of these cards that "
                "a player holds declares the game `play` names, without another word (a Muss: the holder of the "
                "Sküs must play); none of them held (all in the talon): the deal is thrown in.",
                card(),
                min_items=1,
            ),
            said=_phase("holder_of", "when everybody passes, the game is declared by", text="holder_of"),
        ),
        "choose": Key(
            Entries(
                "By winning call: when nobody bid against it, its bidder then chooses the game from these (Vorhand's Cego or Räuber); a call that names no contract (`contract: null`, Mein Spiel) lets its bidder choose whenever it wins, contested or not.",
                ListOf("The games to choose from.", chosen_level, min_items=1),
            ),
            said=_phase("choose", "the winning bidder's choice", text="choose", whole=True),
        ),
        "choose_when": Key(
            Choice(
                "When the winner of a call listed in `choose` chooses the game: uncontested (default: only when "
                "nobody bid against it, or when the call names no contract), or won (whenever it wins, contested "
                "or not: the winner names the final contract).",
                ("uncontested", "won"),
            ),
            default="uncontested",
            said=_phase(
                "choose_when",
                "the winner chooses the game",
                words={"uncontested": "only when nobody bid against it", "won": "whenever the call wins"},
                missing="only when nobody bid against it",
            ),
        ),
        "after": Key(
            Entries(
                "By winning call, the next phase (the winner carries the bid into it); default: the auction ends.",
                Text("The next phase."),
            ),
            said=_phase("after", "after the winning bid", text="after", missing="the auction ends", whole=True),
        ),
    },
    provenance=False,
)

phase = Rule(
    "One round of the auction.",
    {
        "title": title(default=Computed("the phase's name")),
        "ladder": Key(
            ListOf(
                "The bids of this phase, lowest first (empty: nobody may bid, as in a round of compulsory Räuber).",
                ladder_level,
            ),
            said=_phase("ladder", "bids, lowest first", text="ladder", whole=True),
        ),
        "hold": Key(
            name(
                "The call with which an earlier bidder takes over a higher bid (selber, selbst); `same`: by naming the same game again (a player with higher priority may bid equal, a lower one must bid higher); absent: no holding."
            ),
            said=_phase("hold", "holding a later, higher bid", text="hold", missing="not allowed"),
        ),
        "answer": Key(
            Choice(
                "duel style: what the challenged holder may answer, at once: hold (default: take the challenger's "
                "bid with the `hold` call, where the phase has one) or drop out; raise: bid higher than the "
                "challenger or drop out, never hold; raise_or_hold: any of the three. After a hold or a raise the "
                "challenger answers by going higher or dropping out.",
                ("hold", "raise", "raise_or_hold"),
            ),
            default="hold",
            said=_phase(
                "answer",
                "the challenged holder",
                words={
                    "hold": "holds or drops out",
                    "raise": "raises at once or drops out",
                    "raise_or_hold": "raises at once, holds, or drops out",
                },
            ),
        ),
        "raise": Key(
            Choice("Whether a bid must be the next level (default) or may jump.", ("next", "any")),
            default="next",
            said=_phase("raise", "raising", words={"next": "to the next bid only", "any": "to any higher bid"}),
        ),
        "max_bidders": Key(
            Integer("At most this many players may bid in the phase.", 1),
            said=_phase("max_bidders", "bidders", words="at most {value}", missing="no limit"),
        ),
        "style": Key(
            Choice(
                "duel (default): the holder answers each challenger at once, and a player enters only when the duel before is settled. rounds: the turn goes round the table; on it a player raises, passes for good, or (with priority over the current bidder, being earlier in the order) holds. declare: each player says once whether they want to play (a bid of the ladder) or pass; nobody is outbid, and the next phase (`then.after`) is for those who did.",
                ("duel", "rounds", "declare"),
            ),
            default="duel",
            said=_phase(
                "style",
                "how the turn goes",
                words={
                    "duel": "the holder answers at once",
                    "rounds": "in rounds, each in turn",
                    "declare": 'first "ich spiele" or "weg", then the game',
                },
            ),
        ),
        "speakers": Key(
            Choice(
                "Who speaks in this phase: every player (default), or only those who bid in the phase before (a declare phase).",
                ("all", "previous_bidders"),
            ),
            default="all",
            said=_phase(
                "speakers", "who speaks", words={"all": "everybody", "previous_bidders": "only those who bid before"}
            ),
        ),
        "start": Key(
            Choice(
                "Who speaks first: Vorhand (default); after_vorhand: the player after Vorhand, Vorhand last (modern Tapp's 'the player to the right of forehand starts'); after_holder: in a phase that a bid was carried into, the player after the bidder.",
                ("vorhand", "after_vorhand", "after_holder"),
            ),
            default="vorhand",
            said=_phase(
                "start",
                "who speaks first",
                words={
                    "vorhand": "Vorhand",
                    "after_vorhand": "the player after Vorhand",
                    "after_holder": "the player after the holder",
                },
            ),
        ),
        "side_bids": Key(
            ListOf(
                "Bids a player may make on their turn instead of the next rung, only over the listed calls; one ends the auction (Piccolo or Bettel over the opening Cego).",
                side_bid,
            ),
            said=_phase("side_bids", "side bids", text="calls", whole=True),
        ),
        "priority": Key(
            Choice(
                "rounds style: which of two players ranks first when one would hold the other's bid: the one "
                "earlier in the phase's speaking order (order, the default), or the one earlier from Vorhand in "
                "the order of play, whoever speaks first (vorhand: with `start: after_vorhand` Vorhand speaks "
                "last but holds first), or the one later in the speaking order (later: a later player takes "
                "the bid over by naming the same game, an earlier one must go higher).",
                ("order", "vorhand", "later"),
            ),
            default="order",
            said=_phase(
                "priority",
                "who ranks first to hold",
                words={
                    "order": "the earlier speaker",
                    "vorhand": "the player nearer Vorhand, whoever speaks first",
                    "later": "the later speaker",
                },
            ),
        ),
        "hold_by": Key(
            Choice(
                "rounds style: who may hold the current bid with the hold call: any player earlier in the order (default), or only the player who speaks first in the phase (Vorhand, who opened).",
                ("earlier", "first"),
            ),
            default="earlier",
            said=_phase(
                "hold_by",
                "who may hold",
                words={"earlier": "any player before the bidder", "first": "only the player who spoke first"},
            ),
        ),
        "interrupt_priority": Key(
            Choice(
                "When a player interrupts (first_call, default: the first interrupt ends the auction at once), or whether the players earlier in the order who have not yet had their turn are first asked, in order, whether they want an interrupting game themselves, the first who does having priority (earlier_turn).",
                ("first_call", "earlier_turn"),
            ),
            default="first_call",
            said=_phase(
                "interrupt_priority",
                "when several want an interrupting game",
                words={
                    "first_call": "the first to call it has it",
                    "earlier_turn": "the player whose turn comes earlier has priority",
                },
            ),
        ),
        "carried_may_hold": Key(
            Boolean(
                "Whether the bidder who carried a bid into this phase may hold against a higher bid (default true; false: 'you cannot bid against your own Solo')."
            ),
            default=True,
            said=_phase(
                "carried_may_hold",
                "a bid carried in from the phase before",
                words={True: "may hold", False: "drops out when outbid"},
            ),
        ),
        "compulsory": Key(
            Entries(
                "Bids players must make when a condition holds, by name (so a variant or option can remove one: `stop: null`).",
                compulsory,
            ),
            said=_phase("compulsory", "compulsory bids", text="compulsory", whole=True),
        ),
        "interrupts": Key(
            ListOf(
                "Bids any player may make out of turn, up to and including their own turn in the phase (a turn they still have when the ladder is exhausted), once the phase has been opened (Cego's Piccolo and Bettel); one ends the auction, at once or after the earlier players' answers (see interrupt_priority).",
                ladder_level,
            ),
            said=_phase("interrupts", "calls anyone may make until their own turn", text="calls", whole=True),
        ),
        "then": then,
    },
    ("ladder",),
)

thrown_in = Rule(
    "What is paid when the auction throws the deal in (everybody passed, with `pass_out: throw_in`, or a call "
    "that `ends: throw_in` was said); without it nobody pays. A redeal (`redeal`) is no throw-in and pays nothing.",
    {
        "payer": Key(
            Choice(
                "Who pays: each player in the deal (into the pot: a Stock fed by every player), the dealer, or the "
                "caller (the player whose call threw the deal in; nobody when everybody passed).",
                ("each", "dealer", "caller"),
            ),
            default="each",
        ),
        "pays": formula("What each payer pays (into the pot, or to each other player in the deal).", names.BREACH),
        "to": Key(
            Choice(
                "Where it goes: into the pot (the table must keep one: `pot_ante` or `session.pot`), or to each "
                "other player in the deal.",
                ("pot", "others"),
            ),
            default="pot",
        ),
    },
    ("pays",),
)

redeal = Rule(
    "A hand that, as dealt, throws the deal in before anybody bids: the cards are dealt again (French Tarot's "
    "Petit alone, a hand with too few trumps). The hands are looked at in order of play from Vorhand; the first "
    "that meets a condition is shown and the deal is thrown in, paying nothing. A throw-in the holder may choose "
    "instead is a bid that `ends: throw_in`, with `requires`.",
    {
        "when": condition("The condition on one hand, as dealt.", names.HAND_ONLY),
        "reason": reason("What the table is told (the Petit alone).", Computed("the hand meets `when`")),
    },
    ("when",),
)

auction = Rule(
    "The bidding that decides the contract and the lone player.",
    {
        "phases": Entries(
            "The phases by name; `then` says which follows which.",
            Key(phase, said=Said("Auction phase {phase}", text="phase", missing="no such phase", rule="auction.phase")),
        ),
        "first": Key(
            name("The phase that opens the auction (default: the first one listed)."),
            default=Computed("the first phase listed"),
            said=Said("The auction opens with", text="phase_title"),
        ),
        "breaches": Key(
            Choice(
                "A pass against a compulsory bid is refused (refuse, the default), or accepted and penalised as its `breach` says (penalize: for replaying games recorded in the field).",
                ("refuse", "penalize"),
            ),
            default="refuse",
            said=Said(
                "A pass where a bid is compulsory",
                words={"refuse": "is refused", "penalize": "is accepted and penalised"},
            ),
        ),
        "thrown_in": Key(thrown_in, said=Said("When the auction throws the deal in", text="thrown_in", whole=True)),
        "redeal": Key(
            ListOf("Hands that throw the deal in as dealt, before the bidding.", redeal),
            said=Said("The deal is dealt again when", text="redeal", missing="never", whole=True),
        ),
    },
)

AUCTION = Key(auction)
