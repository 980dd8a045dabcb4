"""Guess-free generation: every board verified again, rules, levels, reproducibility, errors."""

from __future__ import annotations

import json
import pickle
import random
import re
import time
from collections.abc import Iterable
from itertools import combinations, pairwise
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import (  # type: ignore[import-untyped]
    Bounds,
    LinearConstraint,
    linprog,
    milp,
)

from mineproof import generate as generate_module
from mineproof.batch import BatchRequest, iter_batch, run_batch
from mineproof.board import Board, Layout
from mineproof.cli import main
from mineproof.errors import ArgumentError
from mineproof.formats import parse_mbf
from mineproof.game import Game
from mineproof.generate import (
    LAYOUT_PASSES,
    STEP_OVERHEAD,
    WORK_PER_BUDGET,
    GenerationError,
    StartRule,
    generate,
    hint_cell,
)
from mineproof.logic import LEVEL_NAMES, grade, solve


@pytest.mark.parametrize(
    ("width", "height", "mines", "count"),
    [(9, 9, 10, 20), (16, 16, 40, 8), (30, 16, 99, 4), (9, 9, 33, 2), (8, 8, 30, 2), (5, 4, 6, 10)],
)
def test_every_board_is_solved_by_the_complete_solver(
    width: int, height: int, mines: int, count: int
) -> None:
    board = Board(width, height)
    for seed in range(count):
        result = generate(board, mines, random.Random(seed))
        layout = result.layout
        assert layout.mine_count == mines
        x, y = result.start
        assert (x, y) == ((width - 1) // 2, (height - 1) // 2)
        area = board.start_area(board.index(x, y), "opening")
        assert layout.mines & area == 0
        assert solve(layout, result.start).solved


def test_safe_start_at_a_cell_and_at_the_hint_cell() -> None:
    board = Board(9, 9)
    given = generate(board, 10, random.Random(1), rule="safe", start=(0, 0))
    assert given.start == (0, 0) and not given.layout.is_mine(0)
    assert solve(given.layout, (0, 0)).solved
    for seed in range(10):
        hinted = generate(board, 12, random.Random(seed), rule="safe")
        assert hinted.start == hint_cell(hinted.layout)
        assert solve(hinted.layout, hinted.start).solved


def test_levels_are_respected() -> None:
    board = Board(9, 9)
    for seed in range(6):
        gentle = generate(board, 12, random.Random(seed), max_level=1)
        assert grade(gentle.layout, gentle.start).level <= 1
        hard = generate(board, 12, random.Random(seed), min_level=3)
        graded = grade(hard.layout, hard.start)
        assert graded.solved and graded.level >= 3


@pytest.mark.parametrize(
    ("width", "height", "mines", "window", "rule", "seeds"),
    [
        (16, 16, 40, (2, 2), "opening", range(2)),
        (16, 16, 40, (3, 3), "opening", range(3)),
        (30, 16, 99, (3, 3), "opening", range(2)),
        (16, 16, 40, (4, 4), "opening", range(4, 6)),
        (30, 16, 99, (4, 4), "opening", (4, 7)),
        (16, 16, 40, (5, 5), "opening", range(3)),
        (30, 16, 99, (5, 5), "opening", range(2)),
        (30, 16, 99, (3, 4), "opening", range(2)),
        (16, 16, 40, (1, 2), "opening", range(3)),
        (16, 16, 40, (3, 3), "safe", range(2)),
    ],
)
def test_the_hardest_step_is_within_the_window(
    width: int,
    height: int,
    mines: int,
    window: tuple[int, int],
    rule: StartRule,
    seeds: Iterable[int],
) -> None:
    # The oracle below plays each board with its own solver (LP and integer programmes from
    # SciPy): the hardest level it needs must be in the window, and be the level reported.
    low, high = window
    board = Board(width, height)
    for seed in seeds:
        made = generate(board, mines, random.Random(seed), rule=rule, min_level=low, max_level=high)
        assert made.layout.mine_count == mines
        level = _oracle_level(made.layout, made.start)
        assert level is not None, "the oracle could not clear the board"
        assert low <= level <= high
        assert made.level == level


@pytest.mark.parametrize("window", [(2, 3), (3, 4)])
def test_a_window_on_a_dense_board_is_met_with_grown_layouts(
    window: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window of levels was searched with uniform layouts only, however dense the board:
    16x16 with 150 mines and levels 3 to 4 failed after 95 s of CPU (2026-11-30), where
    grown layouts make one in about 25 s. With the uniform share made nothing, 8x8 with 34
    mines is made from grown layouts, and the oracle's level is within the window."""
    monkeypatch.setattr(generate_module, "GROWN_AFTER", 10**12)
    low, high = window
    for seed in range(3):
        made = generate(Board(8, 8), 34, random.Random(seed), min_level=low, max_level=high)
        assert made.sampler == "grown"
        assert made.layout.mine_count == 34
        assert made.level is not None and low <= made.level <= high
        assert _oracle_level(made.layout, made.start) == made.level


def test_windowed_boards_are_the_same_whatever_the_jobs() -> None:
    request = BatchRequest(Board(16, 16), 40, "opening", None, 3, 3, seed=5)
    one = run_batch(request, 3, jobs=1)
    two = run_batch(request, 3, jobs=2)
    assert [i.generated.layout for i in one] == [i.generated.layout for i in two]
    assert all(i.grade.level == 3 for i in one)


@pytest.mark.parametrize(
    ("levels", "needle"),
    [
        ((3, 3), f"whose hardest step is level 3 ({LEVEL_NAMES[3]}) found after 100 layouts"),
        ((4, 5), f"whose hardest step is level 4 ({LEVEL_NAMES[4]}) or harder found after"),
        ((2, 4), f"is between level 2 ({LEVEL_NAMES[2]}) and level 4 ({LEVEL_NAMES[4]}) found"),
    ],
)
def test_a_window_no_board_meets_names_the_window(levels: tuple[int, int], needle: str) -> None:
    # One mine on one row: one clue always settles it, so no window above level 1 is met.
    low, high = levels
    with pytest.raises(GenerationError, match=r"^no guess-free 6x1 board with 1 mine") as caught:
        generate(Board(6, 1), 1, random.Random(0), min_level=low, max_level=high, budget=1)
    message = str(caught.value)
    assert needle in message and "density" not in message and "\n" not in message


def test_a_window_with_a_time_limit_names_the_window() -> None:
    with pytest.raises(GenerationError, match=re.escape(f"4 ({LEVEL_NAMES[4]}) found in the time")):
        generate(Board(9, 9), 10, random.Random(0), min_level=4, max_level=4, seconds=0.05)


def test_the_oracle_grades_as_the_ladder() -> None:
    # The oracle and the ladder agree on boards of every grade (a check on the oracle).
    board = Board(16, 16)
    boards = [generate(board, 40, random.Random(seed)) for seed in range(12)]
    boards += [generate(board, 40, random.Random(5), min_level=n, max_level=n) for n in (3, 4)]
    seen = set()
    for made in boards:
        ladder = grade(made.layout, made.start)
        assert ladder.solved and _oracle_level(made.layout, made.start) == ladder.level
        seen.add(ladder.level)
    assert seen == {1, 2, 3, 4, 5}


def test_same_seed_same_boards_whatever_the_jobs() -> None:
    request = BatchRequest(Board(16, 16), 40, "opening", None, 5, 1, seed=123)
    one = run_batch(request, 6, jobs=1)
    two = run_batch(request, 6, jobs=2)
    assert [i.generated.layout for i in one] == [i.generated.layout for i in two]
    again = run_batch(request, 6, jobs=1)
    assert [i.generated.layout for i in again] == [i.generated.layout for i in one]
    other = run_batch(BatchRequest(Board(16, 16), 40, "opening", None, 5, 1, seed=124), 1)
    assert other[0].generated.layout != one[0].generated.layout


def test_impossible_board_is_a_clear_error() -> None:
    # A 3x1 board opened in the middle shows 1: the mine is left or right, a 50/50 forever.
    with pytest.raises(GenerationError, match="no guess-free 3x1 board with 1 mine"):
        generate(Board(3, 1), 1, random.Random(0), rule="safe", start=(1, 0), budget=20)


@pytest.mark.parametrize(
    ("mines", "rule", "start", "levels", "needle"),
    [
        (73, "opening", None, (1, 5), "cannot fit outside the opening start area"),
        (81, "safe", (0, 0), (1, 5), "at most 80"),
        (10, "opening", (9, 0), (1, 5), "outside the 9x9 board"),
        (10, "opening", None, (4, 2), "the least level 4 is above the hardest level 2"),
        (10, "opening", None, (1, 6), "level 6 is outside 1..5"),
        (10, "opening", None, (-1, 5), "level -1 is outside 0..5"),
    ],
)
def test_bad_arguments(
    mines: int,
    rule: StartRule,
    start: tuple[int, int] | None,
    levels: tuple[int, int],
    needle: str,
) -> None:
    low, high = levels
    with pytest.raises(ArgumentError, match=needle):
        generate(
            Board(9, 9), mines, random.Random(0), rule=rule, start=start,
            min_level=low, max_level=high,
        )  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exc:  # the argument parser's own usage errors
        status = int(str(exc.code))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_mbf_manifest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "generate", "--level", "beginner", "--count", "3", "--seed", "5",
        "--format", "mbf", "--out", str(tmp_path), "--jobs", "2",
    )  # fmt: skip
    assert status == 0 and "wrote 3 boards" in out
    lines = (tmp_path / "manifest.jsonl").read_text().splitlines()
    assert len(lines) == 3
    for line in lines:
        entry = json.loads(line)
        assert set(entry) >= {"file", "start", "seed", "grade"}
        layout = parse_mbf((tmp_path / entry["file"]).read_bytes())
        assert solve(layout, tuple(entry["start"])).solved
        assert grade(layout, tuple(entry["start"])).level == entry["grade"]["level"]


def test_cli_text_and_json_are_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--width", "12", "--height", "8", "--mines", "15", "--seed", "9"]
    _, first, _ = run(capsys, *args, "--count", "2")
    _, second, _ = run(capsys, *args, "--count", "2", "--jobs", "2")
    assert first == second and first.startswith("# board 1 (seed 9): opening start at (5, 3)")
    _, out, _ = run(capsys, *args, "--format", "json")
    data = json.loads(out)
    assert data["width"] == 12 and len(data["layout"]) == 8 and data["mines"] == 15


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--width", "0", "--height", "5", "--mines", "1"], "--width: 0 is outside 1..255"),
        (["--width", "300", "--height", "5", "--mines", "1"], "--width: 300 is outside 1..255"),
        (["--level", "beginner", "--at", "9,9"], "--at: the start cell (9, 9) is outside"),
        (
            ["--level", "beginner", "--min-level", "3", "--max-level", "2"],
            "--min-level: the least level 3 is above the hardest level 2",
        ),
        (["--level", "beginner", "--min-level", "6"], "--min-level: 6 is outside 0..5"),
        (["--width", "5", "--height", "5", "--mines", "17"], "--mines: 17 mines cannot fit"),
        (["--width", "3", "--height", "1", "--mines", "1"], "--mines: 1 mine cannot fit"),
        (["--level", "expert", "--format", "mbf"], "--format: mbf writes files"),
        (["--width", "5", "--mines", "3"], "--width: needs --height"),
        (["--level", "beginner", "--mines", "-1"], "--mines: expected a whole number, 0 or more"),
        (["--level", "beginner", "--reveal", "-1"], "--reveal: expected a whole number, 0 or more"),
        (["--level", "beginner", "--width", "9"], "--width: not allowed with argument --level"),
        (["--level", "beginner", "--count", "0"], "--count: 0 is outside 1..1,000,000"),
        (["--level", "beginner", "--jobs", "0"], "--jobs: 0 is outside 1.."),
        (
            ["--width", "100", "--height", "100", "--mines", "9", "--sampler", "chain"],
            "--sampler: the chain sampler takes boards of at most 4,096 cells",
        ),
    ],
)
def test_cli_bad_option_values_are_usage_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    # One rule, however the value is found wrong: exit status 2 and one line naming the option.
    status, out, err = run(capsys, "generate", *argv)
    assert status == 2 and out == ""
    assert err.startswith("mineproof: error: argument --") and err.count("\n") == 1, err
    assert needle in err and err.endswith("(see mineproof generate --help)\n"), err


