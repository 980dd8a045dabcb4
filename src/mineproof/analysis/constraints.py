"""Constraints from the clues: ``(mask, count)`` pairs, trivial propagation, components, boxes.

Every set of cells is an int bitmask. A clue says that exactly ``count`` of the cells in ``mask``
are mines. Propagation applies the one-clue rules until nothing changes; what is left splits
into independent components (clues linked by shared cells), and each component's cells split
into boxes: cells that touch exactly the same clues, which are interchangeable when counting.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from mineproof.bitboard import iter_bits, mask_of
from mineproof.position import Position

__all__ = [
    "Clue",
    "Component",
    "Constraints",
    "Contradiction",
    "boxes_of",
    "cells_seen",
    "components_of",
    "condition",
    "constraints_of",
    "new_clue",
    "propagate",
    "refresh_clues",
]


class Clue(NamedTuple):
    """Exactly ``mines`` of the cells in ``mask`` are mines; ``cell`` is the number that says so.

    A named tuple rather than a dataclass: positions create hundreds, and tuples are cheap.
    """

    cell: int
    mask: int
    mines: int


# Building a NamedTuple through tuple.__new__ skips its Python-level __new__: hundreds per position.
new_clue = tuple.__new__


class Contradiction(Exception):
    """Raised inside the analysis when the clues (or the mine total) cannot all hold.

    ``cells`` holds the number cells where it showed; the caller looks for a minimal conflict.
    """

    def __init__(self, cells: tuple[int, ...] = ()) -> None:
        self.cells = cells
        super().__init__(cells)


@dataclass(slots=True)
class Constraints:
    """The unknown cells of a position and the clues about them.

    ``unknown`` holds the covered cells whose content the analysis must find (flags included
    unless they are trusted); ``mines`` is the number of mines among them; ``clues`` the clues
    reduced to unknown cells (those with no unknown cell left are checked and dropped).
    """

    unknown: int
    mines: int
    clues: list[Clue]


def constraints_of(
    position: Position, trust_flags: bool = False, near: int | None = None
) -> Constraints:
    """Return the constraints a position puts on its unknown cells.

    With ``trust_flags`` each flag is taken as a mine: it leaves the unknown cells, and the
    numbers and the mine total count it. With ``near`` (a mask of cells), only the numbers
    among those cells and next to them give clues (and are checked): the part of the position
    that a change of those cells can have changed. Raises :class:`Contradiction` when a number
    cannot be satisfied on its own or trusted flags exceed the mine total.
    """
    masks = position.board.neighbour_masks()
    covered = position.covered_mask
    flags = position.flag_mask if trust_flags else 0
    unknown = covered & ~flags
    mines = position.mines - flags.bit_count()
    if mines < 0:
        raise Contradiction(())
    clues: list[Clue] = []
    cells = position.cells
    board = position.board
    # Numbers with a covered neighbour; a number with none only needs its count checked.
    border = board.dilate(unknown) & ~covered
    settled = position.number_mask
    if flags:
        settled |= board.dilate(flags) & ~covered
    if near is not None:
        around = board.dilate(near)
        border &= around
        settled &= around
    for i in iter_bits(settled & ~border):
        if cells[i] != (masks[i] & flags).bit_count():
            raise Contradiction((i,))
    for i in iter_bits(border):
        code = cells[i]
        near = masks[i]
        mask = near & unknown
        count = code - (near & flags).bit_count() if flags else code
        if not mask:
            if count:
                raise Contradiction((i,))
            continue
        if not 0 <= count <= mask.bit_count():
            raise Contradiction((i,))
        clues.append(new_clue(Clue, (i, mask, count)))
    return Constraints(unknown, mines, clues)


def condition(cons: Constraints, mines: int, safe: int) -> Constraints:
    """Return ``cons`` with every cell of ``mines`` taken as a mine and every cell of ``safe``
    as free (both masks of unknown cells, disjoint): those cells leave the unknown cells, and
    the clues and the mine total count the mines. Raises :class:`Contradiction` when a clue or
    the mine total cannot hold with them.

    >>> cons = Constraints(0b111, 1, [Clue(3, 0b011, 1)])
    >>> condition(cons, 0b001, 0)
    Constraints(unknown=6, mines=0, clues=[Clue(cell=3, mask=2, mines=0)])
    """
    fixed = mines | safe
    clues: list[Clue] = []
    for clue in cons.clues:
        if not clue.mask & fixed:
            clues.append(clue)
            continue
        need = clue.mines - (clue.mask & mines).bit_count()
        rest = clue.mask & ~fixed
        if not 0 <= need <= rest.bit_count():
            raise Contradiction((clue.cell,))
        if rest:
            clues.append(new_clue(Clue, (clue.cell, rest, need)))
    left = cons.mines - mines.bit_count()
    if not 0 <= left <= (cons.unknown & ~fixed).bit_count():
        raise Contradiction(())
    return Constraints(cons.unknown & ~fixed, left, clues)


def refresh_clues(
    position: Position, clues: dict[int, Clue], changed: int, forcing: list[int] | None = None
) -> int:
    """Bring ``clues`` (by number cell, flags trusted) up to date with ``position`` after the
    cells of ``changed`` were opened or flagged: only the numbers beside them are rebuilt.

    Returns the mask of the numbers looked at (those beside ``changed``): every clue that can
    have changed or gone is among them. ``forcing``, when given, is ``[zero, full]``: the masks
    of the numbers whose clue has no mine left, and of those whose mines fill their cells; they
    are kept up to date too. Raises :class:`Contradiction` for a number that can no longer be
    satisfied.
    """
    masks = position.board.neighbour_masks()
    cells = position.cells
    covered = position.covered_mask
    flags = position.flag_mask
    unknown = covered & ~flags
    refreshed = position.board.dilate(changed) & ~covered
    zero = full = 0
    for i in iter_bits(refreshed):
        near = masks[i]
        mask = near & unknown
        count = cells[i] - (near & flags).bit_count()
        if not mask:
            if count:
                raise Contradiction((i,))
            clues.pop(i, None)
            continue
        size = mask.bit_count()
        if not 0 <= count <= size:
            raise Contradiction((i,))
        clues[i] = new_clue(Clue, (i, mask, count))
        if count == 0:
            zero |= 1 << i
        elif count == size:
            full |= 1 << i
    if forcing is not None:
        forcing[0] = forcing[0] & ~refreshed | zero
        forcing[1] = forcing[1] & ~refreshed | full
    return refreshed


def propagate(clues: list[Clue]) -> tuple[int, int, list[Clue]]:
    """Apply the one-clue rules until nothing changes.

    Returns ``(safe, mine, rest)``: the cells proven safe and proven mines, and the remaining
    clues reduced to the undecided cells, in the order of ``clues``, with clues of equal masks
    merged (the first kept). Raises :class:`Contradiction` naming the clue that fails.

    Round after round, every clue is looked at again (a few operations on masks each: the
    fastest way on a standard board, where the player calls this thousands of times a second),
    until :data:`_ROUND_WORK` clues have been looked at. A chain of clues that decides one cell
    per round (a snake of covered cells, each proven by the one before) would make that
    quadratic in the clues, with masks as wide as the board: 255x255 took minutes. Beyond,
    :func:`_propagate_by_cells` looks again only at the clues beside each cell decided, which
    gives the same result.
    """
    safe = 0
    mine = 0
    current = clues
    looked = 0
    while True:
        looked += len(current)
        if looked > _ROUND_WORK:
            return _propagate_by_cells(clues)
        changed = False
        if safe & mine:
            raise Contradiction(())
        rest: dict[int, Clue] = {}
        for clue in current:
            cell, mask, count = clue
            known = safe | mine
            if mask & known:
                count -= (mask & mine).bit_count()
                mask &= ~known
                if not mask:
                    if count:
                        raise Contradiction((cell,))
                    continue
                clue = new_clue(Clue, (cell, mask, count))
            size = mask.bit_count()
            if count <= 0 or count >= size:
                if count == 0:
                    safe |= mask
                elif count == size:
                    mine |= mask
                else:
                    raise Contradiction((cell,))
                changed = True
                continue
            twin = rest.get(mask)
            if twin is None:
                rest[mask] = clue
            elif twin[2] != count:
                raise Contradiction((twin[0], cell))
        current = list(rest.values())
        if not changed:
            return safe, mine, current


_ROUND_WORK = 4096
"""Where :func:`propagate` turns to :func:`_propagate_by_cells`, in clues looked at: an expert
board's positions show at most a few hundred clues and need a few rounds (a round decides every
cell that a chain of clues reaches in the clues' order)."""


