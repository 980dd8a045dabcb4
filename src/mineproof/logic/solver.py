"""A logic-only solve as a sequence of explained steps, and the grade it gives a board."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from mineproof.board import Layout, iter_bits
from mineproof.game import Game
from mineproof.logic.deduction import Deduction
from mineproof.logic.ladder import deductions
from mineproof.position import Position

__all__ = ["Grade", "Step", "grade", "logic_steps"]


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction of a solve: its number (from 1) and the position it was made in."""

    number: int
    deduction: Deduction
    position: Position


@dataclass(frozen=True, slots=True)
class Grade:
    """The grade of a board: solved or not, the highest level needed, the steps per level."""

    solved: bool
    level: int
    steps: dict[int, int] = field(default_factory=dict)

    @property
    def total_steps(self) -> int:
        """Return the number of steps of the solve."""
        return sum(self.steps.values())


def _start(layout: Layout, start: tuple[int, int]) -> Game:
    layout.start_index(start)
    game = Game(layout)
    game.reveal(*start)
    return game


def logic_steps(layout: Layout, start: tuple[int, int]) -> Iterator[Step]:
    """Yield the steps of a logic-only solve of ``layout`` from ``start``, lowest level first.

    Each round finds the deductions at the lowest level that makes progress and applies each one
    that still adds something (its mines flagged, its safe cells opened). The solve ends when the
    board is cleared or nothing is forced. Raises ``FormatError`` for a start outside the board
    and ``IllegalMoveError`` for a start on a mine.
    """
    yield from _steps(_start(layout, start))


def _steps(game: Game) -> Iterator[Step]:
    board = game.board
    number = 0
    while game.state == "playing":
        position = game.position()
        found = deductions(position, trust_flags=True)
        if not found:
            return
        for deduction in found:
            if game.state != "playing":
                return
            new_safe = deduction.safe & ~game.opened_mask
            new_mine = deduction.mine & ~game.flag_mask
            if not (new_safe or new_mine):
                continue
            number += 1
            yield Step(number, deduction, position)
            for i in iter_bits(new_mine):
                game.flag(*board.xy(i))
            for i in iter_bits(new_safe):
                if not game.opened_mask >> i & 1:
                    game.reveal(*board.xy(i))


def grade(layout: Layout, start: tuple[int, int]) -> Grade:
    """Return the grade of ``layout`` solved logic-only from ``start``.

    ``level`` is the highest level any step needed (0 when no step was needed); ``solved`` says
    whether every safe cell was opened. Raises as :func:`logic_steps` does.
    """
    game = _start(layout, start)
    counts = Counter(step.deduction.level for step in _steps(game))
    return Grade(game.state == "won", max(counts, default=0), dict(sorted(counts.items())))
