"""Unavoidable 50/50 chains, checked against every arrangement of real games' positions."""

from __future__ import annotations

import pytest

from mineproof.analysis import analyze
from mineproof.board import iter_bits
from mineproof.play.fifty import unavoidable_fifty_fifties
from mineproof.play.player import best_guess, isolated_fifty_fifty
from mineproof.position import Position

from .conftest import StuckPositions
from .oracle import layouts, neighbours, optimal

# Column C holds a chain: C1/C2 share one mine (the 1 at D1), and so do C4/C5 (the 2 at B5,
# beside A4, which the 1 at A5 proves a mine);
# C3 is open, and every number or covered cell beside the column sees as many cells of one
# way (C1 and C4 mines) as of the other (C2 and C5). D3 to E5 are covered and undecided.
CHAIN = "5x5x6\n01H10\n01H21\n1213H\nH2H4H\n12HHH"


def _arrangements(position: Position) -> list[int]:
    """Every mine mask of the covered cells that fits the numbers and the mine total."""
    return [sum(1 << c for c in m) for m in layouts(position)]


def _cells(position: Position, mask: int) -> set[tuple[int, int]]:
    return {position.board.xy(i) for i in iter_bits(mask)}


def test_a_chain_of_links_is_one_fifty_fifty() -> None:
    position = Position.parse(CHAIN)
    analysis = analyze(position)
    assert isolated_fifty_fifty(analysis) is None  # no pair is walled in on its own
    chains = unavoidable_fifty_fifties(analysis)
    assert [_cells(position, c) for c in chains] == [{(2, 0), (2, 1), (2, 3), (2, 4)}]
    every = _arrangements(position)
    assert len(every) == analysis.arrangements > 2  # the rest of the board is still open
    ways = {m & chains[0] for m in every}
    assert [_cells(position, w) for w in sorted(ways)] == [{(2, 0), (2, 3)}, {(2, 1), (2, 4)}]
    guess = best_guess(analysis)
    assert guess.reason == "fifty-fifty" and chains[0] >> guess.cell & 1
    # Few arrangements: the end game's search weighs the chain's cells, and its chance to win
    # is the brute force's.
    chances = optimal(position)
    best = max(chances[c] for c in iter_bits(chains[0]))
    assert guess.win == pytest.approx(best)
    assert chances[guess.cell] == pytest.approx(best)


def _undecidable(position: Position, every: list[int], chain: int) -> bool:
    """Return whether swapping the mines of ``chain`` (mines to safe cells and back) turns every
    arrangement into another one that no safe cell outside ``chain`` tells apart from it."""
    fits = set(every)
    w, h = position.width, position.height
    masks = [sum(1 << n for n in neighbours(w, h, i)) for i in range(w * h)]
    for m in every:
        swapped = m ^ chain
        if swapped not in fits:
            return False
        for cell in iter_bits(position.board.full_mask & ~chain & ~m):
            if (masks[cell] & m).bit_count() != (masks[cell] & swapped).bit_count():
                return False
    return True


def test_a_link_that_a_cell_beside_it_can_decide_is_no_fifty_fifty() -> None:
    # D1/D2 hold the one mine the 1 at C1 still needs, but the covered E3 sees D2 and not
    # D1; A5/B5 hold the 1 at A4's mine, but the 2 at C5 sees B5 and not A5. Either link can
    # still be decided by numbers to come.
    position = Position.parse("5x5x6\n001HH\n012HH\n01H2H\n123HH\nHH2HH")
    analysis = analyze(position)
    assert unavoidable_fifty_fifties(analysis) == []
    every = _arrangements(position)
    board = position.board
    link = 1 << board.index(3, 0) | 1 << board.index(3, 1)
    assert {m & link for m in every} == {1 << board.index(3, 0), 1 << board.index(3, 1)}
    assert not _undecidable(position, every, link)


