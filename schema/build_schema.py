"""Writes ruleset.schema.json. Run `python schema/build_schema.py` after changing the language.

The schema is generated so that every rule gets the same provenance fields and every object is
closed (`additionalProperties: false`) without repeating them by hand; a test checks that the
committed JSON matches this script.
"""

from __future__ import annotations

import json
from pathlib import Path

STATUS = ["attested", "reported", "reconstructed", "assumed"]
PROVENANCE = {
    "source": {
        "type": "string",
        "description": 'Which text says so: a key of `sources`, a colon, and the section (e.g. "dappen-en: Breitnau version").',
    },
    "status": {
        "enum": STATUS,
        "description": "How sure we are: attested (seen played or recorded in the field), reported (told from memory or read in one text), reconstructed (inferred by researchers), assumed (our own choice where the sources are silent).",
    },
    "note": {
        "type": "string",
        "description": "A remark for readers: what the rule means or why it is encoded this way.",
    },
    "assumed": {
        "type": "object",
        "description": "Fields of this rule that are assumptions, each with the reason.",
        "additionalProperties": {"type": "string", "description": "Why this field is assumed."},
    },
}
DSL_BOOL = 'A condition in the rules language (true/false), e.g. "count(hand & kings) >= 1".'
DSL_INT = 'A formula in the rules language giving a whole number, e.g. "round_up((40 - loser_points) * factor, 10)".'
NAME = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}
CARD = {"type": "string", "pattern": "^[A-Z][A-Z0-9]*$", "description": "A card id such as T22, HK or C10."}


def rule(description: str, properties: dict, required: list[str] | None = None, provenance: bool = True) -> dict:
    props = dict(properties)
    if provenance:
        props.update(PROVENANCE)
    schema = {"type": "object", "description": description, "properties": props, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def described(schema: dict, description: str) -> dict:
    return {**schema, "description": description}


def name_map(description: str, value: dict) -> dict:
    return {"type": "object", "description": description, "propertyNames": NAME, "additionalProperties": value}


def dsl(description: str) -> dict:
    return {"type": "string", "description": description}


suit = rule(
    "One suit of the pack.",
    {
        "id": {
            "type": "string",
            "pattern": "^[A-Z]$",
            "description": "One capital letter, the first letter of card ids of this suit (C, S, H, D).",
        },
        "name": described(NAME, "The suit's name in conditions (clubs, spades, …); it is also the set of its cards."),
        "title": {"type": "string", "description": "The suit's name for display (Kreuz, Herz …)."},
        "symbol": {"type": "string", "description": "A symbol for display (♣ ♠ ♥ ♦)."},
        "ranks": {
            "type": "array",
            "minItems": 1,
            "description": "The ranks from highest to lowest; a card id is the suit id followed by the rank (CK, C10, HA).",
            "items": {"type": ["string", "integer"], "description": "A rank: K, Q, N, J, A or a number."},
        },
    },
    ["id", "name", "ranks"],
)

deck = rule(
    "The pack: its cards, their order and values, and named sets of cards.",
    {
        "title": {"type": "string", "description": "The pack's name for display."},
        "trumps": rule(
            "Permanent trumps T1 … Tn (absent for a pack without them).",
            {
                "count": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "How many trumps: T1 (lowest) to Tcount (highest).",
                },
                "names": {
                    "type": "object",
                    "description": "Display names of single trumps, by card id.",
                    "propertyNames": CARD,
                    "additionalProperties": {"type": "string", "description": "The name."},
                },
                "aliases": {
                    "type": "object",
                    "description": "Other names players use for a trump, by card id.",
                    "propertyNames": CARD,
                    "additionalProperties": {
                        "type": "array",
                        "items": {"type": "string", "description": "An alias."},
                        "description": "Aliases.",
                    },
                },
            },
            ["count"],
        ),
        "suits": {
            "type": "array",
            "minItems": 1,
            "items": suit,
            "description": "The suits, each with its ranks from high to low.",
        },
        "rank_titles": {
            "type": "object",
            "description": "Display names of ranks (K: König).",
            "additionalProperties": {"type": "string", "description": "The name."},
        },
        "rank_sets": name_map(
            "Named sets of suit cards by rank: kings: [K] makes the set `kings`.",
            {
                "type": "array",
                "items": {"type": ["string", "integer"], "description": "A rank."},
                "description": "The ranks in the set.",
            },
        ),
        "points": rule(
            "Card values for counting.",
            {
                "default": {"type": "integer", "description": "The value of a card not listed."},
                "ranks": {
                    "type": "object",
                    "description": "Values by suit rank.",
                    "additionalProperties": {"type": "integer", "description": "The value."},
                },
                "cards": {
                    "type": "object",
                    "description": "Values of single cards by id (these win over ranks).",
                    "propertyNames": CARD,
                    "additionalProperties": {"type": "integer", "description": "The value."},
                },
            },
            ["default"],
        ),
        "sets": name_map(
            'More named sets of cards, each a set expression of the rules language ("{T22, T21, T1} | kings").',
            dsl("A set expression."),
        ),
    },
    ["suits", "points"],
)

players = rule(
    "Who plays.",
    {
        "active": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "integer", "minimum": 2, "description": "A number of active players."},
            "description": "The numbers of active players the game allows.",
        },
        "dealer_sits_out": {
            "type": "array",
            "items": {"type": "integer", "minimum": 3, "description": "A number of people at the table."},
            "description": "Table sizes at which the dealer sits out and is dealt no cards (8 at a Dappen table: 7 play).",
        },
        "usual": {
            "type": "integer",
            "minimum": 2,
            "description": "People at the table as the game is usually played (Cego four, Dappen six): the table a game or session starts with when nobody says how many. One of the table sizes above; without it, the smallest.",
        },
    },
    ["active"],
)

packet = {
    "type": "object",
    "description": "One step of the deal: `each: N` gives N cards to every active player in turn, `talon: N` puts N cards to the talon.",
    "properties": {
        "each": {
            "type": "integer",
            "minimum": 1,
            "description": "Cards to each active player, in order of play from Vorhand.",
        },
        "talon": {"type": "integer", "minimum": 1, "description": "Cards to the talon (Dapp, Cego, tapp)."},
    },
    "additionalProperties": False,
    "minProperties": 1,
    "maxProperties": 1,
}

deal = rule(
    "How the cards are dealt.",
    {
        "remove": {
            "type": "object",
            "description": 'Cards taken out of the pack before dealing, by number of active players: a set expression such as "sixes" or "{C7, S7, D4}".',
            "propertyNames": {"pattern": "^[0-9]+$"},
            "additionalProperties": dsl("A set expression of the cards removed."),
        },
        "plans": {
            "type": "object",
            "description": "The deal plan for each number of active players: packets in order.",
            "propertyNames": {"pattern": "^[0-9]+$"},
            "additionalProperties": {
                "type": "array",
                "minItems": 1,
                "items": packet,
                "description": "The packets in order.",
            },
        },
    },
    ["plans"],
)

call = rule(
    "A call players can make.", {"title": {"type": "string", "description": "What players say (Fort, Ich dappe)."}}
)

