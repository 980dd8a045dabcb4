"""Reading JSON that a person gave (a file, a request body), with errors in plain English.

Python's :mod:`json` says what its parser expected in its own terms (``Extra data``, ``Expecting
value``); :func:`describe_json_error` turns that into a short phrase, and :func:`read_json`, the
one reader of such input, raises :class:`~mineproof.errors.FormatError` with it and with the
line and column.
"""

from __future__ import annotations

import json
from typing import Any

from mineproof.errors import FormatError, FormatReason

__all__ = ["describe_json_error", "read_json"]

_DESCRIPTIONS = (
    ("Extra data", "unexpected text after the end of the JSON value"),
    ("Expecting value", "expected a JSON value (a number, string, list or object)"),
    ("Expecting ',' delimiter", "expected a comma between items"),
    ("Expecting ':' delimiter", "expected a colon after a key"),
    ("Expecting property name enclosed in double quotes", "expected a key in double quotes"),
    ("Unterminated string starting at", "a string is not closed"),
    ("Invalid control character", "a control character (such as a newline) inside a string"),
    ("Invalid \\escape", "an invalid backslash escape in a string"),
    ("Invalid \\uXXXX escape", "an invalid \\u escape in a string (expected 4 hex digits)"),
    ("Illegal trailing comma", "a comma after the last item"),  # Python 3.13 and later
    ("Unexpected UTF-8 BOM", "a byte-order mark (U+FEFF) before the JSON value"),
)
"""The start of each message of :mod:`json` (the C parser's and the pure-Python one's, which
adds the offending character to some) and what it means in plain English."""

_WHITESPACE = " \t\n\r"
"""The characters JSON counts as whitespace."""


def describe_json_error(error: json.JSONDecodeError) -> str:
    """Return what ``error`` means in plain English, as one line without its place (the line and
    column are ``error.lineno`` and ``error.colno``); a message this function does not know is
    returned as it is. Raises nothing.

    >>> try:
    ...     json.loads("[1 2]")
    ... except json.JSONDecodeError as error:
    ...     describe_json_error(error)
    'expected a comma between items'
    """
    return next((plain for start, plain in _DESCRIPTIONS if error.msg.startswith(start)), error.msg)


def read_json(
    text: str | bytes, context: str, expected: str, reason: FormatReason | None = None
) -> Any:
    """Return the value of the JSON text ``text`` (bytes in UTF-8, UTF-16 or UTF-32).

    Raises ``FormatError("{context}: {problem}")``: for malformed JSON, the problem as
    :func:`describe_json_error` words it, with the line and column (1-based); for a text that
    is empty or only whitespace, ``empty input: expected {expected}``; for bytes that are not
    text, the first bad byte; for a number of thousands of digits (Python reads no int of over
    4,300) and lists or objects nested too deeply (Python's recursion limit), a phrase that
    says so. Each error carries ``reason``, when given (see
    :data:`~mineproof.errors.FORMAT_REASONS`).

    >>> read_json('{"mines": 10}', "not a game", "a JSON object")
    {'mines': 10}
    >>> read_json(" \\n", "not a game", "a JSON object")
    Traceback (most recent call last):
    ...
    mineproof.errors.FormatError: not a game: empty input: expected a JSON object
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if not exc.doc.strip(_WHITESPACE):
            raise FormatError(
                f"{context}: empty input: expected {expected}", reason=reason
            ) from None
        raise FormatError(
            f"{context}: {describe_json_error(exc)}",
            line=exc.lineno,
            column=exc.colno,
            reason=reason,
        ) from None
    except UnicodeDecodeError as exc:
        raise FormatError(
            f"{context}: not {exc.encoding.upper()} text (bad byte at offset {exc.start})",
            reason=reason,
        ) from None
    except ValueError:  # the only other: an int of over 4,300 digits
        raise FormatError(f"{context}: a number has thousands of digits", reason=reason) from None
    except RecursionError:
        raise FormatError(f"{context}: lists or objects nested too deeply", reason=reason) from None
