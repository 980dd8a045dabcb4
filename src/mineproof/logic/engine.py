"""The logic-only solving engine shared by the solver and the generator.

It plays a layout from a start cell on bitmasks: every step takes the techniques of the lowest
level that makes progress, up to a given level (as :mod:`mineproof.logic.levels` defines them),
opens what they prove safe and marks what they prove mined.
"""

from __future__ import annotations

from mineproof.analysis.constraints import Clue, components_of, new_clue, propagate
from mineproof.analysis.core import forced_by
from mineproof.bitboard import bitboard
from mineproof.board import Layout, iter_bits
from mineproof.errors import ArgumentError, IllegalMoveError
from mineproof.logic.levels import forced_up_to, mine_count, pair_bounds
from mineproof.position import COVERED, FLAG, Position

__all__ = ["Engine"]


class Engine:
    """A layout played logic-only: opened cells, proven mines, numbers kept up to date.

    Sets of cells are bitmasks, with no Position objects in the loop. Level 1 (the one-clue
    rules) works on the whole board at once: the numbers are held bit-sliced
    (:mod:`mineproof.bitboard`), and each step compares them, for every number at once,
    with how many known mines and how many covered cells it touches. It looks only at the
    numbers next to a cell that changed (opened, proven, or toggled) since the last step, since
    the others gave all they could before. Only where level 1 is stuck are the clues built one
    by one (``clue_of``, brought up to date for the numbers that changed since) for the higher
    levels (see :mod:`mineproof.logic.levels`); at level 5 the engine is a perfect logician.
    ``toggle`` lets the generator change the layout under a game in progress.
    """

    def __init__(self, layout: Layout, start: int, protected: int = 0) -> None:
        """Set up ``layout`` to be played from cell ``start`` (an index; nothing opened yet,
        see :meth:`reveal`), the cells of ``protected`` never changed by :meth:`toggle`.
        Raises ``ArgumentError`` when ``start`` is no cell of the board and
        ``IllegalMoveError`` when it is a mine (as :meth:`~mineproof.board.Layout.start_index`
        does, which checks it)."""
        _check_cell(layout.board.size, start)
        layout.start_index(layout.board.xy(start))
        self.board = layout.board
        self.start = start
        self.rounds = 0
        self.hardest = 0
        self.lists = self.board.neighbour_lists()
        self.masks = self.board.neighbour_masks()
        self.grid = bitboard(self.board.width, self.board.height)
        self.full = self.board.full_mask
        self.total = layout.mine_count
        self.mines = layout.mines
        self._count_numbers()
        self.protected = protected
        self.opened = 0
        self.known = 0
        # Kept up to date by `update_clues` at the points where level 1 is stuck.
        self.clue_of: dict[int, Clue] = {}
        # The clues of the last stuck point where nothing was forced, and of the last one
        # where no pair of clues forced anything (see `_stuck`).
        self.quiet: set[Clue] = set()
        self.paired: set[Clue] = set()
        # False: where the mine total cannot bind, no exact count after the pairs (see `_stuck`).
        self.complete = True
        # Cells changed since the last step (its numbers are looked at again) and since the
        # clues were last brought up to date.
        self.dirty = 0
        self.stale = 0
        # True while the play so far is a plain solve of the current layout from the start.
        self.clean = True

    def _count_numbers(self) -> None:
        """Set the numbers (bit-sliced) and the mine-free cells showing 0 from ``mines``."""
        self.numbers = numbers = self.grid.count(self.mines)
        self.zeros = self.full & ~self.mines & ~(numbers[0] | numbers[1] | numbers[2] | numbers[3])

    def number(self, i: int) -> int:
        """Return the number of mines next to cell ``i``."""
        p0, p1, p2, p3 = self.numbers
        return p0 >> i & 1 | (p1 >> i & 1) << 1 | (p2 >> i & 1) << 2 | (p3 >> i & 1) << 3

    def reveal(self, i: int) -> None:
        """Open cell ``i`` and flood through zeros. Raises ``ArgumentError`` when ``i`` is no
        cell of the board and ``IllegalMoveError`` when it is a mine (the engine plays games it
        does not lose)."""
        _check_cell(self.board.size, i)
        if self.mines >> i & 1:
            x, y = self.board.xy(i)
            raise IllegalMoveError(f"cell ({x}, {y}) is a mine: the engine opens safe cells only")
        self._open(1 << i)

    def _open(self, cells: int) -> None:
        """Open ``cells`` (none a mine) and flood through the zeros among the newly opened."""
        grid, opened, zeros = self.grid, self.opened, self.zeros
        new = grow = cells & ~opened
        while grow:
            grow = grid.dilate(grow & zeros) & ~opened & ~new
            new |= grow
        self.opened = opened | new
        self.dirty |= grid.dilate(new)

    def toggle(self, i: int) -> None:
        """Put a mine on cell ``i`` or take it away, keeping the numbers right. A mine put on
        an opened cell makes it a proven mine: the solve goes on (its cells opened before are
        then only checked when the board is replayed from the start)."""
        bit = 1 << i
        self.mines ^= bit
        self._count_numbers()
        self.dirty |= bit | self.masks[i]
        self.clean = False
        if self.opened & bit:
            self.opened ^= bit
            self.known |= bit

    def forget_near(self, cells: int) -> None:
        """Forget the proven mines within two cells of ``cells`` (whose mines changed).

        Only numbers next to ``cells`` changed, so only proofs around them can have failed; a
        proof that relied on them from farther away is caught when the board is replayed.
        """
        dilate = self.board.dilate
        region = dilate(dilate(cells))
        if self.known & region:
            self.known &= ~region
            self.dirty |= dilate(region)

    def update_clues(self) -> None:
        """Bring ``clue_of`` (a clue per opened number with unknown cells beside it, reduced
        to them) up to date with the cells changed since it last was."""
        unknown = self.full & ~self.opened & ~self.known
        border = self.grid.dilate(unknown) & self.opened
        changed = (self.stale | self.dirty) & border
        self.stale = 0
        known = self.known
        masks = self.masks
        clue_of = self.clue_of
        for i in [i for i in clue_of if not border >> i & 1]:
            del clue_of[i]
        for i in iter_bits(changed):
            near = masks[i]
            count = self.number(i) - (near & known).bit_count()
            clue_of[i] = new_clue(Clue, (i, near & unknown, count))

    def one_clue(self, numbers: int) -> tuple[int, int]:
        """Return ``(safe, mine)``: what the one-clue rules force, applied again and again, to
        the opened ``numbers`` (a bitmask), as ``propagate`` does on their clues.

        A number is done when it touches as many known mines as it shows (the rest of its
        cells are safe) and full when its covered cells not proven safe are all needed. Once
        it has fired it has nothing left to give, and a number that did not fire can only
        fire after a cell beside it was settled. What is known is taken as true (it is: a toggle
        forgets the proofs near it), so no contradiction is looked for, unlike ``propagate``.
        """
        grid, shown = self.grid, self.numbers
        covered = self.full & ~self.opened
        known = self.known
        safe = mine = 0
        near_known = near_covered = None
        look = numbers  # the numbers that can fire now
        while look:
            if near_known is None:
                near_known = grid.count(known)
            if near_covered is None:
                near_covered = grid.count(covered & ~safe)
            done = grid.equal(near_known, shown, look)
            full = grid.equal(near_covered, shown, look)
            unknown = covered & ~known & ~safe
            new_safe = grid.dilate(done) & unknown
            new_mine = grid.dilate(full) & unknown
            numbers &= ~(done | full)
            look = numbers & grid.dilate(new_safe | new_mine)
            if new_mine:
                mine |= new_mine
                known |= new_mine
                near_known = None
            if new_safe:
                safe |= new_safe
                near_covered = None
        return safe, mine

    def _stuck(self, rest: list[Clue], unknown: int, left: int) -> tuple[int, int]:
        """Return ``(safe, mine)``: what the clues ``rest`` (reduced, one clue stuck) force with
        ``left`` mines among ``unknown``, as the exact count with the mine total does.

        Only the components with a clue that changed since the last stuck point where nothing
        was forced are looked at, while the total cannot bind (the components' mines cannot
        reach ``left`` and cannot leave the cells outside them full or empty). The clues of that
        point force nothing, and neither does any connected part of them: a part has more
        arrangements, not fewer. Two clues are tried before the count: they settle most stuck
        points at a quarter of its cost (see :meth:`_pairs`). Unless ``complete``, the count is
        left out where the total cannot bind: the solve is then quick but not complete (the
        generator's search, whose boards a complete solve verifies).
        """
        safe, mine = self._pairs(rest)
        if safe | mine:
            return safe, mine
        quiet = self.quiet
        fresh: list[Clue] = []
        low = high = 0
        frontier = 0
        for comp in components_of(rest):
            frontier |= comp.mask
            if not quiet.issuperset(comp.clues):
                fresh.extend(comp.clues)
            # Bounds of the component's mines: its fullest clue, all its clues' mines.
            low += max(clue.mines for clue in comp.clues)
            high += min(sum(clue.mines for clue in comp.clues), comp.mask.bit_count())
        outside = (unknown & ~frontier).bit_count()
        if high < left and left - low < outside:
            if fresh and self.complete:
                safe, mine = forced_by(fresh, unknown)
        else:
            safe, mine = forced_by(rest, unknown, left)
        if not (safe | mine):
            self.quiet = set(rest)
        return safe, mine

    def _pairs(self, rest: list[Clue]) -> tuple[int, int]:
        """Return ``(safe, mine)``: what the pairs of overlapping clues of ``rest`` force, as
        :func:`~mineproof.logic.levels.two_clues` does.

        Only pairs with a clue outside ``paired`` are looked at: no pair of those clues forces
        anything (what a pair forces depends on the two clues alone). Afterwards ``paired``
        holds the clues of ``rest`` but those of a pair that forced something. A clue overlaps
        only the clues of numbers next to its cells.
        """
        paired = self.paired
        dilate = self.grid.dilate
        by_cell = {clue.cell: clue for clue in rest}
        numbers = 0
        for clue in rest:
            numbers |= 1 << clue.cell
        forcing: set[Clue] = set()
        safe = mine = 0
        for a in rest:
            if a in paired:
                continue
            for j in iter_bits(dilate(a.mask) & numbers & ~(1 << a.cell)):
                b = by_cell[j]
                # A pair of two changed clues is looked at from its first clue.
                if (j > a.cell or b in paired) and a.mask & b.mask:
                    s, m = pair_bounds(a, b)
                    if s | m:
                        safe, mine = safe | s, mine | m
                        forcing.update((a, b))
        self.paired = set(rest) - forcing if forcing else set(rest)
        return safe, mine

    def cleared(self) -> bool:
        return self.opened | self.mines == self.full

    def step(self, max_level: int, exact_levels: bool = True) -> int:
        """Make the deductions of the lowest level that makes progress, up to ``max_level``.

        Returns that level, 0 when nothing was opened or proven (``clue_of`` is then up to
        date). Without ``exact_levels`` and with ``max_level`` 5, everything beyond one clue is
        decided at once by the exact count with the mine total (the fastest complete solve) and
        reported as level 5.
        """
        changed = self.dirty & self.opened
        self.stale |= self.dirty
        self.dirty = 0
        safe, mine = self.one_clue(changed)
        level = 1
        if not (safe | mine):
            unknown = self.full & ~self.opened & ~self.known
            left = self.total - self.known.bit_count()
            safe, mine = mine_count(unknown, left)
            if not (safe | mine):
                self.update_clues()
            if not (safe | mine) and max_level >= 2:
                rest = propagate(list(self.clue_of.values()))[2]
                if max_level >= 5 and not exact_levels:
                    safe, mine = self._stuck(rest, unknown, left)
                    level = 5
                else:
                    for level in range(2, max_level + 1):
                        safe, mine = forced_up_to(level, rest, unknown, left)
                        if safe | mine:
                            break
        if not (safe | mine):
            return 0
        self.hardest = max(self.hardest, level)
        self.known |= mine
        self.dirty |= self.grid.dilate(mine)
        self._open(safe)
        self.rounds += bool(safe)
        return level

    def play(self, max_level: int, exact_levels: bool = True) -> bool:
        """Solve as far as the techniques up to ``max_level`` go; return whether cleared.

        ``hardest`` then holds the highest level a step needed (see :meth:`step`).
        """
        while not self.cleared():
            if not self.step(max_level, exact_levels):
                return False
        return True

    def restart(self) -> None:
        """Forget the progress and open the start area again."""
        self.opened = 0
        self.known = 0
        self.clue_of = {}
        self.dirty = 0
        self.stale = 0
        self.clean = True
        self.hardest = 0
        self.reveal(self.start)

    def resume(self, opened: int, known: int) -> None:
        """Go on from another solve's state of this layout's start: ``opened`` cells and
        ``known`` mines, which must be what a solve of this layout can reach."""
        self.restart()
        self.opened, self.known = opened, known
        self.dirty = self.full
        self.clean = False

    def position(self) -> Position:
        """Return the player's view now: opened numbers, proven mines flagged, the rest covered."""
        cells = tuple(
            self.number(i) if self.opened >> i & 1 else FLAG if self.known >> i & 1 else COVERED
            for i in range(self.board.size)
        )
        return Position(self.board, cells, self.total)


def _check_cell(size: int, i: int) -> None:
    """Raise ``ArgumentError`` unless ``i`` is a cell index of a board of ``size`` cells."""
    if not 0 <= i < size:
        raise ArgumentError(f"cell index {i} is not on the board (0 to {size - 1})", name="cell")
