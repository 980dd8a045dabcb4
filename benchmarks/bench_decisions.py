"""Two players' guesses compared one decision at a time, by playing on from each many times.

A change to the player alters a few guesses in a few games, and a game-by-game comparison
(``bench_player.py``) then sees each changed decision once, drowned in the luck of the rest of
its game. This script weighs the decisions themselves. Player ``--a`` plays the games; at each
of its guesses, player ``--b`` is asked for its own. Where the two differ, ``--rollouts`` layouts
are drawn, each equally likely among all those that fit the position (the player's knowledge
there, nothing more); on each, ``--a``'s cell is opened and ``--a`` plays on to the end, and
then the same with ``--b``'s cell on the same layout. The share of those games won estimates
each cell's chance to win with ``--a`` playing on, and the difference is paired: both cells
meet the same mines.

Printed: the decisions where the players differ, the mean gain in the chance to win of taking
``--b``'s cell instead (with its standard error over the decisions), how many decisions favour
each, and that gain summed over the decisions per 10,000 games: the games a player that made
``--b``'s choices at these decisions and ``--a``'s elsewhere would win more (a first-order
estimate: ``--b`` also reaches positions ``--a`` never does).

``--weigh FILE`` weighs given cells instead of ``--b``'s: each JSON line ``{"index": i,
"guess": k, "b": [x, y]}`` pits the cell ``(x, y)`` against ``--a``'s own at its ``k``-th guess
(from 0) in game ``i`` (``benchmarks/jsm/partings.py --decisions`` writes JSMinesweeper's cells
where the two players part).

``--exact N`` weighs instead, with no luck at all, the decisions whose position has at most
``N`` arrangements: each cell's exact chance to win when it is opened and best play follows
(the end game's search, :class:`mineproof.play.endgame.EndgameSearch`, over every arrangement,
equally likely; the search opens one cell at a time, which loses nothing around a 0: its
neighbours are then safe in every arrangement left, and best play opens them). Printed: how many
decisions favour each cell and how many are exact ties, the mean gain and the games gained;
the decisions with more arrangements (or too many to list), or whose search runs past its
budget, are counted as not weighed (weigh them by rollouts in another run).

Either way, a decision whose ``--b`` cell is not covered where it is taken (with ``--weigh``, a
guess of another program's at a cell ours had opened as forced: its k-th guess is not ours) is
left out and counted apart: opening an open cell would weigh ours against itself.

Usage: python benchmarks/bench_decisions.py --level expert --rules modern --games 1000 \
       --a best --b best:pseudo=0 [--rollouts 100] [--seed 1] [--jobs 2] [--json]
       python benchmarks/bench_decisions.py --level expert --rules modern --games 60000 \
       --weigh partings.jsonl [--decisions weighed.jsonl] [--exact 1000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, get_args

from mineproof.analysis import analyze, sample_arrangement
from mineproof.analysis.constraints import constraints_of
from mineproof.board import LEVELS, Board, Layout, iter_bits
from mineproof.game import Game
from mineproof.parallel import collect_less, ordered_map
from mineproof.play import Rules, choose_guess, deal, game_rng, play_game, play_on
from mineproof.play.config import GuessConfig
from mineproof.play.endgame import EndgameSearch, arrangements

Move = tuple[str, tuple[int, int]]

EXACT_BUDGET = 20_000_000
"""The (set, cell) evaluations the exact search of one cell may make (see ``--exact``): each of
a decision's two cells has its own."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A guess where the two players part: the game, the moves before it, both cells."""

    index: int
    mines: int
    moves: tuple[Move, ...]
    cells: tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Setup:
    """The games and the two players (knobs of ``best``), as given on the command line."""

    width: int
    height: int
    mines: int
    rules: Rules
    seed: int
    a: GuessConfig
    b: GuessConfig
    rollouts: int
    exact: int = 0

    def guesses(self, index: int) -> Iterator[tuple[Decision, Game]]:
        """Yield each guess of ``--a`` in game ``index``: a decision with ``--a``'s cell on both
        sides, and the game just before it."""
        board = Board(self.width, self.height)
        record: dict[str, Any] = {}
        play_game(
            board, self.mines, game_rng(self.seed, index), self.rules, config=self.a, record=record
        )
        _, layout = deal(board, self.mines, game_rng(self.seed, index), self.rules)
        game = Game(layout)  # the same layout: play_game deals it first from the same draws
        moves: list[Move] = []
        for move in record["moves"]:
            cell = (move["cell"][0], move["cell"][1])
            if move["reason"]["kind"] == "guess":
                yield Decision(index, layout.mines, tuple(moves), (cell, cell)), game
            moves.append((move["action"], cell))
            _apply(game, move["action"], cell)

    def decisions(self, index: int) -> list[Decision]:
        """Return the guesses of ``--a`` in game ``index`` where ``--b`` would open another
        cell."""
        board = Board(self.width, self.height)
        out = []
        for found, game in self.guesses(index):
            analysis = analyze(game.position(), trust_flags=True)
            theirs = board.xy(choose_guess(analysis, config=self.b))
            if theirs != found.cells[0]:
                out.append(replace(found, cells=(found.cells[0], theirs)))
        return out

    def decision_at(self, index: int, guess: int, theirs: tuple[int, int]) -> Decision | None:
        """Return the ``guess``-th guess (from 0) of ``--a`` in game ``index`` against the cell
        ``theirs``, or None when ``theirs`` is not covered there (opened or flagged: opening it
        would weigh ``--a``'s cell against itself). Raises ``LookupError`` when the game has
        fewer guesses."""
        for k, (found, game) in enumerate(self.guesses(index)):
            if k == guess:
                x, y = theirs
                if (game.opened_mask | game.flag_mask) >> (y * self.width + x) & 1:
                    return None
                return replace(found, cells=(found.cells[0], theirs))
        raise LookupError(f"game {index} has no guess {guess}")

    def weigh(self, decision: Decision) -> tuple[int, int]:
        """Return the games won, of ``rollouts`` each, by opening each of the decision's two
        cells on the same layouts drawn to fit its position, ``--a`` playing on."""
        board = Board(self.width, self.height)
        position = _replay(board, decision.mines, decision.moves).position()
        rng = random.Random(f"bench-decisions:{self.seed}:{decision.index}:{len(decision.moves)}")
        wins = [0, 0]
        for _ in range(self.rollouts):
            mines = sample_arrangement(position, rng, trust_flags=True)
            for side, cell in enumerate(decision.cells):
                game = _replay(board, mines, decision.moves)
                game.reveal(*cell)
                if game.state == "playing":
                    wins[side] += play_on(game, config=self.a).outcome == "won"
                else:
                    wins[side] += game.state == "won"
        return wins[0], wins[1]

    def chances(self, decision: Decision) -> tuple[float, float] | None:
        """Return each of the decision's two cells' exact chance to win when it is opened and
        best play follows, or None when the position has more than ``exact`` arrangements (or
        too many to list) or a search runs past :data:`EXACT_BUDGET`. Both cells must be
        covered there (see :meth:`decision_at`)."""
        board = Board(self.width, self.height)
        position = _replay(board, decision.mines, decision.moves).position()
        cons = constraints_of(position, trust_flags=True)
        states = arrangements(cons.unknown, cons.mines, cons.clues, self.exact)
        if states is None:
            return None
        masks = board.neighbour_masks()
        out = []
        for x, y in decision.cells:
            search = EndgameSearch(masks, iter_bits(cons.unknown), EXACT_BUDGET)
            chance = search.chance(tuple(states), board.index(x, y))
            if chance is None:
                return None
            out.append(chance)
        return out[0], out[1]

    def decisions_at(self, asked: list[tuple[int, int, tuple[int, int]]]) -> list[Decision]:
        """Return :meth:`decision_at` of each (game, guess, cell) of ``asked`` whose cell is
        covered there."""
        return [d for line in asked if (d := self.decision_at(*line)) is not None]

    def decisions_many(self, indices: range) -> list[Decision]:
        """Return :meth:`decisions` of every game of ``indices``."""
        return [d for i in indices for d in self.decisions(i)]


