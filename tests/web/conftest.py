"""What the web tests share: a live server on loopback, an HTTP client, the checks that nothing
secret leaves the server, and a player that plays a game through the API.

The tests run the server in-process, so they can read each game's layout from its store: that
layout is the oracle the checks compare every reply with. The player itself never looks at it.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from mineproof.analysis import analyze
from mineproof.board import Board, Layout
from mineproof.explain import hint
from mineproof.position import COVERED, FLAG, Position
from mineproof.web.games import Games
from mineproof.web.pool import Pool
from mineproof.web.server import App, Limits, allowed_hosts, make_server, serve_in_thread
from mineproof.web.store import Store
from mineproof.web.work import Job

JSON = dict[str, Any]
Cell = tuple[int, int]
T = TypeVar("T")

HOST = "127.0.0.1"

VIEW_KEYS = {
    "id",
    "level",
    "width",
    "height",
    "mines",
    "guess_free",
    "punish_guesses",
    "strict_flags",
    "technique",
    "reveal",
    "assists",
    "state",
    "mines_left",
    "elapsed",
    "guesses",
    "moves",
    "cells",
}
"""The keys of a game's view before its end: nothing about the mines but their number."""
OVER_KEYS = VIEW_KEYS | {"mine_cells", "exploded", "wrong_flags", "fatal_flag"}
"""The keys of a finished game's view: the layout is shown (a lost game's view from the server
adds its ``postmortem``)."""
MOVE_KEYS = {"guess", "tutor"}
"""The keys a move's reply adds to the view."""
ERROR_KINDS = {
    "invalid",
    "format",
    "argument",
    "inconsistent",
    "illegal-move",
    "game-over",
    "not-found",
    "too-complex",
    "request",
    "busy",
    "store",
    "internal",
}
"""The kinds of error an answer may name (each error class's ``kind``, and the server's own)."""


class Clock:
    """A clock for :class:`Games` that moves only when a test sets it."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class Reply:
    """An HTTP response: status, headers (lower-case names), body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> JSON:
        """Return the body as a JSON object (fails the test when it is not one)."""
        data = json.loads(self.body)
        assert isinstance(data, dict), self.body[:200]
        return data

    def ok(self, status: int = 200) -> JSON:
        """Return the JSON body after checking the status."""
        assert self.status == status, (self.status, self.body[:500])
        return self.json()

    def error(self, status: int) -> str:
        """Return the one-line error message of an error reply with ``status``."""
        assert self.status == status, (self.status, self.body[:500])
        assert self.headers["content-type"].startswith("application/json")
        data = self.json()
        data_keys = {
            "clues",
            "uses_mine_total",
            "minimal",
            "position",
            "line",
            "column",
            "reason",
            "details",
            "name",
            "allowed",
            "cell",
            "size",
        }
        assert set(data) <= {"error", "kind"} | data_keys, data
        assert data["kind"] in ERROR_KINDS, data
        message = data["error"]
        assert isinstance(message, str) and message and "\n" not in message, message
        return message


class Client:
    """HTTP/1.1 requests to a server: on one kept-alive connection, or with ``keep_alive``
    false on a new connection each (``Connection: close``, as the functional tests do: the
    server answers those faster, see ``test_keep_alive_answers_without_delay``)."""

    def __init__(
        self, host: str, port: int, keep_alive: bool = False, timeout: float = 60.0
    ) -> None:
        self.host = host
        self.port = port
        self.keep_alive = keep_alive
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        """Close the connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self,
        method: str,
        path: str,
        data: Any = None,
        *,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        host: str | None = "default",
    ) -> Reply:
        """Send one request and return the reply.

        ``data`` is sent as JSON (with its content type) unless ``body`` gives the raw bytes;
        ``host`` replaces the Host header (``None``: no Host header at all).
        """
        sent = dict(headers or {})
        if not self.keep_alive:
            sent.setdefault("Connection", "close")
        if data is not None:
            body = json.dumps(data).encode()
            sent.setdefault("Content-Type", "application/json")
        if body is not None:
            sent.setdefault("Content-Length", str(len(body)))
        elif method == "POST":
            sent.setdefault("Content-Length", "0")
        if self._conn is None:
            self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        conn = self._conn
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            if host == "default":
                conn.putheader("Host", f"{self.host}:{self.port}")
            elif host is not None:
                conn.putheader("Host", host)
            for name, value in sent.items():
                conn.putheader(name, value)
            conn.endheaders(body)
            response = conn.getresponse()
            payload = response.read()
        except Exception:
            self.close()
            raise
        reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, payload)
        if response.will_close or not self.keep_alive:
            self.close()
        return reply

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, data: Any) -> Reply:
        return self.request("POST", path, data)

    def move(self, game_id: str, kind: str, cell: Cell, lang: str = "en") -> JSON:
        """Play one move and return its reply (status 200 checked)."""
        x, y = cell
        return self.post(f"/api/games/{game_id}/{kind}", {"x": x, "y": y, "lang": lang}).ok()


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"still not {what} after {timeout} s")
        time.sleep(0.02)


class HeldPool(Pool):
    """A :class:`Pool` that keeps the jobs of one function from its workers while a test says
    so (:meth:`holding`): the server is slow on demand, and a test acts while a request waits.

    ``held`` counts the jobs waiting now, ``left`` those whose caller was cancelled while they
    waited (their client left). Driven from the test's thread, run in the server's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.held = 0
        self.left = 0
        self._fn: Callable[..., Any] | None = None
        self._open = threading.Event()
        self._open.set()

    @contextmanager
    def holding(self, fn: Callable[..., Any]) -> Iterator[HeldPool]:
        """Hold the jobs that call ``fn`` until the block ends; the block has the pool."""
        self._fn = fn
        self.left = 0
        self._open.clear()
        try:
            yield self
        finally:
            self._open.set()

    async def run(self, job: Job[T]) -> T:
        if job.fn is self._fn and not self._open.is_set():
            self.held += 1
            try:
                while not self._open.is_set():
                    await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                self.left += 1
                raise
            finally:
                self.held -= 1
        return await super().run(job)


