"""End games: the best player's guess wins as often as an exhaustive search says is possible."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

from mineproof.analysis import analyze
from mineproof.board import Board, Layout
from mineproof.game import Game
from mineproof.play.player import _best, _endgame
from mineproof.position import Position


def neighbours(w: int, h: int, i: int) -> frozenset[int]:
    x, y = i % w, i // w
    return frozenset(
        ny * w + nx
        for ny in range(max(0, y - 1), min(h, y + 2))
        for nx in range(max(0, x - 1), min(w, x + 2))
        if (nx, ny) != (x, y)
    )


def optimal(position: Position) -> dict[int, float]:
    """Return, for each covered cell, the best chance to win when opening it next (brute force)."""
    w, h = position.width, position.height
    covered = [i for i, c in enumerate(position.cells) if c < 0]
    layouts = [
        frozenset(m)
        for m in combinations(covered, position.mines)
        if all(
            len(neighbours(w, h, i) & set(m)) == c for i, c in enumerate(position.cells) if c >= 0
        )
    ]

    @cache
    def chance(states: frozenset[frozenset[int]], opened: frozenset[int]) -> float:
        if all(set(covered) - opened - m == set() for m in states):
            return 1.0
        return max((value(states, opened, c) for c in covered if c not in opened), default=0.0)

    def value(states: frozenset[frozenset[int]], opened: frozenset[int], c: int) -> float:
        by_number: dict[int, set[frozenset[int]]] = {}
        for m in states:
            if c not in m:
                by_number.setdefault(len(neighbours(w, h, c) & m), set()).add(m)
        return sum(
            len(g) / len(states) * chance(frozenset(g), opened | {c}) for g in by_number.values()
        )

    everything = frozenset(layouts)
    return {c: value(everything, frozenset(), c) for c in covered}


def guess_positions(count: int) -> list[Position]:
    """Return positions of real small games where a guess is needed and few cells remain."""
    found = []
    for seed in range(2000):
        rng = random.Random(seed)
        board = Board(5, 4)
        layout = Layout.random(board, 4, rng, (0, 0), "safe")
        game = Game(layout)
        game.reveal(0, 0)
        while game.state == "playing":
            analysis = analyze(game.position())
            safe = analysis.safe_mask & ~game.opened_mask
            if not safe:
                break
            for i in range(board.size):
                if safe >> i & 1 and game.state == "playing":
                    game.reveal(*board.xy(i))
        position = game.position()
        if game.state == "playing" and 3 <= position.covered_count <= 7:
            found.append(position)
            if len(found) == count:
                break
    return found


def test_best_guess_is_optimal_in_small_end_games() -> None:
    positions = guess_positions(25)
    assert len(positions) == 25
    for position in positions:
        chances = optimal(position)
        analysis = analyze(position, trust_flags=True)
        exact = _endgame(analysis)
        assert exact is not None  # few cells left: the exact search answers
        assert abs(chances[exact] - max(chances.values())) < 1e-9, position
        cell = _best(analysis, random.Random(0))
        assert abs(chances[cell] - max(chances.values())) < 1e-9, position
