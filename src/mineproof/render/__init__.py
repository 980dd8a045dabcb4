"""Drawings of positions and analyses: text for terminals (SVG comes later)."""

from mineproof.render.text import analysis_grid, percent

__all__ = ["analysis_grid", "percent"]
