"""The games of the web app, without HTTP: create, move, hint, probabilities, statistics.

The server keeps each game's mine layout; what leaves this module for a game in progress is only
what the player has revealed (:meth:`Games.view`), and analyses of that view. A game's layout is
drawn at its first click: a guess-free board generated from that cell (the default; within a
window of levels when a technique is asked for), or a uniformly random one; in both the first
click is an opening, and with ``reveal`` the first rounds of forced moves are made for the
player. Every move is stored before it is answered, so a game in progress survives a restart of
the server.

Rules chosen when a game starts: ``punish_guesses`` (a guess made while a safe cell could be
proven meets a mine: the layout is drawn again, see :func:`mineproof.web.work.judge`) and
``strict_flags`` (a flag on a cell with no mine loses the game). A lost game has a post-mortem
and a finished one a review, both computed as jobs from the stored game.
"""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from mineproof.board import LEVELS, Board, Layout, iter_bits
from mineproof.english import counted
from mineproof.errors import (
    ArgumentError,
    GameNotStartedError,
    GameOverError,
    IllegalMoveError,
    NotFoundError,
    TooComplexError,
)
from mineproof.game import Game
from mineproof.position import COVERED, Position
from mineproof.web.store import GameRow, Store
from mineproof.web.work import (
    GENERATE_BUDGET,
    TECHNIQUES,
    Job,
    StoredGame,
    apply_move,
    check_lang,
    first_layout,
    heavy_generation,
    hint_json,
    judge,
    move_targets,
    postmortem,
    review,
    review_animation,
    too_dense,
    tutor,
)
from mineproof.web.work import hint as work_hint
from mineproof.web.work import probabilities as work_probabilities

__all__ = [
    "GENERATE_BUDGET",
    "IDLE_SECONDS",
    "LEVELS",
    "MAX_CELLS",
    "MAX_REVEAL",
    "MAX_SIDE",
    "MIN_SIDE",
    "MOVES_PER_CELL",
    "TECHNIQUES",
    "GameNotFound",
    "Games",
    "MoveResult",
    "Runner",
    "StoreError",
    "check_lang",
    "check_size",
    "hint_json",
    "stored_game",
]

MIN_SIDE = 2
"""The smallest custom board side the web app plays."""

MAX_SIDE = 100
"""The largest custom board side the web app plays."""

MAX_CELLS = 1_000_000
"""The games kept in memory weigh at most this many cells (each game its cells plus 256): about
a hundred 100x100 games, or two thousand expert ones. Others wait in the store."""

IDLE_SECONDS = 1800.0
"""A game untouched for this long leaves memory (it comes back from the store when asked for)."""

MAX_REVEAL = 3
"""The most rounds of forced moves a gentler start makes for the player."""

POSTMORTEMS_KEPT = 64
"""Post-mortems kept in memory (by game and language): a lost game's page asks again on a
reload or a language switch."""

MOVES_PER_CELL = 10
"""A game takes at most this many moves per cell (flags toggle): replaying a game from the store
stays bounded."""


class GameNotFound(NotFoundError):
    """No game has this id (or it was never stored)."""


