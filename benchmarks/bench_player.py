"""Two players on the same games, counted game by game: which wins, and how sure we can be.

Game ``i`` draws its layout from the same seed as ``mineproof bench`` (``mineproof-bench:S:i``),
and the layout is drawn before the player moves, so both players face exactly the same mines.
A player is a strategy (``logic``, ``safest``, ``best``), optionally followed by knobs of
:class:`mineproof.play.config.GuessConfig`: ``best:endgame_arrangements=1000,cut_off=0.8``.

Printed: the wins of each, the games won by only one of them, and the exact two-sided sign test
on those (the binomial chance, with p = 1/2, of a split at least as uneven: under 0.05 the
difference is unlikely to be luck); and each player's CPU seconds per game.

Another program can play the same games: ``--layouts FILE`` writes them as JSON lines, one per
game, ``{"index", "width", "height", "mines", "start": [x, y], "rule": "safe"|"opening",
"layout": [mined cells as y * width + x]}`` ("safe": the start cell is free of mines;
"opening": it and its neighbours). ``--against FILE`` reads that program's results, one JSON
line per game with at least ``{"index": i, "won": true|false}``, plays ``--a`` on the same games
(every game of the file, or those from ``--first`` on, ``--games`` of them, when given) and
compares the two as above (the other program's CPU time is not known here). ``--results
FILE`` writes ``--a``'s own results in that form, so that a later version of the player can be
compared with this one game by game (``--against FILE``).

Usage: python benchmarks/bench_player.py --level intermediate --rules classic --games 2000 \
       --a best --b best:endgame_arrangements=1000 [--seed 1] [--jobs 1] [--json]
       python benchmarks/bench_player.py --level expert --games 5000 --layouts games.jsonl
       python benchmarks/bench_player.py --level expert --a best --against their-results.jsonl
       python benchmarks/bench_player.py --level expert --a best --b best --results before.jsonl
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from math import comb
from typing import Any, get_args

from mineproof.board import LEVELS, Board, iter_bits
from mineproof.parallel import collect_less, ordered_map
from mineproof.play import Rules, Strategy, deal, game_rng, play_game, wilson
from mineproof.play.config import GuessConfig
from mineproof.play.player import RULES


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

    def one(self, side: int, index: int) -> tuple[bool, float]:
        """Return whether player ``side`` wins game ``index``, and the CPU seconds it took."""
        player = self.players[side]
        rng = game_rng(self.seed, index)
        t = time.process_time()
        result = play_game(
            Board(self.width, self.height),
            self.mines,
            rng,
            self.rules,
            player.strategy,
            config=player.config,
        )
        return result.outcome == "won", time.process_time() - t

    def play(self, index: int) -> tuple[tuple[bool, float], tuple[bool, float]]:
        """Return (won, CPU seconds) of each player on game ``index``.

        The players take turns to go first (the counts one remembers speed up the other), so
        neither is favoured in CPU time.
        """
        order = (0, 1) if index % 2 == 0 else (1, 0)
        out = {side: self.one(side, index) for side in order}
        return out[0], out[1]

    def play_many(self, indices: range) -> list[tuple[tuple[bool, float], tuple[bool, float]]]:
        """Return :meth:`play` of each game of ``indices`` (a chunk, for less process overhead)."""
        return [self.play(i) for i in indices]

    def play_alone(self, indices: list[int]) -> list[tuple[bool, float]]:
        """Return (won, CPU seconds) of the first player on each game of ``indices``."""
        return [self.one(0, index) for index in indices]

    def layout(self, index: int) -> dict[str, Any]:
        """Return game ``index`` as a JSON object for another program (see the module)."""
        board = Board(self.width, self.height)
        rng = game_rng(self.seed, index)
        start, layout = deal(board, self.mines, rng, self.rules)
        return {
            "index": index,
            "width": self.width,
            "height": self.height,
            "mines": self.mines,
            "start": list(start),
            "rule": RULES[self.rules][1],
            "layout": iter_bits(layout.mines),
        }


def read_results(path: str) -> dict[int, bool]:
    """Return game index -> won of another program's results (JSON lines, see the module).

    Raises ``ValueError`` naming the line that is not such an object, or a game given twice.
    """
    results: dict[int, bool] = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                game = json.loads(line)
                index, won = game["index"], game["won"]
            except (ValueError, TypeError, KeyError):
                raise ValueError(
                    f"{path}, line {number}: not a JSON object with 'index' and 'won'"
                ) from None
            if not isinstance(index, int) or index < 0 or not isinstance(won, bool):
                raise ValueError(
                    f"{path}, line {number}: 'index' must be a game number, 'won' true or false"
                )
            if index in results:
                raise ValueError(f"{path}, line {number}: game {index} is given twice")
            results[index] = won
    return results


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
    """Run the comparison (or write the layouts) and print it; returns the exit status.

    Collects garbage as ``mineproof bench`` does (:func:`mineproof.parallel.collect_less`)."""
    collect_less()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=sorted(LEVELS), default="intermediate")
    parser.add_argument("--rules", choices=get_args(Rules), default="classic")
    parser.add_argument("--games", type=int, help="how many games (2000; with --against: all)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--a", default="best", help="the reference player")
    other = parser.add_mutually_exclusive_group(required=True)
    other.add_argument("--b", help="the candidate player")
    other.add_argument("--against", metavar="FILE", help="another program's results (see above)")
    other.add_argument("--layouts", metavar="FILE", help="write the games' layouts and stop")
    parser.add_argument("--results", metavar="FILE", help="also write --a's results there")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        players = (Player.parse(args.a), Player.parse(args.b or args.a))
    except ValueError as error:
        parser.error(str(error))
    w, h, m = LEVELS[args.level]
    games = Games(w, h, m, args.rules, args.seed, players)
    end = args.first + (2000 if args.games is None else args.games)
    if args.layouts:
        with open(args.layouts, "w", encoding="utf-8") as out:
            for index in range(args.first, end):
                out.write(json.dumps(games.layout(index)) + "\n")
        return 0
    wins = [0, 0]
    cpu = [0.0, 0.0]
    only = [0, 0]
    size = 20
    if args.against:
        try:
            theirs = read_results(args.against)
        except (OSError, ValueError) as error:
            parser.error(str(error))
        indices = sorted(i for i in theirs if args.first <= i and (args.games is None or i < end))
        chunks = [indices[i : i + size] for i in range(0, len(indices), size)]
        played = (
            game for batch in ordered_map(games.play_alone, chunks, args.jobs) for game in batch
        )
        pairs = (
            ((won, seconds), (theirs[i], 0.0))
            for i, (won, seconds) in zip(indices, played, strict=True)
        )
        label_b, count = f"results of {args.against}", len(indices)
        first, last = (indices[0], indices[-1]) if indices else (0, -1)
    else:
        ranges = (range(i, min(end, i + size)) for i in range(args.first, end, size))
        pairs = (
            pair for batch in ordered_map(games.play_many, ranges, args.jobs) for pair in batch
        )
        label_b, count, first, last = args.b, args.games, args.first, end - 1
        indices = list(range(args.first, end))
    ours: list[bool] = []
    for (won_a, cpu_a), (won_b, cpu_b) in pairs:
        ours.append(won_a)
        wins[0] += won_a
        wins[1] += won_b
        cpu[0] += cpu_a
        cpu[1] += cpu_b
        only[0] += won_a and not won_b
        only[1] += won_b and not won_a
    if args.results:
        with open(args.results, "w", encoding="utf-8") as out:
            for index, won in zip(indices, ours, strict=True):
                out.write(json.dumps({"index": index, "won": won}) + "\n")
    p = sign_test(only[0], only[1])
    report: dict[str, Any] = {
        "board": f"{w}x{h}/{m}",
        "rules": args.rules,
        "games": count,
        "first": first,
        "seed": args.seed,
        "a": {"player": args.a, "wins": wins[0], "only": only[0], "cpu_per_game": cpu[0]},
        "b": {"player": label_b, "wins": wins[1], "only": only[1], "cpu_per_game": cpu[1]},
        "sign_test_p": p,
    }
    for side in ("a", "b"):
        report[side]["cpu_per_game"] /= max(1, count)
    if args.against:
        report["b"]["cpu_per_game"] = None
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{w}x{h}/{m} {args.rules}, {count} games {first}..{last}, seed {args.seed}")
    for side in ("a", "b"):
        r = report[side]
        rate = 100 * r["wins"] / max(1, count)
        low, high = (100 * x for x in wilson(r["wins"], count))
        cost = r["cpu_per_game"]
        speed = f"  {1000 * cost:.1f} ms CPU per game" if cost is not None else ""
        print(
            f"{side}: {r['player']:<50} wins {r['wins']:>6} ({rate:.2f} %, {low:.2f}-{high:.2f})"
            f"  only {r['only']:>5}{speed}"
        )
    print(f"b - a: {wins[1] - wins[0]:+d} games; sign test p = {p:.3g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
