"""The web app's HTTP server: the JSON API over :class:`~mineproof.web.games.Games` and the
page's static files, an ASGI application served by uvicorn.

Routes (cells are ``[x, y]``, x the column and y the row from the top-left):

- ``GET /`` (and ``GET /?game=ID``, a game's own address) the page; ``GET /static/PATH`` its
  files (only those shipped in the package: :data:`STATIC`);
- ``GET /api/meta``: levels, languages (with their names), limits;
- ``GET /api/strings?lang=L``: every string of the page in ``L`` (from the gettext catalogs);
- ``POST /api/games`` ``{"level", "width"?, "height"?, "mines"?, "guess_free"?,
  "punish_guesses"?, "strict_flags"?, "technique"?, "reveal"?}``: a new game;
- ``GET /api/games/ID?lang=L``: the player's view of a game; a lost game's holds its
  ``postmortem`` (``null`` when its analysis passed its budget);
- ``POST /api/games/ID/open|flag|chord`` ``{"x", "y", "lang"?}``: a move; the answer holds the
  view (with the post-mortem when the move lost), ``guess`` and ``tutor`` (when a guess was
  made while a safe cell was provable, the hint that leads to it); a move that changes nothing
  (a chord whose flags are not all placed, an open of an opened or flagged cell) answers with
  the game as it was, and is not counted;
- ``GET /api/games/ID/hint?lang=L``, ``GET /api/games/ID/probabilities`` (each counts as help
  for the statistics once it is answered: not when it is refused or fails, nor when its client
  leaves before the answer is ready);
- ``GET /api/games/ID/tutor?move=N&lang=L``: ``{"tutor": ...}``, what the move N (from 0) said
  as ``tutor`` when it was made, in ``L`` (after a change of language; not counted as help);
- ``GET /api/games/ID/review?lang=L``: the review of a finished game, every click judged;
  ``GET /api/games/ID/review.gif``: its animation (an attachment);
- ``POST /api/review`` ``{"name", "data", "lang"?}``: the review of an uploaded replay, ``data``
  its bytes in base64 (at most :data:`MAX_UPLOAD` bytes), ``name`` its file name (the
  extension says the format); ``POST /api/review.gif`` ``{"name", "data"}``: its animation;
- ``POST /api/analyze`` ``{"text", "mines"?, "trust_flags"?, "lang"?}``: the analysis of a
  pasted or edited position (sides up to 100, as the page's editor), with its next hint
  (``null`` when too complex to explain);
- ``GET /api/stats``.

Errors are JSON ``{"error": message, "kind": name}`` (the kind of error, for a client to say in its
own words: an error class's ``kind``, or ``request``, ``busy``, ``store``, ``internal``), with the
error's data where it has some (``clues``, ``uses_mine_total`` and ``minimal``, and for
``/api/analyze`` the ``position`` pasted, as its answer would hold it; ``line``, ``column``,
``reason`` and ``details``, see :data:`~mineproof.errors.FORMAT_REASONS`;
``name`` and ``allowed``): 400 for malformed JSON or
HTTP, a missing or mistyped field or a cell outside the board; 404 for an unknown game or path; 405
for a wrong method; 408 for a body not sent in time; 409 for a move after the end; 413 for a body
over 1 MB; 415 for a POST that is not JSON; 421 for a request whose Host is not this server (DNS
rebinding); 422 for a position no arrangement fits, a board that cannot be generated or work beyond
its budget; 500 for a move the store could not keep (it is not made); 503 with ``Retry-After`` when
the worker pool is full.

How load is borne: the event loop only routes, validates, reads and writes the store; every
analysis, hint and generation runs in the :class:`~mineproof.web.pool.Pool` of worker
processes, and is cancelled (its worker killed) when its client disconnects. uvicorn keeps the
connections: at most :attr:`Limits.connections` (beyond, 503), each closed when it sends no
complete request head for :attr:`Limits.idle_seconds` or stops reading its answer for as long;
a body must arrive within :attr:`Limits.body_seconds` (else 408).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from types import FrameType
from typing import Any
from urllib.parse import parse_qs, urlsplit

import uvicorn

from mineproof import __version__
from mineproof.errors import (
    ArgumentError,
    FormatError,
    MineproofError,
    http_status,
)
from mineproof.explain import LANGUAGES
from mineproof.formats import read_json
from mineproof.web.games import (
    LEVELS,
    MAX_REVEAL,
    MAX_SIDE,
    MIN_SIDE,
    TECHNIQUES,
    Games,
    StoreError,
    check_lang,
)
from mineproof.web.pool import Pool, PoolFull, WorkerError
from mineproof.web.strings import LANGUAGE_NAMES, page_strings
from mineproof.web.work import (
    MAX_TEXT,
    Job,
    analyze_text,
    upload_review,
    upload_review_animation,
)

__all__ = [
    "MAX_BODY",
    "MAX_UPLOAD",
    "STATIC",
    "App",
    "Limits",
    "Response",
    "Server",
    "allowed_hosts",
    "make_server",
    "serve_in_thread",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may hold of the server.

    ``connections``: connections open at once (uvicorn answers 503 beyond); ``idle_seconds``: a
    connection that sends no complete request head, or reads none of its answer, for this long
    (checked every ``idle_seconds``, so closed after one to two times it) is closed;
    ``keep_alive_seconds``: an idle kept-alive connection is closed after this; ``body_seconds``:
    a request body must arrive within this (else 408).
    """

    connections: int = 256
    idle_seconds: float = 10.0
    keep_alive_seconds: float = 5.0
    body_seconds: float = 10.0


