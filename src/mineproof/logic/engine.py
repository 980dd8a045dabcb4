"""The logic-only solving engine shared by the solver and the generator.

It plays a layout from a start cell on bitmasks: every step takes the techniques of the lowest
level that makes progress, up to a given level (as :mod:`mineproof.logic.levels` defines them),
opens what they prove safe and marks what they prove mined.
"""

from __future__ import annotations

from mineproof.analysis.constraints import Clue, new_clue, propagate
from mineproof.analysis.core import forced_by
from mineproof.board import Layout, iter_bits
from mineproof.logic.levels import forced_up_to, mine_count
from mineproof.position import COVERED, FLAG, Position

__all__ = ["Engine"]


class Engine:
    """A layout played logic-only: opened cells, proven mines, numbers kept up to date.

    Sets of cells are bitmasks, with no Position objects in the loop. Clues are kept between
    steps: only those next to a cell that changed (opened, proven, or toggled) are rebuilt, and
    one-clue propagation looks only at them, since the others gave all they could before.
    ``step`` uses the techniques up to a level (see :mod:`mineproof.logic.levels`); at level 5
    the engine is a perfect logician.
    ``toggle`` lets the generator change the layout under a game in progress.
    """

    def __init__(self, layout: Layout, start: int, protected: int = 0) -> None:
        self.board = layout.board
        self.start = start
        self.rounds = 0
        self.hardest = 0
        self.lists = self.board.neighbour_lists()
        self.masks = self.board.neighbour_masks()
        self.full = self.board.full_mask
        self.total = layout.mine_count
        self.mines = layout.mines
        self.numbers = list(layout.numbers())
        self.protected = protected
        self.opened = 0
        self.known = 0
        self.clue_of: dict[int, Clue] = {}
        self.dirty = 0
        # True while the play so far is a plain solve of the current layout from the start.
        self.clean = True

    def reveal(self, i: int) -> None:
        """Open cell ``i`` (never a mine) and flood through zeros."""
        todo = [i]
        numbers = self.numbers
        while todo:
            c = todo.pop()
            bit = 1 << c
            if self.opened & bit:
                continue
            self.opened |= bit
            self.dirty |= bit | self.masks[c]
            if numbers[c] == 0:
                todo.extend(n for n in self.lists[c] if not self.opened >> n & 1)

    def toggle(self, i: int) -> None:
        """Put a mine on cell ``i`` or take it away, keeping the numbers right."""
        bit = 1 << i
        step = -1 if self.mines & bit else 1
        self.mines ^= bit
        numbers = self.numbers
        for n in self.lists[i]:
            if numbers[n] >= 0:
                numbers[n] += step
        numbers[i] = -1 if step > 0 else sum(self.mines >> n & 1 for n in self.lists[i])
        self.dirty |= bit | self.masks[i]
        self.clean = False

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

    def refresh(self) -> tuple[int, list[Clue]]:
        """Rebuild the clues next to changed cells; return the unknown cells and those clues."""
        unknown = self.full & ~self.opened & ~self.known
        changed = self.dirty & self.opened
        self.dirty = 0
        known = self.known
        numbers = self.numbers
        masks = self.masks
        clue_of = self.clue_of
        out = []
        for i in iter_bits(changed):
            near = masks[i]
            mask = near & unknown
            if mask:
                clue = new_clue(Clue, (i, mask, numbers[i] - (near & known).bit_count()))
                clue_of[i] = clue
                out.append(clue)
            else:
                clue_of.pop(i, None)
        return unknown, out

    def cleared(self) -> bool:
        return self.opened | self.mines == self.full

    def step(self, max_level: int, exact_levels: bool = True) -> int:
        """Make the deductions of the lowest level that makes progress, up to ``max_level``.

        Returns that level, 0 when nothing was opened or proven. Without ``exact_levels`` and
        with ``max_level`` 5, everything beyond one clue is decided at once by the exact count
        with the mine total (the fastest complete solve) and reported as level 5.
        """
        unknown, changed = self.refresh()
        left = self.total - self.known.bit_count()
        safe, mine, _ = propagate(changed)
        level = 1
        if not (safe | mine):
            safe, mine = mine_count(unknown, left)
        if not (safe | mine) and max_level >= 2:
            rest = propagate(list(self.clue_of.values()))[2]
            if max_level >= 5 and not exact_levels:
                safe, mine = forced_by(rest, unknown, left)
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
        if mine:
            self.dirty |= self.board.dilate(mine)
        for i in iter_bits(safe):
            self.reveal(i)
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
        self.clean = True
        self.hardest = 0
        self.reveal(self.start)

    def position(self) -> Position:
        """Return the player's view now: opened numbers, proven mines flagged, the rest covered."""
        cells = tuple(
            n if self.opened >> i & 1 else FLAG if self.known >> i & 1 else COVERED
            for i, n in enumerate(self.numbers)
        )
        return Position(self.board, cells, self.total)
