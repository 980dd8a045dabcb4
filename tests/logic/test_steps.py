"""Explained solves replayed by an independent checker, and hints that lead to a cell to open.

The checker plays the layout itself (its own numbers, its own flood fill), compares each step's
position with its own board, checks the step with the oracles (brute force and SciPy) and
applies it: every step must be proven in the position it is made in, settle no cell already
settled, and use the lowest level available there.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mineproof.board import Board, FirstClick, Layout
from mineproof.explain import explain
from mineproof.formats.layout_text import parse_layout_text
from mineproof.logic import Deduction, Step, hint_steps, logic_steps, solve_in_steps
from mineproof.logic import steps as steps_module
from mineproof.logic.cases import CaseProof, settled_cells
from mineproof.logic.steps import GradeTooComplex, grade
from mineproof.position import COVERED, FLAG, Position

from .oracle import around, bits, forced, lowest_level, view_of
from .positions import random_game
from .verify import Tally, check_deduction, check_proof_json, check_sound


class Replay:
    """A board played by the checker: opened cells and flags, from the layout's mines."""

    def __init__(self, layout: Layout, start: tuple[int, int]) -> None:
        self.w, self.h = layout.board.width, layout.board.height
        self.size = self.w * self.h
        self.mines = layout.mines
        self.numbers = [
            sum(1 for n in around(self.w, self.h, i) if self.mines >> n & 1)
            for i in range(self.size)
        ]
        self.opened = 0
        self.flags = 0
        self.open(start[1] * self.w + start[0])

    def open(self, i: int) -> None:
        assert not self.mines >> i & 1, f"cell {i} is a mine"
        todo = [i]
        while todo:
            c = todo.pop()
            if self.opened >> c & 1:
                continue
            self.opened |= 1 << c
            self.flags &= ~(1 << c)
            if self.numbers[c] == 0:
                todo.extend(around(self.w, self.h, c))

    def cells(self) -> tuple[int, ...]:
        return tuple(
            self.numbers[i] if self.opened >> i & 1 else FLAG if self.flags >> i & 1 else COVERED
            for i in range(self.size)
        )

    def cleared(self) -> bool:
        return self.opened | self.mines == (1 << self.size) - 1


def check_solve(layout: Layout, start: tuple[int, int], steps: list[Step], tally: Tally) -> bool:
    """Replay the steps; return whether they clear the board."""
    board = Replay(layout, start)
    for n, step in enumerate(steps, 1):
        assert step.number == n
        assert step.position.cells == board.cells(), f"step {n} is not made in the position"
        assert step.position.mines == layout.mines.bit_count()
        d = step.deduction
        settled = board.opened | board.flags
        assert not (d.safe | d.mine) & settled, f"step {n} settles a settled cell"
        assert d.mine & ~layout.mines == 0 and d.safe & layout.mines == 0
        view = view_of(step.position)
        level, safe, mine = lowest_level(view)
        assert d.level == level, f"step {n} at level {d.level}, but level {level} is available"
        assert d.safe & ~safe == 0 and d.mine & ~mine == 0
        check_deduction(view, d, list(view.clues), tally)
        # The text a person reads names what the step proves.
        text = explain(d)
        if (d.safe | d.mine).bit_count() <= 6:
            for i in bits(d.safe | d.mine):
                assert f"{chr(65 + i % board.w)}{i // board.w + 1}" in text, text
        board.flags |= d.mine
        for i in bits(d.safe):
            board.open(i)
    if not board.cleared():
        # The solve stops only when nothing is forced.
        view = view_of(Position.parse(position_text(board, layout)))
        assert lowest_level(view)[0] == 0, "the solve stopped with a forced cell left"
        return False
    return True


def position_text(board: Replay, layout: Layout) -> str:
    chars = {COVERED: "H", FLAG: "F"}
    cells = board.cells()
    rows = [
        "".join(chars.get(c, str(c)) for c in cells[y * board.w : (y + 1) * board.w])
        for y in range(board.h)
    ]
    return f"{board.w}x{board.h}x{layout.mines.bit_count()}\n" + "\n".join(rows)


