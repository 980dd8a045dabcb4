"""The fewest premises that prove a cell: deletion to a minimal set, then a search for smaller.

Deletion (drop a clue whenever the rest still proves the cell) gives a set where no clue can be
dropped, but not always the smallest. The search then tries every smaller set, in order of size,
among the clues that could take part: without the mine total only sets linked by shared cells to
the cell itself can prove it (the other clues are independent of it). Both steps spend from a
work budget; when it runs out the answer is still a true proof, marked as not minimal or not
known to be the fewest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

from mineproof.analysis.constraints import Clue
from mineproof.board import Board
from mineproof.errors import check_work

__all__ = ["Premises", "Work", "counting_cost", "fewest_premises"]


class Work:
    """A budget of work units; every check of a candidate set spends from it.

    A unit is about a microsecond of this kind of work on a 2-core machine of 2026, but it is
    counted, not timed: the same position gets the same answer on any machine.
    """

    def __init__(self, limit: int) -> None:
        """Raises :class:`~mineproof.errors.ArgumentError` when ``limit`` is not a whole
        number, 0 or more."""
        self.left = check_work(limit)

    def spend(self, units: int) -> bool:
        """Spend ``units``; return whether the budget still holds."""
        self.left -= units
        return self.left >= 0

    @property
    def spent(self) -> bool:
        """Return whether the budget has run out."""
        return self.left < 0


Premises = tuple[list[Clue], bool, bool]
"""The clues kept, whether no clue can be dropped, whether no smaller set proves the cell."""


def counting_cost(sizes: Iterable[int]) -> int:
    """Return the work units of one exact count over clues that fall into independent groups
    of the given ``sizes`` (a group's count grows about with the square of its size)."""
    total = 15
    for n in sizes:
        total += n + n * n // 8
    return total


def _distance(board: Board, a: int, b: int) -> int:
    w = board.width
    return max(abs(a % w - b % w), abs(a // w - b // w))


def _spread(board: Board, target: int, clues: list[Clue]) -> tuple[int, int, list[int]]:
    """Return how compact a set is: its diameter (with the target), its distances to the
    target, then its cells (reading order breaks the last ties)."""
    cells = [c.cell for c in clues]
    points = [*cells, target]
    diameter = max((_distance(board, a, b) for a in points for b in points), default=0)
    return diameter, sum(_distance(board, c, target) for c in cells), sorted(cells)


def fewest_premises(
    board: Board,
    target: int,
    proven_by: list[Clue],
    pool: list[Clue],
    proves: Callable[[list[Clue]], bool],
    floor: int,
    connected: bool,
    work: Work,
) -> Premises:
    """Return the fewest clues of ``pool`` that prove ``target``, starting from ``proven_by``.

    ``proves`` checks a candidate set; ``floor`` is the size below which no set can prove it
    (the level's own bound). With ``connected``, only sets whose clues are linked by shared
    cells to ``target`` are tried (right whenever the mine total is not a premise).
    """
    kept = sorted(proven_by, key=lambda c: (-_distance(board, c.cell, target), -c.cell))
    minimal = True
    i = 0
    while i < len(kept):
        if work.spent:
            minimal = False
            break
        trial = kept[:i] + kept[i + 1 :]
        if proves(trial):
            kept = trial
        else:
            i += 1
    if not minimal:
        return _ordered(kept), False, False
    if len(kept) <= floor:
        return _ordered(kept), True, True
    for size in range(max(floor, 1), len(kept)):
        sets = _connected_sets(pool, target, size, work) if connected else _any_sets(pool, size)
        found: list[list[Clue]] = []
        for chosen in sets:
            if work.spent:
                break
            if proves(chosen):
                found.append(chosen)
        if found or work.spent:
            best = min(found, key=lambda s: _spread(board, target, s)) if found else kept
            return _ordered(best), True, not work.spent
    return _ordered(kept), True, True


def _ordered(clues: list[Clue]) -> list[Clue]:
    return sorted(clues, key=lambda c: c.cell)


def _any_sets(pool: list[Clue], size: int) -> Iterator[list[Clue]]:
    for chosen in combinations(pool, size):
        yield list(chosen)


def _connected_sets(pool: list[Clue], target: int, size: int, work: Work) -> Iterator[list[Clue]]:
    """Yield each set of ``size`` clues that touches ``target`` and is linked by shared cells
    (stopping early when growing them spends the budget)."""
    bit = 1 << target
    linked = [
        [j for j, other in enumerate(pool) if j != i and other.mask & clue.mask]
        for i, clue in enumerate(pool)
    ]
    layer = {frozenset([i]) for i, clue in enumerate(pool) if clue.mask & bit}
    for _ in range(size - 1):
        grown: set[frozenset[int]] = set()
        for chosen in layer:
            for i in chosen:
                for j in linked[i]:
                    if j not in chosen:
                        grown.add(chosen | {j})
            if not work.spend(1):
                return
        layer = grown
    for chosen in sorted(layer, key=sorted):
        yield [pool[i] for i in sorted(chosen)]