ladder_level = rule(
    "One level of a bidding ladder, lowest first.",
    {
        "call": described(NAME, "The call that bids this level."),
        "contract": {
            "oneOf": [NAME, {"type": "null"}],
            "description": "The contract played if this level wins (default: the call's name); null: none, its bidder chooses one when uncontested (`then.choose`: Mein Spiel).",
        },
        "requires": dsl(
            "A condition on the bidder's hand to bid or hold this level. Besides it, a level whose contract keeps cards before the talon (`exchange: [{keep: ...}]`) may be bid or held only by a hand holding such cards: nobody bids a game they could not carry out. "
            + DSL_BOOL
        ),
        "holdable": {"type": "boolean", "description": "Whether an earlier bidder may hold this level (default true)."},
        "jump": {
            "type": "boolean",
            "description": "This level may be bid over any lower one, not only over the level below it (special games that outrank the normal ones at any stage of the bidding).",
        },
        "ends": {
            "enum": ["phase", "auction", "throw_in"],
            "description": "Bidding this level ends the phase or the whole auction at once; throw_in: the deal is thrown in (a hand of seven empty cards).",
        },
        "title": {"type": "string", "description": "A display name for the level."},
    },
    ["call"],
)

compulsory = rule(
    "A bid a player must make when a condition holds (a pass is then refused).",
    {
        "when": dsl(
            "When the bid is compulsory. Known: hand, position (0 = first to speak in the phase), speakers, bid_made, players. "
            + DSL_BOOL
        ),
        "call": described(
            NAME,
            "The call the player must make: any other bid and the pass are refused (the special games the phase lets anyone say out of turn, its `interrupts`, stay open); the compulsion lapses once that call is not legal.",
        ),
        "reason": {"type": "string", "description": "What the refusal of a pass tells the player."},
        "or_higher": {
            "type": "boolean",
            "description": "The call or any higher bid of the ladder (modern Tapp: one who said 'ich spiele' must state a contract, the lowest or any other); default false: that call alone.",
        },
        "breach": rule(
            "What a player owes who passed anyway (when the auction's `breaches` is penalize: records of real games).",
            {
                "pays_each": dsl(
                    "What the offender pays each other player (a sitting-out dealer too, when `settlement.sitting_out` is defender); the deal is abandoned. Known: players, lost_every_trick (what the compelled bid, lost without a trick or a card point, would cost the offender with each opponent in the game being played). "
                    + DSL_INT
                ),
            },
            ["pays_each"],
        ),
    },
    ["when", "call"],
)

phase = rule(
    "One round of the auction.",
    {
        "title": {"type": "string", "description": "A display name."},
        "ladder": {
            "type": "array",
            "items": ladder_level,
            "description": "The bids of this phase, lowest first (empty: nobody may bid, as in a round of compulsory Räuber).",
        },
        "hold": described(
            NAME,
            "The call with which an earlier bidder takes over a higher bid (selber, selbst); `same`: by naming the same game again (a player with higher priority may bid equal, a lower one must bid higher); absent: no holding.",
        ),
        "raise": {
            "enum": ["next", "any"],
            "description": "Whether a bid must be the next level (default) or may jump.",
        },
        "max_bidders": {
            "type": "integer",
            "minimum": 1,
            "description": "At most this many players may bid in the phase.",
        },
        "style": {
            "enum": ["duel", "rounds", "declare"],
            "description": "duel (default): the holder answers each challenger at once, and a player enters only when the duel before is settled. rounds: the turn goes round the table; on it a player raises, passes for good, or (with priority over the current bidder, being earlier in the order) holds. declare: each player says once whether they want to play (a bid of the ladder) or pass; nobody is outbid, and the next phase (`then.after`) is for those who did.",
        },
        "speakers": {
            "enum": ["all", "previous_bidders"],
            "description": "Who speaks in this phase: every player (default), or only those who bid in the phase before (a declare phase).",
        },
        "start": {
            "enum": ["vorhand", "after_vorhand", "after_holder"],
            "description": "Who speaks first: Vorhand (default); after_vorhand: the player after Vorhand, Vorhand last (modern Tapp's 'the player to the right of forehand starts'); after_holder: in a phase that a bid was carried into, the player after the bidder.",
        },
        "side_bids": {
            "type": "array",
            "description": "Bids a player may make on their turn instead of the next rung, only over the listed calls; one ends the auction (Piccolo or Bettel over the opening Cego).",
            "items": rule(
                "A side bid.",
                {
                    "call": described(NAME, "The call."),
                    "contract": described(NAME, "Its contract (default: the call)."),
                    "over": {"type": "array", "items": NAME, "description": "The current bids it may be made over."},
                    "requires": dsl("A condition on the bidder's hand. " + DSL_BOOL),
                },
                ["call", "over"],
            ),
        },
        "hold_by": {
            "enum": ["earlier", "first"],
            "description": "rounds style: who may hold the current bid with the hold call: any player earlier in the order (default), or only the player who speaks first in the phase (Vorhand, who opened).",
        },
        "interrupt_priority": {
            "enum": ["first_call", "earlier_turn"],
            "description": "When a player interrupts (first_call, default: the first interrupt ends the auction at once), or whether the players earlier in the order who have not yet had their turn are first asked, in order, whether they want an interrupting game themselves, the first who does having priority (earlier_turn).",
        },
        "carried_may_hold": {
            "type": "boolean",
            "description": "Whether the bidder who carried a bid into this phase may hold against a higher bid (default true; false: 'you cannot bid against your own Solo').",
        },
        "compulsory": name_map(
            "Bids players must make when a condition holds, by name (so a variant or option can remove one: `stop: null`).",
            compulsory,
        ),
        "interrupts": {
            "type": "array",
            "items": ladder_level,
            "description": "Bids any player may make out of turn, up to and including their own turn in the phase (a turn they still have when the ladder is exhausted), once the phase has been opened (Cego's Piccolo and Bettel); one ends the auction, at once or after the earlier players' answers (see interrupt_priority).",
        },
        "then": rule(
            "What follows the phase.",
            {
                "pass_out": {
                    "type": "string",
                    "description": "When everybody passed: `throw_in` (no play, no payment), `play` (the contract named by `play`, with no declarer: Räuber, Ramsch), or the name of the next phase.",
                },
                "play": described(NAME, "The contract played when everybody passed and `pass_out` is `play`."),
                "choose": {
                    "type": "object",
                    "description": "By winning call: when nobody bid against it, its bidder then chooses the game from these (Vorhand's Cego or Räuber); a call that names no contract (`contract: null`, Mein Spiel) lets its bidder choose whenever it wins, contested or not.",
                    "propertyNames": NAME,
                    "additionalProperties": {
                        "type": "array",
                        "minItems": 1,
                        "items": ladder_level,
                        "description": "The games to choose from.",
                    },
                },
                "after": {
                    "type": "object",
                    "description": "By winning call, the next phase (the winner carries the bid into it); default: the auction ends.",
                    "propertyNames": NAME,
                    "additionalProperties": {"type": "string", "description": "The next phase."},
                },
            },
            provenance=False,
        ),
    },
    ["ladder"],
)

