"""The games of the web app, without HTTP: create, move, hint, probabilities, statistics.

The server keeps each game's mine layout; what leaves this module for a game in progress is only
what the player has revealed (:meth:`Games.view`), and analyses of that view. A game's layout is
drawn at its first click: a guess-free board generated from that cell (the default), or a
uniformly random one; in both the first click is an opening. Every move is stored, so a game in
progress survives a restart of the server.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mineproof.analysis import analyze
from mineproof.board import LEVELS, Board, Layout, iter_bits
from mineproof.errors import (
    ArgumentError,
    GameOverError,
    IllegalMoveError,
    NotFoundError,
)
from mineproof.explain import LANGUAGES, hint, level_label
from mineproof.game import Game
from mineproof.generate import GenerationError, generate
from mineproof.position import COVERED, Position
from mineproof.web.store import GameRow, Store

__all__ = [
    "LEVELS",
    "MAX_SIDE",
    "GameNotFound",
    "Games",
    "MoveResult",
    "check_lang",
    "check_size",
    "hint_json",
]

MAX_SIDE = 100
"""The largest custom board side the web app plays (generation stays well under a second)."""

_GENERATE_S = 10.0  # a guess-free board not found in this time is refused (422), not waited for


class GameNotFound(NotFoundError):
    """No game has this id (or it was never stored)."""


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What a move did: the game's view afterwards, whether the move was a guess (it opened a
    cell that the numbers and the mine total did not prove safe), and, for a guess made while
    a forced move existed, the hint that shows that move (``tutor``)."""

    view: dict[str, Any]
    guess: bool
    tutor: dict[str, Any] | None


class _Live:
    """A game in memory: its stored row, the rules object once a layout exists, and a lock."""

    __slots__ = ("game", "lock", "row")

    def __init__(self, row: GameRow) -> None:
        self.row = row
        self.lock = threading.Lock()
        self.game: Game | None = None
        if row.layout is not None:
            board = Board(row.width, row.height)
            game = Game(Layout(board, int(row.layout, 16)))
            for kind, x, y in row.moves:
                _apply(game, kind, x, y)
            self.game = game


def _apply(game: Game, kind: str, x: int, y: int) -> None:
    """Play one stored move on ``game``."""
    if kind == "open":
        game.reveal(x, y)
    elif kind == "chord":
        game.chord(x, y)
    elif kind == "flag":
        game.flag(x, y)
    else:
        game.unflag(x, y)


def check_size(level: str, width: int, height: int, mines: int) -> tuple[int, int, int]:
    """Return the board of ``level`` (its standard size, or the custom size given).

    Raises ``ArgumentError`` for an unknown level, a side outside 2..``MAX_SIDE`` or a mine count
    that does not fit outside the opening of the first click.
    """
    if level in LEVELS:
        return LEVELS[level]
    if level != "custom":
        raise ArgumentError(f"unknown level {level!r} (expected {', '.join(LEVELS)} or custom)")
    for name, side in (("width", width), ("height", height)):
        if not 2 <= side <= MAX_SIDE:
            raise ArgumentError(f"the {name} {side} is outside 2..{MAX_SIDE}", name=name)
    room = width * height - min(width, 3) * min(height, 3)
    if not 1 <= mines <= room:
        raise ArgumentError(
            f"{mines} mines do not fit on a {width}x{height} board with an opening first click "
            f"(1 to {room})"
        )
    return width, height, mines


