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
from mineproof.play.pseudo import count_fixed, deciders

__all__ = ["WEIGHT", "influence", "influence_factor"]

WEIGHT = 0.9
"""How much a safe arrangement that a 50/50 weighs on counts, on top of counting as safe."""

_PAIR_DECIDERS = 3  # at most this many unknown deciders around a 2-cell 50/50
_BOX_DECIDERS = 3  # and around a 2x2 one


def influence(
    analysis: Analysis,
    cons: Constraints,
    cell: int,
    known_groups: dict[tuple[int, int], int] | None = None,
) -> int:
    """Return the arrangements where ``cell`` is part of a 50/50 in waiting (see the module).

    ``cons`` are the constraints of ``analysis``'s position with flags trusted. A pair is
    shared by two cells and a block by four: ``known_groups``, kept by the caller for one
    position, remembers each group's count by its (mined, safe) cells. Raises
    :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
    """
    position = analysis.position
    board = position.board
    w = board.width
    masks = board.neighbour_masks()
    known = analysis.mine_mask | position.flag_mask
    hidden = position.covered_mask & ~known
    opened = board.full_mask & ~position.covered_mask

    def group(mines: int, safe: int, most: int) -> tuple[int, int] | None:
        """Return the cells that are mines (``mines`` and every unknown decider) and those that
        are safe in the group's 50/50 in waiting; None when a cell of the group is not hidden,
        a decider is opened, or more than ``most`` deciders are unknown (or more than the
        mines left)."""
        if (mines | safe) & ~hidden:
            return None
        around = deciders(masks, mines | safe)
        if around & opened:
            return None
        missing = around & ~known
        if missing.bit_count() > most or (missing | mines).bit_count() > cons.mines:
            return None
        return missing | mines, safe

    def count(found: tuple[int, int]) -> int:
        """Return the group's count, remembered in ``known_groups``."""
        if known_groups is None:
            return count_fixed(cons, *found)
        n = known_groups.get(found)
        if n is None:
            n = known_groups[found] = count_fixed(cons, *found)
        return n

    x, y = board.xy(cell)
    here = 1 << cell
    right, down = here << 1, here << w  # the next cell along a row, and down a column
    left, up = here >> 1, here >> w
    shapes = []
    if x + 1 < w:
        shapes.append(group(here, right, _PAIR_DECIDERS))
    if x > 0:
        shapes.append(group(left, here, _PAIR_DECIDERS))
    if y + 1 < board.height:
        shapes.append(group(here, down, _PAIR_DECIDERS))
    if y > 0:
        shapes.append(group(up, here, _PAIR_DECIDERS))
    pairs = [g for g in shapes if g is not None]
    blocks = []
    for bx, by in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)):
        if 0 <= bx < w - 1 and 0 <= by < board.height - 1:
            corner = by * w + bx  # the block's top left; its mines on the main diagonal
            diagonal = 1 << corner | 1 << (corner + w + 1)
            found = group(diagonal, 1 << (corner + 1) | 1 << (corner + w), _BOX_DECIDERS)
            if found is not None:
                blocks.append(found)
    mine = analysis.mine_counts[cell]
    cap = min(mine, analysis.arrangements - mine)
    risk = sum(count(g) for g in pairs) + max((count(g) for g in blocks), default=0)
    return min(risk, cap)


def influence_factor(analysis: Analysis, cell: int, risk: int) -> float:
    """Return how much ``risk`` arrangements of 50/50s in waiting (:func:`influence`) raise
    ``cell``'s score: ``1 + WEIGHT * risk / (its arrangements without a mine)``; 1.0 for a cell
    that is a mine in every arrangement."""
    safe = analysis.arrangements - analysis.mine_counts[cell]
    if safe <= 0:
        return 1.0
    return 1 + WEIGHT * (risk / safe)  # int / int: exact, any size
