"""Long-term risk: the 50/50s in waiting around a cell, counted against brute force."""

from __future__ import annotations

from itertools import combinations

import pytest

from mineproof.analysis import analyze
from mineproof.analysis.constraints import constraints_of
from mineproof.board import iter_bits
from mineproof.play.config import DEFAULT
from mineproof.play.influence import WEIGHT, board_influence, influence, influence_factor
from mineproof.play.lookahead import Lookahead
from mineproof.play.player import _candidates, _influenced
from mineproof.position import Position

from .conftest import StuckPositions


class Brute:
    """A position's arrangements, listed, and the 50/50s in waiting counted over them."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.board = position.board
        self.masks = self.board.neighbour_masks()
        cons = constraints_of(position, trust_flags=True)
        self.unknown = cons.unknown
        self.fits = [
            m
            for chosen in combinations(iter_bits(cons.unknown), cons.mines)
            if all(
                ((m := sum(1 << c for c in chosen)) & clue.mask).bit_count() == clue.mines
                for clue in cons.clues
            )
        ]
        # A cell proven a mine by the analysis is known too.
        every = ~0
        for m in self.fits:
            every &= m
        known = position.flag_mask | (every & cons.unknown if self.fits else 0)
        self.hidden = position.covered_mask & ~known

    def waiting(self, mines: int, safe: int, most: int) -> tuple[int, int] | None:
        """Return (arrangements with ``mines`` mined, ``safe`` safe and every decider a mine,
        the deciders not yet known), where the deciders are the cells that see exactly one
        cell of the group; None when the group is no 50/50 in waiting with at most ``most``
        unknown deciders."""
        cells = mines | safe
        deciders = 0
        for c in iter_bits(self.board.full_mask & ~cells):
            if (self.masks[c] & cells).bit_count() == 1:
                deciders |= 1 << c
        if deciders & ~self.position.covered_mask:
            return None  # an opened cell tells the two ways apart
        missing = deciders & self.hidden
        if missing.bit_count() > most or cells & ~self.hidden:
            return None
        need = mines | missing
        return sum(1 for m in self.fits if m & need == need and not m & safe), missing

    def mines(self, cell: int) -> int:
        """Return the arrangements with a mine in ``cell``."""
        return sum(1 for m in self.fits if m >> cell & 1)


def brute_influence(position: Position, cell: int, capped: bool = True) -> int:
    """The influence of ``cell`` from its definition, over every arrangement listed (not
    capped by its arrangements with and without a mine when not ``capped``)."""
    brute = Brute(position)
    board = position.board
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
        found = brute.waiting(1 << board.index(ax, ay), 1 << board.index(bx, by), 3)
        total += found[0] if found else 0
    boxes = [0]
    for bx, by in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)):
        if not (0 <= bx < board.width - 1 and 0 <= by < board.height - 1):
            continue
        tl, tr = board.index(bx, by), board.index(bx + 1, by)
        bl, br = board.index(bx, by + 1), board.index(bx + 1, by + 1)
        found = brute.waiting(1 << tl | 1 << br, 1 << tr | 1 << bl, 3)
        boxes.append(found[0] if found else 0)
    total += max(boxes)
    mine = brute.mines(cell)
    return min(total, mine, len(brute.fits) - mine) if capped else total


def brute_board_influence(position: Position) -> tuple[dict[int, int], dict[int, int]]:
    """The scan of the whole board from its definition: every row or column pair with at most
    one unknown decider and every 2x2 block with at most two, in more than 1/40 of the
    arrangements, adds its count to its cells and its unknown deciders; and, apart, to its
    unknown deciders alone (the enablers)."""
    brute = Brute(position)
    board = position.board
    tally: dict[int, int] = {}
    enablers: dict[int, int] = {}
    for y in range(board.height):
        for x in range(board.width):
            groups = []
            if x + 1 < board.width:
                groups.append((1 << board.index(x, y), 1 << board.index(x + 1, y), 1))
            if y + 1 < board.height:
                groups.append((1 << board.index(x, y), 1 << board.index(x, y + 1), 1))
            if x + 1 < board.width and y + 1 < board.height:
                diagonal = 1 << board.index(x, y) | 1 << board.index(x + 1, y + 1)
                other = 1 << board.index(x + 1, y) | 1 << board.index(x, y + 1)
                groups.append((diagonal, other, 2))
            for mines, safe, most in groups:
                found = brute.waiting(mines, safe, most)
                if found is None or 40 * found[0] <= len(brute.fits):
                    continue
                for c in iter_bits(mines | safe | found[1]):
                    tally[c] = tally.get(c, 0) + found[0]
                for c in iter_bits(found[1]):
                    enablers[c] = enablers.get(c, 0) + found[0]
    return tally, enablers


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
            # An enabler's count is added before the cap (JSMinesweeper's order).
            mine = analysis.mine_counts[cell]
            cap = min(mine, analysis.arrangements - mine)
            raw = brute_influence(position, cell, capped=False)
            assert influence(analysis, cons, cell, extra=7) == min(raw + 7, cap)
    assert seen  # some cells did sit in a 50/50 in waiting


@pytest.mark.parametrize(("w", "h", "mines"), [(5, 5, 5), (6, 4, 6)])
def test_board_influence_counts_like_brute_force(
    stuck_positions: StuckPositions, w: int, h: int, mines: int
) -> None:
    weighed = enabling = 0
    for position in stuck_positions(12, w, h, mines, 25):
        analysis = analyze(position, trust_flags=True)
        cons = constraints_of(position, trust_flags=True)
        enablers: dict[int, int] = {}
        got = board_influence(analysis, cons, {}, enablers)
        assert (got, enablers) == brute_board_influence(position), position
        weighed += len(got)
        enabling += len(enablers)
    assert weighed and enabling  # some cells did sit in, or close, a likely 50/50 in waiting


def test_the_cells_the_scan_adds_to_the_candidates(stuck_positions: StuckPositions) -> None:
    # Those whose safe arrangements plus the board's likelier 50/50s in waiting around them
    # come within the cut-off of the safest cell's, counted over the listed arrangements.
    added = 0
    for position in stuck_positions(12, 6, 4, 6, 25):
        brute = Brute(position)
        total = len(brute.fits)
        mines = {c: brute.mines(c) for c in iter_bits(brute.hidden)}
        most_safe = total - min(mines.values())
        tally, _ = brute_board_influence(position)
        analysis = analyze(position, trust_flags=True)
        look = Lookahead(analysis)
        candidates = _candidates(analysis, look, DEFAULT)
        expected = [
            c
            for c in sorted(tally)
            if c not in candidates
            and 0 < mines[c] < total
            and (total - mines[c] + tally[c]) / most_safe > DEFAULT.cut_off
        ]
        assert _influenced(analysis, look, candidates, DEFAULT) == expected, position
        added += len(expected)
    assert added
