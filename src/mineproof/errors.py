"""The exceptions of mineproof: each carries what went wrong as data, not only as a message.

One taxonomy for the library, the command line and the web API:

- :class:`FormatError`: malformed input (a file or text that is not a position, a layout, a
  recorded game), with the line and column;
- :class:`ArgumentError`: an argument or field outside what the command or request allows, and
  :class:`UsageError` for a command line that is wrong in itself (a bad option value, options
  that do not go together), whatever the files it names;
- :class:`IllegalMoveError`: a move the rules forbid (outside the board, on an opened cell), and
  :class:`GameOverError` for any move after the end;
- :class:`NotFoundError`: no such game (also a ``LookupError``);
- :class:`TooComplexError`: a work budget was spent before an answer (its ``size`` says how big
  the problem was);
- :class:`InconsistentPositionError`: a well-formed position that no arrangement of mines
  satisfies, naming the conflicting numbers.

All are :class:`MineproofError`, a ``ValueError``, so ``except ValueError`` catches every bad
input. :data:`STATUS` maps each to the exit status of the command line and the HTTP status of
the web API, in one place; each class's ``kind`` names it in the web API's error answers, so
that a client can say what went wrong in its own words and language.

Each pickles as itself, with its message and data, so an error raised in a worker process (the
web app's pool, ``--jobs``, a Dask cluster) reaches the caller as it was raised.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Literal

__all__ = [
    "FORMAT_REASONS",
    "STATUS",
    "ArgumentError",
    "FormatError",
    "FormatReason",
    "GameNotStartedError",
    "GameOverError",
    "IllegalMoveError",
    "InconsistentPositionError",
    "MineproofError",
    "NotFoundError",
    "TooComplexError",
    "UsageError",
    "check_rng",
    "check_work",
    "exit_status",
    "http_status",
]

_Data = dict[str, Any]
"""An error's attributes, by name."""


class MineproofError(ValueError):
    """Base class of every error mineproof raises on bad input."""

    kind: ClassVar[str] = "invalid"
    """The error's name in the web API's answers (``{"error", "kind", ...}``)."""

    def __reduce__(self) -> tuple[Any, tuple[type[MineproofError], tuple[Any, ...], _Data]]:
        """Return how pickle rebuilds the error: its class, message and data, without calling
        its constructor (whose arguments are the error's data, not its message)."""
        return (_restored, (type(self), self.args, dict(vars(self))))

    def to_json(self) -> _Data:
        """Return the error as JSON data, one shape for the command line's ``--json`` and the
        web API: ``error`` (the message), ``kind`` and the data of its class, each key present
        (``None`` where unknown).

        >>> data = ArgumentError("--jobs 0 is outside 1..8", name="--jobs").to_json()
        >>> data["kind"], data["name"], data["allowed"]
        ('argument', '--jobs', None)
        """
        return {"error": str(self), "kind": self.kind}


def _restored(cls: type[MineproofError], args: tuple[Any, ...], data: _Data) -> MineproofError:
    """Return an error of class ``cls`` with message ``args`` and attributes ``data``."""
    error = cls.__new__(cls)
    error.args = args
    for name, value in data.items():
        setattr(error, name, value)
    return error


FormatReason = Literal[
    "not-a-position",
    "size-range",
    "row-count",
    "row-length",
    "cell-code",
    "grid-shape",
    "grid-row-length",
    "grid-value",
    "json",
]
"""The names of :data:`FORMAT_REASONS`."""

