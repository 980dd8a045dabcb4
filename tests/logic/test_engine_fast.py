"""The engine's whole-board level 1 (bit-sliced numbers) makes exactly the steps of a plain
solve written here, one clue at a time: the same level at every step, the same cells opened
and proven, the same rounds, the same clues at every point where it is stuck; and so through
the toggles, forgotten proofs and restarts of the generator's local search.

The reference below shares no level-1 code with the engine: neighbours and numbers are
computed here, each step builds the clues of the numbers next to a cell that changed since the
step before and applies the one-clue rules to them until nothing changes, opens what they
prove safe (flooding through zeros) and flags what they prove mined. Where that is stuck, the
higher levels are the library's (``forced_by``, ``forced_up_to``: not what is tested here),
given every clue built afresh. Whether a board is cleared is also checked against an
exhaustive search on small boards.
"""

from __future__ import annotations

import random

import pytest

from mineproof.analysis import forced_by
from mineproof.analysis.constraints import Clue, propagate
from mineproof.board import Board, FirstClick, Layout
from mineproof.logic import Engine, forced_up_to

from .oracle import around, bits, forced, mask_of


class Reference:
    """A layout solved step by step, one clue at a time (see the module)."""

    def __init__(self, width: int, height: int, mines: int, start: int) -> None:
        self.size = width * height
        self.near = [around(width, height, i) for i in range(self.size)]
        self.near_mask = [mask_of(n) for n in self.near]
        self.mines = mines
        self.total = mines.bit_count()
        self.start = start
        self.opened = self.known = self.dirty = 0
        self.rounds = self.hardest = 0

    def number(self, i: int) -> int:
        return sum(self.mines >> n & 1 for n in self.near[i])

    def dilate(self, cells: int) -> int:
        out = cells
        for i in bits(cells):
            out |= self.near_mask[i]
        return out

    def reveal(self, i: int) -> None:
        todo = [i]
        while todo:
            c = todo.pop()
            if self.opened >> c & 1:
                continue
            self.opened |= 1 << c
            self.dirty |= 1 << c | self.near_mask[c]
            if self.number(c) == 0:
                todo.extend(self.near[c])

    def toggle(self, i: int) -> None:
        self.mines ^= 1 << i
        self.dirty |= 1 << i | self.near_mask[i]
        if self.opened >> i & 1:  # a mine put on an opened cell: a proven mine
            self.opened ^= 1 << i
            self.known |= 1 << i

    def forget_near(self, cells: int) -> None:
        region = self.dilate(self.dilate(cells))
        if self.known & region:
            self.known &= ~region
            self.dirty |= self.dilate(region)

    def restart(self) -> None:
        self.opened = self.known = self.dirty = self.hardest = 0
        self.reveal(self.start)

    def unknown(self) -> int:
        return ((1 << self.size) - 1) & ~self.opened & ~self.known

    def clues(self, cells: int) -> list[Clue]:
        """Return the clues of the opened numbers among ``cells``, reduced to unknown cells."""
        unknown = self.unknown()
        out = []
        for i in bits(cells & self.opened):
            mask = self.near_mask[i] & unknown
            if mask:
                out.append(
                    Clue(i, mask, self.number(i) - (self.near_mask[i] & self.known).bit_count())
                )
        return out

    def step(self, max_level: int, exact_levels: bool) -> int:
        unknown = self.unknown()
        left = self.total - self.known.bit_count()
        changed, self.dirty = self.dirty, 0
        safe = mine = 0
        clues = self.clues(changed)
        progress = True
        while progress:  # the one-clue rules on these clues, until nothing changes
            progress = False
            for _, mask, count in clues:
                rest = mask & ~safe & ~mine
                need = count - (mask & mine).bit_count()
                if rest and need in (0, rest.bit_count()):
                    safe, mine = (safe | rest, mine) if need == 0 else (safe, mine | rest)
                    progress = True
        level = 1
        if not safe | mine and left in (0, unknown.bit_count()):
            safe, mine = (unknown, 0) if left == 0 else (0, unknown)
        if not safe | mine and max_level >= 2:
            rest_clues = propagate(self.clues(self.opened))[2]
            if max_level == 5 and not exact_levels:
                # The complete mode tries two clues before the exact count.
                safe, mine = forced_up_to(2, rest_clues, unknown, left)
                if not safe | mine:
                    safe, mine = forced_by(rest_clues, unknown, left)
                level = 5
            else:
                for level in range(2, max_level + 1):
                    safe, mine = forced_up_to(level, rest_clues, unknown, left)
                    if safe | mine:
                        break
        if not safe | mine:
            return 0
        self.hardest = max(self.hardest, level)
        self.known |= mine
        self.dirty |= self.dilate(mine)
        for i in bits(safe):
            self.reveal(i)
        self.rounds += bool(safe)
        return level

    def cleared(self) -> bool:
        return self.opened | self.mines == (1 << self.size) - 1


