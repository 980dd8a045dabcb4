"""Explanations: every catalog complete and compiled, every level rendered in every language."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from mineproof.errors import MineproofError
from mineproof.explain import LANGUAGES, explain, grade_text, guess_text, level_name
from mineproof.explain.text import LOCALES
from mineproof.logic import deductions
from mineproof.position import Position

PLACEHOLDER = re.compile(r"\{(\w+)\}")

# One position per rule, with what the English text must say.
EXAMPLES = {
    "single-clue": ("4x3x2\n012H\n01HH\n011H", "needs 1 mine and has just 1 covered cell"),
    "two-clues": ("4x2x2\nHHHH\n1221", "also touches those cells and needs 2 in all"),
    "elimination": ("4x3x3\n01HH\n13HH\nHHHH", "What is left says: C3 = 1."),
    "case-analysis": ("5x5x4\n0001H\n1112H\nHH1HH\nH221H\nHHHHH", "there are 4 ways"),
    "mine-total": ("4x3x2\n2HHH\nHHHH\nHHHH", "Exactly 2 mines are left on the board."),
    "all-mines-found": ("4x3x3\n02FH\n03FH\n02FH", "All 3 mines have been found."),
    "only-mines-left": ("2x2x4\nHH\nHH", "Only 4 mines are left, and only 4 covered cells."),
}


def catalog(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / "mineproof.po"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_catalog_complete_and_placeholders_kept(lang: str) -> None:
    template = read_po(io.BytesIO((LOCALES / "mineproof.pot").read_bytes()))
    with catalog(lang).open("rb") as f:
        po = read_po(f)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    for message in po:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        ids.discard(key)
        assert not message.fuzzy, (lang, key)
        raw_strings = message.string if isinstance(message.string, tuple) else (message.string,)
        raw_sources = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = [str(text) for text in raw_strings]
        sources = [str(text) for text in raw_sources]
        wanted = set(PLACEHOLDER.findall(" ".join(sources)))
        for text in strings:
            assert text, f"{lang}: no translation for {key!r}"
            # Plural forms may leave out the count where the form says it ({n} in "one cell").
            used = set(PLACEHOLDER.findall(text))
            assert used <= wanted, (lang, key, used - wanted)
            assert wanted - used <= {"k", "n", "flags", "left", "total", "lo"}, (lang, key)
    assert not ids, f"{lang}: missing {sorted(ids)}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_compiled_catalog_is_current(lang: str) -> None:
    with catalog(lang).open("rb") as f:
        po = read_po(f)
    out = io.BytesIO()
    write_mo(out, po)
    mo = catalog(lang).with_suffix(".mo")
    assert mo.read_bytes() == out.getvalue(), f"run `make catalogs` to compile {lang}"


@pytest.mark.parametrize("rule", sorted(EXAMPLES))
def test_english_text(rule: str) -> None:
    text, needle = EXAMPLES[rule]
    found = [d for d in deductions(Position.parse(text), trust_flags=True) if d.rule == rule]
    assert found
    assert needle in explain(found[0], "en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rule", sorted(EXAMPLES))
def test_every_rule_renders_in_every_language(rule: str, lang: str) -> None:
    text, _ = EXAMPLES[rule]
    d = next(d for d in deductions(Position.parse(text), trust_flags=True) if d.rule == rule)
    out = explain(d, lang)
    assert "{" not in out and "}" not in out
    # Conclusions name their cells the way the board shows them, in every language.
    for x, y in d.safe_cells + d.mine_cells:
        assert f"{chr(ord('A') + x)}{y + 1}" in out
    if lang != "en":
        assert out != explain(d, "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_summaries_render(lang: str) -> None:
    for level in range(1, 6):
        assert level_name(level, lang)
    assert "{" not in grade_text(True, 3, {1: 20, 2: 4, 3: 1}, lang)
    assert "{" not in grade_text(False, 0, {}, lang)
    assert "12%" in guess_text([(0, 0), (2, 3)], "12%", lang)


def test_unknown_language() -> None:
    with pytest.raises(MineproofError, match="unknown language"):
        level_name(1, "xx")


# The mine total leaves none for the cells no number needs: five safe cells and one mine,
# proven together (from an intermediate solve).
BOTH = Position.parse(
    "16x16x40\nF2001FFF22110111\nF3111233F2F101F1\n12F1111113220111\n12222F1001F10000\n"
    "2F21F21001110000\n3F42210000000000\n3F4F211011100111\nHHH33F101F1001F1\n"
    "HHH3F21012210111\nH22F320001F10011\nH112F1000122101F\nH2111100002F4221\n"
    "HF210111002FFF21\nH3F101F1001244F1\nHH32111100123F21\nHH2F1000001FF210"
)


def test_safe_cells_and_mines_proven_together_end_in_one_sentence() -> None:
    found = [d for d in deductions(BOTH, trust_flags=True) if d.safe and d.mine]
    assert found
    for d in found:
        text = explain(d)
        assert text.count("So ") == 1, text
        assert re.search(
            r"So [A-P0-9, and]+ (is|are) safe and [A-P0-9, and]+ (is a mine|are mines)\.$", text
        ), text
    # Every language joins the two clauses in one sentence with the cells of both.
    for lang in LANGUAGES:
        text = explain(found[0], lang)
        sentences = [s for s in re.split(r"(?<=[.。])\s*", text.strip()) if s]
        last = sentences[-1]
        for x, y in found[0].safe_cells + found[0].mine_cells:
            assert f"{chr(65 + x)}{y + 1}" in last, (lang, last)


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_no_space_after_a_cjk_full_stop(lang: str) -> None:
    text = explain(deductions(BOTH, trust_flags=True)[0], lang)
    assert "\u3002" in text.rstrip("\u3002")
    assert "\u3002 " not in text
    assert "\u3002 " not in grade_text(True, 3, {1: 5, 3: 1}, lang)


def test_a_list_of_21_cells_takes_the_plural_in_russian() -> None:
    # 21 mines left among 21 covered cells: every one is a mine.
    position = Position.parse("7x3x21\nHHHHHHH\nHHHHHHH\nHHHHHHH")
    found = deductions(position)
    assert found and found[0].mine.bit_count() == 21
    text = explain(found[0], "ru")
    assert text.endswith("— мины."), text


def test_spanish_says_e_before_a_cell_in_column_i() -> None:
    from mineproof.explain.text import _join, translations

    es = translations("es")
    assert _join(es, ["H3", "I3"]) == "H3 e I3"
    assert _join(es, ["I3", "J3"]) == "I3 y J3"
    assert _join(translations("fr"), ["H3", "I3"]) == "H3 et I3"
    assert _join(translations("en"), ["H3", "I3"]) == "H3 and I3"
