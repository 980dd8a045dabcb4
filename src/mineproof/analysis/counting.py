"""Exact counting of one component's mine arrangements, by number of mines.

The variables are boxes (sets of interchangeable cells): a box of ``s`` cells holding ``x``
mines stands for ``C(s, x)`` arrangements. Boxes are assigned one at a time in an order that
keeps few clues open; the state after each step is the number of mines each open clue has seen
so far. Partial assignments that reach the same state are merged (dynamic programming), so the
work grows with the number of states, not with the number of solutions: scattered frontiers of
hundreds of cells stay fast. A backward pass then gives, for every box, the exact weighted number
of mines it holds over all arrangements of the whole position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from math import comb, log2

from mineproof.errors import TooComplexError, check_work

__all__ = [
    "COUNT_MEMORY",
    "COUNT_WORK",
    "ComponentCount",
    "CountTooLarge",
    "counting_budget",
    "current_budget",
    "own_budget",
    "product_cost",
]

COUNT_WORK = 16_000_000
"""The work of one count when no budget is shared: coefficient operations of the forward pass,
and each state's look at its open clues, about 8 per microsecond here. The hardest real
positions need a few thousand; a 30x20 lattice of numbers (a two-dimensional frontier, the
hardest kind) about 12 million."""

COUNT_MEMORY = 16_000_000
"""The most one count may keep for its backward pass, in polynomial coefficients (some 20 bytes
each while the numbers are small), a state counting as ten: a few hundred MB at most."""


class CountTooLarge(TooComplexError):
    """Raised when a count needs more work than its budget: ``clues`` numbers linked by shared
    cells over ``cells`` covered cells, past ``limit`` units of work; or, with ``groups`` over
    one, the numbers of that many independent groups, whose counts combined need it."""

    def __init__(self, clues: int, cells: int, limit: int, groups: int = 1) -> None:
        self.clues = clues
        self.cells = cells
        self.limit = limit
        self.groups = groups
        if groups > 1:
            size = (
                f"{clues:,} numbers in {groups:,} independent groups over {cells:,} covered cells"
            )
            verb = "need"
        else:
            size = f"a group of {clues:,} numbers over {cells:,} covered cells"
            verb = "needs"
        super().__init__(
            f"too complex to count exactly: {size} {verb} more than {limit:,} steps of counting",
            size=size,
        )


class _Budget:
    """Units of counting work left, within the budget of the enclosing block (``parent``)."""

    __slots__ = ("left", "limit", "parent")

    def __init__(self, limit: int, parent: _Budget | None = None) -> None:
        self.limit = limit
        self.left = limit
        self.parent = parent

    @property
    def spent(self) -> int:
        """Return the units spent so far in this block (past the limit when it ran out)."""
        return self.limit - self.left

    def spend(self, units: int) -> _Budget | None:
        """Charge ``units`` to this budget and to those it is nested in; return the first one
        spent past its limit, or ``None``."""
        over = None
        budget: _Budget | None = self
        while budget is not None:
            budget.left -= units
            if budget.left < 0 and over is None:
                over = budget
            budget = budget.parent
        return over

    def charge(self, units: int, clues: int, cells: int, groups: int = 1) -> None:
        """Charge ``units`` as :meth:`spend` does. Raises :class:`CountTooLarge` (naming
        ``clues`` numbers in ``groups`` groups over ``cells`` covered cells) when a budget is
        spent past its limit."""
        over = self.spend(units)
        if over is not None:
            raise CountTooLarge(clues, cells, over.limit, groups)


_SHARED: ContextVar[_Budget | None] = ContextVar("mineproof_count_budget", default=None)


@contextmanager
def counting_budget(limit: int) -> Iterator[_Budget]:
    """Share ``limit`` units of counting work among every count made inside the block (counts
    already remembered cost nothing). A count past it raises :class:`CountTooLarge`. Inside
    another such block, the work is charged to both: the inner block cannot spend more than
    the outer one has left (a review of a whole game bounds the counts of all its clicks).
    Yields the block's budget, whose ``spent`` says how much work its counts did. Raises
    :class:`~mineproof.errors.ArgumentError` when ``limit`` is not a whole number, 0 or more."""
    budget = _Budget(check_work(limit), _SHARED.get())
    token = _SHARED.set(budget)
    try:
        yield budget
    finally:
        _SHARED.reset(token)


def own_budget(limit: int = COUNT_WORK) -> _Budget:
    """Return a budget of ``limit`` units for one piece of work that spans several calls (a
    relaxation, asked one question after another), charged to the enclosing
    :func:`counting_budget` blocks as well: the piece cannot spend more than its own limit,
    nor more than they have left."""
    return _Budget(limit, _SHARED.get())


def current_budget() -> _Budget:
    """Return the budget of the enclosing :func:`counting_budget` block, or outside any, a new
    budget of :data:`COUNT_WORK` for the caller's one piece of work."""
    return _SHARED.get() or _Budget(COUNT_WORK)


