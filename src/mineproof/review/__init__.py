"""Reviews of played games: every click judged in the position the player saw, and explained.

:func:`judge_open` and :func:`judge_chord` judge one click against what the player could know
then and against the true layout (a :class:`Judgement`: ``start``, ``forced`` with its level,
``guess`` with its exact odds, ``mistake`` with the deduction missed, or ``unknown`` past the
work budget; ``fatal`` when it hit a mine); :func:`lowest_level` defines the level of technique
that proves a cell, :func:`judgement_text` puts a judgement in words.
"""

from mineproof.review.judge import (
    chord_cells,
    judge,
    judge_chord,
    judge_open,
    lowest_level,
    wrong_flags,
)
from mineproof.review.judgement import KINDS, Action, Judgement, Kind, judgement_text

__all__ = [
    "KINDS",
    "Action",
    "Judgement",
    "Kind",
    "chord_cells",
    "judge",
    "judge_chord",
    "judge_open",
    "judgement_text",
    "lowest_level",
    "wrong_flags",
]
