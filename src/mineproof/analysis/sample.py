"""Drawing a whole layout that fits a position, every fitting arrangement equally likely.

The draw uses the exact counts of the analysis, never rejection: the mines each component holds
are drawn with weight (its arrangements with that many mines) times the ways the rest of the
position completes them, the ``U`` covered cells no number sees taking the mines left in
``C(U, M - k)`` ways; each component's arrangement is then drawn box by box from its counting
tables (:meth:`~mineproof.analysis.counting.ComponentCount.sample`), and the cells of a box and
of the outside uniformly. Conditions (cells that must be mines, cells that must be free) are
applied first, as known cells.

Used by the web app's ``punish_guesses`` mode to draw the hidden layout again with a mine on a
guessed cell, and by :func:`count_arrangements` to weigh such conditions.
"""

from __future__ import annotations

import random

from mineproof.analysis.constraints import (
    Clue,
    Contradiction,
    condition,
    constraints_of,
    propagate,
)
from mineproof.analysis.core import (
    ANALYSIS_WORK,
    binomials_down,
    check_position,
    component_counts,
    count_total,
)
from mineproof.analysis.counting import counting_budget, current_budget, product_cost
from mineproof.board import iter_bits
from mineproof.errors import ArgumentError, check_rng
from mineproof.position import Position

__all__ = ["count_arrangements", "sample_arrangement", "sample_with_a_mine_among"]


def _conditioned(
    position: Position, mines: int, safe: int, trust_flags: bool
) -> tuple[int, int, list[Clue], int]:
    """Return ``(unknown, left, clues, fixed)``: the constraints of ``position`` with the cells
    of ``mines`` taken as mines and those of ``safe`` as free (``fixed``: the mines known
    before the draw, trusted flags and ``mines``). Raises :class:`Contradiction` when they
    cannot hold, ``ArgumentError`` for conditions on opened cells or on both sides (or a
    negative mask)."""
    if mines < 0 or safe < 0:
        raise ArgumentError("the cells of a condition are a bitmask, 0 or more")
    if (mines | safe) & ~position.covered_mask:
        raise ArgumentError("the cells of a condition must be covered cells of the position")
    if mines & safe:
        raise ArgumentError("a cell cannot be both a mine and free")
    cons = constraints_of(position, trust_flags)
    fixed = position.flag_mask if trust_flags else 0
    if (mines | safe) & fixed:
        # A trusted flag is a mine: a condition that it is free cannot hold.
        if safe & fixed:
            raise Contradiction(())
        mines &= ~fixed
    conditioned = condition(cons, mines, safe)
    return conditioned.unknown, conditioned.mines, conditioned.clues, fixed | mines


def count_arrangements(
    position: Position,
    *,
    mines: int = 0,
    safe: int = 0,
    trust_flags: bool = False,
    work: int = ANALYSIS_WORK,
) -> int:
    """Return how many arrangements of the mines fit ``position`` (its numbers and mine
    total; flags trusted as mines only with ``trust_flags``) with a mine on every cell of the
    bitmask ``mines`` and none on the cells of ``safe``; 0 when none does.

    Raises ``ArgumentError`` for a condition on an opened cell, or on a cell in both masks (or
    a negative mask), :class:`~mineproof.errors.TooComplexError` past ``work`` units of
    counting, and ``TypeError`` when ``position`` is not a :class:`Position`.

    >>> count_arrangements(Position.parse("3x1x1\\nH1H"), mines=0b001)
    1
    """
    check_position(position, "count_arrangements")
    with counting_budget(work):
        try:
            unknown, left, clues, _ = _conditioned(position, mines, safe, trust_flags)
            return count_total(unknown, left, clues)
        except Contradiction:
            return 0


def sample_arrangement(
    position: Position,
    rng: random.Random,
    *,
    mines: int = 0,
    safe: int = 0,
    trust_flags: bool = False,
    work: int = ANALYSIS_WORK,
) -> int:
    """Return the bitmask of the mines of a layout drawn among every arrangement that fits
    ``position`` (as :func:`count_arrangements` counts them, with the same conditions), each
    equally likely. The layout's mines are all covered cells of the position, and number
    ``position.mines``; with ``trust_flags`` every flag is one of them.

    Raises ``ArgumentError`` when no arrangement fits (the position is impossible, or the
    conditions cannot hold in it) or for a bad condition,
    :class:`~mineproof.errors.TooComplexError` past ``work`` units of counting, and
    ``TypeError`` when ``position`` is not a :class:`Position` or ``rng`` not a
    ``random.Random``.

    >>> bin(sample_arrangement(Position.parse("3x1x1\\nH1H"), random.Random(1), safe=0b001))
    '0b100'
    """
    check_position(position, "sample_arrangement")
    check_rng(rng)
    with counting_budget(work):
        try:
            unknown, left, clues, fixed = _conditioned(position, mines, safe, trust_flags)
            total, drawn = _draw(unknown, left, clues, rng)
        except Contradiction:
            total = 0
    if not total:
        raise ArgumentError("no arrangement of the mines fits the position with these conditions")
    return fixed | drawn


