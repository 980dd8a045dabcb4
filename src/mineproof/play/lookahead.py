"""One move ahead: what each number a guessed cell can show would leave, counted exactly.

The ``best`` strategy weighs a guess by its *secondary safety*: the chance that the cell is safe
and that the position it leaves has a safe next move, or a guess as safe as possible. For every
number ``v`` the cell can show, the exact counts of the position with the cell opened on ``v``
give both the chance of ``v`` (its arrangements over all arrangements) and the safety of the
best next move. The counts come straight from the constraints (the cell leaves the unknown
cells, a clue for its number joins), so no position is built.

A cell that can show only one number is *dead*: opening it tells nothing, so it is worth
opening only when nothing else is left (another move may yet decide it). For the same reason
the next move is weighed among *living* cells (``GuessConfig.living``): a cell proven safe
whose neighbours are all decided is no safe next move, as it would show a number known in
advance (JSMinesweeper's ``bestLivingSafety``; weighed decision by decision, it was the larger
part of what JSMinesweeper's choices gained over ours).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mineproof.analysis import Analysis
from mineproof.analysis.constraints import (
    Clue,
    Contradiction,
    components_of,
    constraints_of,
    new_clue,
)
from mineproof.analysis.core import Counts, count_constraints
from mineproof.bitboard import Bitboard, bitboard
from mineproof.board import iter_bits
from mineproof.play.config import DEFAULT, GuessConfig
from mineproof.play.influence import (
    board_influence,
    charge_groups,
    influence,
    influence_factor,
)

__all__ = ["Lookahead", "Score", "likeliest_first", "next_safety"]

# Weight of the safest next guess against the second safest: a single safe-looking cell may be
# a trap that the second one does not share (JSMinesweeper blends them 4 to 1 too).
_BEST_WEIGHT = 4


@dataclass(frozen=True, slots=True)
class Score:
    """A guess weighed one move ahead.

    ``safety``: the chance the cell is safe; ``secondary``: the chance it is safe *and* the next
    move is survived (a forced move counts as survived); ``progress``: the chance that it is
    safe and some other cell is proven safe at once; ``clears``: the expected number of cells so
    proven; ``dead``: the cell can show only one number; ``weight``: what guesses are ranked
    by, the secondary safety raised by the cell's long-term risk (see
    :mod:`mineproof.play.influence`) and by the progress bonus (see
    :class:`~mineproof.play.config.GuessConfig`); ``pruned``: the evaluation stopped early
    because the cell could no longer beat the bound it was given; ``common``: the cells proven
    safe whatever number the cell shows (0 when pruned).
    """

    cell: int
    safety: float
    secondary: float
    progress: float
    clears: float
    dead: bool
    weight: float
    pruned: bool = False
    common: int = 0

    def key(self) -> tuple[bool, float, float, float, int]:
        """Return the sort key: living before dead, then weight, progress, clears.

        The cell index breaks the last ties so that the order is deterministic.
        """
        return (not self.dead, self.weight, self.progress, self.clears, -self.cell)


def next_safety(counts: Counts, bits: Bitboard | None = None) -> float:
    """Return the safety of the best next move of a position, from its exact counts.

    1.0 when two cells or more are proven safe or every unknown cell is a mine (nothing left
    to guess); otherwise a blend of the safest and second-safest cells' chances to be safe, a
    lone safe cell counting as the safest (what it shows may not help the move after it).
    With the board's :class:`~mineproof.bitboard.Bitboard` ``bits``, only *living* cells
    count: those with an undecided neighbour (a cell whose neighbours are all decided shows a
    number known in advance); the cells no clue sees are taken as living.
    """
    if bits is None:
        proven = counts.safe.bit_count()
        cells = [(n, box.bit_count()) for box, n in counts.boxes]
    else:
        undecided = counts.outside
        for box, _ in counts.boxes:
            undecided |= box
        living = bits.around(undecided)
        proven = (counts.safe & living).bit_count()
        cells = [(n, size) for box, n in counts.boxes if (size := (box & living).bit_count())]
        if not cells and not counts.outside:  # only dead cells are left: they must be guessed
            cells = [(n, box.bit_count()) for box, n in counts.boxes]
    if proven > 1:
        return 1.0
    total = counts.total
    first = second = total + 1  # fewest arrangements with a mine in a cell, and the next fewest
    if counts.outside:
        cells.append((counts.per_outside, counts.outside.bit_count()))
    for n, size in cells:
        if n < first:
            second = first if size == 1 else n
            first = n
        elif n < second:
            second = n
    if proven:
        s2 = 1 - first / total if first <= total else 1.0
        return (_BEST_WEIGHT + s2) / (_BEST_WEIGHT + 1)
    if first > total:
        return 1.0
    if second > total:
        second = first
    s1 = 1 - first / total
    s2 = 1 - second / total
    return (_BEST_WEIGHT * s1 + s2) / (_BEST_WEIGHT + 1)


def likeliest_first(analysis: Analysis, mask: int) -> list[int]:
    """Return the numbers of mines ``mask``'s cells can hold, the likeliest first.

    The chances are estimated as if each cell were a mine independently, with its chance in
    ``analysis``: exact only when the cells share no clue, but cheap, and only the order
    depends on it (ties keep the smaller number first).

    >>> from mineproof.analysis import analyze
    >>> from mineproof.position import Position
    >>> likeliest_first(analyze(Position.parse("5x1x2\\nHHHHH")), 0b11)  # 9, 12, 4 in 25
    [1, 0, 2]
    """
    counts = analysis.mine_counts
    total = analysis.arrangements
    chances = [1.0]  # chances[k]: k mines among the cells taken so far
    for cell in iter_bits(mask):
        q = counts[cell] / total
        nxt = [c * (1 - q) for c in chances]
        nxt.append(0.0)
        for k, c in enumerate(chances):
            nxt[k + 1] += c * q
        chances = nxt
    return sorted(range(len(chances)), key=lambda k: -chances[k])


class Lookahead:
    """The positions one opened cell can lead to, for one analysed position.

    Flags are trusted as mines, as the player places them only where the analysis proves one.
    """

    def __init__(self, analysis: Analysis, config: GuessConfig = DEFAULT) -> None:
        """Prepare the constraints of ``analysis``'s position (flags as mines), to weigh cells
        as ``config`` says: its ``living``, ``enablers`` and ``progress_bonus`` (see
        :class:`~mineproof.play.config.GuessConfig`)."""
        position = analysis.position
        self.analysis = analysis
        self.total = analysis.arrangements
        self.constraints = constraints_of(position, trust_flags=True)
        self.masks = position.board.neighbour_masks()
        self.flags = position.flag_mask
        self._groups: dict[tuple[int, int], int] = {}
        board = position.board
        self._living = bitboard(board.width, board.height) if config.living else None
        self._scan: tuple[dict[int, int], dict[int, int]] | None = None  # risk, enablers
        self._use_enablers = config.enablers
        self._bonus = config.progress_bonus
        self._factors: dict[int, float] = {}
        # Every count made is charged for the position's groups (see COMPONENT_UNITS).
        self._groups_count = len(components_of(self.constraints.clues))

    def risk(self, cell: int) -> int:
        """Return the arrangements where ``cell`` is part of a 50/50 in waiting (see
        :func:`~mineproof.play.influence.influence`); the counts of the pairs and blocks that
        cells share are made once. Raises :class:`~mineproof.analysis.CountTooLarge` past the
        counting budget in force."""
        extra = self._board_scan()[1].get(cell, 0) if self._use_enablers else 0
        return influence(
            self.analysis, self.constraints, cell, self._groups, extra, self._groups_count
        )

    def board_risk(self) -> dict[int, int]:
        """Return :func:`~mineproof.play.influence.board_influence` of the position (its
        counts shared with :meth:`risk`), made once."""
        return self._board_scan()[0]

    def _board_scan(self) -> tuple[dict[int, int], dict[int, int]]:
        """Return the board's scan and its enablers' counts, made once."""
        if self._scan is None:
            enablers: dict[int, int] = {}
            risk = board_influence(
                self.analysis, self.constraints, self._groups, enablers, self._groups_count
            )
            self._scan = risk, enablers
        return self._scan

    def factor(self, cell: int) -> float:
        """Return ``cell``'s long-term risk factor (what its secondary safety is multiplied by
        in its weight, see :func:`~mineproof.play.influence.influence_factor`), made once.
        Raises :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force."""
        return self._factor(cell)

    def _factor(self, cell: int) -> float:
        """Return :func:`~mineproof.play.influence.influence_factor` of ``cell``, made once."""
        factor = self._factors.get(cell)
        if factor is None:
            factor = influence_factor(self.analysis, cell, self.risk(cell))
            self._factors[cell] = factor
        return factor

    def reach(self, cell: int) -> float:
        """Return the most :meth:`score` can weigh ``cell``: its chance to be safe (its secondary
        safety is at most that) raised by its long-term risk and the largest progress bonus.
        Weighing cells in the order of their reach makes the bounds given to :meth:`score`
        tight early. Raises :class:`~mineproof.analysis.CountTooLarge` past the counting
        budget in force."""
        safety = 1 - self.analysis.mine_counts[cell] / self.total
        return safety * (self._factor(cell) * (1 + self._bonus))

    def reveals(self, cell: int) -> Iterator[tuple[int, Counts]]:
        """Yield ``(number, counts)`` for every number ``cell`` can show if it is safe.

        ``counts`` are those of the position with ``cell`` opened on that number; numbers that
        no arrangement allows are left out. The likeliest numbers come first, as estimated by
        :func:`likeliest_first`, so that a bound on :meth:`score` falls early. Each count is
        charged :data:`~mineproof.play.influence.COMPONENT_UNITS` per group of numbers besides
        its own work: raises
        :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
        """
        cons = self.constraints
        bit = 1 << cell
        unknown = cons.unknown & ~bit
        clues: list[Clue] = [
            new_clue(Clue, (c.cell, c.mask & ~bit, c.mines)) if c.mask & bit else c
            for c in cons.clues
        ]
        near = self.masks[cell]
        mask = near & unknown
        flagged = (near & self.flags).bit_count()
        for mines in likeliest_first(self.analysis, mask):
            extra = [new_clue(Clue, (cell, mask, mines))] if mask else []
            charge_groups(self._groups_count, len(clues), unknown.bit_count())
            try:
                counts = count_constraints(unknown, cons.mines, clues + extra)
            except Contradiction:
                continue
            yield flagged + mines, counts

    def score(self, cell: int, bound: float = -1.0) -> Score:
        """Return ``cell`` weighed one move ahead (see :class:`Score`).

        With a ``bound``, stops as soon as the weight cannot exceed it (the score is then marked
        ``pruned`` and its secondary safety and weight are upper bounds). Raises
        :class:`~mineproof.analysis.CountTooLarge` past the counting budget in force.
        """
        total = self.total
        safety = 1 - self.analysis.mine_counts[cell] / total
        factor = self._factor(cell)
        most = factor * (1 + self._bonus)  # the largest factor the progress bonus can give
        reach = self.reach(cell)  # safety * most: its secondary safety is at most its safety
        if reach <= bound:  # no count can lift it above the bound
            return Score(cell, safety, safety, 0.0, 0.0, False, reach, True)
        partial = 0.0  # the numbers looked at, in the order :meth:`reveals` gives them
        left = safety  # the chance of the numbers not yet looked at
        shown: list[tuple[int, float, float, int]] = []  # number, chance, next safety, safe
        for number, counts in self.reveals(cell):
            reach = partial + left
            if reach * most <= bound:
                return Score(cell, safety, reach, 0.0, 0.0, False, reach * most, True)
            p = counts.total / total
            left -= p
            after = next_safety(counts, self._living)
            partial += p * after
            shown.append((number, p, after, counts.safe))
        # Summed in the order of the numbers, so that the weight does not depend on the order
        # the numbers were looked at in.
        shown.sort()
        secondary = progress = clears = 0.0
        common = -1 if shown else 0
        for _, p, after, safe in shown:
            secondary += p * after
            common &= safe
            if safe:
                progress += p
                clears += p * safe.bit_count()
        values = len(shown)
        beyond = sum(p for _, p, _, safe in shown if safe & ~common)
        weight = secondary * factor * (1 + self._bonus * beyond)
        return Score(cell, safety, secondary, progress, clears, values == 1, weight, False, common)