def test_pre_revealed_start_is_consistent_and_gentler() -> None:
    request = BatchRequest(Board(16, 16), 40, "opening", None, 5, 1, seed=11, reveal=3)
    (item,) = run_batch(request, 1)
    assert item.revealed is not None
    layout = item.generated.layout
    numbers = layout.numbers()
    opened = [i for i, code in enumerate(item.revealed.cells) if code >= 0]
    for i, code in enumerate(item.revealed.cells):
        if code >= 0:
            assert numbers[i] == code
        elif code == -2:
            assert layout.is_mine(i)
    plain = BatchRequest(Board(16, 16), 40, "opening", None, 5, 1, seed=11)
    (first,) = run_batch(plain, 1)
    assert first.generated.layout == layout  # the same board, only shown further along
    assert solve(layout, item.generated.start).solved
    # Gentler: more is open than the start cell's own flood, the cells of three rounds of
    # forced moves (counted here by the rules of the game, not by the generator).
    game = Game(layout)
    game.reveal(*item.generated.start)
    assert len(opened) > game.opened_mask.bit_count()
    data = item.to_json(11)
    assert data["position"] == item.revealed.text() and len(data["revealed"]) == len(opened)


def test_a_time_limit_stops_a_hopeless_search() -> None:
    # 60 % mines on 100x100: each layout needs very many perturbations (minutes of work).
    started = time.monotonic()
    with pytest.raises(GenerationError, match="in the time allowed"):
        generate(Board(100, 100), 6000, random.Random(1), start=(4, 4), seconds=0.5)
    assert time.monotonic() - started < 60  # stopped soon after the limit, not minutes later


