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
from mineproof.analysis.sample import (
    count_arrangements,
    sample_arrangement,
    sample_with_a_mine_among,
)

__all__ = [
    "ANALYSIS_WORK",
    "Analysis",
    "CountTooLarge",
    "FlagStatus",
    "analyze",
    "arrangements_free",
    "clear_cache",
    "count_arrangements",
    "counting_budget",
    "decimal",
    "forced_by",
    "sample_arrangement",
    "sample_with_a_mine_among",
]
