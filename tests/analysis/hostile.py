"""Hostile positions for the analysis, shared by the tests and ``benchmarks/bench_hostile.py``."""

from __future__ import annotations

import random

from mineproof.board import Board, Layout
from mineproof.position import COVERED, FLAG, Position

__all__ = ["case_snake", "lattice", "pair_strips", "scattered", "snake", "tiling"]


def lattice(width: int, height: int, seed: int = 1) -> Position:
    """Return a lattice position: numbers where x and y are both even, every other cell
    covered, a quarter of them mines: a two-dimensional frontier, the hardest kind for exact
    counting."""
    rng = random.Random(seed)
    board = Board(width, height)
    covered = [i for i in range(board.size) if (i % width) % 2 or (i // width) % 2]
    layout = Layout.from_cells(board, [board.xy(i) for i in rng.sample(covered, len(covered) // 4)])
    numbers = layout.numbers()
    cells = tuple(
        COVERED if (i % width) % 2 or (i // width) % 2 else numbers[i] for i in range(board.size)
    )
    return Position(board, cells, layout.mine_count)


def scattered(side: int, seed: int = 1) -> Position:
    """Return a ``side`` x ``side`` position of scattered ones: a sixth of the cells mines,
    about a ninth opened, each a 1 with no opened neighbour, every other cell covered.

    The ones are drawn among the cells of a random layout that touch exactly one mine, so
    the position always has an arrangement: hundreds of small independent components whose
    mine counts the analysis must combine, with numbers of thousands of digits."""
    rng = random.Random(seed)
    board = Board(side, side)
    layout = Layout(board, sum(1 << i for i in rng.sample(range(board.size), board.size // 6)))
    numbers = layout.numbers()
    masks = board.neighbour_masks()
    candidates = [i for i in range(board.size) if numbers[i] == 1]
    rng.shuffle(candidates)
    opened = 0
    for i in candidates:
        if opened.bit_count() == board.size // 9:
            break
        if not masks[i] & opened:
            opened |= 1 << i
    cells = tuple(1 if opened >> i & 1 else COVERED for i in range(board.size))
    return Position(board, cells, layout.mine_count)


def snake(side: int, broken: bool = False) -> tuple[Position, Layout]:
    """Return a ``side`` x ``side`` position (``side`` odd) whose covered cells form one snake,
    each proven by the one before, and the layout it was made from.

    Even rows are flagged mines. Odd rows alternate covered cells and numbers, each number
    seeing two covered cells of the snake, and the snake turns at the ends of the rows through
    a number in the flagged row between them; mines and safe cells alternate along it. Only the
    number below its last cell, in the bottom row, says which: every number is "one of these
    two" otherwise, so the one-clue rules decide the snake a cell at a time from its far end,
    against the order of the clues. With ``broken``, the first number of the snake says two
    mines where there is one: a conflict that only the whole snake shows.
    """
    grid = [["F"] * side for _ in range(side)]
    path = _snake_rows(grid, range(1, side - 1, 2), below_last=True)
    position, layout = _from_grid(grid, set(path[::2]))
    if broken:
        cells = list(position.cells)
        cells[position.board.index(1, 1)] += 1
        position = Position(position.board, tuple(cells), position.mines)
    return position, layout


def _snake_rows(grid: list[list[str]], rows: range, below_last: bool) -> list[tuple[int, int]]:
    """Lay a snake along ``rows`` of ``grid`` (flags elsewhere): in each row covered cells at
    even columns with numbers between them, taken back and forth, and a number in the row
    below each row's end, where the snake turns into the next row (below the last row too with
    ``below_last``). Return the snake's cells in order."""
    side = len(grid[0])
    path: list[tuple[int, int]] = []
    for k, y in enumerate(rows):
        for x in range(side):
            grid[y][x] = "H" if x % 2 == 0 else "N"
        xs = list(range(0, side, 2))
        path += [(x, y) for x in (xs if k % 2 == 0 else xs[::-1])]
        if below_last or k + 1 < len(rows):
            grid[y + 1][side - 1 if k % 2 == 0 else 0] = "N"
    return path


def case_snake(side: int) -> tuple[Position, Layout]:
    """Return a ``side`` x ``side`` position (``side`` odd, at least 11) whose snake, as in
    :func:`snake` but with no number below its end, is decided only by a case analysis
    (level 4) at that end, and the layout it was made from.

    Every number of the snake says "one of these two"; at its end, a number sees two cells
    that the snake makes equal, beside a covered cell of its own: only trying both ways of the
    snake's end decides them, and then the whole snake follows one cell at a time.
    """
    grid = [["F"] * side for _ in range(side)]
    rows = range(1, side - 7, 2)
    if len(rows) % 2:
        rows = rows[:-1]
    path = _snake_rows(grid, rows, below_last=False)
    last = rows[-1]
    end = last + 4
    grid[last + 1][0] = "N"
    path.append((0, last + 2))
    grid[last + 3][0] = "N"
    path.append((0, end))
    grid[end][1] = "N"
    path.append((2, end))
    grid[end - 1][2] = "N"
    path.append((3, end - 2))
    grid[end - 1][4] = "N"
    path.append((4, end))
    grid[end + 1][3] = "N"
    extra = (3, end + 2)
    for x, y in [*path, extra]:
        grid[y][x] = "H"
    mines = {p for i, p in enumerate(reversed(path)) if i % 2 == 1} | {extra}
    return _from_grid(grid, mines)


def _from_grid(grid: list[list[str]], hidden: set[tuple[int, int]]) -> tuple[Position, Layout]:
    """Return the position drawn in ``grid`` (rows of ``F`` flags, ``H`` covered cells and
    ``N`` numbers) and its layout: a mine under each flag and at each cell of ``hidden``."""
    height, width = len(grid), len(grid[0])
    board = Board(width, height)
    flags = {(x, y) for y in range(height) for x in range(width) if grid[y][x] == "F"}
    layout = Layout.from_cells(board, sorted(flags | hidden))
    numbers = layout.numbers()
    cells = tuple(
        FLAG if grid[y][x] == "F" else COVERED if grid[y][x] == "H" else numbers[board.index(x, y)]
        for y in range(height)
        for x in range(width)
    )
    return Position(board, cells, layout.mine_count), layout


def pair_strips(width: int, height: int, seed: int = 1) -> tuple[Position, Layout]:
    """Return a position of strips three rows high, each a chain of links that only pairs of
    numbers decide, one link after the other, and the layout it was made from.

    In a strip, the top row holds pairs of covered cells (one mine in each, drawn from
    ``seed``) between flags, the middle row repeats "number, number, covered cell", and the
    bottom row is flags. Link ``k`` is the pair ``x, y`` above its two numbers: the first sees
    ``x``, ``y`` and the covered cell ``c`` of the link before, the second ``x``, ``y`` and its
    own ``c``. Neither number decides anything alone, nor the two together until the ``c``
    before is known safe (flags trusted): each strip is proven safe cell by cell from its left
    end, the first number of which sees only ``x`` and ``y``. ``width`` is a multiple of 3;
    rows below the last whole strip are flags.
    """
    assert width % 3 == 0, "a strip is made of whole links"
    rng = random.Random(seed)
    grid = [["F"] * width for _ in range(height)]
    mines: set[tuple[int, int]] = set()
    for y in range(0, height - 2, 3):
        for x in range(width):
            grid[y][x] = "F" if x % 3 == 2 else "H"
            grid[y + 1][x] = "H" if x % 3 == 2 else "N"
        mines |= {(x + rng.randrange(2), y) for x in range(0, width, 3)}
    return _from_grid(grid, mines)


# A 6x6 group of 16 mines that a solve from the corner reaches through an opening and clears
# with a combination of clues (level 3) twice, as (x, y) from the group's corner.
GADGET = [(0, 0), (0, 2), (0, 5), (1, 2), (1, 4), (1, 5), (2, 0), (2, 2)]
GADGET += [(3, 2), (3, 5), (4, 0), (4, 1), (4, 4), (5, 0), (5, 1), (5, 5)]


def tiling(size: int) -> Layout:
    """Return a ``size`` x ``size`` layout with the gadget every 9 cells from (3, 3), to be
    solved from (0, 0): as many groups that need level 3 as fit (784 on 255x255).
    ``tests/data/tiling-21.txt`` is the one of side 21."""
    cells = [
        (ox + x, oy + y)
        for oy in range(3, size - 6, 9)
        for ox in range(3, size - 6, 9)
        for x, y in GADGET
    ]
    return Layout.from_cells(Board(size, size), cells)