def product_cost(a: Sequence[int], b: Sequence[int]) -> int:
    """Return the work of multiplying every coefficient of ``a`` by every one of ``b``: one
    unit each while the numbers are small, more as the product of their sizes grows (a
    multiplication of numbers of 6,000 and 1,500 bits, some 12 microseconds here, costs 140).

    >>> product_cost([1, 2], [3, 4, 5])
    6
    """
    la, lb = len(a), len(b)
    if not la or not lb:
        return 0
    # The sizes of the numbers from each one's middle coefficient, where a count's polynomial
    # holds its largest: exact enough for a budget, and the cost of a product is not spent
    # again on measuring it (a player weighs thousands of small ones a second).
    bits = la * a[la >> 1].bit_length() * lb * b[lb >> 1].bit_length()
    return la * lb + (bits >> 16)


# Binomials for box sizes: a box lies inside one clue's neighbourhood, so it has at most 8 cells.
_C = [[comb(n, k) for k in range(n + 1)] for n in range(9)]

# A polynomial in the number of mines: (lowest mine count, coefficients from there on). Tuples,
# not lists: the remembered counts hold hundreds of thousands of them, and the cyclic garbage
# collector stops walking a tuple of ints after its first look (a list it walks at every full
# collection: a fifth of an expert game's time went there).
_Poly = tuple[int, tuple[int, ...]]


def _width(order: list[int], box_clues: list[list[int]], counts: list[int]) -> tuple[float, float]:
    """Return how wide the states of an order of the boxes get: the largest and the summed
    logarithm of the number of partial counts the open clues can hold (each open clue with
    ``k`` mines can have seen 0 to ``k``)."""
    seen = [0] * len(counts)
    size = [0] * len(counts)
    for boxes in box_clues:
        for d in boxes:
            size[d] += 1
    weight = [log2(k + 1) for k in counts]
    current = widest = total = 0.0
    for box in order:
        for d in box_clues[box]:
            if not seen[d]:
                current += weight[d]
            seen[d] += 1
            if seen[d] == size[d]:
                current -= weight[d]
        widest = max(widest, current)
        total += current
    return widest, total


def _order(sizes: list[int], box_clues: list[list[int]], clue_boxes: list[list[int]]) -> list[int]:
    """Return an order of the boxes that keeps the set of open clues small.

    Starts at a box with the fewest clues, then always continues with the open clue that has
    the fewest unassigned boxes, taking its box that opens the fewest new clues.
    """
    n = len(sizes)
    left = [len(b) for b in clue_boxes]
    opened = [False] * len(clue_boxes)
    assigned = [False] * n
    active: set[int] = set()
    order: list[int] = []
    while len(order) < n:
        if active:
            clue = -1
            for c in active:
                if clue < 0 or left[c] < left[clue] or (left[c] == left[clue] and c < clue):
                    clue = c
            box = -1
            best = 0
            for b in clue_boxes[clue]:
                if assigned[b]:
                    continue
                score = 0
                for d in box_clues[b]:
                    if not opened[d]:
                        score += 16
                    elif left[d] == 1:
                        score -= 1
                if box < 0 or score < best:
                    box, best = b, score
        else:
            box = min((b for b in range(n) if not assigned[b]), key=lambda b: len(box_clues[b]))
        assigned[box] = True
        order.append(box)
        for d in box_clues[box]:
            opened[d] = True
            left[d] -= 1
            if left[d]:
                active.add(d)
            else:
                active.discard(d)
    return order


