"""Time reviews of recorded games: reading each replay, and judging every click of it.

For each replay (by default the ten of ``tests/data/replays``): the time to read it (ms-toollib
in a process of its own, wall time), then the review's CPU time, cold (the count cache cleared
first) and warm (the same review again), the median of ``--runs`` runs each; the clicks, the
clicks judged, and how many of those needed the exact count (the others are proven at level 1
by the numbers around them). Beside it, a peer doing part of the same work in the same run:
ms-toollib's ``cal_probability_onboard`` (compiled Rust) on every position a click was judged
in, which gives the probabilities but no levels, no deductions and no best guess.

With ``--tiled N``, the game reviewed is instead a perfect game of the N x N tiling of
``tests/analysis/hostile.py`` (groups of numbers that each need a combination of clues): its
first click in the corner, then every cell the step solve proves safe, in the solve's order
(reading it is not timed, and no peer runs).

Usage: python benchmarks/bench_review.py [--runs N] [--tiled N | FILE ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from from_tests import load

from mineproof.analysis import clear_cache
from mineproof.board import iter_bits
from mineproof.game import Game
from mineproof.logic import logic_steps
from mineproof.logic.linear import clear_relaxations
from mineproof.position import Position
from mineproof.review import GameReview, RecordedGame, read_file, read_game, review_game

ROOT = Path(__file__).resolve().parents[1]
REPLAYS = ROOT / "tests" / "data" / "replays"


def grid(position: Position) -> list[list[int]]:
    """Return ms-toollib's grid of a position, flags as covered cells."""
    w = position.width
    return [
        [10 if c < 0 else c for c in position.cells[y * w : (y + 1) * w]]
        for y in range(position.height)
    ]


def peer_seconds(review: GameReview) -> float | None:
    """Return ms-toollib's CPU time for the probabilities of every judged position, or None
    when it is not installed."""
    try:
        import ms_toollib
    except ImportError:
        return None
    positions = [c.judgement.position for c in review.clicks if c.judgement is not None]
    start = time.process_time()
    for position in positions:
        if position.covered_count < position.board.size:
            ms_toollib.cal_probability_onboard(grid(position), position.mines)
    return time.process_time() - start


def perfect_game(size: int) -> RecordedGame:
    """Return a perfect game of the ``size`` x ``size`` tiling: the corner, then each cell the
    step solve proves safe, in order."""
    layout = load("tests/analysis/hostile.py").tiling(size)
    game = Game(layout)
    game.reveal(0, 0)
    clicks: list[tuple[float | None, str, int, int]] = [(None, "open", 0, 0)]
    for step in logic_steps(layout, (0, 0)):
        for i in iter_bits(step.deduction.safe):
            if not game.opened_mask >> i & 1 and game.state == "playing":
                x, y = layout.board.xy(i)
                game.reveal(x, y)
                clicks.append((None, "open", x, y))
    return read_game(layout, clicks, "mineproof")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3, help="runs per game (median)")
    parser.add_argument("--tiled", type=int, metavar="N", help="a perfect game of a tiling")
    args = parser.parse_args()
    files = args.files or sorted(
        p for p in REPLAYS.iterdir() if p.suffix in (".avf", ".mvf", ".rmv", ".evf")
    )
    if args.tiled:
        files = [Path(f"tiling-{args.tiled}")]
    print(
        f"{'game':22} {'board':>9} {'clicks':>6} {'judged':>6} {'counted':>7} "
        f"{'read s':>7} {'cold s':>7} {'warm s':>7} {'ms/click':>8} {'peer s':>7}"
    )
    for path in files:
        tiled = perfect_game(args.tiled) if args.tiled else None
        data = b"" if tiled else path.read_bytes()
        reads, colds, warms = [], [], []
        review = None
        for _ in range(args.runs):
            start = time.perf_counter()
            game = tiled or read_file(data, path.name)
            reads.append(time.perf_counter() - start)
            clear_cache()
            clear_relaxations()
            start = time.process_time()
            review = review_game(game)
            colds.append(time.process_time() - start)
            start = time.process_time()
            review_game(game)
            warms.append(time.process_time() - start)
        assert review is not None
        judged = [c.judgement for c in review.clicks if c.judgement is not None]
        counted = sum(1 for j in judged if j.counted)
        s = review.summary
        cold = statistics.median(colds)
        peer = None if tiled else peer_seconds(review)
        print(
            f"{path.name:22} {f'{s.width}x{s.height}/{s.mines}':>9} {s.clicks:6} {len(judged):6} "
            f"{counted:7} {statistics.median(reads):7.2f} {cold:7.2f} "
            f"{statistics.median(warms):7.2f} {1000 * cold / max(1, len(judged)):8.2f} "
            f"{'-' if peer is None else f'{peer:.2f}':>7}"
        )


if __name__ == "__main__":
    main()
