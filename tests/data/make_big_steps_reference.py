"""Make tests/data/big_steps_reference.json: the step-by-step solves of a few big boards, frozen.

Made once on 2026-11-27 with the checkout of commit 970327c (before the step solve kept the
forcing pairs of clues up to date instead of looking at every pair of the board at each step
above level 1), run as ``OTHER/.venv/bin/python tests/data/make_big_steps_reference.py`` so
that its own ``mineproof`` made the solves; then kept: the tests read the file, they never run
this script.

Each board is stored as its size, its mine mask (hex) and its start cell, with its ``grade``
(``[solved, level, {level: steps}]`` of :func:`mineproof.logic.grade`), its ``steps`` (as in
``steps_reference.json``: ``level|premises|safe|mine`` each) and a ``digest`` of every step's
full JSON, English text and position (:func:`stream_digest`: the steps are hashed one by one
as the solve yields them, since a big board's positions do not all fit in memory at once).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path

from make_steps_reference import frozen_json, frozen_text, step_text

from mineproof.board import Board, Layout
from mineproof.generate import generate
from mineproof.logic import Step, grade, logic_steps

HERE = Path(__file__).parent
OUT = HERE / "big_steps_reference.json"

# (width, height, mines, seed, sampler): random layouts (``None``: solved until stuck), and a
# dense guess-free board, whose solve needs many steps at level 2.
CONFIGS: list[tuple[int, int, int, int, str | None]] = [
    (60, 60, 720, 0, None),
    (60, 60, 720, 1, None),
    (100, 100, 2000, 0, None),
    (60, 60, 900, 0, "perturb"),
]


def stream_digest(steps: Iterable[Step]) -> str:
    """Return a short hash of the steps' full JSON, their English text and the covered and
    flagged cells of the positions they are made in, taking the steps one at a time."""
    digest = hashlib.sha256()
    for s in steps:
        data = [
            s.number,
            frozen_json(s.deduction),
            frozen_text(s.deduction),
            format(s.position.covered_mask, "x"),
            format(s.position.flag_mask, "x"),
        ]
        digest.update(json.dumps(data, sort_keys=True).encode())
    return digest.hexdigest()[:20]


def texts_and_digest(layout: Layout, start: tuple[int, int]) -> tuple[list[str], str]:
    """Return the compact text of each step of the solve of ``layout`` from ``start`` (see
    ``make_steps_reference.step_text``) and the :func:`stream_digest` of its steps."""
    texts: list[str] = []

    def noted(steps: Iterable[Step]) -> Iterator[Step]:
        for s in steps:
            texts.append(step_text(s.deduction))
            yield s

    return texts, stream_digest(noted(logic_steps(layout, start)))


def main() -> None:
    """Make the boards and write the reference file."""
    boards: list[dict[str, object]] = []
    for width, height, mines, seed, sampler in CONFIGS:
        board = Board(width, height)
        rng = random.Random(f"big-steps-{width}x{height}x{mines}-{seed}")
        if sampler is None:
            start = (width // 2, height // 2)
            layout = Layout.random(board, mines, rng, start, "opening")
        else:
            g = generate(board, mines, rng, sampler=sampler)  # type: ignore[arg-type]
            layout, start = g.layout, g.start
        result = grade(layout, start)
        texts, digest = texts_and_digest(layout, start)
        boards.append(
            {
                "size": [width, height],
                "mines": format(layout.mines, "x"),
                "start": list(start),
                "grade": [
                    result.solved,
                    result.level,
                    {str(k): v for k, v in result.steps.items()},
                ],
                "steps": " ".join(texts),
                "digest": digest,
            }
        )
        print(f"{width}x{height}/{mines}: {result}")
    OUT.write_text(json.dumps({"boards": boards}, separators=(",", ":")) + "\n")
    print(f"{len(boards)} boards, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
