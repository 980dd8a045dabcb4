"""Position: what its parser takes, and the text forms of the value types."""

from __future__ import annotations

import random

import pytest

from mineproof.board import Board, Layout
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
