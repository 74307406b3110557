"""End to end: the web table in a real headless Chromium.

The browser is driven over the Chrome DevTools protocol, spoken on a WebSocket with aiohttp's
client (already the web table's dependency): no driver binary and no downloaded browser, only
Debian's `chromium`. Each seat's page lives in a browser context of its own (separate cookies
and storage, as separate browsers have), all in one Chromium process to keep the test fast.

The pages are used as a person uses them: the lobby's form opens the table, each seat's join
link is opened in its own context, cards are tapped and buttons pressed in the DOM.

Set TAROCK_SCREENSHOTS=DIR to keep screenshots of the table (docs/ holds the README's).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from aiohttp import ClientSession, ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestServer

from interpreter.frontends.web.app import TABLES, make_app

BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="no Chromium on this machine: the end-to-end tests need a real browser (apt-get install chromium)",
)


class Browser:
    """One headless Chromium and its DevTools connection."""

    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="tarock-chromium-")
        self.process: subprocess.Popen[bytes] | None = None
        self.ws: ClientWebSocketResponse | None = None
        self.http: ClientSession | None = None
        self.counter = 0
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        assert BROWSER is not None
        self.process = subprocess.Popen(
            [
                BROWSER,
                "--headless=new",
                "--no-sandbox",  # CI runs as root, where Chromium's sandbox will not start
                "--disable-gpu",
                "--disable-extensions",
                "--no-first-run",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("Chromium did not start")
            await asyncio.sleep(0.05)
        port, path = port_file.read_text().splitlines()[:2]
        self.http = ClientSession()
        self.ws = await self.http.ws_connect(f"ws://127.0.0.1:{port}{path}", max_msg_size=0)
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type != WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            future = self.waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)

    async def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        assert self.ws is not None
        self.counter += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.counter] = future
        message: dict[str, Any] = {"id": self.counter, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        await self.ws.send_str(json.dumps(message))
        answer = await asyncio.wait_for(future, 30)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    async def page(self, width: int = 900, height: int = 1100) -> Page:
        """A new page in a browser context of its own."""
        context = (await self.send("Target.createBrowserContext"))["browserContextId"]
        target = (await self.send("Target.createTarget", url="about:blank", browserContextId=context))["targetId"]
        session = (await self.send("Target.attachToTarget", targetId=target, flatten=True))["sessionId"]
        page = Page(self, session)
        page.context = context
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            session,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=width < 600,
        )
        return page

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader
        if self.http is not None:
            await self.http.close()
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session
        self.context = ""  # the browser context it lives in

    async def go(self, url: str) -> None:
        await self.browser.send("Page.navigate", self.session, url=url)

    async def js(self, expression: str) -> Any:
        answer = await self.browser.send(
            "Runtime.evaluate", self.session, expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression[:60]}…: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    async def until(self, expression: str, timeout: float = 20) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = await self.js(expression)
            except RuntimeError:
                value = None  # the page is still loading
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed: {expression}")
            await asyncio.sleep(0.01)

    async def screenshot(self, file: Path) -> None:
        data = (await self.browser.send("Page.captureScreenshot", self.session, format="png"))["data"]
        file.write_bytes(base64.b64decode(data))


# What a player does at their turn, through the page: tap a legal card, or pick the cards of a
# choice and confirm, or press one of the buttons (`pick` chooses which).
STEP = """
((version, pick) => {
  const st = window.tarock.state;
  if (!st || st.version < version) return "stale";
  const cards = [...document.querySelectorAll('#hand .card.legal')];
  if (cards.length) { const card = cards[Math.floor(pick * cards.length)]; card.click(); return "play " + card.dataset.card; }
  const template = st.legal.find((l) => l.choice);
  if (template) {
    // One of the sets the rules list, or the cards that must go and then the first allowed.
    const allowed = template.from.filter((c) => !template.forbidden.includes(c) && !template.including.includes(c));
    const wanted = template.sets ? template.sets[Math.floor(pick * template.sets.length)]
      : [...template.including, ...allowed].slice(0, template.count);
    for (const card of wanted) {
      if (!window.tarock.selected.includes(card)) document.querySelector(`#hand [data-card="${card}"]`).click();
    }
    document.getElementById("confirm").click();
    return template.choice + " " + wanted.join(" ");
  }
  const buttons = [...document.querySelectorAll('#actions button[data-action]')];
  if (!buttons.length) return "nothing";
  const button = buttons[Math.floor(pick * buttons.length)];
  button.click();
  return "press " + button.textContent;
})
"""
NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz"]  # what each person types on joining
STATE = "(() => { const s = window.tarock.state; return s && {version: s.version, deal: s.deal, phase: s.view.phase, to_act: s.view.to_act, over: s.session_over, you: s.you}; })()"


async def open_table(
    browser: Browser, server: TestServer, ruleset: str, players: int, people: list[int], deals: int
) -> tuple[Page, list[str]]:
    """Open a table with the lobby's form, as a person would; the join links it shows."""
    lobby = await browser.page()
    await lobby.go(str(server.make_url("/")))
    await lobby.until("document.querySelectorAll('#ruleset option').length > 0")
    await lobby.js(
        f"""(() => {{
        const select = document.getElementById('ruleset'); select.value = {json.dumps(ruleset)};
        select.dispatchEvent(new Event('change'));
        const players = document.getElementById('players'); players.value = '{players}';
        players.dispatchEvent(new Event('change'));
        document.getElementById('deals').value = '{deals}';
        for (const box of document.querySelectorAll('[data-seat]')) box.checked = {json.dumps(people)}.includes(Number(box.dataset.seat));
        document.getElementById('open').click();
        return true; }})()"""
    )
    links = await lobby.until(
        "(() => { const a = [...document.querySelectorAll('[data-seat-link]')]; return a.length && a.map((x) => x.href); })()"
    )
    assert len(links) == len(people)
    return lobby, links


