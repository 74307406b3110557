"""The web table's scribe: an observed game written down in the browser, through the HTTP API,
with the same checks and questions as `tarock observe` (tests/test_observation.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from aiohttp import ClientSession
from aiohttp.test_utils import TestServer
from clirun import ROOT

from interpreter.engine.records import replay
from interpreter.frontends.web.app import make_app

RECORD = ROOT / "tests" / "records" / "furtwangen-observed-revoke.yaml"


def _entries() -> list[str]:
    """The observed game's actions as one would type them, whose turn it is implied."""
    lines = []
    for _seat, action in yaml.safe_load(RECORD.read_text(encoding="utf-8"))["actions"]:
        if isinstance(action, str):
            lines.append(action)
        elif "play" in action:
            lines.append(action["play"])
        else:
            lines.append("announce ulti T3 T1")
    return lines


async def _scribe(tmp_path: Path) -> dict[str, Any]:
    server = TestServer(make_app(bot_delay=0))
    await server.start_server()
    seen: dict[str, Any] = {}
    try:
        async with ClientSession() as http:

            async def post(url: str, body: Any) -> tuple[int, dict[str, Any]]:
                async with http.post(server.make_url(url), json=body) as response:
                    return response.status, await response.json()

            status, state = await post("/api/scribes", {"ruleset": "furtwangen", "players": 6, "by": "a test"})
            assert status == 200, state
            url = f"/api/scribes/{state['scribe']}"
            seen["refused"] = (await post(url, {"line": "T22"}))[1]["said"]  # a card during the auction
            for line in _entries():
                _, state = await post(url, {"line": line})
                if state["question"]:
                    seen["question"], seen["said"] = state["question"], state["said"]
                    seen["while_asking"] = (await post(url, {"line": "T13"}))[1]
                    _, state = await post(url, {"answer": "t"})
                    seen["note_question"] = state["question"]
                    _, state = await post(url, {"answer": "the table lets it pass"})
            seen["final"] = state
            seen["unknown"] = await post("/api/scribes/nosuch", {"line": "pass"})
            seen["bad"] = await post(url, {"entry": 1})
            seen["bad_ruleset"] = await post("/api/scribes", {"ruleset": "nowhere"})
            seen["bad_table"] = await post("/api/scribes", {"ruleset": "furtwangen", "players": 2})
            async with http.get(server.make_url("/scribe")) as page:
                seen["page"] = await page.text()
    finally:
        await server.close()
    return seen


def test_the_scribe_writes_down_an_observed_game_and_asks_about_its_revoke(tmp_path: Path) -> None:
    seen = asyncio.run(_scribe(tmp_path))
    assert seen["refused"][0].startswith("not taken:") and "it is time for a call" in seen["refused"][0]
    assert seen["question"] == "a slip of entry (s), or does the table play so (t)? "
    assert seen["said"][0].startswith("departure at action 14: seat 2 did not follow trumps in trick 1")
    # While the question waits, nothing else is taken.
    assert seen["while_asking"]["said"][0].startswith("not taken: answer first")
    assert seen["note_question"].startswith("what the table says")
    final = seen["final"]
    assert final["question"] is None and final["over"] and final["entries"] == len(_entries())
    assert final["departures"][0]["at"] == 14 and final["departures"][0]["note"] == "the table lets it pass"
    record = tmp_path / "observed.yaml"
    record.write_text(final["record"], encoding="utf-8")
    written = yaml.safe_load(final["record"])
    assert written["observed"] == {"by": "a test"}
    assert written["actions"] == yaml.safe_load(RECORD.read_text(encoding="utf-8"))["actions"]
    assert replay(record).ok
    assert seen["unknown"][0] == 404 and "no such observed game" in seen["unknown"][1]["error"]
    assert (
        seen["bad"][0] == 400
        and seen["bad_ruleset"][0] == 400
        and "no ruleset 'nowhere'" in seen["bad_ruleset"][1]["error"]
    )
    assert seen["bad_table"][0] == 400 and "not 2" in seen["bad_table"][1]["error"]
    assert 'src="/static/scribe.js"' in seen["page"]


# Entries that made the scribe answer 500 (issue 33 item 4): YAML that does not parse, Python
# tags, complex keys, nesting deep enough to exhaust the parser, aliases. Each is 'not taken'
# with its column and reason, as the terminal's `tarock observe` says it.
HOSTILE_ENTRIES = [
    ("{play: [}", "column 9"),
    ("{play: T21", "column 11"),
    ("{: }", "column 2"),
    ("{? [a, b] : c}", "a key must be a plain name"),
    ("{{}: 1}", "a key must be a plain name"),
    ("{play: !!python/object/apply:os.system [ls]}", "on a list is not read here"),
    ("{play: !!python/name:os.system ''}", "column 8"),
    ("{play: " + "[" * 200 + "]" * 200 + "}", "nested more than"),
    ("{" * 1000 + "}" * 1000, "column"),
    ("{a: &x [1, 2], b: *x}", "not an action"),
    ('{play: "\\ud800"}', "lone surrogate"),
    ("3 {play: " + "[" * 200 + "]" * 200 + "}", "nested more than"),
]


def _terminal_says(line: str) -> list[str]:
    """What `tarock observe` prints for `line` as the first entry of the same table."""
    from interpreter.frontends.observe import Scribe
    from interpreter.language.loader import load_ruleset

    said: list[str] = []
    scribe = Scribe("cego", load_ruleset("cego"), 4, 0, {}, lambda question: "s", said.append)
    try:
        if scribe.command(line) is None:
            scribe.enter(*scribe.parse(line))
    except ValueError as exc:
        said.append(f"not taken: {exc}")
    return said


def test_an_entry_the_yaml_reader_refuses_is_not_taken_with_its_place_as_in_the_terminal() -> None:
    async def main() -> list[tuple[int, dict[str, Any]]]:
        server = TestServer(make_app(bot_delay=0))
        await server.start_server()
        answers = []
        try:
            async with ClientSession() as http:
                async with http.post(server.make_url("/api/scribes"), json={"ruleset": "cego", "players": 4}) as r:
                    url = server.make_url(f"/api/scribes/{(await r.json())['scribe']}")
                for line, _ in HOSTILE_ENTRIES:
                    async with http.post(url, json={"line": line}) as response:
                        answers.append((response.status, await response.json()))
        finally:
            await server.close()
        return answers

    for (line, expected), (status, state) in zip(HOSTILE_ENTRIES, asyncio.run(main()), strict=True):
        assert status == 200, (line[:30], state)
        assert state["said"] == _terminal_says(line), line[:30]
        assert len(state["said"]) == 1 and state["said"][0].startswith("not taken: "), (line[:30], state["said"])
        assert expected in state["said"][0], (line[:30], state["said"])
        assert state["entries"] == 0
