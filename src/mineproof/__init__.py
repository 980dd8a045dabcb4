"""mineproof: exact Minesweeper analysis, explained deductions and guess-free boards."""

from mineproof.analysis import Analysis, analyze
from mineproof.board import Board, Layout, cell_name
from mineproof.errors import (
    FormatError,
    IllegalMoveError,
    InconsistentPositionError,
    MineproofError,
)
from mineproof.position import COVERED, FLAG, Position

__all__ = [
    "COVERED",
    "FLAG",
    "Analysis",
    "Board",
    "FormatError",
    "IllegalMoveError",
    "InconsistentPositionError",
    "Layout",
    "MineproofError",
    "Position",
    "analyze",
    "cell_name",
]
__version__ = "0.1.0"
