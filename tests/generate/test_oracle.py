"""The oracle of guess-free layouts against a naive logician, and against known figures.

The naive logician is a second method, in plain Python: it plays each candidate layout one
safe cell at a time (the lowest first), filtering the list of candidates by each number it
reads, and works out safety as the cells outside the union of the candidates' mines. The
oracle opens every safe cell at once and works on classes of candidates with numpy; the two
must find the same layouts.
"""

from __future__ import annotations

import time
from itertools import combinations
from math import comb

import pytest

from .oracle import clears, guess_free_layouts, mine_frequencies

OFFSETS = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]


def naive_guess_free(
    width: int, height: int, mines: int, start: tuple[int, int], rule: str
) -> set[int]:
    """Return the set of guess-free layouts found by playing every candidate one cell at a
    time against the whole list of candidates."""
    size = width * height

    def around(i: int) -> list[int]:
        x, y = i % width, i // width
        return [
            (y + dy) * width + x + dx
            for dx, dy in OFFSETS
            if 0 <= x + dx < width and 0 <= y + dy < height
        ]

    s = start[1] * width + start[0]
    kept = {s} | (set(around(s)) if rule == "opening" else set())
    outside = [i for i in range(size) if i not in kept]
    candidates = [sum(1 << i for i in chosen) for chosen in combinations(outside, mines)]
    shown = {
        layout: [sum(layout >> n & 1 for n in around(i)) for i in range(size)]
        for layout in candidates
    }
    every = (1 << size) - 1
    found: set[int] = set()
    for layout in candidates:
        opened = 1 << s
        known = [k for k in candidates if shown[k][s] == shown[layout][s]]
        while True:
            union = 0
            for k in known:
                union |= k
            safe = every & ~union & ~opened
            if not safe:
                break
            cell = (safe & -safe).bit_length() - 1
            opened |= 1 << cell
            known = [k for k in known if shown[k][cell] == shown[layout][cell]]
        if opened == every & ~layout:
            found.add(layout)
    return found


def _area(width: int, height: int, start: tuple[int, int]) -> list[tuple[int, int]]:
    """Return the cells of the opening at ``start``."""
    x, y = start
    return [
        (x + dx, y + dy)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if 0 <= x + dx < width and 0 <= y + dy < height
    ]


def _candidates(width: int, height: int, mines: int, start: tuple[int, int], rule: str) -> int:
    """Return the number of candidate layouts."""
    kept = len(_area(width, height, start)) if rule == "opening" else 1
    return comb(width * height - kept, mines)


CASES = [
    (width, height, mines, start, rule)
    for width, height in ((4, 3), (4, 4), (5, 3))
    for mines in (2, 3, 4)
    for start in ((0, 0), (1, 0), (1, 1), (2, 1))
    for rule in ("opening", "safe")
    if _candidates(width, height, mines, start, rule) > 1
]


@pytest.mark.parametrize(("width", "height", "mines", "start", "rule"), CASES)
def test_the_oracle_agrees_with_the_naive_logician(
    width: int, height: int, mines: int, start: tuple[int, int], rule: str
) -> None:
    found = guess_free_layouts(width, height, mines, start, rule)
    assert found == sorted(set(found))
    assert set(found) == naive_guess_free(width, height, mines, start, rule)


def test_the_tiny_cases_are_not_trivial() -> None:
    # The comparison means something: across the cases some candidates are guess-free and
    # some are not, under both rules.
    for rule in ("opening", "safe"):
        cases = [case for case in CASES if case[4] == rule]
        found = sum(len(guess_free_layouts(*case)) for case in cases)
        total = sum(_candidates(*case) for case in cases)
        assert 0 < found < total


def test_5x5_with_5_mines_opening_at_the_centre_has_2836_guess_free_layouts() -> None:
    found = guess_free_layouts(5, 5, 5, (2, 2))
    assert len(found) == 2836  # of C(16, 5) = 4,368 candidates
    centre = {(2 + dx) + 5 * (2 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    assert all(layout.bit_count() == 5 for layout in found)
    assert not any(layout >> i & 1 for layout in found for i in centre)


def test_6x5_with_7_mines_is_enumerated_in_a_few_seconds() -> None:
    begun = time.process_time()
    found = guess_free_layouts(6, 5, 7, (2, 2))
    assert len(found) == 62358  # of C(21, 7) = 116,280 candidates
    assert time.process_time() - begun < 10


def test_clears_and_the_marginals() -> None:
    found = guess_free_layouts(5, 5, 5, (2, 2))
    assert clears(5, 5, 5, (2, 2), "opening", found[0])
    assert not clears(5, 5, 5, (2, 2), "opening", found[0] | 1 << 12)  # a mine at the start
    assert not clears(5, 5, 4, (2, 2), "opening", found[0])  # another mine total
    not_free = min(
        sum(1 << i for i in chosen)
        for chosen in combinations([0, 1, 2, 3, 4, 5, 9, 10, 14, 15, 19, 20, 21, 22, 23, 24], 5)
        if sum(1 << i for i in chosen) not in set(found)
    )
    assert not clears(5, 5, 5, (2, 2), "opening", not_free)
    marginals = mine_frequencies(found, 25)
    assert sum(marginals) == pytest.approx(5)
    assert all(marginals[i] == 0 for i in (6, 7, 8, 11, 12, 13, 16, 17, 18))
    # The symmetries of the square (opening at the centre) hold the marginals.
    corners = [marginals[i] for i in (0, 4, 20, 24)]
    assert max(corners) - min(corners) < 1e-12
