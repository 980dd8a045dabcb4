"""Two players on the same games, counted game by game: which wins, and how sure we can be.

Game ``i`` draws its layout from the same seed as ``mineproof bench`` (``mineproof-bench:S:i``),
and the layout is drawn before the player moves, so both players face exactly the same mines.
A player is a strategy (``logic``, ``safest``, ``best``), optionally followed by knobs of
:class:`mineproof.play.config.GuessConfig`: ``best:endgame_arrangements=1000,cut_off=0.8``.

Printed: the wins of each, the games won by only one of them, and the exact two-sided sign test
on those (the binomial chance, with p = 1/2, of a split at least as uneven: under 0.05 the
difference is unlikely to be luck); and each player's CPU seconds per game.

Usage: python benchmarks/bench_player.py --level intermediate --rules classic --games 2000 \
       --a best --b best:endgame_arrangements=1000 [--seed 1] [--jobs 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass
from math import comb
from typing import Any, get_args

from mineproof.board import Board
from mineproof.parallel import ordered_map
from mineproof.play import Rules, Strategy, play_game
from mineproof.play.config import GuessConfig

LEVELS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


@dataclass(frozen=True, slots=True)
class Player:
    """A strategy and its knobs, as named on the command line."""

    name: str
    strategy: Strategy
    config: GuessConfig

    @classmethod
    def parse(cls, text: str) -> Player:
        """Return the player ``strategy[:knob=value,...]``; raises ``ValueError`` when unknown."""
        strategy, _, knobs = text.partition(":")
        if strategy not in get_args(Strategy):
            raise ValueError(f"unknown strategy {strategy!r}")
        return cls(text, strategy, GuessConfig.parse(knobs))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Games:
    """The games both players play: board, mines, rules, seed."""

    width: int
    height: int
    mines: int
    rules: Rules
    seed: int
    players: tuple[Player, Player]

    def play(self, index: int) -> tuple[tuple[bool, float], tuple[bool, float]]:
        """Return (won, CPU seconds) of each player on game ``index``.

        The players take turns to go first (the counts one remembers speed up the other), so
        neither is favoured in CPU time.
        """
        out: dict[int, tuple[bool, float]] = {}
        order = (0, 1) if index % 2 == 0 else (1, 0)
        for side in order:
            player = self.players[side]
            rng = random.Random(f"mineproof-bench:{self.seed}:{index}")
            t = time.process_time()
            result = play_game(
                Board(self.width, self.height),
                self.mines,
                rng,
                self.rules,
                player.strategy,
                config=player.config,
            )
            out[side] = (result.outcome == "won", time.process_time() - t)
        return out[0], out[1]

    def play_many(self, indices: range) -> list[tuple[tuple[bool, float], tuple[bool, float]]]:
        """Return :meth:`play` of each game of ``indices`` (a chunk, for less process overhead)."""
        return [self.play(i) for i in indices]


def sign_test(only_a: int, only_b: int) -> float:
    """Return the exact two-sided sign test of a split of discordant games.

    >>> round(sign_test(10, 0), 4)
    0.002
    >>> sign_test(5, 5)
    1.0
    """
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail: float = sum(comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print it; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=sorted(LEVELS), default="intermediate")
    parser.add_argument("--rules", choices=get_args(Rules), default="classic")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--a", default="best", help="the reference player")
    parser.add_argument("--b", required=True, help="the candidate player")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        players = (Player.parse(args.a), Player.parse(args.b))
    except ValueError as error:
        parser.error(str(error))
    w, h, m = LEVELS[args.level]
    games = Games(w, h, m, args.rules, args.seed, players)
    size = 20
    end = args.first + args.games
    chunks = (range(i, min(end, i + size)) for i in range(args.first, end, size))
    wins = [0, 0]
    cpu = [0.0, 0.0]
    only = [0, 0]
    for batch in ordered_map(games.play_many, chunks, args.jobs):
        for (won_a, cpu_a), (won_b, cpu_b) in batch:
            wins[0] += won_a
            wins[1] += won_b
            cpu[0] += cpu_a
            cpu[1] += cpu_b
            only[0] += won_a and not won_b
            only[1] += won_b and not won_a
    p = sign_test(only[0], only[1])
    report: dict[str, Any] = {
        "board": f"{w}x{h}/{m}",
        "rules": args.rules,
        "games": args.games,
        "first": args.first,
        "seed": args.seed,
        "a": {"player": args.a, "wins": wins[0], "only": only[0], "cpu_per_game": cpu[0]},
        "b": {"player": args.b, "wins": wins[1], "only": only[1], "cpu_per_game": cpu[1]},
        "sign_test_p": p,
    }
    for side in ("a", "b"):
        report[side]["cpu_per_game"] /= max(1, args.games)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{w}x{h}/{m} {args.rules}, games {args.first}..{end - 1}, seed {args.seed}")
    for side in ("a", "b"):
        r = report[side]
        rate = 100 * r["wins"] / max(1, args.games)
        print(
            f"{side}: {r['player']:<50} wins {r['wins']:>6} ({rate:.2f} %)  only {r['only']:>5}"
            f"  {1000 * r['cpu_per_game']:.1f} ms CPU per game"
        )
    print(f"b - a: {wins[1] - wins[0]:+d} games; sign test p = {p:.3g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