auction = rule(
    "The bidding that decides the contract and the lone player.",
    {
        "phases": name_map("The phases by name; `then` says which follows which.", phase),
        "first": described(NAME, "The phase that opens the auction (default: the first one listed)."),
        "breaches": {
            "enum": ["refuse", "penalize"],
            "description": "A pass against a compulsory bid is refused (refuse, the default), or accepted and penalised as its `breach` says (penalize: for replaying games recorded in the field).",
        },
    },
)

discard_step = rule(
    "Put cards aside from the hand.",
    {
        "count": {
            "description": "How many cards: a number, or `talon` for as many as the talon had.",
            "oneOf": [
                {"type": "integer", "minimum": 0, "description": "A number of cards."},
                {"const": "talon", "description": "As many as the talon had."},
            ],
        },
        "forbid": rule(
            "Cards that may not be discarded.",
            {
                "when": dsl("True for a card that may not be discarded. Known: card, hand, players. " + DSL_BOOL),
                "reason": {"type": "string", "description": "What the refusal tells the player."},
            },
            ["when", "reason"],
        ),
        "prefer": {
            "type": "array",
            "minItems": 1,
            "description": "Classes of cards the discard takes first, judged on the discard as a whole: as many cards of the first class as it can, then of the next, and only then others (Königrufen: 'other trumps only if there is no choice' is one class, the cards that are not trumps; with two of them in hand, the discard of three holds both and one trump). A discard that could hold more of a class is refused with its reason. Too many choices to list come as a template whose `including` names the cards every discard must hold.",
            "items": rule(
                "One class of cards to discard first.",
                {
                    "when": dsl("True for a card of the class. Known: card, hand, players. " + DSL_BOOL),
                    "reason": {"type": "string", "description": "What the refusal tells the player."},
                },
                ["when", "reason"],
            ),
        },
    },
    ["count"],
)

keep_step = rule(
    "Keep some cards of the dealt hand and discard the rest face down, before taking the talon. Announced with {keep: [...]}.",
    {
        "count": {"type": "integer", "minimum": 0, "description": "How many cards are kept."},
        "from": dsl("The cards that may be kept, a set expression (default: any)."),
        "prefer": dsl(
            "As many kept cards as possible must come from this set (empty cards; picture cards named empty only for missing ones)."
        ),
        "same_suit": {"type": "boolean", "description": "The kept cards must be of one suit."},
        "different_suits": {"type": "boolean", "description": "The kept cards must be of different suits."},
        "exposed": {"type": "boolean", "description": "The kept cards are laid face up; they can never win a trick."},
        "reason": {"type": "string", "description": "What a refused keep tells the player."},
    },
    ["count"],
)

forced_step = rule(
    "A discard the engine makes for the declarer (nobody's choice), e.g. the lowest Trock of the talon; if the set is empty the declarer discards a card of their choice.",
    {
        "cards": dsl(
            'The card to discard, a set expression that can hold at most one card (the exchange counts a forced discard as one card; a set that could hold more is refused). Known: taken (the talon picked up), hand. E.g. "if count(taken & trumps) > 0 then {lowest(taken & trumps)} else {}".'
        ),
        "shown": {"type": "boolean", "description": "Whether it is shown to everyone."},
    },
    ["cards"],
)

exchange_step = {
    "description": "One step of the exchange, a mapping with one key.",
    "oneOf": [
        rule(
            "The declarer picks up the talon (nobody's turn: the engine does it); or, in parts, chooses one of them.",
            {
                "take_talon": rule(
                    "How the talon is taken.",
                    {
                        "parts": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 6,
                            "description": "The talon is laid out in this many equal parts and the declarer takes one ({choose: first|second|…}); the parts not taken stay in the talon and count as `out_of_play.talon` says (default 1: all of it).",
                        },
                        "shown": {
                            "type": "boolean",
                            "description": "The talon is turned face up for everyone first (default false); with `count`, only the cards taken.",
                        },
                        "count": {
                            "type": "integer",
                            "minimum": 0,
                            "description": "Only this many cards are taken, from one end of the talon as it was dealt (its order is kept from the deal; a record's `talon` lists it from the top); the rest stays in the talon and counts as `out_of_play.talon` says (Dreierles: the bid names 3, 2 or 1). Not with `parts`. `discard: {count: talon}` then discards as many as were taken.",
                        },
                        "from": {
                            "enum": ["top", "bottom"],
                            "description": "With `count`: the end of the talon the cards are taken from (default top: the first cards dealt to it).",
                        },
                        "rest_seen_by": {
                            "enum": ["nobody", "defenders"],
                            "description": "With `count`: who looks at the cards left in the talon (default nobody); defenders: the declarer's opponents see them in their views, the declarer never does.",
                        },
                    },
                    provenance=False,
                )
            },
            ["take_talon"],
            provenance=False,
        ),
        rule(
            "The declarer calls a card ({call_card: CARD}) whose holder, when play starts, is their secret partner; calling an own card, or one out of play, means playing alone. The call is public, the holder is not: views and events tell the partner only once the card is seen or the partner speaks.",
            {
                "call_partner": rule(
                    "Which cards may be called.",
                    {
                        "from": dsl('The cards that may be called, a set expression (e.g. "kings"; default: any).'),
                        "unnamed": rule(
                            "A call that does not name the card: the one card of `from` the declarer does not hold (the fourth King).",
                            {
                                "choice": described(NAME, "Its name, said as {choose: NAME} (fourth_king)."),
                                "when": dsl(
                                    'When it may be said. Known: hand. E.g. "count(hand & kings) == 3". ' + DSL_BOOL
                                ),
                            },
                            ["choice"],
                            provenance=False,
                        ),
                        "own_only_when": dsl(
                            "When only cards the declarer holds may be called. Known: hand. " + DSL_BOOL
                        ),
                    },
                    provenance=False,
                )
            },
            ["call_partner"],
            provenance=False,
        ),
        rule("The declarer discards cards face down.", {"discard": discard_step}, ["discard"], provenance=False),
        rule("The declarer keeps some cards and discards the rest.", {"keep": keep_step}, ["keep"], provenance=False),
        rule(
            "The engine discards for the declarer.",
            {"forced_discard": forced_step},
            ["forced_discard"],
            provenance=False,
        ),
        rule(
            "The declarer calls a card they do not hold ({call_card: CARD}) and receives it from its holder (from the talon if nobody holds it).",
            {
                "call_card": rule(
                    "The card that may be called.",
                    {"from": dsl("The cards that may be called, a set expression (default: any not held).")},
                    provenance=False,
                )
            },
            ["call_card"],
            provenance=False,
        ),
        rule(
            "The declarer gives a card of their choice ({give: CARD}) to the holder of the called card.",
            {
                "give": rule(
                    "Which card may be given.",
                    {
                        "other_than_called": {
                            "type": "boolean",
                            "description": "Not the card just called (it is given 'in exchange' for it); default false.",
                        }
                    },
                    provenance=False,
                )
            },
            ["give"],
            provenance=False,
        ),
    ],
}

