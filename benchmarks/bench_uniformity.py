"""How evenly the generator spreads mines: frequency in corners, on edges and inside.

Generates ``--boards`` guess-free boards (default 2000 expert boards, 30x16/99, opening at the
centre, seeds 0..N-1) and counts how often each cell holds a mine. Cells of the start area never
do; every other cell should hold one with the same frequency, mines / (cells - start area).
Prints, for corners, edge cells and inner cells, the observed frequency, the relative deviation
from that expectation and the deviation's standard error from sampling alone.

Usage: python benchmarks/bench_uniformity.py [--boards N] [--mines M] [--jobs J] [--first-seed S]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

from mineproof.board import Board, iter_bits
from mineproof.generate import generate

WIDTH, HEIGHT = 30, 16


def _mines(args: tuple[int, int]) -> list[int]:
    seed, mines = args
    board = Board(WIDTH, HEIGHT)
    return iter_bits(generate(board, mines, random.Random(seed)).layout.mines)


def main() -> int:
    """Generate the boards and print the frequencies by region."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--mines", type=int, default=99)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    board = Board(WIDTH, HEIGHT)
    counts = [0] * board.size
    with ProcessPoolExecutor(args.jobs) as pool:
        for cells in pool.map(
            _mines, [(args.first_seed + s, args.mines) for s in range(args.boards)], chunksize=8
        ):
            for i in cells:
                counts[i] += 1
    centre = board.index((WIDTH - 1) // 2, (HEIGHT - 1) // 2)
    start_area = board.start_area(centre, "opening")
    expected = args.mines / (board.size - start_area.bit_count())
    regions: dict[str, list[int]] = {"corners": [], "edges": [], "inside": []}
    for i in range(board.size):
        if start_area >> i & 1:
            continue
        x, y = board.xy(i)
        border = (x in (0, WIDTH - 1)) + (y in (0, HEIGHT - 1))
        regions["corners" if border == 2 else "edges" if border == 1 else "inside"].append(i)
    print(
        f"{args.boards} boards {WIDTH}x{HEIGHT}/{args.mines} (seeds {args.first_seed}-"
        f"{args.first_seed + args.boards - 1}), opening at the centre; "
        f"expected frequency {expected:.4f} per cell"
    )
    for name, cells in regions.items():
        samples = len(cells) * args.boards
        freq = sum(counts[i] for i in cells) / samples
        error = math.sqrt(expected * (1 - expected) / samples) / expected
        print(
            f"  {name:8} {len(cells):4} cells: frequency {freq:.4f}, "
            f"deviation {freq / expected - 1:+.2%} (sampling error alone: ±{error:.2%})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
