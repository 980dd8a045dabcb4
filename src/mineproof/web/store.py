"""Where the web app keeps its games: one SQLite file in the data directory.

A game is stored as what it was created with (size, mines, mode, a random seed), its layout once
the first click has drawn it, and its moves, one row each, appended as they are played (a move
never rewrites the ones before it). Replaying the moves on the layout gives back the game
exactly, so games in progress survive a restart of the server. Finished games stay in the file:
the statistics are computed from them.

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

__all__ = ["GameRow", "Move", "Store", "StoreInUse", "default_data_dir"]

VERSION = 2
"""The schema's version (``PRAGMA user_version``): 0 was the first, with each game's moves as
one JSON list rewritten at every move; 2 keeps a row per move."""

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
    finished REAL
);
CREATE INDEX IF NOT EXISTS games_by_level ON games (level, guess_free, state);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""

_COLUMNS = (
    "id, level, width, height, mines, guess_free, seed, layout, state, guesses, created, "
    "started, finished"
)

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
    ``unflag`` or ``chord``; times are seconds since the epoch."""

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
            _make_tables(db)
            if version > VERSION:
                raise sqlite3.DatabaseError(
                    f"the database was written by a newer mineproof (schema {version})"
                )
            # Always a write: a file that cannot be written is refused now, not at a move.
            db.execute(f"PRAGMA user_version = {VERSION}")

    def _migrate_from_json_moves(self) -> None:
        """Bring a file of schema 0 (moves as a JSON list per game) to schema 2."""
        db = self._db
        db.execute("ALTER TABLE games RENAME TO games_0")
        db.execute("DROP INDEX IF EXISTS games_by_level")
        _make_tables(db)
        db.execute(f"INSERT INTO games ({_COLUMNS}) SELECT {_COLUMNS} FROM games_0")
        for game_id, moves in db.execute("SELECT id, moves FROM games_0").fetchall():
            db.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                [(game_id, seq, k, x, y) for seq, (k, x, y) in enumerate(json.loads(moves))],
            )
        db.execute("DROP TABLE games_0")

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

    def append(self, row: GameRow, seq: int, move: Move) -> None:
        """Store move number ``seq`` (from 0) of game ``row.id`` and the game's state after it
        (layout, state, guesses, times), as one transaction.

        Raises ``sqlite3.Error`` when the write fails: then nothing of it is stored.
        """
        kind, x, y = move
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (row.id, seq, kind, x, y))
            self._db.execute(
                "UPDATE games SET layout = ?, state = ?, guesses = ?, started = ?, finished = ? "
                "WHERE id = ?",
                (row.layout, row.state, row.guesses, row.started, row.finished, row.id),
            )

    def save(self, row: GameRow) -> None:
        """Insert or replace the stored game ``row.id`` with ``row``, moves included."""
        with self._lock, self._transaction():
            self._db.execute(
                f"INSERT OR REPLACE INTO games ({_COLUMNS}) VALUES ({_MARKS})", row._values()
            )
            self._db.execute("DELETE FROM moves WHERE game = ?", (row.id,))
            self._db.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                [(row.id, seq, k, x, y) for seq, (k, x, y) in enumerate(row.moves)],
            )

    def load(self, game_id: str) -> GameRow | None:
        """Return the stored game ``game_id`` with its moves, or ``None`` when there is none."""
        with self._lock:
            found = self._db.execute(
                f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if found is None:
                return None
            moves = self._db.execute(
                "SELECT kind, x, y FROM moves WHERE game = ? ORDER BY seq", (game_id,)
            ).fetchall()
        (gid, level, width, height, mines, guess_free, seed, layout, state, guesses) = found[:10]
        created, started, finished = found[10:]
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
            moves=[(str(k), int(x), int(y)) for k, x, y in moves],
            state=state,
            guesses=guesses,
            started=started,
            finished=finished,
        )

    def stats(self) -> list[dict[str, Any]]:
        """Return per level and mode: games finished, won, the best winning time in seconds,
        and the guesses per finished game (games never clicked are not counted)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT level, guess_free, COUNT(*), "
                "SUM(state = 'won'), MIN(CASE WHEN state = 'won' THEN finished - started END), "
                "AVG(CASE WHEN state != 'playing' THEN guesses END), SUM(state = 'playing') "
                "FROM games WHERE state IN ('won', 'lost', 'playing') "
                "GROUP BY level, guess_free ORDER BY level, guess_free DESC"
            ).fetchall()
        out = []
        for level, guess_free, count, won, best, guesses, playing in rows:
            out.append(
                {
                    "level": level,
                    "guess_free": bool(guess_free),
                    "played": count - playing,
                    "won": won,
                    "in_progress": playing,
                    "best_time": best,
                    "guesses_per_game": guesses,
                }
            )
        return out