opening_leads = rule(
    "The declarer leads the first tricks with the cards exposed in the exchange, one trick each.",
    {
        "replace_same_suit": {
            "type": "boolean",
            "description": "Another card of an exposed card's suit may be led instead.",
        },
        "together": {
            "type": "boolean",
            "description": "Those tricks are played at once: the declarer lays all the leads, then each player in turn adds one card to each trick, first to the first; the winner with the higher card leads next.",
        },
        "suit_order": {
            "type": "array",
            "items": {"type": "string", "description": "A suit id."},
            "description": "Breaks a tie between equal winning cards of the tricks played together, highest first (C, S, H, D).",
        },
        "declarer_leads_after": {
            "type": "boolean",
            "description": "The declarer leads the trick after the opening tricks too, whoever won them.",
        },
    },
)

PAYMENT_KNOWN = "Known per seat: points, tricks, place (1 + players with more points), rank (place with equal points ranked by order from Vorhand), sharing (how many players share the seat's place, itself included: 2 in a tie of two), is_vorhand, players, kontra (2 per doubling), sitting_out (the dealer who sits out, who takes part when `settlement.sitting_out` is defender, placed after every player with no points and no trick)."
individual_payment = rule(
    "One class of payments: who pays whom, how much, how matched.",
    {
        "payers": dsl(
            "Who pays: a condition per seat, or `others` (everybody but the receiver). "
            + PAYMENT_KNOWN
            + " "
            + DSL_BOOL
        ),
        "receivers": dsl(
            "Who is paid: a condition per seat, or `others` (everybody but the payer). "
            + PAYMENT_KNOWN
            + " "
            + DSL_BOOL
        ),
        "amount": dsl(
            "What each payment is (read for the payer; for the receiver when the payers are `others`). "
            + PAYMENT_KNOWN
            + " "
            + DSL_INT
        ),
        "match": {
            "enum": ["each", "pairs"],
            "description": "each (default): every payer pays every receiver; pairs: one to one, the payer with most points the receiver with least, and so on.",
        },
    },
    ["amount"],
)

individual = rule(
    "Everyone plays for themselves (Räuber, Dresch); one player loses and pays each other player; or several classes of payments (Trischaken).",
    {
        "payments": {
            "type": "array",
            "items": individual_payment,
            "description": "Classes of payments, each added to the others (instead of loser and pays_each).",
        },
        "loser": {
            "enum": ["most_points", "last_trick"],
            "description": "Who loses: the player with most card points in their own tricks, or the winner of the last trick.",
        },
        "ties": {
            "enum": ["vorhand_else_all", "all"],
            "description": "A tie for most points: Vorhand loses if among them, else all tied lose (vorhand_else_all); or all tied lose (all).",
        },
        "pays_each": dsl(
            "What each loser pays each other player (negative: receives). Known: loser_points, loser_is_vorhand, without_tricks (players who took no trick), losers, receiver_tricks (the tricks of the player paid), kontra (2 per doubling). "
            + DSL_INT
        ),
    },
)

ROUTE_KNOWN = (
    "Known: declarer_tricks, defender_tricks, tricks, called (the cards called for a partner), talon, discards."
)
route_list = {
    "description": "Where these cards count: one side (declarer: the declarer's side; defenders; nobody), or a list of routes, the first whose `when` holds.",
    "oneOf": [
        {"enum": ["declarer", "defenders", "nobody"], "description": "One destination."},
        {
            "type": "array",
            "items": rule(
                "One route.",
                {
                    "to": {"enum": ["declarer", "defenders", "nobody"], "description": "The side they count for."},
                    "when": dsl("When this route applies (absent: always). " + ROUTE_KNOWN + " " + DSL_BOOL),
                },
                ["to"],
            ),
            "description": "Routes in order; the last has no `when`.",
        },
    ],
}

contract_play = rule(
    "This contract's own rules of play, over the ruleset's `play` (negative games: the declarer leads, must beat).",
    {
        "first_lead": {"enum": ["declarer", "vorhand"], "description": "Who leads to the first trick."},
        "follow_suit": {"type": "boolean", "description": "Players must follow the suit led."},
        "when_void": {
            "enum": ["trump", "any"],
            "description": "A player void in the suit led must trump (trump) or not.",
        },
        "must_beat": {"type": "boolean", "description": "Players must head the trick if able."},
    },
)

scheduled = rule(
    "A rule for one of the first tricks: every player, the leader included, plays from the first of `play_from` they hold a card of (else any card); following suit does not apply.",
    {
        "trick": {"type": "integer", "minimum": 1, "description": "The trick's number (1 = first)."},
        "play_from": {
            "type": "array",
            "minItems": 1,
            "items": dsl('A set expression, e.g. "{T22}" or "trumps - {T22, T21, T1}".'),
            "description": "Sets in order of obligation: a card of the first set held must be played.",
        },
        "reason": {"type": "string", "description": "What a refusal tells the player."},
    },
    ["trick", "play_from"],
)

