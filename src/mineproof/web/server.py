"""The web app's HTTP server: the JSON API over :class:`~mineproof.web.games.Games` and the
page's static files, on the standard library's threading HTTP server.

Routes (cells are ``[x, y]``, x the column and y the row from the top-left):

- ``GET /`` the page; ``GET /static/NAME`` its files (only those shipped in the package);
- ``GET /api/meta``: levels, languages, limits;
- ``POST /api/games`` ``{"level", "width"?, "height"?, "mines"?, "guess_free"?}``: a new game;
- ``GET /api/games/ID``: the player's view of a game;
- ``POST /api/games/ID/open|flag|chord`` ``{"x", "y", "lang"?}``: a move; the answer holds the
  view, ``guess`` and ``tutor`` (the forced move that existed when a guess was made);
- ``GET /api/games/ID/hint?lang=L``, ``GET /api/games/ID/probabilities``;
- ``POST /api/analyze`` ``{"text", "mines"?, "trust_flags"?, "lang"?}``: the analysis of a
  pasted or edited position, with its next hint;
- ``GET /api/stats``.

Errors are JSON ``{"error": message}``: 400 for malformed JSON, a missing or mistyped field or a
cell outside the board; 404 for an unknown game or path; 405 for a wrong method; 409 for a move
after the end; 413 for a body over 1 MB; 415 for a POST that is not JSON; 421 for a request
whose Host is not this server (DNS rebinding); 422 for a position no arrangement fits or a board
that cannot be generated.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from mineproof import __version__
from mineproof.analysis import analyze
from mineproof.errors import InconsistentPositionError, MineproofError, http_status
from mineproof.explain import LANGUAGES
from mineproof.formats import load_position
from mineproof.web.games import LEVELS, MAX_SIDE, Games, check_lang, hint_json

__all__ = ["App", "Response", "allowed_hosts", "make_server", "serve_in_thread"]

MAX_BODY = 1 << 20

STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "i18n.json": "application/json; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
"""The only files served: the page and its assets, read from the installed package."""

_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'"
    ),
}

_GAME = re.compile(r"^/api/games/([A-Za-z0-9_-]{1,64})(?:/(open|flag|chord|hint|probabilities))?$")
_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}


@dataclass(frozen=True, slots=True)
class Response:
    """An HTTP answer: status, content type, body, extra headers."""

    status: int
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


class _BadRequest(Exception):
    """A request the API refuses, with its status."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers or {}


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
    """The routes of the web app over one :class:`Games`.

    ``hosts`` are the Host names accepted (``None``: any, for a server bound to all
    interfaces on purpose).
    """

    def __init__(self, games: Games, hosts: set[str] | None = None) -> None:
        self.games = games
        self.hosts = hosts

    def handle(self, method: str, target: str, headers: dict[str, str], body: bytes) -> Response:
        """Return the response to one request (never raises for bad input)."""
        try:
            self._check_host(headers.get("host", ""))
            return self._route(method, target, headers, body)
        except _BadRequest as exc:
            return _json(exc.status, {"error": str(exc)}, exc.headers)
        except MineproofError as exc:  # the status comes from the one table of errors
            data: dict[str, Any] = {"error": str(exc)}
            if isinstance(exc, InconsistentPositionError):
                data["clues"] = [list(c) for c in exc.clues]
            return _json(http_status(exc), data)
        except Exception as exc:  # a bug: answer, log, keep serving
            traceback.print_exc(file=sys.stderr)
            return _json(500, {"error": f"internal error: {type(exc).__name__}"})

    def _check_host(self, host: str) -> None:
        if self.hosts is None:
            return
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name.lower() not in self.hosts:
            raise _BadRequest(421, f"this server does not answer for host {host!r}")

    def _route(self, method: str, target: str, headers: dict[str, str], body: bytes) -> Response:
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
            )
            return _json(201, view)
        if path == "/api/analyze":
            self._method(method, "POST")
            return _json(200, self._analyze(self._body(headers, body)))
        found = _GAME.match(path)
        if found is None:
            raise _BadRequest(404, f"no such page {path!r}")
        game_id, action = found.groups()
        if action is None:
            self._method(method, "GET")
            return _json(200, self.games.view(game_id))
        if action == "hint":
            self._method(method, "GET")
            return _json(200, self.games.hint(game_id, query.get("lang", "en")))
        if action == "probabilities":
            self._method(method, "GET")
            return _json(200, self.games.probabilities(game_id))
        self._method(method, "POST")
        data = self._body(headers, body)
        result = self.games.move(
            game_id,
            action,
            _field(data, "x", int),
            _field(data, "y", int),
            _field(data, "lang", str, "en"),
        )
        return _json(200, {**result.view, "guess": result.guess, "tutor": result.tutor})

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
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:  # not JSON, a huge number, too deep
            raise _BadRequest(400, f"malformed JSON: {exc}") from None
        if not isinstance(data, dict):
            raise _BadRequest(400, "the JSON body must be an object")
        return data

    @staticmethod
    def _static(name: str) -> Response:
        if name not in STATIC:
            raise _BadRequest(404, f"no such file {name!r}")
        data = resources.files("mineproof.web").joinpath("static", name).read_bytes()
        return Response(200, data, STATIC[name], {"Cache-Control": "no-cache"})

    @staticmethod
    def _meta() -> dict[str, Any]:
        return {
            "version": __version__,
            "levels": {k: {"width": w, "height": h, "mines": m} for k, (w, h, m) in LEVELS.items()},
            "languages": list(LANGUAGES),
            "max_side": MAX_SIDE,
        }

    @staticmethod
    def _analyze(data: dict[str, Any]) -> dict[str, Any]:
        text = _field(data, "text", str)
        mines = data.get("mines")
        if mines is not None and (isinstance(mines, bool) or not isinstance(mines, int)):
            raise _BadRequest(400, "field 'mines' must be an integer")
        lang = _field(data, "lang", str, "en")
        check_lang(lang)
        trust = _field(data, "trust_flags", bool, False)
        position = load_position(text.encode(), mines)
        analysis = analyze(position, trust_flags=trust)
        return {
            "position": {
                "width": position.width,
                "height": position.height,
                "mines": position.mines,
                "cells": position.rows(),
                "text": position.text(),
            },
            "analysis": analysis.to_json(),
            "hint": hint_json(position, lang, trust, open=False),
        }