def _propagate_by_cells(clues: list[Clue]) -> tuple[int, int, list[Clue]]:
    """Return what :func:`propagate` returns, looking again only at the clues beside a cell
    just decided: work in proportion to the clues' cells, however long the chains. Raises
    :class:`Contradiction` naming a clue that fails."""
    cells_of = [iter_bits(clue.mask) for clue in clues]
    need = [clue.mines for clue in clues]
    left = [len(cells) for cells in cells_of]
    beside: dict[int, list[int]] = {}
    for i, cells in enumerate(cells_of):
        for cell in cells:
            beside.setdefault(cell, []).append(i)
    mine_at: dict[int, bool] = {}
    waiting = list(range(len(clues) - 1, -1, -1))
    queued = [True] * len(clues)
    while waiting:
        i = waiting.pop()
        queued[i] = False
        count = need[i]
        if count < 0 or count > left[i]:
            raise Contradiction((clues[i].cell,))
        if not left[i] or 0 < count < left[i]:
            continue
        is_mine = count > 0
        for cell in cells_of[i]:
            if cell in mine_at:
                continue
            mine_at[cell] = is_mine
            for j in beside[cell]:
                left[j] -= 1
                if is_mine:
                    need[j] -= 1
                if not queued[j]:
                    queued[j] = True
                    waiting.append(j)
    mine = mask_of([cell for cell, is_mine in mine_at.items() if is_mine])
    safe = mask_of([cell for cell, is_mine in mine_at.items() if not is_mine])
    known = safe | mine
    rest: dict[int, Clue] = {}
    for i, clue in enumerate(clues):
        if not 0 < need[i] < left[i]:
            continue
        mask = clue.mask
        if mask & known:
            mask &= ~known
            clue = new_clue(Clue, (clue.cell, mask, need[i]))
        twin = rest.get(mask)
        if twin is None:
            rest[mask] = clue
        elif twin[2] != need[i]:
            raise Contradiction((twin[0], clue.cell))
    return safe, mine, list(rest.values())


