"""Naming the conflict in a position that no arrangement satisfies.

A deletion search: starting from the clues of a failing component (or all clues, when only the
mine total fails), drop each clue whose removal leaves the rest still impossible, trying runs
of clues first (halves, then quarters, and so on down to one clue), so that a small conflict
in a large component is found in few trials. What remains is a minimal conflict: removing any
one of its clues (or the mine total, when it is used) makes the rest satisfiable. The search
is bounded (:data:`CONFLICT_WORK`); where it stops first, the conflict named is impossible but
may hold clues it does not need, and says so.
"""

from __future__ import annotations

from mineproof.analysis.constraints import Clue, Contradiction, components_of, constraints_of
from mineproof.analysis.counting import CountTooLarge
from mineproof.board import iter_bits
from mineproof.english import counted
from mineproof.errors import InconsistentPositionError
from mineproof.position import Position

__all__ = ["conflict_error", "contradiction_error", "satisfiable"]


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


CONFLICT_WORK = 500_000
"""The most clues the deletion search may hand to :func:`satisfiable`, over all its trials: a
conflict among a few hundred numbers is narrowed down to the fewest (a trial per number, each
looking at all of them); one among thousands stops here (a chain of 16,000 numbers on a
255x255 board, after about 3 seconds)."""

NAMED = 12
"""The most numbers an error names one by one; the rest are counted."""


def _minimal(clues: list[Clue], unknown: int, mines: int | None) -> tuple[list[Clue], bool]:
    """Return ``(kept, minimal)``: a subset of ``clues`` that is still unsatisfiable, and
    whether it is minimal. It is not when the search ran out of :data:`CONFLICT_WORK`, or of
    the counting budget in a trial, first: then it is the smallest found so far."""
    kept = list(clues)
    work = 0
    run = max(len(kept) // 2, 1)
    while True:
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + run :]
            work += len(trial)
            if work > CONFLICT_WORK:
                return kept, False
            try:
                if not satisfiable(trial, unknown, mines):
                    kept = trial
                    continue
            except CountTooLarge:
                return kept, False
            i += run
        if run == 1:
            return kept, True
        run //= 2


def conflict_error(position: Position, trust_flags: bool) -> InconsistentPositionError:
    """Return the error that names a minimal conflict of an unsatisfiable position; with
    ``trust_flags``, it names the trusted flags that take part in it too."""
    mines = position.mines
    try:
        cons = constraints_of(position, trust_flags)
    except Contradiction as exc:
        if exc.cells:
            return _error(position, [exc.cells[0]], uses_total=False, trust_flags=trust_flags)
        flags = position.flag_count
        return InconsistentPositionError(
            f"the position has {counted(flags, 'trusted flag')}, more than the mine total {mines}",
            clues=(),
            uses_mine_total=True,
        )
    if not satisfiable(cons.clues, cons.unknown, None):
        for comp in components_of(cons.clues):
            if not satisfiable(comp.clues, cons.unknown, None):
                core, minimal = _minimal(comp.clues, cons.unknown, None)
                cells = [c.cell for c in core]
                return _error(position, cells, False, trust_flags, minimal)
    core, minimal = _minimal(cons.clues, cons.unknown, cons.mines)
    return _error(position, [c.cell for c in core], True, trust_flags, minimal)


def contradiction_error(
    position: Position, contradiction: Contradiction, trust_flags: bool
) -> InconsistentPositionError:
    """Return the error for a ``contradiction`` met without the exact analysis (a position too
    big to count): :func:`conflict_error` where it finds a conflict within its bound, else the
    numbers where the contradiction showed, not known to be the fewest. Raises nothing."""
    try:
        return conflict_error(position, trust_flags)
    except CountTooLarge:
        cells = list(contradiction.cells)
        return _error(position, cells, not cells, trust_flags, minimal=False)


def _trusted_flags(position: Position, cells: list[int], uses_total: bool) -> str:
    """Return the words that name the trusted flags taking part in a conflict of the numbers
    at ``cells`` (the flags next to them; every flag when the mine total takes part, as each
    takes a mine of it), or "" when none does."""
    board = position.board
    flags = position.flag_mask
    if not uses_total:
        near = 0
        for i in cells:
            near |= board.neighbour_masks()[i]
        flags &= near
    if not flags:
        return ""
    flagged = iter_bits(flags)
    names = ", ".join(board.name(i) for i in flagged[:NAMED])
    if len(flagged) > NAMED:
        names += f" and {len(flagged) - NAMED:,} more"
    return f" and {counted(len(flagged), 'trusted flag')} ({names})"


def _error(
    position: Position,
    cells: list[int],
    uses_total: bool,
    trust_flags: bool = False,
    minimal: bool = True,
) -> InconsistentPositionError:
    """Return the error naming the numbers at ``cells`` in conflict (with the mine total when
    ``uses_total``), and the trusted flags that take part (with ``trust_flags``); unless
    ``minimal``, it says that some of them may not be needed."""
    board = position.board
    cells = sorted(set(cells))
    named = ", ".join(f"{position.cells[i]} at {board.name(i)}" for i in cells[:NAMED])
    if len(cells) > NAMED:
        named += f" and {counted(len(cells) - NAMED, 'more number')}"
    xy = tuple(board.xy(i) for i in cells)
    total = position.mines
    numbers = "the number" if len(cells) == 1 else "the numbers"
    around = len(board.neighbour_lists()[cells[0]]) if len(cells) == 1 else 0
    if len(cells) == 1 and not uses_total and position.cells[cells[0]] > around:
        # Well-formed, as a person may type or edit it, but no board can show it.
        msg = f"the number {named} is more than its {counted(around, 'neighbour')}"
    elif uses_total and not cells:
        msg = f"no arrangement of mines fits: the mine total {total} cannot be placed"
    elif uses_total:
        msg = (
            f"no arrangement of mines fits {numbers} {named} with {counted(total, 'mine')} in total"
        )
    else:
        together = "" if len(cells) == 1 else " together"
        msg = f"no arrangement of mines fits {numbers} {named}{together}"
    if trust_flags:
        msg += _trusted_flags(position, cells, uses_total)
    if not minimal:
        msg += " (not all of them may be needed: the search for the fewest stopped at its bound)"
    return InconsistentPositionError(msg, clues=xy, uses_mine_total=uses_total, minimal=minimal)
