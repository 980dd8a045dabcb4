"""Make tests/data/steps_reference.json: the step-by-step solves of a few hundred boards, frozen.

Made once with ``.venv/bin/python tests/data/make_steps_reference.py`` (on 2026-11-23, before the
step solve got its fast paths), then kept: the tests read the file, they never run this script
(the generator it draws boards with may change; the boards stored stay the same).

Each board is stored as its size, its mine mask (hex) and its start cell, with:

- ``grade``: ``[solved, level, {level: steps}]`` of :func:`mineproof.logic.grade`;
- ``steps``: the steps of :func:`mineproof.logic.solve_in_steps`, separated by spaces, each
  ``level|premises|safe|mine`` (cell indices, comma-separated, ``+t`` after the premises when
  the mine total is one);
- ``digest``: a hash of every step's full JSON (rule, proof, minimal, fewest) and of the covered
  and flagged cells of the position it is made in;
- ``hints`` (some boards): for a few step numbers, a hash of :func:`mineproof.logic.hint_steps`
  in the position of that step.

A deliberate change of the steps is recorded again for the boards it changes only, with
``--again N ...`` (the others stay as the old code made them):

- board 201, on 2026-11-29: its step 24, a level-5 deduction whose fewest numbers (24, 50, 61,
  68 and the total) prove cell 78 a mine only by cases too deep to show ("too many cases to
  show here"), now takes a proof a person can follow with more numbers (a combination of 5, 23,
  24, 32, 61 and the total, proving nine mines).
- board 201 again, on 2026-11-30: a case may count what numbers still need against another
  number or the mines left ("the 3 at B2 still needs 3 mines, all the mines left to place"),
  so its fewest numbers have a short proof after all: step 24 is the one of 2026-11-23 again
  (24, 50, 61, 68 and the total prove cell 78 a mine; the same steps, hints and grade as the
  first recording), with its proof shown (the digest changed).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path

from mineproof.board import Board, Layout
from mineproof.explain import explain
from mineproof.generate import generate
from mineproof.logic import Deduction, Step, hint_steps, solve_in_steps

HERE = Path(__file__).parent
OUT = HERE / "steps_reference.json"

# (width, height, mines, boards, sampler): the standard levels, then dense boards, where the
# steps at levels 3 to 5 are less rare.
CONFIGS: list[tuple[int, int, int, int, str]] = [
    (9, 9, 10, 80, "auto"),
    (16, 16, 40, 50, "auto"),
    (30, 16, 99, 34, "auto"),
    (30, 16, 130, 12, "perturb"),
    (9, 9, 20, 40, "perturb"),
    (16, 16, 64, 30, "perturb"),
]

HINTS_EVERY = 5
"""Every this many boards, hints are stored for a few positions of its solve."""


def step_text(d: Deduction) -> str:
    """Return the compact text of one step: level, premises, safe and mine cells."""

    def cells(mask: int) -> str:
        return ",".join(str(i) for i in range(mask.bit_length()) if mask >> i & 1)

    premises = ",".join(str(i) for i in d.premises) + ("+t" if d.uses_mine_total else "")
    return f"{d.level}|{premises}|{cells(d.safe)}|{cells(d.mine)}"


def frozen_json(d: Deduction) -> dict[str, object]:
    """Return a deduction's JSON as it was spelled when the references were made: the field
    ``uses_mine_total`` was then named ``uses_mine_count`` (renamed on 2026-11-29, so that hints
    and errors name the mine total alike), and a combination had no ``given`` steps (added on
    2026-11-29; the references' combinations have none, an empty list); everything else is
    hashed as it is."""
    data: dict[str, object] = d.to_json()
    data["uses_mine_count"] = data.pop("uses_mine_total")
    proof = data["proof"]
    if isinstance(proof, dict) and proof.get("given") == []:
        del proof["given"]
    return data


def frozen_text(d: Deduction) -> str:
    """Return a deduction's English text as it was worded when the references were made: two
    numbers of a longer pattern were then said to "form the 1-2-1 pattern" (since 2026-11-29
    they are "part of a 1-2-1 pattern"), and a combination did not name the cells its numbers
    share (since 2026-11-29: "The cells shared are F3 and G3."), and a number's one mine "can
    only be in B1 and B2" (since 2026-11-29: "in one of B1 and B2"), and a case's mine total
    did not count them ("every mine left is placed", since 2026-11-29 "every mine left (40)
    is placed"); everything else is hashed as it is."""
    text = explain(d).replace(", and it can only be in one of ", ", and it can only be in ")
    text = re.sub(r"every mine left \([0-9,]+\) is placed", "every mine left is placed", text)
    for pattern in ("1-2-1", "1-2-2-1"):
        text = text.replace(f" are part of a {pattern} pattern.", f" form the {pattern} pattern.")
    return re.sub(r" The cells? shared (is|are) [A-Z0-9, ]+(and [A-Z]+[0-9]+)?\.", "", text)


def steps_digest(steps: list[Step]) -> str:
    """Return a short hash of the steps' full JSON and of the positions they are made in."""
    data = [
        [s.number, frozen_json(s.deduction), s.position.covered_mask, s.position.flag_mask]
        for s in steps
    ]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]


def hints_digest(deductions: list[Deduction]) -> str:
    """Return a short hash of a hint's deductions (full JSON)."""
    data = [frozen_json(d) for d in deductions]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]


def hint_numbers(count: int) -> list[int]:
    """Return the step numbers whose positions get a stored hint."""
    return sorted({n for n in (1, count // 3, 2 * count // 3) if n >= 1})


def record(layout: Layout, start: tuple[int, int], with_hints: bool) -> dict[str, object]:
    """Return the stored form of one board's solve."""
    steps, grade = solve_in_steps(layout, start)
    board = layout.board
    entry: dict[str, object] = {
        "size": [board.width, board.height],
        "mines": format(layout.mines, "x"),
        "start": list(start),
        "grade": [grade.solved, grade.level, {str(k): v for k, v in grade.steps.items()}],
        "steps": " ".join(step_text(s.deduction) for s in steps),
        "digest": steps_digest(steps),
    }
    if with_hints and steps:
        entry["hints"] = {
            str(n): hints_digest(hint_steps(steps[n - 1].position))
            for n in hint_numbers(len(steps))
        }
    return entry


def main() -> None:
    """Generate the boards and write the reference file."""
    boards: list[dict[str, object]] = []
    for width, height, mines, count, sampler in CONFIGS:
        rng = random.Random(f"steps-{width}x{height}x{mines}")
        for _ in range(count):
            g = generate(Board(width, height), mines, rng, sampler=sampler)  # type: ignore[arg-type]
            boards.append(record(g.layout, g.start, len(boards) % HINTS_EVERY == 0))
    OUT.write_text(json.dumps({"boards": boards}, separators=(",", ":")) + "\n")
    print(f"{len(boards)} boards, {OUT.stat().st_size} bytes")


def again(numbers: list[int]) -> None:
    """Record the boards ``numbers`` of the reference file again with the current code."""
    boards = json.loads(OUT.read_text())["boards"]
    for n in numbers:
        entry = boards[n]
        layout = Layout(Board(*entry["size"]), int(entry["mines"], 16))
        boards[n] = record(layout, tuple(entry["start"]), "hints" in entry)
    OUT.write_text(json.dumps({"boards": boards}, separators=(",", ":")) + "\n")
    print(f"boards {numbers} recorded again")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--again"]:
        again([int(n) for n in sys.argv[2:]])
    else:
        main()
