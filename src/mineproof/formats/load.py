"""Reading positions and layouts from files or standard input, recognised by their content."""

from __future__ import annotations

import errno
import re
import sys
from pathlib import Path

from mineproof.board import Layout
from mineproof.errors import ArgumentError, FormatError, NotFoundError
from mineproof.formats._text import content_lines, parse_header
from mineproof.formats.json_text import read_json
from mineproof.formats.layout_text import MINE, SAFE, parse_layout_text
from mineproof.formats.mbf import parse_mbf
from mineproof.formats.mstoollib import parse_grid
from mineproof.interrupt import prompt_interrupt
from mineproof.position import Position

__all__ = ["MAX_INPUT_BYTES", "load_layout", "load_position", "read_bytes"]

MAX_INPUT_BYTES = 64 * 2**20
"""The most :func:`read_bytes` reads: 64 MiB, far above any position (a 255x255 one is 65 KB as
text, about 1 MB as an indented ms-toollib grid), layout (MBF: at most 131 KB) or recorded game
(a few MB), and far below what would exhaust memory (``/dev/zero`` never ends)."""

_REASONS = {
    errno.ENOENT: "no such file",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "is a directory",
    errno.ENOTDIR: "a parent is not a directory",
}

_POSITION_FORMATS = (
    "expected JSMinesweeper text (a 'WxHxM' line, then rows of 0-8, H and F) "
    "or an ms-toollib grid (a JSON list of rows of 0-8, 10 and 11)"
)


