"""The exact analysis against a brute force written from scratch.

The oracle enumerates every set of covered cells holding exactly the mine total, keeps those
where every opened number sees its number of mines, and counts arrangements and per-cell mines.
It shares no code with ``mineproof.analysis`` (not even the board's neighbour masks), so a bug
in the propagation, the components, the boxes, the dynamic programming or the binomial weights
shows as a difference in an exact integer.

Positions come from random layouts on 4x4 to 9x9 boards revealed the way a player would (flood
fill of zeros from a few clicks, more clicks until at most 16 cells stay covered), and from a
list of hand-made edge cases. Inconsistent positions are checked both ways (no arrangement <=>
``InconsistentPositionError``) and the named conflict is checked to be genuine and minimal.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.analysis import Analysis, analyze, arrangements_free
from mineproof.analysis.constraints import Contradiction, constraints_of
from mineproof.analysis.core import count_total
from mineproof.board import Board
from mineproof.errors import InconsistentPositionError
from mineproof.position import COVERED, FLAG, Position

MAX_COVERED = 16

# --------------------------------------------------------------------------------------------
# The oracle


def around(width: int, height: int, i: int) -> list[int]:
    """Return the indices of the cells next to cell ``i`` (computed here, not by mineproof)."""
    x, y = i % width, i // width
    return [
        ny * width + nx
        for ny in (y - 1, y, y + 1)
        for nx in (x - 1, x, x + 1)
        if (nx, ny) != (x, y) and 0 <= nx < width and 0 <= ny < height
    ]


@dataclass(frozen=True)
class Problem:
    """The unknown cells of a position, the fixed mines, and the numbers as constraints."""

    unknown: list[int]
    fixed: list[int]
    checks: list[tuple[int, int, int]]  # (cell, mask over positions in `unknown`, count left)
    total: int  # mines among the unknown cells (may be negative: impossible)


def problem(position: Position, trust_flags: bool, clue_cells: Iterable[int] | None) -> Problem:
    """Return the brute-force problem of ``position``, with only ``clue_cells`` as numbers."""
    w, h, cells = position.width, position.height, position.cells
    fixed = [i for i, c in enumerate(cells) if c == FLAG] if trust_flags else []
    unknown = [i for i, c in enumerate(cells) if c == COVERED or (c == FLAG and not trust_flags)]
    bit = {cell: 1 << k for k, cell in enumerate(unknown)}
    if clue_cells is None:
        clue_cells = [i for i, c in enumerate(cells) if c >= 0]
    checks = []
    for i in clue_cells:
        assert cells[i] >= 0, "a clue must be an opened number"
        near = around(w, h, i)
        mask = sum(bit.get(j, 0) for j in near)
        checks.append((i, mask, cells[i] - sum(1 for j in near if j in fixed)))
    return Problem(unknown, fixed, checks, position.mines - len(fixed))


def brute_force(position: Position, trust_flags: bool = False) -> tuple[int, list[int]]:
    """Return (arrangements, mine count per cell, -1 for opened cells) by enumeration."""
    p = problem(position, trust_flags, None)
    n = len(p.unknown)
    assert n <= MAX_COVERED, "the brute force is for small positions"
    arrangements = 0
    per_bit = [0] * n
    if 0 <= p.total <= n:
        for chosen in combinations(range(n), p.total):
            mask = sum(1 << k for k in chosen)
            if all((mask & m).bit_count() == c for _, m, c in p.checks):
                arrangements += 1
                for k in chosen:
                    per_bit[k] += 1
    counts = [-1] * len(position.cells)
    for k, i in enumerate(p.unknown):
        counts[i] = per_bit[k]
    for i in p.fixed:
        counts[i] = arrangements
    return arrangements, counts


def satisfiable(
    position: Position, trust_flags: bool, clue_cells: Iterable[int], use_total: bool
) -> bool:
    """Return whether some arrangement fits the given numbers (and the mine total if asked).

    Only the unknown cells next to the given numbers are enumerated; the others are free, so
    the total can be met when it lies between the mines placed and those plus the free cells.
    """
    p = problem(position, trust_flags, clue_cells)
    if use_total and p.total < 0:
        return False
    seen = 0
    for _, m, _ in p.checks:
        seen |= m
    touched = [k for k in range(len(p.unknown)) if seen >> k & 1]
    free = len(p.unknown) - len(touched)
    for r in range(len(touched) + 1):
        if use_total and not r <= p.total <= r + free:
            continue
        for chosen in combinations(touched, r):
            mask = sum(1 << k for k in chosen)
            if all((mask & m).bit_count() == c for _, m, c in p.checks):
                return True
    return False


def check_against_oracle(position: Position, trust_flags: bool) -> int:
    """Assert that analyze() agrees exactly with the brute force; return the arrangements."""
    arrangements, counts = brute_force(position, trust_flags)
    if arrangements == 0:
        with pytest.raises(InconsistentPositionError) as info:
            analyze(position, trust_flags)
        check_conflict(position, trust_flags, info.value)
        return 0
    result = analyze(position, trust_flags)
    assert result.arrangements == arrangements
    assert list(result.mine_counts) == counts
    w = position.width
    rows = result.probabilities()
    for i, n in enumerate(counts):
        x, y = i % w, i // w
        expected = None if n < 0 else Fraction(n, arrangements)
        assert result.probability(x, y) == expected
        assert rows[y][x] == expected
    unknown = [
        i for i, c in enumerate(position.cells) if c == COVERED or (c == FLAG and not trust_flags)
    ]
    safe = {(i % w, i // w) for i in unknown if counts[i] == 0}
    mine = {(i % w, i // w) for i in unknown if counts[i] == arrangements}
    assert set(result.safe_cells) == safe
    assert set(result.mine_cells) == mine
    flags = [(i % w, i // w) for i, c in enumerate(position.cells) if c == FLAG]
    assert set(result.flag_status()) == set(flags)
    for xy, status in result.flag_status().items():
        if trust_flags:
            assert status == "trusted"
        else:
            assert status == ("proven" if xy in mine else "wrong" if xy in safe else "unproven")
    return arrangements


def check_conflict(position: Position, trust_flags: bool, err: InconsistentPositionError) -> None:
    """Assert that the conflict ``err`` names is genuine and minimal (by brute force)."""
    named = [position.board.index(x, y) for x, y in err.clues]
    assert len(set(named)) == len(named), err.clues
    for i in named:
        assert position.cells[i] >= 0, f"{err.clues} names a cell that is not a number"
    total = err.uses_mine_total
    assert not satisfiable(position, trust_flags, named, total), (
        f"named conflict {err.clues} (total: {total}) has an arrangement"
    )
    for i in named:
        rest = [j for j in named if j != i]
        assert satisfiable(position, trust_flags, rest, total), (
            f"{err.clues} is not minimal: {position.board.xy(i)} is not needed"
        )
    if total:
        assert satisfiable(position, trust_flags, named, False), (
            f"{err.clues} conflict without the mine total, yet the error says it uses it"
        )
    assert str(err)


# --------------------------------------------------------------------------------------------
# The oracle checked on its own, by hand


def test_oracle_by_hand() -> None:
    assert brute_force(Position.parse("3x1x1\n1HH")) == (1, [-1, 1, 0])
    assert brute_force(Position.parse("2x2x2\nHH\nHH")) == (6, [3, 3, 3, 3])
    assert brute_force(Position.parse("3x1x1\nH1H")) == (2, [1, -1, 1])
    assert brute_force(Position.parse("3x1x2\nH1H")) == (0, [0, -1, 0])
    assert brute_force(Position.parse("3x1x1\nF1H"), trust_flags=True) == (1, [1, -1, 0])
    ring = Position.parse("3x3x1\nHHH\nH1H\nHHH")
    assert brute_force(ring) == (8, [1, 1, 1, 1, -1, 1, 1, 1, 1])
    assert satisfiable(ring, False, [4], True)
    assert not satisfiable(Position.parse("3x1x1\nH2H"), False, [1], True)
    assert satisfiable(Position.parse("3x1x1\nH2H"), False, [1], False)


# --------------------------------------------------------------------------------------------
# Positions from real boards


def flood(width: int, height: int, numbers: list[int], opened: set[int], start: int) -> None:
    """Open ``start`` (a safe cell) and, through zeros, everything a player's click opens."""
    todo = [start]
    while todo:
        i = todo.pop()
        if i in opened:
            continue
        opened.add(i)
        if numbers[i] == 0:
            todo.extend(j for j in around(width, height, i) if j not in opened)


