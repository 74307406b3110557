"""The keys of trick play: the ruleset's `play`, and a contract's own rules of play over it."""

from __future__ import annotations

from interpreter.language.keys import names
from interpreter.language.keys.kinds import (
    Boolean,
    Choice,
    Computed,
    Integer,
    Key,
    ListOf,
    Node,
    Rule,
    Said,
    Text,
    card,
    cards,
    condition,
    name,
    reason,
)

scheduled = Rule(
    "A rule for one of the first tricks: every player, the leader included, plays from the first of `play_from` they hold a card of (else any card); following suit does not apply.",
    {
        "trick": Key(Integer("The trick's number (1 = first).", 1), default=Computed("its place in the list")),
        "play_from": ListOf(
            "Sets in order of obligation: a card of the first set held must be played.",
            cards('A set expression, e.g. "{T22}" or "trumps - {T22, T21, T1}".'),
            min_items=1,
        ),
        "reason": reason(
            "What a refusal tells the player.", Computed("in trick N the cards must be played as scheduled")
        ),
    },
    ("trick", "play_from"),
)

withhold = Rule(
    "A card its holder may keep back when it is the only trump they could play (Gstiesieren): they play any other card instead; the card then loses all power, may not be played before the last trick, and goes to its holder's side (or its holder, where everyone plays for themselves) whoever wins that trick, unless `goes_to` says last_trick (`compensation` says what the winners get when they win that trick a card short). When such a card is led, the next card played fixes the suit to follow.",
    {
        "card": card(),
        "by": Choice("Who may withhold it: the declarer's opponents only, or anyone.", ("defenders", "anyone")),
        "when": condition("A further condition on the holder's hand.", names.HAND_ONLY),
        "compensation": Rule(
            "When the other side wins the last trick, that trick is a card short (the withheld card went to its holder's side): what makes it up.",
            {
                "gives": Choice(
                    "lowest_value: the holder's side hands the winners its least valuable card (a 1-point card if it has one; equal values in the pack's order), the withheld card itself if it has no other; none: the trick stays a card short.",
                    ("lowest_value", "none"),
                )
            },
            ("gives",),
        ),
        "goes_to": Key(
            Choice(
                "Whose the withheld card is once played to the last trick: holder: its holder's, whoever wins that trick (its holder's side where there are sides; in an everyone-for-themselves contract the holder's own tricks, and `compensation` then makes the winner's trick whole); last_trick: the last trick's winner's, with the rest of that trick (`compensation` then has nothing to make up).",
                ("holder", "last_trick"),
            ),
            default="holder",
        ),
    },
    ("card", "by", "compensation"),
)

excuse = Rule(
    "A card its holder may play to any trick instead of what following asks, and that takes no part in the trick it lies in (the Excuse of French Tarot, the Fool or Matto, the Sküs of Tarock l'Hombre): it never wins (but after a slam, where `slam` says so); led, the next card played fixes the suit to follow and the trick is judged without it; it goes to its holder's side whoever wins that trick (`goes_to`), the holder's side making that trick whole (`compensation`), except in the last trick if `last_trick` says lost.",
    {
        "card": card(),
        "goes_to": Key(
            Choice(
                "Whose the card is once played: holder: its holder's side's (in an everyone-for-themselves contract the holder's own), whoever wins the trick; trick: the trick's winner's, with the rest of it (`compensation` then has nothing to make up).",
                ("holder", "trick"),
            ),
            default="holder",
        ),
        "compensation": Rule(
            "When the other side wins the trick the card lies in, that trick is a card short (the card went to its holder's side): what makes it up.",
            {
                "gives": Choice(
                    "lowest_value: the holder's side hands the winners its least valuable card (a 1-point card if it has one; equal values in the pack's order), the card itself if it has no other; none: the trick stays a card short.",
                    ("lowest_value", "none"),
                )
            },
            ("gives",),
        ),
        "last_trick": Key(
            Choice(
                "Played to the last trick: lost: it goes with that trick to its winner (French Tarot: never keep it to the end); kept: as in any other trick (`goes_to`).",
                ("lost", "kept"),
            ),
            default="lost",
        ),
        "slam": Key(
            Boolean(
                "true: led to the last trick by a side that took every trick before it, it wins that trick (the slam of French Tarot, a Valat made with the Excuse); false: it never wins."
            ),
            default=False,
        ),
    },
    ("card",),
)

