"""Where our player and JSMinesweeper part: every game only one of them won, replayed to the
first guess where JSMinesweeper chose another cell, counted by why each chose its cell there.

Our game is played again with the ``best`` strategy of this checkout, so ``--ours`` must come
from the same code (``bench_player.py --a best --results FILE``). ``--theirs`` is ``run.js``'s
output for the same games; with ``run.js --messages`` JSMinesweeper's own reason at the
parting is counted too (its message: its weighing, an unavoidable 50/50, "a 50/50 or safe",
its exact search, an isolated edge). Printed: for each pair (our reason, its reason), the
games won only by ours and only by JSMinesweeper. These counts follow the whole game after the
parting, so they say where to look, not what causes a gap.

``--decisions FILE`` writes each parting as a JSON line ``{"index", "guess", "b": [x, y],
"ours", "theirs", "won_by_ours"}`` (the guess's number from 0, JSMinesweeper's cell, the two
reasons), for ``benchmarks/bench_decisions.py --weigh``: it plays on from both cells many times
and so says which choice was the better one, apart from the luck of the one game.

Usage: python benchmarks/jsm/partings.py --level expert --rules modern --ours ours.jsonl \
       --theirs theirs.jsonl [--seed 1] [--jobs 2] [--decisions partings.jsonl]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any, get_args

from mineproof.analysis import CountTooLarge, analyze
from mineproof.board import LEVELS, Board
from mineproof.game import Game
from mineproof.play import Rules, best_guess, deal, game_rng, play_game

# JSMinesweeper's messages, by the words that tell its reason (the first that matches).
THEIR_REASONS = (
    ("unavoidable 50/50 guess, or safe", "50/50 or safe"),
    ("unavoidable 50/50", "50/50"),
    ("chance to win the game", "exact search"),
    ("isolated edge", "isolated edge"),
    ("recommends", "weighing"),
)


def their_reason(guess: list[Any]) -> str:
    """Return JSMinesweeper's reason for a guess ``[x, y, p, message]`` of ``run.js``'s output,
    "?" without a message (``run.js`` run without ``--messages``)."""
    if len(guess) < 4:
        return "?"
    return next((name for words, name in THEIR_REASONS if words in guess[3]), "other")


def parting(
    task: tuple[str, str, int, int, list[list[Any]]],
) -> tuple[str, str, int, list[int] | None]:
    """Return (our reason, JSMinesweeper's, the number from 0 of our guess, JSMinesweeper's
    cell) at the first guess where the two part in one game: ``(level, rules, seed, index,
    their guesses)``. "the same guesses" when none differ, "theirs ended" or "ours ended" when
    one player's game ended first (the number is then -1, the cell None). A guess of theirs at
    a cell ours had already opened as forced is passed over: ours needed no guess there.

    Our game is played by :func:`mineproof.play.play_game` itself and replayed from its record
    to the parting, where :func:`mineproof.play.best_guess` says why ("over budget" where the
    player fell back on the safest cell)."""
    level, rules, seed, index, theirs = task
    width, height, mines = LEVELS[level]
    board = Board(width, height)
    record: dict[str, Any] = {}
    play_game(board, mines, game_rng(seed, index), rules, "best", record=record)  # type: ignore[arg-type]
    _, layout = deal(board, mines, game_rng(seed, index), rules)  # type: ignore[arg-type]
    game = Game(layout)
    k = 0  # our guesses so far
    j = 0  # theirs
    for move in record["moves"]:
        if move["reason"]["kind"] == "guess":
            # A guess of theirs at a cell ours had already opened, proven safe, is no parting:
            # ours saw what they guessed (their guesses then run ahead of ours by one).
            while j < len(theirs) and game.opened_mask >> board.index(*theirs[j][:2]) & 1:
                j += 1
            if j >= len(theirs):
                return "theirs ended", "", -1, None
            if move["cell"] != list(theirs[j][:2]):
                try:
                    reason = str(best_guess(analyze(game.position(), trust_flags=True)).reason)
                except CountTooLarge:
                    reason = "over budget"
                return reason, their_reason(theirs[j]), k, list(theirs[j][:2])
            k += 1
            j += 1
        if move["action"] == "flag":
            game.flag(*move["cell"])
        else:
            game.reveal(*move["cell"])
    return ("the same guesses", "", -1, None) if j == len(theirs) else ("ours ended", "", -1, None)


def main() -> None:
    """Read the two results, replay the games only one player won, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=sorted(LEVELS), default="expert")
    parser.add_argument("--rules", choices=get_args(Rules), default="modern")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ours", required=True, help="bench_player.py --results of this code")
    parser.add_argument("--theirs", required=True, help="run.js's results (--messages: reasons)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--decisions",
        metavar="FILE",
        help="write each parting there, for bench_decisions.py --weigh",
    )
    args = parser.parse_args()
    with open(args.ours, encoding="utf-8") as f:
        ours = {r["index"]: bool(r["won"]) for r in map(json.loads, f)}
    with open(args.theirs, encoding="utf-8") as f:
        theirs = {r["index"]: r for r in map(json.loads, f)}
    split = sorted(i for i in theirs if i in ours and ours[i] != bool(theirs[i]["won"]))
    tasks = [(args.level, args.rules, args.seed, i, theirs[i]["guesses"]) for i in split]
    with ProcessPoolExecutor(args.jobs) as pool:
        reasons = list(pool.map(parting, tasks, chunksize=16))
    won: Counter[tuple[str, str, bool]] = Counter()
    for i, (mine, their, _, _) in zip(split, reasons, strict=True):
        won[(mine, their, ours[i])] += 1
    if args.decisions:
        with open(args.decisions, "w", encoding="utf-8") as out:
            for i, (mine, their, k, cell) in zip(split, reasons, strict=True):
                if cell is not None:
                    row = {"index": i, "guess": k, "b": cell}
                    row |= {"ours": mine, "theirs": their, "won_by_ours": ours[i]}
                    out.write(json.dumps(row) + "\n")
    print(f"{len(split)} games won by only one player; at the first parting:")
    print(f"{'ours':<20} {'JSMinesweeper':<16} {'only ours':>9} {'only theirs':>11}")
    for mine, their in sorted({key[:2] for key in won}):
        only_ours, only_theirs = won[(mine, their, True)], won[(mine, their, False)]
        print(f"{mine:<20} {their:<16} {only_ours:>9} {only_theirs:>11}")


if __name__ == "__main__":
    main()
