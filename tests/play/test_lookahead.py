"""One move ahead: the what-if counts agree with analysing the position the reveal would give."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations, pairwise, product

import pytest

from mineproof.analysis import analyze
from mineproof.analysis.constraints import Constraints, constraints_of
from mineproof.analysis.core import Counts, count_constraints
from mineproof.bitboard import bitboard
from mineproof.board import iter_bits
from mineproof.play.config import DEFAULT
from mineproof.play.influence import influence_factor
from mineproof.play.lookahead import Lookahead, likeliest_first, next_safety
from mineproof.position import Position

from .conftest import StuckPositions


def arrangements(cons: Constraints) -> list[int]:
    """Return every arrangement of the constraints' mines that fits their clues, listed."""
    return [
        m
        for chosen in combinations(iter_bits(cons.unknown), cons.mines)
        if all(
            ((m := sum(1 << c for c in chosen)) & clue.mask).bit_count() == clue.mines
            for clue in cons.clues
        )
    ]


def test_reveals_match_the_analysis_of_each_number(stuck_positions: StuckPositions) -> None:
    positions = stuck_positions(10, 8, 8, 10, 64)
    assert len(positions) == 10
    for position in positions:
        analysis = analyze(position, trust_flags=True)
        look = Lookahead(analysis)
        for cell in iter_bits(position.covered_mask & ~analysis.mine_mask)[:6]:
            seen = 0
            for value, counts in look.reveals(cell):
                cells = list(position.cells)
                cells[cell] = value
                after = analyze(Position(position.board, tuple(cells), position.mines), True)
                assert counts.total == after.arrangements
                assert counts.safe == after.safe_mask
                seen += counts.total
            # Every arrangement with the cell safe shows exactly one number.
            assert seen == analysis.arrangements - analysis.mine_counts[cell]


def test_score_is_an_expected_next_safety(stuck_positions: StuckPositions) -> None:
    position = stuck_positions(1, 8, 8, 10, 64)[0]
    analysis = analyze(position, trust_flags=True)
    bits = bitboard(position.board.width, position.board.height)
    look = Lookahead(analysis)
    plain = Lookahead(analysis, replace(DEFAULT, living=False, enablers=False, progress_bonus=0))
    checked = 0
    for cell in iter_bits(position.covered_mask & ~analysis.mine_mask):
        score, bare = look.score(cell), plain.score(cell)
        numbers = sorted(look.reveals(cell), key=lambda shown: shown[0])
        shown = [(counts.total / analysis.arrangements, counts) for _, counts in numbers]
        # Summed in the order of the numbers, whatever order they are looked at in: the same
        # float to the last bit.
        assert score.secondary == sum(p * next_safety(c, bits) for p, c in shown)
        assert score.progress == sum(p for p, c in shown if c.safe)
        assert score.clears == sum(p * c.safe.bit_count() for p, c in shown if c.safe)
        assert bare.secondary == pytest.approx(sum(p * next_safety(c) for p, c in shown))
        assert 0 < score.secondary <= score.safety <= 1
        assert not score.pruned
        # The progress bonus: the chance of a number that proves safe more than the cells
        # proven safe whatever the number.
        common = ~0
        for _, c in shown:
            common &= c.safe
        beyond = sum(p for p, c in shown if c.safe & ~common)
        factor = influence_factor(analysis, cell, look.risk(cell))
        expected = score.secondary * factor * (1 + DEFAULT.progress_bonus * beyond)
        assert score.weight == pytest.approx(expected)
        assert score.common == (common if shown else 0)
        # A bound above what the cell can reach (its weight is at most 1.9 x 1.01 times its
        # safety) stops the evaluation.
        assert score.weight >= score.secondary
        assert look.score(cell, bound=2 * score.safety).pruned
        # Its reach bounds its weight, and a bound at its reach spares every count.
        assert score.weight <= look.reach(cell) <= 2 * score.safety
        assert look.score(cell, bound=look.reach(cell)).pruned
        checked += 1
    assert checked > 10


def test_dead_cells_are_those_that_can_show_one_number(stuck_positions: StuckPositions) -> None:
    # Checked against the arrangements themselves: a cell is dead when every arrangement with
    # it safe gives it the same number.
    dead = 0
    for position in stuck_positions(15, 5, 5, 5, 25):
        analysis = analyze(position, trust_flags=True)
        look = Lookahead(analysis)
        masks = position.board.neighbour_masks()
        cons = constraints_of(position, trust_flags=True)
        fits = arrangements(cons)
        for cell in iter_bits(cons.unknown & ~analysis.mine_mask):
            numbers = {(m & masks[cell]).bit_count() for m in fits if not m >> cell & 1}
            assert look.score(cell).dead == (len(numbers) == 1)
            dead += len(numbers) == 1
    assert dead  # the games did show some dead cells


def test_a_living_cell_is_not_dead() -> None:
    position = Position.parse("4x4x2\nHHHH\nH1HH\nHHHH\nHHHH")
    look = Lookahead(analyze(position, trust_flags=True))
    assert not look.score(0).dead


