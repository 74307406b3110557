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


def tapp_pot_session() -> dict[str, Any]:
    """Württemberg Tarock with the pot kept, three deals, each player paying 5 into the pot when
    the session starts and what is left shared at the end (tests/rulesets/tapp-pot-session.yaml).
    The pot's rules in a deal (option pot: kept): the dealer antes 2; a lost Frage pays the pot as
    much as each defender; a won Solo takes the pot."""
    n, ante = 3, 5
    pot = n * ante
    scores = [0] * n
    deals = []
    # A won Solo dealt by seat 0: the deal's record had 10 in the pot; this one has 15.
    solo = turned(load("tapp-wuerttemberg-pot-solo-won"), 0)
    record_pot = load("tapp-wuerttemberg-pot-solo-won")["pot"]
    d = solo["expect"]["declarer"]
    solo["expect"]["payments"][d] += (pot + 2) - (record_pot + 2)  # the declarer takes the pot and the ante
    solo["expect"]["pot"] = -pot  # the ante in, the whole pot out
    # A won Frage dealt by seat 1 (its record kept no pot): the dealer's ante is all the pot sees.
    frage = turned(load("tapp-wuerttemberg-frage-won"), 1)
    frage["expect"]["payments"][1] -= 2
    frage["expect"]["pot"] = 2
    # A lost Frage dealt by seat 2: 12 to each defender and the pot, and the ante.
    lost = turned(load("tapp-wuerttemberg-pot-frage-lost"), 2)
    for deal in (solo, frage, lost):
        deals.append(deal)
        scores = [a + b for a, b in zip(scores, deal["expect"]["payments"], strict=True)]
        pot += deal["expect"]["pot"]
    share = pot // n  # shared equally at the end; what does not divide stays
    return {
        "title": "A session of Württemberg Tarock with a pot: antes at the start, what is left shared at the end",
        "source": "the deals' own records (tapp-late: Württemberg Tarock, Scoring: the pot); the session's rule is tests/rulesets/tapp-pot-session.yaml",
        "note": (
            "Each player pays 5 into the pot as the session starts: 15. Seat 0 deals and seat 2 wins a Solo, "
            "taking the pot with seat 0's ante (17): the pot is empty. Seat 1 deals (ante 2) and seat 2 wins a "
            "Frage; seat 2 deals (ante 2) and loses a Frage, paying the pot 12: 16. After three deals the "
            "session is over and the 16 are shared: 5 each, 1 stays in the pot."
        ),
        "ruleset": "../rulesets/tapp-pot-session.yaml",
        "options": {"solo_trumps": "hearts", "pot": "kept"},
        "players": n,
        "dealer": 0,
        "session": deals,
        "expect": {
            "dealers": [0, 1, 2],
            "scores": scores,
            "totals": [s - ante + share for s in scores],
            "pot": pot - n * share,
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
}

if __name__ == "__main__":
    for name, make in SESSIONS.items():
        write(name, make())
