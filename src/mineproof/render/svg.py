"""SVG drawings of positions and analyses in the classic Minesweeper look.

Covered cells are raised grey tiles, opened cells flat and light with their numbers in the
classic colours, flags small red pennants drawn with paths. An analysis adds a heat map (light
green for a safe cell to red for a mine) with each covered cell's probability, and outlines
for the cells an explanation uses (premises, solid blue) and concludes (safe: dashed green with
a green tint; mine: solid red with a red tint and a filled corner), so the three kinds differ
without colour too.

Every element carries class names (``cell covered``, ``cell opened n3``, ``number n3``,
``flag``, ``prob``, ``premise``, ``safe``, ``mine``, ...) and cells a ``data-cell`` attribute
with the board name (``C4``), to style them with CSS or find them in tests. The same input
gives byte-identical output.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TypedDict, Unpack

from mineproof.analysis import Analysis
from mineproof.board import cell_name
from mineproof.position import COVERED, FLAG, Position
from mineproof.render.text import percent

__all__ = [
    "NUMBER_COLOURS",
    "SvgOptions",
    "analysis_svg",
    "heat_colour",
    "lost_tile",
    "position_svg",
]

Cell = tuple[int, int]

NUMBER_COLOURS: dict[int, str] = {
    1: "#0000ff",  # blue
    2: "#008000",  # green
    3: "#ff0000",  # red
    4: "#000080",  # navy
    5: "#800000",  # maroon
    6: "#008080",  # teal
    7: "#000000",  # black
    8: "#808080",  # grey
}
"""The classic colour of each opened number."""

_FACE = "#c0c0c0"  # covered tiles and the frame
_LIGHT = "#ffffff"  # bevel highlight
_SHADOW = "#808080"  # bevel shadow and grid lines
_OPENED = "#e4e4e4"  # opened cells
_GRID = "#a0a0a0"
_LABEL = "#404040"
_PREMISE = "#1f4fd8"
_SAFE = "#138a36"
_MINE = "#d01c1c"
_MINE_CORNER = "#6a0000"
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

_NS = "{http://www.w3.org/2000/svg}"  # the SVG namespace, as xml.etree names tags in it

# Heat map stops: probability, (r, g, b).
_HEAT_STOPS: tuple[tuple[float, tuple[int, int, int]], ...] = (
    (0.0, (150, 222, 140)),
    (0.5, (255, 214, 92)),
    (1.0, (226, 58, 48)),
)

# Characters XML 1.0 forbids, even escaped; they become U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


class SvgOptions(TypedDict, total=False):
    """The keyword arguments :func:`analysis_svg` passes on to :func:`position_svg`."""

    cell_size: int
    premises: Iterable[Cell]
    coordinates: bool
    title: str | None


def heat_colour(p: float) -> str:
    """Return the heat-map colour of mine probability ``p`` as ``#rrggbb``.

    Light green at 0 through yellow at 0.5 to red at 1. Raises ``ValueError`` when ``p`` is
    not a number in 0..1.

    >>> heat_colour(0.0), heat_colour(1.0)
    ('#96de8c', '#e23a30')
    """
    if not 0.0 <= p <= 1.0:  # also rejects NaN
        raise ValueError(f"probability {p!r} is outside 0..1")
    for (p0, c0), (p1, c1) in pairwise(_HEAT_STOPS):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            rgb = (round(a + (b - a) * t) for a, b in zip(c0, c1, strict=True))
            return "#" + "".join(f"{v:02x}" for v in rgb)
    raise AssertionError("unreachable")  # pragma: no cover


def _n(v: float) -> str:
    """Return a coordinate as short, stable text: at most two decimals, no trailing zeros."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _clean(text: str) -> str:
    """Return ``text`` with the characters XML 1.0 cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _el(parent: ET.Element, tag: str, **attrs: str | float) -> ET.Element:
    """Return a new child ``tag`` of ``parent``; ``class_`` is written ``class``, ``_`` as ``-``
    elsewhere, numbers through :func:`_n`."""
    out: dict[str, str] = {}
    for key, value in attrs.items():
        name = "class" if key == "class_" else key.replace("__", ":").replace("_", "-")
        out[name] = value if isinstance(value, str) else _n(value)
    return ET.SubElement(parent, tag, out)


def _cells(board_w: int, board_h: int, cells: Iterable[Cell], what: str) -> list[Cell]:
    """Return the distinct cells sorted by row then column; raises ``ValueError`` for a cell
    outside the board."""
    out = set()
    for x, y in cells:
        if not (0 <= x < board_w and 0 <= y < board_h):
            raise ValueError(f"{what} cell ({x}, {y}) is outside the {board_w}x{board_h} board")
        out.add((x, y))
    return sorted(out, key=lambda c: (c[1], c[0]))


def _check_probabilities(
    position: Position, probabilities: Sequence[Sequence[float | None]]
) -> None:
    """Raise ``ValueError`` unless ``probabilities`` has the board's shape and values in 0..1."""
    w, h = position.width, position.height
    if len(probabilities) != h:
        raise ValueError(f"{len(probabilities)} probability rows given for {h} board rows")
    for y, row in enumerate(probabilities):
        if len(row) != w:
            raise ValueError(f"probability row {y + 1} has {len(row)} values, expected {w}")
        for x, p in enumerate(row):
            if p is not None and not 0.0 <= p <= 1.0:
                raise ValueError(f"probability {p!r} of {cell_name(x, y)} is outside 0..1")


