"""End to end in headless Chromium: the page played as a person plays it.

Debian's ``chromium`` driven by Playwright for Python. Outside CI the tests are skipped when
that browser is missing; in CI (``CI`` set, as ``.ci/run`` does) a missing browser fails.
Screenshots go to ``MINEPROOF_SCREENSHOTS`` when set, else to the test's temporary folder.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import secrets
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, FilePayload, Page, Request, Route, sync_playwright

from mineproof.analysis import Analysis, analyze
from mineproof.board import Board, Layout, iter_bits
from mineproof.game import Game
from mineproof.position import Position
from mineproof.web import App, Games, Store
from mineproof.web.games import MAX_SIDE
from mineproof.web.server import allowed_hosts, make_server, serve_in_thread
from mineproof.web.strings import page_strings
from mineproof.web.work import MAX_TEXT, analyze_text, first_layout, hint
from mineproof.web.work import probabilities as work_probabilities

from .conftest import JSON, HeldPool, covered, wait_for
from .test_modes import REPLAYS, Brute, gif_frames

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip(f"{CHROMIUM} is not installed (.ci/run installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """The server's store: tests read hidden layouts from it, as an oracle the page never is."""
    kept = Store(tmp_path_factory.mktemp("data"))
    yield kept
    kept.close()


class Seeds:
    """The seeds of new games' layouts: those a test queued, else random ones."""

    def __init__(self) -> None:
        self.queued: list[str] = []

    def __call__(self) -> str:
        return self.queued.pop(0) if self.queued else secrets.token_hex(16)


@pytest.fixture(scope="module")
def seeds() -> Seeds:
    return Seeds()


@pytest.fixture(scope="module")
def pool() -> HeldPool:
    """The server's workers, which hold a kind of job while a test says so."""
    return HeldPool()


@pytest.fixture(scope="module")
def base_url(store: Store, seeds: Seeds, pool: HeldPool) -> Iterator[str]:
    games = Games(store, seeds=seeds)
    app = App(games, allowed_hosts("127.0.0.1"), pool=pool)
    server = make_server(app, "127.0.0.1", 0, True)
    stop = serve_in_thread(server)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}


class Opened:
    """Pages opened by a test, each checked for JavaScript errors when the test ends."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def __call__(
        self, device: dict[str, Any] = DESKTOP, path: str = "", clock: bool = False, **options: Any
    ) -> Page:
        """Open the page (at ``path``) in a new browser context, wait until it is ready and
        return it; ``clock`` installs Playwright's fake clock first."""
        # The page's CSP forbids eval; Playwright's wait_for_function needs it, so tests bypass
        # it.
        context = self.browser.new_context(locale="en-US", bypass_csp=True, **{**device, **options})
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        if clock:
            page.clock.install()
        page.goto(self.base_url + path)
        page.wait_for_selector("body[data-ready=true]")
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def open_page(browser: Browser, base_url: str) -> Iterator[Opened]:
    opened = Opened(browser, base_url)
    yield opened
    opened.close()
    assert opened.errors == [], f"JavaScript errors on the page: {opened.errors}"


@pytest.fixture
def page(open_page: Opened) -> Page:
    """The page on a 1280x800 desktop screen."""
    return open_page()


@pytest.fixture
def phone(open_page: Opened) -> Page:
    """The page on a 390x844 touch screen."""
    return open_page(PHONE)


