"""Reading and writing positions and mine layouts.

Positions: JSMinesweeper text (``Position.parse`` / ``Position.text``) and ms-toollib grids.
Layouts: MBF (MinesweeperX / Arbiter) and a readable ``*``/``.`` text form. The ``load_*``
functions recognise the format by the content. :func:`read_json` reads any JSON a person gives
(a file, a request body), its errors in plain English.
"""

from __future__ import annotations

from mineproof.formats.json_text import describe_json_error, read_json
from mineproof.formats.layout_text import format_layout_text, parse_layout_text
from mineproof.formats.load import decode_text, load_layout, load_position, read_bytes
from mineproof.formats.mbf import format_mbf, parse_mbf
from mineproof.formats.mstoollib import format_grid, parse_grid

__all__ = [
    "decode_text",
    "describe_json_error",
    "format_grid",
    "format_layout_text",
    "format_mbf",
    "load_layout",
    "load_position",
    "parse_grid",
    "parse_layout_text",
    "parse_mbf",
    "read_bytes",
    "read_json",
]
