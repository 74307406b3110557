"""The keys of the session: the evening around the deals. Who deals next, how many deals or
rounds are played and what ends them, rounds with rules of their own (a closing round, a round
at a signal after which the stake changes), and the score sheet kept across the deals."""

from __future__ import annotations

from interpreter.language.keys import names
from interpreter.language.keys.kinds import (
    Choice,
    Entries,
    Integer,
    Key,
    ListOf,
    Rule,
    Said,
    Text,
    card,
    condition,
    formula,
    name,
    title,
)

DEALERS = ("next", "same", "declarer", "after_declarer")
DEALER_WORDS = {
    "next": "the next seat in the order of play",
    "same": "the same dealer again",
    "declarer": "the last declarer",
    "after_declarer": "the seat after the last declarer",
}
DEALER_HELP = (
    "next (the seat after the dealer, in the order of play), same (the same dealer again), declarer "
    "(whoever was declarer in the deal just played), after_declarer (the seat after that declarer). "
    "Where the deal had no declarer, declarer and after_declarer mean next."
)

dealer_when = Rule(
    "A condition over the deal just played, and who deals next when it holds.",
    {
        "when": condition("When this rule applies.", names.LAST_DEAL),
        "dealer": Choice(f"Who deals next then: {DEALER_HELP}", DEALERS),
    },
    ("when", "dealer"),
)

OPTIONS = Entries(
    "Readings and options by name, each with the choice this rule takes (`{last_round: raeuber_or_solo}`); "
    "they must be the ruleset's own.",
    Key(Text("The choice's name."), unsaid="said with the round's choices, as one sentence"),
)

special_round = Rule(
    "A round with rules of its own: its deals are played with some of the ruleset's readings and options "
    "chosen for them (a compulsory contract, a restricted choice of bids), and other choices may hold for "
    "every deal after it (a higher stake).",
    {
        "title": title(),
        "at": Key(
            Choice(
                "When the round is played: end (a closing round, once the session's end is reached: after its "
                "deals or rounds, when `until` holds, or when a player asks to stop), or signal (when a player "
                "or the clock gives the signal, from the next deal on).",
                ("end", "signal"),
            ),
            default="end",
        ),
        "rounds": Key(
            Integer("How many rounds it lasts: in a round every seat deals once, continuing the order of dealing.", 1),
            default=1,
        ),
        "options": OPTIONS,
        "after": OPTIONS,
    },
    ("options",),
)

sheet = Rule(
    "A score sheet: each deal writes a score to each seat (which need not add up to zero: only the declarer's "
    "side written, or each player's own points), and the sheet is settled when the session ends.",
    {
        "score": Key(
            formula("What each seat writes after a deal.", names.SHEET),
        ),
        "start": Key(
            Integer("The score every seat starts with."),
            default=0,
        ),
        "settle": Key(
            Choice(
                "How the sheet is paid at the end: differences (every two players settle the difference of "
                "their scores: a seat wins its score times the players, less the sum of all scores, times the "
                "stake), or per_point (each seat wins or pays its score less the starting score, times the "
                "stake: meant for a sheet whose rows add up to zero).",
                ("differences", "per_point"),
            ),
            default="differences",
        ),
        "stake": Key(
            Integer("The money a point of the sheet is worth at the end.", 1),
            default=1,
        ),
    },
    ("score",),
)

pot = Rule(
    "The pot over the whole session: what each player pays in when it starts, and what becomes of what is "
    "left in it when it ends. What the pot takes and pays in each deal is the deal's own rule (`pot_ante`, "
    "a contract's `pot`); the session carries the pot from deal to deal, and `until` may read it. A pot the session "
    "pays out by rules of its own, or several, is `pots`.",
    {
        "ante": formula("What each player pays into the pot when the session starts.", names.BREACH),
        "each_deal": formula(
            "What each player pays into the pot before every deal (the dealer's own ante is the deal's `pot_ante`).",
            names.BREACH,
        ),
        "left": Key(
            Choice(
                "What becomes of what is left in the pot when the session ends: kept (it stays for the next "
                "session, nobody's), or shared (it is shared equally among the players; what does not divide "
                "evenly stays in the pot).",
                ("kept", "shared"),
            ),
            default="kept",
        ),
    },
)

PAYEES = ("declarer", "defenders")