async def play(
    browser: Browser,
    server: TestServer,
    pages: dict[int, Page],
    seed: int,
    refuse_once: bool = False,
    shots: Path | None = None,
) -> dict[str, Any]:
    """Play the session through the pages until it is over; what happened along the way."""
    rng = random.Random(seed)
    watcher = pages[min(pages)]
    seen: dict[str, Any] = {"steps": 0, "refused": None, "results": [], "screenshot": False}
    while True:
        state = await watcher.until(STATE)
        if state["over"]:
            # The last settlement stays on the screen.
            seen["results"].append(
                await watcher.until(
                    "!document.getElementById('result').hidden && document.getElementById('result-lines').innerText"
                )
            )
            return seen
        if state["phase"] == "over":
            lines = await watcher.until(
                "!document.getElementById('result').hidden && document.getElementById('result-lines').innerText"
            )
            seen["results"].append(lines)
            if shots is not None and not seen.get("settlement_shot"):
                await watcher.screenshot(shots / "settlement.png")
                seen["settlement_shot"] = True
            await ready_for_next(pages, state["deal"])
            continue
        seat = state["to_act"]
        if seat not in pages:
            await watcher.until(f"window.tarock.state.version > {state['version']}")  # a bot's move
            continue
        page = pages[seat]
        if refuse_once and seen["refused"] is None and state["phase"] == "play":
            illegal = await page.js(
                f"(() => {{ if (window.tarock.state.version < {state['version']}) return null; const c = document.querySelector('#hand .card.dim'); if (!c) return null; c.click(); return c.dataset.card; }})()"
            )
            if illegal:
                reason = await page.until("document.getElementById('message').textContent")
                assert reason.startswith("Refused: ") and len(reason) > 12
                assert (await page.js("window.tarock.state.version")) == state["version"]  # nothing changed
                seen["refused"] = (illegal, reason)
        if shots is not None and not seen["screenshot"] and state["phase"] == "play":
            trick = await page.js("document.querySelectorAll('#trick .played').length")
            if trick >= 3:
                await page.screenshot(shots / "table.png")
                seen["screenshot"] = True
        done = "stale"
        for _ in range(500):
            done = await page.js(f"{STEP}({state['version']}, {rng.random()})")
            if done != "stale":
                break
            await asyncio.sleep(0.01)
        assert done not in ("stale", "nothing"), f"seat {seat} could not act: {done}"
        seen["steps"] += 1
        await watcher.until(
            f"window.tarock.state.version > {state['version']} || document.getElementById('message').textContent"
        )
        message = await page.js("document.getElementById('message').textContent")
        assert not message, f"seat {seat}'s {done} was refused: {message}"


