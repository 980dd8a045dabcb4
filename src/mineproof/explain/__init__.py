"""Deductions in words, in nine languages, through gettext catalogs under ``locales/``."""

from mineproof.explain.hint import Hint, hint
from mineproof.explain.text import (
    LANGUAGES,
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
    "Hint",
    "explain",
    "flagged_first",
    "grade_text",
    "guess_text",
    "hint",
    "level_label",
    "level_name",
    "translations",
]
