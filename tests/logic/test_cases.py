"""Proofs by cases (``case_proof``) checked by exhaustive search: every refuted case has no
arrangement, the cases cover every assignment of the cells split on, and each step inside a
case follows from one clue, or is a count of one or two numbers inside another (or inside the
mine total) whose figures and conclusion the test works out again."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.analysis.constraints import Clue
from mineproof.logic.cases import MINE_TOTAL, Branch, Event, _count, case_proof
from mineproof.logic.premises import Work

from .oracle import OClue, arrangement, bits, components, forced, union, view_of
from .positions import random_position
from .verify import check_count


def check_branch(premises: dict[int, OClue], branch: Branch, safe: int, mine: int) -> None:
    """Each step of the branch follows by one clue from what is known; it ends in a clue that
    cannot hold, or splits into two refuted branches."""
    bit = 1 << branch.cell
    assert not (safe | mine) & bit
    if branch.mine:
        mine |= bit
    else:
        safe |= bit
    for n, event in enumerate(branch.chain):
        if event.parts:
            safe, mine = check_count(lambda c: premises[c][1:], event, safe, mine)
            if event.conflict:
                assert n == len(branch.chain) - 1 and branch.split is None
                return
            continue
        _, mask, count = premises[event.premise]
        placed = (mask & mine).bit_count()
        free = mask & ~mine & ~safe
        if event.conflict:
            assert n == len(branch.chain) - 1 and branch.split is None
            if event.conflict == "too-many":
                assert placed > count
            else:
                assert count - placed > free.bit_count()
            return
        assert (event.safe | event.mine) and (event.safe | event.mine) & ~free == 0
        if event.safe:
            assert not event.mine and placed == count
            safe |= event.safe
        else:
            assert count - placed == free.bit_count()
            mine |= event.mine
    assert branch.split is not None
    a, b = branch.split
    assert a.cell == b.cell and a.mine != b.mine
    check_branch(premises, a, safe, mine)
    check_branch(premises, b, safe, mine)


def check_given(premises: dict[int, OClue], events: tuple[Event, ...]) -> tuple[int, int]:
    """Check that each step told before the cases follows by one clue from nothing but the
    steps before it; return the cells they settle, ``(safe, mine)``."""
    safe = mine = 0
    for event in events:
        assert not event.parts, "a count told before the cases"
        _, mask, count = premises[event.premise]
        placed = (mask & mine).bit_count()
        free = mask & ~mine & ~safe
        assert not event.conflict and (event.safe | event.mine) & ~free == 0
        if event.safe:
            assert not event.mine and placed == count
            safe |= event.safe
        else:
            assert event.mine and count - placed == free.bit_count()
            mine |= event.mine
    return safe, mine


def test_what_holds_whatever_the_case_is_told_once_before_the_cases() -> None:
    # Cells 0-3. The 1 of cell 10 sees only cell 0: a mine whatever the case. Suppose cell 3 is
    # a mine: the 1 of cell 12 makes 1 and 2 safe, and the 2 of cell 11 has no room left.
    premises = [Clue(10, 0b0001, 1), Clue(11, 0b0111, 2), Clue(12, 0b1110, 1)]
    proof = case_proof(premises, 3, False)
    assert proof is not None and proof.given == (Event(10, mine=0b0001),)
    assert proof.given_cells == (0, 0b0001)
    # No case tells it again.
    assert [e.premise for e in proof.refuted.chain] == [12, 11]
    assert proof.refuted.chain[-1].conflict == "too-few"
    # A target the clues settle by themselves is refuted from nothing known, as before.
    alone = case_proof(premises, 0, True)
    assert alone is not None and alone.given == ()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_case_proofs_of_forced_cells(seed: int, with_total: bool) -> None:
    view = view_of(random_position(seed))
    groups = [list(g) for g in components(view.clues)]
    if with_total and view.unknown:
        groups = [[*view.clues, (MINE_TOTAL, view.unknown, view.left)]]
    for premises in groups:
        clues = [c for c in premises if c[0] != MINE_TOTAL]
        total = view.total() if with_total else None
        safe, mine = forced(clues, union(premises), total)
        for c in bits(safe | mine):
            is_mine = bool(mine >> c & 1)
            proof = case_proof([Clue(*p) for p in premises], c, is_mine)
            if proof is None:  # beyond its depth or work: allowed, the text says so
                continue
            assert proof.target == c and proof.mine == is_mine
            by_cell = {p[0]: p for p in premises}
            known_safe, known_mine = check_given(by_cell, proof.given)
            assert not (known_safe | known_mine) >> c & 1
            check_branch(by_cell, proof.refuted, known_safe, known_mine)
            cases = proof.cases()
            assert cases[-1] == ((0, 1 << c, "agrees") if is_mine else (1 << c, 0, "agrees"))
            split = 0
            for s, m, outcome in cases[:-1]:
                assert outcome == "contradiction"
                assert arrangement(clues, mine=m, safe=s, total=total) is None
                split |= s | m
            cells = list(bits(split | 1 << c))
            for n in range(1 << len(cells)):
                m_all = sum(1 << cell for k, cell in enumerate(cells) if n >> k & 1)
                s_all = (split | 1 << c) & ~m_all
                hits = [1 for s, m, _ in cases if s & ~s_all == 0 and m & ~m_all == 0]
                assert len(hits) == 1


def test_a_number_in_a_case_settles_all_its_cells_not_only_those_used_later() -> None:
    # Suppose cell 4 is safe: the 2 of cell 20 needs cells 0 and 1; the 1 of cell 21 then has
    # its mine, so 2 and 3 are safe, and the 1 of cell 22 has no room. Only cell 0 is used
    # after, but "needs cell 0 to be a mine" of a 2 with two cells left puzzled a reader.
    premises = [Clue(20, 0b10011, 2), Clue(21, 0b01101, 1), Clue(22, 0b01100, 1)]
    proof = case_proof(premises, 4, True)
    assert proof is not None and proof.given == ()
    assert proof.refuted.chain == (
        Event(20, mine=0b00011),
        Event(21, safe=0b01100),
        Event(22, conflict="too-few"),
    )


@pytest.mark.parametrize(
    ("clues", "event"),
    [
        # A 1 on cells 0-1 inside a 1 on cells 0-3: the 1 needs no more, 2 and 3 are safe.
        ([(10, 0b1111, 1), (11, 0b0011, 1)], Event(10, safe=0b1100, parts=(11,), needed=1, left=1)),
        # The same inside a 3: it needs 2 more, on its 2 other cells.
        ([(10, 0b1111, 3), (11, 0b0011, 1)], Event(10, mine=0b1100, parts=(11,), needed=1, left=3)),
        # A 2 on cells 0-2 inside a 1 on cells 0-3: too many.
        (
            [(10, 0b1111, 1), (11, 0b0111, 2)],
            Event(10, parts=(11,), needed=2, left=1, conflict="too-many"),
        ),
        # A 1 on cells 0-2 inside a 4 on cells 0-4: 3 more on its 2 other cells, no room.
        (
            [(10, 0b11111, 4), (11, 0b00111, 1)],
            Event(10, parts=(11,), needed=1, left=4, conflict="too-few"),
        ),
        # Two 1s on cells 0-1 and 2-3 inside a 2 on cells 0-5: 4 and 5 are safe.
        (
            [(10, 0b111111, 2), (11, 0b000011, 1), (12, 0b001100, 1)],
            Event(10, safe=0b110000, parts=(11, 12), needed=2, left=2),
        ),
        # Two 2s on cells 0-2 and 3-5, and 3 mines left on cells 0-6: too many for the total.
        (
            [(MINE_TOTAL, 0b1111111, 3), (11, 0b000111, 2), (12, 0b111000, 2)],
            Event(MINE_TOTAL, parts=(11, 12), needed=4, left=3, conflict="too-many"),
        ),
        # One of them and 2 mines left: every mine left, so cells 3-6 are safe.
        (
            [(MINE_TOTAL, 0b1111111, 2), (11, 0b000111, 2)],
            Event(MINE_TOTAL, safe=0b1111000, parts=(11,), needed=2, left=2),
        ),
    ],
)  # fmt: skip
def test_a_count_of_one_or_two_numbers_inside_another(
    clues: list[tuple[int, int, int]], event: Event
) -> None:
    """Worked out by hand: what the parts still need, counted towards the container's need."""
    found = _count([Clue(*c) for c in clues], 0, 0, Work(1000))
    assert found == (event, 0)


