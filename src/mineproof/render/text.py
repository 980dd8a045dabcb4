"""Text drawings of an analysis for a terminal: the board with each covered cell's probability.

Each cell takes four columns: ``.`` an opened 0, ``1``-``8`` an opened number, ``S`` a cell safe
in every arrangement, ``M`` a cell that is a mine in every arrangement, ``F`` a flag, otherwise
the mine probability in percent. Columns are lettered and rows numbered as a person names cells
(``C4``).
"""

from __future__ import annotations

from mineproof.analysis import Analysis
from mineproof.board import cell_name
from mineproof.position import FLAG

__all__ = ["analysis_grid", "percent"]


def percent(p: float) -> str:
    """Return a probability as a short percentage that never rounds a possibility away.

    >>> percent(0.0), percent(0.004), percent(0.372), percent(0.996), percent(1.0)
    ('0%', '<1%', '37%', '>99%', '100%')
    """
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.005:
        return "<1%"
    if p > 0.995:
        return ">99%"
    return f"{round(p * 100)}%"


def _cell(analysis: Analysis, i: int, code: int) -> str:
    if code >= 0:
        return "." if code == 0 else str(code)
    if code == FLAG:
        return "F"
    if analysis.safe_mask >> i & 1:
        return "S"
    if analysis.mine_mask >> i & 1:
        return "M"
    return percent(analysis.mine_counts[i] / analysis.arrangements)


def analysis_grid(analysis: Analysis) -> str:
    """Return the board drawn with every covered cell's mine probability, one row a line."""
    position = analysis.position
    w = position.width
    header = "    " + "".join(f"{cell_name(x, 0)[:-1]:>4}" for x in range(w))
    lines = [header]
    for y in range(position.height):
        cells = "".join(
            f"{_cell(analysis, y * w + x, position.cells[y * w + x]):>4}" for x in range(w)
        )
        lines.append(f"{y + 1:>4}{cells}")
    return "\n".join(lines)
