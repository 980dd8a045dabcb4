"""The JSON API over HTTP, against a live server on a loopback port.

Status codes and one-line errors for every kind of bad request; whole games played through the
API with every reply checked against the layout kept by the server (nothing about an unopened
mine leaves it before the end unless the visible position proves it); the tutor, statistics and
restarts; the analysis of pasted positions; ``mineproof play`` as a process.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from mineproof.analysis import Analysis, analyze
from mineproof.board import Layout
from mineproof.errors import FORMAT_REASONS, InconsistentPositionError
from mineproof.explain import LANGUAGES, hint
from mineproof.formats.mstoollib import parse_grid
from mineproof.position import COVERED, FLAG, Position
from mineproof.web.games import LEVELS, MAX_SIDE
from mineproof.web.server import MAX_BODY, STATIC, App, allowed_hosts
from mineproof.web.strings import page_strings
from mineproof.web.work import MAX_TEXT

from .conftest import (
    HOST,
    JSON,
    MOVE_KEYS,
    Cell,
    Client,
    Clock,
    Server,
    assert_same_hint,
    cell_code,
    check_hint,
    check_view,
    covered,
    play,
    position_of,
    running,
)
from .test_store import damaged, filled, read_only

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "intermediate-midgame.txt"
ID = re.compile(r"[A-Za-z0-9_-]{22}")
FAKE_ID = "A" * 22


# --- helpers --------------------------------------------------------------------------------


def new_game(client: Client, level: str = "beginner", **fields: Any) -> JSON:
    return client.post("/api/games", {"level": level, **fields}).ok(201)


def view_of(reply: JSON) -> JSON:
    """Return the view part of a move's reply."""
    return {k: v for k, v in reply.items() if k not in MOVE_KEYS}


def started(client: Client, server: Server, level: str = "beginner", **fields: Any) -> JSON:
    """Return the view of a new game after its first click at the centre."""
    view = new_game(client, level, **fields)
    reply = client.move(view["id"], "open", (view["width"] // 2, view["height"] // 2))
    assert reply["guess"] is False and reply["tutor"] is None
    check_view(reply, server.layout(view["id"]), move=True)
    return view_of(reply)


def analysis_of(view: JSON) -> Analysis:
    return analyze(position_of(view))


def has(mask: int, layout: Layout, cell: Cell) -> bool:
    return bool(mask >> layout.board.index(*cell) & 1)


def unproven(view: JSON, layout: Layout, *, mine: bool) -> list[Cell]:
    """Return the covered cells the visible position does not prove safe (nor mined), that
    are mines (``mine``) or safe according to the layout."""
    analysis = analysis_of(view)
    forced = analysis.safe_mask | analysis.mine_mask
    return [
        c
        for c in covered(view)
        if not has(forced, layout, c) and has(layout.mines, layout, c) == mine
    ]


def lose(client: Client, server: Server, view: JSON) -> JSON:
    """Open a covered mine of a game in progress (a guess: a mine is never proven safe);
    return the lost game's view."""
    layout = server.layout(view["id"])
    assert layout is not None
    cell = next(c for c in covered(view) if has(layout.mines, layout, c))
    reply = client.move(view["id"], "open", cell)
    assert reply["state"] == "lost" and reply["guess"] is True
    check_view(reply, layout, move=True)
    return view_of(reply)


# --- creating games -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "size"),
    [
        ({"level": "beginner"}, (9, 9, 10)),
        ({"level": "intermediate"}, (16, 16, 40)),
        ({"level": "expert"}, (30, 16, 99)),
        ({"level": "expert", "guess_free": False}, (30, 16, 99)),
        ({"level": "beginner", "width": 50, "height": 50, "mines": 5}, (9, 9, 10)),
        ({"level": "custom", "width": 20, "height": 7, "mines": 30}, (20, 7, 30)),
        ({"level": "custom", "width": 2, "height": MAX_SIDE, "mines": 194}, (2, MAX_SIDE, 194)),
        ({"level": "custom", "width": 9, "height": 9, "mines": 72}, (9, 9, 72)),
        ({"level": "custom", "width": 4, "height": 4, "mines": 1}, (4, 4, 1)),
    ],
)
def test_create_every_level_and_custom(
    client: Client, server: Server, fields: JSON, size: tuple[int, int, int]
) -> None:
    reply = client.post("/api/games", fields)
    view = reply.ok(201)
    assert (view["width"], view["height"], view["mines"]) == size
    assert view["level"] == fields["level"]
    assert view["guess_free"] is fields.get("guess_free", True)
    assert (view["state"], view["moves"], view["guesses"], view["elapsed"]) == ("new", 0, 0, 0)
    assert ID.fullmatch(view["id"])
    check_view(view, None)
    assert reply.headers["cache-control"] == "no-store"
    assert reply.headers["x-content-type-options"] == "nosniff"
    row = server.store.load(view["id"])
    assert row is not None and row.layout is None and row.moves == []
    assert client.get(f"/api/games/{view['id']}").ok() == view


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({}, ["missing", "'level'"]),
        ({"level": "hard"}, ["level", "'hard'", "beginner"]),
        ({"level": "Beginner"}, ["level", "'Beginner'"]),
        ({"level": 3}, ["'level'", "str"]),
        ({"level": None}, ["'level'"]),
        ({"level": "custom", "width": 1, "height": 9, "mines": 3}, ["width 1", "2..100"]),
        ({"level": "custom", "width": 9, "height": 101, "mines": 3}, ["height 101", "2..100"]),
        ({"level": "custom", "width": -9, "height": 9, "mines": 3}, ["width -9"]),
        ({"level": "custom", "width": 9, "height": 9, "mines": 0}, ["0 mines", "9x9"]),
        ({"level": "custom", "width": 9, "height": 9}, ["0 mines"]),
        ({"level": "custom", "width": 9, "height": 9, "mines": 73}, ["73 mines", "1 to 72"]),
        ({"level": "custom", "width": 3, "height": 3, "mines": 1}, ["3x3 board has no room", "4"]),
        ({"level": "custom", "width": "9", "height": 9, "mines": 3}, ["'width'", "integer"]),
        ({"level": "custom", "width": 9.0, "height": 9, "mines": 3}, ["'width'", "integer"]),
        ({"level": "custom", "width": 9, "height": True, "mines": 3}, ["'height'", "integer"]),
        ({"level": "custom", "width": 9, "height": 9, "mines": [3]}, ["'mines'", "integer"]),
        ({"level": "beginner", "guess_free": "yes"}, ["'guess_free'", "bool"]),
        ({"level": "beginner", "guess_free": 1}, ["'guess_free'", "bool"]),
    ],
)
def test_bad_level_or_size_is_a_400_naming_it(
    client: Client, fields: JSON, words: list[str]
) -> None:
    message = client.post("/api/games", fields).error(400)
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("fields", "data"),
    [
        ({"width": 1, "height": 9, "mines": 3}, {"name": "width", "allowed": [2, MAX_SIDE]}),
        ({"width": 9, "height": 101, "mines": 3}, {"name": "height", "allowed": [2, MAX_SIDE]}),
        ({"width": 9, "height": 9, "mines": 73}, {"name": "mines", "allowed": [1, 72]}),
        ({"width": 3, "height": 3, "mines": 1}, {"name": "size"}),  # no room at all
        ({"width": 2, "height": 3, "mines": 1}, {"name": "size"}),
        ({"width": 4, "height": 3, "mines": 4}, {"name": "mines", "allowed": [1, 3]}),
        ({"width": 100, "height": 100, "mines": 0}, {"name": "mines", "allowed": [1, 9991]}),
    ],
)
def test_a_size_out_of_range_names_the_field_and_its_range(
    client: Client, fields: JSON, data: JSON
) -> None:
    """The page words the error in the player's language from these data alone."""
    reply = client.post("/api/games", {"level": "custom", **fields})
    reply.error(400)
    assert {k: reply.json()[k] for k in ("kind", *data)} == {"kind": "argument", **data}


