"""How uniform the guess-free generator is, measured against exactly known distributions.

Three measurements, for each sampler asked for (``--samplers exact,perturb,chain``):

- ``small``: on 5x5 with 5 and 9 mines and 6x5 with 7 and 12 (``--small``), opening at the
  centre (2, 2), every
  guess-free layout is enumerated by a brute-force perfect logician that shares no code with
  mineproof (``tests/generate/oracle.py``). ``--small-boards`` boards are drawn (board ``k``
  from ``random.Random(k)``) and checked against the list: each must be in it; then the
  chi-square of the counts per layout against uniform (when there are at least five boards per
  layout on average, else it is left out), and the worst per-cell z-score of the mine
  frequency against the exact marginals of the uniform distribution over the list.
- ``expert``: 30x16 with 99 mines, opening at the centre. The reference is drawn exactly
  uniformly by plain rejection (uniform layouts kept when ``mineproof.solve`` clears them, no
  shortcut). Per region of cells (distance to the border 0, 1, 2, 3+; Chebyshev distance to the
  start 2, 3, 4-5, 6+), the mine frequency of the sampler's boards against the reference's,
  with the z-score of the difference. (The reference has seeds of its own: on the same seeds
  the exact sampler, which is the same rejection with a sound shortcut, draws the same boards.)
  The chain is left out here (about a second per board).
- ``dense`` (``--dense-boards``): 30x16 with 130 mines (``--dense-mines``), where no exact
  reference can be drawn. The same regions, against the chain run :data:`LONG` times longer
  from seeds of its own. This is a convergence check, not an independent reference: it shows
  whether more moves still change the distribution (they do, for the perturb sampler's
  boards; see the README).

Also prints each sampler's CPU time per board (mean, median, p90). The statistics compare with
known distributions, never with quantities a sampler keeps fixed by construction (the old
version counted mines in corners, edges and inside, which the perturb sampler preserves).

Usage: python benchmarks/bench_uniformity.py [--small-boards 20000] [--expert-boards 5000]
           [--dense-boards 0] [--dense-mines 130] [--samplers exact,perturb,chain]
           [--small 5x5/5,6x5/7,...] [--jobs 2]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import cast

from from_tests import load

import mineproof.generate as generation
from mineproof.board import Board, Layout
from mineproof.generate import Sampler, generate
from mineproof.logic import solve

SMALL = ((5, 5, 5), (6, 5, 7), (5, 5, 9), (6, 5, 12))
START = (2, 2)
LONG = 4
"""How many times longer the ``long`` chain of the dense comparison runs than ``chain``."""


def _draw(task: tuple[int, int, int, str, int, int]) -> list[tuple[int, float]]:
    """Draw boards ``first .. first + count - 1``; return each layout and its CPU time."""
    width, height, mines, sampler, first, count = task
    board = Board(width, height)
    out = []
    for k in range(first, first + count):
        began = time.process_time()
        if sampler == "reference":
            # Seeds of its own: on the same seeds the exact sampler draws the same boards.
            layout = _reference(board, mines, random.Random(f"reference-{k}"))
        elif sampler == "long":
            # The chain run LONG times longer, from seeds of its own.
            moves = generation.CHAIN_MOVES
            generation.CHAIN_MOVES = moves * LONG
            try:
                made = generate(board, mines, random.Random(f"long-{k}"), sampler="chain")
            finally:
                generation.CHAIN_MOVES = moves
            layout = made.layout.mines
        else:
            layout = generate(
                board,
                mines,
                random.Random(k),
                start=START if width < 30 else None,
                sampler=cast(Sampler, sampler),
            ).layout.mines
        out.append((layout, time.process_time() - began))
    return out


def _reference(board: Board, mines: int, rng: random.Random) -> int:
    """Return a layout drawn exactly uniformly among the guess-free ones by plain rejection."""
    start = ((board.width - 1) // 2, (board.height - 1) // 2)
    while True:
        layout = Layout.random(board, mines, rng, start, "opening")
        if solve(layout, start).solved:
            return layout.mines


def _run(
    pool: ProcessPoolExecutor, size: tuple[int, int, int], sampler: str, boards: int, jobs: int
) -> tuple[list[int], list[float]]:
    """Return the layouts and CPU seconds of ``boards`` boards drawn in ``jobs`` processes."""
    chunk = max(1, math.ceil(boards / (8 * jobs)))
    tasks = [
        (*size, sampler, first, min(chunk, boards - first)) for first in range(0, boards, chunk)
    ]
    layouts: list[int] = []
    times: list[float] = []
    for part in pool.map(_draw, tasks):
        for layout, seconds in part:
            layouts.append(layout)
            times.append(seconds)
    return layouts, times


def _times(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"{statistics.mean(times) * 1000:.1f} ms mean, {statistics.median(times) * 1000:.1f} ms "
        f"median, {p90 * 1000:.1f} ms p90"
    )


def _chi2_sf(x: float, df: int) -> float:
    """Return the upper tail of the chi-square distribution (Wilson-Hilferty; df large)."""
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def small(
    pool: ProcessPoolExecutor,
    samplers: Sequence[str],
    boards: int,
    jobs: int,
    sizes: Sequence[tuple[int, int, int]] = SMALL,
) -> None:
    """Print the exhaustive comparison on the small boards."""
    oracle = load("tests/generate/oracle.py")
    for width, height, mines in sizes:
        began = time.perf_counter()
        listed: list[int] = oracle.guess_free_layouts(width, height, mines, START, "opening")
        exact: list[float] = oracle.mine_frequencies(listed, width * height)
        known = set(listed)
        print(
            f"\n{width}x{height}/{mines}, opening at {START}: {len(listed):,} guess-free layouts "
            f"(enumerated in {time.perf_counter() - began:.1f} s)"
        )
        for sampler in samplers:
            layouts, times = _run(pool, (width, height, mines), sampler, boards, jobs)
            outside = sum(layout not in known for layout in layouts)
            counts = Counter(layouts)
            line = f"  {sampler:8} {boards:,} boards: {outside} not guess-free"
            if boards >= 5 * len(listed):
                expected = boards / len(listed)
                chi2 = sum((counts[g] - expected) ** 2 / expected for g in listed)
                df = len(listed) - 1
                line += f"; chi-square {chi2:,.0f} on {df:,} df (p {_chi2_sf(chi2, df):.2g})"
            line += f"; never drawn {sum(counts[g] == 0 for g in listed):,}"
            worst, cell = 0.0, 0
            for i, p in enumerate(exact):
                if 0 < p < 1:
                    seen = sum(layout >> i & 1 for layout in layouts)
                    z = (seen - boards * p) / math.sqrt(boards * p * (1 - p))
                    if abs(z) > abs(worst):
                        worst, cell = z, i
            line += f"; worst cell ({cell % width}, {cell // width}) z {worst:+.1f}"
            print(line + f"; {_times(times)}")


def _regions(board: Board) -> dict[str, list[int]]:
    """Return the cells of each region: by distance to the border and to the start."""
    sx, sy = (board.width - 1) // 2, (board.height - 1) // 2
    regions: dict[str, list[int]] = {}
    for i in range(board.size):
        x, y = board.xy(i)
        start = max(abs(x - sx), abs(y - sy))
        if start <= 1:
            continue  # the start area holds no mine
        border = min(x, y, board.width - 1 - x, board.height - 1 - y)
        regions.setdefault(f"border {min(border, 3)}{'+' if border >= 3 else ''}", []).append(i)
        far = "2" if start == 2 else "3" if start == 3 else "4-5" if start <= 5 else "6+"
        regions.setdefault(f"start {far}", []).append(i)
    return dict(sorted(regions.items()))


def expert(
    pool: ProcessPoolExecutor,
    samplers: Sequence[str],
    boards: int,
    jobs: int,
    mines: int = 99,
    reference: str = "reference",
) -> None:
    """Print the regional comparison on expert against the ``reference`` sampler's boards."""
    size = (30, 16, mines)
    board = Board(30, 16)
    regions = _regions(board)
    runs: dict[str, tuple[list[int], list[float]]] = {}
    for sampler in (reference, *samplers):
        runs[sampler] = _run(pool, size, sampler, boards, jobs)
    print(
        f"\n30x16/{mines}, opening at the centre, {boards:,} boards each, reference "
        f"{reference}; mine frequency per region"
    )
    header = f"  {'region':10} {'cells':>5} {'reference':>9}"
    for sampler in samplers:
        header += f" {sampler:>9} {'z':>5}"
    print(header)

    def frequency(layouts: list[int], cells: list[int]) -> float:
        return sum((layout >> i & 1) for layout in layouts for i in cells) / (
            len(layouts) * len(cells)
        )

    for name, cells in regions.items():
        ref = frequency(runs[reference][0], cells)
        line = f"  {name:10} {len(cells):>5} {ref:9.4f}"
        for sampler in samplers:
            got = frequency(runs[sampler][0], cells)
            # Cells of a board are not independent: the standard error is taken from the
            # spread of the per-board region counts, for both samples.
            per_board = [
                [sum(layout >> i & 1 for i in cells) / len(cells) for layout in runs[s][0]]
                for s in (reference, sampler)
            ]
            se = math.sqrt(sum(statistics.variance(v) / len(v) for v in per_board))
            line += f" {got:9.4f} {(got - ref) / se:+5.1f}"
        print(line)
    for sampler in (reference, *samplers):
        print(f"  time per board, {sampler}: {_times(runs[sampler][1])}")