def _replay(board: Board, mines: int, moves: tuple[Move, ...]) -> Game:
    """Return the game of the layout ``mines`` with ``moves`` made."""
    game = Game(Layout(board, mines))
    for action, cell in moves:
        _apply(game, action, cell)
    return game


def _apply(game: Game, action: str, cell: tuple[int, int]) -> None:
    """Make one recorded move."""
    if action == "flag":
        game.flag(*cell)
    else:
        game.reveal(*cell)


def weigh_many(setup: Setup, decisions: list[Decision]) -> list[tuple[int, int]]:
    """Return :meth:`Setup.weigh` of each decision (a chunk, for less process overhead)."""
    return [setup.weigh(d) for d in decisions]


def chances_many(setup: Setup, decisions: list[Decision]) -> list[tuple[float, float] | None]:
    """Return :meth:`Setup.chances` of each decision (a chunk)."""
    return [setup.chances(d) for d in decisions]


def main(argv: list[str] | None = None) -> int:
    """Find the decisions, weigh them, print the summary; returns the exit status."""
    collect_less()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=sorted(LEVELS), default="expert")
    parser.add_argument("--rules", choices=get_args(Rules), default="modern")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--a", default="best", help="the player that plays (best[:knobs])")
    other = parser.add_mutually_exclusive_group(required=True)
    other.add_argument("--b", help="the player asked at each guess")
    other.add_argument(
        "--weigh",
        metavar="FILE",
        help='weigh these cells instead: JSON lines {"index", "guess", "b": [x, y]}',
    )
    parser.add_argument("--rollouts", type=int, default=100, help="layouts drawn per decision")
    parser.add_argument(
        "--exact",
        type=int,
        default=0,
        metavar="N",
        help="weigh exactly, with no rollouts, the decisions with at most N arrangements",
    )
    parser.add_argument("--decisions", metavar="FILE", help="also write each decision there")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        a, b = (_knobs(text) for text in (args.a, args.b or "best"))
        asked = _read_cells(args.weigh) if args.weigh else []
    except (ValueError, OSError) as error:
        parser.error(str(error))
    if args.games < 1 or args.rollouts < 1 or args.jobs < 1 or args.exact < 0:
        parser.error("--games, --rollouts and --jobs must be at least 1, --exact at least 0")
    w, h, m = LEVELS[args.level]
    setup = Setup(w, h, m, args.rules, args.seed, a, b, args.rollouts, args.exact)
    end = args.first + args.games
    outside = [index for index, _, _ in asked if not args.first <= index < end]
    if outside:
        # The games per 10,000 divide by --games: they must be the games the cells come from.
        parser.error(
            f"{args.weigh}: game {outside[0]} is outside --first {args.first} --games "
            f"{args.games} (give the games the decisions were taken from)"
        )
    if args.weigh:
        chunks_at = [asked[i : i + 20] for i in range(0, len(asked), 20)]
        try:
            found = [
                d for part in ordered_map(setup.decisions_at, chunks_at, args.jobs) for d in part
            ]
        except LookupError as error:
            parser.error(f"{args.weigh}: {error}")
    else:
        chunks = [range(i, min(i + 20, end)) for i in range(args.first, end, 20)]
        found = [d for part in ordered_map(setup.decisions_many, chunks, args.jobs) for d in part]
    uncovered = len(asked) - len(found) if args.weigh else 0  # --b's own cells are covered
    groups = [found[i : i + 4] for i in range(0, len(found), 4)]
    if args.exact:
        exact = ordered_map(partial(chances_many, setup), groups, args.jobs)
        got = [c for part in exact for c in part]
        return _report_exact(args, found, got, uncovered)
    wins = [w for part in ordered_map(partial(weigh_many, setup), groups, args.jobs) for w in part]
    gains = [(wb - wa) / args.rollouts for wa, wb in wins]
    mean = statistics.fmean(gains) if gains else 0.0
    spread = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
    summary = {
        **_head(args, uncovered),
        "rollouts": args.rollouts,
        "decisions": len(gains),
        "mean_gain": mean,
        "standard_error": spread,
        "favour_a": sum(g < 0 for g in gains),
        "favour_b": sum(g > 0 for g in gains),
        "games_gained": sum(gains),
        "per_10000_games": 10_000 * sum(gains) / args.games,
    }
    if args.decisions:
        _write_decisions(args.decisions, found, "wins", [list(w) for w in wins])
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        f"{args.level} {args.rules}, games {args.first}-{end - 1}: --a {args.a}, --b {summary['b']}"
    )
    print(f"decisions where they differ: {len(gains)} ({args.rollouts} layouts each)")
    _print_uncovered(uncovered)
    print(f"chance to win with --b's cell instead: {mean:+.4f} (standard error {spread:.4f})")
    print(f"decisions favouring --a / --b: {summary['favour_a']} / {summary['favour_b']}")
    print(f"games gained over these decisions: {summary['games_gained']:+.1f}")
    print(f"games per 10,000 (first order): {summary['per_10000_games']:+.1f}")
    return 0


