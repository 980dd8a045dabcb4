"""The technique ladder: the forced moves of a position at the lowest level a person needs.

1. one clue: a number whose remaining mines are 0 or fill its covered cells; all mines found;
   as many mines left as covered cells;
2. two clues: the common area of two numbers and what each has alone (subset rule, 1-1, 1-2);
3. a combination of clues: Gaussian elimination with the bounds rule;
4. a case analysis over a group of clues: every arrangement they allow agrees on a cell;
5. the mine total together with clues.

Levels 1 and 2 are searched directly (and are complete: every cell that one or two clues force
is found). For the higher levels the exact analysis says which cells the clues force; each such
cell gets a minimal set of premises by deletion (drop a clue whenever the rest still forces the
cell), and the set is graded by the weakest technique that proves the cell from it.
"""

from __future__ import annotations

from mineproof.analysis import analyze, forced_by
from mineproof.analysis.constraints import Clue, components_of, constraints_of
from mineproof.board import Board, iter_bits
from mineproof.logic.deduction import Deduction
from mineproof.logic.elimination import bounds, eliminate
from mineproof.position import COVERED, FLAG, Position

__all__ = ["deductions", "known_view", "overlapping_pairs", "pair_bounds"]


def known_view(position: Position, trust_flags: bool) -> Position:
    """Return the position with only the flags the ladder may take as mines.

    Trusted flags all stay. Otherwise a flag stays only when the analysis proves it (a mine in
    every arrangement); other flags become covered cells. Raises
    :class:`~mineproof.errors.InconsistentPositionError` for an impossible position.
    """
    if trust_flags or not position.flag_mask:
        analyze(position, trust_flags)
        return position
    analysis = analyze(position)
    wrong = position.flag_mask & ~analysis.mine_mask
    if not wrong:
        return position
    cells = tuple(
        COVERED if code == FLAG and wrong >> i & 1 else code
        for i, code in enumerate(position.cells)
    )
    return Position(position.board, cells, position.mines)


def deductions(position: Position, trust_flags: bool = False) -> list[Deduction]:
    """Return the deductions at the lowest level that makes progress, fewest premises first.

    Flags proven by the analysis (or all flags, with ``trust_flags``) count as known mines.
    Progress means a new safe cell or a new mine; the list is empty when nothing is forced.
    Raises :class:`~mineproof.errors.InconsistentPositionError` for an impossible position.
    """
    view = known_view(position, trust_flags)
    cons = constraints_of(view, trust_flags=True)
    analysis = analyze(view, trust_flags=True)
    targets = analysis.safe_mask | analysis.mine_mask
    if not targets:
        return []
    clues = cons.clues
    for finder in (_one_clue, _two_clues):
        found = finder(view, clues, cons.unknown, cons.mines, targets)
        if found:
            return _ordered(found)
    clue_forced_safe, clue_forced_mine = forced_by(clues, cons.unknown)
    local = (clue_forced_safe | clue_forced_mine) & targets
    if local:
        return _ordered(_by_deletion(view, clues, cons.unknown, None, local))
    return _ordered(_by_deletion(view, clues, cons.unknown, cons.mines, targets))


def _ordered(found: list[Deduction]) -> list[Deduction]:
    """Return the deductions of the lowest level, fewest premises first, then reading order."""
    level = min(d.level for d in found)
    same = [d for d in found if d.level == level]
    same.sort(key=lambda d: (len(d.premises), (d.safe | d.mine) & -(d.safe | d.mine)))
    return same


def _one_clue(
    view: Position, clues: list[Clue], unknown: int, mines: int, targets: int
) -> list[Deduction]:
    found = []
    for clue in clues:
        size = clue.mask.bit_count()
        if clue.mines == 0 and clue.mask & targets:
            found.append(Deduction(view, "single-clue", (clue.cell,), False, clue.mask, 0))
        elif clue.mines == size and clue.mask & targets:
            found.append(Deduction(view, "single-clue", (clue.cell,), False, 0, clue.mask))
    if not found and unknown & targets:
        if mines == 0:
            found.append(Deduction(view, "all-mines-found", (), True, unknown, 0))
        elif mines == unknown.bit_count():
            found.append(Deduction(view, "only-mines-left", (), True, 0, unknown))
    return found


