"""The exceptions of mineproof: each carries what went wrong as data, not only as a message.

Malformed input (a file that cannot be read as a position or layout) raises :class:`FormatError`;
a well-formed position that no mine arrangement satisfies raises
:class:`InconsistentPositionError`; a move that the rules forbid raises :class:`IllegalMoveError`.
All are :class:`ValueError` subclasses, so ``except ValueError`` catches every bad input.
"""

from __future__ import annotations

__all__ = [
    "FormatError",
    "IllegalMoveError",
    "InconsistentPositionError",
    "MineproofError",
]


class MineproofError(ValueError):
    """Base class of every error mineproof raises on bad input."""


class FormatError(MineproofError):
    """Input that is not a well-formed position or layout.

    ``line`` and ``column`` are 1-based places in the input text (``None`` when the error is not
    tied to one place); ``excerpt`` quotes the offending input.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        excerpt: str | None = None,
    ) -> None:
        self.line = line
        self.column = column
        self.excerpt = excerpt
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        quoted = f" (in {excerpt!r})" if excerpt is not None else ""
        super().__init__(f"{where}{message}{quoted}")


class InconsistentPositionError(MineproofError):
    """A well-formed position that no arrangement of mines satisfies.

    ``clues`` holds the ``(x, y)`` cells of the clues in conflict (a small set: removing any one
    of them makes the rest satisfiable); ``uses_mine_total`` says whether the mine total is part
    of the conflict.
    """

    def __init__(
        self, message: str, *, clues: tuple[tuple[int, int], ...], uses_mine_total: bool
    ) -> None:
        self.clues = clues
        self.uses_mine_total = uses_mine_total
        super().__init__(message)


class IllegalMoveError(MineproofError):
    """A move the rules do not allow (outside the board, on an opened cell, after the end).

    ``cell`` is the ``(x, y)`` cell of the move when one is concerned.
    """

    def __init__(self, message: str, *, cell: tuple[int, int] | None = None) -> None:
        self.cell = cell
        super().__init__(message)
