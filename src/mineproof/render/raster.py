"""Pixel drawings of boards in the classic Minesweeper look, for GIF animations.

A :class:`BoardRaster` turns the cells of a board into palette indices (:data:`PALETTE`), each
cell a square of ``16 * scale`` pixels: covered cells raised grey tiles, opened cells flat with
their numbers in the classic colours (drawn from a small built-in bitmap font), flags red
pennants, mines black, the mine that ended a game on red, a wrong flag a crossed-out mine. A
cell may be outlined, as :func:`mineproof.render.svg.position_svg` outlines them: ``safe`` green,
``mine`` red, ``guess`` amber and ``mistake`` purple.

The tiles are designed as 16 x 16 text pictures below, one character a pixel. The raster keeps
its pixels between calls and redraws only the cells whose look changed, so drawing the states of
a long game one after another costs little more than the cells that changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from mineproof.position import COVERED, FLAG
from mineproof.render.gif import Rgb
from mineproof.render.svg import NUMBER_COLOURS

__all__ = [
    "EXPLODED",
    "MINE",
    "OUTLINES",
    "PALETTE",
    "TILE",
    "WRONG_FLAG",
    "BoardRaster",
    "Highlight",
    "colour_index",
]

MINE = -3
"""Cell code of a mine shown at the end of a lost game (beside ``COVERED`` and ``FLAG``)."""
EXPLODED = -4
"""Cell code of the mine that was opened and lost the game."""
WRONG_FLAG = -5
"""Cell code of a flag on a cell without a mine, shown at the end of a lost game."""

TILE = 16
"""The side of a cell in pixels at scale 1."""

Highlight = Literal["safe", "mine", "guess", "mistake"]

# One character a colour in the tile pictures; the digits' colour is NUMBER_COLOURS.
_COLOURS: dict[str, str] = {
    "F": "#c0c0c0",  # face: covered tiles
    "W": "#ffffff",  # bevel highlight
    "S": "#808080",  # bevel shadow
    ".": "#e4e4e4",  # opened cells
    "g": "#a0a0a0",  # grid lines
    "K": "#000000",  # mines, the flag's pole
    "R": "#e00000",  # the flag, the exploded cell, the cross over a wrong flag
    "w": "#ffffff",  # the shine on a mine
}
_OUTLINES: dict[Highlight, str] = {
    "safe": "#138a36",
    "mine": "#d01c1c",
    "guess": "#e08a00",
    "mistake": "#8e24aa",
}
OUTLINES: dict[Highlight, str] = dict(_OUTLINES)
"""The colour of each kind of outline (``#rrggbb``), for drawings that match the raster's."""


def _rgb(hex_colour: str) -> Rgb:
    """Return ``#rrggbb`` as a tuple of three ints."""
    v = int(hex_colour[1:], 16)
    return v >> 16, v >> 8 & 255, v & 255


PALETTE: tuple[Rgb, ...] = tuple(
    dict.fromkeys(
        _rgb(c) for c in [*_COLOURS.values(), *NUMBER_COLOURS.values(), *_OUTLINES.values()]
    )
)
"""The colours a raster uses; its pixels are indices into this palette."""


def colour_index(hex_colour: str) -> int:
    """Return the index of ``#rrggbb`` in :data:`PALETTE`; raises ``ValueError`` when it is not
    one of the raster's colours.

    >>> PALETTE[colour_index("#c0c0c0")]
    (192, 192, 192)
    """
    return PALETTE.index(_rgb(hex_colour))


# The digits 1-8, 8 x 10 pixels, placed at (4, 3) in an opened cell.
_DIGITS: dict[int, str] = {
    1: "...##... ..###... .####... ...##... ...##... ...##... ...##... ...##... .######. .######.",
    2: ".######. ##....## ......## .....##. ....##.. ...##... ..##.... .##..... ######## ########",
    3: ".######. ##....## ......## ......## ...####. ......## ......## ......## ##....## .######.",
    4: "....###. ...####. ..##.##. .##..##. ##...##. ######## ######## .....##. .....##. .....##.",
    5: "######## ##...... ##...... #######. ......## ......## ......## ......## ##....## .######.",
    6: "..#####. .##..... ##...... ##...... #######. ##....## ##....## ##....## ##....## .######.",
    7: "######## ######## ......## .....##. ....##.. ....##.. ...##... ...##... ..##.... ..##....",
    8: ".######. ##....## ##....## ##....## .######. ##....## ##....## ##....## ##....## .######.",
}

# Marks drawn over a tile; a space keeps the pixel below.
_FLAG = """
       RR
     RRRR
   RRRRRR
     RRRR
       RR
        K
        K
      KKKK
    KKKKKKKK
    KKKKKKKK
"""
_MINE = """

        K
        K
    K KKKKK K
     KKKKKKK
    KKwwKKKKK
    KKwwKKKKK
  KKKKKKKKKKKKK
    KKKKKKKKK
    KKKKKKKKK
     KKKKKKK
    K KKKKK K
        K
        K
"""


def _covered() -> list[str]:
    """Return the rows of a raised tile: a two-pixel bevel, light on top and left."""
    rows = []
    for y in range(TILE):
        row = ""
        for x in range(TILE):
            if min(x, y) < 2 and x + y < TILE - 1:
                row += "W"
            elif max(x, y) >= TILE - 2:
                row += "S"
            else:
                row += "F"
        rows.append(row)
    return rows


def _opened(fill: str = ".") -> list[str]:
    """Return the rows of an opened cell: a one-pixel grid line on its top and left edge."""
    return ["g" * TILE] + ["g" + fill * (TILE - 1) for _ in range(TILE - 1)]


def _over(rows: list[str], mark: str, top: int = 0, left: int = 0) -> list[str]:
    """Return ``rows`` with the text picture ``mark`` (its first line is the one after the
    opening newline) drawn over them at ``(left, top)``; a space keeps the pixel below."""
    out = list(rows)
    for dy, line in enumerate(mark.removeprefix("\n").removesuffix("\n").split("\n")):
        row = list(out[top + dy])
        for dx, c in enumerate(line):
            if c != " ":
                row[left + dx] = c
        out[top + dy] = "".join(row)
    return out


def _cross(rows: list[str]) -> list[str]:
    """Return ``rows`` with a red two-pixel cross from corner to corner over them."""
    out = [list(r) for r in rows]
    for y in range(3, TILE - 3):
        for x in (y, y + 1, TILE - 1 - y, TILE - 2 - y):
            out[y][x] = "R"
    return ["".join(r) for r in out]


def _tile_pictures() -> dict[int, list[str]]:
    """Return the 16 x 16 picture of every cell code, as rows of colour characters (digits as
    their number, ``1``-``8``)."""
    tiles = {0: _opened(), COVERED: _covered()}
    for n, picture in _DIGITS.items():
        digit = [row.replace("#", str(n)).replace(".", " ") for row in picture.split()]
        tiles[n] = _over(_opened(), "\n".join(digit), 3, 4)
    tiles[FLAG] = _over(_covered(), _FLAG, 3)
    tiles[MINE] = _over(_opened(), _MINE, 1)
    tiles[EXPLODED] = _over(_opened("R"), _MINE, 1)
    tiles[WRONG_FLAG] = _cross(tiles[MINE])
    return tiles


_INDEX: dict[str, int] = {c: colour_index(h) for c, h in _COLOURS.items()} | {
    str(n): colour_index(h) for n, h in NUMBER_COLOURS.items()
}


class BoardRaster:
    """The pixels of a ``width`` x ``height`` board, each cell ``16 * scale`` pixels square.

    :meth:`draw` paints a state of the board and returns the pixels as :data:`PALETTE` indices,
    row by row (``pixel_width * pixel_height`` bytes). Raises ``ValueError`` for a side below 1
    or a scale outside 1..16.

    >>> r = BoardRaster(2, 1)
    >>> r.pixel_width, r.pixel_height, len(r.draw([COVERED, 1]))
    (32, 16, 512)
    """

    def __init__(self, width: int, height: int, scale: int = 1) -> None:
        if width < 1 or height < 1:
            raise ValueError(f"board size {width}x{height} has no cells")
        if not 1 <= scale <= 16:
            raise ValueError(f"scale {scale} is outside 1..16")
        self.width = width
        self.height = height
        self.scale = scale
        self.side = TILE * scale
        self.pixel_width = width * self.side
        self.pixel_height = height * self.side
        self._pixels = bytearray(self.pixel_width * self.pixel_height)
        self._drawn: list[tuple[int, Highlight | None] | None] = [None] * (width * height)
        self._tiles: dict[tuple[int, Highlight | None], list[bytes]] = {}
        self._pictures = _tile_pictures()
        self._marked: tuple[int, ...] = ()
        self.box: tuple[int, int, int, int] = (0, 0, self.pixel_width, self.pixel_height)
        """The pixels the last :meth:`draw` repainted: ``(left, top, width, height)`` of the
        smallest rectangle of cells holding them (the top-left pixel when it repainted none);
        every pixel outside it is as the draw before left it."""

    def draw(
        self,
        cells: Sequence[int],
        highlights: Mapping[int, Highlight] | None = None,
        changed: Iterable[int] | None = None,
    ) -> bytes:
        """Paint ``cells`` (one code a cell by index ``y * width + x``: 0-8, ``COVERED``,
        ``FLAG``, ``MINE``, ``EXPLODED`` or ``WRONG_FLAG``) with the cells of ``highlights``
        outlined; return the pixels. :attr:`box` is then the rectangle of the cells repainted.

        ``changed``, when given, are the only cells whose code may differ from the last draw's
        (the cells outlined then or now are looked at too), so a long game's frames cost the
        cells that changed, not the board; ``None``: every cell is looked at.

        Raises ``ValueError`` for the wrong number of cells, an unknown cell code or a
        highlighted or changed cell off the board.
        """
        self._paint(cells, highlights, changed)
        return bytes(self._pixels)

    def draw_view(
        self,
        cells: Sequence[int],
        highlights: Mapping[int, Highlight] | None = None,
        changed: Iterable[int] | None = None,
    ) -> memoryview:
        """Paint as :meth:`draw` does; return the pixels as a read-only view of the raster's
        own, which the next draw changes (an encoder that reads each frame at once need not
        copy a big board's pixels for every frame)."""
        self._paint(cells, highlights, changed)
        return memoryview(self._pixels).toreadonly()

    def _paint(
        self,
        cells: Sequence[int],
        highlights: Mapping[int, Highlight] | None,
        changed: Iterable[int] | None,
    ) -> None:
        """Paint the cells for :meth:`draw` and set :attr:`box`."""
        if len(cells) != len(self._drawn):
            raise ValueError(f"{len(cells)} cells given for a {self.width}x{self.height} board")
        marks = highlights or {}
        size = len(cells)
        told = None if changed is None else set(changed)
        bad = next((i for i in told or () if not 0 <= i < size), None)
        if bad is not None:
            raise ValueError(f"changed cell {bad} is off the {self.width}x{self.height} board")
        if told is None or self._drawn[0] is None:  # a first draw paints every cell
            look_at: Iterable[int] = range(size)
        else:
            look_at = told.union(marks, self._marked)
        for i in marks:
            if not 0 <= i < size:
                raise ValueError(
                    f"highlighted cell {i} is off the {self.width}x{self.height} board"
                )
        s, row = self.side, self.pixel_width
        left, top, right, bottom = self.width, self.height, -1, -1
        for i in look_at:
            look = (cells[i], marks.get(i))
            if self._drawn[i] == look:
                continue
            tile = self._tiles.get(look)
            if tile is None:
                tile = self._tiles[look] = self._tile(*look)
            y, x = divmod(i, self.width)
            left, right = min(left, x), max(right, x)
            top, bottom = min(top, y), max(bottom, y)
            at = y * s * row + x * s
            for line in tile:
                self._pixels[at : at + s] = line
                at += row
            self._drawn[i] = look
        self._marked = tuple(marks)
        if right < 0:
            self.box = (0, 0, 1, 1)
        else:
            self.box = (left * s, top * s, (right - left + 1) * s, (bottom - top + 1) * s)

    def _tile(self, code: int, highlight: Highlight | None) -> list[bytes]:
        """Return the pixel rows of one cell's look; raises ``ValueError`` for an unknown code."""
        picture = self._pictures.get(code)
        if picture is None:
            raise ValueError(f"unknown cell code {code}")
        rows = [bytearray(_INDEX[c] for c in line) for line in picture]
        if highlight is not None:
            colour = colour_index(_OUTLINES[highlight])
            for y, line in enumerate(rows):
                for x in range(TILE):
                    if min(x, y) < 2 or max(x, y) >= TILE - 2:
                        line[x] = colour
        k = self.scale
        return [bytes(v for v in line for _ in range(k)) for line in rows for _ in range(k)]
