"""The technique ladder: golden positions per rule, and every deduction of real positions at
levels 3, 4 and 5 checked against oracles that share no code with the kernel.

The oracles (:mod:`.oracle`, :mod:`.verify`) read each position's numbers themselves; what
clues force is decided by exhaustive search, the linear relaxation by SciPy's ``linprog``.
The positions of levels 3-5 are stored in ``tests/data/ladder_positions.jsonl``, found once by
``tests/data/find_ladder_positions.py`` (see there); their level is decided here again.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.analysis.constraints import Clue
from mineproof.board import Board, Layout
from mineproof.errors import ArgumentError, InconsistentPositionError
from mineproof.logic import (
    Deduction,
    best_deduction,
    deductions,
    grade,
    hint_steps,
    logic_steps,
    simple_deduction,
)
from mineproof.logic import ladder as ladder_module
from mineproof.logic.cases import CaseProof, case_proof
from mineproof.logic.linear import LinearProof
from mineproof.logic.patterns import pattern_of
from mineproof.logic.steps import STEP_WORK
from mineproof.position import Position

from .oracle import lowest_level, lp_forces, mask_of, view_of
from .positions import random_position
from .verify import Tally, check_deduction

DATA = Path(__file__).parents[1] / "data" / "ladder_positions.jsonl"


def xy_mask(position: Position, cells: list[tuple[int, int]]) -> int:
    return mask_of(y * position.width + x for x, y in cells)


# --------------------------------------------------------------------------------------------
# Golden positions, made by hand (and one small one from a real board)

GOLDEN = [
    # (name, position, rule, premises, safe, mine, pattern)
    ("single clue", "4x3x2\n012H\n01HH\n011H", "single-clue", [(1, 0)], [], [(2, 1)], None),
    (
        "all mines found",
        "4x3x3\n02FH\n03FH\n02FH",
        "all-mines-found",
        [],
        [(3, 0), (3, 1), (3, 2)],
        [],
        None,
    ),
    (
        "only mines left",
        "2x2x4\nHH\nHH",
        "only-mines-left",
        [],
        [],
        [(0, 0), (1, 0), (0, 1), (1, 1)],
        None,
    ),
    ("1-1 on a wall", "4x2x2\nHHHH\n1111", "two-clues", [(0, 1), (1, 1)], [(2, 0)], [], "1-1"),
    (
        "1-2-1 on a wall",
        "5x2x2\nHHHHH\n11211",
        "two-clues",
        [(1, 1), (2, 1)],
        [(0, 0)],
        [(3, 0)],
        "1-2-1",
    ),
    ("1-2-1 alone", "3x2x2\nHHH\n121", "two-clues", [(0, 1), (1, 1)], [], [(2, 0)], "1-2-1"),
    (
        "1-2-2-1 on a wall",
        "4x2x2\nHHHH\n1221",
        "two-clues",
        [(0, 1), (1, 1)],
        [],
        [(2, 0)],
        "1-2-2-1",
    ),
    # The 1-1 down a column, cut by the bottom edge.
    (
        "1-1 down a wall",
        "4x3x2\n01HH\n01HH\n01HH",
        "two-clues",
        [(1, 1), (1, 2)],
        [(2, 0)],
        [],
        "1-1",
    ),
    # A 3 between two 1s: the 3 at B2 needs 3 mines, the 1s at B1 and A2 allow only 2 in the
    # cells they share with it, so its last cell C3 is a mine (3 - 1 - 1 = 1).
    (
        "3 between two 1s",
        "4x3x3\n01HH\n13HH\nHHHH",
        "combination",
        [(1, 0), (0, 1), (1, 1)],
        [],
        [(2, 2)],
        None,
    ),
    # Once named a case analysis; the 2 at D2 less the 1s at D1 and D4 settles it linearly.
    (
        "old case analysis, really level 3",
        "5x5x4\n0001H\n1112H\nHH1HH\nH221H\nHHHHH",
        "combination",
        [(3, 0), (3, 1), (3, 3)],
        [(4, 3), (2, 4), (3, 4), (4, 4)],
        [],
        None,
    ),
    # Three 1s around B2 (at B1, A2, C2) each need one mine among A1, C1, B2, B3: whole mines
    # force B2 (if B2 were empty, the three would need 3/2 mines among A1, C1, B3), but halves
    # on A1, C1 and B3 satisfy every clue, so no sum of clues proves it: a real case analysis.
    (
        "case analysis",
        "6x5x9\nH1H1HH\n1H1122\n2H102F\nFH213F\nFHF12F",
        "case-analysis",
        [(1, 0), (0, 1), (2, 1)],
        [(0, 0)],
        [],
        None,
    ),
    (
        "the mine total alone",
        "4x3x2\n2HHH\nHHHH\nHHHH",
        "mine-total",
        [(0, 0)],
        [(2, 0), (3, 0), (2, 1), (3, 1), (0, 2), (1, 2), (2, 2), (3, 2)],
        [],
        None,
    ),
    # One mine left and two 1s that share C1: only C1 satisfies both with one mine.
    (
        "two clues share the last mine",
        "5x1x1\nH1H1H",
        "mine-total",
        [(1, 0), (3, 0)],
        [],
        [(2, 0)],
        None,
    ),
]


@pytest.mark.parametrize(
    ("name", "text", "rule", "premises", "safe", "mine", "pattern"),
    GOLDEN,
    ids=[g[0] for g in GOLDEN],
)
def test_golden(
    name: str,
    text: str,
    rule: str,
    premises: list[tuple[int, int]],
    safe: list[tuple[int, int]],
    mine: list[tuple[int, int]],
    pattern: str | None,
) -> None:
    position = Position.parse(text)
    found = deductions(position, trust_flags=True)
    assert {d.rule for d in found} == {rule}, name
    matching = [d for d in found if d.premise_cells == premises and d.safe_cells == safe]
    assert len(matching) == 1, [(d.premise_cells, d.safe_cells, d.mine_cells) for d in found]
    d = matching[0]
    assert d.mine_cells == mine
    assert d.minimal and d.fewest
    assert pattern_of(d) == pattern
    # The oracles agree: the level is the lowest that forces anything, and the deduction holds.
    view = view_of(position)
    level, s, m = lowest_level(view)
    assert level == d.level
    assert d.safe & ~s == 0 and d.mine & ~m == 0
    tally = Tally()
    for each in found:
        check_deduction(view, each, list(view.clues), tally)
    assert tally.deductions == {level: len(found)}


def test_three_between_two_ones_is_the_relaxation_not_a_case_analysis() -> None:
    position = Position.parse("4x3x3\n01HH\n13HH\nHHHH")
    view = view_of(position)
    c3 = 2 * 4 + 2
    assert lp_forces(list(view.clues), c3) == 1
    (d,) = deductions(position, trust_flags=True)
    assert d.rule == "combination" and d.level == 3
    assert isinstance(d.proof, LinearProof)
    # 3 at B2 minus the 1 at B1 minus the 1 at A2 leaves C3 = 1.
    assert d.to_json()["proof"] == {
        "given": [],
        "combination": [
            {"premise": [1, 0], "multiplier": "-1"},
            {"premise": [0, 1], "multiplier": "-1"},
            {"premise": [1, 1], "multiplier": "1"},
        ],
        "equation": {"cells": [{"cell": [2, 2], "coefficient": "1"}], "total": "1"},
    }


def test_case_analysis_is_beyond_the_relaxation() -> None:
    position = Position.parse("6x5x9\nH1H1HH\n1H1122\n2H102F\nFH213F\nFHF12F")
    view = view_of(position)
    a1, b2 = 0, 6 + 1
    # Halves on A1, C1 and B3: the relaxation leaves both cells open.
    assert lp_forces(list(view.clues), a1) is None
    assert lp_forces(list(view.clues), b2) is None
    found = deductions(position, trust_flags=True)
    assert {d.level for d in found} == {4}
    (d,) = [d for d in found if d.safe == 1 << a1]
    assert isinstance(d.proof, CaseProof)
    cases = d.to_json()["proof"]["cases"]
    assert cases[-1] == {"safe": [[0, 0]], "mine": [], "outcome": "agrees"}
    assert all(c["outcome"] == "contradiction" for c in cases[:-1])


def test_nothing_forced_gives_no_deduction() -> None:
    assert deductions(Position.parse("3x1x1\nH1H")) == []
    assert best_deduction(Position.parse("3x1x1\nH1H")) is None


def test_unproven_flags_are_not_used() -> None:
    # The flag on A1 is not proven: the 1 at B1 could have its mine in four other cells.
    position = Position.parse("4x2x1\nF1HH\nHHHH")
    found = deductions(position)
    assert found == deductions(Position.parse("4x2x1\nH1HH\nHHHH"))
    assert [d.rule for d in found] == ["mine-total"]


def test_grade_counts_steps() -> None:
    layout = Layout.random(Board(9, 9), 10, random.Random(4), (4, 4), "opening")
    result = grade(layout, (4, 4))
    steps = list(logic_steps(layout, (4, 4)))
    assert result.total_steps == len(steps)
    assert result.level == max(s.deduction.level for s in steps)
    assert sum(result.steps.values()) == len(steps)


# --------------------------------------------------------------------------------------------
# Real positions at levels 3, 4 and 5 (tests/data/ladder_positions.jsonl)


def corpus() -> list[dict[str, object]]:
    with DATA.open() as f:
        return [json.loads(line) for line in f]


CORPUS = corpus()
CHUNKS = 6


def test_corpus_holds_enough_positions_of_each_level() -> None:
    levels = [int(str(r["level"])) for r in CORPUS]
    for level in (3, 4, 5):
        assert levels.count(level) >= 130, level


def check_corpus_position(
    record: dict[str, object], tally: Tally, *, best: bool = False
) -> list[Deduction]:
    """Check the deductions of one stored position: the level decided by the oracles, every
    deduction at that level, sound, with a proof that checks out and premises that cannot be
    fewer; each adds cells the level forces. (They need not cover all of them: past its work
    budget the ladder stops looking.)"""
    position = Position.parse(str(record["position"]))
    view = view_of(position)
    level, safe, mine = lowest_level(view)
    assert level == record["level"], f"the oracles put this position at level {level}"
    # The budget of a step of an explained solve (a hint's is four times larger and doubles
    # the run time of these tests; the deductions differ only where it runs out).
    found = deductions(position, trust_flags=True, work=STEP_WORK)
    assert found, "nothing deduced"
    covered = 0
    for d in found:
        assert d.level == level, f"a level-{d.level} deduction at level {level}"
        check_deduction(view, d, list(view.clues), tally)
        assert d.safe & ~safe == 0 and d.mine & ~mine == 0
        assert (d.safe | d.mine) & ~covered, "a deduction that adds no cell"
        covered |= d.safe | d.mine
    if best:
        # The step an explained solve takes: at this level, a safe cell whenever there is one.
        chosen = best_deduction(position, trust_flags=True, work=STEP_WORK)
        assert chosen is not None and chosen.level == level
        check_deduction(view, chosen, list(view.clues), tally)
        assert bool(chosen.safe) == bool(safe), "the best deduction misses the safe cells"
    return found


@pytest.mark.parametrize("level", [3, 4, 5])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_deductions_of_real_positions(level: int, chunk: int) -> None:
    records = [r for r in CORPUS if r["level"] == level][chunk::CHUNKS]
    tally = Tally()
    failures = []
    for n, record in enumerate(records):
        try:
            check_corpus_position(record, tally, best=n % 2 == 0)
        except AssertionError as exc:
            failures.append(f"{record['source']}: {exc}\n{record['position']}")
    assert not failures, f"{len(failures)} positions fail:\n" + "\n\n".join(failures)
    n = tally.deductions.get(level, 0)
    assert n >= len(records), tally
    # The claims of fewest premises were confirmed exhaustively for most deductions, and
    # nearly all have a proof to show.
    assert tally.fewest_checked >= 0.8 * tally.fewest_claimed, tally
    assert tally.unproven <= 0.1 * n, tally


# --------------------------------------------------------------------------------------------
# Random positions: every deduction at whatever level, on small boards


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_deduction_of_random_positions(seed: int) -> None:
    position = random_position(seed)
    view = view_of(position)
    level, safe, mine = lowest_level(view)
    found = deductions(position, trust_flags=True)
    if level == 0:
        assert found == []
        return
    tally = Tally()
    for d in found:
        assert d.level == level
        check_deduction(view, d, list(view.clues), tally)
        assert d.safe & ~safe == 0 and d.mine & ~mine == 0
    best = best_deduction(position, trust_flags=True)
    assert best is not None and best.level == level
    # The best deduction proves a safe cell whenever one at this level does.
    if any(d.safe for d in found):
        assert best.safe


@pytest.mark.parametrize("near", [-1, 1 << 12])
def test_a_near_that_is_no_cells_of_the_board_is_refused(near: int) -> None:
    """A negative bitmask has endless bits: walking them never ended."""
    position = Position.parse("4x3x3\n01HH\n13HH\nHHHH")
    with pytest.raises(ArgumentError, match="near"):
        best_deduction(position, near=near)
    with pytest.raises(ArgumentError, match="near"):
        hint_steps(position, near=near)


@pytest.mark.parametrize(("text", "trust"), [("3x1x1\n2HH", False), ("3x1x1\nFF0", True)])
def test_the_simple_deduction_names_a_conflict_it_meets(text: str, trust: bool) -> None:
    """The deduction of one or two numbers (for positions too big to count) let the
    analysis's internal Contradiction out, which ``except ValueError`` does not catch."""
    with pytest.raises(InconsistentPositionError):
        simple_deduction(Position.parse(text), trust)


