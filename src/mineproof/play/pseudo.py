"""Pseudo 50/50s: a cell that is either safe or the mine of a 50/50 that no number can decide.

Take two covered cells ``t`` and ``u`` side by side (in a row or a column). The cells that see
exactly one of them are the only ones whose number could tell "the mine is in ``t``" from "the
mine is in ``u``": call them the *deciders*. In an arrangement where ``t`` is a mine, ``u`` is
safe and every decider is a mine, moving the mine from ``t`` to ``u`` gives another arrangement
that fits every number shown, and no cell that can ever be opened, other than ``t`` and ``u``
themselves, tells the two apart: one of them must be guessed, and half of such games are lost
whatever the order of the moves.

When *every* arrangement with ``t`` a mine is of that kind, opening ``t`` now costs nothing that
is not lost anyway: it loses only where the 50/50 was bound to come, and otherwise it shows a
number. Taking it first saves the risk of the guesses that would otherwise come before it (and
that would be wasted, half of the time, by the coin at the end). The test is exact: two counts
of arrangements per pair, made only for pairs with at most ``_MISSING`` deciders still unknown
(the others are already known mines or lie off the board), so it stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

from mineproof.analysis import Analysis
from mineproof.analysis.constraints import Constraints, Contradiction, condition
from mineproof.analysis.core import count_total
from mineproof.board import iter_bits

__all__ = ["count_fixed", "deciders", "pseudo_fifty_fifty"]

_MISSING = 1  # at most this many deciders may be unknown cells (the rest: known mines)
_PAIRS = 24  # at most this many pairs are counted in one position (each costs one count)


def deciders(masks: Sequence[int], cells: int) -> int:
    """Return the cells that see an odd number of ``cells`` and are not among them.

    For two cells side by side, or a 2x2 block, these are the cells whose number could tell
    the two ways of placing the mines apart (no cell outside a 2x2 block sees three of it).
    ``masks`` are the board's neighbour masks.
    """
    seen = 0
    for c in iter_bits(cells):
        seen ^= masks[c]
    return seen & ~cells


def count_fixed(cons: Constraints, mines: int, safe: int) -> int:
    """Return the number of arrangements of ``cons`` with every cell of ``mines`` a mine and
    every cell of ``safe`` safe (both masks of unknown cells, disjoint); 0 when none fits.

    Raises :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
    """
    try:
        conditioned = condition(cons, mines, safe)
        return count_total(conditioned.unknown, conditioned.mines, conditioned.clues)
    except Contradiction:
        return 0


def pseudo_fifty_fifty(analysis: Analysis, cons: Constraints) -> int | None:
    """Return a cell that is safe or the mine of an undecidable 50/50 (see the module), or None.

    ``cons`` are the constraints of ``analysis``'s position with flags trusted. Pairs are tried
    in the order of their lower cell, row pairs before column pairs; the first cell found is
    returned. Raises :class:`~mineproof.analysis.CountTooLarge` past the counting budget.
    """
    position = analysis.position
    board = position.board
    masks = board.neighbour_masks()
    counts = analysis.mine_counts
    known = analysis.mine_mask | position.flag_mask
    unknown = cons.unknown & ~analysis.mine_mask
    opened = board.full_mask & ~position.covered_mask
    w = board.width
    tried = 0
    for t in iter_bits(unknown):
        x = t % w
        for u in (t + 1 if x + 1 < w else -1, t + w if t + w < board.size else -1):
            if u < 0 or not unknown >> u & 1:
                continue
            pair = 1 << t | 1 << u
            around = deciders(masks, pair)
            if around & opened:
                continue
            missing = around & ~known
            if missing.bit_count() > _MISSING:
                continue
            tried += 1
            if tried > _PAIRS:
                return None
            for a, b in ((t, u), (u, t)):
                if counts[a] == 0 or counts[a] == analysis.arrangements:
                    continue
                twins = count_fixed(cons, 1 << a | missing, 1 << b)
                if twins == counts[a]:
                    return a
    return None
