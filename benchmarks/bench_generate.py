"""Time guess-free board generation side by side with ms-toollib and Simon Tatham's Mines.

For each size (first click an opening at the centre), makes ``--boards`` boards with mineproof's
``generate`` (every board verified by the complete solver with the mine total) and with
ms-toollib's ``laymine_solvable``, interleaved board by board in one process. Prints per side
the mean, median and p90 CPU time per board and the ratio of the medians, and which sampler
made mineproof's boards (the default, ``auto``: exact rejection up to expert's density, local
search above); for ms-toollib also how many of its boards succeeded and how many of those
mineproof's complete solver confirms as guess-free from the same start.

When Tatham's Mines is installed (Debian's ``sgt-puzzles``: ``/usr/games/sgt-mines``), its
generator makes as many boards, ``--generate`` in batches of 25 interleaved with the rest, and
its mean CPU time per board is printed (the batch's CPU time, less that of starting the
program, measured by making one board with one mine; its first click is a random cell, which
it opens with its neighbours). ``--skip-ms-toollib`` leaves ms-toollib out (it needs seconds
per dense board).

Usage: python benchmarks/bench_generate.py [--boards N] [--dense-boards N] [--skip-ms-toollib]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter

import ms_toollib

from mineproof.board import Board, Layout
from mineproof.generate import GenerationError, generate
from mineproof.logic import solve

SIZES = [(9, 9, 10), (16, 16, 40), (30, 16, 99)]
DENSE = [(30, 16, 130), (30, 16, 150)]


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


TATHAM = shutil.which("sgt-mines") or (
    "/usr/games/sgt-mines" if os.access("/usr/games/sgt-mines", os.X_OK) else None
)
TATHAM_BATCH = 25


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _tatham(width: int, height: int, mines: int, count: int) -> float:
    """Return the CPU seconds Tatham's Mines takes to generate ``count`` boards (with the cost
    of starting the program)."""
    assert TATHAM is not None
    before = _children_cpu()
    subprocess.run(
        [TATHAM, "--generate", str(count), f"{width}x{height}n{mines}"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return _children_cpu() - before


def _theirs(width: int, height: int, mines: int, tries: int) -> tuple[float, Layout | None]:
    cx, cy = (width - 1) // 2, (height - 1) // 2
    t = time.process_time()
    grid, ok = ms_toollib.laymine_solvable(height, width, mines, cy, cx, tries)
    elapsed = time.process_time() - t
    if not ok:
        return elapsed, None
    cells = [(x, y) for y in range(height) for x in range(width) if grid[y][x] < 0]
    return elapsed, Layout.from_cells(Board(width, height), cells)


def run(width: int, height: int, mines: int, boards: int, tries: int, toollib: bool) -> None:
    """Benchmark one size and print its figures."""
    board = Board(width, height)
    start = ((width - 1) // 2, (height - 1) // 2)
    ours: list[float] = []
    theirs: list[float] = []
    their_ok = 0
    confirmed = 0
    failed = 0
    samplers: Counter[str] = Counter()
    tatham = tatham_start = 0.0
    for seed in range(boards):
        if TATHAM is not None and seed % TATHAM_BATCH == 0:
            count = min(TATHAM_BATCH, boards - seed)
            tatham += _tatham(width, height, mines, count)
            tatham_start += _tatham(width, height, 1, 1)
        t = time.process_time()
        try:
            samplers[generate(board, mines, random.Random(seed)).sampler] += 1
        except GenerationError:
            failed += 1
        ours.append(time.process_time() - t)
        if toollib:
            elapsed, layout = _theirs(width, height, mines, tries)
            theirs.append(elapsed)
            if layout is not None:
                their_ok += 1
                confirmed += solve(layout, start).solved
    mo = statistics.median(ours)
    print(f"{width}x{height}/{mines}, opening at {start}, {boards} boards each (CPU time)")
    made = ", ".join(f"{n} {name}" for name, n in sorted(samplers.items()))
    print(
        f"  mineproof  mean {statistics.mean(ours) * 1e3:8.2f} ms  median {mo * 1e3:8.2f} ms"
        f"  p90 {_p90(ours) * 1e3:8.2f} ms  ({boards - failed} of {boards} made, all verified;"
        f" sampler: {made})"
    )
    if theirs:
        mt = statistics.median(theirs)
        print(
            f"  ms-toollib mean {statistics.mean(theirs) * 1e3:8.2f} ms  median {mt * 1e3:8.2f} ms"
            f"  p90 {_p90(theirs) * 1e3:8.2f} ms"
            f"  ({their_ok} of {boards} succeeded within {tries} tries; {confirmed} of those"
            f" guess-free by mineproof's complete solver)"
        )
        print(f"  ratio of medians (mineproof / ms-toollib) {mo / mt:.2f}")
    if TATHAM is not None:
        per_board = max(0.0, tatham - tatham_start) / boards
        print(
            f"  Tatham     mean {per_board * 1e3:8.2f} ms  (its own random first click);"
            f" ratio of means (mineproof / Tatham) {statistics.mean(ours) / per_board:.2f}"
        )


def main() -> int:
    """Run the benchmark for the standard sizes and the dense expert boards."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--dense-boards", type=int, default=20)
    parser.add_argument("--tries", type=int, default=100_000, help="ms-toollib's max_times")
    parser.add_argument("--skip-ms-toollib", action="store_true")
    args = parser.parse_args()
    toollib = not args.skip_ms_toollib
    for width, height, mines in SIZES:
        run(width, height, mines, args.boards, args.tries, toollib)
    for width, height, mines in DENSE:
        run(width, height, mines, args.dense_boards, args.tries, toollib)
    return 0


if __name__ == "__main__":
    sys.exit(main())
