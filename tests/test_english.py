"""The rules for English counts: a count and its noun, and a count of any size for people."""

from __future__ import annotations

import math
import sys

import pytest

from mineproof.english import counted, readable


@pytest.mark.parametrize(
    ("n", "noun", "plural", "text"),
    [
        (1, "mine", "", "1 mine"),
        (0, "mine", "", "0 mines"),
        (2, "covered cell", "", "2 covered cells"),
        (1, "guess", "guesses", "1 guess"),
        (3, "guess", "guesses", "3 guesses"),
        (12_345, "board", "", "12,345 boards"),
    ],
)
def test_one_is_singular_and_every_other_count_plural(
    n: int, noun: str, plural: str, text: str
) -> None:
    assert counted(n, noun, plural) == text


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0"),
        (54, "54"),
        (10**15 - 1, "999,999,999,999,999"),
        (10**15, "about 1.0 x 10^15"),
        (8 * 10**15, "about 8.0 x 10^15"),
        (996 * 10**20, "about 1.0 x 10^23"),
        (-(10**16), "-about 1.0 x 10^16"),
    ],
)
def test_readable_is_exact_when_short_and_rounded_when_long(n: int, text: str) -> None:
    assert readable(n) == text


def test_readable_counts_of_thousands_of_digits() -> None:
    # str() refuses ints of over 4,300 digits; readable() rounds them to two figures.
    n = math.comb(22_500, 5_000)
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        digits = str(n)
    finally:
        sys.set_int_max_str_digits(limit)
    mantissa = round(int(digits[:3]) / 10)
    assert readable(n) == f"about {mantissa // 10}.{mantissa % 10} x 10^{len(digits) - 1}"
