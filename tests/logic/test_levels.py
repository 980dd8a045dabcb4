"""What each level forces (``forced_up_to``), against the oracles: single clues and pairs by
search, level 3 by SciPy's relaxation, levels 4 and 5 by exhaustive search."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.analysis import CountTooLarge, counting_budget
from mineproof.analysis.constraints import Clue, Contradiction, constraints_of
from mineproof.errors import ArgumentError
from mineproof.logic import LEVELS, closures, forced_up_to
from mineproof.logic.levels import two_clue_closure
from mineproof.position import Position

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


def reduced(view: View, safe: int, mine: int) -> View:
    """Return ``view`` with the cells of ``safe`` and ``mine`` known."""
    known = safe | mine
    return replace(
        view,
        clues=tuple(
            (c, m & ~known, n - (m & mine).bit_count()) for c, m, n in view.clues if m & ~known
        ),
        unknown=view.unknown & ~known,
        left=view.left - mine.bit_count(),
    )


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_two_clue_closure_is_what_rounds_of_the_oracles_reach(seed: int) -> None:
    view = view_of(random_position(seed))
    safe = mine = 0
    while True:
        s, m = expected(2, reduced(view, safe, mine))
        if not (s & ~safe or m & ~mine):
            break
        safe, mine = safe | s, mine | m
    clues = [Clue(*c) for c in view.clues]
    assert two_clue_closure(clues, view.unknown, view.left) == (safe, mine)


def test_a_chain_of_pairs_is_closed_link_by_link() -> None:
    # Link k: a 1 over x_k, y_k and the cell c_(k-1) of the link before, a 1 over x_k, y_k and
    # c_k. Neither number decides anything alone, nor the pair until c_(k-1) is known safe:
    # each c_k needs the link before it, from the first (whose first number sees x_0, y_0).
    links = 3000
    clues = []
    for k in range(links):
        c, x, y = 3 * k, 3 * k + 1, 3 * k + 2
        before = 1 << (c - 3) if k else 0
        pair = 1 << x | 1 << y
        clues += [Clue(2 * k, pair | before, 1), Clue(2 * k + 1, pair | 1 << c, 1)]
    chain = sum(1 << 3 * k for k in range(links))
    unknown = (1 << 3 * links) - 1
    found = {level: (s, m) for level, s, m in closures(clues, unknown, links)}
    assert found[1] == (0, 0)
    assert found[2] == (chain, 0)
    # Reversed, the clues come last to first: the same closure.
    assert two_clue_closure(clues[::-1], unknown, links) == (chain, 0)


def test_a_pair_can_start_a_chain_of_single_clues() -> None:
    # Cells 0..n-1 in a row, one mine in each two neighbours; a 1 over d, e and a 1 over d, e,
    # cell 0 prove cell 0 safe, and then the row alternates.
    n = 3000
    d, e = n, n + 1
    clues = [Clue(-1, 1 << d | 1 << e, 1), Clue(-2, 1 << d | 1 << e | 1, 1)]
    clues += [Clue(k, 3 << k, 1) for k in range(n - 1)]
    odd = sum(1 << k for k in range(1, n, 2))
    even = sum(1 << k for k in range(0, n, 2))
    unknown = (1 << (n + 2)) - 1
    assert two_clue_closure(clues, unknown, len(range(1, n, 2)) + 1) == (even, odd)


def test_closures_stop_at_the_counting_budget_on_a_combination_of_many_numbers() -> None:
    # A snake of 1,481 linked numbers that only a case analysis at its end decides: level 3's
    # relaxation of them all took four minutes; it is charged to the budget and stops there.
    text = (Path(__file__).resolve().parents[1] / "data" / "case-snake-81.txt").read_text()
    cons = constraints_of(Position.parse(text), trust_flags=True)
    levels = []
    with counting_budget(2_000_000), pytest.raises(CountTooLarge, match="1,481 numbers"):
        for level, safe, mine in closures(cons.clues, cons.unknown, cons.mines):
            levels.append((level, safe, mine))
    assert levels == [(1, 0, 0), (2, 0, 0)]


def test_the_two_clue_closure_names_a_number_that_cannot_hold() -> None:
    # Both cells are mines by the 2; then the 1 over them is short of room.
    with pytest.raises(Contradiction) as caught:
        two_clue_closure([Clue(5, 0b11, 2), Clue(6, 0b111, 1)], 0b111, 2)
    assert caught.value.cells in ((5,), (6,))


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


@pytest.mark.parametrize("level", [0, -1, 6, 2.5, True])
def test_a_level_outside_1_to_5_is_refused(level: object) -> None:
    """Levels 0, -1 and 2.5 answered as level 4 (the grade's 0 means no technique at all)."""
    cons = constraints_of(Position.parse("4x3x3\n01HH\n13HH\nHHHH"), False)
    with pytest.raises(ArgumentError, match="level"):
        forced_up_to(level, cons.clues, cons.unknown, cons.mines)  # type: ignore[arg-type]
