"""Position: what its parser takes, and the text forms of the value types."""

from __future__ import annotations

import random

import pytest

from mineproof.board import Board, Layout
from mineproof.errors import FormatError
from mineproof.formats import format_layout_text, parse_layout_text
from mineproof.game import Game
from mineproof.position import Position


@pytest.mark.parametrize("text", [b"3x1x1\n1H1", bytearray(b"3x1x1\n1H1"), None])
def test_parse_says_it_takes_str(text: object) -> None:
    # Before, for bytes: "a bytes-like object is required, not 'str'" (backwards).
    with pytest.raises(TypeError, match=r"^Position\.parse takes str, not \w+ \(for bytes: decode"):
        Position.parse(text)  # type: ignore[arg-type]
    assert Position.parse("3x1x1\n1H1").mines == 1


def test_values_round_trip_as_the_readme_says() -> None:
    # README, "Library": reprs evaluate back; a Position through its text, a Layout through
    # the layout text of mineproof.formats. Checked on random values, not one hand-made case.
    namespace = {"Board": Board, "Layout": Layout, "Position": Position}
    rng = random.Random(5)
    for _ in range(30):
        board = Board(rng.randint(1, 12), rng.randint(1, 12))
        layout = Layout.random(board, rng.randint(0, board.size - 1), rng, (0, 0), "safe")
        game = Game(layout)
        game.reveal(0, 0)
        position = game.position()
        for value in (board, layout, position):
            assert eval(repr(value), namespace) == value
        assert Position.parse(str(position)) == position
        assert parse_layout_text(format_layout_text(layout)) == layout


def test_a_header_number_of_thousands_of_digits_is_a_format_error_on_its_line() -> None:
    """It was Python's own ValueError (past 4,300 digits, no line); the parsers of files said
    it well, through the one header rule that Position.parse now shares."""
    with pytest.raises(FormatError, match=r"line 1: the header's mine total has 5,000 digits"):
        Position.parse("1x1x" + "9" * 5000 + "\nH")
    assert Position.parse(" 3 x 1 X 1 \n1H1") == Position.parse("3x1x1\n1H1")


@pytest.mark.parametrize("code", [1.5, True, "1", None])
def test_a_cell_code_that_is_not_an_int_is_unknown(code: object) -> None:
    """1.5 and True passed the range check; the position then failed in its repr or the
    analysis, far from where it was made."""
    with pytest.raises(FormatError, match="unknown cell code"):
        Position(Board(2, 1), (code, -1), 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("mines", [0.5, 1.0, True])
def test_a_mine_total_that_is_not_an_int_is_a_type_error(mines: object) -> None:
    with pytest.raises(TypeError, match="the mine total must be an int"):
        Position(Board(2, 1), (1, -1), mines)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Position.parse("3x1x1\n1H1", mines=mines)  # type: ignore[arg-type]


@pytest.mark.parametrize(("header", "said"), [("4x3x-1", "mine total -1"), ("-3x1x1", "width -3")])
def test_a_negative_header_number_is_named(header: str, said: str) -> None:
    """It was 'unrecognised position' from the loader and 'expected a WxHxM header' here."""
    with pytest.raises(FormatError, match=f"line 1: the header's {said} is negative"):
        Position.parse(header + "\n" + "H" * 4)


def test_cells_given_as_a_list_make_the_same_position() -> None:
    """A list of cells made a position unequal to its own repr's, and unhashable."""
    listed = Position(Board(2, 2), [0, 0, 0, 0], 0)  # type: ignore[arg-type]
    assert listed == Position.parse("2x2x0\n00\n00") and hash(listed) == hash(eval(repr(listed)))
    with pytest.raises(TypeError, match="tuple"):
        Position(Board(2, 2), "0000", 0)  # type: ignore[arg-type]
