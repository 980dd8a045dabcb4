"""A player that plays a game to the end from what it sees: forced moves first, then a guess.

The player sees only the Position (opened numbers, its own flags, the mine total), never the
layout. Each turn it opens every cell the exact analysis proves safe and flags every proven
mine; when nothing is forced, the strategy picks a guess:

- ``logic`` stops (the game is reported stuck);
- ``safest`` opens a cell of lowest mine probability;
- ``best`` looks one move ahead among the nearly safest cells (and a few cells no clue sees):
  for each number the cell can show, how likely that number is and how safe the best next move
  of the position it gives is; it opens the cell with the best chance to survive both, leaving
  dead cells (that can show only one number) for last (see :mod:`mineproof.play.lookahead`).
  When at most 1,000 arrangements remain, it searches the rest of the game exactly and opens the
  cell that wins most often (see :mod:`mineproof.play.endgame`); the same search solves first
  a closed region that no cell outside it can decide (see :func:`isolated_region`). An
  unavoidable 50/50 (cells whose mines lie one of two ways that no number still to come can
  tell apart, see :mod:`mineproof.play.fifty`) is taken first: it must be guessed some time,
  and a game lost on it is better lost before the work of the rest. So is, past the end game,
  a pseudo 50/50: a cell that is either safe or the mine of a pair, or a larger swap of
  cells, that no number can decide (see :mod:`mineproof.play.pseudo`; of several, the safest,
  then the best one move ahead). The cells weighed one move ahead include those that the
  likelier 50/50s in waiting of the board lift near the safest (see :func:`_influenced`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Literal

from mineproof.analysis import Analysis, CountTooLarge, analyze, counting_budget
from mineproof.analysis.constraints import cells_seen, condition, constraints_of
from mineproof.board import Board, Layout, iter_bits
from mineproof.errors import ArgumentError, IllegalMoveError
from mineproof.formats import format_layout_text
from mineproof.game import Game
from mineproof.logic import one_clue_closure
from mineproof.play.config import DEFAULT, GuessConfig
from mineproof.play.endgame import EndgameSearch, arrangements, isolated_regions
from mineproof.play.fifty import unavoidable_fifty_fifties
from mineproof.play.lookahead import Lookahead, Score
from mineproof.play.pseudo import safe_or_fifty
from mineproof.position import Position

__all__ = [
    "RULES",
    "STRATEGIES",
    "BestGuess",
    "GameResult",
    "GuessReason",
    "LookaheadWhy",
    "Outcome",
    "Rules",
    "Strategy",
    "best_guess",
    "choose_guess",
    "deal",
    "lookahead_why",
    "opening_chance",
    "opening_corner",
    "play_game",
    "play_on",
]

Strategy = Literal["logic", "safest", "best"]
Rules = Literal["classic", "modern"]
Outcome = Literal["won", "lost", "stuck"]

STRATEGIES: tuple[Strategy, ...] = ("logic", "safest", "best")
"""The strategies, as :data:`Strategy` names them."""

RULES: dict[str, tuple[tuple[int, int], Literal["safe", "opening"]]] = {
    "classic": ((0, 0), "safe"),
    "modern": ((3, 3), "opening"),
}
"""Benchmark rules: the first click and what it guarantees."""

GUESS_WORK = 4_000_000
"""The counting work one :func:`best_guess` may spend weighing its candidates (about half a
second here; an expert position needs a few thousand): past it, it raises
:class:`~mineproof.analysis.CountTooLarge` and the player opens the safest cell instead."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended, how many guesses it took and how many cells were opened."""

    outcome: Outcome
    guesses: int
    opened: int

    def __reduce__(self) -> tuple[type[GameResult], tuple[Outcome, int, int]]:
        """Return how pickle rebuilds the result (from the worker processes of a benchmark):
        compiled by mypyc, a frozen dataclass cannot be restored field by field."""
        return (GameResult, (self.outcome, self.guesses, self.opened))


