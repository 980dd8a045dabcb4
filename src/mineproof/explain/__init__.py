"""Deductions in words, in nine languages, through gettext catalogs under ``locales/``."""

from mineproof.explain.hint import Advice, Hint, hint
from mineproof.explain.text import (
    LANGUAGES,
    best_guess_text,
    explain,
    flagged_first,
    grade_text,
    guess_text,
    level_label,
    level_name,
    translations,
)

__all__ = [
    "LANGUAGES",
    "Advice",
    "Hint",
    "best_guess_text",
    "explain",
    "flagged_first",
    "grade_text",
    "guess_text",
    "hint",
    "level_label",
    "level_name",
    "translations",
]
