"""The review of a whole game: every click judged in the position the player saw, and a summary
a player reads, in nine languages.

The clicks of a :class:`~mineproof.review.recorded.RecordedGame` are played again on its layout;
before each click that opens cells (an ``open`` or a ``chord``) the position is judged
(:func:`~mineproof.review.judge.judge`); a flag is checked against the layout. The summary
counts what a player wants to know:

- the clicks, and how many were forced, guesses, mistakes;
- the guesses needed (judged ``guess``: no cell could be proven safe) and taken (guesses and
  mistakes);
- the luck: the exact probability that a perfect logician who took the same needed guesses
  survives them all, the product over those guesses of their chance to hit no mine;
- the mistakes per level of the deduction missed, the level to study first;
- the long thinks: pauses of at least ``long_think`` seconds (3 by default) before a click that
  was forced at level 1, and the time lost in them (each pause beyond the game's median pause
  before a level-1 click);
- the wrong flags (flags placed where the layout has no mine);
- the board's own grade: whether a perfect logician clears it without a guess from the
  player's first click, and the hardest level it needs (:func:`mineproof.logic.grade`);
- ms-toollib's standard statistics, when the game came from a replay file.

The whole review shares one counting budget (:data:`REVIEW_WORK`) on top of each click's own:
past it the clicks left are judged without counting (``forced`` at levels 1-2, else
``unknown``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import median
from typing import Any, Literal
from unicodedata import east_asian_width

from mineproof.analysis import ANALYSIS_WORK, counting_budget
from mineproof.analysis.constraints import Clue, refresh_clues
from mineproof.board import cell_name
from mineproof.errors import MineproofError, TooComplexError
from mineproof.explain import (
    DECIMAL_SEPARATORS,
    after_colon,
    colon,
    decimal_text,
    level_name,
    percent_texts,
    sentences,
    translations,
)
from mineproof.game import Game
from mineproof.logic import Grade, grade
from mineproof.position import Position
from mineproof.review.judge import chord_cells, judge
from mineproof.review.judgement import KINDS, Judgement, Kind
from mineproof.review.recorded import ClickAction, RecordedGame

__all__ = [
    "LONG_THINK",
    "REVIEW_WORK",
    "GameReview",
    "Outcome",
    "ReviewedClick",
    "Summary",
    "mistakes_table",
    "review_game",
    "summary_text",
]

Outcome = Literal["won", "lost", "unfinished"]

REVIEW_CELLS = 100_000_000
"""The most cells a review may hold: each click that opens cells keeps the position it was
judged in (a cell per board cell), so clicks times the board's cells. The 60x36 replay of the
tests needs 1.6 million; a crafted 255x255 game of 57,800 clicks would need 3.8 billion
(some 30 GB). Past it the game is refused, before any work."""

REVIEW_WORK = 400_000_000
"""The counting work a whole review may do (about a minute here, spread over every click); a
real game needs far less (the 60x36 game of 57,000 events about 300,000, most counts being
remembered from the position before)."""

LONG_THINK = 3.0
"""The pause, in seconds, from which the thought before a level-1 click counts as long."""


@dataclass(frozen=True, slots=True)
class ReviewedClick:
    """One click of a reviewed game: its ``number`` (from 1, counting every click), ``time``
    (seconds from the first click, ``None`` when the record has none), ``think`` (for a click
    that opens cells, the seconds since the last click that opened cells, the flags placed in
    between being part of the thought; for a flag, since the click before), ``action``,
    ``cell``, the ``judgement`` of a click that opens cells (``None`` for a flag), and for a
    flag whether it was ``wrong`` (no mine there)."""

    number: int
    time: float | None
    think: float | None
    action: ClickAction
    cell: tuple[int, int]
    judgement: Judgement | None = None
    wrong: bool = False

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """Return the click as JSON data: ``number``, ``time``, ``think``, ``action``,
        ``cell`` and, for a click that opens cells, the judgement's fields (see
        :meth:`~mineproof.review.judgement.Judgement.to_json`: ``judgement``, ``probability``,
        ``level``, ``text``, ``position``...); for a flag ``judgement`` is ``null`` and
        ``wrong`` says whether no mine is there."""
        head: dict[str, Any] = {
            "number": self.number,
            "time": self.time,
            "think": None if self.think is None else round(self.think, 3),
        }
        if self.judgement is not None:
            return {**head, **self.judgement.to_json(lang)}
        return {
            **head,
            "action": self.action,
            "cell": list(self.cell),
            "judgement": None,
            "wrong": self.wrong,
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """What a review sums up (see the module's docstring). ``actions`` counts the clicks that
    changed the board by action (open, chord, flag, unflag: ms-toollib's effective clicks leave
    out a flag and the unflag that undid it), ``clicks`` all of them; ``kinds`` counts the
    judged clicks by kind, ``forced_levels`` and ``mistake_levels`` by level; ``luck`` is
    exact; ``fatal`` is the number of the click that lost, and ``fatal_flag`` its cell when it
    was a flag where no mine is (strict flags); ``time`` that of the last click; ``grade`` is
    ``None`` when the first click is not an opening click on a safe cell."""

    source: str
    width: int
    height: int
    mines: int
    outcome: Outcome
    actions: dict[ClickAction, int]
    judged: int
    kinds: dict[Kind, int]
    forced_levels: dict[int, int]
    mistake_levels: dict[int, int]
    guesses_needed: int
    guesses_taken: int
    luck: Fraction
    fatal: int | None
    wrong_flags: int
    long_thinks: int
    time_lost: float | None
    long_think: float
    time: float | None
    grade: Grade | None
    player: str | None = None
    software: str | None = None
    stats: dict[str, float | int | None] = field(default_factory=dict)
    fatal_flag: tuple[int, int] | None = None

    @property
    def clicks(self) -> int:
        """Return the number of clicks that changed the board."""
        return sum(self.actions.values())

    @property
    def study(self) -> int | None:
        """Return the level with the most mistakes (the lowest among equals), or ``None``."""
        if not self.mistake_levels:
            return None
        return max(sorted(self.mistake_levels), key=lambda lv: self.mistake_levels[lv])

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """Return the summary as JSON data, with its ``text`` in ``lang``."""
        return {
            "source": self.source,
            "player": self.player,
            "software": self.software,
            "board": {"width": self.width, "height": self.height, "mines": self.mines},
            "outcome": self.outcome,
            "time": self.time,
            "click_count": self.clicks,
            "clicks_by_action": {action: self.actions.get(action, 0) for action in ACTIONS},
            "judged": self.judged,
            "kinds": {kind: self.kinds.get(kind, 0) for kind in KINDS},
            "forced_by_level": {str(k): v for k, v in sorted(self.forced_levels.items())},
            "mistakes_by_level": {str(k): v for k, v in sorted(self.mistake_levels.items())},
            "guesses": {"needed": self.guesses_needed, "taken": self.guesses_taken},
            "luck": float(self.luck),
            "fatal_click": self.fatal,
            "fatal_flag": None if self.fatal_flag is None else list(self.fatal_flag),
            "wrong_flag_count": self.wrong_flags,
            "long_thinks": {
                "count": self.long_thinks,
                "time_lost": None if self.time_lost is None else round(self.time_lost, 3),
                "threshold": self.long_think,
            },
            "grade": None if self.grade is None else self.grade.to_json(),
            "stats": dict(self.stats),
            "text": summary_text(self, lang),
        }


@dataclass(frozen=True, slots=True)
class GameReview:
    """A reviewed game: the game, each click reviewed, and the summary."""

    game: RecordedGame
    clicks: tuple[ReviewedClick, ...]
    summary: Summary

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """Return the review as one JSON object: ``summary`` and ``clicks`` (see
        :meth:`Summary.to_json` and :meth:`ReviewedClick.to_json`), texts in ``lang``."""
        return {
            "summary": self.summary.to_json(lang),
            "clicks": [click.to_json(lang) for click in self.clicks],
        }

    def text(self, lang: str = "en", every_click: bool = False) -> str:
        """Return the review for a person: the summary, then the clicks worth a look (guesses,
        mistakes, the click that lost, clicks not judged, wrong flags, long thinks), or with
        ``every_click`` every click, each with its time and number."""
        lines = [summary_text(self.summary, lang)]
        threshold = self.summary.long_think
        for click in self.clicks:
            line = _click_line(click, lang, threshold, every_click)
            if line:
                lines.append(line)
        return "\n".join(lines)


def review_game(
    game: RecordedGame,
    *,
    long_think: float = LONG_THINK,
    work: int = REVIEW_WORK,
    click_work: int = ANALYSIS_WORK,
    exact: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Return the review of ``game``: each click judged in the position before it.

    ``long_think`` is the pause (seconds) from which a level-1 click's thought counts as long;
    ``work`` bounds the counting of the whole review and ``click_work`` that of each click (see
    :data:`REVIEW_WORK`). Clicks that the numbers around them prove at level 1 are judged
    without the exact count unless ``exact`` (see :func:`~mineproof.review.judge.judge`): the
    judgements are the same, only their ``safe_then`` is partial. ``progress``, when given, is
    told ``(clicks reviewed, clicks)`` after each click. Raises ``MineproofError``
    when ``long_think`` is negative, and ``TooComplexError`` when the positions of the game's
    clicks would hold more than :data:`REVIEW_CELLS` cells.
    """
    if not long_think >= 0:
        raise MineproofError(f"the long-think threshold {long_think} s must be 0 or more")
    layout = game.layout
    board = layout.board
    opening = sum(click.action in ("open", "chord") for click in game.clicks)
    if opening * board.size > REVIEW_CELLS:
        size = f"{opening:,} clicks that open cells on a {board.width}x{board.height} board"
        raise TooComplexError(
            f"too big to review: {size} would keep {opening * board.size:,} cells of positions "
            f"(at most {REVIEW_CELLS:,})",
            size=size,
        )
    playing = Game(layout, strict_flags=game.strict_flags)
    reviewed: list[ReviewedClick] = []
    previous: float | None = None  # the time of the click before
    last_open: float | None = None  # the time of the last click that opened cells
    # The clues of the positions, flags as covered cells, kept up to date click by click.
    clues: dict[int, Clue] = {}
    with counting_budget(work):
        for n, click in enumerate(game.clicks, 1):
            opening = click.action in ("open", "chord")
            since = last_open if opening else previous
            think = None if click.time is None or since is None else max(0.0, click.time - since)
            if click.time is not None:
                previous = click.time
                if opening:
                    last_open = click.time
            x, y = click.cell
            i = board.index(x, y)
            position = playing.position()
            if click.action in ("open", "chord"):
                opens = 1 << i if click.action == "open" else chord_cells(position, click.cell)
                judgement = judge(
                    position,
                    click.action,
                    click.cell,
                    opens,
                    layout,
                    work=click_work,
                    exact=exact,
                    clues=clues,
                )
                opened = playing.reveal(x, y) if click.action == "open" else playing.chord(x, y)
                _refresh(playing, clues, opened)
                reviewed.append(
                    ReviewedClick(n, click.time, think, click.action, click.cell, judgement)
                )
            else:
                playing.toggle_flag(x, y)
                wrong = click.action == "flag" and not layout.is_mine(i)
                reviewed.append(
                    ReviewedClick(n, click.time, think, click.action, click.cell, wrong=wrong)
                )
            if progress is not None:
                progress(n, len(game.clicks))
    outcome: Outcome = "unfinished" if playing.state == "playing" else playing.state
    return GameReview(game, tuple(reviewed), _summary(game, reviewed, outcome, long_think))


def _refresh(game: Game, clues: dict[int, Clue], opened: list[int]) -> None:
    """Bring ``clues`` (flags as covered cells) up to date after ``opened`` were opened."""
    if not opened:
        return
    position = game.position()
    plain = Position.unchecked(
        position.board,
        position.cells,
        position.mines,
        position.covered_mask,
        0,
        position.number_mask,
    )
    changed = 0
    for i in opened:
        changed |= 1 << i
    refresh_clues(plain, clues, changed)


def _summary(
    game: RecordedGame, clicks: list[ReviewedClick], outcome: Outcome, long_think: float
) -> Summary:
    """Return the summary of the reviewed ``clicks`` of ``game``."""
    judged = [c for c in clicks if c.judgement is not None]
    kinds: Counter[Kind] = Counter()
    forced: Counter[int] = Counter()
    mistakes: Counter[int] = Counter()
    luck = Fraction(1)
    fatal = None
    for click in judged:
        j = click.judgement
        assert j is not None
        kinds[j.kind] += 1
        if j.kind == "forced" and j.level:
            forced[j.level] += 1
        elif j.kind == "mistake" and j.level:
            mistakes[j.level] += 1
        elif j.kind == "guess" and j.probability is not None:
            luck *= 1 - j.probability
        if j.fatal and fatal is None:
            fatal = click.number
    fatal_flag = None
    if fatal is None and game.strict_flags and outcome == "lost":
        # Lost by a flag on a cell with no mine: the last click.
        fatal = clicks[-1].number
        fatal_flag = clicks[-1].cell
    thinks = [
        c.think
        for c in judged
        if c.think is not None
        and c.judgement is not None
        and c.judgement.kind == "forced"
        and c.judgement.level == 1
    ]
    long_ones = [t for t in thinks if t >= long_think]
    typical = median(thinks) if thinks else 0.0
    timed = any(c.time is not None for c in clicks)
    layout = game.layout
    return Summary(
        source=game.source,
        width=layout.board.width,
        height=layout.board.height,
        mines=layout.mine_count,
        outcome=outcome,
        actions=dict(Counter(c.action for c in clicks)),
        judged=len(judged),
        kinds=dict(kinds),
        forced_levels=dict(sorted(forced.items())),
        mistake_levels=dict(sorted(mistakes.items())),
        guesses_needed=kinds["guess"],
        guesses_taken=kinds["guess"] + kinds["mistake"],
        luck=luck,
        fatal=fatal,
        wrong_flags=sum(1 for c in clicks if c.wrong),
        long_thinks=len(long_ones),
        time_lost=sum(t - typical for t in long_ones) if timed else None,
        long_think=long_think,
        time=next((c.time for c in reversed(clicks) if c.time is not None), None),
        grade=_grade(game, judged),
        fatal_flag=fatal_flag,
        player=game.player,
        software=game.software,
        stats=dict(game.stats),
    )


def _grade(game: RecordedGame, judged: list[ReviewedClick]) -> Grade | None:
    """Return the board's grade from the first click, or ``None`` when that click opened a
    mine (or there is none), or when the grade is too complex to work out (its steps together,
    :class:`~mineproof.logic.steps.GradeTooComplex`, or one of them: the review of the clicks
    stands)."""
    if (
        not judged
        or judged[0].action != "open"
        or game.layout.is_mine(game.layout.board.index(*judged[0].cell))
    ):
        return None
    try:
        return grade(game.layout, judged[0].cell)
    except TooComplexError:
        return None


# --- words ------------------------------------------------------------------------------------


ACTIONS: tuple[ClickAction, ...] = ("open", "chord", "flag", "unflag")
"""The actions of a click, in the order a summary lists them."""


def _per_level(counts: dict[int, int], lang: str) -> str:
    """Return counts per level as a list a person reads: "level 1: 93, level 2: 3" (a number of
    times, which Korean, Japanese and Chinese count with 번, 回, 次, not as steps)."""
    t = translations(lang)
    return t.gettext(", ").join(
        t.pgettext("a number of times", "level {level}: {n}").format(level=lv, n=k)
        for lv, k in sorted(counts.items())
    )


def _chance(p: Fraction, lang: str) -> str:
    """Return a probability as a percentage, or as "1 in N" below 1 %."""
    if p == 0 or p >= Fraction(1, 100):
        return percent_texts(lang, float(p))[0]
    n = round(1 / p)
    return translations(lang).gettext("1 in {n}").format(n=n)


def _seconds(t: float, lang: str) -> str:
    """Return a duration in seconds, to the hundredth, as ``lang`` writes it: "3.28", "3,28"."""
    return decimal_text(f"{t:.2f}", lang)


def summary_text(s: Summary, lang: str = "en") -> str:
    """Return the summary for a person, in ``lang``."""
    t = translations(lang)
    parts: list[str] = []
    if s.outcome == "won":
        head = t.ngettext("Game won, {n} click.", "Game won, {n} clicks.", s.clicks)
    elif s.outcome == "lost":
        head = t.ngettext(
            "Game lost at click {k}, {n} click.", "Game lost at click {k}, {n} clicks.", s.clicks
        )
    else:
        head = t.ngettext(
            "Game not finished, {n} click.", "Game not finished, {n} clicks.", s.clicks
        )
    parts.append(head.format(n=s.clicks, k=s.fatal))
    if len(s.actions) > 1:
        # Say what the clicks were, which ms-toollib's counts (Cl, Ce) tell otherwise.
        words = {
            "open": t.pgettext("clicks of one action", "open {n}"),
            "chord": t.pgettext("clicks of one action", "chord {n}"),
            "flag": t.pgettext("clicks of one action", "flag {n}"),
            "unflag": t.pgettext("clicks of one action", "flag taken off {n}"),
        }
        kinds = t.gettext(", ").join(
            words[action].format(n=s.actions[action]) for action in ACTIONS if action in s.actions
        )
        parts.append(t.gettext("Clicks by action: {actions}.").format(actions=kinds))
    if s.fatal_flag is not None:
        parts.append(
            t.gettext("The flag on {cell} lost the game: there is no mine there.").format(
                cell=cell_name(*s.fatal_flag)
            )
        )
    if s.time is not None:
        parts.append(t.gettext("Time: {time} s.").format(time=_seconds(s.time, lang)))
    forced = s.kinds.get("forced", 0)
    if forced:
        per = _per_level(s.forced_levels, lang)
        parts.append(
            t.ngettext(
                "Forced moves: {n} ({levels}).", "Forced moves: {n} ({levels}).", forced
            ).format(n=forced, levels=per)
        )
    parts.append(
        t.gettext("Guesses: {needed} needed, {taken} taken.").format(
            needed=s.guesses_needed, taken=s.guesses_taken
        )
    )
    if s.guesses_needed:
        parts.append(
            t.gettext(
                "Luck: a perfect logician who took the same needed guesses survives them with "
                "a probability of {p}."
            ).format(p=_chance(s.luck, lang))
        )
    mistakes = s.kinds.get("mistake", 0)
    if mistakes:
        per = _per_level(s.mistake_levels, lang)
        parts.append(
            t.ngettext(
                "Mistakes (a guess while a safe cell could be proven): {n}, by the level of "
                "the deduction missed: {levels}.",
                "Mistakes (guesses while a safe cell could be proven): {n}, by the level of "
                "the deduction missed: {levels}.",
                mistakes,
            ).format(n=mistakes, levels=per)
        )
        study = s.study
        assert study is not None
        parts.append(
            t.gettext("To study first: level {level} ({name}).").format(
                level=study, name=level_name(study, lang)
            )
        )
    elif s.fatal_flag is not None:  # the flag was the mistake: no other, then
        parts.append(t.gettext("No guess was taken while a safe cell could be proven."))
    else:
        parts.append(t.gettext("No mistake: no guess was taken while a safe cell could be proven."))
    unknown = s.kinds.get("unknown", 0)
    if unknown:
        parts.append(
            t.ngettext(
                "{n} click was not judged: its position was too complex to count exactly.",
                "{n} clicks were not judged: their positions were too complex to count exactly.",
                unknown,
            ).format(n=unknown)
        )
    if s.time_lost is not None and not s.long_thinks:
        parts.append(
            t.gettext("No long think before a move of level 1 (at least {threshold} s).").format(
                threshold=decimal_text(f"{s.long_think:g}", lang)
            )
        )
    elif s.time_lost is not None:
        parts.append(
            t.ngettext(
                "Long thinks before a move of level 1 (at least {threshold} s): {n}, "
                "{lost} s lost.",
                "Long thinks before a move of level 1 (at least {threshold} s): {n}, "
                "{lost} s lost.",
                s.long_thinks,
            ).format(
                n=s.long_thinks,
                threshold=decimal_text(f"{s.long_think:g}", lang),
                lost=_seconds(s.time_lost, lang),
            )
        )
    if s.wrong_flags:
        parts.append(
            t.ngettext(
                "{n} flag was placed where there is no mine.",
                "{n} flags were placed where there is no mine.",
                s.wrong_flags,
            ).format(n=s.wrong_flags)
        )
    if s.grade is not None:
        if s.grade.solved and s.grade.level:
            parts.append(
                t.gettext(
                    "The board: from the first click, a perfect logician clears it without a "
                    "guess; its hardest step is level {level} ({name})."
                ).format(level=s.grade.level, name=level_name(s.grade.level, lang))
            )
        elif s.grade.solved:
            parts.append(
                t.gettext("The board: the first click opens it all, no deduction is needed.")
            )
        else:
            parts.append(
                t.gettext(
                    "The board: from the first click, a perfect logician cannot clear it "
                    "without a guess."
                )
            )
    text = sentences(parts)
    stats = _stats_line(s.stats, lang)
    if stats:
        text += "\n" + t.gettext("ms-toollib's statistics: {stats}").format(stats=stats)
    return text


_STAT_NAMES = (
    ("bbbv", "3BV", "{}"),
    ("bbbv_s", "3BV/s", "{:.3f}"),
    ("zini", "ZiNi", "{}"),
    ("ioe", "IOE", "{:.3f}"),
    ("thrp", "Thrp", "{:.3f}"),
    ("corr", "Corr", "{:.3f}"),
    ("stnb", "STNB", "{:.1f}"),
    ("cl", "Cl", "{}"),
    ("ce", "Ce", "{}"),
    ("path", "Path", "{:.0f}"),
)
"""ms-toollib's statistics as players name them (the community's abbreviations); its time is
the game's, given before."""


def _stats_line(stats: dict[str, float | int | None], lang: str) -> str:
    """Return ms-toollib's statistics as a list, numbers as ``lang`` writes them (a language with
    a decimal comma separates the items with semicolons)."""
    out = []
    for key, name, shown in _STAT_NAMES:
        value = stats.get(key)
        if value is not None and value != 0:
            out.append(f"{name} {decimal_text(shown.format(value), lang)}")
    return (", " if DECIMAL_SEPARATORS[lang] == "." else "; ").join(out)


def _click_line(click: ReviewedClick, lang: str, threshold: float, every_click: bool) -> str:
    """Return the line of a click in the text of a review, or "" when it is not worth a look
    (unless ``every_click``)."""
    t = translations(lang)
    j = click.judgement
    texts = []
    if j is not None:
        notable = j.kind in ("guess", "mistake", "unknown") or j.fatal
        if (
            click.think is not None
            and click.think >= threshold
            and j.kind == "forced"
            and j.level == 1
        ):
            notable = True
            texts.append(
                t.gettext("A long think ({think} s) before a move of level 1.").format(
                    think=_seconds(click.think, lang)
                )
            )
        if not notable and not every_click:
            return ""
        texts.append(j.text(lang))
    elif click.wrong:
        texts.append(
            t.gettext("A flag on {cell}, where there is no mine.").format(
                cell=cell_name(*click.cell)
            )
        )
    elif every_click:
        name = cell_name(*click.cell)
        texts.append(
            t.gettext("A flag on {cell}.").format(cell=name)
            if click.action == "flag"
            else t.gettext("The flag on {cell} removed.").format(cell=name)
        )
    else:
        return ""
    when = ""
    if click.time is not None:
        when = t.gettext("{time} s").format(time=_seconds(click.time, lang)) + " "
    return after_colon(f"{when}#{click.number}{colon(lang)}", sentences(texts), lang)


def mistakes_table(rows: Iterable[tuple[str, Summary]], lang: str = "en") -> str:
    """Return a table of the mistakes per level across games, one row per game (its name, the
    outcome, the guesses needed and taken, the mistakes at each level 1-5) and a row of totals,
    in ``lang``."""
    t = translations(lang)
    outcome = {
        "won": t.gettext("won"),
        "lost": t.gettext("lost"),
        "unfinished": t.gettext("not finished"),
    }
    head = [
        t.gettext("game"),
        t.gettext("result"),
        t.gettext("guesses needed"),
        t.gettext("guesses taken"),
        *(t.gettext("mistakes L{level}").format(level=lv) for lv in range(1, 6)),
    ]
    body = []
    totals = [0] * 7
    for name, s in rows:
        numbers = [
            s.guesses_needed,
            s.guesses_taken,
            *(s.mistake_levels.get(lv, 0) for lv in range(1, 6)),
        ]
        totals = [a + b for a, b in zip(totals, numbers, strict=True)]
        body.append([name, outcome[s.outcome], *map(str, numbers)])
    body.append([t.gettext("all games"), "", *map(str, totals)])
    widths = [max(_shown_width(row[k]) for row in [head, *body]) for k in range(len(head))]
    lines = []
    for row in [head, *body]:
        pads = [w - _shown_width(value) for value, w in zip(row, widths, strict=True)]
        cells = [row[0] + " " * pads[0], row[1] + " " * pads[1]]
        cells += [" " * pad + value for value, pad in zip(row[2:], pads[2:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _shown_width(text: str) -> int:
    """Return the columns ``text`` takes on a terminal: two for a wide (CJK) character.

    >>> _shown_width("game"), _shown_width("ゲーム")
    (4, 6)
    """
    return sum(2 if east_asian_width(c) in "WF" else 1 for c in text)
