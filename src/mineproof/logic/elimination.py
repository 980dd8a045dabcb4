"""Gaussian elimination of clue equations, with the bounds rule for 0/1 unknowns.

Each clue is an equation: the sum of its cells (0 or 1 each) equals its number of mines. Rows
are reduced to reduced row echelon form over the rationals while remembering which clues each
row combines. A row ``sum(c_i * x_i) = r`` then forces a cell when the other cells cannot make
up the difference: a cell with ``c > 0`` is safe when even the smallest sum with it set exceeds
``r``, a mine when the largest sum without it stays below ``r`` (and symmetrically for ``c < 0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from mineproof.analysis.constraints import Clue
from mineproof.board import iter_bits

__all__ = ["Row", "bounds", "eliminate"]


@dataclass(frozen=True, slots=True)
class Row:
    """One equation ``sum(coef[cell] * x_cell) = rhs`` and how it was made from the clues.

    ``combination`` maps clue cells to their integer multipliers; ``coef`` and ``rhs`` are
    scaled to integers with the same factor.
    """

    coef: dict[int, int]
    rhs: int
    combination: dict[int, int]


def eliminate(clues: list[Clue]) -> list[Row]:
    """Return the rows of the reduced row echelon form of the clues' equations, as integers."""
    rows: list[tuple[dict[int, Fraction], Fraction, dict[int, Fraction]]] = [
        ({i: Fraction(1) for i in iter_bits(c.mask)}, Fraction(c.mines), {c.cell: Fraction(1)})
        for c in clues
    ]
    columns = sorted({i for coef, _, _ in rows for i in coef})
    pivot_row = 0
    for col in columns:
        found = next((r for r in range(pivot_row, len(rows)) if rows[r][0].get(col)), None)
        if found is None:
            continue
        rows[pivot_row], rows[found] = rows[found], rows[pivot_row]
        pcoef, prhs, pcomb = rows[pivot_row]
        factor = pcoef[col]
        pcoef = {k: v / factor for k, v in pcoef.items()}
        prhs /= factor
        pcomb = {k: v / factor for k, v in pcomb.items()}
        rows[pivot_row] = (pcoef, prhs, pcomb)
        for r in range(len(rows)):
            if r == pivot_row:
                continue
            coef, rhs, comb = rows[r]
            f = coef.get(col)
            if not f:
                continue
            rows[r] = (_minus(coef, f, pcoef), rhs - f * prhs, _minus(comb, f, pcomb))
        pivot_row += 1
    out = []
    for coef, rhs, comb in rows[:pivot_row]:
        scale = lcm(*(v.denominator for v in (*coef.values(), rhs, *comb.values())))
        out.append(
            Row(
                {k: int(v * scale) for k, v in coef.items()},
                int(rhs * scale),
                {k: int(v * scale) for k, v in comb.items()},
            )
        )
    return out


def _minus(a: dict[int, Fraction], f: Fraction, b: dict[int, Fraction]) -> dict[int, Fraction]:
    """Return ``a - f * b`` for sparse vectors, dropping zero entries."""
    out = dict(a)
    for k, v in b.items():
        value = out.get(k, Fraction(0)) - f * v
        if value:
            out[k] = value
        else:
            out.pop(k, None)
    return out


def bounds(row: Row) -> tuple[int, int]:
    """Return ``(safe, mine)``: the cells the bounds rule forces from one row, as bitmasks."""
    low = sum(v for v in row.coef.values() if v < 0)
    high = sum(v for v in row.coef.values() if v > 0)
    safe = 0
    mine = 0
    r = row.rhs
    for cell, c in row.coef.items():
        if c > 0:
            if low + c > r:
                safe |= 1 << cell
            elif high - c < r:
                mine |= 1 << cell
        elif high + c < r:
            safe |= 1 << cell
        elif low - c > r:
            mine |= 1 << cell
    return safe, mine
