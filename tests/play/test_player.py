"""The player and the benchmark: logic never loses, results do not depend on jobs."""

from __future__ import annotations

import contextlib
import json
import random

import pytest

from mineproof.analysis import CountTooLarge, analyze, clear_cache, counting_budget
from mineproof.analysis.constraints import cells_seen, constraints_of
from mineproof.board import Board, Layout, iter_bits
from mineproof.cli import main
from mineproof.errors import ArgumentError, IllegalMoveError
from mineproof.game import Game
from mineproof.logic import one_clue_closure
from mineproof.play import (
    BenchRequest,
    Rules,
    Strategy,
    choose_guess,
    deal,
    play_game,
    play_on,
    run_bench,
    wilson,
)
from mineproof.play.config import GuessConfig
from mineproof.play.lookahead import Lookahead, Score
from mineproof.play.player import (
    _candidates,
    _forced,
    _safest,
    _weigh,
    best_guess,
    opening_corner,
)
from mineproof.position import Position

from .conftest import StuckPositions


@pytest.mark.parametrize("rules", ["classic", "modern"])
def test_logic_player_never_loses(rules: Rules) -> None:
    for seed in range(150):
        result = play_game(Board(9, 9), 10, random.Random(seed), rules, "logic")
        assert result.outcome in ("won", "stuck") and result.guesses == 0


def test_guessing_players_finish_every_game() -> None:
    strategies: list[Strategy] = ["safest", "best"]
    for strategy in strategies:
        outcomes = [
            play_game(Board(8, 8), 10, random.Random(s), "classic", strategy).outcome
            for s in range(40)
        ]
        assert set(outcomes) <= {"won", "lost"} and "won" in outcomes


def test_safest_takes_a_lowest_probability_cell() -> None:
    # The 1 at B2 has one mine among its 8 neighbours (1/8 each); the other 7 cells share the
    # second mine (1/7 each): the safest cells are B2's neighbours.
    position = Position.parse("4x4x2\nHHHH\nH1HH\nHHHH\nHHHH")
    cell = _safest(analyze(position, trust_flags=True))
    assert cell in position.board.neighbours(position.board.index(1, 1))


def test_same_seed_same_result_whatever_the_jobs() -> None:
    request = BenchRequest(Board(9, 9), 10, "classic", "best", seed=3)
    one = run_bench(request, 60, jobs=1)
    two = run_bench(request, 60, jobs=2)
    assert (one.games, one.wins, one.losses, one.guesses) == (
        two.games,
        two.wins,
        two.losses,
        two.guesses,
    )
    other = run_bench(BenchRequest(Board(9, 9), 10, "classic", "best", seed=4), 60)
    assert other.games == 60


