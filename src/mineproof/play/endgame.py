"""The exact end game: when few arrangements remain, the guess that wins most often.

Every arrangement that fits the position is listed (a bitmask of its mines among the unknown
cells). Opening a cell splits the arrangements where it is safe by the number it shows; the
chance to win from a set of arrangements is 1 when one is left (every mine is known), and
otherwise the best, over the cells, of the chances of the parts weighted by their sizes. Sets
are remembered, so a position reached by different orders of moves is searched once. Four
rules keep the search small without changing its answer:

- where some cells are safe in every arrangement of a set, they are opened at once (they must
  be opened to win, and knowing more never hurts), so no other move is weighed there;
- inside the search only *living* cells are weighed, those that show two numbers or more
  where they are safe (a dead cell is never better opened first than last: see
  ``EndgameSearch._ranked``);
- a cell is skipped as soon as its chance to be safe cannot beat the best cell found so far;
- a part is searched only as far as it can still change the choice above it: the search of a
  set is told the least it must win to matter, stops when no move wins that much, and
  remembers the bound it found (alpha-beta pruning, for sums of parts).

The search has a budget of work; past it, it gives up (returns None) and the caller guesses by
heuristics, so that a hard end game cannot stall a benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from mineproof.analysis.constraints import Clue, Component, cells_seen, components_of
from mineproof.board import iter_bits

__all__ = ["EndgameSearch", "arrangements", "isolated_regions"]


class _OverBudget(Exception):
    """Raised inside the search when its budget of work is spent."""


def arrangements(unknown: int, mines: int, clues: Sequence[Clue], limit: int) -> list[int] | None:
    """Return every set of ``mines`` cells of ``unknown`` that fits every clue, as bitmasks.

    The clues must be reduced to ``unknown`` cells. Returns None as soon as more than ``limit``
    arrangements are found (or the search for them grows too long). The order is deterministic.
    """
    frontier = cells_seen(clues) & unknown
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


def isolated_regions(unknown: int, clues: list[Clue], masks: Sequence[int]) -> list[Component]:
    """Return the components of the clues (see
    :func:`~mineproof.analysis.constraints.components_of`) whose cells no other cell of
    ``unknown`` borders, smallest first (the lowest mask among equals).

    No cell outside such a region can ever show a number that tells its arrangements apart
    (only the mine total can, when they hold different numbers of mines: the caller checks
    that). ``clues`` are reduced to ``unknown`` cells; ``masks`` are the board's neighbour
    masks.

    >>> from mineproof.board import Board
    >>> masks = Board(4, 1).neighbour_masks()  # a row: cells 0 1 2 3
    >>> isolated_regions(0b1011, [Clue(2, 0b1010, 1)], masks)  # cell 0 borders cell 1
    []
    >>> [region.mask for region in isolated_regions(0b1010, [Clue(2, 0b1010, 1)], masks)]
    [10]
    """
    alone = []
    for region in components_of(clues):
        near = 0
        for c in iter_bits(region.mask):
            near |= masks[c]
        if not near & unknown & ~region.mask:
            alone.append(region)
    alone.sort(key=lambda r: (r.mask.bit_count(), r.mask))
    return alone


class EndgameSearch:
    """The exact search over a list of arrangements on a board's neighbourhoods.

    ``masks[c]`` is the neighbour mask of cell ``c``; ``cells`` the unknown cells that may be
    opened; ``budget`` the number of (set, cell) evaluations allowed.

    A set of arrangements is a bitmask over their positions in the list given to
    :meth:`best_cell`, so that opening a cell splits a set with one AND per number it can
    show (the arrangements where the cell is safe and shows that number are listed once per
    search), and a set is remembered by an int. Wins are counted in arrangements, as
    integers: the comparisons between cells are exact.
    """

    def __init__(self, masks: Sequence[int], cells: list[int], budget: int) -> None:
        """Prepare a search over ``cells`` with neighbour ``masks`` and a work ``budget``."""
        self.masks = masks
        self.cells = cells
        self.budget = budget
        self.memo: dict[int, int] = {}  # per set: the arrangements best play wins
        self._upper: dict[int, int] = {}  # per set: at most that, when a search stopped short
        self._mines: list[int] = []  # per cell: the arrangements where it is a mine
        self._shows: list[list[int]] = []  # per cell: where it is safe, one set per number
        self._ranks: dict[int, list[tuple[int, int]]] = {}  # per set: its living cells, ranked

    def _prepare(self, states: Sequence[int]) -> None:
        """List, for every cell, the arrangements where it is a mine and, where it is safe,
        those that show each number (in the order the numbers first appear)."""
        self.memo = {}
        self._upper = {}
        self._ranks = {}
        self._mines = []
        self._shows = []
        for c in self.cells:
            bit = 1 << c
            near = self.masks[c]
            mines = 0
            shows: dict[int, int] = {}
            for i, m in enumerate(states):
                if m & bit:
                    mines |= 1 << i
                else:
                    v = (m & near).bit_count()
                    shows[v] = shows.get(v, 0) | 1 << i
            self._mines.append(mines)
            self._shows.append(list(shows.values()))

    def _start(self, states: Sequence[int]) -> tuple[int, list[tuple[int, int]]]:
        """Prepare a search of ``states`` (see :meth:`_prepare`); return the set of them all
        and the ranking of its living cells."""
        self._prepare(states)
        every = (1 << len(states)) - 1
        return every, self._ranked(every, [(0, j) for j in range(len(self.cells))])

    def _ranked(self, states: int, among: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """Return ``(safe arrangements, cell's position in cells)`` for the *living* cells of
        the set ``states``, safest first and then by cell (remembered per set).

        A living cell shows two numbers or more where it is safe. The other cells need not be
        weighed. A *dead* cell (a mine in some arrangements, the same number in all others)
        is never better opened first than last: where it is safe it tells nothing, so any play
        that follows it wins the same arrangements when it goes first, and opening the dead
        cell at the end then tells its mines apart. A play of dead cells alone wins exactly one
        arrangement (it never branches), and a living cell at least two. A cell that is a mine
        in every arrangement, or safe in all on the same number, tells nothing at all.

        Only the cells of ``among`` (the living cells of a set that holds ``states``) are
        looked at: a cell that is not living in a set is not living in any part of it, so the
        answer is the same whatever larger set ``among`` comes from.
        """
        out = self._ranks.get(states)
        if out is not None:
            return out
        n = states.bit_count()
        living: list[tuple[int, int, int]] = []
        for _, j in among:
            mined = states & self._mines[j]
            if mined == states:
                continue
            numbers = 0
            for shown in self._shows[j]:
                if states & shown:
                    numbers += 1
                    if numbers > 1:
                        living.append((mined.bit_count(), self.cells[j], j))
                        break
        living.sort()
        out = [(n - m, j) for m, _, j in living]
        self._ranks[states] = out
        return out

    def _most(self, states: int) -> int:
        """Return at least :meth:`_wins` of ``states`` without searching: the known value, the
        bound a search that stopped short found, or the number of arrangements."""
        if not states & (states - 1):
            return 1
        got = self.memo.get(states)
        if got is not None:
            return got
        upper = self._upper.get(states)
        most = states.bit_count()
        return most if upper is None else min(most, upper)

    def _parts(self, parts: list[int], best: int, among: Sequence[tuple[int, int]]) -> int:
        """Return the arrangements won with best play over all ``parts`` (disjoint sets of
        arrangements, each played on its own) when that beats ``best``; otherwise a number at
        most ``best``. Each part is searched only as far as it can still matter."""
        most = [self._most(part) for part in parts]
        room = sum(most)
        if room <= best:
            return room
        won = 0
        for part, bound in zip(parts, most, strict=True):
            room -= bound
            # This part matters only if it beats what the others leave to beat.
            won += self._wins(part, among, best - won - room)
            if won + room <= best:
                return won + room
        return won

    def _opened(self, states: int, j: int, best: int, among: Sequence[tuple[int, int]]) -> int:
        """Return the arrangements of ``states`` won with best play after opening cell ``j``
        (by its position in cells) when that beats ``best``; otherwise a number at most
        ``best`` (the search of a cell stops as soon as it cannot beat it). ``among`` is the
        ranking of the living cells of ``states`` (see :meth:`_ranked`)."""
        self.budget -= 1
        if self.budget < 0:
            raise _OverBudget
        parts = [part for shown in self._shows[j] if (part := states & shown)]
        return self._parts(parts, best, among)

    def _wins(self, states: int, among: Sequence[tuple[int, int]], floor: int = 0) -> int:
        """Return how many arrangements of the set ``states`` best play wins when that is more
        than ``floor``; otherwise a number at most ``floor`` (the search stops as soon as no
        move can beat it). ``among`` is the ranking of the living cells of a set that holds
        ``states``.

        Exact values are remembered, and so are the bounds found when a search stops short.
        """
        rest = states & (states - 1)
        if not rest:
            return 1  # one arrangement left: every mine is known
        got = self.memo.get(states)
        if got is not None:
            return got
        upper = self._upper.get(states)
        if upper is not None and upper <= floor:
            return upper
        ranked = self._ranked(states, among)
        if not ranked:
            self.memo[states] = 1  # only dead cells: one arrangement is won, whichever is opened
            return 1
        if ranked[0][0] == states.bit_count():
            won = self._safe_split(states, ranked, floor)
            if won > floor:
                self.memo[states] = won
            else:
                self._upper[states] = won
            return won
        # A living cell wins two arrangements at least.
        best = floor if floor > 1 else 1
        beaten = False
        for safe, j in ranked:
            if safe <= best:
                break
            won = self._opened(states, j, best, ranked)
            if won > best:
                best = won
                beaten = True
        if beaten:
            self.memo[states] = best
        else:
            self._upper[states] = best  # no move wins more than ``floor``
        return best

    def _safe_split(self, states: int, ranked: list[tuple[int, int]], best: int) -> int:
        """Return :meth:`_wins` of a set in which some cells are safe in every arrangement and
        tell them apart (``ranked``'s first cells) when that beats ``best``, otherwise a number
        at most ``best``: open them all and play each part on its own.

        A cell that is always safe must be opened some time to win, and what it shows only
        adds knowledge, so opening it first loses nothing: no other first move can do better.
        """
        self.budget -= 1
        if self.budget < 0:
            raise _OverBudget
        n = states.bit_count()
        parts = [states]
        for safe, j in ranked:
            if safe < n:
                break
            parts = [p for part in parts for shown in self._shows[j] if (p := part & shown)]
        return self._parts(parts, best, ranked)

    def best_cell(self, states: tuple[int, ...], among: int = -1) -> tuple[int, float] | None:
        """Return the cell of the mask ``among`` (every cell searched by default) that wins
        most often from ``states`` when opened first, and its chance to win.

        ``states`` are the arrangements, equally likely, as masks of mines. Among equals, the
        safest and then the lowest-index cell; None when the budget runs out or no cell of
        ``among`` may be opened (a mine in every arrangement, or not searched).
        """
        n = len(states)
        every, living = self._start(states)
        best: tuple[int, int] | None = None
        # The first move may also be a dead cell (one number wherever it is safe): none wins
        # more than the best living cell, but one may win as much and be safer, and the first
        # move found is kept.
        dead = [
            (n - mines.bit_count(), j)
            for j, mines in enumerate(self._mines)
            if 0 < mines < every and len(self._shows[j]) == 1
        ]
        moves = sorted(
            (move for move in living + dead if among >> self.cells[move[1]] & 1),
            key=lambda t: (-t[0], self.cells[t[1]]),
        )
        try:
            for safe, j in moves:
                if best is not None and safe <= best[1]:
                    break
                won = self._opened(every, j, -1 if best is None else best[1], living)
                if best is None or won > best[1]:
                    best = (self.cells[j], won)
        except _OverBudget:
            return None
        return None if best is None else (best[0], best[1] / n)

    def chance(self, states: tuple[int, ...], cell: int) -> float | None:
        """Return the chance to win from ``states`` when ``cell`` (one of the search's cells)
        is opened first and best play follows; None when the budget runs out.

        Raises ``ValueError`` when ``cell`` is not one of the cells searched.
        """
        j = self.cells.index(cell)
        every, living = self._start(states)
        try:
            won = self._opened(every, j, -1, living)
        except _OverBudget:
            return None
        return won / len(states)
