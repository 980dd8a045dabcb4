"""Pseudo 50/50s, checked on the arrangements themselves (brute force, no engine code): every
cell found is safe or the mine of a pair that no number can decide, every such pair is found,
and opening the cell first wins as often as the best move."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import pytest

from mineproof.analysis import analyze
from mineproof.analysis.constraints import constraints_of
from mineproof.explain import hint
from mineproof.play.player import best_guess, isolated_fifty_fifty
from mineproof.play.pseudo import count_fixed, pseudo_fifty_fifty
from mineproof.position import Position

from .oracle import layouts, neighbours, optimal

# The conftest fixture: (count, width, height, mines, most covered) -> positions.
StuckPositions = Callable[[int, int, int, int, int], list[Position]]


def pseudo_pairs(position: Position, missing: int = 1) -> set[int]:
    """Return every cell ``a`` with a side neighbour ``b`` such that ``a`` is a mine in some
    layout, and in each of those ``b`` is safe and every cell seeing exactly one of the two is a
    mine; at most ``missing`` of those cells may be other than a mine in every layout."""
    w, h = position.width, position.height
    all_layouts = layouts(position)
    always = frozenset.intersection(*all_layouts)
    covered = {i for i, c in enumerate(position.cells) if c < 0}
    found = set()
    for a in covered - always:
        row = a // w
        for b in [c for c in (a - 1, a + 1) if c // w == row] + [a - w, a + w]:
            if b not in covered - always:
                continue
            deciders = (neighbours(w, h, a) ^ neighbours(w, h, b)) - {a, b}
            if deciders - covered or len(deciders - always) > missing:
                continue
            with_a = [m for m in all_layouts if a in m]
            if with_a and all(b not in m and deciders <= m for m in with_a):
                found.add(a)
    return found


def test_count_fixed_counts_like_brute_force(stuck_positions: StuckPositions) -> None:
    for position in stuck_positions(6, 5, 4, 4, 10):
        cons = constraints_of(position, trust_flags=True)
        every = layouts(position)
        covered = [i for i, c in enumerate(position.cells) if c < 0]
        for a, b in combinations(covered[:6], 2):
            got = count_fixed(cons, 1 << a, 1 << b)
            assert got == sum(1 for m in every if a in m and b not in m)


def test_pseudo_cells_are_the_mines_of_undecidable_pairs(stuck_positions: StuckPositions) -> None:
    positions = stuck_positions(80, 5, 5, 6, 11)
    assert len(positions) == 80
    found = beyond_isolated = 0
    for position in positions:
        analysis = analyze(position, trust_flags=True)
        cell = pseudo_fifty_fifty(analysis, constraints_of(position, trust_flags=True))
        expected = pseudo_pairs(position)
        if cell is None:
            assert not expected, position
            continue
        found += 1
        assert cell in expected, position
        beyond_isolated += isolated_fifty_fifty(analysis) is None
        # Opening it first wins as often as the best first move.
        chances = optimal(position)
        assert chances[cell] == pytest.approx(max(chances.values())), position
    assert found >= 5 and beyond_isolated >= 1  # the games did show some, not all isolated


def test_a_pair_behind_two_known_mines_is_a_pseudo_fifty_fifty() -> None:
    # A3 and B3 are mines (the 2 at A2). A4 and A5 are told apart only by A3 and B3, so if one
    # of them holds a mine, nothing but a guess can say which; but the last mine may as well lie
    # elsewhere (E4, E5), so no number asks for exactly one mine between them: not an isolated
    # 50/50, yet A4 is safe or the mine of a coin that must be tossed anyway.
    position = Position.parse("5x5x6\n00000\n22100\nHH211\nHH4HH\nHHHHH")
    analysis = analyze(position, trust_flags=True)
    assert isolated_fifty_fifty(analysis) is None
    cell = pseudo_fifty_fifty(analysis, constraints_of(position, trust_flags=True))
    board = position.board
    assert cell is not None and board.xy(cell) in {(0, 3), (0, 4)}
    assert cell in pseudo_pairs(position)
    assert 0 < analysis.mine_counts[cell] < analysis.arrangements
    chances = optimal(position)
    assert chances[cell] == pytest.approx(max(chances.values()))
    assert chances[best_guess(analysis).cell] == pytest.approx(max(chances.values()))


HINT_POSITION = "8x8x12\n" + "\n".join(
    ["0012HHHH", "001HHHHH", "0023HHHH", "001HHHHH", "2222HHHH", "HH11HHHH", "H321HHHH", "H" * 8]
)


def test_the_hint_names_the_pseudo_fifty_fifty_in_every_language() -> None:
    # The 2 at A5 makes A6 and B6 mines; the 3 at B7 then wants one more mine among A7, A8, B8
    # and C8. A7 and A8 are told apart only by A6 and B6: a mine in A7 could as well be in A8,
    # and no number will ever say which. Far too many arrangements for the exact end game.
    position = Position.parse(HINT_POSITION)
    analysis = analyze(position, trust_flags=True)
    assert analysis.arrangements > 10_000
    # In play, the hint shows the steps that prove mines (no safe cell), then the guess.
    found = hint(position, open=True)
    assert found.steps and not any(d.safe for d in found.steps)
    assert found.best is not None and found.best.reason == "pseudo-fifty-fifty"
    assert found.best.cell == (0, 6) and found.best.win is None
    assert 0 < found.best.probability < 0.5
    assert "A7" in found.best.text and found.guess_text.endswith(found.best.text)
    texts = {found.best.text}
    for lang in ("de", "es", "fr", "ja", "ko", "pt", "ru", "zh"):
        advice = hint(position, lang, open=True).best
        assert advice is not None and (advice.cell, advice.reason) == ((0, 6), "pseudo-fifty-fifty")
        assert "A7" in advice.text and advice.text not in texts  # translated, each its own
        texts.add(advice.text)
