"""A forced move with its reasons: the level of technique, the premises, the conclusions."""

from __future__ import annotations

from dataclasses import dataclass

from mineproof.board import Board
from mineproof.position import Position

__all__ = ["LEVEL_NAMES", "RULES", "Deduction"]

LEVEL_NAMES = {
    1: "one clue",
    2: "two clues",
    3: "a combination of clues",
    4: "a case analysis",
    5: "the mine total",
}
"""What a person needs at each level of the ladder."""

RULES = {
    "single-clue": 1,
    "all-mines-found": 1,
    "only-mines-left": 1,
    "two-clues": 2,
    "elimination": 3,
    "case-analysis": 4,
    "mine-total": 5,
}
"""Each rule's level."""


@dataclass(frozen=True, slots=True)
class Deduction:
    """Cells proven safe or mined, with the fewest clues that prove them.

    ``position`` is the view it was made in (with only the flags it takes as mines);
    ``premises`` holds the cell indices of the numbers used (sorted), ``uses_mine_count`` whether
    the mine total is one of the premises; ``safe`` and ``mine`` are bitmasks of the conclusions.
    Removing any one premise (or the mine total) breaks the proof. For ``elimination``,
    ``combination`` holds each premise with the integer it is multiplied by when the clue
    equations are added up.
    """

    position: Position
    rule: str
    premises: tuple[int, ...]
    uses_mine_count: bool
    safe: int
    mine: int
    combination: tuple[tuple[int, int], ...] = ()

    @property
    def board(self) -> Board:
        """Return the board's geometry."""
        return self.position.board

    @property
    def level(self) -> int:
        """Return the level of technique (1-5) this deduction needs."""
        return RULES[self.rule]

    @property
    def premise_cells(self) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells of the numbers used."""
        return [self.board.xy(i) for i in self.premises]

    @property
    def safe_cells(self) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells proven safe."""
        return self.board.mask_to_xy(self.safe)

    @property
    def mine_cells(self) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells proven to be mines."""
        return self.board.mask_to_xy(self.mine)