def _defs(svg: ET.Element, s: int, b: int) -> None:
    """Add the shapes every cell reuses: the bevel, the flag, the tick and the cross."""
    defs = _el(svg, "defs")
    bevel = _el(defs, "g", id="bevel")
    _el(bevel, "path", d=f"M0 0H{s}L{s - b} {b}H{b}V{s - b}L0 {s}Z", fill=_LIGHT)
    _el(bevel, "path", d=f"M{s} {s}H0L{b} {s - b}H{s - b}V{b}L{s} 0Z", fill=_SHADOW)

    u = s / 16  # the flag is designed on the classic 16-pixel tile

    def points(*xy: float) -> str:
        pairs = zip(xy[::2], xy[1::2], strict=True)
        return "M" + "L".join(f"{_n(x * u)} {_n(y * u)}" for x, y in pairs) + "Z"

    flag = _el(defs, "g", id="flag")
    _el(flag, "path", d=points(8.5, 2.5, 8.5, 8.5, 3, 5.5), fill="#e00000")
    # The pole and a two-step base, one outline.
    pole = points(
        8.5, 2.5, 9.75, 2.5, 9.75, 10.5, 11.75, 10.5, 11.75, 11.75, 13.75, 11.75,
        13.75, 13.25, 4.5, 13.25, 4.5, 11.75, 6.5, 11.75, 6.5, 10.5, 8.5, 10.5,
    )  # fmt: skip
    _el(flag, "path", d=pole, fill="#000")

    w = max(1.5, s / 10)
    _el(
        defs,
        "path",
        id="tick",
        d=(
            f"M{_n(0.3 * s)} {_n(0.52 * s)}L{_n(0.45 * s)} {_n(0.67 * s)}"
            f"L{_n(0.72 * s)} {_n(0.35 * s)}"
        ),
        fill="none",
        stroke="#0b5d1e",
        stroke_width=w,
        stroke_linecap="round",
        stroke_linejoin="round",
    )
    _el(
        defs,
        "path",
        id="cross",
        d=(
            f"M{_n(0.33 * s)} {_n(0.33 * s)}L{_n(0.67 * s)} {_n(0.67 * s)}"
            f"M{_n(0.67 * s)} {_n(0.33 * s)}L{_n(0.33 * s)} {_n(0.67 * s)}"
        ),
        fill="none",
        stroke="#5a0000",
        stroke_width=w,
        stroke_linecap="round",
    )


