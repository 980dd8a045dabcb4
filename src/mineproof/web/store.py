"""Where the web app keeps its games: one SQLite file in the data directory.

A game is stored as what it was created with (size, mines, kind of board and rules, a random
seed), its layout once the first click has drawn it (drawn again by a punished guess: the new
one agrees with every move before), and its moves, one row each with its time, appended as they
are played (a move never rewrites the ones before it). Replaying the moves on the layout gives
back the game exactly, so games in progress survive a restart of the server. Finished games
stay in the file: the statistics are computed from them (see :meth:`Store.stats`).

One server at a time uses a data directory: :class:`Store` holds an exclusive lock on
``DIR/mineproof.lock`` while it is open, and a second one is refused (:class:`StoreInUse`). At
opening the file is checked (a damaged database, or one that cannot be written, is refused
with SQLite's reason) and a file of an earlier version is brought up to date.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "ABANDON_SECONDS",
    "GameRow",
    "Move",
    "PlayedGame",
    "Store",
    "StoreInUse",
    "default_data_dir",
    "read_game",
    "stats_rows",
]

VERSION = 3
"""The schema's version (``PRAGMA user_version``): 0 was the first, with each game's moves as
one JSON list rewritten at every move; 2 keeps a row per move; 3 adds the rules and the board's
technique to a game, the help it had (``assists``), the time of its last move (``touched``),
and the time of each move."""

ABANDON_SECONDS = 86_400.0
"""A game in progress whose last move is older than this (a day) counts as abandoned."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    level TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    mines INTEGER NOT NULL,
    guess_free INTEGER NOT NULL,
    seed TEXT NOT NULL,
    layout TEXT,
    state TEXT NOT NULL,
    guesses INTEGER NOT NULL,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    punish INTEGER NOT NULL DEFAULT 0,
    strict INTEGER NOT NULL DEFAULT 0,
    technique TEXT NOT NULL DEFAULT 'any',
    reveal INTEGER NOT NULL DEFAULT 0,
    assists INTEGER NOT NULL DEFAULT 0,
    touched REAL
);
CREATE INDEX IF NOT EXISTS games_by_level ON games (level, guess_free, state);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    time REAL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""

_V2_COLUMNS = (
    "id, level, width, height, mines, guess_free, seed, layout, state, guesses, created, "
    "started, finished"
)
"""The columns of a game up to schema 2."""

_ADDED = (
    ("games", "punish", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "strict", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "technique", "TEXT NOT NULL DEFAULT 'any'"),
    ("games", "reveal", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "assists", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "touched", "REAL"),
    ("moves", "time", "REAL"),
)
"""The columns schema 3 adds: a file of schema 2 gets them with their defaults (its games were
played without the new rules, their help and times unknown: no assists counted, no times)."""

_COLUMNS = _V2_COLUMNS + ", punish, strict, technique, reveal, assists, touched"

_MARKS = ", ".join("?" * len(_COLUMNS.split(",")))

Move = tuple[str, int, int]


def _make_tables(db: sqlite3.Connection) -> None:
    """Make the tables and index that are missing (in the open transaction)."""
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


@dataclass(slots=True)
class GameRow:
    """One stored game. ``layout`` is the mine bitmask as hex (``None`` before the first
    click); ``moves`` the moves played, each ``(kind, x, y)`` with kind ``open``, ``flag``,
    ``unflag`` or ``chord``, and ``times`` when each was played (``None`` for moves stored
    before schema 3); times are seconds since the epoch. ``punish`` and ``strict`` are the
    rules ``punish_guesses`` and ``strict_flags``, ``technique`` the window of levels the board
    was made for (``any``, ``gentle``, ``level3``, ``level4``, ``total``) and ``reveal`` the
    rounds of forced moves made at the start; ``assists`` counts the hints and probabilities
    asked for during the game, ``touched`` is the time of its last move."""

    id: str
    level: str
    width: int
    height: int
    mines: int
    guess_free: bool
    seed: str
    created: float
    layout: str | None = None
    moves: list[Move] = field(default_factory=list)
    state: str = "new"
    guesses: int = 0
    started: float | None = None
    finished: float | None = None
    punish: bool = False
    strict: bool = False
    technique: str = "any"
    reveal: int = 0
    assists: int = 0
    touched: float | None = None
    times: list[float | None] = field(default_factory=list)

    def _values(self) -> tuple[Any, ...]:
        return (
            self.id,
            self.level,
            self.width,
            self.height,
            self.mines,
            int(self.guess_free),
            self.seed,
            self.layout,
            self.state,
            self.guesses,
            self.created,
            self.started,
            self.finished,
            int(self.punish),
            int(self.strict),
            self.technique,
            self.reveal,
            self.assists,
            self.touched,
        )


