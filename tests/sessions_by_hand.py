"""Records of whole sessions, put together from deals already worked out by hand, without the
interpreter. Nothing here imports the engine.

A session record is a list of deals; the ruleset's `session` rule says who deals each. The deals
here are single-deal records of tests/records/ whose outcomes were computed by hand from the
source, each dealt by seat 0. Played with another dealer, a deal is the same deal turned round
the table: the seat `k` places further on holds the hand and makes the moves, and receives the
payment, of the original seat. So a deal dealt by seat `k` is the record turned by `k`, and what
the session must come to (who deals, the scores, the score sheet and its settlement) is reckoned
here from the records' own expected outcomes.

Run it to write the session records again: `python tests/sessions_by_hand.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
RECORDS = HERE / "records"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((RECORDS / f"{name}.yaml").read_text(encoding="utf-8"))
    return data


def turned(record: dict[str, Any], k: int) -> dict[str, Any]:
    """The deal of `record` (dealt by seat 0) dealt by seat `k`: every seat moved on by `k`."""
    n = record["players"]
    assert record.get("dealer", 0) == 0
    hands = record["deal"]["hands"]
    moved = [hands[(s - k) % n] for s in range(n)]  # seat s holds what seat s - k held
    expect = dict(record["expect"])
    if "declarer" in expect:
        expect["declarer"] = (expect["declarer"] + k) % n
    if "payments" in expect:
        expect["payments"] = [expect["payments"][(s - k) % n] for s in range(n)]
    return {
        "title": record["title"] + (f" (turned {k} seat{'s' if k > 1 else ''} on: seat {k} deals)" if k else ""),
        "deal": {"hands": moved, "talon": record["deal"]["talon"]},
        "actions": [[(seat + k) % n, action] for seat, action in record["actions"]],
        "expect": expect,
    }


def tapp_session() -> dict[str, Any]:
    """Württemberg Tarock for three, one round, the same dealer again after a throw-in, and a
    score sheet on which only the declarer writes the game's value per opponent, settled as
    differences (tests/rulesets/tapp-session.yaml)."""
    n = 3
    plan = [  # (record, dealer): a throw-in, then one turn of dealing for each seat
        ("tapp-wuerttemberg-thrown-in", 0),
        ("tapp-wuerttemberg-frage-won", 0),
        ("tapp-wuerttemberg-solo-any-suit-spades", 1),
        ("tapp-wuerttemberg-frage-lost", 2),
    ]
    deals = [turned(load(name), dealer) for name, dealer in plan]
    scores, sheet = [0] * n, [0] * n
    for deal in deals:
        expect = deal["expect"]
        payments = expect["payments"]
        scores = [a + b for a, b in zip(scores, payments, strict=True)]
        if expect.get("declarer") is not None:
            d = expect["declarer"]
            sheet[d] += payments[d] // (n - 1)  # the declarer's game, per opponent
    total = sum(sheet)
    totals = [n * s - total for s in sheet]  # every two players settle their difference, at 1 a point
    return {
        "title": "A session of Württemberg Tarock: one round, a throw-in dealt again, a score sheet",
        "source": "the deals' own records (tapp-late: Württemberg Tarock); the session's rule is tests/rulesets/tapp-session.yaml",
        "note": (
            "Seat 0 deals and everybody passes: the cards are thrown in and, by this table's rule, seat 0 "
            "deals again; that turn of dealing ends with a Frage won by seat 1. Seats 1 and 2 deal next "
            "(a Solo won by seat 0, a Frage lost by seat 1), and with that every seat has had its turn: the "
            "round, and the session, is over. Only the declarer writes on the sheet, the game's value per "
            "opponent (+18, +62, -15); settled as differences between every two players, the sheet pays "
            "what the deals paid one by one."
        ),
        "ruleset": "../rulesets/tapp-session.yaml",
        "players": n,
        "dealer": 0,
        "session": deals,
        "expect": {
            "dealers": [dealer for _, dealer in plan],
            "scores": scores,
            "sheet": sheet,
            "totals": totals,
            "over": True,
        },
    }


def tapp_declarer_deals() -> dict[str, Any]:
    """Württemberg Tarock where the last declarer deals next, until somebody is 100 ahead
    (tests/rulesets/tapp-declarer-deals.yaml)."""
    n = 3
    scores = [0] * n
    deals, dealers = [], []
    dealer = 0
    names = ["tapp-wuerttemberg-frage-won", "tapp-wuerttemberg-solo-any-suit-spades", "tapp-wuerttemberg-frage-lost"]
    for name in names:
        deal = turned(load(name), dealer)
        deals.append(deal)
        dealers.append(dealer)
        scores = [a + b for a, b in zip(scores, deal["expect"]["payments"], strict=True)]
        if max(scores) >= 100:  # `until: highest_score >= 100`, after the deal
            break
        dealer = deal["expect"]["declarer"]  # the declarer deals next
    return {
        "title": "A session of Württemberg Tarock: the declarer deals next, until somebody has 100",
        "source": "the deals' own records (tapp-late: Württemberg Tarock); the session's rule is tests/rulesets/tapp-declarer-deals.yaml",
        "note": (
            "Seat 0 deals; seat 1 wins a Frage (+36) and so deals the next deal, in which seat 0 wins a Solo "
            "(+124, -18 before: 106). With 100 reached, the session is over after two deals."
        ),
        "ruleset": "../rulesets/tapp-declarer-deals.yaml",
        "players": n,
        "dealer": 0,
        "session": deals,
        "expect": {"dealers": dealers, "scores": scores, "totals": list(scores), "over": True},
    }


def one_deal(record: dict[str, Any]) -> dict[str, Any]:
    """A record of a session of one deal (a pot's deal, which needs the session's account) as a
    record of that deal alone: its cards, actions and the deal's own expected outcome."""
    if "session" not in record:
        return record
    (deal,) = record["session"]
    return {**{k: v for k, v in record.items() if k not in ("session", "expect", "pots")}, **deal}


