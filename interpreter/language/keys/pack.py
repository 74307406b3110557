"""The keys of the pack, the players and the deal."""

from __future__ import annotations

from interpreter.language.keys.kinds import (
    NUMBER_PATTERN,
    Choice,
    Entries,
    Integer,
    Key,
    ListOf,
    OneOf,
    Rule,
    Said,
    Scalar,
    Text,
    card,
    cards,
    name,
)

suit = Rule(
    "One suit of the pack.",
    {
        "id": Text("One capital letter, the first letter of card ids of this suit (C, S, H, D).", "^[A-Z]$"),
        "name": name("The suit's name in conditions (clubs, spades, …); it is also the set of its cards."),
        "title": Text("The suit's name for display (Kreuz, Herz …)."),
        "symbol": Text("A symbol for display (♣ ♠ ♥ ♦)."),
        "ranks": ListOf(
            "The ranks from highest to lowest; a card id is the suit id followed by the rank (CK, C10, HA).",
            Scalar("A rank: K, Q, N, J, A or a number.", ("string", "integer")),
            min_items=1,
        ),
    },
    ("id", "name", "ranks"),
)

deck = Rule(
    "The pack: its cards, their order and values, and named sets of cards.",
    {
        "title": Key(Text("The pack's name for display."), default=""),
        "trumps": Rule(
            "Permanent trumps T1 … Tn (absent for a pack without them).",
            {
                "count": Integer("How many trumps: T1 (lowest) to Tcount (highest).", 1),
                "names": Entries("Display names of single trumps, by card id.", Text("The name."), card().schema()),
                "aliases": Entries(
                    "Other names players use for a trump, by card id.",
                    ListOf("Aliases.", Text("An alias.")),
                    card().schema(),
                ),
            },
            ("count",),
        ),
        "suits": ListOf("The suits, each with its ranks from high to low.", suit, min_items=1),
        "rank_titles": Entries("Display names of ranks (K: König).", Text("The name."), None),
        "rank_sets": Entries(
            "Named sets of suit cards by rank: kings: [K] makes the set `kings`.",
            ListOf("The ranks in the set.", Scalar("A rank.", ("string", "integer"))),
        ),
        "points": Rule(
            "Card values for counting.",
            {
                "default": Integer("The value of a card not listed."),
                "ranks": Entries("Values by suit rank.", Integer("The value."), None),
                "cards": Entries(
                    "Values of single cards by id (these win over ranks).",
                    Integer("The value."),
                    card().schema(),
                ),
            },
            ("default",),
        ),
        "sets": Entries(
            'More named sets of cards, each a set expression of the rules language ("{T22, T21, T1} | kings").',
            cards("A set expression."),
        ),
    },
    ("suits", "points"),
)

players = Rule(
    "Who plays.",
    {
        "active": Key(
            ListOf(
                "The numbers of active players the game allows.",
                Integer("A number of active players.", 2),
                min_items=1,
            ),
            said=Said("Active players", text="players"),
        ),
        "dealer_sits_out": Key(
            ListOf(
                'Table sizes at which the dealer sits out and is dealt no cards (8 at a Dappen table: 7 play); short for `sit_out` with the dealer alone (`{"8": [0]}`).',
                Integer("A number of people at the table.", 3),
            ),
            said=Said("The dealer sits out", text="sits_out", missing="never"),
        ),
        "sit_out": Key(
            Entries(
                'Who sits out and is dealt no cards, by table size: the positions counted from the dealer in the order of play (0 the dealer, 1 Vorhand, 2 the next ...). `sit_out: {"6": [0, 3]}`: at six, the dealer and the player opposite sit out and four play. `dealer_sits_out: [8]` is short for `sit_out: {"8": [0]}`; a table size is given by one of them only.',
                ListOf(
                    "The positions that sit out at this table size.",
                    Integer("A position counted from the dealer in the order of play (0 the dealer, 1 Vorhand).", 0),
                    min_items=1,
                ),
                {"pattern": NUMBER_PATTERN},
            ),
            said=Said("Seats that sit out", text="sit_out", missing="never", whole=True),
        ),
        "usual": Key(
            Integer(
                "People at the table as the game is usually played (Cego four, Dappen six): the table a game or session starts with when nobody says how many. One of the table sizes above; without it, the smallest.",
                2,
            ),
            said=Said("Players at a usual table", missing="not stated"),
        ),
    },
    ("active",),
)