contract = rule(
    "A game that can be played: its exchange, its play and its value.",
    {
        "title": {"type": "string", "description": "The display name."},
        "like": described(NAME, "Another contract whose rules this one takes, stating only what differs."),
        "allowed": {
            "type": "boolean",
            "description": "false: a contract this table does not play (default true): it and every bid that would play it (ladder levels, a winning bidder's choices, interrupts, side bids) are left out, so that an option can add a contract with `allowed: true` (or remove one with `allowed: false`) without rewriting the ladder, and several such options combine. Taken over by `like`, as any rule.",
        },
        "exchange": {
            "type": "array",
            "items": exchange_step,
            "description": "The exchange steps in order; absent: no exchange, the talon stays aside.",
        },
        "factor": {
            "description": "The multiplier in the settlement: a number, or won/lost.",
            "oneOf": [
                {"type": "integer", "description": "The same whether won or lost."},
                rule(
                    "Different when won and lost.",
                    {
                        "won": {"type": "integer", "description": "When the declarer wins."},
                        "lost": {"type": "integer", "description": "When the declarer loses."},
                    },
                    ["won", "lost"],
                    provenance=False,
                ),
            ],
        },
        "declarer_wins": dsl("This contract's own winning condition (default: the settlement's). " + DSL_BOOL),
        "amount": dsl("This contract's own amount (default: the settlement's). " + DSL_INT),
        "opening_leads": opening_leads,
        "individual": individual,
        "talon_counts": {
            "type": "boolean",
            "description": "Whether the talon and discards count for anyone (default true; false in Cego's special games).",
        },
        "trumps": rule(
            "A trump suit for this contract, besides any permanent trumps: fixed, or named by the declarer with {choose: SUIT} after the auction.",
            {
                "suit": described(NAME, "The suit's name (hearts)."),
                "choose": {"type": "array", "items": NAME, "description": "The suits the declarer may name."},
                "none": {
                    "type": "boolean",
                    "description": "No suit is trumps (a Bettel), whatever the ruleset's trump suit.",
                },
            },
            provenance=False,
        ),
        "open_hand": {
            "description": "Hands shown to everyone: true, the declarer's from the first lead (Bettel Ouvert); or who and from which trick.",
            "oneOf": [
                {"type": "boolean", "description": "The declarer's hand from the first lead."},
                rule(
                    "Whose hands, and from when.",
                    {
                        "who": {"enum": ["declarer", "all"], "description": "The declarer's hand, or every hand."},
                        "from_trick": {
                            "type": "integer",
                            "minimum": 1,
                            "description": "Shown once a card is led to this trick (default 1: from the first lead).",
                        },
                    },
                    provenance=False,
                ),
            ],
        },
        "pot": dsl(
            "With a pot: what the declarer pays into it after the deal (negative: takes from it, never more than it holds: a formula asking for more takes the whole pot, which never falls below zero). Known: as for amount, and amount, pot (its size before). "
            + DSL_INT
        ),
        "talon_to_last_trick": {
            "type": "boolean",
            "description": "Everyone for themselves: the talon goes to whoever wins the last trick (Ramsch).",
        },
        "play": contract_play,
        "out_of_play": rule(
            "Where the cards out of play count in this contract, instead of `counting.aside` (a partial talon's rest to the defenders; Solo's talon to the defenders unless the called card lies in it).",
            {"talon": route_list, "discards": route_list},
        ),
        "bonus_factor": {
            "type": "integer",
            "minimum": 0,
            "description": "Every bonus counts this many times in this contract (Solo: 2; default 1).",
        },
        "bonuses": {
            "type": "array",
            "items": NAME,
            "description": "The bonuses that count in this contract (default: all; [] none, as in negative games).",
        },
        "must_announce": rule(
            "The declarer must announce one of these bonuses in their first turn of the round of announcements (Besserrufer's bird).",
            {
                "one_of": {
                    "type": "array",
                    "items": NAME,
                    "minItems": 1,
                    "description": "Bonuses that may be announced.",
                }
            },
            ["one_of"],
        ),
        "concede": rule(
            "The declarer may give up after seeing the talon ({choose: concede}, or pass to play on), paying each opponent.",
            {
                "when": dsl("When conceding is allowed. Known: hand, called, talon. " + DSL_BOOL),
                "pays": dsl("What the declarer pays each opponent. Known: players. " + DSL_INT),
            },
            ["when", "pays"],
        ),
        "talon_to_tricks": rule(
            "The talon's top card is turned up and added to each of the first tricks, to their winners (Trischaken).",
            {"first": {"type": "integer", "minimum": 1, "description": "How many tricks take a talon card."}},
            ["first"],
        ),
        "schedule": {
            "type": "array",
            "items": scheduled,
            "description": "This contract's own rules for particular tricks (geregelter Räuber), instead of play.schedule.",
        },
        "doubling": rule(
            "Everyone for themselves (`individual`): before the first lead each player in turn, once, may double the game ({kontra: game}) or say the round of announcements' done call (else pass); each doubling multiplies the payments, whose formulas read `kontra` (Räuber's knocking).",
            {
                "start": {
                    "enum": ["vorhand", "last_passer"],
                    "description": "Who may double first: Vorhand (default), or the last player to speak in the auction (the last who passed); then round the table in the order of play.",
                },
                "sitting_out": {
                    "type": "boolean",
                    "description": "A dealer who sits out has a turn too, in its place at the table (default false).",
                },
                "title": {"type": "string", "description": "What a doubling is called (Klopfen)."},
            },
        ),
    },
)

claim = rule(
    "A hand the declarer shows instead of playing.",
    {
        "when": dsl(
            "Checked on the declarer's hand after picking up the talon and before the first lead. Known: hand. "
            + DSL_BOOL
        ),
        "scores_as": {"enum": ["march"], "description": "march: scored as though the declarer took every trick."},
        "factor": {
            "type": "integer",
            "description": "The factor it is scored with, whatever was bid (absent: the contract's own).",
        },
        "liable": {
            "type": "boolean",
            "description": "Whether the settlement's liable payers apply to it (default true); false: each opponent pays their own share.",
        },
    },
    ["when", "scores_as"],
)

declaration = rule(
    "What a declaration without cards commits to (Tout: every trick).",
    {
        "wins": dsl("The declarer's aim once declared. Known: as for declarer_wins. " + DSL_BOOL),
        "multiplier": {
            "type": "integer",
            "minimum": 1,
            "description": "What the game's value is multiplied by (default 1).",
        },
        "amount": dsl("The game's value once declared, instead of the settlement's. Known: as for amount. " + DSL_INT),
        "releases_exposed": {
            "type": "boolean",
            "description": "The cards laid face up in the exchange go back into the hand: they no longer lead nor lose (ich spiele die Pfeif' frei).",
        },
        "priced": {
            "enum": ["played", "all_tricks"],
            "description": "played (default): the declaration is worth the game's value as played (times the multiplier). all_tricks: won or lost, it is worth what the contract pays when the declarer takes every trick and every card point (a slam's own value), times the multiplier: a failed Tout costs what a made one earns.",
        },
    },
    ["wins"],
)

announcement = rule(
    "Cards the declarer may lay out face up before the first lead (Ulti): each commits to win one of the last tricks with it, the lowest laid card the last trick, the next the one before; laid cards may be played only when nothing else is legal, highest first; each is won or lost on its own and paid by or to every opponent. Announced with {announce: NAME, cards: [...]}, or `pass`.",
    {
        "title": {"type": "string", "description": "The display name."},
        "cards": dsl('The cards that may be laid out, a set expression such as "{T1, T2, T3}".'),
        "value": dsl("What one laid card is worth to or from each opponent. Known: card. " + DSL_INT),
        "declares": declaration,
        "contracts": {"type": "array", "items": NAME, "description": "The contracts it may be made in (default: all)."},
    },
)

withhold = rule(
    "A card its holder may keep back when it is the only trump they could play (Gstiesieren): they play any other card instead; the card then loses all power, may not be played before the last trick, and goes to its holder's side whoever wins that trick (`compensation` says what the other side gets when it wins that trick a card short). When such a card is led, the next card played fixes the suit to follow.",
    {
        "card": CARD,
        "by": {
            "enum": ["defenders", "anyone"],
            "description": "Who may withhold it: the declarer's opponents only, or anyone.",
        },
        "when": dsl("A further condition on the holder's hand. Known: hand. " + DSL_BOOL),
        "compensation": rule(
            "When the other side wins the last trick, that trick is a card short (the withheld card went to its holder's side): what makes it up.",
            {
                "gives": {
                    "enum": ["lowest_value", "none"],
                    "description": "lowest_value: the holder's side hands the winners its least valuable card (a 1-point card if it has one; equal values in the pack's order), the withheld card itself if it has no other; none: the trick stays a card short.",
                }
            },
            ["gives"],
        ),
    },
    ["card", "by", "compensation"],
)

