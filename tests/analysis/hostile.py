"""Hostile positions for the analysis, shared by the tests and ``benchmarks/bench_hostile.py``."""

from __future__ import annotations

import random

from mineproof.board import Board, Layout
from mineproof.position import COVERED, Position

__all__ = ["lattice"]


def lattice(width: int, height: int, seed: int = 1) -> Position:
    """Return a lattice position: numbers where x and y are both even, every other cell
    covered, a quarter of them mines: a two-dimensional frontier, the hardest kind for exact
    counting."""
    rng = random.Random(seed)
    board = Board(width, height)
    covered = [i for i in range(board.size) if (i % width) % 2 or (i // width) % 2]
    layout = Layout.from_cells(board, [board.xy(i) for i in rng.sample(covered, len(covered) // 4)])
    numbers = layout.numbers()
    cells = tuple(
        COVERED if (i % width) % 2 or (i // width) % 2 else numbers[i] for i in range(board.size)
    )
    return Position(board, cells, layout.mine_count)
