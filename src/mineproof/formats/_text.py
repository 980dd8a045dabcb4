"""Helpers shared by the text formats: the ``WxHxM`` header and the non-blank lines."""

from __future__ import annotations

import re

from mineproof.errors import FormatError

__all__ = ["HEADER_RE", "content_lines", "parse_header"]

HEADER_RE = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*")
"""A ``WxHxM`` header line (ASCII digits; spaces around the parts are allowed)."""


def content_lines(text: str) -> list[tuple[int, str]]:
    """Return the non-blank lines of ``text`` as ``(1-based line number, line)`` pairs.

    The lines keep their surrounding spaces, so columns can be counted in the original text.

    >>> content_lines("\\n3x1x1\\n  *..\\n")
    [(2, '3x1x1'), (3, '  *..')]
    """
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]


_MAX_DIGITS = 9
"""Digits a header number may have (leading zeros aside): far more than any board (sides up to
255, at most 65,025 mines), far fewer than Python's 4,300-digit limit on reading an int."""


def parse_header(line: str, number: int | None = None) -> tuple[int, int, int] | None:
    """Return ``(width, height, mines)`` from a ``WxHxM`` line, or ``None`` if it is not one.

    Raises ``FormatError`` (at line ``number`` of the input, when given) when a number of the
    header has more than 9 digits: no board is that large (the caller checks the real bounds).

    >>> parse_header(" 30x16X99 "), parse_header("30x16"), parse_header("0030x016x099")
    ((30, 16, 99), None, (30, 16, 99))
    """
    match = HEADER_RE.fullmatch(line)
    if match is None:
        return None
    for name, digits in zip(("width", "height", "mine total"), match.groups(), strict=True):
        if len(digits.lstrip("0")) > _MAX_DIGITS:
            raise FormatError(
                f"the header's {name} has {len(digits.lstrip('0')):,} digits: no board is that "
                "large (sides 1..255)",
                line=number,
                excerpt=line.strip()[:40] + ("..." if len(line.strip()) > 40 else ""),
            )
    width, height, mines = (int(g) for g in match.groups())
    return width, height, mines
