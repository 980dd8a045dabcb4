"""The oracles of the logic tests, checked on their own: the search against plain enumeration
of every subset, the LP wrapper on positions whose relaxation is known by hand."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.position import Position

from .oracle import (
    OClue,
    arrangement,
    bits,
    enumerate_all,
    forced,
    lowest_level,
    lp_forces,
    lp_range,
    union,
    view_of,
)


def random_clues(rng: random.Random, cells: int) -> list[OClue]:
    """Return clues over ``cells`` cells that some arrangement satisfies (read off one)."""
    truth = rng.getrandbits(cells)
    out = []
    for n in range(rng.randint(1, 6)):
        mask = 0
        for _ in range(rng.randint(1, 6)):
            mask |= 1 << rng.randrange(cells)
        out.append((100 + n, mask, (mask & truth).bit_count()))
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_search_agrees_with_enumeration(seed: int, with_total: bool) -> None:
    rng = random.Random(seed)
    cells = rng.randint(1, 14)
    clues = random_clues(rng, cells)
    # The unknown cells: those the clues see and a few more no clue sees.
    unknown = union(clues) | (rng.getrandbits(4) << cells)
    total = (unknown, rng.randint(0, unknown.bit_count())) if with_total else None
    every = enumerate_all(clues, total)
    found = arrangement(clues, total=total)
    assert (found is None) == (not every)
    if found is not None:
        assert found in every
        always = ~0
        never = ~0
        for m in every:
            always &= m
            never &= ~m
        seen = union(clues)
        safe, mine = forced(clues, seen, total)
        assert mine == always & seen and safe == never & seen
        # Assumptions: a cell fixed either way has an arrangement exactly when one exists.
        for c in bits(seen):
            bit = 1 << c
            assert (arrangement(clues, mine=bit, total=total) is None) == (
                not any(m & bit for m in every)
            )


def test_lp_range_by_hand() -> None:
    # Three 1s around B2 (the level-4 golden position): halves on A1, C1, B3 fit.
    view = view_of(Position.parse("6x5x9\nH1H1HH\n1H1122\n2H102F\nFH213F\nFHF12F"))
    low, high = lp_range(list(view.clues), 0)
    assert low < 1e-9 and high > 0.4
    assert lp_forces(list(view.clues), 0) is None
    # The 3 between two 1s: C3 is 1 in every real solution.
    view = view_of(Position.parse("4x3x3\n01HH\n13HH\nHHHH"))
    assert lp_forces(list(view.clues), 10) == 1
    assert lp_forces(list(view.clues), 3) is None


def test_lowest_level_by_hand() -> None:
    assert lowest_level(view_of(Position.parse("4x3x2\n012H\n01HH\n011H")))[0] == 1
    assert lowest_level(view_of(Position.parse("4x2x2\nHHHH\n1221")))[0] == 2
    assert lowest_level(view_of(Position.parse("4x3x3\n01HH\n13HH\nHHHH")))[0] == 3
    position = Position.parse("6x5x9\nH1H1HH\n1H1122\n2H102F\nFH213F\nFHF12F")
    level, safe, mine = lowest_level(view_of(position))
    assert level == 4 and safe & 1 and mine >> 7 & 1  # A1 safe, B2 a mine
    assert lowest_level(view_of(Position.parse("5x1x1\nH1H1H"))) == (5, 0b10001, 0b100)
    assert lowest_level(view_of(Position.parse("3x1x1\nH1H")))[0] == 0
