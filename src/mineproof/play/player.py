"""A player that plays a game to the end from what it sees: forced moves first, then a guess.

The player sees only the Position (opened numbers, its own flags, the mine total), never the
layout. Each turn it opens every cell the exact analysis proves safe and flags every proven
mine; when nothing is forced, the strategy picks a guess:

- ``logic`` stops (the game is reported stuck);
- ``safest`` opens a cell of lowest mine probability;
- ``best`` looks one move ahead among the nearly safest cells: for each number the cell can show,
  how likely that number is and whether the position it gives has a forced safe move; it opens
  the cell with the best chance to be safe *and* lead to progress. When at most 8 covered cells
  and 40 arrangements remain, it searches the rest of the game exactly and opens the cell that
  wins most often.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

from mineproof.analysis import Analysis, analyze
from mineproof.analysis.constraints import constraints_of, propagate
from mineproof.board import Board, Layout, iter_bits
from mineproof.errors import InconsistentPositionError
from mineproof.formats import format_layout_text
from mineproof.game import Game
from mineproof.position import COVERED, Position

__all__ = ["RULES", "GameResult", "Outcome", "Rules", "Strategy", "play_game"]

Strategy = Literal["logic", "safest", "best"]
Rules = Literal["classic", "modern"]
Outcome = Literal["won", "lost", "stuck"]

RULES: dict[str, tuple[tuple[int, int], Literal["safe", "opening"]]] = {
    "classic": ((0, 0), "safe"),
    "modern": ((3, 3), "opening"),
}
"""Benchmark rules: the first click and what it guarantees."""

_NEAR_SAFEST = 0.02  # candidates for ``best``: within this of the lowest probability
_CANDIDATES = 6
_ENDGAME_CELLS = 8  # exact end-game search from this many covered cells down
_ENDGAME_ARRANGEMENTS = 40


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended, how many guesses it took and how many cells were opened."""

    outcome: Outcome
    guesses: int
    opened: int


def play_game(
    board: Board,
    mines: int,
    rng: random.Random,
    rules: Rules = "classic",
    strategy: Strategy = "best",
    record: dict[str, Any] | None = None,
) -> GameResult:
    """Play one game of ``mines`` mines on ``board`` with ``rules`` and ``strategy``.

    The layout is drawn from ``rng`` after the first click's guarantee; the player never sees it.
    With ``record`` (a dict), the game is written into it: the layout, the start and every move
    with its reason (forced, and by what; or a guess and its mine probability) and the cells it
    opened, as :mod:`mineproof.play.replay` reads it.
    """
    start, guarantee = RULES[rules]
    if start[0] >= board.width or start[1] >= board.height:
        start = (0, 0)
    layout = Layout.random(board, mines, rng, start, guarantee)
    game = Game(layout)
    moves: list[dict[str, Any]] = []

    def move(action: str, i: int, reason: dict[str, Any]) -> None:
        xy = board.xy(i)
        if action == "flag":
            game.flag(*xy)
            opened: list[int] = []
        else:
            opened = game.reveal(*xy)
        if record is not None:
            moves.append(
                {
                    "action": action,
                    "cell": list(xy),
                    "opened": [list(board.xy(c)) for c in opened],
                    "reason": reason,
                }
            )

    move("open", board.index(*start), {"kind": "start"})
    guesses = 0
    outcome: Outcome = "stuck"
    while game.state == "playing":
        position = game.position()
        safe, mine = _forced(position)
        by = "one clue"
        if not safe:
            analysis = analyze(position, trust_flags=True)
            safe, mine = analysis.safe_mask, mine | analysis.mine_mask
            by = "exact analysis"
        for i in iter_bits(mine & ~game.flag_mask):
            move("flag", i, {"kind": "forced", "by": by})
        if safe:
            for i in iter_bits(safe):
                if game.state == "playing" and not game.opened_mask >> i & 1:
                    move("open", i, {"kind": "forced", "by": by})
            continue
        if strategy == "logic":
            break
        cell = _safest(analysis) if strategy == "safest" else _best(analysis, rng)
        guesses += 1
        p = analysis.mine_counts[cell] / analysis.arrangements
        move("open", cell, {"kind": "guess", "probability": p, "strategy": strategy})
    if game.state != "playing":
        outcome = "won" if game.state == "won" else "lost"
    if record is not None:
        record.update(
            {
                "width": board.width,
                "height": board.height,
                "mines": mines,
                "rules": rules,
                "strategy": strategy,
                "layout": format_layout_text(layout).splitlines()[1:],
                "start": list(start),
                "outcome": outcome,
                "moves": moves,
            }
        )
    return GameResult(outcome, guesses, game.opened_mask.bit_count())


