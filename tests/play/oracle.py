"""A brute-force oracle of the player tests, sharing no code with the engine: the layouts that
fit a position, and the best chance to win after each first move, by trying every move."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from mineproof.position import Position


def neighbours(w: int, h: int, i: int) -> frozenset[int]:
    """Return the cells next to cell ``i`` of a ``w`` x ``h`` board."""
    x, y = i % w, i // w
    return frozenset(
        ny * w + nx
        for ny in range(max(0, y - 1), min(h, y + 2))
        for nx in range(max(0, x - 1), min(w, x + 2))
        if (nx, ny) != (x, y)
    )


def layouts(position: Position) -> list[frozenset[int]]:
    """Return every set of mines over the covered cells that fits the numbers and the total."""
    w, h = position.width, position.height
    covered = [i for i, c in enumerate(position.cells) if c < 0]
    shown = [(i, c) for i, c in enumerate(position.cells) if c >= 0]
    return [
        frozenset(m)
        for m in combinations(covered, position.mines)
        if all(len(neighbours(w, h, i) & set(m)) == c for i, c in shown)
    ]


def optimal(position: Position) -> dict[int, float]:
    """Return, for each covered cell, the best chance to win when opening it next."""
    w, h = position.width, position.height
    covered = frozenset(i for i, c in enumerate(position.cells) if c < 0)

    @cache
    def chance(states: frozenset[frozenset[int]], opened: frozenset[int]) -> float:
        if all(covered - opened - m == set() for m in states):
            return 1.0
        return max((value(states, opened, c) for c in covered - opened), default=0.0)

    def value(states: frozenset[frozenset[int]], opened: frozenset[int], c: int) -> float:
        by_number: dict[int, set[frozenset[int]]] = {}
        for m in states:
            if c not in m:
                by_number.setdefault(len(neighbours(w, h, c) & m), set()).add(m)
        return sum(
            len(g) / len(states) * chance(frozenset(g), opened | {c}) for g in by_number.values()
        )

    everything = frozenset(layouts(position))
    return {c: value(everything, frozenset(), c) for c in covered}