def test_the_work_budget_stops_a_hopeless_search() -> None:
    # 45 % mines on 100x100 (below half: no grown layouts, see test_dense): one layout takes
    # minutes of changes and solves, far more than the whole work budget of budget=1 (see
    # WORK_PER_BUDGET): the search ends in the error that says what was tried, and that work
    # (every layout, change and solve step costs the cells plus STEP_OVERHEAD) is within the
    # budget and most of it, so the budget is what ended it.
    board = Board(100, 100)
    with pytest.raises(GenerationError) as caught:
        generate(board, 4500, random.Random(1), start=(4, 4), budget=1)
    message = str(caught.value)
    tried = re.search(
        r"within the work budget \((\S+) layouts?, (\S+) changes? and (\S+) solve", message
    )
    assert tried is not None, message
    assert message.startswith("no guess-free 100x100 board with 4,500 mines found")
    layouts, changes, steps = (int(n.replace(",", "")) for n in tried.groups())
    done = (LAYOUT_PASSES * layouts + changes + steps) * (board.size + STEP_OVERHEAD)
    assert WORK_PER_BUDGET // 2 < done <= WORK_PER_BUDGET
    # The counts are data too, the same as the words, and survive the trip from a worker.
    error = pickle.loads(pickle.dumps(caught.value))
    counts = (error.layouts, error.changes, error.steps)
    assert counts == tuple(int(n.replace(",", "")) for n in tried.groups())