def test_a_paste_too_big_for_the_analysis_board_names_the_limit(client: Client) -> None:
    """The page words these in the player's language from the data: the sides, the text."""
    wide = f"{MAX_SIDE + 1}x1x1\n" + "H" * (MAX_SIDE + 1) + "\n"
    reply = client.post("/api/analyze", {"text": wide})
    assert reply.error(400).startswith(f"the position is {MAX_SIDE + 1}x1")
    assert {k: reply.json()[k] for k in ("kind", "name", "allowed")} == {
        "kind": "argument",
        "name": "side",
        "allowed": [1, MAX_SIDE],
    }
    reply = client.post("/api/analyze", {"text": "H" * (MAX_TEXT + 1)})
    assert f"{MAX_TEXT + 1} characters" in reply.error(400)
    assert {k: reply.json()[k] for k in ("kind", "name", "allowed")} == {
        "kind": "argument",
        "name": "text",
        "allowed": [0, MAX_TEXT],
    }


def test_errors_name_their_kind_and_data(client: Client) -> None:
    reply = client.post("/api/analyze", {"text": "4x3x3\n001H\n11XH\nHHHH\n"})
    reply.error(400)
    assert {k: reply.json()[k] for k in ("kind", "line", "column")} == {
        "kind": "format",
        "line": 3,
        "column": 3,
    }
    reply = client.post("/api/analyze", {"text": "4x1x2\n1H1H\n"})
    reply.error(422)
    assert reply.json()["kind"] == "inconsistent" and reply.json()["clues"]
    assert client.get(f"/api/games/{FAKE_ID}").json()["kind"] == "not-found"
    assert client.get("/api/nothing").json()["kind"] == "not-found"
    assert client.post("/api/games", {}).json()["kind"] == "request"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            b'{"level": ',
            ["malformed JSON", "line 1, column 11", "expected a JSON value (a number, string"],
        ),
        (b"{'level': 'beginner'}", ["malformed JSON", "expected a key in double quotes"]),
        (b"", ["malformed JSON", "empty input: expected a JSON object"]),
        (b" \r\n", ["malformed JSON", "empty input: expected a JSON object"]),
        (
            b'{"level": "beginner"} x',
            ["malformed JSON", "column 23", "unexpected text after the end of the JSON value"],
        ),
        (b"\xff\xfe{}", ["malformed JSON"]),
        (b'{"level": "\xff"}', ["malformed JSON", "not UTF-8 text (bad byte at offset 11)"]),
        (b'["beginner"]', ["object"]),
        (b'"beginner"', ["object"]),
        (b"null", ["object"]),
    ],
)
def test_malformed_json_is_a_400(client: Client, body: bytes, words: list[str]) -> None:
    reply = client.request(
        "POST", "/api/games", body=body, headers={"Content-Type": "application/json"}
    )
    message = reply.error(400)
    for word in words:
        assert word in message
    assert reply.json()["kind"] == "request"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (
            b'{"level": "custom", "width": 1' + b"0" * 5000 + b"}",
            "a number has thousands of digits",
        ),
        (b"[" * 100_000, "lists or objects nested too deeply"),
    ],
    ids=["huge-integer", "deep-nesting"],
)
def test_json_the_decoder_refuses_is_a_400(client: Client, body: bytes, problem: str) -> None:
    reply = client.request(
        "POST", "/api/games", body=body, headers={"Content-Type": "application/json"}
    )
    assert reply.error(400) == f"malformed JSON: {problem}"


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "json"],
)
def test_post_that_is_not_json_is_a_415(
    client: Client, server: Server, content_type: str | None
) -> None:
    # A page of another site can post a form or text/plain without asking first: refused.
    headers = {} if content_type is None else {"Content-Type": content_type}
    body = b'{"level": "beginner"}'
    reply = client.request("POST", "/api/games", body=body, headers=headers)
    assert "application/json" in reply.error(415)
    view = new_game(client)
    move = b'{"x": 4, "y": 4}'
    reply = client.request("POST", f"/api/games/{view['id']}/open", body=move, headers=headers)
    reply.error(415)
    assert client.get(f"/api/games/{view['id']}").ok()["state"] == "new"


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "Application/JSON"])
def test_json_content_type_variants_are_accepted(client: Client, content_type: str) -> None:
    reply = client.request(
        "POST", "/api/games", body=b'{"level": "beginner"}', headers={"Content-Type": content_type}
    )
    assert reply.ok(201)["level"] == "beginner"


# --- statuses -------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["", "/hint", "/probabilities", "/open", "/flag", "/chord"])
def test_unknown_game_is_a_404(client: Client, action: str) -> None:
    path = f"/api/games/{FAKE_ID}{action}"
    if action in ("", "/hint", "/probabilities"):
        reply = client.get(path)
    else:
        reply = client.post(path, {"x": 0, "y": 0})
    assert FAKE_ID in reply.error(404)


@pytest.mark.parametrize(
    "path",
    [
        "/api",
        "/api/",
        "/api/nothing",
        "/api/games/",
        "/api/games/bad.id",
        "/api/games/" + "A" * 65,
        f"/api/games/{FAKE_ID}/solve",
        f"/api/games/{FAKE_ID}/hint/more",
        "/index.html",
        "/app.js",
        "/js/main.js",
        "/robots.txt",
        "/API/META",
    ],
)
def test_unknown_path_is_a_404(client: Client, path: str) -> None:
    client.get(path).error(404)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/"),
        ("PUT", "/static/js/main.js"),
        ("DELETE", "/api/meta"),
        ("POST", "/api/stats"),
        ("GET", "/api/games"),
        ("PUT", "/api/games"),
        ("DELETE", "/api/games/{id}"),
        ("POST", "/api/games/{id}"),
        ("GET", "/api/games/{id}/open"),
        ("PATCH", "/api/games/{id}/flag"),
        ("GET", "/api/games/{id}/chord"),
        ("POST", "/api/games/{id}/hint"),
        ("POST", "/api/games/{id}/probabilities"),
        ("GET", "/api/analyze"),
    ],
)
def test_wrong_method_is_a_405(client: Client, method: str, path: str) -> None:
    game_id = new_game(client)["id"]
    data = {"level": "beginner", "x": 4, "y": 4, "text": "1x1x0\n0"}
    reply = client.request(method, path.format(id=game_id), data)
    assert method in reply.error(405)
    assert client.get(f"/api/games/{game_id}").ok()["moves"] == 0


