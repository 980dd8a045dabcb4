"""The chain sampler: its moves can reach every guess-free layout, its shortcut judges moves as
a solve from the start does, and it keeps its promises on arguments and seeds."""

from __future__ import annotations

import random

import pytest

from mineproof.board import Board, Layout
from mineproof.errors import ArgumentError
from mineproof.generate import CHAIN_CELLS, _clears, _Trail, _Watch, generate

from .oracle import guess_free_layouts, start_area

START = (2, 2)


def _swap_components(width: int, height: int, mines: int) -> list[int]:
    """Return the sizes of the classes of the oracle's guess-free layouts linked by the chain's
    moves (one mine swapped with one mine-free cell, both outside the start area)."""
    kept = start_area(width, height, START, "opening")
    outside = [i for i in range(width * height) if i not in kept]
    layouts = set(guess_free_layouts(width, height, mines, START, "opening"))
    sizes = []
    seen: set[int] = set()
    for first in layouts:
        if first in seen:
            continue
        seen.add(first)
        todo, size = [first], 0
        while todo:
            layout = todo.pop()
            size += 1
            for a in (i for i in outside if layout >> i & 1):
                for b in (i for i in outside if not layout >> i & 1):
                    moved = layout ^ (1 << a | 1 << b)
                    if moved in layouts and moved not in seen:
                        seen.add(moved)
                        todo.append(moved)
        sizes.append(size)
    return sizes


@pytest.mark.parametrize(("width", "height", "mines"), [(5, 5, 5), (5, 5, 9), (5, 5, 12)])
def test_the_moves_link_every_guess_free_layout(width: int, height: int, mines: int) -> None:
    # The chain keeps the uniform distribution over the layouts its moves can reach from its
    # start; on these boards (the oracle's lists) that is all of them.
    sizes = _swap_components(width, height, mines)
    assert len(sizes) == 1
    assert sizes[0] == len(guess_free_layouts(width, height, mines, START, "opening"))


@pytest.mark.parametrize("mines", [99, 150])
def test_a_move_is_judged_as_a_solve_from_the_start_judges_it(mines: int) -> None:
    board = Board(30, 16)
    rng = random.Random(mines)
    first = generate(board, mines, rng, sampler="perturb")
    i = board.index(*first.start)
    area = board.start_area(i, "opening")
    watch = _Watch(None, None, str)
    trail = _Trail(first.layout, i, watch)
    layout = first.layout
    verdicts = set()
    for _ in range(150):
        mined = [c for c in range(board.size) if layout.mines >> c & 1 and not area >> c & 1]
        free = [c for c in range(board.size) if not (layout.mines | area) >> c & 1]
        cells = 1 << rng.choice(mined) | 1 << rng.choice(free)
        candidate = Layout(board, layout.mines ^ cells)
        expected = _clears(candidate, i, watch)
        assert trail.moved(candidate) == expected
        verdicts.add(expected)
        if expected:
            layout = candidate
    assert verdicts == {True, False}


def test_chain_boards_depend_on_the_seed_alone() -> None:
    board = Board(16, 16)
    made = [generate(board, 60, random.Random(7), sampler="chain") for _ in range(2)]
    assert made[0] == made[1]
    assert made[0].sampler == "chain"
    other = generate(board, 60, random.Random(8), sampler="chain")
    assert other.layout != made[0].layout


def test_the_chain_keeps_a_window_of_levels() -> None:
    from mineproof.logic import grade

    made = generate(Board(9, 9), 10, random.Random(3), sampler="chain", max_level=2)
    assert made.level is not None and made.level <= 2
    assert grade(made.layout, made.start).level == made.level


def test_the_chain_refuses_boards_too_large() -> None:
    with pytest.raises(ArgumentError, match="at most 4,096 cells"):
        generate(Board(100, 100), 10, random.Random(1), sampler="chain")
    assert CHAIN_CELLS == 4096


def test_the_chain_without_a_start_cell_moves_it_to_each_hint_cell() -> None:
    from mineproof.generate import hint_cell
    from mineproof.logic import solve

    made = generate(Board(9, 9), 25, random.Random(5), rule="safe", sampler="chain")
    assert made.start == hint_cell(made.layout)
    assert solve(made.layout, made.start).solved
