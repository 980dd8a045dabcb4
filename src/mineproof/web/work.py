"""The CPU work of the web app: pure functions of picklable arguments, wrapped as :class:`Job`.

Everything a request can start that costs more than a lookup is one of these: drawing a
guess-free layout at a first click, judging whether a move was a guess, a hint, the
probabilities of a game, the analysis of a pasted position. The server runs them in its
:class:`~mineproof.web.pool.Pool` of worker processes; the library API of
:class:`~mineproof.web.games.Games` runs them inline with :meth:`Job.run`.

Each is bounded in work: generation by a number of layouts (:data:`GENERATE_BUDGET`), the
analysis by its own counting budget; in the pool every job also has a CPU-time limit.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mineproof.analysis import analyze
from mineproof.board import Board, Layout
from mineproof.errors import ArgumentError
from mineproof.explain import LANGUAGES, level_label
from mineproof.explain import hint as explain_hint
from mineproof.formats import load_position
from mineproof.generate import GenerationError, generate
from mineproof.position import Position

__all__ = [
    "GENERATE_BUDGET",
    "MAX_TEXT",
    "Job",
    "analyze_text",
    "check_lang",
    "first_layout",
    "heavy_generation",
    "hint_json",
    "judge",
    "probabilities",
]

T = TypeVar("T")

GENERATE_BUDGET = 40
"""Fresh layouts tried for a guess-free board at a first click (each perturbed up to four times
per cell, see :func:`mineproof.generate.generate`). A count of work, not of time: whether a
board is found does not depend on the load of the machine."""

MAX_TEXT = 64 * 1024
"""The longest position text ``/api/analyze`` reads: a 100x100 ms-toollib grid (the largest
the page's editor makes, written with spaces) is about 40,000 characters."""


@dataclass(frozen=True, slots=True)
class Job(Generic[T]):
    """A call ``fn(*args)`` to run in a worker: ``fn`` a module-level function, ``args``
    picklable. ``heavy`` jobs (generation, pasted positions) may not take every worker of the
    pool; ``refusal`` is the message of the ``TooComplexError`` raised when the job spends its
    CPU-time limit in the pool (empty: a generic one)."""

    fn: Callable[..., T]
    args: tuple[Any, ...]
    heavy: bool = False
    refusal: str = ""

    def run(self) -> T:
        """Return ``fn(*args)``, run here (no CPU limit); raises what ``fn`` raises."""
        return self.fn(*self.args)


def check_lang(lang: str) -> None:
    """Raise ``ArgumentError`` unless ``lang`` is one of the nine languages."""
    if lang not in LANGUAGES:
        raise ArgumentError(f"unknown language {lang!r} (expected one of {', '.join(LANGUAGES)})")


def first_layout(
    width: int,
    height: int,
    mines: int,
    guess_free: bool,
    seed: str,
    x: int,
    y: int,
    budget: int = GENERATE_BUDGET,
) -> int:
    """Return the mine mask drawn at the first click ``(x, y)`` of a game seeded ``seed``: a
    guess-free board from that cell (at most ``budget`` layouts tried), or a uniformly random
    one, the cell and its neighbours free in both. The same arguments give the same layout.

    Raises :class:`~mineproof.generate.GenerationError` when no guess-free board was found.
    """
    board = Board(width, height)
    rng = random.Random(f"mineproof-web:{seed}")
    if not guess_free:
        return Layout.random(board, mines, rng, start=(x, y), rule="opening").mines
    try:
        found = generate(board, mines, rng, rule="opening", start=(x, y), budget=budget)
    except GenerationError as exc:
        raise GenerationError(f"{exc}; {_TRY_ELSE}") from exc
    return found.layout.mines


_TRY_ELSE = "try another first cell or fewer mines, or a classic board"


def heavy_generation(width: int, height: int, mines: int) -> bool:
    """Return whether drawing a guess-free board of this size may take long: larger than
    expert (480 cells) or denser than it (21 % of the cells mined). Up to expert a board
    takes milliseconds; beyond, seconds for the largest and densest."""
    return width * height > 480 or 100 * mines > 21 * width * height


def too_dense(width: int, height: int, mines: int) -> str:
    """Return the refusal of a first click whose guess-free board could not be made within the
    CPU-time limit of the pool."""
    return (
        f"no guess-free {width}x{height} board with {mines} mines was found within the work "
        f"allowed; {_TRY_ELSE}"
    )


def judge(position: Position, targets: int, lang: str) -> tuple[bool, dict[str, Any] | None]:
    """Return whether opening ``targets`` (a mask of covered cells) in ``position`` is a guess
    (some target is not proven safe), and, for a guess made while some cell was provably safe,
    the hint that leads to such a cell (flags are not trusted). A guess made when only mines
    were provable gets no hint: the player had nothing safe to open instead."""
    if not targets:
        return False, None
    analysis = analyze(position)
    if not targets & ~analysis.safe_mask:
        return False, None
    if not analysis.safe_mask:
        return True, None
    return True, hint_json(position, lang)


def hint_json(
    position: Position, lang: str, trust_flags: bool = False, *, open: bool = True
) -> dict[str, Any]:
    """Return the hint for ``position`` as JSON data (see :meth:`~mineproof.explain.Hint.to_json`)
    with ``label``, the level of technique in words (empty for a guess), on the hint and on each
    of its ``steps``. In play (``open``, the default) the steps lead to a cell to open."""
    found = explain_hint(position, lang, trust_flags=trust_flags, open=open)
    data = found.to_json()
    data["label"] = "" if found.level == 0 else level_label(found.level, lang)
    for step in data["steps"]:
        step["label"] = level_label(step["level"], lang)
    return data


def hint(position: Position, lang: str) -> dict[str, Any]:
    """Return the hint of a game's position in play (see :func:`hint_json`): it leads to a cell
    to open, through a guess when its steps prove only mines."""
    return hint_json(position, lang)


def probabilities(position: Position) -> dict[str, Any]:
    """Return the exact mine probability of every cell of ``position`` (rows of floats, ``None``
    for opened cells), with the cells proven safe or mined and the flags' status."""
    data = analyze(position).to_json()
    return {k: data[k] for k in ("probabilities", "safe", "mine", "flags")}


def analyze_text(
    text: str, mines: int | None, trust_flags: bool, lang: str, max_side: int
) -> dict[str, Any]:
    """Return the analysis of a pasted position (JSMinesweeper text or an ms-toollib grid) with
    its next hint: ``position`` (size, mines, cells, canonical text), ``analysis``, ``hint``.

    Raises ``FormatError`` for text that is no position, ``ArgumentError`` for a board wider or
    taller than ``max_side`` (the page shows no more), ``InconsistentPositionError`` when no
    arrangement fits and ``TooComplexError`` when the analysis is beyond its budget.
    """
    position = load_position(text.encode(), mines)
    if position.width > max_side or position.height > max_side:
        raise ArgumentError(
            f"the position is {position.width}x{position.height}: the analysis board shows "
            f"sides up to {max_side}",
            name="text",
        )
    analysis = analyze(position, trust_flags=trust_flags)
    return {
        "position": {
            "width": position.width,
            "height": position.height,
            "mines": position.mines,
            "cells": position.rows(),
            "text": position.text(),
        },
        "analysis": analysis.to_json(),
        "hint": hint_json(position, lang, trust_flags, open=False),
    }
