"""The paired benchmark of two players: same layouts, counted game by game, exact sign test."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mineproof.board import Board
from mineproof.game import Game
from mineproof.play import Strategy, deal, play_game
from mineproof.play.config import DEFAULT, GuessConfig

from .scripts import load_script


def bench_player() -> ModuleType:
    return load_script("benchmarks/bench_player.py")


def test_sign_test_is_the_exact_two_sided_binomial() -> None:
    sign_test = bench_player().sign_test
    assert sign_test(10, 0) == pytest.approx(2 / 1024)
    assert sign_test(0, 10) == pytest.approx(2 / 1024)
    # 7 against 3: P(X <= 3) for X ~ B(10, 1/2) is 176/1024, doubled.
    assert sign_test(7, 3) == pytest.approx(2 * 176 / 1024)
    assert sign_test(4, 4) == 1.0 and sign_test(0, 0) == 1.0


def test_two_players_on_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    module = bench_player()
    argv = ["--level", "beginner", "--games", "30", "--a", "safest", "--b", "best", "--json"]
    assert module.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    a, b = report["a"], report["b"]
    assert a["wins"] - b["wins"] == a["only"] - b["only"]
    # Each side's wins are those of the same games played alone with that strategy.
    sides: tuple[tuple[dict[str, int], Strategy], ...] = ((a, "safest"), (b, "best"))
    for side, strategy in sides:
        alone = sum(
            play_game(
                Board(9, 9), 10, random.Random(f"mineproof-bench:1:{i}"), "classic", strategy
            ).outcome
            == "won"
            for i in range(30)
        )
        assert side["wins"] == alone
    assert report["sign_test_p"] == pytest.approx(module.sign_test(a["only"], b["only"]))


def test_knobs_are_parsed_and_checked() -> None:
    config = GuessConfig.parse("endgame_arrangements=500, pseudo=0,cut_off=0.8")
    assert (config.endgame_arrangements, config.pseudo, config.cut_off) == (500, False, 0.8)
    assert GuessConfig.parse("") == DEFAULT
    for bad in ("nonsense=1", "pseudo=maybe", "candidates=many", "cut_off"):
        with pytest.raises(ValueError):
            GuessConfig.parse(bad)


def test_a_game_is_the_same_each_time_it_is_played() -> None:
    records = []
    for _ in range(2):
        record: dict[str, object] = {}
        play_game(Board(16, 16), 40, random.Random("same"), "classic", "best", record)
        records.append(record)
    assert records[0] == records[1] and records[0]["moves"]


def test_layouts_are_the_games_play_game_deals(tmp_path: Path) -> None:
    module = bench_player()
    out = tmp_path / "games.jsonl"
    argv = ["--level", "beginner", "--rules", "modern", "--games", "5", "--first", "3"]
    assert module.main([*argv, "--layouts", str(out)]) == 0
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["index"] for g in games] == [3, 4, 5, 6, 7]
    for game in games:
        assert (game["width"], game["height"], game["mines"]) == (9, 9, 10)
        assert game["start"] == [3, 3] and game["rule"] == "opening"
        # The layout is the one the player meets: replay the game and read its mines.
        record: dict[str, object] = {}
        rng = random.Random(f"mineproof-bench:1:{game['index']}")
        play_game(Board(9, 9), 10, rng, "modern", "best", record)
        rows = record["layout"]
        assert isinstance(rows, list)
        mined = sorted(
            y * 9 + x for y, row in enumerate(rows) for x, c in enumerate(row) if c == "*"
        )
        assert game["layout"] == mined
        # No mine on the start cell or its neighbours.
        assert not {y * 9 + x for x in range(2, 5) for y in range(2, 5)} & set(mined)


def test_against_another_programs_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = bench_player()
    wins = [
        play_game(
            Board(9, 9), 10, random.Random(f"mineproof-bench:1:{i}"), "classic", "best"
        ).outcome
        == "won"
        for i in range(20)
    ]
    # The other program: wins every game ours loses, loses games 0 and 1.
    theirs = [{"index": i, "won": (not won) or i > 1} for i, won in enumerate(wins)]
    path = tmp_path / "theirs.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in theirs))
    assert module.main(["--level", "beginner", "--against", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 20
    assert report["a"]["wins"] == sum(wins)
    assert report["b"]["wins"] == sum(t["won"] for t in theirs)
    assert report["a"]["only"] == sum(w and not t["won"] for w, t in zip(wins, theirs, strict=True))
    assert report["b"]["only"] == 20 - sum(wins)
    # Only games 5 to 9 of the file, when asked.
    assert (
        module.main(
            [
                "--level",
                "beginner",
                "--against",
                str(path),
                "--first",
                "5",
                "--games",
                "5",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 5 and report["a"]["wins"] == sum(wins[5:10])


def test_results_are_written_and_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = bench_player()
    path = tmp_path / "before.jsonl"
    argv = ["--level", "beginner", "--games", "12", "--first", "5", "--a", "safest"]
    assert module.main([*argv, "--b", "logic", "--results", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["a"]["only"] > 0  # the two players differ: the file must be --a's
    written = [json.loads(line) for line in path.read_text().splitlines()]
    # --a's own games, one line each, in order: what the same strategy wins played alone.
    assert [w["index"] for w in written] == list(range(5, 17))
    for w in written:
        game = play_game(
            Board(9, 9), 10, random.Random(f"mineproof-bench:1:{w['index']}"), "classic", "safest"
        )
        assert w["won"] == (game.outcome == "won")
    # Read back as the results of another program, they match the same player game by game.
    assert (
        module.main(["--level", "beginner", "--a", "safest", "--against", str(path), "--json"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["a"]["wins"] == report["b"]["wins"] == sum(w["won"] for w in written)
    assert report["a"]["only"] == report["b"]["only"] == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"index": 0}\n', "line 1: not a JSON object with 'index' and 'won'"),
        (
            '{"index": 0, "won": true}\n{"index": 0, "won": false}\n',
            "line 2: game 0 is given twice",
        ),
        ('\n{"index": -1, "won": true}\n', "line 2: 'index' must be a game number"),
        ('{"index": 1, "won": "yes"}\n', "line 1: 'index' must be a game number, 'won' true or"),
        ("not json\n", "line 1: not a JSON object"),
    ],
)
def test_bad_results_are_named_with_their_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "theirs.jsonl"
    path.write_text(text)
    with pytest.raises(SystemExit) as exc:
        bench_player().main(["--level", "beginner", "--against", str(path)])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def partings() -> ModuleType:
    return load_script("benchmarks/jsm/partings.py")


def test_partings_finds_the_first_guess_where_the_players_part() -> None:
    module = partings()
    from mineproof.play import game_rng

    board = Board(9, 9)
    guesses: list[list[object]] = []
    for index in range(50):
        record: dict[str, Any] = {}
        play_game(board, 10, game_rng(1, index), "modern", "best", record=record)
        guesses = [
            [*m["cell"], m["reason"]["probability"]]
            for m in record["moves"]
            if m["reason"]["kind"] == "guess"
        ]
        if guesses:
            break
    assert guesses
    # The cells still covered at our first guess (the record's moves up to it).
    game = Game(deal(board, 10, game_rng(1, index), "modern")[1])
    for m in itertools.takewhile(lambda m: m["reason"]["kind"] != "guess", record["moves"]):
        (game.flag if m["action"] == "flag" else game.reveal)(*m["cell"])
    covered = [
        [x, y] for y in range(9) for x in range(9) if not game.opened_mask >> (9 * y + x) & 1
    ]
    same = module.parting(("beginner", "modern", 1, index, guesses))
    assert same == ("the same guesses", "", -1, None)
    assert module.parting(("beginner", "modern", 1, index, []))[0] == "theirs ended"
    other = next(
        c for c in covered if c != guesses[0][:2] and not game.flag_mask >> (9 * c[1] + c[0]) & 1
    )
    said = [*other, 0.5, "The solver recommends clearing tile (0,0)."]
    reason, theirs, k, cell = module.parting(("beginner", "modern", 1, index, [said]))
    assert k == 0 and cell == other  # they part at the first guess
    assert reason in {
        "fifty-fifty",
        "endgame",
        "region",
        "pseudo-fifty-fifty",
        "opening",
        "lookahead",
    }
    assert theirs == "weighing"
    # A guess of theirs at a cell ours had opened as forced (here the start cell, open from
    # the first click) is no parting: passed over, their next guesses are ours.
    assert module.parting(("beginner", "modern", 1, index, [[3, 3, 0.1], *guesses])) == same
    assert module.their_reason([1, 2, 0.5]) == "?"
    assert module.their_reason([1, 2, 0.5, "(1,2) is an unavoidable 50/50 guess, or safe."]) == (
        "50/50 or safe"
    )