def _use(parent: ET.Element, ref: str, x: float, y: float, cls: str, name: str) -> None:
    """Add a ``<use>`` of shape ``ref`` placed at ``(x, y)``."""
    _el(parent, "use", xlink__href=f"#{ref}", x=x, y=y, class_=cls, data_cell=name)


def position_svg(
    position: Position,
    *,
    cell_size: int = 24,
    probabilities: Sequence[Sequence[float | None]] | None = None,
    premises: Iterable[Cell] = (),
    safe: Iterable[Cell] = (),
    mines: Iterable[Cell] = (),
    coordinates: bool = True,
    title: str | None = None,
) -> str:
    """Return a standalone SVG document drawing ``position`` in the classic Minesweeper look.

    ``probabilities`` (rows of mine probabilities, ``None`` for opened cells, as
    :meth:`Analysis.float_probabilities` returns) colours each covered cell from light green
    (0) to red (1) and prints its percentage; a cell that is exactly 0 gets a tick, exactly 1 a
    cross. ``premises`` cells get a solid blue outline, ``safe`` cells a dashed green outline
    and a green tint, ``mines`` cells a solid red outline, a red tint and a filled corner.
    ``coordinates`` adds column letters on top and row numbers on the left; ``title`` becomes
    the document's ``<title>``. Cells are ``(x, y)`` pairs.

    Raises ``ValueError`` for a ``cell_size`` below 8, a highlighted cell outside the board, or
    probabilities of the wrong shape or outside 0..1.

    >>> svg = position_svg(Position.parse("2x1x1\\n1H"))
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), svg.count('class="cell ')
    (True, 2)
    """
    s = cell_size
    if s < 8:
        raise ValueError(f"cell size {s} is below 8")
    w, h = position.width, position.height
    if probabilities is not None:
        _check_probabilities(position, probabilities)
    premise_cells = _cells(w, h, premises, "premise")
    safe_cells = _cells(w, h, safe, "safe")
    mine_cells = _cells(w, h, mines, "mine")

    b = max(2, s // 8)  # bevel and frame thickness
    frame = b + max(1, s // 8)
    left = s + s // 4 if coordinates else 0
    top = s if coordinates else 0
    ox = left + frame
    oy = top + frame
    width = ox + w * s + frame
    height = oy + h * s + frame

    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "xmlns:xlink": "http://www.w3.org/1999/xlink",
            "version": "1.1",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
            "class": "mineproof-board",
        },
    )
    if title is not None:
        ET.SubElement(svg, "title").text = _clean(title)
    _defs(svg, s, b)

    # The window-grey background and the sunken frame around the field.
    _el(svg, "rect", x=0, y=0, width=width, height=height, fill=_FACE, class_="background")
    fx, fy, fw, fh = ox - b, oy - b, w * s + 2 * b, h * s + 2 * b
    _el(
        svg,
        "path",
        d=f"M{fx} {fy}H{fx + fw}L{ox + w * s} {oy}H{ox}V{oy + h * s}L{fx} {fy + fh}Z",
        fill=_SHADOW,
        class_="frame",
    )
    _el(
        svg,
        "path",
        d=f"M{fx + fw} {fy + fh}H{fx}L{ox} {oy + h * s}H{ox + w * s}V{oy}L{fx + fw} {fy}Z",
        fill=_LIGHT,
        class_="frame",
    )

    if coordinates:
        font = max(6, round(s * 0.45))
        labels = _el(
            svg,
            "g",
            class_="coordinates",
            font_family=_FONT,
            font_size=font,
            fill=_LABEL,
            text_anchor="middle",
        )
        for x in range(w):
            name = cell_name(x, 0)[:-1]
            _el(labels, "text", x=ox + x * s + s / 2, y=top - s * 0.3, class_="file").text = name
        for y in range(h):
            _el(
                labels, "text", x=left / 2 + 1, y=oy + y * s + s / 2 + font * 0.36, class_="rank"
            ).text = str(y + 1)

    cells = _el(svg, "g", class_="cells", font_family=_FONT, text_anchor="middle")
    number_font = round(s * 0.7)
    prob_font = max(5, round(s * 0.3))
    for y in range(h):
        for x in range(w):
            code = position.cells[y * w + x]
            px, py = ox + x * s, oy + y * s
            name = cell_name(x, y)
            if code >= 0:
                _el(
                    cells,
                    "rect",
                    x=px,
                    y=py,
                    width=s,
                    height=s,
                    fill=_OPENED,
                    class_=f"cell opened n{code}",
                    data_cell=name,
                )
                # Classic grid: a one-pixel line on each opened cell's top and left edge.
                _el(
                    cells,
                    "path",
                    d=f"M{px} {py + 0.5}h{s}M{px + 0.5} {py}v{s}",
                    stroke=_GRID,
                    class_="grid",
                )
                if code:
                    _el(
                        cells,
                        "text",
                        x=px + s / 2,
                        y=py + s / 2 + number_font * 0.36,
                        fill=NUMBER_COLOURS[code],
                        font_size=number_font,
                        font_weight="bold",
                        class_=f"number n{code}",
                        data_cell=name,
                    ).text = str(code)
                continue
            flagged = code == FLAG
            assert code in (COVERED, FLAG)
            _el(
                cells,
                "rect",
                x=px,
                y=py,
                width=s,
                height=s,
                fill=_FACE,
                class_="cell covered flagged" if flagged else "cell covered",
                data_cell=name,
            )
            _use(cells, "bevel", px, py, "bevel", name)
            if flagged:  # a flag is its own mark: no heat map under it
                _use(cells, "flag", px, py, "flag", name)
                continue
            p = None if probabilities is None else probabilities[y][x]
            if p is None:
                continue
            exact = " exact-safe" if p == 0 else " exact-mine" if p == 1 else ""
            _el(
                cells,
                "rect",
                x=px + b,
                y=py + b,
                width=s - 2 * b,
                height=s - 2 * b,
                fill=heat_colour(p),
                class_="prob" + exact,
                data_cell=name,
                data_p=repr(float(p)),
            )
            if exact:
                mark = "tick" if p == 0 else "cross"
                _use(cells, mark, px, py, f"prob-mark {mark}", name)
            else:
                _el(
                    cells,
                    "text",
                    x=px + s / 2,
                    y=py + s / 2 + prob_font * 0.36,
                    fill="#1a1a1a",
                    font_size=prob_font,
                    class_="prob-text",
                    data_cell=name,
                ).text = percent(p)

    _highlights(svg, s, ox, oy, premise_cells, safe_cells, mine_cells)
    return ET.tostring(svg, encoding="unicode")


