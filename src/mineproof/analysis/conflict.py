"""Naming the conflict in a position that no arrangement satisfies.

A deletion search: starting from the clues of a failing component (or all clues, when only the
mine total fails), drop each clue whose removal leaves the rest still impossible. What remains is
a minimal conflict: removing any one of its clues (or the mine total, when it is used) makes the
rest satisfiable.
"""

from __future__ import annotations

from mineproof.analysis.constraints import Clue, Contradiction, components_of, constraints_of
from mineproof.analysis.counting import CountTooLarge
from mineproof.english import counted
from mineproof.errors import InconsistentPositionError
from mineproof.position import Position

__all__ = ["conflict_error", "satisfiable"]


def satisfiable(clues: list[Clue], unknown: int, mines: int | None) -> bool:
    """Return whether some arrangement of mines on ``unknown`` fits the clues.

    With ``mines`` given, the arrangement must also hold exactly that many mines.
    """
    from mineproof.analysis.core import forced_by

    try:
        forced_by(clues, unknown, mines)
    except Contradiction:
        return False
    return True


def _minimal(clues: list[Clue], unknown: int, mines: int | None) -> list[Clue]:
    """Return a minimal subset of ``clues`` that is still unsatisfiable; when the counting
    budget runs out first, the smallest one found so far."""
    kept = list(clues)
    i = 0
    while i < len(kept):
        trial = kept[:i] + kept[i + 1 :]
        try:
            if not satisfiable(trial, unknown, mines):
                kept = trial
                continue
        except CountTooLarge:
            break
        i += 1
    return kept


def conflict_error(position: Position, trust_flags: bool) -> InconsistentPositionError:
    """Return the error that names a minimal conflict of an unsatisfiable position."""
    mines = position.mines
    try:
        cons = constraints_of(position, trust_flags)
    except Contradiction as exc:
        if exc.cells:
            return _error(position, [exc.cells[0]], uses_total=False)
        flags = position.flag_count
        return InconsistentPositionError(
            f"the {flags} trusted flags are more than the mine total {mines}",
            clues=(),
            uses_mine_total=True,
        )
    if not satisfiable(cons.clues, cons.unknown, None):
        for comp in components_of(cons.clues):
            if not satisfiable(comp.clues, cons.unknown, None):
                core = _minimal(comp.clues, cons.unknown, None)
                return _error(position, [c.cell for c in core], uses_total=False)
    core = _minimal(cons.clues, cons.unknown, cons.mines)
    return _error(position, [c.cell for c in core], uses_total=True)


def _error(position: Position, cells: list[int], uses_total: bool) -> InconsistentPositionError:
    board = position.board
    cells = sorted(set(cells))
    named = ", ".join(f"{position.cells[i]} at {board.name(i)}" for i in cells)
    xy = tuple(board.xy(i) for i in cells)
    total = position.mines
    numbers = "the number" if len(cells) == 1 else "the numbers"
    if uses_total and not cells:
        msg = f"no arrangement of mines fits: the mine total {total} cannot be placed"
    elif uses_total:
        msg = (
            f"no arrangement of mines fits {numbers} {named} with {counted(total, 'mine')} in total"
        )
    else:
        together = "" if len(cells) == 1 else " together"
        msg = f"no arrangement of mines fits {numbers} {named}{together}"
    return InconsistentPositionError(msg, clues=xy, uses_mine_total=uses_total)
