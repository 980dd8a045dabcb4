"""A readable text form of a mine layout.

A ``WxHxM`` header line, then ``H`` rows of ``W`` characters: ``*`` a mine, ``.`` a safe cell.
Blank lines and spaces around a line are ignored.
"""

from __future__ import annotations

from mineproof.board import Board, Layout
from mineproof.english import counted
from mineproof.errors import FormatError
from mineproof.formats._text import content_lines, parse_header

__all__ = ["format_layout_text", "parse_layout_text"]

MINE = "*"
"""The character of a mine."""
SAFE = "."
"""The character of a safe cell."""


def parse_layout_text(text: str) -> Layout:
    """Return the layout written in ``text``.

    Raises ``FormatError`` (with ``line``, ``column`` and ``excerpt`` where they apply) for empty
    input, a missing or malformed ``WxHxM`` header, a board size outside 1..255, a wrong number
    of rows, a row of the wrong length, a character other than ``*`` and ``.``, or a header mine
    count that differs from the number of ``*``, and ``TypeError`` when ``text`` is not a
    ``str`` (for bytes: :func:`~mineproof.formats.load_layout`).

    >>> parse_layout_text("3x1x1\\n..*").mines
    4
    """
    if not isinstance(text, str):
        raise TypeError(
            f"parse_layout_text takes str, not {type(text).__name__} (for bytes: load_layout)"
        )
    lines = content_lines(text)
    if not lines:
        raise FormatError("empty input: expected a 'WxHxM' line and the layout rows")
    n0, header = lines[0]
    size = parse_header(header, n0)
    if size is None:
        raise FormatError(
            "not a layout: expected a 'WxHxM' line such as 30x16x99, then rows of * and .",
            line=n0,
            excerpt=header.strip(),
        )
    width, height, mines = size
    try:
        board = Board(width, height)
    except FormatError as exc:
        raise FormatError(str(exc), line=n0, excerpt=header.strip()) from exc
    rows = lines[1:]
    if len(rows) != height:
        raise FormatError(
            f"the header says {counted(height, 'row')} but {len(rows)} follow",
            line=rows[-1][0] if rows else n0,
        )
    mask = 0
    for y, (n, line) in enumerate(rows):
        row = line.strip()
        if len(row) != width:
            raise FormatError(
                f"row {y + 1} has {counted(len(row), 'cell')}, expected {width}",
                line=n,
                excerpt=row,
            )
        indent = len(line) - len(line.lstrip())
        for x, char in enumerate(row):
            if char == MINE:
                mask |= 1 << (y * width + x)
            elif char != SAFE:
                raise FormatError(
                    f"cell ({x}, {y}): unknown character {char!r} (expected * or .)",
                    line=n,
                    column=indent + x + 1,
                    excerpt=row,
                )
    layout = Layout(board, mask)
    if layout.mine_count != mines:
        raise FormatError(
            f"the header says {counted(mines, 'mine')} but the rows hold {layout.mine_count}",
            line=n0,
            excerpt=header.strip(),
        )
    return layout


def format_layout_text(layout: Layout) -> str:
    """Return ``layout`` as text (the inverse of :func:`parse_layout_text`). Raises nothing.

    >>> print(format_layout_text(Layout(Board(3, 2), 0b100001)))
    3x2x2
    *..
    ..*
    """
    board = layout.board
    w = board.width
    rows = [
        "".join(MINE if layout.mines >> (y * w + x) & 1 else SAFE for x in range(w))
        for y in range(board.height)
    ]
    return f"{w}x{board.height}x{layout.mine_count}\n" + "\n".join(rows)
