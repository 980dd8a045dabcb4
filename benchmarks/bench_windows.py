"""Time guess-free boards made with a window of levels (``generate --min-level/--max-level``).

For each size (first click an opening at the centre) and each window ``[min, max]``, makes
``--boards`` boards, board ``i`` from the same generator as ``mineproof generate --seed S`` uses
(:func:`mineproof.batch.board_rng`), in one process. Prints per size and window the boards made
(the rest ended in the one-line error after the work bound), boards per CPU-second, the median
and p90 CPU time per board (CPU, not wall time: the machines these run on are shared), and the
hardest step of every board made: the engine's (the lowest level at each step) and, with
``--grade``, the technique ladder's (:func:`mineproof.logic.grade`, one explained deduction at
a time, much slower). A board outside its window is reported and makes
the script exit with status 1. ``--sampler exact`` times the exact sampler instead of the
default ``auto`` (window ``1-5``: no window).

Usage: python benchmarks/bench_windows.py [--boards N] [--seed S] [--grade]
       [--sizes 16x16x40,30x16x99] [--windows 3-3,4-4,5-5,1-2] [--sampler auto|exact|perturb]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from mineproof.batch import board_rng
from mineproof.board import Board, Layout
from mineproof.generate import GenerationError, Sampler, generate
from mineproof.logic import Engine, grade


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def _engine_level(layout: Layout, start: tuple[int, int]) -> int:
    """Return the hardest level of the engine's solve of ``layout`` (lowest level each step)."""
    i = layout.board.index(*start)
    engine = Engine(layout, i)
    engine.reveal(i)
    engine.play(5)
    return engine.hardest


def run(
    width: int,
    height: int,
    mines: int,
    window: tuple[int, int],
    boards: int,
    seed: int,
    ladder: bool,
    sampler: Sampler = "auto",
) -> bool:
    """Benchmark one size and window, print its figures; return whether every board fits."""
    board = Board(width, height)
    low, high = window
    times: list[float] = []
    levels: Counter[int] = Counter()
    graded: Counter[int] = Counter()
    failed = 0
    outside = 0
    for index in range(boards):
        t = time.process_time()
        try:
            made = generate(
                board, mines, board_rng(seed, index), min_level=low, max_level=high, sampler=sampler
            )
        except GenerationError:
            times.append(time.process_time() - t)
            failed += 1
            continue
        times.append(time.process_time() - t)
        level = _engine_level(made.layout, made.start)
        levels[level] += 1
        fits = low <= level <= high
        if ladder:
            verdict = grade(made.layout, made.start)
            graded[verdict.level] += 1
            fits = fits and verdict.solved and low <= verdict.level <= high
        if not fits:
            outside += 1
            print(f"  board {index} outside the window: {made.layout!r}", file=sys.stderr)
    total = sum(times)
    made_count = boards - failed
    line = (
        f"{width}x{height}/{mines} [{low},{high}]: {made_count}/{boards} made, "
        f"{made_count / total:6.2f} boards per CPU-second, "
        f"median {statistics.median(times):7.3f} s, "
        f"p90 {_p90(times):7.3f} s, max {max(times):7.3f} s; "
        f"engine levels {dict(sorted(levels.items()))}"
    )
    if ladder:
        line += f", grade levels {dict(sorted(graded.items()))}"
    print(line, flush=True)
    return outside == 0


def _window(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def _size(text: str) -> tuple[int, int, int]:
    width, height, mines = (int(part) for part in text.split("x"))
    return width, height, mines


def main() -> int:
    """Run the benchmark for the sizes and windows asked for; 1 if a board is outside."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="16x16x40,30x16x99")
    parser.add_argument("--windows", default="3-3,4-4,5-5,1-2")
    parser.add_argument("--grade", action="store_true", help="check every board with grade too")
    parser.add_argument("--sampler", choices=["auto", "exact", "perturb"], default="auto")
    args = parser.parse_args()
    ok = True
    print(
        f"seed {args.seed}, {args.boards} boards per size and window, opening at the centre, "
        f"{args.sampler} sampler"
    )
    for size in args.sizes.split(","):
        width, height, mines = _size(size)
        for text in args.windows.split(","):
            window = _window(text)
            ok &= run(
                width, height, mines, window, args.boards, args.seed, args.grade, args.sampler
            )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
