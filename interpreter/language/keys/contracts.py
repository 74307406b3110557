"""The keys of the contracts and their exchange, the claim and the announcements."""

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
    cards,
    condition,
    formula,
    name,
    reason,
    title,
)
from interpreter.language.keys.play import contract_play, scheduled

# -- the exchange -------------------------------------------------------------------------------

discard_class = Rule(
    "One class of cards to discard first.",
    {
        "when": condition("True for a card of the class.", names.DISCARD),
        "reason": reason(),
    },
    ("when", "reason"),
)

discard = Rule(
    "Put cards aside from the hand.",
    {
        "count": OneOf(
            "How many cards: a number, or `talon` for as many as the talon had.",
            (Integer("A number of cards.", 0), Const("As many as the talon had.", "talon")),
        ),
        "forbid": Rule(
            "Cards that may not be discarded.",
            {
                "when": condition("True for a card that may not be discarded.", names.DISCARD),
                "reason": reason(),
            },
            ("when", "reason"),
        ),
        "prefer": ListOf(
            "Classes of cards the discard takes first, judged on the discard as a whole: as many cards of the first class as it can, then of the next, and only then others (Königrufen: 'other trumps only if there is no choice' is one class, the cards that are not trumps; with two of them in hand, the discard of three holds both and one trump). A discard that could hold more of a class is refused with its reason. Too many choices to list come as a template whose `including` names the cards every discard must hold.",
            discard_class,
            min_items=1,
        ),
        "shown": condition(
            "True for a card of the discard that is laid face up for everyone to see; the others lie face down (Königrufen: a trump, discarded only when there is no choice; French Tarot: a trump in the chien). The discard's event names the cards shown. Absent: every card face down.",
            names.DISCARD,
        ),
        "all_or_none": ListOf(
            "Classes of cards that go aside together or not at all, judged on the discard as a whole: it holds every card of the class the hand may discard, or none of them ('all four Kings or none': with the four Kings in hand, a discard of six holds the four and two others, or no King). A discard holding some of a class but not all is refused with the class's reason. Too many choices to list come as one template for each way the classes can go (in or out).",
            discard_class,
            min_items=1,
        ),
    },
    ("count",),
)

keep = Rule(
    "Keep some cards of the dealt hand and discard the rest face down, before taking the talon. Announced with {keep: [...]}.",
    {
        "count": Integer("How many cards are kept.", 0),
        "from": Key(
            cards("The cards that may be kept, a set expression (default: any)."), default=Computed("any card")
        ),
        "prefer": cards(
            "As many kept cards as possible must come from this set (empty cards; picture cards named empty only for missing ones)."
        ),
        "same_suit": Key(Boolean("The kept cards must be of one suit."), default=False),
        "different_suits": Key(Boolean("The kept cards must be of different suits."), default=False),
        "exposed": Key(Boolean("The kept cards are laid face up; they can never win a trick."), default=False),
        "reason": reason("What a refused keep tells the player.", "these cards may not be kept together"),
    },
    ("count",),
)

forced_discard = Rule(
    "A discard the engine makes for the declarer (nobody's choice), e.g. the lowest Trock of the talon; if the set is empty the declarer discards a card of their choice.",
    {
        "cards": cards(
            'The card to discard, a set expression that can hold at most one card (the exchange counts a forced discard as one card; a set that could hold more is refused). E.g. "if count(taken & trumps) > 0 then {lowest(taken & trumps)} else {}".',
            names.FORCED,
        ),
        "shown": Key(Boolean("Whether it is shown to everyone."), default=True),
    },
    ("cards",),
)

take_talon = Rule(
    "How the talon is taken.",
    {
        "parts": Key(
            Integer(
                "The talon is laid out in this many equal parts and the declarer takes one ({choose: first|second|…}); the parts not taken stay in the talon and count as `out_of_play.talon` says (default 1: all of it).",
                1,
                6,
            ),
            default=1,
        ),
        "shown": Key(
            Boolean(
                "The talon is turned face up for everyone first (default false); with `count`, only the cards taken."
            ),
            default=False,
        ),
        "count": Integer(
            "Only this many cards are taken, from one end of the talon as it was dealt (its order is kept from the deal; a record's `talon` lists it from the top); the rest stays in the talon and counts as `out_of_play.talon` says (Dreierles: the bid names 3, 2 or 1). Not with `parts`. `discard: {count: talon}` then discards as many as were taken.",
            0,
        ),
        "from": Key(
            Choice(
                "With `count`: the end of the talon the cards are taken from (default top: the first cards dealt to it).",
                ("top", "bottom"),
            ),
            default="top",
        ),
        "rest_seen_by": Key(
            Choice(
                "With `count`: who looks at the cards left in the talon (default nobody); defenders: the declarer's opponents see them in their views, the declarer never does.",
                ("nobody", "defenders"),
            ),
            default="nobody",
        ),
    },
    provenance=False,
)