@dataclass(slots=True)
class Component:
    """Clues linked by shared cells, and the cells they cover."""

    mask: int
    clues: list[Clue]


def cells_seen(clues: Iterable[Clue]) -> int:
    """Return the cells some of ``clues`` sees.

    >>> cells_seen([Clue(0, 0b0110, 1), Clue(5, 0b1100, 1)])
    14
    """
    seen = 0
    for clue in clues:
        seen |= clue.mask
    return seen


def components_of(clues: list[Clue]) -> list[Component]:
    """Return the independent components of the clues (cells shared link two clues).

    The components come in the order of their last clue, each listing that clue first and
    then, recursively, the components it joined in the same order: the order of merging the
    clues one by one into a list of components. The work grows with the clues' cells (a
    union-find over them), not with clues times components.

    >>> comps = components_of([Clue(0, 0b11, 1), Clue(5, 0b1100, 1), Clue(6, 0b110, 1)])
    >>> [[clue.cell for clue in comp.clues] for comp in comps]
    [[6, 0, 5]]

    Up to :data:`_FEW_CLUES` clues the merging is done as said, a clue at a time (a few
    operations on masks each: the fastest way for a standard board, where the player calls
    this thousands of times a second); beyond, by the union-find, which gives the same list.
    """
    if len(clues) <= _FEW_CLUES:
        return _merged_one_by_one(clues)
    return _merged_by_cells(clues)


