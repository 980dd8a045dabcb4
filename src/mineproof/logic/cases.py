"""Proofs by cases: suppose the opposite of a conclusion and follow the clues to a contradiction.

Inside a case one-clue reasoning comes first (a clue whose mines are all placed makes its other
cells safe; a clue with just enough cells left makes them mines), so a person can follow every
step. When it runs out, a count of two or three numbers is tried: the undecided cells of one
number, or of two that share none, all lie among those of another number or of the mine total,
so their mines count towards its own (:func:`_count`): what a teacher says in a sentence ("the 2
and the 2 still need 3 mines between them, all the mines left") where splitting cell by cell
took a page. When that runs out too, the proof splits on one more cell and refutes both of its
cases, as few splits as possible. Only the steps the contradiction needs are kept. What holds
before any supposition is one-clue reasoning only (the ladder found nothing easier there).
What the clues settle before any supposition holds whatever the case: those steps are the
proof's ``given``, told first, and no case repeats them.

>>> from mineproof.analysis.constraints import Clue
>>> proof = case_proof([Clue(10, 0b011, 1), Clue(11, 0b111, 2)], 2, True)  # is cell 2 a mine?
>>> [(e.premise, e.mine, e.conflict) for e in proof.refuted.chain]  # suppose it is safe:
[(11, 3, ''), (10, 0, 'too-many')]

(if cell 2 is safe, the 2 puts mines on cells 0 and 1, which is one too many for the 1.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from mineproof.analysis.constraints import Clue
from mineproof.bitboard import union_of
from mineproof.board import iter_bits
from mineproof.logic.premises import Work

__all__ = [
    "MINE_TOTAL",
    "Branch",
    "CaseProof",
    "Event",
    "case_proof",
    "one_clue_steps",
    "settled_cells",
]

Conflict = Literal["", "too-many", "too-few"]

MINE_TOTAL = -1
"""The premise ``cell`` of the mine total: all unknown cells together hold the mines left."""


@dataclass(frozen=True, slots=True)
class Event:
    """One step of one-clue reasoning (inside a case, or before any): premise ``premise`` (a
    clue's cell, or -1 for the mine total).

    Either it settles cells (``safe`` or ``mine``, only those the rest of the proof uses), or,
    with ``conflict`` set, it cannot hold: ``too-many`` mines already, or ``too-few`` cells
    left for the mines it still needs.

    A count (``parts`` not empty: the cells of one or two numbers whose undecided cells, none
    shared, all lie among the premise's) says how many mines the parts still need between
    them, ``needed``, all counted towards the premise, which still needs ``left``: when they
    are all it needs, its other cells are safe; when it needs exactly as many more as it has
    other cells, those are mines; when the parts need more, ``too-many``; when it needs more
    than its other cells can hold, ``too-few``.
    """

    premise: int
    safe: int = 0
    mine: int = 0
    conflict: Conflict = ""
    parts: tuple[int, ...] = ()
    needed: int = 0
    left: int = 0


@dataclass(frozen=True, slots=True)
class Branch:
    """The case where ``cell`` is a mine (``mine``) or safe, refuted.

    ``chain`` is what the clues make of it, in order; it ends in a conflict, unless ``split``
    holds two further branches (the same other cell as a mine, then safe) that are both refuted.
    """

    cell: int
    mine: bool
    chain: tuple[Event, ...]
    split: tuple[Branch, Branch] | None = None

    def leaves(self, safe: int = 0, mine: int = 0) -> list[tuple[int, int]]:
        """Return the assumptions ``(safe, mine)`` of every case this branch refutes."""
        if self.mine:
            mine |= 1 << self.cell
        else:
            safe |= 1 << self.cell
        if self.split is None:
            return [(safe, mine)]
        return [leaf for b in self.split for leaf in b.leaves(safe, mine)]

    @property
    def size(self) -> int:
        """Return the number of events of the whole branch (its length for a reader)."""
        extra = sum(b.size for b in self.split) if self.split else 0
        return len(self.chain) + extra


@dataclass(frozen=True, slots=True)
class CaseProof:
    """A proof that ``target`` is a mine (``mine``) or safe: the opposite case is refuted.

    ``given`` are the one-clue steps that hold whatever the case (made before any supposition,
    those the refutation relies on, in order); the refutation starts from what they settle.
    """

    target: int
    mine: bool
    refuted: Branch
    given: tuple[Event, ...] = ()

    @property
    def given_cells(self) -> tuple[int, int]:
        """Return the cells the ``given`` steps settle: ``(safe, mine)`` bitmasks."""
        return settled_cells(self.given)

    def cases(self) -> list[tuple[int, int, Literal["contradiction", "agrees"]]]:
        """Return every case as ``(assumed safe, assumed mine, outcome)``: the refuted ones,
        then the case that agrees with the conclusion. Together they cover every arrangement
        of the cells split on."""
        out: list[tuple[int, int, Literal["contradiction", "agrees"]]] = [
            (s, m, "contradiction") for s, m in self.refuted.leaves()
        ]
        bit = 1 << self.target
        out.append((0, bit, "agrees") if self.mine else (bit, 0, "agrees"))
        return out


def settled_cells(events: Sequence[Event]) -> tuple[int, int]:
    """Return the cells that ``events`` settle: ``(safe, mine)`` bitmasks."""
    safe = mine = 0
    for event in events:
        safe |= event.safe
        mine |= event.mine
    return safe, mine


CASE_WORK = 100_000
"""The clue visits a case proof may make (about 0.1 s), once with counts inside cases and once
more without them when that finds nothing (see :func:`case_proof`): past it a deduction of
level 4 or 5 says there are too many cases to show. 20,000 left 2 of 91 level-4 play hints of
unflagged positions without a proof; 100,000 none (and 36 of 148 level-5 ones, against 43,
before cases counted)."""


def case_proof(
    premises: Sequence[Clue], target: int, mine: bool, *, depth: int = 4, work: int = CASE_WORK
) -> CaseProof | None:
    """Return the shortest refutation (fewest splits, then fewest steps) of the case opposite
    to "``target`` is a mine" (``mine``) or "is safe", within ``depth`` splits and ``work``
    clue visits; ``None`` when there is none within those bounds.

    Cases count (:func:`_count`) where single numbers stop; when that finds no refutation
    within the bounds (a count visits many numbers, so it reaches less deep for the same work),
    the search is made again with single numbers only, with ``work`` of its own: no proof
    shown before cases counted is lost.
    """
    found = _case_proof(premises, target, mine, depth, work, counts=True)
    return found or _case_proof(premises, target, mine, depth, work, counts=False)


def _case_proof(
    premises: Sequence[Clue], target: int, mine: bool, depth: int, work: int, *, counts: bool
) -> CaseProof | None:
    """Return :func:`case_proof`'s refutation, with counts inside cases or without."""
    budget = Work(work)
    clues = list(premises)
    # What the clues settle before any supposition holds in every case: told once, first.
    events, safe, mines, conflict = _propagate(clues, 0, 0, budget, counts=False)
    if conflict is not None or (safe | mines) >> target & 1:
        # The clues alone settle the target (or fail): a refutation that repeats them is the
        # proof a person follows.
        events, safe, mines = [], 0, 0
    for limit in range(depth + 1):
        found = _refute(clues, target, not mine, safe, mines, limit, budget, counts)
        if found is not None:
            given, _ = _needed(events, found[1])
            return CaseProof(target, mine, found[0], given)
        if budget.left < 0:
            return None
    return None


def one_clue_steps(premises: Sequence[Clue], *, work: int = CASE_WORK) -> tuple[Event, ...]:
    """Return the one-clue steps that settle every mine the ``premises`` prove one number at
    a time (with the steps they rely on, in order), within ``work`` clue visits (past it, those
    made so far); none when the premises fail (an impossible position)."""
    events, _, mines, conflict = _propagate(list(premises), 0, 0, Work(work), counts=False)
    if conflict is not None:
        return ()
    return _needed(events, mines)[0]


def _refute(
    clues: list[Clue],
    cell: int,
    mine: bool,
    safe_known: int,
    mine_known: int,
    splits: int,
    budget: Work,
    counts: bool,
) -> tuple[Branch, int] | None:
    """Return a refutation of ``cell`` being a mine (``mine``) or safe, given the cells known
    so far, with at most ``splits`` further splits (and counts inside cases with ``counts``);
    with it, the known cells it relies on."""
    bit = 1 << cell
    if mine:
        mine_known |= bit
    else:
        safe_known |= bit
    before = safe_known | mine_known
    events, safe_known, mine_known, conflict = _propagate(
        clues, safe_known, mine_known, budget, counts=counts
    )
    if conflict is not None:
        chain, outside = _needed(events, conflict[1])
        return Branch(cell, mine, (*chain, conflict[0])), outside & before & ~bit
    if splits == 0 or budget.left < 0:
        return None
    best: tuple[Branch, int] | None = None
    for other in _split_cells(clues, safe_known | mine_known):
        first = _refute(clues, other, True, safe_known, mine_known, splits - 1, budget, counts)
        if first is None:
            continue
        second = _refute(clues, other, False, safe_known, mine_known, splits - 1, budget, counts)
        if second is None:
            continue
        chain, outside = _needed(events, first[1] | second[1])
        branch = Branch(cell, mine, chain, (first[0], second[0]))
        if best is None or branch.size < best[0].size:
            best = branch, outside & before & ~bit
        if budget.left < 0:
            break
    return best


def _split_cells(clues: list[Clue], known: int) -> list[int]:
    """Return the undecided cells to split on, those of the tightest clues first."""
    order: dict[int, int] = {}
    for clue in clues:
        free = clue.mask & ~known
        size = free.bit_count()
        for i in iter_bits(free):
            order[i] = min(order.get(i, size), size)
    return sorted(order, key=lambda i: (order[i], i))


def _propagate(
    clues: list[Clue], safe: int, mine: int, budget: Work, *, counts: bool = True
) -> tuple[list[tuple[Event, int]], int, int, tuple[Event, int] | None]:
    """Apply the one-clue rules until nothing changes or a clue fails; then, with ``counts``,
    one count (:func:`_count`) and the one-clue rules again, until neither changes anything.

    Returns the events, each with the known cells it relied on; the cells known at the end;
    and the failing event with what it relied on (``None`` when nothing failed, or when the
    budget ran out).
    """
    events: list[tuple[Event, int]] = []
    changed = True
    while changed:
        changed = False
        for clue in clues:
            if not budget.spend(1):
                return events, safe, mine, None
            mask = clue.mask
            placed = mask & mine
            free = mask & ~safe & ~placed
            need = clue.mines - placed.bit_count()
            room = free.bit_count()
            if need < 0:
                return events, safe, mine, (Event(clue.cell, conflict="too-many"), placed)
            if need > room:
                return events, safe, mine, (Event(clue.cell, conflict="too-few"), mask & ~free)
            if not free:
                continue
            if need == 0:  # every mine placed: relies on the mines only
                events.append((Event(clue.cell, safe=free), placed))
                safe |= free
                changed = True
            elif need == room:  # relies on the mines placed and the cells known safe
                events.append((Event(clue.cell, mine=free), mask & ~free))
                mine |= free
                changed = True
        if changed or not counts:
            continue
        found = _count(clues, safe, mine, budget)
        if found is None:
            break
        if found[0].conflict:
            return events, safe, mine, found
        events.append(found)
        safe |= found[0].safe
        mine |= found[0].mine
        changed = True
    return events, safe, mine, None


def _count(clues: list[Clue], safe: int, mine: int, budget: Work) -> tuple[Event, int] | None:
    """Return a count that settles cells or fails, with the known cells it relies on (those of
    every number it names); ``None`` when there is none, or when the budget ran out.

    Called once the one-clue rules settle nothing more, so every number still needs a mine and
    has more undecided cells than it needs. A *part* is a number whose undecided cells all lie
    among those of a *container* (another number, or the mine total); one part is tried in
    every container first, then two parts that share no undecided cell. The parts' mines count
    towards the container's: what it needs beyond them must fit its other cells. A conflict
    is taken before a count that settles cells, and a number before the mine total (which
    counts every mine placed so far). Each number a container is checked against, each pair
    looked at and each count worked out is a unit of ``budget``.
    """
    known = safe | mine
    open_: list[tuple[Clue, int, int]] = []  # each number with its undecided cells and need
    for clue in clues:
        free = clue.mask & ~known
        if free:
            open_.append((clue, free, clue.mines - (clue.mask & mine).bit_count()))
    containers = sorted(open_, key=lambda c: c[0].cell == MINE_TOTAL)
    parts = [c for c in open_ if c[0].cell != MINE_TOTAL]
    found: tuple[Event, int] | None = None
    for pairs in (False, True):
        for clue, free, left in containers:
            if not budget.spend(1 + len(parts)):
                return None
            inside = [p for p in parts if p[0] is not clue and p[1] & ~free == 0]
            groups: list[tuple[tuple[Clue, int, int], ...]] = []
            if not pairs:
                groups = [(p,) for p in inside]
            else:
                for k, p in enumerate(inside):
                    if not budget.spend(len(inside) - k):
                        return None
                    groups += [(p, q) for q in inside[k + 1 :] if not p[1] & q[1]]
            if not budget.spend(len(groups)):
                return None
            for group in groups:
                needed = sum(g[2] for g in group)
                rest = free & ~union_of(g[1] for g in group)
                cells = tuple(g[0].cell for g in group)
                relied = (clue.mask | union_of(g[0].mask for g in group)) & known
                base = Event(clue.cell, parts=cells, needed=needed, left=left)
                if needed > left:
                    return replace(base, conflict="too-many"), relied
                if left - needed > rest.bit_count():
                    return replace(base, conflict="too-few"), relied
                if found is not None or not rest:
                    continue
                if needed == left:
                    found = replace(base, safe=rest), relied
                elif left - needed == rest.bit_count():
                    found = replace(base, mine=rest), relied
        if found is not None:
            return found
    return None


def _needed(events: list[tuple[Event, int]], wanted: int) -> tuple[tuple[Event, ...], int]:
    """Return the events that settle the cells ``wanted`` relies on, in order: a number's whole
    (one said to need one of the two mines it needs puzzled a reader who counted), the mine
    total's cut down to the cells used later (it settles every other covered cell of the
    board); and the cells relied on that no event settles (known before)."""
    kept: list[Event] = []
    for event, relied in reversed(events):
        used = (event.safe | event.mine) & wanted
        if not used:
            continue
        # A count's mines are all told: it says how many the other cells hold.
        whole = event.premise >= 0 or bool(event.parts and event.mine)
        kept.append(
            event if whole else replace(event, safe=event.safe & used, mine=event.mine & used)
        )
        wanted = (wanted & ~used) | relied
    kept.reverse()
    return tuple(kept), wanted
