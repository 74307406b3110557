"""The keys of counting, scoring, bonuses, announcements and kontra, and what is paid outside a
deal's game (penalties, the pot). The session is declared in `session`."""

from __future__ import annotations

from interpreter.language.keys import names
from interpreter.language.keys.kinds import (
    Boolean,
    Choice,
    Computed,
    Const,
    Entries,
    Integer,
    Key,
    ListOf,
    OneOf,
    Rule,
    Said,
    Text,
    card,
    condition,
    formula,
    name,
    title,
)

counting = Rule(
    "How card points are counted.",
    {
        "packet": Key(
            Integer("Cards are counted in packets of this many (2: pairs, 3: threes, 1: one by one).", 1),
            default=1,
            said=Said("Counting", text="packet"),
        ),
        "packet_deduct": Key(
            Integer("Points taken off each full packet.", 0), default=0, said=Said("Points taken off each packet")
        ),
        "remainder_deduct": Key(
            Integer("Points taken off the cards left over (an incomplete packet).", 0),
            default=0,
            said=Said("Points taken off the cards left over"),
        ),
        "declarer_bonus": Key(
            formula("Points added to the declarer's count (three-player Cego's missing point).", names.ASIDE),
            said=Said("Points added to the lone player's", text="code"),
        ),
        "aside": Key(
            Rule(
                "Whose the cards out of play are (the talon, or the discards after an exchange).",
                {
                    "counts_for": Key(
                        Choice("The side they count for.", ("declarer", "defenders", "nobody")), default="declarer"
                    ),
                    "unless": condition("When they count for the defenders instead.", names.ASIDE),
                },
                ("counts_for",),
            ),
            said=Said("The talon and discards count for", text="aside", whole=True),
        ),
    },
    ("packet",),
)

liable = Rule(
    "Opponents who pay for the whole team in a given case (a Marsch against a second bidder or a withholder).",
    {
        "when": condition("When they do.", names.LIABLE_WHEN),
        "seats": ListOf(
            "Who is liable.",
            Choice(
                "other_bidders: opponents who bid in the auction; withholders: opponents who withheld a card.",
                ("other_bidders", "withholders"),
            ),
            min_items=1,
        ),
        "pays": formula("What each liable opponent pays.", names.LIABLE),
        "others_pay": formula("What each other opponent pays.", names.LIABLE),
    },
    ("when", "seats", "pays", "others_pay"),
)