def _head(args: argparse.Namespace, uncovered: int) -> dict[str, Any]:
    """Return the part of a summary that says what was compared (and the decisions left out
    as their ``--b`` cell was not covered)."""
    return {
        "not_covered": uncovered,
        "level": args.level,
        "rules": args.rules,
        "games": args.games,
        "first": args.first,
        "a": args.a,
        "b": args.b or args.weigh,
    }


def _write_decisions(path: str, found: list[Decision], field: str, values: list[Any]) -> None:
    """Write each decision to ``path`` as a JSON line, with its ``field`` (the wins of its
    rollouts, or its exact chances)."""
    with open(path, "w", encoding="utf-8") as out:
        for d, value in zip(found, values, strict=True):
            row = {
                "index": d.index,
                "guess_after_moves": len(d.moves),
                "a": list(d.cells[0]),
                "b": list(d.cells[1]),
                field: value,
            }
            out.write(json.dumps(row) + "\n")


def _print_uncovered(uncovered: int) -> None:
    """Print how many decisions were left out as their ``--b`` cell was not covered."""
    if uncovered:
        print(f"left out: {uncovered} where --b's cell is not covered (opened or flagged) there")


def _report_exact(
    args: argparse.Namespace,
    found: list[Decision],
    got: list[tuple[float, float] | None],
    uncovered: int,
) -> int:
    """Print (or write as JSON) the summary of ``--exact``; returns the exit status."""
    weighed = [c for c in got if c is not None]
    gains = [cb - ca for ca, cb in weighed]
    end = args.first + args.games
    summary = {
        **_head(args, uncovered),
        "exact": args.exact,
        "decisions": len(found),
        "weighed": len(weighed),
        "not_weighed": len(found) - len(weighed),
        "favour_a": sum(g < 0 for g in gains),
        "favour_b": sum(g > 0 for g in gains),
        "equal": sum(g == 0 for g in gains),
        "mean_gain": statistics.fmean(gains) if gains else 0.0,
        "games_gained": sum(gains),
    }
    if args.decisions:
        _write_decisions(args.decisions, found, "chances", [c and list(c) for c in got])
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        f"{args.level} {args.rules}, games {args.first}-{end - 1}: --a {args.a}, --b {summary['b']}"
    )
    print(
        f"decisions where they differ: {len(found)}; weighed exactly (at most {args.exact} "
        f"arrangements): {len(weighed)}"
    )
    _print_uncovered(uncovered)
    print(
        f"--a's cell better / --b's better / equal: {summary['favour_a']} / "
        f"{summary['favour_b']} / {summary['equal']}"
    )
    print(f"chance to win with --b's cell instead: {summary['mean_gain']:+.4f} (exact, best play)")
    print(f"games gained over these decisions: {summary['games_gained']:+.1f}")
    return 0


def _read_cells(path: str) -> list[tuple[int, int, tuple[int, int]]]:
    """Return (game, guess, cell) of each line of ``path`` (see ``--weigh``). Raises
    ``ValueError`` naming the line that is not such an object, ``OSError`` when unreadable."""
    out = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                index, guess, (x, y) = row["index"], row["guess"], row["b"]
                if not all(isinstance(v, int) and v >= 0 for v in (index, guess, x, y)):
                    raise ValueError
            except (ValueError, TypeError, KeyError):
                raise ValueError(
                    f"{path}, line {number}: not a JSON object with 'index', 'guess' and 'b': "
                    "[x, y] (whole numbers from 0)"
                ) from None
            out.append((index, guess, (x, y)))
    return out


def _knobs(text: str) -> GuessConfig:
    """Return the knobs of a ``best[:knob=value,...]`` player; raises ``ValueError`` for
    another strategy or an unknown knob."""
    strategy, _, knobs = text.partition(":")
    if strategy != "best":
        raise ValueError(f"only the best strategy can be compared here, not {strategy!r}")
    return GuessConfig.parse(knobs)


if __name__ == "__main__":
    raise SystemExit(main())