def _size(text: str) -> tuple[int, int, int]:
    """Return ``(width, height, mines)`` of a board written ``5x5/9``."""
    dims, mines = text.split("/")
    width, height = dims.split("x")
    return int(width), int(height), int(mines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements asked for and print them."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--small-boards", type=int, default=20_000)
    parser.add_argument("--expert-boards", type=int, default=5_000)
    parser.add_argument("--samplers", default="exact,perturb,chain")
    parser.add_argument(
        "--small", default="5x5/5,6x5/7,5x5/9,6x5/12", help="small boards, e.g. 5x5/5,6x5/12"
    )
    parser.add_argument("--dense-boards", type=int, default=0)
    parser.add_argument("--dense-mines", type=int, default=130, help="mines of the dense boards")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    samplers = [s for s in args.samplers.split(",") if s]
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.small_boards:
            sizes = [_size(text) for text in args.small.split(",") if text]
            small(pool, samplers, args.small_boards, args.jobs, sizes)
        if args.expert_boards:
            # The chain takes about a second per expert board: it is measured on dense boards.
            expert(pool, [s for s in samplers if s != "chain"], args.expert_boards, args.jobs)
        if args.dense_boards:
            dense = [s for s in samplers if s != "exact"]
            expert(pool, dense, args.dense_boards, args.jobs, args.dense_mines, "long")
    return 0


if __name__ == "__main__":
    sys.exit(main())
