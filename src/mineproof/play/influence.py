"""Long-term risk: how often a cell would end up in a 50/50 that no number could break.

Two covered cells side by side, or a 2x2 block, can hold their mines in two ways that no cell
outside them can tell apart, once every cell that sees one way but not the other (its
*deciders*) is a mine or off the board: that is a 50/50 waiting to happen. A guess elsewhere
leaves it to be guessed later; opening a cell of it now settles it while the rest of the game
is still to play. So the ``best`` strategy raises the score of a cell by the share of its safe
arrangements that such a 50/50 weighs on (JSMinesweeper weighs it the same way, with the same
0.9, in its ``LongTermRiskHelper``).

For a cell, :func:`influence` counts the arrangements where it is one of a 2-cell 50/50 (with
each of its four neighbours in a row or a column, in both roles: the mine or the safe cell),
plus the largest such count over the four 2x2 blocks it belongs to (the block's mines on one
diagonal, its safe cells on the other), each with every unknown decider a mine; a pair with
more than three unknown deciders, or a block with more than three, is left out (it is then
too unlikely). The total is capped at the cell's arrangements with a mine, and at those
without, as JSMinesweeper caps it.
"""

from __future__ import annotations

from mineproof.analysis import Analysis
from mineproof.analysis.constraints import Constraints
from mineproof.play.pseudo import count_fixed

__all__ = ["WEIGHT", "influence", "influence_factor"]

WEIGHT = 0.9
"""How much a safe arrangement that a 50/50 weighs on counts, on top of counting as safe."""

_PAIR_DECIDERS = 3  # at most this many unknown deciders around a 2-cell 50/50
_BOX_DECIDERS = 3  # and around a 2x2 one


def influence(analysis: Analysis, cons: Constraints, cell: int) -> int:
    """Return the arrangements where ``cell`` is part of a 50/50 in waiting (see the module).

    ``cons`` are the constraints of ``analysis``'s position with flags trusted. Raises
    :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
    """
    position = analysis.position
    board = position.board
    w, h = board.width, board.height
    covered = position.covered_mask
    known = analysis.mine_mask | position.flag_mask

    def hidden(x: int, y: int) -> bool:
        if not (0 <= x < w and 0 <= y < h):
            return False
        i = y * w + x
        return bool(covered >> i & 1) and not known >> i & 1

    def deciders(cells: list[tuple[int, int]]) -> int | None:
        """Return the unknown cells among ``cells`` on the board; None if one is opened."""
        mask = 0
        for x, y in cells:
            if not (0 <= x < w and 0 <= y < h):
                continue
            i = y * w + x
            if not covered >> i & 1:
                return None
            if not known >> i & 1:
                mask |= 1 << i
        return mask

    def pair(x: int, y: int, dx: int, dy: int) -> int:
        """Arrangements with (x, y) the mine of a 2-cell 50/50 with the next cell along."""
        x2, y2 = x + dx, y + dy
        if not (hidden(x, y) and hidden(x2, y2)):
            return 0
        if dx:
            around = [(x - 1, y + k) for k in (-1, 0, 1)] + [(x + 2, y + k) for k in (-1, 0, 1)]
        else:
            around = [(x + k, y - 1) for k in (-1, 0, 1)] + [(x + k, y + 2) for k in (-1, 0, 1)]
        missing = deciders(around)
        if missing is None or missing.bit_count() > _PAIR_DECIDERS:
            return 0
        if missing.bit_count() + 1 > cons.mines:
            return 0
        return count_fixed(cons, missing | 1 << (y * w + x), 1 << (y2 * w + x2))

    def box(x: int, y: int) -> int:
        """Arrangements with the 2x2 block at (x, y) a 50/50, mines on its main diagonal."""
        if not all(hidden(x + a, y + b) for a in (0, 1) for b in (0, 1)):
            return 0
        missing = deciders([(x - 1, y - 1), (x + 2, y - 1), (x - 1, y + 2), (x + 2, y + 2)])
        if missing is None or missing.bit_count() > _BOX_DECIDERS:
            return 0
        if missing.bit_count() + 2 > cons.mines:
            return 0
        mines = missing | 1 << (y * w + x) | 1 << ((y + 1) * w + x + 1)
        return count_fixed(cons, mines, 1 << ((y + 1) * w + x) | 1 << (y * w + x + 1))

    x, y = board.xy(cell)
    total = pair(x, y, 1, 0) + pair(x - 1, y, 1, 0) + pair(x, y, 0, 1) + pair(x, y - 1, 0, 1)
    total += max(box(x, y), box(x - 1, y), box(x, y - 1), box(x - 1, y - 1))
    mine = analysis.mine_counts[cell]
    return min(total, mine, analysis.arrangements - mine)


def influence_factor(analysis: Analysis, cons: Constraints, cell: int) -> float:
    """Return how much the 50/50s in waiting raise ``cell``'s score: ``1 + WEIGHT * influence /
    (its arrangements without a mine)``; 1.0 for a cell that is a mine in every arrangement.

    Raises :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
    """
    safe = analysis.arrangements - analysis.mine_counts[cell]
    if safe <= 0:
        return 1.0
    return 1 + WEIGHT * (influence(analysis, cons, cell) / safe)  # int / int: exact, any size