class StoreInUse(OSError):
    """Another process (a second ``mineproof play``) has the data directory open."""


def default_data_dir() -> Path:
    """Return the per-user data folder for mineproof (created on first use by :class:`Store`).

    ``$XDG_DATA_HOME/mineproof`` (default ``~/.local/share/mineproof``) on Linux,
    ``~/Library/Application Support/mineproof`` on macOS, ``%APPDATA%\\mineproof`` on Windows.
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        # The XDG spec: a relative path is invalid and must be ignored.
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "mineproof"


def _lock(data_dir: Path) -> int:
    """Return the descriptor of ``DIR/mineproof.lock``, locked for this process alone (the
    lock goes with the descriptor, and with the process if it dies).

    Raises :class:`StoreInUse` when another holds it, ``OSError`` when it cannot be made.
    """
    path = data_dir / "mineproof.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = ""
        with contextlib.suppress(OSError):
            holder = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        who = f" (process {holder})" if holder.isdigit() else ""
        raise StoreInUse(
            errno.EBUSY,
            f"another mineproof play{who} is using this data folder; stop it, or give "
            "another folder with --data",
            str(data_dir),
        ) from None
    try:
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
    except OSError:
        pass  # the pid is only shown to a second server
    return fd


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
    os.close(fd)  # releases a flock


class Store:
    """The games of one data directory, in ``DIR/mineproof.sqlite3``; safe to share between
    threads (one connection behind a lock; each write is its own transaction).

    Raises :class:`StoreInUse` when another process has the directory open, ``OSError`` when
    the directory cannot be created, and ``sqlite3.Error`` when the file is no database, is
    damaged (``PRAGMA quick_check``) or cannot be written.
    """

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "mineproof.sqlite3"
        self._lock = threading.Lock()
        self._fd = _lock(data_dir)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            try:
                self._open()
            except BaseException:
                self._db.close()
                raise
        except BaseException:
            _unlock(self._fd)
            raise

    def _open(self) -> None:
        """Check the file, make or update its tables, and prove it can be written."""
        db = self._db
        db.execute("PRAGMA busy_timeout = 2000")
        problems = [row[0] for row in db.execute("PRAGMA quick_check(3)").fetchall()]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError(
                "the database is damaged: " + "; ".join(" ".join(p.split()) for p in problems)
            )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        with self._transaction():
            version = db.execute("PRAGMA user_version").fetchone()[0]
            columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
            if "moves" in columns:
                self._migrate_from_json_moves()
            elif columns:
                self._add_columns()
            _make_tables(db)
            if version > VERSION:
                raise sqlite3.DatabaseError(
                    f"the database was written by a newer mineproof (schema {version})"
                )
            # Always a write: a file that cannot be written is refused now, not at a move.
            db.execute(f"PRAGMA user_version = {VERSION}")

    def _migrate_from_json_moves(self) -> None:
        """Bring a file of schema 0 (moves as a JSON list per game) to the current schema."""
        db = self._db
        db.execute("ALTER TABLE games RENAME TO games_0")
        db.execute("DROP INDEX IF EXISTS games_by_level")
        _make_tables(db)
        db.execute(f"INSERT INTO games ({_V2_COLUMNS}) SELECT {_V2_COLUMNS} FROM games_0")
        for game_id, moves in db.execute("SELECT id, moves FROM games_0").fetchall():
            db.executemany(
                "INSERT INTO moves (game, seq, kind, x, y) VALUES (?, ?, ?, ?, ?)",
                [(game_id, seq, k, x, y) for seq, (k, x, y) in enumerate(json.loads(moves))],
            )
        db.execute("DROP TABLE games_0")

    def _add_columns(self) -> None:
        """Bring a file of schema 2 to schema 3: add the columns it lacks (see
        :data:`_ADDED`)."""
        db = self._db
        for table, column, kind in _ADDED:
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if have and column not in have:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """Within the block, the statements are one transaction (rolled back on an error)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the database file and release the data directory."""
        with self._lock:
            if self._fd < 0:
                return
            self._db.close()
            _unlock(self._fd)
            self._fd = -1

    def create(self, row: GameRow) -> None:
        """Store the new game ``row`` (without moves). Raises ``sqlite3.Error`` when the write
        fails (nothing is stored)."""
        with self._lock, self._transaction():
            self._db.execute(f"INSERT INTO games ({_COLUMNS}) VALUES ({_MARKS})", row._values())

    def append(self, row: GameRow, seq: int, moves: list[Move], time: float | None) -> None:
        """Store ``moves`` as moves number ``seq``, ``seq + 1``, ... (from 0) of game ``row.id``,
        played at ``time``, and the game's state after them (layout, state, guesses, times), as
        one transaction.

        Raises ``sqlite3.Error`` when the write fails: then nothing of it is stored.
        """
        with self._lock, self._transaction():
            self._db.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)",
                [(row.id, seq + k, kind, x, y, time) for k, (kind, x, y) in enumerate(moves)],
            )
            self._db.execute(
                "UPDATE games SET layout = ?, state = ?, guesses = ?, started = ?, finished = ?, "
                "touched = ? WHERE id = ?",
                (row.layout, row.state, row.guesses, row.started, row.finished, time, row.id),
            )

    def assist(self, game_id: str) -> None:
        """Count one more hint (or look at the probabilities) for game ``game_id``.

        Raises ``sqlite3.Error`` when the write fails.
        """
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET assists = assists + 1 WHERE id = ?", (game_id,))

    def save(self, row: GameRow) -> None:
        """Insert or replace the stored game ``row.id`` with ``row``, moves included."""
        with self._lock, self._transaction():
            self._db.execute(
                f"INSERT OR REPLACE INTO games ({_COLUMNS}) VALUES ({_MARKS})", row._values()
            )
            self._db.execute("DELETE FROM moves WHERE game = ?", (row.id,))
            times = row.times or [None] * len(row.moves)
            self._db.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (row.id, seq, k, x, y, t)
                    for seq, ((k, x, y), t) in enumerate(zip(row.moves, times, strict=True))
                ],
            )

    def load(self, game_id: str) -> GameRow | None:
        """Return the stored game ``game_id`` with its moves, or ``None`` when there is none."""
        with self._lock:
            return _load(self._db, game_id)

    def stats(self, now: float) -> list[dict[str, Any]]:
        """Return the statistics at time ``now``: one row per kind of board and help, in the
        order of :func:`stats_rows` (see there for what each row holds)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT level, width, height, mines, guess_free, technique, reveal, state, "
                "guesses, started, finished, COALESCE(touched, finished, started), assists "
                "FROM games WHERE started IS NOT NULL AND state IN ('won', 'lost', 'playing') "
                "ORDER BY COALESCE(finished, touched, started)"
            ).fetchall()
            newest = self._db.execute("SELECT MAX(created) FROM games").fetchone()[0]
        games = [
            PlayedGame(
                board=(level, width, height, mines, bool(guess_free), technique, reveal),
                state=state,
                guesses=guesses,
                started=started,
                finished=finished,
                last=last,
                assisted=assists > 0,
            )
            for (
                level,
                width,
                height,
                mines,
                guess_free,
                technique,
                reveal,
                state,
                guesses,
                started,
                finished,
                last,
                assists,
            ) in rows
        ]
        return stats_rows(games, now, newest or 0.0)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """What the statistics read of a game that was started: its kind of board (``board``:
    level, width, height, mines, guess-free, technique, reveal), ``state``, ``guesses``, when it
    started and finished, its ``last`` move's time, and whether it had help (``assisted``)."""

    board: tuple[str, int, int, int, bool, str, int]
    state: str
    guesses: int
    started: float
    finished: float | None
    last: float
    assisted: bool

    def abandoned(self, now: float, newest: float) -> bool:
        """Return whether the game counts as abandoned at ``now``: still in progress while
        another game was created after its last move (``newest`` is the latest creation), or
        with no move for :data:`ABANDON_SECONDS`. A game the player comes back to and finishes
        counts as it ended."""
        return self.state == "playing" and (newest > self.last or now - self.last > ABANDON_SECONDS)


