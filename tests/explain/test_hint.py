"""The hint of a position too big to count exactly: one or two numbers may still prove a cell."""

from __future__ import annotations

import random

import pytest

from mineproof.analysis import analyze
from mineproof.errors import TooComplexError
from mineproof.explain import hint
from mineproof.explain.text import GROUP_SEPARATORS, grouped_text
from mineproof.position import COVERED, FLAG, Position

SIDE = 100


def _scattered(seed: int, flags: int = 0) -> tuple[Position, set[tuple[int, int]]]:
    """Return a 100x100 position with 1,600 mines where about a third of the safe cells show
    their numbers, scattered (far too many independent numbers to count exactly together),
    with ``flags`` flags on random safe covered cells, and its mines."""
    rng = random.Random(seed)
    cells = [(x, y) for y in range(SIDE) for x in range(SIDE)]
    mines = set(rng.sample(cells, 1600))

    def number(x: int, y: int) -> int:
        return sum((x + a, y + b) in mines for a in (-1, 0, 1) for b in (-1, 0, 1))

    codes = [
        number(x, y) if (x, y) not in mines and rng.random() < 0.35 else COVERED for x, y in cells
    ]
    wrong = rng.sample(
        [i for i, (x, y) in enumerate(cells) if codes[i] == COVERED and (x, y) not in mines], flags
    )
    for i in wrong:
        codes[i] = FLAG
    return Position.parse(_text(codes, len(mines))), mines


def _text(codes: list[int], mines: int) -> str:
    rows = []
    for y in range(SIDE):
        row = codes[y * SIDE : (y + 1) * SIDE]
        rows.append("".join("H" if c == COVERED else "F" if c == FLAG else str(c) for c in row))
    return "\n".join([f"{SIDE}x{SIDE}x{mines}", *rows])


@pytest.mark.parametrize(("open_", "flags"), [(False, 0), (True, 0), (False, 40)])
def test_a_position_too_big_to_count_gets_a_one_or_two_clue_hint(open_: bool, flags: int) -> None:
    position, mines = _scattered(1, flags)
    with pytest.raises(TooComplexError):
        analyze(position)
    found = hint(position, open=open_)
    assert found.steps and found.analysis is None
    (step,) = found.steps
    assert step.level in (1, 2)
    named = found.to_json()
    # Checked against the layout, not the ladder: the cells it proves are what it says they
    # are, and each number it cites is the count of mines around it. (With flags, all on safe
    # cells: a hint that took them as mines would name wrong cells.)
    assert named["safe"] or named["mine"]
    assert all(tuple(c) not in mines for c in named["safe"])
    assert all(tuple(c) in mines for c in named["mine"])
    for x, y in named["premises"]:
        around = sum((x + a, y + b) in mines for a in (-1, 0, 1) for b in (-1, 0, 1))
        assert position.cells[y * SIDE + x] == around
    if open_:
        assert named["safe"]  # a cell to open, where one or two numbers prove one


@pytest.mark.parametrize(
    ("lang", "more"),
    [("en", "9,994"), ("de", "9.994"), ("fr", "9\u202f994"), ("ru", "9\u00a0994"), ("es", "9994")],
)
def test_a_long_list_of_cells_counts_the_rest_as_the_language_writes_numbers(
    lang: str, more: str
) -> None:
    """An all-covered 100x100 board: every cell is as safe as the others; the hint lists the
    first few and counts the rest, its thousands grouped as the language groups them (Spanish
    only from five digits on)."""
    position = Position.parse("100x100x1000\n" + ("H" * 100 + "\n") * 100)
    text = hint(position, lang).text
    assert f" {more} " in text, text


def test_grouped_text_follows_each_language() -> None:
    written = {lang: grouped_text(1_234_567, lang) for lang in GROUP_SEPARATORS}
    assert written == {
        "en": "1,234,567",
        "ko": "1,234,567",
        "ja": "1,234,567",
        "zh": "1,234,567",
        "es": "1.234.567",
        "fr": "1\u202f234\u202f567",
        "de": "1.234.567",
        "pt": "1.234.567",
        "ru": "1\u00a0234\u00a0567",
    }
    assert (grouped_text(9_999, "es"), grouped_text(10_000, "es")) == ("9999", "10.000")
    assert (grouped_text(-1_000), grouped_text(999, "fr")) == ("-1,000", "999")


@pytest.mark.parametrize(
    ("grid", "open_", "said"),
    [
        # By hand: the 0 at A1 makes B1 safe, which the player flagged.
        ("4x3x4\n0FHH\n13HH\n1HF2", False, "B1 carries your flag"),
        # In play the hint goes through the mines C1, C2 and B3 to C3, under a flag.
        ("4x3x4\n02HH\n13HH\n1HF2", True, "C3 carries your flag"),
        # Flags on proven mines (C1, C2) are right: nothing to take off.
        ("4x3x4\n02FH\n13FH\n1HH2", True, None),
    ],
)
def test_a_step_proving_a_flagged_cell_safe_says_to_take_the_flag_off(
    grid: str, open_: bool, said: str | None
) -> None:
    """A hint that leads to a cell under the player's wrong flag said only that the cell is
    safe: clicking it did nothing, and nothing said why."""
    position = Position.parse(grid)
    found = hint(position, open=open_)
    last = found.texts[-1]
    if said is None:
        assert "your flag" not in " ".join(found.texts)
        return
    assert last.endswith(f"{said}, but it is safe: take the flag off to open it.")
    cell = said.split()[0]
    assert cell in [f"{chr(65 + x)}{y + 1}" for x, y in found.steps[-1].safe_cells]
    assert all("your flag" not in text for text in found.texts[:-1])
    # Every language says it, naming the cell.
    for lang in ("ko", "ja", "zh", "es", "fr", "de", "pt", "ru"):
        text = hint(position, lang, open=open_).texts[-1]
        plain = hint(Position.parse(grid.replace("F", "H")), lang, open=open_).texts[-1]
        assert text.startswith(plain) and cell in text[len(plain) :]
