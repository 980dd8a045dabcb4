"""The exact end game: when few arrangements remain, the guess that wins most often.

Every arrangement that fits the position is listed (a bitmask of its mines among the unknown
cells). Opening a cell splits the arrangements where it is safe by the number it shows; the
chance to win from a set of arrangements is 1 when one is left (every mine is known), and
otherwise the best, over the cells, of the chances of the parts weighted by their sizes. Sets
are remembered, so a position reached by different orders of moves is searched once, and a
cell is skipped as soon as its chance to be safe cannot beat the best cell found so far.

The search has a budget of work; past it, it gives up (returns None) and the caller guesses by
heuristics, so that a hard end game cannot stall a benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from mineproof.analysis.constraints import Clue
from mineproof.board import iter_bits

__all__ = ["EndgameSearch", "arrangements"]


class _OverBudget(Exception):
    """Raised inside the search when its budget of work is spent."""


def arrangements(unknown: int, mines: int, clues: Sequence[Clue], limit: int) -> list[int] | None:
    """Return every set of ``mines`` cells of ``unknown`` that fits every clue, as bitmasks.

    The clues must be reduced to ``unknown`` cells. Returns None as soon as more than ``limit``
    arrangements are found (or the search for them grows too long). The order is deterministic.
    """
    frontier = 0
    for clue in clues:
        frontier |= clue.mask
    frontier &= unknown
    outside = iter_bits(unknown & ~frontier)
    # Cells in the order of the clues, so that each clue closes as early as possible.
    order: list[int] = []
    seen = 0
    for clue in clues:
        for c in iter_bits(clue.mask & ~seen):
            order.append(c)
        seen |= clue.mask
    of_cell: dict[int, list[int]] = {c: [] for c in order}
    for k, clue in enumerate(clues):
        for c in iter_bits(clue.mask):
            of_cell[c].append(k)
    need = [clue.mines for clue in clues]
    room = [clue.mask.bit_count() for clue in clues]
    found: list[int] = []
    steps = 0
    budget = 200 * limit + 10_000

    def place(at: int, mask: int, used: int) -> None:
        nonlocal steps
        steps += 1
        if steps > budget or len(found) > limit:
            raise _OverBudget
        if at == len(order):
            rest = mines - used
            if 0 <= rest <= len(outside):
                for chosen in combinations(outside, rest):
                    m = mask
                    for c in chosen:
                        m |= 1 << c
                    found.append(m)
                    if len(found) > limit:
                        raise _OverBudget
            return
        cell = order[at]
        ks = of_cell[cell]
        for k in ks:
            room[k] -= 1
        # Safe: every clue of the cell must still find its mines in the cells left.
        if all(need[k] <= room[k] for k in ks):
            place(at + 1, mask, used)
        if used < mines and all(need[k] > 0 for k in ks):
            for k in ks:
                need[k] -= 1
            place(at + 1, mask | 1 << cell, used + 1)
            for k in ks:
                need[k] += 1
        for k in ks:
            room[k] += 1

    try:
        place(0, 0, 0)
    except _OverBudget:
        return None
    return found


class EndgameSearch:
    """The exact search over a list of arrangements on a board's neighbourhoods.

    ``masks[c]`` is the neighbour mask of cell ``c``; ``cells`` the unknown cells that may be
    opened; ``budget`` the number of (set, cell) evaluations allowed.
    """

    def __init__(self, masks: Sequence[int], cells: list[int], budget: int) -> None:
        """Prepare a search over ``cells`` with neighbour ``masks`` and a work ``budget``."""
        self.masks = masks
        self.cells = cells
        self.budget = budget
        self.memo: dict[tuple[int, ...], float] = {}

    def _split(self, states: tuple[int, ...], cell: int) -> list[tuple[int, ...]]:
        """Return the arrangements where ``cell`` is safe, grouped by the number it shows."""
        self.budget -= 1
        if self.budget < 0:
            raise _OverBudget
        near = self.masks[cell]
        groups: dict[int, list[int]] = {}
        bit = 1 << cell
        for m in states:
            if not m & bit:
                groups.setdefault((m & near).bit_count(), []).append(m)
        return [tuple(g) for g in groups.values()]

    def _ranked(self, states: tuple[int, ...]) -> list[tuple[int, int]]:
        """Return ``(safe arrangements, cell)`` for the cells worth opening, safest first.

        A cell that is a mine in every arrangement is left out, and so is one that is safe in
        every arrangement and shows the same number in each (opening it tells nothing).
        """
        union = 0
        common = -1
        for m in states:
            union |= m
            common &= m
        out = []
        n = len(states)
        for c in self.cells:
            bit = 1 << c
            if common & bit:
                continue
            if not union & bit:
                near = self.masks[c]
                first = (states[0] & near).bit_count()
                if all((m & near).bit_count() == first for m in states):
                    continue
                out.append((n, c))
            else:
                out.append((sum(1 for m in states if not m & bit), c))
        out.sort(key=lambda t: (-t[0], t[1]))
        return out

    def chance(self, states: tuple[int, ...]) -> float:
        """Return the chance to win from these arrangements (equally likely) with best play."""
        if len(states) == 1:
            return 1.0
        got = self.memo.get(states)
        if got is not None:
            return got
        n = len(states)
        best = 0.0
        for safe, c in self._ranked(states):
            if safe / n <= best + 1e-12:
                break
            value = sum(len(g) * self.chance(g) for g in self._split(states, c)) / n
            if value > best:
                best = value
        self.memo[states] = best
        return best

    def best_cell(self, states: tuple[int, ...]) -> tuple[int, float] | None:
        """Return the cell that wins most often from ``states`` and its chance to win.

        Among equals, the safest and then the lowest-index cell; None when the budget runs out.
        """
        n = len(states)
        best: tuple[int, float] | None = None
        try:
            for safe, c in self._ranked(states):
                if best is not None and safe / n <= best[1] + 1e-12:
                    break
                value = sum(len(g) * self.chance(g) for g in self._split(states, c)) / n
                if best is None or value > best[1] + 1e-12:
                    best = (c, value)
        except _OverBudget:
            return None
        return best
