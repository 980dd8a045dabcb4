"""The step solve's shortcuts agree with the ladder's full search.

:func:`~mineproof.logic.ladder.one_clue_best` must pick the deduction ``Ladder.best`` picks
whenever level 1 forces something (checked on random positions, against the ladder's own list of
level-1 deductions and its general choice); the mine-total search's bound check
(``_total_cannot_help``) may only rule out clue sets that exact counting with the total
(:func:`~mineproof.analysis.core.forced_by`) also finds do not force the cell.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from mineproof.analysis.constraints import (
    Clue,
    Constraints,
    components_of,
    constraints_of,
    propagate,
    refresh_clues,
)
from mineproof.analysis.core import forced_by
from mineproof.board import Board, Layout, iter_bits
from mineproof.logic import Deduction, Step, logic_steps
from mineproof.logic.ladder import Ladder, _total_cannot_help, one_clue_best, two_clue_best
from mineproof.logic.levels import ForcingPairs, Group, Groups
from mineproof.logic.premises import Work
from mineproof.position import Position

from .oracle import forced, view_of
from .positions import random_game

DATA = Path(__file__).parents[1] / "data" / "ladder_positions.jsonl"


def _ladder_choices(
    chunk: int, positions: int
) -> Iterator[tuple[tuple[int, int], Position, Constraints, dict[int, Clue], Deduction | None]]:
    """Yield, for random positions (``positions`` of them, from seed ``chunk * positions``) and
    three sets of last moves each (none, a cell, random cells), ``((seed, near), position, its
    constraints, its clues by number, the ladder's best deduction)``."""
    rng = random.Random(chunk)
    for seed in range(chunk * positions, (chunk + 1) * positions):
        _, position = random_game(seed, most_flags=0.6)
        cons = constraints_of(position, trust_flags=True)
        clues = {c.cell: c for c in cons.clues}
        size = position.board.size
        for near in (0, 1 << rng.randrange(size), rng.getrandbits(size) & rng.getrandbits(size)):
            want = Ladder(position, cons).best(near, Work(10_000))
            yield (seed, near), position, cons, clues, want


@pytest.mark.parametrize("chunk", range(4))
def test_one_clue_best_is_the_ladders_choice(chunk: int) -> None:
    """On random positions and sets of last moves, the level-1 shortcut returns what the
    ladder returns at level 1, and ``None`` exactly when the ladder goes above level 1."""
    level_one = 0
    for case, position, cons, clues, want in _ladder_choices(chunk, 300):
        zero = full = 0
        for c in cons.clues:
            if c.mines == 0:
                zero |= 1 << c.cell
            elif c.mines == c.mask.bit_count():
                full |= 1 << c.cell
        near = case[1]
        got = one_clue_best(position, clues, zero, full, cons.unknown, cons.mines, near)
        if want is not None and want.level == 1:
            level_one += 1
            assert got == want, case
        else:
            assert got is None, case
    assert level_one >= 300


def test_one_clue_best_takes_the_nearest_then_the_lowest_cell_then_number() -> None:
    """Three zeros above a row: the nearest wins; at equal distance (all three from the far
    corner) the lowest cell proven, then the lower number (0 and 1 both prove cell 3 first)."""
    position = Position.parse("3x3x1\n000\nHHH\nHHH")
    cons = constraints_of(position, trust_flags=True)
    clues = {c.cell: c for c in cons.clues}
    zero = sum(1 << c.cell for c in cons.clues if c.mines == 0)
    for near, premise in ((0, 0), (1 << 2, 2), (1 << 1, 1), (1 << 8, 0)):
        got = one_clue_best(position, clues, zero, 0, cons.unknown, cons.mines, near)
        assert got == Ladder(position, cons).best(near, Work(10_000))
        assert got is not None and got.premises == (premise,), near


@pytest.mark.parametrize("chunk", range(2))
def test_two_clue_best_is_the_ladders_choice(chunk: int) -> None:
    """On random positions where level 1 forces nothing, the level-2 shortcut returns what the
    ladder returns at level 2, and ``None`` exactly when the ladder goes above level 2."""
    level_two = 0
    for case, position, _, clues, want in _ladder_choices(chunk, 2000):
        if want is not None and want.level == 1:
            continue
        pairs = ForcingPairs(position.board.width)
        pairs.changed(sum(1 << i for i in clues))
        got = two_clue_best(position, clues, pairs.update(clues), case[1])
        if want is not None and want.level == 2:
            level_two += 1
            assert got == want, case
        else:
            assert got is None, case
    assert level_two >= 100


def _oracle_pairs(position: Position) -> dict[tuple[int, int], tuple[int, int]]:
    """Return every pair of overlapping clues of ``position`` (flags as mines) that forces a
    cell, with what it forces, by the oracle's search."""
    clues = view_of(position).clues
    out = {}
    for n, a in enumerate(clues):
        for b in clues[n + 1 :]:
            if a[1] & b[1]:
                safe, mine = forced([a, b], a[1] | b[1])
                if safe | mine:
                    out[a[0], b[0]] = (safe, mine)
    return out


def _solves(
    width: int, height: int, mines: int
) -> Iterator[tuple[int, Step, dict[int, Clue], int, bool]]:
    """Yield, along the solves of four random boards (seeds 0-3, an opening at the centre),
    ``(seed, step, the clues of its position by number, the numbers whose clue changed since
    the step before, whether to look now)``: looked at after each step above level 1 and at a
    random three in ten of the others, as the solve brings its trackers up to date."""
    board = Board(width, height)
    start = (width // 2, height // 2)
    rng = random.Random(width)
    for seed in range(4):
        layout = Layout.random(board, mines, random.Random(seed), start, "opening")
        clues: dict[int, Clue] = {}
        before: Position | None = None
        for step in logic_steps(layout, start):
            position = step.position
            if before is None:
                clues = {c.cell: c for c in constraints_of(position, trust_flags=True).clues}
                numbers = sum(1 << i for i in clues)
            else:
                changed = sum(
                    1 << i
                    for i, (x, y) in enumerate(zip(before.cells, position.cells, strict=True))
                    if x != y
                )
                numbers = refresh_clues(position, clues, changed)
            before = position
            look = step.deduction.level >= 2 or rng.random() < 0.3
            yield seed, step, clues, numbers, look


@pytest.mark.parametrize(("width", "height", "mines"), [(16, 16, 50), (30, 16, 110), (40, 30, 260)])
def test_forcing_pairs_kept_up_to_date_along_solves(width: int, height: int, mines: int) -> None:
    """Along whole solves, the pairs brought up to date now and then from the numbers whose
    clue changed are those the oracle finds by looking at every pair of the position."""
    looked = 0
    pairs = ForcingPairs(width)
    for seed, step, clues, numbers, look in _solves(width, height, mines):
        if step.number == 1:
            pairs = ForcingPairs(width)
        pairs.changed(numbers)
        if look:
            assert pairs.update(clues) == _oracle_pairs(step.position), (seed, step.number)
            looked += 1
    assert looked >= 60


def test_the_bound_check_only_rules_out_sets_that_do_not_prove() -> None:
    """On real level-5 positions, for random sets of clues, the bound check never rules out a
    set that proves a target with the mine total; and it rules out most sets."""
    rng = random.Random(5)
    records = [json.loads(line) for line in DATA.read_text().splitlines()]
    ruled_out = unsure = 0
    for record in records:
        if record["level"] != 5:
            continue
        position = Position.parse(record["position"])
        ladder = Ladder(position)
        level, safe, mine = ladder._hard_targets()
        assert level == 5 and ladder._alone == 0
        clues, unknown, left = ladder.clues, ladder.unknown, ladder.left
        group_of = {c.cell: g for g, comp in enumerate(components_of(clues)) for c in comp.clues}
        for target in iter_bits(safe | mine):
            bit = 1 << target
            for _ in range(15):
                chosen = rng.sample(clues, rng.randint(1, min(4, len(clues))))
                s, m, rest = propagate(chosen)
                assert not s | m  # nothing is forced without the total
                if _total_cannot_help(rest, unknown, left, group_of, bit):
                    ruled_out += 1
                    fs, fm = forced_by(chosen, unknown, left)
                    assert not (fs | fm) & bit, (record["source"], target)
                else:
                    unsure += 1
    assert ruled_out >= 1000 and unsure >= 50


def _oracle_groups(position: Position) -> set[frozenset[tuple[int, int, int]]]:
    """Return the groups of linked numbers of ``position`` (flags as mines), each as the set of
    its clues, by a search over every pair of clues that share a cell."""
    clues = list(view_of(position).clues)
    seen: set[int] = set()
    out = set()
    for n in range(len(clues)):
        if n in seen:
            continue
        group, todo = {n}, [n]
        while todo:
            a = clues[todo.pop()]
            for m, b in enumerate(clues):
                if m not in group and a[1] & b[1]:
                    group.add(m)
                    todo.append(m)
        seen |= group
        out.add(frozenset(clues[m] for m in group))
    return out


@pytest.mark.parametrize(("width", "height", "mines"), [(16, 16, 50), (30, 16, 110), (40, 30, 260)])
def test_groups_kept_up_to_date_along_solves(width: int, height: int, mines: int) -> None:
    """Along whole solves, the groups of linked numbers brought up to date now and then from
    the numbers whose clue changed are those the oracle finds by linking every pair of clues
    of the position; a group kept from an earlier update still has its clues."""
    looked = kept = 0
    groups = Groups(width)
    last: list[Group] = []
    for seed, step, clues, numbers, look in _solves(width, height, mines):
        if step.number == 1:
            groups, last = Groups(width), []
        groups.changed(numbers)
        if look:
            got = groups.update(clues)
            found = {frozenset((c.cell, c.mask, c.mines) for c in g.clues) for g in got}
            assert found == _oracle_groups(step.position), (seed, step.number)
            assert all(g.mask == _union(g.clues) for g in got)
            kept += len({id(g) for g in got} & {id(g) for g in last})
            last = got
            looked += 1
    assert looked >= 60
    assert kept >= 100


def _union(clues: list[Clue]) -> int:
    out = 0
    for c in clues:
        out |= c.mask
    return out