def test_a_time_limit_does_not_change_the_board_found() -> None:
    board = Board(30, 16)
    free = generate(board, 99, random.Random(7))
    limited = generate(board, 99, random.Random(7), seconds=600)
    assert limited == free


# --------------------------------------------------------------------------------------------
# An independent logician for the levels. It shares no code with mineproof.logic or
# mineproof.analysis: numbers, clues and the solve are computed here from the mines; two clues
# by trying every arrangement of their cells; whole mines (on the clues, or with the mine
# total) by SciPy's milp and the linear relaxation by SciPy's linprog, cell by cell.

_TOLERANCE = 1e-6


def _around(width: int, height: int, i: int) -> list[int]:
    x, y = i % width, i // width
    return [
        ny * width + nx
        for ny in range(max(0, y - 1), min(height, y + 2))
        for nx in range(max(0, x - 1), min(width, x + 2))
        if (nx, ny) != (x, y)
    ]


_OClue = tuple[frozenset[int], int]
"""Unknown cells around a number, and how many of them are mines."""


def _pair(a: _OClue, b: _OClue) -> tuple[set[int], set[int]]:
    """Return the cells two clues force together: every arrangement that fits both is tried."""
    a_cells = sorted(a[0])
    b_only = sorted(b[0] - a[0])
    seen: dict[int, set[bool]] = {c: set() for c in a[0] | b[0]}
    for chosen in combinations(a_cells, a[1]):
        rest = b[1] - sum(1 for c in chosen if c in b[0])
        if not 0 <= rest <= len(b_only):
            continue
        for c in a_cells:
            seen[c].add(c in chosen)
        for c in b_only:
            if rest > 0:
                seen[c].add(True)
            if rest < len(b_only):
                seen[c].add(False)
    return {c for c, v in seen.items() if v == {False}}, {c for c, v in seen.items() if v == {True}}