def test_head_is_a_get_without_body(client: Client) -> None:
    reply = client.request("HEAD", "/api/meta")
    assert reply.status == 200 and reply.body == b""
    assert int(reply.headers["content-length"]) == len(client.get("/api/meta").body)
    assert client.request("HEAD", "/api/games").status == 405


def test_405_names_the_allowed_methods(client: Client) -> None:
    assert client.request("DELETE", "/api/meta").headers.get("allow") == "GET, HEAD"
    assert client.request("GET", "/api/games").headers.get("allow") == "POST"


def test_meta(client: Client) -> None:
    meta = client.get("/api/meta").ok()
    assert meta["levels"] == {
        name: {"width": w, "height": h, "mines": m} for name, (w, h, m) in LEVELS.items()
    }
    assert meta["languages"] == list(LANGUAGES)
    assert meta["max_side"] == MAX_SIDE
    assert meta["min_side"] == 2
    assert list(meta["language_names"]) == list(LANGUAGES)
    assert isinstance(meta["version"], str) and meta["version"]


def test_the_page_strings_come_in_every_language(client: Client) -> None:
    english = client.get("/api/strings").ok()
    assert english == client.get("/api/strings?lang=en").ok()
    assert english["new_game"] == "New game"
    for lang in LANGUAGES[1:]:
        table = client.get(f"/api/strings?lang={lang}").ok()
        assert table.keys() == english.keys(), lang
        assert table["new_game"] != english["new_game"], lang
    assert "unknown language" in client.get("/api/strings?lang=xx").error(400)


def test_each_format_reason_has_the_pages_words_in_every_language() -> None:
    """The page words what is wrong in a pasted text from the reason the server names: each
    reason has a string, keyed ``format_`` and the reason, with exactly the placeholders of
    the details it carries."""
    for lang in LANGUAGES:
        strings = page_strings(lang)
        for reason, details in FORMAT_REASONS.items():
            text = strings["format_" + reason.replace("-", "_")]
            assert set(re.findall(r"{(\w+)}", text)) == set(details), (lang, reason)


def test_a_pasted_text_refused_names_its_reason(client: Client) -> None:
    """The answer to a text that is no position carries the reason and its details."""
    reply = client.post("/api/analyze", {"text": "4x3x3\n01HH\n13HH\n"})
    assert "3 rows but 2 follow" in reply.error(400)
    data = reply.json()
    assert (data["reason"], data["details"]) == ("row-count", {"expected": 3, "found": 2})


@pytest.mark.parametrize("kind", ["open", "flag", "chord"])
@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (9, 0), (0, 9), (9, 9), (1000, 1)])
def test_cell_outside_the_board_is_a_400(
    client: Client, server: Server, kind: str, cell: Cell
) -> None:
    view = new_game(client)
    path = f"/api/games/{view['id']}/{kind}"
    x, y = cell
    message = client.post(path, {"x": x, "y": y}).error(400)
    assert f"({x}, {y})" in message and "9x9" in message
    view = started(client, server)
    message = client.post(f"/api/games/{view['id']}/{kind}", {"x": x, "y": y}).error(400)
    assert f"({x}, {y})" in message
    assert client.get(f"/api/games/{view['id']}").ok() == view


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"y": 1}, ["missing", "'x'"]),
        ({"x": 1}, ["missing", "'y'"]),
        ({"x": "1", "y": 1}, ["'x'", "integer"]),
        ({"x": 1, "y": 1.5}, ["'y'", "integer"]),
        ({"x": False, "y": 1}, ["'x'", "integer"]),
        ({"x": 1, "y": 1, "lang": "xx"}, ["language", "'xx'"]),
        ({"x": 1, "y": 1, "lang": 7}, ["'lang'"]),
    ],
)
def test_bad_move_fields_are_a_400(
    client: Client, server: Server, fields: JSON, words: list[str]
) -> None:
    view = started(client, server)
    message = client.post(f"/api/games/{view['id']}/open", fields).error(400)
    for word in words:
        assert word in message
    assert client.get(f"/api/games/{view['id']}").ok() == view


def test_bad_hint_language_is_a_400(client: Client, server: Server) -> None:
    view = started(client, server)
    assert "'tlh'" in client.get(f"/api/games/{view['id']}/hint?lang=tlh").error(400)


def test_flag_on_an_opened_cell_is_refused(client: Client, server: Server) -> None:
    view = started(client, server)
    cell = (view["width"] // 2, view["height"] // 2)
    reply = client.post(f"/api/games/{view['id']}/flag", {"x": cell[0], "y": cell[1]})
    assert reply.status in (400, 409)
    assert "already open" in reply.error(reply.status)
    assert client.get(f"/api/games/{view['id']}").ok() == view


def test_move_after_the_end_is_a_409(client: Client, server: Server) -> None:
    view = lose(client, server, started(client, server))
    base = f"/api/games/{view['id']}"
    cell = covered(view)[0]
    for kind in ("open", "flag", "chord"):
        assert "over" in client.post(f"{base}/{kind}", {"x": cell[0], "y": cell[1]}).error(409)
    assert "over" in client.get(f"{base}/hint").error(409)
    assert "over" in client.get(f"{base}/probabilities").error(409)
    assert client.get(base).ok() == view


# --- hosts and bodies -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",
        "127.0.0.1.evil.example:{port}",
        "localhost.evil.example",
        "192.168.1.10:{port}",
        "[::2]:{port}",
        "",
        None,
    ],
)
@pytest.mark.parametrize(
    ("method", "path"), [("GET", "/"), ("GET", "/api/meta"), ("POST", "/api/games")]
)
def test_foreign_host_is_a_421(client: Client, host: str | None, method: str, path: str) -> None:
    # DNS rebinding: a page of evil.example whose name now points to 127.0.0.1.
    sent = None if host is None else host.format(port=client.port)
    data = {"level": "beginner"} if method == "POST" else None
    reply = client.request(method, path, data, host=sent)
    assert "host" in reply.error(421)


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "127.0.0.1", "localhost:{port}", "LocalHost", "[::1]:{port}"]
)
def test_loopback_hosts_are_served(client: Client, host: str) -> None:
    reply = client.request("GET", "/api/meta", host=host.format(port=client.port))
    assert reply.ok()["max_side"] == MAX_SIDE


def test_allowed_hosts(server: Server) -> None:
    assert allowed_hosts("0.0.0.0") is None and allowed_hosts("::") is None
    assert allowed_hosts("") is None
    hosts = allowed_hosts("MyBox.lan")
    assert hosts is not None and {"mybox.lan", "localhost", "127.0.0.1", "[::1]"} <= hosts
    app = App(server.games, hosts)
    assert (
        asyncio.run(app.handle("GET", "/api/meta", {"host": "mybox.lan:8000"}, b"")).status == 200
    )
    assert (
        asyncio.run(app.handle("GET", "/api/meta", {"host": "other.lan:8000"}, b"")).status == 421
    )
    anyone = App(server.games, None)
    assert asyncio.run(anyone.handle("GET", "/api/meta", {"host": "other.lan"}, b"")).status == 200


