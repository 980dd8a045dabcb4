"""Linear reasoning over clue equations: what the linear relaxation forces, and the proof.

Each premise is an equation: the cells of ``mask`` hold ``mines`` mines (a clue, or the mine total
over every unknown cell). Relaxed to real numbers ``0 <= x <= 1``, the premises force a cell when
every real solution gives it the same value. That is decided exactly by a small simplex over
``Fraction``s on *boxes* (cells that lie in exactly the same premises, so interchangeable: a box
of ``u`` cells is one variable between 0 and ``u``).

A forced cell always has a short proof a person can check, read from the dual of the linear
programme: multipliers for the premises whose sum is an equation ``sum(c_i * x_i) = R`` with
``R`` the largest value the left side can take (every cell with ``c_i > 0`` a mine, every cell
with ``c_i < 0`` empty). Reaching its maximum forces every cell of the equation: those with a
positive coefficient are mines and those with a negative one are safe.

>>> from mineproof.analysis.constraints import Clue
>>> a, b = Clue(0, 0b0111, 1), Clue(1, 0b1111, 2)   # a 1 over cells 0-2, a 2 over cells 0-3
>>> proof = linear_proof([a, b], safe=0, mine=0b1000)
>>> proof.combination, proof.coefficients, proof.total
(((0, Fraction(-1, 1)), (1, Fraction(1, 1))), ((3, Fraction(1, 1)),), Fraction(1, 1))
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm

from mineproof.analysis.constraints import Clue, Component, boxes_of
from mineproof.analysis.counting import COUNT_WORK, CountTooLarge, own_budget
from mineproof.board import iter_bits
from mineproof.errors import TooComplexError
from mineproof.logic.cases import MINE_TOTAL, Event

__all__ = [
    "ENTRY_STEPS",
    "MINE_TOTAL",
    "RELAXATIONS_KEPT",
    "LinearProof",
    "Relaxation",
    "RelaxationTooLarge",
    "clear_relaxations",
    "disjoint",
    "linear_proof",
    "lp_forced",
    "relaxed",
    "shares_of_total",
]

ENTRY_STEPS = 20
"""The work of one entry of the simplex's table looked at or updated (a few operations on
``Fraction``s, about 2.5 microseconds here), in steps of counting (about 8 per microsecond):
each step of the simplex is charged to the counting budget in force, so that a relaxation of
hundreds of linked numbers, whose table fills in as it pivots, is bounded as a count is
(measured on chains and lattices of 100 to 800 numbers: 6 to 10 million units per second)."""


class RelaxationTooLarge(CountTooLarge):
    """Raised when the linear relaxation of ``clues`` numbers over ``cells`` covered cells
    needs more than the counting budget in force (``limit``): a :class:`CountTooLarge`, so
    that every handler of one handles the other."""

    def __init__(self, clues: int, cells: int, limit: int) -> None:
        # Not CountTooLarge.__init__: compiled by mypyc, its methods refuse a subclass's self.
        self.clues = clues
        self.cells = cells
        self.limit = limit
        self.groups = 1
        size = f"a group of {clues:,} numbers over {cells:,} covered cells"
        TooComplexError.__init__(
            self,
            f"too complex to combine exactly: the linear relaxation of {size} needs more than "
            f"{limit:,} steps of work",
            size=size,
        )


_ZERO = Fraction(0)
_ONE = Fraction(1)


@dataclass(frozen=True, slots=True)
class LinearProof:
    """A combination of premises that proves cells by the bounds of 0/1 cells.

    ``combination`` holds ``(premise cell, multiplier)`` pairs (:data:`MINE_TOTAL` for the mine
    total), integers with no common factor where possible; adding the premise equations with
    these multipliers gives ``sum(coefficient * x_cell) = total`` over ``coefficients`` (cells
    with a nonzero coefficient, in cell order). ``total`` is the largest value the left side can
    take, so every cell with a positive coefficient is a mine and every cell with a negative one
    is safe.

    ``given`` are one-clue steps made first (single numbers proving mines, one after another):
    the mines they prove are then taken as flagged, so each premise counts only its other
    cells and the mines it still needs, and the mine total the mines left beside them.
    """

    combination: tuple[tuple[int, Fraction], ...]
    coefficients: tuple[tuple[int, Fraction], ...]
    total: Fraction
    given: tuple[Event, ...] = ()

    @property
    def mine(self) -> int:
        """Return the cells the equation proves to be mines (positive coefficients)."""
        return _mask(i for i, c in self.coefficients if c > 0)

    @property
    def safe(self) -> int:
        """Return the cells the equation proves safe (negative coefficients)."""
        return _mask(i for i, c in self.coefficients if c < 0)


def disjoint(clues: Sequence[Clue]) -> bool:
    """Return whether no two of ``clues`` have a covered cell in common."""
    seen = 0
    for c in clues:
        if seen & c.mask:
            return False
        seen |= c.mask
    return True


def shares_of_total(proof: LinearProof, clues: Mapping[int, Clue]) -> list[Clue] | None:
    """Return the numbers whose shares of the mines left ``proof`` adds up (each with no
    covered cell in common with the others: their mines are all the mines left, or all but
    one for each other covered cell; none when the proof is the mine total alone), or ``None``
    when it is not that simple count. ``clues`` are the premises by cell."""
    total = dict(proof.combination).get(MINE_TOTAL, _ZERO)
    shares = [clues[c] for c, k in proof.combination if c != MINE_TOTAL and k == -total]
    if abs(total) == 1 and len(shares) == len(proof.combination) - 1 and disjoint(shares):
        return shares
    return None


def _mask(cells: object) -> int:
    out = 0
    for i in cells:  # type: ignore[attr-defined]
        out |= 1 << i
    return out


class Relaxation:
    """The linear relaxation of some premises, solved over boxes.

    Built once (a first phase finds a feasible point), then asked about each box in turn.
    Raises ``ValueError`` from the constructor when the premises have no real solution (a
    consistent position never does that).
    """

    def __init__(
        self,
        premises: Sequence[Clue],
        structure: tuple[list[int], tuple[tuple[int, ...], ...]] | None = None,
    ) -> None:
        """Take the boxes of the premises and the boxes each one sees from ``structure`` when
        the caller has them (what :func:`~mineproof.analysis.constraints.boxes_of` returns),
        else work them out."""
        self.premises = list(premises)
        union = 0
        for clue in self.premises:
            union |= clue.mask
        if structure is None:
            structure = boxes_of(Component(union, self.premises))
        self.boxes, sees = structure
        # Each box's signature: the premises that see it, as bits.
        self.signatures = [0] * len(self.boxes)
        for k, seen in enumerate(sees):
            for b in seen:
                self.signatures[b] |= 1 << k
        self.box_of = {i: b for b, box in enumerate(self.boxes) for i in iter_bits(box)}
        rows: list[dict[int, Fraction]] = [{} for _ in self.premises]
        for b, sig in enumerate(self.signatures):
            for k in iter_bits(sig):
                rows[k][b] = _ONE
        upper = [Fraction(box.bit_count()) for box in self.boxes]
        # Each relaxation has a budget of its own, within those of the blocks around it: the
        # relaxations of a step of a solve, one per group, do not share one count's budget.
        budget = own_budget(COUNT_WORK)
        cells = union.bit_count()

        def charge(entries: int) -> None:
            over = budget.spend(entries * ENTRY_STEPS)
            if over is not None:
                raise RelaxationTooLarge(len(self.premises), cells, over.limit)

        self._charge = charge
        self._lp = _Simplex(rows, [Fraction(c.mines) for c in self.premises], upper, charge)

    @property
    def pivots(self) -> int:
        """Return the simplex pivots made so far (a measure of the work done)."""
        return self._lp.pivots + len(self.premises)

    def forced(self, candidates: int) -> tuple[int, int]:
        """Return ``(safe, mine)``: the cells of ``candidates`` the relaxation forces."""
        safe = mine = 0
        # The boxes in their order (not in the order of their first candidate cell), so that the
        # work depends only on which boxes are asked about (see :func:`relaxed`).
        asked = {b for i in iter_bits(candidates) if (b := self.box_of.get(i)) is not None}
        for b in sorted(asked):
            box = self.boxes[b]
            # Each optimum is the same from any feasible table: go on from the last one
            # rather than copy the table (as large as the square of the numbers) each time.
            if self._lp.maximum(b, 1, in_place=True) == 0:
                safe |= box
            elif self._lp.maximum(b, -1, in_place=True) == -box.bit_count():
                mine |= box
        return safe & candidates, mine & candidates

    def proof(self, safe: int, mine: int) -> LinearProof | None:
        """Return one combination that proves every cell of ``safe`` and ``mine``, or ``None``
        when the relaxation does not force them all (or forces them the other way)."""
        total = [_ZERO] * len(self.premises)
        done = 0
        for cells, sign in ((safe, 1), (mine, -1)):
            for i in iter_bits(cells):
                b = self.box_of.get(i)
                if b is None:
                    return None
                if done >> b & 1:
                    continue
                done |= 1 << b
                y = self._lp.dual(b, sign)
                total = [t + v for t, v in zip(total, y, strict=True)]
        # The simplex gives rows tight at their minimum (safe cells positive): negate them.
        proof = self._as_proof([-v for v in total])
        if proof is None or safe & ~proof.safe or mine & ~proof.mine:
            return None
        return proof

    def simplest(self, target: int, mine: bool, safe: int, mines: int) -> LinearProof | None:
        """Return the proof of ``target`` (a mine if ``mine``, else safe) with the smallest
        multipliers (least sum of their sizes), or ``None`` when there is none.

        ``safe`` and ``mines`` are the cells the relaxation forces (see :meth:`forced`): only
        they may appear in the equation, each with the sign of its value, so the multipliers
        are the solution of a linear programme of their own.
        """
        tb = self.box_of.get(target)
        if tb is None:
            return None
        m = len(self.premises)
        rows: list[list[Fraction]] = []
        rhs: list[Fraction] = []
        forced_boxes = []
        for b, (box, sig) in enumerate(zip(self.boxes, self.signatures, strict=True)):
            a = [Fraction(sig >> k & 1) for k in range(m)]
            row = a + [-v for v in a]
            if box & mines:
                sign = 1
            elif box & safe:
                sign = -1
            else:
                rows.append(row)
                rhs.append(_ZERO)
                continue
            forced_boxes.append((b, sign))
            goal = Fraction(sign) if b == tb else _ZERO
            rows.append([v * sign for v in row])  # sign * r_B - s_B = goal * sign >= 0
            rhs.append(goal * sign)
        if (tb, 1 if mine else -1) not in forced_boxes:
            return None
        # Tight at its maximum: sum(b_k y_k) = sum of u_B r_B over the boxes of mines.
        tight = [Fraction(c.mines) for c in self.premises]
        for b, sign in forced_boxes:
            if sign > 0:
                size = self.boxes[b].bit_count()
                sig = self.signatures[b]
                for k in range(m):
                    if sig >> k & 1:
                        tight[k] -= size
        rows.append(tight + [-v for v in tight])
        rhs.append(_ZERO)
        # One slack per forced box (rows follow the boxes, so box b is row b).
        for b, _ in forced_boxes:
            for r, row in enumerate(rows):
                row.append(-_ONE if r == b else _ZERO)
        columns = 2 * m + len(forced_boxes)
        try:
            lp = _Simplex(
                [{j: v for j, v in enumerate(row) if v} for row in rows],
                rhs,
                [None] * columns,
                self._charge,
            )
        except ValueError:
            return None
        lp.optimise({j: -_ONE for j in range(2 * m)})
        x = lp.solution()
        y = [x[k] - x[m + k] for k in range(m)]
        return self._as_proof(y)

    def _as_proof(self, y: list[Fraction]) -> LinearProof | None:
        """Return the proof of multipliers ``y`` (a row tight at its maximum), scaled to
        integers with no common factor; ``None`` if the row is not tight."""
        scale = lcm(*(v.denominator for v in y if v))
        common = 0
        for v in y:
            common = gcd(common, int(v * scale))
        factor = Fraction(scale, common or 1)
        y = [v * factor for v in y]
        coef: dict[int, Fraction] = {}
        rhs = _ZERO
        for clue, v in zip(self.premises, y, strict=True):
            if not v:
                continue
            rhs += v * clue.mines
            for i in iter_bits(clue.mask):
                coef[i] = coef.get(i, _ZERO) + v
        coefficients = tuple((i, c) for i, c in sorted(coef.items()) if c)
        if not coefficients or rhs != sum((c for _, c in coefficients if c > 0), _ZERO):
            return None
        return LinearProof(
            tuple((clue.cell, v) for clue, v in zip(self.premises, y, strict=True) if v),
            coefficients,
            rhs,
        )


def lp_forced(premises: Sequence[Clue], candidates: int) -> tuple[int, int]:
    """Return ``(safe, mine)``: the cells of ``candidates`` that the linear relaxation of the
    premises forces (see :func:`relaxed`). Raises :class:`RelaxationTooLarge` as
    :class:`Relaxation` does."""
    safe, mine, _ = relaxed(premises, candidates)
    return safe, mine


RELAXATIONS_KEPT = 2_000_000
"""The most entries the remembered answers of :func:`relaxed` may hold together in their keys
(a box's size, a box a premise sees: some 10 bytes each, 20 MB in all), the least recently used
going first. A key is as long as its premises' structure: a few dozen entries for a group of
a standard board, some 2,000 for one of 400 numbers."""

_kept: OrderedDict[tuple[object, ...], tuple[int, int, int, int]] = OrderedDict()
_kept_held = 0
_kept_lock = threading.Lock()


def relaxed(premises: Sequence[Clue], candidates: int) -> tuple[int, int, int]:
    """Return ``(safe, mine, pivots)``: the cells of ``candidates`` that the linear relaxation
    of the premises forces, and the pivots its simplex made to find them (:attr:`Relaxation.
    pivots`, a measure of the work: the same when the answer is remembered, so that a search
    that spends work by it goes the same way). Answers are remembered within
    :data:`RELAXATIONS_KEPT`.

    The answer depends only on the premises' structure: the sizes of their boxes, which boxes
    each one sees, its mines, and which boxes hold candidates; not on where the cells are. So
    it is remembered by that structure (as the counts of components are): a review works out
    the levels of every click's position, and a solve the premises of every step, again and
    again over groups of numbers that did not change or that repeat across the board. A
    remembered answer costs no counting work. Raises :class:`RelaxationTooLarge` as
    :class:`Relaxation` does.
    """
    union = 0
    for clue in premises:
        union |= clue.mask
    boxes, sees = boxes_of(Component(union, list(premises)))
    wanted = 0
    for b, box in enumerate(boxes):
        if box & candidates:
            wanted |= 1 << b
    key = (tuple(box.bit_count() for box in boxes), sees, tuple(c.mines for c in premises), wanted)
    with _kept_lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
    if found is None:
        relaxation = Relaxation(premises, (boxes, sees))
        safe, mine = relaxation.forced(candidates)
        safe_boxes = mine_boxes = 0
        for b, box in enumerate(boxes):
            if box & safe:
                safe_boxes |= 1 << b
            elif box & mine:
                mine_boxes |= 1 << b
        held = len(boxes) + sum(len(seen) for seen in sees) + len(premises)
        found = (safe_boxes, mine_boxes, relaxation.pivots, held)
        _keep(key, found)
    safe = mine = 0
    for b in iter_bits(found[0]):
        safe |= boxes[b]
    for b in iter_bits(found[1]):
        mine |= boxes[b]
    return safe & candidates, mine & candidates, found[2]


def _keep(key: tuple[object, ...], found: tuple[int, int, int, int]) -> None:
    """Remember ``found`` (its last item the entries of ``key``) under ``key``, forgetting the
    least recently used answers past :data:`RELAXATIONS_KEPT` entries."""
    global _kept_held
    with _kept_lock:
        if key in _kept:
            return
        _kept[key] = found
        _kept_held += found[3]
        while _kept_held > RELAXATIONS_KEPT and _kept:
            _kept_held -= _kept.popitem(last=False)[1][3]


def clear_relaxations() -> None:
    """Forget the remembered answers of :func:`relaxed` (for cold-start measurements)."""
    global _kept_held
    with _kept_lock:
        _kept.clear()
        _kept_held = 0


def linear_proof(premises: Sequence[Clue], safe: int, mine: int) -> LinearProof | None:
    """Return a combination of ``premises`` proving ``safe`` and ``mine``, or ``None``."""
    return Relaxation(premises).proof(safe, mine)


class _Simplex:
    """``A x = b`` with ``0 <= x <= upper``: a bounded-variable primal simplex over Fractions.

    Rows are sparse (a clue sees few boxes). Columns ``0..n-1`` are the variables,
    ``n..n+m-1`` one artificial per row; their reduced costs give the dual values. Bland's rule
    (the smallest column enters, the smallest basic variable leaves on ties) rules out cycling.
    """

    def __init__(
        self,
        rows: list[dict[int, Fraction]],
        rhs: list[Fraction],
        upper: Sequence[Fraction | None],
        charge: Callable[[int], None],
    ) -> None:
        """Find a feasible solution. ``charge`` is told the entries of the table each pivot
        updates (and may raise to stop the work). Raises ``ValueError`` when there is none."""
        m, n = len(rows), len(upper)
        self.m, self.n = m, n
        self.charge = charge
        self.rows: list[dict[int, Fraction]] = [{**row, n + i: _ONE} for i, row in enumerate(rows)]
        self.value = list(rhs)  # the basic variables' values, row by row
        self.basis = [n + i for i in range(m)]
        self.upper: list[Fraction | None] = [*upper, *([None] * m)]
        self.at_upper = [False] * (n + m)
        self.pivots = 0
        self._optimise({n + i: -_ONE for i in range(m)}, n + m)
        if any(self.value[i] for i in range(m) if self.basis[i] >= n):
            raise ValueError("the premises have no solution")
        for k in range(n, n + m):
            self.upper[k] = _ZERO

    def _copy(self) -> _Simplex:
        other = object.__new__(_Simplex)
        other.m, other.n = self.m, self.n
        other.rows = [dict(row) for row in self.rows]
        other.value = list(self.value)
        other.basis = list(self.basis)
        other.upper = list(self.upper)
        other.at_upper = list(self.at_upper)
        other.pivots = 0
        other.charge = self.charge
        return other

    def optimise(self, cost: dict[int, Fraction]) -> None:
        """Move to a solution that maximises ``cost . x`` (over the variables only)."""
        self._optimise(cost, self.n)

    def solution(self) -> list[Fraction]:
        """Return the value of every variable at the current solution."""
        x = [(u or _ZERO) if at else _ZERO for u, at in zip(self.upper, self.at_upper, strict=True)]
        for i, j in enumerate(self.basis):
            x[j] = self.value[i]
        return x[: self.n]

    def maximum(self, column: int, sign: int, in_place: bool = False) -> Fraction:
        """Return the largest value of ``sign * x[column]``; ``in_place``, moving this table
        to that optimum (else a copy of it)."""
        lp = self if in_place else self._copy()
        before = lp.pivots
        lp._optimise({column: Fraction(sign)}, lp.n)
        if not in_place:
            self.pivots += lp.pivots - before
        if column in lp.basis:
            return sign * lp.value[lp.basis.index(column)]
        return sign * (lp.upper[column] or _ZERO) if lp.at_upper[column] else _ZERO

    def dual(self, column: int, sign: int) -> list[Fraction]:
        """Return the premise multipliers of the optimum of ``sign * x[column]``: when that
        optimum is the bound (0 for ``sign`` 1, full for -1), they add up to a row that proves
        it in every solution."""
        lp = self._copy()
        d = lp._optimise({column: Fraction(sign)}, lp.n)
        self.pivots += lp.pivots
        # The reduced cost of artificial k (cost 0) is -y_k.
        return [-d.get(lp.n + k, _ZERO) for k in range(lp.m)]

    def _optimise(self, cost: dict[int, Fraction], entering_below: int) -> dict[int, Fraction]:
        """Maximise ``cost . x`` (only columns below ``entering_below`` may enter the basis);
        return the final reduced costs."""
        rows, value, basis, upper, at_upper = (
            self.rows,
            self.value,
            self.basis,
            self.upper,
            self.at_upper,
        )
        m = self.m
        d = dict(cost)
        for i in range(m):
            cb = cost.get(basis[i])
            if cb:
                for j, v in rows[i].items():
                    d[j] = d.get(j, _ZERO) - cb * v
        while True:
            entering = -1
            direction = 0
            for j in sorted(d):
                if j >= entering_below:
                    break
                dj = d[j]
                if dj > 0 and not at_upper[j] and upper[j] != 0:
                    entering, direction = j, 1
                    break
                if dj < 0 and at_upper[j]:
                    entering, direction = j, -1
                    break
            if entering < 0:
                return d
            j = entering
            # The largest step before some variable meets a bound.
            step: Fraction | None = upper[j]
            leave = -1
            column = 0  # the rows the entering column is in
            for i in range(m):
                a = rows[i].get(j)
                if not a:
                    continue
                column += 1
                a *= direction
                bound = upper[basis[i]]
                if a > 0:  # the basic variable goes down towards 0
                    limit = value[i] / a
                elif bound is not None:
                    limit = (value[i] - bound) / a
                else:
                    continue
                if (
                    step is None
                    or limit < step
                    or (limit == step and leave >= 0 and basis[i] < basis[leave])
                ):
                    step, leave = limit, i
            if step is None:  # pragma: no cover - every variable here is bounded
                raise ValueError("unbounded")
            if step:
                for i in range(m):
                    a = rows[i].get(j)
                    if a:
                        value[i] -= a * direction * step
            # Each step looks at every row and works on the column's entries.
            work = 2 * column + m // 16
            if leave < 0:  # the entering variable meets its own bound first
                self.charge(work)
                at_upper[j] = not at_upper[j]
                continue
            self.pivots += 1
            start = (upper[j] or _ZERO) if at_upper[j] else _ZERO
            out = basis[leave]
            at_upper[out] = value[leave] != 0
            at_upper[j] = False
            pivot_row = rows[leave]
            p = pivot_row[j]
            if p != 1:
                for k in pivot_row:
                    pivot_row[k] /= p
            touched = 1
            for i in range(m):
                if i == leave:
                    continue
                row = rows[i]
                f = row.get(j)
                if f:
                    _subtract(row, f, pivot_row)
                    touched += 1
            f = d.get(j)
            if f:
                _subtract(d, f, pivot_row)
            self.charge(work + len(pivot_row) * touched)
            basis[leave] = j
            value[leave] = start + direction * step


def _subtract(row: dict[int, Fraction], f: Fraction, pivot: dict[int, Fraction]) -> None:
    """Set ``row`` to ``row - f * pivot``, dropping the zeros."""
    for k, v in pivot.items():
        w = row.get(k, _ZERO) - f * v
        if w:
            row[k] = w
        else:
            row.pop(k, None)
