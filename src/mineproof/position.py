"""What the player sees: opened numbers, flags, covered cells and the mine total.

A :class:`Position` has no access to the mine layout, so no code that works on positions can see
the mines. Its canonical text is JSMinesweeper's position format: a ``WxHxM`` line, then one line
per row, ``0``-``8`` for opened cells, ``H`` for covered and ``F`` for flagged cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mineproof.board import Board, cell_name
from mineproof.english import counted
from mineproof.errors import ArgumentError, FormatError

__all__ = ["COVERED", "FLAG", "HEADER_RE", "Position", "parse_header"]

HEADER_RE = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*")
"""A ``WxHxM`` header line (ASCII digits; spaces around the parts are allowed)."""

_SIGNED_HEADER_RE = re.compile(r"\s*(-?[0-9]+)\s*[xX]\s*(-?[0-9]+)\s*[xX]\s*(-?[0-9]+)\s*")

_MAX_DIGITS = 9
"""Digits a header number may have (leading zeros aside): far more than any board (sides up to
255, at most 65,025 mines), far fewer than Python's 4,300-digit limit on reading an int."""


def parse_header(line: str, number: int | None = None) -> tuple[int, int, int] | None:
    """Return ``(width, height, mines)`` from a ``WxHxM`` line, or ``None`` if it is not one.

    Raises ``FormatError`` (at line ``number`` of the input, when given) when a number of the
    header has more than 9 digits (no board is that large; the caller checks the real bounds)
    or is negative.

    >>> parse_header(" 30x16X99 "), parse_header("30x16"), parse_header("0030x016x099")
    ((30, 16, 99), None, (30, 16, 99))
    """
    match = HEADER_RE.fullmatch(line)
    if match is None:
        signed = _SIGNED_HEADER_RE.fullmatch(line)
        if signed is not None:
            names = ("width", "height", "mine total")
            parts = zip(names, signed.groups(), strict=True)
            name, value = next((n, v) for n, v in parts if v[0] == "-")
            raise FormatError(
                f"the header's {name} {value[:12]} is negative",
                line=number,
                excerpt=line.strip()[:40],
                reason="size-range",
            )
        return None
    for name, digits in zip(("width", "height", "mine total"), match.groups(), strict=True):
        if len(digits.lstrip("0")) > _MAX_DIGITS:
            raise FormatError(
                f"the header's {name} has {len(digits.lstrip('0')):,} digits: no board is that "
                "large (sides 1..255)",
                line=number,
                excerpt=line.strip()[:40] + ("..." if len(line.strip()) > 40 else ""),
                reason="size-range",
            )
    width, height, mines = (int(g) for g in match.groups())
    return width, height, mines


COVERED = -1
"""Cell code of a covered cell."""
FLAG = -2
"""Cell code of a flagged (covered) cell."""

_CHAR_CODE = {str(n): n for n in range(9)} | {"H": COVERED, "F": FLAG}
_CODE_CHAR = {code: char for char, code in _CHAR_CODE.items()}


