"""What each level of technique forces: the one definition the solving engine and the ladder share.

1. one clue: a number whose remaining mines are 0 or fill its covered cells; all mines found; as
   many mines left as covered cells;
2. two clues: what two numbers that share cells force together (complete for pairs);
3. a combination of clues: what the linear relaxation of all the clues forces (each cell a
   real number between 0 and 1), which is every conclusion of adding up clue equations with
   rational multipliers and reading the result with the bounds of 0/1 cells;
4. a case analysis: what the clues force when mines are whole (exact counting without the total);
5. the mine total together with the clues: everything a perfect logician knows.

Each level subsumes the one below it (two clues share a 0/1 structure whose relaxation is
exact, so level 3 contains level 2), and what a level forces only grows as cells are opened: a
solve that takes the lowest level at each step needs level ``L`` exactly when the techniques up
to ``L`` clear the board.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from mineproof.analysis.constraints import (
    Clue,
    Contradiction,
    components_of,
    new_clue,
    propagate,
)
from mineproof.analysis.core import forced_by
from mineproof.board import iter_bits
from mineproof.errors import ArgumentError
from mineproof.logic.linear import lp_forced

__all__ = [
    "LEVELS",
    "ForcingPairs",
    "Group",
    "Groups",
    "closures",
    "forced_up_to",
    "groups_of",
    "linear",
    "mine_count",
    "one_clue",
    "one_clue_closure",
    "overlapping_pairs",
    "pair_bounds",
    "two_clue_closure",
    "two_clues",
]

LEVELS = (1, 2, 3, 4, 5)


def one_clue(clues: list[Clue]) -> tuple[int, int]:
    """Return ``(safe, mine)``: the cells single clues force (one look, no chaining)."""
    safe = mine = 0
    for _, mask, count in clues:
        if count == 0:
            safe |= mask
        elif count == mask.bit_count():
            mine |= mask
    return safe, mine


def one_clue_closure(clues: list[Clue]) -> tuple[int, int]:
    """Return ``(safe, mine)``: what level 1 forces when applied again and again (each cell a
    single clue settles can complete another clue). Raises
    :class:`~mineproof.analysis.constraints.Contradiction` for clues that cannot all hold."""
    safe, mine, _ = propagate(clues)
    return safe, mine


def mine_count(unknown: int, left: int) -> tuple[int, int]:
    """Return ``(safe, mine)`` the mine total forces alone: all unknown cells safe when no mine
    is left, all mines when as many are left as there are unknown cells."""
    if left == 0:
        return unknown, 0
    if unknown and left == unknown.bit_count():
        return 0, unknown
    return 0, 0


def pair_bounds(a: Clue, b: Clue) -> tuple[int, int]:
    """Return ``(safe, mine)``: every cell the two clues force together (complete for two).

    The common area ``C`` holds ``c`` mines with ``c`` between the largest and smallest counts
    both clues allow; each clue's own area then holds its mines minus ``c``.
    """
    # Work near the two clues: on a big board their masks are long ints of mostly zeros.
    low = min(a.mask & -a.mask, b.mask & -b.mask).bit_length() - 1
    am, bm = a.mask >> low, b.mask >> low
    common = am & bm
    only_a = am & ~bm
    only_b = bm & ~am
    n_a, n_b, n_c = only_a.bit_count(), only_b.bit_count(), common.bit_count()
    lo = max(0, a.mines - n_a, b.mines - n_b)
    hi = min(a.mines, b.mines, n_c)
    safe = 0
    mine = 0
    for area, size, own in ((only_a, n_a, a.mines), (only_b, n_b, b.mines)):
        if size and own - lo == 0:
            safe |= area
        elif size and own - hi == size:
            mine |= area
    if n_c and hi == 0:
        safe |= common
    elif n_c and lo == n_c:
        mine |= common
    return safe << low, mine << low


def overlapping_pairs(clues: list[Clue]) -> list[tuple[Clue, Clue]]:
    """Return every pair of clues that share a cell, ordered by their cells (earlier first)."""
    by_cell: dict[int, list[Clue]] = {}
    for clue in clues:
        for i in iter_bits(clue.mask):
            by_cell.setdefault(i, []).append(clue)
    pairs: dict[tuple[int, int], tuple[Clue, Clue]] = {}
    for group in by_cell.values():
        for a in group:
            for b in group:
                if a.cell < b.cell:
                    pairs[a.cell, b.cell] = (a, b)
    return [pairs[key] for key in sorted(pairs)]


class ForcingPairs:
    """The pairs of overlapping clues that force something (:func:`pair_bounds`), kept up to
    date for a set of clues that changes a few numbers at a time, as a solve's does.

    What a pair forces depends on its two clues alone, so after a change only the pairs of the
    numbers whose clue changed are looked at again (their clues overlap only those of numbers
    within two cells), not every pair of the board.
    """

    def __init__(self, width: int) -> None:
        self.width = width
        self.found: dict[tuple[int, int], tuple[int, int]] = {}
        self._stale = 0

    def changed(self, numbers: int) -> None:
        """Note that the clues of the cells of ``numbers`` (a mask) may have changed or gone."""
        self._stale |= numbers

    def update(self, clues: Mapping[int, Clue]) -> dict[tuple[int, int], tuple[int, int]]:
        """Return the pairs of ``clues`` (by the cell of their number) that force something,
        as ``(a, b) -> (safe, mine)`` with ``a < b`` the cells of their numbers: the pairs
        :func:`overlapping_pairs` and :func:`pair_bounds` give, provided every clue that
        changed since the last update was noted by :meth:`changed`.

        >>> pairs = ForcingPairs(3)
        >>> pairs.changed(0b11)
        >>> pairs.update({0: Clue(0, 0b11000, 1), 1: Clue(1, 0b111000, 1)})
        {(0, 1): (32, 0)}
        """
        stale = iter_bits(self._stale)
        self._stale = 0
        found = self.found
        if not stale:
            return found
        again = set(stale)
        for key in [key for key in found if key[0] in again or key[1] in again]:
            del found[key]
        for i in stale:
            a = clues.get(i)
            if a is None:
                continue
            for b in _sharing(clues, a, self.width):
                j = b.cell
                # A pair of two changed clues is looked at from the lower number.
                if j < i and j in again:
                    continue
                low, high = (a, b) if i < j else (b, a)
                s, m = pair_bounds(low, high)
                if s | m:
                    found[low.cell, high.cell] = (s, m)
        return found


def _sharing(clues: Mapping[int, Clue], a: Clue, width: int) -> Iterator[Clue]:
    """Yield the clues of ``clues`` (by the cell of their number, on a board ``width`` cells
    wide) that share a cell with ``a``, other than ``a``: they are numbers within two cells."""
    i = a.cell
    x = i % width
    for dy in (-2 * width, -width, 0, width, 2 * width):
        for dx in range(max(-x, -2), min(width - x, 3)):
            b = clues.get(i + dy + dx)
            if b is not None and b.cell != i and a.mask & b.mask:
                yield b


def two_clues(clues: list[Clue]) -> tuple[int, int]:
    """Return ``(safe, mine)``: every cell some pair of overlapping clues forces."""
    safe = mine = 0
    for a, b in overlapping_pairs(clues):
        s, m = pair_bounds(a, b)
        safe |= s
        mine |= m
    return safe, mine


def two_clue_closure(clues: list[Clue], unknown: int, left: int) -> tuple[int, int]:
    """Return ``(safe, mine)``: what levels 1 and 2 (single clues, pairs of clues, the mine
    total alone) force when applied again and again, each proven cell taken as known.

    The same cells as rounds of :func:`forced_up_to` at level 2 over the clues reduced by what
    the rounds before proved (each rule can only prove more once cells are known, so the order
    of the deductions does not change where they end). Instead of looking at every pair in each
    round, which is quadratic on a chain that proves one cell per round, only the clues a cell
    just proven changed are looked at again, alone and with the clues that share a cell with
    them. ``clues`` are reduced to the ``unknown`` cells, which hold ``left`` mines. Raises
    :class:`~mineproof.analysis.constraints.Contradiction` when the deductions cannot all hold.

    >>> # A 1 over cells 0-1 and a 1 over cells 0-2 prove cell 2 safe; then a 1 over cells 2-3
    >>> # proves cell 3 a mine.
    >>> [bin(s) for s in two_clue_closure([Clue(9, 3, 1), Clue(8, 7, 1), Clue(7, 12, 1)], 15, 2)]
    ['0b100', '0b1000']
    """
    current = dict(enumerate(clues))
    beside: dict[int, list[int]] = {}
    for i, clue in current.items():
        for cell in iter_bits(clue.mask):
            beside.setdefault(cell, []).append(i)
    safe = mine = 0
    waiting = list(range(len(clues) - 1, -1, -1))
    queued = set(waiting)

    def learn(s: int, m: int, why: tuple[int, ...]) -> None:
        nonlocal safe, mine
        if s & m or s & mine or m & safe:
            raise Contradiction(why)
        safe |= s
        mine |= m
        for cell in iter_bits(s | m):
            bit = 1 << cell
            for j in beside.get(cell, ()):
                clue = current.get(j)
                if clue is None or not clue.mask & bit:
                    continue
                number, mask, count = clue
                mask &= ~bit
                count -= bool(m & bit)
                if count < 0 or count > mask.bit_count():
                    raise Contradiction((number,))
                if mask:
                    current[j] = new_clue(Clue, (number, mask, count))
                else:
                    del current[j]
                if j not in queued:
                    queued.add(j)
                    waiting.append(j)

    while True:
        while waiting:
            i = waiting.pop()
            queued.discard(i)
            a = current.get(i)
            if a is None:
                continue
            s, m = one_clue([a])
            # A pair with a clue still waiting is looked at when that clue's turn comes.
            seen = {i}
            for cell in iter_bits(a.mask):
                for j in beside[cell]:
                    if j in seen or j in queued:
                        continue
                    seen.add(j)
                    b = current.get(j)
                    if b is not None and a.mask & b.mask:
                        s2, m2 = pair_bounds(a, b)
                        s |= s2
                        m |= m2
            s &= ~safe
            m &= ~mine
            if s | m:
                learn(s, m, (a.cell,))
        s, m = mine_count(unknown & ~(safe | mine), left - mine.bit_count())
        if not s | m:
            return safe, mine
        learn(s, m, ())


def linear(clues: list[Clue], unknown: int) -> tuple[int, int]:
    """Return ``(safe, mine)``: every cell the linear relaxation of the clues forces.

    Only cells the clues force with whole mines can be forced by the relaxation, so exact
    counting picks the candidates and each component's relaxation decides them.
    """
    # One-clue steps are linear reasoning too: the relaxation works on what they leave.
    safe, mine, rest = propagate(clues)
    for comp in components_of(rest):
        s, m = forced_by(comp.clues, unknown)
        candidates = (s | m) & comp.mask
        if candidates:
            s, m = lp_forced(comp.clues, candidates)
            safe |= s
            mine |= m
    return safe, mine


class Group:
    """A group of linked numbers (their clues share covered cells) and the cells of ``mask``
    they see, with what levels 3 and 4 force in it, each worked out once when first asked
    for (a group that stays the same from one step of a solve to the next is not worked out
    again)."""

    __slots__ = ("_exact", "_linear", "clues", "mask")

    def __init__(self, clues: list[Clue], mask: int) -> None:
        self.clues = clues
        self.mask = mask
        self._exact: tuple[int, int] | None = None
        self._linear: tuple[int, int] | None = None

    def exact(self) -> tuple[int, int]:
        """Return ``(safe, mine)``: the cells the group's clues force with whole mines (level
        4, without the mine total). Raises as :func:`~mineproof.analysis.core.forced_by`."""
        if self._exact is None:
            self._exact = forced_by(self.clues, self.mask)
        return self._exact

    def linear(self) -> tuple[int, int]:
        """Return ``(safe, mine)``: the cells the group's clues force at level 3 (see
        :func:`linear`). Raises as :func:`linear`."""
        if self._linear is None:
            safe, mine = self.exact()
            self._linear = linear(self.clues, self.mask) if safe | mine else (0, 0)
        return self._linear


def groups_of(clues: list[Clue]) -> list[Group]:
    """Return the groups of linked numbers of ``clues``."""
    return [Group(comp.clues, comp.mask) for comp in components_of(clues)]


class Groups:
    """The groups of linked numbers of a set of clues that changes a few numbers at a time, as
    a solve's does, kept up to date as :class:`ForcingPairs` keeps its pairs: only the groups
    that hold a number whose clue changed, or that share a cell with one, are formed again;
    the others keep what they worked out.

    A solve one step at a time needs level 3 on some boards every few steps; before, each of
    those steps formed the groups of the whole board and built the relaxation of each one
    again (a tiling of 784 alike groups on 255x255 ran past five minutes).
    """

    def __init__(self, width: int) -> None:
        self.width = width
        self._of: dict[int, Group] = {}  # number cell -> its group
        self._all: dict[int, Group] = {}  # id -> group, in the order they were formed
        self._stale = 0

    def changed(self, numbers: int) -> None:
        """Note that the clues of the cells of ``numbers`` (a mask) may have changed or gone."""
        self._stale |= numbers

    def update(self, clues: Mapping[int, Clue]) -> list[Group]:
        """Return the groups of ``clues`` (by the cell of their number), those of
        :func:`groups_of`, provided every clue that changed since the last update was noted
        by :meth:`changed`."""
        stale = iter_bits(self._stale)
        self._stale = 0
        of = self._of
        width = self.width
        again: set[int] = set()
        for i in stale:
            again.add(i)
            group = of.get(i)
            if group is not None:
                again.update(c.cell for c in group.clues)
            a = clues.get(i)
            if a is None:
                continue
            # A new or changed clue may now share a cell with another group.
            for b in _sharing(clues, a, width):
                group = of.get(b.cell)
                if group is not None:
                    again.update(c.cell for c in group.clues)
        everyone = self._all
        for i in again:
            group = of.pop(i, None)
            if group is not None:
                everyone.pop(id(group), None)
        for group in groups_of([clues[i] for i in sorted(again) if i in clues]):
            everyone[id(group)] = group
            for c in group.clues:
                of[c.cell] = group
        return list(everyone.values())


def closures(clues: list[Clue], unknown: int, left: int) -> Iterator[tuple[int, int, int]]:
    """Yield ``(level, safe, mine)`` for each level from 1 to 5: every cell the techniques up
    to that level prove when applied again and again, each proven cell taken as known.

    A round applies :func:`forced_up_to` at the level to the clues reduced to the cells not yet
    proven (a proven mine leaves its clues with one mine fewer to place, a proven safe cell
    leaves them one cell fewer); the rounds stop when one proves nothing new. Each level goes on
    from what the level below proved (what a lower level proves, a higher one proves too), so
    the sets only grow. Level 5 is the exact analysis: the cells safe, or a mine, in every
    arrangement. ``clues`` are reduced to the ``unknown`` cells, which hold ``left`` mines.
    Levels 1 and 2 look again only at the numbers a proven cell changed (see
    :func:`~mineproof.analysis.constraints.propagate` and :func:`two_clue_closure`), so a
    chain that proves one cell per round costs in proportion to its length; the rounds of
    levels 3 to 5 count, and the relaxation of level 3 is charged to the counting budget too.
    Raises :class:`~mineproof.analysis.constraints.Contradiction` for clues that cannot all
    hold, and :class:`~mineproof.analysis.CountTooLarge` when a count or a relaxation passes
    its budget.

    >>> from mineproof.analysis.constraints import Clue
    >>> # A 1 over cells 0-1 and a 1 over cells 0-2: two clues prove cell 2 safe.
    >>> [(level, bin(safe)) for level, safe, _ in closures([Clue(9, 3, 1), Clue(8, 7, 1)], 7, 1)]
    [(1, '0b0'), (2, '0b100'), (3, '0b100'), (4, '0b100'), (5, '0b100')]
    """
    safe = mine = 0
    for level in LEVELS:
        while True:
            if level == 1:
                s, m, rest = propagate(clues)
                s2, m2 = mine_count(unknown & ~(s | m), left - m.bit_count())
                s |= s2
                m |= m2
            elif level == 2:
                s, m = two_clue_closure(clues, unknown, left)
                rest = clues
            else:
                s, m = forced_up_to(level, clues, unknown, left)
                rest = clues
            if not s | m:
                break
            safe |= s
            mine |= m
            known = s | m
            unknown &= ~known
            left -= m.bit_count()
            clues = [
                new_clue(Clue, (c.cell, c.mask & ~known, c.mines - (c.mask & m).bit_count()))
                for c in rest
                if c.mask & ~known
            ]
            if level == 2:
                break  # two_clue_closure applied its rules until they proved nothing new
        yield level, safe, mine


def forced_up_to(level: int, clues: list[Clue], unknown: int, left: int) -> tuple[int, int]:
    """Return ``(safe, mine)``: what the techniques up to ``level`` force in one look.

    ``clues`` are reduced to the ``unknown`` cells, which hold ``left`` mines. Raises
    :class:`~mineproof.analysis.constraints.Contradiction` for clues that cannot all hold, and
    ``ArgumentError`` for a level that is not a whole number from 1 to 5.
    """
    if type(level) is not int or not 1 <= level <= 5:
        raise ArgumentError(f"level {level!r} is not one of 1 to 5", name="level", allowed=(1, 5))
    if level == 5:
        return forced_by(clues, unknown, left)
    safe, mine = mine_count(unknown, left)
    if level == 1:
        s, m = one_clue(clues)
    elif level == 2:
        s, m = two_clues(clues)
        s1, m1 = one_clue(clues)
        s, m = s | s1, m | m1
    elif level == 3:
        s, m = linear(clues, unknown)
    else:
        s, m = forced_by(clues, unknown)
    return safe | s, mine | m