@dataclass
class Server:
    """A live server on loopback over one data directory."""

    data_dir: Path
    clock: Callable[[], float]
    store: Store
    games: Games
    port: int
    app: App
    clients: list[Client] = field(default_factory=list)

    def client(self, keep_alive: bool = False) -> Client:
        """Return a new client of this server (closed with the server)."""
        client = Client(HOST, self.port, keep_alive)
        self.clients.append(client)
        return client

    def layout(self, game_id: str) -> Layout | None:
        """Return the layout of a game, read from the store (the oracle; ``None`` before the
        first click)."""
        row = self.store.load(game_id)
        assert row is not None, game_id
        if row.layout is None:
            return None
        return Layout(Board(row.width, row.height), int(row.layout, 16))

    def secrets(self, game_id: str) -> list[str]:
        """Return the stored strings that no reply may contain: the layout as stored, the
        seed it was drawn with."""
        row = self.store.load(game_id)
        assert row is not None, game_id
        return [s for s in (row.layout, row.seed) if s is not None and len(s) >= 8]


def counted_seeds() -> Callable[[], str]:
    """Return a source of layout seeds ``seed-00000000``, ``seed-00000001``, ...: the games of
    a test are the same on every run, so a failure can be replayed."""
    counter = itertools.count()
    return lambda: f"seed-{next(counter):08d}"