def _forced(
    frontier: list[int],
    clues: list[_OClue],
    integral: bool,
    candidates: set[int] | None = None,
    total: tuple[int, int] | None = None,
) -> tuple[set[int], set[int], str]:
    """Return ``(safe, mines, outside)``: the frontier cells (of ``candidates`` if given) that
    every solution of the clue equations gives the same value, in 0/1 (``integral``) or in real
    numbers between 0 and 1. With ``total = (left, outside)`` the unknown cells no clue sees
    (``outside`` of them) are one more variable and all cells hold ``left`` mines; ``outside``
    is then "safe" or "mine" when those cells are forced too, else ""."""
    width = len(frontier) + (total is not None)
    column = {c: k for k, c in enumerate(frontier)}
    rows = []
    rhs = []
    for cells, count in clues:
        row = np.zeros(width)
        for c in cells:
            row[column[c]] = 1
        rows.append(row)
        rhs.append(count)
    upper = np.ones(width)
    if total is not None:
        rows.append(np.ones(width))
        rhs.append(total[0])
        upper[-1] = total[1]
    a, b = np.array(rows), np.array(rhs, dtype=float)

    def extreme(k: int, sign: float) -> float:
        cost = np.zeros(width)
        cost[k] = sign
        if integral:
            result = milp(
                cost,
                constraints=LinearConstraint(a, b, b),
                integrality=np.ones(width),
                bounds=Bounds(np.zeros(width), upper),
            )
        else:
            result = linprog(cost, A_eq=a, b_eq=b, bounds=[(0.0, float(u)) for u in upper])
        assert result.status == 0, "the clues of a real board always have a solution"
        return float(result.fun) * sign

    safe: set[int] = set()
    mines: set[int] = set()
    for c in frontier if candidates is None else sorted(candidates):
        k = column[c]
        if extreme(k, -1.0) <= _TOLERANCE:
            safe.add(c)
        elif extreme(k, 1.0) >= 1 - _TOLERANCE:
            mines.add(c)
    outside = ""
    if total is not None and total[1]:
        if extreme(width - 1, -1.0) <= _TOLERANCE:
            outside = "safe"
        elif extreme(width - 1, 1.0) >= total[1] - _TOLERANCE:
            outside = "mine"
    return safe, mines, outside