# The four rules of following, each with the words of a value inside a sentence (`phrase`), for a
# contract's own rules of play ("players need not follow suit; …").
first_lead = Choice(
    "Who leads to the first trick: the declarer, Vorhand, or the dealer (a dealer who sits out: Vorhand); `first_lead_offset` counts on from there.",
    ("declarer", "vorhand", "dealer"),
)
first_lead_offset = Integer(
    "The first lead goes this many seats further on, in the order of play, from the seat `first_lead` names (1: the player after it; 0: that seat). The seats count as they play: a dealer who sits out is not counted past.",
    0,
)
follow_suit = Boolean("Players must follow the suit led (trumps count as a suit).")
when_void = Choice(
    "A player void in the suit led must trump if able (trump) or may play any card (any).", ("trump", "any")
)
must_beat = Boolean("Players must head the trick if able (Stichzwang).")

FOLLOWING: dict[str, Key] = {
    "first_lead": Key(
        first_lead,
        default="declarer",
        said=Said(
            "First lead",
            {"declarer": "by the lone player", "vorhand": "by Vorhand", "dealer": "by the dealer"},
            phrase={
                "declarer": "the declarer leads to the first trick",
                "vorhand": "Vorhand leads to the first trick",
                "dealer": "the dealer leads to the first trick",
            },
        ),
    ),
    "first_lead_offset": Key(
        first_lead_offset,
        default=0,
        said=Said(
            "First lead, seats on from there",
            "{value} seat(s) further on in the order of play",
            missing="none: that seat itself",
        ),
    ),
    "follow_suit": Key(
        follow_suit,
        default=True,
        said=Said(
            "Following suit",
            {True: "compulsory", False: "not required"},
            phrase={True: "players must follow suit", False: "players need not follow suit"},
        ),
    ),
    "when_void": Key(
        when_void,
        default="trump",
        said=Said(
            "A player void in the suit led",
            {"trump": "must trump", "any": "may play any card"},
            phrase={"trump": "a player void in the suit led must trump", "any": "a player void may play any card"},
        ),
    ),
    "must_beat": Key(
        must_beat,
        default=False,
        said=Said(
            "Duty to head the trick",
            {True: "yes", False: "no"},
            phrase={
                True: "each player must beat the highest card so far if able",
                False: "no duty to beat the cards played",
            },
        ),
    ),
}

# Rules of play a contract may state too, over the ruleset's.
EXTRAS: dict[str, Key] = {
    "last_of_suit": Key(
        cards(
            'Cards that may be played only when their holder has no other card that follows as they do (the Pagat only as the last trump in negative games), a set expression such as "{T1}".'
        ),
        said=Said("Cards kept to the last", text="last_of_suit"),
    ),
    "trumps": Key(
        Rule(
            "How trumps behave (Farben games).",
            {
                "win": Key(
                    Boolean(
                        "false: a trump wins only a trick in which trumps were led; a void player must still trump (default true)."
                    ),
                    default=True,
                ),
                "lead": Key(
                    Choice(
                        "only_if_nothing_else: trumps may not be led while the leader holds other cards.",
                        ("any", "only_if_nothing_else"),
                    ),
                    default="any",
                ),
            },
            provenance=False,
        ),
        said=Said("Trumps", text="play_trumps", missing="as in any suit game: they win", whole=True),
    ),
    "exceptions": Key(
        ListOf(
            "Exceptions to who wins a trick.",
            Rule(
                "When all these cards fall in one trick, the named one wins it (the Emperor trick: Sküs, XXI and I, the I wins).",
                {
                    "cards": cards('A set expression, e.g. "{T22, T21, T1}".'),
                    "wins": card(),
                    "when": condition(
                        'Only in a trick for which this holds, e.g. "led_trump" (the Emperor trick only on a trump lead); absent: in any trick.',
                        names.EXCEPTION,
                    ),
                },
                ("cards", "wins"),
            ),
        ),
        said=Said("Tricks won against the ranks", text="exceptions"),
    ),
    "duties": Key(
        ListOf(
            "Duties over the trick history (a general form of rules for particular tricks).",
            Rule(
                "A duty over the trick history for some cards, applied after following suit and trumping, in order. `must`: when it holds, a card of `cards` must be played if one is allowed. `may_not`: when it holds, no card of `cards` may be played unless nothing else is allowed (so a card that is its holder's only possible play still falls). Räuber: the Pfeife to the third trick in which a trump is led; the 21 not onto a trick holding the Stiess unless it is the last trump.",
                {
                    "cards": cards('The cards it is about, a set expression such as "{T1}" or "trumps".'),
                    "must": condition("When one of the cards must be played.", names.DUTY),
                    "may_not": condition("When none of the cards may be played.", names.DUTY),
                    "reason": reason(
                        "What a refusal tells the player.", Computed("these cards must (or may not) be played now")
                    ),
                },
                ("cards",),
            ),
        ),
        said=Said("Duties over the tricks played so far", text="duties", whole=True),
    ),
    "keep_back": Key(
        ListOf(
            "Cards kept back for a trick of their own.",
            Rule(
                "Cards their holder keeps for a trick of its own: played before it only when nothing else is allowed (the highest kept card first), and in it when allowed (as an announced bird is kept for its trick).",
                {
                    "cards": cards('The cards kept, a set expression such as "{T1}".'),
                    "until": Key(Integer("The trick they are kept for: 1 = the first, -1 = the last."), default=-1),
                },
                ("cards",),
            ),
        ),
        said=Said("Cards kept for a trick of their own", text="keep_back", whole=True),
    ),
    "suit_ranks": Key(
        ListOf(
            'The ranks of every suit from the highest to the lowest, by the names the pack gives them, instead of the pack\'s order (a Ten ranking low in a null game: [A, K, Q, J, "10", "9", "8", "7", "6"]). Every suit must have exactly these ranks; trumps of their own keep their order.',
            Text("A rank of the pack's suits."),
            min_items=2,
        ),
        said=Said("The suits rank", text="suit_ranks", missing="as the pack orders them"),
    ),
    "ends_early": Key(
        Rule(
            "Play stops after the trick that decides the contract (a Bettel lost with the declarer's first trick, a Valat lost with the opponents' first), and the cards not yet played are settled as `rest` says. Not for a contract in which everyone plays for themselves, nor one in which bonuses or announcements count: they are judged on tricks that would not be played.",
            {
                "when": condition(
                    'Asked after every trick but the last: play ends when it holds, e.g. "declarer_tricks > 0".',
                    names.PLAY_END,
                ),
                "rest": Key(
                    Choice(
                        "Where the cards not played count. holders: each card for its holder's side, and the tricks not played for nobody; declarer or defenders: that side takes them all, and the tricks not played count as its tricks; nobody: no side counts them.",
                        ("holders", "declarer", "defenders", "nobody"),
                    ),
                    default="holders",
                ),
                "reason": reason("What the table is told when play ends.", Computed("the contract is decided")),
            },
            ("when",),
        ),
        said=Said("Play ends early", text="ends_early", missing="never: every trick is played", whole=True),
    ),
}