_FEW_CLUES = 400
"""Where :func:`components_of` turns to the union-find: an expert board has at most about
300 numbers with covered neighbours, and on those the one-by-one merging is about 1.5 times
as fast; on a 200x200 board of scattered numbers it is quadratic."""


def _merged_one_by_one(clues: list[Clue]) -> list[Component]:
    """Return :func:`components_of` by merging each clue into the components it touches."""
    comps: list[Component] = []
    for clue in clues:
        mask = clue.mask
        merged = Component(mask, [clue])
        keep = []
        for comp in comps:
            if comp.mask & mask:
                merged.mask |= comp.mask
                merged.clues.extend(comp.clues)
            else:
                keep.append(comp)
        keep.append(merged)
        comps = keep
    return comps


def _merged_by_cells(clues: list[Clue]) -> list[Component]:
    """Return :func:`components_of` by a union-find over the clues' cells."""
    parent = list(range(len(clues)))
    joined: list[list[int]] = [[] for _ in clues]  # per clue, the components it joined
    owner: dict[int, int] = {}  # cell -> a clue that sees it
    for i, clue in enumerate(clues):
        mask = clue.mask
        roots = set()
        if mask:
            low = (mask & -mask).bit_length() - 1
            near = mask >> low
            while near:
                bit = near & -near
                cell = low + bit.bit_length() - 1
                near ^= bit
                j = owner.get(cell)
                owner[cell] = i
                if j is None:
                    continue
                while parent[j] != j:
                    parent[j] = parent[parent[j]]
                    j = parent[j]
                roots.add(j)
        for j in sorted(roots):
            if j != i:
                parent[j] = i
                joined[i].append(j)
    comps: list[Component] = []
    for i, up in enumerate(parent):
        if up != i:
            continue
        found: list[Clue] = []
        seen = 0
        stack = [i]
        while stack:
            j = stack.pop()
            found.append(clues[j])
            seen |= clues[j].mask
            stack.extend(reversed(joined[j]))
        comps.append(Component(seen, found))
    return comps


def boxes_of(component: Component) -> tuple[list[int], tuple[tuple[int, ...], ...]]:
    """Return the component's boxes, maximal sets of cells that touch exactly the same clues
    (in the order of their lowest cell), and for each of its clues the boxes it sees (their
    indices, ascending).

    Each cell is given the set of clues that see it; cells with the same set form a box. A
    clue's mask is read near its lowest cell, in a small int, so the work grows with the
    clues' cells rather than with clues times boxes.

    >>> boxes_of(Component(0b1110, [Clue(0, 0b0110, 1), Clue(5, 0b1100, 1)]))
    ([2, 4, 8], ((0, 1), (1, 2)))
    """
    seen_by: dict[int, int] = {}  # cell -> the clues that see it, as bits
    for j, clue in enumerate(component.clues):
        mask = clue.mask
        if not mask:
            continue  # a clue with no cell left sees no box
        low = (mask & -mask).bit_length() - 1
        near = mask >> low
        while near:
            bit = near & -near
            cell = low + bit.bit_length() - 1
            seen_by[cell] = seen_by.get(cell, 0) | 1 << j
            near ^= bit
    by_clues: dict[int, int] = {}  # clues as bits -> the box of the cells they see
    for cell in sorted(seen_by):
        key = seen_by[cell]
        by_clues[key] = by_clues.get(key, 0) | 1 << cell
    sees: list[list[int]] = [[] for _ in component.clues]
    for b, key in enumerate(by_clues):
        while key:
            bit = key & -key
            sees[bit.bit_length() - 1].append(b)
            key ^= bit
    return list(by_clues.values()), tuple(tuple(boxes) for boxes in sees)
