"""English for the messages that are not translated (errors, the command line's summaries).

One rule for a count and its noun, so that no message says "1 mines" or "1 steps". Translated
text uses gettext's ``ngettext`` instead, with each language's plural forms.
"""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, noun: str, plural: str = "") -> str:
    """Return ``n`` (with thousands separated) and ``noun``, singular for 1 and plural otherwise.

    ``plural`` is the plural when it is not ``noun`` + "s".

    >>> counted(1, "mine"), counted(0, "covered cell"), counted(2_000, "process", "processes")
    ('1 mine', '0 covered cells', '2,000 processes')
    """
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