MAX_BODY = 1 << 20

MAX_UPLOAD = 700_000
"""The largest replay file ``POST /api/review`` reads (its base64 fits a body of
:data:`MAX_BODY`); a 60x36 game of 57,000 mouse events takes 340 KB."""

_CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}


def _static_files() -> dict[str, str]:
    """Return the page's files shipped in the package (under ``static/``), by their path
    there (``js/main.js``), with their content type; files of other types are left out."""
    found: dict[str, str] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            name = prefix + entry.name
            if entry.is_dir():
                walk(entry, name + "/")
            elif not entry.name.startswith(".") and "." in entry.name:
                kind = _CONTENT_TYPES.get("." + entry.name.rsplit(".", 1)[1])
                if kind is not None:
                    found[name] = kind

    walk(resources.files("mineproof.web").joinpath("static"), "")
    return found


STATIC = _static_files()
"""The only files served: the page and its assets (HTML, ES modules, CSS, SVG), found in the
installed package when the server starts, by path under ``/static/``."""

_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'"
    ),
}

_GAME = re.compile(
    r"^/api/games/([A-Za-z0-9_-]{1,64})"
    r"(?:/(open|flag|chord|hint|tutor|probabilities|review|review\.gif))?$"
)
_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}


@dataclass(frozen=True, slots=True)
class Response:
    """An HTTP answer: status, content type, body, extra headers."""

    status: int
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


class _BadRequest(Exception):
    """A request the API refuses, with its status (its ``kind``: ``request``, or ``not-found``
    for a path that names nothing)."""

    def __init__(
        self,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
        kind: str = "request",
    ) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers or {}
        self.kind = kind


def _error(status: int, message: str, kind: str, headers: dict[str, str] | None = None) -> Response:
    """Return an error answer: ``{"error": message, "kind": kind}``."""
    return _json(status, {"error": message, "kind": kind}, headers)


def _gif(data: bytes, name: str) -> Response:
    """Return an animated GIF as a file to download, ``mineproof-NAME.gif``."""
    disposition = f'attachment; filename="mineproof-{name}.gif"'
    return Response(
        200, data, "image/gif", {"Cache-Control": "no-store", "Content-Disposition": disposition}
    )


def _json(status: int, data: Any, headers: dict[str, str] | None = None) -> Response:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(status, body, headers={"Cache-Control": "no-store", **(headers or {})})


