"""Judging one click of a game in the position the player saw just before it.

A click opens cells: one cell (``open``), or a chord on a number whose flags are all placed,
which opens the number's other covered neighbours. It is judged against what the player could
know then, the numbers and the mine total (flags as the player placed them, not trusted), and
against the true layout (did it hit a mine):

- ``start``: the first click, on a board with nothing opened (the clients keep it safe);
- ``forced``: every cell it opens was safe in every arrangement of the mines, with the lowest
  level of technique that proves it (see :func:`lowest_level`);
- ``guess``: some cell it opens may hold a mine, and no covered cell could be proven safe: the
  guess was needed. It comes with its exact chance to hit a mine, whether it was among the
  safest choices and whether it was the ``best`` strategy's pick
  (:func:`mineproof.play.best_guess`);
- ``mistake``: a guess taken while some covered cell could be proven safe, with the deduction
  the player missed (the hint a player would have got, :func:`mineproof.logic.hint_steps`;
  among equally simple ones, the nearest the click) and the lowest level at which a safe
  cell was provable;
- ``unknown``: the position was too complex to count exactly within the work budget, and the
  techniques that need no counting (levels 1 and 2) do not prove the click.

``fatal`` says whether the click opened a mine. Flags the player placed on cells with no mine
are ``wrong_flags``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from mineproof.analysis import (
    ANALYSIS_WORK,
    Analysis,
    CountTooLarge,
    analyze,
    arrangements_free,
    counting_budget,
)
from mineproof.analysis.constraints import Clue, Contradiction, constraints_of, propagate
from mineproof.board import Layout, cell_name, iter_bits
from mineproof.english import counted
from mineproof.errors import ArgumentError, IllegalMoveError, TooComplexError
from mineproof.explain import pick_why
from mineproof.logic import HINT_WORK, closures, hint_steps, known_view, known_view_and_safe
from mineproof.play import (
    BestGuess,
    best_guess,
    opening_chance,
    unavoidable_fifty_fifties,
)
from mineproof.position import Position
from mineproof.review.judgement import Action, Judgement

__all__ = [
    "chord_cells",
    "judge",
    "judge_chord",
    "judge_open",
    "lowest_level",
    "wrong_flags",
]


def chord_cells(position: Position, cell: tuple[int, int]) -> int:
    """Return the bitmask of the cells a chord at ``cell`` opens: the covered unflagged
    neighbours of an opened number with exactly as many flags around it as its value; 0 when
    the chord opens nothing. Raises ``IllegalMoveError`` for a cell outside the board."""
    board = position.board
    i = board.move_index(*cell)
    number = position.cells[i]
    if number <= 0:
        return 0
    near = board.neighbour_masks()[i]
    if (near & position.flag_mask).bit_count() != number:
        return 0
    return near & position.covered_mask & ~position.flag_mask


def wrong_flags(position: Position, layout: Layout) -> int:
    """Return the bitmask of the flags of ``position`` on cells where ``layout`` has no mine."""
    return position.flag_mask & ~layout.mines


def lowest_level(
    position: Position, done: Callable[[int], bool], *, work: int = ANALYSIS_WORK
) -> int:
    """Return the lowest level of technique (1-5) whose proofs satisfy ``done``, or 0.

    The definition, for a position the player saw: the flags the exact analysis proves are
    mines count as known mines, other flags as covered cells (as for a hint:
    :func:`mineproof.logic.known_view`). For each level ``L`` from 1 to 5, the techniques up to
    ``L`` (:func:`mineproof.logic.forced_up_to`, the kernel's one definition of the levels) are
    applied again and again, each cell they prove safe or a mine taken as known, until they
    prove nothing new (:func:`mineproof.logic.closures`): the cells proven safe so far are
    passed to ``done``. The first ``L`` for which ``done`` holds is returned. So a cell has
    level 1 when single numbers prove it one after another, level 2 when two numbers at a time
    are needed somewhere on the way, and level 5 when only the mine total proves it.

    ``done`` is given the bitmask of the cells proven safe; to ask for the level of a cell
    ``i``, pass ``lambda safe: safe >> i & 1``. ``work`` bounds the counting of levels 3 to 5
    (shared by them); past it the remaining levels count as not proving. Raises
    :class:`~mineproof.errors.InconsistentPositionError` for an impossible position.
    """
    view = known_view(position, False)
    cons = constraints_of(view, trust_flags=True)
    return _lowest(cons.clues, cons.unknown, cons.mines, done, work)


def _lowest(
    clues: list[Any], unknown: int, left: int, done: Callable[[int], bool], work: int
) -> int:
    """Return the first level of :func:`~mineproof.logic.closures` whose safe cells satisfy
    ``done`` (0 when none does, or when counting passes ``work`` first)."""
    try:
        with counting_budget(work):
            for level, safe, _ in closures(clues, unknown, left):
                if done(safe):
                    return level
    except CountTooLarge:
        pass
    return 0


def _check(position: Position, layout: Layout) -> None:
    """Raise ``ArgumentError`` when ``layout`` cannot be the layout of ``position``: another
    board, another mine total, or an opened cell that is a mine or shows another number."""
    board = position.board
    if layout.board != board:
        raise ArgumentError(
            f"the layout is {layout.board.width}x{layout.board.height}, "
            f"the position {board.width}x{board.height}"
        )
    if layout.mine_count != position.mines:
        raise ArgumentError(
            f"the layout has {counted(layout.mine_count, 'mine')}, the position says "
            f"{position.mines}"
        )
    numbers = layout.numbers()
    opened = board.full_mask & ~position.covered_mask
    for i in iter_bits(opened):
        if numbers[i] != position.cells[i]:
            x, y = board.xy(i)
            raise ArgumentError(
                f"the position shows {position.cells[i]} at ({x}, {y}) [{cell_name(x, y)}], "
                f"the layout {'a mine' if numbers[i] < 0 else numbers[i]}"
            )


def judge_open(
    position: Position, cell: tuple[int, int], layout: Layout, *, work: int = ANALYSIS_WORK
) -> Judgement:
    """Return the judgement of opening ``cell`` in ``position`` (see :class:`Judgement`).

    ``layout`` is the game's true mine layout, ``work`` the counting budget of each exact count
    (see :data:`~mineproof.analysis.ANALYSIS_WORK`); past it the judgement is ``unknown``
    unless levels 1 and 2 prove the cell. Raises ``IllegalMoveError`` for a cell outside the
    board, an opened or a flagged cell, and ``ArgumentError`` when the layout does not fit the
    position.
    """
    i = position.board.move_index(*cell)
    if not position.covered_mask >> i & 1:
        raise IllegalMoveError(f"{_named(cell)} is already open", cell=cell)
    if position.flag_mask >> i & 1:
        raise IllegalMoveError(f"{_named(cell)} is flagged: it cannot be opened", cell=cell)
    _check(position, layout)
    return judge(position, "open", cell, 1 << i, layout, work=work)


def judge_chord(
    position: Position, cell: tuple[int, int], layout: Layout, *, work: int = ANALYSIS_WORK
) -> Judgement:
    """Return the judgement of a chord on the number at ``cell`` in ``position``: it opens the
    cells of :func:`chord_cells` (see :class:`Judgement`).

    Raises ``IllegalMoveError`` for a cell outside the board or when the chord
    opens nothing (not an opened number, another number of flags around it, or no covered
    cell left around it), and ``ArgumentError`` when the layout does not fit the position.
    """
    opens = chord_cells(position, cell)
    if not opens:
        raise IllegalMoveError(
            f"a chord at {_named(cell)} opens nothing: it needs an opened number with as many "
            "flags around it as its value and a covered cell beside it",
            cell=cell,
        )
    _check(position, layout)
    return judge(position, "chord", cell, opens, layout, work=work)


def _named(cell: tuple[int, int]) -> str:
    return f"({cell[0]}, {cell[1]}) [{cell_name(*cell)}]"


def judge(
    position: Position,
    action: Action,
    cell: tuple[int, int],
    opens: int,
    layout: Layout,
    *,
    work: int = ANALYSIS_WORK,
    analysis: Analysis | None = None,
    exact: bool = True,
    clues: Mapping[int, Clue] | None = None,
) -> Judgement:
    """Return the judgement of a click that opens the covered, unflagged cells of ``opens``,
    without checking that ``layout`` fits ``position`` or that the click is legal (the callers
    above check; a game review knows). ``analysis`` is the exact analysis of ``position``
    (flags not trusted) when the caller has it already. See :func:`judge_open`.

    With ``exact`` False, a click that the numbers within four cells of it prove safe one after
    another (level 1, flags not trusted) is judged ``forced`` at level 1 without the exact
    count: ``counted`` is then False and ``safe_then`` holds only the cells that proof found
    (most clicks of a game are such, and the count of a large board is dearer). ``clues`` are
    then the clues of ``position`` with flags as covered cells, by the cell of their number,
    when the caller keeps them up to date (a game review does).
    """
    # Every judgement starts from the click and what the layout says of it.
    base = Judgement(
        position,
        action,
        cell,
        opens,
        "start",
        fatal=bool(opens & layout.mines),
        wrong_flags=position.flag_mask & ~layout.mines,
    )
    if position.covered_mask == position.board.full_mask:
        return base
    if not exact:
        if clues is None:
            clues = {c.cell: c for c in constraints_of(position).clues}
        near = _proven_near(position, clues, opens)
        if near:
            forced = replace(base, kind="forced", level=1, probability=Fraction(0))
            return replace(forced, lowest=Fraction(0), safe_then=near, counted=False)
    if analysis is None:
        try:
            analysis = analyze(position, work=work)
        except TooComplexError:
            return _uncounted(base)
    safe_then = analysis.safe_mask
    view, _ = known_view_and_safe(position, False, analysis)
    cons = constraints_of(view, trust_flags=True)
    if not opens & ~safe_then:
        level = _lowest(cons.clues, cons.unknown, cons.mines, lambda s: not opens & ~s, work)
        zero = Fraction(0)
        forced = replace(base, kind="forced", probability=zero, lowest=zero, safe_then=safe_then)
        return replace(forced, level=level or 5)
    total = analysis.arrangements
    counts = analysis.mine_counts
    if opens.bit_count() == 1:
        probability = Fraction(counts[opens.bit_length() - 1], total)
    else:
        try:
            free = arrangements_free(position, opens, work=work)
        except TooComplexError:
            return _uncounted(base)
        probability = 1 - Fraction(free, total)
    choices = position.covered_mask & ~position.flag_mask
    lowest = Fraction(min(counts[i] for i in iter_bits(choices)), total)
    guess = replace(base, kind="guess", probability=probability, lowest=lowest)
    if not safe_then:
        weighed = _best(view)
        if weighed is None:
            return replace(guess, best=None)
        trusted, best = weighed
        if opens.bit_count() == 1 and opens != 1 << best.cell:
            clicked = opens.bit_length() - 1
            if best.win is None and best.reason == "fifty-fifty":
                # Any cell of an unavoidable 50/50 is as good a guess (as far as the look ahead
                # can tell): name the one clicked.
                if any(
                    c >> clicked & c >> best.cell & 1 for c in unavoidable_fifty_fifties(trusted)
                ):
                    best = replace(best, cell=clicked)
            elif best.win is not None and _as_good(trusted, best, clicked):
                # An exact search found the clicked cell as good as its own pick: name it.
                best = replace(best, cell=clicked)
        risk = Fraction(trusted.mine_counts[best.cell], trusted.arrangements)
        why = _why(trusted, best.cell) if best.reason == "lookahead" else None
        return replace(guess, best=best, best_probability=risk, best_why=why)
    level = _lowest(cons.clues, cons.unknown, cons.mines, bool, work)
    try:
        missed = tuple(hint_steps(position, work=HINT_WORK, near=opens))
    except TooComplexError:
        missed = ()
    return replace(guess, kind="mistake", level=level or 5, missed=missed, safe_then=safe_then)


_last_best: list[tuple[Position, tuple[Analysis, BestGuess] | None]] = []


_NEAR = 4
"""How far (in king moves) from a click the numbers are that the cheap level-1 proof reads."""


def _proven_near(position: Position, clues: Mapping[int, Clue], cells: int) -> int:
    """Return the cells that the numbers within :data:`_NEAR` cells of ``cells`` prove safe,
    applied one after another (the one-clue rules: level 1), when they prove all of ``cells``;
    0 otherwise. A proof from some numbers holds with all of them: a cell proven so has level 1
    (flags are not trusted here; trusting the proven ones only proves more)."""
    board = position.board
    near = cells
    for _ in range(_NEAR):
        near = board.dilate(near)
    local = [clue for i in iter_bits(near & position.number_mask) if (clue := clues.get(i))]
    try:
        safe, _, _ = propagate(local)
    except Contradiction:  # not a position of a game on this layout: the full way says why
        return 0
    return safe if not cells & ~safe else 0


def _best(view: Position) -> tuple[Analysis, BestGuess] | None:
    """Return the analysis of ``view`` (its flags all proven mines) and the ``best``
    strategy's guess there, or ``None`` past their budgets. The last answer is remembered: the
    clicks a caller compares in one position share it."""
    last = _last_best[:1]
    if last and last[0][0] == view:
        return last[0][1]
    found: tuple[Analysis, BestGuess] | None
    try:
        trusted = analyze(view, trust_flags=True)
        found = trusted, best_guess(trusted)
    except (TooComplexError, ValueError):
        found = None
    _last_best[:] = [(view, found)]
    return found


_last_why: list[tuple[Analysis, int, tuple[str, tuple[int, int] | None]]] = []


def _why(trusted: Analysis, cell: int) -> tuple[str, tuple[int, int] | None]:
    """Return :func:`~mineproof.explain.pick_why` of the best pick ``cell`` in the position of
    ``trusted``; the last answer is remembered, as :func:`_best`'s is."""
    last = _last_why[:1]
    if last and last[0][0] is trusted and last[0][1] == cell:
        return last[0][2]
    found = pick_why(trusted, cell)
    _last_why[:] = [(trusted, cell, found)]
    return found


def _as_good(trusted: Analysis, best: BestGuess, cell: int) -> bool:
    """Return whether opening ``cell`` first in the position of ``trusted`` wins (or clears
    the closed region) as often as ``best``, the exact search's pick; False past the search's
    budget."""
    try:
        chance = opening_chance(trusted, best, cell)
    except TooComplexError:
        return False
    return chance == best.win


def _uncounted(base: Judgement) -> Judgement:
    """Return the judgement of the click of ``base`` in a position too complex to count exactly:
    ``forced`` when levels 1 and 2 prove every cell it opens (flags as covered cells: which
    flags are proven is not known), ``unknown`` otherwise."""
    position, opens = base.position, base.opens
    cons = constraints_of(position)
    safe = 0
    for level, safe, _ in closures(cons.clues, cons.unknown, cons.mines):
        if not opens & ~safe:
            return replace(
                base,
                kind="forced",
                level=level,
                probability=Fraction(0),
                safe_then=safe,
                counted=False,
            )
        if level == 2:
            break
    return replace(base, kind="unknown", safe_then=safe, counted=False)
