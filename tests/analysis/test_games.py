"""Properties of the analysis along whole random games on standard boards.

The test plays expert (30x16, 99 mines) and intermediate (16x16, 40 mines) games: after an
opening first click it reveals every cell the analysis proves safe, flags every cell it proves
a mine, and clicks a random safe cell (the test knows the layout) when nothing is proven and,
now and then, when something is. At
every position it checks what must hold whatever the algorithm:

- the probabilities of the covered cells add up to the mine total, exactly (``Fraction``);
- every proven safe cell is free of mines in the hidden layout, every proven mine is a mine;
- with the flags trusted, the same holds for the cells that are not flagged;
- ms-toollib, an independent implementation, gives the same probabilities (within 1e-9).
"""

from __future__ import annotations

import random
from fractions import Fraction

import ms_toollib
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.analysis import Analysis, analyze
from mineproof.board import Board
from mineproof.position import COVERED, FLAG, Position

LEVELS = [(30, 16, 99), (16, 16, 40)]


def around(width: int, height: int, i: int) -> list[int]:
    """Return the indices of the cells next to cell ``i``."""
    x, y = i % width, i // width
    return [
        ny * width + nx
        for ny in (y - 1, y, y + 1)
        for nx in (x - 1, x, x + 1)
        if (nx, ny) != (x, y) and 0 <= nx < width and 0 <= ny < height
    ]


class Game:
    """A game the test plays: the hidden layout, the opened cells, the flags."""

    def __init__(self, width: int, height: int, mines: int, rng: random.Random) -> None:
        self.width, self.height, self.total = width, height, mines
        size = width * height
        start = rng.randrange(size)
        free = {start, *around(width, height, start)}
        self.mines = set(rng.sample([i for i in range(size) if i not in free], mines))
        self.numbers = [sum(j in self.mines for j in around(width, height, i)) for i in range(size)]
        self.opened: set[int] = set()
        self.flags: set[int] = set()
        self.reveal(start)

    def reveal(self, start: int) -> None:
        """Open a safe cell and, through zeros, everything the click opens."""
        assert start not in self.mines
        todo = [start]
        while todo:
            i = todo.pop()
            if i in self.opened:
                continue
            self.opened.add(i)
            self.flags.discard(i)
            if self.numbers[i] == 0:
                todo.extend(j for j in around(self.width, self.height, i) if j not in self.opened)

    def position(self) -> Position:
        cells = tuple(
            self.numbers[i] if i in self.opened else FLAG if i in self.flags else COVERED
            for i in range(self.width * self.height)
        )
        return Position(Board(self.width, self.height), cells, self.total)

    def closed_safe(self) -> list[int]:
        size = self.width * self.height
        return [i for i in range(size) if i not in self.opened and i not in self.mines]


def check_analysis(game: Game, result: Analysis, trust_flags: bool) -> None:
    """Assert the properties every exact analysis of a game's position must have."""
    position = result.position
    w = position.width
    assert result.arrangements >= 1
    unknown = [
        i for i, c in enumerate(position.cells) if c == COVERED or (c == FLAG and not trust_flags)
    ]
    left = position.mines - (position.flag_count if trust_flags else 0)
    total = sum((result.probability(i % w, i // w) or Fraction(0) for i in unknown), Fraction(0))
    assert total == left
    for x, y in result.safe_cells:
        assert y * w + x not in game.mines, f"({x}, {y}) proven safe is a mine"
    for x, y in result.mine_cells:
        assert y * w + x in game.mines, f"({x}, {y}) proven a mine is safe"
    for i in game.mines:
        n = result.mine_counts[i]
        assert n > 0, f"the mine at {position.board.xy(i)} has probability 0"


def check_ms_toollib(result: Analysis) -> None:
    """Assert that ms-toollib gives the same probabilities (flags are given as covered)."""
    position = result.position
    w = position.width
    grid = [
        [10 if c < 0 else c for c in position.cells[y * w : (y + 1) * w]]
        for y in range(position.height)
    ]
    theirs, _ = ms_toollib.cal_probability_onboard(grid, position.mines)
    ours = result.float_probabilities()
    for y, row in enumerate(ours):
        for x, p in enumerate(row):
            if p is not None:
                assert abs(theirs[y][x] - p) <= 1e-9, (x, y, theirs[y][x], p, position.text())


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(LEVELS))
def test_games_keep_the_properties(seed: int, level: tuple[int, int, int]) -> None:
    rng = random.Random(seed)
    game = Game(*level, rng)
    for _ in range(400):
        closed = game.closed_safe()
        if not closed:
            break
        position = game.position()
        result = analyze(position)
        check_analysis(game, result, trust_flags=False)
        check_ms_toollib(result)
        if game.flags:
            trusted = analyze(position, trust_flags=True)
            check_analysis(game, trusted, trust_flags=True)
            # The flags are proven mines: trusting them changes no count at all.
            assert trusted.arrangements == result.arrangements
            assert trusted.mine_counts == result.mine_counts
            assert set(trusted.safe_cells) == set(result.safe_cells)
            flagged = {position.board.xy(i) for i in game.flags}
            assert set(trusted.mine_cells) | flagged == set(result.mine_cells)
            assert set(result.flag_status().values()) == {"proven"}
        w = position.width
        game.flags |= {y * w + x for x, y in result.mine_cells}
        safe = [y * w + x for x, y in result.safe_cells]
        if not safe or rng.random() < 0.2:
            # Stuck (or, now and then, on a whim): a random click on a safe cell.
            safe.append(rng.choice(closed))
        for i in safe:
            game.reveal(i)
    else:
        raise AssertionError("the game did not end")