def play_game(
    board: Board,
    mines: int,
    rng: random.Random,
    rules: Rules = "classic",
    strategy: Strategy = "best",
    record: dict[str, Any] | None = None,
    config: GuessConfig = DEFAULT,
) -> GameResult:
    """Play one game of ``mines`` mines on ``board`` with ``rules`` and ``strategy``.

    The layout is drawn from ``rng`` after the first click's guarantee; the player never sees it.
    With ``record`` (a dict), the game is written into it: the layout, the start and every move
    with its reason (forced, and by what; or a guess and its mine probability) and the cells it
    opened, as :mod:`mineproof.play.replay` reads it. ``config`` tunes the ``best`` strategy (a
    variant to measure against :data:`~mineproof.play.config.DEFAULT`).

    Raises ``ArgumentError`` for unknown ``rules`` or ``strategy``, and when the mines do not
    fit the board with the first click's guarantee.
    """
    _check_strategy(strategy)
    start, layout = deal(board, mines, rng, rules)
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
    result = _play_on(game, strategy, config, move)
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
                "outcome": result.outcome,
                "moves": moves,
            }
        )
    return result


def play_on(game: Game, strategy: Strategy = "best", config: GuessConfig = DEFAULT) -> GameResult:
    """Play ``game`` on from where it stands, as :func:`play_game` plays, to its end.

    Returns the outcome ("stuck" when the ``logic`` strategy has no forced move), the guesses
    made here and the cells open at the end. ``game``'s flags must be on mines (the player
    trusts them), as the player's own are. Raises ``IllegalMoveError`` on a game already over,
    ``ArgumentError`` for an unknown ``strategy``.
    """
    _check_strategy(strategy)
    board = game.board

    def move(action: str, i: int, reason: dict[str, Any]) -> None:
        if action == "flag":
            game.flag(*board.xy(i))
        else:
            game.reveal(*board.xy(i))

    if game.state != "playing":
        raise IllegalMoveError(f"the game is over ({game.state})")
    return _play_on(game, strategy, config, move)


def _play_on(
    game: Game,
    strategy: Strategy,
    config: GuessConfig,
    move: Callable[[str, int, dict[str, Any]], None],
) -> GameResult:
    """Return the result of playing ``game`` to its end, each move made through ``move``
    (action, cell, reason)."""
    guesses = 0
    outcome: Outcome = "stuck"
    seen = 0  # the cells open or flagged when the numbers were last looked at
    while game.state == "playing":
        position = game.position()
        now = game.opened_mask | game.flag_mask
        safe, mine = _forced(position, now & ~seen)
        seen = now
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
        cell = choose_guess(analysis, strategy, config)
        guesses += 1
        p = analysis.mine_counts[cell] / analysis.arrangements
        move("open", cell, {"kind": "guess", "probability": p, "strategy": strategy})
    if game.state != "playing":
        outcome = "won" if game.state == "won" else "lost"
    return GameResult(outcome, guesses, game.opened_mask.bit_count())


def _check_strategy(strategy: str) -> None:
    """Raise ``ArgumentError`` when ``strategy`` is not one of :data:`STRATEGIES`."""
    if strategy not in STRATEGIES:
        raise ArgumentError(
            f"unknown strategy {strategy!r} (choose one of {', '.join(STRATEGIES)})",
            name="strategy",
        )


def deal(
    board: Board, mines: int, rng: random.Random, rules: Rules
) -> tuple[tuple[int, int], Layout]:
    """Return the first click of ``rules`` on ``board`` and a layout drawn from ``rng`` that keeps
    its guarantee: the start cell ``(x, y)`` (the corner on boards too small for the rule's own)
    and a uniformly random layout of ``mines`` mines.

    :func:`play_game` deals each game with it, so another player can be dealt the same games
    (``benchmarks/bench_player.py --layouts``). Raises ``ArgumentError`` when the mines do not
    fit or for unknown ``rules``.
    """
    if rules not in RULES:
        raise ArgumentError(
            f"unknown rules {rules!r} (choose one of {', '.join(RULES)})", name="rules"
        )
    start, guarantee = RULES[rules]
    if start[0] >= board.width or start[1] >= board.height:
        start = (0, 0)
    return start, Layout.random(board, mines, rng, start, guarantee)