def _forced(position: Position) -> tuple[int, int]:
    """Return the cells one-clue propagation proves safe or mined (cheap, tried first)."""
    return propagate(constraints_of(position, trust_flags=True).clues)[:2]


def _choices(analysis: Analysis) -> list[tuple[int, int]]:
    """Return (mine count, cell) for every covered cell that is not flagged."""
    flags = analysis.position.flag_mask
    return sorted(
        (n, i) for i, n in enumerate(analysis.mine_counts) if n >= 0 and not flags >> i & 1
    )


def _safest(analysis: Analysis) -> int:
    """Return a cell of lowest mine probability (the lowest index among equals)."""
    return _choices(analysis)[0][1]


def _endgame(analysis: Analysis) -> int | None:
    """Return the guess that wins most often, by exact search, when few cells remain.

    Only when at most ``_ENDGAME_CELLS`` covered cells and ``_ENDGAME_ARRANGEMENTS``
    arrangements are left; otherwise None.
    """
    position = analysis.position
    if analysis.arrangements > _ENDGAME_ARRANGEMENTS:
        return None
    unknown = position.covered_mask & ~position.flag_mask
    cells = iter_bits(unknown)
    if len(cells) > _ENDGAME_CELLS:
        return None
    left = position.mines - position.flag_count
    clues = constraints_of(position, trust_flags=True).clues
    arrangements = []
    for chosen in combinations(cells, left):
        mask = sum(1 << c for c in chosen)
        if all((mask & clue.mask).bit_count() == clue.mines for clue in clues):
            arrangements.append(mask)
    masks = position.board.neighbour_masks()
    memo: dict[tuple[tuple[int, ...], int], float] = {}

    def win(states: tuple[int, ...], opened: int) -> float:
        """Chance to win from here: ``states`` the arrangements left, ``opened`` our reveals."""
        key = (states, opened)
        if key in memo:
            return memo[key]
        always = unknown & ~opened
        for m in states:
            always &= m
        if all(unknown & ~opened & ~m == 0 for m in states):
            memo[key] = 1.0  # every safe cell is open: the game is won
            return 1.0
        best = 0.0
        for c in iter_bits(unknown & ~opened & ~always):
            groups: dict[int, list[int]] = {}
            for m in states:
                if not m >> c & 1:
                    groups.setdefault((m & masks[c]).bit_count(), []).append(m)
            value = sum(
                len(g) / len(states) * win(tuple(g), opened | 1 << c) for g in groups.values()
            )
            best = max(best, value)
        memo[key] = best
        return best

    states = tuple(arrangements)
    best_cell = None
    best_value = -1.0
    for c in cells:
        groups: dict[int, list[int]] = {}
        for m in states:
            if not m >> c & 1:
                groups.setdefault((m & masks[c]).bit_count(), []).append(m)
        value = sum(len(g) / len(states) * win(tuple(g), 1 << c) for g in groups.values())
        if value > best_value + 1e-12:
            best_cell, best_value = c, value
    return best_cell


def _best(analysis: Analysis, rng: random.Random) -> int:
    """Return the nearly-safest cell whose reveal most likely leads to a forced safe move.

    When few cells remain, the cell that wins most often, found by exact search.
    """
    exact = _endgame(analysis)
    if exact is not None:
        return exact
    choices = _choices(analysis)
    total = analysis.arrangements
    lowest = choices[0][0]
    near = [(n, i) for n, i in choices if (n - lowest) / total <= _NEAR_SAFEST]
    if len(near) == 1:
        return near[0][1]
    # Prefer cells on the frontier and near opened cells first: they tell the most.
    position = analysis.position
    candidates = sorted(near, key=lambda c: (c[0], -_opened_neighbours(position, c[1])))
    # Corners have the fewest neighbours, so the best chance to show a 0 and open an area:
    # always weigh the nearly-safest ones too, however far from the opened cells.
    board = position.board
    corners = {0, board.width - 1, board.size - board.width, board.size - 1}
    shortlist = candidates[:_CANDIDATES]
    shortlist += [c for c in candidates[_CANDIDATES:] if c[1] in corners]
    best_cell = candidates[0][1]
    best_score = -1.0
    for n, cell in shortlist:
        safe_weight = total - n
        if not safe_weight:
            continue
        progress = 0
        for value in range(len(position.board.neighbours(cell)) + 1):
            cells = list(position.cells)
            cells[cell] = value
            try:
                after = analyze(Position(position.board, tuple(cells), position.mines), True)
            except InconsistentPositionError:
                continue
            if after.safe_mask:
                progress += after.arrangements
        score = safe_weight / total * (0.5 + progress / safe_weight) / 1.5
        if score > best_score:
            best_cell, best_score = cell, score
    del rng
    return best_cell


def _opened_neighbours(position: Position, cell: int) -> int:
    return sum(position.cells[n] != COVERED for n in position.board.neighbours(cell))
