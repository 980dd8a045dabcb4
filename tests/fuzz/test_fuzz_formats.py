"""Fuzz the parsers: JSMinesweeper position text, ms-toollib grids, MBF and layout text.

Every input ends in a value that formats back to an equal value, or in a ``MineproofError``
(malformed input, with its place); never another exception, never a hang.
"""

from __future__ import annotations

import json

from hypothesis import event, given
from hypothesis import strategies as st

from mineproof.errors import MineproofError
from mineproof.formats import (
    format_grid,
    format_layout_text,
    format_mbf,
    load_layout,
    load_position,
    parse_grid,
    parse_layout_text,
    parse_mbf,
)
from mineproof.position import Position

from .harness import fuzz, time_limit

_HEADERS = [
    "{w}x{h}x{m}",
    " {w} X {h} x {m} ",
    "{w}x{h}",
    "{w}x{h}x{m}x1",
    "{w}x{h}x-{m}",
    "{w}\u00d7{h}\u00d7{m}",  # the multiplication sign
    "0{w}x00{h}x{m}",
    "{w}x{h}x{big}",
    "{big}x{h}x{m}",
    "{w}x{huge}x{m}",
    "",
    "x",
]


@st.composite
def grid_texts(draw: st.DrawFn, alphabet: str, covered: str, exact: bool = False) -> str:
    """Draw a text that is nearly a board: a header (often right, sometimes wrong), then rows.

    Three times in four the rows have the right number and length, of the format's characters
    (``alphabet``, repeated characters more likely), and the header's mine total fits the
    characters of ``covered`` in them (equals their number if ``exact``); otherwise rows of any
    length, with a few other characters, and any total.
    """
    w, h = draw(st.integers(0, 9)), draw(st.integers(0, 9))
    chars = st.sampled_from(list(alphabet))
    shaped = draw(st.integers(0, 3)) > 0
    if shaped:
        rows = draw(st.lists(st.text(chars, min_size=w, max_size=w), min_size=h, max_size=h))
    else:
        other = chars | st.sampled_from(list(" \t.x?\u00e9"))
        row = st.text(chars, min_size=w, max_size=w) | st.text(other, max_size=12)
        rows = draw(st.lists(row, min_size=max(0, h - 1), max_size=h + 1))
    room = sum(row.count(c) for row in rows for c in covered)
    m = (room if exact else draw(st.integers(0, room))) if shaped else draw(st.integers(0, 90))
    header = draw(st.just(_HEADERS[0]) | st.sampled_from(_HEADERS)).format(
        w=w, h=h, m=m, big=draw(st.integers(256, 10**12)), huge="9" * draw(st.integers(10, 5000))
    )
    blank = draw(st.sampled_from(["", "\n", "  \n"]))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return blank + newline.join([header, *rows]) + draw(st.sampled_from(["", newline]))


def _position_or_error(data: bytes, mines: int | None) -> Position | None:
    with time_limit(10):
        try:
            return load_position(data, mines)
        except MineproofError as exc:
            event(f"error: {type(exc).__name__}")
            return None


@fuzz(300)
@given(grid_texts("0000111122HHHHHHHHHHHHFfh345678", "HFhf"), st.none() | st.integers(-3, 100))
def test_position_text(text: str, mines: int | None) -> None:
    position = _position_or_error(text.encode(), mines)
    if position is not None:
        event("a value")
        assert load_position(position.text().encode()) == position


@fuzz(200)
@given(st.binary(max_size=300), st.none() | st.integers(-3, 100))
def test_position_bytes(data: bytes, mines: int | None) -> None:
    position = _position_or_error(data, mines)
    if position is not None:
        assert load_position(position.text().encode()) == position


_VALUES: st.SearchStrategy[object] = st.integers(-2, 12) | st.sampled_from(
    [True, None, 1.0, "1", 10**30, [], {}]
)


@st.composite
def shaped_grids(draw: st.DrawFn) -> str:
    """Draw an ms-toollib grid of equal rows, mostly of covered cells and small numbers."""
    w, h = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    value = st.sampled_from([10, 10, 10, 10, 10, 0, 0, 1, 1, 2, 11])
    return json.dumps(
        draw(st.lists(st.lists(value, min_size=w, max_size=w), min_size=h, max_size=h))
    )


@fuzz(300)
@given(
    shaped_grids()
    | st.lists(st.lists(_VALUES, max_size=9), max_size=9).map(json.dumps)
    | st.text(alphabet='[]{},: 0123456789-.e"truefalsn', max_size=80).map(lambda t: "[" + t)
    | st.integers(1, 5000).map(lambda n: "[" * n + "]" * n)
    | st.just("[[1" + "0" * 5000 + "]]"),
    st.none() | st.integers(0, 9) | st.integers(-3, 90),
)
def test_mstoollib_grid(text: str, mines: int | None) -> None:
    with time_limit(10):
        try:
            position = parse_grid(text, mines)
        except MineproofError as exc:
            event(f"error: {type(exc).__name__}")
            return
    event("a value")
    assert parse_grid(format_grid(position), position.mines) == position
    assert _position_or_error(text.encode(), mines) == position


@st.composite
def mbf_bytes(draw: st.DrawFn) -> bytes:
    """Draw MBF data: a header, and mines often inside the board, sometimes not, sometimes too
    many or too few bytes."""
    w, h = draw(st.integers(0, 12)), draw(st.integers(0, 12))
    if w and h and draw(st.booleans()):  # mines on distinct cells of the board, as many as said
        cells = draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), unique=True))
        count = len(cells)
    else:
        count = draw(st.integers(0, 40) | st.integers(0, 65535))
        cells = draw(
            st.lists(
                st.tuples(st.integers(0, w + 1), st.integers(0, h + 1)), max_size=min(count, 60)
            )
        )
    body = b"".join(bytes(c) for c in cells) + draw(st.just(b"") | st.binary(max_size=3))
    return bytes([w, h]) + count.to_bytes(2, "big") + body


@fuzz(300)
@given(mbf_bytes() | st.binary(max_size=200))
def test_mbf(data: bytes) -> None:
    with time_limit(10):
        try:
            layout = parse_mbf(data)
        except MineproofError as exc:
            event(f"error: {type(exc).__name__}")
            return
    event("a value")
    assert parse_mbf(format_mbf(layout)) == layout


@fuzz(300)
@given(grid_texts("*..", "*", exact=True) | st.text(max_size=200))
def test_layout_text(text: str) -> None:
    with time_limit(10):
        try:
            layout = parse_layout_text(text)
        except MineproofError as exc:
            event(f"error: {type(exc).__name__}")
            return
    event("a value")
    assert parse_layout_text(format_layout_text(layout)) == layout


@fuzz(300)
@given(grid_texts("*..", "*", exact=True).map(str.encode) | mbf_bytes() | st.binary(max_size=200))
def test_layout_by_content(data: bytes) -> None:
    with time_limit(10):
        try:
            layout = load_layout(data)
        except MineproofError as exc:
            event(f"error: {type(exc).__name__}")
            return
    event("a value")
    assert load_layout(format_mbf(layout)) == layout
    assert load_layout(format_layout_text(layout).encode()) == layout
