"""Shared helpers of the player tests: positions of real games where a guess is needed."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from mineproof.analysis import analyze
from mineproof.board import Board, Layout, iter_bits
from mineproof.game import Game
from mineproof.position import Position

StuckPositions = Callable[[int, int, int, int, int], list[Position]]


def _stuck_positions(count: int, w: int, h: int, mines: int, most_covered: int) -> list[Position]:
    """Return up to ``count`` positions where a guess is needed, ``most_covered`` cells at most.

    Games on ``w`` x ``h`` boards with ``mines`` mines start at the corner; every cell the exact
    analysis proves safe is opened until none is left.
    """
    found = []
    board = Board(w, h)
    for seed in range(3000):
        game = Game(Layout.random(board, mines, random.Random(seed), (0, 0), "safe"))
        game.reveal(0, 0)
        while game.state == "playing":
            safe = analyze(game.position()).safe_mask & ~game.opened_mask
            if not safe:
                break
            for i in iter_bits(safe):
                if game.state == "playing":
                    game.reveal(*board.xy(i))
        position = game.position()
        if game.state == "playing" and position.covered_count <= most_covered:
            found.append(position)
            if len(found) == count:
                break
    return found


@pytest.fixture
def stuck_positions() -> StuckPositions:
    """Return the function that finds positions of real games where a guess is needed."""
    return _stuck_positions
