"""Guess-free boards: layouts a perfect logician clears from the start cell without one guess.

Three samplers make them (:data:`Sampler`):

- ``exact``: rejection. A uniformly random layout (the start area kept free) is played by the
  complete solver from the start cell and kept when it is cleared, else dropped at its first
  stuck point (or before it is played, when :class:`~mineproof.logic.SwapCheck` sees that it
  needs a guess) and a fresh one drawn. Every guess-free layout of the board, mine count, start
  rule and start cell is then exactly equally likely (with a window of levels: every one whose
  grade is within it). The cost is the number of layouts drawn, one over the share of layouts
  that are guess-free: about 6.5 on expert, 1.5 on intermediate, 1.1 on beginner, but it
  grows exponentially with the density and the area, and a window makes it one over the share
  of layouts graded within it (24,000 on beginner for a case analysis and nothing harder). It
  draws at most :data:`EXACT_LAYOUTS` layouts per unit of ``budget``.
- ``perturb``: local search, for the dense or large boards where rejection cannot finish. A
  board starts as a uniformly random layout (the start area kept free). A fast solver, limited
to the allowed technique level, plays it from the start cell; where it gets stuck, one covered
cell on the frontier is toggled (a mine moved out, or one moved in) and a uniformly random cell
of the opposite state in the untouched interior is toggled back, so the mine count stays and the
local density is unchanged in expectation. The solve then continues from where it was. A board
that the fast solver clears is verified from scratch by the complete solver
(:func:`mineproof.solve.solve`) and, when levels are asked for, graded by the technique ladder;
only verified boards are returned. The boards are not exactly uniform: the search favours
layouts close to where it got stuck (its bias is measured by ``benchmarks/bench_uniformity.py``).
Past half the board mined, once a quarter of the search found no board (see
:data:`GROWN_AFTER`), its fresh layouts are grown around the start instead (:func:`_grown`),
far from uniform; a board made from one says ``grown``. A window of levels grows them the same
way (the share counted in its own layouts, :data:`SEEKING_LAYOUTS` per unit of budget).

- ``chain``: a Markov chain over the guess-free layouts, for dense boards where exactness is
  wanted more than speed. It starts from a ``perturb`` board and makes :data:`CHAIN_MOVES`
  moves per mine: a uniformly random mine and a uniformly random mine-free cell (outside the
  start area) swap places when the layout stays guess-free. The moves are symmetric and are
  accepted by membership alone, so every step keeps the uniform distribution over the layouts
  they can reach (on the small boards the tests enumerate, every guess-free layout); the chain
  forgets the perturb sampler's bias as it runs. Each move is judged by resuming the current
  layout's solve from the last point the move cannot have changed (:class:`_Trail`). Its
  distance from uniform is measured, not zero: see ``benchmarks/bench_uniformity.py``.

``auto`` (the default) takes ``exact`` where it is cheap (no window of levels, at most
:data:`EXACT_DENSITY` mines per cell outside the start area, at most :data:`EXACT_CELLS`
cells: the standard levels and boards like them); there, when :data:`AUTO_EXACT_LAYOUTS`
layouts in a row (or ``budget``, if more) are not guess-free, it goes on with ``perturb``.
:attr:`Generated.sampler` names the sampler that made each board.

With a window of levels ``[min_level, max_level]``, the hardest step of the solve (the engine
taking the lowest level at each step, the board's grade) must be within it. A window that allows
the mine total (level 5) is met by luck: boards are made with the levels up to ``max_level`` and
those graded below ``min_level`` are dropped (on the standard sizes one board in three to ten
needs the total). Below it, luck is too rare (about one board in a thousand needs a case
analysis and no more), so a hard point is sought first: a random layout whose solve with the
levels below the window stops where a level of the window makes progress. The numbers around
it are protected while the rest of the board is made guess-free with the levels up to
``max_level`` (see :func:`_settle_window`).

Every board draws from its own ``random.Random``, so a batch is the same whatever the number of
processes that make it.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from mineproof.analysis.constraints import components_of
from mineproof.bitboard import mask_of
from mineproof.board import Board, Layout, check_room, iter_bits
from mineproof.english import counted
from mineproof.errors import ArgumentError, TooComplexError
from mineproof.logic import LEVEL_NAMES, Engine, SwapCheck, forced_up_to

__all__ = [
    "AUTO_EXACT_LAYOUTS",
    "EXACT_CELLS",
    "EXACT_DENSITY",
    "EXACT_LAYOUTS",
    "LAYOUT_PASSES",
    "WORK_PER_BUDGET",
    "Generated",
    "GenerationError",
    "Progress",
    "Sampler",
    "StartRule",
    "check_arguments",
    "choose_sampler",
    "generate",
    "hint_cell",
]

StartRule = Literal["opening", "safe"]

Sampler = Literal["auto", "exact", "perturb", "chain"]
"""How boards are drawn: ``exact`` (rejection, exactly uniform), ``perturb`` (local search, for
dense boards, fast and biased), ``chain`` (a Markov chain from a perturb board, close to
uniform, about a second per dense expert board), ``auto`` (``exact`` where it is cheap, else
``perturb``; see :func:`choose_sampler`)."""

EXACT_DENSITY = 0.22
"""The most mines per cell outside the start area for which ``auto`` samples exactly: expert
has 0.210 (99 mines on 471 cells). At 0.25 about one expert-sized layout in 40 is guess-free,
at 0.276 (130 mines, opened at the centre) one in 5,000."""

EXACT_CELLS = 1024
"""The most cells for which ``auto`` samples exactly: the share of guess-free layouts falls
exponentially with the area (every region of the board must be free of a forced guess)."""

AUTO_EXACT_LAYOUTS = 2000
"""Fresh layouts ``auto`` draws by rejection before it goes on with ``perturb`` (whatever
``budget`` says, when that is fewer). On the standard levels at least one layout in 11 is
guess-free (expert opened in a corner), so a fall-back, which would make the board not exactly
uniform, has a probability below 1e-80 there; with 40 layouts, 1.9 % of expert boards opened in
a corner fell back. Long boards of the same density can be far worse (100x10 with 218 mines:
none in 600), where the 2,000 layouts cost about 1.5 s before ``perturb`` takes over."""

EXACT_LAYOUTS = 1000
"""Fresh layouts ``exact`` draws per unit of ``budget`` (200,000 at the default 200), enough
for the rare boards it is asked for. Opened at the centre, about one beginner layout in 24,000
is guess-free with a case analysis as its hardest step (and nothing harder), one expert layout
in 6,000, and one 30x16 layout with 130 mines in 5,000 is guess-free: the budget fails to find
them with a probability of 2e-4, 1e-15 and 1e-17. A layout costs about 0.1 ms on beginner and
up to 1 ms on expert with a window, so the whole budget is 20 s to a few minutes of work (see
the README's ``generate``)."""

WORK_PER_BUDGET = 3_000_000
"""Units of work per unit of ``budget`` (6e8 at the default 200), shared by the whole search
for one board: every change and step of a solve (the search's, the verification's, the
grading's) costs the board's cells plus :data:`STEP_OVERHEAD`, about one pass over the board,
and every fresh layout :data:`LAYOUT_PASSES` times that. A unit is 15 to 65 millionths of a
CPU second on one core (measured from 9x9 to 255x255), so the default budget is about 10 to 40 s
of CPU: 255x255 with 26,000 mines ends in its error within it, where a layout takes minutes of
changes, while 255x255 with 13,000 mines needs 7 % of it and the windows of levels on expert a
few %."""

STEP_OVERHEAD = 256
"""The cost of a unit of work beside the board's cells (see :data:`WORK_PER_BUDGET`): a step
on a small board costs more than its cells say."""

LAYOUT_PASSES = 2
"""Units of work a fresh layout costs (a change or a step costs one): drawing its mines, a
random sample of them and their mask, is about two passes over the board where they are many
(7 ms a layout on 255x255 with 20,000 mines, where the ``exact`` sampler, charged one unit a
layout, took 105 s to spend the default budget)."""

CHAIN_MOVES = 8
"""Moves per mine of the ``chain`` sampler: proposed swaps of a mine with a mine-free cell,
each accepted when the board stays guess-free (see :func:`_chain`)."""

CHAIN_CELLS = 4096
"""The most cells for which the ``chain`` sampler runs: each of its moves solves the whole
board, and it makes :data:`CHAIN_MOVES` moves per mine."""

SEEKING_LAYOUTS = 100
"""Fresh layouts drawn per unit of ``budget`` when a hard point is sought (``min_level`` above
1 and ``max_level`` below 5): most have none and are dropped after one partial solve."""

SEEKING_PERTURBATIONS = 3
"""Perturbations of a layout while a hard point is sought, where the solve below the window
stops without one: a few more stops per layout find hard points about twice as fast as taking
only the first stop of each layout (measured on intermediate boards)."""

AIM = 16
"""Numbers (or cells of a wall of proven mines) a perturbation chooses among."""

GROWN_AFTER = 4
"""On a dense board (more mines than free cells outside the start area), ``perturb`` draws its
fresh layouts uniformly until a quarter of its search is spent (of the layouts, 50 at the
default budget, or of the work budget, which large boards spend first), then grows them (see
:func:`_grown`). Uniform layouts that dense mostly need more changes than a
layout is allowed: from 250 to 430 mines on 30x16, 2 to 6 runs of 8 found no board within the
whole budget, where grown layouts made every board in about a second (see the README's "Dense
boards")."""

GROWN_CELLS_PER_STEP = 512
"""Cells a grown layout adds for the work of one step (one pass over the board): on 255x255,
growing 32,000 cells took 0.06 s of CPU, and the 63 steps it is charged about 0.1 s of the
budget (see :func:`_grown`; a step there is about 1.7 ms)."""

STALLED = 32
"""Perturbations in a row that settle no new cell after which a layout with a hard point is
dropped: what is left to solve is walled in by the protected cells (or needs more than the
window allows). Boards made without a window rarely need more than a dozen."""


class GenerationError(TooComplexError):
    """No guess-free board was found within the work bound (the density may be impossible, or too
    dense for the search, or the window of levels not met).

    What was tried is data as well as words: ``layouts`` fresh layouts drawn, ``changes``
    changes tried (perturbations, chain moves), ``steps`` solve steps, and for exact sampling
    ``guess_free``, how many of the layouts were guess-free (otherwise ``None``).
    """

    def __init__(
        self,
        message: str,
        *,
        size: str = "",
        layouts: int = 0,
        changes: int = 0,
        steps: int = 0,
        guess_free: int | None = None,
    ) -> None:
        super().__init__(message, size=size)
        self.layouts, self.changes, self.steps = layouts, changes, steps
        self.guess_free = guess_free

    def reworded(self, message: str) -> GenerationError:
        """Return the same error (what was tried, as data) with ``message``: a caller's words
        added to the library's."""
        return GenerationError(
            message,
            size=self.size,
            layouts=self.layouts,
            changes=self.changes,
            steps=self.steps,
            guess_free=self.guess_free,
        )


Progress = Callable[[int, int], None]
"""Told the work done so far on one board: ``(layouts, changes)``, the fresh layouts drawn and
the changes tried (perturbations, chain moves). Called after each, so it must be quick."""


class _Watch:
    """The work budget, time limit and progress report of one board.

    Counts the fresh layouts, the changes (perturbations, chain moves) and the solver's steps
    (every step of every solve: the search's, the verification's, the grading's), tells
    ``progress`` of each layout and change, and raises :class:`GenerationError` with the
    message ``failure()`` returns once ``time.monotonic()`` passes ``deadline``, or
    ``failure(spent=...)`` (what was tried) once the work passes ``limit``: each layout,
    change and step costs ``cells``, about one pass over the board.
    """

    __slots__ = (
        "cells",
        "changes",
        "deadline",
        "failure",
        "layouts",
        "limit",
        "progress",
        "steps",
        "work",
    )

    def __init__(
        self,
        deadline: float | None,
        progress: Progress | None,
        failure: Callable[..., str],
        limit: int | None = None,
        cells: int = 1,
    ) -> None:
        self.deadline, self.progress, self.failure = deadline, progress, failure
        self.limit, self.cells = limit, cells
        self.layouts = self.changes = self.steps = self.work = 0

    def layout(self) -> None:
        """Count a fresh layout (:data:`LAYOUT_PASSES` units); raises :class:`GenerationError`
        when the time or the work is up."""
        self._spend(LAYOUT_PASSES)
        self.layouts += 1
        self._tell()

    def change(self) -> None:
        """Count a change; raises :class:`GenerationError` when the time or the work is up."""
        self._spend()
        self.changes += 1
        self._tell()

    def step(self) -> None:
        """Count a step of a solve; raises :class:`GenerationError` when the work is up."""
        self._spend()
        self.steps += 1

    def play(self, engine: Engine, max_level: int, exact_levels: bool = True) -> bool:
        """Return ``engine.play(max_level, exact_levels)``, each step counted (see
        :meth:`step`, which raises)."""
        while not engine.cleared():
            self.step()
            if not engine.step(max_level, exact_levels):
                return False
        return True

    def past(self, share: float) -> bool:
        """Return whether more than ``share`` of the work budget is spent (never, without a
        budget). Raises nothing."""
        return self.limit is not None and self.work > share * self.limit

    def _spend(self, passes: int = 1) -> None:
        # Each change and step costs about one pass over the board's cells, a layout
        # LAYOUT_PASSES; the one that would pass the limit is not made.
        cost = passes * self.cells
        if self.limit is not None and self.work + cost > self.limit:
            raise self.error(self.failure(spent=self.spent()))
        self.work += cost

    def spent(self) -> str:
        """Return what was tried, for the error once the work budget is spent."""
        return (
            f"within the work budget ({counted(self.layouts, 'layout')}, "
            f"{counted(self.changes, 'change')} and {counted(self.steps, 'solve step')} tried)"
        )

    def error(self, message: str, guess_free: int | None = None) -> GenerationError:
        """Return the :class:`GenerationError` with ``message`` and what was tried so far."""
        return GenerationError(
            message,
            layouts=self.layouts,
            changes=self.changes,
            steps=self.steps,
            guess_free=guess_free,
        )

    def _tell(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self.error(self.failure())
        if self.progress is not None:
            self.progress(self.layouts, self.changes)


@dataclass(frozen=True, slots=True)
class Generated:
    """A verified guess-free board: its layout, its start cell, the hardest level of technique
    its solve needs when levels were asked for (otherwise ``None``), and the sampler that made
    it (``exact``, ``perturb``, ``grown``: by ``perturb`` from a grown layout, see
    :func:`_grown`, or ``chain``)."""

    layout: Layout
    start: tuple[int, int]
    level: int | None
    sampler: Literal["exact", "perturb", "grown", "chain"] = "perturb"


def hint_cell(layout: Layout) -> tuple[int, int]:
    """Return the mine-free cell nearest the centre with the lowest number.

    Ties go to the nearest cell to the centre, then to reading order.
    """
    board = layout.board
    numbers = layout.numbers()
    cx, cy = (board.width - 1) / 2, (board.height - 1) / 2
    best = min(
        (n, (x - cx) ** 2 + (y - cy) ** 2, i)
        for i, n in enumerate(numbers)
        if n >= 0
        for x, y in [board.xy(i)]
    )
    return board.xy(best[2])


def _perturb(engine: Engine, rng: random.Random, classes: dict[int, int]) -> bool:
    """Change the layout where the solve is stuck so that it can go on; False if impossible.

    Of up to :data:`AIM` random numbers beside undecided cells, the changes that make one's
    undecided cells all free or all mines (which the number then proves) are tried, fewest
    toggles first. Each toggled cell is paired with a cell of the opposite state with as many
    neighbours (both corners, both on an edge, or both inside), so every move keeps the number
    of mines in corners, on edges and inside; the partner is a covered cell away from the
    opened ones where there is one (where the change is invisible), else any covered cell
    away from the number, else an opened one (which becomes a proven mine). Behind a wall of
    proven mines, with nothing undecided, a random cell of the wall is changed instead.
    """
    covered = engine.full & ~engine.opened & ~engine.protected
    near = engine.board.dilate(engine.opened) & covered
    undecided = near & ~engine.known
    if not undecided:
        # Walled in: open a window in the wall, on a mine with covered cells behind it.
        window = near & engine.board.dilate(covered & ~near) or near
        return any(_swap(engine, rng, classes, 1 << c) for c in _sample(rng, window, AIM))
    options = []
    for c in _sample(rng, engine.opened & engine.board.dilate(undecided), AIM):
        cells = engine.masks[c] & undecided
        for toggles in (cells & engine.mines, cells & ~engine.mines):
            if toggles:
                options.append((toggles.bit_count(), rng.random(), toggles))
    options.sort()
    return any(_swap(engine, rng, classes, toggles) for _, _, toggles in options)


def _sample(rng: random.Random, mask: int, k: int) -> list[int]:
    """Return up to ``k`` distinct random cells of ``mask``."""
    cells = iter_bits(mask)
    return rng.sample(cells, min(len(cells), k))


def _swap(engine: Engine, rng: random.Random, classes: dict[int, int], cells: int) -> bool:
    """Toggle ``cells``, each with a partner (see :func:`_perturb`); False (nothing changed)
    when one of them has none."""
    covered = engine.full & ~engine.opened & ~engine.protected
    around = engine.board.dilate(cells)
    pools = (
        covered & ~engine.board.dilate(engine.opened) & ~engine.known,
        engine.opened & ~engine.protected & ~around,
    )
    taken = cells
    partners = []
    for c in iter_bits(cells):
        wanted = ~engine.mines if engine.mines >> c & 1 else engine.mines
        for pool in pools:
            choices = iter_bits(pool & wanted & ~taken & classes[len(engine.lists[c])])
            if choices:
                partner = rng.choice(choices)
                partners.append(partner)
                taken |= 1 << partner
                break
        else:
            return False
    # Proven mines beside a changed number may no longer be proven: prove again.
    engine.forget_near(taken)
    for c in (*iter_bits(cells), *partners):
        engine.toggle(c)
    return True


@functools.lru_cache(maxsize=8)
def _classes(board: Board) -> dict[int, int]:
    """Return, per neighbour count, the bitmask of the cells with that many neighbours (shared:
    not to be changed; the last few sizes are kept)."""
    out: dict[int, int] = {}
    for i, near in enumerate(board.neighbour_lists()):
        out[len(near)] = out.get(len(near), 0) | 1 << i
    return out


def generate(
    board: Board,
    mines: int,
    rng: random.Random,
    *,
    rule: StartRule = "opening",
    start: tuple[int, int] | None = None,
    max_level: int = 5,
    min_level: int = 0,
    budget: int = 200,
    seconds: float | None = None,
    sampler: Sampler = "auto",
    progress: Progress | None = None,
) -> Generated:
    """Return a verified guess-free board of ``mines`` mines on ``board``, drawn by ``sampler``
    (see :data:`Sampler`; ``exact`` draws at most :data:`EXACT_LAYOUTS` layouts per unit of
    ``budget``, ``auto`` by rejection at least :data:`AUTO_EXACT_LAYOUTS`; ``chain`` takes
    boards of at most :data:`CHAIN_CELLS` cells).

    ``rule`` ``opening`` keeps the start cell and its neighbours free (start: the centre unless
    given); ``safe`` keeps the start cell free (start: given, or the hint cell of the layout).
    ``max_level``/``min_level`` bound the hardest technique the solve needs: the board's grade
    is within them (``max_level`` 1-5; ``min_level`` 0-5, where 0 admits the boards the first
    click clears, grade 0, and 1 excludes them). ``budget`` bounds the work: that many fresh
    layouts, each perturbed up to a number of times that grows with the board
    (:data:`SEEKING_LAYOUTS` times as many when a hard point is sought, most dropped after one
    partial solve); ``seconds``, when given, bounds the time (a board found is the same with or
    without it). ``progress``, when given, is told
    the work done after each fresh layout and each change (see :data:`Progress`). The whole
    search shares one work budget too, ``budget`` times :data:`WORK_PER_BUDGET` units, which
    count the solver's steps as well as the layouts and changes. Raises ``ArgumentError`` for
    bad arguments and :class:`GenerationError` when no board was found within the budget, the
    work budget or the time: its message names the window of levels when one was asked for,
    what was tried when the work budget ran out, and for ``exact`` how many of the layouts
    drawn were guess-free.
    """
    check_arguments(board, mines, rule, start, max_level, min_level)
    check_sampler(board, sampler)
    if start is None and rule == "opening":
        start = ((board.width - 1) // 2, (board.height - 1) // 2)
    deadline = None if seconds is None else time.monotonic() + seconds
    failure = functools.partial(_failure, board, mines, min_level, max_level)
    watch = _Watch(
        deadline, progress, failure, budget * WORK_PER_BUDGET, board.size + STEP_OVERHEAD
    )
    chosen = choose_sampler(board, mines, rule, start, max_level, min_level, sampler)
    if chosen == "exact":
        layouts = budget * EXACT_LAYOUTS if sampler == "exact" else max(budget, AUTO_EXACT_LAYOUTS)
        exact, guess_free = _reject(
            board, mines, rng, rule, start, max_level, min_level, layouts, watch
        )
        if exact is not None:
            return exact
        if sampler == "exact":
            raise watch.error(
                _failure(board, mines, min_level, max_level, layouts, guess_free), guess_free
            )
    found = _search(board, mines, rng, rule, start, max_level, min_level, budget, watch)
    if chosen == "chain":
        return _chain(found, rng, rule, start is not None, max_level, min_level, watch)
    return found


def _search(
    board: Board,
    mines: int,
    rng: random.Random,
    rule: StartRule,
    start: tuple[int, int] | None,
    max_level: int,
    min_level: int,
    budget: int,
    watch: _Watch,
) -> Generated:
    """Return a board made by the ``perturb`` sampler (see :func:`generate`). Raises
    :class:`GenerationError` when none was found within ``budget`` layouts or in the time of
    ``watch``."""
    tries_per_layout = 4 * board.size
    # A window below the mine total seeks a hard point first; one that allows the total is met
    # by luck (see the module's docstring).
    seek = min_level > 1 and max_level < 5
    layouts = budget * SEEKING_LAYOUTS if seek else budget
    area = 0 if start is None else board.start_area(board.index(*start), rule)
    dense = 2 * mines > board.size - area.bit_count()
    share = 1 / GROWN_AFTER
    for n in range(layouts):
        watch.layout()
        grown = dense and (n >= share * layouts or watch.past(share))
        if grown:
            layout, at = _grown(board, mines, rng, rule, start, watch)
        else:
            layout, at = _fresh(board, mines, rng, rule, start)
        args = (layout, at, rule, start is None, max_level, min_level, rng, tries_per_layout, watch)
        if seek:
            found = _settle_window(*args)
        else:
            # A uniform layout of a dense board is dropped once its share is spent, when a grown
            # one can follow: on large boards a single layout's changes would spend the budget.
            cut = dense and not grown and n + 1 < layouts
            found = _settle(*args, share if cut else None)
        if found is not None:
            return Generated(*found, "grown" if grown else "perturb")
    raise watch.error(_failure(board, mines, min_level, max_level, layouts))


def _chain(
    first: Generated,
    rng: random.Random,
    rule: StartRule,
    fixed: bool,
    max_level: int,
    min_level: int,
    watch: _Watch,
) -> Generated:
    """Return the board reached by :data:`CHAIN_MOVES` Metropolis moves per mine from ``first``.

    A move takes a uniformly random mine and a uniformly random mine-free cell, both outside
    the start area (``fixed``: the start cell stays; otherwise the start is each layout's hint
    cell and no cell is kept free), and swaps them when the layout stays guess-free (and its
    grade within the window); otherwise the layout stays as it is. The moves are symmetric and
    accepted by membership alone, so the uniform distribution over the guess-free layouts is
    kept: the longer the chain, the closer the board is to uniform, whatever ``first`` was.

    Raises :class:`GenerationError` once the time of ``watch`` is up.
    """
    layout, at = first.layout, first.start
    board = layout.board
    level = first.level
    area = board.start_area(board.index(*at), rule) if fixed else 0
    outside = board.full_mask & ~area
    mined = iter_bits(layout.mines & outside)
    free = iter_bits(outside & ~layout.mines)
    if not mined or not free:
        return Generated(layout, at, level, "chain")
    swaps = SwapCheck(board)
    window = max_level < 5 or min_level > 1
    trail = _Trail(layout, board.index(*at), watch) if fixed and not window else None
    if trail is not None and not trail.cleared:
        raise AssertionError("the chain started from a layout that is not guess-free")
    for _ in range(CHAIN_MOVES * len(mined)):
        watch.change()
        j, k = rng.randrange(len(mined)), rng.randrange(len(free))
        swapped = 1 << mined[j] | 1 << free[k]
        candidate = Layout(board, layout.mines ^ swapped)
        there = at if fixed else hint_cell(candidate)
        i = board.index(*there)
        if swaps.needs_guess(candidate.mines, area or board.start_area(i, "safe")):
            continue
        if trail is not None:
            if not trail.moved(candidate):
                continue
        elif not _clears(candidate, i, watch):
            continue
        if not window and not _at_least(candidate, i, min_level, watch)[0]:
            continue
        if window:
            graded = _grade(candidate, i, watch)
            if not min_level <= graded <= max_level:
                continue
            level = graded
        layout, at = candidate, there
        mined[j], free[k] = free[k], mined[j]
    return Generated(layout, at, level, "chain")


class _Trail:
    """The complete solver's solve of a layout from its start, state by state, so the solve of
    a layout that differs in a few cells resumes from the last state those cells cannot have
    changed.

    The complete solver's play is a function of the numbers it has opened: up to the first
    step whose opened cells include a changed number (or a moved cell), the solve of the other
    layout goes through the same states. Resuming from there gives the same verdict as a solve
    from the start. ``end`` is the solver where the solve of ``layout`` stopped (its caller may
    go on with it), ``cleared`` whether it cleared the board and ``stopped`` its state there
    (opened cells, proven mines).
    """

    def __init__(self, layout: Layout, start: int, watch: _Watch) -> None:
        self.start, self.watch = start, watch
        states: list[tuple[int, int]] = []
        self._adopt(layout, states, self._play(Engine(layout, start), states))

    def _adopt(self, layout: Layout, states: list[tuple[int, int]], end: Engine) -> None:
        """Make ``layout`` (whose solve went through ``states`` to ``end``) the current one."""
        self.layout, self.states, self.end = layout, states, end
        self.cleared = end.cleared()
        self.stopped = (end.opened, end.known)

    def _play(self, work: Engine, states: list[tuple[int, int]]) -> Engine:
        """Play ``work`` as far as it goes with the complete solver, appending its states;
        return it. Raises :class:`GenerationError` when the work budget is spent."""
        if not work.opened:
            work.reveal(work.start)
        while not work.cleared():
            states.append((work.opened, work.known))
            self.watch.step()
            if not work.step(5, exact_levels=False):
                break
        return work

    def _replay(self, layout: Layout) -> tuple[Engine, list[tuple[int, int]]]:
        """Return the solve of ``layout`` (same board and start) and its states."""
        changed = layout.board.dilate(layout.mines ^ self.layout.mines)
        states = self.states
        low, high = 0, len(states)  # the opened cells only grow along the solve
        while low < high:
            mid = (low + high) // 2
            if states[mid][0] & changed:
                high = mid
            else:
                low = mid + 1
        work = Engine(layout, self.start)
        kept = states[:low]
        if kept:
            work.resume(*kept.pop())
        return self._play(work, kept), kept

    def moved(self, layout: Layout) -> bool:
        """Return whether ``layout`` is cleared from the start; if so it becomes the current
        one."""
        work, states = self._replay(layout)
        if not work.cleared():
            return False
        self._adopt(layout, states, work)
        return True

    def follow(self, layout: Layout) -> Engine:
        """Make ``layout`` the current one and return where its solve stopped."""
        work, states = self._replay(layout)
        self._adopt(layout, states, work)
        return work


def _fresh(
    board: Board, mines: int, rng: random.Random, rule: StartRule, start: tuple[int, int] | None
) -> tuple[Layout, tuple[int, int]]:
    """Return a uniformly random layout with the start area of ``rule`` at ``start`` free, and
    its start cell (without ``start``: any layout, started at its hint cell). Raises
    :class:`GenerationError` when every cell is a mine."""
    if start is not None:
        return Layout.random(board, mines, rng, start, rule), start
    layout = Layout.random(board, mines, rng)
    if layout.mine_count == board.size:
        raise GenerationError("every cell is a mine: there is no safe start cell")
    return layout, hint_cell(layout)


def _grown(
    board: Board,
    mines: int,
    rng: random.Random,
    rule: StartRule,
    start: tuple[int, int] | None,
    watch: _Watch,
) -> tuple[Layout, tuple[int, int]]:
    """Return a layout whose mine-free cells are one piece grown around the start, and its
    start cell (without ``start``: a uniformly random cell). From the start area of ``rule``,
    mine-free cells are added one at a time, each a uniformly random cell beside those already
    free, until all but ``mines`` cells are. Such a piece has few cells beside mines that a
    number cannot reach, where uniform layouts of a dense board are mostly cut into pockets
    no number proves; it is far from uniform. The growth is charged to ``watch`` as it goes, a
    step per :data:`GROWN_CELLS_PER_STEP` cells added (the fresh layout itself was charged by
    the caller). Raises :class:`GenerationError` when the work or the time is up (the caller
    checked that the mines fit)."""
    at = start if start is not None else (rng.randrange(board.width), rng.randrange(board.height))
    area = board.start_area(board.index(*at), rule)
    lists = board.neighbour_lists()
    # 1: free, 2: beside a free cell (in the frontier), 0: neither yet.
    state = bytearray(board.size)
    frontier: list[int] = []

    def border(i: int) -> None:
        """Add the neighbours of the free cell ``i`` that are neither free nor in the frontier."""
        for j in lists[i]:
            if not state[j]:
                state[j] = 2
                frontier.append(j)

    for i in iter_bits(area):
        state[i] = 1  # the whole area first: none of its cells may join the frontier
    for i in iter_bits(area):
        border(i)
    added: list[int] = []
    for n in range(board.size - mines - area.bit_count()):
        if n % GROWN_CELLS_PER_STEP == 0:
            watch.step()
        k = rng.randrange(len(frontier))
        i = frontier[k]
        frontier[k] = frontier[-1]
        frontier.pop()
        state[i] = 1
        added.append(i)
        border(i)
    return Layout(board, board.full_mask & ~(area | mask_of(added))), at


def choose_sampler(
    board: Board,
    mines: int,
    rule: StartRule,
    start: tuple[int, int] | None,
    max_level: int = 5,
    min_level: int = 1,
    sampler: Sampler = "auto",
) -> Literal["exact", "perturb", "chain"]:
    """Return the sampler ``auto`` stands for (any other is returned as it is): ``exact`` when
    there is no window of levels, the board has at most :data:`EXACT_CELLS` cells and at most
    :data:`EXACT_DENSITY` mines per cell outside the start area; else ``perturb``.

    >>> [choose_sampler(Board(30, 16), mines, "opening", None) for mines in (99, 130)]
    ['exact', 'perturb']
    """
    if sampler != "auto":
        return sampler
    if max_level < 5 or min_level > 1 or board.size > EXACT_CELLS:
        return "perturb"
    at = start or ((board.width - 1) // 2, (board.height - 1) // 2)
    room = board.size - board.start_area(board.index(*at), rule).bit_count()
    return "exact" if room and mines <= EXACT_DENSITY * room else "perturb"


def _reject(
    board: Board,
    mines: int,
    rng: random.Random,
    rule: StartRule,
    start: tuple[int, int] | None,
    max_level: int,
    min_level: int,
    layouts: int,
    watch: _Watch,
) -> tuple[Generated | None, int]:
    """Return the first of at most ``layouts`` uniformly random layouts that the complete solver
    clears from its start cell and whose grade is within the window (``None`` when none is), and
    how many of the layouts drawn were guess-free.

    Each layout is dropped at the first point where the solver is stuck (see :func:`_judge`
    for a window). Raises :class:`GenerationError` once the time of ``watch`` is up.
    """
    window = max_level < 5 or min_level > 1
    swaps = SwapCheck(board)
    area = None if start is None else board.start_area(board.index(*start), rule)
    guess_free = 0
    for drawn in range(layouts):
        watch.layout()
        layout, at = _fresh(board, mines, rng, rule, start)
        i = board.index(*at)
        if swaps.needs_guess(layout.mines, board.start_area(i, "safe") if area is None else area):
            continue  # most layouts that need a guess are dropped here, before a solve
        if not window:
            if not _clears(layout, i, watch):
                continue
            guess_free += 1
            if _at_least(layout, i, min_level, watch)[0]:
                return Generated(layout, at, None, "exact"), guess_free
            continue
        # Where most layouts need a guess (expert), the fast complete solve drops them sooner
        # than the window's solve does; where most are guess-free (beginner), it is work twice.
        first = 2 * guess_free < drawn
        if first and not _clears(layout, i, watch):
            continue
        cleared, level = _judge(layout, i, min_level, max_level, watch)
        guess_free += cleared
        if level is not None and (first or _clears(layout, i, watch)):
            return Generated(layout, at, level, "exact"), guess_free
    return None, guess_free


def _judge(
    layout: Layout, i: int, min_level: int, max_level: int, watch: _Watch
) -> tuple[bool, int | None]:
    """Return whether ``layout`` is guess-free from cell ``i``, and its grade when that is
    within ``[min_level, max_level]`` (else ``None``).

    One solve serves both, by the engine taking the lowest level at each step (the grade's):
    a board it clears with the levels below ``min_level`` is too easy, and one it then clears
    with the levels up to ``max_level`` is within the window. Where that stops, the complete
    solver goes on from there, to tell a board too hard from one that needs a guess.
    """
    work = Engine(layout, i)
    work.reveal(i)
    if min_level > 1 and watch.play(work, min_level - 1):
        return True, None
    if watch.play(work, max_level):
        return True, work.hardest if work.hardest >= min_level else None
    return watch.play(work, 5, exact_levels=False), None


def _clears(layout: Layout, i: int, watch: _Watch) -> bool:
    """Return whether the complete solver (with the mine total) clears ``layout`` from cell
    ``i``; it stops at the first point where nothing is forced."""
    work = Engine(layout, i)
    work.reveal(i)
    return watch.play(work, 5, exact_levels=False)


def _opened_at_once(layout: Layout, i: int) -> bool:
    """Return whether the first click at cell ``i`` opens every mine-free cell of ``layout``
    (by its flood fill): the board then needs no deduction, its grade is 0."""
    work = Engine(layout, i)
    work.reveal(i)
    return work.cleared()


def _at_least(layout: Layout, i: int, min_level: int, watch: _Watch) -> tuple[bool, int | None]:
    """Return whether the grade of ``layout`` (guess-free from cell ``i``) is at least
    ``min_level``, and the grade when it took one to tell (``min_level`` 2 or more; below, only
    whether the first click opens everything, grade 0, matters)."""
    if min_level <= 0:
        return True, None
    if min_level == 1:
        return not _opened_at_once(layout, i), None
    graded = _grade(layout, i, watch)
    return graded >= min_level, graded


def _grade(layout: Layout, i: int, watch: _Watch) -> int:
    """Return the hardest level the solve of ``layout`` from cell ``i`` needs, the engine taking
    the lowest level at each step (the board's grade)."""
    graded = Engine(layout, i)
    graded.reveal(i)
    watch.play(graded, 5)
    return graded.hardest


def _settled(work: Engine) -> int:
    """Return how many cells the solve of ``work`` has settled: opened, or proven mines."""
    return (work.opened | work.known).bit_count()


def _settle(
    layout: Layout,
    at: tuple[int, int],
    rule: StartRule,
    hinted: bool,
    max_level: int,
    min_level: int,
    rng: random.Random,
    tries: int,
    watch: _Watch,
    share: float | None = None,
) -> tuple[Layout, tuple[int, int], int | None] | None:
    """Perturb one layout until it verifies, or give up after ``tries`` perturbations (or once
    more than ``share`` of the work budget of ``watch`` is spent, when given).

    The solve goes on after each perturbation from where it was, over numbers that may have
    changed under it; a layout it clears is then verified. With the mine total allowed, the
    search's solve is quick (no exact count where the total cannot bind: pairs of clues settle
    most stuck points) and the verification complete: it resumes the last verified solve
    (:class:`_Trail`) from its last state the changes cannot have touched, and where it stops
    the search goes on. Raises :class:`GenerationError` once the time of ``watch`` is up.
    """
    board = layout.board
    i = board.index(*at)
    protected = board.start_area(i, "opening" if rule == "opening" else "safe")
    exact_levels = max_level < 5  # the mine total allowed: the fastest complete solve
    trail = None if exact_levels else _Trail(layout, i, watch)

    def search(engine: Engine) -> Engine:
        """Return ``engine`` set up for the search: the start area kept, and (the verification
        being complete) no exact count where the mine total cannot bind."""
        engine.protected = protected
        engine.complete = False
        return engine

    if trail is None:
        work = Engine(layout, i, protected)
        work.reveal(i)
    else:
        work = search(trail.end)
    classes = _classes(board)
    best = stalled = 0
    for _ in range(tries):
        watch.change()
        if share is not None and watch.past(share):
            return None
        if watch.play(work, max_level, exact_levels):
            candidate = Layout(board, work.mines)
            hint = hint_cell(candidate) if hinted else at
            if hint != at:
                at = hint
                i = board.index(*at)
                protected = board.start_area(i, "safe")
                if trail is None:
                    work.protected = protected
                    work.start = i
                    work.restart()
                else:
                    trail = _Trail(candidate, i, watch)
                    work = search(trail.end)
                continue
            if trail is not None:
                if candidate.mines != trail.layout.mines:
                    work = search(trail.follow(candidate))
                elif not trail.cleared:
                    # Changes undone: the quick solve used numbers that are no longer there.
                    work.resume(*trail.stopped)
                if trail.cleared:
                    enough, graded = _at_least(candidate, i, min_level, watch)
                    # Below the window only a fresh layout can make the board harder.
                    return (candidate, at, graded) if enough else None
                # The verification stopped short of the quick solve, whose numbers changed under
                # it: the search goes on from where the verification stopped, and its progress
                # counts from there (measured from the quick solve's, it looked stalled: on dense
                # boards, where changes often reach opened cells, every layout was dropped). The
                # changes since the last progress still count towards dropping the layout, but
                # progress past where the verification stopped now counts as progress.
                best = _settled(work)
            else:
                verdict, graded = _verify(candidate, at, max_level, min_level, work.clean, watch)
                if verdict == "ok":
                    return candidate, at, graded
                if verdict == "too easy":
                    return None  # only a fresh layout can make the board harder
                # The quick solve went through with numbers that changed under it, or the
                # ladder grades higher than the quick solver: replay from the start cell.
                work.restart()
                if watch.play(work, max_level, exact_levels):
                    return None
        settled = _settled(work)
        best, stalled = (settled, 0) if settled > best else (best, stalled + 1)
        if stalled > STALLED:
            return None  # the changes no longer help: a fresh layout does better
        if not _perturb(work, rng, classes):
            return None
    return None


def _settle_window(
    layout: Layout,
    at: tuple[int, int],
    rule: StartRule,
    hinted: bool,
    max_level: int,
    min_level: int,
    rng: random.Random,
    tries: int,
    watch: _Watch,
) -> tuple[Layout, tuple[int, int], int | None] | None:
    """Return the board made from one layout whose hardest step is within ``[min_level,
    max_level]`` (``min_level`` at least 2, ``max_level`` at most 4), verified; ``None`` when
    this layout gives none.

    The layout is kept only if it has a hard point: the solve from the start cell with the
    levels below ``min_level`` gets stuck where a level of the window makes progress (a random
    layout has one about once in a few hundred for level 4, far more often for the others).
    Where it stops without one, the layout is perturbed as :func:`_settle` does, up to
    :data:`SEEKING_PERTURBATIONS` times, and a hard point found after changes is sought again
    on a solve from the start cell.

    The hard point is then protected (see :func:`_hard_point`), so no later change touches the
    numbers it shows, and the rest of the board is made guess-free with the levels up to
    ``max_level`` as :func:`_settle` does, up to ``tries`` perturbations (fewer when they stop
    helping: see :data:`STALLED`). While all of it is protected, every solve from the start
    with the levels below the window stops at the hard point again, so the board needs
    ``min_level``. When that blocks the search (a group of clues there is stuck beyond the
    window and only protected cells could change it), only the core stays protected and the
    verification judges whether the board still needs ``min_level``.

    Raises :class:`GenerationError` once the time of ``watch`` is up.
    """
    board = layout.board
    i = board.index(*at)
    base = board.start_area(i, "opening" if rule == "opening" else "safe")
    work = Engine(layout, i, base)
    work.reveal(i)
    classes = _classes(board)
    perturbed = 0
    while True:
        if watch.play(work, min_level - 1):
            return None  # cleared below the window
        core, shell = _hard_point(work, max_level)
        if core and work.clean:
            break
        if core:
            work.restart()  # found after changes: seek it again on a solve from the start
        elif perturbed == SEEKING_PERTURBATIONS or not _perturb(work, rng, classes):
            return None
        else:
            perturbed += 1
    work.protected = base | core | shell
    best = stalled = 0
    for _ in range(tries):
        watch.change()
        if watch.play(work, max_level):
            candidate = Layout(board, work.mines)
            if hinted and hint_cell(candidate) != at:
                return None  # another start cell: the hard point would not hold
            verdict, graded = _verify(candidate, at, max_level, min_level, work.clean, watch)
            if verdict == "ok":
                return candidate, at, graded
            if verdict == "too easy":
                return None  # the shell was released and the hard point is bypassed
            work.restart()
            if watch.play(work, max_level):
                return None
        settled = _settled(work)
        best, stalled = (settled, 0) if settled > best else (best, stalled + 1)
        if stalled > STALLED:
            return None
        if not _walled_in(work) and _perturb(work, rng, classes):
            continue
        if not shell:
            return None
        shell = 0
        work.protected = base | core
    return None


def _hard_point(work: Engine, max_level: int) -> tuple[int, int]:
    """Return the cells to protect where ``work`` is stuck: ``(core, shell)``, both empty when
    no level up to ``max_level`` (at most 4) makes progress there.

    The core is every cell next to a number of the groups of clues where a level up to
    ``max_level`` makes progress: while it is protected those numbers stay as they are. The
    shell is every other cell next to an opened cell.
    """
    unknown = work.full & ~work.opened & ~work.known
    clues = list(work.clue_of.values())
    safe, mine = forced_up_to(max_level, clues, unknown, work.total - work.known.bit_count())
    if not safe | mine:
        return 0, 0
    numbers = 0
    for comp in components_of(clues):
        if comp.mask & (safe | mine):
            for clue in comp.clues:
                numbers |= 1 << clue.cell
    core = work.board.dilate(numbers)
    return core, work.board.dilate(work.opened) & ~core


def _walled_in(work: Engine) -> bool:
    """Return whether some group of clues where ``work`` is stuck can never change: all its
    cells are protected and no covered cell beside them is left to open."""
    unknown = work.full & ~work.opened & ~work.known
    dilate = work.board.dilate
    return any(
        not comp.mask & ~work.protected and not dilate(comp.mask) & unknown & ~comp.mask
        for comp in components_of(list(work.clue_of.values()))
    )


def _failure(
    board: Board,
    mines: int,
    min_level: int,
    max_level: int,
    layouts: int | None = None,
    guess_free: int | None = None,
    spent: str | None = None,
) -> str:
    """Return the one-line message for a search that found no board, after ``layouts`` fresh
    layouts, or ``spent`` (the work budget spent, and what was tried), or (neither given) in the
    time allowed: it names the window of levels when one was asked for, and otherwise says that
    such boards may not exist at this density or be too rare for the search. For exact
    sampling (``guess_free`` given: how many of the layouts were guess-free) it says how many
    were, and that the perturb sampler searches instead."""
    size = f"{board.width}x{board.height} board with {counted(mines, 'mine')}"
    when = spent or ("in the time allowed" if layouts is None else f"after {layouts:,} layouts")
    exact = guess_free is not None
    if exact:
        bounded = min_level > 0 or max_level < 5
        found = f"{guess_free:,} of them guess-free" if guess_free else "none of them guess-free"
        if bounded and guess_free:
            found += ", none within the window"
        when += f" by exact sampling ({found}; --sampler perturb or chain searches)"
    if min_level <= 0 and max_level >= 5:
        if (layouts is None and spent is None) or exact:
            return f"no guess-free {size} found {when}"
        return (
            f"no guess-free {size} found {when}: at this density such boards may not exist "
            "from that start, or be too rare for the search"
        )
    low, high = (f"level {n} ({LEVEL_NAMES.get(n, 'none')})" for n in (min_level, max_level))
    if min_level == max_level:
        window = f"is {low}"
    elif max_level >= 5:
        window = f"is {low} or harder"
    elif min_level <= 0:
        window = f"is at most {high}"
    else:
        window = f"is between {low} and {high}"
    return f"no guess-free {size} whose hardest step {window} found {when}"


def _verify(
    layout: Layout,
    at: tuple[int, int],
    max_level: int,
    min_level: int,
    replayed: bool,
    watch: _Watch,
) -> tuple[Literal["ok", "unsolved", "too easy", "too hard"], int | None]:
    """Return the verdict of the complete solver, and with bounded levels the hardest level the
    solve needs (the engine taking the lowest level at each step, as the ladder does).

    ``replayed`` says the board was just solved from the start cell without any change (by
    the complete engine when ``max_level`` is 5): that solve is the verification.
    """
    i = layout.board.index(*at)
    if not (replayed and max_level >= 5) and not _clears(layout, i, watch):
        return "unsolved", None
    if max_level >= 5 and min_level <= 1:
        return ("ok" if _at_least(layout, i, min_level, watch)[0] else "too easy"), None
    hardest = _grade(layout, i, watch)
    if hardest < min_level:
        return "too easy", hardest
    if hardest > max_level:
        return "too hard", hardest
    return "ok", hardest


def check_sampler(board: Board, sampler: str) -> None:
    """Raise ``ArgumentError`` (its ``name`` ``sampler``) for an unknown sampler, or one that does
    not take boards of this size (``chain``: at most :data:`CHAIN_CELLS` cells)."""
    if sampler not in ("auto", "exact", "perturb", "chain"):
        raise ArgumentError(
            f"unknown sampler {sampler!r} (expected auto, exact, perturb or chain)", name="sampler"
        )
    if sampler == "chain" and board.size > CHAIN_CELLS:
        raise ArgumentError(
            f"the chain sampler takes boards of at most {CHAIN_CELLS:,} cells "
            f"(this one has {board.size:,}); --sampler perturb makes larger ones",
            name="sampler",
        )


def check_arguments(
    board: Board,
    mines: int,
    rule: StartRule,
    start: tuple[int, int] | None,
    max_level: int,
    min_level: int,
) -> None:
    """Raise ``ArgumentError`` for arguments no board can meet: a rule, levels, too many mines;
    its ``name`` is the argument's: ``rule``, ``min_level``, ``max_level``, ``mines``, ``start``.
    """
    if rule not in ("opening", "safe"):
        raise ArgumentError(f"unknown start rule {rule!r} (expected opening or safe)", name="rule")
    for name, level, low in (("min_level", min_level, 0), ("max_level", max_level, 1)):
        if not low <= level <= 5:
            raise ArgumentError(f"level {level} is outside {low}..5", name=name, allowed=(low, 5))
    if min_level > max_level:
        raise ArgumentError(
            f"the least level {min_level} is above the hardest level {max_level}",
            name="min_level",
        )
    if mines < 0:
        raise ArgumentError(f"the mine count {mines} is negative", name="mines")
    if start is not None and not (0 <= start[0] < board.width and 0 <= start[1] < board.height):
        raise ArgumentError(
            f"the start cell ({start[0]}, {start[1]}) is outside the "
            f"{board.width}x{board.height} board",
            name="start",
        )
    if start is not None:
        area = board.start_area(board.index(*start), rule)
        room = board.size - area.bit_count()
        where = f" outside the {rule} start area at ({start[0]}, {start[1]})"
    else:
        centre = ((board.width - 1) // 2, (board.height - 1) // 2)
        area = board.start_area(board.index(*centre), rule)
        room = board.size - area.bit_count()
        where = f" outside the {rule} start area" if rule == "opening" else ""
    check_room(board, mines, room, where)