@dataclass(frozen=True, slots=True)
class Position:
    """A player's view of a board: per cell a number 0-8, ``COVERED`` or ``FLAG``; the mine total.

    Raises ``FormatError`` when a cell code is unknown (not an ``int`` from -2 to 8) or the mine
    total is negative, ``TypeError`` when the mine total is not an ``int`` or the cells no
    tuple (a list is taken as its tuple), and
    ``ArgumentError`` (``name`` ``mines``, ``allowed`` from 0 to the covered cells) when the
    mine total is larger than the covered cells. A number larger than the cell's neighbours is
    well-formed but impossible: the analysis names it (``InconsistentPositionError``), as it
    names every conflict.

    >>> p = Position.parse("3x1x1\\n1H1")
    >>> p.width, p.height, p.mines, p.covered_count
    (3, 1, 1, 1)
    >>> p
    Position.parse('3x1x1\\n1H1')
    """

    board: Board
    cells: tuple[int, ...]
    mines: int
    covered_mask: int = field(init=False, repr=False, compare=False)
    flag_mask: int = field(init=False, repr=False, compare=False)
    number_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        board = self.board
        if not isinstance(self.cells, tuple):
            # A list would make an unhashable position, unequal to its own repr's.
            if not isinstance(self.cells, list):
                raise TypeError(f"cells must be a tuple of ints, not {type(self.cells).__name__}")
            object.__setattr__(self, "cells", tuple(self.cells))
        if len(self.cells) != board.size:
            raise FormatError(
                f"{counted(len(self.cells), 'cell')} given for a {board.width}x{board.height} board"
            )
        covered = 0
        flags = 0
        numbers = 0
        for i, code in enumerate(self.cells):
            if type(code) is not int or not -2 <= code <= 8:
                raise FormatError(f"cell {self._where(i)}: unknown cell code {code!r}")
            if code == COVERED:
                covered |= 1 << i
            elif code == FLAG:
                covered |= 1 << i
                flags |= 1 << i
            elif code > 0:
                numbers |= 1 << i
        object.__setattr__(self, "covered_mask", covered)
        object.__setattr__(self, "flag_mask", flags)
        object.__setattr__(self, "number_mask", numbers)
        n_covered = covered.bit_count()
        if type(self.mines) is not int:
            raise TypeError(f"the mine total must be an int, not {type(self.mines).__name__}")
        if self.mines < 0:
            raise FormatError(f"the mine total {self.mines} is negative")
        if self.mines > n_covered:
            # Well-formed, but out of the totals the cells allow, as a new game's mines that do
            # not fit its board: an argument out of its range, which a reader can name.
            raise ArgumentError(
                f"the mine total {self.mines} is more than the "
                f"{counted(n_covered, 'covered cell')}",
                name="mines",
                allowed=(0, n_covered),
            )

    @classmethod
    def unchecked(
        cls,
        board: Board,
        cells: tuple[int, ...],
        mines: int,
        covered: int,
        flags: int,
        numbers: int,
    ) -> Position:
        """Return a position whose masks are already known (covered cells, flags, numbers 1-8),
        without checking it: for code that keeps a valid position as it changes, a game.
        """
        position = object.__new__(cls)
        for name, value in (
            ("board", board),
            ("cells", cells),
            ("mines", mines),
            ("covered_mask", covered),
            ("flag_mask", flags),
            ("number_mask", numbers),
        ):
            object.__setattr__(position, name, value)
        return position

    def _where(self, i: int) -> str:
        x, y = self.board.xy(i)
        return f"({x}, {y}) [{cell_name(x, y)}], row {y + 1}, column {x + 1}"

    @property
    def width(self) -> int:
        """Return the board width."""
        return self.board.width

    @property
    def height(self) -> int:
        """Return the board height."""
        return self.board.height

    @property
    def covered_count(self) -> int:
        """Return the number of covered cells, flags included."""
        return self.covered_mask.bit_count()

    @property
    def flag_count(self) -> int:
        """Return the number of flags."""
        return self.flag_mask.bit_count()

    def at(self, x: int, y: int) -> int:
        """Return the code of cell ``(x, y)``: 0-8, ``COVERED`` or ``FLAG``."""
        return self.cells[self.board.index(x, y)]

    @classmethod
    def parse(cls, text: str, mines: int | None = None) -> Position:
        """Return the position written in JSMinesweeper's text format, with the header's mine
        total or, when given, ``mines`` instead.

        Blank lines and surrounding spaces are ignored. Raises ``FormatError`` naming the line
        and column of the first problem, ``ArgumentError`` for a mine total larger than the
        covered cells (as the class does), and ``TypeError`` when ``text`` is not a ``str``
        (bytes: decode them, or give them to :func:`mineproof.formats.load_position`).
        """
        if not isinstance(text, str):
            raise TypeError(
                f"Position.parse takes str, not {type(text).__name__} (for bytes: decode them, "
                "or use mineproof.formats.load_position)"
            )
        lines = [(n, line.rstrip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if not lines:
            raise FormatError(
                "empty input: expected a 'WxHxM' line and the board rows", reason="not-a-position"
            )
        n0, header = lines[0]
        size = parse_header(header, n0)
        if size is None:
            raise FormatError(
                "expected a 'WxHxM' header such as 30x16x99",
                line=n0,
                excerpt=header,
                reason="not-a-position",
            )
        width, height, total = size
        try:
            board = Board(width, height)
        except FormatError as exc:
            raise FormatError(str(exc), line=n0, excerpt=header, reason="size-range") from None
        rows = lines[1:]
        if len(rows) != height:
            raise FormatError(
                f"the header says {counted(height, 'row')} but {len(rows)} follow",
                line=rows[-1][0] if rows else n0,
                reason="row-count",
                details={"expected": height, "found": len(rows)},
            )
        cells: list[int] = []
        for n, line in rows:
            indent = len(line) - len(line.lstrip())
            row = line.lstrip()
            if len(row) != width:
                raise FormatError(
                    f"row {len(cells) // width + 1} has {counted(len(row), 'cell')}, "
                    f"expected {width}",
                    line=n,
                    excerpt=row,
                    reason="row-length",
                    details={"row": len(cells) // width + 1, "expected": width, "found": len(row)},
                )
            for col, char in enumerate(row, indent + 1):
                code = _CHAR_CODE.get(char.upper())
                if code is None:
                    raise FormatError(
                        f"unknown cell {char!r} (expected 0-8, H or F)",
                        line=n,
                        column=col,
                        reason="cell-code",
                        details={"code": char},
                    )
                cells.append(code)
        return cls(board, tuple(cells), total if mines is None else mines)

    def rows(self) -> list[list[int]]:
        """Return the cell codes row by row, top row first.

        >>> Position.parse("2x2x1\\n1H\\nF1").rows()
        [[1, -1], [-2, 1]]
        """
        w = self.board.width
        return [list(self.cells[y * w : (y + 1) * w]) for y in range(self.board.height)]

    def text(self) -> str:
        """Return the position in JSMinesweeper's text format (the inverse of :meth:`parse`)."""
        rows = ["".join(_CODE_CHAR[c] for c in row) for row in self.rows()]
        return f"{self.board.width}x{self.board.height}x{self.mines}\n" + "\n".join(rows)

    def __repr__(self) -> str:
        return f"Position.parse({self.text()!r})"

    def __str__(self) -> str:
        return self.text()

    def _repr_svg_(self) -> str:
        """Return the position drawn as SVG, for notebooks (imported lazily: a higher layer)."""
        from mineproof.render.svg import position_svg

        return position_svg(self)
