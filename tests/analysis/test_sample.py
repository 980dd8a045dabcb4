"""The layout sampler against a brute force written here: every arrangement equally likely.

The oracle lists every set of covered cells holding the mine total where every opened number
sees its number of mines (the brute force's own neighbour arithmetic, no mineproof code), with
the conditions (cells that must be mines, cells that must be free). The sampler's draws are
compared with the uniform distribution over that list by a chi-square test; the same test is
shown to reject a sampler that weighs frontier solutions without the ways to fill the cells no
number sees (the classic mistake), so it has the power to fail; a draw without the boxes'
binomials fails it on the fifth case.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from scipy.stats import chisquare  # type: ignore[import-untyped]

from mineproof.analysis import count_arrangements, sample_arrangement, sample_with_a_mine_among
from mineproof.board import Board
from mineproof.errors import ArgumentError, TooComplexError
from mineproof.position import COVERED, FLAG, Position

from .hostile import scattered
from .test_brute_force import around


def position_from(rows: list[str], clicks: list[tuple[int, int]], flags: str = "") -> Position:
    """Return the position a player sees on the layout ``rows`` (``*`` a mine) after opening
    ``clicks`` (zeros flood-fill), flood fill and numbers computed here. ``flags`` lists cells
    as ``x,y`` separated by spaces."""
    width, height = len(rows[0]), len(rows)
    mines = {y * width + x for y, row in enumerate(rows) for x, c in enumerate(row) if c == "*"}
    numbers = [sum(n in mines for n in around(width, height, i)) for i in range(width * height)]
    opened: set[int] = set()
    for x, y in clicks:
        todo = [y * width + x]
        while todo:
            i = todo.pop()
            assert i not in mines, "a click on a mine"
            if i in opened:
                continue
            opened.add(i)
            if numbers[i] == 0:
                todo += [n for n in around(width, height, i) if n not in opened]
    flagged = {int(y) * width + int(x) for x, y in (f.split(",") for f in flags.split())}
    cells = tuple(
        numbers[i] if i in opened else FLAG if i in flagged else COVERED
        for i in range(width * height)
    )
    return Position(Board(width, height), cells, len(mines))


def arrangements(position: Position, mines: int = 0, safe: int = 0) -> list[int]:
    """Return every arrangement (a bitmask of mines) that fits ``position`` with the mines of
    ``mines`` and none on ``safe``: the oracle, by enumeration."""
    width, height = position.width, position.height
    covered = [i for i, code in enumerate(position.cells) if code in (COVERED, FLAG)]
    numbers = [(i, code) for i, code in enumerate(position.cells) if code >= 0]
    out = []
    for chosen in combinations(covered, position.mines):
        mask = sum(1 << i for i in chosen)
        if mask & mines != mines or mask & safe:
            continue
        if all(sum(mask >> n & 1 for n in around(width, height, i)) == k for i, k in numbers):
            out.append(mask)
    return out


# Positions with several components, boxes of several cells and cells no number sees.
CASES = [
    # One frontier and a covered region no number sees (1,820 arrangements).
    position_from(["......", "..*...", "*....*", "..*..*"], [(0, 0)]),
    # Two separate frontiers and the covered cells between them (1,260).
    position_from(["......*", "..*....", "*....*.", "..*..*."], [(0, 0), (6, 3)]),
    # Two frontiers, most cells unseen (100).
    position_from(["....*..", "*......", ".......", "..*..*."], [(1, 3), (6, 0)]),
    # Frontier solutions with one and with two mines: the cells no number sees weigh them
    # 12 and 66 to one (156).
    position_from(["...*..", "......", ".*....", "....**"], [(0, 0)]),
    # Scattered clicks: boxes of two cells inside one number, whose splits weigh differently
    # (504).
    position_from(["..**.", ".**..", "..*..", "....."], [(3, 2), (2, 3), (4, 1)]),
    # A flag (not trusted) on a covered cell.
    position_from(["......", "..*...", "*....*", "..*..*"], [(0, 0)], flags="1,2"),
]
_ALL = {id(p): arrangements(p) for p in CASES}


def fitting(position: Position, mines: int = 0, safe: int = 0) -> list[int]:
    """Return the oracle's arrangements of a case with the conditions (from its full list)."""
    return [a for a in _ALL[id(position)] if a & mines == mines and not a & safe]