class StoreError(RuntimeError):
    """A move (or a new game) could not be written to the store; it was not made: memory and
    the file still agree. The message says why, in one line."""


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What a move did: the game's view afterwards, whether the move was a guess (it opened a
    cell that the numbers and the mine total did not prove safe), and, for a guess made while
    some cell was provably safe, the hint that leads to such a cell (``tutor``)."""

    view: dict[str, Any]
    guess: bool
    tutor: dict[str, Any] | None


class _Changed(Exception):
    """The game changed between the plan of a move and its end (another move came first)."""


class _Live:
    """A game in memory: its stored row (without the list of moves: ``moves`` counts them),
    the rules object once a layout exists, a lock for threads and one for tasks (held by a move
    across the work it waits for), and when it was last used."""

    __slots__ = ("game", "gone", "lock", "moves", "row", "touched", "turn")

    def __init__(self, row: GameRow, now: float) -> None:
        self.row = row
        self.lock = threading.Lock()
        self.turn = asyncio.Lock()
        self.gone = False  # dropped from memory: whoever holds it must fetch the game again
        self.touched = now
        self.game: Game | None = None
        if row.layout is not None:
            self.game = stored_game(row).replay(len(row.moves))
        self.moves = len(row.moves)
        row.moves = []  # replayed: memory keeps the game, the store the moves
        row.times = []

    @property
    def weight(self) -> int:
        """What the game costs in memory, in cells (plus a fixed share for the objects)."""
        return self.row.width * self.row.height + 256

    @property
    def busy(self) -> bool:
        """Whether a move holds the game now."""
        return self.lock.locked() or self.turn.locked()


@dataclass(frozen=True, slots=True)
class _Plan:
    """A move checked against the game, before its work: the work to do (the first layout, or
    the judgement of the move), and the number of moves it was planned after. An ``idle`` move
    changes nothing (a flag or a chord before the first click, an open or a chord that opens no
    cell): it is not made, and not counted or stored as a move."""

    kind: str
    x: int
    y: int
    version: int
    job: Job[Any] | None
    first: bool
    idle: bool = False


def stored_game(row: GameRow) -> StoredGame:
    """Return the stored game ``row`` (with its moves and a layout) as its work needs it.
    Raises ``ArgumentError`` for a game never clicked (it has no layout)."""
    if row.layout is None:
        raise ArgumentError("the game has no layout yet: it was never clicked")
    times = row.times or [None] * len(row.moves)
    return StoredGame(
        row.width,
        row.height,
        row.mines,
        int(row.layout, 16),
        tuple(row.moves),
        tuple(times),
        row.strict,
    )


def check_size(level: str, width: int, height: int, mines: int) -> tuple[int, int, int]:
    """Return the board of ``level`` (its standard size, or the custom size given).

    Raises ``ArgumentError`` for an unknown level, a side outside 2..``MAX_SIDE``, a board that
    the first click's opening fills (``name`` ``size``: both sides 3 or less) or a mine count
    that does not fit outside that opening.
    """
    if level in LEVELS:
        return LEVELS[level]
    if level != "custom":
        raise ArgumentError(
            f"unknown level {level!r} (expected {', '.join(LEVELS)} or custom)", name="level"
        )
    for name, side in (("width", width), ("height", height)):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise ArgumentError(
                f"the {name} {side} is outside {MIN_SIDE}..{MAX_SIDE}",
                name=name,
                allowed=(MIN_SIDE, MAX_SIDE),
            )
    room = width * height - min(width, 3) * min(height, 3)
    if not room:
        raise ArgumentError(
            f"a {width}x{height} board has no room for a mine: the first click opens the 3x3 "
            "cells around it; make one side at least 4",
            name="size",
        )
    if not 1 <= mines <= room:
        raise ArgumentError(
            f"{counted(mines, 'mine')} cannot fit on a {width}x{height} board with an opening "
            f"first click (1 to {room})",
            name="mines",
            allowed=(1, room),
        )
    return width, height, mines


T = TypeVar("T")

Runner = Callable[[Job[Any]], Awaitable[Any]]
"""Runs a job and returns its value: :meth:`mineproof.web.pool.Pool.run` in the server."""


class Games:
    """Every game of one data directory: the ones in memory and the ones in the store.

    ``clock`` gives the time in seconds and ``seeds`` the seed of each new game's layout
    (random by default; injected by tests to make games reproducible, never the game ids).
    ``budget`` is the number of layouts a first click tries for a guess-free board.

    Memory is bounded: a finished game leaves memory with its last move, a game untouched for
    ``idle_seconds`` (by ``clock``) leaves it, and so do the least recently used ones once the
    games in memory weigh more than ``max_cells`` cells. A game that left comes back from the
    store, its moves replayed, when it is asked for.

    The work of a move (the layout of a first click, the judgement of a guess), of a hint and of
    the probabilities is a :class:`~mineproof.web.work.Job`: the methods here run it inline,
    :meth:`move_async` and :meth:`helped_async` with the runner they are given (the server's
    pool). Thread-safe: moves on one game are serialised
    by the game's lock; different games proceed in parallel.
    """

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], str] = lambda: secrets.token_hex(16),
        *,
        budget: int = GENERATE_BUDGET,
        max_cells: int = MAX_CELLS,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self._store = store
        self._clock = clock
        self._seeds = seeds
        self.budget = budget
        self.max_cells = max_cells
        self.idle_seconds = idle_seconds
        self._live: OrderedDict[str, _Live] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        self._postmortems: OrderedDict[tuple[str, str], dict[str, Any] | None] = OrderedDict()

    # --- memory -----------------------------------------------------------------------------

    def in_memory(self) -> int:
        """Return how many games are in memory now."""
        with self._lock:
            return len(self._live)

    def _get(self, game_id: str) -> _Live:
        """Return the game ``game_id``, from memory or else from the store (kept in memory
        unless it is over).

        Raises :class:`GameNotFound`.
        """
        now = self._clock()
        with self._lock:
            live = self._live.get(game_id)
            if live is not None:
                self._live.move_to_end(game_id)
                live.touched = now
                return live
        row = self._store.load(game_id)
        if row is None:
            raise GameNotFound(f"no game {game_id!r}")
        loaded = _Live(row, now)
        if row.state in ("won", "lost"):
            return loaded
        with self._lock:
            live = self._live.get(game_id)
            if live is not None:  # another thread loaded it meanwhile
                return live
            self._live[game_id] = loaded
            self._weight += loaded.weight
            self._evict(now)
            return loaded

    def _drop(self, live: _Live) -> None:
        """Take ``live`` out of memory; whoever waits on it fetches the game again."""
        live.gone = True
        with self._lock:
            if self._live.get(live.row.id) is live:
                del self._live[live.row.id]
                self._weight -= live.weight

    def _evict(self, now: float) -> None:
        """Drop the least recently used games while memory is over its bound, and the games
        idle for too long (called with the lock held; a game a move holds is kept)."""
        for _ in range(len(self._live)):
            game_id, oldest = next(iter(self._live.items()))
            if self._weight <= self.max_cells and now - oldest.touched < self.idle_seconds:
                return
            if oldest.busy:
                self._live.move_to_end(game_id)
                continue
            del self._live[game_id]
            self._weight -= oldest.weight
            oldest.gone = True

    # --- games ------------------------------------------------------------------------------

    def create(
        self,
        level: str,
        width: int = 0,
        height: int = 0,
        mines: int = 0,
        guess_free: bool = True,
        *,
        punish_guesses: bool = False,
        strict_flags: bool = False,
        technique: str = "any",
        reveal: int = 0,
    ) -> dict[str, Any]:
        """Start a game and return its view; its id is unguessable (128 random bits).

        ``punish_guesses`` and ``strict_flags`` are its rules (see the module's docstring),
        ``technique`` the window of levels of its board (one of :data:`TECHNIQUES`, guess-free
        boards only) and ``reveal`` the rounds of forced moves made after the first click
        (0 to :data:`MAX_REVEAL`).

        Raises ``ArgumentError`` for a bad level, size (see :func:`check_size`), technique or
        reveal, and :class:`StoreError` when the game cannot be stored.
        """
        width, height, mines = check_size(level, width, height, mines)
        if technique not in TECHNIQUES:
            raise ArgumentError(
                f"unknown technique {technique!r} (expected {', '.join(TECHNIQUES)})",
                name="technique",
            )
        if technique != "any" and not guess_free:
            raise ArgumentError(
                "a board by technique is a guess-free board: ask for guess_free", name="technique"
            )
        if not 0 <= reveal <= MAX_REVEAL:
            raise ArgumentError(
                f"reveal {reveal} is outside 0..{MAX_REVEAL}",
                name="reveal",
                allowed=(0, MAX_REVEAL),
            )
        now = self._clock()
        row = GameRow(
            id=secrets.token_urlsafe(16),
            level=level,
            width=width,
            height=height,
            mines=mines,
            guess_free=guess_free,
            seed=self._seeds(),
            created=now,
            punish=punish_guesses,
            strict=strict_flags,
            technique=technique,
            reveal=reveal,
        )
        try:
            self._store.create(row)
        except sqlite3.Error as exc:
            raise StoreError(f"the game could not be stored ({exc})") from None
        live = _Live(row, now)
        with self._lock:
            self._live[row.id] = live
            self._weight += live.weight
            self._evict(now)
        return self._view(live)

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
            "punish_guesses": row.punish,
            "strict_flags": row.strict,
            "technique": row.technique,
            "reveal": row.reveal,
            "assists": row.assists,
            "state": row.state,
            "mines_left": row.mines if game is None else game.mines_left,
            "elapsed": round(elapsed, 3),
            "guesses": row.guesses,
            "moves": live.moves,
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
            fatal = game.fatal_flag
            out["fatal_flag"] = None if fatal is None else list(board.xy(fatal))
        return out

    # --- moves ------------------------------------------------------------------------------

    def move(self, game_id: str, kind: str, x: int, y: int, lang: str = "en") -> MoveResult:
        """Play ``kind`` (``open``, ``flag`` — which toggles —, or ``chord``) at ``(x, y)``; its
        work runs here.

        Returns the :class:`MoveResult`. Raises :class:`GameNotFound`, ``ArgumentError`` for an
        unknown move or language, ``IllegalMoveError`` outside the board, for a flag on an
        opened cell or past the game's limit of moves, ``GameOverError`` after the end,
        :class:`~mineproof.generate.GenerationError` when no guess-free board could be made
        from the first click, and :class:`StoreError` when the move cannot be stored (it is
        then not made).
        """
        _check_move(kind, lang)
        live = self._get(game_id)
        with live.lock:
            plan = self._plan(live, kind, x, y, lang)
            outcome = None if plan.job is None else plan.job.run()
            return self._finish(live, plan, outcome)

    async def move_async(
        self, game_id: str, kind: str, x: int, y: int, lang: str, run: Runner
    ) -> MoveResult:
        """Play a move as :meth:`move` does, its work run by ``run`` while other games (and
        requests) go on; moves on one game wait for each other.

        Raises what :meth:`move` raises, and what ``run`` raises (the move is then not made).
        """
        _check_move(kind, lang)
        for _ in range(8):
            live = self._get(game_id)
            async with live.turn:
                if live.gone:
                    continue  # dropped from memory while this move waited: fetch it again
                with live.lock:
                    plan = self._plan(live, kind, x, y, lang)
                outcome = None if plan.job is None else await run(plan.job)
                with live.lock:
                    try:
                        return self._finish(live, plan, outcome)
                    except _Changed:
                        continue
        raise StoreError(f"game {game_id!r} keeps changing under this move; try again")

    def _plan(self, live: _Live, kind: str, x: int, y: int, lang: str) -> _Plan:
        """Check the move against the game and return what it needs done (lock held)."""
        row = live.row
        Board(row.width, row.height).move_index(x, y)
        if row.state in ("won", "lost"):
            raise GameOverError(f"the game is over ({row.state})")
        limit = MOVES_PER_CELL * row.width * row.height
        if live.moves >= limit:
            raise IllegalMoveError(f"the game has reached its limit of {limit} moves")
        game = live.game
        if game is None:
            if kind != "open":
                return _Plan(kind, x, y, live.moves, None, first=False, idle=True)
            args = (
                *(row.width, row.height, row.mines, row.guess_free, row.seed, x, y),
                *(self.budget, row.technique, row.reveal),
            )
            refusal = too_dense(row.width, row.height, row.mines) if row.guess_free else ""
            heavy = row.guess_free and heavy_generation(
                row.width, row.height, row.mines, row.technique
            )
            job: Job[Any] = Job(first_layout, args, heavy=heavy, refusal=refusal)
            return _Plan(kind, x, y, live.moves, job, first=True)
        if kind == "flag":
            return _Plan(kind, x, y, live.moves, None, first=False)
        targets = move_targets(game, kind, x, y)
        if not targets:
            return _Plan(kind, x, y, live.moves, None, first=False, idle=True)
        punish = f"{row.seed}:{live.moves}" if row.punish else None
        work = Job(judge, (game.position(), targets, lang, punish))
        return _Plan(kind, x, y, live.moves, work, first=False)

    def _finish(self, live: _Live, plan: _Plan, outcome: Any) -> MoveResult:
        """Make the planned move with the outcome of its work, store it, and return the result
        (lock held). Raises :class:`_Changed` when the game moved since the plan, and
        :class:`StoreError` when the store refuses the move: the game then leaves memory, so
        memory and the file agree (the move is not made)."""
        if live.gone or live.moves != plan.version:
            raise _Changed
        row = live.row
        kind, x, y = plan.kind, plan.x, plan.y
        guess, tutor = False, None
        now = self._clock()
        made: list[tuple[str, int, int]] = []  # moves made for the player after this one
        if plan.idle:
            return MoveResult(self._view(live), False, None)
        if live.game is None:
            mask, made = outcome
            board = Board(row.width, row.height)
            live.game = Game(Layout(board, mask), strict_flags=row.strict)
            row.layout = format(mask, "x")
            row.started = now
            row.state = "playing"
        elif plan.job is not None:
            guess, tutor, redrawn = outcome
            if redrawn is not None:  # a punished guess: the mine is there now
                live.game.redraw(Layout(live.game.board, redrawn))
                row.layout = format(redrawn, "x")
        game = live.game
        try:
            if kind == "flag":
                if game.flag_mask >> (y * row.width + x) & 1:
                    game.unflag(x, y)
                    kind = "unflag"
                else:
                    game.flag(x, y)
            else:
                apply_move(game, kind, x, y)
            for move in made:
                apply_move(game, *move)
        except BaseException:
            if plan.first:  # the layout was drawn for nothing: forget it
                self._drop(live)
            raise
        row.guesses += guess
        if game.is_over:
            row.state = game.state
            row.finished = now
        moves = [(kind, x, y), *made]
        try:
            self._store.append(row, live.moves, moves, now)
        except sqlite3.Error as exc:
            self._drop(live)  # memory has the move, the file not: memory forgets it
            raise StoreError(f"the move could not be stored ({exc}); it was not made") from None
        live.moves += len(moves)
        view = self._view(live)
        if game.is_over:
            self._drop(live)  # finished: the store keeps it
        return MoveResult(view, guess, tutor)

    # --- help -------------------------------------------------------------------------------

    def hint(self, game_id: str, lang: str = "en") -> dict[str, Any]:
        """Return the next hint for game ``game_id`` in ``lang`` (see
        :class:`~mineproof.explain.Hint`); flags count only when the numbers prove them. It
        counts as help (see :meth:`helped_async`).

        Raises :class:`GameNotFound`, ``ArgumentError`` for an unknown language,
        ``GameOverError`` when the game is over, ``GameNotStartedError`` before its first
        click, and :class:`StoreError` when the help cannot be counted.
        """
        return self._helped(game_id, self.hint_job(game_id, lang).run())

    def hint_job(self, game_id: str, lang: str = "en") -> Job[dict[str, Any]]:
        """Return the work of :meth:`hint`, to run elsewhere (by :meth:`helped_async`, which
        counts it as help); raises as :meth:`hint` does."""
        check_lang(lang)
        return Job(work_hint, (self._playing(game_id), lang))

    def tutor_job(self, game_id: str, move: int, lang: str = "en") -> Job[dict[str, Any] | None]:
        """Return the work of the Tutor's word on the move ``move`` (counted from 0) of game
        ``game_id`` again, in ``lang`` (see :func:`mineproof.web.work.tutor`): the page asks for
        it when its language changes. The Tutor speaks unasked: this is not counted as help.

        Raises :class:`GameNotFound`, and ``ArgumentError`` for an unknown language or a move
        the game has not made.
        """
        check_lang(lang)
        row = self._store.load(game_id)
        if row is None:
            raise GameNotFound(f"no game {game_id!r}")
        if not 0 <= move < len(row.moves):
            raise ArgumentError(
                f"the game has no move {move}: it has made {len(row.moves)}", name="move"
            )
        return Job(tutor, (stored_game(row), move, lang))

    def probabilities(self, game_id: str) -> dict[str, Any]:
        """Return the exact mine probability of every cell of game ``game_id`` (rows of floats,
        ``None`` for opened cells), with the cells proven safe or mined.

        Raises :class:`GameNotFound`, ``GameOverError`` when the game is over,
        ``GameNotStartedError`` before its first click, and :class:`StoreError` when the help
        cannot be counted.
        """
        return self._helped(game_id, self.probabilities_job(game_id).run())

    def probabilities_job(self, game_id: str) -> Job[dict[str, Any]]:
        """Return the work of :meth:`probabilities`, to run elsewhere (by :meth:`helped_async`,
        which counts it as help); raises as it does."""
        return Job(work_probabilities, (self._playing(game_id),))

    async def helped_async(self, game_id: str, job: Job[T], run: Runner) -> T:
        """Return the value of ``job``, help for game ``game_id`` (from :meth:`hint_job` or
        :meth:`probabilities_job`), its work run by ``run``; the game counts it as help (its
        ``assists``) once the value is ready, so help that is never given is not counted: work
        refused by a busy pool, failed, or cancelled because its client left.

        Raises what ``run`` raises, ``GameOverError`` when the game ended meanwhile (the help
        is then neither given nor counted), and :class:`StoreError` when the help cannot be
        counted (nor is it given).
        """
        value: T = await run(job)
        return self._helped(game_id, value)

    def _helped(self, game_id: str, value: T) -> T:
        """Return ``value``, help for game ``game_id``, once it is counted; raises as
        :meth:`_playing` does."""
        self._playing(game_id, assist=True)
        return value

    def _playing(self, game_id: str, assist: bool = False) -> Position:
        """Return the player's position of a game that is not over; with ``assist``, count
        one more help for a game in progress. Raises ``GameOverError`` for a game over,
        ``GameNotStartedError`` before its first click, and :class:`StoreError` when the
        count cannot be stored."""
        live = self._get(game_id)
        with live.lock:
            row = live.row
            if row.state in ("won", "lost"):
                raise GameOverError(f"the game is over ({row.state})")
            if live.game is None:
                raise GameNotStartedError(
                    "the game has not started: its first click, on any cell, opens an area; "
                    "hints and probabilities come after it"
                )
            if assist:
                try:
                    self._store.assist(row.id)
                except sqlite3.Error as exc:
                    raise StoreError(f"the help could not be counted ({exc})") from None
                row.assists += 1
            return live.game.position()

    # --- finished games -----------------------------------------------------------------------

    def _finished(self, game_id: str, lost: bool = False) -> StoredGame:
        """Return the stored game ``game_id``, which must be over (and lost, with ``lost``).

        Raises :class:`GameNotFound`, and ``ArgumentError`` for a game not over (not lost).
        """
        row = self._store.load(game_id)
        if row is None:
            raise GameNotFound(f"no game {game_id!r}")
        wanted = ("lost",) if lost else ("won", "lost")
        if row.state not in wanted:
            raise ArgumentError(
                f"the game is {row.state}: only a {' or '.join(wanted)} game has "
                f"{'a post-mortem' if lost else 'a review'}",
                name="state",
            )
        return stored_game(row)

    async def postmortem_async(self, game_id: str, lang: str, run: Runner) -> dict[str, Any] | None:
        """Return the post-mortem of the lost game ``game_id`` in ``lang`` (see
        :func:`mineproof.web.work.postmortem`), its work run by ``run``; the last
        :data:`POSTMORTEMS_KEPT` are kept. ``None`` when its analysis was too complex.

        Raises :class:`GameNotFound`, ``ArgumentError`` for a game not lost or an unknown
        language, and what ``run`` raises but ``TooComplexError``.
        """
        check_lang(lang)
        key = (game_id, lang)
        with self._lock:
            if key in self._postmortems:
                self._postmortems.move_to_end(key)
                return self._postmortems[key]
        job = Job(postmortem, (self._finished(game_id, lost=True), lang))
        try:
            found: dict[str, Any] | None = await run(job)
        except TooComplexError:
            found = None
        with self._lock:
            self._postmortems[key] = found
            while len(self._postmortems) > POSTMORTEMS_KEPT:
                self._postmortems.popitem(last=False)
        return found

    def review_job(self, game_id: str, lang: str = "en") -> Job[dict[str, Any]]:
        """Return the work of the review of the finished game ``game_id`` (see
        :func:`mineproof.web.work.review`). Raises :class:`GameNotFound`, ``ArgumentError`` for
        a game not over or an unknown language."""
        check_lang(lang)
        return Job(review, (self._finished(game_id), lang), heavy=True)

    def review_gif_job(self, game_id: str) -> Job[bytes]:
        """Return the work of the animated GIF of the finished game ``game_id``; raises as
        :meth:`review_job` does."""
        return Job(review_animation, (self._finished(game_id),), heavy=True)

    def stats(self) -> list[dict[str, Any]]:
        """Return the statistics now (see :func:`mineproof.web.store.stats_rows`)."""
        return self._store.stats(self._clock())


def _check_move(kind: str, lang: str) -> None:
    """Raise ``ArgumentError`` for an unknown move or language."""
    if kind not in ("open", "flag", "chord"):
        raise ArgumentError(f"unknown move {kind!r} (expected open, flag or chord)")
    check_lang(lang)


def _blank(row: GameRow) -> Position:
    """Return the position of a game before its first click: every cell covered."""
    board = Board(row.width, row.height)
    return Position(board, (COVERED,) * board.size, row.mines)