def choose_guess(
    analysis: Analysis, strategy: Strategy = "best", config: GuessConfig = DEFAULT
) -> int:
    """Return the cell the player opens when nothing is forced in ``analysis``'s position: with
    ``safest`` a cell of lowest mine probability; with ``best`` :func:`best_guess`'s cell, or
    the safest when weighing the candidates would pass its budget. Raises ``ValueError`` for
    the ``logic`` strategy, which never guesses, ``ArgumentError`` for an unknown one."""
    _check_strategy(strategy)
    if strategy == "logic":
        raise ValueError("the logic strategy never guesses")
    if strategy == "safest":
        return _safest(analysis)
    try:
        return best_guess(analysis, config=config).cell
    except CountTooLarge:
        return _safest(analysis)


def _forced(position: Position, changed: int) -> tuple[int, int]:
    """Return the cells one clue at a time proves safe or mined (level 1 of the kernel, again
    and again: cheap, tried first); the exact analysis decides the rest.

    Only the numbers next to ``changed`` (the cells opened or flagged since the last look) and
    next to the cells those settle are looked at, which gives the closure of all the numbers:
    the player looks after every move and plays all it finds (the exact analysis finds more),
    so a number none of whose neighbours changed or was settled forces nothing.
    """
    board = position.board
    region = changed
    while True:
        safe, mine = one_clue_closure(constraints_of(position, trust_flags=True, near=region).clues)
        grown = region | safe | mine
        if not board.dilate(grown) & ~board.dilate(region) & position.number_mask:
            return safe, mine
        region = grown


def _choices(analysis: Analysis) -> list[tuple[int, int]]:
    """Return (mine count, cell) for every covered cell that is not flagged."""
    flags = analysis.position.flag_mask
    return sorted(
        (n, i) for i, n in enumerate(analysis.mine_counts) if n >= 0 and not flags >> i & 1
    )


def _safest(analysis: Analysis) -> int:
    """Return a cell of lowest mine probability (the lowest index among equals)."""
    return _choices(analysis)[0][1]


def _endgame(
    analysis: Analysis, config: GuessConfig = DEFAULT, among: int = -1
) -> tuple[int, float] | None:
    """Return the guess of the mask ``among`` (any cell by default) that wins most often and
    its chance to win, by exact search, when few arrangements remain.

    Only when at most ``config.endgame_arrangements`` arrangements are left and the search fits
    its budget of work (see :mod:`mineproof.play.endgame`); otherwise None.
    """
    found = _whole_board(analysis, config)
    return None if found is None else found[0].best_cell(found[1], among)


def _whole_board(
    analysis: Analysis, config: GuessConfig
) -> tuple[EndgameSearch, tuple[int, ...]] | None:
    """Return the exact search of the whole board and its arrangements when at most
    ``config.endgame_arrangements`` remain, otherwise None."""
    limit = config.endgame_arrangements
    if analysis.arrangements > limit:
        return None
    position = analysis.position
    cons = constraints_of(position, trust_flags=True)
    states = arrangements(cons.unknown, cons.mines, cons.clues, limit)
    if states is None:
        return None
    masks = position.board.neighbour_masks()
    return EndgameSearch(masks, iter_bits(cons.unknown), config.endgame_budget), tuple(states)


GuessReason = Literal[
    "fifty-fifty", "endgame", "region", "pseudo-fifty-fifty", "opening", "lookahead"
]
"""Why :func:`best_guess` chose its cell: an unavoidable 50/50 that must be guessed some
time (taken now), the exact search of the end game (the cell that wins most often), the exact
search of a closed region no cell outside can decide (its cell that clears it most often,
taken now: see :func:`isolated_region`), a cell that is
safe or the mine of a 50/50 no number can decide (taken now: it loses only where that coin was
bound to come), a far corner while only corners' numbers are open (see
:func:`opening_corner`), or the look one move ahead (the best chance to survive the guess and
the move after it)."""


@dataclass(frozen=True, slots=True)
class BestGuess:
    """The guess the ``best`` strategy makes: the cell, why, and for the end game (and an
    unavoidable 50/50 where the end game's search was affordable) the chance to win the game
    from here with the best play, for a closed region the chance to clear the region (``None``
    otherwise)."""

    cell: int
    reason: GuessReason
    win: float | None = None


