"""Long-term risk: how often a cell would end up in a 50/50 that no number could break.

Two covered cells side by side, or a 2x2 block, can hold their mines in two ways that no cell
outside them can tell apart, once every cell that sees one way but not the other (its
*deciders*) is a mine or off the board: that is a 50/50 waiting to happen. A guess elsewhere
leaves it to be guessed later; opening a cell of it now settles it while the rest of the game
is still to play. So the ``best`` strategy raises the score of a cell by the share of its safe
arrangements that such a 50/50 weighs on (JSMinesweeper weighs it the same way, with the same
0.9, in its ``LongTermRiskHelper``).

For a cell, :func:`influence` counts the arrangements where it is one of a 2-cell 50/50 (with
each of its four neighbours in a row or a column, in both roles: the mine or the safe cell),
plus the largest such count over the four 2x2 blocks it belongs to (the block's mines on one
diagonal, its safe cells on the other), each with every unknown decider a mine; a pair with
more than three unknown deciders, or a block with more than three, is left out (it is then
too unlikely). The total is capped at the cell's arrangements with a mine, and at those
without, as JSMinesweeper caps it.

Which cells are worth that weighing? :func:`board_influence` scans the whole board once per
position for the likelier 50/50s in waiting (JSMinesweeper's ``getInfluencedTiles``): a cell
below the cut-off of the look-ahead's candidates may be lifted above it by them. A sieve on
the board's bitmasks (every pair and block at once) leaves a few dozen groups to count, and
the groups no clue sees share their counts, so the scan costs a few per cent of a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mineproof.analysis import Analysis
from mineproof.analysis.constraints import Constraints, cells_seen
from mineproof.analysis.counting import current_budget
from mineproof.bitboard import Bitboard, bitboard, iter_bits
from mineproof.board import Board
from mineproof.play.pseudo import count_fixed, deciders

__all__ = [
    "COMPONENT_UNITS",
    "WEIGHT",
    "board_influence",
    "charge_groups",
    "influence",
    "influence_factor",
]

WEIGHT = 0.9
"""How much a safe arrangement that a 50/50 weighs on counts, on top of counting as safe."""

_PAIR_DECIDERS = 3  # at most this many unknown deciders around a 2-cell 50/50
_BOX_DECIDERS = 3  # and around a 2x2 one
_SCAN_PAIR_DECIDERS = 1  # in the scan of the whole board (board_influence), at most one
_SCAN_BOX_DECIDERS = 2  # and two
_SCAN_SHARE = 40  # a 50/50 weighs in that scan when in more than 1/40 of the arrangements


def influence(
    analysis: Analysis,
    cons: Constraints,
    cell: int,
    known_groups: dict[tuple[int, int], int] | None = None,
    extra: int = 0,
    groups: int = 0,
) -> int:
    """Return the arrangements where ``cell`` is part of a 50/50 in waiting (see the module),
    plus ``extra`` (such as :func:`board_influence`'s count of it as an enabler), capped.

    ``cons`` are the constraints of ``analysis``'s position with flags trusted. A pair is
    shared by two cells and a block by four: ``known_groups``, kept by the caller for one
    position, remembers each group's count by its (mined, safe) cells; each count made is
    charged :data:`COMPONENT_UNITS` for each of the position's ``groups`` of numbers besides
    its own work. Raises
    :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
    """
    board = analysis.position.board
    w = board.width
    group = _Cells.of(analysis, cons).waiting
    memo: dict[tuple[int, int], int] = {} if known_groups is None else known_groups
    seen = cells_seen(cons.clues)

    def count(found: tuple[int, int]) -> int:
        """Return the group's count, remembered in ``memo``."""
        return _group_count(cons, seen, found, memo, groups)

    x, y = board.xy(cell)
    here = 1 << cell
    right, down = here << 1, here << w  # the next cell along a row, and down a column
    left, up = here >> 1, here >> w
    shapes = []
    if x + 1 < w:
        shapes.append(group(here, right, _PAIR_DECIDERS))
    if x > 0:
        shapes.append(group(left, here, _PAIR_DECIDERS))
    if y + 1 < board.height:
        shapes.append(group(here, down, _PAIR_DECIDERS))
    if y > 0:
        shapes.append(group(up, here, _PAIR_DECIDERS))
    pairs = [g for g in shapes if g is not None]
    blocks = []
    for bx, by in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)):
        if 0 <= bx < w - 1 and 0 <= by < board.height - 1:
            corner = by * w + bx  # the block's top left; its mines on the main diagonal
            diagonal = 1 << corner | 1 << (corner + w + 1)
            found = group(diagonal, 1 << (corner + 1) | 1 << (corner + w), _BOX_DECIDERS)
            if found is not None:
                blocks.append(found)
    mine = analysis.mine_counts[cell]
    cap = min(mine, analysis.arrangements - mine)
    risk = sum(count(g) for g in pairs) + max((count(g) for g in blocks), default=0)
    return min(risk + extra, cap)


