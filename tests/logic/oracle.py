"""Oracles for the deduction kernel, written from scratch for the tests.

Nothing here calls into ``mineproof.analysis`` or ``mineproof.logic``: a position is read from
its cells (numbers, covered cells, flags) with neighbours computed here; what clues force is
decided by exhaustive search (every arrangement is either found or ruled out, with only the
one-clue rules to prune), and the linear relaxation by SciPy's ``linprog``.

Clues are ``(cell, mask, mines)``: the number at ``cell`` says that ``mines`` of the covered,
unflagged cells of ``mask`` are mines (its number less the flags around it). Sets of cells are
int bitmasks over the board's cell indices ``i = y * width + x``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np
from scipy.optimize import linprog  # type: ignore[import-untyped]

from mineproof.position import COVERED, FLAG, Position

OClue = tuple[int, int, int]
"""``(number cell, covered unflagged cells around it, mines they hold)``."""


# --------------------------------------------------------------------------------------------
# Reading a position


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cells: Iterable[int]) -> int:
    out = 0
    for i in cells:
        out |= 1 << i
    return out


def around(width: int, height: int, i: int) -> list[int]:
    x, y = i % width, i // width
    return [
        ny * width + nx
        for ny in range(y - 1, y + 2)
        for nx in range(x - 1, x + 2)
        if (nx, ny) != (x, y) and 0 <= nx < width and 0 <= ny < height
    ]


@dataclass(frozen=True)
class View:
    """What the tests read from a position, flags taken as mines: the unknown (covered,
    unflagged) cells, the mines left among them, and one clue per number with unknown cells."""

    width: int
    height: int
    cells: tuple[int, ...]
    unknown: int
    flags: int
    left: int
    clues: tuple[OClue, ...]

    def index(self, x: int, y: int) -> int:
        assert 0 <= x < self.width and 0 <= y < self.height
        return y * self.width + x

    def clue_at(self, i: int) -> OClue:
        """Return the clue of the number at ``i`` (its unknown cells may be none)."""
        code = self.cells[i]
        assert 0 <= code <= 8, f"cell {i} is not a number"
        near = around(self.width, self.height, i)
        flags = sum(1 for n in near if self.cells[n] == FLAG)
        mask = mask_of(n for n in near if self.cells[n] == COVERED)
        return (i, mask, code - flags)

    def total(self) -> tuple[int, int]:
        """Return the mine total as ``(unknown cells, mines left)``."""
        return self.unknown, self.left


def view_of(position: Position) -> View:
    """Return the position as the tests see it (flags as mines)."""
    w, h = position.width, position.height
    cells = tuple(position.cells)
    unknown = mask_of(i for i, c in enumerate(cells) if c == COVERED)
    flags = mask_of(i for i, c in enumerate(cells) if c == FLAG)
    clues = []
    for i, code in enumerate(cells):
        if 0 <= code <= 8:
            near = around(w, h, i)
            mask = mask_of(n for n in near if cells[n] == COVERED)
            if mask:
                clues.append((i, mask, code - sum(1 for n in near if cells[n] == FLAG)))
    return View(w, h, cells, unknown, flags, position.mines - flags.bit_count(), tuple(clues))


def union(clues: Iterable[OClue]) -> int:
    out = 0
    for _, mask, _ in clues:
        out |= mask
    return out


# --------------------------------------------------------------------------------------------
# Exhaustive search


Total = tuple[int, int] | None
"""The mine total as ``(unknown cells, mines left)``, or ``None`` when it is not a premise."""


def arrangement(
    clues: Sequence[OClue],
    *,
    mine: int = 0,
    safe: int = 0,
    total: Total = None,
    outside: bool | None = None,
) -> int | None:
    """Return the mines of one arrangement of the cells the clues see that satisfies every
    clue and the assumptions (``mine`` cells mined, ``safe`` cells empty), or ``None`` when
    there is none. The search is exhaustive: it branches on cell after cell and backtracks, the
    one-clue rules only cutting branches that cannot succeed.

    With ``total`` the unknown cells hold exactly the mines left: those the clues do not see
    take the rest, which must fit. ``outside`` then asks for at least one mine (``True``) or at
    least one empty cell (``False``) among those unseen cells.
    """
    cells = union(clues) | mine | safe
    lo, hi = 0, cells.bit_count()
    if total is not None:
        unknown, left = total
        assert (mine | safe) & ~unknown == 0
        free = (unknown & ~cells).bit_count()
        lo, hi = max(0, left - free), left
        if outside is True:
            hi = left - 1
        elif outside is False:
            lo = max(lo, left - free + 1)
        if lo > hi:
            return None
    else:
        assert outside is None
    return _search(list(clues), cells, lo, hi, total is not None, mine, safe)


def _search(
    clues: list[OClue], cells: int, lo: int, hi: int, counted: bool, mine: int, safe: int
) -> int | None:
    if mine & safe:
        return None
    while True:
        changed = False
        for _, mask, count in clues:
            placed = (mask & mine).bit_count()
            free = mask & ~mine & ~safe
            room = free.bit_count()
            need = count - placed
            if need < 0 or need > room:
                return None
            if room and need == 0:
                safe |= free
                changed = True
            elif room and need == room:
                mine |= free
                changed = True
        if counted:
            k = (mine & cells).bit_count()
            free = cells & ~mine & ~safe
            room = free.bit_count()
            if k > hi or k + room < lo:
                return None
            if room and k == hi:
                safe |= free
                changed = True
            elif room and k + room == lo:
                mine |= free
                changed = True
        if mine & safe:
            return None
        if not changed:
            break
    free = cells & ~mine & ~safe
    if not free:
        if counted:
            k = (mine & cells).bit_count()
            if not lo <= k <= hi:
                return None
        return mine
    # Branch on a cell of the clue with the fewest open cells.
    best = free & -free
    best_room = 10**9
    for _, mask, _ in clues:
        room_mask = mask & free
        room = room_mask.bit_count()
        if 0 < room < best_room:
            best_room, best = room, room_mask & -room_mask
    for value in (True, False):
        found = _search(
            clues,
            cells,
            lo,
            hi,
            counted,
            mine | best if value else mine,
            safe if value else safe | best,
        )
        if found is not None:
            return found
    return None


def forced(clues: Sequence[OClue], check: int, total: Total = None) -> tuple[int, int]:
    """Return ``(safe, mine)``: the cells of ``check`` that are the same in every arrangement
    of ``clues`` (and the mine total, if given). Raises ``AssertionError`` when the clues have
    no arrangement at all."""
    base = arrangement(clues, total=total)
    assert base is not None, "the clues have no arrangement"
    seen = union(clues)
    safe = mine = 0
    varied = 0
    for c in bits(check & seen):
        if varied >> c & 1:
            continue
        bit = 1 << c
        other = (
            arrangement(clues, safe=bit, total=total)
            if base & bit
            else arrangement(clues, mine=bit, total=total)
        )
        if other is None:
            if base & bit:
                mine |= bit
            else:
                safe |= bit
        else:
            varied |= (other ^ base) & seen
    rest = check & ~seen
    if rest and total is not None:
        can_mine = arrangement(clues, total=total, outside=True) is not None
        can_empty = arrangement(clues, total=total, outside=False) is not None
        if not can_mine:
            safe |= rest
        elif not can_empty:
            mine |= rest
    return safe, mine


def proves(clues: Sequence[OClue], cell: int, is_mine: bool, total: Total = None) -> bool:
    """Return whether ``clues`` (with the total, if given) force ``cell`` to be a mine
    (``is_mine``) or safe."""
    s, m = forced(clues, 1 << cell, total)
    return bool((m if is_mine else s) >> cell & 1)


def refutes(clues: Sequence[OClue], cell: int, is_mine: bool, total: Total = None) -> bool:
    """Return whether no arrangement has ``cell`` the other way than ``is_mine`` says: the
    conclusion follows (without checking the clues are consistent)."""
    bit = 1 << cell
    if is_mine:
        return arrangement(clues, safe=bit, total=total) is None
    return arrangement(clues, mine=bit, total=total) is None


def enumerate_all(clues: Sequence[OClue], total: Total = None) -> list[int]:
    """Return every arrangement of the cells the clues see, by plain enumeration of all their
    subsets (for checking the search itself on small cases)."""
    cells = list(bits(union(clues)))
    out = []
    for n in range(len(cells) + 1):
        for chosen in combinations(cells, n):
            m = mask_of(chosen)
            if all((m & mask).bit_count() == k for _, mask, k in clues):
                if total is not None:
                    unknown, left = total
                    free = (unknown & ~union(clues)).bit_count()
                    if not 0 <= left - n <= free:
                        continue
                out.append(m)
    return out


# --------------------------------------------------------------------------------------------
# The linear relaxation, by SciPy

FORCED_BELOW = 1e-6
"""A cell whose value can move by less than this is forced (HiGHS works to about 1e-7)."""
FREE_ABOVE = 1e-4
"""A cell whose value can move by more than this is not; in between the answer is refused."""


class Undecided(AssertionError):
    """The LP's answer fell between the tolerances (never seen: exact values are rationals of
    small denominators)."""


def lp_range(clues: Sequence[OClue], cell: int, total: Total = None) -> tuple[float, float]:
    """Return the least and the largest value of ``cell`` over the real solutions of the
    clues (each cell between 0 and 1; with ``total``, the unknown cells sum to the mines
    left)."""
    cells = union(clues) | 1 << cell
    if total is not None:
        cells |= total[0]
    index = {c: k for k, c in enumerate(bits(cells))}
    rows = []
    rhs = []
    for _, mask, count in clues:
        row = np.zeros(len(index))
        for c in bits(mask):
            row[index[c]] = 1
        rows.append(row)
        rhs.append(count)
    if total is not None:
        row = np.zeros(len(index))
        for c in bits(total[0]):
            row[index[c]] = 1
        rows.append(row)
        rhs.append(total[1])
    out = []
    for sign in (1, -1):
        cost = np.zeros(len(index))
        cost[index[cell]] = sign
        res = linprog(
            cost,
            A_eq=np.array(rows) if rows else None,
            b_eq=np.array(rhs) if rows else None,
            bounds=[(0, 1)] * len(index),
            method="highs",
        )
        assert res.status == 0, f"linprog: {res.message}"
        out.append(sign * float(res.fun))
    return out[0], out[1]


def lp_forces(clues: Sequence[OClue], cell: int, total: Total = None) -> int | None:
    """Return the value (0 or 1) the linear relaxation forces on ``cell``, or ``None`` when it
    can take different values. Raises :class:`Undecided` between the tolerances."""
    low, high = lp_range(clues, cell, total)
    width = high - low
    if width < FORCED_BELOW:
        value = round((low + high) / 2)
        assert abs(value - low) < FORCED_BELOW and value in (0, 1), (low, high)
        return value
    if width > FREE_ABOVE:
        return None
    raise Undecided(f"cell {cell}: the relaxation gives [{low}, {high}]")


# --------------------------------------------------------------------------------------------
# The lowest level, decided here


def components(clues: Sequence[OClue]) -> list[list[OClue]]:
    """Return the clues grouped by shared cells (transitively)."""
    groups: list[tuple[int, list[OClue]]] = []
    for clue in clues:
        mask = clue[1]
        merged = [clue]
        rest = []
        for g_mask, g in groups:
            if g_mask & mask:
                mask |= g_mask
                merged += g
            else:
                rest.append((g_mask, g))
        groups = [*rest, (mask, merged)]
    return [g for _, g in groups]


def single_forces(view: View) -> tuple[int, int]:
    """Return ``(safe, mine)`` of level 1: single clues and the mine count rules."""
    safe = mine = 0
    for _, mask, count in view.clues:
        if count == 0:
            safe |= mask
        elif count == mask.bit_count():
            mine |= mask
    if view.unknown and view.left == 0:
        safe |= view.unknown
    elif view.unknown and view.left == view.unknown.bit_count():
        mine |= view.unknown
    return safe, mine


def pair_forces(view: View) -> tuple[int, int]:
    """Return ``(safe, mine)``: what some two clues force together (by search)."""
    safe = mine = 0
    clues = view.clues
    for a, b in combinations(clues, 2):
        if a[1] & b[1]:
            s, m = forced([a, b], a[1] | b[1])
            safe |= s
            mine |= m
    return safe, mine


def lowest_level(view: View) -> tuple[int, int, int]:
    """Return ``(level, safe, mine)``: the lowest level of technique that forces a cell of the
    position, with the cells it forces (level 0 and nothing when no cell is forced)."""
    s, m = single_forces(view)
    if s | m:
        return 1, s, m
    s1, m1 = pair_forces(view)
    if s1 | m1:
        return 2, s1 | s, m1 | m
    safe = mine = 0
    for comp in components(view.clues):
        s, m = forced(comp, union(comp))
        safe |= s
        mine |= m
    if safe | mine:
        lp_safe = lp_mine = 0
        for comp in components(view.clues):
            for c in bits((safe | mine) & union(comp)):
                value = lp_forces(comp, c)
                if value == 0:
                    lp_safe |= 1 << c
                elif value == 1:
                    lp_mine |= 1 << c
        if lp_safe | lp_mine:
            return 3, lp_safe, lp_mine
        return 4, safe, mine
    safe, mine = forced(list(view.clues), view.unknown, view.total())
    if safe | mine:
        return 5, safe, mine
    return 0, 0, 0


def fraction(text: str) -> Fraction:
    """Return a JSON number string such as ``"-1"`` or ``"1/2"`` as a Fraction."""
    return Fraction(text)
