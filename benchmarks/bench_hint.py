"""Time hints on real and hostile positions: CPU seconds per hint, plain and in play (--open).

Positions: the shared benchmark positions (real expert and intermediate mid-games, and the
scattered expert frontiers), and hostile ones made here: long rows ``H1H1...H`` where only the
mine total decides (129 and 253 cells), big boards (30x30 to 100x100) opened everywhere but a
few pockets, where a play hint must flag its way to a safe cell, and 45x45 and 60x60 boards
where only the mine total proves a cell and the player flagged nothing (so the proof must
account for every mine on the board). Prints, per group, the median,
p90 and largest CPU time of a hint, its level, and how many hints kept premises that are not
known to be the fewest (``fewest`` false) or not minimal.

Usage: python benchmarks/bench_hint.py [--positions DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mineproof.board import Board, Layout
from mineproof.explain import hint
from mineproof.game import Game
from mineproof.logic import Engine
from mineproof.position import COVERED, FLAG, Position

ROOT = Path(__file__).resolve().parents[1]


def row(n: int) -> Position:
    """Return ``H1H1...H`` of ``n`` cells with a quarter of them mines: only the total decides."""
    cells = "".join("H" if i % 2 == 0 else "1" for i in range(n))
    return Position.parse(f"{n}x1x{(n // 2) // 2}\n{cells}")


def pockets(side: int, seed: int, count: int) -> Position:
    """Return a ``side``-square board at 15 % mines opened everywhere but ``count`` pockets (a
    safe cell and its neighbours): every other covered cell is a mine to flag on the way."""
    rng = random.Random(seed)
    board = Board(side, side)
    layout = Layout.random(board, side * side * 15 // 100, rng)
    game = Game(layout)
    safe = [i for i in range(board.size) if not layout.mines >> i & 1]
    keep: set[int] = set()
    for c in rng.sample(safe, count):
        keep.add(c)
        keep.update(board.neighbours(c))
    for i in safe:
        if i not in keep and game.state == "playing" and not game.opened_mask >> i & 1:
            game.reveal(*board.xy(i))
    return game.position()


def total_decides(side: int, seeds: range) -> list[Position]:
    """Return positions of ``side``-square boards at 18 % mines where only the mine total
    proves a cell, with nothing flagged: played by the engine from the centre, opening a random
    safe cell when stuck (a lucky guess), each game's last position where level 5 is needed."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        board = Board(side, side)
        start = (side // 2, side // 2)
        layout = Layout.random(board, side * side * 18 // 100, rng, start, "opening")
        engine = Engine(layout, board.index(*start))
        engine.reveal(engine.start)
        last = None
        while not engine.cleared():
            seen = engine.position()
            level = engine.step(5)
            if level == 5:
                last = seen
            if not level:
                covered = board.full_mask & ~engine.opened & ~layout.mines
                near = board.dilate(engine.opened) & covered or covered
                engine.reveal(rng.choice([i for i in range(board.size) if near >> i & 1]))
        if last is not None:
            unflagged = tuple(COVERED if c == FLAG else c for c in last.cells)
            out.append(Position(board, unflagged, last.mines))
    return out


def shared(directory: Path, name: str) -> list[Position]:
    """Return the positions of one shared benchmark file."""
    with (directory / f"{name}.jsonl").open() as f:
        return [Position.parse(json.loads(line)["position"]) for line in f]


def measure(label: str, positions: list[Position], open_: bool) -> None:
    """Print the CPU time per hint of ``positions`` and what the hints were."""
    times = []
    levels: dict[int, int] = {}
    not_fewest = not_minimal = 0
    for position in positions:
        start = time.process_time()
        found = hint(position, open=open_)
        times.append(time.process_time() - start)
        levels[found.level] = levels.get(found.level, 0) + 1
        for d in found.steps:
            not_fewest += not d.fewest
            not_minimal += not d.minimal
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    shown = ", ".join(f"{n} at level {lv}" for lv, n in sorted(levels.items()))
    print(
        f"{label:<34} {'open' if open_ else 'plain':<5} n={len(times):<4} "
        f"median {statistics.median(times) * 1e3:8.1f} ms  p90 {p90 * 1e3:8.1f} ms  "
        f"max {times[-1] * 1e3:8.1f} ms  ({shown}; fewest unknown {not_fewest}, "
        f"not minimal {not_minimal})"
    )


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=ROOT.parent / "shared" / "positions")
    args = parser.parse_args()
    groups: list[tuple[str, Callable[[], list[Position]]]] = [
        ("expert-midgame", lambda: shared(args.positions, "expert-midgame")),
        ("intermediate-midgame", lambda: shared(args.positions, "intermediate-midgame")),
        ("expert-scattered", lambda: shared(args.positions, "expert-scattered")),
        ("row of 129 (H1H1...H)", lambda: [row(129)]),
        ("row of 253 (H1H1...H)", lambda: [row(253)]),
        ("30x30 pockets", lambda: [pockets(30, s, 6) for s in range(5)]),
        ("60x60 pockets", lambda: [pockets(60, s, 15) for s in range(5)]),
        ("100x100 pockets", lambda: [pockets(100, s, 30) for s in range(5)]),
        ("45x45 total decides, no flags", lambda: total_decides(45, range(6))),
        ("60x60 total decides, no flags", lambda: total_decides(60, range(6))),
    ]
    for label, make in groups:
        positions = make()
        for open_ in (False, True):
            measure(label, positions, open_)
    return 0


if __name__ == "__main__":
    sys.exit(main())
