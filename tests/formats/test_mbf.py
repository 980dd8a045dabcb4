"""Tests of mineproof.formats.mbf."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mineproof.board import Board, Layout
from mineproof.errors import FormatError
from mineproof.formats.mbf import format_mbf, parse_mbf


@st.composite
def layouts(draw: st.DrawFn, max_width: int = 12, max_height: int = 12) -> Layout:
    """Draw a layout: any size within the bounds, any set of mined cells."""
    board = Board(draw(st.integers(1, max_width)), draw(st.integers(1, max_height)))
    return Layout(board, draw(st.integers(0, board.full_mask)))


@given(layouts())
def test_round_trip(layout: Layout) -> None:
    assert parse_mbf(format_mbf(layout)) == layout


@given(layouts(max_width=255, max_height=3))
@example(Layout(Board(255, 1), 1 << 254))
@example(Layout(Board(1, 255), 1 << 254))
def test_round_trip_wide_boards(layout: Layout) -> None:
    data = format_mbf(layout)
    assert len(data) == 4 + 2 * layout.mine_count
    assert parse_mbf(data) == layout


@pytest.mark.parametrize("mines", [0, 99, 2000, 65025])
def test_round_trip_largest_board(mines: int) -> None:
    board = Board(255, 255)
    layout = Layout.random(board, mines, random.Random(mines), rule="none")
    data = format_mbf(layout)
    assert data[:4] == bytes([255, 255]) + mines.to_bytes(2, "big")
    assert parse_mbf(data) == layout


def test_format_writes_mines_in_cell_index_order() -> None:
    layout = Layout.from_cells(Board(3, 2), [(0, 1), (2, 0), (1, 0)])
    assert format_mbf(layout) == bytes([3, 2, 0, 3, 1, 0, 2, 0, 0, 1])


def test_parse_accepts_mines_in_any_order() -> None:
    data = bytes([3, 2, 0, 3, 0, 1, 2, 0, 1, 0])
    assert parse_mbf(data) == Layout.from_cells(Board(3, 2), [(1, 0), (2, 0), (0, 1)])


@pytest.mark.parametrize(
    ("data", "size"), [(b"", "0 bytes"), (b"\x03", "1 byte"), (b"\x03\x02\x00", "3 bytes")]
)
def test_too_short(data: bytes, size: str) -> None:
    with pytest.raises(FormatError, match=rf"has {size}, fewer than the 4-byte"):
        parse_mbf(data)


@pytest.mark.parametrize(("width", "height"), [(0, 3), (3, 0), (0, 0)])
def test_zero_size(width: int, height: int) -> None:
    with pytest.raises(FormatError, match=rf"size {width}x{height}"):
        parse_mbf(bytes([width, height, 0, 0]))


@pytest.mark.parametrize(
    ("data", "expected", "got"),
    [
        (bytes([3, 2, 0, 2, 0, 0, 1]), 8, 7),
        (bytes([3, 2, 0, 1, 0, 0, 1, 1]), 6, 8),
        (bytes([3, 2, 1, 0]), 516, 4),
    ],
)
def test_wrong_length_says_expected_and_got(data: bytes, expected: int, got: int) -> None:
    with pytest.raises(FormatError, match=rf"should have {expected} bytes, got {got}"):
        parse_mbf(data)


@pytest.mark.parametrize(("x", "y"), [(3, 0), (0, 2), (200, 200)])
def test_mine_outside_board_names_the_mine(x: int, y: int) -> None:
    data = bytes([3, 2, 0, 2, 1, 1, x, y])
    with pytest.raises(FormatError, match=rf"mine 2 at \({x}, {y}\) is outside the 3x2 board"):
        parse_mbf(data)


def test_mine_given_twice_names_the_cell() -> None:
    data = bytes([3, 2, 0, 3, 1, 0, 2, 1, 1, 0])
    with pytest.raises(FormatError, match=r"mine 3: cell \(1, 0\) \[B1\] holds a mine already"):
        parse_mbf(data)
