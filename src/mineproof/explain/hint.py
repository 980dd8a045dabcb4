"""The next hint for a position: the simplest forced move explained, or the safest guess.

This is what the ``hint`` command prints and what the web app's hint button shows: the
deduction at the lowest level of technique with the fewest premises, its text in the chosen
language, or, when nothing is forced, the covered cells of lowest mine probability. In play
(``open``), a hint that proves only mines carries on until a cell to open is proven.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mineproof.analysis import Analysis, CountTooLarge, analyze
from mineproof.errors import TooComplexError
from mineproof.explain.text import (
    _sentences,
    after_colon,
    best_guess_text,
    explain,
    flagged_first,
    guess_text,
    level_label,
    percent_texts,
    wrong_flags_text,
)
from mineproof.logic import (
    HINT_WORK,
    Deduction,
    best_deduction,
    hint_steps,
    known_view,
    simple_deduction,
)
from mineproof.play import GuessReason, best_guess, lookahead_why
from mineproof.position import COVERED, FLAG, Position

__all__ = ["Advice", "Hint", "hint", "step_texts"]

Cells = list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Advice:
    """The guess the ``best`` strategy would make (see :func:`mineproof.play.best_guess`): the
    cell, its mine probability, why, for the end game the chance to win, and the text; for a
    pick of the look one move ahead, ``why`` is what decided it and the cell that survives
    better (see :func:`mineproof.play.lookahead_why`; ``survival`` only among the nearly
    safest cells)."""

    cell: tuple[int, int]
    probability: float
    reason: GuessReason
    win: float | None
    text: str
    why: tuple[str, tuple[int, int] | None] | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the advice as JSON data (the cell as ``[x, y]``)."""
        return {
            "cell": list(self.cell),
            "probability": self.probability,
            "reason": self.reason,
            "win": self.win,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """The next move for a player, with its reason.

    ``steps`` are the forced deductions in order (one, or in play several: the last proves a
    safe cell) with their ``texts`` in ``lang``; empty when a guess is needed: then ``safest``
    holds the covered cells (flagged or not) of lowest mine probability ``probability`` and
    ``analysis`` the exact analysis they come from, ``best`` the guess the ``best`` strategy
    would make (``None`` when weighing the candidates passed its budget), and ``text`` says so.
    In play, when the steps prove only mines and no cell can be proven safe, the guess comes
    after them: ``safest``, ``probability`` and ``best`` are those of the position with every
    proven mine flagged, and ``guess_text`` says so.
    """

    steps: tuple[Deduction, ...]
    texts: tuple[str, ...]
    analysis: Analysis | None
    safest: Cells
    probability: float | None
    text: str
    lang: str
    best: Advice | None = None
    guess_text: str = ""

    @property
    def deduction(self) -> Deduction | None:
        """Return the first forced deduction, or ``None`` for a guess."""
        return self.steps[0] if self.steps else None

    @property
    def level(self) -> int:
        """Return the level of technique (1-5) of the first step, or 0 for a guess."""
        return self.steps[0].level if self.steps else 0

    @property
    def headline(self) -> str:
        """Return the text for a person: each step's level label, then its explanation."""
        if not self.steps:
            return self.text
        lines = [
            after_colon(level_label(d.level, self.lang), text, self.lang)
            for d, text in zip(self.steps, self.texts, strict=True)
        ]
        return "\n".join([*lines, self.guess_text] if self.guess_text else lines)

    def to_json(self) -> dict[str, Any]:
        """Return the hint as JSON data: the first step's fields (``level``, ``rule``,
        ``premises``, ``uses_mine_total``, ``safe``, ``mine``, ``minimal``, ``fewest``,
        ``proof``, see :meth:`~mineproof.logic.Deduction.to_json`) and ``text``, then ``steps``:
        every step with the same fields, in order; for a guess, ``level`` 0 with ``safest`` and
        ``probability``, and ``best``: the ``best`` strategy's guess (``cell``, its mine
        ``probability``, ``reason``, ``win`` where an exact search weighed it, ``text``), or
        ``null``; for steps
        followed by a guess, ``safest``, ``probability``, ``best`` and ``guess_text`` too."""
        steps = [
            {**d.to_json(), "text": text} for d, text in zip(self.steps, self.texts, strict=True)
        ]
        guess = {
            "safest": [list(c) for c in self.safest],
            "probability": self.probability,
            "best": None if self.best is None else self.best.to_json(),
        }
        if steps:
            after = {**guess, "guess_text": self.guess_text} if self.guess_text else {}
            return {**steps[0], "steps": steps, **after}
        return {
            "level": 0,
            "rule": "guess",
            "premises": [],
            "uses_mine_total": False,
            "safe": [],
            "mine": [],
            "minimal": True,
            "fewest": True,
            "proof": None,
            "text": self.text,
            "steps": [],
            **guess,
        }


def _step_text(d: Deduction, first: Deduction, lang: str, flags: int) -> str:
    """Return a step's explanation; a later step of a play hint first names the mines of the
    steps before it that its numbers rely on, which the player has not flagged. A step that
    proves safe cells among the player's ``flags`` ends by saying those flags are wrong."""
    text = explain(d, lang)
    wrong = d.safe & flags
    if wrong:
        text = _sentences([text, wrong_flags_text(d.board, wrong, lang)])
    if d is first:
        return text
    earlier = d.position.flag_mask & ~first.position.flag_mask
    if not d.uses_mine_total:
        masks = d.board.neighbour_masks()
        near = 0
        for cell in d.premises:
            near |= masks[cell]
        earlier &= near
    if not earlier:
        return text
    return after_colon(flagged_first(d.board, earlier, lang), text, lang)


def step_texts(
    steps: tuple[Deduction, ...] | list[Deduction], lang: str = "en", flags: int = 0
) -> tuple[str, ...]:
    """Return the explanation of each step of a play hint (see :func:`hint` with ``open``), in
    ``lang``: a step after the first starts by naming the mines of earlier steps that its
    numbers rely on; a step that proves safe some of the cells the player flagged (``flags``, a
    mask) ends by saying to take those flags off. Raises ``MineproofError`` for an unknown
    language."""
    return tuple(_step_text(d, steps[0], lang, flags) for d in steps)


def hint(
    position: Position,
    lang: str = "en",
    *,
    trust_flags: bool = False,
    open: bool = False,
    work: int = HINT_WORK,
) -> Hint:
    """Return the next hint for ``position``, explained in ``lang``.

    With ``open`` the hint leads to a cell to open: while its deductions prove only mines it
    carries on (those mines taken as flagged) until one proves a safe cell. ``work`` bounds the
    search for the fewest premises (past it a hint is still true, marked ``minimal`` False).
    On a position too big to count exactly, the hint is the best deduction of one or two
    numbers (see :func:`~mineproof.logic.simple_deduction`), without the guess that follows.
    On a position with no covered cell left the hint is empty: no ``steps``, no ``safest``
    cells, an empty ``text`` (the command line says "nothing to hint" there); with ``open``, so
    it is on a position whose covered cells are all mines (every safe cell is open). Raises
    :class:`~mineproof.errors.InconsistentPositionError` for an impossible position (on one too
    big to count, only for a conflict of one or two numbers, or of trusted flags and the mine
    total: the deduction of one or two numbers is given otherwise), ``TooComplexError`` when
    the position is too big to count and one or two numbers prove nothing, and
    ``MineproofError`` for an unknown language.
    """
    try:
        if open:
            steps = hint_steps(position, trust_flags, work=work)
        else:
            first = best_deduction(position, trust_flags, work=work)
            steps = [] if first is None else [first]
    except TooComplexError:
        # Too big to count exactly: one or two numbers may still prove a cell, as they do for
        # a person, who never counts the whole board either.
        simple = simple_deduction(position, trust_flags, safe_first=open)
        if simple is None:
            raise
        texts = step_texts([simple], lang, position.flag_mask)
        return Hint((simple,), texts, None, [], None, texts[0], lang)
    if steps:
        texts = step_texts(steps, lang, position.flag_mask)
        if not open or steps[-1].safe:
            return Hint(tuple(steps), texts, None, [], None, texts[0], lang)
        # Only mines: the guess a player who flagged every proven mine (and nothing else) is
        # given, with those flags trusted, which is exact.
        exact = analyze(position, trust_flags=trust_flags)
        mines = exact.mine_mask
        cells = tuple(
            FLAG if mines >> i & 1 else COVERED if code == FLAG else code
            for i, code in enumerate(position.cells)
        )
        flagged = Position(position.board, cells, position.mines)
        analysis, safest, p, text, best = _guess(
            flagged, True, lang, mines_proven=True, flags=position.flag_mask & ~mines
        )
        if not safest:
            # Every safe cell is open (the game is won): there is no cell to lead to.
            return Hint((), (), exact, [], None, "", lang)
        return Hint(tuple(steps), texts, analysis, safest, p, texts[0], lang, best, text)
    analysis, safest, p, text, best = _guess(position, trust_flags, lang)
    return Hint((), (), analysis, safest, p, text, lang, best)


def _guess(
    position: Position,
    trust_flags: bool,
    lang: str,
    *,
    mines_proven: bool = False,
    flags: int | None = None,
) -> tuple[Analysis, Cells, float | None, str, Advice | None]:
    """Return the guess in ``position`` (no safe cell forced): its analysis, the safest cells,
    their mine probability, the text (which, with ``mines_proven``, says that no cell can be
    proven safe rather than that nothing is certain, and tells to take off a flag of the
    player's, ``flags``, by default the position's, from the cell to open), and the ``best``
    strategy's pick (see :func:`_advice`); no cells, ``None`` and no text when no covered cell
    is left."""
    analysis = analyze(position, trust_flags=trust_flags)
    # Every covered cell that may be safe, flagged or not, as the analysis lists the safest
    # cells: a flag that is not trusted proves nothing.
    every = analysis.arrangements
    counts = [(n, i) for i, n in enumerate(analysis.mine_counts) if 0 <= n < every]
    if not counts:
        return analysis, [], None, "", None
    lowest = min(n for n, _ in counts)
    safest = [position.board.xy(i) for n, i in counts if n == lowest]
    p = lowest / analysis.arrangements
    best = _advice(position, trust_flags)
    if best is None:
        (shown,) = percent_texts(lang, p)
        return analysis, safest, p, guess_text(safest, shown, lang, mines_proven=mines_proven), None
    # One set of figures for both sentences: a best guess riskier than the safest cells shows it.
    shown, best_shown = percent_texts(lang, p, best.probability)
    win = None if best.win is None else percent_texts(lang, best.win)[0]
    flags = position.flag_mask if flags is None else flags
    flagged = flags >> position.board.index(*best.cell) & 1
    best_text = best_guess_text(
        best.cell, best.reason, best_shown, win, lang, bool(flagged), best.why
    )
    text = guess_text(safest, shown, lang, mines_proven=mines_proven)
    best = replace(best, text=best_text)
    return analysis, safest, p, _sentences([text, best_text]), best  # no space after a CJK 。


def _advice(position: Position, trust_flags: bool) -> Advice | None:
    """Return the ``best`` strategy's guess in ``position`` (nothing forced), its text left
    empty, or ``None`` when weighing its candidates would pass the budget of
    :func:`~mineproof.play.best_guess`. The player takes only proven flags as mines."""
    analysis = analyze(known_view(position, trust_flags), trust_flags=True)
    try:
        guess = best_guess(analysis)
    except CountTooLarge:
        return None
    cell = position.board.xy(guess.cell)
    p = analysis.mine_counts[guess.cell] / analysis.arrangements
    why = pick_why(analysis, guess.cell) if guess.reason == "lookahead" else None
    return Advice(cell, p, guess.reason, guess.win, "", why)


def pick_why(analysis: Analysis, cell: int) -> tuple[str, tuple[int, int] | None]:
    """Return what made the look one move ahead pick ``cell`` in the position of ``analysis``
    (flags trusted), as :func:`~mineproof.explain.best_guess_text` takes it: ``survival``
    (only for a cell among the nearly safest), ``long-term``, ``progress`` or ``weighed``, and
    the ``(x, y)`` cell that survives better, if any (see
    :func:`mineproof.play.lookahead_why`)."""
    decided, near, rival = lookahead_why(analysis, cell)
    if decided == "survival" and not near:
        decided = "weighed"  # not among the nearly safest: the text must not say so
    return decided, None if rival is None else analysis.position.board.xy(rival)
