"""Exact analysis of positions: probabilities, forced cells, arrangement counts, conflicts."""

from mineproof.analysis.core import (
    ANALYSIS_WORK,
    Analysis,
    FlagStatus,
    analyze,
    arrangements_free,
    clear_cache,
    decimal,
    forced_by,
)
from mineproof.analysis.counting import CountTooLarge, counting_budget

__all__ = [
    "ANALYSIS_WORK",
    "Analysis",
    "CountTooLarge",
    "FlagStatus",
    "analyze",
    "arrangements_free",
    "clear_cache",
    "counting_budget",
    "decimal",
    "forced_by",
]
