"""Unavoidable 50/50s: cells whose mines lie one of two ways that no number can ever tell apart.

A *link* is an opened number that needs exactly one more mine among exactly two unknown
cells: in every arrangement, one of the two is a mine and the other is safe. Links that share
cells join into a *chain*, whose cells split into two sides ``A`` and ``B``: in every
arrangement, either every cell of ``A`` is a mine and every cell of ``B`` is safe, or the
other way round (the links alternate along the chain).

Swapping the two sides of every arrangement gives another arrangement that no cell outside
the chain can tell apart from it, when

- both sides hold as many cells (so the mine total is the same), and
- every cell outside the chain that is not a known mine, opened or covered, borders as many
  cells of ``A`` as of ``B`` (so its number, shown now or later, is the same).

Then each arrangement and its swap are equally likely whatever is opened outside the chain,
each cell of the chain is a mine with probability exactly 1/2 now and after any other move,
and the game can be won only by opening a cell of the chain at those odds some time: the
guess is unavoidable. Taken first, a game lost on it is lost before the work of the rest, and
a game that survives it plays the rest knowing the whole chain.

The classic isolated pair (two cells holding one mine, walled in by opened cells and known
mines) is the chain of one link. JSMinesweeper looks for the same chains link by link
(``checkForUnavoidable5050`` in its probability engine); the test here is the exact condition
above, checked for every chain at once.
"""

from __future__ import annotations

from mineproof.analysis import Analysis
from mineproof.board import iter_bits

__all__ = ["link_chains", "unavoidable_fifty_fifties"]


def unavoidable_fifty_fifties(analysis: Analysis) -> list[int]:
    """Return the cells of every unavoidable 50/50 chain of ``analysis``'s position (see the
    module), one mask per chain, in the order of each chain's lowest cell.

    Flags and the mines the analysis proves count as known mines (the player flags only
    proven mines). Each cell of a chain returned is a mine in exactly half the arrangements.
    """
    position = analysis.position
    masks = position.board.neighbour_masks()
    known = analysis.mine_mask | position.flag_mask
    found: list[int] = []
    for side0, side1 in link_chains(analysis):
        if side0.bit_count() != side1.bit_count():
            continue  # the two ways differ in mines
        chain = side0 | side1
        border = 0
        for c in iter_bits(chain):
            border |= masks[c]
        border &= ~chain & ~known
        if all(
            (masks[c] & side0).bit_count() == (masks[c] & side1).bit_count()
            for c in iter_bits(border)
        ):
            found.append(chain)
    return found


def link_chains(analysis: Analysis) -> list[tuple[int, int]]:
    """Return the two sides of every chain of links of ``analysis``'s position (see the
    module) whose links agree, in the order of each chain's lowest cell.

    In every arrangement one side is all mines and the other all safe. Flags and the mines
    the analysis proves count as known mines.
    """
    position = analysis.position
    cells = position.cells
    masks = position.board.neighbour_masks()
    known = analysis.mine_mask | position.flag_mask
    unknown = position.covered_mask & ~known
    partners: dict[int, list[int]] = {}
    for i in iter_bits(position.number_mask):
        near = masks[i] & unknown
        if near.bit_count() != 2 or cells[i] - (masks[i] & known).bit_count() != 1:
            continue
        a = (near & -near).bit_length() - 1
        b = near.bit_length() - 1
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    chains: list[tuple[int, int]] = []
    seen = 0
    for start in sorted(partners):
        if seen >> start & 1:
            continue
        sides = _sides(start, partners)
        seen |= sides[0] | sides[1]
        if not sides[0] & sides[1]:  # otherwise the links contradict each other
            chains.append(sides)
    return chains


def _sides(start: int, partners: dict[int, list[int]]) -> tuple[int, int]:
    """Return the two sides of the chain of links through ``start``: the cells an even number
    of links away from it, and those an odd number away (a cell in both means the links
    contradict each other)."""
    sides = [1 << start, 0]
    todo = [(start, 0)]
    while todo:
        cell, side = todo.pop()
        for other in partners[cell]:
            if not (sides[0] | sides[1]) >> other & 1:
                sides[1 - side] |= 1 << other
                todo.append((other, 1 - side))
            elif not sides[1 - side] >> other & 1:
                sides[1 - side] |= 1 << other  # an odd cycle: marks the contradiction
    return sides[0], sides[1]
