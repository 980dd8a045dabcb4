"""The well-known patterns players name: 1-1, 1-2, 1-2-1 and 1-2-2-1.

A pattern is a straight line of numbers next to each other whose covered cells all lie in the one
line of cells beside them; what counts is each number's remaining mines (its number less the
flags around it). A two-clue deduction is named after the longest pattern its two numbers belong
to. A 1-1 proves something only on a wall (the first 1 has two covered cells, the line cut by the
board's edge or by opened cells); the others work anywhere, along a wall or not.
"""

from __future__ import annotations

from typing import Literal

from mineproof.analysis.constraints import Clue, constraints_of
from mineproof.board import iter_bits
from mineproof.logic.deduction import Deduction

__all__ = ["Pattern", "pattern_of"]

Pattern = Literal["1-1", "1-2", "1-2-1", "1-2-2-1"]

_LONG: tuple[tuple[int, ...], ...] = ((1, 2, 2, 1), (1, 2, 1))


def pattern_of(d: Deduction) -> Pattern | None:
    """Return the name of the pattern a two-clue deduction is an instance of, or ``None``."""
    if d.rule != "two-clues":
        return None
    board = d.board
    w = board.width
    a, b = (d.premise_clues()[p] for p in d.premises)
    ax, ay = a.cell % w, a.cell // w
    bx, by = b.cell % w, b.cell // w
    if abs(ax - bx) + abs(ay - by) != 1:
        return None
    dx, dy = bx - ax, by - ay
    for side in (1, -1):
        # The covered line runs beside the numbers: across from the step between them.
        ox, oy = -dy * side, dx * side
        if not (_beside(a, ax, ay, ox, oy, w) and _beside(b, bx, by, ox, oy, w)):
            continue
        # The line of numbers runs along the row (or column) of the two: only its clues count.
        if dy == 0:
            line_cells = ((1 << w) - 1) << ay * w
        else:
            line_cells = sum(1 << y * w + ax for y in range(board.height))
        clues = {
            c.cell: c for c in constraints_of(d.position, trust_flags=True, near=line_cells).clues
        }
        line = [a, b]
        # Extend the line of numbers both ways while their cells stay in the covered line.
        for step, end in ((-1, a), (1, b)):
            x, y = end.cell % w, end.cell // w
            while True:
                x, y = x + step * dx, y + step * dy
                if not (0 <= x < board.width and 0 <= y < board.height):
                    break
                clue = clues.get(y * w + x)
                if clue is None or not _beside(clue, x, y, ox, oy, w):
                    break
                if step < 0:
                    line.insert(0, clue)
                else:
                    line.append(clue)
        counts = [c.mines for c in line]
        at = line.index(a)
        for shape in _LONG:
            n = len(shape)
            for start in range(max(0, at + 2 - n), min(at, len(counts) - n) + 1):
                if tuple(counts[start : start + n]) == shape:
                    return "1-2-1" if n == 3 else "1-2-2-1"
        pair = (a.mines, b.mines)
        if pair == (1, 1):
            return "1-1"
        if pair in ((1, 2), (2, 1)):
            return "1-2"
    return None


def _beside(clue: Clue, x: int, y: int, ox: int, oy: int, w: int) -> bool:
    """Return whether every covered cell of ``clue`` (at ``x, y``) lies in the line beside it,
    one step along ``(ox, oy)``."""
    for i in iter_bits(clue.mask):
        cx, cy = i % w, i // w
        if (cx - x) * ox + (cy - y) * oy != 1 or abs(cx - x) + abs(cy - y) > 2:
            return False
    return True
