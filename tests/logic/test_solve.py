"""The logic-only solver against a brute-force perfect logician on small boards."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.board import Board, Layout
from mineproof.errors import ArgumentError, IllegalMoveError
from mineproof.logic import solve


def neighbours(w: int, h: int, i: int) -> list[int]:
    x, y = i % w, i // w
    return [
        ny * w + nx
        for ny in range(max(0, y - 1), min(h, y + 2))
        for nx in range(max(0, x - 1), min(w, x + 2))
        if (nx, ny) != (x, y)
    ]


def logician(w: int, h: int, mines: set[int], start: int) -> int:
    """Return how many safe cells a perfect logician who knows the mine total opens.

    Written from scratch: it keeps every layout consistent with what is open (all subsets of the
    cells with the right mine total), opens every cell that is safe in all of them, repeats.
    """
    size = w * h
    number = {i: sum(n in mines for n in neighbours(w, h, i)) for i in range(size)}
    opened: set[int] = set()

    def open_cell(i: int) -> None:
        todo = [i]
        while todo:
            c = todo.pop()
            if c in opened:
                continue
            opened.add(c)
            if number[c] == 0:
                todo.extend(n for n in neighbours(w, h, c) if n not in opened)

    open_cell(start)
    candidates = [frozenset(c) for c in combinations(range(size), len(mines))]
    while True:
        candidates = [
            c
            for c in candidates
            if not (c & opened)
            and all(sum(n in c for n in neighbours(w, h, i)) == number[i] for i in opened)
        ]
        covered = set(range(size)) - opened
        safe = {i for i in covered if all(i not in c for c in candidates)}
        if not safe:
            return len(opened)
        for i in safe:
            open_cell(i)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 5),
    st.integers(3, 5),
    st.floats(0.1, 0.3),
    st.integers(0, 2**32 - 1),
)
def test_solver_opens_exactly_what_a_perfect_logician_opens(
    w: int, h: int, density: float, seed: int
) -> None:
    board = Board(w, h)
    count = max(1, round(density * w * h))
    rng = random.Random(seed)
    start = (rng.randrange(w), rng.randrange(h))
    layout = Layout.random(board, count, rng, start, "safe")
    result = solve(layout, start)
    mines = {i for i in range(w * h) if layout.is_mine(i)}
    expected = logician(w, h, mines, board.index(*start))
    assert result.revealed == expected
    assert result.solved == (expected == w * h - count)


def test_solved_board_final_position_is_consistent() -> None:
    board = Board(16, 16)
    solved = 0
    for seed in range(30):
        layout = Layout.random(board, 40, random.Random(seed), (8, 8), "opening")
        result = solve(layout, (8, 8))
        numbers = layout.numbers()
        for i, code in enumerate(result.position.cells):
            if code >= 0:
                assert numbers[i] == code
            elif code == -2:
                assert layout.is_mine(i)
        solved += result.solved
        if result.solved:
            assert result.revealed == result.safe_cells == 256 - 40
    assert 0 < solved < 30


def test_start_errors() -> None:
    layout = Layout.from_cells(Board(3, 3), [(0, 0)])
    with pytest.raises(IllegalMoveError, match="start cell"):
        solve(layout, (0, 0))
    with pytest.raises(ArgumentError, match="outside"):
        solve(layout, (3, 0))
