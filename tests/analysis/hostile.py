"""Hostile positions for the analysis, shared by the tests and ``benchmarks/bench_hostile.py``."""

from __future__ import annotations

import random

from mineproof.board import Board, Layout
from mineproof.position import COVERED, Position

__all__ = ["lattice", "scattered"]


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


def scattered(side: int, seed: int = 1) -> Position:
    """Return a ``side`` x ``side`` position of scattered ones: a sixth of the cells mines,
    about a ninth opened, each a 1 with no opened neighbour, every other cell covered.

    The ones are drawn among the cells of a random layout that touch exactly one mine, so
    the position always has an arrangement: hundreds of small independent components whose
    mine counts the analysis must combine, with numbers of thousands of digits."""
    rng = random.Random(seed)
    board = Board(side, side)
    layout = Layout(board, sum(1 << i for i in rng.sample(range(board.size), board.size // 6)))
    numbers = layout.numbers()
    masks = board.neighbour_masks()
    candidates = [i for i in range(board.size) if numbers[i] == 1]
    rng.shuffle(candidates)
    opened = 0
    for i in candidates:
        if opened.bit_count() == board.size // 9:
            break
        if not masks[i] & opened:
            opened |= 1 << i
    cells = tuple(1 if opened >> i & 1 else COVERED for i in range(board.size))
    return Position(board, cells, layout.mine_count)