def read_bytes(path: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """Return the bytes of the file at ``path``, or of standard input when ``path`` is ``-``.

    Raises ``NotFoundError("no such file")`` when there is no file at ``path``,
    ``FormatError(REASON)`` when it cannot be read, a short reason such as ``permission denied``
    or ``is a directory`` (the caller names the file, as the command line names the file of
    every error: ``missing.avf: no such file``), and
    ``FormatError`` when there are more than ``limit`` bytes (64 MiB by default; no more is
    read).
    """
    if path == "-":
        with prompt_interrupt():  # a wait at a terminal: Ctrl+C must end it
            data = sys.stdin.buffer.read(limit + 1)
    else:
        try:
            with Path(path).open("rb") as file:
                data = file.read(limit + 1)
        except OSError as exc:
            reason = _REASONS.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()
            if exc.errno == errno.ENOENT:  # nothing to read, not something read wrong
                raise NotFoundError(reason) from exc
            raise FormatError(reason) from exc
    if len(data) > limit:
        raise FormatError(
            f"the input is larger than {limit:,} bytes, more than any position, layout or "
            "recorded game"
        )
    return data


def decode_text(data: bytes) -> str:
    """Return ``data`` decoded as UTF-8 (a leading byte-order mark is dropped).

    Raises ``FormatError`` naming the offset of the first byte that is not UTF-8, and
    ``TypeError`` when ``data`` is not bytes (for a ``str``: encode it, or parse it with
    ``Position.parse``).
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(
            f"expected bytes, not {type(data).__name__} (for a str: encode it, or use "
            "Position.parse)"
        )
    try:
        return bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(f"the input is not UTF-8 text (bad byte at offset {exc.start})") from exc


def load_position(data: bytes, mines: int | None = None) -> Position:
    """Return the position in ``data``, recognising its format by its content.

    Text starting with ``[`` is an ms-toollib grid, which needs ``mines``. Text whose first
    non-blank line is a ``WxHxM`` header is JSMinesweeper text; a given ``mines`` replaces the
    header's total. Raises ``FormatError`` when the data is not UTF-8, is in neither format, or
    is malformed in its format (see :func:`parse_grid` and ``Position.parse``), and
    ``ArgumentError`` (``name`` ``mines``) for a grid without ``mines`` or a mine total (the
    header's, or ``mines``) larger than the covered cells (with the totals ``allowed``).

    >>> load_position(b"3x1x1\\n1H1", mines=0).mines
    0
    """
    text = decode_text(data)
    if text.lstrip().startswith("["):
        return parse_grid(text, mines)
    lines = content_lines(text)
    if not lines:
        raise FormatError(f"empty input: {_POSITION_FORMATS}", reason="not-a-position")
    n0, first = lines[0]
    if parse_header(first, n0) is None:
        raise FormatError(
            f"unrecognised position: {_POSITION_FORMATS}",
            line=n0,
            excerpt=first.strip()[:40],
            reason="not-a-position",
        )
    return Position.parse(text, mines)


_LAYOUT_FORMATS = (
    "expected layout text (a 'WxHxM' line, then rows of * and .), one board of generate's text "
    "or JSON-lines output, or MBF data"
)

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
"""Control characters no text format holds (tabs, line and page breaks aside); every MBF file
of fewer than 256 mines has one (its mine count's high byte is 0)."""


def _as_text(data: bytes) -> str | None:
    """Return ``data`` as text (UTF-8, a leading byte-order mark dropped), or ``None`` when it is
    not text: not UTF-8, or holding a control character other than whitespace. Raises nothing."""
    try:
        text = decode_text(data)
    except FormatError:
        return None
    return None if _CONTROL.search(text) else text


def _sections(text: str) -> list[tuple[str, bool]]:
    """Return the parts of ``text`` that each start at a ``WxHxM`` line or after a ``#`` comment
    line, as ``(text, is_layout)`` pairs: each part's text keeps its lines where they were
    (the other lines blanked), so that errors name the lines of ``text``; ``is_layout`` says
    whether the part is a header followed by rows of ``*`` and ``.`` only. Comment lines and
    parts without a non-blank line are left out.

    Raises ``FormatError`` for a header number of more than 9 digits.

    >>> [layout for _, layout in _sections("# board 1\\n2x1x1\\n*.\\n# view\\n2x1x1\\n1H")]
    [True, False]
    """
    lines = text.splitlines()
    starts: list[int] = []
    for n, line in enumerate(lines):
        if line.lstrip().startswith("#") or parse_header(line, n + 1) is not None:
            starts.append(n)
    bounds = zip([0, *starts], [*starts, len(lines)], strict=True)
    parts: list[tuple[str, bool]] = []
    for start, end in bounds:
        if lines[start:end] and lines[start].lstrip().startswith("#"):
            start += 1
        part = "\n" * start + "\n".join(lines[start:end])
        rows = content_lines(part)
        if not rows:
            continue
        layout = parse_header(rows[0][1]) is not None and all(
            set(line.strip()) <= {MINE, SAFE} for _, line in rows[1:]
        )
        parts.append((part, layout))
    return parts


def _boards(count: int) -> FormatError:
    """Return the error of an input that holds ``count`` boards (more than one)."""
    return FormatError(
        f"holds {count} boards: give one (generate --count prints them one after another; "
        "--out DIR --format mbf writes each to its own file)"
    )


def _layout_of_text(text: str) -> Layout:
    """Return the one layout in ``text``: layout text, after ``#`` comment lines and before the
    player's view of it (a position, as ``generate --reveal`` prints it).

    Raises ``FormatError`` for empty text, text holding several layouts, and text that is not
    a layout (see :func:`parse_layout_text`; its line and column).
    """
    parts = _sections(text)
    if not parts:
        raise FormatError(f"empty input: {_LAYOUT_FORMATS}")
    layouts = [part for part, layout in parts if layout]
    if not layouts:
        return parse_layout_text(parts[0][0])  # raises, naming the line and column
    if len(layouts) > 1:
        raise _boards(len(layouts))
    for part, layout in parts:
        if not layout:
            try:
                Position.parse(part)
            except (FormatError, ArgumentError):
                parse_layout_text(part)  # raises, naming the line and column
    return parse_layout_text(layouts[0])


def _layout_of_json(text: str) -> Layout:
    """Return the layout of the one JSON object in ``text``, as ``generate --format json``
    prints it (``width``, ``height``, ``mines`` and ``layout``, the list of rows).

    Raises ``FormatError`` for malformed JSON, several objects (several boards), an object
    without these fields and a layout that is malformed.
    """
    lines = content_lines(text)
    if len(lines) > 1:
        raise _boards(len(lines))
    n, line = lines[0]
    board = read_json(line, f"line {n}: not a board of generate", "a JSON object")
    fields = ("width", "height", "mines")
    if not (
        isinstance(board, dict)
        and all(type(board.get(name)) is int for name in fields)
        and isinstance(board.get("layout"), list)
        and all(isinstance(row, str) for row in board["layout"])
    ):
        raise FormatError(
            "not a board of generate: expected a JSON object with width, height and mines "
            "(numbers) and layout (a list of rows of * and .)",
            line=n,
        )
    header = "x".join(str(board[name]) for name in fields)
    try:
        return parse_layout_text("\n".join([header, *board["layout"]]))
    except FormatError as exc:
        raise FormatError(f"the board's layout: {exc}", line=n) from exc


def load_layout(data: bytes) -> Layout:
    """Return the one mine layout in ``data``: text if ``data`` is text, otherwise MBF.

    Text (UTF-8, a leading byte-order mark dropped, no control characters) is layout text
    (``#`` comment lines skipped), one board of ``generate``'s text output (its layout; the
    player's view that ``--reveal`` adds is skipped), or one line of its JSON-lines output.
    Raises ``FormatError`` for empty input, text that holds several boards, text that is not a
    layout (naming the line and column) and malformed MBF.

    >>> load_layout(b"# a comment\\n2x1x1\\n*.").mines, load_layout(bytes([2, 1, 0, 1, 0, 0])).mines
    (1, 1)
    """
    text = _as_text(data)
    if text is None:
        return parse_mbf(data)
    if text.lstrip().startswith("{"):
        return _layout_of_json(text)
    return _layout_of_text(text)
