"""Pseudo 50/50s: a cell that is either safe or the mine of a 50/50 that no number can decide.

Take two covered cells ``t`` and ``u`` side by side (in a row or a column). The cells that see
exactly one of them are the only ones whose number could tell "the mine is in ``t``" from "the
mine is in ``u``": call them the *deciders*. In an arrangement where ``t`` is a mine, ``u`` is
safe and every decider is a mine, moving the mine from ``t`` to ``u`` gives another arrangement
that fits every number shown, and no cell that can ever be opened, other than ``t`` and ``u``
themselves, tells the two apart: one of them must be guessed, and half of such games are lost
whatever the order of the moves.

The same holds for a larger *swap*: two sides of unknown cells, as many in each, that every
other cell (but known mines) sees equally often. Where one side is all mines and the other
all safe, exchanging them keeps every number shown or still to come. Swaps are built from
chains of links (:func:`~mineproof.play.fifty.link_chains`, whose sides are always one all
mines and one all safe) and pairs side by side, joined where one leans on a cell that the
other leans on the other way: for example two chains whose open ends share a number that asks
one mine of both ends and a third cell (JSMinesweeper's pseudo links, ``findRootedLinks`` and
``checkForUnavoidable5050OrPseudo`` in its probability engine, find such shapes by parity).

When *every* arrangement with ``t`` a mine has its swap so, opening ``t`` now costs nothing
that is not lost anyway: it loses only where the 50/50 was bound to come, and otherwise it
shows a number. Taking it first saves the risk of the guesses that would otherwise come before
it (and that would be wasted, half of the time, by the coin at the end). The test is exact: one
count of arrangements per side of a swap, compared with the mine counts of its cells. Swaps are
tried only with at most ``_MISSING`` unknown cells seeing them unevenly (those must be mines
with the side), and within fixed numbers of parts and tries, so it stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mineproof.analysis import Analysis
from mineproof.analysis.constraints import Constraints, Contradiction, condition
from mineproof.analysis.core import count_total
from mineproof.board import iter_bits
from mineproof.play.fifty import link_chains

__all__ = ["Swap", "count_fixed", "deciders", "safe_or_fifty", "swaps"]

_MISSING = 1  # at most this many unknown cells may see a swap unevenly (the rest: known mines)
_PARTS = 3  # at most this many chains and pairs in one swap
_STEPS = 400  # at most this many swaps are tried in one position
_SWAPS = 12  # at most this many swaps are counted in one position (two counts each)


def deciders(masks: Sequence[int], cells: int) -> int:
    """Return the cells that see an odd number of ``cells`` and are not among them.

    For two cells side by side, or a 2x2 block, these are the cells whose number could tell
    the two ways of placing the mines apart (no cell outside a 2x2 block sees three of it).
    ``masks`` are the board's neighbour masks.
    """
    seen = 0
    for c in iter_bits(cells):
        seen ^= masks[c]
    return seen & ~cells


def count_fixed(cons: Constraints, mines: int, safe: int) -> int:
    """Return the number of arrangements of ``cons`` with every cell of ``mines`` a mine and
    every cell of ``safe`` safe (both masks of unknown cells, disjoint); 0 when none fits.

    Raises :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
    """
    try:
        conditioned = condition(cons, mines, safe)
        return count_total(conditioned.unknown, conditioned.mines, conditioned.clues)
    except Contradiction:
        return 0


@dataclass(frozen=True, slots=True)
class _Part:
    """A piece a swap is built of: a chain of links or a pair of cells side by side, its two
    sides, and the lean of every cell outside it that sees it unevenly (the cells of the first
    side it sees less those of the second; known mines left out)."""

    cells: int
    sides: tuple[int, int]
    lean: dict[int, int]


@dataclass(frozen=True, slots=True)
class Swap:
    """Two sides of unknown cells, as many in each, that every cell outside them (but the
    known mines and ``missing``) sees as often: an arrangement with ``mines`` all mines,
    ``safe`` all safe and ``missing`` all mines, swapped, fits every number shown or to come."""

    mines: int
    safe: int
    missing: int


def safe_or_fifty(analysis: Analysis, cons: Constraints) -> list[int]:
    """Return the cells that are safe or the mine of an undecidable swap, found from chains
    of links and pairs side by side (see :func:`swaps`), in the order of their index.

    A cell ``a`` of a swap's ``mines`` side is one when every arrangement with ``a`` a mine
    has the whole swap as in :class:`Swap` (one count): swapped, it is an arrangement with
    ``a`` safe that no cell outside the swap can tell apart from it, so a game where ``a`` is
    a mine must guess between the two some time. ``cons`` are the constraints of
    ``analysis``'s position with flags trusted. Raises
    :class:`~mineproof.analysis.CountTooLarge` past the counting budget.
    """
    counts = analysis.mine_counts
    total = analysis.arrangements
    found = 0
    for swap in swaps(analysis):
        for mines, safe in ((swap.mines, swap.safe), (swap.safe, swap.mines)):
            open_ = [a for a in iter_bits(mines & ~found) if 0 < counts[a] < total]
            if not open_:
                continue
            twins = count_fixed(cons, mines | swap.missing, safe)
            for a in open_:
                if twins == counts[a]:
                    found |= 1 << a
    return iter_bits(found)


def swaps(analysis: Analysis) -> list[Swap]:
    """Return the swaps (see :class:`Swap`) of ``analysis``'s position made of at most
    ``_PARTS`` parts: chains of links (:func:`~mineproof.play.fifty.link_chains`) and pairs of
    unknown cells side by side in a clue that needs one more mine, or whose deciders are
    known mines but at most ``_MISSING`` unknown cells. Parts are joined where one leans on a
    cell that the other leans on the other way, or holds; at most ``_STEPS`` joins are
    tried and ``_SWAPS`` swaps returned. Flags and the mines the analysis proves are known
    mines.
    """
    position = analysis.position
    masks = position.board.neighbour_masks()
    known = analysis.mine_mask | position.flag_mask
    opened = position.board.full_mask & ~position.covered_mask
    parts = _parts(analysis, masks, known, opened)
    touching: dict[int, list[int]] = {}
    for n, part in enumerate(parts):
        for z in list(part.lean) + iter_bits(part.cells):
            touching.setdefault(z, []).append(n)
    found: list[Swap] = []
    tried: set[frozenset[tuple[int, int]]] = set()
    steps = 0
    todo: list[tuple[tuple[tuple[int, int], ...], int, int, dict[int, int]]] = [
        (((n, 1),), part.sides[0], part.sides[1], dict(part.lean)) for n, part in enumerate(parts)
    ]
    todo.reverse()
    while todo and steps < _STEPS and len(found) < _SWAPS:
        chosen, mines, safe, lean = todo.pop()
        first = min(chosen)[1]  # a swap and its mirror are one: the lowest part leads
        key = frozenset((n, sign * first) for n, sign in chosen)
        if key in tried:
            continue
        tried.add(key)
        steps += 1
        inside = mines | safe
        leaning = [z for z, v in lean.items() if v and not inside >> z & 1]
        breakers = [z for z in leaning if opened >> z & 1]
        missing = [z for z in leaning if not opened >> z & 1]
        if not breakers and len(missing) <= _MISSING and mines.bit_count() == safe.bit_count():
            found.append(Swap(mines, safe, sum(1 << z for z in missing)))
            continue
        if len(chosen) == _PARTS or not leaning:
            continue
        z = (breakers or missing)[0]
        for n in reversed(touching.get(z, [])):
            part = parts[n]
            if part.cells & inside:
                continue
            if part.cells >> z & 1:
                signs = [1, -1]
            else:
                signs = [-1 if (part.lean[z] > 0) == (lean[z] > 0) else 1]
            for sign in signs:
                side0, side1 = part.sides if sign > 0 else part.sides[::-1]
                merged = dict(lean)
                for c, v in part.lean.items():
                    merged[c] = merged.get(c, 0) + sign * v
                todo.append(((*chosen, (n, sign)), mines | side0, safe | side1, merged))
    return found


def _parts(analysis: Analysis, masks: Sequence[int], known: int, opened: int) -> list[_Part]:
    """Return the parts swaps are built of (see :func:`swaps`): the chains of links, then the
    pairs, each pair once, in the order of their cells."""
    position = analysis.position
    board = position.board
    unknown = position.covered_mask & ~known
    sided = list(link_chains(analysis))
    chained = 0
    for side0, side1 in sided:
        chained |= side0 | side1
    pairs: set[tuple[int, int]] = set()
    cells = position.cells
    w = board.width
    for i in iter_bits(position.number_mask):
        near = masks[i] & unknown
        if near.bit_count() < 3 or cells[i] - (masks[i] & known).bit_count() != 1:
            continue
        for t in iter_bits(near):
            for u in (t + 1 if (t + 1) % w else -1, t + w):
                if u >= 0 and near >> u & 1:
                    pairs.add((t, u))
    # A pair's deciders (the cells next to one of its two, not both) are two cells or more on
    # a board at least 3 wide and 3 high; with at most one of them not a known mine, one is,
    # within two steps of the pair's first cell: only cells that near a known mine start one.
    starts = unknown
    if _MISSING < 2 and w >= 3 and board.height >= 3:
        starts &= board.dilate(board.dilate(known))
    for t in iter_bits(starts):
        for u in (t + 1 if (t + 1) % w else -1, t + w if t + w < board.size else -1):
            if u < 0 or not unknown >> u & 1:
                continue
            around = (masks[t] ^ masks[u]) & ~(1 << t | 1 << u)  # deciders(), inlined: hot
            if not around & opened and (around & ~known).bit_count() <= _MISSING:
                pairs.add((t, u))
    sided += [(1 << t, 1 << u) for t, u in sorted(pairs) if not (1 << t | 1 << u) & chained]
    parts: list[_Part] = []
    for side0, side1 in sided:
        inside = side0 | side1
        lean: dict[int, int] = {}
        for side, step in ((side0, 1), (side1, -1)):
            for c in iter_bits(side):
                for z in iter_bits(masks[c] & ~inside & ~known):
                    lean[z] = lean.get(z, 0) + step
        parts.append(_Part(inside, (side0, side1), {z: v for z, v in lean.items() if v}))
    return parts
