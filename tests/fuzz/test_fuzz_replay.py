"""Fuzz recorded games: real records tampered with, field by field and as text.

Every record ends in a replay and its animations, or in a ``MineproofError`` naming what is
wrong; never another exception, never a hang.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from mineproof.board import Board
from mineproof.errors import MineproofError
from mineproof.play import play_game
from mineproof.play.replay import animation_gif, animation_svg, load_record, replay

from .harness import fuzz, time_limit


def _record(size: tuple[int, int, int], seed: int, rules: str, strategy: str) -> dict[str, Any]:
    record: dict[str, Any] = {"seed": seed, "index": 0}
    board = Board(size[0], size[1])
    play_game(board, size[2], random.Random(seed), rules, strategy, record)  # type: ignore[arg-type]
    return record


RECORDS = [
    _record((9, 9, 10), 2, "classic", "best"),  # won, with a guess and flags
    _record((9, 9, 10), 7, "classic", "best"),  # lost
    _record((8, 8, 10), 1, "modern", "safest"),
    _record((5, 4, 3), 3, "classic", "logic"),
]

_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 300)
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6)
    | st.sampled_from(["open", "flag", "start", "forced", "guess", "won", "lost", "stuck"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


def _path(draw: st.DrawFn, record: Any) -> list[Any]:
    """Draw a path into ``record``: keys and indices, going deeper at random."""
    path: list[Any] = []
    node = record
    while isinstance(node, dict | list) and node:
        key = (
            draw(st.sampled_from(sorted(node)))
            if isinstance(node, dict)
            else draw(st.integers(0, len(node) - 1))
        )
        path.append(key)
        node = node[key]
        if draw(st.integers(0, 2)) == 0:
            break
    return path


@st.composite
def tampered(draw: st.DrawFn) -> str:
    """Draw a real record changed one to three times (a field set, removed, added; a list cut,
    a move repeated or two swapped), as JSON text, sometimes cut or with a character changed."""
    record = copy.deepcopy(draw(st.sampled_from(RECORDS)))
    for _ in range(draw(st.integers(0, 3))):
        path = _path(draw, record)
        if not path:
            continue
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = draw(st.sampled_from(["set", "remove", "add", "cut", "repeat", "swap"]))
        if how == "set":
            parent[key] = draw(_JSON)
        elif how == "remove":
            del parent[key]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(_JSON)
        elif how == "cut" and isinstance(parent[key], list):
            parent[key] = parent[key][: draw(st.integers(0, len(parent[key])))]
        elif how == "repeat" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
    text = json.dumps(record)
    if draw(st.integers(0, 5)) == 0:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["", "x", "}", "[", '"', "0"])) + text[at + 1 :]
    return text


@fuzz(200)
@given(tampered())
def test_tampered_records(text: str) -> None:
    with time_limit(30):
        try:
            record = load_record(text)
            game = replay(record)
            assert animation_svg(record, 0.1).startswith("<svg")
            assert animation_gif(record, 0.1).startswith(b"GIF89a")
        except MineproofError as exc:
            event(f"error: {str(exc).split(':')[0][:30]}")
            return
    event("replayed")
    assert (game.state if game.state != "playing" else "stuck") == record["outcome"]
