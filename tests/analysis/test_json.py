"""The analysis as JSON: exact counts of any size as decimal strings."""

from __future__ import annotations

import json
import math

from mineproof.analysis import analyze, decimal
from mineproof.board import Board
from mineproof.position import COVERED, Position


def test_decimal_matches_str_below_its_limit_and_goes_past_it() -> None:
    for n in (0, 7, -12, 10**3000 + 12345, 3**8000):
        if abs(n).bit_length() < 13_000:
            assert decimal(n) == str(n)
    big = 7 * 10**9000 + 42
    text = decimal(big)
    assert len(text) == 9001 and text.startswith("7") and text.endswith("0" * 6 + "42")
    # Read back digit by digit, without int(), whose limit is the same as str()'s.
    value = 0
    for chunk in range(0, len(text), 1000):
        part = text[chunk : chunk + 1000]
        value = value * 10 ** len(part) + int(part)
    assert value == big


def test_a_255x255_board_with_about_20_percent_mines_reports_its_count() -> None:
    board = Board(255, 255)
    mines = board.size // 5
    position = Position(board, (COVERED,) * board.size, mines)
    data = analyze(position).to_json()
    digits = data["arrangements"]
    # C(65025, 13005) has about 14,000 digits: far past str()'s 4,300.
    assert len(digits) > 10_000 and digits.isdigit()
    assert len(digits) == len(decimal(math.comb(board.size, mines)))
    assert abs(data["probabilities"][0][0] - mines / board.size) < 1e-12
    json.dumps(data)