PLAY_EXTRAS = {
    "last_of_suit": dsl(
        'Cards that may be played only when their holder has no other card that follows as they do (the Pagat only as the last trump in negative games), a set expression such as "{T1}".'
    ),
    "trumps": rule(
        "How trumps behave (Farben games).",
        {
            "win": {
                "type": "boolean",
                "description": "false: a trump wins only a trick in which trumps were led; a void player must still trump (default true).",
            },
            "lead": {
                "enum": ["any", "only_if_nothing_else"],
                "description": "only_if_nothing_else: trumps may not be led while the leader holds other cards.",
            },
        },
        provenance=False,
    ),
    "exceptions": {
        "type": "array",
        "items": rule(
            "When all these cards fall in one trick, the named one wins it (the Emperor trick: Sküs, XXI and I, the I wins).",
            {"cards": dsl('A set expression, e.g. "{T22, T21, T1}".'), "wins": CARD},
            ["cards", "wins"],
        ),
        "description": "Exceptions to who wins a trick.",
    },
    "duties": {
        "type": "array",
        "items": rule(
            "A duty over the trick history for some cards, applied after following suit and trumping, in order. `must`: when it holds, a card of `cards` must be played if one is allowed. `may_not`: when it holds, no card of `cards` may be played unless nothing else is allowed (so a card that is its holder's only possible play still falls). Räuber: the Pfeife to the third trick in which a trump is led; the 21 not onto a trick holding the Stiess unless it is the last trump.",
            {
                "cards": dsl('The cards it is about, a set expression such as "{T1}" or "trumps".'),
                "must": dsl(
                    "When one of the cards must be played. Known: hand, trick_cards (the cards on the table in this trick), trick_number (1 = first), trump_leads (the tricks so far in which a trump was led, this one included once a trump leads it), led_trump (a trump leads this trick), leading (the player leads), players. "
                    + DSL_BOOL
                ),
                "may_not": dsl("When none of the cards may be played. Known: as for must. " + DSL_BOOL),
                "reason": {"type": "string", "description": "What a refusal tells the player."},
            },
            ["cards"],
        ),
        "description": "Duties over the trick history (a general form of rules for particular tricks).",
    },
    "keep_back": {
        "type": "array",
        "items": rule(
            "Cards their holder keeps for a trick of its own: played before it only when nothing else is allowed (the highest kept card first), and in it when allowed (as an announced bird is kept for its trick).",
            {
                "cards": dsl('The cards kept, a set expression such as "{T1}".'),
                "until": {
                    "type": "integer",
                    "description": "The trick they are kept for: 1 = the first, -1 = the last (default -1).",
                },
            },
            ["cards"],
        ),
        "description": "Cards kept back for a trick of their own.",
    },
}
contract_play["properties"].update(PLAY_EXTRAS)

play = rule(
    "Trick play.",
    {
        "first_lead": {"enum": ["declarer", "vorhand"], "description": "Who leads to the first trick."},
        "follow_suit": {"type": "boolean", "description": "Players must follow the suit led (trumps count as a suit)."},
        "when_void": {
            "enum": ["trump", "any"],
            "description": "A player void in the suit led must trump if able (trump) or may play any card (any).",
        },
        "must_beat": {"type": "boolean", "description": "Players must head the trick if able (Stichzwang)."},
        "withhold": withhold,
        "trump_suit": described(
            NAME, "A suit that is trumps in every contract unless the contract says otherwise (Hearts in Tapp)."
        ),
        "schedule": {
            "type": "array",
            "items": scheduled,
            "description": "Rules for particular tricks (the Gstieß, 21 and 1 in tricks 1–3 of Buchenbach).",
        },
        "discards_visible_until": {
            "type": "integer",
            "minimum": 0,
            "description": "The declarer may look at their discards until this trick is over, not after (absent: always).",
        },
        **PLAY_EXTRAS,
    },
    ["first_lead"],
)

counting = rule(
    "How card points are counted.",
    {
        "packet": {
            "type": "integer",
            "minimum": 1,
            "description": "Cards are counted in packets of this many (2: pairs, 3: threes, 1: one by one).",
        },
        "packet_deduct": {"type": "integer", "minimum": 0, "description": "Points taken off each full packet."},
        "remainder_deduct": {
            "type": "integer",
            "minimum": 0,
            "description": "Points taken off the cards left over (an incomplete packet).",
        },
        "declarer_bonus": dsl(
            "Points added to the declarer's count (three-player Cego's missing point). Known: declarer_tricks, defender_tricks, tricks. "
            + DSL_INT
        ),
        "aside": rule(
            "Whose the cards out of play are (the talon, or the discards after an exchange).",
            {
                "counts_for": {"enum": ["declarer", "defenders", "nobody"], "description": "The side they count for."},
                "unless": dsl(
                    "When they count for the defenders instead. Known: declarer_tricks, defender_tricks. " + DSL_BOOL
                ),
            },
            ["counts_for"],
        ),
    },
    ["packet"],
)

liable = rule(
    "Opponents who pay for the whole team in a given case (a Marsch against a second bidder or a withholder).",
    {
        "when": dsl(
            "When they do. Known: as for declarer_wins, and declarer_won, bidders (how many players bid in the auction). "
            + DSL_BOOL
        ),
        "seats": {
            "type": "array",
            "minItems": 1,
            "items": {
                "enum": ["other_bidders", "withholders"],
                "description": "other_bidders: opponents who bid in the auction; withholders: opponents who withheld a card.",
            },
            "description": "Who is liable.",
        },
        "pays": dsl(
            "What each liable opponent pays. Known: as for amount, and amount, defenders (how many opponents pay), liable (how many are liable), bidders. "
            + DSL_INT
        ),
        "others_pay": dsl("What each other opponent pays (same names). " + DSL_INT),
    },
    ["when", "seats", "pays", "others_pay"],
)

settlement = rule(
    "Who pays whom after the play.",
    {
        "unit": {"type": "string", "description": "The unit of payments (cent, Pfennig, point)."},
        "declarer_wins": dsl(
            "Whether the declarer won. Known: declarer_points, defender_points, declarer_tricks, defender_tricks, tricks, players, declarer_cards, defender_cards (cards in each side's pile), last_trick_won_with (the declarer's card in the last trick, if the declarer won it: a set of one card or none). "
            + DSL_BOOL
        ),
        "amount": dsl(
            "What the declarer receives from, or pays to, each defender. Known: the names of declarer_wins and winner_points, loser_points, factor, declarer_won, and score where `score` is given. "
            + DSL_INT
        ),
        "score": dsl(
            "The points a game's value is reckoned from, before the contract's factor (classic Tapp: the card points above 60, or all of them), so that a reading can change it alone; value formulas (amount, pot, liable payments, a declaration's amount) may write `score` for it, which stands for this formula. Known: as for amount. "
            + DSL_INT
        ),
        "drawn": dsl(
            "When the game is drawn: nobody scores and a pot is untouched (Württemberg Tarock at 60:60). Not applied once a declaration (Tout) has changed the aim. Known: as for declarer_wins. "
            + DSL_BOOL
        ),
        "payment": {
            "enum": ["each_defender"],
            "description": "each_defender: the declarer receives the amount from each defender, or pays it to each.",
        },
        "sitting_out": {
            "enum": ["no_part", "defender"],
            "description": "Whether a dealer who sits out settles like a defender or takes no part.",
        },
        "liable": {
            "type": "array",
            "items": liable,
            "description": "Cases where some opponents pay for the whole team; the first that applies is used.",
        },
        "stake": {
            "type": "integer",
            "minimum": 1,
            "description": "Every payment of a deal is multiplied by this: the money per point (default 1; 10 where the table plays for ten times the stake, as after Cego's round of compulsory Räuber).",
        },
        "split": rule(
            "How the declarer's side shares what the opponents pay it (or what it pays them) when the declarer has a partner: in these proportions (French Tarot for five: {declarer: 2, partner: 1}). Default: equal shares (2 v 2: each loser pays one winner). A total that these weights do not divide is refused when the ruleset loads where that can be known (a game or bonus of a fixed value, times the opponents who pay it); where it cannot (a value reckoned from the card points), the declarer takes the remainder, gained or lost.",
            {
                "declarer": {"type": "integer", "minimum": 1, "description": "The declarer's share."},
                "partner": {"type": "integer", "minimum": 1, "description": "The partner's share."},
            },
            ["declarer", "partner"],
            provenance=False,
        ),
    },
    ["declarer_wins", "amount"],
)

