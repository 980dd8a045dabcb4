"""Pseudo 50/50s, checked on the arrangements themselves (brute force, no engine code): every
cell found is safe or the mine of a pair that no number can decide, every such pair is found,
and opening the cell first wins as often as the best move; the same for the cells of larger
swaps (chains of links joined with pairs)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from mineproof.analysis import analyze
from mineproof.analysis.constraints import constraints_of
from mineproof.board import Board, Layout
from mineproof.explain import hint
from mineproof.game import Game
from mineproof.play.config import GuessConfig
from mineproof.play.fifty import link_chains, unavoidable_fifty_fifties
from mineproof.play.player import best_guess, isolated_fifty_fifty
from mineproof.play.pseudo import _parts, count_fixed, safe_or_fifty
from mineproof.position import Position

from .conftest import StuckPositions
from .oracle import layouts, neighbours, optimal


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


def twin_cells(position: Position) -> set[int]:
    """Return every cell ``a`` that is a mine in some layout, where each layout with ``a`` a
    mine has a twin with ``a`` safe that every cell safe in both sees as many mines in: no
    number, shown or still to come, tells the two apart."""
    w, h = position.width, position.height
    every = layouts(position)
    always = frozenset.intersection(*every)
    around = [neighbours(w, h, c) for c in range(w * h)]

    def twins(m: frozenset[int], t: frozenset[int]) -> bool:
        return all(len(around[c] & m) == len(around[c] & t) for c in range(w * h) if c not in m | t)

    covered = {i for i, c in enumerate(position.cells) if c < 0}
    found = set()
    for a in covered - always:
        with_a = [m for m in every if a in m]
        without = [m for m in every if a not in m]
        if with_a and all(any(twins(m, t) for t in without) for m in with_a):
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


def test_every_cell_of_an_undecidable_pair_is_found(stuck_positions: StuckPositions) -> None:
    positions = stuck_positions(80, 5, 5, 6, 11)
    assert len(positions) == 80
    found = beyond_isolated = 0
    for position in positions:
        analysis = analyze(position, trust_flags=True)
        cells = set(safe_or_fifty(analysis, constraints_of(position, trust_flags=True)))
        assert pseudo_pairs(position) <= cells, position
        assert cells <= twin_cells(position), position
        if not cells:
            continue
        found += 1
        beyond_isolated += isolated_fifty_fifty(analysis) is None
        # Opening any of them first wins as often as the best first move.
        chances = optimal(position)
        assert all(chances[c] == pytest.approx(max(chances.values())) for c in cells), position
    assert found >= 5 and beyond_isolated >= 1  # the games did show some, not all isolated


def test_a_pair_behind_two_known_mines_is_a_pseudo_fifty_fifty() -> None:
    # A3 and B3 are mines (the 2 at A2). A4 and A5 are told apart only by A3 and B3, so if one
    # of them holds a mine, nothing but a guess can say which; but the last mine may as well lie
    # elsewhere (E4, E5), so no number asks for exactly one mine between them: not an isolated
    # 50/50, yet A4 is safe or the mine of a coin that must be tossed anyway.
    position = Position.parse("5x5x6\n00000\n22100\nHH211\nHH4HH\nHHHHH")
    analysis = analyze(position, trust_flags=True)
    assert isolated_fifty_fifty(analysis) is None
    cells = safe_or_fifty(analysis, constraints_of(position, trust_flags=True))
    board = position.board
    assert cells and {board.xy(c) for c in cells} <= {(0, 3), (0, 4)}
    assert set(cells) <= pseudo_pairs(position)
    assert all(0 < analysis.mine_counts[c] < analysis.arrangements for c in cells)
    chances = optimal(position)
    assert all(chances[c] == pytest.approx(max(chances.values())) for c in cells)
    assert chances[best_guess(analysis).cell] == pytest.approx(max(chances.values()))


HINT_POSITION = "8x8x12\n" + "\n".join(
    ["0012HHHH", "001HHHHH", "0023HHHH", "001HHHHH", "2222HHHH", "HH11HHHH", "H321HHHH", "H" * 8]
)


def test_the_hint_names_the_pseudo_fifty_fifty_in_every_language() -> None:
    # The 2 at A5 makes A6 and B6 mines; the 3 at B7 then wants one more mine among A7, A8, B8
    # and C8. A7 and A8 are told apart only by A6 and B6: a mine in A7 could as well be in A8,
    # and no number will ever say which. Column E holds a larger coin: every other cell sees
    # as many of E1, E4, E7 as of E2, E5, E8, and wherever E7 is a mine, so are E1 and E4 while
    # E2, E5 and E8 are safe; the three mines could as well be in the other three. E7 is the
    # safer of the two (7 % against 8 %). Far too many arrangements for the exact end game.
    position = Position.parse(HINT_POSITION)
    analysis = analyze(position, trust_flags=True)
    assert analysis.arrangements > 10_000
    board = position.board
    cells = safe_or_fifty(analysis, constraints_of(position, trust_flags=True))
    assert {(0, 6), (4, 6)} <= {board.xy(c) for c in cells}
    e7, a7 = (analysis.mine_counts[board.index(x, 6)] for x in (4, 0))
    assert 0 < e7 < a7
    # In play, the hint shows the steps that prove mines (no safe cell), then the guess.
    found = hint(position, open=True)
    assert found.steps and not any(d.safe for d in found.steps)
    assert found.best is not None and found.best.reason == "pseudo-fifty-fifty"
    assert found.best.cell == (4, 6) and found.best.win is None
    assert found.best.probability == pytest.approx(e7 / analysis.arrangements)
    assert "E7" in found.best.text and found.guess_text.endswith(found.best.text)
    texts = {found.best.text}
    for lang in ("de", "es", "fr", "ja", "ko", "pt", "ru", "zh"):
        advice = hint(position, lang, open=True).best
        assert advice is not None and (advice.cell, advice.reason) == ((4, 6), "pseudo-fifty-fifty")
        assert "E7" in advice.text and advice.text not in texts  # translated, each its own
        texts.add(advice.text)


def test_swap_cells_are_safe_or_an_undecidable_coin(stuck_positions: StuckPositions) -> None:
    positions = stuck_positions(120, 6, 6, 8, 12)
    assert len(positions) >= 100
    found = 0
    for position in positions:
        analysis = analyze(position, trust_flags=True)
        cells = safe_or_fifty(analysis, constraints_of(position, trust_flags=True))
        if not cells:
            continue
        found += 1
        assert set(cells) <= twin_cells(position), position
        chances = optimal(position)
        best = max(chances.values())
        assert all(chances[c] == pytest.approx(best) for c in cells), position
    assert found >= 20


# C1 ... G6: the 1 at E1 and the 3 at G3 ask one mine each of F1/F2 and G4/G5; the 4 at F5 and
# the 3 at E2 tie them together. Which of F1, G4 holds a mine, or F2, G5, no number can tell.
SWAP_POSITION = "7x6x9\n00001HH\n00013HH\n0112HH3\n01H334H\n0112H4H\n00012HH"


def test_a_swap_of_two_pairs_is_found_where_no_pair_is_one() -> None:
    position = Position.parse(SWAP_POSITION)
    analysis = analyze(position, trust_flags=True)
    cells = safe_or_fifty(analysis, constraints_of(position, trust_flags=True))
    board = position.board
    assert {board.xy(c) for c in cells} == {(5, 0), (6, 4)}
    assert not unavoidable_fifty_fifties(analysis)
    assert not set(cells) & pseudo_pairs(position)  # beyond the pairs
    assert set(cells) <= twin_cells(position)
    chances = optimal(position)
    assert all(chances[c] == pytest.approx(max(chances.values())) for c in cells)
    # The player takes it before weighing cells (here the exact end game would come first).
    config = GuessConfig(endgame_arrangements=1, regions=False)
    guess = best_guess(analysis, config=config)
    assert guess.cell in cells and guess.reason == "pseudo-fifty-fifty"


def test_every_pair_behind_known_mines_is_a_part() -> None:
    # Two covered cells side by side whose deciders (the cells next to one of them, not both)
    # hold no opened cell and at most one cell that is not a known mine: listed here from the
    # board's geometry, each must be a part of the swaps (unless a chain of links holds it).
    # The known mines are all the layout's, so that many pairs qualify, at edges and inside.
    checked = 0
    for w, h, mines in ((30, 16, 99), (9, 9, 10), (8, 3, 9), (3, 8, 9)):
        board = Board(w, h)
        masks = board.neighbour_masks()
        for seed in range(10):
            layout = Layout.random(board, mines, random.Random(seed), (0, 0), "safe")
            game = Game(layout)
            game.reveal(0, 0)
            position = game.position()
            analysis = analyze(position)
            covered = {i for i in range(w * h) if position.covered_mask >> i & 1}
            known = {i for i in covered if layout.mines >> i & 1}
            chained = set()
            for side0, side1 in link_chains(analysis):
                chained |= {i for i in range(w * h) if (side0 | side1) >> i & 1}
            known_mask = sum(1 << i for i in known)
            opened_mask = board.full_mask & ~position.covered_mask
            parts = {p.cells for p in _parts(analysis, masks, known_mask, opened_mask)}
            for t in covered - known:
                for u in (t + 1, t + w):
                    if u not in covered - known or (u == t + 1 and u % w == 0) or {t, u} & chained:
                        continue
                    deciders = (neighbours(w, h, t) ^ neighbours(w, h, u)) - {t, u}
                    if deciders - covered or len(deciders - known) > 1:
                        continue
                    assert (1 << t | 1 << u) in parts, (w, h, seed, t, u)
                    checked += 1
    assert checked > 50
