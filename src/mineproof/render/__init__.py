"""Drawings of positions and analyses: text for terminals, SVG for pages and notebooks, pixels
and animated GIF for recorded games."""

from mineproof.render.gif import Frame, encode_gif
from mineproof.render.raster import BoardRaster
from mineproof.render.svg import analysis_svg, position_svg
from mineproof.render.text import analysis_grid, percent, percents

__all__ = [
    "BoardRaster",
    "Frame",
    "analysis_grid",
    "analysis_svg",
    "encode_gif",
    "percent",
    "percents",
    "position_svg",
]