TIMES_SHOWN = 200
"""The winning times a row of statistics lists for its chart: the latest ones."""


def stats_rows(games: list[PlayedGame], now: float, newest: float) -> list[dict[str, Any]]:
    """Return the statistics of ``games`` (in the order they ended) at ``now``.

    One row per kind of board (the level, and for a custom board its size and mines; guess-free
    or random; the technique and the pre-revealed start) and per help: games where a hint or the
    probabilities were asked for (``assisted``) are counted apart from the others. A row holds
    ``played`` (won, lost or abandoned), ``won``, ``abandoned`` (counted as losses: a game left
    in progress while another was started after its last move, or with no move for a day),
    ``in_progress``, ``best_time`` (unassisted rows only; ``None`` for assisted ones),
    ``guesses_per_game``, ``streak`` (wins since the last loss) and ``best_streak`` (the longest
    run of wins), and ``times``: the winning times in order, the latest :data:`TIMES_SHOWN`
    (unassisted rows only). Rows come standard levels first, then custom sizes by area.
    """
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for game in games:
        key = (*game.board, game.assisted)
        row = groups.get(key)
        if row is None:
            level, width, height, mines, guess_free, technique, reveal = game.board
            row = groups[key] = {
                "level": level,
                "width": width,
                "height": height,
                "mines": mines,
                "guess_free": guess_free,
                "technique": technique,
                "reveal": reveal,
                "assisted": game.assisted,
                "played": 0,
                "won": 0,
                "abandoned": 0,
                "in_progress": 0,
                "best_time": None,
                "guesses_per_game": None,
                "streak": 0,
                "best_streak": 0,
                "times": [],
                "_guesses": 0,
            }
        if game.state == "playing" and not game.abandoned(now, newest):
            row["in_progress"] += 1
            continue
        row["played"] += 1
        row["_guesses"] += game.guesses
        if game.state == "won":
            row["won"] += 1
            row["streak"] += 1
            row["best_streak"] = max(row["best_streak"], row["streak"])
            if not game.assisted and game.finished is not None:
                time = round(game.finished - game.started, 3)
                row["times"].append(time)
                if row["best_time"] is None or time < row["best_time"]:
                    row["best_time"] = time
        else:
            row["abandoned"] += game.state == "playing"
            row["streak"] = 0
    out = []
    for row in groups.values():
        guesses = row.pop("_guesses")
        row["guesses_per_game"] = guesses / row["played"] if row["played"] else None
        row["times"] = row["times"][-TIMES_SHOWN:]
        out.append(row)
    order = {"beginner": 0, "intermediate": 1, "expert": 2}
    out.sort(
        key=lambda r: (
            order.get(r["level"], 3),
            r["width"] * r["height"],
            r["mines"],
            not r["guess_free"],
            r["technique"],
            r["reveal"],
            r["assisted"],
        )
    )
    return out