async def ready_for_next(pages: dict[int, Page], deal: int) -> None:
    """Everybody at the table presses "Ready for the next deal": the settlement stays on every
    screen until the last has, and then the next deal is dealt."""
    order = sorted(pages)
    for number, seat in enumerate(order):
        page = pages[seat]
        await page.until("document.getElementById('next-deal') && !document.getElementById('next-deal').disabled")
        await page.js("document.getElementById('next-deal').click()")
        if number < len(order) - 1:
            await page.until("document.getElementById('next-deal').disabled")
            for other in pages.values():  # the deal is still over on every screen
                assert await other.js(
                    f"window.tarock.state.deal === {deal} && !document.getElementById('result').hidden"
                )
    for page in pages.values():
        await page.until(f"window.tarock.state.deal > {deal}")


async def _session(
    ruleset: str, players: int, people: list[int], deals: int, seed: int, refuse_once: bool, shots: Path | None
) -> dict[str, Any]:
    server = TestServer(make_app(bot_delay=0))
    await server.start_server()
    browser = Browser()
    try:
        await browser.start()
        lobby, links = await open_table(browser, server, ruleset, players, people, deals)
        pages: dict[int, Page] = {}
        for seat, link in zip(people, links, strict=True):
            page = (
                lobby if seat == people[0] else await browser.page(*((420, 900) if seat == people[-1] else (900, 1100)))
            )
            await page.go(link)
            pages[seat] = page
        for seat, page in pages.items():
            assert await page.until(f"window.tarock.state && window.tarock.state.you === {seat}")
            # The page asks the person's name on joining.
            await page.until("document.getElementById('naming').getClientRects().length > 0")
            await page.js(
                f"(() => {{ document.getElementById('name').value = {json.dumps(NAMES[seat])};"
                " document.querySelector('#naming button').click(); })()"
            )
        for page in pages.values():
            names = await page.until(
                f"(() => {{ const n = window.tarock.state.seats.map((s) => s.name);"
                f" return n.includes({json.dumps(NAMES[people[-1]])}) && n; }})()"
            )
            assert [names[s] for s in people] == [NAMES[s] for s in people]
        seen = await play(browser, server, pages, seed, refuse_once, shots)
        table = next(iter(server.app[TABLES].values()))
        seen["table"] = table
        seen["pages"] = pages
        # The score on every page is the sum of the deals' payments.
        for page in pages.values():
            scores = await page.js("window.tarock.state.seats.map((s) => s.score)")
            assert scores == [sum(d.payments[s] for d in table.finished) for s in range(players)]
        # The score sheet has a row for every deal, each asked for once; a row shows its deal.
        first = pages[people[0]]
        rows = await first.until(
            f"document.querySelectorAll('#deals tr').length === {len(table.finished) + 2}"
            " && document.querySelectorAll('#deals tr').length"
        )
        assert rows == len(table.finished) + 2  # the head and the total besides
        await first.js("document.querySelector('#deals button.review[data-deal=\"1\"]').click()")
        title = await first.until(
            "!document.getElementById('review').hidden && document.getElementById('review-title').textContent"
        )
        assert title.startswith("Deal 1 ")
        assert await first.js("document.getElementById('review-log').children.length") > 0
        # The record of the first deal, downloaded by a seat's page with its own token.
        record = await pages[people[0]].js(
            "fetch(`/api/tables/${location.pathname.split('/').pop()}/records/1`, {headers: {'X-Seat-Token': decodeURIComponent(location.hash.slice(1))}}).then((r) => r.text())"
        )
        assert record.startswith(f"ruleset: {ruleset}")
        return seen
    finally:
        await browser.close()
        await server.close()