def best_guess(
    analysis: Analysis, work: int = GUESS_WORK, config: GuessConfig = DEFAULT
) -> BestGuess:
    """Return the guess with the best chance to survive it and the move after it.

    An unavoidable 50/50 first (see :func:`~mineproof.play.fifty.unavoidable_fifty_fifties`:
    of the first chain, the cell that wins most often by the end game's exact search when few
    arrangements remain, otherwise the cell the look one move ahead ranks best; with
    ``config.chains`` off, an isolated pair only, see :func:`isolated_fifty_fifty`). When few
    cells remain, the cell
    that wins most often, found by exact search; then the cell that best clears a closed
    region (see :func:`isolated_region`). Then a pseudo 50/50 (see
    :func:`~mineproof.play.pseudo.safe_or_fifty`: the safest, then the best one move ahead).
    Otherwise each candidate (see :func:`_candidates` and :func:`_influenced`) is weighed by
    :meth:`Lookahead.score`: living cells before dead ones, then secondary safety, then
    progress and expected clears.
    ``analysis`` is of a position where nothing is forced (flags trusted). Raises
    ``ValueError`` when no covered cell is left and
    :class:`~mineproof.analysis.CountTooLarge` past ``work`` units of counting. ``config``
    tunes the weighing (see :class:`~mineproof.play.config.GuessConfig`).
    """
    with counting_budget(work):
        return _best_guess(analysis, config)


def _best_guess(analysis: Analysis, config: GuessConfig) -> BestGuess:
    """Return :func:`best_guess` without its budget."""
    if config.chains:
        chains = unavoidable_fifty_fifties(analysis)
        if chains:
            # Where the end game's search is affordable, the chain's cell that wins most often
            # (in a chain, the numbers its cells may show differ); otherwise the look ahead's.
            exact = _endgame(analysis, config, chains[0])
            if exact is not None:
                return BestGuess(exact[0], "fifty-fifty", exact[1])
            look = Lookahead(analysis, config)
            scores = [look.score(cell) for cell in iter_bits(chains[0])]
            return BestGuess(max(scores, key=Score.key).cell, "fifty-fifty")
    else:
        coin = isolated_fifty_fifty(analysis)
        if coin is not None:
            return BestGuess(coin, "fifty-fifty")
    exact = _endgame(analysis, config)
    if exact is not None:
        return BestGuess(exact[0], "endgame", exact[1])
    if config.regions:
        region = isolated_region(analysis, config)
        if region is not None:
            return BestGuess(region[0], "region", region[1])
    if config.opening_corner:
        corner = opening_corner(analysis)
        if corner is not None:
            return BestGuess(corner, "opening")
    if config.pseudo:
        found = safe_or_fifty(analysis, constraints_of(analysis.position, trust_flags=True))
        if found:
            counts = analysis.mine_counts
            fewest = min(counts[c] for c in found)
            look = Lookahead(analysis, config)
            scores = [look.score(c) for c in found if counts[c] == fewest]
            return BestGuess(max(scores, key=Score.key).cell, "pseudo-fifty-fifty")
    if not any(n >= 0 for n in analysis.mine_counts):
        raise ValueError("no covered cell is left to guess")
    look = Lookahead(analysis, config)
    candidates = _candidates(analysis, look, config)
    best = _weigh(look, candidates, None)
    assert best is not None
    if config.influenced and not best.dead:
        # Should the work run out on the board's scan or on these extra cells, the best found
        # so far stands.
        with suppress(CountTooLarge):
            best = _weigh(look, _influenced(analysis, look, candidates, config), best) or best
    return BestGuess(best.cell, "lookahead")


LookaheadWhy = Literal["survival", "long-term", "progress", "weighed"]
"""What decided a pick of the look one move ahead (see :func:`lookahead_why`)."""


