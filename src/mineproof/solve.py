"""Logic-only solving of a whole layout from a start cell.

The solver plays as a perfect logician who knows the mine total: it opens every cell that is
safe in every arrangement and flags every cell that is a mine in every arrangement, again and
again, until the board is cleared or nothing is forced. Cheap one-clue propagation runs first;
the exact analysis runs only when propagation is stuck, so the solve is complete and still fast.
"""

from __future__ import annotations

from dataclasses import dataclass

from mineproof.analysis import analyze
from mineproof.analysis.constraints import constraints_of, propagate
from mineproof.board import Layout, cell_name, iter_bits
from mineproof.errors import IllegalMoveError
from mineproof.game import Game
from mineproof.position import Position

__all__ = ["SolveResult", "solve"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of a logic-only solve.

    ``solved`` says whether every safe cell was opened; ``revealed`` counts the safe cells open
    at the end, of ``safe_cells``; ``steps`` counts the rounds of deduction (each round opens
    every cell proven safe at that moment); ``position`` is the final view, forced mines flagged.
    """

    start: tuple[int, int]
    solved: bool
    revealed: int
    safe_cells: int
    steps: int
    position: Position


def solve(layout: Layout, start: tuple[int, int]) -> SolveResult:
    """Return the result of solving ``layout`` logic-only from the ``start`` cell.

    Raises :class:`~mineproof.errors.FormatError` when ``start`` is outside the board and
    :class:`~mineproof.errors.IllegalMoveError` when it holds a mine.
    """
    board = layout.board
    i = board.index(*start)
    if layout.is_mine(i):
        raise IllegalMoveError(
            f"the start cell ({start[0]}, {start[1]}) [{cell_name(*start)}] is a mine",
            cell=start,
        )
    game = Game(layout)
    game.reveal(*start)
    steps = 0
    while game.state == "playing":
        position = game.position()
        safe, mine, _ = propagate(constraints_of(position, trust_flags=True).clues)
        if not safe:
            analysis = analyze(position, trust_flags=True)
            safe, mine = analysis.safe_mask, analysis.mine_mask
        for cell in iter_bits(mine):
            game.flag(*board.xy(cell))
        if not safe:
            break
        steps += 1
        for cell in iter_bits(safe):
            if not game.opened_mask >> cell & 1:
                game.reveal(*board.xy(cell))
    safe_cells = board.size - layout.mine_count
    revealed = game.opened_mask.bit_count()
    return SolveResult(start, revealed == safe_cells, revealed, safe_cells, steps, game.position())
