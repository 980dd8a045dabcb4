"""Guess-free boards: layouts a perfect logician clears from the start cell without one guess.

A board starts as a uniformly random layout (the start area kept free). A fast solver, limited
to the allowed technique level, plays it from the start cell; where it gets stuck, one covered
cell on the frontier is toggled (a mine moved out, or one moved in) and a uniformly random cell
of the opposite state in the untouched interior is toggled back, so the mine count stays and the
local density is unchanged in expectation. The solve then continues from where it was. A board
that the fast solver clears is verified from scratch by the complete solver
(:func:`mineproof.solve.solve`) and, when levels are asked for, graded by the technique ladder;
only verified boards are returned.

Every board draws from its own ``random.Random``, so a batch is the same whatever the number of
processes that make it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Literal

from mineproof.board import Board, Layout, iter_bits
from mineproof.errors import FormatError, MineproofError
from mineproof.logic import Engine

__all__ = ["Generated", "GenerationError", "StartRule", "check_arguments", "generate", "hint_cell"]

StartRule = Literal["opening", "safe"]


class GenerationError(MineproofError):
    """No guess-free board was found within the work bound (the density may be impossible)."""


@dataclass(frozen=True, slots=True)
class Generated:
    """A verified guess-free board: its layout, its start cell, and the hardest level of
    technique its solve needs when levels were asked for (otherwise ``None``)."""

    layout: Layout
    start: tuple[int, int]
    level: int | None


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
    """Toggle a covered frontier cell and compensate in the interior; False if impossible.

    The compensating cell has as many neighbours as the toggled one (both corners, both
    on an edge, or both inside), so every move keeps the number of mines in corners, on
    edges and inside: the uniform layout's spread survives the search for a solvable one.
    """
    covered = engine.full & ~engine.opened & ~engine.protected
    near = engine.board.dilate(engine.opened) & covered
    # Usually the undecided frontier; behind a wall of proven mines, the wall itself.
    frontier = near & ~engine.known or near
    cells = iter_bits(frontier)
    if not cells:
        return False
    interior = covered & ~frontier & ~engine.known
    picks = rng.sample(cells, min(len(cells), 16))
    # Partners: the same class in the interior, else the same class anywhere covered, else
    # the same class anywhere outside the start area (an opened cell: the solve restarts).
    # Never another class: that would move mines between corners, edges and inside.
    anywhere = engine.full & ~engine.protected
    for pool in (interior, covered, anywhere):
        for c in picks:
            opposite = pool & ~(1 << c) & (~engine.mines if engine.mines >> c & 1 else engine.mines)
            partners = iter_bits(opposite & classes[len(engine.lists[c])])
            if partners:
                partner = rng.choice(partners)
                engine.toggle(c)
                engine.toggle(partner)
                # Proven mines beside a changed number may no longer be proven: prove again.
                engine.forget_near(1 << c | 1 << partner)
                if engine.opened >> partner & 1:
                    engine.restart()
                return True
    return False


def _classes(board: Board) -> dict[int, int]:
    """Return, per neighbour count, the bitmask of the cells with that many neighbours."""
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
    min_level: int = 1,
    budget: int = 200,
    seconds: float | None = None,
) -> Generated:
    """Return a verified guess-free board of ``mines`` mines on ``board``.

    ``rule`` ``opening`` keeps the start cell and its neighbours free (start: the centre unless
    given); ``safe`` keeps the start cell free (start: given, or the hint cell of the layout).
    ``max_level``/``min_level`` bound the hardest technique the solve needs (1-5). ``budget``
    bounds the work: that many fresh layouts, each perturbed up to a number of times that grows
    with the board; ``seconds``, when given, bounds the time (a board found is the same with or
    without it). Raises ``FormatError`` for bad arguments and :class:`GenerationError` when no
    board was found within the budget or the time.
    """
    check_arguments(board, mines, rule, start, max_level, min_level)
    if start is None and rule == "opening":
        start = ((board.width - 1) // 2, (board.height - 1) // 2)
    tries_per_layout = 4 * board.size
    deadline = None if seconds is None else time.monotonic() + seconds
    for _ in range(budget):
        if start is None:
            layout = Layout.random(board, mines, rng)
            if layout.mine_count == board.size:
                raise GenerationError("every cell is a mine: there is no safe start cell")
            at = hint_cell(layout)
        else:
            layout = Layout.random(board, mines, rng, start, rule)
            at = start
        found = _settle(
            layout, at, rule, start is None, max_level, min_level, rng, tries_per_layout, deadline
        )
        if found is not None:
            return Generated(*found)
    raise GenerationError(
        f"no guess-free {board.width}x{board.height} board with {mines} mines found after "
        f"{budget} layouts: this density may be impossible from that start"
    )


def _settle(
    layout: Layout,
    at: tuple[int, int],
    rule: StartRule,
    hinted: bool,
    max_level: int,
    min_level: int,
    rng: random.Random,
    tries: int,
    deadline: float | None = None,
) -> tuple[Layout, tuple[int, int], int | None] | None:
    """Perturb one layout until it verifies, or give up after ``tries`` perturbations.

    Raises :class:`GenerationError` once ``time.monotonic()`` passes ``deadline``.
    """
    board = layout.board
    i = board.index(*at)
    protected = board.start_area(i, "opening" if rule == "opening" else "safe")
    work = Engine(layout, i, protected)
    classes = _classes(board)
    work.reveal(i)
    exact_levels = max_level < 5 or min_level > 1
    for _ in range(tries):
        if deadline is not None and time.monotonic() > deadline:
            raise GenerationError(
                f"no guess-free {board.width}x{board.height} board with "
                f"{layout.mine_count} mines found in the time allowed"
            )
        if work.play(max_level, exact_levels):
            candidate = Layout(board, work.mines)
            hint = hint_cell(candidate) if hinted else at
            if hint != at:
                at = hint
                i = board.index(*at)
                work.protected = board.start_area(i, "safe")
                work.start = i
                work.restart()
                continue
            verdict, graded = _verify(candidate, at, max_level, min_level, work.clean)
            if verdict == "ok":
                return candidate, at, graded
            if verdict == "too easy":
                return None  # only a fresh layout can make the board harder
            # The quick solve went through with numbers that changed under it, or the ladder
            # grades higher than the quick solver: replay from the start cell.
            work.restart()
            if work.play(max_level, exact_levels):
                return None
        if not _perturb(work, rng, classes):
            return None
    return None


def _verify(
    layout: Layout, at: tuple[int, int], max_level: int, min_level: int, replayed: bool
) -> tuple[Literal["ok", "unsolved", "too easy", "too hard"], int | None]:
    """Return the verdict of the complete solver, and with bounded levels the hardest level the
    solve needs (the engine taking the lowest level at each step, as the ladder does).

    ``replayed`` says the board was just solved from the start cell without any change (by
    the complete engine when ``max_level`` is 5): that solve is the verification.
    """
    i = layout.board.index(*at)
    if not (replayed and max_level >= 5):
        fresh = Engine(layout, i)
        fresh.reveal(i)
        if not fresh.play(5, exact_levels=False):
            return "unsolved", None
    if max_level >= 5 and min_level <= 1:
        return "ok", None
    graded = Engine(layout, i)
    graded.reveal(i)
    graded.play(5)
    if graded.hardest < min_level:
        return "too easy", graded.hardest
    if graded.hardest > max_level:
        return "too hard", graded.hardest
    return "ok", graded.hardest


def check_arguments(
    board: Board,
    mines: int,
    rule: StartRule,
    start: tuple[int, int] | None,
    max_level: int,
    min_level: int,
) -> None:
    """Raise ``FormatError`` for arguments no board can meet: a rule, levels, too many mines."""
    if rule not in ("opening", "safe"):
        raise FormatError(f"unknown start rule {rule!r} (expected opening or safe)")
    if not 1 <= min_level <= max_level <= 5:
        if not 1 <= min_level <= 5 or not 1 <= max_level <= 5:
            raise FormatError("levels go from 1 to 5")
        raise FormatError(f"--min-level {min_level} is above --max-level {max_level}")
    if mines < 0:
        raise FormatError(f"the mine count {mines} is negative")
    if start is not None:
        area = board.start_area(board.index(*start), rule)
        room = board.size - area.bit_count()
        where = f" outside the {rule} start area at ({start[0]}, {start[1]})"
    else:
        centre = ((board.width - 1) // 2, (board.height - 1) // 2)
        area = board.start_area(board.index(*centre), rule)
        room = board.size - area.bit_count()
        where = f" outside the {rule} start area" if rule == "opening" else ""
    if mines > room:
        raise FormatError(
            f"{mines} mines do not fit{where} on a {board.width}x{board.height} board "
            f"(at most {room})"
        )