class _Logician:
    """Plays a layout from a start cell, each step making every deduction of the lowest level
    that makes one: 1 one clue (or the mine total alone: none left, or as many as cells), 2 two
    clues, 3 the linear relaxation of all clues, 4 whole mines on all clues, 5 whole mines
    with the mine total. ``hardest`` is the highest level a step needed."""

    def __init__(self, layout: Layout, start: tuple[int, int]) -> None:
        board = layout.board
        size = board.width * board.height
        self.near = [_around(board.width, board.height, i) for i in range(size)]
        self.mine = [layout.is_mine(i) for i in range(size)]
        self.number = [sum(self.mine[n] for n in self.near[i]) for i in range(size)]
        self.total = sum(self.mine)
        self.opened: set[int] = set()
        self.flagged: set[int] = set()
        self.hardest = 0
        self._open(start[1] * board.width + start[0])

    def _open(self, i: int) -> None:
        todo = [i]
        while todo:
            c = todo.pop()
            assert not self.mine[c], "the logician opened a mine"
            if c not in self.opened:
                self.opened.add(c)
                if self.number[c] == 0:
                    todo.extend(self.near[c])

    def play(self) -> bool:
        """Solve as far as logic goes; return whether every safe cell was opened."""
        while len(self.opened) + self.total < len(self.mine):
            level, safe, mines = self._lowest()
            if not level:
                return False
            assert not any(self.mine[c] for c in safe) and all(self.mine[c] for c in mines)
            self.hardest = max(self.hardest, level)
            self.flagged |= mines
            for c in safe:
                self._open(c)
        return True

    def _lowest(self) -> tuple[int, set[int], set[int]]:
        unknown = set(range(len(self.mine))) - self.opened - self.flagged
        clues = sorted(
            {
                (
                    frozenset(n for n in self.near[c] if n in unknown),
                    self.number[c] - sum(n in self.flagged for n in self.near[c]),
                )
                for c in self.opened
                if any(n in unknown for n in self.near[c])
            },
            key=lambda clue: sorted(clue[0]),
        )
        left = self.total - len(self.flagged)
        safe: set[int] = set(unknown) if left == 0 else set()
        mines: set[int] = set(unknown) if left == len(unknown) else set()
        for cells, count in clues:
            if count == 0:
                safe |= cells
            elif count == len(cells):
                mines |= cells
        if safe or mines:
            return 1, safe, mines
        for a, b in combinations(clues, 2):
            if a[0] & b[0]:
                s, m = _pair(a, b)
                safe |= s
                mines |= m
        if safe or mines:
            return 2, safe, mines
        frontier = sorted(set().union(*(cells for cells, _ in clues)))
        if not frontier:
            return 0, set(), set()
        safe, mines, _ = _forced(frontier, clues, integral=True)
        if safe or mines:
            relaxed = _forced(frontier, clues, integral=False, candidates=safe | mines)
            if relaxed[0] or relaxed[1]:
                return 3, relaxed[0], relaxed[1]
            return 4, safe, mines
        rest = unknown - set(frontier)
        safe, mines, outside = _forced(frontier, clues, True, total=(left, len(rest)))
        if outside == "safe":
            safe |= rest
        elif outside == "mine":
            mines |= rest
        return (5 if safe or mines else 0), safe, mines


def _oracle_level(layout: Layout, start: tuple[int, int]) -> int | None:
    """Return the hardest level the logician needs from ``start``, ``None`` if it gets stuck."""
    logician = _Logician(layout, start)
    return logician.hardest if logician.play() else None


@pytest.mark.parametrize(
    ("argv", "sampler"),
    [
        (["--level", "intermediate"], "exact"),
        (["--level", "intermediate", "--sampler", "perturb"], "perturb"),
        (["--width", "16", "--height", "16", "--mines", "60"], "perturb"),
        (["--width", "9", "--height", "9", "--mines", "25", "--sampler", "chain"], "chain"),
        (["--width", "30", "--height", "16", "--mines", "150", "--sampler", "exact"], None),
    ],
)
def test_cli_sampler(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    sampler: str | None,
) -> None:
    if sampler is None:  # rejection at this density finds nothing in its budget: it says so
        monkeypatch.setattr("mineproof.generate.EXACT_LAYOUTS", 2)  # 400 layouts, not 200,000
    status, out, err = run(capsys, "generate", *argv, "--seed", "2", "--format", "json")
    if sampler is None:
        assert status == 1 and "after 400 layouts by exact sampling (" in err
        assert "--sampler perturb" in err
        return
    assert status == 0, err
    data = json.loads(out)
    assert data["sampler"] == sampler
    layout = Layout.from_cells(
        Board(data["width"], data["height"]),
        [(x, y) for y, row in enumerate(data["layout"]) for x, c in enumerate(row) if c == "*"],
    )
    assert solve(layout, tuple(data["start"])).solved


