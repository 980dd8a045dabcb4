"""Oracles for the review, written from scratch for the tests: no code of mineproof's analysis or
logic is used.

A position is read from its cells (numbers, covered cells, flags; flags are covered cells, not
trusted). Arrangements are enumerated: every assignment of the cells some number sees is tried
by backtracking (a number whose count is passed or can no longer be reached cuts the branch),
and the other covered cells are counted with a binomial for the mines that are left. Levels
are decided by the definitions, each applied again and again: single numbers and the mine
count (level 1), any two numbers that share a cell, by enumeration (2), the linear relaxation
of all the numbers by SciPy's ``linprog`` (3), all the numbers by enumeration (4), with the
mine total (5).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb

from scipy.optimize import linprog  # type: ignore[import-untyped]

from mineproof.position import COVERED, FLAG, Position

OClue = tuple[int, int, int]
"""``(number cell, covered cells around it still undecided, mines they hold)``."""


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def around(width: int, height: int, i: int) -> int:
    """Return the mask of the neighbours of cell ``i``."""
    x, y = i % width, i // width
    out = 0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            nx, ny = x + dx, y + dy
            if (dx or dy) and 0 <= nx < width and 0 <= ny < height:
                out |= 1 << (ny * width + nx)
    return out


@dataclass
class Read:
    """A position read by the oracle: covered cells (flags included), flags, the clues of the
    opened numbers over the covered cells, the mine total."""

    covered: int
    flags: int
    clues: list[OClue]
    mines: int


def read(position: Position) -> Read:
    """Return the oracle's reading of ``position``, flags taken as covered cells."""
    w, h = position.width, position.height
    covered = flags = 0
    for i, code in enumerate(position.cells):
        if code in (COVERED, FLAG):
            covered |= 1 << i
        if code == FLAG:
            flags |= 1 << i
    clues = []
    for i, code in enumerate(position.cells):
        if code >= 0:
            mask = around(w, h, i) & covered
            if mask:
                clues.append((i, mask, code))
    return Read(covered, flags, clues, position.mines)


def assignments(clues: list[OClue]) -> Iterator[int]:
    """Yield every set of mines among the clues' cells that satisfies every clue."""
    cells = sorted(set(bits(_union(clues))))
    last_of = {}
    for clue in clues:
        last_of[clue] = max(bits(clue[1]))

    def go(k: int, mines: int) -> Iterator[int]:
        if k == len(cells):
            yield mines
            return
        cell = cells[k]
        for value in (0, 1):
            trial = mines | (value << cell)
            ok = True
            for clue in clues:
                _, mask, count = clue
                if not mask >> cell & 1:
                    continue
                placed = (trial & mask).bit_count()
                open_left = sum(1 for c in bits(mask) if c > cell)
                if placed > count or placed + open_left < count:
                    ok = False
                    break
            if ok:
                yield from go(k + 1, trial)

    yield from go(0, 0)


def _union(clues: list[OClue]) -> int:
    out = 0
    for _, mask, _ in clues:
        out |= mask
    return out


@dataclass
class Counted:
    """The arrangements of a position: ``total``, and per covered cell the arrangements with a
    mine there (``mine``)."""

    total: int
    mine: dict[int, int]
    frontier: list[tuple[int, int]]  # (mines of an assignment of the frontier, its weight)
    rest: int
    left: int

    def free(self, cells: int) -> int:
        """Return the arrangements with no mine in ``cells``."""
        out = 0
        outside = (cells & self.rest).bit_count()
        room = self.rest.bit_count() - outside
        for mines, _ in self.frontier:
            if mines & cells:
                continue
            k = self.left - mines.bit_count()
            out += comb(room, k) if 0 <= k <= room else 0
        return out

    @property
    def safe(self) -> int:
        """Return the covered cells with no mine in any arrangement."""
        return sum(1 << i for i, n in self.mine.items() if n == 0)


def count(position: Position) -> Counted:
    """Return the arrangements of ``position`` (flags as covered cells) by enumeration."""
    r = read(position)
    frontier_cells = _union(r.clues)
    rest = r.covered & ~frontier_cells
    u = rest.bit_count()
    weights = []
    for mines in assignments(r.clues):
        k = r.mines - mines.bit_count()
        w = comb(u, k) if 0 <= k <= u else 0
        if w:
            weights.append((mines, w))
    total = sum(w for _, w in weights)
    mine = {}
    for i in bits(r.covered):
        if frontier_cells >> i & 1:
            mine[i] = sum(w for m, w in weights if m >> i & 1)
        else:
            # A given outside cell is a mine in C(u - 1, k - 1) of the C(u, k) placements.
            mine[i] = sum(
                comb(u - 1, r.mines - m.bit_count() - 1)
                for m, _ in weights
                if 1 <= r.mines - m.bit_count() <= u
            )
    return Counted(total, mine, weights, rest, r.mines)