def test_a_count_within_a_case_relies_on_what_its_numbers_see() -> None:
    # Cell 4 known a mine: the 2 on cells 0-4 still needs 1, as much as the 1 on cells 0-1.
    clues = [Clue(10, 0b11111, 2), Clue(11, 0b00011, 1)]
    found = _count(clues, 0, 0b10000, Work(1000))
    assert found == (Event(10, safe=0b01100, parts=(11,), needed=1, left=1), 0b10000)


def test_a_count_is_charged_to_the_budget() -> None:
    clues = [Clue(10, 0b111111, 2), Clue(11, 0b000011, 1), Clue(12, 0b001100, 1)]
    assert _count(clues, 0, 0, Work(2)) is None


def test_a_count_charges_every_number_it_checks_a_container_against() -> None:
    """Each container was one unit however many numbers it was checked against, so a case
    proof over 799 numbers ran 5.4 s where its work budget stands for about 0.1 s."""
    clues = [Clue(1000 + i, 0b11 << 2 * i, 1) for i in range(40)]
    clues += [Clue(2000 + i, 0b1111 << 2 * i, 2) for i in range(39)]
    short = Work(len(clues))
    assert _count(clues, 0, 0, short) is None and short.spent
    # Each 2 holds two 1s exactly, so nothing is settled: every container was checked against
    # every number.
    ample = Work(10**6)
    assert _count(clues, 0, 0, ample) is None and not ample.spent
    assert 10**6 - ample.left >= 2 * len(clues) ** 2
