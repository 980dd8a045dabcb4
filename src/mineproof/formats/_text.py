"""Helpers shared by the text formats: the ``WxHxM`` header and the non-blank lines."""

from __future__ import annotations

from mineproof.position import HEADER_RE, parse_header

__all__ = ["HEADER_RE", "content_lines", "parse_header"]


def content_lines(text: str) -> list[tuple[int, str]]:
    """Return the non-blank lines of ``text`` as ``(1-based line number, line)`` pairs.

    The lines keep their surrounding spaces, so columns can be counted in the original text.

    >>> content_lines("\\n3x1x1\\n  *..\\n")
    [(2, '3x1x1'), (3, '  *..')]
    """
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