def same(engine: Engine, ref: Reference) -> None:
    assert (engine.opened, engine.known, engine.rounds, engine.hardest) == (
        ref.opened,
        ref.known,
        ref.rounds,
        ref.hardest,
    )


def play_both(engine: Engine, ref: Reference, max_level: int, exact_levels: bool) -> bool:
    """Play both in step, checking each step; return whether cleared (through ``play``)."""
    before = (engine.opened, engine.known, engine.dirty, engine.rounds, engine.hardest)
    stale, clue_of = engine.stale, dict(engine.clue_of)
    while not ref.cleared():
        level = ref.step(max_level, exact_levels)
        assert engine.step(max_level, exact_levels) == level
        same(engine, ref)
        if not level:
            # Stuck: the clues the generator reads are every clue of the position.
            assert engine.clue_of == {c.cell: c for c in ref.clues(ref.opened)}
            break
    # play itself, from the same state, ends where the steps did.
    after = (engine.opened, engine.known, engine.dirty, engine.rounds, engine.hardest)
    engine.opened, engine.known, engine.dirty, engine.rounds, engine.hardest = before
    engine.stale, engine.clue_of = stale, clue_of
    cleared = engine.play(max_level, exact_levels)
    assert (engine.opened, engine.known, engine.dirty, engine.rounds, engine.hardest) == after
    assert cleared == ref.cleared()
    return cleared


MODES = [(5, False), (5, True), (4, True), (3, True), (2, True), (1, True)]
SIZES = [(30, 16, 99, 400), (30, 16, 130, 150), (16, 16, 40, 300), (9, 9, 10, 600)]
SIZES += [(8, 8, 14, 400), (5, 4, 4, 1000), (1, 9, 2, 300), (6, 1, 1, 200)]


@pytest.mark.parametrize(("max_level", "exact_levels"), MODES)
@pytest.mark.parametrize(("width", "height", "mines", "layouts"), SIZES)
def test_steps_match_the_reference(
    width: int, height: int, mines: int, layouts: int, max_level: int, exact_levels: bool
) -> None:
    board = Board(width, height)
    rng = random.Random(f"fast-{width}x{height}/{mines}-{max_level}{exact_levels}")
    cleared = 0
    for _ in range(layouts):
        start = (rng.randrange(width), rng.randrange(height))
        rules: list[FirstClick] = ["opening", "safe"] if width * height > 9 + mines else ["safe"]
        rule = rng.choice(rules)
        layout = Layout.random(board, mines, rng, start, rule)
        i = board.index(*start)
        engine = Engine(layout, i)
        engine.reveal(i)
        ref = Reference(width, height, layout.mines, i)
        ref.reveal(i)
        cleared += play_both(engine, ref, max_level, exact_levels)
    assert cleared or max_level < 5 or mines > 99  # cleared boards are among them


