"""Time mineproof's exact analysis side by side with ms-toollib's ``cal_probability_onboard``.

Both run in this process through their Python APIs (no process start-up), on the same positions,
mineproof with its cache of component counts cleared before every timed call,
interleaved position by position so that machine noise hits both alike. Each position is timed
``--repeat`` times per side and its fastest run kept; the script prints per side the median, p90
and maximum over positions, the ratio of the medians, and the median of the per-position ratios.
It also checks that both agree within 1e-9 and that every position is analysed exactly.

With ``--scattered`` it times instead the analysis of N x N positions of scattered ones (see
``scattered`` in tests/analysis/hostile.py: hundreds of independent components, numbers of
thousands of digits), N from 40 to 255, each side in a process of its own limited to
``--cpu-limit`` seconds of CPU: the median CPU time of ``--repeat`` runs and how it ended (an
exact result or the too-complex error). With ``--other CHECKOUT`` the same runs in that
checkout's interpreter (``CHECKOUT/.venv/bin/python``, its compiled modules), side by side.

Usage: python benchmarks/bench_analysis.py [--positions DIR] [--repeat N]
       python benchmarks/bench_analysis.py --scattered [--other CHECKOUT] [--cpu-limit S]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import ms_toollib
from from_tests import load

from mineproof import Position, analyze
from mineproof.analysis import clear_cache
from mineproof.errors import TooComplexError

SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"


def _grid(position: Position) -> list[list[int]]:
    w = position.width
    return [
        [10 if c < 0 else c for c in position.cells[y * w : (y + 1) * w]]
        for y in range(position.height)
    ]


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        clear_cache()  # every run starts cold: no component count remembered from the last
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def run(path: Path, repeat: int) -> tuple[float, float]:
    """Benchmark one JSON-lines file; print its figures; return (our median, their median)."""
    ours: list[float] = []
    theirs: list[float] = []
    worst = 0.0
    for line in path.read_text().splitlines():
        record = json.loads(line)
        position = Position.parse(record["position"])
        grid = _grid(position)

        mines = record["mines"]
        # Interleave the two sides so that a slow moment of the machine hits both.
        for _ in range(repeat):
            ours.append(_best(partial(analyze, position), 1))
            theirs.append(_best(partial(ms_toollib.cal_probability_onboard, grid, mines), 1))
        ours[-repeat:] = [min(ours[-repeat:])]
        theirs[-repeat:] = [min(theirs[-repeat:])]
        ours_p = analyze(position).float_probabilities()

        their_p = ms_toollib.cal_probability_onboard(grid, mines)[0]
        for y, row in enumerate(ours_p):
            for x, p in enumerate(row):
                if p is not None:
                    worst = max(worst, abs(p - their_p[y][x]))
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    mo, mt = statistics.median(ours), statistics.median(theirs)
    print(f"{path.name}: {len(ours)} positions, best of {repeat} runs each")
    for name, times in (("mineproof ", ours), ("ms-toollib", theirs)):
        print(
            f"  {name} median {statistics.median(times) * 1e3:8.3f} ms"
            f"  p90 {_p90(times) * 1e3:8.3f} ms  max {max(times) * 1e3:8.3f} ms"
        )
    print(
        f"  ratio of medians (mineproof / ms-toollib) {mo / mt:.2f};"
        f" median per-position ratio {statistics.median(ratios):.2f}"
    )
    print(f"  largest probability difference {worst:.1e}")
    return mo, mt


SIDES = (40, 80, 120, 160, 200, 255)


def scattered_child(side: int, repeat: int) -> None:
    """Analyse the scattered position of ``side`` ``repeat`` times, cold; print a JSON line
    with the CPU times and how the analysis ended (``exact`` or ``too complex``)."""
    position = load("tests/analysis/hostile.py").scattered(side)
    times = []
    ended = "exact"
    for _ in range(repeat):
        clear_cache()
        start = time.process_time()
        try:
            analyze(position)
        except TooComplexError:
            ended = "too complex"
        times.append(time.process_time() - start)
    print(json.dumps({"times": times, "ended": ended}))


def _limited(seconds: int) -> Callable[[], None]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))

    return limit


def _scattered_side(python: str, side: int, repeat: int, limit: int) -> str:
    """Return the median CPU time of one checkout on the scattered position of ``side`` and
    how it ended, or that it passed the CPU limit."""
    done = subprocess.run(
        [python, __file__, "--child", str(side), "--repeat", str(repeat)],
        capture_output=True,
        text=True,
        preexec_fn=_limited(limit),
        check=False,
    )
    if done.returncode:
        return f"over {limit} s CPU" if done.returncode < 0 else f"failed: {done.stderr[-200:]}"
    record = json.loads(done.stdout.splitlines()[-1])
    return f"{statistics.median(record['times']):8.2f} s  {record['ended']}"


def scattered_table(repeat: int, other: Path | None, limit: int) -> None:
    """Print the scattered positions' table: this checkout, and ``other`` beside it."""
    sides = [("this", sys.executable)]
    if other is not None:
        sides.append((str(other), str(other / ".venv" / "bin" / "python")))
    print(f"scattered ones, N x N, median CPU of {repeat} runs (limit {limit} s):")
    print("     N  " + "".join(f"{name[-24:]:>28}" for name, _ in sides))
    for side in SIDES:
        cells = [_scattered_side(python, side, repeat, limit) for _, python in sides]
        print(f"  {side:4d}  " + "".join(f"{cell:>28}" for cell in cells), flush=True)


def main() -> int:
    """Run the benchmark on the shared positions; return 1 if a position is over one second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=SHARED)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--scattered", action="store_true")
    parser.add_argument("--other", type=Path)
    parser.add_argument("--cpu-limit", type=int, default=60)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        scattered_child(args.child, args.repeat)
        return 0
    if args.scattered:
        scattered_table(args.repeat, args.other, args.cpu_limit)
        return 0
    status = 0
    for name in ("expert-midgame", "intermediate-midgame", "expert-scattered"):
        path = args.positions / f"{name}.jsonl"
        if not path.exists():
            print(f"{path}: missing, skipped")
            continue
        run(path, args.repeat)
    scattered = args.positions / "expert-scattered.jsonl"
    if scattered.exists():
        slowest = 0.0
        for line in scattered.read_text().splitlines():
            position = Position.parse(json.loads(line)["position"])
            slowest = max(slowest, _best(partial(analyze, position), 1))
        verdict = "under" if slowest < 1.0 else "OVER"
        print(f"expert-scattered: slowest exact analysis {slowest * 1e3:.1f} ms ({verdict} 1 s)")
        status = 0 if slowest < 1.0 else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
