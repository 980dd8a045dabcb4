"""Many games in parallel: win rate with its 95 % interval, guesses, speed.

Game ``i`` of a benchmark with seed ``S`` draws from ``random.Random(f"mineproof-bench:{S}:{i}")``,
so the result for a seed is the same whatever the number of jobs; any
``concurrent.futures.Executor`` can run the games (local processes by default).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from mineproof.board import Board
from mineproof.parallel import ordered_map
from mineproof.play.player import GameResult, Rules, Strategy, play_game

__all__ = ["BenchRequest", "BenchSummary", "Played", "game_rng", "run_bench", "wilson"]

Played = tuple[GameResult, float, dict[str, Any] | None]
"""One game: its result, the CPU seconds it took, and its record when recording."""


def game_rng(seed: int, index: int) -> random.Random:
    """Return the random source of game ``index`` of a benchmark with ``seed``: the same game
    whoever plays it, and whatever the number of jobs."""
    return random.Random(f"mineproof-bench:{seed}:{index}")


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval of a win rate (95 % by default).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class BenchRequest:
    """The games of a benchmark: board, mines, rules, strategy and seed."""

    board: Board
    mines: int
    rules: Rules
    strategy: Strategy
    seed: int
    record: bool = False

    def play(self, index: int) -> Played:
        """Return game ``index``, the CPU seconds it took and its record (if asked for)."""
        rng = game_rng(self.seed, index)
        record: dict[str, Any] | None = {"seed": self.seed, "index": index} if self.record else None
        t = time.process_time()
        result = play_game(self.board, self.mines, rng, self.rules, self.strategy, record)
        return result, time.process_time() - t, record

    def play_many(self, indices: range) -> list[Played]:
        """Return the games of ``indices`` (a chunk, to keep process overhead small)."""
        return [self.play(i) for i in indices]


@dataclass(frozen=True, slots=True)
class BenchSummary:
    """The outcome of a benchmark."""

    games: int
    wins: int
    losses: int
    stuck: int
    guesses: int
    seconds: float
    cpu_seconds: float

    @property
    def win_rate(self) -> float:
        """Return the share of games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Return the 95 % Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        """Return the summary as a JSON-ready object."""
        low, high = self.ci95
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "stuck": self.stuck,
            "win_rate": self.win_rate,
            "ci95": [low, high],
            "guesses_per_game": self.guesses / self.games if self.games else 0.0,
            "games_per_second": self.games / self.seconds if self.seconds else 0.0,
            "games_per_cpu_second": self.games / self.cpu_seconds if self.cpu_seconds else 0.0,
        }


def run_bench(
    request: BenchRequest,
    games: int,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
    keep: Callable[[dict[str, Any]], None] | None = None,
) -> BenchSummary:
    """Play ``games`` games of ``request``; ``progress(done, wins)`` is called along the way.

    With ``request.record``, ``keep`` receives each game's record, in game order. Only
    running totals are kept and games are handed out a few chunks ahead of the results taken
    back, so memory does not grow with ``games``. Raises what ``keep`` raises (the games
    already played are lost with it).
    """
    start = time.perf_counter()
    size = max(1, min(50, games // (max(jobs, 1) * 20)))
    chunks = (range(i, min(games, i + size)) for i in range(0, games, size))
    done = wins = losses = stuck = guesses = 0
    cpu_seconds = 0.0
    # Running totals only: memory does not grow with the number of games.
    for batch in ordered_map(request.play_many, chunks, jobs, executor):
        for result, cpu, record in batch:
            done += 1
            wins += result.outcome == "won"
            losses += result.outcome == "lost"
            stuck += result.outcome == "stuck"
            guesses += result.guesses
            cpu_seconds += cpu
            if record is not None and keep is not None:
                keep(record)
        if progress:
            progress(done, wins)
    return BenchSummary(
        games=done,
        wins=wins,
        losses=losses,
        stuck=stuck,
        guesses=guesses,
        seconds=time.perf_counter() - start,
        cpu_seconds=cpu_seconds,
    )