def real_position(seed: int) -> tuple[Position, set[int]]:
    """Return a position met in a random game (and its mines), at most 16 cells covered.

    The board is 4..9 cells a side with 10-30% mines (at most 14, so that 16 covered cells can
    hold them); a few random clicks on safe cells open it with the flood fill of zeros, more
    clicks follow until at most 16 cells are covered; some mines (and rarely a safe cell) are
    flagged.
    """
    rng = random.Random(seed)
    width, height = rng.randint(4, 9), rng.randint(4, 9)
    size = width * height
    count = min(14, max(1, round(rng.uniform(0.1, 0.3) * size)))
    mines = set(rng.sample(range(size), count))
    numbers = [sum(j in mines for j in around(width, height, i)) for i in range(size)]
    safe = [i for i in range(size) if i not in mines]
    opened: set[int] = set()
    for start in rng.sample(safe, rng.randint(1, 3)):
        flood(width, height, numbers, opened, start)
    while size - len(opened) > MAX_COVERED:
        flood(width, height, numbers, opened, rng.choice([i for i in safe if i not in opened]))
    flags: set[int] = {i for i in mines if rng.random() < 0.3}
    closed = [i for i in safe if i not in opened]
    if closed and rng.random() < 0.1:
        flags.add(rng.choice(closed))
    cells = tuple(
        numbers[i] if i in opened else FLAG if i in flags else COVERED for i in range(size)
    )
    return Position(Board(width, height), cells, count), mines


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32))
def test_real_positions_match_oracle(seed: int) -> None:
    position, mines = real_position(seed)
    for trust_flags in (False, True):
        wrong_flag = any(c == FLAG and i not in mines for i, c in enumerate(position.cells))
        arrangements = check_against_oracle(position, trust_flags)
        # The hidden layout is one of the arrangements (unless a wrong flag is trusted).
        if not (trust_flags and wrong_flag):
            assert arrangements >= 1


