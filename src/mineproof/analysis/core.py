"""The exact analysis of a position: arrangements, per-cell mine counts, forced cells, flags.

Components are counted independently by number of mines, then combined with the mine total:
a choice of ``k`` mines on the frontier leaves ``C(U, M - k)`` ways to place the rest among the
``U`` covered cells that no clue touches. Everything is an exact integer; probabilities are
``Fraction`` (or float) quotients of two of them.
"""

from __future__ import annotations

import heapq
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import comb
from typing import Any, Literal

from mineproof.analysis.constraints import (
    Clue,
    Contradiction,
    boxes_of,
    cells_seen,
    components_of,
    constraints_of,
    new_clue,
    propagate,
)
from mineproof.analysis.counting import (
    ComponentCount,
    counting_budget,
    current_budget,
    product_cost,
)
from mineproof.board import iter_bits
from mineproof.errors import ArgumentError
from mineproof.position import Position

__all__ = [
    "ANALYSIS_WORK",
    "Analysis",
    "Counts",
    "FlagStatus",
    "analyze",
    "arrangements_free",
    "binomials_down",
    "check_position",
    "clear_cache",
    "component_counts",
    "count_constraints",
    "count_total",
    "decimal",
    "forced_by",
]

FlagStatus = Literal["proven", "unproven", "wrong", "trusted"]


@dataclass(frozen=True, slots=True)
class Analysis:
    """The exact analysis of a position.

    ``arrangements`` is the number of mine arrangements that fit every number and the mine
    total; ``mine_counts[i]`` the number of those with a mine in cell ``i`` (-1 for an opened
    cell). ``safe_mask`` and ``mine_mask`` hold the covered cells that are safe, or a mine, in
    every arrangement (trusted flags are premises and are in neither).
    """

    position: Position
    trust_flags: bool
    arrangements: int
    mine_counts: tuple[int, ...]
    safe_mask: int
    mine_mask: int

    def __repr__(self) -> str:
        """Return the call that makes this analysis: ``analyze(Position.parse('...'))``. (The
        fields' own text is no use on a big board: a 255x255 board's counts of about 15,000
        digits each would make a billion characters.)"""
        trusted = ", trust_flags=True" if self.trust_flags else ""
        return f"analyze({self.position!r}{trusted})"

    def __reduce__(self) -> tuple[type[Analysis], tuple[Any, ...]]:
        """Return how to rebuild the analysis (for ``pickle`` and ``copy``: the compiled class
        refuses the frozen dataclass's own way, which sets its fields one by one)."""
        return Analysis, (
            self.position,
            self.trust_flags,
            self.arrangements,
            self.mine_counts,
            self.safe_mask,
            self.mine_mask,
        )

    def probability(self, x: int, y: int) -> Fraction | None:
        """Return the exact mine probability of cell ``(x, y)``; ``None`` for an opened cell.

        Raises :class:`~mineproof.errors.ArgumentError` for a cell off the board."""
        n = self.mine_counts[self.position.board.index(x, y)]
        return None if n < 0 else Fraction(n, self.arrangements)

    def probabilities(self) -> list[list[Fraction | None]]:
        """Return the exact mine probability of every cell, row by row (``None`` if opened)."""
        total = self.arrangements
        w = self.position.width
        return [
            [None if n < 0 else Fraction(n, total) for n in self.mine_counts[y * w : y * w + w]]
            for y in range(self.position.height)
        ]

    def float_probabilities(self) -> list[list[float | None]]:
        """Return the mine probability of every cell as a float, row by row."""
        total = self.arrangements
        w = self.position.width
        return [
            [None if n < 0 else n / total for n in self.mine_counts[y * w : y * w + w]]
            for y in range(self.position.height)
        ]

    @property
    def safe_cells(self) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells that are safe in every arrangement."""
        return self.position.board.mask_to_xy(self.safe_mask)

    @property
    def mine_cells(self) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells that are mines in every arrangement."""
        return self.position.board.mask_to_xy(self.mine_mask)

    def to_json(self) -> dict[str, Any]:
        """Return the analysis as JSON data: ``width``, ``height``, ``mines``, ``safe`` and
        ``mine`` (cells as ``[x, y]``), ``probabilities`` (rows of floats, ``None`` for opened
        cells), ``arrangements`` (a decimal string: it can be huge) and ``flags`` (each
        flag's cell and status)."""
        position = self.position
        return {
            "width": position.width,
            "height": position.height,
            "mines": position.mines,
            "safe": [list(c) for c in self.safe_cells],
            "mine": [list(c) for c in self.mine_cells],
            "probabilities": self.float_probabilities(),
            "arrangements": decimal(self.arrangements),
            "flags": [
                {"cell": list(xy), "status": status} for xy, status in self.flag_status().items()
            ],
        }

    def _repr_svg_(self) -> str:
        """Return the position with its probability heat map as SVG, for notebooks."""
        from mineproof.render.svg import analysis_svg

        return analysis_svg(self)

    def flag_status(self) -> dict[tuple[int, int], FlagStatus]:
        """Return each flag's status: ``proven`` (a mine in every arrangement), ``unproven``,
        ``wrong`` (safe in every arrangement), or ``trusted`` (taken as a mine, not checked)."""
        board = self.position.board
        out: dict[tuple[int, int], FlagStatus] = {}
        for i in iter_bits(self.position.flag_mask):
            status: FlagStatus
            if self.trust_flags:
                status = "trusted"
            elif self.mine_mask >> i & 1:
                status = "proven"
            elif self.safe_mask >> i & 1:
                status = "wrong"
            else:
                status = "unproven"
            out[board.xy(i)] = status
        return out