def lookahead_why(
    analysis: Analysis, cell: int, work: int = GUESS_WORK, config: GuessConfig = DEFAULT
) -> tuple[LookaheadWhy, bool, int | None]:
    """Return what made :func:`best_guess` pick ``cell`` by the look one move ahead (its reason
    ``lookahead``), whether ``cell`` is among the nearly safest cells it weighs (see
    :func:`_candidates`; otherwise a cell that the likelier 50/50s in waiting lifted, see
    :func:`_influenced`), and the cell that gives a better chance to survive the guess and the
    move after it, if any.

    The pick is the cell of highest weight (:meth:`Lookahead.score`): its secondary safety
    raised by its long-term risk factor and by the progress bonus. Every weighed cell is scored
    here in full (the pick prunes), so this is for explaining a pick, not for playing. The first
    item is ``survival`` when no weighed cell (living, when ``cell`` is) has a higher secondary
    safety, ``long-term`` when one has but ``cell``'s long-term risk factor outweighs it (it is
    likelier to settle a 50/50 in waiting, so less likely to leave one behind it), ``progress``
    when the progress bonus decides, and ``weighed`` when that cannot be told within ``work``
    units of counting, when a dead cell (that can show only one number) is the one that survives
    better, or when ``cell`` is not one the look ahead weighs.
    """
    near: list[int] = []
    try:
        with counting_budget(work):
            look = Lookahead(analysis, config)
            near = _candidates(analysis, look, config)
            scores = [look.score(c) for c in near]
            if config.influenced and any(not sc.dead for sc in scores):
                # As best_guess weighs them: only beside a living cell of the nearly safest.
                scores += [look.score(c) for c in _influenced(analysis, look, near, config)]
            factors = {sc.cell: look.factor(sc.cell) for sc in scores}
    except CountTooLarge:
        return "weighed", cell in near, None
    if cell not in factors:
        return "weighed", cell in near, None
    mine = next(sc for sc in scores if sc.cell == cell)
    better = [sc for sc in scores if sc.secondary > mine.secondary]
    if not better:
        return "survival", cell in near, None
    rival = max(better, key=lambda sc: (sc.secondary, -sc.cell))
    if rival.dead and not mine.dead:
        return "weighed", cell in near, None  # a dead cell survives better, but tells nothing
    if mine.secondary * factors[cell] >= rival.secondary * factors[rival.cell]:
        return "long-term", cell in near, rival.cell
    return "progress", cell in near, rival.cell


def _weigh(look: Lookahead, cells: list[int], best: Score | None) -> Score | None:
    """Return the best of ``best`` and the scores of ``cells`` (by :meth:`Score.key`).

    The cells are weighed in the order of their reach (:meth:`Lookahead.reach`), the highest
    first, so that the best weight found so far soon bounds the rest; once a cell's reach is
    within that bound, so are all the cells after it, and the weighing stops. The result is
    the one weighing every cell in full would give, but for exact ties of weight and for a
    budget that runs out (the order of the work decides where). With a
    ``best`` given, running out of counting work ends the weighing with the best found so
    far; without one, :class:`~mineproof.analysis.CountTooLarge` is raised.
    """
    spare = best is not None
    try:
        reach = {cell: look.reach(cell) for cell in cells}
        for cell in sorted(cells, key=lambda c: -reach[c]):
            bound = best.weight if best is not None and not best.dead else -1.0
            if reach[cell] <= bound:
                break
            score = look.score(cell, bound)
            if score.pruned:
                continue
            if best is None or score.key() > best.key():
                best = score
    except CountTooLarge:
        if not spare:
            raise
    return best


def _influenced(
    analysis: Analysis, look: Lookahead, candidates: list[int], config: GuessConfig
) -> list[int]:
    """Return the cells outside ``candidates`` that the likelier 50/50s in waiting of the board
    (:meth:`Lookahead.board_risk`) lift within ``config.cut_off`` of the best chance to be safe,
    counting the arrangements of those 50/50s as safe (JSMinesweeper's ``getInfluencedTiles``),
    in the order of their index."""
    counts = analysis.mine_counts
    total = analysis.arrangements
    most_safe = total - min(n for n in counts if n >= 0)  # the safest cell's safe arrangements
    taken = set(candidates)
    return [
        cell
        for cell, risk in sorted(look.board_risk().items())
        if cell not in taken
        and 0 < counts[cell] < total
        and (total - counts[cell] + risk) / most_safe > config.cut_off  # int / int: any size
    ]


