"""Grade big boards with this checkout and, side by side, with another: the same grades, and who is
faster.

For each size, ``--boards`` boards with ``--density`` of the cells mined and the first click an
opening at the centre (seeds 0..N-1) are graded with :func:`mineproof.logic.grade`, the CPU time of
each grade measured (``time.process_time``). The boards are random layouts, solved until cleared or
stuck (most of a 20 % board), or with ``--guess-free`` boards that this checkout's generator makes
(the ``perturb`` sampler), solved to the end; this checkout makes them once and both sides grade the
same; or with ``--tiled`` one board per size, a tiling of groups that each need level 3 (``tiling``
of ``tests/analysis/hostile.py``), from the corner. With ``--other``, the other checkout grades them
with its own interpreter (by default ``OTHER/.venv/bin/python``, so that its compiled modules are
the ones that run; each side reports where its ``mineproof`` comes from, which must be inside its
checkout), the two at the same time, each on its own CPU; the next round swaps the CPUs, as a
machine's two cores are not always equally fast. With ``--steps`` each board's steps are also walked
(:func:`mineproof.logic.logic_steps`, not timed) and hashed: every step's JSON and the covered and
flagged cells of its position.

Printed: per size, the median CPU time of a grade on each side (over boards and rounds), the
ratio other / this (above 1, this one is faster) and the steps per board; then whether every
grade (and step hash) is the same on both sides (exit status 1 when one differs).

Usage: python benchmarks/bench_grade.py [--other ../base] [--sizes 100x100,200x200]
       [--density 0.2] [--guess-free | --tiled] [--boards 3] [--rounds 2] [--steps]
       [--python ../base/.venv/bin/python]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from from_tests import load

import mineproof
from mineproof.board import Board, Layout
from mineproof.generate import generate
from mineproof.logic import grade, logic_steps

tiling: Callable[[int], Layout] = load("tests/analysis/hostile.py").tiling


def _boards(
    sizes: list[str], density: float, boards: int, guess_free: bool, tiled: bool
) -> list[Any]:
    """Return the boards of each size (``WxH``) as ``[size, mines as hex, start]``."""
    out: list[Any] = []
    for size in sizes:
        width, height = (int(n) for n in size.split("x"))
        if tiled:
            out.append([size, format(tiling(width).mines, "x"), [0, 0]])
            continue
        board = Board(width, height)
        start = (width // 2, height // 2)
        mines = round(density * width * height)
        for seed in range(boards):
            rng = random.Random(seed)
            if guess_free:
                layout = generate(board, mines, rng, start=start, sampler="perturb").layout
            else:
                layout = Layout.random(board, mines, rng, start, "opening")
            out.append([size, format(layout.mines, "x"), list(start)])
    return out


def _steps_hash(layout: Layout, start: tuple[int, int]) -> str:
    """Return a short hash of every step of the solve: its JSON and its position's covered and
    flagged cells (in hex: a decimal conversion of a big board's masks is slow)."""
    digest = hashlib.sha256()
    for step in logic_steps(layout, start):
        position = step.position
        data = [
            step.number,
            step.deduction.to_json(),
            format(position.covered_mask, "x"),
            format(position.flag_mask, "x"),
        ]
        digest.update(json.dumps(data, sort_keys=True).encode())
    return digest.hexdigest()[:16]


def run(boards: list[Any], steps: bool) -> dict[str, Any]:
    """Return ``{"module": where mineproof came from, "sizes": {size: [board, ...]}}`` for the
    ``boards`` of :func:`_boards`, each ``{"cpu": seconds of its grade, "grade": its JSON,
    "steps": hash or None}``."""
    out: dict[str, list[dict[str, Any]]] = {}
    for size, mines, (x, y) in boards:
        width, height = (int(n) for n in size.split("x"))
        layout = Layout(Board(width, height), int(mines, 16))
        t = time.process_time()
        result = grade(layout, (x, y))
        cpu = time.process_time() - t
        out.setdefault(size, []).append(
            {
                "cpu": cpu,
                "grade": result.to_json(),
                "steps": _steps_hash(layout, (x, y)) if steps else None,
            }
        )
    return {"module": mineproof.__file__, "sizes": out}


def _child(python: str, cwd: Path, cpu: int, boards: Path, steps: bool) -> subprocess.Popen[str]:
    """Start ``python`` on this script's ``--run`` in ``cwd``, pinned to ``cpu``, on the boards
    written in the file ``boards``."""
    command = [
        python,
        str(Path(__file__).resolve()),
        "--run",
        f"--cpu={cpu}",
        f"--boards-file={boards}",
        *(["--steps"] if steps else []),
    ]
    return subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, text=True)


