"""The benchmark that weighs two players' differing guesses by playing on from each."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mineproof.play.config import DEFAULT

from .scripts import load_script


def bench_decisions() -> ModuleType:
    return load_script("benchmarks/bench_decisions.py")


def run(capsys: pytest.CaptureFixture[str], argv: list[str], rows: Path) -> tuple[Any, list[Any]]:
    """Return the JSON summary of a run and the decisions it wrote to ``rows``."""
    assert bench_decisions().main([*argv, "--decisions", str(rows), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    return summary, [json.loads(line) for line in rows.read_text().splitlines()]


def test_both_cells_meet_the_same_layouts() -> None:
    # Two covered cells, one mine, nothing open: whichever cell is opened wins exactly when
    # the other holds the mine, so on each layout drawn exactly one of the two cells wins.
    module = bench_decisions()
    setup = module.Setup(2, 1, 1, "classic", 1, DEFAULT, DEFAULT, 200)
    decision = module.Decision(0, 0b01, (), ((0, 0), (1, 0)))
    first, second = setup.weigh(decision)
    assert first + second == 200
    assert 60 < first < 140  # each layout equally likely: about half each
    # The same cell on both sides meets the same layouts, so it wins the same games.
    same = module.Decision(0, 0b01, (), ((1, 0), (1, 0)))
    a, b = setup.weigh(same)
    assert a == b


def test_layouts_fit_the_position() -> None:
    # 3x1 with the left cell open on a 1: the mine is in the middle, so the right cell always
    # wins and the middle never does, on every layout drawn.
    module = bench_decisions()
    setup = module.Setup(3, 1, 1, "classic", 1, DEFAULT, DEFAULT, 30)
    decision = module.Decision(0, 0b010, (("open", (0, 0)),), ((1, 0), (2, 0)))
    assert setup.weigh(decision) == (0, 30)


BEGINNER = ["--level", "beginner", "--rules", "classic"]


def test_the_summary_adds_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = [*BEGINNER, "--games", "100", "--rollouts", "6", "--b", "best:cut_off=0.5,candidates=1"]
    summary, decisions = run(capsys, argv, tmp_path / "decisions.jsonl")
    assert summary["decisions"] == len(decisions) > 0
    gains = [(d["wins"][1] - d["wins"][0]) / 6 for d in decisions]
    assert summary["favour_b"] == sum(g > 0 for g in gains)
    assert summary["favour_a"] == sum(g < 0 for g in gains)
    assert summary["games_gained"] == pytest.approx(sum(gains))
    assert summary["per_10000_games"] == pytest.approx(10_000 * sum(gains) / 100)
    assert all(d["a"] != d["b"] and 0 <= min(d["wins"]) <= max(d["wins"]) <= 6 for d in decisions)


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    module = bench_decisions()
    with pytest.raises(SystemExit) as stop:
        module.main(["--b", "safest"])
    assert stop.value.code == 2
    assert "only the best strategy" in capsys.readouterr().err


def test_weigh_given_cells(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The cells of a file against --a's own at the same guess: its own cell gains nothing;
    # a guess the game does not have is refused, naming the file.
    module = bench_decisions()
    setup = module.Setup(9, 9, 10, "classic", 1, DEFAULT, DEFAULT, 8)
    index, (first, _) = next((i, found) for i in range(50) for found in setup.guesses(i))
    own = first.cells[0]
    other = next(c for c in ((0, 8), (8, 8), (8, 0)) if c != own)
    cells = tmp_path / "cells.jsonl"
    lines = [{"index": index, "guess": 0, "b": list(c)} for c in (own, other)]
    cells.write_text("".join(json.dumps(line) + "\n" for line in lines))
    argv = [*BEGINNER, "--games", "50", "--rollouts", "8", "--weigh", str(cells)]
    summary, weighed = run(capsys, argv, tmp_path / "weighed.jsonl")
    assert summary["decisions"] == 2
    assert weighed[0]["a"] == weighed[0]["b"] == list(own)
    assert weighed[0]["wins"][0] == weighed[0]["wins"][1]
    assert weighed[1]["b"] == list(other)
    cells.write_text(json.dumps({"index": index, "guess": 99, "b": [0, 0]}) + "\n")
    with pytest.raises(SystemExit):
        module.main(argv)
    assert "has no guess 99" in capsys.readouterr().err
    cells.write_text('{"index": 1}\n')
    with pytest.raises(SystemExit):
        module.main(argv)
    assert "line 1" in capsys.readouterr().err
    # A decision of a game beyond --games would make the games per 10,000 wrong: refused.
    cells.write_text(json.dumps({"index": 50, "guess": 0, "b": [0, 0]}) + "\n")
    with pytest.raises(SystemExit):
        module.main(argv)
    assert "game 50 is outside --first 0 --games 50" in capsys.readouterr().err