class _Handler(BaseHTTPRequestHandler):
    """Reads a request, asks the :class:`App`, writes the response."""

    protocol_version = "HTTP/1.1"
    # Headers and body leave in two writes: without this each answer on a kept-alive
    # connection waits for the client's delayed ACK (about 40 ms).
    disable_nagle_algorithm = True
    server_version = f"mineproof/{__version__}"
    app: App
    quiet: bool

    def _serve(self) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            length = int(headers.get("content-length", "0") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            response = _json(
                413 if length > 0 else 400,
                {"error": "bad or too large body"},
                {"Connection": "close"},
            )
            self.close_connection = True
        else:
            body = self.rfile.read(length) if length else b""
            response = self.app.handle(self.command, self.path, headers, body)
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        for k, v in {**_SECURITY_HEADERS, **response.headers}.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(response.body)

    do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = do_PATCH = _serve

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")


class _Server(ThreadingHTTPServer):
    """One thread per connection; a listen backlog for many clients connecting at once (a
    browser alone opens up to six connections)."""

    daemon_threads = True
    request_queue_size = 128


def allowed_hosts(host: str) -> set[str] | None:
    """Return the Host names a server bound to ``host`` answers: the loopback names and the
    bound name, or ``None`` (any) when bound to every interface."""
    if host in ("", "0.0.0.0", "::"):
        return None
    return _LOCAL_HOSTS | {host.lower(), f"[{host.lower()}]"}


def make_server(
    app: App, host: str = "127.0.0.1", port: int = 8000, quiet: bool = False
) -> ThreadingHTTPServer:
    """Return a threading HTTP server for ``app`` bound to ``host:port`` (port 0: any free
    port); serve with ``serve_forever()``. Raises ``OSError`` when the address is taken."""
    handler = type("Handler", (_Handler,), {"app": app, "quiet": quiet})
    server = _Server((host, port), handler)
    return server


def serve_in_thread(server: ThreadingHTTPServer) -> Callable[[], None]:
    """Start ``server`` in a daemon thread; return the function that stops it."""
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join()

    return stop
