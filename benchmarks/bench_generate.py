"""Time guess-free board generation side by side with ms-toollib's ``laymine_solvable``.

For each size (first click an opening at the centre), makes ``--boards`` boards with mineproof's
``generate`` (every board verified by the complete solver with the mine total) and with
ms-toollib, interleaved board by board in one process. Prints per side the mean, median and p90
time per board and the ratio of the medians, and which sampler made mineproof's boards (the
default, ``auto``: exact rejection up to expert's density, local search above); for ms-toollib
also how many of its boards succeeded and how many of those mineproof's complete solver
confirms as guess-free from the same start.

Usage: python benchmarks/bench_generate.py [--boards N] [--dense-boards N]
"""

from __future__ import annotations

import argparse
import random
import statistics
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


def _theirs(width: int, height: int, mines: int, tries: int) -> tuple[float, Layout | None]:
    cx, cy = (width - 1) // 2, (height - 1) // 2
    t = time.perf_counter()
    grid, ok = ms_toollib.laymine_solvable(height, width, mines, cy, cx, tries)
    elapsed = time.perf_counter() - t
    if not ok:
        return elapsed, None
    cells = [(x, y) for y in range(height) for x in range(width) if grid[y][x] < 0]
    return elapsed, Layout.from_cells(Board(width, height), cells)


def run(width: int, height: int, mines: int, boards: int, tries: int) -> None:
    """Benchmark one size and print its figures."""
    board = Board(width, height)
    start = ((width - 1) // 2, (height - 1) // 2)
    ours: list[float] = []
    theirs: list[float] = []
    their_ok = 0
    confirmed = 0
    failed = 0
    samplers: Counter[str] = Counter()
    for seed in range(boards):
        t = time.perf_counter()
        try:
            samplers[generate(board, mines, random.Random(seed)).sampler] += 1
        except GenerationError:
            failed += 1
        ours.append(time.perf_counter() - t)
        elapsed, layout = _theirs(width, height, mines, tries)
        theirs.append(elapsed)
        if layout is not None:
            their_ok += 1
            confirmed += solve(layout, start).solved
    mo, mt = statistics.median(ours), statistics.median(theirs)
    print(f"{width}x{height}/{mines}, opening at {start}, {boards} boards each")
    made = ", ".join(f"{n} {name}" for name, n in sorted(samplers.items()))
    print(
        f"  mineproof  mean {statistics.mean(ours) * 1e3:8.2f} ms  median {mo * 1e3:8.2f} ms"
        f"  p90 {_p90(ours) * 1e3:8.2f} ms  ({boards - failed} of {boards} made, all verified;"
        f" sampler: {made})"
    )
    print(
        f"  ms-toollib mean {statistics.mean(theirs) * 1e3:8.2f} ms  median {mt * 1e3:8.2f} ms"
        f"  p90 {_p90(theirs) * 1e3:8.2f} ms"
        f"  ({their_ok} of {boards} succeeded within {tries} tries; {confirmed} of those"
        f" guess-free by mineproof's complete solver)"
    )
    print(f"  ratio of medians (mineproof / ms-toollib) {mo / mt:.2f}")


def main() -> int:
    """Run the benchmark for the standard sizes and the dense expert boards."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--dense-boards", type=int, default=20)
    parser.add_argument("--tries", type=int, default=100_000, help="ms-toollib's max_times")
    args = parser.parse_args()
    for width, height, mines in SIZES:
        run(width, height, mines, args.boards, args.tries)
    for width, height, mines in DENSE:
        run(width, height, mines, args.dense_boards, args.tries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