@contextmanager
def running(
    data_dir: Path,
    clock: Callable[[], float],
    *,
    pool: Pool | None = None,
    limits: Limits | None = None,
    **options: Any,
) -> Iterator[Server]:
    """Run a server on a free loopback port over ``data_dir`` until the block ends; ``pool``
    and ``limits`` go to the :class:`App`, ``options`` to :class:`Games`."""
    store = Store(data_dir)
    games = Games(store, clock=clock, seeds=counted_seeds(), **options)
    app = App(games, allowed_hosts(HOST), pool=pool, limits=limits)
    http_server = make_server(app, HOST, 0, quiet=True)
    stop = serve_in_thread(http_server)
    server = Server(data_dir, clock, store, games, http_server.server_address[1], app)
    try:
        yield server
    finally:
        for client in server.clients:
            client.close()
        stop()
        store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server shared by the tests of a module (stopping one takes half a second)."""
    with running(tmp_path_factory.mktemp("data"), Clock()) as live:
        yield live


@pytest.fixture
def client(server: Server) -> Client:
    return server.client()


@pytest.fixture
def own_server(tmp_path: Path, clock: Clock) -> Iterator[Server]:
    """A server of the test's own, with an empty store and the test's clock."""
    with running(tmp_path / "data", clock) as live:
        yield live


# --- what the player may know -------------------------------------------------------------


def position_of(view: JSON) -> Position:
    """Return the position a view shows: its cells and its mine total."""
    board = Board(view["width"], view["height"])
    cells = tuple(code for row in view["cells"] for code in row)
    return Position(board, cells, view["mines"])


def cell_code(view: JSON, cell: Cell) -> int:
    x, y = cell
    code = view["cells"][y][x]
    assert isinstance(code, int)
    return code


def covered(view: JSON) -> list[Cell]:
    """Return the covered, unflagged cells of a view."""
    return [
        (x, y)
        for y, row in enumerate(view["cells"])
        for x, code in enumerate(row)
        if code == COVERED
    ]


def check_view(view: JSON, layout: Layout | None, *, move: bool = False) -> None:
    """Assert that a view (or a move's reply) shows no mine the player has not found.

    Before the end: exactly the keys of :data:`VIEW_KEYS`; every cell covered, flagged or an
    opened number, the opened ones never mines and numbered as the layout says. After it: the
    layout in full (``mine_cells``), the exploded mine and the wrong flags.
    """
    extra = MOVE_KEYS if move else set()
    state = view["state"]
    width, height = view["width"], view["height"]
    cells = view["cells"]
    assert len(cells) == height and all(len(row) == width for row in cells)
    codes = [code for row in cells for code in row]
    assert all(type(code) is int and -2 <= code <= 8 for code in codes), codes
    assert view["mines_left"] == view["mines"] - codes.count(FLAG)
    if layout is None:
        assert state == "new" and set(view) == VIEW_KEYS | extra, view.keys()
        assert codes == [COVERED] * (width * height)
        return
    numbers = layout.numbers()
    for i, code in enumerate(codes):
        if code >= 0:
            assert numbers[i] == code, (i, code, numbers[i])
    board = layout.board
    if state == "playing":
        assert set(view) == VIEW_KEYS | extra, sorted(view)
        return
    assert state in ("won", "lost"), state
    over = OVER_KEYS | ({"postmortem"} if state == "lost" and "postmortem" in view else set())
    assert set(view) == over | extra, sorted(view)
    assert sorted(map(tuple, view["mine_cells"])) == sorted(board.mask_to_xy(layout.mines))
    flags = {board.xy(i) for i, code in enumerate(codes) if code == FLAG}
    wrong = sorted(c for c in flags if not layout.is_mine(board.index(*c)))
    assert sorted(map(tuple, view["wrong_flags"])) == wrong
    if state == "won":
        assert view["exploded"] is None and view["fatal_flag"] is None
        opened = sum(1 for code in codes if code >= 0)
        assert opened == board.size - layout.mine_count
    elif view["fatal_flag"] is not None:  # lost by a flag under strict flags
        x, y = view["fatal_flag"]
        assert view["exploded"] is None and view["strict_flags"]
        assert not layout.is_mine(board.index(x, y)) and cells[y][x] == FLAG
    else:
        x, y = view["exploded"]
        assert layout.is_mine(board.index(x, y)) and cells[y][x] in (COVERED, FLAG)


def assert_same_hint(reply: JSON, expected: JSON) -> None:
    """Assert that a hint from the server holds every field of ``expected`` (the library's
    hint), in it and in each of its steps (the server adds ``label``s)."""
    assert {k: reply[k] for k in expected if k != "steps"} == {
        k: v for k, v in expected.items() if k != "steps"
    }
    assert len(reply["steps"]) == len(expected["steps"])
    for got, want in zip(reply["steps"], expected["steps"], strict=True):
        assert {k: got[k] for k in want} == want


def check_hint(reply: JSON, view: JSON, lang: str = "en") -> None:
    """Assert that a hint is the one the visible position gives in play, that each cell any
    of its steps calls safe or mined is so in every arrangement of that position, and that it
    leads to a cell to open whenever one is provable."""
    position = position_of(view)
    analysis = analyze(position)
    board = position.board
    for step in reply["steps"]:
        for x, y in step["safe"]:
            assert analysis.safe_mask >> board.index(x, y) & 1, ("not proven safe", x, y)
        for x, y in step["mine"]:
            assert analysis.mine_mask >> board.index(x, y) & 1, ("not proven a mine", x, y)
        assert step["label"]
    assert_same_hint(reply, hint(position, lang, open=True).to_json())
    if analysis.safe_mask & ~position.flag_mask:
        assert reply["steps"] and reply["steps"][-1]["safe"], "the hint leads to no cell to open"


def check_probabilities(reply: JSON, view: JSON) -> None:
    """Assert that the probabilities are those of the visible position: a cell is named a
    mine (or given probability 1) only when it is a mine in every arrangement."""
    position = position_of(view)
    analysis = analyze(position)
    board = position.board
    assert set(reply) == {"probabilities", "safe", "mine", "flags"}, sorted(reply)
    for y, row in enumerate(reply["probabilities"]):
        for x, p in enumerate(row):
            if p == 1.0:
                assert analysis.mine_mask >> board.index(x, y) & 1, ("certain mine", x, y)
    for x, y in reply["mine"]:
        assert analysis.mine_mask >> board.index(x, y) & 1, ("not proven a mine", x, y)
    data = analysis.to_json()
    assert reply == {k: data[k] for k in reply}


def check_secrets(server: Server, game_id: str, body: bytes) -> None:
    """Assert that a reply quotes neither the stored layout nor the seed."""
    text = body.decode()
    for secret in server.secrets(game_id):
        assert secret not in text


# --- a player that only uses the API -------------------------------------------------------


@dataclass
class Played:
    """What :func:`play` did: the last view and the counts of its requests."""

    view: JSON
    opened: int = 0
    flagged: int = 0
    guesses: int = 0
    hints: int = 0
    probabilities: int = 0
    rounds: int = 0


Guesser = Callable[[JSON], Cell]
"""Chooses the cell to open when nothing is proven safe, from the view."""


def play(
    client: Client,
    view: JSON,
    *,
    server: Server | None = None,
    guesser: Guesser | None = None,
    hints: bool = True,
    first: Cell | None = None,
) -> Played:
    """Play a game to its end through the API.

    Opens only the cells that a hint or ``/probabilities`` proves safe and flags the proven
    mines; when nothing is proven safe, opens the cell ``guesser`` chooses (a test failure
    without one: a guess-free board never needs it). ``hints`` asks for a hint every round
    (else every third). With ``server``, the view is fetched every round too, and every reply
    is checked against the layout (see :func:`check_view`, :func:`check_hint`,
    :func:`check_probabilities`, :func:`check_secrets`).
    """
    game_id = view["id"]
    done = Played(view)
    base = f"/api/games/{game_id}"

    def oracle() -> Layout | None:
        return None if server is None else server.layout(game_id)

    def act(kind: str, cell: Cell, proven: bool) -> None:
        reply = client.post(f"{base}/{kind}", {"x": cell[0], "y": cell[1]})
        data = reply.ok()
        if server is not None:
            check_view(data, oracle(), move=True)
            check_secrets(server, game_id, reply.body)
        # A guess is made only when nothing is forced (proven mines are flagged first), so no
        # move of this player has a tutor.
        assert data["guess"] is not proven and data["tutor"] is None, (kind, cell, data)
        done.view = {k: v for k, v in data.items() if k not in MOVE_KEYS}

    if view["state"] == "new":
        act("open", first or (view["width"] // 2, view["height"] // 2), True)
        done.opened += 1
    limit = view["width"] * view["height"] + 1
    while done.view["state"] == "playing":
        done.rounds += 1
        assert done.rounds <= limit, "the player makes no progress"
        view = done.view
        if server is not None:
            reply = client.get(base)
            fetched = reply.ok()
            check_view(fetched, oracle())
            check_secrets(server, game_id, reply.body)
            # The view is what the last move answered, but for the time gone by since.
            assert fetched["elapsed"] >= view["elapsed"]
            assert {**fetched, "elapsed": 0} == {**view, "elapsed": 0}
        safe: set[Cell] = set()
        mines: set[Cell] = set()
        if hints or done.rounds % 3 == 1:
            reply = client.get(f"{base}/hint")
            found = reply.ok()
            done.hints += 1
            if server is not None:
                check_hint(found, view)
                check_secrets(server, game_id, reply.body)
            safe |= {(x, y) for x, y in found["safe"]}
            mines |= {(x, y) for x, y in found["mine"]}
        reply = client.get(f"{base}/probabilities")
        probabilities = reply.ok()
        done.probabilities += 1
        if server is not None:
            check_probabilities(probabilities, view)
            check_secrets(server, game_id, reply.body)
        safe |= {(x, y) for x, y in probabilities["safe"]}
        mines |= {(x, y) for x, y in probabilities["mine"]}
        for cell in sorted(mines):
            if cell_code(done.view, cell) == COVERED:
                act("flag", cell, True)
                done.flagged += 1
                assert cell_code(done.view, cell) == FLAG
        to_open = sorted(c for c in safe if cell_code(view, c) == COVERED)
        if not to_open:
            assert guesser is not None, "nothing proven safe on a board that should need no guess"
            cell = guesser(done.view)
            act("open", cell, False)
            assert done.view["guesses"] == view["guesses"] + 1
            done.guesses += 1
            continue
        for cell in to_open:
            if done.view["state"] != "playing":
                break
            if cell_code(done.view, cell) == COVERED:
                act("open", cell, True)
                done.opened += 1
    return done