def test_body_too_large_is_a_413(client: Client) -> None:
    headers = {"Content-Type": "application/json", "Content-Length": str(MAX_BODY + 1)}
    # Only the headers are sent: the server must answer without reading the body.
    reply = client.request("POST", "/api/games", headers=headers)
    reply.error(413)
    headers = {"Content-Type": "application/json", "Content-Length": str(1 << 40)}
    client.request("POST", "/api/analyze", headers=headers).error(413)


def test_body_of_exactly_the_limit_is_read(client: Client) -> None:
    body = b'{"level": "beginner"}'
    body += b" " * (MAX_BODY - len(body))
    reply = client.request(
        "POST", "/api/games", body=body, headers={"Content-Type": "application/json"}
    )
    assert reply.ok(201)["level"] == "beginner"


@pytest.mark.parametrize("length", ["-1", "abc", "1e3"])
def test_bad_content_length_is_a_400(client: Client, length: str) -> None:
    headers = {"Content-Type": "application/json", "Content-Length": length}
    client.request("POST", "/api/games", headers=headers).error(400)


# --- static files ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(STATIC))
def test_static_files_are_served(client: Client, name: str) -> None:
    expected = resources.files("mineproof.web").joinpath("static", name).read_bytes()
    for path in (f"/static/{name}", f"/static/{name}?v=2"):
        reply = client.get(path)
        assert reply.status == 200 and reply.body == expected
        assert reply.headers["content-type"] == STATIC[name]
        assert reply.headers["x-content-type-options"] == "nosniff"
        assert reply.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in reply.headers["content-security-policy"]


def test_root_is_the_page(client: Client) -> None:
    reply = client.get("/")
    expected = resources.files("mineproof.web").joinpath("static", "index.html").read_bytes()
    assert reply.status == 200 and reply.body == expected
    assert reply.headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in reply.headers["content-security-policy"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/../store.py",
        "/static/../server.py",
        "/static/%2e%2e/store.py",
        "/static/%2E%2E%2Fstore.py",
        "/static/..%2fstore.py",
        "/static/..%5cstore.py",
        "/static/..\\store.py",
        "/static/../../mineproof/web/games.py",
        "/static/%2e%2e/%2e%2e/cli.py",
        "/static/....//store.py",
        "/static/./style.css",
        "/static/style.css/",
        "/static/style.css/..",
        "/static//style.css",
        "/static/",
        "/static",
        "/static/STYLE.CSS",
        "/static/style.css%00.png",
        "/static/style%2ecss",
        "/static/app.js",
        "/static/i18n.json",
        "/static/js",
        "/static/js/",
        "/static/js/./main.js",
        "/static/js//main.js",
        "/static/js/../style.css",
        "/static/js%2fmain.js",
        "/static/JS/main.js",
        "/static/js/main.js/",
        "/static/__init__.py",
        "/static/../__init__.py",
        "/static/%2fetc%2fpasswd",
        "/static//etc/passwd",
        "/%2e%2e/store.py",
    ],
)
def test_only_whitelisted_static_names_are_served(client: Client, path: str) -> None:
    reply = client.get(path)
    reply.error(404)
    assert b"import" not in reply.body and b"root:" not in reply.body


