"""The table as people meet it (issue 31 items 2 to 7), in a real headless Chromium on a phone's
screen (390 × 844), driven over the DevTools protocol as test_web_browser.py drives it: each
point is read from the page a person looks at, never from the server's side.

The tables are dealt from seeds (the lobby deals at random), so that a deal reaches the moment
each test looks at: a Königrufen Rufer with the talon in halves, a Cego player breaking into the
auction, Cego's keep of two. Set TAROCK_SCREENSHOTS=DIR to keep the screenshots (docs/ holds the
README's).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from aiohttp.test_utils import TestServer
from test_web_browser import BROWSER, Browser, Page

from interpreter.bots.rulebot import RuleBot
from interpreter.frontends.web.app import STORE, _register, make_app
from interpreter.frontends.web.table import Table
from interpreter.language.loader import load_ruleset

pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="no Chromium on this machine: the end-to-end tests need a real browser (apt-get install chromium)",
)
PHONE = (390, 844)
NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz"]


def _shots() -> Path | None:
    wanted = os.environ.get("TAROCK_SCREENSHOTS")
    return Path(wanted) if wanted else None


class Setting:
    """A server with one seeded table, a Chromium, and a page per person's seat."""

    def __init__(self, server: TestServer, table: Table, browser: Browser):
        self.server, self.table, self.browser = server, table, browser
        self.pages: dict[int, Page] = {}

    def link(self, seat: int | None) -> str:
        token = self.table.spectator_token if seat is None else self.table.seat_tokens[seat]
        return str(self.server.make_url(f"/table/{self.table.id}#{token}"))

    async def sit(self, seat: int | None, size: tuple[int, int] = PHONE) -> Page:
        """Open `seat`'s link on a phone and sit down with the name the lobby gave (the page asks)."""
        page = await self.browser.page(*size)
        await page.go(self.link(seat))
        await page.until("window.tarock.state !== null && window.tarock.state !== undefined")
        if seat is not None:
            await page.until("!document.getElementById('naming').hidden")
            await page.js("document.querySelector('#naming button').click()")
            await page.until("document.getElementById('naming').hidden")
            assert not await _shown(page, "#naming")
            self.pages[seat] = page
        return page

    async def changed(self, version: int) -> None:
        for _ in range(2000):
            if self.table.version > version and self.table.bot_to_act() is None:
                break
            await asyncio.sleep(0.005)
        for page in self.pages.values():
            await page.until(f"window.tarock.state.version === {self.table.version}")

    async def act(self, seat: int, action: Any) -> None:
        """`seat`'s person does `action` on its page: taps the card, the cards and confirms, or
        presses the button."""
        page, version = self.pages[seat], self.table.version
        await page.until(f"window.tarock.state.version === {version}")
        if isinstance(action, dict) and "play" in action:
            await page.js(f"document.querySelector('#hand [data-card=\"{action['play']}\"]').click()")
        elif isinstance(action, dict) and ("discard" in action or "keep" in action):
            (kind,) = action
            for card in action[kind]:
                await page.js(
                    f"window.tarock.selected.includes('{card}') || document.querySelector('#hand [data-card=\"{card}\"]').click()"
                )
            await page.js("document.getElementById('confirm').click()")
        else:
            pressed = await page.js(
                f"(() => {{ const b = [...document.querySelectorAll('#actions button[data-action]')]"
                f".find((b) => b.dataset.action === {json.dumps(_js(action))}); if (b) b.click(); return !!b; }})()"
            )
            assert pressed, f"seat {seat} has no button for {action}"
        await self.changed(version)

    async def play_as_the_rule_bot(self, until: Callable[[], bool]) -> None:
        """The people play as the rule bot would (their pages, its choices) until `until()`."""
        bot = RuleBot()
        while not until():
            seat = self.table.game.to_act
            assert seat is not None, "the deal ended first"
            if seat in self.pages:
                await self.act(seat, bot.choose(self.table.game, seat))
            else:
                await asyncio.sleep(0.005)