def _shot(page: Page, name: str, tmp_path: Path, full_page: bool = True) -> Path:
    folder = Path(os.environ.get("MINEPROOF_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return path


def _cell(page: Page, board: str, x: int, y: int) -> str:
    return f'#{board} .cell[data-x="{x}"][data-y="{y}"]'


def _moves(page: Page) -> int:
    return int(page.get_attribute("#board", "data-moves") or 0)


def _wait_move(page: Page, before: int) -> None:
    page.wait_for_function(
        f"Number(document.querySelector('#board').dataset.moves) > {before}", timeout=10_000
    )


LONG_PRESS = 700
"""Milliseconds a finger stays down for a long press: longer than the page's (``LONG_PRESS_MS``
in board.js)."""


def _stop_the_clock(page: Page) -> None:
    """Install Playwright's clock on the page, stopped: from now on the page's timers (a long
    press, the analysis of an edit) fire only when the test moves it on (``page.clock.run_for``),
    never because the machine was slow between two of the test's actions.

    The clock runs from its install until it is stopped, and is stopped only at a time ahead of
    the one it shows: an hour after the install, however slow the machine in between (the
    timers due before, such as the game's time shown, fire once on the way)."""
    now = time.time()
    page.clock.install(time=now)
    page.clock.pause_at(now + 3600)


def _touch(page: Page, selector: str, kind: str) -> None:
    """Put a finger down on ``selector`` (``kind`` "pointerdown") or lift it ("pointerup")."""
    page.dispatch_event(selector, kind, {"pointerType": "touch", "bubbles": True})


def _new_game(page: Page, level: str, guess_free: bool = True) -> None:
    old = page.get_attribute("#board", "data-game")
    playing = page.get_attribute("#board", "data-game-state") == "playing"
    page.select_option("#level", level)
    page.set_checked("#guess-free", guess_free)
    page.click("#new")
    if playing:  # the page asks before leaving a game in progress
        page.click("#confirm-yes")
    page.wait_for_function(f"document.querySelector('#board').dataset.game !== '{old}'")


def _custom_size(page: Page, width: int, height: int, mines: int) -> None:
    """Choose a custom board of this size and mines for the next new game."""
    page.select_option("#level", "custom")
    page.fill("#custom-width", str(width))
    page.fill("#custom-height", str(height))
    page.fill("#custom-mines", str(mines))


def _start(page: Page, level: str, x: int, y: int) -> None:
    """Start a guess-free game at ``level`` and open ``(x, y)`` first."""
    _new_game(page, level)
    page.click(_cell(page, "board", x, y))
    _wait_move(page, 0)


def _whole_hint(page: Page) -> None:
    """Press Hint until the hint's conclusion is marked (its third stage, or at once for a
    guess)."""
    page.click("#hint")
    page.wait_for_selector("#message[data-stage]:not([data-stage=''])")
    while (stage := page.get_attribute("#message", "data-stage")) != "3":
        page.click("#hint")
        page.wait_for_function(f"document.querySelector('#message').dataset.stage !== '{stage}'")
    page.wait_for_selector("#board .hint-safe, #board .hint-mine, #board .safest")


def _play_with_hints(page: Page, width: int, height: int) -> int:
    """Open the centre, then only cells the hint proves safe (flagging proven mines by right
    click) until the game is won; return the number of hints used."""
    page.click(_cell(page, "board", width // 2, height // 2))
    _wait_move(page, 0)
    hints = 0
    while page.get_attribute("#board", "data-game-state") == "playing":
        before = _moves(page)
        _whole_hint(page)
        hints += 1
        assert page.locator("#board .safest").count() == 0, "a guess-free board needed a guess"
        safe = page.locator("#board .hint-safe")
        if safe.count():
            target = safe.first
            assert target.get_attribute("data-state") == "covered"
            target.click()
        else:
            target = page.locator("#board .hint-mine").first
            target.click(button="right")
        _wait_move(page, before)
        assert page.get_attribute("#board", "data-game-state") != "lost"
    return hints


@pytest.mark.parametrize(
    ("level", "width", "height"), [("beginner", 9, 9), ("intermediate", 16, 16)]
)
def test_a_guess_free_game_is_won_by_following_the_hints(
    page: Page, tmp_path: Path, level: str, width: int, height: int
) -> None:
    _new_game(page, level)
    hints = _play_with_hints(page, width, height)
    assert hints > 0
    assert page.get_attribute("#board", "data-game-state") == "won"
    assert page.get_attribute("#state", "data-state") == "won"
    assert page.inner_text("#mines-left") == "0"
    assert page.locator("#board .cell[data-state=covered]").count() == 0
    assert "cleared the board" in page.inner_text("#message")
    _shot(page, f"won-{level}", tmp_path)
    # The win is said in the language chosen afterwards too.
    page.select_option("#lang", "fr")
    page.wait_for_function(
        "document.querySelector('#message').innerText.includes('Vous avez déminé la grille')"
    )
    assert page.inner_text("#state") == "Gagné\u00a0!"
    page.select_option("#lang", "en")
    # The statistics are worded when their answer comes: English by then, not French.
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.click("#tab-stats")
    row = page.locator("#stats-table tbody tr", has_text=level.capitalize())
    page.wait_for_selector("#stats-table tbody tr")
    assert row.count() == 1
    assert row.locator("td").nth(4).inner_text() == "1"  # won
    assert row.locator("td").nth(2).inner_text() == "With hints"


def test_a_player_who_never_flags_is_shown_the_hint_in_stages_up_to_a_cell_to_open(
    page: Page, tmp_path: Path
) -> None:
    """Hints in play lead to a click: when the first deductions prove only mines, the page shows
    every step (the mines marked) up to the one that proves a safe cell. Each hint comes in
    three presses: where to look (the premises), why (the text), what (the cells marked)."""
    _new_game(page, "beginner")
    page.click(_cell(page, "board", 4, 4))
    _wait_move(page, 0)
    chains = 0
    asked: list[Request] = []
    page.on("request", lambda request: asked.append(request) if "/hint" in request.url else None)
    while page.get_attribute("#board", "data-game-state") == "playing":
        before = _moves(page)
        asked_before = len(asked)
        with page.expect_response(lambda r: "/hint" in r.url) as reply:
            page.click("#hint")
        data = reply.value.json()
        steps = data["steps"]
        assert steps and steps[-1]["safe"], "a hint in play leads to a cell to open"
        premises = {tuple(c) for step in steps for c in step["premises"]}
        # 1: where to look: the premises outlined, nothing concluded, no reason yet.
        page.wait_for_selector("#board .premise")
        assert _marked(page, "premise") == premises
        assert page.locator("#board .hint-safe, #board .hint-mine").count() == 0
        assert page.inner_text("#message").startswith("Hint 1 of 3")
        assert "Look at the outlined numbers" in page.inner_text("#message")
        assert steps[0]["text"] not in page.inner_text("#message")
        # 2: why: every step's text.
        page.click("#hint")
        page.wait_for_function("document.querySelector('#message').innerText.startsWith('Hint 2')")
        text = page.inner_text("#message")
        for step in steps:
            assert step["text"] in text
        assert page.locator("#board .hint-safe, #board .hint-mine").count() == 0
        # 3: what: the cells concluded, marked.
        page.click("#hint")
        page.wait_for_selector("#board .hint-safe")
        assert _marked(page, "hint-safe") == {tuple(c) for step in steps for c in step["safe"]}
        assert _marked(page, "hint-mine") == {tuple(c) for step in steps for c in step["mine"]}
        assert len(asked) == asked_before + 1, "the three stages come from one answer"
        if len(steps) > 1:
            chains += 1
            if chains == 1:
                _shot(page, "hint-steps", tmp_path)
        x, y = steps[-1]["safe"][0]
        page.click(_cell(page, "board", x, y))
        _wait_move(page, before)
    assert page.get_attribute("#board", "data-game-state") == "won"
    assert chains > 0, "never flagging, some hint had to prove a mine first"


def _marked(page: Page, mark: str, board: str = "board") -> set[tuple[int, int]]:
    cells = page.locator(f"#{board} .cell.{mark}")
    return {
        (
            int(cells.nth(k).get_attribute("data-x") or 0),
            int(cells.nth(k).get_attribute("data-y") or 0),
        )
        for k in range(cells.count())
    }


def test_right_click_flags_and_unflags(page: Page) -> None:
    _start(page, "beginner", 4, 4)
    covered = page.locator("#board .cell[data-state=covered]").first
    x, y = int(covered.get_attribute("data-x") or 0), int(covered.get_attribute("data-y") or 0)
    left = int(page.inner_text("#mines-left"))
    covered.click(button="right")
    _wait_move(page, 1)
    assert page.get_attribute(_cell(page, "board", x, y), "data-state") == "flag"
    assert int(page.inner_text("#mines-left")) == left - 1
    page.click(_cell(page, "board", x, y), button="right")
    _wait_move(page, 2)
    assert page.get_attribute(_cell(page, "board", x, y), "data-state") == "covered"
    assert int(page.inner_text("#mines-left")) == left


def test_a_long_press_flags_on_touch(page: Page) -> None:
    _start(page, "beginner", 4, 4)
    # The press lasts as long as the page's clock says: a slow machine between two touch events
    # can neither shorten a long press nor lengthen a short one.
    _stop_the_clock(page)
    xy = page.locator("#board .cell[data-state=covered]").evaluate_all(
        "(cs) => cs.slice(0, 3).map((c) => [c.dataset.x, c.dataset.y])"
    )
    covered, other, third = (_cell(page, "board", int(x), int(y)) for x, y in xy)
    _touch(page, covered, "pointerdown")
    page.clock.run_for(LONG_PRESS)
    _wait_move(page, 1)  # flagged while the finger is still down
    _touch(page, covered, "pointerup")
    assert page.get_attribute(covered, "data-state") == "flag"
    # A short touch does not flag (the press is cancelled before the delay): after its delay, a
    # flag by the mouse is the next move (moves are sent in the order made).
    _touch(page, other, "pointerdown")
    _touch(page, other, "pointerup")
    page.clock.run_for(LONG_PRESS)
    page.click(third, button="right")
    page.wait_for_function(f"document.querySelector('{third}').dataset.state === 'flag'")
    assert page.get_attribute(other, "data-state") == "covered"
    assert _moves(page) == 3


def _first_covered(page: Page) -> tuple[int, int]:
    cell = page.locator("#board .cell[data-state=covered]").first
    return int(cell.get_attribute("data-x") or 0), int(cell.get_attribute("data-y") or 0)


def _lucky_guess(page: Page, store: Store) -> tuple[Game, Analysis, JSON]:
    """Start an expert game at H9, then open a cell the numbers do not prove safe while one is
    proven, and safe in the hidden layout (read from the store): a lucky guess. Return the game
    before the guess (with the layout), its analysis and the reply of the guess."""
    _start(page, "expert", 15, 8)
    row = store.load(page.get_attribute("#board", "data-game") or "")
    assert row is not None and row.layout is not None
    game = Game(Layout(Board(row.width, row.height), int(row.layout, 16)))
    for _, x, y in row.moves:
        game.reveal(x, y)
    analysis = analyze(game.position())
    assert analysis.safe_mask, "a guess-free board has a forced safe cell after the opening"
    guess = next(
        i
        for i in iter_bits(game.position().covered_mask)
        if not game.layout.is_mine(i) and not analysis.safe_mask >> i & 1
    )
    with page.expect_response(lambda r: "/open" in r.url) as reply:
        page.click(_cell(page, "board", *game.board.xy(guess)))
    _wait_move(page, 1)
    data: JSON = reply.value.json()
    return game, analysis, data


def test_the_tutor_shows_the_forced_move_after_a_needless_guess(page: Page, store: Store) -> None:
    game, analysis, _ = _lucky_guess(page, store)
    message = page.locator("#message")
    assert "tutor" in (message.get_attribute("class") or "")
    assert message.inner_text().startswith("That was a guess")
    marked = page.locator("#board .hint-safe, #board .hint-mine")
    assert marked.count() >= 1
    for k in range(marked.count()):
        x, y = (
            int(marked.nth(k).get_attribute("data-x") or 0),
            int(marked.nth(k).get_attribute("data-y") or 0),
        )
        i = game.board.index(x, y)
        assert (analysis.safe_mask | analysis.mine_mask) >> i & 1


def test_keyboard_moves_the_cursor_and_opens(page: Page) -> None:
    _new_game(page, "beginner")
    page.focus("#board")
    for key in ["ArrowRight"] * 3 + ["ArrowDown"] * 2:
        page.keyboard.press(key)
    assert page.get_attribute(_cell(page, "board", 3, 2), "class") == "cell cursor"
    page.keyboard.press("Space")
    _wait_move(page, 0)
    assert page.get_attribute(_cell(page, "board", 3, 2), "data-state") == "open"
    assert page.get_attribute("#board", "data-game-state") == "playing"


def test_the_language_switch_translates_the_page_and_the_hint(page: Page, tmp_path: Path) -> None:
    _start(page, "beginner", 4, 4)
    _whole_hint(page)
    english = page.inner_text("#message")
    page.select_option("#lang", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    page.wait_for_function(
        f"document.querySelector('#message').innerText !== {english!r}", timeout=10_000
    )
    assert page.inner_text("#hint") == "Indice"
    assert page.inner_text("#message").startswith("Indice 3 sur 3 · Niveau")
    _shot(page, "hint-fr", tmp_path)
    page.select_option("#lang", "ja")
    page.wait_for_function("document.documentElement.lang === 'ja'")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == "ja"  # kept across visits


def test_two_quick_language_changes_end_in_the_last_one_chosen(page: Page) -> None:
    """French is chosen, then German before the French words come: when they come, last, the
    page stays German, as the menu says."""
    held: list[Route] = []
    page.route("**/api/strings?lang=fr", lambda route: held.append(route))
    with page.expect_request("**/api/strings?lang=fr"):
        page.select_option("#lang", "fr")
    for _ in range(250):  # the route's handler runs while playwright waits
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the French strings were not asked for"
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    german = page_strings("de")["hint"]
    page.wait_for_function(f"document.querySelector('#hint').innerText === {german!r}")
    with page.expect_response("**/api/strings?lang=fr"):
        held[0].fallback()
    page.evaluate("new Promise((done) => setTimeout(done, 300))")  # its words would be in now
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.inner_text("#hint") == german
    assert page.input_value("#lang") == "de"


def test_probabilities_show_on_every_covered_cell(page: Page, tmp_path: Path) -> None:
    _start(page, "expert", 15, 8)
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    covered = page.locator("#board .cell[data-state=covered]").count()
    assert page.locator("#board .cell[data-state=covered] .p").count() == covered
    _shot(page, "probabilities", tmp_path)
    # The heat map reads in order by lightness alone (so with any colour vision): the higher
    # the probability, the darker the cell, and its figure stays readable (4.5:1).
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#board .cell[data-state=covered]')].map(
          (c) => [c.textContent, getComputedStyle(c).backgroundColor, getComputedStyle(c).color])"""
    )
    by_percent: dict[int, tuple[float, float]] = {}
    for text, background, ink in shown:
        percent = int(text.strip("<>"))
        by_percent[percent] = (_luminance(background), _luminance(ink))
    assert len(by_percent) >= 3
    ordered = [by_percent[k] for k in sorted(by_percent)]
    assert all(a[0] >= b[0] for a, b in itertools.pairwise(ordered))
    assert all(_contrast(bg, ink) >= 4.5 for bg, ink in ordered)


def test_the_probabilities_box_holds_from_game_to_game_and_counts_as_help(page: Page) -> None:
    """Left ticked, the Probabilities box shows the figures on a new game from its first click
    (before it there is no board to compute them for), and that game counts as played with help,
    as one where the box is ticked during play; unticked before the first click, it has
    neither."""
    _start(page, "beginner", 4, 4)
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    for ticked in (True, False):
        page.set_checked("#show-probabilities", ticked)
        _new_game(page, "beginner")
        assert page.locator("#board .cell .p").count() == 0
        page.click(_cell(page, "board", 4, 4))
        _wait_move(page, 0)  # the board and its figures are drawn at once
        assert page.get_attribute("#board", "data-game-state") == "playing"
        covered = page.locator("#board .cell[data-state=covered]").count()
        assert page.locator("#board .cell[data-state=covered] .p").count() == (
            covered if ticked else 0
        )
        assert _view(page)["assists"] == (1 if ticked else 0)


def test_an_analysis_whose_hint_is_too_complex_shows_the_count_and_says_so(page: Page) -> None:
    """A chain of 1,481 linked numbers that only a case analysis decides: counted exactly,
    its hint too complex to explain; the page shows the count, the cells proven, and says
    that the explanation is beyond the server's work for one answer."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    page.check("#trust-flags")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    text = (Path(__file__).resolve().parents[1] / "data" / "case-snake-81.txt").read_text()
    page.fill("#paste", text)
    page.click("#load-paste")
    page.wait_for_function(
        "document.querySelector('#analysis-result').innerText.startsWith('Arrangements: 1.')"
    )
    assert page.get_attribute("#analysis-result", "data-state") == "ok"
    words = page_strings("en")["hint_too_complex"]
    assert words.startswith("The counts are exact, but explaining")
    assert page.inner_text("#analysis-result").endswith(words)
    assert page.locator("#editor .hint-mine").count() > 700


@pytest.mark.parametrize(("mines", "shown"), [(1, "1"), (199, ">99")])
def test_a_probability_on_the_rounding_edge_is_not_shown_as_none_or_certain(
    page: Page, mines: int, shown: str
) -> None:
    """Every cell of a covered 20x10 board with 1 mine holds it with probability 1/200 = 0.5 %,
    which Math.round rounds up to 1 (not 0); with 199 mines, 99.5 % must not read 100."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    page.fill("#paste", f"20x10x{mines}\n" + ("H" * 20 + "\n") * 10)
    page.click("#load-paste")
    page.wait_for_function(
        "document.querySelector('#analysis-result').innerText.startsWith('Arrangements: 200.')"
    )
    assert page.inner_text(_cell(page, "editor", 19, 9)) == shown
    assert page.inner_text(_cell(page, "editor", 0, 0)) == shown


def test_a_probability_of_a_half_percent_reads_the_same_on_the_board_and_in_words(
    page: Page,
) -> None:
    """1/8 = 12.5 %: the board showed 13 (Math.round) and the hint beside it "12%" (Python
    rounds halves to even). Both round halves up now."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    page.fill("#paste", "4x2x1\nHHHH\nHHHH\n")
    page.click("#load-paste")
    page.wait_for_function(
        "document.querySelector('#analysis-result').innerText.startsWith('Arrangements: 8.')"
    )
    assert page.inner_text(_cell(page, "editor", 0, 0)) == "13"
    words = page.inner_text("#analysis-result")
    assert "13%" in words and "12%" not in words, words


def test_the_analysis_board_loads_edits_and_explains(page: Page, tmp_path: Path) -> None:
    page.click("#tab-analysis")
    # The tab opens on an empty 8x8 board, analysed: that answer shown, a pasted position's
    # result must not be taken for it (a slow machine once did, when the paste came after it).
    page.wait_for_selector("#analysis-result[data-state=ok]")
    assert page.inner_text("#analysis-result").startswith("Arrangements: 151,473,214,816.")
    page.fill("#paste", "4x3x3\n001H\n112H\nHHHH\n")
    page.click("#load-paste")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    assert page.get_attribute("#analysis-result", "aria-busy") == "false"
    result = page.inner_text("#analysis-result")
    assert result.startswith("Arrangements: 2.")
    # From the README: C3 and B3 safe, A3 and D3 mines, D1 and D2 at 50 %.
    assert "hint-safe" in (page.get_attribute(_cell(page, "editor", 1, 2), "class") or "")
    assert "hint-mine" in (page.get_attribute(_cell(page, "editor", 0, 2), "class") or "")
    assert page.inner_text(_cell(page, "editor", 3, 0)) == "50"
    _shot(page, "analysis", tmp_path)
    # Editing: a click cycles covered -> 0 ...; a 0 beside a forced mine is a contradiction.
    page.click(_cell(page, "editor", 0, 2))
    page.wait_for_selector("#analysis-result[data-state=error]")
    assert page.inner_text("#analysis-result").startswith("No arrangement of mines fits")
    assert page.locator("#editor .conflict").count() >= 1
    page.click(_cell(page, "editor", 0, 2), button="right")  # back to covered... via the cycle
    page.wait_for_function(
        'document.querySelector(\'#editor .cell[data-x="0"][data-y="2"]\').dataset.state'
        " === 'covered'"
    )
    page.wait_for_selector("#analysis-result[data-state=ok]")


def test_a_loss_shows_the_mines(page: Page) -> None:
    _new_game(page, "expert", guess_free=False)
    page.click(_cell(page, "board", 0, 0))
    _wait_move(page, 0)
    # Open covered cells in reading order until a mine is hit (a random expert board).
    while page.get_attribute("#board", "data-game-state") == "playing":
        before = _moves(page)
        page.locator("#board .cell[data-state=covered]").first.click()
        _wait_move(page, before)
    # Winning this way would need every covered cell before the last mine to be safe.
    assert page.get_attribute("#board", "data-game-state") == "lost"
    assert page.locator("#board .cell[data-state=exploded]").count() == 1
    assert page.locator("#board .cell[data-state=mine]").count() == 98
    assert page.get_attribute("#state", "data-state") == "lost"


def test_installed_browser_is_the_debian_one() -> None:
    assert shutil.which("chromium") == CHROMIUM or Path(CHROMIUM).exists()


# --- bugs of issue 14, each fixed with this test -----------------------------------------


def _only_mines_seed() -> str:
    """Return a seed whose random beginner board, opened at E5, proves only mines."""
    for k in range(20_000):
        seed = f"only-mines-{k}"
        game = Game(Layout(Board(9, 9), first_layout(9, 9, 10, False, seed, 4, 4)[0]))
        game.reveal(4, 4)
        if not game.is_over:
            analysis = analyze(game.position())
            if analysis.mine_mask and not analysis.safe_mask:
                return seed
    pytest.fail("no seed gives a beginner board that proves only mines after its opening")


def test_the_tutor_is_silent_when_only_mines_were_provable(
    page: Page, store: Store, seeds: Seeds
) -> None:
    seeds.queued.append(_only_mines_seed())
    _new_game(page, "beginner", guess_free=False)
    page.click(_cell(page, "board", 4, 4))
    _wait_move(page, 0)
    row = store.load(page.get_attribute("#board", "data-game") or "")
    assert row is not None and row.layout is not None
    game = Game(Layout(Board(9, 9), int(row.layout, 16)))
    game.reveal(4, 4)
    analysis = analyze(game.position())
    guess = next(
        i
        for i in iter_bits(game.position().covered_mask)
        if not game.layout.is_mine(i) and not analysis.mine_mask >> i & 1
    )
    # Nothing is safe: the hint's steps prove mines, then it names the best player's pick.
    with page.expect_response(lambda r: "/hint" in r.url) as hint_reply:
        _whole_hint(page)
    best = hint_reply.value.json()["best"]
    assert best is not None
    page.wait_for_selector("#board .best")
    assert page.locator("#board .hint-mine").count() >= 1
    assert _marked(page, "best") == {tuple(best["cell"])}
    assert page.locator("#board .safest").count() >= 1
    assert best["text"] in page.inner_text("#message")
    with page.expect_response(lambda r: "/open" in r.url) as reply:
        page.click(_cell(page, "board", *game.board.xy(guess)))
    assert reply.value.json()["guess"] is True
    _wait_move(page, 1)
    assert page.locator("#message.tutor").count() == 0
    assert page.locator("#board .hint-mine, #board .hint-safe").count() == 0


def _empty_board(page: Page, width: int, height: int, mines: int) -> None:
    """Ask the Analysis view for an empty board of this size and mine total."""
    page.fill("#edit-width", str(width))
    page.fill("#edit-height", str(height))
    page.fill("#edit-mines", str(mines))
    page.click("#editor-size button[type=submit]")


def test_empty_board_of_a_larger_size_drops_the_old_analysis(page: Page) -> None:
    page.click("#tab-analysis")
    page.fill("#paste", "4x3x3\n001H\n112H\nHHHH\n")
    page.click("#load-paste")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    _empty_board(page, 10, 12, 12)
    page.wait_for_function(
        "document.querySelector('#analysis-result').innerText.startsWith("
        "'Arrangements: \u2248 1.1 \u00d7 10\u00b9\u2076.')"  # C(120, 12), 17 digits
        " && document.querySelectorAll('#editor .cell').length === 120"
    )
    # 12 mines in 120 covered cells: 10 % each, the new size's analysis everywhere.
    assert page.inner_text(_cell(page, "editor", 9, 11)) == "10"
    assert page.locator("#editor .cell .p", has_text="10").count() == 120


def test_the_clock_never_goes_back(open_page: Opened) -> None:
    page = open_page(clock=True)
    _start(page, "beginner", 4, 4)
    page.clock.run_for(6_000)
    assert int(page.inner_text("#timer")) >= 5
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    assert int(page.inner_text("#timer")) >= 5
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert int(page.inner_text("#timer")) >= 5


def test_a_language_switch_translates_server_errors(page: Page) -> None:
    page.click("#tab-analysis")
    page.fill("#paste", "4x3x3\n001H\n11XH\nHHHH\n")
    page.click("#load-paste")
    page.wait_for_selector("#analysis-result[data-state=error]")
    english = page.inner_text("#analysis-result")
    assert english.startswith("Line 3") and "position" in english
    page.select_option("#lang", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    page.wait_for_function(
        "document.querySelector('#analysis-result').innerText.startsWith('Ligne 3')"
    )
    assert page.inner_text("#tab-analysis") == "Analyse"
    # A position no arrangement fits: the server's 422, in French from the start.
    page.fill("#paste", "4x1x2\n1H1H\n")
    page.click("#load-paste")
    page.wait_for_function(
        "document.querySelector('#analysis-result').innerText.startsWith('Aucune disposition')"
    )


def test_a_server_out_of_reach_is_said_so_and_the_game_goes_on(page: Page) -> None:
    _new_game(page, "beginner")
    page.route("**/api/games/*/open", lambda route: route.abort())
    page.click(_cell(page, "board", 4, 4))
    page.wait_for_selector("#message.error")
    text = page.inner_text("#message")
    assert text.startswith("The server does not answer") and "fetch" not in text
    page.unroute("**/api/games/*/open")
    page.click(_cell(page, "board", 4, 4))
    _wait_move(page, 0)
    assert page.get_attribute("#board", "data-game-state") == "playing"


def test_a_long_first_click_shows_progress_and_can_be_cancelled(page: Page) -> None:
    held: list[Route] = []
    page.route("**/api/games/*/open", lambda route: held.append(route))  # never answered
    _custom_size(page, 30, 30, 250)
    _new_game(page, "custom")
    page.click(_cell(page, "board", 15, 15))
    page.wait_for_selector("#progress:not([hidden])")
    assert page.inner_text("#progress-text").startswith("Drawing a guess-free board")
    page.click("#cancel")
    page.wait_for_selector("#progress", state="hidden")
    assert page.inner_text("#message").startswith("Cancelled: the game has not started")
    assert page.get_attribute("#board", "data-game-state") == "new"
    assert held, "the first click was sent"


WATCH_CELLS = """() => {
  window.touched = new Set();
  new MutationObserver((records) => {
    for (const r of records) {
      const cell = (r.target.closest ? r.target : r.target.parentElement).closest('.cell');
      if (cell) window.touched.add(cell.id);
    }
  }).observe(document.querySelector('#board'),
             { subtree: true, attributes: true, childList: true, characterData: true });
}"""
"""Count in ``window.touched`` the cells of the game's board whose element changes from now on
(also used by benchmarks/bench_page.py)."""


def _big_board_with_a_safe_cell() -> tuple[str, tuple[int, int]]:
    """Return a seed whose random 100x100 board with 1,000 mines, opened at (50, 50), proves
    a cell safe, and that cell."""
    board = Board(100, 100)
    for k in range(50):
        seed = f"big-{k}"
        game = Game(Layout(board, first_layout(100, 100, 1000, False, seed, 50, 50)[0]))
        game.reveal(50, 50)
        safe = analyze(game.position()).safe_mask
        if not game.is_over and safe:
            return seed, board.xy(next(iter(iter_bits(safe))))
    pytest.fail("no random 100x100 board proves a cell safe after its opening")


def test_a_click_on_a_big_board_redraws_only_what_changed(page: Page, seeds: Seeds) -> None:
    seed, (x, y) = _big_board_with_a_safe_cell()
    seeds.queued.append(seed)
    _custom_size(page, 100, 100, 1000)
    _new_game(page, "custom", guess_free=False)
    page.click(_cell(page, "board", 50, 50))
    _wait_move(page, 0)
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    assert page.inner_text(_cell(page, "board", x, y)) == "0"
    page.evaluate(WATCH_CELLS)
    before = _moves(page)
    with page.expect_response(lambda r: "/probabilities" in r.url):
        page.click(_cell(page, "board", x, y))
    _wait_move(page, before)
    page.wait_for_timeout(100)
    touched = page.evaluate("window.touched.size")
    assert 1 <= touched < 1000, f"{touched} of 10,000 cells redrawn for one click"


def test_n_asks_before_leaving_a_game_in_progress(page: Page) -> None:
    _start(page, "beginner", 4, 4)
    game = page.get_attribute("#board", "data-game")
    page.focus("#board")
    page.keyboard.press("n")
    page.wait_for_selector("#confirm[open]")
    page.click("#confirm-no")
    page.wait_for_selector("#confirm", state="hidden")
    assert page.get_attribute("#board", "data-game") == game
    page.focus("#board")
    page.keyboard.press("n")
    page.click("#confirm-yes")
    page.wait_for_function(f"document.querySelector('#board').dataset.game !== '{game}'")
    assert page.get_attribute("#board", "data-game-state") == "new"


# --- phones and big boards ------------------------------------------------------------------

IN_VIEW = """(cells) => {
  const wrap = document.querySelector('#board').parentElement;
  const box = wrap.getBoundingClientRect();
  const corner = document.querySelector('#board .corner');
  const [lw, lh] = [corner.offsetWidth, corner.offsetHeight];
  const out = [];
  for (const [x, y] of cells) {
    const r = document.querySelector(`#board .cell[data-x="${x}"][data-y="${y}"]`)
      .getBoundingClientRect();
    const inside = r.left >= box.left + lw - 1 && r.right <= box.left + wrap.clientWidth + 1
      && r.top >= box.top + lh - 1 && r.bottom <= box.top + wrap.clientHeight + 1
      && r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
    if (!inside) out.push([x, y, Math.round(r.left), Math.round(r.top)]);
  }
  return out;
}"""


def _marked_cells(page: Page) -> list[list[int]]:
    return [
        [int(c.get_attribute("data-x") or 0), int(c.get_attribute("data-y") or 0)]
        for c in page.locator(
            "#board .premise, #board .hint-safe, #board .hint-mine, #board .safest, #board .best"
        ).all()
    ]


def test_an_expert_game_on_a_phone_shows_every_hint_on_the_screen(
    phone: Page, tmp_path: Path
) -> None:
    """On a 390x844 touch screen the expert board is wider than the screen: every stage of
    every hint brings its cells into view (zooming out when they do not fit)."""
    _new_game(phone, "expert")
    labels = phone.locator("#board .col-label").all_inner_texts()
    assert labels[0] == "A" and labels[25:] == ["Z", "AA", "AB", "AC", "AD"]
    assert phone.locator("#board .row-label").all_inner_texts() == [str(n) for n in range(1, 17)]
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page itself does not scroll sideways"
    phone.tap(_cell(phone, "board", 15, 8))
    _wait_move(phone, 0)
    shown = 0
    for n in range(12):
        if phone.get_attribute("#board", "data-game-state") != "playing":
            break
        before = _moves(phone)
        for stage in (1, 2, 3):
            phone.tap("#hint")
            phone.wait_for_function(
                f"document.querySelector('#message').dataset.stage === '{stage}'"
            )
            cells = _marked_cells(phone)
            assert cells
            assert phone.evaluate(IN_VIEW, cells) == [], f"hint {n + 1}, stage {stage}"
            # Its words too, under the board.
            assert phone.evaluate(WORDS_ON_SCREEN), (
                f"hint {n + 1}, stage {stage}: the words are off the screen"
            )
            shown += 1
            if n == 2 and stage == 1:
                _shot(phone, "phone-hint-where", tmp_path, full_page=False)
            if n == 2 and stage == 3:
                _shot(phone, "phone-hint-what", tmp_path, full_page=False)
        safe = phone.locator("#board .hint-safe")
        mine = phone.locator("#board .hint-mine")
        if safe.count():
            safe.first.tap()
        else:
            mine.first.click(button="right")
        _wait_move(phone, before)
    assert shown >= 30
    assert phone.get_attribute("#board", "data-game-state") == "playing"


WORDS_ON_SCREEN = """(() => {
  const r = document.querySelector('#message').getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight;
})()"""


def _long_hint_seed() -> str:
    """Return a seed whose random expert board, opened at P9, has a first hint whose steps
    run to more than 500 characters: words taller than the room a phone leaves under the
    board's window at its full height."""
    for k in range(300):
        seed = f"long-{k}"
        game = Game(Layout(Board(30, 16), first_layout(30, 16, 99, False, seed, 15, 8)[0]))
        game.reveal(15, 8)
        if not game.is_over:
            steps = hint(game.position(), "en")["steps"]
            if sum(len(s["text"]) for s in steps) > 500:
                return seed
    pytest.fail("no seed gives an expert board whose first hint is long")


def test_a_long_hint_on_a_phone_fits_under_a_shorter_board(phone: Page, seeds: Seeds) -> None:
    """Words too tall for the room under the board's window: the window is made shorter for
    them, and the hint's cells and its words are both on the screen at every stage."""
    seeds.queued.append(_long_hint_seed())
    _new_game(phone, "expert", guess_free=False)
    phone.tap(_cell(phone, "board", 15, 8))
    _wait_move(phone, 0)
    full = phone.evaluate("document.querySelector('.board-wrap').clientHeight")
    for stage in (1, 2, 3):
        phone.tap("#hint")
        phone.wait_for_function(f"document.querySelector('#message').dataset.stage === '{stage}'")
        assert phone.evaluate(IN_VIEW, _marked_cells(phone)) == [], f"stage {stage}"
        assert phone.evaluate(WORDS_ON_SCREEN), f"stage {stage}: the words are off the screen"
    shorter = phone.evaluate("document.querySelector('.board-wrap').clientHeight")
    assert shorter < full
    # Once the hint's move is made, the window has its height again.
    before = _moves(phone)
    safe = phone.locator("#board .hint-safe")
    if safe.count():
        safe.first.tap()
    else:
        phone.locator("#board .hint-mine").first.click(button="right")
    _wait_move(phone, before)
    assert phone.evaluate("document.querySelector('.board-wrap').clientHeight") == full


def _gesture(page: Page, tracks: list[list[tuple[float, float]]]) -> None:
    """Touch the screen with one finger per track, move them along their tracks together and
    lift them (real touch events, through the browser's input)."""
    cdp = page.context.new_cdp_session(page)

    def send(kind: str, k: int) -> None:
        points = [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(t[k] for t in tracks)]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    send("touchStart", 0)
    for k in range(1, len(tracks[0])):
        send("touchMove", k)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_board_is_zoomed_by_pinch_and_buttons_and_panned_by_a_finger(phone: Page) -> None:
    _start(phone, "expert", 15, 8)
    # A finger held still becomes a long press: with the page's clock standing still, a slow
    # machine between two touch events of a gesture cannot make one of it.
    _stop_the_clock(phone)
    size = int(phone.get_attribute("#board", "data-cell") or 30)
    box = phone.locator(".board-wrap").first.bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # Two fingers apart: bigger cells.
    left = [(cx - 40 - 12 * k, cy) for k in range(6)]
    right = [(cx + 40 + 12 * k, cy) for k in range(6)]
    _gesture(phone, [left, right])
    bigger = int(phone.get_attribute("#board", "data-cell") or 0)
    assert bigger > size
    # The buttons: out, then fit the whole board on the screen.
    phone.tap(".zoom-out")
    assert int(phone.get_attribute("#board", "data-cell") or 0) < bigger
    phone.tap(".zoom-fit")
    corners = [[0, 0], [29, 15]]
    assert phone.evaluate(IN_VIEW, corners) == []
    # One finger drags the board: it scrolls, and opens nothing.
    phone.tap(".zoom-in")
    phone.tap(".zoom-in")
    phone.tap(".zoom-in")
    before = phone.evaluate("document.querySelector('.board-wrap').scrollLeft")
    moves = _moves(phone)
    _gesture(phone, [[(cx + 100 - 20 * k, cy) for k in range(8)]])
    after = phone.evaluate("document.querySelector('.board-wrap').scrollLeft")
    assert after > before
    # Past a long press's delay, a flag by the mouse is the first move since (moves are sent in
    # the order made: one the drag made would come before it).
    phone.clock.run_for(LONG_PRESS)
    cell = _cell(phone, "board", *_first_covered(phone))
    phone.click(cell, button="right")
    phone.wait_for_function(f"document.querySelector('{cell}').dataset.state === 'flag'")
    assert _moves(phone) == moves + 1


# --- accessibility ------------------------------------------------------------------------


def _rgb(css: str) -> tuple[float, float, float]:
    r, g, b = (float(v) for v in re.findall(r"[\d.]+", css)[:3])
    return r, g, b


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _luminance(css: str) -> float:
    r, g, b = (_linear(c) for c in _rgb(css))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: float, b: float) -> float:
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


# Colour vision deficiency on linear RGB, severity 1 (Machado, Oliveira and Fernandes, 2009).
CVD = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def _lab(css: str, vision: str) -> tuple[float, float, float]:
    """Return the CIELAB colour ``css`` is seen as with ``vision``."""
    rgb = [_linear(c) for c in _rgb(css)]
    r, g, b = (
        max(0.0, min(1.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in CVD[vision]
    )
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


NUMBER_COLOURS = """() => {
  const row = document.querySelector('#board .row:nth-child(2)');
  const out = [];
  for (let n = 1; n <= 8; n++) {
    const probe = document.createElement('div');
    probe.className = 'cell';
    probe.dataset.state = 'open';
    probe.dataset.n = n;
    row.appendChild(probe);
    out.push([getComputedStyle(probe).color, getComputedStyle(probe).backgroundColor]);
    probe.remove();
  }
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_numbers_read_apart_with_any_colour_vision(
    open_page: Opened, scheme: str, tmp_path: Path
) -> None:
    page = open_page(color_scheme=scheme)
    _start(page, "expert", 15, 8)
    if scheme == "dark":
        assert _luminance(page.evaluate("getComputedStyle(document.body).backgroundColor")) < 0.05
        _shot(page, "dark", tmp_path)
    colours = page.evaluate(NUMBER_COLOURS)
    for ink, background in colours:
        assert _contrast(_luminance(ink), _luminance(background)) >= 4.5, (ink, background)
    for vision in CVD:
        seen = [_lab(ink, vision) for ink, _ in colours]
        for i in range(8):
            for j in range(i):
                distance = sum((a - b) ** 2 for a, b in zip(seen[i], seen[j], strict=True)) ** 0.5
                assert distance >= 20, f"{j + 1} and {i + 1} look alike with {vision}"


def _axe(page: Page, where: str) -> list[str]:
    """Return the serious and critical violations axe-core finds on the page as it is (its
    script ships in the package: no network)."""
    results = Axe().run(page)
    return [
        f"{where}: {v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_no_serious_accessibility_violation_on_any_view(open_page: Opened) -> None:
    """axe-core (axe-playwright-python) on every view, on a desktop and a phone, light and
    dark: no serious or critical violation."""
    found: list[str] = []
    page = open_page()
    _start(page, "beginner", 4, 4)
    _whole_hint(page)
    found += _axe(page, "play, a hint")
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    found += _axe(page, "play, probabilities")
    page.focus("#board")
    page.keyboard.press("n")
    page.wait_for_selector("#confirm[open]")
    found += _axe(page, "new game question")
    page.keyboard.press("Escape")
    page.click("#tab-analysis")
    page.fill("#paste", "4x3x3\n001H\n112H\nHHHH\n")
    page.click("#load-paste")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    found += _axe(page, "analysis")
    page.click("#tab-review")
    page.set_input_files("#replay-file", str(REPLAYS / "beginner-15s.avf"))
    page.wait_for_selector("#review-board[data-clicks]")
    page.click("#step-next")
    page.wait_for_selector("#review-board[data-step='1']")
    found += _axe(page, "review")
    page.click("#tab-stats")
    page.wait_for_selector("#stats-table tbody tr")  # the table is there before its rows
    found += _axe(page, "statistics")
    phone = open_page(PHONE, color_scheme="dark")
    _start(phone, "expert", 15, 8)
    found += _axe(phone, "phone, dark")
    # The statistics fit the phone's width (the table scrolls inside its own box).
    phone.tap("#tab-stats")
    phone.wait_for_selector("#stats-table tbody tr")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    found += _axe(phone, "phone, statistics")
    assert found == []


def test_cells_are_named_and_moves_announced_but_not_the_clock(page: Page) -> None:
    _start(page, "beginner", 4, 4)
    grid = page.locator("#board")
    assert grid.get_attribute("role") == "grid"
    assert page.locator("#board > [role=row]").count() == 10  # the letters, then 9 rows
    assert page.get_attribute(_cell(page, "board", 4, 4), "aria-label") == "E5, 0"
    x, y = _first_covered(page)
    name = f"{chr(65 + x)}{y + 1}"
    assert page.get_attribute(_cell(page, "board", x, y), "aria-label") == f"{name}, covered"
    page.click(_cell(page, "board", x, y), button="right")
    _wait_move(page, 1)
    assert page.get_attribute(_cell(page, "board", x, y), "aria-label") == f"{name}, flagged"
    assert page.inner_text("#announce") == f"{name} flagged."
    # A chord on a number whose flags are not all placed opens nothing, and says so.
    near = {(x + a, y + b) for a in (-1, 0, 1) for b in (-1, 0, 1)}
    number = next(
        (i % 9, i // 9)
        for i in range(81)
        if (i % 9, i // 9) not in near
        and page.get_attribute(_cell(page, "board", i % 9, i // 9), "data-state") == "open"
        and page.inner_text(_cell(page, "board", i % 9, i // 9)).strip() in list("12345678")
    )
    page.click(_cell(page, "board", *number))
    said = f"Nothing opened at {chr(65 + number[0])}{number[1] + 1}."
    page.wait_for_function(f"document.querySelector('#announce').innerText === {said!r}")
    live = "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log], [role=timer]"
    assert page.evaluate(f"document.querySelector('#timer').closest('{live}')") is None
    assert page.evaluate(f"document.querySelector('#announce').matches('{live}')")
    # Every key the page answers is in the help.
    keys = page.locator("#keys kbd").all_inner_texts()
    for key in ["F", "Backspace", "H", "P", "N", "+", "0", "Space", "Enter", "\u2190"]:
        assert key in keys


def test_tabs_move_with_the_arrow_keys(page: Page) -> None:
    page.focus("#tab-play")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-analysis"
    assert page.get_attribute("#tab-analysis", "aria-selected") == "true"
    assert page.is_visible("#analysis") and not page.is_visible("#play")
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.id") == "tab-stats"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-play"
    assert page.get_attribute("#tab-analysis", "tabindex") == "-1"


def test_every_game_has_its_own_address(open_page: Opened, page: Page) -> None:
    _start(page, "beginner", 4, 4)
    game = page.get_attribute("#board", "data-game")
    assert page.url.endswith(f"/?game={game}")
    cells = page.locator("#board .cell").evaluate_all("(cs) => cs.map((c) => c.dataset.state)")
    # A second tab (another browser, even: nothing saved there) opens the same game.
    other = open_page(path=f"?game={game}")
    assert other.get_attribute("#board", "data-game") == game
    assert (
        other.locator("#board .cell").evaluate_all("(cs) => cs.map((c) => c.dataset.state)")
        == cells
    )
    # A move there shows here when this tab comes back to the front.
    x, y = _first_covered(other)
    other.click(_cell(other, "board", x, y), button="right")
    _wait_move(other, 1)
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    page.wait_for_function(
        f"document.querySelector('{_cell(page, 'board', x, y)}').dataset.state === 'flag'"
    )
    # A reload keeps it; a new game gets its own address, and Back returns to the first.
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("#board", "data-game") == game
    _new_game(page, "beginner")
    second = page.get_attribute("#board", "data-game")
    assert second != game and page.url.endswith(f"?game={second}")
    page.go_back()
    page.wait_for_function(f"document.querySelector('#board').dataset.game === '{game}'")
    # An address no game has: said so, and a new game.
    lost = open_page(path="?game=nosuchgame0000000000")
    assert lost.inner_text("#message") == "No game has this address."
    assert lost.get_attribute("#board", "data-game-state") == "new"


# --- rules, post-mortems, reviews and the statistics of issue 14 ------------------------------


def _small_game(page: Page, store: Store, **rules: bool) -> tuple[str, Layout]:
    """Start a custom 6x5 game with 6 mines and the rules ticked in ``rules`` (``punish``,
    ``strict``, ``guess_free``), open A1 and return the game's id and its stored layout (the
    oracle), after a first click that left cells the numbers do not decide and few enough
    covered cells for the brute force."""
    _custom_size(page, 6, 5, 6)
    for name in ("punish", "strict"):
        page.set_checked(f"#{name}", rules.get(name, False))
    for _ in range(30):
        _new_game(page, "custom", guess_free=rules.get("guess_free", False))
        page.click(_cell(page, "board", 0, 0))
        _wait_move(page, 0)
        game = page.get_attribute("#board", "data-game") or ""
        view = _view(page)
        if view["state"] == "playing" and len(covered(view)) <= 20:
            brute = Brute(view)
            if len(brute.safe) < len(covered(view)) - 6:
                row = store.load(game)
                assert row is not None and row.layout is not None
                return game, Layout(Board(6, 5), int(row.layout, 16))
    pytest.fail("no small game with undecided cells")


def _view(page: Page) -> JSON:
    """Return the game shown, as the API gives it."""
    game = page.get_attribute("#board", "data-game")
    data: JSON = page.evaluate(f"fetch('/api/games/{game}').then((r) => r.json())")
    return data


def _tap_or_click(page: Page, selector: str, button: str = "left") -> None:
    if page.context.browser is not None and page.viewport_size == PHONE["viewport"]:
        if button == "right":  # a long press: the finger is lifted once the flag shows
            before = _moves(page)
            _touch(page, selector, "pointerdown")
            _wait_move(page, before)
            _touch(page, selector, "pointerup")
        else:
            page.tap(selector)
    else:
        page.click(selector, button=button)  # type: ignore[arg-type]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_deliberate_loss_shows_its_post_mortem(
    open_page: Opened, store: Store, tmp_path: Path, device: str
) -> None:
    page = open_page(PHONE if device == "phone" else DESKTOP)
    game, layout = _small_game(page, store)
    view = _view(page)
    brute = Brute(view)
    # A wrong flag on a cell the numbers do not prove safe, then a click on a mine.
    wrong = [c for c in covered(view) if not layout.is_mine(layout.board.index(*c))]
    wrong = [c for c in wrong if c not in brute.safe]
    if wrong:
        before = _moves(page)
        _tap_or_click(page, _cell(page, "board", *wrong[0]), "right")
        _wait_move(page, before)
    view = _view(page)
    brute = Brute(view)
    fatal = next(c for c in covered(view) if layout.is_mine(layout.board.index(*c)))
    before = _moves(page)
    _tap_or_click(page, _cell(page, "board", *fatal))
    _wait_move(page, before)
    assert page.get_attribute("#board", "data-game-state") == "lost"
    page.wait_for_function("document.querySelector('#message').innerText.includes('Post-mortem')")
    text = page.inner_text("#message")
    name = f"{chr(65 + fatal[0])}{fatal[1] + 1}"
    if brute.safe:
        assert f"A mistake at {name}" in text
    elif brute.probability(fatal) == 1:
        assert f"{name} was a mine in every arrangement" in text
    else:
        assert f"A guess at {name}" in text
    # The cells marked provable are exactly those safe in every arrangement then.
    assert _marked(page, "provable") == brute.safe
    assert page.locator(f"{_cell(page, 'board', *fatal)}[data-state=exploded]").count() == 1
    if wrong:
        assert page.get_attribute(_cell(page, "board", *wrong[0]), "data-state") == "wrong-flag"
        assert "1 flag was placed where there is no mine" in text
    if brute.safe:
        label = page.get_attribute(_cell(page, "board", *min(brute.safe)), "aria-label") or ""
        assert "could be proven safe" in label
    _shot(page, f"post-mortem-{device}", tmp_path)
    # In French, the same post-mortem in French.
    page.select_option("#lang", "fr")
    page.wait_for_function(
        "document.querySelector('#message').innerText.includes('Autopsie de la partie')"
    )
    assert name in page.inner_text("#message") and game


def test_punish_guesses_makes_a_guess_a_mine_and_never_a_proven_safe_cell(
    page: Page, store: Store
) -> None:
    for attempt in range(8):
        game, layout = _small_game(page, store, punish=True, guess_free=True)
        view = _view(page)
        assert view["punish_guesses"] is True
        # A proven safe cell (by the brute force) opens as on any board.
        safe = sorted(c for c in Brute(view).safe if c in covered(view))
        if attempt % 2 and safe:
            before = _moves(page)
            page.click(_cell(page, "board", *safe[0]))
            _wait_move(page, before)
            assert page.get_attribute("#board", "data-game-state") != "lost"
            view = _view(page)
        if view["state"] != "playing":
            continue
        brute = Brute(view)
        guesses = [
            c
            for c in covered(view)
            if c not in brute.safe and not layout.is_mine(layout.board.index(*c))
        ]
        if not guesses:
            continue
        before = _moves(page)
        page.click(_cell(page, "board", *guesses[0]))  # free in the layout it had
        _wait_move(page, before)
        assert page.get_attribute("#board", "data-game-state") == "lost"
        assert page.get_attribute(_cell(page, "board", *guesses[0]), "data-state") == "exploded"
        row = store.load(game)
        assert row is not None and row.layout is not None
        assert int(row.layout, 16) >> layout.board.index(*guesses[0]) & 1
        return
    pytest.fail("no game offered a guess on a cell its layout kept free")


def _flag_a_safe_cell(page: Page, store: Store) -> tuple[int, int]:
    """Start a small game with strict flags, flag a cell with no mine (which loses it) and
    return that cell once the post-mortem is shown."""
    _, layout = _small_game(page, store, strict=True)
    view = _view(page)
    safe = next(c for c in covered(view) if not layout.is_mine(layout.board.index(*c)))
    before = _moves(page)
    page.click(_cell(page, "board", *safe), button="right")
    _wait_move(page, before)
    page.wait_for_function("document.querySelector('#message').innerText.includes('Post-mortem')")
    return safe


def test_strict_flags_end_the_game_on_a_flag_without_a_mine(page: Page, store: Store) -> None:
    safe = _flag_a_safe_cell(page, store)
    assert page.get_attribute("#board", "data-game-state") == "lost"
    cell = _cell(page, "board", *safe)
    assert page.get_attribute(cell, "data-state") == "wrong-flag"
    assert "fatal" in (page.get_attribute(cell, "class") or "")
    name = f"{chr(65 + safe[0])}{safe[1] + 1}"
    assert f"The flag on {name} lost the game" in page.inner_text("#message")


def test_a_hint_asked_after_the_end_leaves_the_post_mortem(page: Page, store: Store) -> None:
    """A press of Hint (or H) after a loss replaced the post-mortem with "The game is over.
    Start a new game.", and nothing brought it back but a reload."""
    _flag_a_safe_cell(page, store)
    words = page.inner_text("#message")
    page.click("#hint")
    page.keyboard.press("h")
    page.wait_for_timeout(300)
    assert page.inner_text("#message") == words


def test_a_game_review_steps_through_the_clicks_and_downloads_the_gif(
    page: Page, store: Store, tmp_path: Path
) -> None:
    game, layout = _small_game(page, store)
    view = _view(page)
    fatal = next(c for c in covered(view) if layout.is_mine(layout.board.index(*c)))
    before = _moves(page)
    page.click(_cell(page, "board", *fatal))
    _wait_move(page, before)
    page.click("#review-this")
    page.wait_for_selector("#review-board[data-clicks]")
    assert page.is_visible("#review") and not page.is_visible("#play")
    clicks = int(page.get_attribute("#review-board", "data-clicks") or 0)
    review: JSON = page.evaluate(f"fetch('/api/games/{game}/review').then((r) => r.json())")
    assert clicks == len(review["clicks"]) >= 2
    assert "Game lost" in page.inner_text("#review-summary")
    # Before the first click every cell is covered; each step shows one more click, judged.
    assert page.locator("#review-board .cell[data-state=covered]").count() == 30
    page.click("#step-next")
    page.wait_for_selector("#review-board[data-step='1']")
    assert page.inner_text("#review-click").startswith("#1")
    assert "The first click, at A1" in page.inner_text("#review-click")
    assert _marked(page, "rv-forced", "review-board") == {(0, 0)}
    page.click("#step-last")
    page.wait_for_selector(f"#review-board[data-step='{clicks}']")
    assert page.get_attribute(_cell(page, "review-board", *fatal), "data-state") == "exploded"
    kind = review["clicks"][-1]["judgement"]
    assert kind in ("guess", "mistake")
    assert _marked(page, "rv-guess" if kind == "guess" else "rv-mistake", "review-board") == {fatal}
    assert review["clicks"][-1]["text"] in page.inner_text("#review-click")
    page.click("#step-prev")
    page.wait_for_selector(f"#review-board[data-step='{clicks - 1}']")
    assert page.locator("#review-board .cell[data-state=exploded]").count() == 0
    _shot(page, "review", tmp_path)
    # The GIF the replay command makes, decoded by Pillow: a frame before and after each click.
    with page.expect_download() as download:
        page.click("#download-gif")
    path = tmp_path / "review.gif"
    download.value.save_as(path)
    size, frames = gif_frames(path.read_bytes())
    assert size == (6 * 16, 5 * 16) and frames == clicks + 1
    # A replay file of another client, uploaded.
    page.set_input_files("#replay-file", str(REPLAYS / "beginner-15s.avf"))
    page.wait_for_function(
        "document.querySelector('#review-summary').innerText.includes('Game won')"
    )
    assert page.locator("#review-board .cell").count() == 64
    with page.expect_download() as download:
        page.click("#download-gif")
    download.value.save_as(tmp_path / "replay.gif")
    assert gif_frames((tmp_path / "replay.gif").read_bytes())[1] > 2
    # A file that is no replay: one line, in the page's words.
    bad = tmp_path / "broken.avf"
    bad.write_bytes(b"\x00 not a replay")
    page.set_input_files("#replay-file", str(bad))
    page.wait_for_function(
        "document.querySelector('#review-summary').innerText.includes('not a replay')"
    )
    assert page.inner_text("#review-summary") == "This file is not a replay mineproof can read."


def test_the_new_texts_follow_the_language_and_the_statistics_chart_the_times(
    page: Page, store: Store, tmp_path: Path
) -> None:
    # An unassisted win: every safe cell opened, read from the stored layout.
    _, layout = _small_game(page, store)
    for i in range(layout.board.size):
        if page.get_attribute("#board", "data-game-state") != "playing":
            break
        cell = _cell(page, "board", *layout.board.xy(i))
        if not layout.is_mine(i) and page.get_attribute(cell, "data-state") == "covered":
            before = _moves(page)
            page.click(cell)
            _wait_move(page, before)
    assert page.get_attribute("#board", "data-game-state") == "won"
    page.click("#tab-stats")
    page.wait_for_selector("#charts svg")
    rows = page.locator("#stats-table tbody tr[data-assisted=false]", has_text="6x5")
    row = rows.filter(has_text="Random")
    assert row.count() == 1 and "Without help" in row.inner_text()
    won = int(row.locator("td").nth(4).inner_text())
    assert won >= 1
    chart = page.locator("#charts figure", has_text="6x5").filter(has_text="Random")
    assert chart.locator("svg circle").count() == won  # one dot per win without help
    assert "winning times" in (chart.locator("svg").get_attribute("aria-label") or "")
    assert f"games won: {won}" in (chart.locator("svg").text_content() or "")
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert "Ohne Hilfe" in rows.filter(has_text="Zufällig").inner_text()
    # Figures as German writes them: a decimal comma, a no-break space before the % sign.
    cells = rows.filter(has_text="Zufällig").locator("td")
    rate, best = (cells.nth(k).text_content() or "" for k in (5, 7))
    assert re.fullmatch(r"\d+\u00a0%", rate) and re.fullmatch(r"\d+,\d s", best), (rate, best)
    assert page.inner_text("#stats-table thead").count("Beste Serie") == 1
    assert "Siegeszeiten" in (page.locator("#charts svg").first.get_attribute("aria-label") or "")
    _shot(page, "statistics-de", tmp_path)
    page.click("#tab-review")
    page.wait_for_function(
        "document.querySelector('#review-summary').innerText.includes('Spiel gewonnen')"
    )
    assert page.inner_text("#step-count") == "Vor dem ersten Klick"
    assert page.get_attribute("#step", "aria-valuetext") == "Vor dem ersten Klick"  # said
    live = "document.querySelector('#step-count').closest('output, [aria-live], [role=status]')"
    assert page.evaluate(live) is None  # not announced beside the click's words
    page.click("#tab-play")
    assert page.inner_text("label:has(#punish)") == "Raten bestrafen"
    assert page.inner_text("label:has(#strict)") == "Strenge Flaggen"
    assert "Braucht Stufe 4" in page.inner_text("#technique")


# --- the new-user review: each defect fixed with this test ----------------------------------


HOLD = """([where, start]) => {
  // The first answer, from now on, to a request whose address contains `where` (and, when
  // `start` is given, whose position's text begins with it) is read, then kept from the page
  // until window.release() hands it over, whole: the page has taken it in before the test's
  // next step. The answers after it pass.
  const fetch = window.fetch;
  let held = false;
  delete window.release;
  window.fetch = async (url, init) => {
    const hold = !held && String(url).includes(where)
      && (!start || JSON.parse(init.body).text.startsWith(start));
    held ||= hold;
    const response = await fetch(url, init);
    if (!hold) return response;
    const data = await response.json();
    const kept = { ok: response.ok, status: response.status, json: async () => data };
    return new Promise((resolve) => { window.release = () => resolve(kept); });
  };
}"""


def _hold(page: Page, where: str, start: str = "") -> None:
    """Keep the page's next answer from ``where`` (see ``HOLD``) until ``_release``."""
    page.evaluate(HOLD, [where, start])


def _held(page: Page) -> None:
    """Wait until the answer to hold has come (and is kept from the page)."""
    page.wait_for_function("() => window.release")


def _release(page: Page) -> None:
    """Hand the answer held over to the page, which has taken it in when this returns."""
    page.evaluate("() => window.release()")


def test_an_impossible_pasted_position_is_shown_with_its_conflict_outlined(page: Page) -> None:
    """The pasted position replaces the board shown before even when no arrangement fits it,
    and the numbers the server names as contradicting each other are outlined on it."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")  # the empty 8x8 board
    page.fill("#paste", "3x3x1\n3HH\nHHH\nHHH")
    with page.expect_response(lambda r: "/api/analyze" in r.url) as reply:
        page.click("#load-paste")
    assert reply.value.status == 422
    page.wait_for_selector("#analysis-result[data-state=error]")
    assert page.inner_text("#analysis-result").startswith("No arrangement of mines fits")
    assert page.locator("#editor .cell").count() == 9
    a1 = _cell(page, "editor", 0, 0)
    assert page.get_attribute(a1, "data-state") == "open" and page.inner_text(a1) == "3"
    named = {tuple(c) for c in reply.value.json()["clues"]}
    assert _marked(page, "conflict", "editor") == named == {(0, 0)}
    assert [page.input_value(f"#edit-{k}") for k in ("width", "height", "mines")] == ["3", "3", "1"]
    # The editor goes on from the pasted position: A1 covered again (the cycle backwards, 3 to
    # 2, 1, 0, covered): 9 covered cells, 1 mine. An edit is analysed a moment after it is made,
    # so on a slow machine the last edit can come while the answer for the one before is
    # awaited: that answer is for another position, neither shown nor adopted (its A1, a 0,
    # would undo the last edit). Here it comes after the last edit and before that edit's
    # analysis is asked (the page's clock stands still in between).
    _stop_the_clock(page)
    _hold(page, "/api/analyze", "3x3x1\n0HH")
    for _ in range(3):
        page.click(a1, button="right")
    # From the first edit on, the refusal shown is marked as not this position's.
    assert page.get_attribute("#analysis-result", "data-state") == "pending"
    page.clock.run_for(1_000)  # the analysis of A1 = 0 is asked
    _held(page)
    page.click(a1, button="right")
    _release(page)
    assert page.get_attribute(a1, "data-state") == "covered"
    assert page.get_attribute("#analysis-result", "data-state") == "pending"
    assert page.get_attribute("#analysis-result", "aria-busy") == "true"
    page.clock.run_for(1_000)
    page.wait_for_selector("#analysis-result[data-state=ok]")
    assert page.get_attribute(a1, "data-state") == "covered"
    assert page.inner_text("#analysis-result").startswith("Arrangements: 9.")
    assert page.locator("#editor .cell").count() == 9


def _result_is(page: Page, text: str) -> None:
    """Wait until the Analysis view's result box says ``text``."""
    page.wait_for_function(f"document.querySelector('#analysis-result').innerText === {text!r}")


def test_a_conflict_is_worded_by_what_it_holds(page: Page) -> None:
    """A number larger than its neighbours is an impossible position, not unreadable text; a
    conflict of one number, or of numbers with the mine total, is said as such; a mine total
    the field cannot give (empty, negative, a fraction) is refused before it is asked."""
    english = page_strings("en")
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    page.fill("#paste", "3x3x2\n4HH\nHHH\nHHH")
    with page.expect_response(lambda r: "/api/analyze" in r.url) as reply:
        page.click("#load-paste")
    assert reply.value.status == 422
    _result_is(page, english["error_inconsistent_one"])
    assert _marked(page, "conflict", "editor") == {(0, 0)}
    assert page.inner_text(_cell(page, "editor", 0, 0)) == "4"
    # One number against the mine total: a 1 with no mine left for it.
    page.fill("#paste", "3x3x0\nHHH\nH1H\nHHH")
    page.click("#load-paste")
    _result_is(page, english["error_inconsistent_total_one"])
    assert _marked(page, "conflict", "editor") == {(1, 1)}
    page.fill("#paste", "7x3x1\nHHHHHHH\nH1HHH1H\nHHHHHHH")
    page.click("#load-paste")
    _result_is(page, english["error_inconsistent_total"])
    assert _marked(page, "conflict", "editor") == {(1, 1), (5, 1)}
    # A mine total the field cannot give is not read as 0.
    for typed in ("", "-3", "2.5"):
        page.fill("#edit-mines", typed)
        page.dispatch_event("#edit-mines", "change")
        _result_is(page, "Mine total: choose a number from 0 to 19.")
    page.fill("#edit-mines", "2")
    page.dispatch_event("#edit-mines", "change")
    page.wait_for_selector("#analysis-result[data-state=ok]")


def test_a_mine_total_over_the_covered_cells_is_said_in_the_players_words(page: Page) -> None:
    """A mine total larger than the covered cells is no unreadable text: the page names the
    field and the totals allowed, in the language chosen (the catalogs' words)."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    _empty_board(page, 4, 4, 20)
    page.wait_for_selector("#analysis-result[data-state=error]")
    assert page.inner_text("#analysis-result") == "Mine total: choose a number from 0 to 16."
    page.fill("#paste", "3x3x2\n1H1\n111\n000")
    page.click("#load-paste")
    page.wait_for_function(
        "document.querySelector('#analysis-result').innerText.endsWith('from 0 to 1.')"
    )
    assert page.inner_text("#analysis-result") == "Mine total: choose a number from 0 to 1."
    french = page_strings("fr")
    expected = french["error_range"].format(field=french["mine_total"], lo=0, hi=1)
    page.select_option("#lang", "fr")
    page.wait_for_function(f"document.querySelector('#analysis-result').innerText === {expected!r}")


def test_the_tutors_words_follow_a_language_switch(page: Page, store: Store) -> None:
    """After a needless guess the Tutor's word (the hint that was missed) is said again in the
    language chosen, its explanation as much as its prefix; it came unasked, and stays no help
    in the statistics."""
    game, _, reply = _lucky_guess(page, store)
    tutor = reply["tutor"]
    assert tutor is not None
    assert tutor["steps"][0]["text"] in page.inner_text("#message")
    french = hint(game.position(), "fr")  # the words the server has for the missed hint
    assert french["steps"][0]["text"] != tutor["steps"][0]["text"]
    page.select_option("#lang", "fr")
    page.wait_for_function(
        "document.querySelector('#message').innerText.startsWith("
        f"{page_strings('fr')['tutor_message']!r})"
    )
    page.wait_for_function(
        f"document.querySelector('#message').innerText.includes({french['steps'][0]['text']!r})"
    )
    text = page.inner_text("#message")
    # A later step is shown with its label, in a row as French writes them (``labelled``).
    shown = [s["text"] if n == 0 else s["labelled"] for n, s in enumerate(french["steps"])]
    assert all(words in text for words in shown)
    assert tutor["steps"][0]["text"] not in text
    assert page.locator("#message.tutor").count() == 1
    assert _view(page)["assists"] == 0


ON_SCREEN = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
    && r.right <= innerWidth;
}"""


def test_a_big_board_keeps_its_counters_progress_and_refusal_on_the_screen(page: Page) -> None:
    """On a 30x30 board on a 1280x800 screen (the board is taller than the window), New game
    leaves Mines left and Time in view; a first click whose board is still being drawn shows
    its progress and Cancel on the screen, and so is the refusal that may follow."""
    _custom_size(page, 30, 30, 200)
    _new_game(page, "custom", guess_free=False)
    page.click(_cell(page, "board", 15, 15))
    _wait_move(page, 0)
    _new_game(page, "custom")  # from a board of this size
    for counter in ("#mines-left", "#timer"):
        assert page.evaluate(ON_SCREEN, counter), f"{counter} is off the screen"
    held: list[Route] = []
    page.route("**/api/games/*/open", lambda route: held.append(route))  # answered below
    page.click(_cell(page, "board", 15, 15))
    page.wait_for_selector("#progress:not([hidden])")
    for shown in ("#progress-text", "#cancel"):
        assert page.evaluate(ON_SCREEN, shown), f"{shown} is off the screen"
    refusal = {"error": "no guess-free board was found", "kind": "too-complex"}
    held[0].fulfill(status=422, json=refusal)
    page.wait_for_selector("#message.error")
    assert page.inner_text("#message").startswith("No guess-free board")
    assert page.evaluate(ON_SCREEN, "#message"), "the refusal is off the screen"


def test_a_huge_arrangement_count_is_shown_rounded_with_its_power_of_ten(page: Page) -> None:
    """An empty expert board has C(480, 99) arrangements, a number of 105 digits: it is shown
    as 5.6 x 10^104 (a wall of digits helped no one), a small count in full, grouped as the
    language groups digits; the page never gets wider than the window."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    _empty_board(page, 30, 16, 99)
    count = str(math.comb(480, 99))
    assert (len(count), count[:2]) == (105, "56")
    shown = "Arrangements: \u2248 5.6 \u00d7 10\u00b9\u2070\u2074. "
    page.wait_for_function(
        f"document.querySelector('#analysis-result').innerText.startsWith({shown!r})"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    _empty_board(page, 6, 5, 9)
    grouped = f"Arrangements: {math.comb(30, 9):,}. "
    page.wait_for_function(
        f"document.querySelector('#analysis-result').innerText.startsWith({grouped!r})"
    )
    page.select_option("#lang", "de")
    german = f"{math.comb(30, 9):,}".replace(",", ".")
    page.wait_for_function(
        f"document.querySelector('#analysis-result').innerText.includes({german!r})"
    )


LABEL_OVERLAPS = """() => {
  const shown = [];
  for (const label of document.querySelectorAll('#board .col-label')) {
    const range = document.createRange();
    range.selectNodeContents(label);
    const r = range.getBoundingClientRect();
    if (r.width > 0) shown.push([label.textContent, r.left, r.right]);
  }
  const overlaps = [];
  for (let i = 1; i < shown.length; i++) {
    if (shown[i][1] < shown[i - 1][2]) overlaps.push(shown[i - 1][0] + '/' + shown[i][0]);
  }
  return [shown.map((s) => s[0]), overlaps];
}"""


def test_column_letters_never_overlap_on_a_board_zoomed_out(phone: Page) -> None:
    """An expert board fitted to a 390x844 phone has cells of about 10 px: its column letters
    thin out rather than run together ("ZAAABACAD"), each column keeping its name for screen
    readers."""
    _new_game(phone, "expert")
    phone.tap(".zoom-fit")
    assert int(phone.get_attribute("#board", "data-cell") or 0) <= 12
    shown, overlaps = phone.evaluate(LABEL_OVERLAPS)
    assert overlaps == [], f"letters run together: {overlaps}"
    assert shown[0] == "A" and len(shown) >= 10
    names = phone.locator("#board [role=columnheader]").evaluate_all(
        "(hs) => hs.map((h) => h.getAttribute('aria-label') || h.textContent)"
    )
    assert names[25:] == ["Z", "AA", "AB", "AC", "AD"]
    # Zoomed in again, every letter shows.
    for _ in range(6):
        phone.tap(".zoom-in")
    shown, overlaps = phone.evaluate(LABEL_OVERLAPS)
    assert overlaps == [] and len(shown) == 30


def test_a_wrong_flag_on_a_provable_cell_is_ticked_as_the_post_mortem_counts_it(
    page: Page, store: Store
) -> None:
    """The post-mortem counts every covered cell that could be proven safe, a flagged one too
    (flags are not trusted): a wrong flag on such a cell shows its cross and its tick, so the
    board shows as many ticks as the words say."""
    for _ in range(10):
        _, layout = _small_game(page, store)
        view = _view(page)
        provable = sorted(Brute(view).safe)
        if provable:
            break
    else:
        pytest.fail("no small game with a cell proven safe after the first click")
    flagged = provable[0]
    before = _moves(page)
    page.click(_cell(page, "board", *flagged), button="right")
    _wait_move(page, before)
    view = _view(page)
    safe = Brute(view).safe
    assert flagged in safe
    fatal = next(c for c in covered(view) if layout.is_mine(layout.board.index(*c)))
    before = _moves(page)
    page.click(_cell(page, "board", *fatal))
    _wait_move(page, before)
    page.wait_for_function("document.querySelector('#message').innerText.includes('Post-mortem')")
    counted = re.search(r"(\d+) covered cells? could be proven safe", page.inner_text("#message"))
    assert counted is not None and int(counted[1]) == len(safe)
    assert _marked(page, "provable") == safe
    cell = _cell(page, "board", *flagged)
    assert page.get_attribute(cell, "data-state") == "wrong-flag"
    label = page.get_attribute(cell, "aria-label") or ""
    assert "wrong flag" in label and "could be proven safe" in label


def test_the_new_game_button_asks_as_the_n_key_does(page: Page) -> None:
    """New game, like N, asks before leaving a game in progress (one way to a new game); a game
    not started is left without a question."""
    _start(page, "beginner", 4, 4)
    game = page.get_attribute("#board", "data-game")
    page.click("#new")
    page.wait_for_selector("#confirm[open]")
    assert page.inner_text("#confirm-text").startswith("Leave the game in progress")
    page.click("#confirm-no")
    page.wait_for_selector("#confirm", state="hidden")
    assert page.get_attribute("#board", "data-game") == game
    assert page.get_attribute("#board", "data-game-state") == "playing"
    page.click("#new")
    page.click("#confirm-yes")
    page.wait_for_function(f"document.querySelector('#board').dataset.game !== '{game}'")
    fresh = page.get_attribute("#board", "data-game")
    assert page.get_attribute("#board", "data-game-state") == "new"
    page.click("#new")
    page.wait_for_function(f"document.querySelector('#board').dataset.game !== '{fresh}'")
    assert page.locator("#confirm[open]").count() == 0


# --- answers that come late: each taken only for the state it was asked in -----------------


def test_a_hint_asked_before_a_move_is_not_shown_on_the_board_after_it(page: Page) -> None:
    """A hint is for the position it was asked in: come once a move changed the board, it is
    dropped (its premises and its cell to open are the board's before), and the next press of
    Hint asks for the board now."""
    _start(page, "beginner", 4, 4)
    _hold(page, "/hint")
    with page.expect_response(lambda r: "/hint" in r.url) as reply:
        page.click("#hint")
    _held(page)
    # The player does not wait: opens a cell the hint was about to prove safe.
    x, y = reply.value.json()["steps"][-1]["safe"][0]
    page.click(_cell(page, "board", x, y))
    _wait_move(page, 1)
    _release(page)
    assert page.get_attribute("#message", "data-stage") == ""
    assert page.locator("#board .premise, #board .hint-safe, #board .hint-mine").count() == 0
    if page.get_attribute("#board", "data-game-state") == "playing":
        with page.expect_response(lambda r: "/hint" in r.url):
            page.click("#hint")
        page.wait_for_selector("#message[data-stage='1']")


def _percents(position: Position) -> dict[tuple[int, int], str]:
    """Return the percentage the page shows on each covered cell of ``position`` (as
    ``percent`` in board.js: JavaScript's Math.round, not Python's round half to even)."""
    shown: dict[tuple[int, int], str] = {}
    for y, row in enumerate(analyze(position).float_probabilities()):
        for x, p in enumerate(row):
            if p is None:
                continue
            rounded = math.floor(p * 100 + 0.5)
            if p > 0 and rounded <= 0:
                shown[x, y] = "<1"
            elif p < 1 and rounded >= 100:
                shown[x, y] = ">99"
            else:
                shown[x, y] = str(rounded)
    return shown


def _odds_changing_seed() -> tuple[str, tuple[int, int]]:
    """Return a seed whose random beginner board, opened at E5, proves a cell safe whose opening
    changes the percentage of a cell still covered after it, and that cell."""
    board = Board(9, 9)
    for k in range(1000):
        seed = f"odds-{k}"
        layout = Layout(board, first_layout(9, 9, 10, False, seed, 4, 4)[0])
        game = Game(layout)
        game.reveal(4, 4)
        if game.is_over:
            continue
        before = _percents(game.position())
        for i in iter_bits(analyze(game.position()).safe_mask):
            after = Game(layout)
            after.reveal(4, 4)
            after.reveal(*board.xy(i))
            now = _percents(after.position())
            if not after.is_over and any(now[c] != before[c] for c in now):
                return seed, board.xy(i)
    pytest.fail("no seed gives a beginner board whose next safe cell changes the odds")


def _percents_after(seed: str, x: int, y: int) -> dict[str, str]:
    """Return the percentage the page shows on each covered cell ("x,y") of the random beginner
    board of ``seed`` opened at E5, then at ``(x, y)``."""
    game = Game(Layout(Board(9, 9), first_layout(9, 9, 10, False, seed, 4, 4)[0]))
    game.reveal(4, 4)
    game.reveal(x, y)
    return {f"{cx},{cy}": text for (cx, cy), text in _percents(game.position()).items()}


SHOWN_PERCENTS = """() => Object.fromEntries(
  [...document.querySelectorAll('#board .cell[data-state=covered]')].map(
    (c) => [c.dataset.x + ',' + c.dataset.y, c.textContent]))"""


def _wait_percents(page: Page, expected: dict[str, str]) -> None:
    """Wait until the covered cells show these percentages (see ``_percents_after``)."""
    page.wait_for_function(
        f"""(expected) => {{
          const shown = ({SHOWN_PERCENTS})();
          const cells = Object.keys(expected);
          return cells.length === Object.keys(shown).length
            && cells.every((c) => shown[c] === expected[c]);
        }}""",
        arg=expected,
    )


def test_probabilities_asked_before_a_move_are_not_shown_on_the_board_after_it(
    page: Page, seeds: Seeds
) -> None:
    """The probabilities are for the position they were asked in: come once a move changed the
    board, they are dropped and asked again for the board now; come once the box is unticked,
    they are not shown."""
    seed, (x, y) = _odds_changing_seed()
    seeds.queued.append(seed)
    _new_game(page, "beginner", guess_free=False)
    page.click(_cell(page, "board", 4, 4))
    _wait_move(page, 0)
    _hold(page, "/probabilities")
    page.check("#show-probabilities")
    _held(page)
    page.click(_cell(page, "board", x, y))  # safe, and it changes the odds of a covered cell
    _wait_move(page, 1)
    _release(page)
    page.wait_for_selector("#board .cell .p")
    assert page.evaluate(SHOWN_PERCENTS) == _percents_after(seed, x, y)
    # Shown, they are asked again with each move: unticked before that answer comes, the box
    # is obeyed.
    _hold(page, "/probabilities")
    page.click(_cell(page, "board", *_first_covered(page)), button="right")
    _held(page)
    page.uncheck("#show-probabilities")
    _release(page)
    _wait_move(page, 2)
    assert page.locator("#board .cell .p").count() == 0


def test_probabilities_are_those_of_a_game_played_on_elsewhere_or_returned_to(
    open_page: Opened, page: Page, seeds: Seeds
) -> None:
    """With the box ticked the figures are those of the position shown: a game played on in
    another tab shows, once this tab is back to the front, the figures of its position now (not
    of the board before), and so does a game in progress that Back returns to."""
    seed, (x, y) = _odds_changing_seed()
    seeds.queued.append(seed)
    _new_game(page, "beginner", guess_free=False)
    page.click(_cell(page, "board", 4, 4))
    _wait_move(page, 0)
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    game = page.get_attribute("#board", "data-game")
    other = open_page(path=f"?game={game}")
    other.click(_cell(other, "board", x, y))  # safe, and it changes the odds of a covered cell
    _wait_move(other, 1)
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    _wait_percents(page, _percents_after(seed, x, y))
    _new_game(page, "beginner")
    page.go_back()
    page.wait_for_function(f"document.querySelector('#board').dataset.game === '{game}'")
    _wait_percents(page, _percents_after(seed, x, y))


@pytest.mark.parametrize("failure", ["busy", "offline"])
def test_a_move_whose_figures_fail_is_drawn_and_the_failure_said(page: Page, failure: str) -> None:
    """With the box ticked, each move asks for the figures of the board it leads to: should they
    fail (every worker busy, the server out of reach), the move, made on the server, is drawn
    all the same, without figures, and the failure said; ticked again, the box shows them."""
    _start(page, "beginner", 4, 4)
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    busy = {"error": "the server is busy", "kind": "busy"}
    page.route(
        "**/api/games/*/probabilities",
        lambda route: route.fulfill(status=503, json=busy) if failure == "busy" else route.abort(),
    )
    x, y = _first_covered(page)
    page.click(_cell(page, "board", x, y), button="right")
    page.wait_for_selector("#message.error")
    assert _moves(page) == _view(page)["moves"] == 2
    assert page.get_attribute(_cell(page, "board", x, y), "data-state") == "flag"
    assert page.locator("#board .cell .p").count() == 0
    page.unroute("**/api/games/*/probabilities")
    page.uncheck("#show-probabilities")
    assert page.is_hidden("#message")
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    assert page.get_attribute(_cell(page, "board", x, y), "data-state") == "flag"


def test_figures_unticked_before_they_come_are_no_help(page: Page, pool: HeldPool) -> None:
    """The figures count as help when the server has them ready: unticked before that, the box
    cancels its request (asked after a move or at its tick), the server counts no help, and the
    game stays one without help, its moves drawn. Left ticked, the figures are shown and the
    game counts as played with help."""
    _new_game(page, "beginner")
    page.check("#show-probabilities")
    with pool.holding(work_probabilities):
        page.click(_cell(page, "board", 4, 4))
        wait_for(lambda: pool.held == 1, "the figures of the first click asked for")
        page.uncheck("#show-probabilities")
        wait_for(lambda: pool.left == 1, "the figures' request cancelled", timeout=10)
    _wait_move(page, 0)
    assert page.get_attribute("#board", "data-game-state") == "playing"
    with pool.holding(work_probabilities):
        page.check("#show-probabilities")
        wait_for(lambda: pool.held == 1, "the figures asked for at the tick")
        page.uncheck("#show-probabilities")
        wait_for(lambda: pool.left == 1, "the figures' request cancelled", timeout=10)
    assert page.locator("#board .cell .p").count() == 0
    assert _view(page)["assists"] == 0
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    assert _view(page)["assists"] == 1


def _hold_at_language(page: Page, where: str, lang: str, refused: bool = False) -> None:
    """Choose the language ``lang`` with the page's next answer from ``where`` held (see
    ``HOLD``) until ``_release``; ``refused``: that answer is a refusal (every worker busy)."""
    if refused:
        page.route(
            lambda url: where in url,
            lambda route: route.fulfill(status=503, json={"error": "busy", "kind": "busy"}),
        )
    _hold(page, where)
    page.select_option("#lang", lang)
    _held(page)


def test_a_look_again_that_comes_after_a_move_does_not_undo_it(page: Page) -> None:
    """A tab coming back to the front asks for its game again (another tab may have played it
    on): an answer that comes once a move was made here is from before that move, and is
    dropped; the move stays on the board."""
    _start(page, "beginner", 4, 4)
    game = page.get_attribute("#board", "data-game")
    _hold(page, f"/api/games/{game}?lang")
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    _held(page)
    x, y = _first_covered(page)
    page.click(_cell(page, "board", x, y), button="right")
    _wait_move(page, 1)
    _release(page)
    assert _moves(page) == 2
    assert page.get_attribute(_cell(page, "board", x, y), "data-state") == "flag"


@pytest.mark.parametrize("refused", [False, True], ids=["answered", "refused"])
def test_a_hint_worded_again_after_a_move_is_not_shown(page: Page, refused: bool) -> None:
    """At a change of language the hint shown is asked again in the new one: its answer (or
    its refusal) that comes once a move changed the board is for the board before, and is not
    shown."""
    _start(page, "beginner", 4, 4)
    page.click("#hint")
    page.wait_for_selector("#board .premise")
    _hold_at_language(page, "/hint?", "fr", refused)
    page.click(_cell(page, "board", *_first_covered(page)), button="right")
    _wait_move(page, 1)
    _release(page)
    assert page.locator("#board .premise").count() == 0
    assert page.is_hidden("#message")


def test_the_tutors_words_worded_again_after_a_move_are_not_shown(page: Page, store: Store) -> None:
    """The Tutor's word, asked again at a change of language, that comes once a move changed
    the board is for the board before, and is not shown."""
    _lucky_guess(page, store)
    assert page.locator("#message.tutor").count() == 1
    _hold_at_language(page, "/tutor?", "fr")
    page.click(_cell(page, "board", *_first_covered(page)), button="right")
    _wait_move(page, 2)
    _release(page)
    assert page.locator("#board .premise, #board .hint-safe, #board .hint-mine").count() == 0
    assert page.is_hidden("#message")


@pytest.mark.parametrize("refused", [False, True], ids=["answered", "refused"])
def test_a_lost_game_worded_again_does_not_come_back_over_a_new_game(
    page: Page, store: Store, refused: bool
) -> None:
    """At a change of language a lost game is asked again, its post-mortem worded in the new
    one: that answer (or its refusal), come once a new game was started, is not shown."""
    _, layout = _small_game(page, store)
    fatal = next(c for c in covered(_view(page)) if layout.is_mine(layout.board.index(*c)))
    page.click(_cell(page, "board", *fatal))
    _wait_move(page, 1)
    lost = page.get_attribute("#board", "data-game")
    assert page.get_attribute("#board", "data-game-state") == "lost"
    _hold_at_language(page, f"/api/games/{lost}?lang", "fr", refused)
    _new_game(page, "beginner")
    _release(page)
    assert page.get_attribute("#board", "data-game") != lost
    assert page.get_attribute("#board", "data-game-state") == "new"
    assert page.is_hidden("#message")


def _analysis_words(page: Page, text: str, lang: str) -> str:
    """Return the words the Analysis view shows for the position ``text`` in ``lang``: its
    label (the page's words, the count grouped as the browser groups digits in ``lang``) over
    its hint (the server's label and text in a row, ``labelled``)."""
    found = analyze_text(text, None, False, lang, MAX_SIDE)
    a, h = found["analysis"], found["hint"]
    assert len(a["arrangements"]) <= 15  # shown in full
    group = "([n, lang]) => new Intl.NumberFormat(lang).format(n)"
    count = page.evaluate(group, [int(a["arrangements"]), lang])
    words = page_strings(lang)["arrangements"]
    label = words.format(n=count, safe=len(a["safe"]), mine=len(a["mine"]))
    return f"{label}\n{h['labelled']}"


def test_an_analysis_awaited_at_a_language_switch_is_shown_in_the_new_language(
    page: Page,
) -> None:
    """The analysis's hint is worded by the server in the language it was asked in: one
    awaited when the language changes is asked again in the new one, for the same position (an
    edit, or a paste, which is not lost)."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")  # the empty 8x8 board
    _hold(page, "/api/analyze", "8x8x10\n0H")
    with page.expect_response(lambda r: "/api/analyze" in r.url) as reply:
        page.click(_cell(page, "editor", 0, 0))  # A1 covered -> 0
    _held(page)
    # The views are told of the new language in the task that loaded its strings, before
    # `lang` can be seen changed here.
    page.select_option("#lang", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    _release(page)
    page.wait_for_selector("#analysis-result[data-state=ok]")
    sent = reply.value.request.post_data_json
    assert sent is not None
    assert page.inner_text("#analysis-result") == _analysis_words(page, sent["text"], "fr")
    assert page.get_attribute(_cell(page, "editor", 0, 0), "data-state") == "open"
    # A paste: the position shown is the one before until its answer comes.
    pasted = "4x3x3\n001H\n112H\nHHHH\n"
    page.fill("#paste", pasted)
    _hold(page, "/api/analyze", "4x3x3")
    page.click("#load-paste")
    _held(page)
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    _release(page)
    page.wait_for_selector("#analysis-result[data-state=ok]")
    assert page.inner_text("#analysis-result") == _analysis_words(page, pasted, "de")
    assert page.locator("#editor .cell").count() == 12


def test_a_review_that_comes_late_does_not_replace_the_one_chosen_after_it(
    page: Page, store: Store
) -> None:
    """Only the review of what was chosen last is shown: the review of a game, come after the
    one of a file chosen since, is dropped; until its review comes, the one shown before is
    marked as stale."""
    _, layout = _small_game(page, store)
    view = _view(page)
    fatal = next(c for c in covered(view) if layout.is_mine(layout.board.index(*c)))
    page.click(_cell(page, "board", *fatal))
    _wait_move(page, 1)
    _hold(page, "/review?")
    page.click("#tab-review")  # the last game's review, asked and held
    _held(page)
    page.set_input_files("#replay-file", str(REPLAYS / "beginner-15s.avf"))
    page.wait_for_function(
        "document.querySelector('#review-summary').innerText.includes('Game won')"
    )
    _release(page)
    assert "Game won" in page.inner_text("#review-summary")
    assert page.locator("#review-board .cell").count() == 64
    assert page.get_attribute("#review-summary", "aria-busy") == "false"
    # Another file: the review shown is not its own until its answer comes.
    _hold(page, "/api/review")
    page.set_input_files("#replay-file", str(REPLAYS / "custom-8x11-7.avf"))
    _held(page)
    assert page.get_attribute("#review-summary", "data-state") == "pending"
    assert page.get_attribute("#review-summary", "aria-busy") == "true"
    _release(page)
    assert page.locator("#review-board .cell").count() == 88
    assert page.get_attribute("#review-summary", "aria-busy") == "false"
    assert page.get_attribute("#review-summary", "data-state") is None


HOLD_READ = """() => {
  // The next file the page reads (as a data: URL), from now on, is read whole, then its end
  // kept from the page until window.release() hands it over: the page has taken it in before
  // the test's next step (as HOLD does for an answer). The reads after it pass.
  const read = FileReader.prototype.readAsDataURL;
  let held = false;
  delete window.release;
  FileReader.prototype.readAsDataURL = function (file) {
    if (held) return read.call(this, file);
    held = true;
    const reader = this;
    const real = new FileReader();
    real.onload = () => {
      Object.defineProperty(reader, "result", { value: real.result });
      window.release = () => reader.onload();
    };
    read.call(real, file);
  };
}"""


def test_of_two_files_picked_quickly_the_last_is_reviewed(page: Page) -> None:
    """A file is read before its review is asked: a file picked while the one before is still
    being read is the one reviewed, whenever that reading ends."""
    page.click("#tab-review")
    page.evaluate(HOLD_READ)
    page.set_input_files("#replay-file", str(REPLAYS / "custom-8x11-7.avf"))
    _held(page)  # read, and kept from the page
    page.set_input_files("#replay-file", str(REPLAYS / "beginner-15s.avf"))
    page.wait_for_function(
        "document.querySelector('#review-summary').innerText.includes('Game won')"
        " && document.querySelector('#review-summary').getAttribute('aria-busy') === 'false'"
    )
    _release(page)
    assert page.get_attribute("#review-summary", "aria-busy") == "false"
    assert page.locator("#review-board .cell").count() == 64


def test_a_file_larger_than_the_server_reads_is_refused_before_it_is_sent(page: Page) -> None:
    """A replay file over the server's limit is refused in the page, in the page's words, and
    the review shown before it goes."""
    page.click("#tab-review")
    page.set_input_files("#replay-file", str(REPLAYS / "beginner-15s.avf"))
    page.wait_for_function(
        "document.querySelector('#review-summary').innerText.includes('Game won')"
    )
    size = page.evaluate("fetch('/api/meta').then((r) => r.json())")["max_upload"]
    big = FilePayload(name="big.avf", mimeType="application/octet-stream", buffer=bytes(size + 1))
    page.set_input_files("#replay-file", files=[big])
    refusal = page_strings("en")["error_upload_size"].format(size=size // 1000)
    page.wait_for_function(f"document.querySelector('#review-summary').innerText === {refusal!r}")
    assert page.get_attribute("#review-summary", "aria-busy") == "false"
    assert not page.is_visible("#review-board")
    # A change of language words what was chosen last again: still the refusal.
    page.select_option("#lang", "de")
    refusal = page_strings("de")["error_upload_size"].format(size=size // 1000)
    page.wait_for_function(f"document.querySelector('#review-summary').innerText === {refusal!r}")
    assert not page.is_visible("#review-board")


def test_a_review_is_stepped_through_while_another_loads_then_replaced_from_its_start(
    page: Page,
) -> None:
    """While the review of another file is awaited, the review shown goes on from the step it
    shows (its board, counter and words agree); the new one, when it comes, replaces it from
    its start."""
    page.click("#tab-review")
    page.set_input_files("#replay-file", str(REPLAYS / "beginner-15s.avf"))
    page.wait_for_function(
        "document.querySelector('#review-summary').innerText.includes('Game won')"
    )
    for _ in range(3):
        page.click("#step-next")
    assert page.get_attribute("#review-board", "data-step") == "3"
    _hold(page, "/api/review")
    page.set_input_files("#replay-file", str(REPLAYS / "custom-8x11-7.avf"))
    _held(page)
    assert page.get_attribute("#review-summary", "aria-busy") == "true"
    page.click("#step-next")
    assert page.get_attribute("#review-board", "data-step") == "4"
    assert page.input_value("#step") == "4"
    assert page.inner_text("#review-click").startswith("#4")
    assert page.locator("#review-board .cell").count() == 64
    _release(page)
    assert page.get_attribute("#review-summary", "aria-busy") == "false"
    assert page.locator("#review-board .cell").count() == 88
    assert page.get_attribute("#review-board", "data-step") == "0"
    assert page.inner_text("#review-click") == ""
    # The same review again, in another language: it keeps the step shown when it comes, one
    # taken meanwhile too.
    page.click("#step-next")
    _hold(page, "/api/review")
    page.select_option("#lang", "de")
    _held(page)
    page.click("#step-next")
    _release(page)
    assert page.inner_text("#review-summary").startswith(page_strings("de")["review"])
    assert page.get_attribute("#review-summary", "aria-busy") == "false"
    assert page.get_attribute("#review-board", "data-step") == "2"
    assert page.locator("#review-board .cell").count() == 88


# --- the second new-user review: each defect fixed with this test ----------------------------


def test_the_boxes_are_kept_from_visit_to_visit(page: Page) -> None:
    """Guess-free board, like the other settings of a new game, is kept when a game is made;
    Probabilities and Tutor when they change (before, a reload ticked Guess-free and Tutor again
    and unticked Probabilities)."""
    page.set_checked("#tutor", False)
    page.set_checked("#show-probabilities", True)
    _new_game(page, "beginner", guess_free=False)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert not page.is_checked("#guess-free")
    assert not page.is_checked("#tutor")
    assert page.is_checked("#show-probabilities")
    # Ticked again, they are kept ticked.
    page.set_checked("#tutor", True)
    page.set_checked("#show-probabilities", False)
    _new_game(page, "beginner", guess_free=True)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_checked("#guess-free") and page.is_checked("#tutor")
    assert not page.is_checked("#show-probabilities")


def test_a_game_opened_by_its_address_shows_its_settings(open_page: Opened, page: Page) -> None:
    """In a browser that kept no settings, the settings row above a game opened by its address
    tells that game: its level (not Beginner above a 16x16 board), size, kind of board, technique
    and rules."""
    page.select_option("#technique", "gentle")
    page.set_checked("#strict", True)
    _new_game(page, "intermediate")
    game = page.get_attribute("#board", "data-game")
    other = open_page(path=f"?game={game}")
    assert other.input_value("#level") == "intermediate"
    assert other.input_value("#technique") == "gentle"
    assert other.is_checked("#guess-free") and other.is_checked("#strict")
    assert not other.is_checked("#punish") and not other.is_checked("#gentle-start")
    _custom_size(page, 7, 6, 5)
    page.set_checked("#strict", False)
    page.set_checked("#punish", True)
    _new_game(page, "custom", guess_free=False)
    game = page.get_attribute("#board", "data-game")
    other = open_page(path=f"?game={game}")
    assert other.input_value("#level") == "custom" and other.is_visible("#custom-size")
    sizes = [other.input_value(f"#custom-{k}") for k in ("width", "height", "mines")]
    assert sizes == ["7", "6", "5"]
    assert not other.is_checked("#guess-free") and other.is_disabled("#technique")
    assert other.is_checked("#punish") and not other.is_checked("#strict")


def test_a_board_the_first_click_would_fill_is_refused_in_the_players_words(page: Page) -> None:
    """A 3x3 board (both sides 3 or less) has no cell left for a mine once the first click
    opens the cells around it: the page says so and what to change, in the language chosen
    (it once said only "The server answered with error 400")."""
    _custom_size(page, 3, 3, 1)
    page.click("#new")
    page.wait_for_selector("#message.error")
    assert page.inner_text("#message") == page_strings("en")["error_board_small"]
    assert "at least 4" in page.inner_text("#message")
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    _custom_size(page, 2, 3, 1)
    page.click("#new")
    german = page_strings("de")["error_board_small"]
    page.wait_for_function(f"document.querySelector('#message').innerText === {german!r}")
    # An error the page has no words of its own for: the server's message, not only its status.
    answer = json.dumps({"error": "a reason the page never words", "kind": "request"})
    page.route("**/api/games", lambda route: route.fulfill(status=400, body=answer))
    _custom_size(page, 8, 8, 10)
    page.click("#new")
    said = page_strings("de")["error_other_said"].format(
        status=400, message="a reason the page never words"
    )
    page.wait_for_function(f"document.querySelector('#message').innerText === {said!r}")


def test_a_paste_too_big_says_the_limit_and_the_verdict_comes_into_view(page: Page) -> None:
    """A pasted position with a side over the board's 100, or a text longer than the server
    reads, is refused with the limit in the player's words; and the verdict on a paste, below
    a tall board, is scrolled into view (it once stayed out of sight under the board)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    tall = "40x40x100\n" + "000" + "H" * 37 + "\n" + ("H" * 40 + "\n") * 39
    page.fill("#paste", tall)
    page.click("#load-paste")
    page.wait_for_selector(_cell(page, "editor", 39, 39))
    page.wait_for_selector("#analysis-result[data-state=ok]")
    in_view = """() => {
      const r = document.querySelector('#analysis-result').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }"""
    page.wait_for_function(in_view)
    wide = f"{MAX_SIDE + 1}x1x1\n" + "H" * (MAX_SIDE + 1) + "\n"
    page.fill("#paste", wide)
    page.click("#load-paste")
    page.wait_for_selector("#analysis-result[data-state=error]")
    words = page_strings("en")["error_paste_side"].format(hi=MAX_SIDE)
    assert page.inner_text("#analysis-result") == words
    page.wait_for_function(in_view)
    page.fill("#paste", "H" * (MAX_TEXT + 1))
    page.click("#load-paste")
    longer = page_strings("en")["error_paste_long"].format(hi=MAX_TEXT)
    page.wait_for_function(f"document.querySelector('#analysis-result').innerText === {longer!r}")


@pytest.mark.parametrize("mines", ["0", "-3", "2.5"])
def test_a_refused_new_game_is_no_longer_said_once_its_settings_change(
    page: Page, mines: str
) -> None:
    """The server's refusal of a new game's settings goes when they change, and stays gone when
    the browser's own checks refuse the next ones (no request is sent: the old words stayed)."""
    _custom_size(page, 5, 5, 25)
    page.click("#new")
    page.wait_for_selector("#message.error")
    assert page.inner_text("#message") == "Mines: choose a number from 1 to 16."
    page.fill("#custom-width", "8")
    page.fill("#custom-height", "8")
    page.fill("#custom-mines", mines)
    page.click("#new")
    assert page.evaluate("document.querySelector('#custom-mines').validity.valid") is False
    assert page.is_hidden("#message")


@pytest.mark.parametrize("strings", [True, False])
def test_a_page_that_cannot_start_says_the_server_is_out_of_reach(
    browser: Browser, base_url: str, strings: bool
) -> None:
    """When the server cannot be reached at the start the page says so, in the player's
    language if the server still gives its words, else in English: never the browser's own
    'Failed to fetch'."""
    context = browser.new_context(locale="fr-FR", bypass_csp=True)
    try:
        page = context.new_page()
        page.route("**/api/meta", lambda route: route.abort())
        if not strings:
            page.route("**/api/strings*", lambda route: route.abort())
        page.goto(base_url)
        page.wait_for_selector("#page-error:not([hidden])")
        lang = "fr" if strings else "en"
        page.wait_for_function(
            "(text) => document.querySelector('#page-error').innerText === text",
            arg=page_strings(lang)["error_offline"],
        )
    finally:
        context.close()


def test_a_language_that_cannot_be_loaded_is_said_and_the_menu_keeps_the_one_shown(
    page: Page,
) -> None:
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.route("**/api/strings?lang=fr", lambda route: route.abort())
    page.select_option("#lang", "fr")
    page.wait_for_selector("#page-error:not([hidden])")
    de = page_strings("de")
    assert page.inner_text("#page-error") == (
        de["error_language"].format(language="Français") + " " + de["error_offline"]
    )
    assert page.input_value("#lang") == "de"
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.inner_text("#tab-play") == de["play"]
    # Once the server gives the words again, the language changes and the words go.
    page.unroute("**/api/strings?lang=fr")
    page.select_option("#lang", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.is_hidden("#page-error")


def test_a_slow_move_shows_the_board_busy(page: Page) -> None:
    """A move awaited is said at once to screen readers (aria-busy), and shown on the board
    when it takes more than a moment (as a slow first click shows its progress)."""
    _start(page, "beginner", 4, 4)
    _stop_the_clock(page)
    assert page.get_attribute("#board", "aria-busy") == "false"
    x, y = _first_covered(page)
    _hold(page, "/open")
    page.click(_cell(page, "board", x, y))
    _held(page)
    assert page.get_attribute("#board", "aria-busy") == "true"
    assert page.get_attribute("#board", "data-slow") is None  # not within a moment
    page.clock.run_for(400)
    page.wait_for_selector("#board[data-slow]")
    assert page.evaluate("getComputedStyle(document.querySelector('#board')).opacity") != "1"
    _release(page)
    page.wait_for_function("document.querySelector('#board').getAttribute('aria-busy') === 'false'")
    assert page.get_attribute("#board", "data-slow") is None


OUTLINE_SEEN = """(board) => {
  // Where the outline of the focused board is drawn (by it or by its window), and whether an
  // element that clips what overflows it (the board's scrolling window) cuts it off.
  const drawn = [board, board.parentElement].find((e) => {
    const style = getComputedStyle(e);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  });
  if (!drawn) return 'no outline';
  const style = getComputedStyle(drawn);
  const out = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
  const r = drawn.getBoundingClientRect();
  for (let a = drawn.parentElement; a; a = a.parentElement) {
    const clip = getComputedStyle(a);
    if (clip.overflowX === 'visible' && clip.overflowY === 'visible') continue;
    const c = a.getBoundingClientRect();
    if (r.left - out < c.left || r.top - out < c.top || r.right + out > c.right
        || r.bottom + out > c.bottom) return 'clipped by ' + a.className;
  }
  return 'seen';
}"""


def test_the_board_reached_by_the_keyboard_shows_its_focus_and_cursor(page: Page) -> None:
    """Tab onto the board: its focus outline is drawn where nothing clips it (the board's own
    was cut off by its scrolling window, the same size), and the cursor cell shows where the
    keys act; a click on the board shows no cursor."""
    _start(page, "beginner", 4, 4)
    assert page.locator("#board .cursor").count() == 0
    page.focus("#play .zoom-fit")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "board"
    assert page.evaluate(OUTLINE_SEEN, page.query_selector("#board")) == "seen"
    cursor = page.locator("#board .cursor")
    assert cursor.count() == 1
    x = int(cursor.get_attribute("data-x") or 0)
    page.keyboard.press("ArrowLeft")
    assert cursor.get_attribute("data-x") == str(x - 1)
    # Focused by a click, the board shows no cursor.
    page.focus("#hint")
    page.click(_cell(page, "board", 4, 4))
    assert page.evaluate("document.activeElement.id") == "board"
    assert cursor.count() == 0


def test_the_counters_are_read_but_never_announced(page: Page) -> None:
    """The clock and the mine counter are no live regions (an <output> is one, role status, so
    the clock could be announced every second): they are read where they stand."""
    _start(page, "beginner", 4, 4)
    live = page.get_by_role("status").or_(page.locator("[aria-live]:not([aria-live=off])"))
    for counter in ("#timer", "#mines-left"):
        assert page.locator(counter).and_(live).count() == 0
        assert live.filter(has=page.locator(counter)).count() == 0
    left = page.inner_text("#mines-left")
    assert f"Mines left {left}" in page.locator(".status").aria_snapshot()


def _name(x: int, y: int) -> str:
    return f"{chr(65 + x)}{y + 1}"


@pytest.mark.parametrize("end", ["mine", "flag", "won"])
def test_the_end_of_a_game_is_announced_as_such(page: Page, store: Store, end: str) -> None:
    """A loss is announced as a loss (it was announced as a cell opened, 'Cells uncovered: 0'),
    a win as a win, in the page's language."""
    _, layout = _small_game(page, store, strict=end == "flag")
    page.select_option("#lang", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    fr = page_strings("fr")
    cells = covered(_view(page))
    mines = [c for c in cells if layout.is_mine(layout.board.index(*c))]
    safe = [c for c in cells if c not in mines]
    if end == "mine":
        page.click(_cell(page, "board", *mines[0]))
        expected = fr["announce_lost"].format(cell=_name(*mines[0]))
    elif end == "flag":
        page.click(_cell(page, "board", *safe[0]), button="right")
        expected = fr["announce_lost_flag"].format(cell=_name(*safe[0]))
    else:
        for cell in safe:
            if page.get_attribute(_cell(page, "board", *cell), "data-state") == "covered":
                before = _moves(page)
                page.click(_cell(page, "board", *cell))
                _wait_move(page, before)
        time = page.evaluate(
            "new Intl.NumberFormat('fr', { minimumFractionDigits: 1, maximumFractionDigits: 1, "
            f"useGrouping: false }}).format({_view(page)['elapsed']})"
        )
        expected = f"{fr['won_short']} {fr['won_message'].format(time=time)}"
    page.wait_for_function("document.querySelector('#board').dataset.gameState !== 'playing'")
    assert page.get_attribute("#board", "data-game-state") == ("won" if end == "won" else "lost")
    assert page.inner_text("#announce") == expected


def test_a_gentler_start_announces_the_mines_it_flagged(page: Page) -> None:
    page.set_checked("#gentle-start", True)
    for _ in range(5):  # two rounds of forced moves that flag no mine say nothing of flags
        _start(page, "intermediate", 8, 8)
        flags = page.locator("#board .cell[data-state=flag]").count()
        if flags:
            break
    opened = page.locator("#board .cell[data-state=open]").count()
    assert flags > 0, "two rounds of forced moves flagged no mine, five times"
    assert page.inner_text("#announce") == (
        f"I9 opened. Cells uncovered: {opened}. Mines flagged for you: {flags}."
    )


SMALL_TARGETS = """(root) => {
  // The controls under `root` shown smaller than 44x44 CSS px (a check box counts by its
  // label, which a tap on it toggles too), by id, class or text, with their size.
  const small = [];
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  for (const e of root.querySelectorAll('button, select, input, textarea, [role=tab]')) {
    if (!shown(e)) continue;
    // A check box is tapped by its label, a file picker (hidden) by the button its label draws.
    const target = e.type === 'checkbox' || e.type === 'radio' ? e.closest('label') || e
      : e.type === 'file' ? e.closest('label').querySelector('.file-button') : e;
    const r = target.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) {
      const name = e.id || e.className || e.textContent.trim();
      small.push(`${name}: ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""


def test_every_control_is_a_large_enough_touch_target_on_a_phone(
    open_page: Opened, phone: Page, page: Page
) -> None:
    """On a touch screen every control is at least 44x44 CSS px (the zoom buttons were 38x27,
    Hint and New game 31 px tall), and the review's step buttons stay on one row; a desktop
    keeps its smaller controls."""
    _start(phone, "beginner", 4, 4)
    assert phone.evaluate(SMALL_TARGETS, phone.query_selector("body")) == []
    phone.tap("#tab-analysis")
    assert phone.evaluate(SMALL_TARGETS, phone.query_selector("body")) == []
    phone.tap("#tab-review")
    phone.set_input_files("#replay-file", str(REPLAYS / "beginner-15s.avf"))
    phone.wait_for_selector("#review-steps:not([hidden])")
    assert phone.evaluate(SMALL_TARGETS, phone.query_selector("body")) == []
    boxes = [
        phone.locator(f"#{name}").bounding_box()
        for name in ("step-first", "step-prev", "step", "step-next", "step-last")
    ]
    assert all(box is not None for box in boxes)
    tops = {round(box["y"] + box["height"] / 2) for box in boxes if box}
    assert len(tops) == 1, "the step buttons are split over two rows"
    assert all(box["x"] + box["width"] <= 390 for box in boxes if box)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # A mouse points more finely: the desktop's buttons keep their size.
    assert (page.locator("#hint").bounding_box() or {"height": 0})["height"] < 40


def _first_hint(page: Page, seeds: Seeds, seed: str) -> JSON:
    """Start a random beginner game drawn from ``seed``, open E5, press Hint and return the
    hint the server gave."""
    seeds.queued.append(seed)
    _new_game(page, "beginner", guess_free=False)
    page.click(_cell(page, "board", 4, 4))
    _wait_move(page, 0)
    with page.expect_response(lambda r: "/hint" in r.url) as reply:
        page.click("#hint")
    data: JSON = reply.value.json()
    return data


def test_a_hint_that_ends_in_a_guess_says_so_from_its_first_stage(page: Page, seeds: Seeds) -> None:
    """A hint whose steps prove only mines does not claim at its first stage that they prove
    the next move: they prove mines, then a guess comes."""
    data = _first_hint(page, seeds, _only_mines_seed())
    assert data["guess_text"] and not data["steps"][-1]["safe"]
    page.wait_for_selector("#message[data-stage='1']")
    words = page_strings("en")
    assert page.inner_text("#message").endswith(
        f"{words['hint_look_guess']} {words['hint_again_reason']}"
    )
    assert words["hint_look"] not in page.inner_text("#message")
    page.click("#hint")
    page.click("#hint")
    page.wait_for_selector("#message[data-stage='3']")
    assert page.locator("#message .line").all_inner_texts()[-1] == data["guess_text"]


def _chain_seed() -> str:
    """Return a seed whose random beginner board, opened at E5, has a hint of two steps or more
    (mines first, then a safe cell)."""
    for k in range(2_000):
        seed = f"chain-{k}"
        game = Game(Layout(Board(9, 9), first_layout(9, 9, 10, False, seed, 4, 4)[0]))
        game.reveal(4, 4)
        if not game.is_over and len(hint(game.position(), "en")["steps"]) >= 2:
            return seed
    pytest.fail("no seed gives a beginner board whose first hint has two steps")


def test_each_step_of_a_hint_is_a_line_led_once_by_its_label(page: Page, seeds: Seeds) -> None:
    """The steps of a hint are not run together, a later step's level label in the middle of the
    text ('... are mines. Level 1 (one clue): With F2 ...'): each is a line of its own, a later
    one led by its label, as the command line prints them."""
    steps = _first_hint(page, seeds, _chain_seed())["steps"]
    page.click("#hint")
    page.wait_for_selector("#message[data-stage='2']")
    lines = page.locator("#message .line").all_inner_texts()
    shown = [steps[0]["text"], *(f"{s['label']} {s['text']}" for s in steps[1:])]
    assert lines == [*shown, page_strings("en")["hint_again_move"]]
    page.click("#hint")
    page.wait_for_selector("#message[data-stage='3']")
    assert page.locator("#message .line").all_inner_texts() == shown


def test_backspace_is_listed_with_what_it_does(page: Page) -> None:
    """Backspace flags and unflags as F does; the keys under the board list it, in the page's
    language."""
    _start(page, "beginner", 4, 4)
    x, y = _first_covered(page)
    page.focus("#board")
    for _ in range(abs(x - 4)):
        page.keyboard.press("ArrowLeft" if x < 4 else "ArrowRight")
    for _ in range(abs(y - 4)):
        page.keyboard.press("ArrowUp" if y < 4 else "ArrowDown")
    page.keyboard.press("Backspace")
    _wait_move(page, 1)
    assert page.get_attribute(_cell(page, "board", x, y), "data-state") == "flag"
    page.keyboard.press("Backspace")
    _wait_move(page, 2)
    assert page.get_attribute(_cell(page, "board", x, y), "data-state") == "covered"
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    de = page_strings("de")
    row = page.locator("#keys dt", has_text=de["key_backspace"])
    assert row.locator("kbd").all_inner_texts() == ["F", de["key_backspace"]]
    assert row.evaluate("(dt) => dt.nextElementSibling.innerText") == de["key_flag"]


# --- zoom, pasted positions, format errors, custom size on a phone --------------------------


def _cell_px(page: Page, board: str = "board") -> int:
    """The size of the cells of ``board`` now, in CSS px."""
    return int(
        page.eval_on_selector(
            f"#{board}", "(b) => parseInt(getComputedStyle(b).getPropertyValue('--cell'))"
        )
    )


def test_fit_fills_the_room_again_from_a_board_zoomed_out(page: Page) -> None:
    """The fit button and the 0 key make the board fill the room it has, from any zoom: zoomed
    out, they once left it small (the fit measured the board's window, which had shrunk with
    the board), on a beginner board as on an expert one."""
    _new_game(page, "expert")
    page.click("#play .zoom-fit")
    fitted = _cell_px(page)
    assert fitted >= 28
    for _ in range(3):
        page.click("#play .zoom-out")
    assert _cell_px(page) < fitted * 0.6
    page.click("#play .zoom-fit")
    assert _cell_px(page) == fitted
    for _ in range(6):
        page.click("#play .zoom-out")
    assert _cell_px(page) == 8
    page.focus("#board")
    page.keyboard.press("0")
    assert _cell_px(page) == fitted
    assert page.evaluate(IN_VIEW, [[0, 0], [29, 15]]) == []
    _new_game(page, "beginner")
    page.click("#play .zoom-fit")
    # 9x9 cells have the room for the largest cells on a 1280x800 screen.
    assert _cell_px(page) == 48


def test_a_paste_refused_as_unreadable_leaves_the_board_shown_to_analyse(page: Page) -> None:
    """A text that is no position cannot be mended by a mine total: a change of the total
    analyses the board on screen again (it sent the unreadable text again, and said so again)."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")  # the empty 8x8 board, 10 mines
    page.fill("#paste", "4x3x3\n01HH\n13HH\n")  # a row short of its header
    page.click("#load-paste")
    page.wait_for_selector("#analysis-result[data-state=error]")
    page.fill("#edit-mines", "3")
    with page.expect_request(lambda r: "/api/analyze" in r.url) as asked:
        page.dispatch_event("#edit-mines", "change")
    sent = asked.value.post_data_json
    assert sent is not None and sent["text"].startswith("8x8x3\n")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    assert page.locator("#editor .cell").count() == 64


@pytest.mark.parametrize(
    "pasted", ["[[1,10,1],[1,1,1]]", "3x2x5\n1H1\n111\n"], ids=["grid", "text"]
)
def test_a_paste_refused_for_its_mine_total_is_analysed_once_the_total_is_changed(
    page: Page, pasted: str
) -> None:
    """A pasted position refused for its mine total (a grid takes the field's, a text may say
    too many) is the one analysed once the Mine total is changed, as the refusal asks: the page
    once analysed the board it showed before instead, the empty 8x8 one, without a word."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")  # the empty 8x8 board, 10 mines
    page.fill("#paste", pasted)
    page.click("#load-paste")
    _result_is(page, "Mine total: choose a number from 0 to 1.")
    assert page.locator("#editor .cell").count() == 64
    page.fill("#edit-mines", "1")
    with page.expect_request(lambda r: "/api/analyze" in r.url) as asked:
        page.dispatch_event("#edit-mines", "change")
    sent = asked.value.post_data_json
    assert sent is not None and sent["text"] == pasted
    page.wait_for_selector("#analysis-result[data-state=ok]")
    assert page.inner_text("#analysis-result").startswith("Arrangements: 1.")
    assert page.locator("#editor .cell").count() == 6
    assert [page.input_value(f"#edit-{k}") for k in ("width", "height", "mines")] == ["3", "2", "1"]
    assert _marked(page, "hint-mine", "editor") == {(1, 0)}


def test_a_text_that_is_no_position_is_refused_in_the_pages_language(page: Page) -> None:
    """The page's words for a text it cannot read are followed by what is wrong in it, in the
    page's language (the server names the reason, the page words it), and name a column only
    where the server gives one: the page once said "Line 3, column 1" for a missing last row,
    and never why; then it said why in English only (and then, in Japanese, with a space
    after the page's full stop)."""
    page.click("#tab-analysis")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    for lang in ("en", "de", "ja"):
        words = page_strings(lang)
        gap = "" if lang == "ja" else " "  # none after a Japanese full stop
        if lang != "en":
            page.select_option("#lang", lang)
            page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        at = words["error_format_at"].format(line=2, column=3)
        refused = {
            "4x3x3\n01HH\n13HH\n": words["format_row_count"].format(expected=3, found=2),
            "4x3x3\n01H\n13HH\nHHHH\n": words["format_row_length"].format(
                row=1, found=3, expected=4
            ),
            "01HH\n13HH\nHHHH\n": words["format_not_a_position"],
            "300x1x3\nH\n": words["format_size_range"],
            "[[1, 10], [1]]": words["format_grid_row_length"].format(row=2, found=1, expected=2),
            "[[1, 10], [9, 10]]": words["format_grid_value"].format(row=2, column=1, value=9),
            "[[1, 10], {}]": words["format_grid_shape"],
        }
        for text, reason in refused.items():
            page.fill("#paste", text)
            page.click("#load-paste")
            _result_is(page, f"{words['error_format']}{gap}{reason}")
        page.fill("#paste", "4x3x3\n01?H\n13HH\nHHHH\n")
        page.click("#load-paste")
        _result_is(page, f"{at}{gap}{words['format_cell_code'].format(code='?')}")
        page.fill("#paste", "[[1, 10]\n [1, 11]]")
        page.click("#load-paste")
        at_json = words["error_format_at"].format(line=2, column=2)
        _result_is(page, f"{at_json}{gap}{words['format_json']}")
    # A message shown follows the language: it is worded again from the reason.
    page.fill("#paste", "4x3x3\n01HH\n13HH\n")
    page.click("#load-paste")
    japanese = page_strings("ja")
    _result_is(
        page, japanese["error_format"] + japanese["format_row_count"].format(expected=3, found=2)
    )
    page.select_option("#lang", "fr")
    french = page_strings("fr")
    _result_is(
        page,
        f"{french['error_format']} {french['format_row_count'].format(expected=3, found=2)}",
    )


def test_a_format_error_the_page_has_no_words_for_shows_the_servers(page: Page) -> None:
    """A format error without a reason the page words (none is made by the page's own
    requests; a future one) is shown with the server's message, as it said it."""
    page.route(
        "**/api/analyze",
        lambda route: route.fulfill(
            status=400,
            content_type="application/json",
            body=json.dumps(
                {
                    "error": "line 2: something new is wrong",
                    "kind": "format",
                    "line": 2,
                    "column": None,
                    "reason": "something-new",
                    "details": {},
                }
            ),
        ),
    )
    page.click("#tab-analysis")
    page.fill("#paste", "4x3x3\n01HH\n13HH\nHHHH\n")
    page.click("#load-paste")
    english = page_strings("en")
    _result_is(page, f"{english['error_format']} Line 2: something new is wrong")


LABELS_APART = """(where) => [...document.querySelectorAll(`${where} label`)]
  .filter((label) => label.querySelector('input[type=number]'))
  .flatMap((label) => {
    const words = label.querySelector('span').getBoundingClientRect();
    const box = label.querySelector('input').getBoundingClientRect();
    const middle = (words.top + words.bottom) / 2;
    const beside = middle > box.top && middle < box.bottom && words.right <= box.left;
    return beside ? [] : [label.innerText];
  })"""


def test_each_number_box_keeps_its_label_beside_it_on_a_phone(phone: Page) -> None:
    """On a 390x844 phone each label of a number box stays on the line of its box, in English,
    French and German: with Level Custom, "Mines" once went on the line above its box."""
    phone.select_option("#level", "custom")
    for lang in ("en", "fr", "de"):
        phone.select_option("#lang", lang)
        phone.wait_for_function(f"document.documentElement.lang === '{lang}'")
        phone.wait_for_function(
            f"document.querySelector('#custom-size [data-i18n=mines]').textContent"
            f" === {page_strings(lang)['mines']!r}"
        )
        assert phone.evaluate(LABELS_APART, "#custom-size") == [], lang
        phone.click("#tab-analysis")
        assert phone.evaluate(LABELS_APART, "#analysis") == [], lang
        phone.click("#tab-play")


def test_the_browser_s_own_words_are_the_page_s_language(page: Page) -> None:
    """The file picker ("Choose File", "No file chosen") and the checks of number fields
    ("Value must be less than or equal to 100.") were the browser's own, in its language, on a
    page set to another."""
    page.select_option("#lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    de = page_strings("de")
    page.click("#tab-review")
    assert page.inner_text(".file-button") == de["choose_file"] == "Datei wählen"
    assert page.inner_text("#replay-name") == de["no_file"]
    page.set_input_files("#replay-file", str(REPLAYS / "beginner-15s.avf"))
    page.wait_for_selector("#review-board[data-clicks]")
    assert page.inner_text("#replay-name") == "beginner-15s.avf"
    page.click("#tab-play")
    _custom_size(page, 300, 9, 10)
    page.click("#new")
    message = page.evaluate("document.querySelector('#custom-width').validationMessage")
    assert message == "Breite: Wähle eine Zahl von 2 bis 100."
    page.fill("#custom-width", "9")
    page.fill("#custom-mines", "0")
    page.click("#new")
    message = page.evaluate("document.querySelector('#custom-mines').validationMessage")
    assert message == de["error_at_least"].format(field=de["mines"], lo=1)