def test_missing_static_file_is_answered(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(STATIC, "missing.css", "text/css; charset=utf-8")
    reply = client.get("/static/missing.css")
    assert reply.status in (404, 500)
    reply.error(reply.status)


# --- whole games: nothing secret leaves the server -----------------------------------------


@pytest.mark.parametrize("level", ["beginner", "intermediate"])
def test_guess_free_game_won_by_proven_moves_only(
    client: Client, server: Server, level: str
) -> None:
    view = new_game(client, level)
    done = play(client, view, server=server)
    assert done.view["state"] == "won", done
    assert done.guesses == 0 and done.view["guesses"] == 0
    # Every flag is on a proven mine (check_view: no wrong flags); the last safe cells may
    # win the game before the last mines are proven.
    assert done.flagged <= view["mines"]
    assert done.view["mines_left"] == view["mines"] - done.flagged
    final = client.get(f"/api/games/{view['id']}").ok()
    assert final == done.view
    check_view(final, server.layout(view["id"]))
    row = server.store.load(view["id"])
    assert row is not None and row.state == "won" and row.guesses == 0


# Most random beginner boards need no guess; most intermediate and expert ones do.
@pytest.mark.parametrize(("level", "attempts"), [("intermediate", 15), ("expert", 8)])
def test_random_game_lost_by_guessing(
    client: Client, server: Server, level: str, attempts: int
) -> None:
    for _ in range(attempts):
        view = new_game(client, level, guess_free=False)
        game_id = view["id"]

        def guess_a_mine(current: JSON, game_id: str = game_id) -> Cell:
            layout = server.layout(game_id)
            assert layout is not None
            check_hint(client.get(f"/api/games/{game_id}/hint").ok(), current)
            return unproven(current, layout, mine=True)[0]

        done = play(client, view, server=server, guesser=guess_a_mine)
        if done.view["state"] == "won":
            continue  # this random board needed no guess: try another
        assert done.view["state"] == "lost" and done.guesses == 1
        assert done.view["guesses"] == 1 and done.view["exploded"] in done.view["mine_cells"]
        return
    pytest.fail(f"no random {level} board needed a guess in {attempts} games")


def test_before_the_first_click_hint_and_probabilities_say_to_click_anywhere(
    client: Client, server: Server
) -> None:
    # The board is drawn at the first click, which always opens an area: every cell is safe
    # to click first, so a guess with its odds (10 mines in 81 cells) would mislead.
    view = new_game(client)
    base = f"/api/games/{view['id']}"
    for what in ("hint", "probabilities"):
        reply = client.get(f"{base}/{what}")
        assert reply.status == 409
        assert reply.json()["kind"] == "not-started"
        assert "first click, on any cell, opens an area" in reply.json()["error"]
    assert server.layout(view["id"]) is None  # nothing drawn before the first click
    assert client.get(base).ok()["assists"] == 0  # and no help counted


@pytest.mark.parametrize("lang", ["de", "ja", "ru"])
def test_hint_in_another_language(client: Client, server: Server, lang: str) -> None:
    view = started(client, server)
    found = client.get(f"/api/games/{view['id']}/hint?lang={lang}").ok()
    check_hint(found, view, lang)
    english = client.get(f"/api/games/{view['id']}/hint").ok()
    assert found["text"] != english["text"]


def test_game_ids_are_unguessable(client: Client) -> None:
    ids = [new_game(client)["id"] for _ in range(300)]
    assert all(ID.fullmatch(i) for i in ids)
    assert len(set(ids)) == len(ids)
    # 128 random bits: every position of the id takes many values over 300 games.
    assert all(len({i[k] for i in ids}) > 20 for k in range(21))


# --- the tutor, flags and chords -----------------------------------------------------------


def _fresh_with_safe_cell(client: Client, server: Server) -> tuple[JSON, Layout, Analysis]:
    """Return a started beginner game, its layout and its analysis, where after the first
    click a safe cell is forced, and some mine and some safe numbered cell are not."""
    for _ in range(20):
        view = started(client, server)
        layout = server.layout(view["id"])
        assert layout is not None
        analysis = analysis_of(view)
        numbers = layout.numbers()
        if (
            view["state"] == "playing"
            and analysis.safe_mask
            and unproven(view, layout, mine=True)
            and any(numbers[layout.board.index(*c)] > 0 for c in unproven(view, layout, mine=False))
        ):
            return view, layout, analysis
    pytest.fail("no beginner game with forced and unforced cells after the first click")


def _needless_guess(client: Client, server: Server) -> tuple[JSON, Layout, Analysis, JSON]:
    """Start a game (see :func:`_fresh_with_safe_cell`), open an unproven safe cell with a
    number (it opens only itself, the game goes on) and return the view, layout and analysis
    before that guess, and its reply."""
    view, layout, before = _fresh_with_safe_cell(client, server)
    numbers = layout.numbers()
    cell = next(
        c for c in unproven(view, layout, mine=False) if numbers[layout.board.index(*c)] > 0
    )
    return view, layout, before, client.move(view["id"], "open", cell)


def test_guess_while_a_move_is_forced_gets_the_tutor(own_server: Server) -> None:
    server, client = own_server, own_server.client()
    view, layout, before, reply = _needless_guess(client, server)
    game_id = view["id"]
    check_view(reply, layout, move=True)
    assert reply["guess"] is True and reply["guesses"] == 1 and reply["state"] == "playing"
    tutor = reply["tutor"]
    assert tutor is not None and (tutor["safe"] or tutor["mine"])
    for c in tutor["safe"]:
        assert has(before.safe_mask, layout, tuple(c))
    for c in tutor["mine"]:
        assert has(before.mine_mask, layout, tuple(c))
    assert_same_hint(tutor, hint(position_of(view), open=True).to_json())

    # A proven safe cell: no guess, no tutor.
    safe = next(c for c in covered(view_of(reply)) if has(before.safe_mask, layout, c))
    reply = client.move(game_id, "open", safe)
    assert (reply["guess"], reply["tutor"], reply["guesses"]) == (False, None, 1)
    # A flag, even on an unproven cell, is never a guess; a second flag removes it.
    cell = covered(view_of(reply))[0]
    reply = client.move(game_id, "flag", cell)
    assert (reply["guess"], reply["tutor"], cell_code(reply, cell)) == (False, None, FLAG)
    reply = client.move(game_id, "flag", cell)
    assert (reply["guess"], reply["tutor"], cell_code(reply, cell)) == (False, None, COVERED)
    assert reply["guesses"] == 1

    done = play(client, view_of(reply), server=server)
    assert done.view["state"] == "won" and done.view["guesses"] == 1
    (stats,) = client.get("/api/stats").ok()["stats"]
    assert stats["level"] == "beginner" and stats["guess_free"] is True
    assert (stats["played"], stats["won"], stats["guesses_per_game"]) == (1, 1, 1.0)


def test_the_tutors_word_is_said_again_in_another_language_and_is_no_help(
    own_server: Server,
) -> None:
    """After a change of language the page asks what the Tutor said on a move, in the new one:
    the hint of the position before that move, as no help for the statistics."""
    server, client = own_server, own_server.client()
    view, _, _, reply = _needless_guess(client, server)
    game_id = view["id"]
    move = reply["moves"] - 1
    tutor = f"/api/games/{game_id}/tutor"
    assert client.get(f"{tutor}?move={move}&lang=en").ok() == {"tutor": reply["tutor"]}
    again = client.get(f"{tutor}?move={move}&lang=fr").ok()["tutor"]
    assert_same_hint(again, hint(position_of(view), "fr", open=True).to_json())
    assert again["steps"][0]["text"] != reply["tutor"]["steps"][0]["text"]
    # The first click said nothing; a flag is no guess.
    assert client.get(f"{tutor}?move=0").ok() == {"tutor": None}
    client.move(game_id, "flag", covered(view_of(reply))[0])
    assert client.get(f"{tutor}?move={move + 1}").ok() == {"tutor": None}
    assert client.get(f"/api/games/{game_id}").ok()["assists"] == 0
    # Moves it has not made, malformed numbers, another game.
    assert "no move 9" in client.get(f"{tutor}?move=9").error(400)
    for bad in ("", "-1", "x", "%C2%B2", "1" * 10):
        client.get(f"{tutor}?move={bad}").error(400)
    client.get(f"{tutor}?move=1&lang=xx").error(400)
    client.get("/api/games/nosuchgame/tutor?move=0").error(404)


def test_guess_into_a_mine_loses_with_the_tutor(own_server: Server) -> None:
    server, client = own_server, own_server.client()
    view, layout, before = _fresh_with_safe_cell(client, server)
    reply = client.move(view["id"], "open", unproven(view, layout, mine=True)[0])
    check_view(reply, layout, move=True)
    assert reply["state"] == "lost" and reply["guess"] is True and reply["guesses"] == 1
    tutor = reply["tutor"]
    assert tutor is not None
    assert_same_hint(tutor, hint(position_of(view), open=True).to_json())
    assert all(has(before.safe_mask, layout, tuple(c)) for c in tutor["safe"])
    assert all(has(before.mine_mask, layout, tuple(c)) for c in tutor["mine"])
    (stats,) = client.get("/api/stats").ok()["stats"]
    assert (stats["played"], stats["won"], stats["guesses_per_game"]) == (1, 0, 1.0)


def test_a_guess_when_only_mines_are_provable_gets_no_tutor(own_server: Server) -> None:
    """The tutor speaks of a safe cell the player could have opened: when the position proves
    only mines, a guess was needed and nothing is said (it used to show the mines)."""
    server, client = own_server, own_server.client()
    for _ in range(200):
        view = started(client, server, guess_free=False)
        layout = server.layout(view["id"])
        assert layout is not None
        analysis = analysis_of(view)
        if view["state"] == "playing" and analysis.mine_mask and not analysis.safe_mask:
            break
    else:
        pytest.fail("no random beginner game proves only mines after its first click")
    reply = client.move(view["id"], "open", unproven(view, layout, mine=False)[0])
    assert reply["guess"] is True and reply["tutor"] is None


def _chordable(view: JSON) -> Cell | None:
    """Return an opened number whose flags equal it and that has covered neighbours."""
    position = position_of(view)
    board = position.board
    for i, code in enumerate(position.cells):
        if code <= 0:
            continue
        near = board.neighbours(i)
        flags = sum(1 for n in near if position.cells[n] == FLAG)
        if flags == code and any(position.cells[n] == COVERED for n in near):
            return board.xy(i)
    return None


def test_chord_next_to_proven_flags_is_no_guess(client: Client, server: Server) -> None:
    for _ in range(5):
        view = started(client, server)
        game_id = view["id"]
        layout = server.layout(game_id)
        assert layout is not None
        while view["state"] == "playing":
            analysis = analysis_of(view)
            for cell in covered(view):
                if has(analysis.mine_mask, layout, cell):
                    view = view_of(client.move(game_id, "flag", cell))
            target = _chordable(view)
            if target is not None:
                before = sum(1 for row in view["cells"] for code in row if code >= 0)
                reply = client.move(game_id, "chord", target)
                check_view(reply, layout, move=True)
                assert (reply["guess"], reply["tutor"]) == (False, None)
                assert sum(1 for row in reply["cells"] for code in row if code >= 0) > before
                assert reply["state"] != "lost"
                return
            safe = [c for c in covered(view) if has(analysis.safe_mask, layout, c)]
            view = view_of(client.move(game_id, "open", safe[0]))
    pytest.fail("no game offered a chord")


def test_chord_next_to_a_wrong_flag_loses(client: Client, server: Server) -> None:
    for _ in range(10):
        view = started(client, server)
        game_id = view["id"]
        layout = server.layout(game_id)
        assert layout is not None
        position = position_of(view)
        board = position.board
        for i, code in enumerate(position.cells):
            near = [n for n in board.neighbours(i) if position.cells[n] == COVERED]
            safe = [n for n in near if not layout.is_mine(n)]
            if code <= 0 or len(safe) < code or len(safe) == len(near):
                continue
            wrong = sorted(board.xy(n) for n in safe[:code])
            for cell in wrong:
                client.move(game_id, "flag", cell)
            reply = client.move(game_id, "chord", board.xy(i))
            check_view(reply, layout, move=True)
            assert reply["state"] == "lost" and reply["guess"] is True
            assert sorted(map(tuple, reply["wrong_flags"])) == wrong
            x, y = reply["exploded"]
            assert board.index(x, y) in near
            return
    pytest.fail("no game had a number to chord with a wrong flag")


# --- restarts and statistics ----------------------------------------------------------------


def test_games_survive_a_restart(tmp_path: Path, clock: Clock) -> None:
    data = tmp_path / "data"
    with running(data, clock) as first:
        client = first.client()
        view, layout, analysis = _fresh_with_safe_cell(client, first)
        game_id = view["id"]
        # Flag, unflag and flag again an unproven mine; one guess (an unproven safe number,
        # which opens only itself); then a cell that was proven safe before it.
        flagged = next(c for c in covered(view) if has(layout.mines, layout, c))
        for _ in range(3):
            client.move(game_id, "flag", flagged)
        numbers = layout.numbers()
        cell = next(
            c for c in unproven(view, layout, mine=False) if numbers[layout.board.index(*c)] > 0
        )
        assert client.move(game_id, "open", cell)["guess"] is True
        safe = next(c for c in covered(view) if has(analysis.safe_mask, layout, c))
        assert client.move(game_id, "open", safe)["guess"] is False
        clock.now += 17.25
        playing = client.get(f"/api/games/{game_id}").ok()
        assert playing["state"] == "playing" and playing["guesses"] == 1
        assert cell_code(playing, flagged) == FLAG and playing["moves"] == 6
        fresh = new_game(client, "intermediate")
        lost = lose(client, first, started(client, first, "expert", guess_free=False))
        stats = client.get("/api/stats").ok()
    with running(data, clock) as second:
        client = second.client()
        assert client.get(f"/api/games/{game_id}").ok() == playing
        assert client.get(f"/api/games/{fresh['id']}").ok() == fresh
        assert client.get(f"/api/games/{lost['id']}").ok() == lost
        assert client.get("/api/stats").ok() == stats
        assert second.layout(game_id) == layout
        cell_xy = covered(lost)[0]
        client.post(f"/api/games/{lost['id']}/open", {"x": cell_xy[0], "y": cell_xy[1]}).error(409)
        done = play(client, playing, server=second)
        assert done.view["state"] == "won" and done.view["guesses"] == 1
        assert play(client, fresh, server=second).view["state"] == "won"
    with running(data, clock) as third:
        assert third.client().get(f"/api/games/{game_id}").ok() == done.view


def clear(client: Client, server: Server, view: JSON) -> JSON:
    """Open every safe cell of a game in progress, reading the layout (a player who asks for no
    help: the statistics count the game unassisted); return the won game's view."""
    layout = server.layout(view["id"])
    assert layout is not None
    for i in range(layout.board.size):
        cell = layout.board.xy(i)
        if not layout.is_mine(i) and cell_code(view, cell) == COVERED:
            view = view_of(client.move(view["id"], "open", cell))
    assert view["state"] == "won"
    return view


STATS_SHOWN = ("level", "guess_free", "assisted", "played", "won", "abandoned", "in_progress")


def test_stats_per_level_and_mode(own_server: Server, clock: Clock) -> None:
    server, client = own_server, own_server.client()
    assert client.get("/api/stats").ok() == {"stats": []}

    def timed(level: str, start: float, end: float, helped: bool, **fields: Any) -> JSON:
        clock.now = start - 5
        view = new_game(client, level, **fields)
        clock.now = start
        view = view_of(client.move(view["id"], "open", (4, 4)))
        clock.now = end
        layout = server.layout(view["id"])
        assert layout is not None
        assert client.get(f"/api/games/{view['id']}").ok()["elapsed"] == end - start
        if not helped:
            return clear(client, server, view)
        # A guess that does not lose, when the first click left an unproven safe cell.
        candidates = unproven(view, layout, mine=False)
        if candidates:
            reply = client.move(view["id"], "open", candidates[0])
            assert reply["guess"] is True and reply["guesses"] == 1
            view = view_of(reply)
        done = play(client, view, server=server).view  # asks for hints and probabilities
        assert done["assists"] > 0
        return done

    won = timed("beginner", 1000.0, 1042.5, False)
    assert won["state"] == "won" and won["elapsed"] == 42.5 and won["assists"] == 0
    won = timed("beginner", 1100.0, 1160.0, False)
    won = timed("beginner", 2000.0, 2030.0, True)
    assert won["state"] == "won" and won["elapsed"] == 30.0
    guesses = won["guesses"]
    clock.now = 2100.0  # a finished game's time stands still
    assert client.get(f"/api/games/{won['id']}").ok()["elapsed"] == 30.0
    clock.now = 3000.0
    lose(client, server, started(client, server, guess_free=False))
    started(client, server, "intermediate")  # left when the next game starts: abandoned
    clock.now = 3100.0
    started(client, server, "expert")  # in progress
    stats = client.get("/api/stats").ok()["stats"]
    assert [{k: row[k] for k in STATS_SHOWN} for row in stats] == [
        {
            **dict.fromkeys(STATS_SHOWN, 0),
            "level": "beginner",
            "guess_free": True,
            "assisted": False,
            "played": 2,
            "won": 2,
        },
        {
            **dict.fromkeys(STATS_SHOWN, 0),
            "level": "beginner",
            "guess_free": True,
            "assisted": True,
            "played": 1,
            "won": 1,
        },
        {
            **dict.fromkeys(STATS_SHOWN, 0),
            "level": "beginner",
            "guess_free": False,
            "assisted": False,
            "played": 1,
        },
        {
            **dict.fromkeys(STATS_SHOWN, 0),
            "level": "intermediate",
            "guess_free": True,
            "assisted": False,
            "played": 1,
            "abandoned": 1,
        },
        {
            **dict.fromkeys(STATS_SHOWN, 0),
            "level": "expert",
            "guess_free": True,
            "assisted": False,
            "in_progress": 1,
        },
    ]
    plain, helped = stats[0], stats[1]
    assert plain["best_time"] == 42.5 and plain["times"] == [42.5, 60.0]
    assert plain["streak"] == plain["best_streak"] == 2
    assert helped["best_time"] is None and helped["times"] == []
    assert helped["guesses_per_game"] == guesses
    # Starting another game (never clicked: it is not counted) abandons the expert game.
    clock.now = 3200.0
    new_game(client, "custom", width=7, height=5, mines=3)
    expert = client.get("/api/stats").ok()["stats"][-1]
    assert (expert["level"], expert["played"], expert["abandoned"]) == ("expert", 1, 1)
    assert expert["in_progress"] == 0 and expert["won"] == 0


# --- analysis of a pasted position ----------------------------------------------------------


CASE_SNAKE = Path(__file__).resolve().parents[1] / "data" / "case-snake-81.txt"
"""``case_snake(81)`` of ``tests/analysis/hostile.py`` (``test_budget`` checks the copy)."""


def _analyze(client: Client, **fields: Any) -> JSON:
    return client.post("/api/analyze", fields).ok()


def test_analyze_jsminesweeper_text(client: Client) -> None:
    text = EXAMPLE.read_text()
    position = Position.parse(text)
    reply = _analyze(client, text=text)
    assert reply["analysis"] == analyze(position).to_json()
    assert reply["analysis"]["arrangements"] == "54"
    assert reply["position"]["text"] == position.text()
    assert (reply["position"]["width"], reply["position"]["mines"]) == (16, 40)
    assert [c for row in reply["position"]["cells"] for c in row] == list(position.cells)
    assert_same_hint(reply["hint"], hint(position).to_json())
    other = _analyze(client, text=text, mines=41, lang="fr")
    assert other["analysis"] == analyze(Position(position.board, position.cells, 41)).to_json()
    assert other["hint"]["text"] == hint(Position(position.board, position.cells, 41), "fr").text


def test_an_analysis_whose_hint_is_too_complex_to_explain_still_answers(client: Client) -> None:
    # 1,481 linked numbers, decided only by a case analysis at the end of their chain: the
    # count is exact, the hint is refused (too complex to explain), the answer holds both.
    text = CASE_SNAKE.read_text()
    position = Position.parse(text)
    reply = _analyze(client, text=text, trust_flags=True)
    assert reply["hint"] is None
    assert reply["analysis"] == analyze(position, trust_flags=True).to_json()
    assert reply["analysis"]["arrangements"] == "1"


def test_analyze_mstoollib_grid(client: Client) -> None:
    grid = [[0, 0, 1, 10], [1, 1, 2, 10], [10, 10, 10, 10], [10, 11, 10, 10]]
    text = json.dumps(grid)
    position = parse_grid(text, 3)
    reply = _analyze(client, text=text, mines=3)
    assert reply["analysis"] == analyze(position).to_json()
    assert reply["position"]["text"] == position.text()
    trusted = _analyze(client, text=text, mines=3, trust_flags=True)
    assert trusted["analysis"] == analyze(position, trust_flags=True).to_json()
    assert trusted["analysis"]["flags"] == [{"cell": [1, 3], "status": "trusted"}]
    assert trusted["analysis"] != reply["analysis"]


def test_impossible_position_is_a_422_naming_the_clues(client: Client) -> None:
    text = "3x1x1\n0H1"
    with pytest.raises(InconsistentPositionError) as raised:
        analyze(Position.parse(text))
    reply = client.post("/api/analyze", {"text": text})
    message = reply.error(422)
    assert "A1" in message and "C1" in message
    assert sorted(reply.json()["clues"]) == [[0, 0], [2, 0]]
    assert sorted(reply.json()["clues"]) == sorted(list(c) for c in raised.value.clues)
    # The position read, as a success would hold it: the page shows it with the clues outlined.
    shown = reply.json()["position"]
    assert (shown["width"], shown["height"], shown["mines"]) == (3, 1, 1)
    assert shown["cells"] == [[0, -1, 1]] and shown["text"] == text
    assert reply.json()["uses_mine_total"] is False
    reply = client.post("/api/analyze", {"text": "2x2x1\n3H\nHH"})
    reply.error(422)
    assert reply.json()["uses_mine_total"] is True  # three mines around A1, one in all
    # A number larger than its neighbours is read, and named as the conflict it is.
    reply = client.post("/api/analyze", {"text": "2x2x3\n4H\nHH"})
    assert "more than its 3 neighbours" in reply.error(422)
    assert reply.json()["clues"] == [[0, 0]] and reply.json()["uses_mine_total"] is False
    assert reply.json()["position"]["cells"] == [[4, -1], [-1, -1]]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"text": "3x1x1\n1X1"}, ["line 2", "column 2", "'X'"]),
        ({"text": "3x2x1\n1H1\n1H"}, ["line 3", "2 cells", "expected 3"]),
        ({"text": "3x1\n1H1"}, ["line 1", "WxHxM"]),
        ({"text": "3x1x5\n1H1"}, ["mine total 5"]),
        ({"text": "hello"}, ["line 1", "unrecognised"]),
        ({"text": ""}, ["empty"]),
        ({"text": "[[1, 10]]"}, ["mine total"]),
        ({"text": "[[1, 10], [12, 10]]", "mines": 1}, ["row 2", "column 1"]),
        (
            {"text": "[[1, 10", "mines": 1},
            ["invalid JSON", "line 1", "column 8", "expected a comma between items"],
        ),
        ({}, ["missing", "'text'"]),
        ({"text": 3}, ["'text'"]),
        ({"text": "3x1x1\n1H1", "mines": "1"}, ["'mines'", "integer"]),
        ({"text": "3x1x1\n1H1", "mines": True}, ["'mines'", "integer"]),
        ({"text": "3x1x1\n1H1", "lang": "xx"}, ["'xx'"]),
        ({"text": "3x1x1\n1H1", "trust_flags": "no"}, ["'trust_flags'"]),
    ],
)
def test_bad_analysis_input_is_a_400_naming_the_place(
    client: Client, fields: JSON, words: list[str]
) -> None:
    message = client.post("/api/analyze", fields).error(400)
    for word in words:
        assert word in message