def test_cli_chain_on_a_board_too_large_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "generate", "--width", "80", "--height", "80", "--mines", "10", "--sampler", "chain"
    )
    assert status == 2 and out == ""
    assert "argument --sampler: the chain sampler takes boards of at most 4,096 cells" in err
    assert len(err.strip().splitlines()) == 1


def test_cli_unknown_sampler_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["generate", "--level", "beginner", "--sampler", "magic"])
    assert stop.value.code == 2
    assert "--sampler" in capsys.readouterr().err


@pytest.mark.parametrize("seed", [19, 90])
def test_auto_keeps_rejecting_past_a_small_budget(seed: int) -> None:
    # Opened in a corner, about one expert layout in 11 is guess-free: with the web app's
    # budget of 40 layouts, these seeds found none and used to fall back to the perturb
    # sampler, so their boards were not drawn exactly uniformly.
    made = generate(Board(30, 16), 99, random.Random(seed), start=(0, 0), budget=40)
    assert made.sampler == "exact"
    assert solve(made.layout, (0, 0)).solved


def test_an_exact_failure_says_how_many_layouts_were_guess_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Most beginner layouts are guess-free; one needing a case analysis is rare. The message
    # used to say that none of the layouts was guess-free. The count is checked by the
    # independent logician on the same layouts (drawn here as the sampler draws them).
    monkeypatch.setattr("mineproof.generate.EXACT_LAYOUTS", 60)
    board, start = Board(9, 9), (4, 4)
    rng = random.Random(3)
    levels = [
        _oracle_level(Layout.random(board, 10, rng, start, "opening"), start) for _ in range(60)
    ]
    assert 4 not in levels
    guess_free = sum(level is not None for level in levels)
    with pytest.raises(GenerationError) as caught:
        generate(board, 10, random.Random(3), min_level=4, max_level=4, sampler="exact", budget=1)
    assert str(caught.value) == (
        f"no guess-free 9x9 board with 10 mines whose hardest step is level 4 "
        f"({LEVEL_NAMES[4]}) found after 60 layouts by exact sampling ({guess_free} of them "
        "guess-free, none within the window; --sampler perturb or chain searches)"
    )
    assert (caught.value.layouts, caught.value.guess_free) == (60, guess_free)


@pytest.mark.parametrize(
    ("mines", "low", "high"), [(10, 1, 1), (10, 2, 2), (10, 5, 5), (10, 2, 5), (20, 2, 5)]
)
def test_the_exact_sampler_in_a_window_is_plain_rejection(mines: int, low: int, high: int) -> None:
    # On the same seeds, the exact sampler with a window and a plain rejection written here
    # (uniform layouts until the independent logician grades one within the window) draw the
    # same boards: the sampler's shortcuts only skip layouts the window rejects, so its draw
    # stays uniform over the boards of the window. With 20 mines most layouts need a guess
    # (the sampler then solves each quickly first), with 10 most are guess-free.
    board, start = Board(9, 9), (4, 4)
    for seed in range(6):
        rng = random.Random(seed)
        while True:
            layout = Layout.random(board, mines, rng, start, "opening")
            level = _oracle_level(layout, start)
            if level is not None and low <= level <= high:
                break
        made = generate(
            board, mines, random.Random(seed), start=start, min_level=low, max_level=high,
            sampler="exact",
        )  # fmt: skip
        assert (made.layout, made.level, made.sampler) == (layout, level, "exact")


