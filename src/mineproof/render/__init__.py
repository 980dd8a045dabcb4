"""Drawings of positions and analyses: text for terminals, SVG for pages and notebooks."""

from mineproof.render.svg import analysis_svg, position_svg
from mineproof.render.text import analysis_grid, percent

__all__ = ["analysis_grid", "analysis_svg", "percent", "position_svg"]