class Games:
    """Every game of one data directory: the ones in memory and the ones in the store.

    ``clock`` gives the time in seconds and ``seeds`` the seed of each new game's layout
    (random by default; injected by tests to make games reproducible, never the game ids).
    Thread-safe: moves on one game are serialised by the game's lock; different games proceed
    in parallel.
    """

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], str] = lambda: secrets.token_hex(16),
    ) -> None:
        self._store = store
        self._clock = clock
        self._seeds = seeds
        self._live: dict[str, _Live] = {}
        self._lock = threading.Lock()

    # --- games ------------------------------------------------------------------------------

    def create(
        self, level: str, width: int = 0, height: int = 0, mines: int = 0, guess_free: bool = True
    ) -> dict[str, Any]:
        """Start a game and return its view; its id is unguessable (128 random bits).

        Raises ``ArgumentError`` for a bad level or size (see :func:`check_size`).
        """
        width, height, mines = check_size(level, width, height, mines)
        row = GameRow(
            id=secrets.token_urlsafe(16),
            level=level,
            width=width,
            height=height,
            mines=mines,
            guess_free=guess_free,
            seed=self._seeds(),
            created=self._clock(),
        )
        self._store.save(row)
        live = _Live(row)
        with self._lock:
            self._live[row.id] = live
        return self._view(live)

    def _get(self, game_id: str) -> _Live:
        """Return the game ``game_id``, loading it from the store after a restart.

        Raises :class:`GameNotFound`.
        """
        with self._lock:
            live = self._live.get(game_id)
        if live is not None:
            return live
        row = self._store.load(game_id)
        if row is None:
            raise GameNotFound(f"no game {game_id!r}")
        with self._lock:
            return self._live.setdefault(game_id, _Live(row))

    def view(self, game_id: str) -> dict[str, Any]:
        """Return what the player of game ``game_id`` sees; raises :class:`GameNotFound`."""
        live = self._get(game_id)
        with live.lock:
            return self._view(live)

    def _view(self, live: _Live) -> dict[str, Any]:
        """Return the player's view: size, state, cells (rows of -1 covered, -2 flag, 0-8),
        mines left, time, guesses; the mines only once the game is over."""
        row, game = live.row, live.game
        now = self._clock()
        end = now if row.finished is None else row.finished
        elapsed = 0.0 if row.started is None else end - row.started
        out: dict[str, Any] = {
            "id": row.id,
            "level": row.level,
            "width": row.width,
            "height": row.height,
            "mines": row.mines,
            "guess_free": row.guess_free,
            "state": row.state,
            "mines_left": row.mines if game is None else game.mines_left,
            "elapsed": round(elapsed, 3),
            "guesses": row.guesses,
            "moves": len(row.moves),
        }
        if game is None:
            out["cells"] = _blank(row).rows()
            return out
        out["cells"] = game.position().rows()
        if game.is_over:
            board = game.board
            out["mine_cells"] = [list(board.xy(i)) for i in iter_bits(game.layout.mines)]
            out["exploded"] = None if game.exploded is None else list(board.xy(game.exploded))
            out["wrong_flags"] = [
                list(board.xy(i)) for i in iter_bits(game.flag_mask & ~game.layout.mines)
            ]
        return out

    # --- moves ------------------------------------------------------------------------------

    def move(self, game_id: str, kind: str, x: int, y: int, lang: str = "en") -> MoveResult:
        """Play ``kind`` (``open``, ``flag`` — which toggles —, or ``chord``) at ``(x, y)``.

        Returns the :class:`MoveResult`. Raises :class:`GameNotFound`, ``ArgumentError`` for an
        unknown move or language, ``IllegalMoveError`` outside the board, after the end or for
        a flag on an opened cell, and :class:`~mineproof.generate.GenerationError` when no
        guess-free board could be made from the first click.
        """
        if kind not in ("open", "flag", "chord"):
            raise ArgumentError(f"unknown move {kind!r} (expected open, flag or chord)")
        check_lang(lang)
        live = self._get(game_id)
        with live.lock:
            row = live.row
            if not (0 <= x < row.width and 0 <= y < row.height):
                raise IllegalMoveError(
                    f"cell ({x}, {y}) is outside the {row.width}x{row.height} board", cell=(x, y)
                )
            if row.state in ("won", "lost"):
                raise GameOverError(f"the game is over ({row.state})")
            if live.game is None:
                if kind != "open":
                    return MoveResult(self._view(live), False, None)
                live.game = Game(self._first_layout(row, x, y))
                row.layout = format(live.game.layout.mines, "x")
                row.started = self._clock()
                row.state = "playing"
                guess, tutor = False, None
            else:
                guess, tutor = self._judge(live.game, kind, x, y, lang)
            game = live.game
            if kind == "flag":
                if game.flag_mask >> (y * row.width + x) & 1:
                    game.unflag(x, y)
                    kind = "unflag"
                else:
                    game.flag(x, y)
            else:
                _apply(game, kind, x, y)
            row.moves.append((kind, x, y))
            row.guesses += guess
            if game.is_over:
                row.state = game.state
                row.finished = self._clock()
            self._store.save(row)
            return MoveResult(self._view(live), guess, tutor)

    def _first_layout(self, row: GameRow, x: int, y: int) -> Layout:
        """Return the layout drawn at the first click ``(x, y)``: guess-free from that cell, or
        uniformly random, with the cell and its neighbours free in both."""
        board = Board(row.width, row.height)
        rng = random.Random(f"mineproof-web:{row.seed}")
        if not row.guess_free:
            return Layout.random(board, row.mines, rng, start=(x, y), rule="opening")
        try:
            return generate(
                board, row.mines, rng, rule="opening", start=(x, y), budget=40, seconds=_GENERATE_S
            ).layout
        except GenerationError as exc:
            raise GenerationError(f"{exc}; try another first cell or fewer mines") from exc

    def _judge(
        self, game: Game, kind: str, x: int, y: int, lang: str
    ) -> tuple[bool, dict[str, Any] | None]:
        """Return whether the move opens a cell that is not proven safe, and the hint to show
        when it does although a forced move existed (flags are not trusted)."""
        if kind == "flag":
            return False, None
        position = game.position()
        i = y * position.width + x
        if kind == "open":
            targets = 1 << i if position.covered_mask >> i & 1 else 0
        else:
            targets = 0
            for n in game.chord_cells(x, y):
                targets |= 1 << n
        if not targets:
            return False, None
        analysis = analyze(position)
        if not targets & ~analysis.safe_mask:
            return False, None
        forced = analysis.safe_mask | (analysis.mine_mask & ~position.flag_mask)
        if not forced:
            return True, None
        return True, hint_json(position, lang)

    # --- help -------------------------------------------------------------------------------

    def hint(self, game_id: str, lang: str = "en") -> dict[str, Any]:
        """Return the next hint for game ``game_id`` in ``lang`` (see
        :class:`~mineproof.explain.Hint`); flags count only when the numbers prove them.

        Raises :class:`GameNotFound`, ``ArgumentError`` for an unknown language and
        ``IllegalMoveError`` when the game is over.
        """
        check_lang(lang)
        return hint_json(self._playing(game_id), lang)

    def probabilities(self, game_id: str) -> dict[str, Any]:
        """Return the exact mine probability of every cell of game ``game_id`` (rows of floats,
        ``None`` for opened cells), with the cells proven safe or mined.

        Raises :class:`GameNotFound`, and ``IllegalMoveError`` when the game is over.
        """
        analysis = analyze(self._playing(game_id))
        data = analysis.to_json()
        return {k: data[k] for k in ("probabilities", "safe", "mine", "flags")}

    def _playing(self, game_id: str) -> Position:
        """Return the player's position of a game that is not over."""
        live = self._get(game_id)
        with live.lock:
            row = live.row
            if row.state in ("won", "lost"):
                raise GameOverError(f"the game is over ({row.state})")
            if live.game is None:
                return _blank(row)
            return live.game.position()

    def stats(self) -> list[dict[str, Any]]:
        """Return the statistics per level and mode (see :meth:`Store.stats`)."""
        return self._store.stats()


def hint_json(
    position: Position, lang: str, trust_flags: bool = False, *, open: bool = True
) -> dict[str, Any]:
    """Return the hint for ``position`` as JSON data (see :meth:`~mineproof.explain.Hint.to_json`)
    with ``label``, the level of technique in words (empty for a guess), on the hint and on each
    of its ``steps``. In play (``open``, the default) the steps lead to a cell to open."""
    found = hint(position, lang, trust_flags=trust_flags, open=open)
    data = found.to_json()
    data["label"] = "" if found.level == 0 else level_label(found.level, lang)
    for step in data["steps"]:
        step["label"] = level_label(step["level"], lang)
    return data


def _blank(row: GameRow) -> Position:
    """Return the position of a game before its first click: every cell covered."""
    board = Board(row.width, row.height)
    return Position(board, (COVERED,) * board.size, row.mines)


def check_lang(lang: str) -> None:
    """Raise ``ArgumentError`` unless ``lang`` is one of the nine languages."""
    if lang not in LANGUAGES:
        raise ArgumentError(f"unknown language {lang!r} (expected one of {', '.join(LANGUAGES)})")