def _load(db: sqlite3.Connection, game_id: str) -> GameRow | None:
    """Return the stored game ``game_id`` of ``db`` with its moves, or ``None``."""
    found = db.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
    if found is None:
        return None
    moves = db.execute(
        "SELECT kind, x, y, time FROM moves WHERE game = ? ORDER BY seq", (game_id,)
    ).fetchall()
    (gid, level, width, height, mines, guess_free, seed, layout, state, guesses) = found[:10]
    created, started, finished, punish, strict, technique, reveal, assists, touched = found[10:]
    return GameRow(
        id=gid,
        level=level,
        width=width,
        height=height,
        mines=mines,
        guess_free=bool(guess_free),
        seed=seed,
        created=created,
        layout=layout,
        moves=[(str(k), int(x), int(y)) for k, x, y, _ in moves],
        state=state,
        guesses=guesses,
        started=started,
        finished=finished,
        punish=bool(punish),
        strict=bool(strict),
        technique=technique,
        reveal=reveal,
        assists=assists,
        touched=touched,
        times=[t for *_, t in moves],
    )


def read_game(data_dir: Path, game_id: str) -> GameRow | None:
    """Return the stored game ``game_id`` of ``data_dir`` with its moves, read without taking
    the folder, so beside a server that is writing it (SQLite lets a reader in); ``None`` when
    there is none. The games are not changed (SQLite may leave its empty ``-wal`` and ``-shm``
    files). Raises ``sqlite3.Error`` when the file cannot be read or holds another schema than
    this version's."""
    path = data_dir / "mineproof.sqlite3"
    uri = f"{path.resolve().as_uri()}?mode=ro"
    db = sqlite3.connect(uri, uri=True)
    try:
        try:
            db.execute("PRAGMA busy_timeout = 2000")
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.OperationalError:
            if path.with_name(path.name + "-wal").exists():
                raise
            # A folder this user cannot write, and no server left a log to read: SQLite cannot
            # make its files for a reader there, and reads the file as it stands.
            db.close()
            db = sqlite3.connect(uri + "&immutable=1", uri=True)
            version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != VERSION:
            raise sqlite3.DatabaseError(
                f"the games are of schema {version}, this mineproof reads {VERSION}: open the "
                "folder with `mineproof play` once"
            )
        return _load(db, game_id)
    finally:
        db.close()
