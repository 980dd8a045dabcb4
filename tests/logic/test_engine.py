"""The solving engine limited to a level clears a board exactly when the board's grade (the
explained solve, one lowest-level deduction at a time) is at most that level; and whether a
board is cleared at all agrees with a perfect logician written here."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.board import Board, Layout
from mineproof.errors import ArgumentError, IllegalMoveError
from mineproof.logic import LEVELS, Engine, grade

from .oracle import around, bits, forced, mask_of

# Boards whose grade is 3, 4 or 5 (see tests/logic/test_steps.py) and a few that get stuck.
GRADED = [
    (8, 8, 13, 49),
    (9, 9, 14, 37),
    (9, 9, 14, 901),
    (9, 9, 16, 2),
    (16, 16, 45, 20),
    (16, 16, 45, 233),
    (16, 16, 40, 1),
    (9, 9, 18, 31),
    (30, 16, 99, 3),
]


def check_engine(layout: Layout, start: tuple[int, int]) -> int:
    """Check every level against the grade; return the grade's level (-1 when unsolved)."""
    g = grade(layout, start)
    i = layout.board.index(*start)
    for level in LEVELS:
        engine = Engine(layout, i)
        engine.reveal(i)
        cleared = engine.play(level)
        assert cleared == (g.solved and g.level <= level), (level, g)
        if cleared:
            assert engine.hardest == g.level, (level, engine.hardest, g)
    return g.level if g.solved else -1


def logician_clears(layout: Layout, start: tuple[int, int]) -> bool:
    """Return whether a perfect logician who knows the mine total clears the board: open every
    cell no arrangement mines (by search), repeat."""
    w, h = layout.board.width, layout.board.height
    mines = layout.mines
    numbers = [sum(1 for n in around(w, h, i) if mines >> n & 1) for i in range(w * h)]
    opened = 0
    todo = [start[1] * w + start[0]]
    while True:
        while todo:
            c = todo.pop()
            if opened >> c & 1:
                continue
            opened |= 1 << c
            if numbers[c] == 0:
                todo.extend(around(w, h, c))
        covered = ((1 << w * h) - 1) & ~opened
        if covered == mines:
            return True
        clues = []
        for c in bits(opened):
            mask = mask_of(n for n in around(w, h, c) if covered >> n & 1)
            if mask:
                clues.append((c, mask, numbers[c]))
        safe, _ = forced(clues, covered, (covered, mines.bit_count()))
        if not safe:
            return False
        todo = list(bits(safe))


@pytest.mark.parametrize(("w", "h", "mines", "seed"), GRADED, ids=[str(b) for b in GRADED])
def test_engine_levels_match_the_grade(w: int, h: int, mines: int, seed: int) -> None:
    start = (w // 2, h // 2)
    layout = Layout.random(Board(w, h), mines, random.Random(seed), start, "opening")
    level = check_engine(layout, start)
    assert (level >= 0) == logician_clears(layout, start)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_engine_levels_match_the_grade_on_random_boards(seed: int) -> None:
    rng = random.Random(seed)
    w, h = rng.randint(5, 12), rng.randint(5, 10)
    mines = rng.randint(3, w * h // 5)
    start = (rng.randrange(w), rng.randrange(h))
    layout = Layout.random(Board(w, h), mines, rng, start, "opening")
    level = check_engine(layout, start)
    assert (level >= 0) == logician_clears(layout, start)


def test_the_engine_refuses_to_start_on_a_mine_or_off_the_board() -> None:
    """Started on a mine, the engine showed it as an opened 0 and flagged a safe cell."""
    layout = Layout.from_cells(Board(4, 3), [(0, 2), (3, 2), (3, 0)])
    with pytest.raises(IllegalMoveError, match="is a mine"):
        Engine(layout, 8)  # (0, 2)
    for start in (12, -1):
        with pytest.raises(ArgumentError, match="not on the board"):
            Engine(layout, start)
    engine = Engine(layout, 0)
    with pytest.raises(IllegalMoveError, match="is a mine"):
        engine.reveal(8)
