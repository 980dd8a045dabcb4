"""Positions for the logic tests: random games on small boards, opened the way a player would."""

from __future__ import annotations

import random

from mineproof.board import Board, Layout
from mineproof.game import Game
from mineproof.position import Position

from .oracle import bits


def random_game(seed: int, *, most_flags: float = 0.3) -> tuple[Layout, Position]:
    """Return a layout on a small board and a position of a game on it: a random safe start
    (with flood fill), a few more random safe cells opened, some mines flagged (rightly)."""
    rng = random.Random(seed)
    w, h = rng.randint(4, 8), rng.randint(3, 7)
    mines = rng.randint(2, w * h // 3)
    start = (rng.randrange(w), rng.randrange(h))
    layout = Layout.random(Board(w, h), mines, rng, start, "safe")
    game = Game(layout)
    game.reveal(*start)
    for _ in range(rng.randint(0, 4)):
        if game.state != "playing":
            break
        covered = [
            i for i in range(w * h) if not game.opened_mask >> i & 1 and not layout.mines >> i & 1
        ]
        if covered:
            game.reveal(*layout.board.xy(rng.choice(covered)))
    share = rng.random() * most_flags
    for i in bits(layout.mines):
        if rng.random() < share and game.state == "playing":
            game.flag(*layout.board.xy(i))
    return layout, game.position()


def random_position(seed: int) -> Position:
    """Return the position of :func:`random_game`."""
    return random_game(seed)[1]
