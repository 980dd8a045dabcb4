"""Where the web app keeps its games: one SQLite file in the data directory.

A game is stored as what it was created with (size, mines, mode, a random seed), its layout once
the first click has drawn it, and the list of moves played. Replaying the moves on the layout
gives back the game exactly, so games in progress survive a restart of the server. Finished
games stay in the file: the statistics are computed from them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["GameRow", "Store", "default_data_dir"]

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
    moves TEXT NOT NULL,
    state TEXT NOT NULL,
    guesses INTEGER NOT NULL,
    created REAL NOT NULL,
    started REAL,
    finished REAL
);
CREATE INDEX IF NOT EXISTS games_by_level ON games (level, guess_free, state);
"""

Move = tuple[str, int, int]


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


class Store:
    """The games of one data directory, in ``DIR/mineproof.sqlite3``; safe to share between
    threads (one connection behind a lock; each write is its own transaction).

    Raises ``OSError`` when the directory cannot be created and ``sqlite3.Error`` when the
    file cannot be opened as a database.
    """

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "mineproof.sqlite3"
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database file."""
        with self._lock:
            self._db.close()

    def save(self, row: GameRow) -> None:
        """Insert or replace the stored game ``row.id`` with ``row``."""
        values = (
            row.id,
            row.level,
            row.width,
            row.height,
            row.mines,
            int(row.guess_free),
            row.seed,
            row.layout,
            json.dumps(row.moves, separators=(",", ":")),
            row.state,
            row.guesses,
            row.created,
            row.started,
            row.finished,
        )
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                values,
            )

    def load(self, game_id: str) -> GameRow | None:
        """Return the stored game ``game_id``, or ``None`` when there is none."""
        with self._lock:
            found = self._db.execute(
                "SELECT id, level, width, height, mines, guess_free, seed, created, layout, "
                "moves, state, guesses, started, finished FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if found is None:
            return None
        values = list(found)
        values[5] = bool(values[5])
        values[9] = [(str(k), int(x), int(y)) for k, x, y in json.loads(values[9])]
        return GameRow(*values)

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