def decimal(n: int) -> str:
    """Return ``n`` in decimal, however many digits it has (``str`` refuses past 4,300).

    >>> len(decimal(10**5000))
    5001
    """
    if n < 0:
        return "-" + decimal(-n)
    if n.bit_length() < 13_000:  # under 3,900 digits: within str's limit
        return str(n)
    half = int(n.bit_length() * 0.30103) // 2
    high, low = divmod(n, 10**half)
    return decimal(high) + decimal(low).rjust(half, "0")


def _mul(a: list[int], b: list[int], limit: int) -> list[int]:
    """Return the product of two polynomials, cut after degree ``limit`` (empty below 0).

    >>> _mul([1, 1], [1, 2, 1], 2)
    [1, 3, 3]
    """
    length = max(0, min(len(a) + len(b) - 1, limit + 1))
    out = [0] * length
    for i, x in enumerate(a[:length]):
        if x:
            for j, y in enumerate(b[: length - i]):
                out[i + j] += x * y
    return out


def _binom(n: int, k: int) -> int:
    """Return C(n, k), zero when ``k`` is outside ``0..n``."""
    return comb(n, k) if 0 <= k <= n else 0


def binomials_down(n: int, k: int, count: int) -> list[int]:
    """Return ``[C(n, k), C(n, k - 1), ...]``, ``count`` values, zero where ``k - j > n``.

    >>> binomials_down(5, 3, 5)
    [10, 10, 5, 1, 0]
    """
    out = []
    m = k
    value = _binom(n, m)
    for _ in range(count):
        if m < 0:
            out.append(0)
        elif m > n:
            out.append(0)
            value = _binom(n, m - 1)
        else:
            out.append(value)
            value = value * m // (n - m + 1)
        m -= 1
    return out


def check_position(position: object, caller: str) -> None:
    """Raise ``TypeError`` unless ``position`` is a :class:`~mineproof.position.Position`,
    naming ``caller`` and how to make one from text or a file. Returns nothing."""
    if not isinstance(position, Position):
        raise TypeError(
            f"{caller} takes a Position, not {type(position).__name__} "
            "(for text: Position.parse(text); for a file: mineproof.formats.load_position)"
        )


ANALYSIS_WORK = 16_000_000
"""The counting work one analysis may do, shared by its counts (see
:data:`~mineproof.analysis.counting.COUNT_WORK`: a few seconds of CPU at most here): past it,
:class:`~mineproof.errors.TooComplexError`."""


