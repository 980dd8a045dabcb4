"""Dense boards, and grown layouts: the fall-back of ``perturb`` past half the board mined, whose
uniform layouts are mostly cut into pockets no number proves (30x16 from 250 to 430 mines: 2 to
6 runs of 8 ended without a board before it)."""

from __future__ import annotations

import random

import pytest

from mineproof import generate as generate_module
from mineproof.board import Board
from mineproof.generate import GROWN_CELLS_PER_STEP, GenerationError, _grown, _Watch, generate

from .oracle import clears, ms_toollib_clears, neighbours, start_area


def _connected(width: int, height: int, cells: set[int]) -> bool:
    """Return whether ``cells`` are one piece (cells touching by a side or a corner)."""
    first = next(iter(cells))
    seen, todo = {first}, [first]
    while todo:
        for j in neighbours(width, height, todo.pop()):
            if j in cells and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen == cells


@pytest.mark.parametrize(("rule", "start"), [("opening", (3, 2)), ("safe", (0, 0)), ("safe", None)])
@pytest.mark.parametrize("seed", range(5))
def test_a_grown_layout_is_one_piece_of_free_cells_around_the_start(
    rule: str, start: tuple[int, int] | None, seed: int
) -> None:
    width, height, mines = 9, 7, 40
    watch = _Watch(None, None, lambda **_: "", None, 1)
    layout, at = _grown(Board(width, height), mines, random.Random(seed), rule, start, watch)  # type: ignore[arg-type]
    assert start is None or at == start
    assert layout.mine_count == mines
    free = {i for i in range(width * height) if not layout.mines >> i & 1}
    assert set(start_area(width, height, at, rule)) <= free
    assert _connected(width, height, free)


def test_growing_a_layout_is_charged_to_the_work_budget() -> None:
    """Growing the free cells of a 255x255 board one at a time took 6 s of CPU, charged as
    one fresh layout: a run with a budget of 8 went on for 10 s where its budget allows less
    than one. Each cell added is charged now, and the budget stops the growth."""
    board = Board(100, 100)
    free = board.size - 6000 - 9
    watch = _Watch(None, None, lambda **_: "", None, board.size)
    _grown(board, 6000, random.Random(1), "opening", (50, 50), watch)
    assert watch.steps == -(-free // GROWN_CELLS_PER_STEP)
    short = _Watch(None, None, lambda **_: "spent", 3 * board.size, board.size)
    with pytest.raises(GenerationError, match="spent"):
        _grown(board, 6000, random.Random(1), "opening", (50, 50), short)


def test_a_single_layout_of_a_dense_board_gets_the_whole_budget() -> None:
    """With one fresh layout allowed, no grown one can follow: the uniform one was cut off at
    a quarter of the budget all the same."""
    board = Board(100, 100)
    with pytest.raises(GenerationError) as caught:
        generate(board, 6000, random.Random(1), start=(4, 4), budget=1)
    assert caught.value.layouts == 1
    assert "within the work budget" in str(caught.value)


@pytest.mark.parametrize("mines", [12, 14, 16])
def test_boards_made_from_grown_layouts_are_guess_free_by_the_oracle(
    mines: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the uniform share made nothing, every layout is grown: the boards made from them
    on 6x5 (12 to 16 mines of the 21 cells outside the opening) are cleared by the tests' own
    brute-force logician, which knows the mine total."""
    monkeypatch.setattr(generate_module, "GROWN_AFTER", 10**12)
    for seed in range(4):
        found = generate(Board(6, 5), mines, random.Random(seed), start=(2, 2))
        assert found.sampler == "grown"
        assert found.layout.mine_count == mines
        assert clears(6, 5, mines, (2, 2), "opening", found.layout.mines)


@pytest.mark.parametrize("seed", [2, 3])
def test_30x16_with_350_mines_is_made_and_ms_toollib_clears_it(seed: int) -> None:
    """Expert's board with 350 mines: half the runs ended "no guess-free board found" before
    layouts were grown. ms-toollib's solver, which does not use the mine total, clears these
    two boards (seed 1's needs the total)."""
    board = Board(30, 16)
    found = generate(board, 350, random.Random(seed))
    assert found.sampler == "grown"
    assert found.layout.mine_count == 350
    assert ms_toollib_clears(30, 16, found.layout.mines, found.start)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_dense_board_is_made_and_ms_toollib_clears_it(seed: int) -> None:
    """16x16 with 140 mines (55 %): the search dropped every layout as stalled, since each time
    the verification fell back behind its quick solve (changes had reached opened cells) the
    progress was measured from the quick solve's; 3 of these 4 seeds ended with "no guess-free
    board found". ms-toollib's solver, which does not use the mine total, clears them."""
    board = Board(16, 16)
    found = generate(board, 140, random.Random(seed))
    assert found.layout.mine_count == 140
    assert ms_toollib_clears(16, 16, found.layout.mines, found.start)