def _shots(tmp_path: Path) -> Path:
    wanted = os.environ.get("TAROCK_SCREENSHOTS")
    return Path(wanted) if wanted else tmp_path


def test_six_browsers_play_a_whole_breitnau_session(tmp_path: Path) -> None:
    deals = 6  # a round: each seat deals once
    seen = asyncio.run(_session("breitnau", 6, [0, 1, 2, 3, 4, 5], deals, 5, False, _shots(tmp_path)))
    table = seen["table"]
    assert len(table.finished) == deals and table.session_over
    assert [d.dealer for d in table.finished] == [0, 1, 2, 3, 4, 5]  # the deal passes on
    assert len(seen["results"]) == deals
    for lines in seen["results"]:
        assert lines.startswith("Result:") and "Payments:" in lines
    assert (_shots(tmp_path) / "table.png").stat().st_size > 10_000


def test_cego_with_people_and_bots_a_refused_card_and_the_settlement(tmp_path: Path) -> None:
    seen = asyncio.run(_session("cego", 4, [0, 2], 2, 8, True, None))
    assert seen["refused"] is not None, "no turn offered an illegal card to tap"
    card, reason = seen["refused"]
    assert card in reason or "must" in reason or "may" in reason, reason
    table = seen["table"]
    assert len(table.finished) == 2 and table.session_over
    assert all(r.startswith("Result:") for r in seen["results"])


async def _scribe_in_browser() -> dict[str, Any]:
    """Write down the observed Furtwangen game (tests/records/furtwangen-observed-revoke.yaml) in
    the scribe page, as a person types it, answering its question about the revoke."""
    import yaml

    record = Path(__file__).parent / "records" / "furtwangen-observed-revoke.yaml"
    actions = yaml.safe_load(record.read_text(encoding="utf-8"))["actions"]
    lines = [a if isinstance(a, str) else a.get("play", "announce ulti T3 T1") for _, a in actions]
    server = TestServer(make_app(bot_delay=0))
    await server.start_server()
    browser = Browser()
    seen: dict[str, Any] = {}
    try:
        await browser.start()
        page = await browser.page()
        await page.go(str(server.make_url("/scribe")))
        await page.until("document.querySelectorAll('#ruleset option').length > 3")
        await page.js(
            "(() => { const r = document.getElementById('ruleset'); r.value = 'furtwangen';"
            " r.dispatchEvent(new Event('change')); document.getElementById('players').value = '6';"
            " document.querySelector('#new-game button').click(); })()"
        )
        await page.until("!document.getElementById('writing').hidden")
        for number, line in enumerate(lines):
            await page.js(
                f"(() => {{ document.getElementById('line').value = {json.dumps(line)};"
                " document.querySelector('#entry button').click(); })()"
            )
            await page.until(
                f"document.getElementById('entries').textContent === '{number + 1}'"
                " || !document.getElementById('asking').hidden"
            )
            if not await page.js("document.getElementById('asking').hidden"):
                seen["question"] = await page.js("document.getElementById('question').textContent")
                await page.js("document.querySelector('#choice button[data-answer=t]').click()")
                await page.until("!document.getElementById('noting').hidden")
                await page.js(
                    "(() => { document.getElementById('note').value = 'the table lets it pass';"
                    " document.querySelector('#noting button').click(); })()"
                )
                await page.until(f"document.getElementById('entries').textContent === '{number + 1}'")
        seen["departures"] = await page.js("document.getElementById('departures').textContent")
        seen["record"] = await page.js("document.getElementById('record').textContent")
        seen["log"] = await page.js("document.getElementById('said').textContent")
    finally:
        await browser.close()
        await server.close()
    return seen


def test_the_scribe_page_writes_down_an_observed_game(tmp_path: Path) -> None:
    from interpreter.engine.records import replay

    seen = asyncio.run(_scribe_in_browser())
    assert seen["question"].startswith("a slip of entry (s), or does the table play so (t)?")
    assert seen["departures"] == "1"
    assert "the deal is over" in seen["log"]
    file = tmp_path / "observed.yaml"
    file.write_text(seen["record"], encoding="utf-8")
    assert replay(file).ok