def analyze(
    position: Position, trust_flags: bool = False, *, work: int = ANALYSIS_WORK
) -> Analysis:
    """Return the exact analysis of ``position``.

    By default flags are covered cells like any other; with ``trust_flags`` they are mines.
    ``work`` bounds the counting (see :data:`ANALYSIS_WORK`); counts this process remembers
    from earlier analyses cost nothing, so a position analysed once fits a smaller ``work``
    after (:func:`clear_cache` forgets them). Raises
    :class:`~mineproof.errors.InconsistentPositionError` when no arrangement fits the numbers
    and the mine total, naming a minimal set of conflicting clues (a small one, not minimal,
    when narrowing it down would pass the budget), and
    :class:`~mineproof.errors.TooComplexError` (naming the size of the problem) when counting
    would need more than ``work``; :class:`~mineproof.errors.ArgumentError` for a negative
    ``work``; ``TypeError`` when ``position`` is not a :class:`~mineproof.position.Position`
    (text is read by ``Position.parse``).
    """
    check_position(position, "analyze")
    with counting_budget(work):
        try:
            return _analyze(position, trust_flags)
        except Contradiction:
            from mineproof.analysis.conflict import conflict_error

            raise conflict_error(position, trust_flags) from None


_CACHE_SIZE = 3_000_000
"""The most polynomial coefficients the remembered counts may hold together (some tens of MB):
the least recently used go first."""

_cache: OrderedDict[tuple[object, ...], ComponentCount] = OrderedDict()
_cache_held = 0
_cache_lock = threading.Lock()


_ORDERS_KEPT = 2_000
"""The most greedy box orders remembered (see :func:`_count`), the least recently used going
first."""

_orders: OrderedDict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], list[int]] = OrderedDict()


def _count(
    sizes: tuple[int, ...],
    clue_boxes: tuple[tuple[int, ...], ...],
    counts: tuple[int, ...],
    cap: int,
    orders: Callable[[], tuple[list[int], ...]],
) -> ComponentCount:
    """Return the count of a component, remembered by its structure alone.

    The count depends only on the box sizes, which boxes each clue sees and the clues' mines,
    not on where the cells are: consecutive positions of one game (or of the generator's search)
    keep most components unchanged, and equal structures recur across positions. ``orders()``
    gives orders of the boxes worth trying (they change the work, never the count). The greedy
    order (see :class:`~mineproof.analysis.counting.ComponentCount`) depends only on the boxes
    and the clues that see them, so it is remembered by those, without the clues' mines: the
    look one move ahead counts the same structure again for every number a cell can show. The
    order chosen among it and ``orders()`` is the one a first count would choose, so the work
    and the budget's verdict are too. Raises
    :class:`~mineproof.analysis.counting.CountTooLarge` past the counting budget.
    """
    global _cache_held
    key = (sizes, clue_boxes, counts, cap)
    shape = (sizes, clue_boxes)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
        greedy = _orders.get(shape)
        if greedy is not None:
            _orders.move_to_end(shape)
    lists = [list(b) for b in clue_boxes]
    cc = ComponentCount(list(sizes), lists, list(counts), cap, orders(), greedy)
    with _cache_lock:
        if greedy is None:
            _orders[shape] = cc.greedy
            if len(_orders) > _ORDERS_KEPT:
                _orders.popitem(last=False)
        if key not in _cache and cc.stored <= _CACHE_SIZE // 4:
            _cache[key] = cc
            _cache_held += cc.stored
            while _cache_held > _CACHE_SIZE:
                _, old = _cache.popitem(last=False)
                _cache_held -= old.stored
    return cc


def clear_cache() -> None:
    """Forget the remembered component counts (for cold-start measurements)."""
    global _cache_held
    with _cache_lock:
        _cache.clear()
        _orders.clear()
        _cache_held = 0


