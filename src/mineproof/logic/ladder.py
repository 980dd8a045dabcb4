"""The technique ladder: the forced moves of a position at the lowest level a person needs.

The levels are those of :mod:`mineproof.logic.levels`, the one definition the solving engine
shares. Levels 1 and 2 are searched directly (every single clue, every overlapping pair). Above
them, the cells each level forces are found first (exact counting, then the linear relaxation
for the cells counting forces without the total); then, for a cell, the fewest clues that prove
it at that level, and the proof a person reads: a combination of their equations (levels 2, 3
and, with the mine total as one more equation, often 5), or cases refuted clue by clue (level 4,
and level 5 when adding equations is not enough).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import TypeVar

from mineproof.analysis import Analysis, analyze
from mineproof.analysis.conflict import contradiction_error
from mineproof.analysis.constraints import (
    Clue,
    Constraints,
    Contradiction,
    condition,
    constraints_of,
    propagate,
)
from mineproof.analysis.core import forced_by
from mineproof.analysis.counting import COUNT_WORK, CountTooLarge, counting_budget
from mineproof.bitboard import union_of
from mineproof.board import Board, iter_bits
from mineproof.errors import ArgumentError, TooComplexError
from mineproof.logic import levels
from mineproof.logic.cases import CaseProof, case_proof, one_clue_steps, settled_cells
from mineproof.logic.deduction import Deduction
from mineproof.logic.linear import MINE_TOTAL, LinearProof, Relaxation, relaxed, shares_of_total
from mineproof.logic.premises import Work, counting_cost, fewest_premises
from mineproof.position import COVERED, FLAG, Position

__all__ = [
    "HINT_WORK",
    "Ladder",
    "best_deduction",
    "check_near",
    "deductions",
    "known_view",
    "known_view_and_safe",
    "one_clue_best",
    "two_clue_best",
]

HINT_WORK = 500_000
"""The work budget of one hint (about half a second of CPU): past it the premises are not
minimised further (see ``minimal`` and ``fewest``)."""

_LINEAR_PREMISES = 120
"""The most premises a combination is looked for among (its simplex grows with their square);
more only happens when the budget stopped the search for fewer, and cases are tried instead."""

_WIDER_PREMISES = 40
"""The most numbers a level-4 or level-5 deduction looks for a proof among when its fewest
numbers have none to show (cases too deep): a few more numbers often make a short one."""

_TARGETS_TRIED = 4
"""How many cells a hint at levels 3-5 compares before it takes the best deduction found."""


def known_view(position: Position, trust_flags: bool) -> Position:
    """Return the position with only the flags the ladder may take as mines.

    Trusted flags all stay. Otherwise a flag stays only when the analysis proves it (a mine in
    every arrangement); other flags become covered cells. Raises
    :class:`~mineproof.errors.InconsistentPositionError` for an impossible position.
    """
    return known_view_and_safe(position, trust_flags)[0]


def known_view_and_safe(
    position: Position, trust_flags: bool, analysis: Analysis | None = None
) -> tuple[Position, int]:
    """Return :func:`known_view` and the cells that are safe in every arrangement, from one
    exact analysis (``analysis``, that of ``position`` with ``trust_flags``, when the caller
    has it). Raises as :func:`known_view` does."""
    if analysis is None:
        analysis = analyze(position, trust_flags)
    wrong = 0 if trust_flags else position.flag_mask & ~analysis.mine_mask
    if not wrong:
        return position, analysis.safe_mask & ~position.flag_mask
    cells = tuple(
        COVERED if code == FLAG and wrong >> i & 1 else code
        for i, code in enumerate(position.cells)
    )
    view = Position(position.board, cells, position.mines)
    return view, analysis.safe_mask & ~view.flag_mask


def simple_deduction(
    position: Position, trust_flags: bool = False, *, safe_first: bool = False
) -> Deduction | None:
    """Return the best deduction of one or two clues (levels 1 and 2, as
    :func:`best_deduction` orders them; with ``safe_first``, one that proves a safe cell where
    there is one), without the exact analysis: for a position too big to count. ``None`` when
    one or two clues force nothing.

    Flags are taken as mines only with ``trust_flags``; otherwise they are left aside as
    covered cells (which of them the analysis would prove is not known). What it proves
    follows from the numbers it cites, but the position is checked for consistency only as far
    as one or two numbers go: :class:`~mineproof.errors.InconsistentPositionError` when they
    fail (a number with too few covered cells, trusted flags beyond the mine total).
    """
    view = position
    if position.flag_mask and not trust_flags:
        cells = tuple(COVERED if code == FLAG else code for code in position.cells)
        view = Position(position.board, cells, position.mines)
    try:
        ladder = Ladder(view)
        found = ladder.best(0, Work(HINT_WORK), safe_only=safe_first, max_level=2)
        if found is None and safe_first:
            found = ladder.best(0, Work(HINT_WORK), max_level=2)
    except Contradiction as exc:
        raise contradiction_error(position, exc, trust_flags) from None
    return found


def deductions(
    position: Position, trust_flags: bool = False, *, work: int = HINT_WORK
) -> list[Deduction]:
    """Return deductions at the lowest level that makes progress, best first.

    At levels 1 and 2 every single clue and pair that proves something; above them deductions
    that together prove every cell forced at that level, each with the fewest premises found
    within ``work`` (past it, premises not minimised and marked so). Flags
    proven by the analysis (or all flags, with ``trust_flags``) count as known mines. Progress
    means a new safe cell or a new mine; the list is empty when nothing is forced. Raises
    :class:`~mineproof.errors.InconsistentPositionError` for an impossible position.
    """
    return Ladder(known_view(position, trust_flags)).all(Work(work))


def best_deduction(
    position: Position, trust_flags: bool = False, *, near: int = 0, work: int = HINT_WORK
) -> Deduction | None:
    """Return the deduction a person should see next, or ``None`` when nothing is forced.

    The lowest level first; then one that proves a safe cell; then the fewest premises; then the
    nearest to the cells of ``near`` (the last move); then reading order. Raises as
    :func:`deductions` does, and ``ArgumentError`` when ``near`` holds no cells of the board
    only (a negative mask, or bits past its last cell).
    """
    check_near(position.board, near)
    return Ladder(known_view(position, trust_flags)).best(near, Work(work))


def check_near(board: Board, near: int) -> None:
    """Raise ``ArgumentError`` unless ``near`` is a bitmask of cells of ``board`` (0 or more,
    no bit past its last cell): a negative mask has endless bits, and a walk over them never
    ends."""
    if near < 0 or near & ~board.full_mask:
        raise ArgumentError(f"near must be a bitmask of the board's cells, not {near}", name="near")


COMBINATION_CLUES = 400
"""The most linked numbers among which a hint looks for a combination (level 3), or for the
fewest premises at levels 3 and 4: the linear relaxation's work grows faster than the square
of their count (0.4 s for 250, 6 s for 1,000, then a search per box), and the premises are
searched ring after ring. Past it the hint is refused (:class:`CombinationTooLarge`) rather
than searched for minutes."""


class CombinationTooLarge(CountTooLarge):
    """Raised when the cell a hint would explain at level 3 or 4 lies in a group of more than
    :data:`COMBINATION_CLUES` linked numbers: too complex, as a count past its budget is (so
    that every handler of one handles the other)."""

    def __init__(self, clues: int) -> None:
        # Not CountTooLarge.__init__: compiled by mypyc, its methods refuse a subclass's self.
        self.clues = clues
        self.cells = 0
        self.limit = COMBINATION_CLUES
        self.groups = 1
        size = f"a group of {clues:,} numbers"
        TooComplexError.__init__(
            self,
            f"too complex to explain: a proof is looked for among {COMBINATION_CLUES:,} linked "
            f"numbers at most, and the cells to prove lie in {size}",
            size=size,
        )


class Ladder:
    """The deductions of one position, whose flags are all taken as mines."""

    def __init__(
        self,
        view: Position,
        cons: Constraints | None = None,
        groups: list[levels.Group] | None = None,
    ) -> None:
        """Take the position's clues (flags as mines) from ``cons`` when the caller keeps them
        up to date, else work them out; likewise their groups of linked numbers from
        ``groups`` (:class:`~mineproof.logic.levels.Groups` keeps them, with what each one
        forces, from one step of a solve to the next)."""
        if cons is None:
            cons = constraints_of(view, trust_flags=True)
        self.view = view
        self.board: Board = view.board
        self.clues = cons.clues
        self.unknown = cons.unknown
        self.left = cons.mines
        self._groups = groups
        self._seeing: dict[int, list[Clue]] | None = None
        # The cells the clues force without the mine total, once :meth:`_hard_targets` knows.
        self._alone: int | None = None
        # Every cell the clues force with the mine total, once :meth:`_hard_targets` has looked
        # at level 5.
        self._with_total = 0

    # --- levels 1 and 2 ------------------------------------------------------------------------

    def _level_one(self) -> list[Deduction]:
        view = self.view
        found = []
        for clue in self.clues:
            if clue.mines == 0:
                found.append(
                    Deduction(view, "single-clue", (clue.cell,), False, clue.mask, 0, clues=(clue,))
                )
            elif clue.mines == clue.mask.bit_count():
                found.append(
                    Deduction(view, "single-clue", (clue.cell,), False, 0, clue.mask, clues=(clue,))
                )
        safe, mine = levels.mine_count(self.unknown, self.left)
        if safe:
            found.append(Deduction(view, "all-mines-found", (), True, safe, 0))
        elif mine:
            found.append(Deduction(view, "only-mines-left", (), True, 0, mine))
        return found

    def _level_two(self) -> list[Deduction]:
        found = []
        for a, b in levels.overlapping_pairs(self.clues):
            safe, mine = levels.pair_bounds(a, b)
            if safe | mine:
                found.append(
                    Deduction(
                        self.view, "two-clues", (a.cell, b.cell), False, safe, mine, clues=(a, b)
                    )
                )
        return found

    # --- levels 3 to 5 -------------------------------------------------------------------------

    def groups(self) -> list[levels.Group]:
        """Return the groups of linked numbers of the clues (formed once)."""
        if self._groups is None:
            self._groups = levels.groups_of(self.clues)
        return self._groups

    def _hard_targets(self, safe_only: bool = False) -> tuple[int, int, int]:
        """Return ``(level, safe, mine)``: the cells forced at the lowest level from 3 to 5
        (level 0 when nothing is forced); with ``safe_only``, the lowest level that forces a
        safe cell, and only its safe cells."""
        keep = -1 if not safe_only else 0
        groups = self.groups()
        safe = mine = 0
        # The counts of a step share one budget, as one count of the whole board would.
        with counting_budget(COUNT_WORK):
            for group in groups:
                s, m = group.exact()
                safe |= s
                mine |= m
        self._alone = safe | mine
        if safe | mine & keep:
            forcing = [g for g in groups if g.mask & (safe | mine)]
            for group in forcing:
                if len(group.clues) > COMBINATION_CLUES:
                    raise CombinationTooLarge(len(group.clues))
            s = m = 0
            for group in forcing:
                gs, gm = group.linear()
                s |= gs
                m |= gm
            if s | m & keep:
                return 3, s, m & keep
            return 4, safe, mine & keep
        safe, mine = forced_by(self.clues, self.unknown, self.left)
        self._with_total = safe | mine
        if safe | mine & keep:
            return 5, safe, mine & keep
        return 0, 0, 0

    def _deduce(
        self, level: int, target: int, is_mine: bool, targets: int, work: Work
    ) -> Deduction:
        """Return the deduction of ``target`` at ``level`` with the fewest premises found."""
        if level == 5:
            return self._mine_total(target, is_mine, targets, work)
        bit = 1 << target
        comp = next(g for g in self.groups() if g.mask & bit)
        # Sets of premises are tried on copies of the group's clues whose masks start at the
        # group's first cell: what clues prove does not depend on where they are, and on a big
        # board each try then works on short ints instead of masks as long as the board.
        shift = (comp.mask & -comp.mask).bit_length() - 1
        local = {id(c): Clue(c.cell, c.mask >> shift, c.mines) for c in comp.clues}
        unknown = self.unknown >> shift

        def proves(clues: list[Clue]) -> bool:
            near = [local[id(c)] for c in clues]
            return self._proves(level, near, target - shift, is_mine, work, unknown)

        start = _ball(comp.clues, bit, proves, work)
        kept, minimal, fewest = fewest_premises(
            self.board, target, start, comp.clues, proves, 3, True, work
        )
        premises = tuple(c.cell for c in kept)
        if level == 3:
            # Every cell the clues alone force may stand in the combination's equation, not
            # only the targets: a hint that asks for a safe cell has no mines among its targets,
            # yet a proof of the safe cell may need a forced mine.
            proof = _simplest(kept, target, is_mine, targets | (self._alone or 0))
            if proof is not None:
                return Deduction(
                    self.view,
                    "combination",
                    premises,
                    False,
                    proof.safe,
                    proof.mine,
                    proof,
                    minimal,
                    fewest,
                    tuple(kept),
                )
        cases = case_proof(kept, target, is_mine)
        wider = _wider(cases, kept, start, lambda clues: case_proof(clues, target, is_mine))
        if wider is not None:
            cases, kept = wider
            premises, minimal, fewest = tuple(c.cell for c in kept), False, False
        safe, mine = (0, bit) if is_mine else (bit, 0)
        return Deduction(
            self.view,
            "case-analysis",
            premises,
            False,
            safe,
            mine,
            cases,
            minimal,
            fewest,
            tuple(kept),
        )

    def _proves(
        self, level: int, clues: list[Clue], target: int, is_mine: bool, work: Work, unknown: int
    ) -> bool:
        """Return whether ``clues`` prove the value of ``target`` at ``level`` (3 or 4), the
        cells of ``unknown`` being those not yet known."""
        bit = 1 << target
        if not clues:
            return False
        # Whole mines force at least what the relaxation does: a cheap test first.
        safe, mine = _counted(work, clues, unknown, None, None)
        if level == 3 and (mine if is_mine else safe) & bit:
            safe, mine, pivots = relaxed(clues, bit)
            work.spend(100 + 40 * pivots)
        return bool((mine if is_mine else safe) & bit)

    def _mine_total(self, target: int, is_mine: bool, targets: int, work: Work) -> Deduction:
        """Return a level-5 deduction of ``target``: the fewest clues that prove it with the
        mine total, as a combination of equations when one exists, else as cases."""
        bit = 1 << target
        unknown, left = self.unknown, self.left
        groups = self.groups()
        group_of = {c.cell: g for g, comp in enumerate(groups) for c in comp.clues}

        # Clues that the total cannot help force ``target`` are told apart without counting
        # (see :func:`_total_cannot_help`), when the clues alone do not force it.
        quick = self._alone is not None and not self._alone & bit

        def proves(clues: list[Clue]) -> bool:
            safe, mine = _counted(work, clues, unknown, left, group_of, bit if quick else 0)
            return bool((mine if is_mine else safe) & bit)

        # The nearest clues first, in balls of doubling radius: far ones are rarely needed.
        start = list(self.clues)
        radius = 1
        while radius < max(self.board.width, self.board.height) and not work.spent:
            ball = [c for c in self.clues if _distance_to(self.board, (c.cell,), bit) <= radius]
            if len(ball) == len(start):
                break
            if ball and proves(ball):
                start = ball
                break
            radius *= 2
        kept, minimal, fewest = fewest_premises(
            self.board, target, start, self.clues, proves, 1, False, work
        )
        total = Clue(MINE_TOTAL, unknown, left)

        def shown(clues: list[Clue]) -> LinearProof | CaseProof | None:
            """Return the proof of ``target`` a person follows best from ``clues`` and the
            mine total (see :meth:`_count_or_cases`), or ``None``. Raises nothing."""
            with_total = [*clues, total]
            found = _simplest(with_total, target, is_mine, targets)
            return found or self._count_or_cases(with_total, target, is_mine, targets)

        proof = shown(kept)
        wider = _wider(proof, kept, start, shown)
        if wider is not None:
            proof, kept = wider
            minimal = fewest = False
        premises = tuple(c.cell for c in kept)
        if isinstance(proof, LinearProof):
            safe, mine = proof.safe, proof.mine
        else:
            safe, mine = (0, bit) if is_mine else (bit, 0)
        return Deduction(
            self.view,
            "mine-total",
            premises,
            True,
            safe,
            mine,
            proof,
            minimal,
            fewest,
            tuple(kept),
        )

    def _count_or_cases(
        self, with_total: list[Clue], target: int, is_mine: bool, targets: int
    ) -> LinearProof | CaseProof | None:
        """Return the proof of ``target`` by the mine total that a person follows best, when
        ``with_total`` (the premises, then the total) make no combination of the targets alone
        (a play hint for a player who flags nothing, as a rule): ``None`` when neither way is
        found.

        The total then counts mines that single numbers prove. Cases reach them only by
        splitting on cell after cell (three suppositions deep, or too many to show); a count
        made once they are flagged (the combination's ``given`` steps) says it at once: taken
        when it is each number's share of the mines left, else when the cases need a split,
        else when there are no cases to show."""
        kept = with_total[:-1]
        given = one_clue_steps(kept)
        _, mines = settled_cells(given)
        flagged = condition(Constraints(self.unknown, self.left, kept), mines, 0)
        total = Clue(MINE_TOTAL, flagged.unknown, flagged.mines)
        # Every cell the clues force may stand in the equation, as at level 3.
        count = _simplest(
            [*flagged.clues, total], target, is_mine, (targets | self._with_total) & ~mines
        )
        if count is not None:
            count = replace(count, given=given)
            shares = shares_of_total(count, {c.cell: c for c in flagged.clues})
            if given and shares is not None:
                return count
        cases = case_proof(with_total, target, is_mine)
        if cases is not None and (cases.refuted.split is None or count is None or not given):
            return cases
        return count

    # --- choosing ------------------------------------------------------------------------------

    def _key(self, d: Deduction, near: int) -> tuple[int, int, int, int]:
        conclusions = d.safe | d.mine
        return (
            *_rank(d),
            _distance_to(self.board, d.premises or tuple(iter_bits(conclusions)), near),
            (conclusions & -conclusions).bit_length(),
        )

    def _first(self, found: list[Deduction], near: int, lead: bool) -> Deduction:
        """Return the best of ``found`` by :meth:`_key`, measuring distances only among the
        deductions that tie on everything before them. With ``lead``, when none proves a safe
        cell, those whose mines leave some number with all its mines (so a safe cell follows at
        once) go first."""
        top = min(_rank(d) for d in found)
        tied = [d for d in found if _rank(d) == top]
        if lead and top[0]:
            # The nearest that unlocks a safe cell, looked for in order of nearness.
            tied.sort(key=lambda d: self._key(d, near))
            return next((d for d in tied if self._unlocks(d.mine)), tied[0])
        return min(tied, key=lambda d: self._key(d, near))

    def _unlocks(self, mine: int) -> bool:
        """Return whether flagging ``mine`` gives some number all its mines while it still has
        other covered cells."""
        if self._seeing is None:
            self._seeing = {}
            for c in self.clues:
                for i in iter_bits(c.mask):
                    self._seeing.setdefault(i, []).append(c)
        for i in iter_bits(mine):
            for c in self._seeing.get(i, ()):
                if (c.mask & mine).bit_count() == c.mines and c.mask & ~mine:
                    return True
        return False

    def best(
        self,
        near: int,
        work: Work,
        lead: bool = False,
        safe_only: bool = False,
        max_level: int = 5,
        min_level: int = 1,
    ) -> Deduction | None:
        """Return the best deduction at the lowest level (see :func:`best_deduction`); with
        ``lead``, one that leads to a safe cell soonest among equals; with ``safe_only``, the
        best deduction that proves a safe cell, at the lowest level where there is one; none
        above ``max_level``. Levels 1 and 2 are not searched below ``min_level``: the caller
        knows that they force nothing (:func:`one_clue_best`, :func:`two_clue_best`)."""
        for finder in (self._level_one, self._level_two)[min_level - 1 : max_level]:
            found = [d for d in finder() if d.safe or not safe_only]
            if found:
                return _with_proof(self._first(found, near, lead))
        if max_level <= 2:
            return None
        level, safe, mine = self._hard_targets(safe_only)
        if level > max_level:
            return None
        if not level:
            return None
        targets = safe | mine
        order = sorted(
            iter_bits(targets),
            key=lambda i: (0 if safe >> i & 1 else 1, _distance_to(self.board, (i,), near), i),
        )
        floor = 1 if level == 5 else 3
        best: Deduction | None = None
        for n, t in enumerate(order):
            if n >= _TARGETS_TRIED and best is not None:
                break
            d = self._deduce(level, t, bool(mine >> t & 1), targets, work)
            if best is None or self._key(d, near) < self._key(best, near):
                best = d
            if best.safe and len(best.premises) <= floor and best.fewest:
                break
            if work.spent:
                break
        return best

    def all(self, work: Work) -> list[Deduction]:
        """Return deductions at the lowest level, best first (see :func:`deductions`)."""
        for finder in (self._level_one, self._level_two):
            found = finder()
            if found:
                found.sort(key=lambda d: self._key(d, 0))
                return [_with_proof(d) for d in found]
        level, safe, mine = self._hard_targets()
        targets = safe | mine
        # Every target gets a deduction; once the budget is spent, without the search for
        # fewer premises (marked so).
        found = [
            self._deduce(level, t, bool(mine >> t & 1), targets, work) for t in iter_bits(targets)
        ]
        found.sort(key=lambda d: self._key(d, 0))
        out: list[Deduction] = []
        covered = 0
        for d in found:
            if (d.safe | d.mine) & ~covered:
                out.append(d)
                covered |= d.safe | d.mine
        return out


def one_clue_best(
    view: Position,
    clues: Mapping[int, Clue],
    zero: int,
    full: int,
    unknown: int,
    left: int,
    near: int,
) -> Deduction | None:
    """Return the deduction ``Ladder(view, cons).best(near, work)`` returns when level 1 forces
    something, found without looking at every clue; ``None`` when level 1 forces nothing.

    ``clues`` are the clues of ``view`` (flags as mines) by the cell of their number, ``zero``
    and ``full`` the cells of those whose count is 0 and whose count fills their cells;
    ``unknown`` holds ``left`` mines. The choice is that of :meth:`Ladder.best`: a safe cell
    first, then the number nearest ``near`` (the mine total's cells when it is the premise),
    then the lowest cell proven, then the lowest number (the mine total last).
    """
    safe_all, mine_all = levels.mine_count(unknown, left)
    cells, total = (zero, safe_all) if zero or safe_all else (full, mine_all)
    if not cells | total:
        return None
    board = view.board
    rings = _Rings.of(board, near) if near else None
    best: Clue | None = None
    best_key = (0, 0)
    if cells:
        # The nearest numbers: those inside the first ring of ``near`` that reaches one.
        if rings is not None:
            r = rings.distance(cells)
            cells &= rings.grown[r]
        else:
            r = 0
        low = 0
        for i in iter_bits(cells):
            clue = clues[i]
            bit = (clue.mask & -clue.mask).bit_length()
            if best is None or bit < low:
                best, low = clue, bit
        best_key = (r, low)
    if total and (
        best is None
        or (rings.distance(total) if rings is not None else 0, (total & -total).bit_length())
        < best_key
    ):
        if safe_all:
            return Deduction(view, "all-mines-found", (), True, safe_all, 0)
        return Deduction(view, "only-mines-left", (), True, 0, mine_all)
    assert best is not None
    safe, mine = (best.mask, 0) if best.mines == 0 else (0, best.mask)
    return Deduction(view, "single-clue", (best.cell,), False, safe, mine, clues=(best,))


def two_clue_best(
    view: Position,
    clues: Mapping[int, Clue],
    pairs: Mapping[tuple[int, int], tuple[int, int]],
    near: int,
) -> Deduction | None:
    """Return the deduction ``Ladder(view, cons).best(near, work)`` returns when level 1 forces
    nothing and level 2 forces something, found among the pairs that force something alone;
    ``None`` when ``pairs`` is empty.

    ``clues`` are the clues of ``view`` (flags as mines) by the cell of their number, ``pairs``
    what :meth:`~mineproof.logic.levels.ForcingPairs.update` returns for them. The choice is
    that of :meth:`Ladder.best`: a pair that proves a safe cell first, then the pair nearest
    ``near``, then the lowest cell proven, then the lowest numbers.
    """
    if not pairs:
        return None
    board = view.board
    keys = [key for key, (safe, _) in pairs.items() if safe] or list(pairs)

    def rank(key: tuple[int, int]) -> tuple[int, int, tuple[int, int]]:
        safe, mine = pairs[key]
        proven = safe | mine
        return _distance_to(board, key, near), (proven & -proven).bit_length(), key

    a, b = min(keys, key=rank)
    safe, mine = pairs[a, b]
    pair = (clues[a], clues[b])
    return _with_proof(Deduction(view, "two-clues", (a, b), False, safe, mine, clues=pair))


def _with_proof(d: Deduction) -> Deduction:
    """Return a two-clue deduction with its combination (the pair's equations, one minus the
    other, prove all that the pair forces); any other deduction as it is."""
    if d.rule != "two-clues" or d.proof is not None:
        return d
    a, b = d.clues
    proof = _pair_proof(a, b, d.safe, d.mine) or Relaxation([a, b]).proof(d.safe, d.mine)
    if proof is None:  # pragma: no cover - a pair forces what one row of it proves
        first = (d.safe | d.mine) & -(d.safe | d.mine)
        proof = _simplest([a, b], first.bit_length() - 1, not d.safe & first, d.safe | d.mine)
        if proof is None:
            return d
    return Deduction(
        d.position, d.rule, d.premises, False, proof.safe, proof.mine, proof, clues=d.clues
    )


def _pair_proof(a: Clue, b: Clue, safe: int, mine: int) -> LinearProof | None:
    """Return the proof of two clues as one minus the other, when that row proves all of
    ``safe`` and ``mine`` (it does whenever each clue's own cells are forced)."""
    for plus, minus in ((b, a), (a, b)):
        own_plus = plus.mask & ~minus.mask
        own_minus = minus.mask & ~plus.mask
        total = plus.mines - minus.mines
        if total == own_plus.bit_count() and safe & ~own_minus == 0 and mine & ~own_plus == 0:
            coefficients = tuple(
                sorted(
                    [(i, Fraction(1)) for i in iter_bits(own_plus)]
                    + [(i, Fraction(-1)) for i in iter_bits(own_minus)]
                )
            )
            combination = tuple(sorted([(plus.cell, Fraction(1)), (minus.cell, Fraction(-1))]))
            return LinearProof(combination, coefficients, Fraction(total))
    return None


def _rank(d: Deduction) -> tuple[int, int]:
    """Return how good a deduction of a given level is before distances: a safe cell first,
    then the fewest premises (the mine total counting as one)."""
    return (0 if d.safe else 1, len(d.premises) + d.uses_mine_total)


def _simplest(premises: list[Clue], target: int, is_mine: bool, targets: int) -> LinearProof | None:
    """Return the combination of ``premises`` with the smallest multipliers that proves
    ``target``, or ``None`` when their linear relaxation does not force it."""
    if len(premises) > _LINEAR_PREMISES:
        return None
    relaxation = Relaxation(premises)
    safe, mine = relaxation.forced(union_of(c.mask for c in premises) & targets | 1 << target)
    if not (mine if is_mine else safe) >> target & 1:
        return None
    return relaxation.simplest(target, is_mine, safe, mine)


def _counted(
    work: Work,
    clues: list[Clue],
    unknown: int,
    mines: int | None,
    group_of: dict[int, int] | None,
    unforced: int = 0,
) -> tuple[int, int]:
    """Return what :func:`~mineproof.analysis.core.forced_by` returns, charging ``work`` for
    it: one look at each clue, then the exact count of what one-clue reasoning leaves, by
    independent group (``group_of`` maps a clue's cell to its group; ``None``: one group).

    ``unforced`` (with ``mines`` and ``group_of``) is a cell of ``unknown`` that every clue of
    the position together, without the mine total, does not force: when bounds show that the
    total cannot force it with these clues, ``(0, 0)`` is returned without counting (the work
    charged is the same).
    """
    try:
        safe, mine, rest = propagate(clues)
    except Contradiction:
        work.spend(len(clues))
        raise
    if group_of is None:
        sizes: Iterable[int] = [len(rest)]
    else:
        sizes = Counter(group_of[c.cell] for c in rest).values()
    work.spend(len(clues) + counting_cost(sizes))
    if (
        unforced
        and mines is not None
        and group_of is not None
        and not safe | mine
        and _total_cannot_help(rest, unknown, mines, group_of, unforced)
    ):
        return 0, 0
    left = None if mines is None else mines - mine.bit_count()
    s, m = forced_by(rest, unknown & ~(safe | mine), left)
    return safe | s, mine | m


def _total_cannot_help(
    rest: list[Clue], unknown: int, left: int, group_of: dict[int, int], bit: int
) -> bool:
    """Return whether bounds alone show that ``rest`` (clues that force no cell on their own,
    a subset of a position's clues that together do not force the cell ``bit`` without the
    total) with ``left`` mines in ``unknown`` cannot force ``bit``; ``False`` when unsure.

    :func:`~mineproof.analysis.core.forced_by` uses the total only when it excludes some
    combination of the components' mine counts, or to settle the cells no clue sees when the
    components hold a fixed number of mines. Their counts lie between the sum of each group's
    largest clue and the mines of all the clues (or their cells): when every combination fits
    beside the other cells, the components force what the clues alone force, which leaves out
    ``bit``; and a cell no clue sees is forced only when the bounds allow the count that fills
    or empties the others.
    """
    frontier = 0
    most = 0
    largest: dict[int, int] = {}
    for cell, mask, count in rest:
        frontier |= mask
        most += count
        group = group_of[cell]
        if count > largest.get(group, 0):
            largest[group] = count
    most = min(most, frontier.bit_count())
    fewest = sum(largest.values())
    outside = (unknown & ~frontier).bit_count()
    if most > left or left - fewest > outside:
        return False
    return bool(bit & frontier) or (most < left and left - fewest < outside)


def _ball(
    clues: list[Clue], bit: int, proves: Callable[[list[Clue]], bool], work: Work
) -> list[Clue]:
    """Return the smallest ball of clues around a cell (the clues that see it, then those that
    share a cell with them, and so on) that proves it; the whole list at the latest, or once
    ``work`` is spent (a long chain would be tried ring after ring)."""
    inside = [c for c in clues if c.mask & bit]
    while True:
        if work.spent:
            return list(clues)
        if len(inside) == len(clues) or proves(inside):
            return inside if len(inside) < len(clues) else list(clues)
        reach = union_of(c.mask for c in inside)
        grown = [c for c in clues if c.mask & reach]
        if len(grown) == len(inside):
            return list(clues)
        inside = grown


_Proof = TypeVar("_Proof", bound=LinearProof | CaseProof)


def _wider(
    proof: _Proof | None,
    kept: list[Clue],
    start: list[Clue],
    show: Callable[[list[Clue]], _Proof | None],
) -> tuple[_Proof, list[Clue]] | None:
    """Return a proof to show made by ``show`` from the numbers of ``start``, with the numbers
    it uses, when the fewest numbers ``kept`` have none (``proof`` ``None``: cases too deep to
    show, where more numbers often make a short one; a proof a person can follow comes before
    the fewest numbers), or only cases split on more cells, when the wider proof is shorter
    (:func:`_length`: a count of 6 numbers read in 3 sentences where the fewest 8 took 21 in
    cases two deep); ``None`` when ``proof`` is kept, ``start`` holds no more numbers or more
    than :data:`_WIDER_PREMISES`, or they make none either. Raises nothing."""
    split = isinstance(proof, CaseProof) and proof.refuted.split is not None
    if (proof is not None and not split) or not len(kept) < len(start) <= _WIDER_PREMISES:
        return None
    wider = show(start)
    if wider is None or (proof is not None and _length(wider) >= _length(proof)):
        return None
    used = _premises_of(wider)
    return wider, sorted((c for c in start if c.cell in used), key=lambda c: c.cell)


def _length(proof: LinearProof | CaseProof) -> int:
    """Return about how many sentences ``proof`` takes to read: its steps, and a combination's
    numbers (or a case proof's cases)."""
    if isinstance(proof, LinearProof):
        return len(proof.given) + len(proof.combination) + 1
    return len(proof.given) + proof.refuted.size + len(proof.cases())


def _premises_of(proof: LinearProof | CaseProof) -> set[int]:
    """Return the cells of the numbers ``proof`` uses (the mine total left out). Raises
    nothing."""
    if isinstance(proof, LinearProof):
        used = {cell for cell, _ in proof.combination}
        events = list(proof.given)
    else:
        used = set()
        events = list(proof.given)
        branches = [proof.refuted]
        while branches:
            branch = branches.pop()
            events += branch.chain
            branches += branch.split or ()
    used |= {e.premise for e in events}
    used |= {part for e in events for part in e.parts}
    used.discard(MINE_TOTAL)
    return used


def _distance_to(board: Board, cells: tuple[int, ...] | list[int], near: int) -> int:
    """Return the smallest distance (in king moves) from ``cells`` to the cells of ``near``;
    0 when ``near`` is empty."""
    if not near or not cells:
        return 0
    rings = _Rings.of(board, near)
    points = rings.points()
    if points is None:
        return rings.distance(sum(1 << i for i in cells))
    # A few cells near: the king-move distance is the larger of the two coordinate gaps.
    width = board.width
    best = board.width + board.height
    for i in cells:
        x, y = i % width, i // width
        for px, py in points:
            d = max(abs(x - px), abs(y - py))
            if d < best:
                best = d
    return best


_FEW_POINTS = 16
"""Up to how many cells a set's distances are measured by coordinates rather than by rings
(whose masks, on a big board, are long ints)."""


class _Rings:
    """The cells within each distance of a set: ``near`` grown one king move at a time, so the
    distance of any cells is found with a few masks, however many cells the set has."""

    _last: tuple[Board, int, _Rings] | None = None

    def __init__(self, board: Board, near: int) -> None:
        self.board = board
        self.grown = [near]
        self._points: list[tuple[int, int]] | None = None
        self._few: bool | None = None

    def points(self) -> list[tuple[int, int]] | None:
        """Return the set's cells as ``(x, y)`` when they are at most :data:`_FEW_POINTS`,
        else ``None`` (worked out once)."""
        if self._few is None:
            near = self.grown[0]
            self._few = near.bit_count() <= _FEW_POINTS
            if self._few:
                self._points = self.board.mask_to_xy(near)
        return self._points

    @classmethod
    def of(cls, board: Board, near: int) -> _Rings:
        """Return the rings of ``near`` (the last set asked for is remembered)."""
        last = cls._last
        if last is not None and last[0] == board and last[1] == near:
            return last[2]
        rings = cls(board, near)
        cls._last = (board, near, rings)
        return rings

    def distance(self, cells: int) -> int:
        """Return the distance from the cells of the mask ``cells`` to the set."""
        grown = self.grown
        r = 0
        while not grown[r] & cells:
            r += 1
            if r == len(grown):
                wider = self.board.dilate(grown[-1])
                if wider == grown[-1]:
                    return r  # ``cells`` lies outside the board
                grown.append(wider)
        return r