@settings(max_examples=250, deadline=None)
@given(st.integers(0, 2**32), st.integers(-3, 3), st.booleans())
def test_tampered_positions_match_oracle(seed: int, shift: int, edit_number: bool) -> None:
    """Positions with a wrong mine total or a wrong number: often inconsistent."""
    position, _ = real_position(seed)
    rng = random.Random(seed ^ 0x5A5A)
    cells = list(position.cells)
    if edit_number:
        numbers = [i for i, c in enumerate(cells) if c >= 0]
        i = rng.choice(numbers)
        cells[i] = rng.randint(0, len(around(position.width, position.height, i)))
    covered = sum(1 for c in cells if c < 0)
    mines = min(covered, max(0, position.mines + shift))
    tampered = Position(position.board, tuple(cells), mines)
    for trust_flags in (False, True):
        check_against_oracle(tampered, trust_flags)


# --------------------------------------------------------------------------------------------
# Hand-made edge cases

EDGE_CASES = {
    # no clues at all: C(n, M) arrangements, every cell M/n
    "no clues": "4x4x5\nHHHH\nHHHH\nHHHH\nHHHH",
    "no clues, one cell": "1x1x1\nH",
    "no clues, no mine": "1x1x0\nH",
    # everything opened
    "all opened": "3x3x0\n000\n000\n000",
    "all opened, one cell": "1x1x0\n0",
    # mine total 0: every covered cell safe, even where no number sees it
    "total 0": "4x3x0\n0000\n0000\n00HH",
    "total 0, no clues": "2x2x0\nHH\nHH",
    "total 0, two 50/50s": "5x2x0\nH000H\nH000H",
    # mine total = covered cells: every covered cell a mine
    "total = covered": "4x4x4\n1221\n2HH2\n2HH2\n1221",
    "total = covered, no clues": "3x2x6\nHHH\nHHH",
    "total = covered, isolated": "4x4x2\nH100\n1100\n0011\n001H",
    # the numbers allow 1 or 2 mines: only the mine total decides which
    "total decides, 1": "5x1x1\nH1H1H",
    "total decides, 2": "5x1x2\nH1H1H",
    "total decides, with outside, 1": "6x1x1\nH1H1HH",
    "total decides, with outside, 2": "6x1x2\nH1H1HH",
    "total decides, with outside, 3": "6x1x3\nH1H1HH",
    # two separate 50/50s: the total decides the cells no number sees
    "two 50/50s": "5x2x2\nH101H\nH101H",
    "two 50/50s, outside safe": "7x2x2\nH101HHH\nH101HHH",
    "two 50/50s, outside 1 in 4": "7x2x3\nH101HHH\nH101HHH",
    "two 50/50s, outside mines": "7x2x6\nH101HHH\nH101HHH",
    # components whose mine counts vary, weighted by the cells no number sees
    "two numbers sharing cells": "4x4x3\nHHHH\nH2HH\nHHH1\nHHHH",
    "two numbers sharing cells, more": "4x4x5\nHHHH\nH2HH\nHHH1\nHHHH",
    "four corners": "4x4x4\nH11H\n1111\n1111\nH11H",
    "one number, many cells": "3x3x4\nHHH\nH4H\nHHH",
    "one number, total apart": "4x3x5\nHHHH\nH4HH\nHHHH",
    "chain": "8x3x3\nHHHHHHHH\n11211111\n00000000",
    # flags: on a mine and on a safe cell, with trust_flags False and True
    "flag on a mine": "3x2x1\nF10\n110",
    "flag on a safe cell": "4x1x1\nF01H",
    "flag on a safe cell no number sees": "4x1x1\nFH1H",
    "flag, 50/50": "3x1x1\nF1H",
    "two flags, one right": "4x1x1\nFF1H",
    "flags everywhere": "3x3x3\nFFF\nF3F\nFFF",
    "flag alone": "2x1x1\nF1",
    "flags, no clue": "3x3x2\nFHH\nHHH\nHHF",
}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_edge_cases_match_oracle(name: str) -> None:
    position = Position.parse(EDGE_CASES[name])
    for trust_flags in (False, True):
        check_against_oracle(position, trust_flags)