def lost_tile(x: float, y: float, size: float, kind: str, name: str) -> ET.Element:
    """Return a ``<g>`` drawing a cell of a lost game as its end shows it, the cell's top left at
    ``(x, y)``, ``size`` wide: ``mine`` (a mine that was covered: an opened cell with a mine),
    ``exploded`` (the mine that was opened: the same on red) or ``wrong-flag`` (a flag with no
    mine under it: the mine crossed out in red), as the GIF's raster draws them.

    Raises ``ValueError`` for another ``kind``.
    """
    if kind not in ("mine", "exploded", "wrong-flag"):
        raise ValueError(f"unknown kind of lost cell {kind!r}")
    s = size
    group = ET.Element(f"{_NS}g", {"class": f"lost {kind}", "data-cell": name})
    fill = "#e00000" if kind == "exploded" else _OPENED
    _el(group, f"{_NS}rect", x=x, y=y, width=s, height=s, fill=fill, class_=kind, data_cell=name)
    _el(group, f"{_NS}path", d=f"M{_n(x)} {_n(y + 0.5)}h{_n(s)}M{_n(x + 0.5)} {_n(y)}v{_n(s)}",
        stroke=_GRID)  # fmt: skip
    cx, cy = x + s / 2, y + s / 2
    spike, diagonal = 0.38 * s, 0.27 * s
    _el(
        group,
        f"{_NS}path",
        d=(
            f"M{_n(cx - spike)} {_n(cy)}H{_n(cx + spike)}M{_n(cx)} {_n(cy - spike)}"
            f"V{_n(cy + spike)}M{_n(cx - diagonal)} {_n(cy - diagonal)}"
            f"L{_n(cx + diagonal)} {_n(cy + diagonal)}M{_n(cx + diagonal)} {_n(cy - diagonal)}"
            f"L{_n(cx - diagonal)} {_n(cy + diagonal)}"
        ),
        stroke="#000",
        stroke_width=max(1.0, s / 14),
    )
    _el(group, f"{_NS}circle", cx=cx, cy=cy, r=0.27 * s, fill="#000")
    _el(group, f"{_NS}rect", x=cx - 0.14 * s, y=cy - 0.14 * s, width=0.11 * s, height=0.11 * s,
        fill="#fff")  # fmt: skip
    if kind == "wrong-flag":
        a, b = 0.2 * s, 0.8 * s
        _el(
            group,
            f"{_NS}path",
            d=f"M{_n(x + a)} {_n(y + a)}L{_n(x + b)} {_n(y + b)}M{_n(x + b)} {_n(y + a)}"
            f"L{_n(x + a)} {_n(y + b)}",
            stroke="#e00000",
            stroke_width=max(1.5, s / 8),
            stroke_linecap="round",
        )
    return group


