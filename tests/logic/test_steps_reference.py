"""The step-by-step solve, grade and hints reproduce a frozen reference, step for step.

``tests/data/steps_reference.json`` holds the solves of a few hundred boards (standard levels and
dense boards) made by the step solve before it got its fast paths (see
``tests/data/make_steps_reference.py``): every step's level, premises, safe and mine cells, a
hash of every step's full JSON and position, and hashes of hints at a few positions. Any change
in which deduction is picked at any step shows here, named by board and step.
``tests/data/big_steps_reference.json`` holds the same for a few bigger boards (60x60 and
100x100, see ``tests/data/make_big_steps_reference.py``), made before the step solve kept the
forcing pairs of clues up to date between steps.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from make_big_steps_reference import texts_and_digest
from make_steps_reference import hints_digest, step_text, steps_digest

from mineproof.board import Board, Layout
from mineproof.logic import grade, hint_steps, logic_steps, solve_in_steps

DATA = Path(__file__).parents[1] / "data" / "steps_reference.json"
BIG = Path(__file__).parents[1] / "data" / "big_steps_reference.json"
CHUNKS = 6


@cache
def boards() -> list[dict[str, Any]]:
    """Return the stored boards."""
    data: list[dict[str, Any]] = json.loads(DATA.read_text())["boards"]
    return data


def layout_of(entry: dict[str, Any]) -> tuple[Layout, tuple[int, int]]:
    """Return a stored board's layout and start cell."""
    width, height = entry["size"]
    x, y = entry["start"]
    return Layout(Board(width, height), int(entry["mines"], 16)), (x, y)


def test_reference_covers_the_levels() -> None:
    """The reference has boards of every size asked for, and steps at levels 1, 2, 3 and 5."""
    entries = boards()
    assert len(entries) >= 200
    sizes = {tuple(e["size"]) for e in entries}
    assert {(9, 9), (16, 16), (30, 16)} <= sizes
    levels = {int(step.split("|")[0]) for e in entries for step in e["steps"].split()}
    assert {1, 2, 3, 5} <= levels


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_solve_and_grade_match_the_reference(chunk: int) -> None:
    """Every step (level, premises, safe and mine cells, full JSON, position) and the grade
    of each stored board are those of the reference."""
    for n, entry in enumerate(boards()):
        if n % CHUNKS != chunk:
            continue
        layout, start = layout_of(entry)
        steps, got = solve_in_steps(layout, start)
        texts = [step_text(s.deduction) for s in steps]
        want = entry["steps"].split()
        for k, (a, b) in enumerate(zip(texts, want, strict=False), 1):
            assert a == b, f"board {n} ({entry['size']}), step {k}: {a} instead of {b}"
        assert len(texts) == len(want), f"board {n}: {len(texts)} steps instead of {len(want)}"
        assert steps_digest(steps) == entry["digest"], f"board {n}: a step's JSON differs"
        solved, level, per_level = entry["grade"]
        expected = (solved, level, {int(k): v for k, v in per_level.items()})
        for g in (got, grade(layout, start)):
            assert (g.solved, g.level, g.steps) == expected, f"board {n}: grade {g}"


def test_logic_steps_match_the_reference() -> None:
    """The lazily yielded steps are those of the reference too (a sample of boards)."""
    for n, entry in enumerate(boards()[::7]):
        layout, start = layout_of(entry)
        texts = [step_text(s.deduction) for s in logic_steps(layout, start)]
        assert " ".join(texts) == entry["steps"], f"board {7 * n}"


def test_hints_match_the_reference() -> None:
    """Hints in positions along the stored solves are those of the reference."""
    checked = 0
    for n, entry in enumerate(boards()):
        hints = entry.get("hints")
        if not hints:
            continue
        layout, start = layout_of(entry)
        steps = list(logic_steps(layout, start))
        for number, digest in hints.items():
            position = steps[int(number) - 1].position
            assert hints_digest(hint_steps(position)) == digest, f"board {n}, step {number}"
            checked += 1
    assert checked >= 100


def test_big_boards_match_the_reference() -> None:
    """On bigger boards, with hundreds of numbers whose clues change between steps, every step
    and the grade are those of the reference."""
    entries = json.loads(BIG.read_text())["boards"]
    assert sum(e["grade"][2].get("2", 0) for e in entries) >= 150
    for n, entry in enumerate(entries):
        layout, start = layout_of(entry)
        texts, digest = texts_and_digest(layout, start)
        want = entry["steps"].split()
        for k, (a, b) in enumerate(zip(texts, want, strict=False), 1):
            assert a == b, f"big board {n} ({entry['size']}), step {k}: {a} instead of {b}"
        assert len(texts) == len(want), f"big board {n}: {len(texts)} steps, not {len(want)}"
        assert digest == entry["digest"], f"big board {n}: a step's JSON differs"
        solved, level, per_level = entry["grade"]
        g = grade(layout, start)
        assert (g.solved, g.level, g.steps) == (
            solved,
            level,
            {int(k): v for k, v in per_level.items()},
        )
