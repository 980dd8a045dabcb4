"""Tests of mineproof.formats.layout_text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mineproof.board import Board, Layout
from mineproof.errors import FormatError
from mineproof.formats.layout_text import format_layout_text, parse_layout_text


@st.composite
def layouts(draw: st.DrawFn, max_side: int = 12) -> Layout:
    """Draw a layout: any size up to ``max_side`` each side, any set of mined cells."""
    board = Board(draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    return Layout(board, draw(st.integers(0, board.full_mask)))


@given(layouts())
def test_round_trip(layout: Layout) -> None:
    assert parse_layout_text(format_layout_text(layout)) == layout


@given(layouts(max_side=255))
def test_round_trip_large_boards(layout: Layout) -> None:
    assert parse_layout_text(format_layout_text(layout)) == layout


def test_format_example() -> None:
    layout = Layout.from_cells(Board(4, 2), [(0, 0), (3, 1)])
    assert format_layout_text(layout) == "4x2x2\n*...\n...*"


def test_blank_lines_spaces_and_crlf_are_ignored() -> None:
    text = "\r\n  4x2x2 \r\n\r\n *...\r\n...*  \r\n\r\n"
    assert parse_layout_text(text) == Layout.from_cells(Board(4, 2), [(0, 0), (3, 1)])


@pytest.mark.parametrize("text", ["", "\n  \n"])
def test_empty(text: str) -> None:
    with pytest.raises(FormatError, match="empty input"):
        parse_layout_text(text)


def test_a_negative_header_number_is_named() -> None:
    with pytest.raises(FormatError, match=r"^line 2: the header's width -4 is negative") as info:
        parse_layout_text("\n-4x2x2\n*...\n...*")
    assert (info.value.line, info.value.excerpt) == (2, "-4x2x2")


@pytest.mark.parametrize("header", ["4x2", "4x2x2x1", "ax2x2", "4*2*2", "4x2x"])
def test_bad_header(header: str) -> None:
    pattern = r"^line 2: not a layout: expected a 'WxHxM' line"
    with pytest.raises(FormatError, match=pattern) as info:
        parse_layout_text(f"\n{header}\n*...\n...*")
    assert info.value.line == 2
    assert info.value.excerpt == header


@pytest.mark.parametrize("header", ["0x2x0", "4x0x0", "256x1x0"])
def test_board_size_out_of_range(header: str) -> None:
    with pytest.raises(FormatError, match=r"^line 1: board (width|height) \d+ is outside"):
        parse_layout_text(f"{header}\n")


def test_too_few_rows() -> None:
    with pytest.raises(FormatError, match=r"^line 2: the header says 3 rows but 1 follow"):
        parse_layout_text("2x3x0\n..")


def test_too_many_rows() -> None:
    with pytest.raises(FormatError, match=r"^line 4: the header says 2 rows but 3 follow"):
        parse_layout_text("2x2x0\n..\n..\n..")


def test_row_of_wrong_length_names_line_and_row() -> None:
    with pytest.raises(FormatError, match=r"^line 3: row 2 has 3 cells, expected 2") as info:
        parse_layout_text("2x2x0\n..\n...")
    assert info.value.excerpt == "..."


def test_bad_character_names_line_and_column() -> None:
    with pytest.raises(
        FormatError, match=r"^line 3, column 4: cell \(1, 1\): unknown character 'x'"
    ) as info:
        parse_layout_text("3x2x1\n*..\n  .x.")
    assert (info.value.line, info.value.column) == (3, 4)


def test_mine_count_must_match_header() -> None:
    with pytest.raises(
        FormatError, match=r"^line 1: the header says 3 mines but the rows hold 2"
    ) as info:
        parse_layout_text("3x2x3\n*..\n..*")
    assert info.value.line == 1


def test_a_header_of_thousands_of_digits_is_one_error() -> None:
    with pytest.raises(FormatError, match="line 1: the header's height has 5,000 digits"):
        parse_layout_text("3x" + "1" * 5000 + "x1\n*..")


def test_bytes_are_refused_with_a_pointer_to_the_reader_of_bytes() -> None:
    with pytest.raises(TypeError, match="load_layout"):
        parse_layout_text(b"3x1x1\n..*")  # type: ignore[arg-type]