FORMAT_REASONS: Mapping[FormatReason, tuple[str, ...]] = MappingProxyType(
    {
        "not-a-position": (),
        "size-range": (),
        "row-count": ("expected", "found"),
        "row-length": ("row", "expected", "found"),
        "cell-code": ("code",),
        "grid-shape": (),
        "grid-row-length": ("row", "expected", "found"),
        "grid-value": ("row", "column", "value"),
        "json": (),
    }
)
"""What can be wrong in a pasted position, by name (a :class:`FormatError`'s ``reason``), with
the names of the ``details`` each carries, so that a client can say it in its own language
(the web page has a string for each):

- ``not-a-position``: the first line is no ``WxHxM`` header, nor the text an ms-toollib grid;
- ``size-range``: a side of the board (the header's, or a grid's) outside 1..255, or a
  number of the header negative or of more than 9 digits;
- ``row-count``: the header's height ``expected``, but ``found`` rows follow;
- ``row-length``: row ``row`` (1-based) holds ``found`` cells, the header's width ``expected``;
- ``cell-code``: ``code``, a character, is no cell of the text (``0``-``8``, ``H``, ``F``);
- ``grid-shape``: an ms-toollib grid that is no list of rows of numbers, or is empty;
- ``grid-row-length``: row ``row`` of a grid holds ``found`` cells, its row 1 ``expected``;
- ``grid-value``: the value at row ``row``, column ``column`` (1-based) of a grid, ``value``
  (its JSON text), is no cell value;
- ``json``: the text starts as a grid but is no valid JSON.
"""


class FormatError(MineproofError):
    """Input that is not a well-formed position or layout.

    ``line`` and ``column`` are 1-based places in the input text (``None`` when the error is not
    tied to one place); ``excerpt`` quotes the offending input. ``reason`` names what is wrong
    when it is one of :data:`FORMAT_REASONS` (``None`` for the others: a recorded game's, a
    layout's, a file's), and ``details`` gives the values that reason carries.
    """

    kind = "format"

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        excerpt: str | None = None,
        reason: FormatReason | None = None,
        details: Mapping[str, int | str] | None = None,
    ) -> None:
        details = dict(details or {})
        if reason is not None and set(details) != set(FORMAT_REASONS.get(reason, ("?",))):
            # A caller's mistake, not the input's: every reason a page words is listed.
            raise TypeError(f"format reason {reason!r} with details {sorted(details)}")
        self.line = line
        self.column = column
        self.excerpt = excerpt
        self.reason = reason
        self.details = details
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        quoted = f" (in {excerpt!r})" if excerpt is not None else ""
        super().__init__(f"{where}{message}{quoted}")

    def to_json(self) -> _Data:
        """Return the error as JSON data (see :meth:`MineproofError.to_json`) with ``line``,
        ``column``, ``reason`` and ``details`` (an object, empty when there are none)."""
        place = {"line": self.line, "column": self.column}
        return {**super().to_json(), **place, "reason": self.reason, "details": self.details}


class ArgumentError(MineproofError):
    """An argument (a command-line option, a request field) outside what is allowed.

    ``name`` is the argument's name when one is concerned (``--jobs``, ``mines``), ``allowed``
    the inclusive range of values it may take when it is a number out of range.
    """

    kind = "argument"

    def __init__(
        self, message: str, *, name: str | None = None, allowed: tuple[int, int] | None = None
    ) -> None:
        self.name = name
        self.allowed = allowed
        super().__init__(message)

    def to_json(self) -> _Data:
        """Return the error as JSON data (see :meth:`MineproofError.to_json`) with the
        argument's ``name`` and the range ``allowed``, ``[low, high]``."""
        allowed = None if self.allowed is None else list(self.allowed)
        return {**super().to_json(), "name": self.name, "allowed": allowed}


def check_work(work: int) -> int:
    """Return ``work``, a budget of work units, when it is a whole number, 0 or more. Raises
    :class:`ArgumentError` naming it otherwise: a negative budget would be spent before any
    work. (A compiled caller converts its argument first: a float is mypyc's ``TypeError``
    there, and ``True`` is 1.)

    >>> check_work(-5)
    Traceback (most recent call last):
    ...
    mineproof.errors.ArgumentError: work -5: expected a whole number of work units, 0 or more
    """
    if type(work) is not int or work < 0:
        raise ArgumentError(
            f"work {work!r}: expected a whole number of work units, 0 or more", name="work"
        )
    return work


def check_rng(rng: object) -> None:
    """Raise ``TypeError`` unless ``rng`` is a ``random.Random`` (``None`` given by mistake
    drew nothing, or failed deep inside). Returns nothing.

    >>> check_rng(None)
    Traceback (most recent call last):
    ...
    TypeError: rng must be a random.Random, not NoneType
    """
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")