def _report(sides: list[list[dict[str, Any]]], sizes: list[str], other: bool) -> None:
    """Print the medians per size (``sides``: per round, this side's then the other's run)."""
    for size in sizes:
        this = [b["cpu"] for runs in sides for b in runs[0]["sizes"][size]]
        steps = [b["grade"]["total_steps"] for b in sides[0][0]["sizes"][size]]
        line = f"{size}: this {statistics.median(this):.2f} s"
        if other:
            that = [b["cpu"] for runs in sides for b in runs[1]["sizes"][size]]
            ratio = statistics.median(that) / statistics.median(this)
            line += f", other {statistics.median(that):.2f} s, other / this {ratio:.2f}"
        print(f"{line} (median CPU time of a grade; steps per board: {steps})")


def _grade(data: dict[str, Any]) -> dict[str, Any]:
    """Return a grade's JSON with its per-level counts under one name, so that a checkout from
    before 2026-11-29 (which named them ``steps``) compares with this one."""
    out = dict(data)
    if "steps" in out:
        out["steps_by_level"] = out.pop("steps")
    return out


def main() -> int:
    """Run the benchmark (or, with ``--run``, one side of it); return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", type=Path, help="the other checkout")
    parser.add_argument("--python", help="its interpreter (default: OTHER/.venv/bin/python)")
    parser.add_argument("--sizes", default="50x50,100x100,200x200")
    parser.add_argument("--density", type=float, default=0.2)
    parser.add_argument("--guess-free", action="store_true", help="generated guess-free boards")
    parser.add_argument(
        "--tiled", action="store_true", help="one tiling of groups that need level 3 per size"
    )
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--steps", action="store_true", help="also compare every step")
    parser.add_argument("--run", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cpu", type=int, default=-1, help=argparse.SUPPRESS)
    parser.add_argument("--boards-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = args.sizes.split(",")
    if args.run:
        if args.cpu >= 0:
            os.sched_setaffinity(0, {args.cpu})
        print(json.dumps(run(json.loads(args.boards_file.read_text()), args.steps)))
        return 0
    here = Path(__file__).resolve().parent.parent
    cpus = sorted(os.sched_getaffinity(0))[:2]
    roots = [here]
    pythons = [sys.executable]
    if args.other is not None:
        other = args.other.resolve()
        python = args.python or str(other / ".venv" / "bin" / "python")
        if not Path(python).is_file():
            parser.error(f"no interpreter at {python} (give --python)")
        if len(cpus) < 2:
            parser.error("two CPUs are needed to grade with the checkouts side by side")
        roots.append(other)
        pythons.append(python)
    kind = "guess-free boards" if args.guess_free else "random layouts"
    if args.tiled:
        if any(size.split("x")[0] != size.split("x")[1] for size in sizes):
            parser.error("--tiled boards are square: give sizes as NxN")
        kind, args.boards = "tiling of groups that each need level 3 (start 0,0)", 1
    where = "" if args.tiled else f", {args.density:.0%} mines, opening at the centre"
    print(f"{args.boards} {kind} per size{where}; {args.rounds} rounds")
    sides: list[list[dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as folder:
        boards = Path(folder) / "boards.json"
        made = _boards(sizes, args.density, args.boards, args.guess_free, args.tiled)
        boards.write_text(json.dumps(made))
        for r in range(args.rounds):
            order = cpus if r % 2 == 0 else cpus[::-1]
            children = [
                _child(python, root, cpu, boards, args.steps)
                for python, root, cpu in zip(pythons, roots, order, strict=False)
            ]
            outputs = [child.communicate()[0] for child in children]
            if any(child.returncode for child in children):
                print("a checkout failed to grade", file=sys.stderr)
                return 1
            runs = [json.loads(out) for out in outputs]
            for side, root in zip(runs, roots, strict=True):
                if not Path(side["module"]).resolve().is_relative_to(root):
                    print(f"{root} graded with mineproof from {side['module']}", file=sys.stderr)
                    return 1
            sides.append(runs)
    _report(sides, sizes, len(roots) == 2)
    if len(roots) == 1:
        return 0
    differ = [
        f"{size} board {n}"
        for runs in sides
        for size in sizes
        for n, (a, b) in enumerate(zip(runs[0]["sizes"][size], runs[1]["sizes"][size], strict=True))
        if (_grade(a["grade"]), a["steps"]) != (_grade(b["grade"]), b["steps"])
    ]
    print("boards that differ: " + (", ".join(sorted(set(differ))) or "none"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