def _draw(unknown: int, left: int, clues: list[Clue], rng: random.Random) -> tuple[int, int]:
    """Return ``(total, mines)``: the number of arrangements of ``left`` mines over
    ``unknown`` under ``clues``, and the mines of one of them drawn uniformly with ``rng``.
    Raises :class:`Contradiction` when the clues cannot hold, and
    :class:`~mineproof.analysis.counting.CountTooLarge` past the counting budget (each
    product of the components' counts is charged, as the analysis charges its own)."""
    safe, mine, clues = propagate(clues)
    left -= mine.bit_count()
    if left < 0:
        raise Contradiction(())
    comps = component_counts(clues, left)
    frontier = 0
    for boxes, _ in comps:
        for box in boxes:
            frontier |= box
    outside = unknown & ~(frontier | safe | mine)
    u = outside.bit_count()
    # ways[c][m]: the ways to place m mines on components c, c+1, ... and the outside cells.
    budget = current_budget()
    cells = sum(sum(cc.sizes) for _, cc in comps)
    # C(u, m) for every m, each from the one before: a product and a division, charged.
    budget.charge(product_cost([u], range(left + 1)), len(clues), cells, len(comps))
    ways = [binomials_down(u, left, left + 1)[::-1]]
    for _, cc in reversed(comps):
        after = ways[-1]
        weights = cc.weights
        budget.charge(product_cost(weights, after), len(clues), cells, len(comps))
        ways.append(
            [
                sum(w * after[m - k] for k, w in enumerate(weights[: m + 1]) if w)
                for m in range(left + 1)
            ]
        )
    ways.reverse()  # ways[0] covers every component; ways[len(comps)] the outside alone
    total = ways[0][left]
    if not total:
        return total, 0
    below = rng.randrange
    drawn = mine
    for c, (boxes, cc) in enumerate(comps):
        after = ways[c + 1]
        pick = below(ways[c][left])
        for k, w in enumerate(cc.weights[: left + 1]):
            share = w * after[left - k]
            if pick < share:
                break
            pick -= share
        for box, x in zip(boxes, cc.sample(k, below), strict=True):
            if x:
                drawn |= _choose(box, x, rng)
        left -= k
    if left:
        drawn |= _choose(outside, left, rng)
    return total, drawn


def _choose(cells: int, k: int, rng: random.Random) -> int:
    """Return ``k`` cells of the bitmask ``cells``, drawn uniformly, as a bitmask."""
    mask = 0
    for i in rng.sample(list(iter_bits(cells)), k):
        mask |= 1 << i
    return mask


def sample_with_a_mine_among(
    position: Position,
    cells: int,
    rng: random.Random,
    *,
    work: int = ANALYSIS_WORK,
) -> int:
    """Return the mines of a layout drawn among every arrangement that fits ``position`` (flags
    not trusted) with a mine on at least one of ``cells`` (a bitmask of covered cells), each
    such arrangement equally likely.

    The arrangements are split by the first of ``cells`` (lowest index) that holds a mine: that
    part is drawn with weight its count (:func:`count_arrangements` with that cell a mine and
    the cells before it free), then the layout within it (:func:`sample_arrangement`). Raises
    ``ArgumentError`` when no arrangement has a mine there (or ``cells`` is negative),
    :class:`~mineproof.errors.TooComplexError` past ``work`` units of counting (shared by the
    counts), and ``TypeError`` as :func:`sample_arrangement`.

    >>> bin(sample_with_a_mine_among(Position.parse("3x1x1\\nH1H"), 0b101, random.Random(2)))
    '0b1'
    """
    check_position(position, "sample_with_a_mine_among")
    check_rng(rng)
    if cells < 0:
        raise ArgumentError("the cells are a bitmask, 0 or more")
    with counting_budget(work):
        parts = []
        before = 0
        for i in iter_bits(cells):
            mine = 1 << i
            n = count_arrangements(position, mines=mine, safe=before, work=work)
            if n:
                parts.append((n, mine, before))
            before |= mine
        total = sum(n for n, _, _ in parts)
        if not total:
            raise ArgumentError("no arrangement of the mines has a mine on these cells")
        pick = rng.randrange(total)
        for n, mine, free in parts:
            if pick < n:
                return sample_arrangement(position, rng, mines=mine, safe=free, work=work)
            pick -= n
    raise AssertionError("unreachable")  # pragma: no cover