def tapp_pot_deal(pot: int, taken: list[int], dealer: int, expect: dict[str, Any]) -> int:
    """The Tapp pot's rules over one deal (tapp-late: Württemberg Tarock, Scoring): the dealer
    antes 2; a lost Frage pays the pot what it pays each defender; a won Solo takes the pot, a
    lost one doubles it; a drawn game (nobody paid) leaves it alone. `taken`: what each seat took
    out of the pot (below 0: paid in), changed in place; returns what the pot then holds."""
    n = len(taken)
    taken[dealer] -= 2
    pot += 2
    d = expect.get("declarer")
    if d is None:
        return pot
    paid = expect["payments"][d]  # the declarer's game: n - 1 times what each defender got
    if expect["contract"] == "frage" and paid < 0:
        taken[d] += paid // (n - 1)
        pot -= paid // (n - 1)
    elif expect["contract"] == "solo" and paid > 0:
        taken[d] += pot
        pot = 0
    elif expect["contract"] == "solo" and paid < 0:
        taken[d] -= pot
        pot *= 2
    return pot


def tapp_pot_session() -> dict[str, Any]:
    """Württemberg Tarock with the pot kept (the account `stock`), three deals, each player
    paying 5 into the pot when the session starts and what is left shared at the end
    (tests/rulesets/tapp-pot-session.yaml)."""
    n, ante = 3, 5
    pot = n * ante
    taken = [-ante] * n
    scores = [0] * n
    plan = [
        ("tapp-wuerttemberg-pot-solo-won", 0),
        ("tapp-wuerttemberg-frage-won", 1),
        ("tapp-wuerttemberg-pot-frage-lost", 2),
    ]
    deals = []
    for name, dealer in plan:
        deal = turned(one_deal(load(name)), dealer)
        deals.append(deal)
        scores = [a + b for a, b in zip(scores, deal["expect"]["payments"], strict=True)]
        pot = tapp_pot_deal(pot, taken, dealer, deal["expect"])
    share = pot // n  # shared equally at the end; what does not divide stays
    return {
        "title": "A session of Württemberg Tarock with a pot: antes at the start, what is left shared at the end",
        "source": "the deals' own records (tapp-late: Württemberg Tarock, Scoring: the pot); the session's rule is tests/rulesets/tapp-pot-session.yaml",
        "note": (
            "The pot is the session's account `stock`. Each player pays 5 into it as the session starts: 15. "
            "Seat 0 deals (ante 2: 17) and seat 2 wins a Solo, taking the pot: it is empty. Seat 1 deals (ante "
            "2) and seat 2 wins a Frage; seat 2 deals (ante 2: 4) and seat 1 loses a Frage, paying the pot 12, "
            "what it pays each defender: 16. After three deals the session is over and the 16 are shared: 5 "
            "each, 1 stays in the pot. The deals' own payments are the games alone; the totals add what each "
            "seat paid into the pot and took out of it."
        ),
        "ruleset": "../rulesets/tapp-pot-session.yaml",
        "options": {"solo_trumps": "hearts", "pot": "kept"},
        "players": n,
        "dealer": 0,
        "session": deals,
        "expect": {
            "dealers": [dealer for _, dealer in plan],
            "scores": scores,
            "totals": [s + t + share for s, t in zip(scores, taken, strict=True)],
            "pots": {"stock": pot - n * share},
            "over": True,
        },
    }


