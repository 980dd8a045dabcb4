"""What the analysis says of arguments it cannot take: a one-line error naming what to do."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from mineproof.analysis import analyze, sample_arrangement
from mineproof.errors import ArgumentError
from mineproof.explain import hint
from mineproof.logic import best_deduction, hint_steps
from mineproof.position import Position


def test_analyze_of_text_says_to_parse_it() -> None:
    # Before: AttributeError: 'str' object has no attribute 'board'.
    with pytest.raises(TypeError, match=r"^analyze takes a Position, not str \(for text: Posi"):
        analyze("3x3x1\nHHH\nH1H\nHHH")  # type: ignore[arg-type]


@pytest.mark.parametrize(("x", "y"), [(3, 0), (0, 3), (-1, 0), (10, 10)])
def test_a_probability_off_the_board_is_an_argument_error(x: int, y: int) -> None:
    # Before: a FormatError, the error of malformed input, though nothing was read.
    analysis = analyze(Position.parse("3x3x1\nHHH\nH1H\nHHH"))
    with pytest.raises(ArgumentError, match=rf"^cell \({x}, {y}\) is outside the 3x3 board: x "):
        analysis.probability(x, y)
    assert analysis.probability(2, 2) == analysis.probability(0, 0)


_CALLS: list[Callable[[Position, Any], object]] = [
    lambda p, w: analyze(p, work=w),
    lambda p, w: hint(p, work=w),
    lambda p, w: hint(p, open=True, work=w),
    lambda p, w: best_deduction(p, work=w),
    lambda p, w: hint_steps(p, work=w),
    lambda p, w: sample_arrangement(p, random.Random(1), work=w),
]


@pytest.mark.parametrize("work", [-5, -1])
@pytest.mark.parametrize("call", range(len(_CALLS)))
def test_a_negative_work_budget_is_named(call: int, work: int) -> None:
    # Before: -5 was taken: an answer, or "too complex", as the count cache had it.
    position = Position.parse("3x3x1\nHHH\nH1H\nHHH")
    with pytest.raises(ArgumentError, match=rf"^work {work!r}: expected a whole number of work"):
        _CALLS[call](position, work)
