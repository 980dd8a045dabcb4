"""components_of: its two ways of merging (one clue at a time for a standard board, a
union-find over the cells for a big one) give the same components in the same order, and
those are the connected components of the clues, found here by a plain graph search."""

from __future__ import annotations

import random

import pytest

from mineproof.analysis.constraints import (
    Clue,
    _merged_by_cells,
    _merged_one_by_one,
    components_of,
)


def random_clues(rng: random.Random, width: int, height: int, count: int) -> list[Clue]:
    """Return ``count`` clues, each seeing a few cells of a small neighbourhood."""
    clues = []
    for _ in range(count):
        x, y = rng.randrange(width), rng.randrange(height)
        mask = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if 0 <= x + dx < width and 0 <= y + dy < height and rng.random() < 0.5:
                    mask |= 1 << ((y + dy) * width + x + dx)
        clues.append(Clue(y * width + x, mask, min(1, mask.bit_count())))
    return clues


def groups_by_search(clues: list[Clue]) -> set[frozenset[int]]:
    """Return the clues' groups (by index) linked by shared cells, by depth-first search."""
    left = set(range(len(clues)))
    groups = set()
    while left:
        stack = [left.pop()]
        group = set(stack)
        while stack:
            i = stack.pop()
            for j in list(left):
                if clues[i].mask & clues[j].mask:
                    left.discard(j)
                    group.add(j)
                    stack.append(j)
        groups.add(frozenset(group))
    return groups


@pytest.mark.parametrize("count", [0, 1, 5, 40, 300, 401, 900])
def test_both_ways_give_the_components(count: int) -> None:
    rng = random.Random(count)
    for _ in range(5):
        clues = random_clues(rng, 60, 40, count)
        one = _merged_one_by_one(clues)
        other = _merged_by_cells(clues)
        assert [(c.mask, c.clues) for c in one] == [(c.mask, c.clues) for c in other]
        assert [(c.mask, c.clues) for c in components_of(clues)] == [(c.mask, c.clues) for c in one]
        index = {id(clue): i for i, clue in enumerate(clues)}
        found = {frozenset(index[id(clue)] for clue in c.clues) for c in one}
        # A clue with no cell is a component of its own in both ways; the search agrees.
        assert found == groups_by_search(clues)
        for c in one:
            mask = 0
            for clue in c.clues:
                mask |= clue.mask
            assert c.mask == mask
