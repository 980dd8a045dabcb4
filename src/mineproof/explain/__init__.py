"""Deductions in words, in nine languages, through gettext catalogs under ``locales/``."""

from mineproof.explain.hint import Advice, Hint, hint, step_texts
from mineproof.explain.text import (
    DECIMAL_SEPARATORS,
    LANGUAGES,
    PERCENT_SIGNS,
    article,
    best_guess_text,
    cells_text,
    decimal_text,
    explain,
    flagged_first,
    grade_text,
    guess_text,
    level_label,
    level_name,
    percent_texts,
    sentences,
    translations,
)

__all__ = [
    "DECIMAL_SEPARATORS",
    "LANGUAGES",
    "PERCENT_SIGNS",
    "Advice",
    "Hint",
    "article",
    "best_guess_text",
    "cells_text",
    "decimal_text",
    "explain",
    "flagged_first",
    "grade_text",
    "guess_text",
    "hint",
    "level_label",
    "level_name",
    "percent_texts",
    "sentences",
    "step_texts",
    "translations",
]
