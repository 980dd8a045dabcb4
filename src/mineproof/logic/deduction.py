"""A forced move with its reasons: the level of technique, the premises, the proof, what follows."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from mineproof.analysis.constraints import Clue, constraints_of
from mineproof.board import Board
from mineproof.logic.cases import CaseProof
from mineproof.logic.linear import MINE_TOTAL, LinearProof
from mineproof.position import Position

__all__ = ["LEVEL_NAMES", "RULES", "Deduction", "Proof", "Rule", "proof_json"]

LEVEL_NAMES = {
    1: "one clue",
    2: "two clues",
    3: "a combination of clues",
    4: "a case analysis",
    5: "the mine total",
}
"""What a person needs at each level of the ladder."""

Rule = Literal[
    "single-clue",
    "all-mines-found",
    "only-mines-left",
    "two-clues",
    "combination",
    "case-analysis",
    "mine-total",
]

RULES: dict[Rule, int] = {
    "single-clue": 1,
    "all-mines-found": 1,
    "only-mines-left": 1,
    "two-clues": 2,
    "combination": 3,
    "case-analysis": 4,
    "mine-total": 5,
}
"""Each rule's level."""

Proof = LinearProof | CaseProof
"""How the premises prove the conclusions: a combination of their equations, or cases."""


@dataclass(frozen=True, slots=True)
class Deduction:
    """Cells proven safe or mined, with the fewest clues that prove them.

    ``position`` is the view it was made in (with only the flags it takes as mines);
    ``premises`` holds the cell indices of the numbers used (sorted), ``uses_mine_total`` whether
    the mine total is one of the premises; ``safe`` and ``mine`` are bitmasks of the conclusions,
    each an unknown cell of ``position`` that the argument itself proves. ``proof`` is the
    argument for levels 2-5: a :class:`~mineproof.logic.linear.LinearProof` (levels 2, 3 and
    often 5) or a :class:`~mineproof.logic.cases.CaseProof` (level 4, and level 5 when the mine
    total is needed beyond adding equations); ``None`` at level 1, and at levels 4 and 5 when no
    refutation was found within the bounds of the case search (rare: the text then says the
    cases are too many to show). ``minimal`` says that no premise can be dropped;
    ``fewest`` that no smaller set of premises proves the first conclusion (both ``False``
    when a work budget ran out first). ``clues`` are the premises as equations (a number's
    covered unflagged cells and the mines it still needs), in the order of ``premises``.
    """

    position: Position
    rule: Rule
    premises: tuple[int, ...]
    uses_mine_total: bool
    safe: int
    mine: int
    proof: Proof | None = None
    minimal: bool = True
    fewest: bool = True
    clues: tuple[Clue, ...] = ()

    def premise_clues(self) -> dict[int, Clue]:
        """Return the premises as equations, by the cell of their number."""
        if self.clues:
            return {c.cell: c for c in self.clues}
        cons = constraints_of(self.position, trust_flags=True)
        return {c.cell: c for c in cons.clues if c.cell in self.premises}

    @property
    def mines_left(self) -> int:
        """Return the mines not yet flagged (the flags of ``position`` are taken as mines)."""
        return self.position.mines - self.position.flag_mask.bit_count()

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

    def to_json(self) -> dict[str, Any]:
        """Return the deduction as JSON data (cells as ``[x, y]``): ``level``, ``rule``,
        ``premises``, ``uses_mine_total``, ``safe``, ``mine``, ``minimal``, ``fewest`` and
        ``proof`` (see :func:`proof_json`; ``None`` at level 1, and when :attr:`proof` is)."""
        return {
            "level": self.level,
            "rule": self.rule,
            "premises": [list(c) for c in self.premise_cells],
            "uses_mine_total": self.uses_mine_total,
            "safe": [list(c) for c in self.safe_cells],
            "mine": [list(c) for c in self.mine_cells],
            "minimal": self.minimal,
            "fewest": self.fewest,
            "proof": None if self.proof is None else proof_json(self.board, self.proof),
        }


def _number(value: Fraction) -> str:
    return str(value)


def proof_json(board: Board, proof: Proof) -> dict[str, Any]:
    """Return a proof as JSON data, checkable without mineproof.

    A combination: ``given`` lists the one-clue steps made first, in order (each a number's
    ``premise`` with the ``safe`` and ``mine`` cells it settles; the mines are then taken as
    flagged, usually none); ``combination`` lists each premise (``[x, y]`` of a number, or
    ``"mine total"``) with its ``multiplier`` (a string such as ``"-1"`` or ``"1/2"``);
    ``equation`` is their sum, ``cells`` with their ``coefficient`` and the ``total``, which is
    the most its left side can be. Cases: ``cases`` lists assumptions (``safe`` and ``mine``
    cells) with their ``outcome``, ``"contradiction"`` or ``"agrees"``; together they cover every
    arrangement of the cells split on.
    """
    if isinstance(proof, LinearProof):
        return {
            "given": [
                {
                    "premise": list(board.xy(e.premise)),
                    "safe": [list(c) for c in board.mask_to_xy(e.safe)],
                    "mine": [list(c) for c in board.mask_to_xy(e.mine)],
                }
                for e in proof.given
            ],
            "combination": [
                {
                    "premise": "mine total" if cell == MINE_TOTAL else list(board.xy(cell)),
                    "multiplier": _number(k),
                }
                for cell, k in proof.combination
            ],
            "equation": {
                "cells": [
                    {"cell": list(board.xy(i)), "coefficient": _number(c)}
                    for i, c in proof.coefficients
                ],
                "total": _number(proof.total),
            },
        }
    return {
        "cases": [
            {
                "safe": [list(c) for c in board.mask_to_xy(safe)],
                "mine": [list(c) for c in board.mask_to_xy(mine)],
                "outcome": outcome,
            }
            for safe, mine, outcome in proof.cases()
        ]
    }
