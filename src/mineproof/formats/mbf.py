"""MBF mine layouts, the binary format of MinesweeperX and Arbiter.

Byte 0 is the width, byte 1 the height, bytes 2-3 the mine count (big-endian), then each mine
as one x byte and one y byte.
"""

from __future__ import annotations

from mineproof.board import Board, Layout, cell_name
from mineproof.english import counted
from mineproof.errors import FormatError

__all__ = ["format_mbf", "parse_mbf"]

_HEADER_SIZE = 4


def parse_mbf(data: bytes) -> Layout:
    """Return the layout stored in MBF ``data``.

    Raises ``FormatError`` when the data is shorter than the 4-byte header, the width or height is
    0, the length is not ``4 + 2 * count``, a mine lies outside the board (naming the mine,
    1-based, and its ``(x, y)``) or a cell holds two mines (naming the cell).

    >>> parse_mbf(bytes([3, 1, 0, 1, 2, 0])).mines
    4
    """
    if len(data) < _HEADER_SIZE:
        raise FormatError(
            f"MBF data has {counted(len(data), 'byte')}, fewer than the 4-byte header"
        )
    width, height = data[0], data[1]
    count = int.from_bytes(data[2:4], "big")
    if width == 0 or height == 0:
        raise FormatError(f"MBF board size {width}x{height}: width and height must be at least 1")
    expected = _HEADER_SIZE + 2 * count
    if len(data) != expected:
        raise FormatError(
            f"MBF data for {counted(count, 'mine')} should have {counted(expected, 'byte')}, "
            f"got {len(data)}"
        )
    board = Board(width, height)
    mask = 0
    for k in range(count):
        x, y = data[_HEADER_SIZE + 2 * k], data[_HEADER_SIZE + 2 * k + 1]
        if x >= width or y >= height:
            raise FormatError(f"mine {k + 1} at ({x}, {y}) is outside the {width}x{height} board")
        bit = 1 << (y * width + x)
        if mask & bit:
            raise FormatError(
                f"mine {k + 1}: cell ({x}, {y}) [{cell_name(x, y)}] holds a mine already"
            )
        mask |= bit
    return Layout(board, mask)


def format_mbf(layout: Layout) -> bytes:
    """Return ``layout`` as MBF bytes, its mines in cell-index order.

    Raises nothing: every board (at most 255x255) fits the format.

    >>> format_mbf(Layout(Board(3, 1), 0b100)).hex()
    '030100010200'
    """
    board = layout.board
    out = bytearray([board.width, board.height])
    out += layout.mine_count.to_bytes(2, "big")
    for x, y in board.mask_to_xy(layout.mines):
        out += bytes((x, y))
    return bytes(out)
