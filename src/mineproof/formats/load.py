"""Reading positions and layouts from files or standard input, recognised by their content."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

from mineproof.board import Layout
from mineproof.errors import FormatError
from mineproof.formats._text import content_lines, parse_header
from mineproof.formats.layout_text import MINE, SAFE, parse_layout_text
from mineproof.formats.mbf import parse_mbf
from mineproof.formats.mstoollib import parse_grid
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

    Raises ``FormatError("cannot read PATH: REASON")`` when the file cannot be read, with a short
    reason such as ``no such file``, ``permission denied`` or ``is a directory``, and
    ``FormatError`` when there are more than ``limit`` bytes (64 MiB by default; no more is
    read).
    """
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        try:
            with Path(path).open("rb") as file:
                data = file.read(limit + 1)
        except OSError as exc:
            reason = _REASONS.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()
            raise FormatError(f"cannot read {path}: {reason}") from exc
    if len(data) > limit:
        raise FormatError(
            f"the input is larger than {limit:,} bytes, more than any position, layout or "
            "recorded game"
        )
    return data


def decode_text(data: bytes) -> str:
    """Return ``data`` decoded as UTF-8 (a leading byte-order mark is dropped).

    Raises ``FormatError`` naming the offset of the first byte that is not UTF-8.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(f"the input is not UTF-8 text (bad byte at offset {exc.start})") from exc


def load_position(data: bytes, mines: int | None = None) -> Position:
    """Return the position in ``data``, recognising its format by its content.

    Text starting with ``[`` is an ms-toollib grid, which needs ``mines``. Text whose first
    non-blank line is a ``WxHxM`` header is JSMinesweeper text; a given ``mines`` replaces the
    header's total. Raises ``FormatError`` when the data is not UTF-8, is in neither format, or
    is malformed in its format (see :func:`parse_grid` and ``Position.parse``), and
    ``ArgumentError`` for a mine total (the header's, or ``mines``) larger than the covered
    cells.

    >>> load_position(b"3x1x1\\n1H1", mines=0).mines
    0
    """
    text = decode_text(data)
    if text.lstrip().startswith("["):
        return parse_grid(text, mines)
    lines = content_lines(text)
    if not lines:
        raise FormatError(f"empty input: {_POSITION_FORMATS}")
    n0, first = lines[0]
    if parse_header(first, n0) is None:
        raise FormatError(
            f"unrecognised position: {_POSITION_FORMATS}", line=n0, excerpt=first.strip()[:40]
        )
    return Position.parse(text, mines)


def _looks_like_layout_text(text: str) -> bool:
    """Return whether the first non-blank line is a header and the rest are ``*``/``.`` rows."""
    lines = content_lines(text)
    if not lines or parse_header(lines[0][1], lines[0][0]) is None:
        return False
    return all(set(line.strip()) <= {MINE, SAFE} for _, line in lines[1:])


def load_layout(data: bytes) -> Layout:
    """Return the mine layout in ``data``: layout text if it reads as such, otherwise MBF.

    Data counts as layout text when it is ASCII, its first non-blank line is a ``WxHxM`` header
    and the other lines are rows of ``*`` and ``.``. Raises ``FormatError`` when the data is
    malformed MBF; ASCII data with a ``WxHxM`` header that is not MBF either reports its first
    layout-text problem (line and column).

    >>> load_layout(b"2x1x1\\n*.").mines, load_layout(bytes([2, 1, 0, 1, 0, 0])).mines
    (1, 1)
    """
    if not data.isascii():
        return parse_mbf(data)
    text = data.decode("ascii")
    if _looks_like_layout_text(text):
        return parse_layout_text(text)
    lines = content_lines(text)
    if lines and parse_header(lines[0][1], lines[0][0]) is not None:
        try:
            return parse_mbf(data)
        except FormatError:
            return parse_layout_text(text)  # raises, naming the line and column
    return parse_mbf(data)