def _js(action: Any) -> str:
    """An action as the page writes it in a button's data-action (JSON.stringify)."""
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False)


def run(
    test: Callable[[Setting], Awaitable[None]],
    ruleset: str,
    players: int,
    people: list[int],
    seed: int,
    deals: int = 2,
    bot_delay: float = 0.0,
) -> None:
    async def main() -> None:
        app = make_app(bot_delay=bot_delay)
        server = TestServer(app)
        await server.start_server()
        names = dict(enumerate(NAMES[:players]))
        table = Table(load_ruleset(ruleset), players, people, deals, seed=seed, names=names, store=app[STORE])
        _register(app, table)
        browser = Browser()
        try:
            await browser.start()
            await test(Setting(server, table, browser))
        finally:
            await browser.close()
            await server.close()

    asyncio.run(main())


async def _fits_the_phone(page: Page) -> None:
    """Nothing of the page sticks out sideways on the phone: no sideways scrolling."""
    width = await page.js("document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the page is {width} px wide on a {PHONE[0]} px screen"


async def _shown(page: Page, selector: str) -> bool:
    """Whether the element takes room on the page (the `hidden` attribute alone is not enough:
    a style may lay the element out all the same)."""
    return bool(await page.js(f"document.querySelector('{selector}').getClientRects().length > 0"))


# -- item 2: a partner game, shown as the table sees it, in the game's words ----------------------


def test_a_koenigrufen_rufer_on_phones() -> None:
    """Bert (seat 1, Vorhand) says Mein Spiel, then Rufer, and calls the King of clubs; the talon
    is turned up in two halves (its first three cards as dealt, and the next three)."""

    async def test(at: Setting) -> None:
        deck = at.table.ruleset.deck
        talon = at.table.start["deal"]["talon"]
        holder = next(s for s in range(4) if "CK" in at.table.game.hands[s])
        assert holder != 1, "the seed is one where another seat holds the King of clubs"
        for seat in range(4):
            await at.sit(seat)
        await at.act(1, "mein_spiel")
        for seat in (2, 3, 0):
            await at.act(seat, "pass")
        await at.act(1, "rufer")
        labels = await at.pages[1].js("[...document.querySelectorAll('#actions button')].map((b) => b.textContent)")
        assert "call CK (König ♣)" in labels
        await at.act(1, {"call_card": "CK"})
        partner = "You hold König ♣, the card Bert called: you are Bert's partner. The others do not know it yet."
        for seat, page in at.pages.items():
            sides = await page.js("document.getElementById('contract').textContent")
            assert sides == "Rufer · declarer: Bert · partner: the holder of König ♣", (seat, sides)
            marks = await page.js("document.querySelector('.seat[data-seat=\"1\"] .marks-line').textContent")
            assert "★ declarer" in marks and "lone player" not in await page.js("document.body.innerText")
            halves = await page.js(
                "[0, 1].map((i) => [...document.querySelectorAll(`#talon-part-${i} .card`)].map((c) => c.dataset.card))"
            )
            assert halves == [sorted(talon[:3], key=deck.sort_key), sorted(talon[3:], key=deck.sort_key)]
            hints = await page.js("document.getElementById('hints').innerText")
            if seat == holder:
                assert hints == partner
            elif seat == 1:
                assert hints == "Your partner holds König ♣; you learn who when it is played."
            else:
                assert hints == "You do not hold König ♣: you play against Bert and its holder."
            log = await page.js("document.getElementById('log').textContent")
            assert "Partner: seat 1 calls König ♣ (CK); its holder plays with seat 1." in log
            await _fits_the_phone(page)
        labels = await at.pages[1].js("[...document.querySelectorAll('#actions button')].map((b) => b.textContent)")
        assert [label.split(": ")[0] for label in labels] == ["take the first half", "take the second half"]
        for label, half in zip(labels, (talon[:3], talon[3:]), strict=True):
            assert label.split(": ", 1)[1].split(", ") == [
                c if deck.name_of(c) == c[1:] else f"{c} ({deck.name_of(c)})" for c in sorted(half, key=deck.sort_key)
            ]
        shots = _shots()
        if shots is not None:
            await at.pages[holder].screenshot(shots / "web-partner-phone.png")
        await at.act(1, {"choose": "second"})
        await at.play_as_the_rule_bot(lambda: at.table.game.view(1)["phase"] == "announce")
        page = at.pages[at.table.game.to_act or 1]
        labels = await page.js("[...document.querySelectorAll('#actions button')].map((b) => b.textContent)")
        assert "announce König ultimo" in labels and "announce Pagat ultimo" in labels
        assert "koenig_ultimo" not in await page.js("document.body.innerText")

    run(test, "koenigrufen", 4, [0, 1, 2, 3], seed=1)


# -- item 3: an offer to speak out of turn ----------------------------------------------------------


def _interrupt_seed() -> int:
    """A seed of a Cego table where seat 0 may break into the auction while seat 2 (a person) is
    to call, the people playing as the rule bot (found as the browser test will play it)."""
    rs = load_ruleset("cego")
    for seed in range(100):
        table = Table(rs, 4, [0, 2], 1, seed=seed)
        bot = RuleBot()
        while table.game.view(0)["phase"] == "auction":
            to_act = table.game.to_act
            assert to_act is not None
            if to_act == 2 and table.game.legal_actions(0):
                return seed
            if to_act in (0, 2):
                table.act(to_act, bot.choose(table.game, to_act))
            else:
                table.bot_step()
    raise AssertionError("no Cego deal lets seat 0 interrupt seat 2")


def test_an_offer_out_of_turn_says_so_and_may_be_let_pass() -> None:
    async def test(at: Setting) -> None:
        for seat in (0, 2):
            await at.sit(seat)
        await at.play_as_the_rule_bot(lambda: at.table.game.to_act == 2 and bool(at.table.game.legal_actions(0)))
        page = at.pages[0]
        await page.until(f"window.tarock.state.version === {at.table.version}")
        prompt = await page.js("document.getElementById('prompt').textContent")
        assert prompt == "Cora is to speak. You may interrupt now, or wait:" and "Your turn" not in prompt
        buttons = await page.js("[...document.querySelectorAll('#actions button')].map((b) => b.textContent)")
        assert buttons == ["Piccolo", "Bettel", "Wait (don't interrupt)"], buttons
        assert not (await page.js("document.title")).startswith("● Your turn")  # no nudge: not its turn
        await page.js("document.getElementById('wait').click()")
        assert await page.js("document.getElementById('prompt').textContent") == (
            "Waiting for Cora… (you may still interrupt)"
        )
        assert await page.js("[...document.querySelectorAll('#actions button')].map((b) => b.textContent)") == [
            "Interrupt…"
        ]
        await page.js("document.getElementById('interrupt').click()")
        assert await page.js("document.querySelectorAll('#actions button[data-action]').length") == 2
        await page.js("document.getElementById('wait').click()")
        step, call = at.table.step, RuleBot().choose(at.table.game, 2)
        await at.act(2, call)  # Cora calls: seat 0 let it pass
        assert at.table.actions[step] == [2, call]

    run(test, "cego", 4, [0, 2], seed=_interrupt_seed())


# -- item 4: the last trick, and what the tricks so far hold -----------------------------------------


def test_the_last_trick_stays_and_can_be_looked_at_again() -> None:
    async def test(at: Setting) -> None:
        for seat in range(4):
            await at.sit(seat)

        def tricks_done() -> int:
            return sum(1 for t in at.table.game.view(0)["tricks"] if t["winner"] is not None)

        await at.play_as_the_rule_bot(lambda: tricks_done() == 1)
        first = next(t for t in at.table.game.view(0)["tricks"] if t["winner"] is not None)
        winner = NAMES[first["winner"]]
        for page in at.pages.values():  # the trick stays on the board until the next card
            cards = await page.js("[...document.querySelectorAll('#trick .card')].map((c) => c.dataset.card)")
            assert cards == first["cards"]
            assert await page.js("document.querySelector('#trick .won').textContent") == f"Trick 1 to {winner}"
            tally = await page.js("document.getElementById('tally').textContent")
            assert tally.startswith("Taken so far: ") and "1 trick" in tally
        await at.play_as_the_rule_bot(lambda: len(at.table.game.view(0)["tricks"][-1]["cards"]) == 1)
        page = at.pages[0]
        assert await page.js("document.querySelectorAll('#trick .card').length") == 1
        assert not await _shown(page, "#last-trick")
        await page.js("document.getElementById('peek-button').click()")
        assert await _shown(page, "#last-trick")
        shown = await page.js("[...document.querySelectorAll('#last-trick .card')].map((c) => c.dataset.card)")
        assert shown == first["cards"]
        assert f"Trick 1, taken by {winner}" in await page.js("document.getElementById('last-trick').textContent")
        shots = _shots()
        if shots is not None:
            await page.screenshot(shots / "web-last-trick-phone.png")
        await page.js("document.getElementById('peek-button').click()")
        assert not await _shown(page, "#last-trick")
        await _fits_the_phone(page)

    run(test, "cego", 4, [0, 1, 2, 3], seed=3)


# -- item 5: several cards at once ---------------------------------------------------------------------


def _keep_of_two() -> tuple[int, int]:
    """A seed and seat of a Cego table where the rule bot comes to keep two cards of many ways."""
    rs = load_ruleset("cego")
    bot = RuleBot()
    for seed in range(100):
        table = Table(rs, 4, [], 1, seed=seed)
        while not table.game.is_over:
            seat = table.game.to_act
            assert seat is not None
            legal = table.game.legal_actions(seat)
            if len([a for a in legal if isinstance(a, dict) and len(a.get("keep", ())) == 2]) > 20:
                return seed, seat
            table.act(seat, bot.choose(table.game, seat))
    raise AssertionError("no keep of two in 100 Cego deals")


def test_cards_are_chosen_by_tapping_them_however_many_the_ways() -> None:
    seed, chooser = _keep_of_two()

    async def test(at: Setting) -> None:
        page = await at.sit(chooser)

        def keeping() -> bool:
            return any(isinstance(a, dict) and "keep" in a for a in at.table.game.legal_actions(chooser))

        await at.play_as_the_rule_bot(keeping)
        await page.until(f"window.tarock.state.version === {at.table.version}")
        sets = [a["keep"] for a in at.table.game.legal_actions(chooser)]
        assert len(sets) > 20
        assert await page.js("document.querySelectorAll('#actions button').length") == 2  # confirm, start again
        assert await page.js("document.getElementById('prompt').textContent") == (
            "Your turn: keep 2 cards (the others go aside)."
        )
        height = await page.js("document.documentElement.scrollHeight")
        assert height < 1500, f"the page is {height} px long"
        await _fits_the_phone(page)
        first, second = sets[0]
        await page.js(f"document.querySelector('#hand [data-card=\"{first}\"]').click()")
        assert await page.js("document.getElementById('confirm').disabled")
        await page.js(f"document.querySelector('#hand [data-card=\"{second}\"]').click()")
        assert not await page.js("document.getElementById('confirm').disabled")
        shots = _shots()
        if shots is not None:
            await page.screenshot(shots / "web-keep-phone.png")
        version = at.table.version
        await page.js("document.getElementById('confirm').click()")
        await at.changed(version)
        assert at.table.actions[-1 if at.table.actions[-1][0] == chooser else -2][1] == {
            "keep": [first, second]
        } or any(a == [chooser, {"keep": [first, second]}] for a in at.table.actions)

    run(test, "cego", 4, [chooser], seed=seed)


def test_a_discard_that_must_hold_some_cards_has_them_chosen_already() -> None:
    """Seed 10980 deals Bert (seat 1) a Königrufen hand that with the talon holds only three
    cards neither trumps nor Kings (SJ, CJ, HQ). In a Sechserdreier Bert puts six aside: Kings
    and the Trull never, other trumps only when there is no other choice, so every discard holds
    those three and three of his twelve other trumps, 220 ways: the engine sends a template whose
    `including` names the three (tests/test_koenigrufen_by_hand.py checks the rule itself)."""

    async def test(at: Setting) -> None:
        for seat in range(4):
            await at.sit(seat)
        while at.table.game.view(0)["phase"] == "auction":
            seat = at.table.game.to_act
            assert seat is not None
            legal = at.table.game.legal_actions(seat)
            await at.act(seat, ("sechserdreier" if "sechserdreier" in legal else "mein_spiel") if seat == 1 else "pass")
        [template] = at.table.game.legal_actions(1)
        must = ["SJ", "CJ", "HQ"]
        assert template["discard"]["including"] == must and template["discard"]["count"] == 6
        page = at.pages[1]
        await page.until(f"window.tarock.state.version === {at.table.version}")
        assert await page.js("document.getElementById('prompt').textContent") == "Your turn: put 6 cards aside."
        assert await page.js("window.tarock.selected") == must  # chosen already
        marked = await page.js("[...document.querySelectorAll('#hand .card.must.selected')].map((c) => c.dataset.card)")
        assert sorted(marked) == sorted(must)
        task = await page.js("document.querySelector('#actions .task').textContent")
        assert task == (
            "put 6 cards aside: 3 of 6 chosen · not allowed: CK (König ♣), DK (König ♦), SK (König ♠)"
            " · must be among them: SJ (Bube ♠), CJ (Bube ♣), HQ (Dame ♥). Tap the cards."
        )
        tap = '(c) => document.querySelector(`#hand [data-card="${c}"]`).click()'
        await page.js(f"['SJ', 'CK'].forEach({tap})")  # a card that must go stays; a King may not go
        assert await page.js("window.tarock.selected") == must
        await page.js(f"['T2', 'T3'].forEach({tap})")
        assert await page.js("document.getElementById('confirm').disabled")
        await page.js("document.getElementById('clear').click()")  # start again: the three stay
        assert await page.js("window.tarock.selected") == must
        await page.js(f"['T2', 'T3', 'T4'].forEach({tap})")
        assert not await page.js("document.getElementById('confirm').disabled")
        await _fits_the_phone(page)
        version = at.table.version
        await page.js("document.getElementById('confirm').click()")
        await at.changed(version)
        assert [1, {"discard": [*must, "T2", "T3", "T4"]}] in at.table.actions
        assert sorted(at.table.game.view(1)["aside"]) == sorted([*must, "T2", "T3", "T4"])

    run(test, "koenigrufen", 4, [0, 1, 2, 3], seed=10980)


# -- item 6: phones ----------------------------------------------------------------------------------------


def test_the_lobby_and_the_score_sheet_fit_a_phone() -> None:
    async def main() -> None:
        app = make_app(bot_delay=0)
        server = TestServer(app)
        await server.start_server()
        browser = Browser()
        try:
            await browser.start()
            lobby = await browser.page(*PHONE)
            await browser.send(
                "Browser.grantPermissions",
                permissions=["clipboardReadWrite", "clipboardSanitizedWrite"],
                origin=str(server.make_url("/")).rstrip("/"),
                browserContextId=lobby.context,
            )
            await browser.send("Emulation.setFocusEmulationEnabled", lobby.session, enabled=True)  # as a tapped page
            await lobby.go(str(server.make_url("/")))
            await lobby.until("document.querySelectorAll('#ruleset option').length > 3")
            for name in ("koenigrufen", "cego", "dreierles", "tapp-modern", "breitnau"):
                await lobby.js(
                    f"(() => {{ const r = document.getElementById('ruleset'); r.value = '{name}';"
                    " r.dispatchEvent(new Event('change')); })()"
                )
                await _fits_the_phone(lobby)
            await lobby.js(
                "(() => { for (const box of document.querySelectorAll('[data-seat]')) box.checked = true;"
                " document.getElementById('open').click(); })()"
            )
            links = await lobby.until(
                "(() => { const a = [...document.querySelectorAll('[data-seat-link]')]; return a.length && a.map((x) => x.href); })()"
            )
            assert len(links) == 6
            await _fits_the_phone(lobby)
            copies = await lobby.js("document.querySelectorAll('#link-list button.copy[data-copy]').length")
            assert copies == 6  # a Copy button for each join link
            await lobby.js("document.querySelector('#link-list button.copy[data-copy]').click()")
            await lobby.until("document.querySelector('#link-list button.copy').textContent === 'Copied ✓'")
            assert await lobby.js("navigator.clipboard.readText()") == links[0]
            shots = _shots()
            if shots is not None:
                await lobby.js("document.getElementById('links').scrollIntoView()")
                await lobby.screenshot(shots / "web-lobby-phone.png")
            # Where the phone offers to share (navigator.share: not in a headless Chromium, so
            # the test gives the page one), each link has a Share button beside Copy.
            await lobby.js(
                "(() => { window.shared = []; navigator.share = (d) => { window.shared.push(d); return Promise.resolve(); };"
                " document.getElementById('open').click(); })()"
            )
            again = await lobby.until(
                "(() => { const a = [...document.querySelectorAll('[data-seat-link]')].map((x) => x.href);"
                f" return a.length && a[0] !== {json.dumps(links[0])} && a; }})()"
            )
            shares = await lobby.js("[...document.querySelectorAll('button[data-share]')].map((b) => b.dataset.share)")
            assert shares[:6] == again and len(shares) == 7  # the six seats' and the spectators'
            await _fits_the_phone(lobby)
            await lobby.js("document.querySelector('#link-list button[data-share]').click()")
            shared = await lobby.until("window.shared.length && window.shared")
            assert shared == [{"title": "Seat 0 at Dappen (Breitnau)", "url": again[0]}], shared
            # A table of six after three deals: the score sheet scrolls within itself, not the page.
            table = Table(load_ruleset("breitnau"), 6, [], 3, seed=4, names=dict(enumerate(NAMES)), store=app[STORE])
            while not table.session_over:
                if table.game.is_over:
                    table.next_deal()
                else:
                    table.bot_step()
            _register(app, table)
            page = await browser.page(*PHONE)
            await page.go(str(server.make_url(f"/table/{table.id}#{table.spectator_token}")))
            await page.until("document.querySelectorAll('#deals tr').length === 5")
            await page.js("document.getElementById('history').open = true")
            await _fits_the_phone(page)
            inner = await page.js(
                "(() => { const s = document.querySelector('#result .scroll'); return [s.scrollWidth, s.clientWidth]; })()"
            )
            assert inner[1] <= PHONE[0] and inner[0] >= inner[1]
            last_column = await page.js(
                "document.querySelector('#result table.scores tr:last-child th:last-child').textContent"
            )
            assert last_column == "cent"  # the last column is there, to scroll to
        finally:
            await browser.close()
            await server.close()

    asyncio.run(main())


# -- item 7: people come and go ---------------------------------------------------------------------


def test_people_come_and_go() -> None:
    """Names given on joining, who is at the table, a link open twice, the nudge of a turn (and
    its sound, switched on), a bot standing in for a person who left, the person back."""

    async def test(at: Setting) -> None:
        anna = await at.browser.page(*PHONE)
        await anna.go(at.link(0))
        await anna.until("window.tarock.state && !document.getElementById('naming').hidden")
        assert await anna.js("document.getElementById('name').value") == "Anna"  # the lobby's, offered
        await anna.js(
            "(() => { document.getElementById('name').value = 'Annemarie';"
            " document.querySelector('#naming button').click(); })()"
        )
        at.pages[0] = anna
        bert = await at.sit(1)
        await bert.until("document.querySelector('.seat[data-seat=\"0\"] .name').textContent === '●Annemarie'")
        assert await bert.js("document.querySelector('.seat[data-seat=\"2\"] .bot').textContent") == " (bot)"
        # The same link open twice: both windows say so.
        twice = await at.browser.page(*PHONE)
        await twice.go(at.link(1))
        for page in (bert, twice):
            await page.until("document.getElementById('windows').getClientRects().length > 0")
            assert "open in 2 windows" in await page.js("document.getElementById('windows').textContent")
        assert not await _shown(anna, "#windows")
        await twice.go("about:blank")
        await bert.until("document.getElementById('windows').getClientRects().length === 0")
        # A sound when it is your turn, once switched on; the title says so in any case.
        await anna.js("(() => { window.beeps = 0; window.beep = () => { window.beeps += 1; }; })()")
        await anna.js("document.getElementById('sound-button').click()")
        assert await anna.js("localStorage.getItem('tarock-sound')") == "on"
        assert await anna.js("window.beeps") == 1  # what it sounds like
        await at.play_as_the_rule_bot(lambda: at.table.game.to_act == 0)
        await anna.until("document.title.startsWith('● Your turn')")
        await anna.until("window.beeps === 2 && document.body.classList.contains('nudge')")
        assert not (await bert.js("document.title")).startswith("●")
        # Anna leaves; after the table's time a bot plays for her, and everyone sees it.
        at.table.stand_in_after = 0.3
        await anna.go("about:blank")
        del at.pages[0]
        await bert.until("document.querySelector('.seat[data-seat=\"0\"] .presence').textContent === '○'")
        await bert.until("document.querySelector('.seat[data-seat=\"0\"] .stand-in') !== null")
        await at.play_as_the_rule_bot(lambda: any(s == 0 for s, _ in at.table.actions[-8:]) or at.table.game.is_over)
        shots = _shots()
        if shots is not None:
            await bert.screenshot(shots / "web-people-phone.png")
        back = await at.browser.page(*PHONE)
        await back.go(at.link(0))
        await back.until("window.tarock.state && window.tarock.state.you === 0")
        await bert.until("document.querySelector('.seat[data-seat=\"0\"] .stand-in') === null")
        assert await bert.js("document.querySelector('.seat[data-seat=\"0\"] .presence').textContent") == "●"
        at.pages[0] = back
        # The settlement stays on every screen until everybody at the table is ready.
        await at.play_as_the_rule_bot(lambda: at.table.game.is_over)
        for page in (back, bert):
            await page.until(f"window.tarock.state.version === {at.table.version}")
            assert await _shown(page, "#result") and await _shown(page, "#next-deal")
            assert await page.js("document.getElementById('next-deal').textContent") == "Ready for the next deal"
            assert await page.js("document.querySelector('#after .waiting-for').textContent") == (
                "The next deal is dealt when everybody at the table is ready; waiting for Annemarie, Bert."
            )
            await _fits_the_phone(page)
            sheet = await page.js(
                "(() => { const s = document.querySelector('#result .scroll'); return [s.scrollWidth, s.clientWidth]; })()"
            )
            assert sheet[0] <= sheet[1], f"a table of four's score sheet is {sheet[0]} px wide in {sheet[1]}"
        version = at.table.version
        await bert.js("document.getElementById('next-deal').click()")
        await at.changed(version)
        assert len(at.table.session.deals) == 1
        for page in (back, bert):
            assert await page.js("window.tarock.state.deal") == 1 and await _shown(page, "#result")
            ready = await page.js("document.querySelector('.seat[data-seat=\"1\"] .ready').textContent")
            assert ready == "✓ ready for the next deal"
            waiting = await page.js("document.querySelector('#after .waiting-for').textContent")
            assert waiting.endswith("waiting for Annemarie.")
        assert await bert.js("document.getElementById('next-deal').disabled")
        assert await bert.js("document.getElementById('next-deal').textContent") == "Ready ✓ (waiting for the others)"
        shots = _shots()
        if shots is not None:
            await back.js("document.getElementById('result').scrollIntoView()")
            await back.screenshot(shots / "web-ready-phone.png")
        version = at.table.version
        await back.js("document.getElementById('next-deal').click()")
        await at.changed(version)
        assert len(at.table.session.deals) == 2
        for page in (back, bert):
            await page.until("window.tarock.state.deal === 2 && !window.tarock.state.result")
            assert not await _shown(page, "#result")

    run(test, "cego", 4, [0, 1], seed=5)