def isolated_region(analysis: Analysis, config: GuessConfig = DEFAULT) -> tuple[int, float] | None:
    """Return the cell that most often clears a region no cell outside it can decide, and that
    chance, or None.

    A region of unknown cells that clues link together, that no other unknown cell borders
    and whose arrangements all hold the same number of mines (see
    :func:`~mineproof.play.endgame.isolated_regions`) is independent of the rest of the
    board: it must be played some time, the rest can tell nothing about it, and it tells
    nothing about the rest. Its best move is found by the exact search over its own
    arrangements (at most ``config.endgame_arrangements`` of them, within
    ``config.endgame_budget``), which is affordable long before the whole board's is; played
    now, the rest of the game has fewer arrangements, so the exact end game takes over
    sooner. The smallest region that can be searched is taken; None when there is none.
    """
    for search, states in _closed_regions(analysis, config):
        best = search.best_cell(states)
        if best is not None:
            return best
    return None


def _closed_regions(
    analysis: Analysis, config: GuessConfig
) -> Iterator[tuple[EndgameSearch, tuple[int, ...]]]:
    """Yield the exact search of every closed region that :func:`isolated_region` can search
    (two arrangements or more, at most ``config.endgame_arrangements``, the same number of
    mines in each) and its arrangements, smallest first."""
    position = analysis.position
    cons = constraints_of(position, trust_flags=True)
    found = analysis.mine_mask & cons.unknown
    if found:
        cons = condition(cons, found, 0)
    masks = position.board.neighbour_masks()
    limit = config.endgame_arrangements
    for region in isolated_regions(cons.unknown, cons.clues, masks):
        states: list[int] = []
        for k in range(region.mask.bit_count() + 1):
            got = arrangements(region.mask, k, region.clues, limit)
            if got is None or (got and states):
                states = []  # too many arrangements, or not the same number of mines in each
                break
            states = states or got
        if len(states) >= 2:
            yield EndgameSearch(masks, iter_bits(region.mask), config.endgame_budget), tuple(states)


def opening_chance(
    analysis: Analysis, best: BestGuess, cell: int, config: GuessConfig = DEFAULT
) -> float | None:
    """Return the chance ``best.win`` measures, with ``cell`` opened first instead of
    ``best.cell``: the chance to win the game (reason ``endgame``, or ``fifty-fifty`` weighed
    by the end game's search), or to clear the closed region of ``best.cell`` (reason
    ``region``, when ``cell`` is in it), so that a cell as good as the best one can be told
    from a worse one. None for other reasons, for a cell that search does not weigh (outside
    the region), or past the search's budget.
    """
    searches: Iterable[tuple[EndgameSearch, tuple[int, ...]]]
    if best.reason == "endgame" or (best.reason == "fifty-fifty" and best.win is not None):
        found = _whole_board(analysis, config)
        searches = [] if found is None else [found]
    elif best.reason == "region":
        searches = _closed_regions(analysis, config)  # listed only up to best.cell's region
    else:
        return None
    for search, states in searches:
        if best.cell in search.cells:
            return search.chance(states, cell) if cell in search.cells else None
    return None


def opening_corner(analysis: Analysis) -> int | None:
    """Return the corner to open while the only opened cells are corners showing numbers, or
    None.

    Every covered cell that does not touch those numbers is then equally likely to be a mine;
    of those, a corner has the fewest neighbours, so it is the likeliest to open new ground,
    and a corner is where a 50/50 most often forms later. On secondary safety alone the look
    one move ahead prefers a cell two steps from a number (on expert, after a 1, it rates that
    cell's next move a little safer), but played out, the corner wins more: on 20,000 paired
    expert games of the classic rules, the first such guess at a far corner won 757 games only
    it won against 670 (sign test p = 0.02), and the second (after two corner numbers) 370
    against 347 in 14,000 (p = 0.41, kept with JSMinesweeper's weighing, which favours it too).
    Returns, of the corners that are covered, unflagged and not beside an
    opened one, the one of lowest mine probability (the lowest index among equals).
    """
    position = analysis.position
    board = position.board
    opened = board.full_mask & ~position.covered_mask
    w, h = board.width, board.height
    corners = sorted({0, w - 1, (h - 1) * w, h * w - 1})
    corner_mask = 0
    for c in corners:
        corner_mask |= 1 << c
    if not opened or opened & ~corner_mask or opened & ~position.number_mask:
        return None
    masks = board.neighbour_masks()
    near = 0
    for c in corners:
        if opened >> c & 1:
            near |= masks[c]
    counts = analysis.mine_counts
    free = position.covered_mask & ~position.flag_mask & ~near
    far = [c for c in corners if free >> c & 1 and 0 <= counts[c] < analysis.arrangements]
    if not far:
        return None
    return min(far, key=lambda c: (counts[c], c))


