"""Text drawings of an analysis for a terminal: the board with each covered cell's probability.

Each cell takes four columns (five where a figure needs them): ``.`` an opened 0, ``1``-``8``
an opened number, ``S`` a cell safe in every arrangement, ``M`` a cell that is a mine in every
arrangement, ``F`` a flag, otherwise the mine probability in percent. Columns are lettered
and rows numbered as a person names cells (``C4``).
"""

from __future__ import annotations

import math

from mineproof.analysis import Analysis
from mineproof.board import cell_name
from mineproof.position import FLAG

__all__ = ["analysis_grid", "percent", "percents"]


def percent(p: float, digits: int = 0) -> str:
    """Return a probability as a short percentage, with ``digits`` decimals, that never rounds a
    possibility away.

    >>> percent(0.0), percent(0.004), percent(0.372), percent(0.996), percent(1.0)
    ('0%', '<1%', '37%', '>99%', '100%')
    >>> percent(0.0905, 1), percent(0.0004, 1), percent(0.9996, 1)
    ('9.0%', '<0.1%', '>99.9%')
    >>> percent(1 / 200), percent(1 / 8), percent(199 / 200), percent(0.9995, 1)
    ('1%', '13%', '>99%', '>99.9%')
    >>> percent(0.004, 2), percent(1 / 400, 1)
    ('0.40%', '0.3%')
    """
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    step = 10.0**-digits  # the smallest step shown, in percent
    # Halves round up, as the web page's Math.round does: 1/8 is 13% on the board and in the
    # words beside it (Python's formatting rounds 12.5 to even, 12).
    scale = 10**digits
    shown = f"{math.floor(p * 100 * scale + 0.5) / scale:.{digits}f}"
    if float(shown) <= 0:  # a possibility shown as none
        return f"<{step:.{digits}f}%"
    if float(shown) >= 100:
        return f">{100 - step:.{digits}f}%"
    return f"{shown}%"


_MAX_DIGITS = 3


def percents(*ps: float) -> tuple[str, ...]:
    """Return the probabilities ``ps`` as percentages (see :func:`percent`) with the fewest
    decimals (none up to three) that show different probabilities differently, so that a
    sentence never sets two equal figures against each other.

    >>> percents(0.093, 0.0905), percents(0.25, 0.25, 0.5)
    (('9.3%', '9.0%'), ('25%', '25%', '50%'))
    """
    for digits in range(_MAX_DIGITS + 1):
        shown = tuple(percent(p, digits) for p in ps)
        if all(
            (shown[a] == shown[b]) == (ps[a] == ps[b]) for a in range(len(ps)) for b in range(a)
        ):
            break
    return shown


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
    """Return the board drawn with every covered cell's mine probability, one row a line.

    Each cell takes four columns, or five on a board where some cell shows ">99%", so that
    every figure has a space before it.
    """
    position = analysis.position
    w, h = position.width, position.height
    shown = [_cell(analysis, i, code) for i, code in enumerate(position.cells)]
    width = max(4, 1 + max(len(text) for text in shown))
    header = "    " + "".join(f"{cell_name(x, 0)[:-1]:>{width}}" for x in range(w))
    lines = [header]
    for y in range(h):
        cells = "".join(f"{text:>{width}}" for text in shown[y * w : (y + 1) * w])
        lines.append(f"{y + 1:>4}{cells}")
    return "\n".join(lines)