def analysis_of(name: str, trust_flags: bool = False) -> Analysis:
    return analyze(Position.parse(EDGE_CASES[name]), trust_flags)


def test_edge_case_values() -> None:
    """A few of the edge cases, with the values worked out by hand."""
    result = analysis_of("no clues")
    assert result.arrangements == 4368  # C(16, 5)
    assert result.probability(0, 0) == Fraction(5, 16)
    result = analysis_of("all opened")
    assert (result.arrangements, result.safe_cells, result.mine_cells) == (1, [], [])
    assert analysis_of("total 0").safe_cells == [(2, 2), (3, 2)]
    assert analysis_of("total = covered").mine_cells == [(1, 1), (2, 1), (1, 2), (2, 2)]
    assert analysis_of("total decides, 1").mine_cells == [(2, 0)]
    assert analysis_of("total decides, 2").mine_cells == [(0, 0), (4, 0)]
    result = analysis_of("total decides, with outside, 2")
    assert result.arrangements == 2  # (2,0)+(5,0) or (0,0)+(4,0)
    assert result.probability(5, 0) == Fraction(1, 2)
    result = analysis_of("two 50/50s, outside safe")
    assert result.arrangements == 4
    assert result.safe_cells == [(5, 0), (6, 0), (5, 1), (6, 1)]
    assert analysis_of("two 50/50s, outside 1 in 4").probability(6, 1) == Fraction(1, 4)
    assert analysis_of("two 50/50s, outside mines").mine_cells == [(5, 0), (6, 0), (5, 1), (6, 1)]
    assert analysis_of("flag on a mine").flag_status() == {(0, 0): "proven"}
    assert analysis_of("flag on a mine", True).flag_status() == {(0, 0): "trusted"}
    assert analysis_of("flag on a safe cell").flag_status() == {(0, 0): "wrong"}
    assert analysis_of("flag, 50/50").flag_status() == {(0, 0): "unproven"}
    assert analysis_of("flag, 50/50", True).safe_cells == [(2, 0)]