settlement = Rule(
    "Who pays whom after the play.",
    {
        "unit": Key(
            Text("The unit of payments (cent, Pfennig, point)."), default="point", said=Said("Unit of payment")
        ),
        "declarer_wins": Key(
            condition("Whether the declarer won.", names.OUTCOME),
            said=Said("{Declarer} wins when", text="code", missing="not stated"),
        ),
        "amount": Key(
            formula(
                "What the declarer receives from, or pays to, each defender; `score` where the settlement gives one.",
                names.AMOUNT,
            ),
            said=Said("Amount per opponent", text="code", missing="not stated"),
        ),
        "score": Key(
            formula(
                "The points a game's value is reckoned from, before the contract's factor (classic Tapp: the card points above 60, or all of them), so that a reading can change it alone; value formulas (amount, pot, liable payments, a declaration's amount) may write `score` for it, which stands for this formula.",
                names.AMOUNT,
            ),
            unsaid="written out into the value formulas that read it",
        ),
        "drawn": Key(
            condition(
                "When the game is drawn: nobody scores and a pot is untouched (60 to 60 where the declarer needs 61). Not applied once a declaration (Tout) has changed the aim. It may read the game's value as reckoned, `amount` (and what the value formulas read), worked out first: `amount == 0` is a game worth nothing drawn.",
                names.DRAWN,
            ),
            said=Said("The game is drawn when", text="code", missing="never"),
        ),
        "payment": Key(
            Choice(
                "each_defender: the declarer receives the amount from each defender, or pays it to each.",
                ("each_defender",),
            ),
            default="each_defender",
            said=Said("Payment", text="payment"),
        ),
        "sitting_out": Key(
            Choice(
                "Whether the seats that sit out (`players.sit_out`: a dealer who sits out, and any other seat) settle like defenders or take no part.",
                ("no_part", "defender"),
            ),
            default="no_part",
            said=Said(
                "Whoever sits out",
                {"no_part": "takes no part in the settlement", "defender": "pays and receives like an opponent"},
            ),
        ),
        "liable": Key(
            ListOf("Cases where some opponents pay for the whole team; the first that applies is used.", liable),
            said=Said("Opponents who pay for the whole team", text="liable", whole=True),
        ),
        "stake": Key(
            Integer(
                "Every payment of a deal is multiplied by this: the money per point (default 1; 10 where the table plays for ten times the stake, as after Cego's round of compulsory Räuber).",
                1,
            ),
            default=1,
            said=Said("Every payment is multiplied by", {1: "1 (paid as reckoned)"}),
        ),
        "split": Key(
            Rule(
                "How the declarer's side shares what the opponents pay it (or what it pays them) when the declarer has a partner: in these proportions (French Tarot for five: {declarer: 2, partner: 1}). Default: equal shares (2 v 2: each loser pays one winner). A total that these weights do not divide is refused when the ruleset loads where that can be known (a game or bonus of a fixed value, times the opponents who pay it); where it cannot (a value reckoned from the card points), the declarer takes the remainder, gained or lost.",
                {
                    "declarer": Integer("The declarer's share.", 1),
                    "partner": Integer("The partner's share.", 1),
                },
                ("declarer", "partner"),
                provenance=False,
            ),
            default=Computed("equal shares"),
            said=Said("A declarer and partner share", text="split", missing="equally", whole=True),
        ),
    },
    ("declarer_wins", "amount"),
)

# A bonus is judged for a side, or (scope: seat) for each player's hand.
JUDGED = (
    ("for the side judged (scope side)", names.BONUS_JUDGED),
    ("for a combination in a hand (scope seat), per active seat", names.SEAT_BONUS),
)

bonus = Rule(
    "A bonus judged at the end of the deal for each side, scored apart from the game and paid like it (each opponent to or from the side); × the contract's bonus_factor × 2 per kontra.",
    {
        "title": title("The display name.", Computed("the bonus's name")),
        "achieved": condition(
            "When the side made it. `count(hand & trumps) >= 10 and (announced or not is_declarer)` is ten trumps that the declarer must announce and the others claim at the end.",
            JUDGED,
        ),
        "value": formula(
            "Its value made silently (per payment); absent: it scores only when announced (Sack). Doubled with the game where it reads `kontra` (`1 * kontra`); otherwise a kontra of the game leaves it alone.",
            names.BONUS_VALUE,
        ),
        "announced": formula(
            "Its value when announced (made: plus; not made: minus); absent: it cannot be announced. Its own kontras double it apart from `kontra`, the game's.",
            names.BONUS_VALUE,
        ),
        "attempted": condition(
            "A silent attempt: when it holds and the bonus was not made, the side scores minus `value` (a bird played in its trick and beaten). A side's bonus only: refused with `scope: seat`.",
            JUDGED,
        ),
        "card": OneOf(
            "Announced, this card is kept back for its trick: played only then (if legal) or when nothing else is; `called`: the card called for a partner (King ultimo's King), kept back by the side that holds it.",
            (card(), Const("The card called for a partner in the deal.", "called")),
        ),
        "trick": Integer("The card's trick: 1 the first, -1 the last, -2 the one before."),
        "replaces_game": Key(
            OneOf(
                "The bonus stands alone: the game and every other bonus are not scored beside it (a Valat). true: whenever it scores, made or lost; made: only when made (an announced one that fails is scored beside the game like any other bonus); false (default): never.",
                (
                    Boolean("true: whenever it scores (made, or announced or attempted and lost)."),
                    Const("Only when it is made.", "made"),
                ),
            ),
            default=False,
        ),
        "requires": condition(
            "Who may announce it, per seat; for a combination in a hand (scope seat) also who may have it at all (Iffezheim: `is_declarer`). King ultimo only where a King is called: `card_called`.",
            names.SEAT,
        ),
        "scope": Key(
            Choice(
                "side (default): judged for each side on its tricks and paid between the sides. seat: a combination in one player's hand when play starts (ten trumps, the Drull, four Kings), or a thing of that player's own play (`played`, `captured`: a seat whose Mond was captured, `T21 in captured`), judged for every active seat, any of them, and paid to its holder by each other player at the table (a dealer who sits out too, when `settlement.sitting_out` is defender), whichever side they are on; a negative value is a penalty, which the seat pays each of them. Silent ones are claimed at the end without a word. Outside the game's multiplier and kontra like every bonus, unless its value reads `kontra`.",
                ("side", "seat"),
            ),
            default="side",
        ),
        "whose": Key(
            Choice(
                "Whose bonus it is (scope side): either (default) side's, judged for each; declarer: only the declarer's side's (King ultimo, won by either partner; the Pfeife in the last trick); defenders: only theirs (the called King captured). Only that side may announce it, and only that side scores it, made or lost: the other side's doing the same is no bonus (the defenders taking the called King in the last trick is paid by their own bonus, not as a King ultimo). For a combination in a hand (scope seat): who may have it (declarer: the declarer and the partner).",
                ("either", "declarer", "defenders"),
            ),
            default="either",
        ),
        "forced_early": Key(
            Choice(
                "An announced `card` kept back for its `trick` but forced out before it (nothing else was legal): lost (default) the bonus is lost; forfeit: also that trick and every later one count for the other side, cards and tricks (Pfeife raus forced out). The play goes on to the end; the event `forfeit` tells the table.",
                ("lost", "forfeit"),
            ),
            default="lost",
        ),
    },
    ("achieved",),
)

