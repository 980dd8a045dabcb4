"""Deductions in words: what a player reads, in nine languages.

Cells are named as the board shows them (``C4``: column letter, row number) in every language.
English is the source text; the other languages come from the gettext catalogs under
``locales/``. Each explanation is a few short sentences that follow the deduction's own proof:
what the premises say, how they combine (or which case fails), then what follows. Every cell a
deduction concludes is named.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from unicodedata import east_asian_width

from mineproof.analysis.constraints import Clue, Constraints, condition
from mineproof.bitboard import union_of
from mineproof.board import Board, cell_name, iter_bits
from mineproof.errors import MineproofError
from mineproof.logic import Deduction
from mineproof.logic.cases import Branch, CaseProof, Event, settled_cells
from mineproof.logic.linear import MINE_TOTAL, LinearProof, disjoint, shares_of_total
from mineproof.logic.patterns import pattern_of
from mineproof.position import FLAG, Position
from mineproof.render.text import percents

__all__ = [
    "DECIMAL_SEPARATORS",
    "LANGUAGES",
    "PERCENT_SIGNS",
    "after_colon",
    "article",
    "best_guess_text",
    "cells_text",
    "colon",
    "decimal_text",
    "explain",
    "flagged_first",
    "grade_text",
    "grouped_text",
    "guess_text",
    "level_label",
    "level_name",
    "percent_texts",
    "review_best_guess_text",
    "sentences",
    "translations",
    "wrong_flags_text",
]

LANGUAGES = ("en", "ko", "ja", "zh", "es", "fr", "de", "pt", "ru")
"""English, Korean, Japanese, Chinese (simplified), Spanish, French, German, Portuguese, Russian."""

DECIMAL_SEPARATORS = {
    "en": ".",
    "ko": ".",
    "ja": ".",
    "zh": ".",
    "es": ",",
    "fr": ",",
    "de": ",",
    "pt": ",",
    "ru": ",",
}
"""How each language writes the decimal separator (as CLDR has it; Babel is not needed to run)."""

PERCENT_SIGNS = {
    "en": "%",
    "ko": "%",
    "ja": "%",
    "zh": "%",
    "es": "\u00a0%",
    "fr": "\u202f%",
    "de": "\u00a0%",
    "pt": "%",
    "ru": "\u00a0%",
}
"""How each language writes the percent sign after a number, with the no-break space (narrow in
French) that some put before it (CLDR's percent patterns)."""

GROUP_SEPARATORS = {
    "en": ",",
    "ko": ",",
    "ja": ",",
    "zh": ",",
    "es": ".",
    "fr": "\u202f",
    "de": ".",
    "pt": ".",
    "ru": "\u00a0",
}
"""How each language separates the thousands of a whole number (CLDR; Spanish only from five
digits on, see :func:`grouped_text`)."""

LOCALES = Path(__file__).parent / "locales"
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")
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


def grouped_text(n: int, lang: str = "en") -> str:
    """Return the whole number ``n`` with its thousands grouped as ``lang`` writes them
    (:data:`GROUP_SEPARATORS`). Raises ``KeyError`` for an unknown language.

    >>> grouped_text(65019), grouped_text(65019, "de"), grouped_text(1234, "es")
    ('65,019', '65.019', '1234')
    """
    if lang == "es" and -10_000 < n < 10_000:
        return str(n)
    return f"{n:,}".replace(",", GROUP_SEPARATORS[lang])


def _grouped(t: gettext.NullTranslations, n: int) -> str:
    """Return :func:`grouped_text` of ``n`` in the language of the catalog ``t``."""
    return grouped_text(n, t.info().get("language", "en"))  # English's catalog names none


def _amount(t: gettext.NullTranslations, x: Fraction) -> str:
    """Return ``x`` as :func:`_grouped` writes a whole number, a fraction as ``1/2``."""
    return _grouped(t, x.numerator) if x.denominator == 1 else str(x)


def decimal_text(text: str, lang: str = "en") -> str:
    """Return ``text`` with the decimal point of each of its numbers written as ``lang`` writes
    it (see :data:`DECIMAL_SEPARATORS`). Raises ``MineproofError`` for an unknown language.

    >>> decimal_text("3.28 s", "fr"), decimal_text("3.28 s", "ja")
    ('3,28 s', '3.28 s')
    """
    translations(lang)  # checks the language
    return _DECIMAL_POINT.sub(DECIMAL_SEPARATORS[lang], text)


def percent_texts(lang: str, *ps: float) -> tuple[str, ...]:
    """Return the probabilities ``ps`` as percentages for one text in ``lang``: the fewest
    decimals that show different probabilities differently
    (:func:`~mineproof.render.text.percents`), written with the language's decimal separator.
    Raises ``MineproofError`` for an unknown language.

    >>> percent_texts("de", 0.093, 0.0905) == ("9,3\u00a0%", "9,0\u00a0%")
    True
    >>> percent_texts("en", 0.004, 0.5)
    ('<1%', '50%')
    """
    translations(lang)  # checks the language
    return tuple(decimal_text(p, lang).replace("%", PERCENT_SIGNS[lang]) for p in percents(*ps))


def article(number: str) -> str:
    """Return the English indefinite article before ``number`` (a figure such as "11%"), as it
    is read aloud: "an" before eight, eleven, eighteen and eighty-..., else "a". A message
    gives it as ``{a}``, which the other languages leave out.

    >>> [article(p) for p in ("11%", "8.5%", "18%", "83%", "1%", "<1%", "100%", "50%")]
    ['an', 'an', 'an', 'an', 'a', 'a', 'a', 'a']
    """
    whole = re.match(r"\d+", number)
    if whole is None:  # "<1%" reads "less than", ">99%" "more than"
        return "a"
    n = int(whole.group())
    return "an" if n in (8, 11, 18) or 80 <= n <= 89 or 800 <= n <= 899 else "a"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _listed(mask: int) -> int:
    """Return the number that picks the plural form of a sentence about the cells of ``mask``:
    1 for one cell, else 2. It is a list of cells, not a numeral, so 21 cells take the plural
    (Russian would otherwise agree with the final 1, as "21 мина" does)."""
    return 1 if mask.bit_count() == 1 else 2


_LOWER_AFTER_COLON = frozenset({"es", "fr", "pt", "ru"})
"""The languages that write the first word after a colon in lower case (English and German
write a sentence after it with its capital)."""


def colon(lang: str = "en") -> str:
    """Return a colon that ends a label made by the code ("#2:") as ``lang`` writes it: French
    puts a no-break space before it.

    >>> colon("en"), colon("fr")
    (':', '\\xa0:')
    """
    return "\u00a0:" if lang == "fr" else ":"


def after_colon(lead: str, text: str, lang: str = "en") -> str:
    """Return ``lead``, which ends with a colon (or a full stop), then ``text`` as ``lang``
    writes them: a space between, none after full-width punctuation (Japanese, Chinese); after
    a colon in French, Spanish, Portuguese and Russian, the first word of ``text`` in lower
    case (a cell name, "A1", is left as it is). Raises nothing.

    >>> after_colon("Niveau 1 (un seul nombre) :", "Le 1 en A1 touche 1 mine.", "fr")
    'Niveau 1 (un seul nombre) : le 1 en A1 touche 1 mine.'
    >>> after_colon("Level 1 (one clue):", "The 1 at A1 ...", "en")
    'Level 1 (one clue): The 1 at A1 ...'
    >>> after_colon("Une fois A1 marquée.", "Le 1 en B2 ...", "fr")
    'Une fois A1 marquée. Le 1 en B2 ...'
    >>> full_width = chr(0xFF1A)
    >>> after_colon("Label" + full_width, "A1", "ja") == "Label" + full_width + "A1"
    True
    """
    if lead and east_asian_width(lead[-1]) in "FW":  # a full-width colon or full stop
        return lead + text
    word = len(text) > 1 and text[0].isupper() and (text[1].islower() or text[1] == " ")
    if lang in _LOWER_AFTER_COLON and lead.endswith(":") and word:
        text = text[0].lower() + text[1:]
    return f"{lead} {text}"


def sentences(parts: list[str]) -> str:
    """Return sentences as one text: a space after a full stop, none after a CJK one (。).

    >>> sentences(["One.", "Two."]), sentences(["一つ。", "二つ。"])
    ('One. Two.', '一つ。二つ。')
    """
    return _sentences(parts)


def _sentences(parts: list[str]) -> str:
    """Return the sentences as one text: a space after a full stop, none after a CJK one (。)."""
    out = ""
    for part in parts:
        if out and not out.endswith("\u3002"):
            out += " "
        out += part
    return out


def cells_text(board: Board, mask: int, lang: str = "en", limit: bool = False) -> str:
    """Return the cells of ``mask`` as a list a person reads in ``lang``: "B3, C3 and D3"
    (with ``limit``, the first few and how many more).

    >>> cells_text(Board(4, 4), 0b1011, "fr")
    'A1, B1 et D1'
    """
    return _cells(translations(lang), board, mask, limit)


def _cells(t: gettext.NullTranslations, board: Board, mask: int, limit: bool = False) -> str:
    """Return the cells of ``mask`` as a list a person reads: "B3, C3 and D3" (with ``limit``,
    the first few and how many more)."""
    return _names_text([board.name(i) for i in iter_bits(mask)], t, limit)


def _names_text(names: list[str], t: gettext.NullTranslations, limit: bool) -> str:
    """Return the cell ``names`` as a list a person reads: "B3, C3 and D3"; with ``limit``, when
    there are more than :data:`_MAX_LISTED`, the first few and how many more ("and 4 more
    cells"), so that a list cut short says so."""
    if limit and len(names) > _MAX_LISTED:
        shown = t.gettext(", ").join(names[: _MAX_LISTED - 2])
        more = len(names) - (_MAX_LISTED - 2)
        return t.ngettext("{items} and {n} more cell", "{items} and {n} more cells", more).format(
            items=shown, n=_grouped(t, more)
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


class _Names:
    """Names the numbers of one explanation: "the 3 at N14 (less its 1 flagged mine)" the first
    time, "the 3 at N14" after that. With ``flags_named``, the flags are named: "the 3 at N14
    (less its flagged mine M13)" (flags the explanation placed, which the board does not
    show)."""

    def __init__(
        self, t: gettext.NullTranslations, position: Position, flags_named: bool = False
    ) -> None:
        self.t = t
        self.position = position
        self.flags_named = flags_named
        self.seen: set[int] = set()

    def clue(self, cell: int) -> str:
        """Return the name of the number at ``cell``."""
        if cell in self.seen:
            number = self.position.cells[cell]
            name = self.position.board.name(cell)
            return self.t.gettext("the {number} at {cell}").format(number=number, cell=name)
        self.seen.add(cell)
        if self.flags_named:
            board = self.position.board
            flags = self.position.flag_mask & board.neighbour_masks()[cell]
            if flags:
                return self.t.ngettext(
                    "the {number} at {cell} (less its flagged mine {cells})",
                    "the {number} at {cell} (less its flagged mines {cells})",
                    flags.bit_count(),
                ).format(
                    number=self.position.cells[cell],
                    cell=board.name(cell),
                    cells=_cells(self.t, board, flags),
                )
        return _clue(self.t, self.position, cell)

    def clues(self, cells: tuple[int, ...] | list[int]) -> str:
        """Return the names of the numbers at ``cells``, as a list."""
        return _join(self.t, [self.clue(c) for c in cells])


def _conclusions(
    t: gettext.NullTranslations, board: Board, safe: int, mine: int, limit: bool = False
) -> list[str]:
    """Return "So B3 is safe." / "So C4 and D4 are mines." for the given cells, or one
    sentence for both: "So B3 is safe and C4 is a mine."."""
    if safe and mine:
        safe_part = t.ngettext("{cells} is safe", "{cells} are safe", _listed(safe))
        mine_part = t.ngettext("{cells} is a mine", "{cells} are mines", _listed(mine))
        return [
            t.gettext("So {safe} and {mine}.").format(
                safe=safe_part.format(cells=_cells(t, board, safe, limit)),
                mine=mine_part.format(cells=_cells(t, board, mine, limit)),
            )
        ]
    out = []
    if safe:
        out.append(
            t.ngettext("So {cells} is safe.", "So {cells} are safe.", _listed(safe)).format(
                cells=_cells(t, board, safe, limit)
            )
        )
    if mine:
        out.append(
            t.ngettext("So {cells} is a mine.", "So {cells} are mines.", _listed(mine)).format(
                cells=_cells(t, board, mine, limit)
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
        "combination": _combination,
        "case-analysis": _case_analysis,
        "mine-total": _mine_total,
    }[d.rule](t, d, _Names(t, d.position))
    return _sentences([_sentence(s) for s in body])


def _premise_clues(d: Deduction) -> dict[int, Clue]:
    return d.premise_clues()


def _single_clue(t: gettext.NullTranslations, d: Deduction, names: _Names) -> list[str]:
    (cell,) = d.premises
    position = d.position
    number = position.cells[cell]
    name = position.board.name(cell)
    flags = _flags_near(position, cell)
    plain = t.gettext("the {number} at {cell}").format(number=number, cell=name)
    conclusions = _conclusions(t, d.board, d.safe, d.mine)
    if d.safe and number == 0:
        return [t.gettext("{clue} has no mine around it.").format(clue=plain), *conclusions]
    if d.safe:
        return [
            t.ngettext(
                "{clue} already touches {n} flagged mine, all it needs.",
                "{clue} already touches {n} flagged mines, all it needs.",
                flags,
            ).format(clue=plain, n=flags),
            *conclusions,
        ]
    return [_just_enough(t, position, cell), *conclusions]


def _just_enough(t: gettext.NullTranslations, position: Position, cell: int) -> str:
    """Return "the 2 at C4 needs 2 mines and has just 2 covered cells." (with "still" and
    "left" when it touches flags)."""
    number = position.cells[cell]
    plain = t.gettext("the {number} at {cell}").format(
        number=number, cell=position.board.name(cell)
    )
    flags = _flags_near(position, cell)
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
    return text.format(clue=plain, k=k)


def _all_found(t: gettext.NullTranslations, d: Deduction, names: _Names) -> list[str]:
    total = d.position.mines
    found = (
        t.ngettext("The only mine has been found.", "All {total} mines have been found.", total)
        if total
        else t.gettext("The board has no mines.")
    )
    return [
        found.format(total=_grouped(t, total)),
        *_conclusions(t, d.board, d.safe, d.mine, limit=True),
    ]


def _only_mines_left(t: gettext.NullTranslations, d: Deduction, names: _Names) -> list[str]:
    left = d.mine.bit_count()
    return [
        t.ngettext(
            "Only {left} mine is left, and only {left} covered cell.",
            "Only {left} mines are left, and only {left} covered cells.",
            left,
        ).format(left=_grouped(t, left)),
        *_conclusions(t, d.board, d.safe, d.mine, limit=True),
    ]


def _two_clues(t: gettext.NullTranslations, d: Deduction, names: _Names) -> list[str]:
    clues = _premise_clues(d)
    board = d.board
    a, b = (clues[c] for c in d.premises)
    common = a.mask & b.mask
    out: list[str] = []
    pattern = pattern_of(d)
    if pattern in ("1-1", "1-2"):
        out.append(
            t.gettext("{clues} form the {pattern} pattern.").format(
                clues=names.clues(d.premises), pattern=pattern
            )
        )
    elif pattern is not None:
        # Two numbers of a longer pattern: they do not form it, and prove only their part.
        out.append(
            t.gettext("{clues} are part of a {pattern} pattern.").format(
                clues=names.clues(d.premises), pattern=pattern
            )
        )
    for x, y in ((a, b), (b, a)):
        own_y = y.mask & ~x.mask
        own_x = x.mask & ~y.mask
        if not own_y & (d.safe | d.mine):
            continue
        n_x = own_x.bit_count()
        lo = max(0, x.mines - n_x, y.mines - own_y.bit_count())
        common_text = _cells(t, board, common)
        clue_x = names.clue(x.cell)
        if own_y & d.safe:
            if n_x == 0:
                out.append(
                    t.ngettext(
                        "{clue} needs {k} mine, and it can only be in one of {common}.",
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
                clue=names.clue(y.cell), k=y.mines
            )
        )
        out += _conclusions(t, board, d.safe & own_y, d.mine & own_y)
    return out


# --- adding up equations (levels 3 and 5) -----------------------------------------------------


def _combination(t: gettext.NullTranslations, d: Deduction, names: _Names) -> list[str]:
    proof = d.proof
    if not isinstance(proof, LinearProof):
        return [*_unshown(t, d, names), *_conclusions(t, d.board, d.safe, d.mine)]
    clues = _premise_clues(d)
    plus = [clues[c] for c, k in proof.combination if k == 1]
    minus = [clues[c] for c, k in proof.combination if k == -1]
    if len(plus) + len(minus) == len(proof.combination) and disjoint(plus) and disjoint(minus):
        return _needs_and_allows(t, d, plus, minus, proof, names)
    return _added_up(t, d, proof, names)


def _needs_and_allows(
    t: gettext.NullTranslations,
    d: Deduction,
    plus: list[Clue],
    minus: list[Clue],
    proof: LinearProof,
    names: _Names,
) -> list[str]:
    """Return the argument of a combination where some numbers (``plus``, no cell in common)
    need more mines than others (``minus``, no cell in common) allow in the cells they share:
    the rest go to the first ones' other cells, and the others' other cells are empty."""
    board = d.board
    need = sum(c.mines for c in plus)
    allow = sum(c.mines for c in minus)
    named_plus = names.clues([c.cell for c in plus])
    named_minus = names.clues([c.cell for c in minus])
    others_plus = union_of(c.mask for c in plus) & ~union_of(c.mask for c in minus)
    out = []
    if len(plus) == 1:
        out.append(
            t.ngettext("{clue} needs {k} mine.", "{clue} needs {k} mines.", need).format(
                clue=named_plus, k=need
            )
        )
    else:
        out.append(
            t.ngettext(
                "{clues} need {k} mine between them, with no covered cell in common.",
                "{clues} need {k} mines between them, with no covered cell in common.",
                need,
            ).format(clues=named_plus, k=_grouped(t, need))
        )
    if len(minus) == 1:
        text = t.ngettext(
            "{clue} needs only {k} mine, so the cells it shares with {other} hold at most {k}.",
            "{clue} needs only {k} mines, so the cells it shares with {other} hold at most {k}.",
            allow,
        )
    else:
        text = t.ngettext(
            "{clues} need only {k} mine between them, so the cells they share with {other} "
            "hold at most {k}.",
            "{clues} need only {k} mines between them, so the cells they share with {other} "
            "hold at most {k}.",
            allow,
        )
    other = names.clues([c.cell for c in plus])
    out.append(text.format(clue=named_minus, clues=named_minus, k=_grouped(t, allow), other=other))
    # Name them: each number may share other cells, and a reader should not have to find them.
    shared = union_of(c.mask for c in plus) & union_of(c.mask for c in minus)
    out.append(
        t.ngettext(
            "The cell shared is {cells}.", "The cells shared are {cells}.", _listed(shared)
        ).format(cells=_cells(t, board, shared))
    )
    rest = int(proof.total)
    if rest and len(plus) == 1:
        out.append(
            t.ngettext(
                "That leaves {k} mine for its other covered cell, {cells}.",
                "That leaves {k} mines for its other {k} covered cells, {cells}.",
                rest,
            ).format(k=_grouped(t, rest), cells=_cells(t, board, others_plus))
        )
    elif rest:
        out.append(
            t.ngettext(
                "That leaves {k} mine for their other covered cell, {cells}.",
                "That leaves {k} mines for their other {k} covered cells, {cells}.",
                rest,
            ).format(k=_grouped(t, rest), cells=_cells(t, board, others_plus))
        )
    elif len(plus) == 1:
        out.append(
            t.ngettext(
                "{clue} has no other covered cell, so the shared cells hold exactly {k} mine.",
                "{clue} has no other covered cell, so the shared cells hold exactly {k} mines.",
                need,
            ).format(clue=names.clues([c.cell for c in plus]), k=need)
        )
    else:
        out.append(
            t.ngettext(
                "{clues} have no other covered cell, so the shared cells hold exactly {k} mine.",
                "{clues} have no other covered cell, so the shared cells hold exactly {k} mines.",
                need,
            ).format(clues=names.clues([c.cell for c in plus]), k=_grouped(t, need))
        )
    if d.safe:
        named_minus = names.clues([c.cell for c in minus])
        if len(minus) == 1:
            out.append(
                t.gettext("Then {clue} has all its mines in the shared cells.").format(
                    clue=named_minus
                )
            )
        else:
            out.append(
                t.gettext("Then {clues} have all their mines in the shared cells.").format(
                    clues=named_minus
                )
            )
    return out + _conclusions(t, board, d.safe, d.mine)


def _term(t: gettext.NullTranslations, names: _Names, cell: int, k: Fraction, left: int) -> str:
    if cell == MINE_TOTAL:
        clue = t.ngettext(
            "the {left} mine left (over all covered cells)",
            "the {left} mines left (over all covered cells)",
            left,
        ).format(left=_grouped(t, left))
    else:
        clue = names.clue(cell)
    if abs(k) == 1:
        return clue
    return t.gettext("{times} times {clue}").format(times=abs(k), clue=clue)


def _equation(t: gettext.NullTranslations, board: Board, proof: LinearProof) -> str:
    out = ""
    for n, (i, k) in enumerate(proof.coefficients):
        sign = ("" if k > 0 else _MINUS) if n == 0 else (" + " if k > 0 else f" {_MINUS} ")
        times = "" if abs(k) == 1 else f"{abs(k)}{_TIMES}"
        out += f"{sign}{times}{board.name(i)}"
    return out + f" = {_amount(t, proof.total)}"


def _added_up(
    t: gettext.NullTranslations, d: Deduction, proof: LinearProof, names: _Names
) -> list[str]:
    """Return the general argument: the equations added up, then the bound that forces."""
    board = d.board
    left = d.mines_left
    added = [_term(t, names, c, k, left) for c, k in proof.combination if k > 0]
    taken = [_term(t, names, c, k, left) for c, k in proof.combination if k < 0]
    equation = _equation(t, board, proof)
    if taken and added:
        first = t.gettext(
            "Add up {added} and take away {taken}, each counted as the sum of its covered "
            "cells; the cells they share cancel out, which leaves {equation}."
        ).format(added=_join(t, added), taken=_join(t, taken), equation=equation)
    else:
        first = t.gettext(
            "Add up {added}, each counted as the sum of its covered cells, which gives {equation}."
        ).format(added=_join(t, added or taken), equation=equation)
    plus = any(k > 0 for _, k in proof.coefficients)
    minus = any(k < 0 for _, k in proof.coefficients)
    if plus and minus:
        bound = t.gettext(
            "The left side is at most {total}, and reaches it only when every cell with a plus "
            "sign is a mine and every cell with a minus sign is safe."
        )
    elif plus:
        bound = t.gettext(
            "The left side is at most {total}, and reaches it only when every one of its cells "
            "is a mine."
        )
    else:
        # Only cells taken away: said of a plus sign too, the sentence spoke of no cell.
        bound = t.gettext(
            "The left side is at most {total}, and reaches it only when every one of its cells "
            "is safe."
        )
    second = bound.format(total=_amount(t, proof.total))
    return [first, second, *_conclusions(t, board, d.safe, d.mine)]


_MAX_NAMED = 6
"""The most numbers a sentence names one by one; the others are counted."""


def _unshown(t: gettext.NullTranslations, d: Deduction, names: _Names) -> list[str]:
    premises = list(d.premises)
    if len(premises) > _MAX_NAMED:
        # The numbers nearest the conclusions, then how many more.
        board = d.board
        w = board.width
        targets = list(iter_bits(d.safe | d.mine))
        premises.sort(
            key=lambda c: min(max(abs(c % w - i % w), abs(c // w - i // w)) for i in targets)
        )
        shown = t.gettext(", ").join(names.clue(c) for c in premises[: _MAX_NAMED - 1])
        more = len(premises) - (_MAX_NAMED - 1)
        named = t.ngettext(
            "{items} and {n} more number", "{items} and {n} more numbers", more
        ).format(items=shown, n=_grouped(t, more))
    else:
        named = names.clues(d.premises)
    return [
        t.gettext(
            "Trying every way to place the mines of {clues} proves it; there are too many "
            "cases to show here."
        ).format(clues=named)
    ]


# --- the mine total (level 5) -------------------------------------------------------------------


def _mine_total(t: gettext.NullTranslations, d: Deduction, names: _Names) -> list[str]:
    left = d.mines_left
    out = [
        t.ngettext(
            "Exactly {left} mine is left on the board.",
            "Exactly {left} mines are left on the board.",
            left,
        ).format(left=_grouped(t, left))
    ]
    proof = d.proof
    if isinstance(proof, CaseProof):
        return out + _cases(t, d, proof, names)
    if not isinstance(proof, LinearProof):
        return out + _unshown(t, d, names) + _conclusions(t, d.board, d.safe, d.mine)
    if proof.given:
        return out + _flagged_first(t, d, proof)
    return out + _total_combination(t, d, proof, names)


def _flagged_first(t: gettext.NullTranslations, d: Deduction, proof: LinearProof) -> list[str]:
    """Return a combination with the mine total made once the mines of its ``given`` steps are
    flagged: those mines first, then the argument on the board with them flagged."""
    _, mines = settled_cells(proof.given)
    out = _given(t, d, proof.given, False)
    rest = d.mines_left - mines.bit_count()
    if not rest:  # the count is the mine total alone: no mine is left for the other cells
        out.append(
            t.gettext("With it flagged, every mine is found.")
            if mines.bit_count() == 1
            else t.gettext("With them flagged, every mine is found.")
        )
        return out + _conclusions(t, d.board, d.safe, d.mine)
    text = (
        t.ngettext(
            "With it flagged, {k} mine is left.", "With it flagged, {k} mines are left.", rest
        )
        if mines.bit_count() == 1
        else t.ngettext(
            "With them flagged, {k} mine is left.", "With them flagged, {k} mines are left.", rest
        )
    )
    out.append(text.format(k=_grouped(t, rest)))
    position = d.position
    cells = tuple(FLAG if mines >> i & 1 else c for i, c in enumerate(position.cells))
    view = Position(position.board, cells, position.mines)
    unknown = position.covered_mask & ~position.flag_mask
    premises = condition(Constraints(unknown, d.mines_left, list(d.clues)), mines, 0)
    flagged = replace(d, position=view, proof=replace(proof, given=()), clues=tuple(premises.clues))
    # The flags are the proof's, not on the board: each number names its own.
    names = _Names(t, flagged.position, flags_named=True)
    return out + _total_combination(t, flagged, proof, names)


def _total_combination(
    t: gettext.NullTranslations, d: Deduction, proof: LinearProof, names: _Names
) -> list[str]:
    """Return a combination with the mine total: each number's share of the mines left when it
    is that simple, else the equations added up."""
    shares = shares_of_total(proof, _premise_clues(d))
    if shares is None:
        return _added_up(t, d, proof, names)
    all_taken = dict(proof.combination)[MINE_TOTAL] < 0
    return _shares(t, d, shares, d.mines_left, all_taken, names)


def _shares(
    t: gettext.NullTranslations,
    d: Deduction,
    shares: list[Clue],
    left: int,
    all_taken: bool,
    names: _Names,
) -> list[str]:
    """Return each number's share of the mines left (no cell in common), then what is left for
    the other covered cells: none (``all_taken``) or one each."""
    board = d.board
    taken = sum(c.mines for c in shares)
    items = [
        t.ngettext("{clue} needs {k} mine", "{clue} needs {k} mines", c.mines).format(
            clue=names.clue(c.cell), k=c.mines
        )
        for c in shares
    ]
    out = []
    if len(items) == 1:
        out.append(t.gettext("{share} in its covered cells.").format(share=items[0]))
    else:
        out.append(
            t.ngettext(
                "{shares}, with no covered cell in common: {k} mine in all.",
                "{shares}, with no covered cell in common: {k} mines in all.",
                taken,
            ).format(shares=_join(t, items), k=_grouped(t, taken))
        )
    if all_taken:
        out.append(t.gettext("That is every mine left, so the other covered cells have none."))
    else:
        rest = left - taken
        out.append(
            t.ngettext(
                "That leaves {k} mine for the only other covered cell.",
                "That leaves {k} mines for the other {k} covered cells: one in each.",
                rest,
            ).format(k=_grouped(t, rest))
        )
    return out + _conclusions(t, board, d.safe, d.mine, limit=True)


# --- cases (level 4, and level 5 beyond adding equations) ----------------------------------------


def _case_analysis(t: gettext.NullTranslations, d: Deduction, names: _Names) -> list[str]:
    if isinstance(d.proof, CaseProof):
        return _cases(t, d, d.proof, names)
    return [*_unshown(t, d, names), *_conclusions(t, d.board, d.safe, d.mine)]


def _cases(t: gettext.NullTranslations, d: Deduction, proof: CaseProof, names: _Names) -> list[str]:
    left = d.mines_left
    out = _given(t, d, proof.given, True) + _branch(t, names, proof.refuted, True, left)
    return out + _conclusions(t, d.board, d.safe, d.mine)


def _given(
    t: gettext.NullTranslations, d: Deduction, given: tuple[Event, ...], cases: bool
) -> list[str]:
    """Return what single numbers settle before the argument: told before the first
    supposition (``cases``: a teacher sets apart what holds anyway; told in each case, it hid
    the cases), or before a combination made with those mines flagged."""
    board = d.board
    safe, mine = settled_cells(given)
    clues = _premise_clues(d)
    # Numbers each with just as many covered cells as mines, needing no step before them: not
    # "one after another", which sent a reader looking for an order.
    direct = (
        bool(mine)
        and not safe
        and all(
            e.premise in clues and clues[e.premise].mines == clues[e.premise].mask.bit_count()
            for e in given
        )
    )
    if direct and len(given) == 1:
        (event,) = given
        return [
            _just_enough(t, d.position, event.premise),
            *_conclusions(t, board, 0, mine),
        ]
    out = []
    if direct:
        text = (
            t.gettext(
                "Whatever the case, numbers with just as many covered cells as mines prove that "
                "these {n} cells are mines: {cells}."
            )
            if cases
            else t.gettext(
                "Numbers with just as many covered cells as mines prove that these {n} cells are "
                "mines: {cells}."
            )
        )
        out.append(text.format(cells=_cells(t, board, mine), n=_grouped(t, mine.bit_count())))
    elif mine:
        # Two messages, not plural forms: the count is told apart from the cells, so that no
        # language has to agree a noun with it (Russian would with 21 cells).
        n = mine.bit_count()
        if cases:
            text = (
                t.gettext(
                    "Whatever the case, single numbers prove one after another that {cells} is a "
                    "mine."
                )
                if n == 1
                else t.gettext(
                    "Whatever the case, single numbers prove one after another that these {n} "
                    "cells are mines: {cells}."
                )
            )
        else:
            text = (
                t.gettext("Single numbers prove one after another that {cells} is a mine.")
                if n == 1
                else t.gettext(
                    "Single numbers prove one after another that these {n} cells are mines: "
                    "{cells}."
                )
            )
        out.append(text.format(cells=_cells(t, board, mine), n=_grouped(t, n)))
    if safe and mine:
        out.append(
            t.ngettext(
                "They also prove that {cells} is safe.",
                "They also prove that {cells} are safe.",
                _listed(safe),
            ).format(cells=_cells(t, board, safe))
        )
    elif safe:
        out.append(
            t.ngettext(
                "Whatever the case, single numbers prove one after another that {cells} is safe.",
                "Whatever the case, single numbers prove one after another that {cells} are safe.",
                _listed(safe),
            ).format(cells=_cells(t, board, safe))
        )
    return out


def _branch(
    t: gettext.NullTranslations, names: _Names, branch: Branch, first: bool, left: int
) -> list[str]:
    """Return a case in words (``left``: the mines left on the board, for the mine total)."""
    name = names.position.board.name(branch.cell)
    if first:
        head = (
            t.gettext("Suppose {cell} is a mine.")
            if branch.mine
            else t.gettext("Suppose {cell} is safe.")
        )
    else:
        head = (
            t.gettext("Suppose further that {cell} is a mine.")
            if branch.mine
            else t.gettext("Suppose instead that {cell} is safe.")
        )
    out = [head.format(cell=name)]
    out += [_event(t, names, e, left) for e in branch.chain]
    if branch.split is not None:
        for sub in branch.split:
            out += _branch(t, names, sub, False, left)
        # Name the cell split on: two splits that end together each close their own.
        other = names.position.board.name(branch.split[0].cell)
        closing = (
            t.gettext("Whether {cell} is a mine or safe, a number or the mine total fails.")
            if _total_fails(branch)
            else t.gettext("Whether {cell} is a mine or safe, a number fails.")
        )
        out.append(closing.format(cell=other))
    return out


def _total_fails(branch: Branch) -> bool:
    """Return whether some case of ``branch`` ends on the mine total."""
    if branch.split is not None:
        return any(_total_fails(sub) for sub in branch.split)
    return bool(branch.chain) and branch.chain[-1].premise == MINE_TOTAL


def _event(t: gettext.NullTranslations, names: _Names, event: Event, left: int) -> str:
    """Return one step of a case in words (``left``: the mines left, which a step of the mine
    total counts)."""
    board = names.position.board
    if event.parts:
        return _count_event(t, names, event)
    if event.premise == MINE_TOTAL:
        if event.conflict == "too-many":
            return t.gettext("Then there would be more mines than are left.")
        if event.conflict == "too-few":
            return t.gettext("Then there would be no room for all the mines left.")
        if event.safe:
            # How many: the reader adds up the mines of the case (teachers say the count).
            return t.ngettext(
                "Then every mine left ({left}) is placed, so {cells} is safe.",
                "Then every mine left ({left}) is placed, so {cells} are safe.",
                _listed(event.safe),
            ).format(cells=_cells(t, board, event.safe), left=_grouped(t, left))
        return t.ngettext(
            "Then the mines left need {cells} to be a mine.",
            "Then the mines left need {cells} to be mines.",
            _listed(event.mine),
        ).format(cells=_cells(t, board, event.mine))
    clue = names.clue(event.premise)
    if event.conflict == "too-many":
        return t.gettext("Then {clue} would have too many mines.").format(clue=clue)
    if event.conflict == "too-few":
        return t.gettext("Then {clue} would not have room for all its mines.").format(clue=clue)
    if event.safe:
        return t.ngettext(
            "Then {clue} has all its mines, so {cells} is safe.",
            "Then {clue} has all its mines, so {cells} are safe.",
            _listed(event.safe),
        ).format(clue=clue, cells=_cells(t, board, event.safe))
    return t.ngettext(
        "Then {clue} needs {cells} to be a mine.",
        "Then {clue} needs {cells} to be mines.",
        _listed(event.mine),
    ).format(clue=clue, cells=_cells(t, board, event.mine))


def _count_event(t: gettext.NullTranslations, names: _Names, event: Event) -> str:
    """Return a count of a case in words (see :class:`~mineproof.logic.cases.Event`): what one
    number, or two that share no undecided cell, still need, counted towards another number
    or towards the mines left to place in the case."""
    board = names.position.board
    mines = t.npgettext("a number still needs", "{n} mine", "{n} mines", event.needed).format(
        n=_grouped(t, event.needed)
    )
    settled = event.safe | event.mine
    count = _listed(settled)
    key = (event.premise == MINE_TOTAL, event.conflict or ("safe" if event.safe else "mine"))
    text = (_two_parts if len(event.parts) == 2 else _one_part)(t, key, count)
    who = names.clues(event.parts)
    values = {
        "part": who,
        "parts": who,
        "mines": mines,
        "cells": _cells(t, board, settled) if settled else "",
        "more": _grouped(t, event.left - event.needed),
        "m": _grouped(t, event.left),
    }
    if event.premise != MINE_TOTAL:
        # The number is named twice: its flags are told at the first mention only.
        text = text.replace("{clue}", "{first_clue}", 1)
        values["first_clue"] = names.clue(event.premise)
        values["clue"] = names.clue(event.premise)
    return text.format(**values)


def _one_part(t: gettext.NullTranslations, key: tuple[bool, str], count: int) -> str:
    """Return the words of a count of one number (see :func:`_count_event`), by ``key``:
    whether it counts towards the mine total, and its outcome."""
    if key == (True, "safe"):
        return t.ngettext(
            "Then {part} still needs {mines}, all the mines left to place, so {cells} is safe.",
            "Then {part} still needs {mines}, all the mines left to place, so {cells} are safe.",
            count,
        )
    if key == (True, "mine"):
        return t.ngettext(
            "Then {part} still needs {mines}, and the other mines left to place ({more}) fill "
            "every other undecided cell, so {cells} is a mine.",
            "Then {part} still needs {mines}, and the other mines left to place ({more}) fill "
            "every other undecided cell, so {cells} are mines.",
            count,
        )
    if key == (True, "too-many"):
        return t.gettext("Then {part} still needs {mines}, more than the {m} left to place.")
    if key == (True, "too-few"):
        return t.gettext(
            "Then {part} still needs {mines}, and the other mines left to place ({more}) have "
            "no room."
        )
    if key == (False, "safe"):
        return t.ngettext(
            "Then {part} still needs {mines}, all on cells {clue} touches, and {clue} needs no "
            "more, so {cells} is safe.",
            "Then {part} still needs {mines}, all on cells {clue} touches, and {clue} needs no "
            "more, so {cells} are safe.",
            count,
        )
    if key == (False, "mine"):
        return t.ngettext(
            "Then {part} still needs {mines}, all on cells {clue} touches, and {clue} needs "
            "{more} more, so {cells} is a mine.",
            "Then {part} still needs {mines}, all on cells {clue} touches, and {clue} needs "
            "{more} more, so {cells} are mines.",
            count,
        )
    if key == (False, "too-many"):
        return t.gettext(
            "Then {part} still needs {mines}, all on cells {clue} touches, more than {clue} "
            "still needs."
        )
    return t.gettext(
        "Then {part} still needs {mines}, all on cells {clue} touches, and {clue} would not "
        "have room for the others it needs ({more})."
    )


def _two_parts(t: gettext.NullTranslations, key: tuple[bool, str], count: int) -> str:
    """Return the words of a count of two numbers that share no undecided cell (see
    :func:`_one_part`)."""
    if key == (True, "safe"):
        return t.ngettext(
            "Then {parts}, which share no undecided cell, still need {mines} between them, all "
            "the mines left to place, so {cells} is safe.",
            "Then {parts}, which share no undecided cell, still need {mines} between them, all "
            "the mines left to place, so {cells} are safe.",
            count,
        )
    if key == (True, "mine"):
        return t.ngettext(
            "Then {parts}, which share no undecided cell, still need {mines} between them, and "
            "the other mines left to place ({more}) fill every other undecided cell, so {cells} "
            "is a mine.",
            "Then {parts}, which share no undecided cell, still need {mines} between them, and "
            "the other mines left to place ({more}) fill every other undecided cell, so {cells} "
            "are mines.",
            count,
        )
    if key == (True, "too-many"):
        return t.gettext(
            "Then {parts}, which share no undecided cell, still need {mines} between them, "
            "more than the {m} left to place."
        )
    if key == (True, "too-few"):
        return t.gettext(
            "Then {parts}, which share no undecided cell, still need {mines} between them, and "
            "the other mines left to place ({more}) have no room."
        )
    if key == (False, "safe"):
        return t.ngettext(
            "Then {parts}, which share no undecided cell, still need {mines} between them, all "
            "on cells {clue} touches, and {clue} needs no more, so {cells} is safe.",
            "Then {parts}, which share no undecided cell, still need {mines} between them, all "
            "on cells {clue} touches, and {clue} needs no more, so {cells} are safe.",
            count,
        )
    if key == (False, "mine"):
        return t.ngettext(
            "Then {parts}, which share no undecided cell, still need {mines} between them, all "
            "on cells {clue} touches, and {clue} needs {more} more, so {cells} is a mine.",
            "Then {parts}, which share no undecided cell, still need {mines} between them, all "
            "on cells {clue} touches, and {clue} needs {more} more, so {cells} are mines.",
            count,
        )
    if key == (False, "too-many"):
        return t.gettext(
            "Then {parts}, which share no undecided cell, still need {mines} between them, all "
            "on cells {clue} touches, more than {clue} still needs."
        )
    return t.gettext(
        "Then {parts}, which share no undecided cell, still need {mines} between them, all on "
        "cells {clue} touches, and {clue} would not have room for the others it needs ({more})."
    )


def flagged_first(board: Board, cells: int, lang: str = "en") -> str:
    """Return the sentence a later step of a play hint starts with: the mines earlier steps
    proved, which it takes as flagged ("Once E3 is flagged as a mine:": a step to take, not a
    flag the player is said to have placed)."""
    t = translations(lang)
    return t.ngettext(
        "Once {cells} is flagged as a mine:", "Once {cells} are flagged as mines:", _listed(cells)
    ).format(cells=_cells(t, board, cells))


def wrong_flags_text(board: Board, cells: int, lang: str = "en") -> str:
    """Return the sentence after a step that proves ``cells`` safe where the player put flags:
    those flags are wrong, and a cell to open is under them."""
    t = translations(lang)
    return t.ngettext(
        "{cells} carries your flag, but it is safe: take the flag off to open it.",
        "{cells} carry your flags, but they are safe: take the flags off to open them.",
        _listed(cells),
    ).format(cells=_cells(t, board, cells))


def guess_text(
    cells: list[tuple[int, int]], probability: str, lang: str = "en", *, mines_proven: bool = False
) -> str:
    """Return the text for a position where no safe cell is forced: the safest ``cells`` to try,
    all of them (a long list names the first few and says how many more). With
    ``mines_proven`` (a play hint whose steps proved mines, then no safe cell) it says that no
    cell can be proven safe, not that nothing is certain."""
    t = translations(lang)
    listed = _names_text([cell_name(x, y) for x, y in cells], t, limit=True)
    if mines_proven:
        return t.ngettext(
            "No cell can be proven safe: a guess is needed. The safest cell is {cells}, with a "
            "mine probability of {p}.",
            "No cell can be proven safe: a guess is needed. The safest cells are {cells}, each "
            "with a mine probability of {p}.",
            len(cells),
        ).format(cells=listed, p=probability)
    return t.ngettext(
        "Nothing is certain here: a guess is needed. The safest cell is {cells}, with a mine "
        "probability of {p}.",
        "Nothing is certain here: a guess is needed. The safest cells are {cells}, each with a "
        "mine probability of {p}.",
        len(cells),
    ).format(cells=listed, p=probability)


def best_guess_text(
    cell: tuple[int, int],
    reason: str,
    probability: str,
    win: str | None,
    lang: str = "en",
    flagged: bool = False,
    why: tuple[str, tuple[int, int] | None] | None = None,
) -> str:
    """Return why the ``best`` strategy would open ``cell`` (mine probability ``probability``):
    ``reason`` is ``fifty-fifty``, ``endgame`` (``win``: its chance to win the game),
    ``region`` (``win``: its chance to clear the region), ``pseudo-fifty-fifty``, ``opening``
    or ``lookahead``; when the player has ``flagged`` the cell (a flag nothing proves), the text
    says to take the flag off. For ``lookahead``, ``why`` is what decided it and the cell that
    survives better (see :func:`mineproof.play.lookahead_why`): only ``survival`` among the
    nearly safest cells says so; without it the text claims only what the pick's weight
    holds. Raises ``ValueError`` for another reason."""
    text = _best_guess_reason(cell, reason, probability, win, lang, why)
    if not flagged:
        return text
    note = translations(lang).gettext(
        "{cell} carries your flag, but nothing proves a mine there: take the flag off to open it."
    )
    return _sentences([text, note.format(cell=cell_name(*cell))])


def _best_guess_reason(
    cell: tuple[int, int],
    reason: str,
    probability: str,
    win: str | None,
    lang: str,
    why: tuple[str, tuple[int, int] | None] | None = None,
) -> str:
    """Return the sentence of :func:`best_guess_text` that gives the reason."""
    t = translations(lang)
    name = cell_name(*cell)
    if reason == "fifty-fifty":
        return t.gettext(
            "The best guess is {cell}: it belongs to a group of cells whose mines lie one of "
            "two ways, each as likely, and no number can ever tell the two ways apart. This "
            "50/50 must be guessed some time, so take it now."
        ).format(cell=name)
    if reason == "endgame":
        return t.gettext(
            "The best guess is {cell}, with a mine probability of {p}: an exact search of the "
            "rest of the game shows that opening it first wins {win} of the time, and no other "
            "cell does better."
        ).format(cell=name, p=probability, win=win)
    if reason == "region":
        return t.gettext(
            "The best guess is {cell}, with a mine probability of {p}: it lies in a closed "
            "region that no cell outside can ever tell anything about, so the region must be "
            "solved on its own some time. An exact search of the region shows that opening "
            "this cell first clears it {win} of the time, and no other cell does better; "
            "solved now, it leaves the rest of the game simpler."
        ).format(cell=name, p=probability, win=win)
    if reason == "pseudo-fifty-fifty":
        return t.gettext(
            "The best guess is {cell}, with a mine probability of {p}: whenever it holds a "
            "mine, the mines near it could as well lie another way, with this cell safe, that "
            "no number can ever tell apart, so that mine would have to be guessed anyway. "
            "Opening it now risks nothing more, and if it is safe its number helps."
        ).format(cell=name, p=probability)
    if reason == "opening":
        return t.gettext(
            "The best guess is {cell}, with a mine probability of {p}: only numbers in corners "
            "are open, and every cell away from them is as likely to hold a mine. A corner has "
            "the fewest neighbours, so it is the most likely to open new ground; played out "
            "over many games, it wins more often than a cell near those numbers."
        ).format(cell=name, p=probability)
    if reason == "lookahead":
        decided, rival = _lookahead_why(why)
        if decided == "survival":
            text = t.gettext(
                "The best guess is {cell}, with a mine probability of {p}: of the nearly safest "
                "cells, it gives the best chance to survive this guess and the move after it."
            )
        elif decided == "long-term":
            text = t.gettext(
                "The best guess is {cell}, with a mine probability of {p}: {rival} gives a "
                "better chance to survive this guess and the move after it, but {cell} is less "
                "likely to leave a 50/50 behind it, one that no number could decide and that "
                "would have to be guessed later."
            )
        elif decided == "progress":
            text = t.gettext(
                "The best guess is {cell}, with a mine probability of {p}: {rival} gives a "
                "slightly better chance to survive this guess and the move after it, but the "
                "number {cell} shows is more likely to prove other cells safe."
            )
        else:
            text = t.gettext(
                "The best guess is {cell}, with a mine probability of {p}: of the cells "
                "weighed, it gives the best chance to survive this guess and the move after "
                "it, counted together with how likely each is to leave a 50/50 behind it."
            )
        return text.format(cell=name, p=probability, rival=rival)
    raise ValueError(f"unknown reason {reason!r}")


def _lookahead_why(why: tuple[str, tuple[int, int] | None] | None) -> tuple[str, str]:
    """Return what decided a pick of the look one move ahead, as the texts word it
    (``survival`` only among the nearly safest cells; ``weighed`` when unknown), and the name
    of the cell that survives better ("" when none)."""
    if why is None:
        return "weighed", ""
    decided, rival = why
    if decided in ("long-term", "progress") and rival is None:
        decided = "weighed"
    return decided, "" if rival is None else cell_name(*rival)


def review_best_guess_text(
    cell: tuple[int, int],
    reason: str,
    probability: str,
    win: str | None,
    lang: str = "en",
    *,
    clicked: bool = False,
    why: tuple[str, tuple[int, int] | None] | None = None,
) -> str:
    """Return, in the past tense of a review, which cell the ``best`` strategy would have
    opened and why (``reason``, ``win`` and ``why`` as for :func:`best_guess_text`): "It was
    the best guess." when the player ``clicked`` it, else "The best guess was {cell}, with a
    mine probability of {p}.", then the reason. Raises ``ValueError`` for an unknown reason."""
    t = translations(lang)
    name = cell_name(*cell)
    if clicked:
        lead = t.gettext("It was the best guess.")
    else:
        lead = t.gettext("The best guess was {cell}, with a mine probability of {p}.").format(
            cell=name, p=probability
        )
    return _sentences([lead, _past_reason(t, name, reason, win, why)])


def _past_reason(
    t: gettext.NullTranslations,
    name: str,
    reason: str,
    win: str | None,
    why: tuple[str, tuple[int, int] | None] | None,
) -> str:
    """Return the reason of :func:`review_best_guess_text`, "it" being the best guess."""
    if reason == "fifty-fifty":
        text = t.gettext(
            "It belonged to a group of cells whose mines lay one of two ways, each as likely, "
            "and no number could ever tell the two ways apart: that 50/50 had to be guessed "
            "some time, so it was best taken then."
        )
    elif reason == "endgame":
        text = t.gettext(
            "An exact search of the rest of the game showed that opening it first won {win} of "
            "the time, and no other cell did better."
        )
    elif reason == "region":
        text = t.gettext(
            "It lay in a closed region that no cell outside could ever tell anything about, so "
            "the region had to be solved on its own some time. An exact search of the region "
            "showed that opening this cell first cleared it {win} of the time, and no other "
            "cell did better; solved then, it left the rest of the game simpler."
        )
    elif reason == "pseudo-fifty-fifty":
        text = t.gettext(
            "Whenever it held a mine, the mines near it could as well have lain another way, "
            "with this cell safe, that no number could ever tell apart, so that mine would have "
            "had to be guessed anyway. Opening it risked nothing more, and if it was safe its "
            "number helped."
        )
    elif reason == "opening":
        text = t.gettext(
            "Only numbers in corners were open, and every cell away from them was as likely to "
            "hold a mine. A corner has the fewest neighbours, so it was the most likely to open "
            "new ground; played out over many games, it wins more often than a cell near those "
            "numbers."
        )
    elif reason == "lookahead":
        decided, rival = _lookahead_why(why)
        if decided == "survival":
            text = t.gettext(
                "Of the nearly safest cells, it gave the best chance to survive that guess and "
                "the move after it."
            )
        elif decided == "long-term":
            text = t.gettext(
                "{rival} gave a better chance to survive that guess and the move after it, but "
                "{cell} was less likely to leave a 50/50 behind it, one that no number could "
                "decide and that would have had to be guessed later."
            )
        elif decided == "progress":
            text = t.gettext(
                "{rival} gave a slightly better chance to survive that guess and the move after "
                "it, but the number {cell} would show was more likely to prove other cells safe."
            )
        else:
            text = t.gettext(
                "Of the cells weighed, it gave the best chance to survive that guess and the "
                "move after it, counted together with how likely each was to leave a 50/50 "
                "behind it."
            )
        return text.format(cell=name, rival=rival)
    else:
        raise ValueError(f"unknown reason {reason!r}")
    return text.format(cell=name, win=win)


def grade_text(solved: bool, level: int, steps: dict[int, int], lang: str = "en") -> str:
    """Return the summary of a logic-only solve: solved or stuck, the hardest level, the steps."""
    t = translations(lang)
    total = sum(steps.values())
    if solved:
        head = t.ngettext(
            "Solved without a guess in {n} step.", "Solved without a guess in {n} steps.", total
        ).format(n=_grouped(t, total))
    else:
        head = t.ngettext(
            "Stuck after {n} step: a guess is needed.",
            "Stuck after {n} steps: a guess is needed.",
            total,
        ).format(n=_grouped(t, total))
    parts = [head]
    if solved and not level:
        parts.append(t.gettext("No technique is needed: the first click clears the board."))
    if level:
        parts.append(
            t.gettext("Hardest technique: level {level}, {name}.").format(
                level=level, name=level_name(level, lang)
            )
        )
        per = [
            t.gettext("level {level}: {n}").format(level=lv, n=_grouped(t, n))
            for lv, n in sorted(steps.items())
        ]
        parts.append(t.gettext("Steps per level: {list}.").format(list=t.gettext(", ").join(per)))
    return _sentences(parts)
