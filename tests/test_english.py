"""The one rule for an English count and its noun."""

from __future__ import annotations

import pytest

from mineproof.english import counted


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
