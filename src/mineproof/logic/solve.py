"""Logic-only solving of a whole layout from a start cell.

The solver plays as a perfect logician who knows the mine total: it opens every cell that is
safe in every arrangement and flags every cell that is a mine in every arrangement, again and
again, until the board is cleared or nothing is forced. Cheap one-clue propagation runs first;
the exact count with the mine total runs only when propagation is stuck, so the solve is complete
and still fast (see :mod:`mineproof.logic.engine`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mineproof.board import Layout
from mineproof.logic.engine import Engine
from mineproof.position import Position

__all__ = ["SolveResult", "solve"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of a logic-only solve.

    ``solved`` says whether every safe cell was opened; ``revealed`` counts the safe cells open
    at the end, of ``safe_cells``; ``steps`` counts the rounds of deduction (each round opens
    every cell proven safe at that moment); ``position`` is the final view: the cells opened,
    and a flag on each mine the solve proved (the cells left covered are those it could not
    decide).
    """

    start: tuple[int, int]
    solved: bool
    revealed: int
    safe_cells: int
    steps: int
    position: Position


def solve(layout: Layout, start: tuple[int, int]) -> SolveResult:
    """Return the result of solving ``layout`` logic-only from the ``start`` cell.

    Raises :class:`~mineproof.errors.ArgumentError` when ``start`` is outside the board and
    :class:`~mineproof.errors.IllegalMoveError` when it holds a mine.
    """
    board = layout.board
    i = layout.start_index(start)
    engine = Engine(layout, i)
    engine.reveal(i)
    solved = engine.play(5, exact_levels=False)
    safe_cells = board.size - layout.mine_count
    return SolveResult(
        start, solved, engine.opened.bit_count(), safe_cells, engine.rounds, engine.position()
    )
