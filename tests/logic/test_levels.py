"""What each level forces (``forced_up_to``), against the oracles: single clues and pairs by
search, level 3 by SciPy's relaxation, levels 4 and 5 by exhaustive search."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.analysis.constraints import Clue
from mineproof.logic import LEVELS, closures, forced_up_to

from .oracle import View, bits, forced, lp_forces, pair_forces, single_forces, union, view_of
from .positions import random_position


def expected(level: int, view: View) -> tuple[int, int]:
    """Return ``(safe, mine)`` that the techniques up to ``level`` force, decided here."""
    clues = list(view.clues)
    safe, mine = single_forces(view)
    if level == 2:
        s, m = pair_forces(view)
        return safe | s, mine | m
    if level == 3:
        for c in bits(union(clues)):
            value = lp_forces(clues, c)
            if value == 0:
                safe |= 1 << c
            elif value == 1:
                mine |= 1 << c
    elif level == 4:
        s, m = forced(clues, union(clues))
        safe, mine = safe | s, mine | m
    elif level == 5:
        s, m = forced(clues, view.unknown, view.total())
        safe, mine = safe | s, mine | m
    return safe, mine


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_each_level_forces_what_its_definition_says(seed: int) -> None:
    view = view_of(random_position(seed))
    clues = [Clue(*c) for c in view.clues]
    previous = (0, 0)
    for level in LEVELS:
        got = forced_up_to(level, clues, view.unknown, view.left)
        assert got == expected(level, view), level
        # Each level forces all that the one below it does.
        assert previous[0] & ~got[0] == 0 and previous[1] & ~got[1] == 0
        previous = got


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_closures_apply_each_level_until_nothing_new(seed: int) -> None:
    view = view_of(random_position(seed))
    clues = [Clue(*c) for c in view.clues]
    previous = (0, 0)
    for level, safe, mine in closures(clues, view.unknown, view.left):
        # The sets only grow, hold what one look forces, and are closed: one more look at the
        # clues reduced by what they prove finds nothing new.
        assert previous[0] & ~safe == 0 and previous[1] & ~mine == 0
        once = expected(level, view)
        assert once[0] & ~safe == 0 and once[1] & ~mine == 0
        known = safe | mine
        rest = replace(
            view,
            clues=tuple(
                (c, m & ~known, n - (m & mine).bit_count()) for c, m, n in view.clues if m & ~known
            ),
            unknown=view.unknown & ~known,
            left=view.left - mine.bit_count(),
        )
        assert expected(level, rest) == (0, 0), level
        previous = safe, mine
    # Level 5 is everything a perfect logician knows: the exact search's forced cells.
    assert previous == forced(list(view.clues), view.unknown, view.total())
