"""Time the GIF of a recorded game (``mineproof replay GAME.json --out game.gif``) by board size.

For each size, one game is played by the ``best`` strategy (modern rules, seed ``--seed``) and
recorded as ``bench --record`` records it; then :func:`mineproof.play.replay.animation_gif` of
that record is timed, the median CPU time of ``--runs`` runs, with the moves, the GIF's size
and the SHA-256 of its bytes (the same game and code give the same bytes). With ``--other
DIR``, the checkout at ``DIR`` (its ``src``, imported in a process of its own) draws the same
records in the same run, one after the other, and the ratio of the two medians is shown: a
change to the encoder is measured beside the code before it, and the hashes say whether the
GIFs are byte for byte the same.

Usage: python benchmarks/bench_gif.py [--sizes 30x16/99,100x100/1000] [--runs N] [--seed S]
                                      [--other DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from mineproof.board import Board
from mineproof.play import play_game

TIMER = """
import hashlib, json, sys, time
from mineproof.play.replay import animation_gif, load_record
record = load_record(open(sys.argv[1], "rb").read())
times = []
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    data = animation_gif(record)
    times.append(time.process_time() - start)
print(json.dumps({"times": times, "bytes": len(data), "sha": hashlib.sha256(data).hexdigest()}))
"""


def timed(src: Path, record: Path, runs: int) -> dict[str, object]:
    """Return the CPU times, size and hash of the GIF of ``record`` drawn by the checkout whose
    sources are ``src``, in a process of its own."""
    command = [sys.executable, "-c", TIMER, str(record), str(runs)]
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="30x16/99,50x50/250,100x100/1000,150x150/2250")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--other", type=Path, help="another checkout to time beside this one")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1] / "src"
    print(
        "| board | moves | GIF | this checkout (median CPU) |"
        + (" other | ratio |" * bool(args.other))
    )
    print("|---|---|---|---|" + "---|---|" * bool(args.other))
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes.split(","):
            sides, mines = size.split("/")
            width, height = (int(v) for v in sides.split("x"))
            record: dict[str, object] = {}
            rng = random.Random(args.seed)
            play_game(Board(width, height), int(mines), rng, "modern", "best", record)
            path = Path(folder) / f"{width}x{height}.json"
            path.write_text(json.dumps(record))
            ours = timed(here, path, args.runs)
            mine = statistics.median(ours["times"])  # type: ignore[arg-type]
            moves = len(record["moves"])  # type: ignore[arg-type]
            row = f"| {size} | {moves:,} | {ours['bytes']:,} bytes | {mine:.2f} s |"
            if args.other:
                theirs = timed(args.other / "src", path, args.runs)
                base = statistics.median(theirs["times"])  # type: ignore[arg-type]
                same = "same bytes" if theirs["sha"] == ours["sha"] else "other bytes"
                row += f" {base:.2f} s ({same}) | {base / mine:.1f}x |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
