"""The CPU work of the web app: pure functions of picklable arguments, wrapped as :class:`Job`.

Everything a request can start that costs more than a lookup is one of these: drawing a
guess-free layout at a first click (within a window of levels, with its first forced moves
made), judging whether a move was a guess (and drawing the layout again when a guess is
punished), a hint, the probabilities of a game, the post-mortem of a lost game, the review of a
finished game or of an uploaded replay and its GIF, the analysis of a pasted position. The
server runs them in its :class:`~mineproof.web.pool.Pool` of worker processes; the library API
of :class:`~mineproof.web.games.Games` runs them inline with :meth:`Job.run`.

Each is bounded in work: generation by a number of layouts (:data:`GENERATE_BUDGET`), the
analysis by its own counting budget; in the pool every job also has a CPU-time limit.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mineproof.analysis import analyze, sample_with_a_mine_among
from mineproof.batch import pre_revealed
from mineproof.board import Board, Layout
from mineproof.english import counted
from mineproof.errors import ArgumentError, InconsistentPositionError, TooComplexError
from mineproof.explain import LANGUAGES, after_colon, level_label
from mineproof.explain import hint as explain_hint
from mineproof.formats import load_position
from mineproof.game import Game
from mineproof.generate import Generated, GenerationError, generate
from mineproof.position import Position
from mineproof.review import (
    RecordedGame,
    post_mortem,
    read_file,
    read_game,
    review_game,
    review_gif,
)

__all__ = [
    "GENERATE_BUDGET",
    "MAX_TEXT",
    "TECHNIQUES",
    "WINDOW_BUDGET",
    "ImpossiblePosition",
    "Job",
    "StoredGame",
    "analyze_text",
    "apply_move",
    "check_lang",
    "first_layout",
    "heavy_generation",
    "hint_json",
    "judge",
    "move_targets",
    "postmortem",
    "probabilities",
    "review",
    "review_animation",
    "tutor",
    "upload_review",
    "upload_review_animation",
]

T = TypeVar("T")

GENERATE_BUDGET = 40
"""Fresh layouts tried for a guess-free board at a first click (each perturbed up to four times
per cell, see :func:`mineproof.generate.generate`). A count of work, not of time: whether a
board is found does not depend on the load of the machine."""

WINDOW_BUDGET = 200
"""Fresh layouts tried for a board by technique (a window of levels): a board that needs the
mine total is met by luck, about one layout in ten on intermediate, so 40 layouts fail about
one first click in twenty; 200 take a fraction of a second. The pool's CPU limit bounds the
windows that seek a hard point (levels 3 and 4), which take seconds."""

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
        raise ArgumentError(
            f"unknown language {lang!r} (expected one of {', '.join(LANGUAGES)})", name="lang"
        )


TECHNIQUES: dict[str, tuple[int, int]] = {
    "any": (0, 5),
    "gentle": (0, 2),
    "level3": (3, 3),
    "level4": (4, 4),
    "total": (5, 5),
}
"""The boards by technique a new game may ask for: the window of levels ``(min, max)`` the
board's hardest step must be within (see :func:`mineproof.generate.generate`). ``any``: every
guess-free board; ``gentle``: one or two clues at a time; ``level3``: a combination of clues
needed, nothing harder; ``level4``: a case analysis needed, nothing harder; ``total``: the mine
total needed."""


def first_layout(
    width: int,
    height: int,
    mines: int,
    guess_free: bool,
    seed: str,
    x: int,
    y: int,
    budget: int = GENERATE_BUDGET,
    technique: str = "any",
    reveal: int = 0,
) -> tuple[int, list[tuple[str, int, int]]]:
    """Return the mine mask drawn at the first click ``(x, y)`` of a game seeded ``seed`` and
    the moves made for the player after that click: a guess-free board from that cell whose
    hardest step is within the window of ``technique`` (:data:`TECHNIQUES`; at most ``budget``
    layouts tried, :data:`WINDOW_BUDGET` at least within a window), or a uniformly random one,
    the cell and its neighbours free in both. With ``reveal``, the first ``reveal`` rounds of
    forced moves are made (cells opened, proven mines flagged, see
    :func:`mineproof.batch.pre_revealed`): they are the moves returned. The same arguments give
    the same layout and moves.

    Raises :class:`~mineproof.generate.GenerationError` when no guess-free board was found.
    """
    board = Board(width, height)
    rng = random.Random(f"mineproof-web:{seed}")
    if not guess_free:
        layout = Layout.random(board, mines, rng, start=(x, y), rule="opening")
        found = Generated(layout, (x, y), None)
    else:
        low, high = TECHNIQUES[technique]
        try:
            found = generate(
                board,
                mines,
                rng,
                rule="opening",
                start=(x, y),
                budget=budget if technique == "any" else max(budget, WINDOW_BUDGET),
                min_level=low,
                max_level=high,
            )
        except GenerationError as exc:
            raise exc.reworded(f"{exc}; {_TRY_ELSE}") from exc
    if not reveal:
        return found.layout.mines, []
    return found.layout.mines, _moves_to(found.layout, (x, y), pre_revealed(found, reveal))


def _moves_to(
    layout: Layout, start: tuple[int, int], shown: Position
) -> list[tuple[str, int, int]]:
    """Return the moves after the first click at ``start`` that lead to ``shown``: the cells
    it shows opened and not yet open (flood fill opens others with them), then its flags."""
    game = Game(layout)
    game.reveal(*start)
    board = layout.board
    moves: list[tuple[str, int, int]] = []
    for i, code in enumerate(shown.cells):
        if code >= 0 and not game.opened_mask >> i & 1:
            x, y = board.xy(i)
            game.reveal(x, y)
            moves.append(("open", x, y))
    for i in range(board.size):
        if shown.flag_mask >> i & 1 and game.state == "playing":
            x, y = board.xy(i)
            game.flag(x, y)
            moves.append(("flag", x, y))
    return moves


_TRY_ELSE = "try another first cell or fewer mines, or a classic board"


def heavy_generation(width: int, height: int, mines: int, technique: str = "any") -> bool:
    """Return whether drawing a guess-free board of this size may take long: larger than
    expert (480 cells), denser than it (21 % of the cells mined) or within a window of levels.
    Up to expert a board takes milliseconds; beyond, and in windows, seconds."""
    return technique != "any" or width * height > 480 or 100 * mines > 21 * width * height


def too_dense(width: int, height: int, mines: int) -> str:
    """Return the refusal of a first click whose guess-free board could not be made within the
    CPU-time limit of the pool."""
    return (
        f"no guess-free {width}x{height} board with {counted(mines, 'mine')} was found within "
        f"the work allowed; {_TRY_ELSE}"
    )


def apply_move(game: Game, kind: str, x: int, y: int) -> None:
    """Play one stored move (``open``, ``chord``, ``flag`` or ``unflag``) on ``game``."""
    if kind == "open":
        game.reveal(x, y)
    elif kind == "chord":
        game.chord(x, y)
    elif kind == "flag":
        game.flag(x, y)
    else:
        game.unflag(x, y)


def move_targets(game: Game, kind: str, x: int, y: int) -> int:
    """Return the covered cells a move on ``game`` opens, as a mask: the cell of an ``open``
    (none when it is opened or flagged already), the cells a ``chord`` opens; none for a flag."""
    if kind == "open":
        i = game.board.index(x, y)
        return 0 if (game.opened_mask | game.flag_mask) >> i & 1 else 1 << i
    targets = 0
    if kind == "chord":
        for i in game.chord_cells(x, y):
            targets |= 1 << i
    return targets


def judge(
    position: Position, targets: int, lang: str, punish: str | None = None
) -> tuple[bool, dict[str, Any] | None, int | None]:
    """Return whether opening ``targets`` (a mask of covered cells) in ``position`` is a guess
    (some target is not proven safe), the hint that leads to a safe cell for a guess made
    while some cell was provably safe (flags are not trusted; a guess made when only mines were
    provable gets no hint: the player had nothing safe to open instead), and the layout drawn
    again when the guess is punished (else ``None``).

    ``punish``, when given, is the seed of that draw (the game plays ``punish_guesses``): a
    guess made while a safe cell was provable meets a mine. The hidden layout is drawn again
    among every arrangement that fits what the player sees (numbers and mine total, flags not
    trusted) with a mine on one of the targets that can hold one, each such arrangement
    equally likely (:func:`~mineproof.analysis.sample_with_a_mine_among`); the mine is then
    there whatever the layout was. A cell proven safe is never made a mine, and a guess that
    was needed (no covered cell provably safe, which a guess-free board never asks for) is left
    to the layout as it is. Raises ``TooComplexError`` when the draw passes its budget.
    """
    if not targets:
        return False, None, None
    analysis = analyze(position)
    if not targets & ~analysis.safe_mask:
        return False, None, None
    if not analysis.safe_mask:
        return True, None, None
    if punish is not None:
        rng = random.Random(f"mineproof-web:punish:{punish}")
        return True, None, sample_with_a_mine_among(position, targets & ~analysis.safe_mask, rng)
    return True, hint_json(position, lang), None


def hint_json(
    position: Position, lang: str, trust_flags: bool = False, *, open: bool = True
) -> dict[str, Any]:
    """Return the hint for ``position`` as JSON data (see :meth:`~mineproof.explain.Hint.to_json`)
    with ``label``, the level of technique in words (empty for a guess), and ``labelled``, the
    label and the text as the language writes them in a row (see
    :func:`~mineproof.explain.after_colon`), on the hint and on each of its ``steps``. In play
    (``open``, the default) the steps lead to a cell to open. Raises as
    :func:`~mineproof.explain.hint` does."""
    found = explain_hint(position, lang, trust_flags=trust_flags, open=open)
    data = found.to_json()
    data["label"] = "" if found.level == 0 else level_label(found.level, lang)
    for step in data["steps"]:
        step["label"] = level_label(step["level"], lang)
    for item in (data, *data["steps"]):
        label, text = item["label"], item["text"]
        item["labelled"] = after_colon(label, text, lang) if label else text
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
    its next hint: ``position`` (size, mines, cells, canonical text), ``analysis``, ``hint``
    (``None`` when the hint is too complex to explain, though the analysis counted).

    Raises ``FormatError`` for text that is no position, ``ArgumentError`` for a board wider or
    taller than ``max_side`` (the page shows no more; ``name`` ``side``), a grid without
    ``mines`` or a mine total larger than the covered cells (``name`` ``mines``, with the
    totals ``allowed``),
    :class:`ImpossiblePosition` when no arrangement fits and ``TooComplexError`` when the
    analysis is beyond its budget.
    """
    position = load_position(text.encode(), mines)
    if position.width > max_side or position.height > max_side:
        raise ArgumentError(
            f"the position is {position.width}x{position.height}: the analysis board shows "
            f"sides up to {max_side}",
            name="side",
            allowed=(1, max_side),
        )
    shown = {
        "width": position.width,
        "height": position.height,
        "mines": position.mines,
        "cells": position.rows(),
        "text": position.text(),
    }
    try:
        analysis = analyze(position, trust_flags=trust_flags)
    except InconsistentPositionError as exc:
        raise ImpossiblePosition(exc, shown) from None
    try:
        found: dict[str, Any] | None = hint_json(position, lang, trust_flags, open=False)
    except TooComplexError:
        found = None
    return {"position": shown, "analysis": analysis.to_json(), "hint": found}