def pair_bounds(a: Clue, b: Clue) -> tuple[int, int]:
    """Return ``(safe, mine)``: every cell the two clues force together (complete for two).

    The common area ``C`` holds ``c`` mines with ``c`` between the largest and smallest counts
    both clues allow; each clue's own area then holds its mines minus ``c``.
    """
    common = a.mask & b.mask
    only_a = a.mask & ~b.mask
    only_b = b.mask & ~a.mask
    n_a, n_b, n_c = only_a.bit_count(), only_b.bit_count(), common.bit_count()
    lo = max(0, a.mines - n_a, b.mines - n_b)
    hi = min(a.mines, b.mines, n_c)
    safe = 0
    mine = 0
    for area, size, own in ((only_a, n_a, a.mines), (only_b, n_b, b.mines)):
        if size and own - lo == 0:
            safe |= area
        elif size and own - hi == size:
            mine |= area
    if n_c and hi == 0:
        safe |= common
    elif n_c and lo == n_c:
        mine |= common
    return safe, mine


def overlapping_pairs(clues: list[Clue]) -> list[tuple[Clue, Clue]]:
    """Return every pair of clues that share a cell, ordered by their cells (earlier first)."""
    by_cell: dict[int, list[Clue]] = {}
    for clue in clues:
        for i in iter_bits(clue.mask):
            by_cell.setdefault(i, []).append(clue)
    pairs: dict[tuple[int, int], tuple[Clue, Clue]] = {}
    for group in by_cell.values():
        for a in group:
            for b in group:
                if a.cell < b.cell:
                    pairs[a.cell, b.cell] = (a, b)
    return [pairs[key] for key in sorted(pairs)]


def _two_clues(
    view: Position, clues: list[Clue], unknown: int, mines: int, targets: int
) -> list[Deduction]:
    found = []
    for a, b in overlapping_pairs(clues):
        safe, mine = pair_bounds(a, b)
        if (safe | mine) & targets:
            found.append(Deduction(view, "two-clues", (a.cell, b.cell), False, safe, mine))
    return found


def _distance(board: Board, a: int, b: int) -> int:
    w = board.width
    return max(abs(a % w - b % w), abs(a // w - b // w))


def _by_deletion(
    view: Position, clues: list[Clue], unknown: int, mines: int | None, targets: int
) -> list[Deduction]:
    """Find, for each target cell, a minimal set of clues that forces it; grade each set."""
    board = view.board
    found: list[Deduction] = []
    todo = targets
    groups = components_of(clues) if mines is None else None
    while todo:
        target = todo & -todo
        t = target.bit_length() - 1
        if groups is not None:
            pool = next(g.clues for g in groups if g.mask & target)
        else:
            pool = list(clues)
        pool = sorted(pool, key=lambda c: -_distance(board, c.cell, t))
        kept = pool
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + 1 :]
            safe, mine = forced_by(trial, unknown, mines)
            if (safe | mine) & target:
                kept = trial
            else:
                i += 1
        safe, mine = forced_by(kept, unknown, mines)
        safe &= targets
        mine &= targets
        premises = tuple(sorted(c.cell for c in kept))
        if mines is not None:
            found.append(Deduction(view, "mine-total", premises, True, safe, mine))
        else:
            found.append(_graded(view, kept, premises, safe, mine, target))
        todo &= ~(safe | mine | target)
    return found


def _graded(
    view: Position, kept: list[Clue], premises: tuple[int, ...], safe: int, mine: int, target: int
) -> Deduction:
    """Return the deduction from a minimal clue set, at the weakest level that proves it."""
    if len(kept) == 1:
        return Deduction(view, "single-clue", premises, False, safe, mine)
    if len(kept) == 2:
        return Deduction(view, "two-clues", premises, False, safe, mine)
    for row in eliminate(kept):
        row_safe, row_mine = bounds(row)
        if (row_safe | row_mine) & target:
            combination = tuple(sorted(row.combination.items()))
            return Deduction(view, "elimination", premises, False, safe, mine, combination)
    return Deduction(view, "case-analysis", premises, False, safe, mine)