def test_next_safety_blends_the_two_safest_cells() -> None:
    # A clue over three cells with one mine (1/3 each) and 3 outside cells with one mine.
    counts = count_constraints(0b111111, 2, constraints_of(Position.parse("1x1x0\n0")).clues)
    assert counts.outside == 0b111111  # no clue: every cell is outside
    assert next_safety(counts) == pytest.approx(1 - 2 / 6)
    boxes = Counts(total=12, safe=0, mine=0, boxes=[(0b1, 3), (0b110, 6)], outside=0, per_outside=0)
    assert next_safety(boxes) == pytest.approx((4 * (1 - 3 / 12) + (1 - 6 / 12)) / 5)
    assert next_safety(Counts(5, 0b11, 0, [], 0, 0)) == 1.0  # safe cells: no guess needed
    # A lone safe cell counts as the safest; the next is the safest undecided cell.
    lone = Counts(
        total=10, safe=0b1, mine=0, boxes=[(0b110, 3), (0b1000, 5)], outside=0, per_outside=0
    )
    assert next_safety(lone) == pytest.approx((4 * 1 + (1 - 3 / 10)) / 5)
    assert next_safety(Counts(5, 0b1, 0, [], 0, 0)) == 1.0  # and nothing else to guess
    assert next_safety(Counts(1, 0, 0b11, [], 0, 0)) == 1.0  # only mines left: the game is won


def test_living_next_safety_matches_the_arrangements(stuck_positions: StuckPositions) -> None:
    # From the definition, over the listed arrangements of each position a reveal gives: a
    # cell is living when some neighbour of it is a mine in some arrangements and not in
    # others; the next move blends the two safest living cells (a lone proven one counting
    # as the safest), 1.0 with two living cells proven safe. (Cells no clue sees are taken as
    # living: they nearly always are; positions where one is not are left out.)
    checked = differ = 0
    for position in stuck_positions(8, 5, 5, 5, 25):
        analysis = analyze(position, trust_flags=True)
        look = Lookahead(analysis)
        masks = position.board.neighbour_masks()
        bits = bitboard(position.board.width, position.board.height)
        for cell in iter_bits(position.covered_mask & ~analysis.mine_mask)[:4]:
            for value, counts in look.reveals(cell):
                cells = list(position.cells)
                cells[cell] = value
                after = Position(position.board, tuple(cells), position.mines)
                cons = constraints_of(after, trust_flags=True)
                fits = arrangements(cons)
                every, some = ~0, 0
                for m in fits:
                    every &= m
                    some |= m
                undecided = some & ~every
                living = [c for c in iter_bits(cons.unknown) if masks[c] & undecided & ~(1 << c)]
                safety = {c: sum(1 for m in fits if not m >> c & 1) / len(fits) for c in living}
                proven = [c for c in living if safety[c] == 1]
                ranked = sorted((s for c, s in safety.items() if s < 1), reverse=True)
                ranked = ranked or [1.0]
                if len(proven) > 1:
                    expected = 1.0
                elif proven:
                    expected = (4 + ranked[0]) / 5
                else:
                    ranked += ranked[:1]
                    expected = (4 * ranked[0] + ranked[1]) / 5
                if not living or counts.outside & ~sum(1 << c for c in living):
                    continue  # cells no clue sees count as living; dead-only falls back
                assert next_safety(counts, bits) == pytest.approx(expected), (after, cell)
                checked += 1
                differ += next_safety(counts) != pytest.approx(expected)
    assert checked > 50 and differ  # and dead cells did change some


def test_count_constraints_counts_like_brute_force() -> None:
    position = Position.parse("5x3x3\nHHHHH\nH2H1H\nHHHHH")
    cons = constraints_of(position)
    counts = count_constraints(cons.unknown, cons.mines, cons.clues)
    cells = iter_bits(cons.unknown)
    fits = [
        sum(1 << c for c in chosen)
        for chosen in combinations(cells, cons.mines)
        if all(
            (sum(1 << c for c in chosen) & clue.mask).bit_count() == clue.mines
            for clue in cons.clues
        )
    ]
    assert counts.total == len(fits)
    for box, n in counts.boxes:
        for c in iter_bits(box):
            assert n == sum(1 for m in fits if m >> c & 1)


def test_likeliest_first_orders_by_independent_chances(stuck_positions: StuckPositions) -> None:
    # Against the chances of every way the cells can be mines or not, each on its own chance
    # (the estimate the order uses), listed.
    for position in stuck_positions(4, 8, 8, 10, 64):
        analysis = analyze(position, trust_flags=True)
        covered = iter_bits(position.covered_mask)
        for start in range(0, len(covered) - 3, 5):
            cells = covered[start : start + 4]
            q = [analysis.mine_counts[c] / analysis.arrangements for c in cells]
            chance = [0.0] * (len(cells) + 1)
            for ways in product((0, 1), repeat=len(cells)):
                weight = 1.0
                for is_mine, qc in zip(ways, q, strict=True):
                    weight *= qc if is_mine else 1 - qc
                chance[sum(ways)] += weight
            order = likeliest_first(analysis, sum(1 << c for c in cells))
            assert sorted(order) == list(range(len(cells) + 1))
            ranked = [chance[k] for k in order]
            assert all(a >= b - 1e-12 for a, b in pairwise(ranked))