BONUS_KNOWN = "Known, for the side judged (scope side): side_cards (its tricks and its share of the talon and discards), side_points (those cards counted as `counting` says), side_won (cards of tricks it won), side_played, opponents_played, side_tricks, opponent_tricks, tricks, called (the cards called for a partner), is_declarer_side, players, announced (the side announced it); trick(n) (the cards of trick n: 1 the first, -1 the last), winning_card(n), won_by_side(n), trick_of(card) (the number of the trick the card was played to, 0 if it was not played). For a combination in a hand (scope seat), per active seat: hand (its cards when play starts, after the exchange), is_declarer, is_partner, players, announced (this seat announced it): `count(hand & trumps) >= 10 and (announced or not is_declarer)` is ten trumps that the declarer must announce and the others claim at the end."
bonus = rule(
    "A bonus judged at the end of the deal for each side, scored apart from the game and paid like it (each opponent to or from the side); × the contract's bonus_factor × 2 per kontra.",
    {
        "title": {"type": "string", "description": "The display name."},
        "achieved": dsl("When the side made it. " + BONUS_KNOWN + " " + DSL_BOOL),
        "value": dsl(
            "Its value made silently (per payment); absent: it scores only when announced (Sack). Known: game (the game's value), players. "
            + DSL_INT
        ),
        "announced": dsl(
            "Its value when announced (made: plus; not made: minus); absent: it cannot be announced. Known: game, players. "
            + DSL_INT
        ),
        "attempted": dsl(
            "A silent attempt: when it holds and the bonus was not made, the side scores minus `value` (a bird played in its trick and beaten). "
            + BONUS_KNOWN
            + " "
            + DSL_BOOL
        ),
        "card": {
            "oneOf": [CARD, {"const": "called", "description": "The card called for a partner in the deal."}],
            "description": "Announced, this card is kept back for its trick: played only then (if legal) or when nothing else is; `called`: the card called for a partner (King ultimo's King), kept back by the side that holds it.",
        },
        "trick": {"type": "integer", "description": "The card's trick: 1 the first, -1 the last, -2 the one before."},
        "replaces_game": {
            "oneOf": [
                {
                    "type": "boolean",
                    "description": "true: whenever it scores (made, or announced or attempted and lost).",
                },
                {"const": "made", "description": "Only when it is made."},
            ],
            "description": "The bonus stands alone: the game and every other bonus are not scored beside it (a Valat). true: whenever it scores, made or lost; made: only when made (an announced one that fails is scored beside the game like any other bonus); false (default): never.",
        },
        "requires": dsl(
            "Who may announce it, per seat; for a combination in a hand (scope seat) also who may have it at all (Iffezheim: `is_declarer`). Known: hand, is_declarer, is_partner, revealed (the seat's side is public), spoken, card_called (a card was called for a partner in this deal: King ultimo only where a King is called). "
            + DSL_BOOL
        ),
        "scope": {
            "enum": ["side", "seat"],
            "description": "side (default): judged for each side on its tricks and paid between the sides. seat: a combination in one player's hand when play starts (ten trumps, the Drull, four Kings), judged for every active seat, any of them, and paid to its holder by each other player at the table (a dealer who sits out too, when `settlement.sitting_out` is defender), whichever side they are on; silent ones are claimed at the end without a word. Outside the game's multiplier and kontra like every bonus.",
        },
        "whose": {
            "enum": ["either", "declarer", "defenders"],
            "description": "Whose bonus it is (scope side): either (default) side's, judged for each; declarer: only the declarer's side's (King ultimo, won by either partner; the Pfeife in the last trick); defenders: only theirs (the called King captured). Only that side may announce it, and only that side scores it, made or lost: the other side's doing the same is no bonus (the defenders taking the called King in the last trick is paid by their own bonus, not as a King ultimo). For a combination in a hand (scope seat): who may have it (declarer: the declarer and the partner).",
        },
        "forced_early": {
            "enum": ["lost", "forfeit"],
            "description": "An announced `card` kept back for its `trick` but forced out before it (nothing else was legal): lost (default) the bonus is lost; forfeit: also that trick and every later one count for the other side, cards and tricks (Pfeife raus forced out). The play goes on to the end; the event `forfeit` tells the table.",
        },
    },
    ["achieved"],
)

kontra_rule = rule(
    "Doubling an item: the other side of whoever doubled it last (first: the side that does not own it) may double it again.",
    {
        "max": {
            "type": "integer",
            "minimum": 1,
            "description": "How many times it may be doubled (3: kontra, rekontra, subkontra).",
        },
        "titles": {
            "type": "array",
            "items": {"type": "string", "description": "A title."},
            "description": "The name of each doubling, in order.",
        },
        "eligible": dsl(
            "Who may double, per seat (absent: anyone of the side whose turn it is to double). Known: hand, is_declarer, is_partner, revealed, spoken (the seat has had a turn in this round), card_called (a card was called for a partner), made_bid (the seat bid in the auction), bid_before_turn (somebody had bid before the seat's first turn in the auction, or before the auction ended without giving it one, so it could not have opened the bidding: Dreierles' 'an opponent who could have bid Dreier and passed may not knock' is `made_bid or bid_before_turn`). "
            + DSL_BOOL
        ),
    },
    ["max"],
)

RULE_SECTIONS = [
    "deck",
    "players",
    "direction",
    "deal",
    "calls",
    "auction",
    "contracts",
    "claim",
    "announcements",
    "bonuses",
    "announcing",
    "kontra",
    "play",
    "counting",
    "settlement",
    "accusation",
    "penalties",
    "pot_ante",
]

player_rules = rule(
    "The rules of their own for one number of active players.",
    {
        "title": {"type": "string", "description": "A display name."},
        "rules": {
            "type": "object",
            "description": "The rules for this number of players, as a patch merged over the ruleset (maps merge, lists replace, null removes) when that many play; checked against this schema once applied.",
            "propertyNames": {"enum": RULE_SECTIONS},
            "additionalProperties": {
                "description": "A section of the ruleset, or part of one, as it would be written at the top level."
            },
        },
    },
)

choice = rule(
    "One way to read a disputed rule, or one table agreement.",
    {
        "title": {"type": "string", "description": "A display name."},
        "rules": {
            "type": "object",
            "description": "The rules this choice sets, as a patch merged over the ruleset (maps merge, lists replace, null removes); checked against this schema once applied. Under `by_players`, rules for a number of active players: applied when that many play, after the ruleset's own rules for that number (an option that adds a bid to the ladder of six players, which `by_players` writes out whole).",
            "propertyNames": {"enum": [*RULE_SECTIONS, "by_players"]},
            "additionalProperties": {
                "description": "A section of the ruleset, or part of one, as it would be written at the top level."
            },
        },
    },
)