play = Rule(
    "Trick play.",
    {
        **FOLLOWING,
        "withhold": Key(
            withhold,
            said=Said(
                "Withholding the only trump one could play (Gstiesieren)",
                text="withhold",
                missing="not allowed",
                whole=True,
            ),
        ),
        "excuse": Key(
            excuse,
            said=Said(
                "A card excused from following, which takes no part in its trick (the Excuse)",
                text="excuse",
                missing="none",
                whole=True,
            ),
        ),
        "trump_suit": Key(
            name("A suit that is trumps in every contract unless the contract says otherwise (Hearts in Tapp)."),
            said=Said("A suit that is always trumps"),
        ),
        "schedule": Key(
            ListOf(
                "Rules for particular tricks (the Gstieß, 21 and 1 in tricks 1–3 of a Dappen village).",
                scheduled,
            ),
            said=Said("Rules for particular tricks", text="schedule", whole=True),
        ),
        "discards_visible_until": Key(
            Integer("The declarer may look at their discards until this trick is over, not after (absent: always).", 0),
            said=Said("The lone player may look at the discards", "until the end of trick {value}", missing="no"),
        ),
        "tricks_seen": Key(
            Choice(
                "Which finished tricks a player may look at while the deal is played: all (every trick); last (only the last trick taken, until the next one is taken: the common rule); own (the last trick and every trick the player took). The cards of the trick under way are seen by all, and once the deal is over every trick is turned over. A player may remember what was played; this is what the table lets one look at again.",
                ("all", "last", "own"),
            ),
            default="all",
            said=Said(
                "Tricks taken may be looked at",
                {"all": "all of them", "last": "the last trick only", "own": "the last trick and one's own tricks"},
                missing="all of them",
            ),
        ),
        **EXTRAS,
    },
    ("first_lead",),
)


def _over_play(node: Node) -> Key:
    """A key of a contract's own rules of play: what the ruleset's `play` says where it is not
    written (every key inside it too); said in the sentence of the contract's rules of play."""
    if isinstance(node, Rule):
        node = Rule(
            node.description,
            {name: _over_play(key.node) for name, key in node.below()},
            node.required,
            node.provenance,
            node.exactly_one,
        )
    return Key(node, default=Computed("as the ruleset's play"))


contract_play = Rule(
    "This contract's own rules of play, over the ruleset's `play` (negative games: the declarer leads, must beat).",
    {
        "first_lead": _over_play(first_lead),
        "first_lead_offset": _over_play(first_lead_offset),
        "follow_suit": _over_play(follow_suit),
        "when_void": _over_play(when_void),
        "must_beat": _over_play(must_beat),
        **{key: _over_play(value.node) for key, value in EXTRAS.items()},
    },
)

PLAY = Key(play)