class ImpossiblePosition(InconsistentPositionError):
    """A pasted position that no arrangement of mines fits (an ``InconsistentPositionError``
    with the same conflict), holding the position as :func:`analyze_text` answers it
    (``position``): the page shows the position pasted, its conflicting numbers outlined, and
    not the board it showed before."""

    def __init__(self, conflict: InconsistentPositionError, position: dict[str, Any]) -> None:
        super().__init__(
            str(conflict),
            clues=conflict.clues,
            uses_mine_total=conflict.uses_mine_total,
            minimal=conflict.minimal,
        )
        self.position = position

    def to_json(self) -> dict[str, Any]:
        """Return the error as JSON data (see :meth:`~mineproof.errors.MineproofError.to_json`)
        with the pasted ``position``."""
        return {**super().to_json(), "position": self.position}


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game of the web app as its work needs it: size, mines, the layout's mask, the moves
    (``(kind, x, y)``, kind ``open``, ``chord``, ``flag`` or ``unflag``) with their times
    (seconds since the epoch, ``None`` when unknown), and whether ``strict_flags`` ruled it."""

    width: int
    height: int
    mines: int
    layout: int
    moves: tuple[tuple[str, int, int], ...]
    times: tuple[float | None, ...]
    strict: bool

    def replay(self, moves: int) -> Game:
        """Return the game after its first ``moves`` moves, on its layout."""
        game = Game(Layout(Board(self.width, self.height), self.layout), strict_flags=self.strict)
        for kind, x, y in self.moves[:moves]:
            apply_move(game, kind, x, y)
        return game

    def recorded(self) -> RecordedGame:
        """Return the game to review (:func:`mineproof.review.read_game`), times from its first
        move. Raises ``FormatError`` when the moves do not replay."""
        layout = Layout(Board(self.width, self.height), self.layout)
        first = next((t for t in self.times if t is not None), None)
        moves = [
            (None if t is None or first is None else round(t - first, 3), kind, x, y)
            for (kind, x, y), t in zip(self.moves, self.times, strict=True)
        ]
        return read_game(layout, moves, "web", strict_flags=self.strict)


def tutor(game: StoredGame, move: int, lang: str) -> dict[str, Any] | None:
    """Return the Tutor's word on the move ``move`` (counted from 0) of ``game``, in ``lang``:
    what :func:`judge` said when it was made, the hint that leads from the position before it
    to a safe cell when the move opened a cell not proven safe while one could be proven, else
    ``None``. (A game in progress has its layout of the start: only a losing move draws it
    again.)"""
    before = game.replay(move)
    targets = move_targets(before, *game.moves[move])
    return judge(before.position(), targets, lang)[1]


def postmortem(game: StoredGame, lang: str) -> dict[str, Any] | None:
    """Return the post-mortem of a lost game as JSON data (see
    :meth:`mineproof.review.PostMortem.to_json`), or ``None`` when it was not lost."""
    found = post_mortem(game.recorded())
    return None if found is None else found.to_json(lang)


def _review_json(recorded: RecordedGame, lang: str) -> dict[str, Any]:
    """Return the review of ``recorded`` as the page steps through it: ``board`` (width,
    height, mines), ``mine_cells``, ``summary`` and ``clicks`` (see
    :meth:`mineproof.review.GameReview.to_json`), each click with ``revealed``, the cells it
    opened as ``[x, y, number]``, and ``exploded``, the mine it hit (or ``None``). A click's
    ``position`` and ``safe_then`` are left out: the page draws each position from the clicks
    before it, and on a large board they would make the answer grow with the square of the
    game (a 100x100 position is 10,000 characters, at each of thousands of clicks)."""
    reviewed = review_game(recorded)
    data = reviewed.to_json(lang)
    layout = recorded.layout
    board = layout.board
    game = Game(layout, strict_flags=recorded.strict_flags)
    for click, out in zip(recorded.clicks, data["clicks"], strict=True):
        x, y = click.cell
        opened: list[int] = []
        if click.action == "open":
            opened = game.reveal(x, y)
        elif click.action == "chord":
            opened = game.chord(x, y)
        else:
            game.toggle_flag(x, y)
        codes = game.position().cells
        out.pop("position", None)
        out.pop("safe_then", None)
        out["revealed"] = [[*board.xy(i), codes[i]] for i in opened]
        out["exploded"] = None if game.exploded is None else list(board.xy(game.exploded))
    return {
        "board": {"width": board.width, "height": board.height, "mines": layout.mine_count},
        "mine_cells": [list(c) for c in board.mask_to_xy(layout.mines)],
        **data,
    }


def review(game: StoredGame, lang: str) -> dict[str, Any]:
    """Return the review of a finished game of the web app (see :func:`_review_json`)."""
    return _review_json(game.recorded(), lang)


def review_animation(game: StoredGame) -> bytes:
    """Return the review of a finished game of the web app as an animated GIF, as
    ``mineproof review --gif`` makes it. Raises ``ArgumentError`` for a board too large."""
    return review_gif(review_game(game.recorded()))


def upload_review(data: bytes, name: str, lang: str) -> dict[str, Any]:
    """Return the review of an uploaded replay (``name`` gives its format by its extension:
    ``.avf``, ``.mvf``, ``.rmv``, ``.evf`` through ms-toollib in a process of its own, or
    mineproof's ``.json``; see :func:`mineproof.review.read_file`). Raises ``FormatError`` for a
    file that is no readable game and ``ArgumentError`` when ms-toollib is missing."""
    return _review_json(read_file(data, name), lang)


def upload_review_animation(data: bytes, name: str) -> bytes:
    """Return the review of an uploaded replay as an animated GIF; raises as
    :func:`upload_review` does, and ``ArgumentError`` for a board too large."""
    return review_gif(review_game(read_file(data, name)))