# --------------------------------------------------------------------------------------------
# Inconsistent positions

INCONSISTENT = [
    "3x1x1\nH2H",  # the number needs two mines, the total has one
    "3x1x0\n1HH",  # the total cannot give the number its mine
    "3x1x1\n1H0",  # two numbers disagree about one cell
    "3x3x0\n100\n000\n000",  # a number with no covered neighbour
    "3x2x2\nHHH\n131",  # the 3 needs three mines: too many for the 1s and the total
    "5x1x1\n1HHH1",  # two numbers apart need two mines, the total has one
    "3x1x1\nF0H",  # a flag beside a zero: a conflict when trusted, the total when not
    "2x1x1\nF0",  # a zero whose only neighbour is a flag
    "3x3x1\nFHF\nH2H\nHHH",  # two trusted flags and a total of one
    "3x1x1\nFF1",  # two trusted flags and a total of one, no number involved
    "4x1x1\nFH1H",  # a trusted wrong flag takes the only mine the 1 needs
    "4x1x1\nF01H",  # a trusted flag beside a zero
]


@pytest.mark.parametrize("text", INCONSISTENT)
def test_inconsistent_positions(text: str) -> None:
    position = Position.parse(text)
    found = [brute_force(position, trust)[0] for trust in (False, True)]
    assert 0 in found, "the case should be inconsistent at least with trusted flags"
    for trust_flags in (False, True):
        check_against_oracle(position, trust_flags)


RING = "HHHHH\nH121H\nH202H\nH121H\nHHHHH"


@pytest.mark.parametrize("mines", [0, 1, 4, 6, 8, 12, 16])
def test_ring_is_inconsistent_for_every_total(mines: int) -> None:
    position = Position.parse(f"5x5x{mines}\n{RING}")
    assert brute_force(position)[0] == 0
    with pytest.raises(InconsistentPositionError) as info:
        analyze(position)
    check_conflict(position, False, info.value)
    # The ring is impossible whatever the total: the conflict is among the numbers alone.
    numbers = [i for i, c in enumerate(position.cells) if c >= 0]
    assert not satisfiable(position, False, numbers, False)
    assert not info.value.uses_mine_total


# --------------------------------------------------------------------------------------------
# Arrangements that leave some cells free (a chord's odds)


def free_by_brute_force(position: Position, cells: int, trust_flags: bool) -> int:
    """Return the arrangements of the brute force with no mine in the cells of ``cells``."""
    p = problem(position, trust_flags, None)
    if any(cells >> i & 1 for i in p.fixed):
        return 0
    n = len(p.unknown)
    keep_free = sum(1 << k for k, i in enumerate(p.unknown) if cells >> i & 1)
    out = 0
    if 0 <= p.total <= n:
        for chosen in combinations(range(n), p.total):
            mask = sum(1 << k for k in chosen)
            if not mask & keep_free and all((mask & m).bit_count() == c for _, m, c in p.checks):
                out += 1
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_arrangements_free_match_oracle(seed: int) -> None:
    position, _ = real_position(seed)
    rng = random.Random(seed)
    covered = [i for i, c in enumerate(position.cells) if c < 0]
    for trust_flags in (False, True):
        if not brute_force(position, trust_flags)[0]:
            continue
        for _ in range(3):
            cells = sum(1 << i for i in rng.sample(covered, rng.randint(1, min(4, len(covered)))))
            expected = free_by_brute_force(position, cells, trust_flags)
            assert arrangements_free(position, cells, trust_flags) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_count_total_matches_oracle(seed: int) -> None:
    # count_total counts without placing the mines: the brute force's number, or a
    # contradiction when there is none.
    position, _ = real_position(seed)
    for trust_flags in (False, True):
        expected = brute_force(position, trust_flags)[0]
        if expected:
            cons = constraints_of(position, trust_flags)
            assert count_total(cons.unknown, cons.mines, cons.clues) == expected
        else:
            with pytest.raises(Contradiction):
                cons = constraints_of(position, trust_flags)
                count_total(cons.unknown, cons.mines, cons.clues)