payout = Rule(
    "A pay-out of a pot after a deal: when it applies, to whom, and how much. A positive amount is paid out of "
    "the pot to each payee, never more than the pot holds (shared equally where several are paid); a negative "
    "amount is paid into the pot by each payee (a lost Solo doubles the pot: `0 - pot`).",
    {
        "contracts": Key(
            ListOf("The contracts it applies to (left out: every deal played by a declarer).", name()),
            unsaid="said with the pay-out, as one sentence",
        ),
        "when": condition("When it applies, over the deal just played.", names.POT_PAYOUT),
        "to": Key(
            Choice(
                "Who is paid (or pays in): declarer, or defenders (each of the declarer's opponents). Left out "
                "where `seat` names one seat.",
                PAYEES,
            ),
            default="declarer",
        ),
        "seat": formula(
            "Instead of `to`: the one seat paid (or paying in), by its number (`dealer`, `(dealer + 1) % players`); "
            "it is paid whether or not anybody declared.",
            names.POT_PAYOUT,
        ),
        "amount": formula("What each payee takes out of the pot (below 0: pays into it).", names.POT_PAYOUT),
    },
    ("amount",),
)

account = Rule(
    "A pot of its own (an account): what goes into it at the session's start and before each deal, what it "
    "pays out after each deal, and what becomes of what is left at the end. A pot holds 0 or more: it never "
    "pays out more than it holds. Its name reads what it holds in the pay-outs' formulas and in `until`.",
    {
        "title": title(),
        "ante": formula("What each player pays into it when the session starts.", names.BREACH),
        "each_deal": formula("What each player pays into it before every deal.", names.BREACH),
        "dealer": formula("What the dealer pays into it before every deal.", names.BREACH),
        "pays": Key(
            ListOf(
                "Its pay-outs after each deal, in order: each whose contracts and condition fit the deal is paid "
                "from what the pot holds after those before it.",
                payout,
            ),
            unsaid="said with the pot, as one sentence",
        ),
        "left": Key(
            Choice(
                "What becomes of what is left in it when the session ends: kept (it stays for the next session), "
                "or shared (shared equally among the players; what does not divide evenly stays in it).",
                ("kept", "shared"),
            ),
            default="kept",
        ),
    },
)

SESSION = Key(
    Rule(
        "The session: deals one after another. Who deals next, how many deals or rounds are played and what "
        "ends the session, rounds with rules of their own, and a score sheet. Without it, the deal passes to "
        "the next seat and the session lasts as long as the table likes.",
        {
            "dealer": Key(
                Choice(f"Who deals the next deal: {DEALER_HELP}", DEALERS),
                default="next",
                said=Said("The next deal is dealt by", DEALER_WORDS),
            ),
            "dealer_when": Key(
                ListOf(
                    "Exceptions to `dealer`, over the deal just played: the first whose condition holds says who "
                    "deals next (the same dealer again after a throw-in: `{when: thrown_in, dealer: same}`).",
                    dealer_when,
                ),
                said=Said("Who deals next, by the deal just played", text="dealer_when", missing="no exception"),
            ),
            "deals": Key(
                Integer("After this many deals (a tournament's 2 × 24).", 1),
                said=Said("A session ends after", "{value} deals", missing="not stated"),
            ),
            "rounds": Key(
                Integer(
                    "After this many complete rounds: every seat has had its turn to deal (a turn of dealing "
                    "lasts while the same seat deals again), as many times.",
                    1,
                ),
                said=Said("A session ends after", "{value} complete round(s)", missing="not stated"),
            ),
            "until": Key(
                condition("The session ends after the deal at which this holds.", names.SESSION_END),
                said=Said("A session ends once", text="code", missing="not stated"),
            ),
            "holder_of": Key(
                card(
                    "On request: whoever holds this card in the next deal deals the last one (der Gstieß gibt ab: T22)."
                ),
                said=Said(
                    "A player may end the session",
                    "on request, once the holder of {value} in the next deal has dealt",
                    missing="on request, once the round under way is complete (where nothing else ends it)",
                ),
            ),
            "special_rounds": Key(
                Entries(
                    "Rounds with rules of their own, by name.",
                    Key(
                        special_round,
                        said=Said(
                            "Round of its own {entry}", text="special_round", missing="no such round", whole=True
                        ),
                    ),
                ),
                said=Said("Rounds of their own", text="special_rounds", missing="none"),
            ),
            "sheet": Key(
                sheet, said=Said("The score sheet", text="sheet", missing="none: each deal is paid", whole=True)
            ),
            "pot": Key(pot, said=Said("The pot over the session", text="session_pot", missing="none", whole=True)),
            "pots": Key(
                Entries(
                    "Pots of their own (accounts) by name: the Stock, the Pagat pot, the Pott.",
                    Key(account, said=Said("Pot {entry}", text="account", missing="no such pot", whole=True)),
                ),
                said=Said("Pots of their own", text="accounts", missing="none"),
            ),
        },
    ),
    said=Said("Sessions", text="session"),
)