def choice_group(what: str) -> dict:
    return rule(
        what,
        {
            "question": {"type": "string", "description": "The question the choice answers."},
            "title": {"type": "string", "description": "A display name."},
            "default": {"type": "string", "description": "The choice taken when a game names none."},
            "choices": name_map("The choices by name.", choice),
        },
        ["default", "choices"],
    )


source_entry = rule(
    "A source text.",
    {
        "title": {"type": "string", "description": "Its title, author and date."},
        "seed": {"type": "string", "description": "Its file under shared/seeds/, where the project keeps it."},
        "url": {"type": "string", "description": "Where it was published."},
    },
    ["title"],
    provenance=False,
)

ruleset = rule(
    "A Tarock ruleset: one regional variant, or a base that variants extend.",
    {
        "title": {"type": "string", "description": "The variant's name for display."},
        "family": {"type": "string", "description": "The family it belongs to (dappen, cego, tapp)."},
        "extends": {
            "description": "The ruleset(s) this one builds on; it states only what differs.",
            "oneOf": [
                {"type": "string", "description": "One ruleset name or path."},
                {
                    "type": "array",
                    "items": {"type": "string", "description": "A ruleset name or path."},
                    "description": "Several, merged left to right.",
                },
            ],
        },
        "base": {"type": "boolean", "description": "A base (a pack, a family core) that is extended but not played."},
        "inherited_status": {
            "enum": STATUS,
            "description": "The status of every rule this ruleset takes from its bases without restating it: a variant known only in part (Schollach) says `assumed`, so each inherited rule shows as an assumption here.",
        },
        "sources": {
            "type": "object",
            "description": "The source texts cited in `source:` fields, by key (such as dappen-en).",
            "propertyNames": {"type": "string", "pattern": "^[a-z][a-z0-9_-]*$"},
            "additionalProperties": source_entry,
        },
        "deck": deck,
        "players": players,
        "direction": {
            "enum": ["anticlockwise", "clockwise"],
            "description": "The direction of play at the table (display only: seats are numbered in order of play).",
        },
        "deal": deal,
        "calls": name_map("Display names of calls (pass, solo, …).", call),
        "auction": auction,
        "contracts": name_map("The contracts by name.", contract),
        "claim": claim,
        "announcements": name_map("Announcements the declarer may make before the first lead, by name.", announcement),
        "bonuses": name_map(
            "Bonuses judged at the end of a deal for each side (Trull, Pagat ultimo, Valat), by name.", bonus
        ),
        "announcing": rule(
            "A round of announcements after the exchange: starting with `start`, each in turn announces bonuses ({announce: NAME}) and doubles ({kontra: game|BONUS}), any number, then says `done`; it ends when everybody has spoken and the last players − 1 turns said nothing. Saying something makes the speaker's side public.",
            {
                "start": {"enum": ["declarer", "vorhand"], "description": "Who speaks first (default declarer)."},
                "done": described(NAME, "The call that ends a turn (default pass)."),
                "may_announce": dsl(
                    "Who may announce bonuses, per seat. Known: hand, is_declarer, is_partner (holds the called card), revealed (the seat's side is public), spoken (the seat has had a turn in this round: `not spoken` allows announcements only before one's first done call, Dreierles' 'fertig'), card_called (a card was called for a partner in this deal). "
                    + DSL_BOOL
                ),
            },
        ),
        "kontra": rule(
            "Doubling in the round of announcements: the game (its amount reads `kontra`, 2 per doubling) and each announced bonus separately.",
            {"game": kontra_rule, "bonuses": kontra_rule},
        ),
        "play": play,
        "counting": counting,
        "settlement": settlement,
        "by_players": {
            "type": "object",
            "description": "Rules of their own for a number of active players (Cego for three), each a patch applied automatically when that many play.",
            "propertyNames": {"pattern": "^[0-9]+$"},
            "additionalProperties": player_rules,
        },
        "accusation": rule(
            "Skinning a Solo: after everybody passed `phase`, the final bidder may, having picked up the talon, accuse the others ({choose: accuse}, or pass) of having passed with a hand meeting `strong`; a guilty player pays each other player as the loser of the final game with no trick; if nobody is guilty, the accuser does.",
            {
                "phase": described(NAME, "The auction phase everybody must have passed (the Solo round)."),
                "strong": dsl("A hand that 'has a Solo', on the cards dealt. Known: hand. " + DSL_BOOL),
            },
            ["phase", "strong"],
        ),
        "penalties": rule(
            "Rule breaches in games recorded in the field: refused (the default), or accepted with the deal abandoned and the offender paying each other player.",
            {
                "mode": {
                    "enum": ["refuse", "penalize"],
                    "description": "refuse: the engine refuses the action; penalize: it stands and is penalised.",
                },
                "offences": {
                    "type": "array",
                    "items": {
                        "enum": ["revoke", "discard", "misdeal"],
                        "description": "revoke: a card against the duty to follow or trump; discard: an incorrect discard, either one the rules of what may go aside do not allow (a King laid away where Kings may not be: the deal ends there) or a card led before the exchange is finished; misdeal: a recorded deal with a hand or the talon of the wrong size (the dealer pays).",
                    },
                    "description": "The offences penalised.",
                },
                "pays_each": dsl(
                    "What the offender pays each other player. Known: players, factor (the contract's factor when won; 1 before a contract or in one without), kontra (the game's doublings so far), misdeal (the offence is a misdeal). "
                    + DSL_INT
                ),
            },
            ["offences", "pays_each"],
        ),
        "pot_ante": dsl(
            "With a pot: what the dealer pays into it at the start of each deal. Known: players. " + DSL_INT
        ),
        "session": rule(
            "How a session of deals ends (the deal passes to the next seat each time).",
            {
                "deals": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "After this many deals (a tournament's 2 × 24).",
                },
                "holder_of": CARD
                | {
                    "description": "On request: whoever holds this card in the next deal deals the last one (der Gstieß gibt ab: T22)."
                },
            },
        ),
        "readings": name_map(
            "Disagreements between sources: each reading is chosen when a game starts.",
            choice_group("A disputed rule and its readings."),
        ),
        "options": name_map(
            "Table agreements (half or full game …), chosen when a game starts.",
            choice_group("A table agreement and its choices."),
        ),
    },
)
ruleset["$schema"] = "https://json-schema.org/draft/2020-12/schema"
ruleset["$id"] = "https://tarock.invalid/schema/ruleset.schema.json"
ruleset["title"] = "Tarock ruleset"
ruleset["if"] = {"properties": {"base": {"const": True}}, "required": ["base"]}
ruleset["else"] = {
    "required": ["title", "deck", "players", "deal", "auction", "contracts", "play", "counting", "settlement"]
}


def render() -> str:
    return json.dumps(ruleset, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    Path(__file__).with_name("ruleset.schema.json").write_text(render(), encoding="utf-8")