call_partner = Rule(
    "Which cards may be called.",
    {
        "from": Key(
            cards('The cards that may be called, a set expression (e.g. "kings"; default: any).'),
            default=Computed("any card"),
        ),
        "unnamed": Rule(
            "A call that does not name the card: the one card of `from` the declarer does not hold (the fourth King).",
            {
                "choice": name("Its name, said as {choose: NAME} (fourth_king)."),
                "when": condition('When it may be said. E.g. "count(hand & kings) == 3".', names.PARTNER),
            },
            ("choice",),
            provenance=False,
        ),
        "own_only_when": condition("When only cards the declarer holds may be called.", names.PARTNER),
    },
    provenance=False,
)


def _step(description: str, key: str, rule: Rule) -> Rule:
    """One kind of exchange step: a mapping with that one key."""
    return Rule(description, {key: rule}, (key,), provenance=False)


exchange_step = OneOf(
    "One step of the exchange, a mapping with one key.",
    (
        _step(
            "The declarer picks up the talon (nobody's turn: the engine does it); or, in parts, chooses one of them.",
            "take_talon",
            take_talon,
        ),
        _step(
            "The declarer calls a card ({call_card: CARD}) whose holder, when play starts, is their secret partner; calling an own card, or one out of play, means playing alone. The call is public, the holder is not: views and events tell the partner only once the card is seen or the partner speaks.",
            "call_partner",
            call_partner,
        ),
        _step(
            "The declarer names the trump suit at this point of the exchange ({choose: SUIT}), one of the contract's `trumps.choose`: after the steps before it, so after seeing the talon where it comes after `take_talon`. Without this step the suit is named first, before any other step.",
            "name_trumps",
            Rule(
                "Nothing to write (`name_trumps: {}`): the suits are the contract's `trumps.choose`.", provenance=False
            ),
        ),
        _step("The declarer discards cards face down.", "discard", discard),
        _step("The declarer keeps some cards and discards the rest.", "keep", keep),
        _step("The engine discards for the declarer.", "forced_discard", forced_discard),
        _step(
            "The declarer calls a card they do not hold ({call_card: CARD}) and receives it from its holder (from the talon if nobody holds it, unless `in_talon: stays`).",
            "call_card",
            Rule(
                "The card that may be called.",
                {
                    "from": Key(
                        cards("The cards that may be called, a set expression (default: any not held)."),
                        default=Computed("any card not held"),
                    ),
                    "in_talon": Key(
                        Choice(
                            "A called card that nobody holds, lying in the talon: take (default), the declarer takes it from the talon, and a `give` step after it puts the card given into the talon; stays, it stays there and nothing is exchanged: the declarer receives no card, and the `give` step after it is left out (told to everyone by the call's event).",
                            ("take", "stays"),
                        ),
                        default="take",
                    ),
                },
                provenance=False,
            ),
        ),
        _step(
            "The declarer gives a card of their choice ({give: CARD}) to the holder of the called card.",
            "give",
            Rule(
                "Which card may be given.",
                {
                    "other_than_called": Key(
                        Boolean("Not the card just called (it is given 'in exchange' for it); default false."),
                        default=False,
                    )
                },
                provenance=False,
            ),
        ),
    ),
)

# -- how a contract is played and paid ----------------------------------------------------------

opening_leads = Rule(
    "The declarer leads the first tricks with the cards exposed in the exchange, one trick each.",
    {
        "replace_same_suit": Key(Boolean("Another card of an exposed card's suit may be led instead."), default=False),
        "together": Key(
            Boolean(
                "Those tricks are played at once: the declarer lays all the leads, then each player in turn adds one card to each trick, first to the first; the winner with the higher card leads next."
            ),
            default=False,
        ),
        "suit_order": ListOf(
            "Breaks a tie between equal winning cards of the tricks played together, highest first (C, S, H, D).",
            Text("A suit id."),
        ),
        "declarer_leads_after": Key(
            Boolean("The declarer leads the trick after the opening tricks too, whoever won them."), default=False
        ),
    },
)