# --------------------------------------------------------------------------------------------
# Levels


def _forced(clues: list[OClue], among: int) -> tuple[int, int]:
    """Return ``(safe, mine)``: the cells of ``among`` every assignment of ``clues`` agrees on."""
    always = -1
    never = -1
    any_found = False
    for mines in assignments(clues):
        any_found = True
        always &= mines
        never &= ~mines
    if not any_found:
        raise AssertionError("the clues have no assignment")
    return never & among, always & among


def _lp_forced(clues: list[OClue]) -> tuple[int, int]:
    """Return ``(safe, mine)``: the cells whose value the linear relaxation of ``clues`` fixes."""
    cells = sorted(set(bits(_union(clues))))
    if not cells:
        return 0, 0
    index = {c: k for k, c in enumerate(cells)}
    a_eq = []
    b_eq = []
    for _, mask, n in clues:
        row = [0.0] * len(cells)
        for c in bits(mask):
            row[index[c]] = 1.0
        a_eq.append(row)
        b_eq.append(float(n))
    safe = mine = 0
    for c in cells:
        values = []
        for sign in (1.0, -1.0):
            objective = [0.0] * len(cells)
            objective[index[c]] = sign
            result = linprog(objective, A_eq=a_eq, b_eq=b_eq, bounds=(0, 1), method="highs")
            assert result.status == 0, result.message
            values.append(sign * result.fun)
        low, high = values
        if high <= 1e-9:
            safe |= 1 << c
        elif low >= 1 - 1e-9:
            mine |= 1 << c
    return safe, mine


def _look(level: int, clues: list[OClue], unknown: int, left: int) -> tuple[int, int]:
    """Return what the techniques up to ``level`` force in one look."""
    safe = mine = 0
    if unknown and left == 0:
        safe |= unknown
    elif unknown and left == unknown.bit_count():
        mine |= unknown
    for _, mask, n in clues:
        if n == 0:
            safe |= mask
        elif n == mask.bit_count():
            mine |= mask
    if level >= 2:
        for a, b in combinations(clues, 2):
            if a[1] & b[1]:
                s, m = _forced([a, b], a[1] | b[1])
                safe |= s
                mine |= m
    if level >= 3:
        s, m = _lp_forced(clues)
        safe |= s
        mine |= m
    if level >= 4:
        s, m = _forced(clues, _union(clues))
        safe |= s
        mine |= m
    if level >= 5:
        frontier = _union(clues)
        rest = unknown & ~frontier
        u = rest.bit_count()
        valid = [m for m in assignments(clues) if 0 <= left - m.bit_count() <= u]
        assert valid, "no arrangement"
        never = always = frontier
        for m in valid:
            never &= ~m
            always &= m
        safe |= never
        mine |= always
        if rest and all(left - m.bit_count() == 0 for m in valid):
            safe |= rest
        if rest and all(left - m.bit_count() == u for m in valid):
            mine |= rest
    return safe, mine


def levels(position: Position) -> dict[int, int]:
    """Return, for each level 1-5, the cells the techniques up to that level prove safe when
    applied again and again (each proven cell taken as known, each level going on from the one
    below). Flags that every arrangement makes mines count as mines; other flags are covered
    cells."""
    r = read(position)
    counted = count(position)
    proven_flags = sum(1 << i for i in bits(r.flags) if counted.mine[i] == counted.total)
    unknown = r.covered & ~proven_flags
    left = r.mines - proven_flags.bit_count()
    clues = [
        (c, mask & ~proven_flags, n - (mask & proven_flags).bit_count())
        for c, mask, n in r.clues
        if mask & ~proven_flags
    ]
    safe_so_far = 0
    out = {}
    for level in (1, 2, 3, 4, 5):
        while True:
            s, m = _look(level, clues, unknown, left)
            s &= unknown
            m &= unknown
            if not s | m:
                break
            assert not s & m
            safe_so_far |= s
            known = s | m
            unknown &= ~known
            left -= m.bit_count()
            clues = [
                (c, mask & ~known, n - (mask & m).bit_count())
                for c, mask, n in clues
                if mask & ~known
            ]
        out[level] = safe_so_far
    return out


def some_layout(position: Position, rng_pick: int = 0) -> int:
    """Return the mines of an arrangement that fits ``position`` (flags as covered cells): the
    ``rng_pick``-th frontier assignment that leaves a possible number of mines for the rest,
    with the rest's mines on its lowest cells."""
    r = read(position)
    frontier = _union(r.clues)
    rest = list(bits(r.covered & ~frontier))
    fitting = [m for m in assignments(r.clues) if 0 <= r.mines - m.bit_count() <= len(rest)]
    mines = fitting[rng_pick % len(fitting)]
    for i in rest[: r.mines - mines.bit_count()]:
        mines |= 1 << i
    return mines
