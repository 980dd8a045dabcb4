"""How dense a guess-free board the generator makes: for each mine count, how many runs return a
board and at what CPU cost, with this checkout and, side by side, with another.

For each mine count of ``--mines`` on a ``--size`` board (the first click an opening at the
centre, the default sampler and budget, as ``mineproof generate`` runs), ``generate`` is called
with the seeds 1..``--seeds``; each run either returns a board (verified guess-free by the
complete solver) or raises ``GenerationError`` once its work budget is spent. The CPU time of
each run is measured (``time.process_time``). With ``--other-src DIR`` (the ``src`` folder of
another checkout, built for this interpreter) the same runs are made by a child process that
imports ``mineproof`` from there, at the same time on the other CPU.

Printed per mine count and side: the runs that returned a board, and the median and p90 CPU time
per run (a failed run costs its whole budget).

Usage: python benchmarks/bench_dense.py [--size 30x16] [--mines 250,300,350,400]
       [--seeds 8] [--other-src ../base/src]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

from mineproof.board import Board
from mineproof.generate import GenerationError, generate


def runs(width: int, height: int, counts: list[int], seeds: int) -> list[list[object]]:
    """Return ``[mines, seed, made, cpu seconds]`` for each run."""
    out: list[list[object]] = []
    for mines in counts:
        for seed in range(1, seeds + 1):
            start = time.process_time()
            try:
                generate(Board(width, height), mines, random.Random(seed))
                made = True
            except GenerationError:
                made = False
            out.append([mines, seed, made, time.process_time() - start])
    return out


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def _report(name: str, results: list[list[object]], counts: list[int]) -> None:
    for mines in counts:
        mine = [r for r in results if r[0] == mines]
        made = sum(1 for r in mine if r[2])
        cpu = [float(str(r[3])) for r in mine]
        print(
            f"{name:>6} {mines:>5} mines: {made}/{len(mine)} made; CPU per run median "
            f"{statistics.median(cpu):.2f} s, p90 {_p90(cpu):.2f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="30x16")
    parser.add_argument("--mines", default="250,300,350,400")
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--other-src", help="the src folder of another checkout")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    counts = [int(n) for n in args.mines.split(",")]
    if args.child:
        print(json.dumps(runs(width, height, counts, args.seeds)))
        return
    import mineproof

    print(f"this: mineproof from {os.path.dirname(mineproof.__file__)}")
    other = None
    if args.other_src:
        env = {**os.environ, "PYTHONPATH": args.other_src}
        child = [sys.executable, __file__, "--child", "--size", args.size]
        child += ["--mines", args.mines, "--seeds", str(args.seeds)]
        other = subprocess.Popen(child, env=env, stdout=subprocess.PIPE, text=True)
    mine = runs(width, height, counts, args.seeds)
    _report("this", mine, counts)
    if other is not None:
        out, _ = other.communicate()
        print(f"other: mineproof from {args.other_src}")
        _report("other", json.loads(out), counts)


if __name__ == "__main__":
    main()
