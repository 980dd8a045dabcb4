"""The probabilities of the shared benchmark positions against ms-toollib's.

ms-toollib (PyPI, written in Rust) is an independent implementation of the exact probabilities.
Every covered cell of every position in ``tests/data/positions/*.jsonl`` (the shared benchmark
positions, copied into the tests) must get the same probability from both, within 1e-9.
"""

from __future__ import annotations

import json
from pathlib import Path

import ms_toollib
import pytest

from mineproof.analysis import analyze
from mineproof.position import Position

POSITIONS = Path(__file__).resolve().parents[1] / "data" / "positions"
FILES = sorted(POSITIONS.glob("*.jsonl"))


def test_the_positions_are_there() -> None:
    assert [p.stem for p in FILES] == [
        "expert-midgame",
        "expert-scattered",
        "intermediate-midgame",
    ]


def grid_of(position: Position) -> list[list[int]]:
    """Return ms-toollib's grid of a position: 0-8 opened, 10 covered, 11 flagged."""
    w = position.width
    code = {-1: 10, -2: 11}
    return [
        [code.get(c, c) for c in position.cells[y * w : (y + 1) * w]]
        for y in range(position.height)
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_probabilities_match_ms_toollib(path: Path) -> None:
    checked = 0
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        position = Position.parse(record["position"])
        assert position.mines == record["mines"]
        ours = analyze(position).float_probabilities()
        theirs, _ = ms_toollib.cal_probability_onboard(grid_of(position), record["mines"])
        for y, row in enumerate(ours):
            for x, p in enumerate(row):
                if p is not None:
                    assert abs(theirs[y][x] - p) <= 1e-9, (record["id"], x, y, theirs[y][x], p)
                    checked += 1
    assert checked