def isolated_fifty_fifty(analysis: Analysis) -> int | None:
    """Return a cell of an isolated 50/50, or None when there is none.

    Cells ``a`` and ``b`` form one when an opened number needs exactly one more mine among its
    covered cells, which are just ``a`` and ``b``; every neighbour of ``a`` and ``b`` is opened,
    a known mine, or the other cell; and every number beside them sees no other unknown cell.
    Then exactly one of them is a mine in every arrangement, each with probability 1/2, and
    no cell opened later can border them: the guess is unavoidable and independent of the rest
    of the game. Returns the lower index of the first such pair found.
    """
    position = analysis.position
    cells = position.cells
    masks = position.board.neighbour_masks()
    known = analysis.mine_mask | position.flag_mask  # the player flags only proven mines
    unknown = position.covered_mask & ~known
    for i in iter_bits(position.number_mask):
        open_near = masks[i] & unknown
        if open_near.bit_count() != 2:
            continue
        if cells[i] - (masks[i] & known).bit_count() != 1:
            continue
        pair = open_near
        # No covered unknown cell borders the pair but the pair itself...
        border = 0
        for c in iter_bits(pair):
            border |= masks[c]
        border &= ~pair
        if border & unknown:
            continue
        # ...and no number beside the pair sees another unknown cell.
        if any(masks[n] & unknown & ~pair for n in iter_bits(border & position.number_mask)):
            continue
        return (pair & -pair).bit_length() - 1
    return None


def _candidates(analysis: Analysis, look: Lookahead, config: GuessConfig = DEFAULT) -> list[int]:
    """Return the cells worth weighing one move ahead, safest first.

    Cells some clue sees, whose chance to be safe is within ``config.cut_off`` of the best; and when
    the cells no clue sees are about as safe, a few of those (they all share one probability):
    all of them when few, otherwise those two cells straight away from a number (their reveal
    may link up with it) and those with few covered neighbours (corners: likely zeros), the
    first ``config.off_edge_most`` of them in reading order.
    """
    position = analysis.position
    counts = analysis.mine_counts
    total = analysis.arrangements
    flags = position.flag_mask
    frontier = cells_seen(look.constraints.clues)
    unknown = look.constraints.unknown & ~analysis.mine_mask
    lowest = min(counts[i] for i in iter_bits(unknown))
    best_safety = 1 - lowest / total
    on_edge = [
        (counts[i], i)
        for i in iter_bits(unknown & frontier)
        if 1 - counts[i] / total >= best_safety * config.cut_off
    ]
    on_edge.sort()
    cells = [i for _, i in on_edge[: config.candidates]]
    off = unknown & ~frontier
    if off:
        off_safety = 1 - counts[(off & -off).bit_length() - 1] / total
        if off_safety >= best_safety * config.cut_off:
            cells += _off_edge(position, off, flags, config.off_edge_all)[: config.off_edge_most]
    cells.sort(key=lambda i: (counts[i], i))
    return cells


def _off_edge(position: Position, off: int, flags: int, every: int) -> list[int]:
    """Return the cells no clue sees that are worth weighing (see :func:`_candidates`): all of
    them when there are at most ``every``."""
    board = position.board
    if off.bit_count() <= every:
        return iter_bits(off)
    masks = board.neighbour_masks()
    covered = position.covered_mask & ~flags
    chosen = 0
    w = board.width
    for i in iter_bits(board.full_mask & ~position.covered_mask):
        if not masks[i] & covered:
            continue  # a number with no covered neighbour left
        x, y = board.xy(i)
        for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < board.height:
                chosen |= 1 << (ny * w + nx)
    for i in iter_bits(off & ~chosen):
        if 1 < (masks[i] & covered).bit_count() < 4:
            chosen |= 1 << i
    return iter_bits(chosen & off)
