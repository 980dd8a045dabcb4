"""Checks of one deduction against the oracles: what the kernel claims, tested from outside.

Everything a deduction says is checked from the position's own numbers (see
:mod:`.oracle`): that its premises force its conclusions, the level it claims, that no premise
can be dropped and no smaller set proves it, and that its printed proof checks out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, product
from typing import Any

from mineproof.logic import Deduction
from mineproof.logic.cases import Branch, CaseProof, Event

from .oracle import (
    OClue,
    Total,
    View,
    arrangement,
    bits,
    lp_forces,
    mask_of,
    refutes,
    single_forces,
    union,
)

MINE_COUNT_RULES = {"mine-total", "all-mines-found", "only-mines-left"}

SUBSETS_CAP = 2500
"""The most smaller premise sets tried per conclusion cell to confirm ``fewest``; beyond it the
check of that deduction is counted as not done (see :class:`Tally`)."""


@dataclass
class Tally:
    """What the checks covered: deductions per level, and how many had their ``minimal`` and
    ``fewest`` claims confirmed exhaustively."""

    deductions: dict[int, int] = field(default_factory=dict)
    unproven: int = 0
    minimal_checked: int = 0
    fewest_checked: int = 0
    fewest_claimed: int = 0

    def add(self, level: int) -> None:
        self.deductions[level] = self.deductions.get(level, 0) + 1


def premise_clues(view: View, d: Deduction) -> list[OClue]:
    """Return the clues of the deduction's premises, read from the position's numbers."""
    assert list(d.premises) == sorted(set(d.premises)), d.premises
    clues = [view.clue_at(p) for p in d.premises]
    for cell, mask, count in clues:
        assert mask, f"premise {cell} has no covered cell"
        assert 0 <= count <= mask.bit_count(), f"premise {cell} is impossible"
    return clues


def conclusions(d: Deduction) -> list[tuple[int, bool]]:
    """Return ``(cell, is_mine)`` for every conclusion."""
    return [(c, False) for c in bits(d.safe)] + [(c, True) for c in bits(d.mine)]


def total_of(view: View, d: Deduction) -> Total:
    return view.total() if d.uses_mine_total else None


def check_sound(view: View, d: Deduction) -> None:
    """The conclusions are unknown cells, and the premises (with the mine total when the
    deduction says so) force them: no arrangement of the premises has any of them the other
    way, and the premises have an arrangement."""
    assert d.safe | d.mine, "a deduction with no conclusion"
    assert not d.safe & d.mine, "a cell both safe and a mine"
    assert not (d.safe | d.mine) & ~view.unknown, "a conclusion on a settled cell"
    assert d.uses_mine_total == (d.rule in MINE_COUNT_RULES), (d.rule, d.uses_mine_total)
    clues = premise_clues(view, d)
    total = total_of(view, d)
    assert arrangement(clues, total=total) is not None, "the premises cannot all hold"
    for cell, is_mine in conclusions(d):
        assert refutes(clues, cell, is_mine, total), (
            f"cell {cell} is not forced to be {'a mine' if is_mine else 'safe'} by the premises"
        )


def check_rule_shape(view: View, d: Deduction) -> None:
    """The level-1 and level-2 rules have the shape their names say."""
    clues = premise_clues(view, d)
    if d.rule == "single-clue":
        ((_, mask, count),) = clues
        assert count in (0, mask.bit_count())
        assert (d.safe | d.mine) == mask
    elif d.rule == "all-mines-found":
        assert not clues and view.left == 0 and d.safe == view.unknown and not d.mine
    elif d.rule == "only-mines-left":
        assert not clues and view.left == view.unknown.bit_count()
        assert d.mine == view.unknown and not d.safe
    elif d.rule == "two-clues":
        a, b = clues
        assert a[1] & b[1], "a pair with no cell in common"


def check_level(view: View, d: Deduction, all_clues: Sequence[OClue]) -> None:
    """The deduction needs the level it claims (whether a lower level is available elsewhere
    in the position is for the caller to check).

    Level 2 and up: some conclusion is not forced by a single clue or the mine count rules.
    Level 3: the linear relaxation of the premises forces every conclusion (SciPy). Level 4:
    the relaxation of all the position's clues forces none of them. Level 5: the clues alone
    leave each conclusion open (an arrangement of all clues with the cell either way).
    """
    if d.level >= 2:
        s, m = single_forces(view)
        assert (d.safe & ~s) | (d.mine & ~m), "every conclusion follows from a single clue"
    clues = premise_clues(view, d)
    for cell, is_mine in conclusions(d):
        if d.level == 3:
            assert lp_forces(clues, cell) == int(is_mine), f"relaxation does not force {cell}"
        elif d.level == 4:
            assert lp_forces(all_clues, cell) is None, f"the relaxation forces {cell}"
        elif d.level == 5:
            bit = 1 << cell
            assert arrangement(all_clues, mine=bit) is not None, f"{cell} safe without total"
            assert arrangement(all_clues, safe=bit) is not None, f"{cell} mined without total"


# --------------------------------------------------------------------------------------------
# No premise can be dropped, no smaller set proves it


class Prover:
    """Decides whether a set of clues proves one conclusion at the deduction's level: by the
    relaxation (level 3), by search without (level 4) or with the mine total (level 5).

    Arrangements found on the way are remembered: one with the cell the other way that fits
    every clue of a set shows at once that the set proves nothing.
    """

    def __init__(self, level: int, cell: int, is_mine: bool, total: Total) -> None:
        self.level = level
        self.cell = cell
        self.is_mine = is_mine
        self.total = total
        self.witnesses: list[tuple[int, int]] = []  # (mines, cells assigned)

    def proves(self, clues: Sequence[OClue]) -> bool:
        cells = union(clues)
        if self.total is None:
            if not cells >> self.cell & 1:
                return False
            for mines, domain in self.witnesses:
                if cells & ~domain == 0 and all(
                    (mines & mask).bit_count() == count for _, mask, count in clues
                ):
                    return False
        bit = 1 << self.cell
        other = (
            arrangement(clues, safe=bit, total=self.total)
            if self.is_mine
            else arrangement(clues, mine=bit, total=self.total)
        )
        if other is not None:
            self.witnesses.append((other, cells | bit))
            return False
        if self.level == 3:
            return lp_forces(clues, self.cell) == int(self.is_mine)
        return True


def _linked(pool: Sequence[OClue]) -> list[list[int]]:
    return [[j for j, b in enumerate(pool) if j != i and a[1] & b[1]] for i, a in enumerate(pool)]


def connected_sets(pool: Sequence[OClue], cell: int, size: int) -> Iterator[list[OClue]] | None:
    """Yield the sets of clues of ``pool`` to try for "no set of ``size`` clues or fewer
    proves ``cell``": those of ``size`` clues linked by shared cells with one clue seeing the
    cell, and smaller ones that cannot grow (a set that proves the cell is linked to it, and
    adding clues to a set that proves it still proves it). ``None`` when there are more than
    :data:`SUBSETS_CAP`."""
    linked = _linked(pool)
    layer = {frozenset([i]) for i, c in enumerate(pool) if c[1] >> cell & 1}
    closed: list[frozenset[int]] = []
    for _ in range(size - 1):
        grown: set[frozenset[int]] = set()
        for chosen in layer:
            more = {j for i in chosen for j in linked[i]} - chosen
            if not more:
                closed.append(chosen)
            for j in more:
                grown.add(chosen | {j})
            if len(grown) > SUBSETS_CAP:
                return None
        layer = grown
    sets = sorted(closed + list(layer), key=sorted)
    if len(sets) > SUBSETS_CAP:
        return None
    return ([pool[i] for i in sorted(s)] for s in sets)


def any_sets(pool: Sequence[OClue], size: int) -> Iterator[list[OClue]] | None:
    """Yield every set of ``size`` clues of ``pool`` (enough with the mine total: a larger set
    proves all a smaller one does); ``None`` when there are more than :data:`SUBSETS_CAP`."""
    if math.comb(len(pool), size) > SUBSETS_CAP:
        return None
    return (list(c) for c in combinations(pool, size))


def check_minimal_and_fewest(
    view: View, d: Deduction, all_clues: Sequence[OClue], tally: Tally
) -> None:
    """When ``minimal``: no premise can be dropped; when ``fewest``: no smaller set of the
    position's clues proves it. Both are about the cell the deduction was made for, one of its
    conclusions, so some conclusion must pass both checks.

    The smaller sets are tried exhaustively when there are at most :data:`SUBSETS_CAP` of them
    for each conclusion; the tally counts the deductions where that was so.
    """
    if d.level < 3 or not (d.minimal or d.fewest):
        return
    clues = premise_clues(view, d)
    total = total_of(view, d)
    n = len(clues)
    pool = list(all_clues)
    verified = unverified = False
    for cell, is_mine in conclusions(d):
        prover = Prover(d.level, cell, is_mine, total)
        assert prover.proves(clues), f"the premises do not prove {cell} at level {d.level}"
        if d.minimal and any(prover.proves(clues[:k] + clues[k + 1 :]) for k in range(n)):
            continue
        if d.fewest and (n > 1 or total is not None):
            sets = any_sets(pool, n - 1) if total is not None else connected_sets(pool, cell, n - 1)
            if sets is None:
                unverified = True
                continue
            if any(prover.proves(s) for s in sets):
                continue
        verified = True
        break
    assert verified or unverified, (
        f"every conclusion of this level-{d.level} deduction is proven with a premise dropped "
        f"(minimal={d.minimal}) or by fewer premises (fewest={d.fewest})"
    )
    tally.minimal_checked += d.minimal
    tally.fewest_claimed += d.fewest
    tally.fewest_checked += d.fewest and verified


# --------------------------------------------------------------------------------------------
# The printed proof


def _cell(view: View, xy: Any) -> int:
    assert isinstance(xy, list) and len(xy) == 2, xy
    return view.index(xy[0], xy[1])


def check_proof_json(view: View, d: Deduction, tally: Tally) -> None:
    """The proof a user reads (``Deduction.to_json()["proof"]``) checks out by itself, from the
    position's numbers and the mine total.

    A case analysis may come without its cases when they are too many to show (the text says
    so); the tally counts those.
    """
    data = d.to_json()
    proof = data["proof"]
    if d.level == 1:
        assert proof is None
        return
    if proof is None and d.level >= 4:
        tally.unproven += 1
        return
    assert proof is not None, f"a level-{d.level} deduction without a proof"
    safe = mask_of(_cell(view, c) for c in data["safe"])
    mine = mask_of(_cell(view, c) for c in data["mine"])
    assert (safe, mine) == (d.safe, d.mine)
    assert [_cell(view, c) for c in data["premises"]] == list(d.premises)
    if "combination" in proof:
        check_combination(view, d, proof, safe, mine)
    else:
        assert set(proof) == {"cases"}, set(proof)
        assert d.level >= 4, f"a level-{d.level} deduction proven by cases"
        check_cases(view, d, proof["cases"], safe, mine)


def check_given_json(view: View, d: Deduction, given: Any) -> tuple[int, set[int]]:
    """Each one-clue step told before a combination follows from its number and the steps
    before it (a number with all its mines makes its other cells safe; one with just enough
    cells left makes them mines); return the mines they prove and the numbers they use."""
    safe = mine = 0
    used = set()
    for item in given:
        cell = _cell(view, item["premise"])
        assert cell in d.premises, "a given step uses a number that is not a premise"
        used.add(cell)
        _, mask, count = view.clue_at(cell)
        s = mask_of(_cell(view, c) for c in item["safe"])
        m = mask_of(_cell(view, c) for c in item["mine"])
        free = mask & ~safe & ~mine
        placed = (mask & mine).bit_count()
        assert (s | m) and not s & m and (s | m) & ~free == 0, "a given step settles no new cell"
        if s:
            assert placed == count, "cells called safe while mines are still needed"
        if m:
            assert count - placed == free.bit_count(), "cells called mines with room"
        safe |= s
        mine |= m
    return mine, used


def check_combination(view: View, d: Deduction, proof: Any, safe: int, mine: int) -> None:
    """Add up the premises' equations with the printed multipliers (each number less its flags
    and the mines of the given steps, over its other covered cells; the mine total over all of
    them) and compare with the printed equation; its total must be the most the left side can
    be, and each conclusion must have the sign that proves it."""
    given, given_clues = check_given_json(view, d, proof["given"])
    coefficient: dict[int, Fraction] = {}
    total = Fraction(0)
    used = []
    for item in proof["combination"]:
        k = Fraction(item["multiplier"])
        assert k, "a zero multiplier"
        if item["premise"] == "mine total":
            cells, value = view.unknown, view.left
            used.append(-1)
        else:
            cell = _cell(view, item["premise"])
            _, cells, value = view.clue_at(cell)
            used.append(cell)
        value -= (cells & given).bit_count()
        cells &= ~given
        total += k * value
        for c in bits(cells):
            coefficient[c] = coefficient.get(c, Fraction(0)) + k
    assert len(used) == len(set(used)), "a premise used twice"
    expected = {c: v for c, v in coefficient.items() if v}
    printed = {
        _cell(view, e["cell"]): Fraction(e["coefficient"]) for e in proof["equation"]["cells"]
    }
    assert printed == expected, "the equation is not the sum of the premises"
    assert list(printed) == sorted(printed), "equation cells out of order"
    assert Fraction(proof["equation"]["total"]) == total, "the total is not the sum"
    assert total == sum(v for v in printed.values() if v > 0), "the total is not the maximum"
    for c in bits(safe):
        assert printed.get(c, 0) < 0, f"safe cell {c} without a negative coefficient"
    for c in bits(mine):
        assert printed.get(c, 0) > 0, f"mine {c} without a positive coefficient"
    clues = {c for c in used if c >= 0} | given_clues
    assert clues <= set(d.premises), "the combination uses a number that is not a premise"
    assert (-1 in used) <= d.uses_mine_total, "the combination uses the mine total"
    if d.minimal:
        # A premise left out of the sum would be one the proof does without.
        assert clues == set(d.premises), "a premise the combination does not use"
        assert (-1 in used) == d.uses_mine_total, "the mine total is a premise but not used"


def check_cases(view: View, d: Deduction, cases: Any, safe: int, mine: int) -> None:
    """Each "contradiction" case has no arrangement with the premises (and the mine total when
    it is one), the one "agrees" case is the conclusion, and each assignment of the cells split
    on matches exactly one case."""
    clues = premise_clues(view, d)
    total = total_of(view, d)
    assert (safe | mine).bit_count() == 1, "a case proof of more than one cell"
    parsed = []
    for case in cases:
        s = mask_of(_cell(view, c) for c in case["safe"])
        m = mask_of(_cell(view, c) for c in case["mine"])
        assert not s & m and (s | m) & ~view.unknown == 0
        parsed.append((s, m, case["outcome"]))
    agrees = [(s, m) for s, m, outcome in parsed if outcome == "agrees"]
    assert agrees == [(safe, mine)], "the agreeing case is not the conclusion"
    for s, m, outcome in parsed:
        assert outcome in ("contradiction", "agrees"), outcome
        if outcome == "contradiction":
            assert arrangement(clues, mine=m, safe=s, total=total) is None, (
                f"case safe={list(bits(s))} mine={list(bits(m))} is not a contradiction"
            )
    split = 0
    for s, m, _ in parsed:
        split |= s | m
    cells = list(bits(split))
    assert len(cells) <= 16, "too many cells split on to check"
    for values in product((False, True), repeat=len(cells)):
        m_all = mask_of(c for c, v in zip(cells, values, strict=True) if v)
        s_all = split & ~m_all
        matching = [1 for s, m, _ in parsed if s & ~s_all == 0 and m & ~m_all == 0]
        assert len(matching) == 1, f"{len(matching)} cases match mines {list(bits(m_all))}"
    assert isinstance(d.proof, CaseProof)
    check_case_steps(view, d, d.proof)


def check_count(
    clue: Callable[[int], tuple[int, int]], event: Event, safe: int, mine: int
) -> tuple[int, int]:
    """Check a count inside a case (``clue`` gives a premise's cells and mines, -1 the mine
    total's): the undecided cells of its one or two parts share none and all lie among the
    premise's, the mines they still need (``needed``) and the premise still needs (``left``)
    are told right, and what it concludes follows (more needed than left, or more left than
    the premise's other undecided cells: a conflict; as many: those cells are safe; as many
    more as it has other cells: those are mines). Return the cells known after it, ``(safe,
    mine)``."""

    def still(cell: int) -> tuple[int, int]:
        mask, count = clue(cell)
        return mask & ~safe & ~mine, count - (mask & mine).bit_count()

    free, left = still(event.premise)
    assert 1 <= len(event.parts) <= 2 and event.premise not in event.parts, "a count's parts"
    inside = 0
    needed = 0
    for part in event.parts:
        cells, need = still(part)
        assert cells and cells & ~free == 0, "a part with cells outside the count"
        assert not cells & inside, "two parts that share a cell"
        inside |= cells
        needed += need
    assert (event.needed, event.left) == (needed, left), "a count's figures"
    rest = free & ~inside
    if event.conflict == "too-many":
        assert needed > left, "not more needed than left"
        return safe, mine
    if event.conflict:
        assert left - needed > rest.bit_count(), "not too few cells"
        return safe, mine
    if event.safe:
        assert not event.mine and event.safe and event.safe & ~rest == 0
        assert needed == left, "cells called safe while mines are still needed"
        return safe | event.safe, mine
    assert event.mine and event.mine & ~rest == 0, "a count's mines"
    assert left - needed == rest.bit_count(), "cells called mines with room"
    return safe, mine | event.mine


def check_case_steps(view: View, d: Deduction, proof: CaseProof) -> None:
    """Each step inside each refuted case follows by one clue, or by a count (see
    :func:`check_count`), from what is known there (the assumptions and the steps before it),
    and each case ends in a clue or a count that cannot hold."""
    clues = {c: view.clue_at(c) for c in d.premises}
    total: tuple[int, int] | None = view.total() if d.uses_mine_total else None
    assert proof.mine == bool(d.mine) and d.safe | d.mine == 1 << proof.target
    assert proof.refuted.cell == proof.target and proof.refuted.mine != proof.mine

    def clue(premise: int) -> tuple[int, int]:
        if premise == -1:
            assert total is not None, "the mine total used but not a premise"
            return total
        assert premise in clues, f"a step uses {premise}, not a premise"
        _, mask, count = clues[premise]
        return mask, count

    def step(event: Event, safe: int, mine: int) -> tuple[int, int]:
        """Check a step that settles cells by one clue; return what is known after it."""
        mask, count = clue(event.premise)
        placed = (mask & mine).bit_count()
        free = mask & ~mine & ~safe
        settled = event.safe | event.mine
        assert not event.conflict
        assert settled and settled & ~free == 0, "a step settles no new cell"
        assert not (event.safe and event.mine)
        if event.safe:
            assert placed == count, "cells called safe while mines are still needed"
            return safe | event.safe, mine
        assert count - placed == free.bit_count(), "cells called mines with room"
        return safe, mine | event.mine

    def walk(branch: Branch, safe: int, mine: int) -> None:
        bit = 1 << branch.cell
        assert not (safe | mine) & bit, "a case assumes a cell already known"
        if branch.mine:
            mine |= bit
        else:
            safe |= bit
        for n, event in enumerate(branch.chain):
            if event.parts:
                safe, mine = check_count(clue, event, safe, mine)
                if event.conflict:
                    assert n == len(branch.chain) - 1 and branch.split is None
                    return
                continue
            if event.conflict:
                mask, count = clue(event.premise)
                placed = (mask & mine).bit_count()
                free = mask & ~mine & ~safe
                assert n == len(branch.chain) - 1 and branch.split is None
                if event.conflict == "too-many":
                    assert placed > count, "not too many mines"
                else:
                    assert count - placed > free.bit_count(), "not too few cells"
                return
            safe, mine = step(event, safe, mine)
        assert branch.split is not None, "a case that ends without a contradiction"
        first, second = branch.split
        assert first.cell == second.cell and first.mine != second.mine
        walk(first, safe, mine)
        walk(second, safe, mine)

    # What holds whatever the case comes first, from nothing known, then the cases from it.
    safe = mine = 0
    for event in proof.given:
        safe, mine = step(event, safe, mine)
    assert not (safe | mine) >> proof.target & 1, "the target settled before any case"
    walk(proof.refuted, safe, mine)


def check_deduction(
    view: View, d: Deduction, all_clues: Sequence[OClue], tally: Tally, *, fewest: bool = True
) -> None:
    """Every check of this module on one deduction."""
    check_sound(view, d)
    check_rule_shape(view, d)
    check_level(view, d, all_clues)
    check_proof_json(view, d, tally)
    if fewest:
        check_minimal_and_fewest(view, d, all_clues, tally)
    tally.add(d.level)
