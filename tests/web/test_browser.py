"""End to end in headless Chromium: the page played as a person plays it.

Debian's ``chromium`` driven by Playwright for Python. Outside CI the tests are skipped when
that browser is missing; in CI (``CI`` set, as ``.ci/run`` does) a missing browser fails.
Screenshots go to ``MINEPROOF_SCREENSHOTS`` when set, else to the test's temporary folder.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from mineproof.analysis import analyze
from mineproof.board import Board, Layout, iter_bits
from mineproof.game import Game
from mineproof.web import App, Games, Store
from mineproof.web.server import allowed_hosts, make_server, serve_in_thread

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


@pytest.fixture(scope="module")
def base_url(store: Store) -> Iterator[str]:
    server = make_server(App(Games(store), allowed_hosts("127.0.0.1")), "127.0.0.1", 0, True)
    stop = serve_in_thread(server)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    # The page's CSP forbids eval; Playwright's wait_for_function needs it, so tests bypass it.
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="en-US", bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base_url)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def _shot(page: Page, name: str, tmp_path: Path) -> Path:
    folder = Path(os.environ.get("MINEPROOF_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
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


def _new_game(page: Page, level: str, guess_free: bool = True) -> None:
    old = page.get_attribute("#board", "data-game")
    page.select_option("#level", level)
    page.set_checked("#guess-free", guess_free)
    page.click("#new")
    page.wait_for_function(f"document.querySelector('#board').dataset.game !== '{old}'")


def _start(page: Page, level: str, x: int, y: int) -> None:
    """Start a guess-free game at ``level`` and open ``(x, y)`` first."""
    _new_game(page, level)
    page.click(_cell(page, "board", x, y))
    _wait_move(page, 0)


def _play_with_hints(page: Page, width: int, height: int) -> int:
    """Open the centre, then only cells the hint proves safe (flagging proven mines by right
    click) until the game is won; return the number of hints used."""
    page.click(_cell(page, "board", width // 2, height // 2))
    _wait_move(page, 0)
    hints = 0
    while page.get_attribute("#board", "data-game-state") == "playing":
        before = _moves(page)
        page.click("#hint")
        page.wait_for_selector("#board .hint-safe, #board .hint-mine, #board .safest")
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
    page.click("#tab-stats")
    row = page.locator("#stats-table tbody tr", has_text=level.capitalize())
    page.wait_for_selector("#stats-table tbody tr")
    assert row.count() == 1
    assert row.locator("td").nth(3).inner_text() == "1"  # won


def test_a_player_who_never_flags_is_always_shown_a_cell_to_open(
    page: Page, tmp_path: Path
) -> None:
    """Hints in play lead to a click: when the first deductions prove only mines, the page shows
    every step (the mines marked) up to the one that proves a safe cell."""
    _new_game(page, "beginner")
    page.click(_cell(page, "board", 4, 4))
    _wait_move(page, 0)
    chains = 0
    while page.get_attribute("#board", "data-game-state") == "playing":
        before = _moves(page)
        with page.expect_response(lambda r: "/hint" in r.url) as reply:
            page.click("#hint")
        data = reply.value.json()
        page.wait_for_selector("#board .hint-safe")
        steps = data["steps"]
        assert steps and steps[-1]["safe"], "a hint in play leads to a cell to open"
        text = page.inner_text("#message")
        for step in steps:
            assert step["text"] in text
        for step in steps[:-1]:
            for x, y in step["mine"]:
                assert "hint-mine" in (
                    page.get_attribute(_cell(page, "board", x, y), "class") or ""
                )
        if len(steps) > 1:
            chains += 1
            if chains == 1:
                _shot(page, "hint-steps", tmp_path)
        x, y = steps[-1]["safe"][0]
        page.click(_cell(page, "board", x, y))
        _wait_move(page, before)
    assert page.get_attribute("#board", "data-game-state") == "won"
    assert chains > 0, "never flagging, some hint had to prove a mine first"


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
    covered = _cell(page, "board", *_first_covered(page))
    page.dispatch_event(covered, "pointerdown", {"pointerType": "touch", "bubbles": True})
    page.wait_for_timeout(700)
    page.dispatch_event(covered, "pointerup", {"pointerType": "touch", "bubbles": True})
    _wait_move(page, 1)
    assert page.get_attribute(covered, "data-state") == "flag"
    # A short touch does not flag (the press is cancelled before the delay).
    other = page.locator("#board .cell[data-state=covered]").nth(1)
    other.dispatch_event("pointerdown", {"pointerType": "touch", "bubbles": True})
    other.dispatch_event("pointerup", {"pointerType": "touch", "bubbles": True})
    page.wait_for_timeout(700)
    assert other.get_attribute("data-state") == "covered"
    assert _moves(page) == 2


def _first_covered(page: Page) -> tuple[int, int]:
    cell = page.locator("#board .cell[data-state=covered]").first
    return int(cell.get_attribute("data-x") or 0), int(cell.get_attribute("data-y") or 0)


def test_the_tutor_shows_the_forced_move_after_a_needless_guess(page: Page, store: Store) -> None:
    _start(page, "expert", 15, 8)
    row = store.load(page.get_attribute("#board", "data-game") or "")
    assert row is not None and row.layout is not None
    game = Game(Layout(Board(row.width, row.height), int(row.layout, 16)))
    for _, x, y in row.moves:
        game.reveal(x, y)
    analysis = analyze(game.position())
    assert analysis.safe_mask, "a guess-free board has a forced safe cell after the opening"
    # A covered cell that is safe in the hidden layout but not proven safe: a lucky guess.
    guess = next(
        i
        for i in iter_bits(game.position().covered_mask)
        if not game.layout.is_mine(i) and not analysis.safe_mask >> i & 1
    )
    page.click(_cell(page, "board", *game.board.xy(guess)))
    _wait_move(page, 1)
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
    page.click("#hint")
    page.wait_for_selector("#board .hint-safe, #board .hint-mine")
    english = page.inner_text("#message")
    page.select_option("#lang", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    page.wait_for_function(
        f"document.querySelector('#message').innerText !== {english!r}", timeout=10_000
    )
    assert page.inner_text("#hint") == "Indice"
    assert page.inner_text("#message").startswith("Niveau")
    _shot(page, "hint-fr", tmp_path)
    page.select_option("#lang", "ja")
    page.wait_for_function("document.documentElement.lang === 'ja'")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == "ja"  # kept across visits


def test_probabilities_show_on_every_covered_cell(page: Page, tmp_path: Path) -> None:
    _start(page, "expert", 15, 8)
    page.check("#show-probabilities")
    page.wait_for_selector("#board .cell .p")
    covered = page.locator("#board .cell[data-state=covered]").count()
    assert page.locator("#board .cell[data-state=covered] .p").count() == covered
    _shot(page, "probabilities", tmp_path)


def test_the_analysis_board_loads_edits_and_explains(page: Page, tmp_path: Path) -> None:
    page.click("#tab-analysis")
    page.fill("#paste", "4x3x3\n001H\n112H\nHHHH\n")
    page.click("#load-paste")
    page.wait_for_selector("#analysis-result[data-state=ok]")
    result = page.inner_text("#analysis-result")
    assert result.startswith("2 arrangements")
    # From the README: C3 and B3 safe, A3 and D3 mines, D1 and D2 at 50 %.
    assert "hint-safe" in (page.get_attribute(_cell(page, "editor", 1, 2), "class") or "")
    assert "hint-mine" in (page.get_attribute(_cell(page, "editor", 0, 2), "class") or "")
    assert page.inner_text(_cell(page, "editor", 3, 0)) == "50"
    _shot(page, "analysis", tmp_path)
    # Editing: a click cycles covered -> 0 ...; a 0 beside a forced mine is a contradiction.
    page.click(_cell(page, "editor", 0, 2))
    page.wait_for_selector("#analysis-result[data-state=error]")
    assert "no arrangement" in page.inner_text("#analysis-result")
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