individual_payment = Rule(
    "One class of payments: who pays whom, how much, how matched.",
    {
        "payers": Key(
            condition(
                "Who pays: a condition per seat, or `others` (everybody but the receiver). It may read the other seats too: `points >= 36` pays alone where the rest read `most_points < 36`.",
                names.PAYMENT,
            ),
            default="others",
        ),
        "receivers": Key(
            condition("Who is paid: a condition per seat, or `others` (everybody but the payer).", names.PAYMENT),
            default="others",
        ),
        "amount": formula(
            "What each payment is (read for the payer; for the receiver when the payers are `others`).",
            names.PAYMENT,
        ),
        "match": Key(
            Choice(
                "each (default): every payer pays every receiver; pairs: one to one, the payer with most points the receiver with least, and so on.",
                ("each", "pairs"),
            ),
            default="each",
        ),
    },
    ("amount",),
)

individual = Rule(
    "Everyone plays for themselves (Räuber, Dresch); one player loses and pays each other player; or several classes of payments (Trischaken).",
    {
        "payments": ListOf(
            "Classes of payments, each added to the others (instead of loser and pays_each).", individual_payment
        ),
        "loser": Choice(
            "Who loses: the player with most card points in their own tricks, or the winner of the last trick.",
            ("most_points", "last_trick"),
        ),
        "ties": Key(
            Choice(
                "A tie for most points: Vorhand loses if among them, else all tied lose (vorhand_else_all); or all tied lose (all).",
                ("vorhand_else_all", "all"),
            ),
            default="all",
        ),
        "pays_each": formula(
            "What each loser pays each other player (negative: receives).",
            names.INDIVIDUAL,
        ),
    },
)

SIDES = ("declarer", "defenders", "nobody")
routes = OneOf(
    "Where these cards count: one side (declarer: the declarer's side; defenders; nobody), or a list of routes, the first whose `when` holds.",
    (
        Choice("One destination.", SIDES),
        ListOf(
            "Routes in order; the last has no `when`.",
            Rule(
                "One route.",
                {
                    "to": Choice("The side they count for.", SIDES),
                    "when": condition("When this route applies (absent: always).", names.ROUTE),
                },
                ("to",),
            ),
        ),
    ),
)


def _contract(
    rule: str,
    label: str,
    *,
    text: str | None = None,
    missing: str = "none",
    whole: bool = False,
) -> Said:
    """The sentence of a rule of one contract, labelled with the contract's title."""
    return Said("{contract} " + label, text=text, missing=missing, rule=f"contract.{rule}", whole=whole)


AS_COUNTING = "as counting says"

