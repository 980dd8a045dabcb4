"""The next hint for a position: the simplest forced move explained, or the safest guess.

This is what the ``hint`` command prints and what the web app's hint button shows: the
deduction at the lowest level of technique with the fewest premises, its text in the chosen
language, or, when nothing is forced, the covered cells of lowest mine probability.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mineproof.analysis import Analysis, analyze
from mineproof.explain.text import explain, guess_text, level_label
from mineproof.logic import deductions
from mineproof.logic.deduction import Deduction
from mineproof.position import Position
from mineproof.render.text import percent

__all__ = ["Hint", "hint"]

Cells = list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Hint:
    """The next move for a player, with its reason.

    ``deduction`` is the forced move (``level`` 1-5), or ``None`` when a guess is needed
    (``level`` 0): then ``safest`` holds the covered, unflagged cells of lowest mine probability
    ``probability`` and ``analysis`` the exact analysis they come from. ``text`` is the
    explanation in ``lang``.
    """

    deduction: Deduction | None
    analysis: Analysis | None
    safest: Cells
    probability: float | None
    text: str
    lang: str

    @property
    def level(self) -> int:
        """Return the level of technique (1-5), or 0 for a guess."""
        return 0 if self.deduction is None else self.deduction.level

    @property
    def headline(self) -> str:
        """Return the text for a person: the level's label, then the explanation."""
        if self.deduction is None:
            return self.text
        return f"{level_label(self.deduction.level, self.lang)} {self.text}"

    def to_json(self) -> dict[str, Any]:
        """Return the hint as JSON data: ``level``, ``rule``, ``premises``, ``uses_mine_count``,
        ``safe``, ``mine``, ``text`` (cells as ``[x, y]``), plus ``safest`` and ``probability``
        for a guess."""
        d = self.deduction
        if d is not None:
            return {
                "level": d.level,
                "rule": d.rule,
                "premises": _xy(d.premise_cells),
                "uses_mine_count": d.uses_mine_count,
                "safe": _xy(d.safe_cells),
                "mine": _xy(d.mine_cells),
                "text": self.text,
            }
        return {
            "level": 0,
            "rule": "guess",
            "premises": [],
            "uses_mine_count": False,
            "safe": [],
            "mine": [],
            "text": self.text,
            "safest": _xy(self.safest),
            "probability": self.probability,
        }


def _xy(cells: Cells) -> list[list[int]]:
    return [list(c) for c in cells]


def hint(position: Position, lang: str = "en", *, trust_flags: bool = False) -> Hint:
    """Return the next hint for ``position``, explained in ``lang``.

    Raises :class:`~mineproof.errors.InconsistentPositionError` for an impossible position and
    ``MineproofError`` for an unknown language.
    """
    found = deductions(position, trust_flags=trust_flags)
    if found:
        d = found[0]
        return Hint(d, None, [], None, explain(d, lang), lang)
    analysis = analyze(position, trust_flags=trust_flags)
    counts = [
        (n, i)
        for i, n in enumerate(analysis.mine_counts)
        if n >= 0 and not position.flag_mask >> i & 1
    ]
    if not counts:
        return Hint(None, analysis, [], None, "", lang)
    best = min(n for n, _ in counts)
    safest = [position.board.xy(i) for n, i in counts if n == best]
    p = best / analysis.arrangements
    return Hint(None, analysis, safest, p, guess_text(safest[:8], percent(p), lang), lang)
