"""Long-term risk: the 50/50s in waiting around a cell, counted against brute force."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import pytest

from mineproof.analysis import analyze
from mineproof.analysis.constraints import constraints_of
from mineproof.board import iter_bits
from mineproof.play.influence import WEIGHT, influence, influence_factor
from mineproof.position import Position

# The conftest fixture: (count, width, height, mines, most covered) -> positions.
StuckPositions = Callable[[int, int, int, int, int], list[Position]]


def brute_influence(position: Position, cell: int) -> int:
    """The influence of ``cell`` from its definition, over every arrangement listed."""
    board = position.board
    masks = board.neighbour_masks()
    cons = constraints_of(position, trust_flags=True)
    known = position.flag_mask
    fits = [
        m
        for chosen in combinations(iter_bits(cons.unknown), cons.mines)
        if all(
            ((m := sum(1 << c for c in chosen)) & clue.mask).bit_count() == clue.mines
            for clue in cons.clues
        )
    ]
    # A cell proven a mine by the analysis is known too.
    every = ~0
    for m in fits:
        every &= m
    known |= every & cons.unknown if fits else 0
    hidden = position.covered_mask & ~known

    def waiting(mines: int, safe: int, cells: int) -> int:
        """Arrangements with ``mines`` mined, ``safe`` safe and every decider a mine, where the
        deciders are the cells that see exactly one cell of ``cells``."""
        deciders = 0
        for c in iter_bits(board.full_mask & ~cells):
            if (masks[c] & cells).bit_count() == 1:
                deciders |= 1 << c
        if deciders & ~position.covered_mask:
            return 0  # an opened cell tells the two ways apart
        missing = deciders & hidden
        if missing.bit_count() > 3 or (mines | safe) & ~hidden:
            return 0
        need = mines | missing
        return sum(1 for m in fits if m & need == need & cons.unknown and not m & safe)

    x, y = board.xy(cell)
    total = 0
    for (ax, ay), (bx, by) in (
        ((x, y), (x + 1, y)),
        ((x - 1, y), (x, y)),
        ((x, y), (x, y + 1)),
        ((x, y - 1), (x, y)),
    ):
        if min(ax, bx, ay, by) < 0 or max(ax, bx) >= board.width:
            continue
        if max(ay, by) >= board.height:
            continue
        a, b = board.index(ax, ay), board.index(bx, by)
        if hidden >> a & 1 and hidden >> b & 1:
            total += waiting(1 << a, 1 << b, 1 << a | 1 << b)
    boxes = [0]
    for bx, by in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)):
        if not (0 <= bx < board.width - 1 and 0 <= by < board.height - 1):
            continue
        tl, tr = board.index(bx, by), board.index(bx + 1, by)
        bl, br = board.index(bx, by + 1), board.index(bx + 1, by + 1)
        block = 1 << tl | 1 << tr | 1 << bl | 1 << br
        if block & ~hidden:
            continue
        boxes.append(waiting(1 << tl | 1 << br, 1 << tr | 1 << bl, block))
    total += max(boxes)
    mine = sum(1 for m in fits if m >> cell & 1)
    return min(total, mine, len(fits) - mine)


def test_influence_counts_like_brute_force(stuck_positions: StuckPositions) -> None:
    seen = 0
    for position in stuck_positions(12, 5, 5, 5, 25):
        analysis = analyze(position, trust_flags=True)
        cons = constraints_of(position, trust_flags=True)
        for cell in iter_bits(cons.unknown & ~analysis.mine_mask):
            got = influence(analysis, cons, cell)
            assert got == brute_influence(position, cell), (position, cell)
            seen += got > 0
            safe = analysis.arrangements - analysis.mine_counts[cell]
            assert influence_factor(analysis, cell, got) == pytest.approx(1 + WEIGHT * got / safe)
    assert seen  # some cells did sit in a 50/50 in waiting