def random_board(seed: int) -> tuple[Layout, tuple[int, int]]:
    """A small board, dense enough that levels 3-5 show up now and then; mostly started with
    an opening so that the solve goes some way."""
    rng = random.Random(seed)
    w, h = rng.randint(4, 9), rng.randint(4, 8)
    mines = rng.randint(2, w * h * 2 // 7)
    start = (rng.randrange(w), rng.randrange(h))
    rule: FirstClick = "opening" if rng.random() < 0.8 else "safe"
    if rule == "opening" and mines > w * h - 9:
        rule = "safe"
    return Layout.random(Board(w, h), mines, rng, start, rule), start


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_logic_steps_replayed_on_small_boards(seed: int) -> None:
    layout, start = random_board(seed)
    tally = Tally()
    steps, grade = solve_in_steps(layout, start)
    assert [s.deduction for s in steps] == [s.deduction for s in logic_steps(layout, start)]
    cleared = check_solve(layout, start, steps, tally)
    assert grade.solved == cleared
    assert grade.level == max((s.deduction.level for s in steps), default=0)
    assert grade.total_steps == len(steps)


# Boards whose solve needs level 3, 4 or 5, and intermediate ones: (width, height, mines,
# seed of ``Layout.random`` with the start and its neighbours free at the centre, level). Found
# by grading the first few thousand seeds; the level is checked here by the oracles.
HARD_BOARDS = [
    (8, 8, 13, 49, 3),
    (9, 9, 14, 37, 3),
    (9, 9, 14, 901, 4),
    (9, 9, 16, 2, 5),
    (16, 16, 45, 20, 3),
    (16, 16, 45, 233, 4),
    (16, 16, 40, 1, 5),
    (16, 16, 40, 2, 2),
]


def hard_board(w: int, h: int, mines: int, seed: int) -> tuple[Layout, tuple[int, int]]:
    start = (w // 2, h // 2)
    return Layout.random(Board(w, h), mines, random.Random(seed), start, "opening"), start


@pytest.mark.parametrize(
    ("w", "h", "mines", "seed", "level"), HARD_BOARDS, ids=[str(b) for b in HARD_BOARDS]
)
def test_logic_steps_replayed_on_harder_boards(
    w: int, h: int, mines: int, seed: int, level: int
) -> None:
    layout, start = hard_board(w, h, mines, seed)
    tally = Tally()
    steps = list(logic_steps(layout, start))
    assert check_solve(layout, start, steps, tally)
    assert max(s.deduction.level for s in steps) == level


# Four groups of 16 mines that a solve from the corner reaches through an opening, each cleared
# with a combination of clues (level 3) twice (``tiling`` of ``tests/analysis/hostile.py``).
TILING = parse_layout_text((Path(__file__).parents[1] / "data" / "tiling-21.txt").read_text())


def test_a_tiling_of_groups_that_each_need_level_3() -> None:
    """Each group of the tiling is cleared by steps the oracles check, level 3 among them; the
    groups left alone from one level-3 step to the next keep what they forced."""
    steps = list(logic_steps(TILING, (0, 0)))
    assert check_solve(TILING, (0, 0), steps, Tally())
    assert Counter(s.deduction.level for s in steps)[3] == 2 * 4


def test_a_grade_stops_at_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A grade whose steps together count more than the grade's budget says so in one line,
    each step within its own budget; with the budget it has, the same board is graded."""
    graded = grade(TILING, (0, 0))
    assert graded.solved and graded.level == 3
    monkeypatch.setattr(steps_module, "GRADE_WORK", 100_000)
    with pytest.raises(GradeTooComplex) as error:
        grade(TILING, (0, 0))
    message = str(error.value)
    assert "\n" not in message and "too complex to grade" in message
    assert "100,000" in message and 0 < error.value.steps < graded.total_steps


# --------------------------------------------------------------------------------------------
# Hints


def check_hint(position: Position) -> list[Deduction]:
    """Check the hint steps of a position whose flags are all right.

    The last step proves a safe cell whenever any cell is provably safe (by search, with the
    mine total), and only then; earlier steps prove only mines. Each step is proven in the
    position it is made in, which is the given one with some of the mines of the steps
    before it flagged, and concludes only what the given position forces.
    """
    view = view_of(position)
    safe, mine = forced(list(view.clues), view.unknown, view.total()) if view.unknown else (0, 0)
    found = hint_steps(position, trust_flags=True)
    if not safe | mine:
        assert found == []
        return found
    assert found, "a forced cell and no hint"
    if safe:
        assert found[-1].safe, "a cell is provably safe but the hint ends without one"
    else:
        assert not any(d.safe for d in found)
    for d in found[:-1]:
        assert d.mine and not d.safe, "an earlier hint step proves a safe cell"
    tally = Tally()
    proven = 0
    for k, d in enumerate(found):
        assert d.safe & ~safe == 0 and d.mine & ~mine == 0, "a hint concludes wrongly"
        # The step holds on the board the reader has: the given one with the mines of the
        # steps shown before it flagged.
        cells = tuple(FLAG if proven >> i & 1 else c for i, c in enumerate(position.cells))
        shown = view_of(Position(position.board, cells, position.mines))
        check_sound(shown, d)
        check_proof_json(shown, d, tally)
        # And in the position it was made in, whose flags are all provable mines.
        made = view_of(d.position)
        assert made.flags & ~(view.flags | mine) == 0, f"hint step {k} flags an unproven cell"
        assert d.position.cells == tuple(
            FLAG if made.flags >> i & 1 else c for i, c in enumerate(position.cells)
        ), f"hint step {k} is made in another position"
        check_deduction(made, d, list(made.clues), tally)
        proven |= d.mine
    return found


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
@example(8403)  # a safe cell whose combination needs a forced mine: was called a case analysis
def test_hint_steps_of_random_positions(seed: int) -> None:
    _, position = random_game(seed)
    check_hint(position)


def test_hint_steps_that_prove_mines_first() -> None:
    """Positions of solves where the best deduction proves only mines: the hint goes on past
    them to a safe cell."""
    long_hints = 0
    checked = 0
    for seed in range(400):
        layout, start = random_board(seed)
        for step in logic_steps(layout, start):
            if not step.deduction.safe:
                found = check_hint(step.position)
                checked += 1
                long_hints += len(found) > 1
        if checked >= 40:
            break
    assert checked >= 40
    assert long_hints >= 10, long_hints


# From the review of a real expert game (the shared replay expert-101s.avf, click 190): the
# board holds about 70 mines that one clue proves, and V5 is proven safe directly only at
# level 4, but at level 2 once the mines the 2 at T4 proves are known. The walk took the
# level-1 mines of the whole board one at a time and gave up after 40 of them.
EXPERT_190 = (
    "30x16x99\n"
    "H212H22H2H101H23H3111HHHHHHHHH\n"
    "23H22H21212122H4H3H12HHHHHHHHH\n"
    "H3212220002H334H22112HHHHHHHHH\n"
    "2H112H10113H4HH211122HHHHHHHHH\n"
    "2211H2112H213H4202H3HHHHHHHHHH\n"
    "H2132201H22122H102H32HHHHHHHHH\n"
    "23H3H212322H111101123HHHHHHHHH\n"
    "1H23H32H2H2110000013HHHHHHHHHH\n"
    "11113H3243200000002HH32HHHHHHH\n"
    "12223H21HH311001113H422HHHHHHH\n"
    "1HH2H2113H3H2112H23H22HHHHHHHH\n"
    "123321112233H11H3H2112HHHHHHHH\n"
    "112H112H12H311223121113HHHHHHH\n"
    "2H2112H312H3111H112H212HHHHHHH\n"
    "H21002H20112H11122H3HH3HHHHHHH\n"
    "11000111000111001H22HHHHHHHHHH\n"
)


def test_a_short_path_among_many_proven_mines() -> None:
    found = check_hint(Position.parse(EXPERT_190))
    assert [d.level for d in found] == [1, 2]
    assert found[-1].safe == 1 << found[-1].position.board.index(21, 4)  # V5


# A position of a generated beginner board of level 5, none of its mines flagged. A1 is safe
# only by the mine total, and no case split within the proofs' depth reaches it: the total
# counts the mines that single numbers prove. The hint said "there are too many cases to show
# here".
LEVEL_5_UNFLAGGED = (
    "9x9x10\n"
    "HH2H1001H\n"
    "HH2110011\n"
    "H32100011\n"
    "HHH10001H\n"
    "HH3200011\n"
    "13H200000\n"
    "02H200000\n"
    "011101110\n"
    "000001H10\n"
)


def test_a_level_five_play_hint_without_flags_has_a_proof() -> None:
    found = check_hint(Position.parse(LEVEL_5_UNFLAGGED))
    assert [d.level for d in found] == [5]
    board = found[0].board
    assert found[0].safe == 1 << board.index(0, 0)  # A1
    proof = found[0].proof
    # The mines single numbers prove are told first (the 1 at H1 proves I1, ...); then one
    # supposition and a count close it: "Suppose A1 is a mine. Then the 3 at B3 and the 3 at
    # B6 ... still need 6 mines between them, all the mines left to place ..." (before
    # 2026-11-30, a combination of four premises, "-A1 + B2 = 1", proving B2 a mine as well).
    assert isinstance(proof, CaseProof) and proof.refuted.split is None
    given = [board.index(8, 0), board.index(8, 3), board.index(6, 8)]  # I1, I4, G9
    assert settled_cells(proof.given) == (0, sum(1 << i for i in given))
    assert any(event.parts for event in proof.refuted.chain)