def test_wilson_interval() -> None:
    low, high = wilson(412, 1000)
    assert 0.381 < low < 0.382 and 0.442 < high < 0.443
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_cli_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["bench", "--level", "beginner", "--games", "30", "--seed", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert set(data) >= {"games", "wins", "win_rate", "ci95", "guesses_per_game"}
    assert data["games"] == 30 and data["ci95"][0] <= data["win_rate"] <= data["ci95"][1]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--width", "5", "--height", "5", "--mines", "25"], "--mines: 25 mines cannot fit"),
        (["--level", "expert", "--games", "0"], "--games: 0 is outside"),
    ],
)
def test_cli_bench_bad_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    with pytest.raises(SystemExit) if "--games" in argv else contextlib.nullcontext():
        assert main(["bench", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


def test_best_weighs_far_corners_after_a_number_in_the_corner() -> None:
    # The first click at A1 showed a 1: its three neighbours hold a mine (1/3 each), every other
    # cell is safer. The candidates are the cells two steps from the 1 and the corners (likely
    # zeros); a corner survives the guess and the next one most often.
    position = Position.parse("16x16x40\n1" + "H" * 15 + ("\n" + "H" * 16) * 15)
    analysis = analyze(position, trust_flags=True)
    board = position.board
    cells = {board.xy(c) for c in _candidates(analysis, Lookahead(analysis))}
    assert cells == {(2, 0), (0, 2), (15, 0), (0, 15), (15, 15)}
    guess = best_guess(analysis, config=GuessConfig(opening_corner=False))
    assert guess.reason == "lookahead" and guess.win is None
    assert board.xy(guess.cell) in {(15, 0), (0, 15), (15, 15)}


def test_opening_corner_after_a_lone_number_in_a_corner() -> None:
    # Expert, A1 showed a 1: the look one move ahead rates C1 (two steps from the 1) a little
    # above the far corners, but a far corner wins more games (see opening_corner).
    position = Position.parse("30x16x99\n1" + "H" * 29 + ("\n" + "H" * 30) * 15)
    analysis = analyze(position, trust_flags=True)
    board = position.board
    # The look one move ahead rates C1's next move safer; its long-term risk is lower.
    look = Lookahead(analysis)
    c1, corner = look.score(board.index(2, 0)), look.score(board.index(29, 0))
    assert c1.secondary > corner.secondary and corner.weight > c1.weight
    ahead = best_guess(analysis, config=GuessConfig(opening_corner=False))
    assert ahead.reason == "lookahead" and board.xy(ahead.cell) == (29, 0)
    guess = best_guess(analysis)
    assert guess.reason == "opening" and board.xy(guess.cell) == (29, 0)
    # Its mine probability is that of every cell away from the 1.
    assert analysis.mine_counts[guess.cell] == analysis.mine_counts[board.index(10, 10)]
    # With two corner numbers open, another corner, never one beside them.
    two = analyze(Position.parse("30x16x99\n1" + "H" * 28 + "2" + ("\n" + "H" * 30) * 15), True)
    assert two.position.board.xy(opening_corner(two) or 0) == (0, 15)
    # A corner beside the number, or a flagged one, is never chosen.
    small = analyze(Position.parse("2x3x2\n1H\nHH\nHH"), trust_flags=True)
    assert opening_corner(small) == small.position.board.index(0, 2)
    flagged = analyze(Position.parse("5x5x3\n1HHHF\nHHHHH\nHHHHH\nHHHHH\nHHHHH"), True)
    assert flagged.position.board.xy(opening_corner(flagged) or 0) == (0, 4)


@pytest.mark.parametrize(
    "text",
    [
        "30x16x99\nH" + "H" * 14 + "1" + "H" * 14 + ("\n" + "H" * 30) * 15,  # a number on the edge
        "30x16x99\n12" + "H" * 28 + ("\n" + "H" * 30) * 15,  # a number beside the corner
        "30x16x99\n1" + "H" * 28 + "0" + ("\n" + "H" * 30) * 15,  # a corner's zero
        "30x16x99\n" + "H" * 30 + ("\n" + "H" * 30) * 15,  # nothing open
    ],
)
def test_opening_corner_needs_only_corner_numbers(text: str) -> None:
    assert opening_corner(analyze(Position.parse(text), trust_flags=True)) is None


def test_candidates_are_the_nearly_safest() -> None:
    # A 1 at B2 (1/8 each around it) and 7 cells outside with the other mine (1/7 each):
    # both groups are within 10 % of the best safety, every cell is a candidate.
    position = Position.parse("4x4x2\nHHHH\nH1HH\nHHHH\nHHHH")
    analysis = analyze(position, trust_flags=True)
    cells = _candidates(analysis, Lookahead(analysis))
    assert sorted(cells) == [c for c in range(16) if c != position.board.index(1, 1)]
    # Safest first.
    counts = [analysis.mine_counts[c] for c in cells]
    assert counts == sorted(counts)


def test_weighing_in_order_of_reach_finds_the_best_of_every_cell_weighed_in_full(
    stuck_positions: StuckPositions,
) -> None:
    # The bounds only spare work: each candidate weighed in full, with no bound, gives the
    # same best cell with the same weight.
    positions = stuck_positions(6, 16, 16, 40, 256)
    assert len(positions) == 6
    for position in positions:
        analysis = analyze(position, trust_flags=True)
        look = Lookahead(analysis)
        cells = _candidates(analysis, look)
        full = max((look.score(cell) for cell in cells), key=Score.key)
        found = _weigh(Lookahead(analysis), cells, None)
        assert found is not None
        assert (found.cell, found.weight) == (full.cell, full.weight)


# A stuck expert position (the test fixture's generator) where the board's 50/50s in waiting
# add cells to weigh after the look-ahead's own candidates, and one of them reaches above the
# candidates' best, so that it is counted.
EXPERT_STUCK = "\n".join(
    [
        "30x16x99",
        "001H2112HHHHHHHHHHHHHHHHHHHHHH",
        "0012H11H4HHHHHHHHHHHHHHHHHHHHH",
        "11011112HHHHHHHHHHHHHHHHHHHHHH",
        "H2211113HHHHHHHHHHHHHHHHHHHHHH",
        "2H2H23H4HHHHHHHHHHHHHHHHHHHHHH",
        "12323HHHHHHHHHHHHHHHHHHHHHHHHH",
        "02H33HHHHHHHHHHHHHHHHHHHHHHHHH",
        "13HHH3HHHHHHHHHHHHHHHHHHHHHHHH",
        "HH3HHHHHHHHHHHHHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHHHHHHHHHHHHHHHH",
    ]
)


def test_work_that_runs_out_on_the_extra_cells_keeps_the_candidates_best() -> None:
    # Without the enablers, whose board scan runs with the candidates' first weighing.
    analysis = analyze(Position.parse(EXPERT_STUCK), trust_flags=True)
    config = GuessConfig.parse("enablers=0")
    without = GuessConfig.parse("enablers=0,influenced=0")
    clear_cache()  # each measure of work from cold: remembered counts cost nothing
    with counting_budget(10**12) as budget:
        plain = best_guess(analysis, config=without)
    enough = budget.spent  # all the look-ahead's candidates need, and no more
    clear_cache()
    with counting_budget(10**12) as budget:
        best_guess(analysis, config=config)
    assert budget.spent > enough  # the extra cells cost work of their own
    # With only the candidates' work, the answer is still the look-ahead's, not an error.
    clear_cache()
    guess = best_guess(analysis, work=enough, config=config)
    assert guess.reason == "lookahead" and guess.cell == plain.cell


@pytest.mark.parametrize("rules", ["classic", "modern"])
def test_play_on_finishes_a_game_as_play_game_does(rules: Rules) -> None:
    # Stopped after its first guess and played on, a game ends as the whole game did.
    board = Board(9, 9)
    checked = 0
    for seed in range(200):
        record: dict[str, object] = {}
        whole = play_game(board, 10, random.Random(seed), rules, "best", record=record)
        moves = record["moves"]
        assert isinstance(moves, list)
        guesses = [k for k, m in enumerate(moves) if m["reason"]["kind"] == "guess"]
        if not guesses or moves[guesses[0]] is moves[-1]:
            continue
        _, layout = deal(board, 10, random.Random(seed), rules)
        game = Game(layout)
        for move in moves[: guesses[0] + 1]:
            (game.flag if move["action"] == "flag" else game.reveal)(*move["cell"])
        rest = play_on(game)
        assert rest.outcome == whole.outcome
        assert rest.guesses == whole.guesses - 1
        assert rest.opened == whole.opened
        checked += 1
    assert checked > 3
    with pytest.raises(IllegalMoveError):
        play_on(game)  # that game is over


def test_the_numbers_next_to_the_last_changes_force_what_all_the_numbers_force() -> None:
    # The player's loop, looking only near the cells opened or flagged since its last look,
    # against the closure of every number of the position, round after round of expert games
    # (a guess here opens a cell the layout says is safe, so the games run long).
    board = Board(30, 16)
    rounds = forced_rounds = 0
    for seed in range(6):
        _, layout = deal(board, 99, random.Random(seed), "modern")
        game = Game(layout)
        game.reveal(3, 3)
        seen = 0
        while game.state == "playing":
            position = game.position()
            now = game.opened_mask | game.flag_mask
            safe, mine = _forced(position, now & ~seen)
            every = one_clue_closure(constraints_of(position, trust_flags=True).clues)
            assert (safe, mine) == every
            seen = now
            rounds += 1
            forced_rounds += safe != 0
            if not safe:
                analysis = analyze(position, trust_flags=True)
                safe, mine = analysis.safe_mask, mine | analysis.mine_mask
            for i in iter_bits(mine & ~game.flag_mask):
                game.flag(*board.xy(i))
            if not safe:
                covered = position.covered_mask & ~game.flag_mask & ~layout.mines
                safe = covered & -covered
            for i in iter_bits(safe):
                if game.state == "playing" and not game.opened_mask >> i & 1:
                    game.reveal(*board.xy(i))
        assert game.state == "won"
    assert rounds > 100 and forced_rounds > 50


def test_choose_guess_is_the_strategy_s_cell() -> None:
    position = Position.parse("5x5x5\nHHHHH\nH2HHH\nHHHHH\nHH1HH\nHHHHH")
    analysis = analyze(position, trust_flags=True)
    assert choose_guess(analysis, "safest") == _safest(analysis)
    assert choose_guess(analysis, "best") == best_guess(analysis).cell
    with pytest.raises(ValueError, match="never guesses"):
        choose_guess(analysis, "logic")


def test_unknown_rules_or_strategy_are_named() -> None:
    """Unknown rules were a KeyError, an unknown strategy was played as 'best'."""
    board = Board(3, 3)
    with pytest.raises(ArgumentError, match="unknown rules 'x'") as rules:
        play_game(board, 1, random.Random(1), "x")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="unknown strategy 'x'") as strategy:
        play_game(board, 1, random.Random(1), "classic", "x")  # type: ignore[arg-type]
    assert (rules.value.name, strategy.value.name) == ("rules", "strategy")
    game = Game(Layout(board, 1 << 8))
    game.reveal(0, 0)
    with pytest.raises(ArgumentError, match="unknown strategy"):
        play_on(game, "x")  # type: ignore[arg-type]


def lattice(side: int) -> Position:
    """Return a square board with a 2 on every fourth cell of every fourth row, the rest
    covered (a 17 % density): every number a group of its own."""
    rows = [
        "".join("2" if x % 4 == 1 and y % 4 == 1 else "H" for x in range(side)) for y in range(side)
    ]
    return Position.parse(f"{side}x{side}x{side * side // 5}\n" + "\n".join(rows))


def test_weighing_the_guesses_of_many_separate_numbers_is_bounded() -> None:
    # Each count combines every group again, which the count cache does not save: uncharged,
    # a 40x40 lattice's best guess took seconds, a 255x255 one minutes. It is refused now,
    # and the player opens a safest cell.
    analysis = analyze(lattice(40), trust_flags=True)
    with pytest.raises(CountTooLarge, match="independent groups"):
        best_guess(analysis)
    assert choose_guess(analysis, "best") == _safest(analysis)


def test_the_cells_no_number_sees_are_weighed_sixty_at_most() -> None:
    # Two cells straight away from each number: 453 candidates on this lattice, each a count
    # of the whole board; an expert game has at most about 30.
    analysis = analyze(lattice(60), trust_flags=True)
    look = Lookahead(analysis)
    unbounded = _candidates(analysis, look, GuessConfig(off_edge_most=10**9))
    frontier = cells_seen(look.constraints.clues)
    capped = _candidates(analysis, look)
    assert len([c for c in unbounded if not frontier >> c & 1]) == 453
    assert len([c for c in capped if not frontier >> c & 1]) == 60
    assert set(capped) <= set(unbounded)