direction = Key(
    Choice(
        "The direction of play at the table (display only: seats are numbered in order of play).",
        ("anticlockwise", "clockwise"),
    ),
    said=Said("Direction of play", missing="not stated"),
)

packet = Rule(
    "One step of the deal: `each: N` gives N cards to every active player in turn, `talon: N` puts N cards to the talon; `times` repeats a step to the players (`{each: 1, times: 8}`: one card at a time, eight rounds).",
    {
        "each": Integer("Cards to each active player, in order of play from Vorhand.", 1),
        "talon": Integer("Cards to the talon (Dapp, Cego, tapp).", 1),
        "times": Key(
            Integer(
                "How many times this step is dealt in a row (`{each: 3, times: 4}` is four packets of three to each player in turn); only a step to the players repeats, since cards to the talon in a row are one packet.",
                1,
            ),
            default=1,
        ),
    },
    provenance=False,
    exactly_one=("each", "talon"),
)

deal = Rule(
    "How the cards are dealt.",
    {
        "remove": Key(
            OneOf(
                "Cards taken out of the pack before dealing: one set expression for every number of active players, or one for each number that removes cards.",
                (
                    cards(
                        'A set expression of the cards removed whatever the number of players, such as "sixes" or "{C7, S7, D4}".'
                    ),
                    Entries(
                        'By number of active players: a set expression such as "sixes" or "{C7, S7, D4}".',
                        Key(
                            cards("A set expression of the cards removed."),
                            said=Said("Cards removed with {entry} players", text="cards", rule="deal.remove"),
                        ),
                        {"pattern": NUMBER_PATTERN},
                    ),
                ),
            ),
            said=Said("Cards taken out of the pack", text="removed", rule="deal.removed"),
        ),
        "plans": Entries(
            "The deal plan for each number of active players: packets in order.",
            Key(
                ListOf("The packets in order.", packet, min_items=1),
                said=Said("Deal with {entry} players", text="plan", rule="deal.plan", whole=True),
            ),
            {"pattern": NUMBER_PATTERN},
        ),
        "choice": Key(
            Rule(
                "The dealer chooses, before any card is dealt, how the cards are dealt: the plan of `plans` (named `usual`) or one of `plans` here. The choice (`{choose: NAME}`) is public; a deal given card by card (a record's `deal`) was dealt already and offers none, but may say its `plan`.",
                {
                    "usual": name("The name the dealer says for the plan of `deal.plans` (`hands_first`)."),
                    "plans": Entries(
                        "The other plans the dealer may choose, by name: each with its packets for the numbers of active players it is written for. A table of a number no other plan is written for has no choice. Every plan gives the hands and the talon as many cards as `deal.plans` does.",
                        Entries(
                            "The plan for each number of active players: packets in order.",
                            ListOf("The packets in order.", packet, min_items=1),
                            {"pattern": NUMBER_PATTERN},
                        ),
                    ),
                },
                ("usual", "plans"),
            ),
            said=Said(
                "The dealer chooses the deal", text="deal_choice", rule="deal.choice", whole=True, missing="never"
            ),
        ),
    },
    ("plans",),
)

# The pack is compared card by card (its suits, points and named sets), not key by key.
DECK = Key(deck, unsaid="the pack: shown as a table by `doc`, compared card by card (suits, points, sets)")
PLAYERS = Key(players)
DEAL = Key(deal)