def _field(data: dict[str, Any], name: str, kind: type, default: Any = None) -> Any:
    """Return ``data[name]`` checked to be of ``kind`` (bool is not an int here).

    Raises a 400 when it is missing without a default, or of another type.
    """
    if name not in data:
        if default is None:
            raise _BadRequest(400, f"missing field {name!r}")
        return default
    value = data[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise _BadRequest(400, f"field {name!r} must be an integer")
    if not isinstance(value, kind):
        raise _BadRequest(400, f"field {name!r} must be {kind.__name__}")
    return value


class App:
    """The web app as an ASGI application: the routes over one :class:`Games`, the CPU work in
    ``pool`` (a new :class:`Pool` by default, started with the server and stopped with it).

    ``hosts`` are the Host names accepted (``None``: any, for a server bound to all
    interfaces on purpose).
    """

    def __init__(
        self,
        games: Games,
        hosts: set[str] | None = None,
        *,
        pool: Pool | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.games = games
        self.hosts = hosts
        self.pool = pool if pool is not None else Pool()
        self.limits = limits or Limits()
        self.startup_error: str | None = None
        """Why the pool could not start, once the server tried."""

    # --- ASGI -------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection scope (``lifespan`` or ``http``)."""
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """Start the pool with the server and stop it with the server."""
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.pool.start()
                except Exception as exc:
                    self.startup_error = f"cannot start the worker processes: {exc}"
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.pool.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the request (its body bounded in size and time), answer it; when the client
        leaves first, cancel the work and answer nothing."""
        raw = scope.get("raw_path") or scope["path"].encode()
        target = raw.decode("latin-1")
        if scope.get("query_string"):
            target += "?" + scope["query_string"].decode("latin-1")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        method = scope["method"]
        body = await self._read_body(headers, receive)
        if body is None:
            return  # the client left
        if isinstance(body, Response):
            await _send(send, body)
            return
        work = asyncio.ensure_future(self.handle(method, target, headers, body))
        watch = asyncio.ensure_future(_disconnected(receive))
        try:
            await asyncio.wait({work, watch}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not work.done():  # the client left (or the server stops): stop the work
                work.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await work
            watch.cancel()
        if work.cancelled():
            return
        await _send(send, work.result())

    async def _read_body(
        self, headers: dict[str, str], receive: Receive
    ) -> bytes | Response | None:
        """Return the request's body, an error response (413, 408) or ``None`` when the client
        left. A body announced over :data:`MAX_BODY` is refused before it is read."""
        close = {"Connection": "close"}
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > MAX_BODY:
            return _error(413, f"the body is over {MAX_BODY} bytes", "request", close)
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.limits.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > MAX_BODY:
                        return _error(413, f"the body is over {MAX_BODY} bytes", "request", close)
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            late = f"the body was not sent within {self.limits.body_seconds:g} s"
            return _error(408, late, "request", close)

    # --- routes -----------------------------------------------------------------------------

    async def handle(
        self, method: str, target: str, headers: dict[str, str], body: bytes
    ) -> Response:
        """Return the response to one request (never raises for bad input; cancelling it
        cancels its work)."""
        try:
            self._check_host(headers.get("host", ""))
            return await self._route(method, target, headers, body)
        except _BadRequest as exc:
            return _error(exc.status, str(exc), exc.kind, exc.headers)
        except PoolFull as exc:
            return _error(503, str(exc), "busy", {"Retry-After": str(exc.retry_after)})
        except StoreError as exc:
            return _error(500, str(exc), "store")
        except MineproofError as exc:  # the status comes from the one table of errors
            return _json(http_status(exc), exc.to_json())
        except WorkerError as exc:  # a bug in a worker: its traceback, then answer
            # A traceback ends in a newline, a dead worker's message does not.
            sys.stderr.write(f"mineproof: a worker failed:\n{str(exc).rstrip()}\n")
            return _error(500, "internal error: WorkerError", "internal")
        except Exception as exc:  # a bug: answer, log, keep serving
            traceback.print_exc(file=sys.stderr)
            return _error(500, f"internal error: {type(exc).__name__}", "internal")

    def _check_host(self, host: str) -> None:
        if self.hosts is None:
            return
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name.lower() not in self.hosts:
            raise _BadRequest(421, f"this server does not answer for host {host!r}")

    async def _route(
        self, method: str, target: str, headers: dict[str, str], body: bytes
    ) -> Response:
        url = urlsplit(target)
        path = url.path
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        if path == "/favicon.ico":
            path = "/static/favicon.svg"
        if path == "/" or path.startswith("/static/"):
            self._method(method, "GET")
            return self._static("index.html" if path == "/" else path.removeprefix("/static/"))
        if path == "/api/meta":
            self._method(method, "GET")
            return _json(200, self._meta())
        if path == "/api/strings":
            self._method(method, "GET")
            lang = query.get("lang", "en")
            check_lang(lang)
            return _json(200, page_strings(lang))
        if path == "/api/stats":
            self._method(method, "GET")
            return _json(200, {"stats": self.games.stats()})
        if path == "/api/games":
            self._method(method, "POST")
            data = self._body(headers, body)
            view = self.games.create(
                _field(data, "level", str),
                _field(data, "width", int, 0),
                _field(data, "height", int, 0),
                _field(data, "mines", int, 0),
                _field(data, "guess_free", bool, True),
                punish_guesses=_field(data, "punish_guesses", bool, False),
                strict_flags=_field(data, "strict_flags", bool, False),
                technique=_field(data, "technique", str, "any"),
                reveal=_field(data, "reveal", int, 0),
            )
            return _json(201, view)
        if path == "/api/analyze":
            self._method(method, "POST")
            return _json(200, await self._analyze(self._body(headers, body)))
        if path in ("/api/review", "/api/review.gif"):
            self._method(method, "POST")
            return await self._upload(self._body(headers, body), path.endswith(".gif"))
        found = _GAME.match(path)
        if found is None:
            raise _BadRequest(404, f"no such page {path!r}", kind="not-found")
        game_id, action = found.groups()
        lang = query.get("lang", "en")
        if action is None:
            self._method(method, "GET")
            check_lang(lang)
            return _json(200, await self._with_postmortem(self.games.view(game_id), lang))
        if action == "review":
            self._method(method, "GET")
            return _json(200, await self.pool.run(self.games.review_job(game_id, lang)))
        if action == "review.gif":
            self._method(method, "GET")
            return _gif(await self.pool.run(self.games.review_gif_job(game_id)), game_id)
        if action == "hint":
            self._method(method, "GET")
            job = self.games.hint_job(game_id, query.get("lang", "en"))
            return _json(200, await self.games.helped_async(game_id, job, self.pool.run))
        if action == "tutor":
            self._method(method, "GET")
            move = query.get("move", "")
            if not re.fullmatch(r"[0-9]{1,9}", move):
                raise _BadRequest(400, "the query's 'move' must be a move's number, from 0")
            said = self.games.tutor_job(game_id, int(move), lang)
            return _json(200, {"tutor": await self.pool.run(said)})
        if action == "probabilities":
            self._method(method, "GET")
            job = self.games.probabilities_job(game_id)
            return _json(200, await self.games.helped_async(game_id, job, self.pool.run))
        self._method(method, "POST")
        data = self._body(headers, body)
        lang = _field(data, "lang", str, "en")
        result = await self.games.move_async(
            game_id,
            action,
            _field(data, "x", int),
            _field(data, "y", int),
            lang,
            self.pool.run,
        )
        view = await self._with_postmortem(result.view, lang)
        return _json(200, {**view, "guess": result.guess, "tutor": result.tutor})

    async def _with_postmortem(self, view: dict[str, Any], lang: str) -> dict[str, Any]:
        """Return ``view`` with the post-mortem of a lost game added."""
        if view["state"] != "lost":
            return view
        found = await self.games.postmortem_async(view["id"], lang, self.pool.run)
        return {**view, "postmortem": found}

    async def _upload(self, data: dict[str, Any], gif: bool) -> Response:
        """Return the review of an uploaded replay (or its GIF)."""
        name = _field(data, "name", str)
        encoded = _field(data, "data", str)
        lang = _field(data, "lang", str, "en")
        check_lang(lang)
        if len(name) > 255:
            raise _BadRequest(400, "field 'name' is longer than 255 characters")
        try:
            raw = base64.b64decode(encoded, validate=True)
        except ValueError:
            raise _BadRequest(400, "field 'data' is not base64") from None
        if len(raw) > MAX_UPLOAD:
            raise _BadRequest(
                413, f"the replay has {len(raw):,} bytes, more than the {MAX_UPLOAD:,} read"
            )
        if gif:
            job: Job[Any] = Job(upload_review_animation, (raw, name), heavy=True)
            return _gif(await self.pool.run(job), "replay")
        return _json(200, await self.pool.run(Job(upload_review, (raw, name, lang), heavy=True)))

    @staticmethod
    def _method(method: str, allowed: str) -> None:
        if method != allowed and not (allowed == "GET" and method == "HEAD"):
            allow = "GET, HEAD" if allowed == "GET" else allowed
            raise _BadRequest(
                405, f"method {method} is not allowed here (use {allowed})", {"Allow": allow}
            )

    @staticmethod
    def _body(headers: dict[str, str], body: bytes) -> dict[str, Any]:
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise _BadRequest(415, "send the request body as application/json")
        try:
            data = read_json(body, "malformed JSON", "a JSON object")
        except FormatError as exc:  # a request's own error (kind "request"), not a file's
            raise _BadRequest(400, str(exc)) from None
        if not isinstance(data, dict):
            raise _BadRequest(400, "the JSON body must be an object")
        return data

    @staticmethod
    def _static(name: str) -> Response:
        if name not in STATIC:
            raise _BadRequest(404, f"no such file {name!r}", kind="not-found")
        data = resources.files("mineproof.web").joinpath("static", name).read_bytes()
        return Response(200, data, STATIC[name], {"Cache-Control": "no-cache"})

    @staticmethod
    def _meta() -> dict[str, Any]:
        return {
            "version": __version__,
            "levels": {k: {"width": w, "height": h, "mines": m} for k, (w, h, m) in LEVELS.items()},
            "languages": list(LANGUAGES),
            "language_names": LANGUAGE_NAMES,
            "min_side": MIN_SIDE,
            "max_side": MAX_SIDE,
            "techniques": list(TECHNIQUES),
            "max_reveal": MAX_REVEAL,
            "max_upload": MAX_UPLOAD,
        }

    async def _analyze(self, data: dict[str, Any]) -> dict[str, Any]:
        text = _field(data, "text", str)
        mines = data.get("mines")
        if mines is not None and (isinstance(mines, bool) or not isinstance(mines, int)):
            raise _BadRequest(400, "field 'mines' must be an integer")
        if mines is not None and mines < 0:
            # A field out of range, as a total above the covered cells is (not a format).
            raise ArgumentError(f"the mine total {mines} is negative", name="mines")
        lang = _field(data, "lang", str, "en")
        check_lang(lang)
        trust = _field(data, "trust_flags", bool, False)
        if len(text) > MAX_TEXT:
            raise ArgumentError(
                f"the position text has {len(text)} characters: the analysis board reads at "
                f"most {MAX_TEXT} (sides up to {MAX_SIDE})",
                name="text",
                allowed=(0, MAX_TEXT),
            )
        job = Job(analyze_text, (text, mines, trust, lang, MAX_SIDE), heavy=True)
        result: dict[str, Any] = await self.pool.run(job)
        return result


async def _disconnected(receive: Receive) -> None:
    """Return once the client has disconnected (the body has been read)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _raw_headers(response: Response) -> list[tuple[bytes, bytes]]:
    headers = {
        "Content-Type": response.content_type,
        "Content-Length": str(len(response.body)),
        **_SECURITY_HEADERS,
        **response.headers,
    }
    return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


async def _send(send: Send, response: Response) -> None:
    """Send ``response`` (uvicorn leaves out the body of an answer to HEAD)."""
    await send(
        {
            "type": "http.response.start",
            "status": response.status,
            "headers": _raw_headers(response),
        }
    )
    await send({"type": "http.response.body", "body": response.body, "more_body": False})


class _Deadlines:
    """What the server adds to uvicorn's HTTP/1.1 protocol: a deadline for idle and stalled
    connections, and JSON for malformed requests.

    Every ``idle_seconds`` a connection is looked at: one that was waiting for a request head
    at the last look and still is (it sent nothing, or only part of a head), or whose answer
    has waited for the client to read since the last look, is closed. uvicorn itself closes
    a kept-alive connection idle after an answer, but not one that never sends a request.
    """

    idle_seconds = 10.0
    cycle: Any
    flow: Any
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._last: tuple[object, bool, bool] | None = None
        self._tick: asyncio.TimerHandle | None = self.loop.call_later(self.idle_seconds, self._look)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        super().connection_lost(exc)  # type: ignore[misc]

    def _look(self) -> None:
        self._tick = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        waiting = cycle is None or cycle.response_complete
        stalled = self.flow.write_paused
        last, self._last = self._last, (cycle, waiting, stalled)
        same = last is not None and last[0] is cycle
        if same and last is not None and ((waiting and last[1]) or (stalled and last[2])):
            self.transport.abort()
            return
        self._tick = self.loop.call_later(self.idle_seconds, self._look)

    def send_400_response(self, msg: str) -> None:
        """Answer a request that cannot be parsed with a JSON error, and close."""
        response = _error(400, f"malformed HTTP request: {msg}", "request", {"Connection": "close"})
        head = [b"HTTP/1.1 400 Bad Request"]
        head += [k + b": " + v for k, v in _raw_headers(response)]
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + response.body)
        self.transport.close()


def _protocol(idle_seconds: float) -> type:
    """Return uvicorn's HTTP/1.1 protocol with :class:`_Deadlines`: on httptools' parser (a C
    extension, a third of the time per request of h11's) where it is installed, else h11."""
    base: type
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        base = HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools is a dependency
        from uvicorn.protocols.http.h11_impl import H11Protocol

        base = H11Protocol
    return type("Protocol", (_Deadlines, base), {"idle_seconds": idle_seconds})


def allowed_hosts(host: str) -> set[str] | None:
    """Return the Host names a server bound to ``host`` answers: the loopback names and the
    bound name, or ``None`` (any) when bound to every interface."""
    if host in ("", "0.0.0.0", "::"):
        return None
    return _LOCAL_HOSTS | {host.lower(), f"[{host.lower()}]"}


class Server:
    """uvicorn serving an :class:`App` on a socket bound by :func:`make_server`."""

    def __init__(self, app: App, sock: socket.socket, quiet: bool) -> None:
        self.app = app
        self.socket = sock
        self.server_address: tuple[str, int] = sock.getsockname()[:2]
        _logging(quiet)
        limits = app.limits
        protocol = _protocol(limits.idle_seconds)
        config = uvicorn.Config(
            app,
            http=protocol,
            lifespan="on",
            log_config=None,
            access_log=not quiet,
            limit_concurrency=limits.connections,
            timeout_keep_alive=max(1, round(limits.keep_alive_seconds)),
            timeout_graceful_shutdown=2,
            server_header=False,
            date_header=False,
        )
        self._uvicorn = uvicorn.Server(config)

    def serve_forever(self) -> None:
        """Serve until :meth:`shutdown` or Ctrl+C, which (in the main thread) ends in
        ``KeyboardInterrupt`` once the server has stopped, wherever it lands, even before
        uvicorn takes the signal. Raises ``RuntimeError`` when the worker pool cannot start."""
        interrupted = False

        def interrupt(signum: int, frame: FrameType | None) -> None:
            nonlocal interrupted
            interrupted = True
            self._uvicorn.should_exit = True

        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, interrupt) if main else None
        try:
            # uvicorn takes SIGINT while it serves, and raises it again once stopped.
            self._uvicorn.run(sockets=[self.socket])
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        if self.app.startup_error is not None:
            raise RuntimeError(self.app.startup_error)
        if interrupted:
            raise KeyboardInterrupt

    @property
    def started(self) -> bool:
        """Whether the server answers requests."""
        return bool(self._uvicorn.started)

    def shutdown(self) -> None:
        """Ask the server to stop (answers under way are finished, for up to 2 s)."""
        self._uvicorn.should_exit = True

    def server_close(self) -> None:
        """Release the socket."""
        self.socket.close()