def test_a_chain_whose_two_ways_differ_in_mines_is_no_fifty_fifty() -> None:
    # The 1 at A5 needs one mine in A4/B4, the 1 at C5 one in B4/D4: A4 and D4 are mines
    # together, or B4 alone, and the mine total tells those apart in the end. (E1/E2, the
    # 1 at D1's pair, are a chain of their own.)
    position = Position.parse("5x5x6\n0001H\n0013H\n112HH\nHH2HH\n1112H")
    analysis = analyze(position)
    board = position.board
    chain = sum(1 << board.index(x, 3) for x in (0, 1, 3))
    assert not any(c & chain for c in unavoidable_fifty_fifties(analysis))
    every = _arrangements(position)
    assert len({m & chain for m in every}) == 2
    assert not _undecidable(position, every, chain)


def test_every_chain_is_a_coin_no_move_can_decide(stuck_positions: StuckPositions) -> None:
    """Checked by enumeration: every arrangement holds the chain's mines one of two ways with
    as many mines each; swapping the ways gives an arrangement; and no cell outside the chain
    that is safe shows a different number after the swap. Each cell is then a mine in exactly
    half the arrangements, whatever is opened elsewhere."""
    seen = longer = 0
    for size in ((5, 5, 6), (6, 5, 8), (8, 4, 8)):
        for position in stuck_positions(250, *size, 15):
            analysis = analyze(position)
            chains = unavoidable_fifty_fifties(analysis)
            pair = isolated_fifty_fifty(analysis)
            if pair is not None:  # an isolated pair is the chain of one link
                assert any(c >> pair & 1 for c in chains), position
            if not chains:
                continue
            every = _arrangements(position)
            for chain in chains:
                seen += 1
                longer += chain.bit_count() > 2
                ways = {m & chain for m in every}
                assert len(ways) == 2, position
                one, other = ways
                assert one ^ other == chain and one.bit_count() == other.bit_count(), position
                assert _undecidable(position, every, chain), position
                for cell in iter_bits(chain):
                    assert 2 * analysis.mine_counts[cell] == analysis.arrangements
    assert seen >= 100 and longer >= 20, (seen, longer)


def test_two_ways_with_different_mine_counts_are_no_fifty_fifty() -> None:
    # A2/B2 hold the mine the 2 at A1 still needs (B1 is flagged), B2/C2 the one of C1's 2;
    # the row below is flagged, so no cell but those three ever sees them, evenly. Yet A2 and
    # C2 together hold one mine more than B2 alone, so the mines left for the six cells that no
    # number sees tell the two ways apart: B2 is a mine in 20 arrangements, A2 and C2 in 15.
    position = Position.parse("3x5x8\n2F2\nHHH\nFFF\nHHH\nHHH")
    analysis = analyze(position, trust_flags=True)
    assert unavoidable_fifty_fifties(analysis) == []
    flags = position.flag_mask
    every = [m for m in _arrangements(position) if m & flags == flags]
    b2 = 1 << position.board.index(1, 1)
    assert (sum(1 for m in every if m & b2), len(every)) == (20, 35)


# Two chains of column C (C1/C2 and C4/C5 joined through the number at C3) whose cells show
# different numbers where safe, so that with best play after it one end of the chain wins
# more often than the other (found among games on 6x5 boards; the look one move ahead ranks
# a worse cell of each first).
UNEVEN_CHAINS = [
    "6x5x8\n2HH100\nHHH100\nHH2100\nHHH210\nHHHH10",
    "6x5x8\n2HH100\nHHH100\nHH3111\n2HH22H\nHHH2H2",
]


@pytest.mark.parametrize("text", UNEVEN_CHAINS)
def test_of_a_chain_the_cell_that_wins_most_often_is_taken(text: str) -> None:
    position = Position.parse(text)
    analysis = analyze(position)
    chains = unavoidable_fifty_fifties(analysis)
    assert chains
    chances = optimal(position)
    ends = {round(chances[c], 9) for c in iter_bits(chains[0])}
    assert len(ends) > 1  # the chain's cells are not worth the same
    guess = best_guess(analysis)
    assert guess.reason == "fifty-fifty" and chains[0] >> guess.cell & 1
    assert chances[guess.cell] == pytest.approx(max(ends))
    assert guess.win == pytest.approx(max(ends))