class UsageError(ArgumentError):
    """A command line that is wrong in itself: an option value outside what the option takes,
    options that do not go together, a needed option missing. It is found before any file is
    read, and exits 2 as the argument parser's own errors do."""

    kind = "usage"


class InconsistentPositionError(MineproofError):
    """A well-formed position that no arrangement of mines satisfies.

    ``clues`` holds the ``(x, y)`` cells of the clues in conflict; ``minimal`` says whether
    they are a minimal set (removing any one of them makes the rest satisfiable: false only
    where the search for it reached its bound); ``uses_mine_total`` says whether the mine
    total is part of the conflict.
    """

    kind = "inconsistent"

    def __init__(
        self,
        message: str,
        *,
        clues: tuple[tuple[int, int], ...],
        uses_mine_total: bool,
        minimal: bool = True,
    ) -> None:
        self.clues = clues
        self.uses_mine_total = uses_mine_total
        self.minimal = minimal
        super().__init__(message)

    def to_json(self) -> _Data:
        """Return the error as JSON data (see :meth:`MineproofError.to_json`) with ``clues``
        (``[x, y]`` cells), ``uses_mine_total`` and ``minimal``."""
        clues = [list(cell) for cell in self.clues]
        data = {"clues": clues, "uses_mine_total": self.uses_mine_total, "minimal": self.minimal}
        return {**super().to_json(), **data}


class IllegalMoveError(MineproofError):
    """A move the rules do not allow (outside the board, on an opened cell).

    ``cell`` is the ``(x, y)`` cell of the move when one is concerned.
    """

    kind = "illegal-move"

    def __init__(self, message: str, *, cell: tuple[int, int] | None = None) -> None:
        self.cell = cell
        super().__init__(message)

    def to_json(self) -> _Data:
        """Return the error as JSON data (see :meth:`MineproofError.to_json`) with the move's
        ``cell``, ``[x, y]``."""
        return {**super().to_json(), "cell": None if self.cell is None else list(self.cell)}


class GameOverError(IllegalMoveError):
    """A move (or a hint, or probabilities) asked for after the game ended."""

    kind = "game-over"


class GameNotStartedError(IllegalMoveError):
    """A hint or probabilities asked for before a game's first click: its board is drawn at
    that click, which always opens an area, so there is nothing to weigh yet."""

    kind = "not-started"


class NotFoundError(MineproofError, LookupError):
    """Nothing has this name or id (a game that was never stored, say)."""

    kind = "not-found"


class TooComplexError(MineproofError):
    """A work budget ran out before an answer.

    ``size`` says how big the problem was, in the problem's own terms (for example "a group of
    312 numbers over 590 covered cells"); it is also in the message.
    """

    kind = "too-complex"

    def __init__(self, message: str, *, size: str = "") -> None:
        self.size = size
        super().__init__(message)

    def to_json(self) -> _Data:
        """Return the error as JSON data (see :meth:`MineproofError.to_json`) with ``size``
        (``None`` when it is not known)."""
        return {**super().to_json(), "size": self.size or None}


STATUS: tuple[tuple[type[MineproofError], int, int], ...] = (
    (InconsistentPositionError, 1, 422),
    (TooComplexError, 1, 422),
    (NotFoundError, 1, 404),
    (GameOverError, 1, 409),
    (GameNotStartedError, 1, 409),
    (IllegalMoveError, 1, 400),
    (UsageError, 2, 400),
    (ArgumentError, 1, 400),
    (FormatError, 1, 400),
    (MineproofError, 1, 400),
)
"""Each error's exit status on the command line and HTTP status in the web API, the most
specific first. (The argument parser's own errors are usage errors too, and exit with 2.)"""


def _entry(exc: MineproofError) -> tuple[type[MineproofError], int, int]:
    return next(entry for entry in STATUS if isinstance(exc, entry[0]))


def exit_status(exc: MineproofError) -> int:
    """Return the command line's exit status for ``exc``."""
    return _entry(exc)[1]


def http_status(exc: MineproofError) -> int:
    """Return the web API's HTTP status for ``exc``."""
    return _entry(exc)[2]
