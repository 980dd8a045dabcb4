"""A brute-force perfect logician, written from scratch for the tests of generation.

Nothing here imports ``mineproof``: neighbours, numbers and the logician's knowledge are all
computed here. A layout is an int bitmask of its mines over the cell indices
``i = y * width + x``.

The logician knows the board, the start rule and the mine total. What it knows at any moment is
the set of candidate layouts consistent with the numbers it has seen; a cell is provably safe
when it is mine-free in every one of them. It opens every provably safe cell at once (opening
more cells never loses information, and the neighbours of a 0 are safe in every consistent
layout, so no flood fill is needed) and a layout is guess-free when this clears it: every
mine-free cell ends up opened.

All candidates are enumerated into a bool matrix (layouts x cells) and their numbers into an
int matrix; the logician's states are worked as classes of candidates that showed the same
numbers on the same opened cells, so each class is split only by the numbers of its newly
opened cells. The cost is a few numpy calls per class, and a class of one layout is cleared
at once (its layout is known).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, pairwise
from math import comb

import ms_toollib
import numpy as np
import numpy.typing as npt

__all__ = [
    "clears",
    "guess_free_layouts",
    "mine_frequencies",
    "ms_toollib_clears",
    "neighbours",
    "start_area",
]

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]

MAX_CANDIDATES = 3_000_000
"""The largest enumeration allowed (about 0.2 GB for the matrices of a 6x5 board)."""


def neighbours(width: int, height: int, i: int) -> list[int]:
    """Return the indices of the (up to 8) cells around cell ``i``, in reading order."""
    x, y = i % width, i // width
    return [
        ny * width + nx
        for ny in range(max(0, y - 1), min(height, y + 2))
        for nx in range(max(0, x - 1), min(width, x + 2))
        if (nx, ny) != (x, y)
    ]


def start_area(width: int, height: int, start: tuple[int, int], rule: str) -> list[int]:
    """Return the sorted cell indices kept mine-free by ``rule`` at ``start``: the start cell
    alone (``safe``) or with its neighbours (``opening``)."""
    x, y = start
    if not (0 <= x < width and 0 <= y < height):
        raise ValueError(f"start {start} is off the {width}x{height} board")
    i = y * width + x
    if rule == "safe":
        return [i]
    if rule == "opening":
        return sorted([i, *neighbours(width, height, i)])
    raise ValueError(f"unknown rule {rule!r} (expected opening or safe)")


def _adjacency(width: int, height: int) -> npt.NDArray[np.int32]:
    """Return the cells x cells 0/1 matrix of neighbourhood."""
    size = width * height
    adjacent = np.zeros((size, size), dtype=np.int32)
    for i in range(size):
        adjacent[i, neighbours(width, height, i)] = 1
    return adjacent


def _split(keys: npt.NDArray[np.int8]) -> list[Ints]:
    """Return the row indices of ``keys`` (numbers 0-8) grouped by equal rows."""
    count, width = keys.shape
    if width == 0 or count == 1:
        return [np.arange(count, dtype=np.int64)]
    # Each row read as base-9 digits, 19 to an int64 (9**19 < 2**63).
    codes = np.stack(
        [
            keys[:, j : j + 19].astype(np.int64) @ (np.int64(9) ** np.arange(min(19, width - j)))
            for j in range(0, width, 19)
        ]
    )
    order = np.lexsort(codes)
    ordered = codes[:, order]
    bounds = [0, *(np.flatnonzero((ordered[:, 1:] != ordered[:, :-1]).any(axis=0)) + 1), count]
    return [order[a:b] for a, b in pairwise(bounds)]


@lru_cache(maxsize=32)
def _guess_free(
    width: int, height: int, mines: int, start: tuple[int, int], rule: str
) -> tuple[int, ...]:
    """Return, sorted, the guess-free layouts (see :func:`guess_free_layouts`)."""
    size = width * height
    if width < 1 or height < 1 or size > 62:
        raise ValueError("the oracle takes boards of 1 to 62 cells")
    excluded = start_area(width, height, start, rule)
    free = [i for i in range(size) if i not in excluded]
    if not 0 <= mines <= len(free):
        raise ValueError(f"{mines} mines do not fit in the {len(free)} cells outside the start")
    if comb(len(free), mines) > MAX_CANDIDATES:
        raise ValueError(f"C({len(free)}, {mines}) candidates is too many for the oracle")
    free_cells = np.array(free, dtype=np.int64)
    picks = np.array(list(combinations(range(len(free)), mines)), dtype=np.int64)
    picks = picks.reshape(-1, mines)
    count = len(picks)
    mined: Bools = np.zeros((count, size), dtype=np.bool_)
    mined[np.arange(count)[:, None], free_cells[picks]] = True
    numbers = (mined.astype(np.int32) @ _adjacency(width, height)).astype(np.int8)
    masks = mined.astype(np.int64) @ (np.int64(1) << np.arange(size, dtype=np.int64))

    s = start[1] * width + start[0]
    found: list[int] = []
    # A class: (candidates, opened cells, cells opened since the class was last split).
    opened0 = np.zeros(size, dtype=np.bool_)
    opened0[s] = True
    stack: list[tuple[Ints, Bools, Ints]] = [
        (np.arange(count, dtype=np.int64), opened0, np.array([s], dtype=np.int64))
    ]
    while stack:
        members, opened, new = stack.pop()
        for part in _split(numbers[members][:, new]):
            group = members[part]
            if len(group) == 1:
                found.append(int(masks[group[0]]))  # the layout is known: it is cleared
                continue
            safe = ~mined[group].any(axis=0) & ~opened
            if safe.any():
                stack.append((group, opened | safe, np.flatnonzero(safe)))
            # Otherwise stuck with two or more layouts left: none of them is guess-free (a
            # class whose one layout is fully opened has been counted above).
    return tuple(sorted(found))


def guess_free_layouts(
    width: int, height: int, mines: int, start: tuple[int, int], rule: str = "opening"
) -> list[int]:
    """Return, sorted, every layout (an int mine bitmask) of ``mines`` mines with none in the
    start area of ``rule`` at ``start`` that a perfect logician knowing the mine total clears
    from ``start`` without a guess.

    >>> guess_free_layouts(3, 1, 1, (0, 0), "safe")
    [2, 4]
    >>> guess_free_layouts(2, 2, 1, (0, 0), "safe")
    []
    """
    return list(_guess_free(width, height, mines, start, rule))


@lru_cache(maxsize=32)
def _guess_free_set(
    width: int, height: int, mines: int, start: tuple[int, int], rule: str
) -> frozenset[int]:
    """Return the guess-free layouts as a set (cached, for membership tests)."""
    return frozenset(_guess_free(width, height, mines, start, rule))


def clears(
    width: int, height: int, mines: int, start: tuple[int, int], rule: str, layout: int
) -> bool:
    """Return whether the perfect logician clears ``layout`` (an int mine bitmask) from
    ``start`` without a guess: ``False`` too when the layout has another number of mines or a
    mine in the start area (it is not a candidate at all)."""
    return layout in _guess_free_set(width, height, mines, start, rule)


def ms_toollib_clears(width: int, height: int, layout: int, start: tuple[int, int]) -> bool:
    """Return whether ms-toollib's solver clears ``layout`` (an int mine bitmask) from
    ``start``: for boards too large to enumerate. It does not use the mine total, so a board
    that needs the total is not cleared by it."""
    cells = range(width)
    rows = [[-1 if layout >> (y * width + x) & 1 else 0 for x in cells] for y in range(height)]
    x, y = start
    return bool(ms_toollib.is_solvable(ms_toollib.cal_board_numbers(rows), y, x))


def mine_frequencies(layouts: list[int], size: int) -> list[float]:
    """Return per cell (``0 .. size - 1``) the fraction of ``layouts`` with a mine there: for
    the list of guess-free layouts, the exact marginals of the uniform distribution over them.

    >>> mine_frequencies([0b01, 0b11], 2)
    [1.0, 0.5]
    """
    if not layouts:
        raise ValueError("no layouts")
    counts = [0] * size
    for layout in layouts:
        for i in range(size):
            counts[i] += layout >> i & 1
    return [c / len(layouts) for c in counts]