def chi_square_p(draws: list[int], support: list[int]) -> float:
    """Return the p-value of the draws against the uniform distribution over ``support``
    (every draw must be in it)."""
    counts = Counter(draws)
    assert set(counts) <= set(support), "a draw outside the arrangements"
    observed = [counts[a] for a in support]
    return float(chisquare(observed).pvalue)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_count_matches_enumeration(case: int) -> None:
    position = CASES[case]
    every = fitting(position)
    assert len(every) > 3
    assert count_arrangements(position) == len(every)
    cells = [i for i, code in enumerate(position.cells) if code == COVERED]
    for i in cells[:: max(1, len(cells) // 6)]:
        assert count_arrangements(position, mines=1 << i) == len(fitting(position, 1 << i))
        assert count_arrangements(position, safe=1 << i) == len(fitting(position, 0, 1 << i))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_draws_are_uniform(case: int) -> None:
    position = CASES[case]
    every = fitting(position)
    rng = random.Random(case)
    n = min(15 * len(every), 20_000)
    draws = [sample_arrangement(position, rng) for _ in range(n)]
    assert chi_square_p(draws, every) > 1e-4


@pytest.mark.parametrize("case", range(len(CASES)))
def test_draws_with_a_mine_on_a_cell_are_uniform(case: int) -> None:
    """The punish_guesses draw: a mine on a cell that can be safe or a mine."""
    position = CASES[case]
    every = fitting(position)
    undecided = [
        i
        for i, code in enumerate(position.cells)
        if code in (COVERED, FLAG) and 1 < sum(a >> i & 1 for a in every) < len(every)
    ]
    assert undecided
    rng = random.Random(100 + case)
    for i in (undecided[0], undecided[-1]):
        support = fitting(position, mines=1 << i)
        n = min(15 * len(support), 10_000)
        draws = [sample_arrangement(position, rng, mines=1 << i) for _ in range(n)]
        assert all(d >> i & 1 for d in draws)
        assert chi_square_p(draws, support) > 1e-4


def test_conditions_that_cannot_hold() -> None:
    position = CASES[0]
    every = fitting(position)
    always_safe = next(
        i
        for i, code in enumerate(position.cells)
        if code == COVERED and not any(a >> i & 1 for a in every)
    )
    assert count_arrangements(position, mines=1 << always_safe) == 0
    with pytest.raises(ArgumentError):
        sample_with_a_mine_among(position, 1 << always_safe, random.Random(1))
    with pytest.raises(ArgumentError):
        sample_arrangement(position, random.Random(1), mines=1 << always_safe)
    with pytest.raises(ArgumentError):
        sample_arrangement(position, random.Random(1), mines=1)  # an opened cell
    with pytest.raises(ArgumentError):
        sample_arrangement(position, random.Random(1), mines=1 << 20, safe=1 << 20)


def test_trusted_flags_stay_mines() -> None:
    position = position_from(["..*", "...", "*.."], [(0, 0)], flags="2,0")
    rng = random.Random(3)
    for _ in range(50):
        drawn = sample_arrangement(position, rng, trust_flags=True)
        assert drawn >> 2 & 1 and drawn.bit_count() == 2


def test_the_chi_square_rejects_unweighted_frontier_sampling() -> None:
    """The test above can fail: a sampler that picks a frontier configuration uniformly (not
    weighted by the ways to fill the cells no number sees) is rejected on the same position."""
    position = CASES[3]
    every = fitting(position)
    width, height = position.width, position.height
    opened = {i for i, code in enumerate(position.cells) if code >= 0}
    frontier = 0
    for i in opened:
        for n in around(width, height, i):
            if n not in opened:
                frontier |= 1 << n
    by_frontier: dict[int, list[int]] = {}
    for a in every:
        by_frontier.setdefault(a & frontier, []).append(a)
    assert len({len(v) for v in by_frontier.values()}) > 1, "a case where the weights differ"
    rng = random.Random(7)
    keys = sorted(by_frontier)
    draws = [rng.choice(by_frontier[rng.choice(keys)]) for _ in range(15 * len(every))]
    assert chi_square_p(draws, every) < 1e-6


@pytest.mark.parametrize("case", [1, 4])
def test_draws_with_a_mine_among_cells_are_uniform(case: int) -> None:
    """A punished chord: a mine on at least one of the cells it opens, every such arrangement
    equally likely."""
    position = CASES[case]
    every = fitting(position)
    undecided = [
        i
        for i, code in enumerate(position.cells)
        if code == COVERED and 0 < sum(a >> i & 1 for a in every) < len(every)
    ]
    cells = sum(1 << i for i in undecided[:3])
    support = [a for a in every if a & cells]
    rng = random.Random(200 + case)
    n = min(15 * len(support), 15_000)
    draws = [sample_with_a_mine_among(position, cells, rng) for _ in range(n)]
    assert chi_square_p(draws, support) > 1e-4


def test_bad_arguments_are_refused_not_answered() -> None:
    """A library user's slips: ``rng=None`` drew no mine at all (the count-only path), and a
    negative bitmask of cells walked its endless bits for ever."""
    position = Position.parse("4x3x2\nHHHH\nH1HH\nHHHH")
    with pytest.raises(TypeError, match=r"random\.Random"):
        sample_arrangement(position, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Position"):
        count_arrangements("3x1x1\nH1H")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="bitmask"):
        sample_with_a_mine_among(Position.parse("3x1x1\nH1H"), -1, random.Random(0))
    with pytest.raises(ArgumentError, match="bitmask"):
        count_arrangements(position, mines=-1)


def test_combining_the_groups_counts_is_charged_to_the_budget() -> None:
    """A scattered position of 100x100 (hundreds of separate groups): once the groups are
    counted (and remembered), combining their counts is most of the work, and was charged to
    no budget: ``work=100_000`` answered as the default does. Both now refuse it."""
    position = scattered(100)
    assert count_arrangements(position) > 0  # the groups' counts remembered
    with pytest.raises(TooComplexError):
        count_arrangements(position, work=100_000)
    with pytest.raises(TooComplexError):
        sample_arrangement(position, random.Random(1), work=100_000)
