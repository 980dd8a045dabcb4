"""The SQLite store of the web app: rows round-trip, statistics, the data folder."""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from pathlib import Path

import pytest

from mineproof.web.store import GameRow, Store, StoreInUse, default_data_dir, read_game


def _row(game_id: str = "g1", **fields: object) -> GameRow:
    row = GameRow(
        id=game_id,
        level="custom",
        width=20,
        height=7,
        mines=30,
        guess_free=False,
        seed="5eed" * 8,
        created=1_700_000_000.125,
    )
    for name, value in fields.items():
        setattr(row, name, value)
    return row


def test_new_row_round_trips(tmp_path: Path) -> None:
    store = Store(tmp_path)
    row = _row()
    store.save(row)
    loaded = store.load("g1")
    assert loaded == row
    assert loaded is not None and loaded.layout is None and loaded.started is None
    assert loaded.guess_free is False and loaded.moves == []
    store.close()


def test_played_row_round_trips_and_survives_reopening(tmp_path: Path) -> None:
    row = _row(
        layout=format((1 << 139) | 0xBEEF, "x"),
        moves=[("open", 3, 4), ("flag", 0, 6), ("unflag", 0, 6), ("chord", 19, 0)],
        times=[1_700_000_010.5, 1_700_000_020.0, None, 1_700_000_099.75],
        state="lost",
        guesses=2,
        started=1_700_000_010.5,
        finished=1_700_000_099.75,
        guess_free=True,
        punish=True,
        strict=True,
        technique="level3",
        reveal=2,
        assists=5,
        touched=1_700_000_099.75,
    )
    store = Store(tmp_path)
    store.save(row)
    store.close()
    again = Store(tmp_path)
    loaded = again.load("g1")
    assert loaded == row
    assert loaded is not None and type(loaded.guess_free) is bool
    assert all(type(m) is tuple for m in loaded.moves)
    assert int(loaded.layout or "0", 16) == (1 << 139) | 0xBEEF
    again.close()


