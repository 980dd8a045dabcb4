"""Hostile positions: the CPU time and peak memory of `analyze`, `hint` and the levels on each.

Each position is analysed, then hinted, in a process of its own (so its peak memory is its own)
with a limit of 4 GiB of memory and 300 s of CPU. The positions are made here from seeds:

- lattices: numbers at even coordinates, every other cell covered, a quarter of the covered
  cells mines (the frontier is two-dimensional: exact counting is exponential in its width);
- pockets: a board opened everywhere but 300 separate pockets of four cells (hundreds of
  independent components, combined with the mine total);
- big: 255x255 boards at 20 % mines, opened from the centre by a perfect logician and then by
  lucky guesses until about half the board is open (huge counts: numbers of thousands of digits);
- snakes: a 255x255 board of flagged rows and one snake of 16,256 covered cells, each proven by
  the one before, from the far end (flags trusted); broken, its first number says one mine too
  many: a conflict of every number; decided by a case analysis at its end, 1,481 linked numbers
  on 81x81;
- pair strips: 85 strips of 85 links on 255x255, each link's covered cell proven safe by a pair
  of numbers once the cell before it is (flags trusted).

`levels` is what `review` works out for each click: the techniques of each level applied until
they prove nothing new (`mineproof.logic.closures`), within one analysis's counting budget.

Usage: python benchmarks/bench_hostile.py [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable

from from_tests import load

from mineproof.board import Board, Layout
from mineproof.game import Game
from mineproof.logic import Engine
from mineproof.position import COVERED, Position

hostile = load("tests/analysis/hostile.py")
lattice: Callable[[int, int], Position] = hostile.lattice
snake: Callable[..., tuple[Position, Layout]] = hostile.snake
case_snake: Callable[[int], tuple[Position, Layout]] = hostile.case_snake
pair_strips: Callable[[int, int], tuple[Position, Layout]] = hostile.pair_strips


def pairs(side: int, count: int, seed: int = 1) -> Position:
    """Return a board opened but for ``count`` pockets of two cells, one mine in each, walled in
    by mines on both ends so that no number tells the two cells apart."""
    rng = random.Random(seed)
    board = Board(side, side)
    spots = [(x, y) for y in range(1, side - 1, 3) for x in range(1, side - 4, 5)]
    rng.shuffle(spots)
    mines: list[tuple[int, int]] = []
    hidden: set[int] = set()
    for x, y in spots[:count]:
        # wall mine, the pair, wall mine: the pair's neighbours all see both cells or a wall.
        mines += [(x, y), (x + 1 + rng.randrange(2), y), (x + 3, y)]
        hidden |= {board.index(x + dx, y) for dx in range(4)}
    layout = Layout.from_cells(board, mines)
    numbers = layout.numbers()
    cells = tuple(COVERED if i in hidden else numbers[i] for i in range(board.size))
    return Position(board, cells, layout.mine_count)


def big(seed: int = 1) -> Position:
    """Return a 255x255 board at 20 % mines, about half of it opened."""
    rng = random.Random(seed)
    board = Board(255, 255)
    start = (127, 127)
    layout = Layout.random(board, board.size // 5, rng, start, "opening")
    engine = Engine(layout, board.index(*start))
    engine.reveal(engine.start)
    safe = [i for i in range(board.size) if not layout.is_mine(i)]
    while engine.opened.bit_count() < board.size // 2:
        if not engine.step(1):
            engine.reveal(rng.choice([i for i in safe if not engine.opened >> i & 1]))
    game = Game(layout)
    for i in range(board.size):
        if engine.opened >> i & 1 and game.state == "playing" and not game.opened_mask >> i & 1:
            game.reveal(*board.xy(i))
    return game.position()


POSITIONS: dict[str, Callable[[], Position]] = {
    "lattice 25x25": lambda: lattice(25, 25),
    "lattice 30x16": lambda: lattice(30, 16),
    "lattice 30x20": lambda: lattice(30, 20),
    "lattice 41x41": lambda: lattice(41, 41),
    "lattice 61x61": lambda: lattice(61, 61),
    "pockets 100x100 (300 of them)": lambda: pairs(100, 300),
    "big 255x255, half open": lambda: big(1),
    "snake 255x255": lambda: snake(255)[0],
    "snake 255x255, broken": lambda: snake(255, broken=True)[0],
    "case snake 41x41": lambda: case_snake(41)[0],
    "case snake 81x81": lambda: case_snake(81)[0],
    "pair strips 255x255": lambda: pair_strips(255, 255)[0],
}

TRUSTED = {
    "snake 255x255",
    "snake 255x255, broken",
    "case snake 41x41",
    "case snake 81x81",
    "pair strips 255x255",
}
"""The positions whose flags are taken as mines."""


def _child(name: str, what: str) -> None:
    """Run one measurement (in the child process) and print it as JSON."""
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (300, 300))
    from mineproof.analysis import ANALYSIS_WORK, analyze, counting_budget
    from mineproof.analysis.constraints import constraints_of
    from mineproof.explain import hint
    from mineproof.logic import closures

    position = POSITIONS[name]()
    trust = name in TRUSTED
    start = time.process_time()
    try:
        if what == "analyze":
            analyze(position, trust).to_json()
            outcome = "exact"
        elif what == "levels":
            cons = constraints_of(position, trust)
            with counting_budget(ANALYSIS_WORK):
                proven = [
                    f"{(safe | mine).bit_count()}"
                    for _, safe, mine in closures(cons.clues, cons.unknown, cons.mines)
                ]
            outcome = f"cells proven at levels 1-5: {', '.join(proven)}"
        else:
            outcome = f"level {hint(position, trust_flags=trust, open=True).level}"
    except MemoryError:
        outcome = "MemoryError"
    except Exception as exc:  # the error a user would see
        outcome = f"{type(exc).__name__}: {str(exc)[:90]}"
    cpu = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"cpu": cpu, "peak_mb": peak, "outcome": outcome}))


def main() -> int:
    """Run every measurement in a child process and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return 0
    print(f"{'position':<30} {'what':<8} {'CPU s':>7} {'peak MB':>8}  outcome")
    for name in POSITIONS:
        if args.only and name not in args.only:
            continue
        for what in ("analyze", "hint", "levels"):
            done = subprocess.run(
                [sys.executable, __file__, "--child", name, what],
                capture_output=True,
                text=True,
                check=False,
            )
            lines = done.stdout.strip().splitlines()
            if done.returncode or not lines:
                print(f"{name:<30} {what:<8} {'':>7} {'':>8}  died: {done.stderr.strip()[-90:]}")
                continue
            r = json.loads(lines[-1])
            print(f"{name:<30} {what:<8} {r['cpu']:7.2f} {r['peak_mb']:8.0f}  {r['outcome']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