BONUSES = Key(
    Entries(
        "Bonuses judged at the end of a deal for each side (Trull, Pagat ultimo, Valat), by name.",
        Key(bonus, said=Said("{bonus}", text="bonus", missing="no such bonus", rule="bonus", whole=True)),
    )
)

NO_ROUND = "no round of announcements"
ANNOUNCING = Key(
    Rule(
        "A round of announcements after the exchange: starting with `start`, each in turn announces bonuses ({announce: NAME}) and doubles ({kontra: game|BONUS}), any number, then says `done`; it ends when everybody has spoken and the last players − 1 turns said nothing. Saying something makes the speaker's side public.",
        {
            "start": Key(
                Choice("Who speaks first (default declarer).", ("declarer", "vorhand")),
                default="declarer",
                said=Said(
                    "The round of announcements begins with",
                    {"declarer": "the declarer", "vorhand": "Vorhand"},
                    missing=NO_ROUND,
                ),
            ),
            "done": Key(
                name("The call that ends a turn (default pass)."),
                default="pass",
                said=Said("A turn of announcements ends with the call", "“{value}”", missing=NO_ROUND),
            ),
            "may_announce": Key(
                condition(
                    "Who may announce bonuses, per seat (`not spoken` allows announcements only before one's first done call, Dreierles' 'fertig').",
                    names.SEAT,
                ),
                said=Said("Who may announce a bonus", "a player for whom {code}", missing="anyone"),
            ),
        },
    ),
    said=Said("Announcements after the exchange", text="announcing"),
)

kontra_rule = Rule(
    "Doubling an item: the other side of whoever doubled it last (first: the side that does not own it) may double it again.",
    {
        "max": OneOf(
            "How many times it may be doubled (3: kontra, rekontra, subkontra), or `none`: no fixed number, each player doubling it at most once (as everybody knocks once in a Räuber), so that doubling still ends, after one double per player at most.",
            (
                Integer("A number of doublings, 1 or more.", 1),
                Const("`none`: no fixed number, each player doubling it at most once.", "none"),
            ),
        ),
        "titles": ListOf("The name of each doubling, in order.", Text("A title.")),
        "eligible": condition(
            "Who may double, per seat (absent: anyone of the side whose turn it is to double). Dreierles' 'an opponent who could have bid Dreier and passed may not knock' is `made_bid or bid_before_turn`.",
            names.KONTRA,
        ),
    },
    ("max",),
)

