"""This checkout's player beside another checkout's, on the same games: the same moves, and who
is faster.

A change meant to make the player faster without changing a choice is checked and measured
here. Each checkout plays games ``first`` to ``first + games - 1`` of seed 1 with the ``best``
strategy in a process of its own (the other checkout's with its own interpreter, by default
``OTHER/.venv/bin/python``, so that its compiled modules are the ones that play; each side
reports where its ``mineproof`` comes from, which must be inside its checkout), the two at the
same time, each on its own CPU, with the same garbage collector settings; the next round swaps
the CPUs, as a machine's two cores are not always equally fast. Every game's moves (each
action and cell, guesses included) and outcome must be the same in both; the CPU time of each
game loop (``time.process_time``, start-up left out) is compared as the other checkout's over
this one's: above 1, this one is faster.

Printed: per round, both CPU times and their ratio; the median ratio; the indices of the games
that differ (the exit status is 1 when any does, or when a side fails).

Usage: python benchmarks/bench_checkouts.py --other ../base --level expert --rules modern \
       --games 1000 [--first 0] [--rounds 2] [--python ../base/.venv/bin/python]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import mineproof
from mineproof.board import LEVELS, Board
from mineproof.play import game_rng, play_game


def play(
    level: str, rules: str, first: int, games: int, thresholds: tuple[int, ...]
) -> dict[str, Any]:
    """Return ``{"cpu": seconds, "games": [[outcome, digest of the moves], ...], "module":
    where mineproof was imported from}`` for the games played by the checkout this
    interpreter imports, its garbage collector set to ``thresholds``."""
    gc.set_threshold(*thresholds)
    width, height, mines = LEVELS[level]
    board = Board(width, height)
    records = []
    start = time.process_time()
    for i in range(first, first + games):
        record: dict[str, Any] = {}
        result = play_game(board, mines, game_rng(1, i), rules, "best", record)  # type: ignore[arg-type]
        moves = json.dumps([[move["action"], move["cell"]] for move in record["moves"]])
        records.append([result.outcome, hashlib.sha256(moves.encode()).hexdigest()[:16]])
    return {"cpu": time.process_time() - start, "games": records, "module": mineproof.__file__}


def _child(python: str, cwd: Path, cpu: int, args: argparse.Namespace) -> subprocess.Popen[str]:
    """Start ``python`` on this script's ``--play`` in ``cwd``, pinned to ``cpu``."""
    # This checkout's collector settings for both sides: an older checkout may not have them,
    # so only this side imports them.
    from mineproof.parallel import GC_THRESHOLDS

    command = [
        python,
        str(Path(__file__).resolve()),
        "--play",
        f"--cpu={cpu}",
        f"--level={args.level}",
        f"--rules={args.rules}",
        f"--first={args.first}",
        f"--games={args.games}",
        "--gc=" + ",".join(map(str, GC_THRESHOLDS)),
    ]
    return subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, text=True)


def main() -> int:
    """Run the comparison (or, with ``--play``, one side of it); return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", type=Path, help="the other checkout")
    parser.add_argument("--python", help="its interpreter (default: OTHER/.venv/bin/python)")
    parser.add_argument("--level", choices=sorted(LEVELS), default="expert")
    parser.add_argument("--rules", choices=("classic", "modern"), default="modern")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cpu", type=int, default=-1, help=argparse.SUPPRESS)
    parser.add_argument("--gc", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        if args.cpu >= 0:
            os.sched_setaffinity(0, {args.cpu})
        thresholds = tuple(int(t) for t in args.gc.split(",") if t)
        print(json.dumps(play(args.level, args.rules, args.first, args.games, thresholds)))
        return 0
    if args.other is None:
        parser.error("--other is required")
    other = args.other.resolve()
    python = args.python or str(other / ".venv" / "bin" / "python")
    if not Path(python).is_file():
        parser.error(f"no interpreter at {python} (give --python)")
    cpus = sorted(os.sched_getaffinity(0))[:2]
    if len(cpus) < 2:
        parser.error("two CPUs are needed to play the checkouts side by side")
    here = Path(__file__).resolve().parent.parent
    ratios = []
    differ: list[int] = []
    print(f"{args.level} {args.rules}, games {args.first}-{args.first + args.games - 1}")
    for r in range(args.rounds):
        mine_cpu, other_cpu = (cpus[0], cpus[1]) if r % 2 == 0 else (cpus[1], cpus[0])
        ours = _child(sys.executable, here, mine_cpu, args)
        try:
            theirs = _child(python, other, other_cpu, args)
        except OSError:
            ours.kill()
            raise
        out_ours, _ = ours.communicate()
        out_theirs, _ = theirs.communicate()
        if ours.returncode or theirs.returncode:
            print("a checkout failed to play", file=sys.stderr)
            return 1
        a, b = json.loads(out_ours), json.loads(out_theirs)
        for side, root in ((a, here), (b, other)):
            if not Path(side["module"]).resolve().is_relative_to(root):
                print(f"{root} played with mineproof from {side['module']}", file=sys.stderr)
                return 1
        differ = [
            args.first + i
            for i, (x, y) in enumerate(zip(a["games"], b["games"], strict=True))
            if x != y
        ]
        ratio = b["cpu"] / a["cpu"]
        ratios.append(ratio)
        won = sum(g[0] == "won" for g in a["games"])
        print(
            f"round {r + 1}: this {a['cpu']:.2f} s (CPU {mine_cpu}), other {b['cpu']:.2f} s"
            f" (CPU {other_cpu}): {ratio:.3f}; won {won}, games that differ {len(differ)}"
        )
        if differ:
            shown = ", ".join(map(str, differ[:20]))
            print(f"games that differ: {shown}{' ...' if len(differ) > 20 else ''}")
            break
    print(f"median of other / this: {statistics.median(ratios):.3f}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
