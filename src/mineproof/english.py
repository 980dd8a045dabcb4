"""English for the messages that are not translated (errors, the command line's summaries).

One rule for a count and its noun, so that no message says "1 mines" or "1 steps". Translated
text uses gettext's ``ngettext`` instead, with each language's plural forms.
"""

from __future__ import annotations

__all__ = ["counted", "readable"]


def counted(n: int, noun: str, plural: str = "") -> str:
    """Return ``n`` (with thousands separated) and ``noun``, singular for 1 and plural otherwise.

    ``plural`` is the plural when it is not ``noun`` + "s".

    >>> counted(1, "mine"), counted(0, "covered cell"), counted(2_000, "process", "processes")
    ('1 mine', '0 covered cells', '2,000 processes')
    """
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


_EXACT_DIGITS = 15
"""The most digits :func:`readable` shows exactly."""


def readable(n: int) -> str:
    """Return the count ``n`` for people: exact, with thousands separated, up to 15 digits;
    else rounded to two figures as ``about M x 10^E`` (an exact count of arrangements can have
    thousands of digits, and ``str`` refuses an int of over 4,300). Raises nothing.

    >>> readable(1_234), readable(10**20), readable(12 * 10**5176 + 345)
    ('1,234', 'about 1.0 x 10^20', 'about 1.2 x 10^5177')
    """
    if n < 0:
        return "-" + readable(-n)
    if n < 10**_EXACT_DIGITS:
        return f"{n:,}"
    exponent = int(n.bit_length() * 0.30103)  # the digits less one, or one more than that
    while 10**exponent > n:
        exponent -= 1
    tenths = round(n * 10 / 10**exponent)  # int / int is exact, whatever the size
    if tenths == 100:
        exponent, tenths = exponent + 1, 10
    return f"about {tenths // 10}.{tenths % 10} x 10^{exponent}"
