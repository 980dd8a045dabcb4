"""What the analysis says of arguments it cannot take: a one-line error naming what to do."""

from __future__ import annotations

import pytest

from mineproof.analysis import analyze
from mineproof.errors import ArgumentError
from mineproof.position import Position


def test_analyze_of_text_says_to_parse_it() -> None:
    # Before: AttributeError: 'str' object has no attribute 'board'.
    with pytest.raises(TypeError, match=r"^analyze takes a Position, not str \(for text: Posi"):
        analyze("3x3x1\nHHH\nH1H\nHHH")  # type: ignore[arg-type]


@pytest.mark.parametrize(("x", "y"), [(3, 0), (0, 3), (-1, 0), (10, 10)])
def test_a_probability_off_the_board_is_an_argument_error(x: int, y: int) -> None:
    # Before: a FormatError, the error of malformed input, though nothing was read.
    analysis = analyze(Position.parse("3x3x1\nHHH\nH1H\nHHH"))
    with pytest.raises(ArgumentError, match=rf"^cell \({x}, {y}\) is off the 3x3 board"):
        analysis.probability(x, y)
    assert analysis.probability(2, 2) == analysis.probability(0, 0)
