"""ms-toollib's integer grid: a JSON list of rows, each a list of ints.

``0``-``8`` is an opened number, ``10`` a covered cell and ``11`` a flag. The grid carries no mine
total, so the caller supplies it.
"""

from __future__ import annotations

import json

from mineproof.board import Board
from mineproof.english import counted
from mineproof.errors import ArgumentError, FormatError
from mineproof.formats.json_text import read_json
from mineproof.position import COVERED, FLAG, Position

__all__ = ["GRID_COVERED", "GRID_FLAG", "format_grid", "parse_grid"]

GRID_COVERED = 10
"""ms-toollib's code of a covered cell."""
GRID_FLAG = 11
"""ms-toollib's code of a flagged cell."""

_TO_CODE = {n: n for n in range(9)} | {GRID_COVERED: COVERED, GRID_FLAG: FLAG}
_FROM_CODE = {code: value for value, code in _TO_CODE.items()}
_SHAPE = "a JSON list of rows, each a list of ints"


def parse_grid(text: str, mines: int | None) -> Position:
    """Return the position of an ms-toollib grid given as JSON text, with ``mines`` mines.

    Raises ``ArgumentError`` (``name`` ``mines``) when ``mines`` is ``None`` (the grid has no
    mine total); ``FormatError`` when the text is not JSON (see
    :func:`~mineproof.formats.read_json`: with the line and column, in plain English), not a
    non-empty list of equally long lists, or holds a value other than 0-8, 10 or 11 (the
    message names the row and column, 1-based, and the cell ``(x, y)``, 0-based).
    ``Position`` raises ``FormatError`` for a negative mine total, ``ArgumentError`` for one
    larger than the number of covered cells. A number larger than the cell's neighbours is read
    (the analysis then names it, ``InconsistentPositionError``).

    >>> parse_grid("[[1, 10, 1]]", 1).text()
    '3x1x1\\n1H1'
    """
    if mines is None:
        # Named for the caller to say how to give it (the command line's --mines N, a
        # request's field mines).
        raise ArgumentError("an ms-toollib grid has no mine total", name="mines")
    grid = read_json(text, "invalid JSON", f"an ms-toollib grid, {_SHAPE}", "json")
    if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
        raise FormatError(f"an ms-toollib grid must be {_SHAPE}", reason="grid-shape")
    if not grid or not grid[0]:
        raise FormatError(
            "empty grid: expected at least one row with at least one cell", reason="grid-shape"
        )
    width = len(grid[0])
    cells: list[int] = []
    for y, row in enumerate(grid):
        if len(row) != width:
            raise FormatError(
                f"row {y + 1} has {counted(len(row), 'cell')}, expected {width} like row 1",
                reason="grid-row-length",
                details={"row": y + 1, "expected": width, "found": len(row)},
            )
        for x, value in enumerate(row):
            # bool is an int subclass, and 1.0 == 1: accept only true ints.
            code = _TO_CODE.get(value) if type(value) is int else None
            if code is None:
                shown = json.dumps(value)
                raise FormatError(
                    f"row {y + 1}, column {x + 1} (cell ({x}, {y})): {shown} is "
                    "not a cell value (0-8 opened, 10 covered, 11 flag)",
                    reason="grid-value",
                    details={"row": y + 1, "column": x + 1, "value": shown[:40]},
                )
            cells.append(code)
    try:
        board = Board(width, len(grid))
    except FormatError as exc:  # a side outside 1..255: its message, with the reason
        raise FormatError(str(exc), reason="size-range") from None
    return Position(board, tuple(cells), mines)


def format_grid(position: Position) -> str:
    """Return ``position`` as an ms-toollib grid in compact JSON, one row per line.

    The mine total is not part of the grid. Raises nothing.

    >>> print(format_grid(Position.parse("3x2x1\\n1HF\\n111")))
    [[1,10,11],
     [1,1,1]]
    """
    rows = [
        json.dumps([_FROM_CODE[c] for c in row], separators=(",", ":")) for row in position.rows()
    ]
    return "[" + ",\n ".join(rows) + "]"