def test_the_exact_sampler_draws_enough_layouts_for_a_dense_expert_board() -> None:
    # About one 30x16 layout with 130 mines in 5,000 is guess-free (opened at the centre): the
    # exact sampler used to give up after 200 layouts. The board is checked by the
    # independent logician.
    made = generate(Board(30, 16), 130, random.Random(1), sampler="exact")
    assert made.sampler == "exact" and made.layout.mine_count == 130
    assert _oracle_level(made.layout, made.start) is not None


def test_progress_is_told_every_layout_and_change_and_changes_nothing() -> None:
    # Dense: the perturb sampler makes changes. The board is the same with or without a report.
    board = Board(16, 16)
    told: list[tuple[int, int]] = []
    made = generate(board, 60, random.Random(4), progress=lambda *work: told.append(work))
    assert made == generate(board, 60, random.Random(4))
    assert told and told[-1][1] > 0
    assert all(b[0] + b[1] == a[0] + a[1] + 1 for a, b in pairwise([(0, 0), *told]))
    told.clear()
    generate(board, 40, random.Random(4), sampler="exact", progress=lambda *w: told.append(w))
    assert told == [(k, 0) for k in range(1, len(told) + 1)]


def test_a_batch_tells_the_work_on_each_board_and_its_grading() -> None:
    request = BatchRequest(Board(16, 16), 60, "opening", None, 5, 1, seed=2)
    told: list[tuple[int, int, int, int]] = []
    items = list(iter_batch(request, 2, progress=lambda *work: told.append(work)))
    assert [i.generated for i in items] == [i.generated for i in run_batch(request, 2)]
    for index, item in enumerate(items):
        mine = [work for work in told if work[0] == index]
        steps = [work[3] for work in mine if work[3]]
        assert steps == list(range(1, sum(item.grade.steps.values()) + 1))
        assert mine[-1][1] >= 1 and mine[0][3] == 0


def _first_click_opens_all(layout: Layout, start: tuple[int, int]) -> bool:
    """The test's own flood fill: whether the click at ``start`` opens every mine-free cell
    (the board then needs no deduction: grade 0)."""
    w, h = layout.board.width, layout.board.height

    def mine(x: int, y: int) -> bool:
        return bool(layout.mines >> (y * w + x) & 1)

    def around(x: int, y: int) -> list[tuple[int, int]]:
        return [
            (x + dx, y + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h
        ]

    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        if not any(mine(*c) for c in around(x, y)):
            for c in around(x, y):
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
    return len(seen) == sum(not mine(x, y) for x in range(w) for y in range(h))


@pytest.mark.parametrize(
    ("width", "height", "mines", "low", "high"),
    [(8, 8, 0, 5, 5), (4, 4, 7, 5, 5), (9, 9, 72, 3, 5), (3, 3, 0, 1, 1), (5, 5, 0, 1, 5)],
)
def test_a_board_the_first_click_clears_is_below_every_window(
    width: int, height: int, mines: int, low: int, high: int
) -> None:
    # Every layout of these is opened whole by the first click (grade 0): no window from 1 up
    # admits one, so the search ends in its error rather than return one.
    board = Board(width, height)
    with pytest.raises(GenerationError, match=f"level {low}"):
        made = generate(board, mines, random.Random(2), min_level=low, max_level=high, budget=5)
        assert not _first_click_opens_all(made.layout, made.start), "a level-0 board returned"


@pytest.mark.parametrize("low", [0, 1])
def test_the_least_level_admits_or_excludes_boards_of_level_0(low: int) -> None:
    # 5x5 with 2 mines: most layouts are opened whole by the first click, some are not.
    board = Board(5, 5)
    opened_whole = 0
    for seed in range(12):
        made = generate(board, 2, random.Random(seed), min_level=low)
        whole = _first_click_opens_all(made.layout, made.start)
        assert (grade(made.layout, made.start).level == 0) == whole
        opened_whole += whole
    assert opened_whole > 0 if low == 0 else opened_whole == 0
