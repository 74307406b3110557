"""`tarock simulate NAME --sessions N`: whole sessions played by bots, as the ruleset's `session`
says (who deals, its rounds of their own, its end, its score sheet), and each seat's totals over
a session.

Session i is seeded from --seed and i alone, its deals from that seed and their number, and each
bot from that seed, the deal and its seat, so the same --seed gives the same numbers. A session
whose ruleset ends it when a player asks (Cego, Dreierles) is asked to end after --session-deals
deals, and then ends as its rule says (the holder of the Gstieß deals the last deal; the round
under way and the closing round are played); a session with an end of its own is cut there. A round
played at a signal is given its signal with --signal NAME@DEAL (before deal DEAL of each session,
counted from 1). The sessions are played in this process, one after another.
"""

from __future__ import annotations

import math
from typing import Any

from interpreter.engine.seeds import bot_seed, deal_seed
from interpreter.errors import IllegalActionError, TarockError
from interpreter.language.model import Ruleset


def simulate_sessions(
    ruleset: Ruleset,
    sessions: int,
    players: int,
    *,
    seed: int = 0,
    dealer: int = 0,
    bot: str = "rules",
    pass_probability: float | None = None,
    cap: int | None = None,
    signals: dict[int, str] | None = None,
) -> dict[str, Any]:
    """Play `sessions` sessions; their statistics (per-seat totals, deals per session, the rounds
    of their own played)."""
    from interpreter.bots.randombot import RandomBot, play_out
    from interpreter.bots.rulebot import RuleBot
    from interpreter.engine.session import Session

    rule = ruleset.session
    if cap is None and rule.deals is None and rule.rounds is None and rule.until is None:
        raise TarockError(
            f"{ruleset.title} says no end to a session (a player asks to stop): give --session-deals N to end "
            "each after N deals"
        )
    signals = signals or {}
    names = {r.name for r in rule.special_rounds if r.at == "signal"}
    for name in signals.values():
        if name not in names:
            known = f"; it has: {', '.join(sorted(names))}" if names else ""
            raise TarockError(f"--signal: {ruleset.title} has no round played at a signal named {name!r}{known}")
    rulebot = RuleBot()
    totals: list[list[int]] = []
    lengths: list[int] = []
    capped = 0
    rounds: dict[str, int] = {}
    left: dict[str, list[int]] = {account.name: [] for account in rule.pots}  # each pot at each session's end
    for index in range(sessions):
        own_seed = deal_seed(seed, index)
        session = Session(ruleset, players=players, dealer=dealer, seed=own_seed)
        asked = False
        while not session.over:
            if cap is not None and len(session.deals) >= cap and not asked:
                # A player asks to stop; a session that ends by its own rule only is cut here.
                asked = True
                try:
                    session.request_end(0)
                except IllegalActionError:
                    capped += 1
                    break
            if cap is not None and len(session.deals) >= 4 * cap + 100:
                capped += 1  # the holder of the card that ends it never turned up
                break
            signal = signals.get(len(session.deals) + 1)
            if signal is not None and session.current is None and signal not in session.signalled:
                session.signal(signal)
            game = session.next_deal()
            number = len(session.deals)
            choosers = (
                [rulebot] * players
                if bot == "rules"
                else [RandomBot(bot_seed(own_seed, number, s), pass_probability) for s in range(players)]
            )
            play_out(game, dict(enumerate(choosers)))
            session.finish_deal()
        totals.append(session.totals())
        lengths.append(len(session.deals))
        for name, held in session.pots_left().items():
            left[name].append(held)
        for played in session.rounds_of_deals:
            if played is not None:
                rounds[played] = rounds.get(played, 0) + 1
    seats = []
    for seat in range(players):
        values = [t[seat] for t in totals]
        mean = sum(values) / sessions
        var = sum((v - mean) ** 2 for v in values) / (sessions - 1) if sessions > 1 else 0.0
        seats.append({"seat": seat, "mean": round(mean, 4), "stdev": round(math.sqrt(var), 4), "total": sum(values)})
    return {
        "ruleset": ruleset.name,
        "title": ruleset.title,
        "options": dict(ruleset.choices),
        "players": players,
        "dealer": dealer,
        "sessions": sessions,
        "seed": seed,
        "bot": bot,
        "unit": ruleset.settlement.unit,
        "sheet": rule.sheet is not None,
        "deals": {"total": sum(lengths), "min": min(lengths), "max": max(lengths), "mean": sum(lengths) / sessions},
        "cut_short": capped,
        "rounds_of_their_own": rounds,
        "seats": seats,
        # what each pot of its own holds at the sessions' end (the seats' totals include what
        # they paid into the pots and took out)
        "pots": {name: {"mean": sum(v) / sessions, "max": max(v)} for name, v in left.items()},
    }


def render_sessions(stats: dict[str, Any]) -> str:
    deals = stats["deals"]
    lines = [
        f"{stats['title']}: {stats['sessions']:,} sessions, {stats['players']} at the table, {stats['bot']} bots, "
        f"seed {stats['seed']}",
        f"deals per session: {deals['mean']:.1f} on average, from {deals['min']} to {deals['max']} "
        f"({deals['total']:,} in all)",
    ]
    chosen = ", ".join(f"{k}={v}" for k, v in stats["options"].items())
    if chosen:
        lines.append(f"readings and options: {chosen}")
    if stats["cut_short"]:
        lines.append(f"cut short at --session-deals: {stats['cut_short']:,} sessions")
    for name, count in stats["rounds_of_their_own"].items():
        lines.append(f"deals in the round {name}: {count:,}")
    what = "the score sheet settled" if stats["sheet"] else "the payments added up"
    if stats["pots"]:
        what += ", with what the pots took and paid"
        held = ", ".join(f"{name} {p['mean']:.1f} on average (at most {p['max']})" for name, p in stats["pots"].items())
        lines.append(f"left in the pots at the end: {held}")
    lines.append("")
    lines.append(f"totals per session ({stats['unit']}; {what}), by seat:")
    lines.append(f"  {'seat':<8}{'mean':>10}{'spread (sd)':>13}")
    for s in stats["seats"]:
        lines.append(f"  {s['seat']:<8}{s['mean']:>+10.2f}{s['stdev']:>13.2f}")
    return "\n".join(lines)


def parse_signals(texts: list[str]) -> dict[int, str]:
    """--signal NAME@DEAL, repeatable: the round NAME's signal before deal DEAL (from 1)."""
    out: dict[int, str] = {}
    for text in texts:
        name, at, deal = text.partition("@")
        if not at or not name or not deal.isdigit() or int(deal) < 1:
            raise TarockError(f"--signal {text!r}: write the round and the deal before which it starts, NAME@DEAL")
        out[int(deal)] = name
    return out
