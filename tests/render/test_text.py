"""The text drawing of an analysis: every figure stands apart from its neighbours."""

from __future__ import annotations

from mineproof.analysis import analyze
from mineproof.position import Position
from mineproof.render.text import analysis_grid, percent


def test_every_figure_has_a_space_before_it() -> None:
    # A 0 in the corner of a 16x16 board with 251 mines: its three neighbours are safe and
    # every other covered cell is a mine in all but a few arrangements (">99%", four
    # characters, which four columns would run together).
    text = "16x16x251\n0" + "H" * 15 + "\n" + "\n".join(["H" * 16] * 15)
    grid = analysis_grid(analyze(Position.parse(text)))
    rows = grid.splitlines()
    assert rows[0].split() == [chr(ord("A") + x) for x in range(16)]
    first = rows[1].split()
    assert first[:3] == ["1", ".", "S"] and first[3:] == [">99%"] * 14
    # Every row is as wide as the header, each cell right-aligned in five columns.
    assert {len(row) for row in rows} == {4 + 5 * 16}


def test_a_board_of_short_figures_keeps_four_columns() -> None:
    grid = analysis_grid(analyze(Position.parse("4x1x1\nH1HH")))
    assert grid.splitlines() == ["       A   B   C   D", "   1 50%   1 50%   S"]


def test_a_percentage_never_rounds_a_possibility_away() -> None:
    """On the rounding edge too: halves round up, as on the web page (0.5 % is "1%", 1/8 is
    "13%", which Python's formatting rounded to even, "12%", beside the page's 13), and 99.5 %
    would be "100"."""
    assert [percent(p) for p in (0.0, 0.004, 1 / 200, 1 / 8, 0.994, 199 / 200, 1.0)] == [
        "0%",
        "<1%",
        "1%",
        "13%",
        "99%",
        ">99%",
        "100%",
    ]
    assert [percent(p, 1) for p in (0.00049, 0.0005, 0.9995, 0.99949)] == [
        "<0.1%",
        "0.1%",
        ">99.9%",
        "99.9%",
    ]
    analysis = analyze(Position.parse("20x10x1\n" + ("H" * 20 + "\n") * 10))
    assert set(analysis_grid(analysis).split("\n")[1].split()[1:]) == {"1%"}