def test_a_case_counts_what_numbers_still_need_against_the_mines_left() -> None:
    """The 3, 2 and 2 with the mine total prove A4 safe. Suppose A4 is a mine: the 3 at B2
    still needs 3 mines, all the mines left to place, so D3 and D4 are safe, and the 2 at C4
    then puts two mines beside the 2 at B4, one too many. With one-number steps only, the same
    numbers needed cases five suppositions deep ("too many cases to show here"), and a proof
    with the 2 at A2 too was three deep, 30 sentences."""
    position = Position.parse("4x4x4\nHHHH\n23HH\nHHHH\nH22H")
    d = best_deduction(position)
    assert d is not None and d.level == 5 and d.safe_cells == [(0, 3)]
    assert isinstance(d.proof, CaseProof) and d.proof.refuted.split is None
    assert (d.fewest, d.minimal) == (True, True)
    assert sorted(d.premise_cells) == [(1, 1), (1, 3), (2, 3)]
    count = d.proof.refuted.chain[0]
    assert count.parts == (5,) and (count.premise, count.needed, count.left) == (-1, 3, 3)
    view = view_of(position)
    check_deduction(view, d, list(view.clues), Tally())


def test_a_deduction_whose_fewest_numbers_have_no_proof_to_show_shows_one_with_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the fewest numbers make no proof to show (cases too deep), up to 40 numbers around
    are tried, and a proof they make is shown, its numbers the premises (not the fewest). Made
    here by refusing every case proof of at most four premises on the 4x4 board above (none
    of the tests' random positions needs it since cases count, 2026-11-30)."""
    real = case_proof

    def deeper(premises: Sequence[Clue], target: int, mine: bool) -> CaseProof | None:
        return None if len(premises) <= 4 else real(premises, target, mine)

    monkeypatch.setattr(ladder_module, "case_proof", deeper)
    position = Position.parse("4x4x4\nHHHH\n23HH\nHHHH\nH22H")
    d = best_deduction(position)
    assert d is not None and d.level == 5 and d.safe_cells == [(0, 3)]
    assert isinstance(d.proof, CaseProof)
    assert (d.fewest, d.minimal) == (False, False)
    # The numbers the proof uses: those of the refused proof, here, found among more.
    assert sorted(d.premise_cells) == [(1, 1), (1, 3), (2, 3)]
    view = view_of(position)
    check_deduction(view, d, list(view.clues), Tally())


def test_a_shorter_proof_with_more_numbers_comes_before_cases_split_twice() -> None:
    """The fewest 8 numbers with the mine total prove A8 safe by cases two deep (about 21
    sentences once cases count); 6 numbers, each with its share of the 9 mines left and no
    covered cell in common, say it in 3. Before cases counted the fewest had no proof to show
    and the 6 were taken; then the cases were taken because they could be shown."""
    position = Position.parse(
        "7x8x13\nHHH1000\n1HH2221\n1H33FF1\n1HHH321\nH22H100\nH211100\nF33H321\nHHHHFHH"
    )
    d = best_deduction(position, trust_flags=True)
    assert d is not None and d.level == 5 and d.safe_cells == [(0, 7)]
    assert isinstance(d.proof, LinearProof) and len(d.premises) == 6
    assert (d.fewest, d.minimal) == (False, False)
    view = view_of(position)
    check_deduction(view, d, list(view.clues), Tally())
