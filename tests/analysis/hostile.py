"""Hostile positions for the analysis, shared by the tests and ``benchmarks/bench_hostile.py``."""

from __future__ import annotations

import random

from mineproof.board import Board, Layout
from mineproof.position import COVERED, FLAG, Position

__all__ = ["lattice", "scattered", "snake"]


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


def snake(side: int, broken: bool = False) -> tuple[Position, Layout]:
    """Return a ``side`` x ``side`` position (``side`` odd) whose covered cells form one snake,
    each proven by the one before, and the layout it was made from.

    Even rows are flagged mines. Odd rows alternate covered cells and numbers, each number
    seeing two covered cells of the snake, and the snake turns at the ends of the rows through
    a number in the flagged row between them; mines and safe cells alternate along it. Only the
    number below its last cell, in the bottom row, says which: every number is "one of these
    two" otherwise, so the one-clue rules decide the snake a cell at a time from its far end,
    against the order of the clues. With ``broken``, the first number of the snake says two
    mines where there is one: a conflict that only the whole snake shows.
    """
    board = Board(side, side)
    chain_rows = range(1, side - 1, 2)
    kind = {
        i: "flag" if (i // side) % 2 == 0 else "covered" if (i % side) % 2 == 0 else "number"
        for i in range(board.size)
    }
    path: list[int] = []
    for k, y in enumerate(chain_rows):
        xs = list(range(0, side, 2))
        path += [board.index(x, y) for x in (xs if k % 2 == 0 else xs[::-1])]
        turn = side - 1 if k % 2 == 0 else 0
        kind[board.index(turn, y + 1)] = "number"  # the turn, or below the last cell
    mines = [i for i in range(board.size) if kind[i] == "flag"] + path[::2]
    layout = Layout.from_cells(board, [board.xy(i) for i in mines])
    numbers = list(layout.numbers())
    if broken:
        numbers[board.index(1, 1)] += 1
    cells = tuple(
        FLAG if kind[i] == "flag" else COVERED if kind[i] == "covered" else numbers[i]
        for i in range(board.size)
    )
    return Position(board, cells, layout.mine_count), layout
