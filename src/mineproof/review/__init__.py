"""Reviews of played games: every click judged in the position the player saw, and explained.

:func:`judge_open` and :func:`judge_chord` judge one click against what the player could know
then and against the true layout (a :class:`Judgement`: ``start``, ``forced`` with its level,
``guess`` with its exact odds, ``mistake`` with the deduction missed, or ``unknown`` past the
work budget; ``fatal`` when it hit a mine); :func:`lowest_level` defines the level of technique
that proves a cell, :func:`judgement_text` puts a judgement in words.

:func:`read_replay` reads the replay files of other clients (through ms-toollib, the extra
``mineproof[replays]``), :func:`read_record` mineproof's own recorded games and
:func:`read_game` moves given by a caller, each a :class:`RecordedGame`; :func:`review_game`
judges every click of one and sums it up (:class:`GameReview`, :class:`Summary`), and
:func:`mistakes_table` lays the mistakes of several games side by side; :func:`post_mortem`
says what lost a lost game (its last click judged, the cells provable safe then, the wrong
flags);
:func:`review_gif` and :func:`review_svg` animate a reviewed game with its clicks marked.
"""

from mineproof.review.animate import review_gif, review_svg
from mineproof.review.game import (
    LONG_THINK,
    REVIEW_WORK,
    GameReview,
    Outcome,
    ReviewedClick,
    Summary,
    mistakes_table,
    review_game,
    summary_text,
)
from mineproof.review.judge import (
    chord_cells,
    judge,
    judge_chord,
    judge_open,
    lowest_level,
    wrong_flags,
)
from mineproof.review.judgement import KINDS, Action, Judgement, Kind, judgement_text
from mineproof.review.postmortem import PostMortem, post_mortem
from mineproof.review.recorded import (
    MAX_REPLAY_BYTES,
    REPLAY_KINDS,
    Click,
    ClickAction,
    RecordedGame,
    read_file,
    read_game,
    read_record,
    read_replay,
)

__all__ = [
    "KINDS",
    "LONG_THINK",
    "MAX_REPLAY_BYTES",
    "REPLAY_KINDS",
    "REVIEW_WORK",
    "Action",
    "Click",
    "ClickAction",
    "GameReview",
    "Judgement",
    "Kind",
    "Outcome",
    "PostMortem",
    "RecordedGame",
    "ReviewedClick",
    "Summary",
    "chord_cells",
    "judge",
    "judge_chord",
    "judge_open",
    "judgement_text",
    "lowest_level",
    "mistakes_table",
    "post_mortem",
    "read_file",
    "read_game",
    "read_record",
    "read_replay",
    "review_game",
    "review_gif",
    "review_svg",
    "summary_text",
    "wrong_flags",
]
