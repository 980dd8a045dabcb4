"""Solving one deduction at a time, as a person does: explained steps, grades, hints that lead to
a click.

Each step takes the best deduction of the position as it is now (the lowest level, a safe cell
if it can, the fewest premises, near the last step), applies it (mines flagged, safe cells
opened) and looks again. So no step repeats a settled cell, and the numbers, flags and counts of
each step's text are those of the board the reader has at that step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from mineproof.analysis.constraints import (
    Clue,
    Constraints,
    condition,
    constraints_of,
    refresh_clues,
)
from mineproof.analysis.counting import CountTooLarge, counting_budget
from mineproof.board import Layout, iter_bits
from mineproof.errors import TooComplexError
from mineproof.game import Game
from mineproof.logic.deduction import Deduction
from mineproof.logic.ladder import (
    HINT_WORK,
    Ladder,
    check_near,
    known_view_and_safe,
    one_clue_best,
    two_clue_best,
)
from mineproof.logic.levels import LEVELS, ForcingPairs, Groups, forced_up_to
from mineproof.logic.premises import Work
from mineproof.position import FLAG, Position

__all__ = [
    "GRADE_WORK",
    "STEP_WORK",
    "Grade",
    "GradeTooComplex",
    "Step",
    "grade",
    "hint_steps",
    "logic_steps",
    "solve_in_steps",
]

STEP_WORK = 100_000
"""The work budget of each step of a solve (see :data:`~mineproof.logic.ladder.HINT_WORK`)."""

GRADE_WORK = 256_000_000
"""The counting work all the steps of one grade share (the exact counts and the linear
relaxations of levels 3 to 5, in the units of :data:`~mineproof.analysis.COUNT_WORK`, of which
each step also has its own): some 30 s of counting alone here, the rest of the solve on top. A
255x255 board generated at 20 % mines needs some 600,000; the 255x255 tiling of
``tests/analysis/hostile.py`` (784 groups that each need level 3 twice) 26 million."""


class GradeTooComplex(TooComplexError):
    """Raised when a grade's steps have spent :data:`GRADE_WORK` before the solve ends."""

    def __init__(self, steps: int) -> None:
        self.steps = steps
        size = f"{steps:,} steps"
        super().__init__(
            f"too complex to grade: the solve's counts and combinations needed more than "
            f"{GRADE_WORK:,} steps of counting work in all, and {size} were made",
            size=size,
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction of a solve: its number (from 1) and the position it was made in."""

    number: int
    deduction: Deduction
    position: Position


@dataclass(frozen=True, slots=True)
class Grade:
    """The grade of a board: solved or not, the highest level needed, the steps per level."""

    solved: bool
    level: int
    steps: dict[int, int] = field(default_factory=dict)

    @property
    def total_steps(self) -> int:
        """Return the number of steps of the solve."""
        return sum(self.steps.values())

    def to_json(self) -> dict[str, object]:
        """Return the grade as JSON data: ``solved``, ``level``, ``steps_by_level`` (keys as
        strings) and ``total_steps``. ``level`` is ``null`` for a board the solve does not
        clear: it has no hardest technique (a guess is needed), and 0 means a board the first
        click clears."""
        return {
            "solved": self.solved,
            "level": self.level if self.solved else None,
            "steps_by_level": {str(k): v for k, v in self.steps.items()},
            "total_steps": self.total_steps,
        }


def _start(layout: Layout, start: tuple[int, int]) -> Game:
    layout.start_index(start)
    game = Game(layout)
    game.reveal(*start)
    return game


def logic_steps(layout: Layout, start: tuple[int, int]) -> Iterator[Step]:
    """Yield the steps of a logic-only solve of ``layout`` from ``start``, one deduction at a
    time. The solve ends when the board is cleared or nothing is forced. Raises ``ArgumentError``
    for a start outside the board and ``IllegalMoveError`` for a start on a mine.
    """
    yield from _steps(_start(layout, start))


def _steps(game: Game) -> Iterator[Step]:
    board = game.board
    number = 0
    near = 0
    clues: dict[int, Clue] = {}
    # The cells of the numbers that force alone, all their cells safe or all mines, kept up
    # to date with ``clues``: a step at level 1 (most of them) looks at a few numbers only.
    forcing = [0, 0]
    # The pairs of clues that force something, brought up to date (for the numbers whose
    # clue changed since) only when level 1 is stuck: a step at level 2 looks at them alone.
    pairs = ForcingPairs(board.width)
    groups = Groups(board.width)
    opened_before = 0
    while game.state == "playing":
        position = game.position()
        if number == 0:
            clues = {c.cell: c for c in constraints_of(position, trust_flags=True).clues}
            forcing = [0, 0]
            numbers = 0
            for clue in clues.values():
                numbers |= 1 << clue.cell
                if clue.mines == 0:
                    forcing[0] |= 1 << clue.cell
                elif clue.mines == clue.mask.bit_count():
                    forcing[1] |= 1 << clue.cell
            pairs.changed(numbers)
            groups.changed(numbers)
        else:
            changed = near | game.opened_mask & ~opened_before
            refreshed = refresh_clues(position, clues, changed, forcing)
            pairs.changed(refreshed)
            groups.changed(refreshed)
        flags = position.flag_mask
        deduction = one_clue_best(
            position,
            clues,
            forcing[0],
            forcing[1],
            position.covered_mask & ~flags,
            position.mines - flags.bit_count(),
            near,
        ) or two_clue_best(position, clues, pairs.update(clues), near)
        if deduction is None:
            # Its exact counts share one budget, and each relaxation has its own (see
            # Ladder._hard_targets and linear.Relaxation), all within a grade's around it.
            deduction = Ladder(position, _constraints(position, clues), groups.update(clues)).best(
                near, Work(STEP_WORK), min_level=3
            )
        if deduction is None:
            return
        number += 1
        yield Step(number, deduction, position)
        opened_before = game.opened_mask
        for i in iter_bits(deduction.mine & ~game.flag_mask):
            game.flag(*board.xy(i))
        for i in iter_bits(deduction.safe):
            if game.state == "playing" and not game.opened_mask >> i & 1:
                game.reveal(*board.xy(i))
        near = deduction.safe | deduction.mine


def grade(
    layout: Layout,
    start: tuple[int, int],
    progress: Callable[[int], None] | None = None,
    *,
    on_step: Callable[[Step], None] | None = None,
) -> Grade:
    """Return the grade of ``layout`` solved logic-only from ``start``.

    ``level`` is the highest level any step needed (0 when no step was needed); ``solved`` says
    whether every safe cell was opened. ``progress``, when given, is told the number of steps
    made after each; ``on_step`` is given each step as it is made (so that a caller can write
    it out and let it go: a big board's positions do not all fit in memory at once). Raises as
    :func:`logic_steps` does, :class:`GradeTooComplex` once the steps have spent
    :data:`GRADE_WORK`, and :class:`~mineproof.analysis.CountTooLarge` when one step's count
    or combination passes its own budget.
    """
    game = _start(layout, start)
    counts: Counter[int] = Counter()
    done = 0
    with counting_budget(GRADE_WORK) as budget:
        try:
            for done, step in enumerate(_steps(game), 1):
                counts[step.deduction.level] += 1
                if on_step is not None:
                    on_step(step)
                if progress is not None:
                    progress(done)
        except CountTooLarge:
            if budget.left >= 0:
                raise
            raise GradeTooComplex(done) from None
    return Grade(game.state == "won", max(counts, default=0), dict(sorted(counts.items())))


def solve_in_steps(layout: Layout, start: tuple[int, int]) -> tuple[list[Step], Grade]:
    """Return the steps of a logic-only solve (as :func:`logic_steps`) and its grade, from one
    solve. Each step keeps its position: on a big board :func:`grade` with ``on_step`` takes
    far less memory. Raises as :func:`logic_steps` does."""
    steps: list[Step] = []
    return steps, grade(layout, start, on_step=steps.append)


def hint_steps(
    position: Position, trust_flags: bool = False, *, work: int = HINT_WORK, near: int = 0
) -> list[Deduction]:
    """Return the deductions that lead to a cell to open, in order, the last proving a safe
    cell (empty when nothing is forced; one deduction proving only mines when no cell can be
    proven safe).

    Two ways are compared: the best deduction that proves a safe cell directly, and the path a
    solve takes one lowest-level deduction at a time (proven mines taken as flagged) until it
    proves a safe cell, cut down to the steps the last one depends on. The path is taken when
    it needs only lower levels. Among equally simple deductions the one nearest the cells of
    ``near`` is taken (a review: the click; by default, the cells it can prove safe). Flags
    count as :func:`~mineproof.logic.ladder.known_view` says. Raises
    :class:`~mineproof.errors.InconsistentPositionError` for an impossible position, and
    ``ArgumentError`` when ``near`` is no bitmask of the board's cells.
    """
    check_near(position.board, near)
    view, goal = known_view_and_safe(position, trust_flags)
    budget = Work(work)
    clues = {c.cell: c for c in constraints_of(view, trust_flags=True).clues}
    first = Ladder(view, _constraints(view, clues)).best(near or goal, budget, lead=True)
    if first is None or first.safe or not goal:
        return [] if first is None else [first]
    # The direct way wins ties, so a path is worth walking only when the techniques below the
    # direct way's level reach a safe cell (a quick bitmask check first).
    cons = _constraints(view, clues)
    lowest = _lowest_safe_level(cons)
    reached = _safe_reached(cons, lowest - 1) if lowest > 1 else 0
    if reached:
        # Walk towards the cells the lower techniques reach, not towards every safe cell. On a
        # board of many proven mines the walk is long all the same (a review's expert board:
        # some 70 one-clue mines before its level-2 safe cell; cut to the two steps needed).
        first = Ladder(view, cons).best(near or reached, budget, lead=True) or first
        path = _path(view, clues, first, reached, budget)
        if path and max(d.level for d in path) < lowest:
            return path
    direct = Ladder(view, cons).best(near or goal, budget, safe_only=True)
    return [] if direct is None else [direct]


def _lowest_safe_level(cons: Constraints) -> int:
    """Return the lowest level at which some cell is proven safe in one look (6 when none)."""
    for level in LEVELS:
        if forced_up_to(level, cons.clues, cons.unknown, cons.mines)[0]:
            return level
    return 6


def _safe_reached(cons: Constraints, below: int) -> int:
    """Return the cells that the techniques up to level ``below``, applied again and again
    with the mines they prove taken as known, first prove safe (0 when they prove none)."""
    while True:
        for level in range(1, below + 1):
            safe, mine = forced_up_to(level, cons.clues, cons.unknown, cons.mines)
            if safe:
                return safe
            if mine:
                break
        else:
            return 0
        cons = condition(cons, mine, 0)  # proven mines: no contradiction


PATH_WORK = 1_000_000
"""The work a play hint's walk to a safe cell may spend before it takes the direct way: a step
costs as many units as the board has numbers with covered cells around them (it looks at
each), so about 3,000 steps on an expert board (its walks take at most about a hundred:
one step for each mine one clue proves, then the safe cell) and some fifty on a 255x255
board, about a second either way."""


def _path(
    view: Position, clues: dict[int, Clue], first: Deduction, goal: int, budget: Work
) -> list[Deduction]:
    """Return the lowest-level steps from ``first`` to the first safe cell, keeping only those
    the last step depends on (its premises' numbers see their mines); empty when the walk is
    too long (past :data:`PATH_WORK`) or ends before a safe cell."""
    board = view.board
    steps = [first]
    deduction = first
    clues = dict(clues)
    walk = Work(PATH_WORK)
    while not deduction.safe:
        cells = list(view.cells)
        for i in iter_bits(deduction.mine):
            cells[i] = FLAG
        view = Position.unchecked(
            board,
            tuple(cells),
            view.mines,
            view.covered_mask,
            view.flag_mask | deduction.mine,
            view.number_mask,
        )
        refresh_clues(view, clues, deduction.mine)
        if not walk.spend(len(clues)):
            return []
        found = Ladder(view, _constraints(view, clues)).best(goal, budget, lead=True)
        if found is None:
            return []
        deduction = found
        steps.append(deduction)
    # Keep a step when a later kept step's numbers see one of its mines (the mine total sees
    # them all).
    masks = board.neighbour_masks()
    kept = [steps[-1]]
    seen = _seen_by(kept[0], masks)
    for step in reversed(steps[:-1]):
        if step.mine & seen:
            kept.append(step)
            seen |= _seen_by(step, masks)
    kept.reverse()
    # Each kept step is shown on the board with the mines of the kept steps before it flagged
    # (its numbers never saw the others, so its argument and text stay the same).
    shown = []
    flags = first.position.flag_mask
    start = first.position
    for step in kept:
        cells = list(start.cells)
        for i in iter_bits(flags & ~start.flag_mask):
            cells[i] = FLAG
        view = Position.unchecked(
            board, tuple(cells), start.mines, start.covered_mask, flags, start.number_mask
        )
        shown.append(replace(step, position=view))
        flags |= step.mine
    return shown


def _seen_by(d: Deduction, masks: Sequence[int]) -> int:
    """Return the cells the premises of ``d`` depend on: their numbers' neighbours (every
    cell when the mine total is a premise)."""
    if d.uses_mine_total:
        return -1
    out = 0
    for cell in d.premises:
        out |= masks[cell]
    return out


def _constraints(view: Position, clues: dict[int, Clue]) -> Constraints:
    """Return the constraints of ``view`` (flags as mines) from clues kept up to date."""
    return Constraints(
        view.covered_mask & ~view.flag_mask,
        view.mines - view.flag_mask.bit_count(),
        [clues[i] for i in sorted(clues)],
    )