KONTRA = Key(
    Rule(
        "Doubling in the round of announcements: the game (its amount reads `kontra`, 2 per doubling) and each announced bonus separately.",
        {
            "game": Key(kontra_rule, said=Said("Doubling the game", text="kontra", missing="not allowed", whole=True)),
            "bonuses": Key(
                kontra_rule,
                said=Said("Doubling an announced bonus", text="kontra", missing="not allowed", whole=True),
            ),
            "answer": Key(
                Choice(
                    "When a doubling is answered. round (default): when the other side's turn of the round comes, as everything else is said. at_once: the turn goes straight to the first seat after the doubler, in the order of speaking, of the other side that may double the item again (seats with nothing to say are skipped); it doubles again ({kontra: ITEM}), and the turn goes on in the same way, or says the done call, which ends the chain and closes the item to doubling; then the turn is back with the seat whose turn of the round it was (Skat's Kontra and Re). The sides must be known to everybody: not with a partner called by a card, nor with an `eligible` that reads the hand.",
                    ("round", "at_once"),
                ),
                default="round",
                said=Said(
                    "A doubling is answered",
                    {
                        "round": "when the other side's turn of the round comes",
                        "at_once": "at once, by the other side's first seat that may double again; the chain ends at the first no",
                    },
                    missing="no doubling",
                ),
            ),
        },
    ),
    said=Said("Kontra", text="kontra_section"),
)

ACCUSATION = Key(
    Rule(
        "Skinning a Solo: after everybody passed `phase`, the final bidder may, having picked up the talon, accuse the others ({choose: accuse}, or pass) of having passed with a hand meeting `strong`; a guilty player pays each other player as the loser of the final game with no trick; if nobody is guilty, the accuser does.",
        {
            "phase": name("The auction phase everybody must have passed (the Solo round)."),
            "strong": condition("A hand that 'has a Solo', on the cards dealt.", names.HAND_ONLY),
        },
        ("phase", "strong"),
    ),
    said=Said("Accusing a skinned Solo", text="accusation", missing="not allowed", whole=True),
)

PENALTIES = Key(
    Rule(
        "Rule breaches in games recorded in the field: refused (the default), or accepted with the deal abandoned and the offender paying each other player.",
        {
            "mode": Key(
                Choice(
                    "refuse: the engine refuses the action; penalize: it stands and is penalised.",
                    ("refuse", "penalize"),
                ),
                default="refuse",
            ),
            "offences": ListOf(
                "The offences penalised.",
                Choice(
                    "revoke: a card against the duty to follow or trump; discard: an incorrect discard, either one the rules of what may go aside do not allow (a King laid away where Kings may not be: the deal ends there) or a card led before the exchange is finished; discard_size: a discard of the wrong number of cards (different cards held, three where two were due: the deal ends there); misdeal: a recorded deal with a hand or the talon of the wrong size (the dealer pays).",
                    ("revoke", "discard", "discard_size", "misdeal"),
                ),
            ),
            "pays_each": formula("What the offender pays each other player.", names.PENALTY),
            "paid_by": Key(
                Choice(
                    "Who pays it. offender (default): the offender, `pays_each` to each other player. side: once there are sides (an offence in the exchange or the play of a declarer's game), the offender's side, as a lost game is paid: each player of the other side receives `pays_each` once (2 v 2: each of the offender's side pays one opponent; a lone declarer pays each of the others; each defender pays a lone declarer), shared as `settlement.split` says; before there are sides, and where everyone plays alone, the offender alone.",
                    ("offender", "side"),
                ),
                default="offender",
            ),
        },
        ("offences", "pays_each"),
    ),
    said=Said("Offences at the table", text="penalties", missing="refused", whole=True),
)

POT_ANTE = Key(
    formula("With a pot: what the dealer pays into it at the start of each deal.", names.BREACH),
    said=Said("The dealer pays into the pot", text="code"),
)