def board_influence(
    analysis: Analysis,
    cons: Constraints,
    known_groups: dict[tuple[int, int], int],
    enablers: dict[int, int] | None = None,
    groups: int = 0,
) -> dict[int, int]:
    """Return the cells the likelier 50/50s in waiting of the whole board weigh on, each with
    the arrangements of those 50/50s (summed over them).

    The scan JSMinesweeper's ``LongTermRiskHelper`` makes (its master branch, the one the
    README's comparisons ran) to find the cells worth weighing for their long-term risk: every
    pair with at most one unknown decider and every 2x2 block with at most two, whose 50/50 is
    in more than 1/40 of the arrangements; its count goes to each of its cells and to each
    unknown decider (the mines that would close it). ``cons`` are the constraints of
    ``analysis``'s position with flags trusted; ``known_groups`` remembers each group's count
    as :func:`influence` does. With ``enablers`` (a dict), the counts that went to unknown
    deciders go there too, by cell (JSMinesweeper's ``influenceEnablers``); each count made is
    charged as :func:`influence` says, for the position's ``groups`` of numbers. Raises
    :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
    """
    board = analysis.position.board
    w = board.width
    cells = _Cells.of(analysis, cons)
    total = analysis.arrangements
    seen = cells_seen(cons.clues)
    tally: dict[int, int] = {}

    def weigh(mines: int, safe: int, most: int) -> None:
        """Add the group's count to its cells when it is a likely 50/50 in waiting."""
        found = cells.waiting(mines, safe, most)
        if found is None:
            return
        n = _group_count(cons, seen, found, known_groups, groups)
        if n * _SCAN_SHARE <= total:
            return
        for c in iter_bits(found[0] | found[1]):
            tally[c] = tally.get(c, 0) + n
        if enablers is not None:
            for c in iter_bits(found[0] & ~mines):
                enablers[c] = enablers.get(c, 0) + n

    bits = bitboard(w, board.height)
    row, column, block = _shapes(w)
    scan = ((row, _SCAN_PAIR_DECIDERS), (column, _SCAN_PAIR_DECIDERS), (block, _SCAN_BOX_DECIDERS))
    for shape, most in scan:
        for t in iter_bits(_maybe_waiting(bits, cells.hidden, cells.opened, shape, most)):
            weigh(shape.mines << t, shape.safe << t, most)
    return tally


COMPONENT_UNITS = 200
"""The counting work charged, at each count a guess's weighing makes, for each independent
group of numbers of the position (about 15 microseconds here): the count cache saves each
group's count, not their combination, which is made again at every count. Uncharged, a board
of thousands of separate numbers (a lattice) weighed its guesses for minutes within the budget
of :func:`~mineproof.play.best_guess`; an expert position has a few dozen groups, and its
guesses spend at most about 100,000 units in all."""


def charge_groups(groups: int, clues: int, cells: int) -> None:
    """Charge the counting budget in force :data:`COMPONENT_UNITS` for each of ``groups``
    groups of numbers (``clues`` numbers over ``cells`` covered cells, for the message).
    Raises :class:`~mineproof.analysis.CountTooLarge` past it."""
    current_budget().charge(COMPONENT_UNITS * groups, clues, cells, max(groups, 1))


def _group_count(
    cons: Constraints,
    seen: int,
    found: tuple[int, int],
    memo: dict[tuple[int, int], int],
    groups: int = 0,
) -> int:
    """Return the arrangements of ``cons`` with the cells of ``found[0]`` mines and those of
    ``found[1]`` safe, remembered in ``memo``; ``seen`` holds the cells some clue sees. A count
    made is charged :data:`COMPONENT_UNITS` for each of the position's ``groups`` of numbers
    first.

    When no clue sees any of those cells, the count depends only on how many there are of
    each (the cells no clue sees are alike), so it is remembered under ``(-mines, -safe)``:
    the scan of a board's edges then makes a handful of counts instead of one per block.
    Raises :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
    """
    mines, safe = found
    key = found
    if not (mines | safe) & seen:
        key = (-mines.bit_count(), -safe.bit_count())
    n = memo.get(key)
    if n is None:
        charge_groups(groups, len(cons.clues), cons.unknown.bit_count())
        n = memo[key] = count_fixed(cons, mines, safe)
    return n


