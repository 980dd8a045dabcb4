"""A judgement of one click: what it was (forced, a guess, a mistake...), with its numbers, as JSON
and in words in nine languages (the gettext catalogs of :mod:`mineproof.explain`).

Cells are named as the board shows them (``C4``), probabilities as short percentages that never
round a possibility away, with decimals where the click's and the lowest would otherwise read
the same (:func:`mineproof.explain.percent_texts`). A mistake's text ends with the
deduction the player missed, each step with its level, as a hint shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from mineproof.board import cell_name
from mineproof.explain import (
    after_colon,
    article,
    cells_text,
    level_label,
    level_name,
    percent_texts,
    review_best_guess_text,
    sentences,
    step_texts,
    translations,
)
from mineproof.logic import Deduction
from mineproof.play import BestGuess
from mineproof.position import Position

__all__ = ["KINDS", "Action", "Judgement", "Kind", "judgement_text"]

Kind = Literal["start", "forced", "guess", "mistake", "unknown"]
Action = Literal["open", "chord"]
KINDS: tuple[Kind, ...] = ("start", "forced", "guess", "mistake", "unknown")
"""Every judgement, in the order a summary lists them."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The judgement of one click in the position the player saw just before it.

    ``action`` is ``open`` or ``chord``, ``cell`` the ``(x, y)`` cell clicked and ``opens`` the
    bitmask of the covered cells the click opens (for a chord, the number's covered unflagged
    neighbours). ``kind`` is one of :data:`KINDS` (see the module's docstring), ``fatal``
    whether it opened a mine.

    ``level`` is, for ``forced``, the lowest level of technique (1-5) that proves every cell it
    opens safe, and for ``mistake`` the lowest level at which some cell could be proven safe
    (:func:`lowest_level`); otherwise ``None``. ``probability`` is the exact chance that the
    click hits a mine over every arrangement of the mines that fits the numbers and the mine
    total (0 when forced; for a chord, one minus the share of arrangements where every cell it
    opens is free), ``lowest`` the lowest mine probability of any covered unflagged cell then;
    both ``None`` for ``start`` and ``unknown``. ``best`` is, for a ``guess``, the guess the
    ``best`` strategy makes there (``None`` when weighing its candidates passed its budget) and
    ``best_probability`` its cell's mine probability; ``best_why``, for a pick of the look one
    move ahead, what decided it and the ``(x, y)`` cell that survives better, if any (see
    :func:`mineproof.play.lookahead_why`; ``survival`` only among the nearly safest cells).
    ``missed`` holds, for a ``mistake``, the deductions that lead to a safe cell, in order, as
    a hint gives them. ``safe_then`` is the bitmask of the covered cells that were safe in every
    arrangement, ``wrong_flags`` that of the flags on cells the layout has no mine on.
    ``counted`` is ``False`` when the position was too complex to count exactly: ``safe_then``
    then holds only what levels 1 and 2 prove.
    """

    position: Position
    action: Action
    cell: tuple[int, int]
    opens: int
    kind: Kind
    fatal: bool
    level: int | None = None
    probability: Fraction | None = None
    lowest: Fraction | None = None
    best: BestGuess | None = None
    best_probability: Fraction | None = None
    best_why: tuple[str, tuple[int, int] | None] | None = None
    missed: tuple[Deduction, ...] = ()
    safe_then: int = 0
    wrong_flags: int = 0
    counted: bool = True

    @property
    def safest(self) -> bool | None:
        """Return whether the click was among the safest choices (its chance to hit a mine no
        higher than the safest cell's), for a guess or a mistake; ``None`` otherwise."""
        if self.kind not in ("guess", "mistake") or self.probability is None:
            return None
        return self.lowest is not None and self.probability <= self.lowest

    @property
    def is_best(self) -> bool | None:
        """Return whether the click opened just the ``best`` strategy's pick, for a guess whose
        best pick is known; ``None`` otherwise."""
        if self.kind != "guess" or self.best is None:
            return None
        return self.opens == 1 << self.best.cell

    @property
    def opens_cells(self) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells the click opens."""
        return self.position.board.mask_to_xy(self.opens)

    @property
    def safe_then_cells(self) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells that were safe in every arrangement."""
        return self.position.board.mask_to_xy(self.safe_then)

    @property
    def wrong_flag_cells(self) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells flagged with no mine under them."""
        return self.position.board.mask_to_xy(self.wrong_flags)

    def text(self, lang: str = "en") -> str:
        """Return the judgement in words, in ``lang`` (see :func:`judgement_text`)."""
        return judgement_text(self, lang)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """Return the judgement as JSON data, cells as ``[x, y]``: ``action``, ``cell``,
        ``opens``, ``judgement`` (the kind), ``fatal``, ``level``, ``probability`` and
        ``lowest`` (floats, with ``probability_exact`` and ``lowest_exact`` as fractions such as
        ``"1/6"``), ``safest``, ``best`` (``cell``, ``reason``, ``win``, ``probability``) and
        ``is_best``,
        ``missed`` (each deduction's fields, as a hint's ``steps``, with its ``text``),
        ``safe_then``, ``wrong_flags``, ``counted``, ``position`` (what the player saw, in
        JSMinesweeper's text with the player's flags) and ``text`` in ``lang``."""
        board = self.position.board
        texts = step_texts(self.missed, lang) if self.missed else ()
        return {
            "action": self.action,
            "cell": list(self.cell),
            "opens": [list(c) for c in self.opens_cells],
            "judgement": self.kind,
            "fatal": self.fatal,
            "level": self.level,
            "probability": _float(self.probability),
            "probability_exact": _exact(self.probability),
            "lowest": _float(self.lowest),
            "lowest_exact": _exact(self.lowest),
            "is_safest": self.safest,
            "best": None
            if self.best is None
            else {
                "cell": list(board.xy(self.best.cell)),
                "reason": self.best.reason,
                "win": self.best.win,
                "probability": _float(self.best_probability),
            },
            "is_best": self.is_best,
            "missed": [
                {**d.to_json(), "text": text} for d, text in zip(self.missed, texts, strict=True)
            ],
            "safe_then": [list(c) for c in self.safe_then_cells],
            "wrong_flags": [list(c) for c in self.wrong_flag_cells],
            "counted": self.counted,
            "position": self.position.text(),
            "text": self.text(lang),
        }


def _float(p: Fraction | None) -> float | None:
    return None if p is None else float(p)


def _exact(p: Fraction | None) -> str | None:
    return None if p is None else str(p)


def judgement_text(j: Judgement, lang: str = "en") -> str:
    """Return the judgement ``j`` in words, in ``lang`` (one of
    :data:`mineproof.explain.LANGUAGES`): what the click was, at what odds or level, what the
    safest and the best choices were, and for a mistake the deduction missed. Raises
    ``MineproofError`` for an unknown language."""
    t = translations(lang)
    board = j.position.board
    name = cell_name(*j.cell)
    n = j.opens.bit_count()
    cells = cells_text(board, j.opens, lang, limit=True)
    p, lowest, best = _percents(j, lang)
    chord = j.action == "chord"
    parts: list[str] = []
    if j.kind == "start":
        parts.append(t.gettext("The first click, at {cell}.").format(cell=name))
    elif j.kind == "forced":
        assert j.level is not None
        if chord:
            text = t.ngettext(
                "A chord at {cell}: {cells} was safe in every arrangement of the mines, a "
                "forced move at level {level} ({name}).",
                "A chord at {cell}: {cells} were safe in every arrangement of the mines, a "
                "forced move at level {level} ({name}).",
                n,
            )
        else:
            text = t.gettext(
                "{cell} was safe in every arrangement of the mines: a forced move at level "
                "{level} ({name})."
            )
        parts.append(
            text.format(cell=name, cells=cells, level=j.level, name=level_name(j.level, lang))
        )
    elif j.kind == "guess":
        if chord:
            text = t.ngettext(
                "A chord at {cell} that opened {cells}, with {a} {p} chance to hit a mine: no "
                "covered cell could be proven safe, so a guess was needed.",
                "A chord at {cell} that opened {cells}, with {a} {p} chance to hit a mine: no "
                "covered cell could be proven safe, so a guess was needed.",
                n,
            )
        elif j.probability == 1:
            # Not a guess at all: the numbers proved this cell a mine.
            text = t.gettext(
                "{cell} was a mine in every arrangement of the mines: no covered cell could be "
                "proven safe, so a guess was needed, but not on a cell proven to be a mine."
            )
        else:
            text = t.gettext(
                "A guess at {cell}, with a mine probability of {p}: no covered cell could be "
                "proven safe, so a guess was needed."
            )
        parts.append(text.format(cell=name, cells=cells, p=p, a=article(p)))
        parts += _odds(j, lowest, best, lang)
    elif j.kind == "mistake":
        assert j.level is not None
        if chord:
            text = t.ngettext(
                "A mistake at {cell}: the chord opened {cells} with {a} {p} chance to hit a "
                "mine, though a safe cell could be proven at level {level} ({name}).",
                "A mistake at {cell}: the chord opened {cells} with {a} {p} chance to hit a "
                "mine, though a safe cell could be proven at level {level} ({name}).",
                n,
            )
        elif j.probability == 1:
            text = t.gettext(
                "A mistake at {cell}: it was a mine in every arrangement of the mines, and a "
                "safe cell could be proven at level {level} ({name})."
            )
        else:
            text = t.gettext(
                "A mistake at {cell}: a guess with a mine probability of {p}, though a safe "
                "cell could be proven at level {level} ({name})."
            )
        parts.append(
            text.format(
                cell=name,
                cells=cells,
                p=p,
                a=article(p),
                level=j.level,
                name=level_name(j.level, lang),
            )
        )
        if j.missed:
            missed = [
                after_colon(level_label(d.level, lang), step, lang)
                for d, step in zip(j.missed, step_texts(j.missed, lang), strict=True)
            ]
            missed[0] = after_colon(t.gettext("The deduction missed:"), missed[0], lang)
            parts += missed
    else:
        parts.append(
            t.gettext(
                "{cell}: the position was too complex to count exactly within the work "
                "budget, so this click is not judged."
            ).format(cell=name)
        )
    if chord:
        near = board.neighbour_masks()[board.index(*j.cell)]
        wrong = j.wrong_flags & near
        if wrong:
            parts.append(
                t.ngettext(
                    "The chord relied on a wrong flag at {cells}.",
                    "The chord relied on wrong flags at {cells}.",
                    wrong.bit_count(),
                ).format(cells=cells_text(board, wrong, lang))
            )
    if j.fatal:
        parts.append(t.gettext("It hit a mine, and the game was lost."))
    return sentences(parts)


def _percents(j: Judgement, lang: str) -> tuple[str, str, str]:
    """Return the click's mine probability, the lowest one then and the best guess's, as one
    text in ``lang`` shows them (different figures for different probabilities), "" where
    unknown."""
    known = [p for p in (j.probability, j.lowest, j.best_probability) if p is not None]
    shown = dict(zip(known, percent_texts(lang, *map(float, known)), strict=True))
    click, lowest, best = (
        "" if p is None else shown[p] for p in (j.probability, j.lowest, j.best_probability)
    )
    return click, lowest, best


def _odds(j: Judgement, lowest: str, best_p: str, lang: str) -> list[str]:
    """Return what the safest and the best choices were, beside a guess (``lowest`` and
    ``best_p``: the lowest mine probability and the best guess's, as the text shows them). A
    best guess riskier than the safest cells comes with its reason, as a hint words it."""
    t = translations(lang)
    out = []
    if j.safest:
        out.append(t.gettext("It was one of the safest choices."))
    elif j.lowest is not None:
        out.append(t.gettext("The safest cells had a mine probability of {p}.").format(p=lowest))
    if j.best is not None:
        riskier = (
            j.best_probability is not None
            and j.lowest is not None
            and j.best_probability > j.lowest
        )
        cell = j.position.board.xy(j.best.cell)
        if j.is_best and not riskier:
            out.append(t.gettext("It was the best guess."))
        else:
            # Past tense, as the rest of the review: the best guess and why, also when the
            # click was that guess but riskier than the safest cells.
            win = None if j.best.win is None else percent_texts(lang, j.best.win)[0]
            out.append(
                review_best_guess_text(
                    cell, j.best.reason, best_p, win, lang, clicked=bool(j.is_best), why=j.best_why
                )
            )
    return out
