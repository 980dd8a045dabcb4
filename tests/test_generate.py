"""Guess-free generation: every board verified again, rules, levels, reproducibility, errors."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from mineproof.batch import BatchRequest, run_batch
from mineproof.board import Board
from mineproof.cli import main
from mineproof.errors import FormatError
from mineproof.formats import parse_mbf
from mineproof.generate import GenerationError, StartRule, generate, hint_cell
from mineproof.logic import grade
from mineproof.logic import solve


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
    with pytest.raises(GenerationError, match="no guess-free 3x1 board with 1 mines"):
        generate(Board(3, 1), 1, random.Random(0), rule="safe", start=(1, 0), budget=20)


@pytest.mark.parametrize(
    ("mines", "rule", "start", "levels", "needle"),
    [
        (73, "opening", None, (1, 5), "do not fit outside the opening start area"),
        (81, "safe", (0, 0), (1, 5), "at most 80"),
        (10, "opening", (9, 0), (1, 5), "outside the 9x9 board"),
        (10, "opening", None, (4, 2), "above --max-level"),
        (10, "opening", None, (1, 6), "levels go from 1 to 5"),
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
    with pytest.raises(FormatError, match=needle):
        generate(
            Board(9, 9), mines, random.Random(0), rule=rule, start=start,
            min_level=low, max_level=high,
        )  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
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
        (["--width", "0", "--height", "5", "--mines", "1"], "width 0"),
        (["--width", "300", "--height", "5", "--mines", "1"], "width 300"),
        (["--level", "beginner", "--at", "9,9"], "outside"),
        (["--level", "beginner", "--min-level", "3", "--max-level", "2"], "above --max-level"),
        (["--width", "5", "--height", "5", "--mines", "17"], "do not fit"),
        (["--level", "expert", "--format", "mbf"], "--out"),
        (["--width", "5", "--mines", "3"], "--height"),
    ],
)
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    status, out, err = run(capsys, "generate", *argv)
    assert status == 1 and out == ""
    assert err.startswith("mineproof: error: ") and err.count("\n") == 1 and needle in err


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
    start_only = solve(layout, item.generated.start)
    assert len(opened) > 0 and start_only.solved
    data = item.to_json(11)
    assert data["position"] == item.revealed.text() and len(data["revealed"]) == len(opened)


def test_a_time_limit_stops_a_hopeless_search() -> None:
    # 60 % mines on 100x100: each layout needs very many perturbations (minutes of work).
    started = time.monotonic()
    with pytest.raises(GenerationError, match="in the time allowed"):
        generate(Board(100, 100), 6000, random.Random(1), start=(4, 4), seconds=0.5)
    assert time.monotonic() - started < 60  # stopped soon after the limit, not minutes later


def test_a_time_limit_does_not_change_the_board_found() -> None:
    board = Board(30, 16)
    free = generate(board, 99, random.Random(7))
    limited = generate(board, 99, random.Random(7), seconds=600)
    assert limited == free