@dataclass(frozen=True, slots=True)
class _Shape:
    """A pair or a 2x2 block by its top left cell: its cells and its deciders, as (dx, dy)
    steps, and the masks of its mined and safe cells when its top left cell is cell 0."""

    cells: tuple[tuple[int, int], ...]
    around: tuple[tuple[int, int], ...]
    mines: int
    safe: int


def _around(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Return the steps to the deciders of a group of ``cells`` (steps from its top left),
    as :func:`~mineproof.play.pseudo.deciders` finds them, read off a board with room all
    around the group."""
    board = Board(6, 6)
    at = sum(1 << board.index(2 + dx, 2 + dy) for dx, dy in cells)
    found = deciders(board.neighbour_masks(), at)
    return tuple((x - 2, y - 2) for x, y in (board.xy(c) for c in iter_bits(found)))


_ROW = ((0, 0), (1, 0))
_COLUMN = ((0, 0), (0, 1))
_BLOCK = ((0, 0), (1, 0), (0, 1), (1, 1))
_AROUND = {cells: _around(cells) for cells in (_ROW, _COLUMN, _BLOCK)}


def _shapes(w: int) -> tuple[_Shape, _Shape, _Shape]:
    """Return the row pair, the column pair and the 2x2 block on a board ``w`` wide."""
    return (
        _Shape(_ROW, _AROUND[_ROW], 1, 2),
        _Shape(_COLUMN, _AROUND[_COLUMN], 1, 1 << w),
        _Shape(_BLOCK, _AROUND[_BLOCK], 1 | 1 << (w + 1), 2 | 1 << w),
    )


def _maybe_waiting(bits: Bitboard, hidden: int, opened: int, shape: _Shape, most: int) -> int:
    """Return the cells where ``shape`` may start a 50/50 in waiting, for every cell at once: all
    its cells hidden, none of its deciders opened, at most ``most`` (1 or 2) of them hidden.
    A quick sieve before :meth:`_Cells.waiting`, which decides each cell it lets through."""
    ok = bits.full
    for dx, dy in shape.cells:
        ok &= bits.at(hidden, dx, dy)
    one = two = three = 0  # the cells with at least one, two, three hidden deciders
    for dx, dy in shape.around:
        ok &= ~bits.at(opened, dx, dy)
        step = bits.at(hidden, dx, dy)
        three |= two & step
        two |= one & step
        one |= step
    return ok & ~(two if most == 1 else three)


@dataclass(frozen=True, slots=True)
class _Cells:
    """What a position shows of its cells, to find its 50/50s in waiting: the board's neighbour
    ``masks``, the ``known`` mines (flagged or proven), the ``hidden`` cells (covered, not
    known), the ``opened`` ones and the mines left among the unknown cells."""

    masks: Sequence[int]
    known: int
    hidden: int
    opened: int
    mines_left: int

    @classmethod
    def of(cls, analysis: Analysis, cons: Constraints) -> _Cells:
        """Return the cells of ``analysis``'s position (``cons``: its constraints, flags
        trusted)."""
        position = analysis.position
        board = position.board
        known = analysis.mine_mask | position.flag_mask
        return cls(
            board.neighbour_masks(),
            known,
            position.covered_mask & ~known,
            board.full_mask & ~position.covered_mask,
            cons.mines,
        )

    def waiting(self, mines: int, safe: int, most: int) -> tuple[int, int] | None:
        """Return the cells that are mines (``mines`` and every unknown decider) and those
        that are safe in a group's 50/50 in waiting; None when a cell of the group is not
        hidden, a decider is opened, or more than ``most`` deciders are unknown, or the group
        needs more mines than are left."""
        if (mines | safe) & ~self.hidden:
            return None
        around = deciders(self.masks, mines | safe)
        if around & self.opened:
            return None
        missing = around & ~self.known
        if missing.bit_count() > most or (missing | mines).bit_count() > self.mines_left:
            return None
        return missing | mines, safe


def influence_factor(analysis: Analysis, cell: int, risk: int) -> float:
    """Return how much ``risk`` arrangements of 50/50s in waiting (:func:`influence`) raise
    ``cell``'s score: ``1 + WEIGHT * risk / (its arrangements without a mine)``; 1.0 for a cell
    that is a mine in every arrangement."""
    safe = analysis.arrangements - analysis.mine_counts[cell]
    if safe <= 0:
        return 1.0
    return 1 + WEIGHT * (risk / safe)  # int / int: exact, any size
