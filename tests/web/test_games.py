"""The games service without HTTP: sizes, the first click, moves, errors, the clock, restarts
and many threads on one game."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from mineproof.board import Board, Layout
from mineproof.errors import ArgumentError, GameOverError, IllegalMoveError, TooComplexError
from mineproof.generate import GenerationError
from mineproof.logic import solve
from mineproof.position import COVERED, FLAG
from mineproof.web.games import LEVELS, MAX_SIDE, GameNotFound, Games, Runner, check_size
from mineproof.web.pool import PoolFull
from mineproof.web.store import Store
from mineproof.web.work import Job

from .conftest import JSON, VIEW_KEYS, Clock, check_view, counted_seeds, covered, position_of


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "data")


@pytest.fixture
def games(store: Store, clock: Clock) -> Games:
    return Games(store, clock=clock, seeds=counted_seeds())


def _layout(games: Games, store: Store, game_id: str) -> tuple[Board, int]:
    row = store.load(game_id)
    assert row is not None and row.layout is not None
    return Board(row.width, row.height), int(row.layout, 16)


# --- sizes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_check_size_levels_ignore_the_custom_size(level: str) -> None:
    assert check_size(level, 1, 1, 0) == LEVELS[level]


@pytest.mark.parametrize(
    ("size", "room"),
    [
        ((2, 2), 0),
        ((3, 3), 0),
        ((3, 2), 0),
        ((4, 4), 7),
        ((4, 3), 3),
        ((2, 9), 12),
        ((9, 9), 72),
        ((100, 100), 9991),
    ],
)
def test_check_size_custom_mines_fit_outside_the_opening(size: tuple[int, int], room: int) -> None:
    width, height = size
    if room == 0:  # the first click's opening fills the board, whatever the mines
        for mines in (0, 1, 5):
            with pytest.raises(ArgumentError, match=f"a {width}x{height} board has no room") as e:
                check_size("custom", width, height, mines)
            assert (e.value.name, e.value.allowed) == ("size", None)
        return
    assert check_size("custom", width, height, room) == (width, height, room)
    assert check_size("custom", width, height, 1) == (width, height, 1)
    with pytest.raises(ArgumentError, match=rf"{room + 1:,} mines cannot fit") as e:
        check_size("custom", width, height, room + 1)
    assert (e.value.name, e.value.allowed) == ("mines", (1, room))
    with pytest.raises(ArgumentError, match="0 mines cannot fit"):
        check_size("custom", width, height, 0)


@pytest.mark.parametrize(
    ("level", "width", "height", "message"),
    [
        ("custom", 1, 9, "width 1 is outside 2..100"),
        ("custom", MAX_SIDE + 1, 9, "width 101"),
        ("custom", 9, 0, "height 0"),
        ("Expert", 30, 16, "unknown level 'Expert'"),
        ("", 9, 9, "unknown level ''"),
    ],
)
def test_check_size_errors(level: str, width: int, height: int, message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        check_size(level, width, height, 5)


# --- a game's life --------------------------------------------------------------------------


def test_create_stores_a_game_without_layout(games: Games, store: Store, clock: Clock) -> None:
    view = games.create("custom", 12, 5, 9, guess_free=False)
    assert set(view) == VIEW_KEYS
    check_view(view, None)
    row = store.load(view["id"])
    assert row is not None
    assert (row.width, row.height, row.mines, row.guess_free) == (12, 5, 9, False)
    assert (row.layout, row.state, row.created, row.started) == (None, "new", clock.now, None)
    assert row.seed == "seed-00000000" and row.seed not in view["id"]


def test_flag_and_chord_before_the_first_click_change_nothing(games: Games, store: Store) -> None:
    view = games.create("beginner")
    for kind in ("flag", "chord"):
        result = games.move(view["id"], kind, 2, 2)
        assert result.view == view and not result.guess and result.tutor is None
    row = store.load(view["id"])
    assert row is not None and row.moves == [] and row.layout is None


def test_a_move_that_opens_nothing_is_no_move(games: Games, store: Store) -> None:
    """A chord on a number whose flags are not all placed, on a covered cell or on a 0, and an
    open of an opened or flagged cell change nothing: the game is as it was, and no move is
    counted or stored (a double click on a number used to make two moves that did nothing)."""
    view = games.create("beginner")
    game_id = view["id"]
    games.move(game_id, "open", 4, 4)
    board, mines = _layout(games, store, game_id)
    position = position_of(games.view(game_id))
    number = next(i for i in range(board.size) if position.cells[i] > 0)
    mine = next(n for n in board.neighbours(number) if mines >> n & 1)
    zero = board.index(4, 4)
    games.move(game_id, "flag", *board.xy(mine))
    before = games.view(game_id)
    assert before["moves"] == 2
    idle = [
        ("chord", zero),
        ("chord", mine),
        ("open", zero),
        ("open", number),
        ("open", mine),
        *[("chord", number)] * (position.cells[number] > 1),
        *[("chord", board.index(x, y)) for x, y in covered(before)[:2]],
    ]
    for kind, i in idle:
        result = games.move(game_id, kind, *board.xy(i))
        assert result.view == before and not result.guess and result.tutor is None, (kind, i)
    row = store.load(game_id)
    assert row is not None and len(row.moves) == 2


@pytest.mark.parametrize("guess_free", [True, False])
@pytest.mark.parametrize("start", [(0, 0), (4, 4), (8, 3), (15, 15)])
def test_first_click_is_an_opening(
    games: Games, store: Store, clock: Clock, guess_free: bool, start: tuple[int, int]
) -> None:
    view = games.create("intermediate", guess_free=guess_free)
    clock.now += 3
    result = games.move(view["id"], "open", *start)
    assert not result.guess and result.tutor is None
    board, mines = _layout(games, store, view["id"])
    assert mines.bit_count() == 40
    start_index = board.index(*start)
    assert not mines & board.start_area(start_index, "opening")
    assert result.view["cells"][start[1]][start[0]] == 0
    row = store.load(view["id"])
    assert row is not None and row.started == clock.now and row.moves == [("open", *start)]
    if guess_free:
        assert solve(Layout(board, mines), start).solved


def test_guess_free_layouts_differ_between_games(games: Games, store: Store) -> None:
    layouts = set()
    for _ in range(5):
        view = games.create("beginner")
        games.move(view["id"], "open", 4, 4)
        layouts.add(_layout(games, store, view["id"])[1])
    assert len(layouts) == 5


def test_move_errors(games: Games) -> None:
    view = games.create("beginner")
    game_id = view["id"]
    with pytest.raises(GameNotFound):
        games.move("nope", "open", 0, 0)
    with pytest.raises(GameNotFound):
        games.view("nope")
    with pytest.raises(GameNotFound):
        games.hint("nope")
    with pytest.raises(GameNotFound):
        games.probabilities("nope")
    with pytest.raises(ArgumentError, match="unknown move 'reveal'"):
        games.move(game_id, "reveal", 0, 0)
    with pytest.raises(ArgumentError, match="unknown language 'xx'"):
        games.move(game_id, "open", 0, 0, lang="xx")
    with pytest.raises(ArgumentError, match="unknown language"):
        games.hint(game_id, "EN")
    with pytest.raises(IllegalMoveError) as outside:
        games.move(game_id, "open", 9, 0)
    assert outside.value.cell == (9, 0)
    games.move(game_id, "open", 4, 4)
    with pytest.raises(IllegalMoveError) as opened:
        games.move(game_id, "flag", 4, 4)
    assert opened.value.cell == (4, 4)
    assert games.view(game_id)["moves"] == 1


def _lose(games: Games, store: Store, game_id: str) -> JSON:
    """Open a covered mine (a guess: a mine is never proven safe); return the view."""
    view = games.view(game_id)
    board, mines = _layout(games, store, game_id)
    cell = next(c for c in covered(view) if mines >> board.index(*c) & 1)
    result = games.move(game_id, "open", *cell)
    assert result.view["state"] == "lost" and result.guess
    return result.view


def test_after_the_end(games: Games, store: Store) -> None:
    view = games.create("beginner")
    games.move(view["id"], "open", 4, 4)
    lost = _lose(games, store, view["id"])
    for kind in ("open", "flag", "chord"):
        with pytest.raises(IllegalMoveError, match=r"over \(lost\)") as raised:
            games.move(view["id"], kind, 0, 0)
        assert raised.value.cell is None
    with pytest.raises(IllegalMoveError, match="over"):
        games.hint(view["id"])
    with pytest.raises(IllegalMoveError, match="over"):
        games.probabilities(view["id"])
    assert games.view(view["id"]) == lost


def test_elapsed_follows_the_clock(games: Games, store: Store, clock: Clock) -> None:
    view = games.create("beginner")
    clock.now += 60  # time before the first click does not count
    assert games.view(view["id"])["elapsed"] == 0
    games.move(view["id"], "open", 4, 4)
    clock.now += 12.3456
    assert games.view(view["id"])["elapsed"] == 12.346
    lost = _lose(games, store, view["id"])
    assert lost["elapsed"] == 12.346
    clock.now += 100
    assert games.view(view["id"])["elapsed"] == 12.346


def test_elapsed_of_a_game_finished_at_time_zero(store: Store) -> None:
    clock = Clock(0.0)
    games = Games(store, clock=clock, seeds=counted_seeds())
    view = games.create("beginner")
    games.move(view["id"], "open", 4, 4)
    assert _lose(games, store, view["id"])["elapsed"] == 0
    clock.now = 10.0
    assert games.view(view["id"])["elapsed"] == 0


# --- restarts and threads -------------------------------------------------------------------


def test_restart_replays_every_kind_of_move(tmp_path: Path, clock: Clock) -> None:
    store = Store(tmp_path)
    games = Games(store, clock=clock, seeds=counted_seeds())
    view = games.create("beginner")
    game_id = view["id"]
    games.move(game_id, "open", 4, 4)
    board, mines = _layout(games, store, game_id)
    # Flag every mine next to an opened number, unflag one, then chord wherever possible.
    current = games.view(game_id)
    position = position_of(current)
    frontier = [
        c
        for c in covered(current)
        if mines >> board.index(*c) & 1
        and any(position.cells[n] > 0 for n in board.neighbours(board.index(*c)))
    ]
    for cell in frontier:
        games.move(game_id, "flag", *cell)
    games.move(game_id, "flag", *frontier[0])
    games.move(game_id, "flag", *frontier[0])
    games.move(game_id, "flag", *frontier[-1])  # removed
    for i in range(board.size):
        if games.view(game_id)["state"] != "playing":
            break
        if position_of(games.view(game_id)).cells[i] > 0:
            games.move(game_id, "chord", *board.xy(i))
    playing = games.view(game_id)["state"] == "playing"
    expected = (games.probabilities(game_id), games.hint(game_id)) if playing else None
    before = games.view(game_id)
    assert before["assists"] == (2 if playing else 0)
    row = store.load(game_id)
    assert row is not None
    kinds = {kind for kind, _, _ in row.moves}
    assert {"open", "flag", "unflag", "chord"} <= kinds
    stats = games.stats()
    assert stats[0]["in_progress" if before["state"] == "playing" else "played"] == 1
    store.close()

    again = Games(Store(tmp_path), clock=clock, seeds=counted_seeds())
    assert again.view(game_id) == before
    assert again.stats() == stats
    if expected is not None:
        assert (again.probabilities(game_id), again.hint(game_id)) == expected


def test_moves_on_one_game_from_many_threads(tmp_path: Path, clock: Clock) -> None:
    store = Store(tmp_path)
    games = Games(store, clock=clock, seeds=counted_seeds())
    view = games.create("intermediate")
    game_id = view["id"]
    games.move(game_id, "open", 8, 8)
    cells = covered(games.view(game_id))[:8]
    errors: list[BaseException] = []

    def toggle(cell: tuple[int, int], times: int) -> None:
        try:
            for _ in range(times):
                games.move(game_id, "flag", *cell)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    # Each cell toggled an odd number of times by its own thread, and twice more by another.
    threads = [threading.Thread(target=toggle, args=(c, 51)) for c in cells]
    threads += [threading.Thread(target=toggle, args=(c, 2)) for c in cells]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    final = games.view(game_id)
    assert all(final["cells"][y][x] == FLAG for x, y in cells)
    assert final["moves"] == 1 + 53 * len(cells) and final["mines_left"] == 40 - len(cells)
    row = store.load(game_id)
    assert row is not None and len(row.moves) == final["moves"]
    store.close()
    again = Games(Store(tmp_path), clock=clock, seeds=counted_seeds())
    assert again.view(game_id) == final
    assert sum(code == COVERED for r in final["cells"] for code in r) > 0


def test_layout_seeds_are_random_by_default(tmp_path: Path) -> None:
    games = Games(Store(tmp_path))
    seeds = set()
    for _ in range(20):
        row = games._store.load(games.create("beginner")["id"])
        assert row is not None and len(row.seed) == 32
        int(row.seed, 16)
        seeds.add(row.seed)
    assert len(seeds) == 20


def test_a_hopeless_guess_free_board_is_refused_within_its_budget_and_the_game_waits(
    store: Store, clock: Clock
) -> None:
    # A budget of work (one layout), not of time: the refusal does not depend on the load of
    # the machine, and the same game (the same seed) is refused on every run.
    games = Games(store, clock=clock, seeds=counted_seeds(), budget=1)
    view = games.create("custom", 12, 12, 80)
    with pytest.raises(GenerationError, match="fewer mines") as caught:
        games.move(view["id"], "open", 6, 6)
    # The web's wording adds advice and keeps what was tried.
    assert caught.value.layouts + caught.value.changes > 0
    after = games.view(view["id"])
    assert after["state"] == "new" and after["moves"] == 0
    row = store.load(view["id"])
    assert row is not None and row.layout is None and row.moves == []


def test_a_board_past_half_mined_is_made_at_the_first_click(store: Store, clock: Clock) -> None:
    """30x16 with 350 mines: the web's 40 layouts were refused ("try fewer mines") before
    layouts were grown around the first click; the game now starts, with its 350 mines."""
    games = Games(store, clock=clock, seeds=counted_seeds())
    view = games.create("custom", 30, 16, 350)
    after = games.move(view["id"], "open", 15, 8).view
    assert after["state"] in ("playing", "won")
    row = store.load(view["id"])
    assert row is not None and row.layout is not None and int(row.layout, 16).bit_count() == 350


# --- help -----------------------------------------------------------------------------------


def _in_play(games: Games) -> str:
    """Return the id of a new beginner game in play after its first click."""
    game_id: str = games.create("beginner")["id"]
    assert games.move(game_id, "open", 4, 4).view["state"] == "playing"
    return game_id


def _assists(games: Games, store: Store, game_id: str) -> int:
    """Return the help counted for a game, as its view and the store agree it."""
    row = store.load(game_id)
    assert row is not None and row.assists == games.view(game_id)["assists"]
    return row.assists


async def _inline(job: Job[Any]) -> Any:
    return job.run()


def test_help_counts_once_it_is_given(games: Games, store: Store) -> None:
    game_id = _in_play(games)
    games.hint(game_id)
    games.probabilities(game_id)
    assert _assists(games, store, game_id) == 2
    # Handed out as jobs, help counts when its runner has its value, not when it is asked.
    job = games.probabilities_job(game_id)
    hint_job = games.hint_job(game_id)
    assert _assists(games, store, game_id) == 2
    assert asyncio.run(games.helped_async(game_id, job, _inline)) == games.probabilities(game_id)
    asyncio.run(games.helped_async(game_id, hint_job, _inline))
    assert _assists(games, store, game_id) == 5


async def _refused(job: Job[Any]) -> Any:
    raise PoolFull("the server is busy", 1)


async def _spent(job: Job[Any]) -> Any:
    raise TooComplexError("the request needs more than 10 s of CPU")


async def _cancelled(job: Job[Any]) -> Any:  # its client left while it ran
    raise asyncio.CancelledError


@pytest.mark.parametrize(
    ("run", "error"),
    [(_refused, PoolFull), (_spent, TooComplexError), (_cancelled, asyncio.CancelledError)],
    ids=["refused", "too-complex", "client-left"],
)
def test_help_never_given_is_not_counted(
    games: Games, store: Store, run: Runner, error: type[BaseException]
) -> None:
    game_id = _in_play(games)
    for job in (games.probabilities_job(game_id), games.hint_job(game_id)):
        with pytest.raises(error):
            asyncio.run(games.helped_async(game_id, job, run))
    assert _assists(games, store, game_id) == 0


def test_help_ready_once_the_game_is_over_is_neither_given_nor_counted(
    games: Games, store: Store
) -> None:
    game_id = _in_play(games)

    async def lost_meanwhile(job: Job[Any]) -> Any:  # another tab loses while the work runs
        value = job.run()
        _lose(games, store, game_id)
        return value

    with pytest.raises(GameOverError, match="over"):
        asyncio.run(games.helped_async(game_id, games.probabilities_job(game_id), lost_meanwhile))
    assert _assists(games, store, game_id) == 0


# --- memory ---------------------------------------------------------------------------------


def test_games_leave_memory_and_come_back_from_the_store(store: Store, clock: Clock) -> None:
    # Room for three beginner games (81 cells and 256 each) in memory.
    games = Games(store, clock=clock, seeds=counted_seeds(), max_cells=3 * (81 + 256))
    views = []
    for _ in range(6):
        view = games.create("beginner")
        result = games.move(view["id"], "open", 4, 4)
        if result.view["state"] == "playing":
            games.move(view["id"], "flag", *covered(result.view)[0])
        views.append(games.view(view["id"]))
        assert games.in_memory() <= 3
    # Each comes back as it was, its moves replayed; memory stays bounded meanwhile.
    for view in views:
        assert games.view(view["id"]) == view
        assert games.in_memory() <= 3
    playing = [v for v in views if v["state"] == "playing"]
    assert playing, "no game left in play after its first click"
    again = games.move(playing[0]["id"], "flag", *covered(playing[0])[0])
    assert again.view["moves"] == playing[0]["moves"] + 1

    # Idle games leave too: after IDLE seconds only the game just used stays.
    clock.now += games.idle_seconds + 1
    fresh = games.create("beginner")
    assert games.in_memory() == 1
    # A finished game leaves with its last move, and is read from the store when asked for.
    games.move(fresh["id"], "open", 4, 4)
    lost = _lose(games, store, fresh["id"])
    assert games.in_memory() == 0
    assert games.view(fresh["id"]) == lost
    assert games.in_memory() == 0