contract = Rule(
    "A game that can be played: its exchange, its play and its value.",
    {
        "title": title("The display name.", Computed("the contract's name")),
        "like": Key(
            name("Another contract whose rules this one takes, stating only what differs."),
            unsaid="resolved by the compiler: the rules it takes are compared",
        ),
        "allowed": Key(
            Boolean(
                "false: a contract this table does not play (default true): it and every bid that would play it (ladder levels, a winning bidder's choices, interrupts, side bids) are left out, so that an option can add a contract with `allowed: true` (or remove one with `allowed: false`) without rewriting the ladder, and several such options combine. Taken over by `like`, as any rule."
            ),
            default=True,
            unsaid="a contract not allowed is not in the rules at all",
        ),
        "exchange": Key(
            ListOf("The exchange steps in order; absent: no exchange, the talon stays aside.", exchange_step),
            said=_contract("exchange", "exchange", text="exchange", missing="none (the talon stays aside)", whole=True),
        ),
        "factor": Key(
            OneOf(
                "The multiplier in the settlement: a number, or won/lost.",
                (
                    Integer("The same whether won or lost."),
                    Rule(
                        "Different when won and lost.",
                        {"won": Integer("When the declarer wins."), "lost": Integer("When the declarer loses.")},
                        ("won", "lost"),
                        provenance=False,
                    ),
                ),
            ),
            said=_contract("factor", "factor", text="factor", whole=True),
        ),
        "declarer_wins": Key(
            condition("This contract's own winning condition (default: the settlement's).", names.OUTCOME),
            default=Computed("the settlement's"),
            said=_contract("declarer_wins", "is won when", text="code", missing="as the settlement says"),
        ),
        "amount": Key(
            formula("This contract's own amount (default: the settlement's).", names.AMOUNT),
            default=Computed("the settlement's"),
            said=_contract("amount", "amount per opponent", text="code", missing="as the settlement says"),
        ),
        "opening_leads": Key(opening_leads, said=_contract("opening_leads", "opening leads", text="leads", whole=True)),
        "individual": Key(individual, said=_contract("individual", "scoring", text="individual", whole=True)),
        "talon_counts": Key(
            Boolean("Whether the talon and discards count for anyone (default true; false in Cego's special games)."),
            default=True,
            said=Said(
                "{contract} talon and discards",
                {True: "count as counting says", False: "count for nobody"},
                rule="contract.talon_counts",
            ),
        ),
        "trumps": Key(
            Rule(
                "A trump suit for this contract, besides any permanent trumps: fixed, or named by the declarer with {choose: SUIT} after the auction.",
                {
                    "suit": name("The suit's name (hearts)."),
                    "choose": ListOf("The suits the declarer may name.", name()),
                    "none": Key(
                        Boolean("No suit is trumps (a Bettel), whatever the ruleset's trump suit."), default=False
                    ),
                },
                provenance=False,
            ),
            said=_contract("trumps", "trumps", text="trumps", missing="the permanent trumps only", whole=True),
        ),
        "open_hand": Key(
            OneOf(
                "Hands shown to everyone: true, the declarer's from the first lead (Bettel Ouvert); or who and from which trick.",
                (
                    Boolean("The declarer's hand from the first lead."),
                    Rule(
                        "Whose hands, and from when.",
                        {
                            "who": Key(
                                Choice("The declarer's hand, or every hand.", ("declarer", "all")), default="declarer"
                            ),
                            "from_trick": Key(
                                Integer("Shown once a card is led to this trick (default 1: from the first lead).", 1),
                                default=1,
                            ),
                        },
                        provenance=False,
                    ),
                ),
            ),
            default=False,
            said=_contract("open_hand", "hands", text="open_hand", missing="hidden", whole=True),
        ),
        "pot": Key(
            formula(
                "With a pot: what the declarer pays into it after the deal (negative: takes from it, never more than it holds: a formula asking for more takes the whole pot, which never falls below zero).",
                names.POT,
            ),
            said=_contract("pot", "payment into the pot", text="code"),
        ),
        "talon_to_last_trick": Key(
            Boolean("Everyone for themselves: the talon goes to whoever wins the last trick (Ramsch)."),
            default=False,
            said=Said(
                "{contract} talon at the end",
                {True: "goes to the winner of the last trick", False: AS_COUNTING},
                rule="contract.talon_to_last_trick",
            ),
        ),
        "play": Key(
            contract_play,
            said=_contract("play", "rules of play", text="play_rules", missing="as in play", whole=True),
        ),
        "out_of_play": Key(
            Rule(
                "Where the cards out of play count in this contract, instead of `counting.aside` (a partial talon's rest to the defenders; Solo's talon to the defenders unless the called card lies in it).",
                {
                    "talon": Key(
                        routes,
                        default=Computed("as counting.aside says"),
                        said=Said(
                            "{contract} talon not taken counts for",
                            text="routes",
                            missing=AS_COUNTING,
                            rule="contract.out_of_play.talon",
                        ),
                    ),
                    "discards": Key(
                        routes,
                        default=Computed("as counting.aside says"),
                        said=Said(
                            "{contract} discards count for",
                            text="routes",
                            missing=AS_COUNTING,
                            rule="contract.out_of_play.discards",
                        ),
                    ),
                },
            ),
            said=_contract("out_of_play", "cards out of play", text="out_of_play", missing=AS_COUNTING),
        ),
        "bonus_factor": Key(
            Integer("Every bonus counts this many times in this contract (Solo: 2; default 1).", 0),
            default=1,
            said=_contract("bonus_factor", "bonuses count", text="bonus_factor", missing="once"),
        ),
        "bonuses": Key(
            ListOf("The bonuses that count in this contract (default: all; [] none, as in negative games).", name()),
            said=_contract("bonuses", "bonuses that count", text="contract_bonuses", missing="all"),
        ),
        "must_announce": Key(
            Rule(
                "The declarer must announce one of these bonuses in their first turn of the round of announcements (Besserrufer's bird).",
                {"one_of": ListOf("Bonuses that may be announced.", name(), min_items=1)},
                ("one_of",),
            ),
            said=_contract("must_announce", "compulsory announcement", text="must_announce", whole=True),
        ),
        "concede": Key(
            Rule(
                "The declarer may give up after seeing the talon ({choose: concede}, or pass to play on), paying each opponent.",
                {
                    "when": condition("When conceding is allowed.", names.CONCEDE),
                    "pays": formula("What the declarer pays each opponent.", names.BREACH),
                },
                ("when", "pays"),
            ),
            said=_contract("concede", "giving up", text="concede", missing="not allowed", whole=True),
        ),
        "talon_to_tricks": Key(
            Rule(
                "The talon's top card is turned up and added to each of the first tricks, to their winners (Trischaken).",
                {"first": Integer("How many tricks take a talon card.", 1)},
                ("first",),
            ),
            said=_contract(
                "talon_to_tricks", "talon during play", text="talon_to_tricks", missing=AS_COUNTING, whole=True
            ),
        ),
        "schedule": Key(
            ListOf(
                "This contract's own rules for particular tricks (geregelter Räuber), instead of play.schedule.",
                scheduled,
            ),
            said=_contract(
                "schedule", "rules for particular tricks", text="schedule", missing="as in play", whole=True
            ),
        ),
        "doubling": Key(
            Rule(
                "Everyone for themselves (`individual`): before the first lead each player in turn, once, may double the game ({kontra: game}) or say the round of announcements' done call (else pass); each doubling multiplies the payments, whose formulas read `kontra` (Räuber's knocking).",
                {
                    "start": Key(
                        Choice(
                            "Who may double first: Vorhand (default), or the last player to speak in the auction (the last who passed); then round the table in the order of play.",
                            ("vorhand", "last_passer"),
                        ),
                        default="vorhand",
                    ),
                    "sitting_out": Key(
                        Boolean(
                            "The seats that sit out (a dealer who sits out) have a turn too, each in its place at the table (default false)."
                        ),
                        default=False,
                    ),
                    "title": title("What a doubling is called (Klopfen).", "Kontra"),
                },
            ),
            said=_contract("doubling", "doubling, everyone for themselves", text="doubling", whole=True),
        ),
    },
)

