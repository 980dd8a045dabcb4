"""The exact simplex of ``mineproof.logic.linear`` against SciPy's ``linprog``, and its proofs
checked by adding up the clue equations here."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.analysis import CountTooLarge, counting_budget
from mineproof.analysis.constraints import Clue
from mineproof.logic import linear
from mineproof.logic.linear import (
    MINE_TOTAL,
    LinearProof,
    Relaxation,
    RelaxationTooLarge,
    clear_relaxations,
    relaxed,
)

from .oracle import OClue, bits, components, lp_forces, mask_of, union, view_of
from .positions import random_position


def check_linear_proof(premises: list[OClue], proof: LinearProof, safe: int, mine: int) -> None:
    """The combination adds up to the equation, whose total is the most its left side can be,
    and proves ``safe`` and ``mine`` by its signs."""
    by_cell = {c[0]: c for c in premises}
    coefficient: dict[int, Fraction] = {}
    total = Fraction(0)
    for cell, k in proof.combination:
        assert k
        _, mask, count = by_cell[cell]
        total += k * count
        for c in bits(mask):
            coefficient[c] = coefficient.get(c, Fraction(0)) + k
    assert dict(proof.coefficients) == {c: v for c, v in coefficient.items() if v}
    assert proof.total == total == sum(v for v in coefficient.values() if v > 0)
    assert proof.safe == mask_of(c for c, v in coefficient.items() if v < 0)
    assert proof.mine == mask_of(c for c, v in coefficient.items() if v > 0)
    assert safe & ~proof.safe == 0 and mine & ~proof.mine == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_relaxation_forces_what_linprog_forces(seed: int, with_total: bool) -> None:
    view = view_of(random_position(seed))
    groups = [list(g) for g in components(view.clues)]
    if with_total:
        # The mine total joins every clue in one relaxation.
        total: OClue = (MINE_TOTAL, view.unknown, view.left)
        groups = [[*view.clues, total]] if view.unknown else []
    for premises in groups:
        relaxation = Relaxation([Clue(*c) for c in premises])
        cells = union(premises)
        safe, mine = relaxation.forced(cells)
        want_safe = want_mine = 0
        for c in bits(cells):
            value = lp_forces(premises, c)
            if value == 0:
                want_safe |= 1 << c
            elif value == 1:
                want_mine |= 1 << c
        assert (safe, mine) == (want_safe, want_mine)
        if safe | mine:
            proof = relaxation.proof(safe, mine)
            assert proof is not None
            check_linear_proof(premises, proof, safe, mine)
            # The proof with the smallest multipliers, for each forced cell.
            for c in bits(safe | mine):
                simplest = relaxation.simplest(c, bool(mine >> c & 1), safe, mine)
                assert simplest is not None
                check_linear_proof(premises, simplest, 0, 0)
                assert (simplest.mine if mine >> c & 1 else simplest.safe) >> c & 1
                assert (simplest.safe | simplest.mine) & ~(safe | mine) == 0


def test_a_relaxation_spends_the_counting_budget_and_stops_past_it() -> None:
    # A ring of 120 cells, one mine in each two neighbours, and a 1 over cells 0-2 besides.
    # Every pivot of the simplex is charged to the counting budget in force.
    n = 120
    clues = [Clue(k, 1 << k | 1 << (k + 1) % n, 1) for k in range(n)] + [Clue(n, 0b111, 1)]
    cells = (1 << n) - 1
    with counting_budget(10**12) as budget:
        forced = Relaxation(clues).forced(cells)
    # The 1 over three cells holds one mine where the ring's two ways put one or two: the
    # middle cell is a mine, and the ring alternates from it.
    assert forced == (sum(1 << k for k in range(0, n, 2)), sum(1 << k for k in range(1, n, 2)))
    assert budget.spent > 0
    with counting_budget(budget.spent // 2), pytest.raises(RelaxationTooLarge) as caught:
        Relaxation(clues).forced(cells)
    assert isinstance(caught.value, CountTooLarge)
    assert str(caught.value) == (
        "too complex to combine exactly: the linear relaxation of a group of 121 numbers over "
        f"120 covered cells needs more than {budget.spent // 2:,} steps of work"
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40))
def test_a_remembered_relaxation_answers_as_linprog_wherever_its_group_lies(
    seed: int, shift: int
) -> None:
    """Each group's answer, asked fresh and then for the group moved ``shift`` cells on (the
    same structure elsewhere: remembered), is what the LP oracle says there, with the same
    pivots."""
    view = view_of(random_position(seed))
    for group in components(view.clues):
        premises = [Clue(*c) for c in group]
        cells = union(group)
        moved = [Clue(c.cell + shift, c.mask << shift, c.mines) for c in premises]
        clear_relaxations()
        first = relaxed(premises, cells)
        again = relaxed(moved, cells << shift)
        want_safe = want_mine = 0
        for c in bits(cells):
            value = lp_forces(list(group), c)
            if value == 0:
                want_safe |= 1 << c
            elif value == 1:
                want_mine |= 1 << c
        fresh = Relaxation(premises)
        fresh.forced(cells)
        assert first == (want_safe, want_mine, fresh.pivots)
        assert again == (want_safe << shift, want_mine << shift, first[2])


def test_the_remembered_relaxations_stay_within_their_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Chains of 1s of every length from 2 to 60 cells: each a structure of its own.
    monkeypatch.setattr(linear, "RELAXATIONS_KEPT", 500)
    clear_relaxations()
    for n in range(2, 61):
        clues = [Clue(k, 0b11 << k, 1) for k in range(n - 1)]
        relaxed(clues, (1 << n) - 1)
        assert 0 < linear._kept_held <= 500
    assert len(linear._kept) < 59


def test_each_relaxation_has_a_budget_of_its_own_within_the_blocks_around_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The ring of the test above: its relaxation's cost, measured in a block.
    n = 120
    clues = [Clue(k, 1 << k | 1 << (k + 1) % n, 1) for k in range(n)] + [Clue(n, 0b111, 1)]
    cells = (1 << n) - 1
    with counting_budget(10**12) as budget:
        Relaxation(clues).forced(cells)
    cost = budget.spent
    # Two relaxations of a step (two groups), each within its own limit: both answer, and
    # the block around them is charged for both.
    monkeypatch.setattr(linear, "COUNT_WORK", cost + 1)
    with counting_budget(10**12) as budget:
        Relaxation(clues).forced(cells)
        Relaxation(clues).forced(cells)
    assert budget.spent == 2 * cost
    # One past its own limit stops, and so does one past what the block has left.
    monkeypatch.setattr(linear, "COUNT_WORK", cost - 1)
    with pytest.raises(RelaxationTooLarge):
        Relaxation(clues).forced(cells)
    monkeypatch.setattr(linear, "COUNT_WORK", 10 * cost)
    with counting_budget(cost - 1), pytest.raises(RelaxationTooLarge):
        Relaxation(clues).forced(cells)


def test_the_work_of_a_relaxation_depends_only_on_the_boxes_asked_about() -> None:
    # Two numbers over eight cells; the candidates lie in the same three boxes, in another
    # order of their first cells: the same pivots, asked fresh or remembered (it was 8 and 7).
    premises = [Clue(1, 0b01110001, 1), Clue(2, 0b11101000, 1)]
    for first, second in ((0b1011001, 0b10100001), (0b10100001, 0b1011001)):
        clear_relaxations()
        relaxed(premises, first)
        fresh = Relaxation(premises)
        fresh.forced(second)
        assert relaxed(premises, second)[2] == fresh.pivots