class ComponentCount:
    """The arrangements of one component, counted by number of mines.

    ``sizes[b]`` is the number of cells of box ``b``; ``clue_boxes[c]`` lists the boxes clue
    ``c`` sees and ``counts[c]`` its number of mines; ``max_mines`` caps the mines counted.
    After construction ``weights[k]`` is the number of arrangements with ``k`` mines (all zero
    when the clues cannot hold together). The boxes are assigned in the narrowest of
    ``orders`` and the greedy order (see :func:`_order`: it depends on the boxes and clues,
    not on the mines), which a caller that remembers it passes as ``greedy`` (with no
    ``orders``, an order passed there is followed as it is); the order changes the work,
    never the count.

    A state packs the mines each open clue has seen so far into one int, four bits a clue: each
    clue holds a slot from the box that opens it to the box that closes it, and a closed clue's
    slot is cleared for reuse, so equal states are equal ints. Assigning ``x`` mines to a box
    moves state ``s`` to ``s + x * bump - close``: ``bump`` adds one to every slot the box
    touches, ``close`` clears the slots of the clues the box completes.
    """

    def __init__(
        self,
        sizes: list[int],
        clue_boxes: list[list[int]],
        counts: list[int],
        max_mines: int,
        orders: Sequence[list[int]] = (),
        greedy: list[int] | None = None,
    ) -> None:
        self.sizes = sizes
        box_clues: list[list[int]] = [[] for _ in sizes]
        for c, boxes in enumerate(clue_boxes):
            for b in boxes:
                box_clues[b].append(c)
        if greedy is None:
            greedy = _order(sizes, box_clues, clue_boxes)
        self.greedy = greedy
        # The narrowest of the orders offered (sweeps of the board) and the greedy one.
        self.order = min([greedy, *orders], key=lambda o: _width(o, box_clues, counts))
        budget = current_budget()
        self._forward(box_clues, clue_boxes, counts, max_mines, budget)
        self._forced: tuple[tuple[bool, ...], tuple[bool, ...]] | None = None
        support = [k for k, w in enumerate(self.weights) if w]
        self.fewest = support[0] if support else 0
        self.most = support[-1] if support else 0

    def _forward(
        self,
        box_clues: list[list[int]],
        clue_boxes: list[list[int]],
        counts: list[int],
        max_mines: int,
        budget: _Budget,
    ) -> None:
        sizes = self.sizes
        capacity = [sum(sizes[b] for b in boxes) for boxes in clue_boxes]
        shift = [-1] * len(clue_boxes)
        free: list[int] = []
        slots = 0
        table: dict[int, _Poly] = {0: (0, (1,))}
        self.work = 0
        kept = 0
        self.tables: list[dict[int, _Poly]] = [table]
        # Per step: (bump, close, ((state, lowest x, highest x), ...)), all tuples of ints (see
        # _Poly: the collector stops walking them).
        self.steps: list[tuple[int, int, tuple[tuple[int, int, int], ...]]] = []
        for box in self.order:
            size = sizes[box]
            binom = _C[size]
            bump = 0
            close = 0
            touched = []
            closing = []
            for d in box_clues[box]:
                if shift[d] < 0:
                    if free:
                        shift[d] = free.pop()
                    else:
                        shift[d] = 4 * slots
                        slots += 1
                capacity[d] -= size
                sh = shift[d]
                bump += 1 << sh
                touched.append((sh, counts[d], capacity[d]))
                if not capacity[d]:
                    close += counts[d] << sh
                    closing.append(sh)
            free.extend(closing)
            nxt: dict[int, _Poly] = {}
            moves: list[tuple[int, int, int]] = []
            ops = len(table) * (4 + len(touched))  # each state's look at its open clues
            for state, (lo, coeffs) in table.items():
                x_lo = 0
                x_hi = size if size < max_mines - lo else max_mines - lo
                for sh, cnt, cap in touched:
                    need = cnt - (state >> sh & 15)
                    if need < x_hi:
                        x_hi = need
                    if need - cap > x_lo:
                        x_lo = need - cap
                if x_lo > x_hi:
                    continue
                moves.append((state, x_lo, x_hi))
                # Each coefficient operation, dearer as the numbers grow past a few words.
                ops += (x_hi - x_lo + 1) * len(coeffs) * (1 + (coeffs[-1].bit_length() >> 7))
                key = state + x_lo * bump - close
                for x in range(x_lo, x_hi + 1):
                    mult = binom[x]
                    if mult == 1 and max_mines - lo - x >= len(coeffs) - 1:
                        add = coeffs  # polynomials are never changed in place: sharing is safe
                    else:
                        add = tuple([c * mult for c in coeffs[: max_mines - lo - x + 1]])
                    cur = nxt.get(key)
                    nxt[key] = (lo + x, add) if cur is None else _add(cur, (lo + x, add))
                    key += bump
            self.steps.append((bump, close, tuple(moves)))
            self.work += ops
            over = budget.spend(ops)
            # What the backward pass keeps: a state (a dict slot, its polynomial, its move) is
            # worth about ten coefficients.
            kept += sum(len(c) + 10 for _, c in nxt.values())
            if over is not None or kept > COUNT_MEMORY:
                raise CountTooLarge(len(clue_boxes), sum(sizes), (over or budget).limit)
            table = nxt
            self.tables.append(table)
        final = table.get(0)
        self.stored = kept + 2
        self.weights: list[int] = []
        if final is not None:
            lo, coeffs = final
            self.weights = [0] * lo + list(coeffs)

    def forced_boxes(self) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
        """Return per box whether it is empty, and whether it is full, in every arrangement.

        Computed once and kept: the clues of this component alone force these boxes.
        """
        if self._forced is None:
            total = sum(self.weights)
            expected = self.box_mines([1] * len(self.weights))
            self._forced = (
                tuple(e == 0 for e in expected),
                tuple(e == total * size for e, size in zip(expected, self.sizes, strict=True)),
            )
        return self._forced

    def box_mines(self, w: list[int]) -> list[int]:
        """Return per box the weighted number of mines it holds over all arrangements.

        Each arrangement of this component with ``k`` mines counts with weight ``w[k]`` (the
        number of ways the rest of the position completes it), and contributes its box's mine
        count times that weight. Dividing by the box size gives, per cell, the number of
        arrangements of the whole position with a mine in that cell.
        """
        sizes = self.sizes
        result = [0] * len(sizes)
        final = self.tables[-1].get(0)
        if final is None:
            return result
        lo, coeffs = final
        later: dict[int, _Poly] = {0: (lo, tuple(_slice(w, lo, len(coeffs))))}
        for step in range(len(self.order) - 1, -1, -1):
            box = self.order[step]
            binom = _C[sizes[box]]
            table = self.tables[step]
            bump, close, moves = self.steps[step]
            here: dict[int, _Poly] = {}
            expected = 0
            for state, x_lo, x_hi in moves:
                flo, fco = table[state]
                length = len(fco)
                if length == 1:
                    # One coefficient: plain numbers instead of polynomial slices.
                    f0 = fco[0]
                    acc0 = 0
                    key = state + x_lo * bump - close
                    for x in range(x_lo, x_hi + 1):
                        nxt = later.get(key)
                        key += bump
                        if nxt is None:
                            continue
                        vlo, vco = nxt
                        off = flo + x - vlo
                        if off < len(vco) and vco[off]:
                            v = binom[x] * vco[off]
                            acc0 += v
                            expected += x * f0 * v
                    if acc0:
                        here[state] = (flo, (acc0,))
                    continue
                acc = [0] * length
                live = False
                key = state + x_lo * bump - close
                for x in range(x_lo, x_hi + 1):
                    nxt = later.get(key)
                    key += bump
                    if nxt is None:
                        continue
                    vlo, vco = nxt
                    off = flo + x - vlo
                    seg = vco[off : off + length]
                    mult = binom[x]
                    if x:
                        expected += x * mult * sum(f * v for f, v in zip(fco, seg, strict=False))
                    for a, v in enumerate(seg):
                        if v:
                            acc[a] += mult * v
                            live = True
                if live:
                    here[state] = (flo, tuple(acc))
            result[box] = expected
            later = here
        return result

    def sample(self, mines: int, below: Callable[[int], int]) -> list[int]:
        """Return per box a number of mines, drawn so that every arrangement of this
        component's cells with ``mines`` mines in all is equally likely (a box holding ``x``
        mines stands for its ``C(size, x)`` arrangements).

        ``below(n)`` must return a uniformly random int in ``0..n-1`` (``random.randrange``).
        The draw walks the forward tables backwards: from the final state, each box's count
        and the state before it are chosen with weight (the partial arrangements reaching that
        state with the mines left) times the box's binomial. Raises ``ValueError`` when no
        arrangement has ``mines`` mines.
        """
        sizes = self.sizes
        out = [0] * len(sizes)
        if not 0 <= mines < len(self.weights) or not self.weights[mines]:
            raise ValueError(f"no arrangement of this component has {mines} mines")
        state, left = 0, mines
        for step in range(len(self.order) - 1, -1, -1):
            box = self.order[step]
            binom = _C[sizes[box]]
            table = self.tables[step]
            bump, close, moves = self.steps[step]
            choices: list[tuple[int, int, int]] = []  # (weight, state before, mines in box)
            total = 0
            for before, x_lo, x_hi in moves:
                if bump == 0:
                    if before - close != state:
                        continue
                elif (state + close - before) % bump:
                    continue
                lo, coeffs = table[before]
                for x in range(x_lo, x_hi + 1):
                    if before + x * bump - close != state:
                        continue
                    j = left - x - lo
                    if 0 <= j < len(coeffs) and coeffs[j]:
                        weight = coeffs[j] * binom[x]
                        choices.append((weight, before, x))
                        total += weight
            pick = below(total)
            for weight, before, x in choices:
                if pick < weight:
                    out[box] = x
                    state, left = before, left - x
                    break
                pick -= weight
        return out


def _slice(w: list[int], lo: int, length: int) -> list[int]:
    """Return ``w[lo : lo + length]`` padded with zeros to ``length``."""
    part = w[lo : lo + length]
    return part + [0] * (length - len(part))


def _add(a: _Poly, b: _Poly) -> _Poly:
    """Return the sum of two polynomials in the number of mines."""
    alo, aco = a
    blo, bco = b
    lo = min(alo, blo)
    hi = max(alo + len(aco), blo + len(bco))
    out = [0] * (hi - lo)
    for i, c in enumerate(aco, alo - lo):
        out[i] += c
    for i, c in enumerate(bco, blo - lo):
        out[i] += c
    return lo, tuple(out)
