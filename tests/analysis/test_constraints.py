"""The one-clue rules (``propagate``): both ways of applying them against a naive fixpoint
written here, and a snake that decides one cell per round, analysed in one pass."""

from __future__ import annotations

import random

import pytest

import mineproof.analysis.constraints as constraints
from mineproof.analysis import analyze
from mineproof.analysis.constraints import Clue, Contradiction, propagate

from .hostile import snake


def naive(clues: list[Clue]) -> tuple[int, int, list[Clue]] | None:
    """The one-clue rules by their definition, or ``None`` where they reach a contradiction:
    decide every cell of a clue whose mines are all found or all its cells, until nothing
    changes; then the undecided clues, reduced, in their order, the first of equal masks kept."""
    safe = mine = 0
    changed = True
    while changed:
        changed = False
        for _cell, mask, count in clues:
            left = mask & ~(safe | mine)
            need = count - (mask & mine).bit_count()
            if need < 0 or need > left.bit_count():
                return None
            if left and need == 0:
                safe |= left
                changed = True
            elif left and need == left.bit_count():
                mine |= left
                changed = True
    rest: dict[int, Clue] = {}
    for cell, mask, count in clues:
        left = mask & ~(safe | mine)
        need = count - (mask & mine).bit_count()
        if 0 < need < left.bit_count():
            if left in rest and rest[left].mines != need:
                return None
            rest.setdefault(left, Clue(cell, left, need))
    return safe, mine, list(rest.values())


def outcome(clues: list[Clue]) -> tuple[int, int, list[Clue]] | None:
    try:
        return propagate(clues)
    except Contradiction:
        return None


@pytest.mark.parametrize("round_work", [constraints._ROUND_WORK, 0])
def test_propagate_agrees_with_the_rules_applied_naively(
    round_work: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # round_work 0: every call goes the way of long chains (only the clues beside a cell
    # decided are looked at again); the default goes round after round on these small sets.
    monkeypatch.setattr(constraints, "_ROUND_WORK", round_work)
    rng = random.Random(13)
    contradictions = 0
    for _ in range(20_000):
        cells = rng.randint(2, 14)
        truth = [rng.random() < 0.4 for _ in range(cells)]
        clues = []
        for _ in range(rng.randint(1, 10)):
            seen = rng.sample(range(cells), rng.randint(1, min(4, cells)))
            count = sum(truth[c] for c in seen) + (rng.choice((-1, 1)) if rng.random() < 0.1 else 0)
            clues.append(Clue(rng.randint(100, 200), sum(1 << c for c in seen), count))
        expected = naive(clues)
        contradictions += expected is None
        assert outcome(clues) == expected, clues
    assert 2_000 < contradictions < 18_000  # both outcomes are exercised


def test_a_snake_proven_a_cell_at_a_time_is_analysed_in_one_pass() -> None:
    # 16,000 clues, each deciding the next cell of the snake only once the one after it is
    # known: round after round, this took minutes (255x255: 524 s).
    position, layout = snake(255)
    result = analyze(position, trust_flags=True)
    covered = position.covered_mask & ~position.flag_mask
    assert result.arrangements == 1
    assert result.safe_mask == covered & ~layout.mines
    assert result.mine_mask == covered & layout.mines and result.mine_mask
