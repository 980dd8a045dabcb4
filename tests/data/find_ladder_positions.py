"""Find the positions of tests/data/ladder_positions.jsonl: real positions whose lowest level
of technique is 3, 4 or 5.

Made once with ``.venv/bin/python tests/data/find_ladder_positions.py`` (the default arguments),
then kept: the tests read the file, they never run this script. It plays random layouts (the
start and its neighbours free) with :class:`mineproof.logic.Engine` taking the lowest level at
each step; when the engine is stuck it "guesses" like a player who peeked, opening a random safe
cell of the layout, and plays on, so one board gives many mid-game positions. Before every step
at level 3, 4 or 5 the position (proven mines flagged) is recorded with that level; at most
``--per-board`` of them per board and level, so that the positions come from many boards.

The engine only proposes positions: the tests decide the level of each one with their own
oracles (an LP for level 3, exhaustive search for levels 4 and 5) and check every deduction
the ladder makes in them.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from mineproof.board import Board, Layout
from mineproof.logic import Engine

HERE = Path(__file__).parent
OUT = HERE / "ladder_positions.jsonl"

# (width, height, mines, most boards, positions wanted at levels 3, 4, 5): small and
# intermediate boards where exhaustive checks are cheap, dense ones where level 4 is less rare,
# and expert ones with the mine total spread over many cells.
CONFIGS = [
    (9, 9, 14, 6000, (25, 10, 30)),
    (9, 9, 18, 8000, (30, 50, 30)),
    (12, 12, 30, 4000, (30, 30, 30)),
    (16, 16, 50, 3000, (30, 30, 30)),
    (30, 16, 110, 1000, (30, 40, 25)),
]


def positions_of(
    layout: Layout, start: int, rng: random.Random, per_board: int
) -> list[tuple[int, str]]:
    """Return ``(level, position text)`` before each step at level 3-5 of one played board."""
    engine = Engine(layout, start)
    engine.reveal(start)
    out: list[tuple[int, str]] = []
    taken: dict[int, int] = {}
    while not engine.cleared():
        before = engine.position()
        level = engine.step(5)
        if level == 0:
            covered = [
                i
                for i in range(layout.board.size)
                if not engine.opened >> i & 1 and not layout.mines >> i & 1
            ]
            engine.reveal(rng.choice(covered))
            continue
        if level >= 3 and taken.get(level, 0) < per_board:
            taken[level] = taken.get(level, 0) + 1
            out.append((level, before.text()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-board", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    found: dict[int, list[dict[str, object]]] = {3: [], 4: [], 5: []}
    seen: set[str] = set()
    for w, h, mines, boards, wanted in CONFIGS:
        quota = dict(zip((3, 4, 5), wanted, strict=True))
        counts = {3: 0, 4: 0, 5: 0}
        for n in range(boards):
            if all(counts[level] >= quota[level] for level in counts):
                break
            seed = args.seed * 1_000_003 + w * 10_007 + mines * 101 + n
            rng = random.Random(seed)
            board = Board(w, h)
            start = (w // 2, h // 2)
            layout = Layout.random(board, mines, rng, start, "opening")
            for level, text in positions_of(layout, board.index(*start), rng, args.per_board):
                if counts[level] >= quota[level] or text in seen:
                    continue
                seen.add(text)
                counts[level] += 1
                found[level].append(
                    {"level": level, "source": f"{w}x{h}/{mines} seed {seed}", "position": text}
                )
        print(f"{w}x{h}/{mines}: {counts}")
    with OUT.open("w") as f:
        for level in sorted(found):
            for record in found[level]:
                f.write(json.dumps(record) + "\n")
    print({level: len(v) for level, v in found.items()}, "->", OUT)


if __name__ == "__main__":
    main()