def _sweeps(clues: list[Clue], boxes: list[int]) -> tuple[list[int], ...]:
    """Return orders of ``boxes`` that sweep the board by rows and by columns, for more than 24
    boxes (fewer are ordered well enough greedily: none then).

    The board's width is read off the clues (a number's lower-right neighbour is ``width + 1``
    cells after it); a wrong reading only offers a poor order, which the count then passes over.
    """
    if len(boxes) <= 24:
        return ()
    low = [(box & -box).bit_length() - 1 for box in boxes]
    rows = sorted(range(len(boxes)), key=low.__getitem__)
    width = (
        max((mask.bit_length() - 1 - cell for cell, mask, _ in clues if mask >> cell), default=0)
        - 1
    )
    if width < 2:
        return (rows,)
    cols = sorted(range(len(boxes)), key=lambda b: (low[b] % width, low[b] // width))
    return rows, cols


def component_counts(clues: list[Clue], cap: int) -> list[tuple[list[int], ComponentCount]]:
    """Return (boxes, counts) for every component of ``clues``, mines counted up to ``cap``.

    Raises :class:`Contradiction` naming a component's clues when they cannot all hold, and
    :class:`~mineproof.analysis.counting.CountTooLarge` past the counting budget.
    """
    out = []
    for comp in components_of(clues):
        boxes, clue_boxes = boxes_of(comp)
        sizes = tuple(box.bit_count() for box in boxes)
        cc = _count(
            sizes,
            clue_boxes,
            tuple(clue.mines for clue in comp.clues),
            min(cap, sum(sizes)),
            partial(_sweeps, comp.clues, boxes),
        )
        if not any(cc.weights):
            raise Contradiction(tuple(clue.cell for clue in comp.clues))
        out.append((boxes, cc))
    return out


def _correlate(b: list[int], ctx: list[int], n: int) -> list[int]:
    """Return ``out[i] = sum over t of b[t] * ctx[i + t]`` for ``i`` in ``0..n-1``, ``ctx``
    being zero past its end.

    >>> _correlate([1, 2], [10, 20, 30], 4)
    [50, 80, 30, 0]
    """
    out = []
    for i in range(n):
        acc = 0
        for t, x in enumerate(b[: max(0, len(ctx) - i)]):
            if x:
                acc += x * ctx[i + t]
        out.append(acc)
    return out


class _Product:
    """The product of the components' mine-count polynomials, cut after ``left`` mines,
    multiplied out in a tree: the two shortest partial products first (Huffman's order), so
    that hundreds of components cost about the square of the product's length, not that
    times their number, and the components with one mine count (length one) cost next to
    nothing. Every multiplication is charged to the counting budget.

    ``lo`` and ``coeffs`` are the product: ``coeffs[j]`` arrangements of the clues' cells with
    ``lo + j`` mines. Raises :class:`~mineproof.analysis.counting.CountTooLarge` past the
    budget.
    """

    def __init__(self, comps: list[tuple[list[int], ComponentCount]], left: int, clues: int):
        self.clues = clues
        self.groups = len(comps)
        self.cells = sum(sum(cc.sizes) for _, cc in comps)
        self.budget = current_budget()
        # Nodes: the components' polynomials (lowest mine count, coefficients from there),
        # then the partial products, each with the two nodes it multiplies.
        self.polys: list[tuple[int, list[int]]] = []
        for _, cc in comps:
            self.polys.append((cc.fewest, cc.weights[cc.fewest :]))
        self.children: list[tuple[int, int]] = []
        heap = [(len(co), j) for j, (_, co) in enumerate(self.polys)]
        heapq.heapify(heap)
        while len(heap) > 1:
            _, a = heapq.heappop(heap)
            _, b = heapq.heappop(heap)
            alo, aco = self.polys[a]
            blo, bco = self.polys[b]
            self.budget.charge(product_cost(aco, bco), clues, self.cells, self.groups)
            self.polys.append((alo + blo, _mul(aco, bco, left - alo - blo)))
            self.children.append((a, b))
            heapq.heappush(heap, (len(self.polys[-1][1]), len(self.polys) - 1))
        self.lo, self.coeffs = self.polys[-1] if self.polys else (0, [1])

    def completions(self, rest: list[int]) -> list[list[int]]:
        """Return per component ``w``, ``w[k]`` being the ways to complete an arrangement of
        its cells with ``k`` mines into one of the whole: the sum over the other components'
        mine counts ``j`` of their arrangements times ``rest[j + k - lo]`` (``rest[i]``: the
        ways to place what is left of the mines with ``lo + i`` on the clues' cells).

        Walks the tree from the top: a node's completions, correlated with one child's
        polynomial, are the other child's. Raises
        :class:`~mineproof.analysis.counting.CountTooLarge` past the budget."""
        polys = self.polys
        leaves = len(polys) - len(self.children)
        ctx: list[list[int]] = [[] for _ in polys]
        if polys:
            ctx[-1] = rest
        for node in range(len(polys) - 1, leaves - 1, -1):
            a, b = self.children[node - leaves]
            above = ctx[node]
            aco, bco = polys[a][1], polys[b][1]
            cost = product_cost(aco, above) + product_cost(bco, above)
            self.budget.charge(cost, self.clues, self.cells, self.groups)
            ctx[a] = _correlate(bco, above, len(aco))
            ctx[b] = _correlate(aco, above, len(bco))
            ctx[node] = []
        return [[0] * polys[c][0] + ctx[c] for c in range(leaves)]


def _with_outside(full: _Product, u: int, left: int) -> tuple[list[int], int]:
    """Return ``(rest, total)`` for the clues' arrangements ``full``: ``rest[j]``, the ways to
    place the other ``left - full.lo - j`` mines on the ``u`` cells no clue touches, and the
    number of arrangements of the whole. Raises :class:`Contradiction` when there is none."""
    rest = binomials_down(u, left - full.lo, len(full.coeffs))
    total = sum(p * r for p, r in zip(full.coeffs, rest, strict=True))
    if total == 0:
        raise Contradiction(())
    return rest, total


def _combine(clues: list[Clue], outside: int, left: int) -> tuple[int, int, list[tuple[int, int]]]:
    """Count the arrangements of ``left`` mines over the clues' cells and ``outside`` cells.

    ``clues`` must be reduced (no cell of theirs known, none in ``outside``). Returns
    ``(total, per_outside, boxes)``: the number of arrangements, the number with a mine in any
    one outside cell, and per box ``(mask, the number with a mine in any one of its cells)``.
    Raises :class:`Contradiction` when there is no arrangement and
    :class:`~mineproof.analysis.counting.CountTooLarge` past the counting budget.
    """
    u = outside.bit_count()
    comps = component_counts(clues, left)
    full = _Product(comps, left, len(clues))
    rest, total = _with_outside(full, u, left)
    # C(u - 1, m - 1) = C(u, m) * m / u: the placements with a given outside cell mined.
    pairs = enumerate(zip(full.coeffs, rest, strict=True))
    per_outside = sum(p * r * (left - full.lo - k) for k, (p, r) in pairs) // u if u else 0
    boxes_out: list[tuple[int, int]] = []
    for (boxes, cc), w in zip(comps, full.completions(rest), strict=True):
        for box, expected in zip(boxes, cc.box_mines(w), strict=True):
            boxes_out.append((box, expected // box.bit_count()))
    return total, per_outside, boxes_out


@dataclass(frozen=True, slots=True)
class Counts:
    """The arrangements of some constraints, counted exactly (see :func:`count_constraints`).

    ``total`` arrangements fit; ``safe`` and ``mine`` hold the unknown cells that are safe, or a
    mine, in every one of them. ``boxes`` lists ``(mask, n)`` for the other cells some clue
    sees, ``n`` being the arrangements with a mine in any one cell of ``mask``; ``outside``
    holds the cells no clue sees, each a mine in ``per_outside`` arrangements.
    """

    total: int
    safe: int
    mine: int
    boxes: list[tuple[int, int]]
    outside: int
    per_outside: int


def _reduced(unknown: int, mines: int, clues: list[Clue]) -> tuple[int, int, list[Clue], int, int]:
    """Return ``(safe, mine, clues, outside, left)``: the constraints after the one-clue rules
    (see :func:`~mineproof.analysis.constraints.propagate`), the unknown cells no clue sees and
    the mines left for the clues' cells and those. Raises :class:`Contradiction`."""
    safe, mine, clues = propagate(clues)
    left = mines - mine.bit_count()
    if left < 0:
        raise Contradiction(())
    return safe, mine, clues, unknown & ~(cells_seen(clues) | safe | mine), left


def count_total(unknown: int, mines: int, clues: list[Clue]) -> int:
    """Return the number of arrangements of ``mines`` mines over ``unknown`` cells that fit
    ``clues``: ``count_constraints(...).total`` without counting where the mines are (cheaper
    when only how many matters). Raises :class:`Contradiction` when there is none."""
    _, _, clues, outside, left = _reduced(unknown, mines, clues)
    full = _Product(component_counts(clues, left), left, len(clues))
    return _with_outside(full, outside.bit_count(), left)[1]


def count_constraints(unknown: int, mines: int, clues: list[Clue]) -> Counts:
    """Return the exact counts of the arrangements of ``mines`` mines over ``unknown`` cells.

    Each clue (reduced to ``unknown`` cells) must hold. Cheaper than :func:`analyze` when only
    the counts matter: no position is built and no conflict is explained. Raises
    :class:`~mineproof.analysis.constraints.Contradiction` when there is no arrangement.
    """
    safe, mine, clues, outside, left = _reduced(unknown, mines, clues)
    total, per_outside, counted = _combine(clues, outside, left)
    if outside and per_outside == 0:
        safe |= outside
        outside = 0
    elif outside and per_outside == total:
        mine |= outside
        outside = 0
    boxes = []
    for box, per_cell in counted:
        if per_cell == 0:
            safe |= box
        elif per_cell == total:
            mine |= box
        else:
            boxes.append((box, per_cell))
    return Counts(total, safe, mine, boxes, outside, per_outside)


def _analyze(position: Position, trust_flags: bool) -> Analysis:
    cons = constraints_of(position, trust_flags)
    counts = count_constraints(cons.unknown, cons.mines, cons.clues)
    total = counts.total
    # Every unknown cell starts as an outside cell; known, flagged and frontier cells follow.
    mine_counts = [counts.per_outside if code < 0 else -1 for code in position.cells]
    for i in iter_bits(counts.safe):
        mine_counts[i] = 0
    for i in iter_bits(counts.mine):
        mine_counts[i] = total
    if trust_flags:
        for i in iter_bits(position.flag_mask):
            mine_counts[i] = total
    for box, per_cell in counts.boxes:
        for i in iter_bits(box):
            mine_counts[i] = per_cell
    return Analysis(position, trust_flags, total, tuple(mine_counts), counts.safe, counts.mine)


def arrangements_free(
    position: Position, cells: int, trust_flags: bool = False, *, work: int = ANALYSIS_WORK
) -> int:
    """Return how many of the arrangements :func:`analyze` counts have no mine in ``cells``.

    ``cells`` is a bitmask of covered cells of ``position`` (trusted flags among them are mines,
    so no arrangement leaves them free). Divided by :attr:`Analysis.arrangements` it is the
    chance that opening all of ``cells`` at once (a chord) hits no mine; for one cell ``i`` it
    is ``arrangements - mine_counts[i]``. Raises ``ArgumentError`` when ``cells`` holds a cell
    that is not covered (opened, or off the board), and
    :class:`~mineproof.errors.TooComplexError` past ``work`` units of counting.

    >>> arrangements_free(Position.parse("3x1x1\\n1H1"), 0b010)
    0
    """
    if cells & ~position.covered_mask:
        raise ArgumentError("cells to keep free must be covered cells of the position")
    with counting_budget(work):
        try:
            cons = constraints_of(position, trust_flags)
            if cells & ~cons.unknown:  # a trusted flag
                return 0
            return count_constraints(
                cons.unknown & ~cells,
                cons.mines,
                [
                    new_clue(Clue, (c.cell, c.mask & ~cells, c.mines))
                    for c in cons.clues
                    if c.mask & ~cells or c.mines
                ],
            ).total
        except Contradiction:
            return 0


def forced_by(clues: list[Clue], unknown: int, mines: int | None = None) -> tuple[int, int]:
    """Return ``(safe, mine)``: the cells of ``unknown`` that these clues alone force.

    Only the given clues count; with ``mines`` the arrangement must also hold exactly that many
    mines among ``unknown``, otherwise cells no clue sees are free. Raises
    :class:`Contradiction` when the clues (with the total) cannot all hold.
    """
    safe, mine, rest = propagate(clues)
    left = unknown.bit_count() if mines is None else mines - mine.bit_count()
    if left < 0:
        raise Contradiction(())
    comps = component_counts(rest, left)
    frontier = 0
    fewest = most = 0
    for boxes, cc in comps:
        fewest += cc.fewest
        most += cc.most
        for box in boxes:
            frontier |= box
    outside = unknown & ~(frontier | safe | mine)
    u = outside.bit_count()
    if mines is None or (most <= left and left - fewest <= u):
        # The total excludes no combination of the components' mine counts: each component
        # forces what its clues alone force (remembered with its count).
        for boxes, cc in comps:
            empty, full = cc.forced_boxes()
            for box, e, f in zip(boxes, empty, full, strict=True):
                if e:
                    safe |= box
                elif f:
                    mine |= box
        if mines is not None and outside and fewest == most:
            if most == left:
                safe |= outside
            elif left - most == u:
                mine |= outside
        return safe, mine
    total, per_outside, counted = _combine(rest, outside, left)
    if outside and per_outside == 0:
        safe |= outside
    elif outside and per_outside == total:
        mine |= outside
    for box, per_cell in counted:
        if per_cell == 0:
            safe |= box
        elif per_cell == total:
            mine |= box
    return safe, mine
