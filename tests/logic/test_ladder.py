"""The technique ladder: golden positions per technique, and properties of every deduction."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.analysis.constraints import Clue, constraints_of
from mineproof.board import Board, Layout
from mineproof.logic import Deduction, deductions, grade, logic_steps
from mineproof.position import Position

GOLDEN = [
    # (name, position, rule, premises, safe, mine)
    ("single clue", "4x3x2\n012H\n01HH\n011H", "single-clue", [(1, 0)], [], [(2, 1)]),
    ("1-1 pattern", "4x2x2\nHHHH\n1111", "two-clues", [(0, 1), (1, 1)], [(2, 0)], []),
    ("1-2 pattern", "4x2x2\nHHHH\n1221", "two-clues", [(0, 1), (1, 1)], [], [(2, 0)]),
    ("common area", "4x3x2\n01HH\n01HH\n01HH", "two-clues", [(1, 1), (1, 2)], [(2, 0)], []),
    (
        "elimination",
        "4x3x3\n01HH\n13HH\nHHHH",
        "elimination",
        [(1, 0), (0, 1), (1, 1)],
        [],
        [(2, 2)],
    ),
    (
        "case analysis",
        "5x5x4\n0001H\n1112H\nHH1HH\nH221H\nHHHHH",
        "case-analysis",
        [(3, 0), (0, 1), (2, 1), (3, 1), (1, 3), (2, 3), (3, 3)],
        [(0, 3), (4, 3), (0, 4), (2, 4), (3, 4), (4, 4)],
        [(1, 4)],
    ),
    (
        "mine total",
        "4x3x2\n2HHH\nHHHH\nHHHH",
        "mine-total",
        [(0, 0)],
        [(2, 0), (3, 0), (2, 1), (3, 1), (0, 2), (1, 2), (2, 2), (3, 2)],
        [],
    ),
    (
        "all mines found",
        "4x3x3\n02FH\n03FH\n02FH",
        "all-mines-found",
        [],
        [(3, 0), (3, 1), (3, 2)],
        [],
    ),
    (
        "only mines left",
        "2x2x4\nHH\nHH",
        "only-mines-left",
        [],
        [],
        [(0, 0), (1, 0), (0, 1), (1, 1)],
    ),
]


@pytest.mark.parametrize(
    ("name", "text", "rule", "premises", "safe", "mine"), GOLDEN, ids=[g[0] for g in GOLDEN]
)
def test_golden(
    name: str,
    text: str,
    rule: str,
    premises: list[tuple[int, int]],
    safe: list[tuple[int, int]],
    mine: list[tuple[int, int]],
) -> None:
    found = deductions(Position.parse(text), trust_flags=True)
    assert {d.rule for d in found} == {rule}, name
    matching = [d for d in found if d.premise_cells == premises]
    assert len(matching) == 1, [d.premise_cells for d in found]
    d = matching[0]
    assert d.safe_cells == safe and d.mine_cells == mine
    assert d.uses_mine_count == (rule in {"mine-total", "all-mines-found", "only-mines-left"})


def test_elimination_combination_is_the_row_used() -> None:
    first = deductions(Position.parse("4x3x3\n01HH\n13HH\nHHHH"), trust_flags=True)[0]
    # 3 at B2 minus the 1 at B1 minus the 1 at A2 leaves C3 = 1.
    assert dict(first.combination) == {1: -1, 4: -1, 5: 1}


def test_nothing_forced_gives_no_deduction() -> None:
    assert deductions(Position.parse("3x1x1\nH1H")) == []


def test_unproven_flags_are_not_used() -> None:
    # The flag on A1 is not proven: the 1 at B1 could have its mine in four other cells.
    position = Position.parse("4x2x1\nF1HH\nHHHH")
    found = deductions(position)
    assert found == deductions(Position.parse("4x2x1\nH1HH\nHHHH"))
    assert [d.rule for d in found] == ["mine-total"]


# --------------------------------------------------------------------------------------------
# Properties of every deduction of random solves, checked by brute force.


def arrangements(clues: list[Clue], cells: list[int], mines: int | None) -> list[int]:
    """Return every mine set (as a bitmask over ``cells``) that satisfies ``clues``."""
    out = []
    for n in range(len(cells) + 1) if mines is None else [mines]:
        for chosen in combinations(cells, n):
            mask = 0
            for c in chosen:
                mask |= 1 << c
            if all((mask & clue.mask).bit_count() == clue.mines for clue in clues):
                out.append(mask)
    return out


def forces(clues: list[Clue], unknown: int, mines: int | None, cells: int) -> bool:
    """Return whether ``clues`` (and the mine total, if given) force every cell of ``cells``."""
    pool = [i for i in range(unknown.bit_length()) if unknown >> i & 1]
    if mines is None:
        seen = 0
        for clue in clues:
            seen |= clue.mask
        if cells & ~seen:
            return False  # no clue sees that cell: it is free
        pool = [i for i in pool if seen >> i & 1]
    sols = arrangements(clues, pool, mines)
    assert sols, "premises must be satisfiable"
    always = ~0
    never = ~0
    for s in sols:
        always &= s
        never &= ~s
    return cells & ~(always | never) == 0


def check_deduction(position: Position, d: Deduction) -> None:
    cons = constraints_of(position, trust_flags=True)
    by_cell = {c.cell: c for c in cons.clues}
    premises = [by_cell[p] for p in d.premises]
    total = cons.mines if d.uses_mine_count else None
    conclusions = d.safe | d.mine
    assert conclusions
    # The premises alone imply the conclusions, and agree on which are mines.
    assert forces(premises, cons.unknown, total, conclusions)
    one = (
        arrangements(
            premises, [i for i in range(position.board.size) if cons.unknown >> i & 1], total
        )
        if total is not None
        else None
    )
    if one:
        assert all(s & d.mine == d.mine and not s & d.safe for s in one)
    # No premise can be dropped, nor the mine total.
    for p in premises:
        rest = [c for c in premises if c is not p]
        assert not forces(rest, cons.unknown, total, conclusions), f"{p} can be dropped"
    if d.uses_mine_count and premises:
        assert not forces(premises, cons.unknown, None, conclusions)
    # No lower level makes progress: no single clue, no pair forces any new cell, and at level 5
    # the clues alone force nothing.
    if d.level >= 2:
        for clue in cons.clues:
            for i in range(clue.mask.bit_length()):
                if clue.mask >> i & 1:
                    assert not forces([clue], cons.unknown, None, 1 << i)
    if d.level >= 3:
        for a, b in combinations(cons.clues, 2):
            if a.mask & b.mask:
                for i in range((a.mask | b.mask).bit_length()):
                    if (a.mask | b.mask) >> i & 1:
                        assert not forces([a, b], cons.unknown, None, 1 << i)


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 7), st.integers(4, 6), st.integers(0, 2**32 - 1))
def test_every_deduction_of_random_solves(w: int, h: int, seed: int) -> None:
    rng = random.Random(seed)
    mines = rng.randint(3, w * h // 4)
    start = (rng.randrange(w), rng.randrange(h))
    layout = Layout.random(Board(w, h), mines, rng, start, "safe")
    for step in logic_steps(layout, start):
        d = step.deduction
        cons = constraints_of(step.position, trust_flags=True)
        if cons.unknown.bit_count() <= 16:
            check_deduction(step.position, d)
        # Conclusions agree with the hidden layout.
        assert d.mine & ~layout.mines == 0 and d.safe & layout.mines == 0


def test_grade_counts_steps() -> None:
    layout = Layout.random(Board(9, 9), 10, random.Random(4), (4, 4), "opening")
    result = grade(layout, (4, 4))
    steps = list(logic_steps(layout, (4, 4)))
    assert result.total_steps == len(steps)
    assert result.level == max(s.deduction.level for s in steps)
    assert sum(result.steps.values()) == len(steps)