def _highlights(
    svg: ET.Element,
    s: int,
    ox: int,
    oy: int,
    premises: list[Cell],
    safe: list[Cell],
    mines: list[Cell],
) -> None:
    """Add the outlines of premises and conclusions on top of the cells."""
    if not (premises or safe or mines):
        return
    layer = _el(svg, "g", class_="highlights", fill="none")
    t = max(2, s // 8)  # outline width
    half = t / 2
    for kind, cells in (("safe", safe), ("mine", mines), ("premise", premises)):
        colour = {"premise": _PREMISE, "safe": _SAFE, "mine": _MINE}[kind]
        for x, y in cells:
            px, py = ox + x * s, oy + y * s
            name = cell_name(x, y)
            attrs: dict[str, str | float] = {
                "x": px + half,
                "y": py + half,
                "width": s - t,
                "height": s - t,
                "stroke": colour,
                "stroke_width": t,
                "class_": kind,
                "data_cell": name,
            }
            if kind == "safe":
                attrs |= {"fill": colour, "fill_opacity": "0.22"}
                attrs["stroke_dasharray"] = f"{_n(t * 1.5)} {_n(t)}"
            elif kind == "mine":
                attrs |= {"fill": colour, "fill_opacity": "0.22"}
            _el(layer, "rect", **attrs)
            if kind == "mine":
                c = round(s * 0.4)
                _el(
                    layer,
                    "path",
                    d=f"M{px + s - c} {py}H{px + s}V{py + c}Z",
                    fill=_MINE_CORNER,
                    class_="mine-corner",
                    data_cell=name,
                )


def analysis_svg(analysis: Analysis, **kwargs: Unpack[SvgOptions]) -> str:
    """Return :func:`position_svg` of the analysed position with the analysis probabilities
    as a heat map and its safe and mine cells as conclusions.

    Flags the analysis proves are mines are not highlighted again (they are no news); flags it
    proves safe (wrong flags) are highlighted as safe.

    The keyword arguments (``cell_size``, ``premises``, ``coordinates``, ``title``) are passed
    on to :func:`position_svg`.
    """
    return position_svg(
        analysis.position,
        probabilities=analysis.float_probabilities(),
        safe=analysis.safe_cells,
        mines=[c for c in analysis.mine_cells if analysis.position.at(*c) != FLAG],
        **kwargs,
    )
