"""Fuzz the web API: requests of every route with mangled methods, paths, headers and bodies.

Every request ends in a JSON answer with a status the API documents (never 500, never a closed
connection without an answer), and the server keeps answering a trivial request afterwards.
The server is the real one (uvicorn, the worker pool, the store), on loopback. Like the
targets in ``tests/fuzz``, ``MINEPROOF_FUZZ_EXAMPLES`` runs more examples.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from .conftest import Client, Clock, running

EXAMPLES = int(os.environ.get("MINEPROOF_FUZZ_EXAMPLES", "0") or 0) or 150

# What the API may answer (server.py's docstring); 500 is a bug, and so is no answer.
DOCUMENTED = {200, 201, 400, 404, 405, 408, 409, 413, 415, 421, 422, 503}

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False),
    st.text(max_size=30),
)
_JSON: st.SearchStrategy[Any] = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
# Fields the routes read, given values of every type (and the right type now and then).
_FIELDS = {
    "level": st.sampled_from(["beginner", "intermediate", "expert", "custom", "", "x" * 50]),
    "width": st.integers(-3, 300),
    "height": st.integers(-3, 300),
    "mines": st.integers(-3, 100_000),
    "guess_free": st.booleans(),
    "x": st.integers(-2, 120),
    "y": st.integers(-2, 120),
    "lang": st.sampled_from(["en", "fr", "ko", "xx", "", "../en"]),
    "trust_flags": st.booleans(),
    "text": st.sampled_from(
        [
            "3x3x1\nHHH\nH1H\nHHH",
            "5x5x4\nHHHHH\nH121H\nH202H\nH121H\nHHHHH",
            "2 2\n1 -1\n",
            "0x0x0",
            "9" * 5000 + "x2x1",
            "\x00\xff",
            "",
        ]
    ),
}
_BODY = st.one_of(
    st.fixed_dictionaries(
        {}, optional={name: value | _JSON for name, value in _FIELDS.items()}
    ).map(lambda d: json.dumps(d).encode()),
    _JSON.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
)
_ACTIONS = ["", "hint", "probabilities", "open", "flag", "chord", "nope", "open/x"]
_PATHS = st.one_of(
    st.sampled_from(
        [
            "/",
            "/api/meta",
            "/api/stats",
            "/api/games",
            "/api/analyze",
            "/app.js",
            "/../etc/passwd",
            "/api/games/%00",
            "/api//games",
        ]
    ),
    st.tuples(
        st.sampled_from(["GAME", "unknown-game", "", "%2e%2e", "a" * 300]),
        st.sampled_from(_ACTIONS),
        st.sampled_from(["", "?lang=fr", "?lang=zz", "?lang=", "?&&=&"]),
    ).map(lambda t: f"/api/games/{t[0]}" + (f"/{t[1]}" if t[1] else "") + t[2]),
)
_CONTENT_TYPES = st.sampled_from(
    ["application/json", "application/json; charset=utf-8", "text/plain", "", None]
)


def _ok_answer(status: int, headers: dict[str, str], body: bytes) -> None:
    assert status in DOCUMENTED, (status, body[:300])
    if status >= 400:
        assert headers["content-type"].startswith("application/json"), headers
        data = json.loads(body)
        assert isinstance(data, dict) and isinstance(data.get("error"), str), body[:300]
        assert data["error"] and "\n" not in data["error"], data


def test_every_request_ends_in_a_documented_json_answer(tmp_path: Path) -> None:
    with running(tmp_path / "data", Clock()) as server:
        client = server.client(keep_alive=True)
        game = client.post("/api/games", {"level": "beginner"}).ok(201)["id"]

        @settings(
            max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
        )
        @given(
            method=st.sampled_from(["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS"]),
            path=_PATHS,
            body=_BODY,
            content_type=_CONTENT_TYPES,
        )
        def one(method: str, path: str, body: bytes, content_type: str | None) -> None:
            headers = {} if content_type is None else {"Content-Type": content_type}
            reply = client.request(
                method,
                path.replace("GAME", game),
                body=body if method != "GET" else None,
                headers=headers,
            )
            event(f"status {reply.status}")
            if method == "HEAD":
                assert reply.status in DOCUMENTED
                return
            _ok_answer(reply.status, reply.headers, reply.body)

        one()
        meta = Client(server.client().host, server.port).get("/api/meta")
        assert meta.status == 200
