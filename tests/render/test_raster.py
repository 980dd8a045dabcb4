"""The board raster: every look of a cell is distinct, outlines come and go, bad input."""

from __future__ import annotations

import random

import pytest

from mineproof.position import COVERED, FLAG
from mineproof.render.raster import (
    EXPLODED,
    MINE,
    PALETTE,
    TILE,
    WRONG_FLAG,
    BoardRaster,
    Highlight,
    colour_index,
)
from mineproof.render.svg import NUMBER_COLOURS

# The raster: what each look is made of, inside the two-pixel border an outline covers.
LOOKS = {
    COVERED: {"#c0c0c0"},
    FLAG: {"#c0c0c0", "#e00000", "#000000"},
    0: {"#e4e4e4"},
    MINE: {"#e4e4e4", "#000000", "#ffffff"},
    EXPLODED: {"#e00000", "#000000", "#ffffff"},
    WRONG_FLAG: {"#e4e4e4", "#000000", "#ffffff", "#e00000"},
} | {n: {"#e4e4e4", colour} for n, colour in NUMBER_COLOURS.items()}


def cell_colours(pixels: bytes, width: int, x: int, y: int, scale: int = 1) -> set[str]:
    """Return the colours inside cell (x, y) of a raster, less its outline border."""
    s = TILE * scale
    found = set()
    for py in range(y * s + 2 * scale, (y + 1) * s - 2 * scale):
        row = pixels[py * width + x * s + 2 * scale : py * width + (x + 1) * s - 2 * scale]
        found |= {"#{:02x}{:02x}{:02x}".format(*PALETTE[i]) for i in set(row)}
    return found


def test_each_look_is_distinct_and_made_of_its_colours() -> None:
    assert len({frozenset(c) for c in LOOKS.values()}) == len(LOOKS)
    codes = list(LOOKS)
    for scale in (1, 2):
        raster = BoardRaster(len(codes), 1, scale)
        pixels = raster.draw(codes)
        for x, code in enumerate(codes):
            assert cell_colours(pixels, raster.pixel_width, x, 0, scale) == LOOKS[code], code


def test_outlines_come_and_go_and_only_changed_cells_are_redrawn() -> None:
    raster = BoardRaster(3, 2)
    w = raster.pixel_width
    first = raster.draw([COVERED] * 6, {4: "safe"})
    corner = 1 * TILE * w + 1 * TILE  # top-left pixel of cell (1, 1)
    assert first[corner] == colour_index("#138a36")
    second = raster.draw([COVERED] * 6, {0: "guess"})
    assert second[corner] == colour_index("#ffffff")  # the bevel again
    assert second[0] == colour_index("#e08a00")
    assert second[2 * TILE * w - 1] == colour_index("#808080")  # untouched cell (2, 1)
    assert raster.draw([COVERED] * 6, {5: "mine"})[2 * TILE * w - 1] == colour_index("#d01c1c")


@pytest.mark.parametrize("seed", range(6))
def test_drawing_only_the_changed_cells_paints_what_a_whole_drawing_does(seed: int) -> None:
    """Told the cells that changed, a raster paints the same pixels as one that looks at
    every cell; its box holds every pixel that differs from the frame before; its view is
    the same pixels."""
    rng = random.Random(seed)
    width, height = rng.randint(1, 12), rng.randint(1, 9)
    codes = [COVERED, FLAG, MINE, EXPLODED, WRONG_FLAG, *range(9)]
    kinds: list[Highlight] = ["safe", "mine", "guess", "mistake"]
    whole, told = BoardRaster(width, height), BoardRaster(width, height)
    cells = [rng.choice(codes) for _ in range(width * height)]
    before = told.draw(cells)
    assert before == whole.draw(cells)
    for _ in range(30):
        changed = rng.sample(range(len(cells)), rng.randint(0, min(4, len(cells))))
        for i in changed:
            cells[i] = rng.choice(codes)
        marks = {rng.randrange(len(cells)): rng.choice(kinds) for _ in range(rng.randint(0, 2))}
        after = bytes(told.draw_view(cells, marks, changed))
        assert after == whole.draw(cells, marks)
        left, top, w, h = told.box
        row = told.pixel_width
        for k in range(len(after)):
            y, x = divmod(k, row)
            if not (left <= x < left + w and top <= y < top + h):
                assert after[k] == before[k], (k, told.box)
        before = after


def test_raster_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="no cells"):
        BoardRaster(0, 3)
    with pytest.raises(ValueError, match="scale"):
        BoardRaster(3, 3, 0)
    raster = BoardRaster(2, 2)
    with pytest.raises(ValueError, match="3 cells"):
        raster.draw([0, 0, 0])
    with pytest.raises(ValueError, match="unknown cell code"):
        raster.draw([0, 0, 0, 9])
    with pytest.raises(ValueError, match="off the"):
        raster.draw([0, 0, 0, 0], {4: "safe"})
