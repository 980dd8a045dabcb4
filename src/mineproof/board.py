"""Geometry and mine layouts.

A cell is an int ``i = y * width + x``; a set of cells is an int bitmask. Neighbour masks are
computed once per board size and shared by every board of that size.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, overload

from mineproof.bitboard import bitboard, iter_bits, mask_of
from mineproof.english import counted
from mineproof.errors import ArgumentError, FormatError, IllegalMoveError

__all__ = ["LEVELS", "MAX_SIDE", "Board", "FirstClick", "Layout", "cell_name", "iter_bits"]

LEVELS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (30, 16, 99),
}
"""The standard levels: width, height, mines."""

MAX_SIDE = 255
FirstClick = Literal["safe", "opening", "none"]


FIRST_CLICKS: tuple[FirstClick, ...] = ("safe", "opening", "none")
"""The first-click rules."""


def check_first_click(rule: str) -> None:
    """Raise ``ArgumentError`` (named ``rule``) unless ``rule`` is a first-click rule."""
    if rule not in FIRST_CLICKS:
        raise ArgumentError(
            f"unknown first-click rule {rule!r} (expected safe, opening or none)", name="rule"
        )


def check_room(board: Board, mines: int, room: int, where: str = "") -> None:
    """Raise ``ArgumentError`` (named ``mines``, :func:`no_room`'s words) unless ``mines`` is
    from 0 to ``room``, the cells ``board`` has for them."""
    if not 0 <= mines <= room:
        raise ArgumentError(no_room(board.width, board.height, mines, room, where), name="mines")


def no_room(width: int, height: int, mines: int, room: int, where: str = "") -> str:
    """Return the message for ``mines`` mines that cannot fit in the ``room`` cells a
    ``width`` x ``height`` board has for them (``where``: " outside the safe start area").

    >>> no_room(3, 1, 1, 0, " outside the opening start area")
    '1 mine cannot fit outside the opening start area on a 3x1 board (at most 0)'
    """
    return (
        f"{counted(mines, 'mine')} cannot fit{where} on a {width}x{height} board (at most {room})"
    )


def cell_name(x: int, y: int) -> str:
    """Return the name a person reads on the board: column letters, then the 1-based row.

    Raises ``ValueError`` for a negative coordinate, which names no cell.

    >>> cell_name(2, 3), cell_name(26, 0), cell_name(29, 15)
    ('C4', 'AA1', 'AD16')
    """
    if x < 0 or y < 0:
        raise ValueError(f"cell ({x}, {y}) has a negative coordinate")
    letters = ""
    n = x + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return f"{letters}{y + 1}"


# Above this many cells a table of neighbour masks would hold size**2 / 8 bytes (0.5 GB at
# 255x255): larger boards compute each mask when asked.
_MASK_TABLE_LIMIT = 10_000


class _MaskOnDemand(Sequence[int]):
    """The neighbour mask of each cell of a large board, computed from its neighbour list."""

    __slots__ = ("_lists",)

    def __init__(self, lists: tuple[tuple[int, ...], ...]) -> None:
        self._lists = lists

    def __len__(self) -> int:
        return len(self._lists)

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...
    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        cells = self._lists[i]
        if not cells:
            return 0
        base = cells[0]
        m = 0
        for c in cells:
            m |= 1 << (c - base)
        return m << base


_GEOMETRY_BYTES = 48 << 20
"""The most memory the remembered neighbour tables of all board sizes may take together."""

_geometries: OrderedDict[tuple[int, int], tuple[Sequence[int], tuple[tuple[int, ...], ...]]]
_geometries = OrderedDict()
_geometry_bytes: dict[tuple[int, int], int] = {}
_geometry_lock = threading.Lock()


def _geometry(width: int, height: int) -> tuple[Sequence[int], tuple[tuple[int, ...], ...]]:
    """Return (neighbour mask per cell, neighbour index tuple per cell) for a board size.

    Remembered per size, the least recently used forgotten first so that all sizes together
    stay within :data:`_GEOMETRY_BYTES` (a table of masks takes about ``cells**2 / 16`` bytes:
    a server that sees many custom sizes does not grow with them).
    """
    key = (width, height)
    with _geometry_lock:
        found = _geometries.get(key)
        if found is not None:
            _geometries.move_to_end(key)
            return found
    lists = tuple(
        tuple(
            ny * width + nx
            for ny in range(max(0, y - 1), min(height, y + 2))
            for nx in range(max(0, x - 1), min(width, x + 2))
            if (nx, ny) != (x, y)
        )
        for y in range(height)
        for x in range(width)
    )
    cells = len(lists)
    on_demand = _MaskOnDemand(lists)
    masks: Sequence[int] = on_demand
    size = cells * 350  # the tuples of neighbours, and their ints
    if cells <= _MASK_TABLE_LIMIT:
        masks = tuple(on_demand[i] for i in range(cells))
        size += cells * (cells // 16 + 40)
    with _geometry_lock:
        _geometries[key] = (masks, lists)
        _geometry_bytes[key] = size
        while sum(_geometry_bytes.values()) > _GEOMETRY_BYTES and len(_geometries) > 1:
            old, _ = _geometries.popitem(last=False)
            del _geometry_bytes[old]
    return masks, lists


def geometry_bytes() -> int:
    """Return the estimated memory of the remembered neighbour tables, in bytes."""
    with _geometry_lock:
        return sum(_geometry_bytes.values())


@dataclass(frozen=True, slots=True)
class Board:
    """The geometry of a board: its width and height (1 to 255 each).

    Raises ``FormatError`` for a side out of that range, ``TypeError`` for one that is not an
    ``int`` (a float or a bool).

    >>> b = Board(3, 2)
    >>> b.size, b.index(2, 1), b.xy(5), b.neighbours(0)
    (6, 5, (2, 1), (1, 3, 4))
    """

    width: int
    height: int

    def __post_init__(self) -> None:
        for name, value in (("width", self.width), ("height", self.height)):
            if type(value) is not int:
                raise TypeError(f"board {name} must be an int, not {type(value).__name__}")
            if not 1 <= value <= MAX_SIDE:
                raise FormatError(f"board {name} {value} is outside 1..{MAX_SIDE}")

    @property
    def size(self) -> int:
        """Return the number of cells."""
        return self.width * self.height

    @property
    def full_mask(self) -> int:
        """Return the bitmask of every cell."""
        return (1 << self.size) - 1

    def index(self, x: int, y: int) -> int:
        """Return the cell index of ``(x, y)``. Raises ``ArgumentError`` outside the board (a
        parser that reads a cell checks it first, to name where in its input it is).

        >>> Board(3, 2).index(3, 0)
        Traceback (most recent call last):
        ...
        mineproof.errors.ArgumentError: cell (3, 0) is outside the 3x2 board: x is 0 to 2, y 0 to 1
        """
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ArgumentError(self._outside(x, y))
        return y * self.width + x

    def move_index(self, x: int, y: int) -> int:
        """Return the cell index of ``(x, y)``, a move's cell. Raises ``IllegalMoveError``
        outside the board."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IllegalMoveError(self._outside(x, y), cell=(x, y))
        return y * self.width + x

    def _outside(self, x: int, y: int) -> str:
        """Return the words for cell ``(x, y)`` outside the board."""
        return (
            f"cell ({x}, {y}) is outside the {self.width}x{self.height} board: "
            f"x is 0 to {self.width - 1}, y 0 to {self.height - 1}"
        )

    def xy(self, i: int) -> tuple[int, int]:
        """Return ``(x, y)`` of cell index ``i``."""
        return i % self.width, i // self.width

    def name(self, i: int) -> str:
        """Return the board name of cell ``i`` (for example ``C4``)."""
        return cell_name(i % self.width, i // self.width)

    def dilate(self, mask: int) -> int:
        """Return ``mask`` with every neighbour of its cells added.

        >>> Board(3, 3).dilate(1) == 0b11011
        True
        """
        return bitboard(self.width, self.height).dilate(mask)

    def neighbour_masks(self) -> Sequence[int]:
        """Return the neighbour bitmask of every cell (a shared table, computed once per size;
        on boards over 10,000 cells each mask is computed when indexed)."""
        return _geometry(self.width, self.height)[0]

    def neighbour_lists(self) -> tuple[tuple[int, ...], ...]:
        """Return the neighbour indices of every cell (shared, computed once per size)."""
        return _geometry(self.width, self.height)[1]

    def neighbours(self, i: int) -> tuple[int, ...]:
        """Return the indices of the up to 8 neighbours of cell ``i``."""
        return _geometry(self.width, self.height)[1][i]

    def mask_to_xy(self, mask: int) -> list[tuple[int, int]]:
        """Return the ``(x, y)`` cells of a bitmask, in index order."""
        w = self.width
        return [(i % w, i // w) for i in iter_bits(mask)]

    def start_area(self, i: int, rule: FirstClick) -> int:
        """Return the bitmask of cells the first-click ``rule`` keeps free of mines at ``i``."""
        if rule == "opening":
            return (1 << i) | self.neighbour_masks()[i]
        if rule == "safe":
            return 1 << i
        check_first_click(rule)
        return 0


@dataclass(frozen=True, slots=True)
class Layout:
    """A hidden mine layout: the board and the bitmask of mined cells.

    >>> lay = Layout(Board(3, 1), 0b100)
    >>> lay.mine_count, lay.numbers()
    (1, (0, 1, -1))
    """

    board: Board
    mines: int
    _numbers: list[tuple[int, ...]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if self.mines < 0 or self.mines >> self.board.size:
            raise ArgumentError("mine mask has cells outside the board")

    @property
    def mine_count(self) -> int:
        """Return the number of mines."""
        return self.mines.bit_count()

    def is_mine(self, i: int) -> bool:
        """Return whether cell ``i`` holds a mine."""
        return bool(self.mines >> i & 1)

    def numbers(self) -> tuple[int, ...]:
        """Return per cell its number of neighbouring mines, or -1 for a mine (cached)."""
        if not self._numbers:
            mines = self.mines
            self._numbers.append(
                tuple(
                    -1 if mines >> i & 1 else (near & mines).bit_count()
                    for i, near in enumerate(self.board.neighbour_masks())
                )
            )
        return self._numbers[0]

    def start_index(self, start: tuple[int, int]) -> int:
        """Return the cell index of a start cell, which must be on the board and mine-free.

        Raises ``ArgumentError`` outside the board and ``IllegalMoveError`` on a mine.
        """
        i = self.board.index(*start)
        if self.is_mine(i):
            x, y = start
            raise IllegalMoveError(
                f"the start cell ({x}, {y}) [{cell_name(x, y)}] is a mine", cell=start
            )
        return i

    @classmethod
    def from_cells(cls, board: Board, cells: list[tuple[int, int]]) -> Layout:
        """Return the layout with mines at the given ``(x, y)`` cells.

        Raises ``ArgumentError`` for a cell outside the board or a cell given twice.
        """
        mask = 0
        for x, y in cells:
            bit = 1 << board.index(x, y)
            if mask & bit:
                raise ArgumentError(f"mine at ({x}, {y}) [{cell_name(x, y)}] is given twice")
            mask |= bit
        return cls(board, mask)

    @classmethod
    def random(
        cls,
        board: Board,
        mines: int,
        rng: random.Random,
        start: tuple[int, int] | None = None,
        rule: FirstClick = "safe",
    ) -> Layout:
        """Return a uniformly random layout of ``mines`` mines drawn with ``rng``.

        With a ``start`` cell, the first-click ``rule`` keeps that cell (``safe``) or that cell
        and its neighbours (``opening``) free of mines; every other cell is equally likely.
        Raises ``ArgumentError`` when the mines do not fit outside the start area, the start
        is outside the board or the rule unknown.
        """
        excluded = 0
        if start is not None:
            excluded = board.start_area(board.index(*start), rule)
        free = iter_bits(board.full_mask & ~excluded)
        check_room(board, mines, len(free), f" outside the {rule} start area" if excluded else "")
        return cls(board, mask_of(rng.sample(free, mines)))
