"""Isolated 50/50s: found only where no future number can help, and taken first."""

from __future__ import annotations

from itertools import combinations

import pytest

from mineproof.analysis import analyze
from mineproof.board import iter_bits
from mineproof.explain import hint
from mineproof.play.player import best_guess, isolated_fifty_fifty
from mineproof.position import Position

from .conftest import StuckPositions
from .oracle import optimal


def _arrangements(position: Position) -> list[int]:
    """Every mine mask of the covered cells that fits the numbers and the mine total."""
    board = position.board
    covered = iter_bits(position.covered_mask)
    masks = board.neighbour_masks()
    found = []
    for mines in combinations(covered, position.mines):
        mask = sum(1 << c for c in mines)
        if all(
            (masks[i] & mask).bit_count() == position.cells[i]
            for i in iter_bits(position.number_mask)
        ):
            found.append(mask)
    return found


def test_the_two_cells_of_a_closed_edge_are_an_isolated_fifty_fifty() -> None:
    # Two cells above two 1s on a 2x2 board: nothing can ever tell them apart.
    position = Position.parse("2x2x1\nHH\n11")
    assert isolated_fifty_fifty(analyze(position)) == 0
    # With a covered cell beside them, a later number may decide: not isolated.
    assert isolated_fifty_fifty(analyze(Position.parse("3x2x1\nHHH\n11H"))) is None


def test_best_takes_the_isolated_pair_before_the_rest() -> None:
    # Left: A1/B1 hold one mine, walled in by the proven mines C1 and C2. Right: nine covered
    # cells, some at 14 %, where a later number can still help.
    position = Position.parse("6x3x5\nHHHHHH\n13HHHH\n012HHH")
    analysis = analyze(position)
    assert not analysis.safe_mask
    cell = isolated_fifty_fifty(analysis)
    assert cell is not None and position.board.xy(cell) == (0, 0)
    guess = best_guess(analysis)
    assert (guess.cell, guess.reason) == (cell, "fifty-fifty")
    assert guess.win == pytest.approx(optimal(position)[cell])  # few arrangements: weighed exactly
    # The safest player would open a 14 % cell on the right instead.
    assert analysis.mine_counts[cell] * 2 == analysis.arrangements


def test_the_hint_names_the_isolated_pair_as_the_best_guess() -> None:
    # As above, with the two proven mines flagged (the hint takes proven flags as mines).
    position = Position.parse("6x3x5\nHHFHHH\n13FHHH\n012HHH")
    found = hint(position)
    assert found.best is not None and found.best.reason == "fifty-fifty"
    assert found.best.cell == (0, 0)
    unflagged = Position.parse("6x3x5\nHHHHHH\n13HHHH\n012HHH")
    assert found.best.win == pytest.approx(optimal(unflagged)[0])
    layouts = _arrangements(unflagged)
    assert found.best.probability == sum(m & 1 for m in layouts) / len(layouts) == 0.5
    # Next to it, the safest cells: lower odds, but a guess there may still leave the pair.
    assert found.probability is not None and found.probability < 0.5
    assert (0, 0) not in found.safest
    assert found.text.endswith(found.best.text) and "50/50" in found.best.text
    german = hint(position, "de").best
    assert german is not None and (german.cell, german.reason) == ((0, 0), "fifty-fifty")
    assert german.text.startswith("Am besten rät man A1")


def test_a_play_hint_that_proves_only_mines_goes_on_to_the_guess() -> None:
    # Unflagged: the numbers prove C1 and C2 to be mines, and no cell safe. In play the hint
    # shows those steps, then the guess of the position with them flagged.
    position = Position.parse("6x3x5\nHHHHHH\n13HHHH\n012HHH")
    found = hint(position, open=True)
    assert found.steps and not any(d.safe for d in found.steps)
    assert found.best is not None and (found.best.cell, found.best.reason) == (
        (0, 0),
        "fifty-fifty",
    )
    assert found.guess_text.endswith(found.best.text)
    assert found.headline.endswith(found.guess_text)
    data = found.to_json()
    assert data["level"] == 1 and data["guess_text"] == found.guess_text
    assert data["best"]["cell"] == [0, 0] and data["safest"] == [list(c) for c in found.safest]
    # Without open, the hint is the first deduction alone.
    assert not hint(position).guess_text and "guess_text" not in hint(position).to_json()


def test_every_isolated_pair_is_an_independent_coin(stuck_positions: StuckPositions) -> None:
    """Checked by enumeration on positions of real games: one mine in the pair in every
    arrangement, each cell a mine in exactly half, and no covered cell beside the pair."""
    seen = 0
    for position in stuck_positions(400, 5, 5, 6, 14):
        analysis = analyze(position)
        cell = isolated_fifty_fifty(analysis)
        if cell is None:
            continue
        seen += 1
        masks = position.board.neighbour_masks()
        everything = _arrangements(position)
        assert len(everything) == analysis.arrangements
        partners = [
            p
            for p in iter_bits(position.covered_mask)
            if p != cell and all(((m >> cell) ^ (m >> p)) & 1 for m in everything)
        ]
        assert partners, f"no cell pairs with {cell} in every arrangement:\n{position}"
        both = (1 << cell) | (1 << partners[0])
        assert sum(1 for m in everything if m >> cell & 1) * 2 == len(everything)
        border = (masks[cell] | masks[partners[0]]) & ~both
        unknown = position.covered_mask & ~analysis.mine_mask
        assert not border & unknown
    assert seen >= 3, "too few isolated 50/50s to test"
