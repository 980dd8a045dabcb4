"""Tests of mineproof.formats.mstoollib, and of Position's own text round trip."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mineproof.analysis import analyze
from mineproof.board import Board
from mineproof.errors import ArgumentError, FormatError, InconsistentPositionError
from mineproof.formats.mstoollib import format_grid, parse_grid
from mineproof.position import COVERED, FLAG, Position


@st.composite
def positions(draw: st.DrawFn, max_side: int = 12) -> Position:
    """Draw a valid position: any size, codes within each cell's neighbours, a fitting total."""
    board = Board(draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    cells = tuple(
        draw(st.sampled_from([COVERED, FLAG, *range(len(neighbours) + 1)]))
        for neighbours in board.neighbour_lists()
    )
    covered = sum(c in (COVERED, FLAG) for c in cells)
    return Position(board, cells, draw(st.integers(0, covered)))


@given(positions())
def test_grid_round_trip(position: Position) -> None:
    assert parse_grid(format_grid(position), position.mines) == position


@given(positions())
def test_text_round_trip(position: Position) -> None:
    assert Position.parse(position.text()) == position


@given(positions())
def test_grid_is_compact_json_one_row_per_line(position: Position) -> None:
    text = format_grid(position)
    assert " " not in text.replace("\n ", "")
    assert text.count("\n") == position.height - 1
    assert len(json.loads(text)) == position.height


def test_format_grid_example() -> None:
    position = Position.parse("3x2x1\n1HF\n111")
    assert format_grid(position) == "[[1,10,11],\n [1,1,1]]"
    assert parse_grid("[[1, 10, 11], [1, 1, 1]]", 1) == position


def test_missing_mine_total() -> None:
    with pytest.raises(ArgumentError, match=r"no mine total") as raised:
        parse_grid("[[10]]", None)
    assert raised.value.name == "mines"


def test_invalid_json_names_line_and_column() -> None:
    with pytest.raises(FormatError, match=r"^line 2, column \d+: invalid JSON") as info:
        parse_grid("[[1, 10],\n [1, ]]", 1)
    assert info.value.line == 2
    assert info.value.column is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[[1, 10],\n [1, ]]",
            "line 2, column 6: invalid JSON: expected a JSON value (a number, string, list or "
            "object)",
        ),
        ("[[1, 10", "line 1, column 8: invalid JSON: expected a comma between items"),
        (
            "[[1, 10]]\n]",
            "line 2, column 1: invalid JSON: unexpected text after the end of the JSON value",
        ),
        ("[[1" + "0" * 5000 + "]]", "invalid JSON: a number has thousands of digits"),
        (
            " \n",
            "invalid JSON: empty input: expected an ms-toollib grid, a JSON list of rows, each a "
            "list of ints",
        ),
    ],
    ids=["missing-value", "cut-short", "extra-data", "huge-number", "empty"],
)
def test_invalid_json_in_plain_english(text: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        parse_grid(text, 1)
    assert str(info.value) == message


@pytest.mark.parametrize("text", ["{}", '"grid"', "3", "[1, 2]", "[[1], 2]", "null"])
def test_not_a_list_of_lists(text: str) -> None:
    with pytest.raises(FormatError, match="list of rows"):
        parse_grid(text, 0)


@pytest.mark.parametrize("text", ["[]", "[[]]", "[[], []]"])
def test_empty_grid(text: str) -> None:
    with pytest.raises(FormatError, match="empty grid"):
        parse_grid(text, 0)


def test_ragged_rows_name_the_row() -> None:
    with pytest.raises(FormatError, match=r"row 3 has 1 cell, expected 2"):
        parse_grid("[[10, 10], [10, 10], [10]]", 1)


@pytest.mark.parametrize("value", ["9", "12", "-1", "true", "1.0", '"1"', "null", "[1]"])
def test_bad_value_names_row_column_and_cell(value: str) -> None:
    text = f"[[10, 10, 10], [10, 10, {value}]]"
    with pytest.raises(FormatError, match=r"row 2, column 3 \(cell \(2, 1\)\)") as info:
        parse_grid(text, 1)
    assert value in str(info.value).replace(" ", "")


def test_number_larger_than_neighbours_is_read_and_named_by_the_analysis() -> None:
    # Well-formed but impossible: read, then named as the conflict it is.
    position = parse_grid("[[10, 4], [10, 10]]", 0)
    with pytest.raises(InconsistentPositionError, match=r"^the number 4 at B1 is more than its 3"):
        analyze(position)


def test_mine_total_larger_than_covered_cells() -> None:
    with pytest.raises(ArgumentError, match="more than the 2 covered cells") as raised:
        parse_grid("[[10, 1, 11]]", 3)
    assert (raised.value.name, raised.value.allowed) == ("mines", (0, 2))


def test_negative_mine_total() -> None:
    with pytest.raises(FormatError, match="negative"):
        parse_grid("[[10]]", -1)


def test_board_too_wide() -> None:
    with pytest.raises(FormatError, match=r"width 256 is outside 1\.\.255"):
        parse_grid(json.dumps([[10] * 256]), 0)