def test_a_mine_total_over_the_covered_cells_names_the_totals_allowed(client: Client) -> None:
    """Not an unreadable text: the field and its range, for the page to say in its words."""
    for fields in ({"text": "3x3x2\n1H1\n111\n000"}, {"text": "[[1, 10, 1]]", "mines": 2}):
        reply = client.post("/api/analyze", fields)
        assert "the mine total 2 is more than the 1 covered cell" in reply.error(400)
        data = reply.json()
        assert (data["kind"], data["name"], data["allowed"]) == ("argument", "mines", [0, 1])


@pytest.mark.parametrize(
    ("path", "fields", "name", "words"),
    [
        # Each was a format error, or named no field, or spoke of the command line only.
        ("/api/analyze", {"text": "3x1x1\n1H1", "mines": -5}, "mines", "-5 is negative"),
        ("/api/analyze", {"text": "[[1, 10, 1]]"}, "mines", "has no mine total"),
        ("/api/analyze", {"text": "3x1x1\n1H1", "lang": "xx"}, "lang", "'xx'"),
        ("/api/games", {"level": "huge"}, "level", "'huge'"),
    ],
)
def test_a_field_out_of_range_is_named(
    client: Client, path: str, fields: JSON, name: str, words: str
) -> None:
    reply = client.post(path, fields)
    assert words in reply.error(400)
    assert (reply.json()["kind"], reply.json()["name"]) == ("argument", name)