@pytest.mark.parametrize(("max_level", "exact_levels"), [(5, False), (5, True), (3, True)])
@pytest.mark.parametrize(("width", "height", "mines"), [(30, 16, 130), (16, 16, 50), (9, 9, 16)])
def test_local_search_matches_the_reference(
    width: int, height: int, mines: int, max_level: int, exact_levels: bool
) -> None:
    """Toggle a frontier cell and a cell of the opposite state (an opened one becoming a proven
    mine), forget the proofs near them, and go on or (half the time, when an opened cell
    changed) restart, as the generator's local search does."""
    board = Board(width, height)
    rng = random.Random(f"perturb-{width}x{height}/{mines}-{max_level}")
    restarts = 0
    for _ in range(12):
        start = (width // 2, height // 2)
        i = board.index(*start)
        protected = board.start_area(i, "opening")
        layout = Layout.random(board, mines, rng, start, "opening")
        engine = Engine(layout, i, protected)
        engine.reveal(i)
        ref = Reference(width, height, layout.mines, i)
        ref.reveal(i)
        for _ in range(40):
            if play_both(engine, ref, max_level, exact_levels):
                break
            covered = board.full_mask & ~ref.opened & ~protected
            near = ref.dilate(ref.opened) & covered
            frontier = list(bits(near & ~ref.known or near))
            if not frontier:
                break
            c = rng.choice(frontier)
            partners = list(bits(board.full_mask & ~protected & ~(1 << c)))
            partners = [p for p in partners if (ref.mines >> p & 1) != (ref.mines >> c & 1)]
            partner = rng.choice(partners)
            restart = bool(ref.opened >> partner & 1) and rng.random() < 0.5
            for side in (engine, ref):
                side.toggle(c)
                side.toggle(partner)
                side.forget_near(1 << c | 1 << partner)
                if restart:
                    side.restart()
                    restarts += side is ref
            assert engine.mines == ref.mines
            numbers = [engine.number(j) for j in range(board.size)]
            assert numbers == [ref.number(j) for j in range(board.size)]
    assert restarts


@pytest.mark.parametrize(
    ("width", "height", "mines", "rule"),
    [(4, 4, 3, "safe"), (5, 4, 4, "opening"), (5, 3, 3, "safe")],
)
def test_play_clears_what_exhaustive_search_clears(
    width: int, height: int, mines: int, rule: FirstClick
) -> None:
    """Play (the complete solve) against a logician who opens every cell no arrangement of
    the mines (given the total) puts a mine on."""
    board = Board(width, height)
    rng = random.Random(f"exhaustive-{width}x{height}/{mines}")
    for _ in range(150):
        start = (rng.randrange(width), rng.randrange(height))
        layout = Layout.random(board, mines, rng, start, rule)
        i = board.index(*start)
        engine = Engine(layout, i)
        engine.reveal(i)
        assert engine.play(5, exact_levels=False) == logician_clears(width, height, layout.mines, i)


def logician_clears(width: int, height: int, mines: int, start: int) -> bool:
    numbers = [sum(mines >> n & 1 for n in around(width, height, i)) for i in range(width * height)]
    opened, todo = 0, [start]
    while True:
        while todo:
            c = todo.pop()
            if not opened >> c & 1:
                opened |= 1 << c
                todo.extend(around(width, height, c) if numbers[c] == 0 else [])
        covered = ((1 << width * height) - 1) & ~opened
        if covered == mines:
            return True
        clues = [
            (c, mask, numbers[c])
            for c in bits(opened)
            if (mask := mask_of(around(width, height, c)) & covered)
        ]
        safe, _ = forced(clues, covered, (covered, mines.bit_count()))
        if not safe:
            return False
        todo = list(bits(safe))


@pytest.mark.parametrize(("width", "height", "mines"), [(30, 16, 99), (30, 16, 130)])
def test_the_quick_solve_proves_a_part_of_what_the_complete_one_proves(
    width: int, height: int, mines: int
) -> None:
    """Without ``complete`` (no exact count where the mine total cannot bind), the solve
    stops sooner or at the same point, never opens a mine, and stops short of the complete
    solve somewhere (else the test would show nothing)."""
    board = Board(width, height)
    rng = random.Random(f"quick-{width}x{height}/{mines}")
    shorter = 0
    for _ in range(150):
        start = (width // 2, height // 2)
        layout = Layout.random(board, mines, rng, start, "opening")
        i = board.index(*start)
        engines = []
        for complete in (True, False):
            engine = Engine(layout, i)
            engine.complete = complete
            engine.reveal(i)
            engine.play(5, exact_levels=False)
            engines.append(engine)
        full, quick = engines
        assert not quick.opened & layout.mines and not quick.known & ~layout.mines
        assert quick.opened & ~full.opened == 0 and quick.known & ~full.known == 0
        shorter += quick.opened != full.opened
    assert shorter