def _logging(quiet: bool) -> None:
    """Send uvicorn's messages to standard error: its warnings, and each request unless
    ``quiet``."""
    for name, level in (("uvicorn.error", logging.WARNING), ("uvicorn.access", logging.INFO)):
        logger = logging.getLogger(name)
        logger.setLevel(logging.ERROR if quiet else level)
        if not logger.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("mineproof: %(message)s"))
            logger.addHandler(handler)
        logger.propagate = False


def make_server(app: App, host: str = "127.0.0.1", port: int = 8000, quiet: bool = False) -> Server:
    """Return a server for ``app`` bound to ``host:port`` (port 0: any free port); serve with
    ``serve_forever()``. Raises ``OSError`` when the address is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Named TCP, so that asyncio turns Nagle's algorithm off on each connection: headers and
    # body leave in two writes, and the second must not wait for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if sys.platform != "win32":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except BaseException:
        sock.close()
        raise
    return Server(app, sock, quiet)


def serve_in_thread(server: Server) -> Callable[[], None]:
    """Start ``server`` in a daemon thread and wait until it answers; return the function that
    stops it."""
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="mineproof-server")
    thread.start()
    while not server.started and thread.is_alive():
        threading.Event().wait(0.01)

    def stop() -> None:
        server.shutdown()
        thread.join()
        server.server_close()

    return stop
