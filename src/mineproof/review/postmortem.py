"""The post-mortem of a lost game: what lost it, and what could have been known then.

The click that lost is judged as a review judges every click
(:func:`~mineproof.review.judge.judge`: a needed guess with its odds, or a mistake, a guess
while a safe cell could be proven, with the deduction missed), in the position the player saw
just before it. Beside it: each cell that was safe in every arrangement at that moment (what a
perfect logician would have opened instead), and each flag on a cell with no mine. A game lost
by a flag (under ``strict_flags``) has no click to judge: the flag's own chance to be a mine is
given, from the same exact analysis.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mineproof.analysis import ANALYSIS_WORK, analyze
from mineproof.board import cell_name
from mineproof.errors import ArgumentError, TooComplexError
from mineproof.explain import percent_texts, sentences, translations
from mineproof.game import Game
from mineproof.position import Position
from mineproof.review.judge import chord_cells, judge
from mineproof.review.judgement import Action, Judgement
from mineproof.review.recorded import Click, RecordedGame

__all__ = ["PostMortem", "post_mortem"]


@dataclass(frozen=True, slots=True)
class PostMortem:
    """What lost a game.

    ``click`` is the click that lost (its ``action`` ``open``, ``chord`` or ``flag``) and
    ``position`` what the player saw just before it. ``judgement`` is that click's judgement
    (``None`` for a flag). ``probability`` is the chance that the click met a mine over every
    arrangement that fits the position (for a flag: that its cell held one), ``None`` when the
    position was too complex to count. ``guess`` says whether the click was a guess (it opened
    a cell not proven safe, or flagged a cell not proven a mine). ``safe_then`` is the bitmask
    of the covered cells safe in every arrangement then (flags not trusted), ``forced`` whether
    there was one (a forced move existed), ``wrong_flags`` that of the flags on cells with no
    mine when the game ended, and ``counted`` whether the position was counted exactly (if not,
    ``safe_then`` holds only what levels 1 and 2 prove).
    """

    click: Click
    position: Position
    judgement: Judgement | None
    probability: Fraction | None
    guess: bool | None
    safe_then: int
    wrong_flags: int
    counted: bool

    @property
    def forced(self) -> bool:
        """Return whether a safe cell could be proven when the game was lost."""
        return bool(self.safe_then)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """Return the post-mortem as JSON data, cells as ``[x, y]``: ``wrong_flags``,
        ``safe_then``, ``fatal`` (``action``, ``cell``, ``probability`` as a float and
        ``probability_exact`` as a fraction, ``guess``, ``judgement`` (the kind, ``None`` for a
        flag), ``level`` (of a mistake: the lowest level proving a safe cell),
        ``forced_move_existed``, ``counted``) and ``text``, in ``lang``."""
        board = self.position.board
        j = self.judgement
        p = self.probability
        return {
            "wrong_flags": [list(c) for c in board.mask_to_xy(self.wrong_flags)],
            "safe_then": [list(c) for c in board.mask_to_xy(self.safe_then)],
            "fatal": {
                "action": self.click.action,
                "cell": list(self.click.cell),
                "probability": None if p is None else float(p),
                "probability_exact": None if p is None else str(p),
                "guess": self.guess,
                "judgement": None if j is None else j.kind,
                "level": None if j is None else j.level,
                "forced_move_existed": self.forced,
                "counted": self.counted,
            },
            "text": self.text(lang),
        }

    def text(self, lang: str = "en") -> str:
        """Return the post-mortem in words, in ``lang``: the judgement of the click that lost
        (or what the fatal flag was), the cells that could be proven safe, the wrong flags."""
        t = translations(lang)
        parts: list[str] = []
        if self.judgement is not None:
            parts.append(self.judgement.text(lang))
        else:
            name = cell_name(*self.click.cell)
            parts.append(
                t.gettext("The flag on {cell} lost the game: there is no mine there.").format(
                    cell=name
                )
            )
            if self.probability is not None:
                parts.append(
                    t.gettext("Its mine probability was {p}.").format(
                        p=percent_texts(lang, float(self.probability))[0]
                    )
                )
        n = self.safe_then.bit_count()
        if n:
            parts.append(
                t.ngettext(
                    "At that moment {n} covered cell could be proven safe (ticked on the board).",
                    "At that moment {n} covered cells could be proven safe (ticked on the board).",
                    n,
                ).format(n=n)
            )
        else:
            parts.append(t.gettext("At that moment no covered cell could be proven safe."))
        wrong = self.wrong_flags.bit_count()
        if wrong:
            parts.append(
                t.ngettext(
                    "{n} flag was placed where there is no mine.",
                    "{n} flags were placed where there is no mine.",
                    wrong,
                ).format(n=wrong)
            )
        return sentences(parts)


def post_mortem(game: RecordedGame, *, work: int = ANALYSIS_WORK) -> PostMortem | None:
    """Return the post-mortem of ``game``, or ``None`` when it was not lost.

    The clicks are played on the game's layout (with its ``strict_flags``) to the one that lost;
    that click is judged exactly, within ``work`` units of counting (see
    :func:`~mineproof.review.judge.judge`). Raises ``ArgumentError`` when the clicks end the
    game in no loss.
    """
    layout = game.layout
    playing = Game(layout, strict_flags=game.strict_flags)
    for click in game.clicks:
        position = playing.position()
        x, y = click.cell
        targets = 0
        if click.action == "open":
            targets = 1 << layout.board.index(x, y)
            playing.reveal(x, y)
        elif click.action == "chord":
            targets = chord_cells(position, click.cell)
            playing.chord(x, y)
        else:
            playing.toggle_flag(x, y)
        if playing.state == "lost":
            break
    else:
        return None
    wrong = playing.flag_mask & ~layout.mines
    if targets:
        action: Action = "open" if click.action == "open" else "chord"
        j = judge(position, action, click.cell, targets, layout, work=work)
        guess = None if j.kind == "unknown" else j.kind in ("guess", "mistake")
        return PostMortem(click, position, j, j.probability, guess, j.safe_then, wrong, j.counted)
    if playing.fatal_flag is None:  # pragma: no cover - a flag that lost is a fatal flag
        raise ArgumentError("the game was lost by a flag that is not wrong")
    i = playing.fatal_flag
    try:
        analysis = analyze(position, work=work)
    except TooComplexError:
        return PostMortem(click, position, None, None, None, 0, wrong, False)
    probability = Fraction(analysis.mine_counts[i], analysis.arrangements)
    guess = not analysis.mine_mask >> i & 1
    return PostMortem(click, position, None, probability, guess, analysis.safe_mask, wrong, True)
