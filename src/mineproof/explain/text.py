"""Deductions in words: what a player reads, in nine languages.

Cells are named as the board shows them (``C4``: column letter, row number) in every language.
English is the source text; the other languages come from the gettext catalogs under
``locales/``. Each explanation is a few short sentences: what the premises say, then what
follows.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from mineproof.analysis.constraints import Clue, constraints_of, propagate
from mineproof.analysis.core import component_counts
from mineproof.board import Board, cell_name, iter_bits
from mineproof.errors import MineproofError
from mineproof.logic.deduction import Deduction
from mineproof.position import FLAG, Position

__all__ = [
    "LANGUAGES",
    "explain",
    "grade_text",
    "guess_text",
    "level_label",
    "level_name",
    "translations",
]

LANGUAGES = ("en", "ko", "ja", "zh", "es", "fr", "de", "pt", "ru")
"""English, Korean, Japanese, Chinese (simplified), Spanish, French, German, Portuguese, Russian."""

LOCALES = Path(__file__).parent / "locales"
_MAX_LISTED = 8
_MINUS = "\u2212"
_TIMES = "\u00d7"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """Return the message catalog of ``lang``; raises ``MineproofError`` for another code."""
    if lang not in LANGUAGES:
        raise MineproofError(f"unknown language {lang!r} (choose one of {', '.join(LANGUAGES)})")
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation("mineproof", LOCALES, languages=[lang])


def level_name(level: int, lang: str = "en") -> str:
    """Return what a person needs at ``level`` (1-5), in ``lang``."""
    t = translations(lang)
    names = {
        1: t.gettext("one clue"),
        2: t.gettext("two clues"),
        3: t.gettext("a combination of clues"),
        4: t.gettext("a case analysis"),
        5: t.gettext("the mine total"),
    }
    return names[level]


def level_label(level: int, lang: str = "en") -> str:
    """Return the label a hint starts with: "Level 3 (a combination of clues):"."""
    return (
        translations(lang)
        .gettext("Level {level} ({name}):")
        .format(level=level, name=level_name(level, lang))
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _listed(mask: int) -> int:
    """Return the number that picks the plural form of a sentence about the cells of ``mask``:
    1 for one cell, else 2. It is a list of cells, not a numeral, so 21 cells take the plural
    (Russian would otherwise agree with the final 1, as "21 мина" does)."""
    return 1 if mask.bit_count() == 1 else 2


def _sentences(parts: list[str]) -> str:
    """Return the sentences as one text: a space after a full stop, none after a CJK one (。)."""
    out = ""
    for part in parts:
        if out and not out.endswith("\u3002"):
            out += " "
        out += part
    return out


def _cells(t: gettext.NullTranslations, board: Board, mask: int) -> str:
    """Return the cells of ``mask`` as a list a person reads: "B3, C3 and D3"."""
    names = [board.name(i) for i in iter_bits(mask)]
    if len(names) > _MAX_LISTED:
        shown = t.gettext(", ").join(names[: _MAX_LISTED - 2])
        more = len(names) - (_MAX_LISTED - 2)
        return t.ngettext("{items} and {n} more cell", "{items} and {n} more cells", more).format(
            items=shown, n=more
        )
    return _join(t, names)


def _join(t: gettext.NullTranslations, items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    # Spanish says "e", not "y", before a word sounding "i": a cell in column I ("e I3").
    if items[-1].startswith("I"):
        template = t.pgettext("the last cell is in column I", "{items} and {last}")
    else:
        template = t.gettext("{items} and {last}")
    return template.format(items=t.gettext(", ").join(items[:-1]), last=items[-1])


def _flags_near(position: Position, cell: int) -> int:
    return sum(position.cells[n] == FLAG for n in position.board.neighbours(cell))


def _clue(t: gettext.NullTranslations, position: Position, cell: int) -> str:
    """Return "the 2 at C4", mentioning the flags it already has."""
    number = position.cells[cell]
    name = position.board.name(cell)
    flags = _flags_near(position, cell)
    if flags:
        return t.ngettext(
            "the {number} at {cell} (less its {flags} flagged mine)",
            "the {number} at {cell} (less its {flags} flagged mines)",
            flags,
        ).format(number=number, cell=name, flags=flags)
    return t.gettext("the {number} at {cell}").format(number=number, cell=name)


def _clues(t: gettext.NullTranslations, position: Position, cells: tuple[int, ...]) -> str:
    return _join(t, [_clue(t, position, c) for c in cells])


def _conclusions(t: gettext.NullTranslations, board: Board, safe: int, mine: int) -> list[str]:
    """Return "So B3 is safe." / "So C4 and D4 are mines." for the given cells, or one
    sentence for both: "So B3 is safe and C4 is a mine."."""
    if safe and mine:
        safe_part = t.ngettext("{cells} is safe", "{cells} are safe", _listed(safe))
        mine_part = t.ngettext("{cells} is a mine", "{cells} are mines", _listed(mine))
        return [
            t.gettext("So {safe} and {mine}.").format(
                safe=safe_part.format(cells=_cells(t, board, safe)),
                mine=mine_part.format(cells=_cells(t, board, mine)),
            )
        ]
    out = []
    if safe:
        out.append(
            t.ngettext("So {cells} is safe.", "So {cells} are safe.", _listed(safe)).format(
                cells=_cells(t, board, safe)
            )
        )
    if mine:
        out.append(
            t.ngettext("So {cells} is a mine.", "So {cells} are mines.", _listed(mine)).format(
                cells=_cells(t, board, mine)
            )
        )
    return out


def explain(deduction: Deduction, lang: str = "en") -> str:
    """Return the explanation of ``deduction`` in ``lang`` (one of :data:`LANGUAGES`).

    Raises ``MineproofError`` for an unknown language.
    """
    t = translations(lang)
    d = deduction
    body = {
        "single-clue": _single_clue,
        "all-mines-found": _all_found,
        "only-mines-left": _only_mines_left,
        "two-clues": _two_clues,
        "elimination": _elimination,
        "case-analysis": _case_analysis,
        "mine-total": _mine_total,
    }[d.rule](t, d)
    if d.rule != "two-clues":  # the two-clue text places its conclusions after each reason
        body += _conclusions(t, d.board, d.safe, d.mine)
    return _sentences([_sentence(s) for s in body])


def _premise_clues(d: Deduction) -> dict[int, Clue]:
    cons = constraints_of(d.position, trust_flags=True)
    return {c.cell: c for c in cons.clues}


def _single_clue(t: gettext.NullTranslations, d: Deduction) -> list[str]:
    (cell,) = d.premises
    position = d.position
    number = position.cells[cell]
    name = position.board.name(cell)
    flags = _flags_near(position, cell)
    plain = t.gettext("the {number} at {cell}").format(number=number, cell=name)
    if d.safe and number == 0:
        return [t.gettext("{clue} has no mine around it.").format(clue=plain)]
    if d.safe:
        return [
            t.ngettext(
                "{clue} already touches {n} flagged mine, all it needs.",
                "{clue} already touches {n} flagged mines, all it needs.",
                flags,
            ).format(clue=plain, n=flags)
        ]
    k = number - flags
    if flags:
        text = t.ngettext(
            "{clue} still needs {k} mine and has just {k} covered cell left.",
            "{clue} still needs {k} mines and has just {k} covered cells left.",
            k,
        )
    else:
        text = t.ngettext(
            "{clue} needs {k} mine and has just {k} covered cell.",
            "{clue} needs {k} mines and has just {k} covered cells.",
            k,
        )
    return [text.format(clue=plain, k=k)]


def _all_found(t: gettext.NullTranslations, d: Deduction) -> list[str]:
    total = d.position.mines
    return [
        t.ngettext(
            "All {total} mine has been found.", "All {total} mines have been found.", total
        ).format(total=total)
    ]


def _only_mines_left(t: gettext.NullTranslations, d: Deduction) -> list[str]:
    left = d.mine.bit_count()
    return [
        t.ngettext(
            "Only {left} mine is left, and only {left} covered cell.",
            "Only {left} mines are left, and only {left} covered cells.",
            left,
        ).format(left=left)
    ]


def _two_clues(t: gettext.NullTranslations, d: Deduction) -> list[str]:
    clues = _premise_clues(d)
    position = d.position
    board = d.board
    a, b = (clues[c] for c in d.premises)
    common = a.mask & b.mask
    out: list[str] = []
    for x, y in ((a, b), (b, a)):
        own_y = y.mask & ~x.mask
        own_x = x.mask & ~y.mask
        if not own_y & (d.safe | d.mine):
            continue
        n_x = own_x.bit_count()
        lo = max(0, x.mines - n_x, y.mines - own_y.bit_count())
        common_text = _cells(t, board, common)
        clue_x = _clue(t, position, x.cell)
        if own_y & d.safe:
            if n_x == 0:
                out.append(
                    t.ngettext(
                        "{clue} needs {k} mine, and it can only be in {common}.",
                        "{clue} needs {k} mines, and they can only be in {common}.",
                        x.mines,
                    ).format(clue=clue_x, k=x.mines, common=common_text)
                )
            else:
                out.append(
                    t.ngettext(
                        "{clue} needs {k} mines and has only {n} covered cell outside "
                        "{common}, so at least {lo} must be in {common}.",
                        "{clue} needs {k} mines and has only {n} covered cells outside "
                        "{common}, so at least {lo} must be in {common}.",
                        n_x,
                    ).format(clue=clue_x, k=x.mines, n=n_x, lo=lo, common=common_text)
                )
        else:
            out.append(
                t.ngettext(
                    "{clue} needs only {k} mine, so at most one can be in {common}.",
                    "{clue} needs only {k} mines, so at most {k} can be in {common}.",
                    x.mines,
                ).format(clue=clue_x, k=x.mines, common=common_text)
            )
        out.append(
            t.gettext("{clue} also touches those cells and needs {k} in all.").format(
                clue=_clue(t, position, y.cell), k=y.mines
            )
        )
        out += _conclusions(t, board, d.safe & own_y, d.mine & own_y)
    return out


def _term(t: gettext.NullTranslations, position: Position, cell: int, coef: int) -> str:
    clue = _clue(t, position, cell)
    if abs(coef) == 1:
        return clue
    return t.gettext("{times} times {clue}").format(times=abs(coef), clue=clue)


def _elimination(t: gettext.NullTranslations, d: Deduction) -> list[str]:
    position = d.position
    board = d.board
    clues = _premise_clues(d)
    added = [_term(t, position, c, k) for c, k in d.combination if k > 0]
    subtracted = [_term(t, position, c, k) for c, k in d.combination if k < 0]
    coef: dict[int, int] = {}
    rhs = 0
    for c, k in d.combination:
        rhs += k * clues[c].mines
        for i in iter_bits(clues[c].mask):
            coef[i] = coef.get(i, 0) + k
    terms = [(i, k) for i, k in sorted(coef.items()) if k]
    equation = ""
    for n, (i, k) in enumerate(terms):
        sign = ("" if k > 0 else _MINUS) if n == 0 else (" + " if k > 0 else f" {_MINUS} ")
        times = "" if abs(k) == 1 else f"{abs(k)}{_TIMES}"
        equation += f"{sign}{times}{board.name(i)}"
    equation += f" = {rhs}" if rhs >= 0 else f" = {_MINUS}{-rhs}"
    out = []
    if subtracted:
        out.append(
            t.gettext(
                "Count the mines of {added} and take away those of {subtracted}, each as a "
                "sum over its covered cells."
            ).format(added=_join(t, added), subtracted=_join(t, subtracted))
        )
    else:
        out.append(
            t.gettext("Add up the mines of {added}, each as a sum over its covered cells.").format(
                added=_join(t, added)
            )
        )
    out.append(t.gettext("What is left says: {equation}.").format(equation=equation))
    if len(terms) > 1:
        out.append(t.gettext("Each cell holds at most one mine."))
    return out


def _arrangements(clues: list[Clue]) -> tuple[int, int, int]:
    """Return (arrangements, fewest mines, most mines) of the clues over the cells they see."""
    _, mine, rest = propagate(clues)
    seen = 0
    for clue in rest:
        seen |= clue.mask
    total, low, high = 1, mine.bit_count(), mine.bit_count()
    for _, count in component_counts(rest, seen.bit_count()):
        total *= sum(count.weights)
        low += count.fewest
        high += count.most
    return total, low, high


def _case_analysis(t: gettext.NullTranslations, d: Deduction) -> list[str]:
    clues = _premise_clues(d)
    n, _, _ = _arrangements([clues[c] for c in d.premises])
    return [
        t.ngettext(
            "Try every way to place the mines of {clues}: there is only {n} way.",
            "Try every way to place the mines of {clues}: there are {n} ways, and they all agree.",
            n,
        ).format(clues=_clues(t, d.position, d.premises), n=n)
    ]


def _mine_total(t: gettext.NullTranslations, d: Deduction) -> list[str]:
    position = d.position
    cons = constraints_of(position, trust_flags=True)
    clues = {c.cell: c for c in cons.clues}
    premises = [clues[c] for c in d.premises]
    left = cons.mines
    seen = 0
    for c in premises:
        seen |= c.mask
    others = (cons.unknown & ~seen).bit_count()
    out = [
        t.ngettext(
            "Exactly {left} mine is left on the board.",
            "Exactly {left} mines are left on the board.",
            left,
        ).format(left=left)
    ]
    _, low, high = _arrangements(premises)
    named = _clues(t, position, d.premises)
    one = len(premises) == 1
    if low == left and d.safe & ~seen:
        if one:
            text = t.ngettext(
                "{clues} needs at least {k} mine in the cells it touches, which leaves none "
                "for the other covered cells.",
                "{clues} needs at least {k} mines in the cells it touches, which leaves none "
                "for the other covered cells.",
                low,
            )
        else:
            text = t.ngettext(
                "{clues} need at least {k} mine in the cells they touch, which leaves none "
                "for the other covered cells.",
                "{clues} need at least {k} mines in the cells they touch, which leaves none "
                "for the other covered cells.",
                low,
            )
        out.append(text.format(clues=named, k=low))
    elif high + others == left and d.mine & ~seen:
        if one:
            text = t.ngettext(
                "{clues} allows at most {k} mine in the cells it touches, so every other "
                "covered cell must hold one.",
                "{clues} allows at most {k} mines in the cells it touches, so every other "
                "covered cell must hold one.",
                high,
            )
        else:
            text = t.ngettext(
                "{clues} allow at most {k} mine in the cells they touch, so every other "
                "covered cell must hold one.",
                "{clues} allow at most {k} mines in the cells they touch, so every other "
                "covered cell must hold one.",
                high,
            )
        out.append(text.format(clues=named, k=high))
    else:
        out.append(
            t.gettext(
                "Of all the ways to place the mines of {clues}, only some leave a number of "
                "mines that fits the rest of the board."
            ).format(clues=named)
        )
    return out


def guess_text(cells: list[tuple[int, int]], probability: str, lang: str = "en") -> str:
    """Return the text for a position where nothing is forced: the safest cells to try."""
    t = translations(lang)
    listed = _join(t, [cell_name(x, y) for x, y in cells])
    return t.ngettext(
        "Nothing is certain here: a guess is needed. The safest cell is {cells}, with a mine "
        "probability of {p}.",
        "Nothing is certain here: a guess is needed. The safest cells are {cells}, each with a "
        "mine probability of {p}.",
        len(cells),
    ).format(cells=listed, p=probability)


def grade_text(solved: bool, level: int, steps: dict[int, int], lang: str = "en") -> str:
    """Return the summary of a logic-only solve: solved or stuck, the hardest level, the steps."""
    t = translations(lang)
    total = sum(steps.values())
    if solved:
        head = t.ngettext(
            "Solved without a guess in {n} step.", "Solved without a guess in {n} steps.", total
        ).format(n=total)
    else:
        head = t.ngettext(
            "Stuck after {n} step: a guess is needed.",
            "Stuck after {n} steps: a guess is needed.",
            total,
        ).format(n=total)
    parts = [head]
    if level:
        parts.append(
            t.gettext("Hardest technique: level {level}, {name}.").format(
                level=level, name=level_name(level, lang)
            )
        )
        per = [
            t.gettext("level {level}: {n}").format(level=lv, n=n) for lv, n in sorted(steps.items())
        ]
        parts.append(t.gettext("Steps per level: {list}.").format(list=t.gettext(", ").join(per)))
    return _sentences(parts)
