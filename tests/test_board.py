"""Tests of mineproof.board: geometry, cell names and mine layouts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mineproof.bitboard import bitboard
from mineproof.board import MAX_SIDE, Board, FirstClick, Layout, cell_name, iter_bits
from mineproof.errors import ArgumentError, FormatError

rules: st.SearchStrategy[FirstClick] = st.sampled_from(["safe", "opening", "none"])


@st.composite
def boards(draw: st.DrawFn, max_side: int = 40) -> Board:
    """Draw a board of any size up to ``max_side`` each side."""
    return Board(draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))


# --- Board --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1, 1), (MAX_SIDE, MAX_SIDE), (1, MAX_SIDE), (30, 16)])
def test_board_sizes_in_range(size: tuple[int, int]) -> None:
    board = Board(*size)
    assert board.size == size[0] * size[1]
    assert board.full_mask == (1 << board.size) - 1


@pytest.mark.parametrize(
    ("width", "height", "name"),
    [(0, 5, "width"), (256, 5, "width"), (-1, 5, "width"), (5, 0, "height"), (5, 256, "height")],
)
def test_board_sizes_out_of_range(width: int, height: int, name: str) -> None:
    with pytest.raises(FormatError, match=rf"board {name} -?\d+ is outside 1\.\.255"):
        Board(width, height)


@given(boards(), st.data())
def test_index_and_xy_are_inverse(board: Board, data: st.DataObject) -> None:
    x = data.draw(st.integers(0, board.width - 1))
    y = data.draw(st.integers(0, board.height - 1))
    i = board.index(x, y)
    assert 0 <= i < board.size
    assert i == y * board.width + x
    assert board.xy(i) == (x, y)
    assert board.index(*board.xy(i)) == i


def test_index_and_xy_cover_every_cell_once() -> None:
    board = Board(7, 3)
    assert [board.index(*board.xy(i)) for i in range(board.size)] == list(range(board.size))
    assert sorted(board.index(x, y) for x in range(7) for y in range(3)) == list(range(21))


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (7, 0), (0, 3), (7, 3)])
def test_index_outside_the_board(cell: tuple[int, int]) -> None:
    # An argument, not malformed input: the parsers check the cells they read themselves.
    with pytest.raises(ArgumentError, match=r"cell \(-?\d+, -?\d+\) is outside the 7x3 board: x"):
        Board(7, 3).index(*cell)


def test_neighbour_counts() -> None:
    board = Board(5, 4)
    counts = {(x, y): len(board.neighbours(board.index(x, y))) for x in range(5) for y in range(4)}
    for (x, y), count in counts.items():
        on_x_edge = x in (0, 4)
        on_y_edge = y in (0, 3)
        expected = 3 if on_x_edge and on_y_edge else 5 if on_x_edge or on_y_edge else 8
        assert count == expected, (x, y)
    assert Board(1, 1).neighbours(0) == ()
    assert Board(1, 1).neighbour_masks() == (0,)
    assert [len(n) for n in Board(4, 1).neighbour_lists()] == [1, 2, 2, 1]
    assert [len(n) for n in Board(1, 3).neighbour_lists()] == [1, 2, 1]


def test_neighbours_example() -> None:
    board = Board(3, 3)
    assert board.neighbours(4) == (0, 1, 2, 3, 5, 6, 7, 8)
    assert board.neighbours(0) == (1, 3, 4)
    assert board.neighbours(5) == (1, 2, 4, 7, 8)


@given(boards(max_side=20))
def test_neighbour_lists_and_masks_agree(board: Board) -> None:
    masks = board.neighbour_masks()
    lists = board.neighbour_lists()
    assert len(masks) == len(lists) == board.size
    for i in range(board.size):
        x, y = board.xy(i)
        expected = {
            board.index(nx, ny)
            for nx in range(x - 1, x + 2)
            for ny in range(y - 1, y + 2)
            if (nx, ny) != (x, y) and 0 <= nx < board.width and 0 <= ny < board.height
        }
        assert set(lists[i]) == expected
        assert list(lists[i]) == sorted(lists[i])
        assert iter_bits(masks[i]) == sorted(expected)
        for j in lists[i]:  # symmetric
            assert i in lists[j]


@given(boards(max_side=30), st.data())
def test_dilate_adds_the_neighbours(board: Board, data: st.DataObject) -> None:
    mask = data.draw(st.integers(0, board.full_mask))
    expected = mask
    for i in iter_bits(mask):
        expected |= board.neighbour_masks()[i]
    assert board.dilate(mask) == expected


@given(st.data())
def test_around_is_the_cells_next_to_the_mask(data: st.DataObject) -> None:
    width, height = data.draw(st.integers(1, 12)), data.draw(st.integers(1, 12))
    board = Board(width, height)
    mask = data.draw(st.integers(0, board.full_mask))
    masks = board.neighbour_masks()
    expected = sum(1 << i for i in range(board.size) if masks[i] & mask)
    assert bitboard(width, height).around(mask) == expected


@given(st.integers(0, 1 << 300))
def test_iter_bits(mask: int) -> None:
    bits = iter_bits(mask)
    assert bits == [i for i in range(mask.bit_length()) if mask >> i & 1]
    assert sum(1 << i for i in bits) == mask


def test_mask_to_xy_and_name() -> None:
    board = Board(30, 16)
    assert board.mask_to_xy(0b101 | 1 << 31) == [(0, 0), (2, 0), (1, 1)]
    assert board.name(board.index(29, 15)) == "AD16"


@pytest.mark.parametrize(
    ("x", "y", "name"),
    [(0, 0, "A1"), (2, 3, "C4"), (25, 0, "Z1"), (26, 0, "AA1"), (51, 9, "AZ10"), (52, 0, "BA1")],
)
def test_cell_name(x: int, y: int, name: str) -> None:
    assert cell_name(x, y) == name


def test_cell_names_are_distinct_on_the_largest_board() -> None:
    names = {cell_name(x, 0) for x in range(MAX_SIDE)}
    assert len(names) == MAX_SIDE
    assert cell_name(254, 254) == "IU255"


@pytest.mark.parametrize(
    ("rule", "cell", "area"),
    [
        ("none", (1, 1), set()),
        ("safe", (1, 1), {(1, 1)}),
        ("opening", (0, 0), {(0, 0), (1, 0), (0, 1), (1, 1)}),
        ("opening", (1, 1), {(x, y) for x in range(3) for y in range(3)}),
    ],
)
def test_start_area(rule: FirstClick, cell: tuple[int, int], area: set[tuple[int, int]]) -> None:
    board = Board(4, 3)
    assert set(board.mask_to_xy(board.start_area(board.index(*cell), rule))) == area


# --- Layout -------------------------------------------------------------------------------


@given(boards(max_side=16), st.randoms(use_true_random=False), st.data())
def test_random_layout_has_the_exact_mine_count(
    board: Board, rng: random.Random, data: st.DataObject
) -> None:
    mines = data.draw(st.integers(0, board.size))
    layout = Layout.random(board, mines, rng)
    assert layout.mine_count == mines
    assert layout.board == board
    assert 0 <= layout.mines <= board.full_mask


@given(boards(max_side=16), rules, st.randoms(use_true_random=False), st.data())
def test_random_layout_respects_the_start_area(
    board: Board, rule: FirstClick, rng: random.Random, data: st.DataObject
) -> None:
    x = data.draw(st.integers(0, board.width - 1))
    y = data.draw(st.integers(0, board.height - 1))
    area = board.start_area(board.index(x, y), rule)
    mines = data.draw(st.integers(0, board.size - area.bit_count()))
    layout = Layout.random(board, mines, rng, start=(x, y), rule=rule)
    assert layout.mine_count == mines
    assert layout.mines & area == 0
    if rule == "safe":
        assert not layout.is_mine(board.index(x, y))
    if rule == "opening":
        assert layout.numbers()[board.index(x, y)] == 0


def test_random_layout_fills_everything_outside_the_start_area() -> None:
    board = Board(5, 5)
    layout = Layout.random(board, 16, random.Random(3), start=(2, 2), rule="opening")
    assert layout.mines == board.full_mask & ~board.start_area(12, "opening")


@given(st.integers(0, 2**32), rules)
def test_random_layout_is_reproducible_for_a_seed(seed: int, rule: FirstClick) -> None:
    board = Board(30, 16)
    first = Layout.random(board, 99, random.Random(seed), start=(3, 3), rule=rule)
    second = Layout.random(board, 99, random.Random(seed), start=(3, 3), rule=rule)
    assert first == second


def test_random_layouts_differ_between_seeds() -> None:
    board = Board(30, 16)
    layouts = {Layout.random(board, 99, random.Random(seed)).mines for seed in range(20)}
    assert len(layouts) == 20


@pytest.mark.parametrize(
    ("mines", "start", "rule", "message"),
    [
        (10, None, "safe", r"10 mines cannot fit on a 3x3 board \(at most 9\)"),
        (-1, None, "safe", r"-1 mines cannot fit"),
        (9, (1, 1), "safe", r"9 mines cannot fit outside the safe start area .*at most 8"),
        (1, (1, 1), "opening", r"1 mine cannot fit outside the opening start area .*at most 0"),
        (6, (0, 0), "opening", r"at most 5"),
    ],
)
def test_random_layout_errors_when_mines_do_not_fit(
    mines: int, start: tuple[int, int] | None, rule: FirstClick, message: str
) -> None:
    with pytest.raises(ArgumentError, match=message):
        Layout.random(Board(3, 3), mines, random.Random(0), start=start, rule=rule)


def test_random_layout_start_outside_the_board() -> None:
    with pytest.raises(ArgumentError, match="outside the 3x3 board"):
        Layout.random(Board(3, 3), 1, random.Random(0), start=(3, 0), rule="safe")


def test_random_layout_none_rule_may_use_every_cell() -> None:
    layout = Layout.random(Board(3, 3), 9, random.Random(0), start=(1, 1), rule="none")
    assert layout.mine_count == 9


def test_from_cells_and_numbers() -> None:
    board = Board(3, 2)
    layout = Layout.from_cells(board, [(0, 0), (2, 1)])
    assert layout.mines == 1 | 1 << 5
    assert layout.numbers() == (-1, 2, 1, 1, 2, -1)
    assert layout == Layout(board, 0b100001)
    assert Layout.from_cells(board, []).numbers() == (0,) * 6


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ([(3, 0)], r"cell \(3, 0\) is outside the 3x2 board"),
        ([(0, -1)], r"cell \(0, -1\) is outside the 3x2 board"),
        ([(1, 1), (0, 0), (1, 1)], r"mine at \(1, 1\) \[B2\] is given twice"),
    ],
)
def test_from_cells_errors(cells: list[tuple[int, int]], message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        Layout.from_cells(Board(3, 2), cells)


@pytest.mark.parametrize("mines", [-1, 1 << 6, 1 << 9])
def test_layout_mask_outside_the_board(mines: int) -> None:
    with pytest.raises(ArgumentError, match="outside the board"):
        Layout(Board(3, 2), mines)


@given(boards(max_side=12), st.data())
def test_numbers_count_neighbouring_mines(board: Board, data: st.DataObject) -> None:
    layout = Layout(board, data.draw(st.integers(0, board.full_mask)))
    numbers = layout.numbers()
    for i in range(board.size):
        if layout.is_mine(i):
            assert numbers[i] == -1
        else:
            assert numbers[i] == sum(layout.is_mine(j) for j in board.neighbours(i))


def test_the_neighbour_tables_of_many_sizes_stay_within_their_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tracemalloc

    import mineproof.board as board_module
    from mineproof.board import geometry_bytes

    limit = 3 << 20
    monkeypatch.setattr(board_module, "_GEOMETRY_BYTES", limit)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for width in range(30, 60):  # 30 sizes of about 1,300 to 2,400 cells
            board = Board(width, 40)
            assert len(board.neighbour_masks()) == board.size
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert geometry_bytes() <= limit
    # Unbounded, these tables would take about 20 MB; the estimate holds within a quarter.
    assert held <= limit * 1.25
    # A size forgotten is rebuilt the same when asked again.
    assert Board(30, 40).neighbour_masks()[1199] == 1 << 1168 | 1 << 1169 | 1 << 1198


@pytest.mark.parametrize(("width", "height"), [(2.5, 1), (True, 3), (3, 2.0)])
def test_a_side_that_is_not_an_int_is_a_type_error(width: object, height: object) -> None:
    with pytest.raises(TypeError, match="must be an int"):
        Board(width, height)  # type: ignore[arg-type]


def test_a_negative_coordinate_names_no_cell() -> None:
    """cell_name(-1, 0) was '1' and cell_name(0, -1) 'A0'."""
    for x, y in ((-1, 0), (0, -1)):
        with pytest.raises(ValueError, match="negative"):
            cell_name(x, y)