@pytest.mark.parametrize("text", ["[" * 100_000, "[[1" + "0" * 5000 + "]]"], ids=["deep", "huge"])
def test_grid_the_decoder_refuses_is_a_400(client: Client, text: str) -> None:
    client.post("/api/analyze", {"text": text, "mines": 1}).error(400)


# --- speed of a kept-alive connection -------------------------------------------------------


def test_keep_alive_answers_without_delay(server: Server) -> None:
    """With Nagle's algorithm on, *every* answer on a kept-alive connection waits for the
    client's delayed ACK (about 40 ms). The fastest of 15 answers tells the two apart even on
    a loaded machine, where a median might not."""
    client = server.client(keep_alive=True)
    times = []
    for _ in range(15):
        start = time.perf_counter()
        client.get("/api/meta").ok()
        times.append(time.perf_counter() - start)
    assert min(times) < 0.03, times


# --- mineproof play -------------------------------------------------------------------------


def _play_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "mineproof.cli", "play", "--no-browser", "--quiet", *args]


def _first_line(process: subprocess.Popen[str], timeout: float = 30.0) -> str:
    lines: list[str] = []
    assert process.stdout is not None
    stdout = process.stdout
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    assert lines, "mineproof play printed nothing"
    return lines[0]


@contextmanager
def _playing(*args: str, stdout: int = subprocess.PIPE) -> Iterator[subprocess.Popen[str]]:
    """Run ``mineproof play`` with ``args`` for the block; kill it if the block leaves it up."""
    process = subprocess.Popen(
        _play_command(*args), stdout=stdout, stderr=subprocess.PIPE, text=True
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _stopped(process: subprocess.Popen[str]) -> str:
    """Stop the app with Ctrl+C, check that it ends with status 0, and return its standard
    error."""
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == 0
    assert process.stderr is not None
    return process.stderr.read()


def test_play_command_serves_until_interrupted(tmp_path: Path) -> None:
    data = tmp_path / "games"
    with _playing("--port", "0", "--data", str(data)) as process:
        line = _first_line(process)
        found = re.fullmatch(
            r"mineproof: playing at (http://localhost:(\d+)/) \(games kept in (.+)\); "
            r"Ctrl\+C stops\n",
            line,
        )
        assert found is not None, line
        url, port, kept = found.group(1), int(found.group(2)), found.group(3)
        assert port > 0 and Path(kept) == data / "mineproof.sqlite3"
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200
            assert page.read() == (
                resources.files("mineproof.web").joinpath("static", "index.html").read_bytes()
            )
        client = Client(HOST, port)
        assert client.post("/api/games", {"level": "expert"}).ok(201)["mines"] == 99
        assert Path(kept).is_file()
        assert _stopped(process) == ""


def test_play_command_warns_when_it_listens_beyond_this_machine(tmp_path: Path) -> None:
    with _playing("--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)) as process:
        assert _first_line(process).startswith("mineproof: playing at http://0.0.0.0:")
        warning = _stopped(process)
        assert warning.startswith("mineproof: warning: listening on 0.0.0.0, not only this")
        assert warning.count("\n") == 1


@pytest.mark.parametrize("where", ["printing the address", "opening the browser"])
def test_play_stops_quietly_on_ctrl_c_during_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """A Ctrl+C that lands while the start-up lines are printed or the browser opens stops the
    app like one that lands while it serves: no traceback, the port and the store released."""
    import builtins
    import webbrowser

    from mineproof import web

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    real_print = builtins.print

    def print_then_interrupt(*args: object, **kwargs: object) -> None:
        real_print(*args, **kwargs)  # type: ignore[call-overload]
        if args and str(args[0]).startswith("mineproof: playing at"):
            raise KeyboardInterrupt

    if where == "printing the address":
        monkeypatch.setattr(builtins, "print", print_then_interrupt)
    else:
        monkeypatch.setattr(webbrowser, "open", interrupt)
    web.run(HOST, 0, tmp_path, open_browser=True, quiet=True)
    assert "playing at" in capsys.readouterr().out
    # The store was closed: a second app may open the same folder at once.
    web.Store(tmp_path).close()


def _fails(args: list[str]) -> str:
    """Run ``mineproof play`` expecting a one-line error and exit status 1; return it."""
    done = subprocess.run(_play_command(*args), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("mineproof: error: ")
    return done.stderr


def test_play_command_when_the_port_is_taken(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        error = _fails(["--port", str(port), "--data", str(tmp_path / "d")])
    assert f"127.0.0.1:{port}" in error and "in use" in error


def test_play_command_when_the_data_folder_is_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert str(blocker) in _fails(["--port", "0", "--data", str(blocker)])
    assert str(blocker) in _fails(["--port", "0", "--data", str(blocker / "below")])


def test_play_command_when_the_data_file_is_no_database(tmp_path: Path) -> None:
    (tmp_path / "mineproof.sqlite3").write_bytes(b"this is not SQLite " * 100)
    assert "not a database" in _fails(["--port", "0", "--data", str(tmp_path)])


def test_a_second_play_command_on_the_same_data_folder_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "games"
    first = subprocess.Popen(
        [*_play_command("--port", "0", "--data", str(data))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "playing at" in _first_line(first)
        error = _fails(["--port", "0", "--data", str(data)])
        assert error.startswith(f"mineproof: error: {data}: another mineproof play (process ")
        assert f"(process {first.pid})" in error and "--data" in error
        first.send_signal(signal.SIGINT)
        assert first.wait(timeout=30) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()


@pytest.mark.parametrize("spoil", [damaged, read_only], ids=["damaged", "read-only"])
def test_play_command_reports_an_unusable_database_at_start_up(
    tmp_path: Path, spoil: Callable[[Path], None]
) -> None:
    spoil(filled(tmp_path))
    error = _fails(["--port", "0", "--data", str(tmp_path)])
    assert error.startswith(f"mineproof: error: {tmp_path / 'mineproof.sqlite3'}: ")
    assert ("damaged" in error or "malformed" in error) if spoil is damaged else "readonly" in error


def test_play_command_with_a_port_out_of_range(tmp_path: Path) -> None:
    done = subprocess.run(
        _play_command("--port", "70000", "--data", str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr and done.stderr.count("\n") <= 3
    assert "70000" in done.stderr


def test_play_serves_when_nobody_reads_its_standard_output(tmp_path: Path) -> None:
    # `mineproof play | head -0`: the address line could not be printed, and the app said
    # "cannot listen on 127.0.0.1:PORT: Broken pipe" and stopped.
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    read, write = os.pipe()
    os.close(read)
    with _playing("--port", str(port), "--data", str(tmp_path), stdout=write) as process:
        os.close(write)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=5) as page:
                    assert page.status == 200
                    break
            except OSError:
                assert process.poll() is None, process.stderr.read() if process.stderr else ""
                assert time.monotonic() < deadline, "the app never answered"
                time.sleep(0.2)
        assert _stopped(process) == ""
