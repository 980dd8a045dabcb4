"""The unseen-swap check never rejects a guess-free layout, and finds the swaps it looks for.

The oracles: the complete solver on random layouts of many densities (a layout the check
rejects must not be cleared), the tests' own brute-force logician on small boards (every
rejected layout is missing from its list of guess-free layouts), and swaps placed by hand.
"""

from __future__ import annotations

import random

import pytest

from mineproof.board import Board, Layout
from mineproof.generate import generate
from mineproof.logic import SwapCheck, solve

from .oracle import guess_free_layouts


@pytest.mark.parametrize(
    ("width", "height", "mines"),
    [(30, 16, 99), (30, 16, 130), (16, 16, 40), (9, 9, 10), (8, 8, 20)],
)
def test_a_rejected_layout_is_never_cleared(width: int, height: int, mines: int) -> None:
    board = Board(width, height)
    start = ((width - 1) // 2, (height - 1) // 2)
    area = board.start_area(board.index(*start), "opening")
    check = SwapCheck(board)
    rng = random.Random(f"swaps-{width}x{height}/{mines}")
    rejected = 0
    for _ in range(150):
        layout = Layout.random(board, mines, rng, start, "opening")
        if check.needs_guess(layout.mines, area):
            rejected += 1
            assert not solve(layout, start).solved, layout
    assert rejected >= 5  # the check does find swaps on these boards


@pytest.mark.parametrize(
    ("size", "start"),
    [((5, 5, 5), (2, 2)), ((4, 4, 4), (0, 0)), ((5, 4, 6), (4, 3))],
)
def test_rejected_layouts_are_not_in_the_oracles_list(
    size: tuple[int, int, int], start: tuple[int, int]
) -> None:
    # A safe first click (one cell kept free): an opening in the middle of a board this small
    # sees every other cell, so no swap is ever unseen there.
    width, height, mines = size
    board = Board(width, height)
    area = board.start_area(board.index(*start), "safe")
    listed = set(guess_free_layouts(width, height, mines, start, "safe"))
    check = SwapCheck(board)
    rng = random.Random(7)
    rejected = 0
    for _ in range(400):
        layout = Layout.random(board, mines, rng, start, "safe")
        if check.needs_guess(layout.mines, area):
            rejected += 1
            assert layout.mines not in listed
    assert rejected >= 20


def test_swaps_placed_by_hand() -> None:
    board = Board(6, 4)
    check = SwapCheck(board)
    start = board.start_area(board.index(1, 1), "opening")
    # Row 1 of a 6x4 board: B1 and C1 beside the opening are seen by it; E1/F1 in the corner
    # behind a wall of mines at D1, D2, E2, F2 hide one mine between them.
    wall = {(3, 0), (3, 1), (4, 1), (5, 1)}
    hidden = Layout.from_cells(board, [*wall, (5, 0)])
    assert check.needs_guess(hidden.mines, start)
    assert not solve(hidden, (1, 1)).solved
    # Without the mine at D2 (E2 too is free), D2's number tells E1 from F1, and C1's and
    # C2's (in the opening) tell D1 from E1: no unseen swap.
    seen = Layout.from_cells(board, [(3, 0), (5, 0)])
    assert not check.needs_guess(seen.mines, start)
    # A swap inside the start area is no swap: the area is known to be free.
    assert not check.needs_guess(0, start)


def test_the_exact_sampler_is_plain_rejection_with_a_shortcut() -> None:
    # On the same seeds, the exact sampler and a plain rejection written here (uniform layouts
    # until one is cleared by the complete solver) draw the same boards: the check only skips
    # layouts the solver would reject.
    board = Board(30, 16)
    start = (14, 7)
    for seed in range(25):
        rng = random.Random(seed)
        while True:
            layout = Layout.random(board, 99, rng, start, "opening")
            if solve(layout, start).solved:
                break
        made = generate(board, 99, random.Random(seed), start=start, sampler="exact")
        assert made.layout == layout and made.sampler == "exact"