CONTRACTS = Key(
    Entries(
        "The contracts by name.",
        Key(contract, said=Said("{contract}", text="contract", missing="no such contract", rule="contract")),
    )
)

# -- showing the hand, and announcements --------------------------------------------------------

claim = Rule(
    "A hand the declarer shows instead of playing.",
    {
        "when": condition(
            "Checked on the declarer's hand after picking up the talon and before the first lead.", names.HAND_ONLY
        ),
        "scores_as": Choice("march: scored as though the declarer took every trick.", ("march",)),
        "factor": Integer("The factor it is scored with, whatever was bid (absent: the contract's own)."),
        "liable": Key(
            Boolean(
                "Whether the settlement's liable payers apply to it (default true); false: each opponent pays their own share."
            ),
            default=True,
        ),
    },
    ("when", "scores_as"),
)

CLAIM = Key(claim, said=Said("Showing the hand instead of playing it", text="claim", missing="not allowed", whole=True))

declaration = Rule(
    "What a declaration without cards commits to (Tout: every trick).",
    {
        "wins": condition("The declarer's aim once declared.", names.OUTCOME),
        "multiplier": Key(Integer("What the game's value is multiplied by (default 1).", 1), default=1),
        "amount": formula("The game's value once declared, instead of the settlement's.", names.AMOUNT),
        "releases_exposed": Key(
            Boolean(
                "The cards laid face up in the exchange go back into the hand: they no longer lead nor lose (ich spiele die Pfeif' frei)."
            ),
            default=False,
        ),
        "priced": Key(
            Choice(
                "played (default): the declaration is worth the game's value as played (times the multiplier). all_tricks: won or lost, it is worth what the contract pays when the declarer takes every trick and every card point (a slam's own value), times the multiplier: a failed Tout costs what a made one earns.",
                ("played", "all_tricks"),
            ),
            default="played",
        ),
    },
    ("wins",),
)

announcement = Rule(
    "Cards the declarer may lay out face up before the first lead (Ulti): each commits to win one of the last tricks with it, the lowest laid card the last trick, the next the one before; laid cards may be played only when nothing else is legal, highest first; each is won or lost on its own and paid by or to every opponent. Announced with {announce: NAME, cards: [...]}, or `pass`.",
    {
        "title": title("The display name.", Computed("the announcement's name")),
        "cards": cards('The cards that may be laid out, a set expression such as "{T1, T2, T3}".'),
        "value": formula("What one laid card is worth to or from each opponent.", names.CARD_ONLY),
        "declares": declaration,
        "contracts": ListOf("The contracts it may be made in (default: all).", name()),
    },
)

ANNOUNCEMENTS = Key(
    Entries(
        "Announcements the declarer may make before the first lead, by name.",
        Key(
            announcement,
            said=Said(
                "Announcement {announcement}",
                text="announcement",
                missing="no such announcement",
                rule="announcement",
                whole=True,
            ),
        ),
    )
)
