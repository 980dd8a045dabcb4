"""The SVG drawings: valid XML, one rect per cell, numbers, flags, highlights, heat map."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mineproof.render
from mineproof.analysis import analyze
from mineproof.board import Board, Layout
from mineproof.position import COVERED, FLAG, Position
from mineproof.render.svg import NUMBER_COLOURS, analysis_svg, heat_colour, position_svg

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"

SMALL = Position.parse(
    """6x3x3
    1F1HHH
    1121HH
    HHHHHH"""
)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def with_class(root: ET.Element, *classes: str, tag: str | None = None) -> list[ET.Element]:
    """Return the elements (of ``tag`` if given) whose class attribute has all ``classes``."""
    want = set(classes)
    return [
        el
        for el in root.iter(None if tag is None else f"{NS}{tag}")
        if want <= set(el.get("class", "").split())
    ]


def at(elements: list[ET.Element], name: str) -> list[ET.Element]:
    return [el for el in elements if el.get("data-cell") == name]


def position_of(layout: Layout, opened: int, flags: int = 0) -> Position:
    numbers = layout.numbers()
    cells = tuple(
        FLAG if flags >> i & 1 else numbers[i] if opened >> i & 1 else COVERED
        for i in range(layout.board.size)
    )
    return Position(layout.board, cells, layout.mine_count)


def expert_position(seed: int = 5) -> Position:
    rng = random.Random(seed)
    board = Board(30, 16)
    layout = Layout.random(board, 99, rng, start=(3, 3), rule="opening")
    numbers = layout.numbers()
    # Open everything the flood fill from (3, 3) opens, plus a few random safe cells.
    opened = 0
    todo = [board.index(3, 3)]
    while todo:
        i = todo.pop()
        if opened >> i & 1:
            continue
        opened |= 1 << i
        if numbers[i] == 0:
            todo.extend(board.neighbours(i))
    for i in rng.sample(range(board.size), 60):
        if numbers[i] >= 0:
            opened |= 1 << i
    flags = sum(1 << i for i in rng.sample(range(board.size), 400) if numbers[i] < 0)
    return position_of(layout, opened, flags & ~opened)


def test_document_header_and_size() -> None:
    svg = position_svg(SMALL, cell_size=20, coordinates=False)
    root = parse(svg)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    width, height = int(root.get("width", "")), int(root.get("height", ""))
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert width > 6 * 20 and height > 3 * 20
    # Coordinates take room on the top and the left.
    wide = parse(position_svg(SMALL, cell_size=20))
    assert int(wide.get("width", "")) > width and int(wide.get("height", "")) > height


def test_one_rect_per_cell() -> None:
    root = parse(position_svg(SMALL))
    cells = with_class(root, "cell", tag="rect")
    assert len(cells) == 18
    assert len(with_class(root, "cell", "covered")) == 12
    assert len(with_class(root, "cell", "opened")) == 6
    assert [el.get("data-cell") for el in with_class(root, "cell", "opened", "n2")] == ["C2"]
    assert len({(el.get("x"), el.get("y")) for el in cells}) == 18
    sizes = {(el.get("width"), el.get("height")) for el in cells}
    assert sizes == {("24", "24")}


def test_numbers_in_classic_colours() -> None:
    # Numbers above 3 do not fit the top row's 5 neighbours: put them in the middle row.
    text = "\n".join(["5x3x8", "HHHHH", "12345", "HHHHH"])
    position = Position.parse(text.replace("45", "4H"))
    root = parse(position_svg(position))
    numbers = with_class(root, "number", tag="text")
    assert [(el.text, el.get("fill")) for el in numbers] == [
        (str(n), NUMBER_COLOURS[n]) for n in (1, 2, 3, 4)
    ]
    assert at(numbers, "C2")[0].get("class") == "number n3"
    assert NUMBER_COLOURS[1] == "#0000ff" and NUMBER_COLOURS[8] == "#808080"
    big = parse(position_svg(Position.parse("3x3x8\nHHH\nH8H\nHHH")))
    assert [(el.text, el.get("fill")) for el in with_class(big, "number")] == [("8", "#808080")]


def test_opened_zero_has_no_text_and_flags_are_paths() -> None:
    zero = parse(position_svg(Position.parse("3x1x1\n01H")))
    assert [el.get("data-cell") for el in with_class(zero, "cell", "opened", "n0")] == ["A1"]
    assert [el.text for el in with_class(zero, "number")] == ["1"]
    root = parse(position_svg(SMALL))
    flags = with_class(root, "flag", tag="use")
    assert [el.get("data-cell") for el in flags] == ["B1"]
    assert flags[0].get(XLINK) == "#flag"
    (shape,) = (el for el in root.iter(f"{NS}g") if el.get("id") == "flag")
    assert {child.tag for child in shape} == {f"{NS}path"}
    assert at(with_class(root, "cell", "covered", "flagged"), "B1")
    assert not list(root.iter(f"{NS}image"))


def test_coordinates() -> None:
    root = parse(position_svg(Position.parse("30x16x1\n" + "\n".join(["H" * 30] * 16))))
    files = [el.text for el in with_class(root, "file", tag="text")]
    ranks = [el.text for el in with_class(root, "rank", tag="text")]
    assert files[:3] == ["A", "B", "C"] and files[25:] == ["Z", "AA", "AB", "AC", "AD"]
    assert ranks == [str(n) for n in range(1, 17)]
    bare = parse(position_svg(SMALL, coordinates=False))
    assert not with_class(bare, "file") and not with_class(bare, "rank")


def test_highlights_of_given_cells() -> None:
    root = parse(
        position_svg(SMALL, premises=[(0, 0), (2, 1), (0, 0)], safe=[(3, 0)], mines=[(3, 2)])
    )
    premises = with_class(root, "premise")
    assert [el.get("data-cell") for el in premises] == ["A1", "C2"]
    (safe,) = with_class(root, "safe")
    (mine,) = with_class(root, "mine")
    assert safe.get("data-cell") == "D1" and mine.get("data-cell") == "D3"
    # Each outline lies inside its cell.
    for el in [*premises, safe, mine]:
        (cell,) = at(with_class(root, "cell", tag="rect"), el.get("data-cell", ""))
        cx, cy, size = (float(cell.get(k, "")) for k in ("x", "y", "width"))
        x, y, w = (float(el.get(k, "")) for k in ("x", "y", "width"))
        assert cx <= x and cy <= y and x + w <= cx + size and y + w <= cy + size
    # Told apart without colour: safe is dashed, mine has a filled corner, premise neither.
    assert safe.get("stroke-dasharray")
    assert not mine.get("stroke-dasharray") and not premises[0].get("stroke-dasharray")
    assert [el.get("data-cell") for el in with_class(root, "mine-corner")] == ["D3"]
    assert len({premises[0].get("stroke"), safe.get("stroke"), mine.get("stroke")}) == 3
    assert premises[0].get("fill") in (None, "none")
    assert mine.get("fill") not in (None, "none")


def test_highlight_outside_the_board_is_an_error() -> None:
    with pytest.raises(ValueError, match="outside"):
        position_svg(SMALL, safe=[(6, 0)])
    with pytest.raises(ValueError, match="outside"):
        position_svg(SMALL, premises=[(0, -1)])


def test_heat_map() -> None:
    probs: list[list[float | None]] = [
        [None, 0.5, None, 0.0, 1.0, 0.001],
        [None, None, None, None, 0.999, 0.25],
        [0.0, 0.0, 0.0, 1.0, 0.0, 0.3333],
    ]
    root = parse(position_svg(SMALL, probabilities=probs))
    heat = with_class(root, "prob", tag="rect")
    # Every covered cell but the flag (B1) gets a heat rect.
    assert len(heat) == 11
    assert not at(heat, "B1")
    (zero,) = at(heat, "D1")
    (one,) = at(heat, "E1")
    assert zero.get("fill") == heat_colour(0.0) == "#96de8c"
    assert one.get("fill") == heat_colour(1.0) == "#e23a30"
    assert "exact-safe" in (zero.get("class") or "") and "exact-mine" in (one.get("class") or "")
    marks = with_class(root, "prob-mark", tag="use")
    assert {(el.get("data-cell"), el.get(XLINK)) for el in marks} >= {
        ("D1", "#tick"),
        ("E1", "#cross"),
    }
    labels = {el.get("data-cell"): el.text for el in with_class(root, "prob-text", tag="text")}
    assert labels == {"F1": "<1%", "E2": ">99%", "F2": "25%", "F3": "33%"}
    # Green-ish at 0, red-ish at 1, in between along the way.
    assert heat_colour(0.0)[3:5] > heat_colour(0.0)[1:3]
    assert heat_colour(1.0)[1:3] > heat_colour(1.0)[3:5]
    assert heat_colour(0.5) not in (heat_colour(0.0), heat_colour(1.0))


def test_bad_probabilities() -> None:
    with pytest.raises(ValueError, match="rows"):
        position_svg(SMALL, probabilities=[[None] * 6])
    with pytest.raises(ValueError, match="values"):
        position_svg(SMALL, probabilities=[[None] * 6, [None] * 5, [None] * 6])
    with pytest.raises(ValueError, match=r"outside 0\.\.1"):
        position_svg(SMALL, probabilities=[[None] * 6, [None] * 6, [None] * 5 + [1.5]])
    with pytest.raises(ValueError, match=r"outside 0\.\.1"):
        position_svg(SMALL, probabilities=[[None] * 6, [None] * 6, [None] * 5 + [float("nan")]])
    with pytest.raises(ValueError, match="cell size"):
        position_svg(SMALL, cell_size=4)


def test_analysis_svg() -> None:
    analysis = analyze(SMALL)
    root = parse(analysis_svg(analysis, premises=[(0, 0)], title="small"))
    safe = sorted(el.get("data-cell", "") for el in with_class(root, "safe"))
    mines = [el.get("data-cell") for el in with_class(root, "mine")]
    assert safe == sorted(["D1", "E1", "E2", "A3", "B3", "C3", "E3"])
    assert mines == ["D3"]  # B1 is a proven flag: no news, not highlighted
    assert [el.get("data-cell") for el in with_class(root, "premise")] == ["A1"]
    assert len(with_class(root, "prob", tag="rect")) == 11
    assert analysis_svg(analysis) == position_svg(
        SMALL,
        probabilities=analysis.float_probabilities(),
        safe=analysis.safe_cells,
        mines=[(3, 2)],
    )


def test_wrong_flag_is_highlighted_safe() -> None:
    analysis = analyze(Position.parse("2x1x0\nF0"))
    root = parse(analysis_svg(analysis))
    assert [el.get("data-cell") for el in with_class(root, "safe")] == ["A1"]


def test_title_is_escaped() -> None:
    title = "Expert <b>&amp;</b> \"quoted\" 'x' \x01 ünïcode ]]>"
    root = parse(position_svg(SMALL, title=title))
    (element,) = root.iter(f"{NS}title")
    assert element.text == title.replace("\x01", "\ufffd")
    assert root[0] is element


def test_one_by_one() -> None:
    for text in ("1x1x0\nH", "1x1x1\nF", "1x1x0\n0", "1x1x1\nH"):
        position = Position.parse(text)
        root = parse(position_svg(position))
        assert len(with_class(root, "cell", tag="rect")) == 1
        assert [el.text for el in with_class(root, "file")] == ["A"]
        assert [el.text for el in with_class(root, "rank")] == ["1"]
        if "F" not in text:
            analysed = parse(analysis_svg(analyze(position), coordinates=False))
            assert len(with_class(analysed, "cell", tag="rect")) == 1


def test_expert_board() -> None:
    position = expert_position()
    analysis = analyze(position)
    svg = analysis_svg(analysis, title="expert")
    root = parse(svg)
    assert len(with_class(root, "cell", tag="rect")) == 480
    assert len(with_class(root, "cell", "covered")) == position.covered_count
    assert len(with_class(root, "flag")) == position.flag_count
    assert len(with_class(root, "number")) == position.number_mask.bit_count()
    unflagged = position.covered_count - position.flag_count
    assert len(with_class(root, "prob", tag="rect")) == unflagged
    assert root.get("width") == str(int(root.get("width", "0")))
    assert svg == analysis_svg(analyze(position), title="expert")


@settings(max_examples=30, deadline=None)
@given(
    w=st.integers(1, 12),
    h=st.integers(1, 12),
    seed=st.integers(0, 2**32),
    size=st.sampled_from([8, 16, 24, 33]),
)
def test_random_positions_are_valid_and_stable(w: int, h: int, seed: int, size: int) -> None:
    rng = random.Random(seed)
    board = Board(w, h)
    layout = Layout.random(board, rng.randint(0, board.size), rng)
    opened = sum(
        1 << i for i in range(board.size) if layout.numbers()[i] >= 0 and rng.random() < 0.5
    )
    flags = sum(1 << i for i in range(board.size) if layout.is_mine(i) and rng.random() < 0.3)
    position = position_of(layout, opened, flags)
    probs = [
        [None if c >= 0 else rng.random() for c in position.cells[y * w : y * w + w]]
        for y in range(h)
    ]
    svg = position_svg(position, cell_size=size, probabilities=probs, title=f"{w}x{h}")
    root = parse(svg)
    assert len(with_class(root, "cell", tag="rect")) == w * h
    assert svg == position_svg(position, cell_size=size, probabilities=probs, title=f"{w}x{h}")


def test_exported_from_render() -> None:
    assert mineproof.render.position_svg is position_svg
    assert mineproof.render.analysis_svg is analysis_svg
    assert {"analysis_grid", "percent", "position_svg", "analysis_svg"} <= set(
        mineproof.render.__all__
    )
