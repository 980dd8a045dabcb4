"""Helpers shared by the text formats: the ``WxHxM`` header and the non-blank lines."""

from __future__ import annotations

import re

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


def parse_header(line: str) -> tuple[int, int, int] | None:
    """Return ``(width, height, mines)`` from a ``WxHxM`` line, or ``None`` if it is not one.

    >>> parse_header(" 30x16X99 "), parse_header("30x16")
    ((30, 16, 99), None)
    """
    match = HEADER_RE.fullmatch(line)
    if match is None:
        return None
    width, height, mines = (int(g) for g in match.groups())
    return width, height, mines