def kitty_deal(kitty: int, taken: list[int], dealer: int, expect: dict[str, Any]) -> int:
    """The kitty of tests/rulesets/tapp-two-pots.yaml over one deal: after a throw-in it pays the
    dealer 1, after a game lost each defender 3, never more than it holds (shared equally, what
    does not divide stays). `taken` changes in place; returns what the kitty then holds."""
    d = expect.get("declarer")
    if expect.get("outcome") == "thrown_in":
        each = min(1, kitty)
        taken[dealer] += each
        return kitty - each
    if d is not None and expect["payments"][d] < 0:
        defenders = [s for s in range(len(taken)) if s != d]
        each = min(3, kitty // len(defenders))
        for s in defenders:
            taken[s] += each
        return kitty - each * len(defenders)
    return kitty


def tapp_two_pots_session() -> dict[str, Any]:
    """Württemberg Tarock with two pots (tests/rulesets/tapp-two-pots.yaml): the Tapp pot
    `stock` (each player pays 5 in at the start, then the rules of tapp_pot_deal; shared at the
    end), and the `kitty` (each player pays 3 in at the start; after a game lost it pays each
    defender 3, after a throw-in the dealer 1, never more than it holds, shared equally; kept at
    the end). The session ends after the deal that empties the kitty."""
    n = 3
    stock, kitty = 5 * n, 3 * n
    taken = [-5 - 3] * n
    scores = [0] * n
    plan = [
        ("tapp-wuerttemberg-thrown-in", 0),
        ("tapp-wuerttemberg-solo-hearts-trumps", 1),
        ("tapp-wuerttemberg-frage-lost", 2),
    ]
    deals = []
    for name, dealer in plan:
        deal = turned(one_deal(load(name)), dealer)
        deals.append(deal)
        expect = deal["expect"]
        scores = [a + b for a, b in zip(scores, expect["payments"], strict=True)]
        stock = tapp_pot_deal(stock, taken, dealer, expect)
        kitty = kitty_deal(kitty, taken, dealer, expect)
        if kitty == 0:  # `until: kitty == 0`
            break
    share = stock // n
    return {
        "title": "A session of Württemberg Tarock with two pots: the Tapp pot and a kitty that ends the session",
        "source": "the deals' own records (tapp-late: Württemberg Tarock, Scoring: the pot); the session's rule is tests/rulesets/tapp-two-pots.yaml",
        "note": (
            "The stock starts with 15 (5 from each), the kitty with 9 (3 from each). Seat 0 deals and everybody "
            "passes: seat 0 antes 2 into the stock (17) and the kitty pays the dealer 1 (8). Seat 1 deals (ante "
            "2: 19) and seat 2 loses a Solo (-108): it doubles the stock, paying 19 in (38), and the kitty pays "
            "seats 0 and 1 3 each (2). Seat 2 deals (ante 2: 40) and seat 1 loses a Frage (-30): it pays the "
            "stock 15, what it pays each defender (55); the kitty, asked for 3 each, holds 2: seats 0 and 2 "
            "take 1 each and it is empty, which ends the session. The stock's 55 are shared: 18 each, 1 stays."
        ),
        "ruleset": "../rulesets/tapp-two-pots.yaml",
        "options": {"solo_trumps": "hearts", "pot": "kept"},
        "players": n,
        "dealer": 0,
        "session": deals,
        "expect": {
            "dealers": [dealer for _, dealer in plan][: len(deals)],
            "scores": scores,
            "totals": [s + t + share for s, t in zip(scores, taken, strict=True)],
            "pots": {"stock": stock - n * share, "kitty": kitty},
            "over": True,
        },
    }


def write(name: str, record: dict[str, Any]) -> None:
    text = yaml.safe_dump(record, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)
    (RECORDS / f"{name}.yaml").write_text(
        "# Written by tests/sessions_by_hand.py from the deals' own records; do not edit by hand.\n" + text,
        encoding="utf-8",
    )


SESSIONS = {
    "session-tapp-wuerttemberg-round": tapp_session,
    "session-tapp-wuerttemberg-declarer-deals": tapp_declarer_deals,
    "session-tapp-wuerttemberg-pot": tapp_pot_session,
    "session-tapp-wuerttemberg-two-pots": tapp_two_pots_session,
}

if __name__ == "__main__":
    for name, make in SESSIONS.items():
        write(name, make())
