"""Explain whole expert solves: time per solve and the share of steps at each level.

Draws ``--boards`` random expert layouts (30x16, 99 mines, first click an opening at the centre,
seeds 0..N-1), solves each logic-only from the start cell with the technique ladder, and writes
every step's explanation, one deduction at a time. Prints the median and p90 time of a whole
explained solve, the share of steps at each level, how many boards were cleared without a guess,
and how many deductions kept premises not known to be the fewest.

Usage: python benchmarks/bench_explain.py [--boards N] [--lang xx]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter

from mineproof.board import Board, Layout
from mineproof.explain import explain, level_name
from mineproof.logic import solve_in_steps

START = (15, 8)


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    board = Board(30, 16)
    times: list[float] = []
    levels: Counter[int] = Counter()
    boards_at: Counter[int] = Counter()
    solved = 0
    not_fewest = 0
    for seed in range(args.boards):
        layout = Layout.random(board, 99, random.Random(seed), START, "opening")
        t = time.perf_counter()
        steps, grade = solve_in_steps(layout, START)
        for step in steps:
            explain(step.deduction, args.lang)
        times.append(time.perf_counter() - t)
        for step in steps:
            levels[step.deduction.level] += 1
            not_fewest += not step.deduction.fewest
        boards_at[grade.level] += 1
        solved += grade.solved
    total = sum(levels.values())
    ordered = sorted(times)
    print(f"{args.boards} expert boards (30x16/99, opening at {START}), explained in {args.lang}")
    print(
        f"  whole explained solve: median {statistics.median(times) * 1e3:.1f} ms, "
        f"p90 {ordered[int(0.9 * len(ordered))] * 1e3:.1f} ms, max {ordered[-1] * 1e3:.1f} ms"
    )
    print(f"  cleared without a guess: {solved} of {args.boards}")
    print(f"  deductions whose premises are not known to be the fewest: {not_fewest}")
    print(f"  {total} steps; share at each level:")
    for level in range(1, 6):
        share = levels[level] / total if total else 0.0
        print(
            f"    level {level} ({level_name(level)}): {levels[level]} steps, {share:.2%}; "
            f"hardest on {boards_at[level]} boards"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
