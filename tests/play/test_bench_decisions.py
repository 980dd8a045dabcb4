"""The benchmark that weighs two players' differing guesses by playing on from each."""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mineproof.play.config import DEFAULT

from .scripts import load_script


def bench_decisions() -> ModuleType:
    return load_script("benchmarks/bench_decisions.py")


def run(capsys: pytest.CaptureFixture[str], argv: list[str], rows: Path) -> tuple[Any, list[Any]]:
    """Return the JSON summary of a run and the decisions it wrote to ``rows``."""
    assert bench_decisions().main([*argv, "--decisions", str(rows), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    return summary, [json.loads(line) for line in rows.read_text().splitlines()]


def test_both_cells_meet_the_same_layouts() -> None:
    # Two covered cells, one mine, nothing open: whichever cell is opened wins exactly when
    # the other holds the mine, so on each layout drawn exactly one of the two cells wins.
    module = bench_decisions()
    setup = module.Setup(2, 1, 1, "classic", 1, DEFAULT, DEFAULT, 200)
    decision = module.Decision(0, 0b01, (), ((0, 0), (1, 0)))
    first, second = setup.weigh(decision)
    assert first + second == 200
    assert 60 < first < 140  # each layout equally likely: about half each
    # The same cell on both sides meets the same layouts, so it wins the same games.
    same = module.Decision(0, 0b01, (), ((1, 0), (1, 0)))
    a, b = setup.weigh(same)
    assert a == b


def test_layouts_fit_the_position() -> None:
    # 3x1 with the left cell open on a 1: the mine is in the middle, so the right cell always
    # wins and the middle never does, on every layout drawn.
    module = bench_decisions()
    setup = module.Setup(3, 1, 1, "classic", 1, DEFAULT, DEFAULT, 30)
    decision = module.Decision(0, 0b010, (("open", (0, 0)),), ((1, 0), (2, 0)))
    assert setup.weigh(decision) == (0, 30)


BEGINNER = ["--level", "beginner", "--rules", "classic"]


def test_the_summary_adds_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = [*BEGINNER, "--games", "100", "--rollouts", "6", "--b", "best:cut_off=0.5,candidates=1"]
    summary, decisions = run(capsys, argv, tmp_path / "decisions.jsonl")
    assert summary["decisions"] == len(decisions) > 0
    gains = [(d["wins"][1] - d["wins"][0]) / 6 for d in decisions]
    assert summary["favour_b"] == sum(g > 0 for g in gains)
    assert summary["favour_a"] == sum(g < 0 for g in gains)
    assert summary["games_gained"] == pytest.approx(sum(gains))
    assert summary["per_10000_games"] == pytest.approx(10_000 * sum(gains) / 100)
    assert all(d["a"] != d["b"] and 0 <= min(d["wins"]) <= max(d["wins"]) <= 6 for d in decisions)


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    module = bench_decisions()
    with pytest.raises(SystemExit) as stop:
        module.main(["--b", "safest"])
    assert stop.value.code == 2
    assert "only the best strategy" in capsys.readouterr().err


def test_weigh_given_cells(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The cells of a file against --a's own at the same guess: its own cell gains nothing;
    # a guess the game does not have is refused, naming the file.
    module = bench_decisions()
    setup = module.Setup(9, 9, 10, "classic", 1, DEFAULT, DEFAULT, 8)
    index, (first, _) = next((i, found) for i in range(50) for found in setup.guesses(i))
    own = first.cells[0]
    other = next(c for c in ((0, 8), (8, 8), (8, 0)) if c != own)
    cells = tmp_path / "cells.jsonl"
    # (0, 0), the first click, is open at every guess: that line is left out, counted apart.
    lines = [{"index": index, "guess": 0, "b": list(c)} for c in (own, other, (0, 0))]
    cells.write_text("".join(json.dumps(line) + "\n" for line in lines))
    argv = [*BEGINNER, "--games", "50", "--rollouts", "8", "--weigh", str(cells)]
    summary, weighed = run(capsys, argv, tmp_path / "weighed.jsonl")
    assert summary["decisions"] == 2
    assert summary["not_covered"] == 1
    assert weighed[0]["a"] == weighed[0]["b"] == list(own)
    assert weighed[0]["wins"][0] == weighed[0]["wins"][1]
    assert weighed[1]["b"] == list(other)
    cells.write_text(json.dumps({"index": index, "guess": 99, "b": [0, 0]}) + "\n")
    with pytest.raises(SystemExit):
        module.main(argv)
    assert "has no guess 99" in capsys.readouterr().err
    cells.write_text('{"index": 1}\n')
    with pytest.raises(SystemExit):
        module.main(argv)
    assert "line 1" in capsys.readouterr().err
    # A decision of a game beyond --games would make the games per 10,000 wrong: refused.
    cells.write_text(json.dumps({"index": 50, "guess": 0, "b": [0, 0]}) + "\n")
    with pytest.raises(SystemExit):
        module.main(argv)
    assert "game 50 is outside --first 0 --games 50" in capsys.readouterr().err


def _oracle(
    near: list[frozenset[int]],
) -> Callable[[frozenset[frozenset[int]], frozenset[int], int], Fraction]:
    """Return ``opened(layouts, covered, c)``: the chance to win from ``layouts`` (equally
    likely mine sets) with ``covered`` cells left when ``c`` is opened and best play follows,
    by plain minimax over every cell and number (no 0 opens its neighbours): the oracle of
    ``--exact``, sharing no code with the end game's search."""

    @functools.cache
    def best(layouts: frozenset[frozenset[int]], covered: frozenset[int]) -> Fraction:
        if len(layouts) == 1:
            return Fraction(1)
        return max(opened(layouts, covered, c) for c in covered)

    @functools.cache
    def opened(layouts: frozenset[frozenset[int]], covered: frozenset[int], c: int) -> Fraction:
        parts: dict[int, set[frozenset[int]]] = {}
        for layout in layouts:
            if c not in layout:
                parts.setdefault(len(near[c] & layout), set()).add(layout)
        rest = covered - {c}
        return sum(
            (Fraction(len(p), len(layouts)) * best(frozenset(p), rest) for p in parts.values()),
            Fraction(0),
        )

    return opened


def test_exact_chances_are_those_of_best_play() -> None:
    # A 4x3 board, 3 mines, two numbers open: every covered cell's chance to win when opened
    # first, as --exact finds it, against minimax over the arrangements listed here.
    module = bench_decisions()
    width, height = 4, 3
    mines = {(1, 1), (2, 0), (3, 2)}
    moves = (("open", (0, 0)), ("open", (1, 0)))

    def near(x: int, y: int) -> frozenset[int]:
        return frozenset(
            (x + dx) + width * (y + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height
        )

    cells = [(x, y) for y in range(height) for x in range(width)]
    neighbours = [near(x, y) for x, y in cells]
    layout = frozenset(x + width * y for x, y in mines)
    shown = {c: len(neighbours[c] & layout) for c in (0, 1)}  # (0, 0) shows 1, (1, 0) shows 2
    assert shown == {0: 1, 1: 2}
    layouts = frozenset(
        frozenset(m)
        for m in itertools.combinations(range(width * height), len(mines))
        if not {0, 1} & set(m) and all(len(neighbours[c] & set(m)) == n for c, n in shown.items())
    )
    covered = frozenset(range(2, width * height))
    opened = _oracle(neighbours)
    bits = sum(1 << c for c in layout)
    setup = module.Setup(width, height, len(mines), "classic", 1, DEFAULT, DEFAULT, 1, 1000)
    chances = {}
    for c in sorted(covered):
        decision = module.Decision(0, bits, moves, (cells[c], cells[c]))
        chance, again = setup.chances(decision)
        assert chance == again == float(opened(layouts, covered, c)), cells[c]
        chances[c] = chance
    assert len(set(chances.values())) >= 3  # not a board where every cell is alike
    # With fewer arrangements allowed than there are, nothing is weighed.
    small = module.Setup(width, height, len(mines), "classic", 1, DEFAULT, DEFAULT, 1, 2)
    assert small.chances(module.Decision(0, bits, moves, (cells[2], cells[3]))) is None


def test_the_exact_summary_adds_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # --b: the safest cell only, no end game's search; --a opens the search's cell where at
    # most 1,000 arrangements are left, so where it is weighed exactly it is never beaten.
    crude = "best:endgame_arrangements=0,candidates=1,influenced=0,off_edge_all=0,cut_off=1"
    argv = [*BEGINNER, "--games", "300", "--b", crude, "--exact", "30"]
    rows = tmp_path / "decisions.jsonl"
    assert bench_decisions().main([*argv, "--decisions", str(rows), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    decisions = [json.loads(line) for line in rows.read_text().splitlines()]
    weighed = [d["chances"] for d in decisions if d["chances"] is not None]
    assert summary["decisions"] == len(decisions) > len(weighed) == summary["weighed"] > 0
    assert summary["not_weighed"] == len(decisions) - len(weighed)
    gains = [b - a for a, b in weighed]
    assert summary["favour_a"] == sum(g < 0 for g in gains) > 0
    assert summary["favour_b"] == sum(g > 0 for g in gains) == 0
    assert summary["equal"] == sum(g == 0 for g in gains)
    assert summary["games_gained"] == pytest.approx(sum(gains))
    assert all(0 <= c <= 1 for pair in weighed for c in pair)