def test_save_replaces_and_load_misses(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(_row())
    store.save(_row(moves=[("open", 1, 1)], state="playing"))
    store.save(_row("g2"))
    loaded = store.load("g1")
    assert loaded is not None and loaded.moves == [("open", 1, 1)] and loaded.state == "playing"
    assert loaded.times == [None]
    assert store.load("g3") is None
    assert store.load("") is None
    store.close()


def test_store_file_in_a_new_nested_folder(tmp_path: Path) -> None:
    store = Store(tmp_path / "a" / "b")
    assert store.path == tmp_path / "a" / "b" / "mineproof.sqlite3"
    assert store.path.is_file()
    store.close()


def test_store_refuses_a_file_as_folder_and_a_file_that_is_no_database(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OSError):
        Store(blocker)
    (tmp_path / "mineproof.sqlite3").write_bytes(b"not a database at all " * 64)
    with pytest.raises(sqlite3.Error):
        Store(tmp_path)


def test_saves_from_many_threads(tmp_path: Path) -> None:
    store = Store(tmp_path)

    def work(t: int) -> None:
        for k in range(40):
            store.save(_row(f"t{t}-{k}", moves=[("open", t, k)], guesses=k))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for t in range(12):
        for k in range(40):
            loaded = store.load(f"t{t}-{k}")
            assert loaded is not None and loaded.moves == [("open", t, k)]
    store.close()


def test_stats(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.stats(1000.0) == []
    beginner = {"level": "beginner", "width": 9, "height": 9, "mines": 10, "guess_free": True}
    rows = [
        # beginner, guess-free, unassisted, in the order they ended: a win in 20.5 s, a loss,
        # two wins (50 s, 30 s), an abandoned game (another was started after its last move)
        _row("a", created=10.0, **beginner, state="won", started=10.0, finished=30.5, touched=30.5),
        _row("b", created=40.0, **beginner, state="lost", guesses=3, started=40.0, finished=41.0),
        _row(
            "c",
            created=100.0,
            **beginner,
            state="won",
            started=100.0,
            finished=150.0,
            touched=150.0,
        ),
        _row("d", created=160.0, **beginner, state="won", started=160.0, finished=190.0, guesses=1),
        _row(
            "e", created=200.0, **beginner, state="playing", guesses=2, started=200.0, touched=210.0
        ),
        # the same, assisted: a win in 5 s (no best time, but counted apart)
        _row("f", created=300.0, **beginner, state="won", started=300.0, finished=305.0, assists=2),
        # in progress: the newest game, touched now
        _row("g", **beginner, state="playing", started=900.0, touched=990.0, created=900.0),
        _row("h", **beginner, state="new", created=950.0),
        # custom sizes: each its own row; one with no move for more than a day
        _row("i", created=3.0, state="won", guesses=4, started=3.0, finished=10.0),
        _row("j", width=30, state="playing", started=5.0, touched=6.0, created=5.0),
    ]
    for row in rows:
        store.save(row)
    now = 1000.0 + 86_400.0 - 100.0  # g was touched less than a day ago, j long before
    stats = store.stats(now)
    shown = [
        {k: r[k] for k in ("level", "width", "assisted", "played", "won", "abandoned")}
        for r in stats
    ]
    assert shown == [
        {"level": "beginner", "width": 9, "assisted": False, "played": 5, "won": 3, "abandoned": 1},
        {"level": "beginner", "width": 9, "assisted": True, "played": 1, "won": 1, "abandoned": 0},
        {"level": "custom", "width": 20, "assisted": False, "played": 1, "won": 1, "abandoned": 0},
        {"level": "custom", "width": 30, "assisted": False, "played": 1, "won": 0, "abandoned": 1},
    ]
    plain, helped = stats[0], stats[1]
    assert plain["in_progress"] == 1  # g
    assert plain["best_time"] == 20.5 and plain["times"] == [20.5, 50.0, 30.0]
    assert plain["streak"] == 0 and plain["best_streak"] == 2  # c, d; then e abandoned
    assert plain["guesses_per_game"] == (3 + 1 + 2) / 5
    assert helped["best_time"] is None and helped["times"] == [] and helped["streak"] == 1
    assert stats[2]["best_time"] == 7.0 and stats[2]["mines"] == 30
    # A day later g is abandoned too; had it been finished, it would count as it ended.
    assert store.stats(990.0 + 86_400.0 + 1)[0]["abandoned"] == 2
    store.close()


# --- the data folder ------------------------------------------------------------------------


@pytest.fixture
def linux(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path


def test_data_dir_follows_xdg_data_home(linux: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(linux / "xdg"))
    assert default_data_dir() == linux / "xdg" / "mineproof"


@pytest.mark.parametrize("value", [None, ""])
def test_data_dir_default_on_linux(
    linux: Path, monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", value)
    assert default_data_dir() == linux / "home" / ".local" / "share" / "mineproof"


def test_data_dir_ignores_a_relative_xdg_data_home(
    linux: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    assert default_data_dir() == linux / "home" / ".local" / "share" / "mineproof"


def test_data_dir_on_macos(linux: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setenv("XDG_DATA_HOME", str(linux / "xdg"))
    assert default_data_dir() == linux / "home" / "Library" / "Application Support" / "mineproof"


def test_data_dir_on_windows(linux: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(linux / "roaming"))
    assert default_data_dir() == linux / "roaming" / "mineproof"
    monkeypatch.delenv("APPDATA")
    assert default_data_dir() == linux / "home" / "AppData" / "Roaming" / "mineproof"


# --- one server per folder, and files that cannot be used --------------------------------


def test_a_second_store_on_the_same_folder_is_refused(tmp_path: Path) -> None:
    first = Store(tmp_path)
    with pytest.raises(StoreInUse) as raised:
        Store(tmp_path)
    assert raised.value.filename == str(tmp_path)
    assert f"another mineproof play (process {os.getpid()})" in str(raised.value.strerror)
    first.save(_row())
    first.close()
    again = Store(tmp_path)  # released with the first
    assert again.load("g1") == _row()
    again.close()


def damaged(path: Path) -> None:
    """Overwrite one page in the middle of the SQLite file ``path`` with garbage."""
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 6 * page, len(data)
    data[3 * page : 4 * page] = b"\xa5" * page
    path.write_bytes(bytes(data))


def read_only(path: Path) -> None:
    """Mark the SQLite file ``path`` as written by a newer file format: every SQLite then
    opens it read-only (even for root, whom file permissions do not stop)."""
    data = bytearray(path.read_bytes())
    data[18] = 3  # the file format's write version
    path.write_bytes(bytes(data))


def filled(folder: Path, games: int = 300) -> Path:
    """Return the database of a store in ``folder`` holding ``games`` games, checkpointed into
    the main file."""
    store = Store(folder)
    for k in range(games):
        store.save(_row(f"game-{k:04d}", moves=[("open", k % 20, k % 7)] * 3))
    store.close()
    with sqlite3.connect(store.path) as db:
        db.execute("PRAGMA journal_mode=DELETE")
    return store.path


def test_a_damaged_database_is_refused_at_opening(tmp_path: Path) -> None:
    damaged(filled(tmp_path))
    with pytest.raises(sqlite3.DatabaseError, match=r"damaged|malformed"):
        Store(tmp_path)
    # The folder is released for a store on a sound file.
    (tmp_path / "mineproof.sqlite3").unlink()
    Store(tmp_path).close()


def test_a_read_only_database_is_refused_at_opening(tmp_path: Path) -> None:
    read_only(filled(tmp_path, 3))
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        Store(tmp_path)


def test_a_file_of_the_first_schema_is_brought_up_to_date(tmp_path: Path) -> None:
    old = tmp_path / "mineproof.sqlite3"
    with sqlite3.connect(old) as db:
        db.executescript(
            "CREATE TABLE games (id TEXT PRIMARY KEY, level TEXT NOT NULL, width INTEGER NOT NULL,"
            " height INTEGER NOT NULL, mines INTEGER NOT NULL, guess_free INTEGER NOT NULL,"
            " seed TEXT NOT NULL, layout TEXT, moves TEXT NOT NULL, state TEXT NOT NULL,"
            " guesses INTEGER NOT NULL, created REAL NOT NULL, started REAL, finished REAL);"
            "CREATE INDEX games_by_level ON games (level, guess_free, state);"
        )
        db.execute(
            "INSERT INTO games VALUES ('g1', 'custom', 20, 7, 30, 0, ?, 'beef', ?, 'playing', 2,"
            " 1700000000.125, 1700000010.5, NULL)",
            ("5eed" * 8, '[["open",3,4],["flag",0,6],["unflag",0,6],["chord",19,0]]'),
        )
    store = Store(tmp_path)
    loaded = store.load("g1")
    assert loaded == _row(
        layout="beef",
        moves=[("open", 3, 4), ("flag", 0, 6), ("unflag", 0, 6), ("chord", 19, 0)],
        times=[None] * 4,
        state="playing",
        guesses=2,
        started=1_700_000_010.5,
    )
    assert store.stats(1_700_000_011.0)[0]["in_progress"] == 1
    store.close()
    with sqlite3.connect(old) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        assert "moves" not in columns
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone() == (4,)
        assert db.execute("PRAGMA user_version").fetchone() == (3,)


def test_a_file_of_schema_2_gets_the_new_columns(tmp_path: Path) -> None:
    old = tmp_path / "mineproof.sqlite3"
    with sqlite3.connect(old) as db:
        db.executescript(
            "CREATE TABLE games (id TEXT PRIMARY KEY, level TEXT NOT NULL, width INTEGER NOT NULL,"
            " height INTEGER NOT NULL, mines INTEGER NOT NULL, guess_free INTEGER NOT NULL,"
            " seed TEXT NOT NULL, layout TEXT, state TEXT NOT NULL, guesses INTEGER NOT NULL,"
            " created REAL NOT NULL, started REAL, finished REAL);"
            "CREATE INDEX games_by_level ON games (level, guess_free, state);"
            "CREATE TABLE moves (game TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,"
            " x INTEGER NOT NULL, y INTEGER NOT NULL, PRIMARY KEY (game, seq)) WITHOUT ROWID;"
            "PRAGMA user_version = 2;"
        )
        db.execute(
            "INSERT INTO games VALUES ('g1', 'custom', 20, 7, 30, 0, ?, 'beef', 'won', 2,"
            " 1700000000.125, 1700000010.5, 1700000020.5)",
            ("5eed" * 8,),
        )
        db.execute("INSERT INTO moves VALUES ('g1', 0, 'open', 3, 4)")
    store = Store(tmp_path)
    loaded = store.load("g1")
    assert loaded == _row(
        layout="beef",
        moves=[("open", 3, 4)],
        times=[None],
        state="won",
        guesses=2,
        started=1_700_000_010.5,
        finished=1_700_000_020.5,
    )
    assert loaded is not None and not loaded.punish and loaded.technique == "any"
    (row,) = store.stats(1_700_000_030.0)
    assert row["best_time"] == 10.0 and row["assisted"] is False
    # A move appended now keeps its time.
    loaded.moves, loaded.times = [], []
    store.append(loaded, 1, [("flag", 0, 0)], 1_700_000_021.0)
    again = store.load("g1")
    assert again is not None and again.times == [None, 1_700_000_021.0]
    assert again.touched == 1_700_000_021.0
    store.close()
    with sqlite3.connect(old) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (3,)


def test_a_game_is_read_beside_a_running_server_and_in_a_folder_it_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path)  # held, as a running server holds it
    store.save(_row(moves=[("open", 1, 2)]))
    found = read_game(tmp_path, "g1")
    assert found is not None and found.moves == [("open", 1, 2)]
    assert read_game(tmp_path, "g2") is None
    store.close()
    # A folder this user cannot write, the server gone (no log left): SQLite's reader cannot
    # make its files there ("attempt to write a readonly database"). As root the folder's
    # mode stops nothing, so the refusal is made here, for the first open.
    for name in ("mineproof.sqlite3-wal", "mineproof.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    connect = sqlite3.connect
    refused: list[str] = []

    def first_refused(database: str, *, uri: bool) -> sqlite3.Connection:
        if "immutable" not in database:
            refused.append(database)
            return _Refusing()  # type: ignore[return-value]
        return connect(database, uri=uri)

    monkeypatch.setattr(sqlite3, "connect", first_refused)
    found = read_game(tmp_path, "g1")
    assert refused and found is not None and found.moves == [("open", 1, 2)]


class _Refusing:
    """A connection whose every statement fails as SQLite's reader fails in a folder it
    cannot write."""

    def execute(self, *args: object) -> None:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    def close(self) -> None:
        pass
