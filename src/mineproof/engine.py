"""The logic-only solving engine shared by the solver and the generator.

It plays a layout from a start cell on bitmasks: every step takes the techniques of the lowest
level that makes progress, up to a given level, opens what they prove safe and marks what they
prove mined.
"""

from __future__ import annotations

from mineproof.analysis.constraints import Clue, components_of, new_clue, propagate
from mineproof.analysis.core import forced_by
from mineproof.board import Layout, iter_bits
from mineproof.logic.elimination import bounds, eliminate
from mineproof.logic.ladder import overlapping_pairs, pair_bounds
from mineproof.position import COVERED, FLAG, Position

__all__ = ["Engine"]


class Engine:
    """A layout played logic-only: opened cells, proven mines, numbers kept up to date.

    Sets of cells are bitmasks, with no Position objects in the loop. Clues are kept between
    steps: only those next to a cell that changed (opened, proven, or toggled) are rebuilt, and
    one-clue propagation looks only at them, since the others gave all they could before.
    ``step`` uses the techniques up to a level: 1 one-clue propagation and the global rules,
    2 pairs of clues, 3 elimination, 4 exact counting of the clues, 5 exact counting with the
    mine total (complete: at level 5 the engine is a perfect logician).
    ``toggle`` lets the generator change the layout under a game in progress.
    """

    def __init__(self, layout: Layout, start: int, protected: int = 0) -> None:
        self.board = layout.board
        self.start = start
        self.rounds = 0
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

    def step(self, max_level: int) -> bool:
        """Make the deductions of the lowest level that makes progress, up to ``max_level``.

        Returns whether anything was opened or proven.
        """
        unknown, changed = self.refresh()
        left = self.total - self.known.bit_count()
        safe, mine, _ = propagate(changed)
        if not (safe | mine):
            if left == 0:
                safe = unknown
            elif left == unknown.bit_count():
                mine = unknown
        rest: list[Clue] = []
        if not (safe | mine) and max_level >= 2:
            rest = propagate(list(self.clue_of.values()))[2]
        if not (safe | mine) and max_level >= 5:
            # Every technique is allowed: the exact count with the mine total decides at once,
            # and when it finds nothing, no weaker technique can.
            safe, mine = forced_by(rest, unknown, left)
        elif not (safe | mine) and max_level >= 2:
            safe, mine = _pairs(rest)
            if not (safe | mine) and max_level >= 3:
                for comp in components_of(rest):
                    for row in eliminate(comp.clues):
                        s, m = bounds(row)
                        safe |= s
                        mine |= m
            if not (safe | mine) and max_level >= 4:
                safe, mine = forced_by(rest, unknown)
        if not (safe | mine):
            return False
        self.known |= mine
        if mine:
            self.dirty |= self.board.dilate(mine)
        for i in iter_bits(safe):
            self.reveal(i)
        self.rounds += bool(safe)
        return True

    def play(self, max_level: int) -> bool:
        """Solve as far as the techniques up to ``max_level`` go; return whether cleared."""
        while not self.cleared():
            if not self.step(max_level):
                return False
        return True

    def restart(self) -> None:
        """Forget the progress and open the start area again."""
        self.opened = 0
        self.known = 0
        self.clue_of = {}
        self.dirty = 0
        self.clean = True
        self.reveal(self.start)

    def position(self) -> Position:
        """Return the player's view now: opened numbers, proven mines flagged, the rest covered."""
        cells = tuple(
            n if self.opened >> i & 1 else FLAG if self.known >> i & 1 else COVERED
            for i, n in enumerate(self.numbers)
        )
        return Position(self.board, cells, self.total)


def _pairs(clues: list[Clue]) -> tuple[int, int]:
    """Return every cell two overlapping clues force together."""
    safe = 0
    mine = 0
    for a, b in overlapping_pairs(clues):
        s, m = pair_bounds(a, b)
        safe |= s
        mine |= m
    return safe, mine
