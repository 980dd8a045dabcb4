"""Exact analysis of positions: probabilities, forced cells, arrangement counts, conflicts."""

from mineproof.analysis.core import (
    ANALYSIS_WORK,
    Analysis,
    FlagStatus,
    analyze,
    clear_cache,
    decimal,
    forced_by,
)

__all__ = [
    "ANALYSIS_WORK",
    "Analysis",
    "FlagStatus",
    "analyze",
    "clear_cache",
    "decimal",
    "forced_by",
]
