"""The command line: outputs of analyze and solve, and one-line errors for every bad input."""

from __future__ import annotations

import errno
import functools
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mineproof import cli as cli_module
from mineproof import interrupt
from mineproof.batch import BatchRequest, run_batch
from mineproof.board import Board, Layout
from mineproof.cli import main, max_jobs
from mineproof.explain import explain
from mineproof.formats import format_mbf, load_layout
from mineproof.logic import LEVEL_NAMES, logic_steps, solve
from mineproof.play import play_game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "intermediate-midgame.txt"
LAYOUT = ROOT / "examples" / "expert-solvable.mbf"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the command line in-process; return (status, stdout, stderr)."""
    try:
        status = main(list(args))
    except SystemExit as exc:  # the argument parser's own usage errors
        status = int(str(exc.code))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, name: str, data: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data)
    return str(path)


def test_analyze_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "analyze", str(EXAMPLE), "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {
        "width",
        "height",
        "mines",
        "safe",
        "mine",
        "probabilities",
        "arrangements",
        "flags",
    }
    assert (data["width"], data["height"], data["mines"]) == (16, 16, 40)
    assert len(data["probabilities"]) == 16 and all(len(r) == 16 for r in data["probabilities"])
    for x, y in data["safe"]:
        assert data["probabilities"][y][x] == 0.0
    for x, y in data["mine"]:
        assert data["probabilities"][y][x] == 1.0
    assert int(data["arrangements"]) > 0
    covered_sum = sum(p for row in data["probabilities"] for p in row if p is not None)
    assert covered_sum == pytest.approx(40)


def test_analyze_text_marks_forced_cells(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", str(EXAMPLE))
    assert status == 0
    assert "arrangements: 54" in out
    assert "safe in every arrangement (11): H12 H13" in out


def test_analyze_never_offers_a_certain_mine_as_a_safest_cell(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # D1 holds a mine in both arrangements (the 1 at B1 takes one of A1 and C1).
    _, out, _ = run(capsys, "analyze", write(tmp_path, "p.txt", "4x1x2\nH1HH\n"))
    assert "mine in every arrangement (1): D1" in out
    assert out.splitlines()[-1] == "nothing is forced safe; safest cells: A1 (50%), C1 (50%)"
    # Every covered cell a mine: nothing to guess, so no safest cells at all.
    _, out, _ = run(capsys, "analyze", write(tmp_path, "q.txt", "2x1x1\nH1\n"))
    assert "safest" not in out


def test_analyze_says_the_mines_it_lists_leave_out_the_trusted_flags(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "f.txt", "4x2x2\nF1HH\n11HH\n")
    _, out, _ = run(capsys, "analyze", path)
    assert "mine in every arrangement (1): A1\n" in out  # the flag weighed as a covered cell
    _, out, _ = run(capsys, "analyze", path, "--trust-flags")
    assert "mine in every arrangement (0, besides 1 trusted flag): none\n" in out


def test_analyze_reads_stdin_and_mstoollib_grid(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    grid = "[[0,0,1,10],[1,1,2,10],[10,10,10,10]]"
    monkeypatch.setattr(sys, "stdin", type("S", (), {"buffer": io.BytesIO(grid.encode())})())
    status, out, _ = run(capsys, "analyze", "-", "--mines", "3", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["safe"] == [[1, 2], [2, 2]] and data["mine"] == [[0, 2], [3, 2]]
    # Without --mines: the option is named, as the web app names its field (one error kind).
    monkeypatch.setattr(sys, "stdin", type("S", (), {"buffer": io.BytesIO(grid.encode())})())
    status, out, err = run(capsys, "analyze", "-", "--json")
    assert status == 1 and err.endswith("has no mine total: give it with --mines N\n")
    assert json.loads(out) == {
        "error": "an ms-toollib grid has no mine total: give it with --mines N",
        "kind": "argument",
        "name": "--mines",
        "allowed": None,
    }


def test_flags_untrusted_and_trusted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proven = write(tmp_path, "p.txt", "2x2x1\n1F\n11\n")
    _, out, _ = run(capsys, "analyze", proven, "--json")
    assert json.loads(out)["flags"] == [{"cell": [1, 0], "status": "proven"}]
    unproven = write(tmp_path, "u.txt", "3x2x1\n1F1\nHHH\n")
    _, out, _ = run(capsys, "analyze", unproven, "--json")
    assert json.loads(out)["flags"] == [{"cell": [1, 0], "status": "unproven"}]
    _, out, _ = run(capsys, "analyze", unproven, "--json", "--trust-flags")
    data = json.loads(out)
    assert data["flags"] == [{"cell": [1, 0], "status": "trusted"}]
    assert data["safe"] == [[0, 1], [1, 1], [2, 1]]
    wrong = write(tmp_path, "w.txt", "4x2x1\nF0HH\nHHHH\n")
    _, out, _ = run(capsys, "analyze", wrong, "--json")
    assert json.loads(out)["flags"] == [{"cell": [0, 0], "status": "wrong"}]
    status, out, err = run(capsys, "analyze", wrong, "--trust-flags")
    assert status == 1 and out == ""
    assert "no arrangement of mines fits the number 0 at B1" in err


def test_a_conflict_with_the_mine_total_is_named_in_good_english(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases = {
        "4x3x1\nHHHH\n1221\n0000\n": "the number 2 at C2 with 1 mine in total",
        "6x2x1\nHHHHHH\n110011\n": "the numbers 1 at B2, 1 at F2 with 1 mine in total",
        "4x2x3\nHHHH\n1111\n": "the number 1 at C2 with 3 mines in total",
    }
    for k, (text, named) in enumerate(cases.items()):
        status, out, err = run(capsys, "analyze", write(tmp_path, f"{k}.txt", text))
        assert status == 1 and out == ""
        assert err.endswith(f"no arrangement of mines fits {named}\n"), err


def test_counts_of_one_are_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", write(tmp_path, "p.txt", "2x1x1\nF1\n"))
    assert out.splitlines()[0] == "2x1, 1 mine, 1 covered cell, 1 flag"
    _, out, _ = run(capsys, "analyze", write(tmp_path, "q.txt", "3x1x2\nHHH\n"))
    assert out.splitlines()[0] == "3x1, 2 mines, 3 covered cells"
    _, out, _ = run(capsys, "solve", write(tmp_path, "l.txt", "3x1x1\n.*.\n"), "--start", "0,0")
    assert out == (
        "solved from A1 (0, 0): all 2 safe cells opened in 1 round of deduction, no guess needed\n"
    )
    folder = tmp_path / "boards"
    args = ["generate", "--level", "beginner", "--count", "1", "--seed", "1", "--out", str(folder)]
    _, out, _ = run(capsys, *args)
    assert out == f"wrote 1 board to {folder / 'boards.txt'}\n"


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", str(LAYOUT), "--start", "15,8", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["solved"] is True and data["opened_count"] == data["safe_count"] == 381
    assert data["rounds"] > 0


def test_solve_stuck_board_reports_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board(30, 16)
    for seed in range(100):
        layout = Layout.random(board, 99, random.Random(seed), (0, 0), "safe")
        if not solve(layout, (0, 0)).solved:
            break
    path = write(tmp_path, "stuck.mbf", format_mbf(layout))
    status, out, _ = run(capsys, "solve", path, "--start", "0,0", "--json")
    data = json.loads(out)
    assert status == 0 and data["solved"] is False and data["opened_count"] < data["safe_count"]
    assert data["position"].startswith("30x16x99\n")


BAD_INPUTS = [
    ("missing file", ["analyze", "{tmp}/nope.txt"], "no such file"),
    ("directory", ["analyze", "{tmp}"], "is a directory"),
    ("short row", ["analyze", "{short}"], "line 3"),
    ("unknown character", ["analyze", "{char}"], "column 2"),
    ("digit above neighbours", ["analyze", "{corner4}"], "more than its 3 neighbours"),
    ("digit above 8", ["analyze", "{nine}"], "column 2"),
    ("more mines than covered", ["analyze", "{toomany}"], "many.txt: the mine total 3 is more"),
    (
        "--mines more than covered",
        ["analyze", "{toomany}", "--mines", "9"],
        "--mines 9: the mine total 9 is more than the 2 covered cells of {toomany}",
    ),
    (
        "trusted flag in the conflict",
        ["analyze", "{flag0}", "--trust-flags"],
        "fits the number 0 at B1 and 1 trusted flag (A1)",
    ),
    ("replay of an .avf", ["replay", "{avf}", "--out", "a.svg"], "mineproof review {avf} --svg"),
    (
        "replay of a position",
        ["replay", "{toomany}", "--out", "a.svg"],
        "not a recorded game: expected the JSON object that bench --record writes",
    ),
    (
        "replay of malformed JSON",
        ["replay", "{badjson}", "--out", "a.svg"],
        "bad.json: line 2, column 1: not a recorded game: unexpected text after the end of the "
        "JSON value",
    ),
    (
        "replay of an empty file",
        ["replay", "{emptyjson}", "--out", "a.svg"],
        "empty.json: not a recorded game: empty input: expected the JSON object that bench "
        "--record writes",
    ),
    (
        "grid of malformed JSON",
        ["analyze", "{badgrid}", "--mines", "1"],
        "badgrid.json: line 1, column 9: invalid JSON: expected a comma between items",
    ),
    ("review of no id", ["review", "zzz"], "zzz: no such file, nor a game id of the web app"),
    ("play --data a file", ["play", "--data", "{toomany}"], "--data {toomany}: not a folder"),
    ("no arrangement (ring)", ["analyze", "{ring}"], "no arrangement"),
    ("grid without total", ["analyze", "{grid}"], "--mines"),
    ("start outside", ["solve", str(LAYOUT), "--start", "30,0"], "outside"),
    ("start on a mine", ["solve", str(LAYOUT), "--start", "0,0"], "is a mine"),
    ("mbf mine outside", ["solve", "{mbf_out}", "--start", "0,0"], "outside"),
    ("mbf mine twice", ["solve", "{mbf_twice}", "--start", "0,0"], "already"),
]


@pytest.mark.parametrize(("name", "argv", "needle"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_is_one_line_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, argv: list[str], needle: str
) -> None:
    files = {
        "tmp": str(tmp_path),
        "short": write(tmp_path, "short.txt", "3x2x1\n1H1\nHH\n"),
        "char": write(tmp_path, "char.txt", "3x1x1\n1X1\n"),
        "corner4": write(tmp_path, "c4.txt", "2x2x3\n4H\nHH\n"),
        "nine": write(tmp_path, "nine.txt", "3x3x1\nH9H\nHHH\nHHH\n"),
        "toomany": write(tmp_path, "many.txt", "2x2x3\n11\nHH\n"),
        "ring": write(tmp_path, "ring.txt", "5x5x4\nHHHHH\nH121H\nH202H\nH121H\nHHHHH\n"),
        "grid": write(tmp_path, "grid.json", "[[1,10],[10,10]]"),
        "badjson": write(tmp_path, "bad.json", '{"width": 9}\n}'),
        "emptyjson": write(tmp_path, "empty.json", ""),
        "badgrid": write(tmp_path, "badgrid.json", "[[1, 10 10]]"),
        "mbf_out": write(tmp_path, "out.mbf", bytes([3, 3, 0, 1, 5, 0])),
        "mbf_twice": write(tmp_path, "twice.mbf", bytes([3, 3, 0, 2, 1, 1, 1, 1])),
        "flag0": write(tmp_path, "flag0.txt", "4x1x1\nF01H\n"),
        "avf": str(ROOT / "tests" / "data" / "replays" / "beginner-15s.avf"),
    }
    status, out, err = run(capsys, *[a.format(**files) for a in argv])
    assert status == 1, name
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("mineproof: error: ")
    assert needle.format(**files) in err, err
    assert "Traceback" not in err


def test_ring_names_the_conflicting_clues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "ring.txt", "5x5x4\nHHHHH\nH121H\nH202H\nH121H\nHHHHH\n")
    _, _, err = run(capsys, "analyze", path)
    assert "1 at B2" in err and "2 at C2" in err and "2 at B3" in err


def test_generate_window_no_board_meets_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # One mine on one row: one clue settles every board, so level 3 is never needed.
    status, out, err = run(
        capsys, "generate", "--width", "6", "--height", "1", "--mines", "1",
        "--min-level", "3", "--max-level", "3", "--seed", "1",
    )  # fmt: skip
    assert status == 1 and out == ""
    assert err == (
        "mineproof: error: no guess-free 6x1 board with 1 mine whose hardest step is level 3 "
        f"({LEVEL_NAMES[3]}) found after 20,000 layouts; --sampler exact draws layouts "
        "uniformly and may find one\n"
    )
    # Sampled exactly, the error says how many layouts were guess-free, and no more advice.
    status, out, err = run(
        capsys, "generate", "--width", "6", "--height", "1", "--mines", "1",
        "--min-level", "3", "--max-level", "3", "--seed", "1", "--sampler", "exact",
    )  # fmt: skip
    assert status == 1 and "by exact sampling" in err and "may find one" not in err


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["solve", str(LAYOUT), "--start", "a,b"])
    assert exc.value.code == 2


def test_console_script_end_to_end() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mineproof.cli", "analyze", str(EXAMPLE), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["mines"] == 40


def test_malformed_json_end_to_end_is_one_plain_line(tmp_path: Path) -> None:
    path = write(tmp_path, "game.json", '{"width": 9,\n "height": }')
    proc = subprocess.run(
        [sys.executable, "-m", "mineproof.cli", "replay", path, "--out", str(tmp_path / "a.svg")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (
        f"mineproof: error: {path}: line 2, column 12: not a recorded game: expected a JSON "
        "value (a number, string, list or object)\n"
    )


def test_hint_json_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "e.txt", "4x3x3\n01HH\n13HH\nHHHH\n")
    svg = tmp_path / "hint.svg"
    status, out, _ = run(capsys, "hint", path, "--json", "--svg", str(svg))
    assert status == 0
    data = json.loads(out)
    assert data["level"] == 3 and data["rule"] == "combination"
    assert data["premises"] == [[1, 0], [0, 1], [1, 1]]
    assert data["uses_mine_total"] is False
    assert data["safe"] == [] and data["mine"] == [[2, 2]]
    assert data["minimal"] is True and data["fewest"] is True
    # The 3 at B2 less the 1 at B1 and the 1 at A2 leaves C3 = 1.
    assert data["proof"] == {
        "given": [],
        "combination": [
            {"premise": [1, 0], "multiplier": "-1"},
            {"premise": [0, 1], "multiplier": "-1"},
            {"premise": [1, 1], "multiplier": "1"},
        ],
        "equation": {"cells": [{"cell": [2, 2], "coefficient": "1"}], "total": "1"},
    }
    assert "C3" in data["text"]
    assert [step["rule"] for step in data["steps"]] == ["combination"]
    assert svg.read_text().startswith("<svg") and 'class="premise"' in svg.read_text()


def test_hint_open_carries_on_to_a_cell_to_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One clue at a time proves only mines here (the 2 at B1: C1 and C2); once they are
    # flagged, more follow, and only then a safe cell. Without --open the hint names mines;
    # with it the steps end on a safe cell.
    path = write(tmp_path, "m.txt", "4x3x4\n02HH\n13HH\n1HH2\n")
    _, out, _ = run(capsys, "hint", path, "--json")
    single = json.loads(out)
    _, out, _ = run(capsys, "hint", path, "--json", "--open")
    chain = json.loads(out)
    assert single["safe"] == [] and single["mine"] and len(single["steps"]) == 1
    steps = chain["steps"]
    assert len(steps) >= 2 and steps[-1]["safe"]
    assert all(step["safe"] == [] for step in steps[:-1])
    assert steps[0] == {key: chain[key] for key in steps[0]}
    _, out, _ = run(capsys, "hint", path, "--open")
    assert len(out.strip().splitlines()) == len(steps)


def test_hint_when_nothing_is_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "g.txt", "3x1x1\nH1H\n")
    status, out, _ = run(capsys, "hint", path, "--json")
    data = json.loads(out)
    assert status == 0 and data["level"] == 0 and data["safe"] == [] and data["mine"] == []
    assert data["safest"] == [[0, 0], [2, 0]] and data["probability"] == 0.5
    assert "50%" in data["text"]


def test_a_list_of_safest_cells_cut_short_says_how_many_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 12 cells equally safe: the text names 6 and says 6 more, the JSON lists all 12.
    path = write(tmp_path, "p.txt", "4x4x3\n1HHH\nHHHH\nHHHH\nHHHH\n")
    _, out, _ = run(capsys, "hint", path)
    assert "The safest cells are C1, D1, C2, D2, A3, B3 and 6 more cells, each" in out
    _, out, _ = run(capsys, "hint", path, "--json")
    assert len(json.loads(out)["safest"]) == 12
    _, out, _ = run(capsys, "analyze", path)
    assert out.splitlines()[-1] == (
        "nothing is forced safe; safest cells: C1 (17%), D1 (17%), C2 (17%), D2 (17%), "
        "A3 (17%), then 10 more covered cells, none safer"
    )


def test_hint_in_another_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "e.txt", "4x3x3\n01HH\n13HH\nHHHH\n")
    _, english, _ = run(capsys, "hint", path)
    _, german, _ = run(capsys, "hint", path, "--lang", "de")
    assert "C3" in german and german != english


def test_grade_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "grade", str(LAYOUT), "--start", "15,8", "--json")
    data = json.loads(out)
    assert status == 0 and data["solved"] is True
    assert data["level"] == max(int(k) for k in data["steps_by_level"])
    assert data["total_steps"] == sum(data["steps_by_level"].values())
    status, out, _ = run(capsys, "explain", str(LAYOUT), "--start", "15,8")
    lines = out.strip().splitlines()
    assert status == 0 and lines[0].startswith("1. [")
    assert len(lines) == data["total_steps"] + 1
    assert lines[-1].startswith("Solved without a guess")
    # Written out step by step as the solve makes them: the steps of the solve, in order.
    status, out, _ = run(
        capsys, "explain", str(LAYOUT), "--start", "15,8", "--json", "--lang", "fr"
    )
    explained = json.loads(out)
    layout = load_layout(LAYOUT.read_bytes())
    want = [
        {"number": s.number, **s.deduction.to_json(), "text": explain(s.deduction, "fr")}
        for s in logic_steps(layout, (15, 8))
    ]
    assert status == 0 and explained["steps"] == json.loads(json.dumps(want))
    assert explained["grade"] == data


def test_svg_write_failure_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "hint", str(EXAMPLE), "--svg", "/nonexistent/dir/x.svg")
    assert status == 1 and err.startswith("mineproof: error: ") and err.count("\n") == 1


def test_gif_replay_write_failure_is_one_line_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record: dict[str, object] = {}
    play_game(Board(9, 9), 10, random.Random(2), "classic", "best", record)
    game = write(tmp_path, "game.json", json.dumps(record))
    taken = tmp_path / "taken.gif"
    taken.mkdir()  # a folder where the file should go: the rename fails
    for out in ("/nonexistent/dir/x.gif", str(taken)):
        status, stdout, err = run(capsys, "replay", game, "--out", out)
        assert status == 1 and stdout == "" and err.count("\n") == 1
        assert err.startswith("mineproof: error: ") and f"cannot write {out}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "taken.gif"]
    assert not any(taken.iterdir())


def test_ctrl_c_ends_a_command_quietly_with_status_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import mineproof.cli

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(mineproof.cli, "analyze", interrupted)
    status, out, err = run(capsys, "analyze", str(EXAMPLE))
    assert (status, out, err) == (130, "", "")


def test_a_reader_that_leaves_early_gets_no_traceback() -> None:
    # `mineproof explain ... --json | head -c 10`: the output (over 100 KB, more than a pipe
    # holds) outlives its reader.
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mineproof.cli",
            "explain",
            str(LAYOUT),
            "--start",
            "15,8",
            "--json",
            "--lang",
            "ru",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    # Not the status of an error: that of a command a closed pipe ended, as a shell gives it.
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and err == ""


# --- Bounded and robust: caps, streaming, interruption, one-line errors ---------------------


def _one_line(status: int, out: str, err: str, needle: str) -> None:
    """Assert a one-line error with exit status 1 that says ``needle``, and nothing printed."""
    assert status == 1, err
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("mineproof: error: "), err
    assert needle in err, err
    assert "Traceback" not in err


@pytest.fixture
def game_record(tmp_path: Path) -> str:
    """Return the path of a recorded beginner game."""
    record: dict[str, object] = {}
    play_game(Board(9, 9), 10, random.Random(2), "classic", "best", record)
    return write(tmp_path, "game.json", json.dumps(record))


FORMER_TRACEBACKS = [
    # (name, arguments, what the one line says); {tmp} a folder, {file} a file, {game} a record
    ("header digits", ["analyze", "{digits}"], "line 1: the header's width has 4,400 digits"),
    ("layout digits", ["solve", "{digits_layout}", "--start", "0,0"], "has 4,400 digits"),
    (
        "text --out a file",
        ["generate", "--level", "beginner", "--out", "{file}"],
        "--out {file}: not a folder",
    ),
    (
        "json --out under a file",
        ["generate", "--level", "beginner", "--format", "json", "--out", "{file}/boards"],
        "--out {file}/boards: cannot create the folder",
    ),
    (
        "mbf --out a file",
        ["generate", "--level", "beginner", "--format", "mbf", "--out", "{file}"],
        "not a folder",
    ),
    (
        "bench --record a file",
        ["bench", "--level", "beginner", "--games", "2", "--record", "{file}"],
        "--record {file}: not a folder",
    ),
    ("hint --svg folder", ["hint", "{position}", "--svg", "{svg_dir}"], "is a directory"),
    ("hint --svg under a file", ["hint", "{position}", "--svg", "{file}/a.svg"], "Not a directory"),
    ("endless input", ["analyze", "/dev/zero"], "larger than 67,108,864 bytes"),
    ("tampered start", ["replay", "{bad_start}", "--out", "{tmp}/a.svg"], "field 'start'"),
    ("unknown action", ["replay", "{bad_action}", "--out", "{tmp}/a.svg"], "field 'action'"),
]


@pytest.mark.parametrize(
    ("argv", "needle"), [c[1:] for c in FORMER_TRACEBACKS], ids=[c[0] for c in FORMER_TRACEBACKS]
)
def test_former_tracebacks_are_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game_record: str,
    argv: list[str],
    needle: str,
) -> None:
    record = json.loads(Path(game_record).read_text())
    start = dict(record, start=[1, 0])
    action = json.loads(json.dumps(record))
    action["moves"][1]["action"] = "dig"
    files = {
        "tmp": str(tmp_path),
        "svg_dir": str(tmp_path / "d.svg"),
        "game": game_record,
        "file": write(tmp_path, "a-file", "not a folder"),
        "digits": write(tmp_path, "d.txt", "9" * 4400 + "x1x1\nH\n"),
        "digits_layout": write(tmp_path, "d.layout", "9" * 4400 + "x1x1\n*\n"),
        "position": write(tmp_path, "p.txt", "3x1x1\n1H1\n"),
        "bad_start": write(tmp_path, "start.json", json.dumps(start)),
        "bad_action": write(tmp_path, "action.json", json.dumps(action)),
    }
    (tmp_path / "d.svg").mkdir()
    before = sorted(tmp_path.rglob("*"))
    status, out, err = run(capsys, *[a.format(**files) for a in argv])
    _one_line(status, out, err, needle.format(**files))
    assert sorted(tmp_path.rglob("*")) == before  # nothing half-written left


def test_a_bad_argument_does_not_blame_the_file(
    capsys: pytest.CaptureFixture[str], game_record: str
) -> None:
    # The file was read fine: the error is the flag's, and says so without naming the file.
    status, out, err = run(capsys, "solve", str(LAYOUT), "--start", "30,0")
    _one_line(status, out, err, "--start 30,0 is outside the 30x16 board of")
    status, out, err = run(capsys, "replay", game_record, "--out", "x.svg", "--speed", "0")
    assert status == 2 and "argument --speed: 0 is outside" in err and game_record not in err


USAGE_ERRORS = [
    # (arguments, what the one line says after "mineproof: error: argument "); {game} a record
    (["generate", "--level", "beginner", "--jobs", "0"], "--jobs: 0 is outside 1.."),
    (["generate", "--level", "beginner", "--jobs", "100000"], "--jobs: 100000 is outside 1.."),
    (["bench", "--level", "beginner", "--jobs", "100000"], "processes per CPU"),
    (["bench", "--level", "beginner", "--games", "0"], "--games: 0 is outside 1..10,000,000"),
    (
        ["bench", "--level", "beginner", "--games", "1000000000000"],
        "--games: 1000000000000 is outside 1..10,000,000",
    ),
    (["generate", "--level", "beginner", "--count", "0"], "--count: 0 is outside 1..1,000,000"),
    (
        ["generate", "--level", "beginner", "--count", "100000000"],
        "--count: 100000000 is outside 1..1,000,000",
    ),
    (["replay", "{game}", "--out", "x.gif", "--scale", "9"], "--scale: 9 is outside 1..8"),
    (
        ["bench", "--width", "256", "--height", "2", "--mines", "1"],
        "--width: 256 is outside 1..255",
    ),
    (["bench", "--width", "9", "--mines", "1"], "--width: needs --height and --mines"),
    (["bench", "--level", "beginner", "--width", "9"], "--width: not allowed with argument"),
    (["bench", "--level", "beginner", "--mines", "-1"], "--mines: expected a whole number"),
    (["generate", "--level", "beginner", "--min-level", "6"], "--min-level: 6 is outside 0..5"),
    (["generate", "--level", "beginner", "--at", "9,0"], "--at: the start cell (9, 0) is outside"),
    (["generate", "--level", "beginner", "--reveal", "-1"], "--reveal: expected a whole number,"),
    (["play", "--port", "99999"], "--port: port 99999 is outside 0..65535"),
    (["replay", "{game}", "--out", "a.svg", "--speed", "0"], "--speed: 0 is outside 0.01..600"),
    (["replay", "{game}", "--out", "a.svg", "--speed", "inf"], "--speed: inf is outside"),
    (["replay", "{game}", "--out", "a.gif", "--speed", "nan"], "--speed: nan is outside"),
    (["replay", "{game}", "--out", "a.gif", "--speed", "1e300"], "0.01..600 seconds per move"),
    (["replay", "{game}", "--out", "a.svg", "--speed", "1e-300"], "0.01..600 seconds per move"),
    (["replay", "{game}", "--out", "a.png"], "--out: expected a file name ending in .svg or .gif"),
    (["review", "{game}", "--long-think", "-1"], "--long-think: -1 is outside 0..3600 seconds"),
    (["review", "{game}", "--speed", "0", "--gif", "a.gif"], "0.01..600 seconds per click"),
    (["review", "{game}", "--svg", ""], "--svg: expected a file name ending in .svg, got ''"),
    (["review", "{game}", "{game}", "--svg", "a.svg"], "--svg: draws one game"),
    (["hint", "{game}", "--svg", "out.png"], "--svg: expected a file name ending in .svg"),
    (["hint", "{game}", "--svg", ""], "--svg: expected a file name ending in .svg, got ''"),
    (["hint", "{game}", "--svg", "."], "--svg: expected a file name ending in .svg, got '.'"),
    (["grade", str(LAYOUT), "--start", "-1,1"], "--start: expected X,Y (two numbers from 0)"),
    (
        ["generate", "--level", "beginner", "--scheduler", "foo bar"],
        "--scheduler: 'foo bar' is not a scheduler address",
    ),
    (
        ["bench", "--level", "beginner", "--scheduler", "tcp://"],
        "--scheduler: 'tcp://' is not a scheduler address",
    ),
    # before: accepted, and ignored
    (["generate", "--level", "beginner", "--force"], "--force: replaces the files in the --out"),
    (["bench", "--level", "beginner", "--force"], "--force: replaces the files in the --record"),
]


@pytest.mark.parametrize(
    ("argv", "needle"), USAGE_ERRORS, ids=[" ".join(c[0][-2:]) for c in USAGE_ERRORS]
)
def test_a_bad_option_value_is_a_usage_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    game_record: str,
    argv: list[str],
    needle: str,
) -> None:
    # One rule, however the value is found wrong: one line naming the option, exit status 2,
    # before any work, nothing written, and no JSON even with --json.
    started = time.perf_counter()
    monkeypatch.chdir(tmp_path)
    json_flag = (
        ["--json"] if argv[0] in ("analyze", "solve", "hint", "grade", "bench", "review") else []
    )
    status, out, err = run(capsys, *[a.format(game=game_record) for a in argv], *json_flag)
    assert status == 2, err
    assert out == "" and err.count("\n") == 1, err
    assert err.startswith("mineproof: error: argument --") and needle in err, err
    assert err.endswith(f"(see mineproof {argv[0]} --help)\n"), err
    assert time.perf_counter() - started < 5
    assert sorted(tmp_path.iterdir()) == [Path(game_record)]


def test_jobs_cap_follows_the_cpus() -> None:
    assert max_jobs() >= 4 and max_jobs() % 4 == 0


@pytest.mark.parametrize("flag", ["--games", "--count", "--jobs", "--seed"])
def test_a_number_of_thousands_of_digits_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    command = "bench" if flag == "--games" else "generate"
    with pytest.raises(SystemExit) as exc:
        main([command, "--level", "beginner", flag, "9" * 5000])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    last = err.splitlines()[-1]
    assert "5,000 digits is too large" in last and "Traceback" not in err and len(last) < 200


def test_mines_with_a_level_replaces_its_mine_count(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "generate", "--level", "beginner", "--mines", "12", "--seed", "4")
    assert status == 0 and out.splitlines()[1] == "9x9x12"
    args = ["bench", "--level", "beginner", "--mines", "12", "--games", "2", "--json"]
    status, out, _ = run(capsys, *args)
    assert status == 0 and json.loads(out)["games"] == 2
    status, out, _ = run(capsys, "bench", "--level", "beginner", "--mines", "12", "--games", "2")
    assert out.startswith("9x9/12,")
    status, out, err = run(capsys, "generate", "--level", "expert", "--mines", "500")
    assert status == 2 and "argument --mines: 500 mines cannot fit" in err
    status, out, err = run(capsys, "generate", "--level", "expert", "--height", "20")
    assert status == 2 and "argument --height: goes with --width, not --level" in err


@pytest.mark.parametrize(
    ("text", "flags", "needle"),
    [
        ("3x1x1\n01F\n", [], "every safe cell is open and every mine flagged, the game is won"),
        ("3x1x1\n01F\n", ["--trust-flags"], "the game is won"),
        ("2x1x0\n00\n", [], "nothing to hint: every cell is open"),
        ("3x1x1\n01H\n", ["--open"], "nothing to open: every safe cell is open, the game is won"),
    ],
)
def test_hint_on_a_finished_position_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, flags: list[str], needle: str
) -> None:
    path = write(tmp_path, "done.txt", text)
    status, out, err = run(capsys, "hint", path, *flags)
    _one_line(status, out, err, needle)
    status, out, err = run(capsys, "hint", path, "--json", *flags)
    message = err.split(": ", 3)[-1].strip()
    assert status == 1 and json.loads(out) == {"error": message, "kind": "game-over", "cell": None}


def test_a_file_name_with_a_line_break_keeps_the_error_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "ri\nng.txt", "3x1x0\n1HH\n")
    status, out, err = run(capsys, "analyze", path)
    _one_line(status, out, err, "ri\\nng.txt: no arrangement of mines fits the number 1 at A1")


def test_a_flag_that_may_be_safe_is_a_cell_to_guess_and_the_hint_says_to_take_it_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both covered cells flagged, one mine: each flag is a 50/50, nothing is finished.
    path = write(tmp_path, "flags.txt", "3x1x1\nF1F\n")
    status, out, _ = run(capsys, "hint", path)
    assert status == 0
    assert "The safest cells are A1 and C1, each with a mine probability of 50%." in out
    assert "A1 carries your flag, but nothing proves a mine there: take the flag off" in out
    # A flag the player put on the best guess, among cells that are not flagged: the safest
    # cells name it as the analysis does, and the best guess says to take the flag off.
    path = write(tmp_path, "f.txt", "5x5x6\nHHHHH\nHH2FH\n3HHHH\nHH22H\n1FHHH\n")
    status, out, _ = run(capsys, "hint", path)
    assert status == 0 and "The safest cell is B5, with a mine probability of 2%." in out
    assert "B5 carries your flag, but nothing proves a mine there" in out
    status, out, _ = run(capsys, "analyze", path)
    assert "safest cells: B5 (2%)" in out


def test_analyze_json_on_an_impossible_position_prints_the_conflict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ring = write(tmp_path, "ring.txt", "5x5x4\nHHHHH\nH121H\nH202H\nH121H\nHHHHH\n")
    status, out, err = run(capsys, "analyze", ring, "--json")
    assert status == 1 and err.count("\n") == 1 and "no arrangement" in err
    data = json.loads(out)
    assert data == {
        "error": data["error"],
        "kind": "inconsistent",
        "clues": [[1, 1], [2, 1], [1, 2]],
        "uses_mine_total": False,
        "minimal": True,
    }
    assert data["error"] in err
    total = write(tmp_path, "total.txt", "3x1x0\n1HH\n")
    status, out, _ = run(capsys, "analyze", total, "--json")
    assert status == 1 and json.loads(out)["uses_mine_total"] is True
    malformed = write(tmp_path, "bad.txt", "3x1x1\n1X1\n")
    status, out, _ = run(capsys, "analyze", malformed, "--json")
    assert status == 1 and {"line": 2, "column": 2}.items() <= json.loads(out).items()
    status, out, _ = run(capsys, "solve", str(LAYOUT), "--start", "30,0", "--json")
    assert status == 1 and json.loads(out)["name"] == "--start"


def _boards(text: str) -> list[str]:
    """Split printed text boards (a '# board' line, the header, the rows) into boards."""
    return ["# board" + b for b in text.split("# board")[1:]]


def test_generate_stops_mid_way_with_the_boards_made_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mineproof.batch import BatchRequest
    from mineproof.generate import GenerationError

    make = BatchRequest.make

    def third_fails(self: BatchRequest, index: int) -> object:
        if index == 2:
            raise GenerationError("no board found (simulated)")
        return make(self, index)

    monkeypatch.setattr(BatchRequest, "make", third_fails)
    args = ["generate", "--level", "beginner", "--count", "5", "--seed", "8"]
    status, out, err = run(capsys, *args)
    # Which board failed is named: the error alone would not say it was the third.
    assert status == 1 and err == "mineproof: error: board 3 of 5: no board found (simulated)\n"
    assert len(_boards(out)) == 2 and out.endswith("\n")
    folder = tmp_path / "mbf"
    status, out, err = run(capsys, *args, "--format", "mbf", "--out", str(folder))
    assert status == 1 and "simulated" in err
    listed = [json.loads(line)["file"] for line in (folder / "manifest.jsonl").open()]
    assert listed == ["board-00001.mbf", "board-00002.mbf"]
    assert sorted(p.name for p in folder.iterdir()) == [*listed, "manifest.jsonl"]
    # Boards asked for as JSON end with the error as JSON too (they ended with no JSON line).
    status, out, err = run(capsys, *args, "--format", "json")
    *boards, error = out.splitlines()
    assert status == 1 and len(boards) == 2 and "simulated" in err
    assert json.loads(error) == {
        "error": "board 3 of 5: no board found (simulated)",
        "kind": "too-complex",
        "size": None,
    }


class _FullDisk(io.FileIO):
    """A file on a disk that fills up after ``room`` bytes: the write that does not fit
    writes what fits, and then fails as a full disk does."""

    room = 0

    def write(self, data: Any, /) -> int:
        size = memoryview(data).nbytes
        if self.tell() + size <= self.room:
            return super().write(data)
        super().write(memoryview(data)[: max(0, self.room - self.tell())])
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("format_", ["text", "json"])
def test_a_full_disk_leaves_the_boards_written_whole(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    format_: str,
) -> None:
    """The disk fills in the middle of the fourth board: the file keeps the three before it,
    whole (a cut board, or a line of JSON cut short, was left before)."""
    args = ["generate", "--level", "beginner", "--count", "6", "--seed", "8", "--format", format_]
    status, printed, _ = run(capsys, *args)
    assert status == 0
    boards = _boards(printed) if format_ == "text" else printed.splitlines(keepends=True)
    _FullDisk.room = len("".join(boards[:3]).encode()) + 40
    opened = Path.open

    def full_disk(self: Path, mode: str = "r", *rest: Any, **named: Any) -> Any:
        return _FullDisk(self, "wb") if mode == "wb" else opened(self, mode, *rest, **named)

    monkeypatch.setattr(Path, "open", full_disk)
    status, _, err = run(capsys, *args, "--out", str(tmp_path / "out"))
    name = "boards.txt" if format_ == "text" else "boards.jsonl"
    assert status == 1
    full = "No space left on device"
    assert err == f"mineproof: error: cannot write {tmp_path / 'out' / name}: {full}\n"
    assert (tmp_path / "out" / name).read_text() == "".join(boards[:3])


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--level", "beginner", "--count", "3", "--seed", "1"],
        ["bench", "--level", "beginner", "--games", "3"],
        ["analyze", str(EXAMPLE)],
    ],
)
def test_a_standard_output_that_cannot_be_written_is_one_line(args: list[str]) -> None:
    """A full disk behind standard output: one line, status 1 (it was a traceback)."""
    with Path("/dev/full").open("w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "mineproof.cli", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert (proc.returncode, proc.stderr) == (
        1,
        "mineproof: error: cannot write standard output: No space left on device\n",
    )


def test_an_error_in_json_on_a_full_standard_output_is_still_one_line_each() -> None:
    """The error's JSON could not be written: Python failed again at exit (status 120)."""
    with Path("/dev/full").open("w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "mineproof.cli", "explain", "x.txt", "--start", "1,1", "--json"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            env={**os.environ, "PYTHONUNBUFFERED": ""},
        )
    assert (proc.returncode, proc.stderr.splitlines()) == (
        1,
        [
            # The error first: it is the command's, whatever becomes of its JSON.
            "mineproof: error: x.txt: no such file",
            "mineproof: error: cannot write standard output: No space left on device",
        ],
    )


def test_a_system_error_while_making_boards_is_not_blamed_on_the_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too many open files to start a pool said 'cannot write standard output'."""

    def no_files(self: BatchRequest, index: int) -> object:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(BatchRequest, "make", no_files)
    status, out, err = run(capsys, "generate", "--level", "beginner", "--count", "2")
    assert (status, out, err) == (1, "", "mineproof: error: Too many open files\n")


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--level", "beginner", "--out", ""],
        ["bench", "--level", "beginner", "--games", "3", "--record", " "],
        ["review", "--data", "", "1"],
    ],
)
def test_an_empty_folder_name_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """An empty --out printed the boards, an empty --record recorded nothing, without a word."""
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert "expected a folder name" in capsys.readouterr().err


def _files(folder: Path) -> dict[str, bytes]:
    """Return every file of ``folder`` by name, with its bytes."""
    return {path.name: path.read_bytes() for path in folder.iterdir()}


@pytest.mark.parametrize(
    ("first", "again"),
    [
        # An interrupted run, then a smaller one: the earlier boards used to be deleted.
        (
            ["generate", "--level", "beginner", "--count", "5", "--format", "mbf", "--seed", "1"],
            ["generate", "--level", "beginner", "--count", "2", "--format", "mbf", "--seed", "2"],
        ),
        # The other way: the files of the first run used to be kept among the second's.
        (
            ["bench", "--level", "beginner", "--games", "5"],
            ["bench", "--level", "beginner", "--games", "2", "--seed", "1"],
        ),
        (
            ["generate", "--level", "beginner", "--count", "2", "--format", "json"],
            ["generate", "--level", "beginner", "--count", "2"],
        ),
        (
            ["bench", "--level", "beginner", "--games", "2"],
            ["generate", "--level", "beginner", "--count", "2", "--format", "mbf"],
        ),
    ],
)
def test_a_folder_with_an_earlier_run_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], first: list[str], again: list[str]
) -> None:
    folder = tmp_path / "run"
    flag = "--record" if first[0] == "bench" else "--out"
    assert run(capsys, *first, flag, str(folder))[0] == 0
    (folder / "notes.txt").write_text("mine")
    (folder / "board-00009.mbf.tmp").write_bytes(b"half")  # left by a killed run
    before = _files(folder)
    flag = "--record" if again[0] == "bench" else "--out"
    status, out, err = run(capsys, *again, flag, str(folder))
    assert status == 1 and out == ""
    assert err.startswith(f"mineproof: error: {flag} {folder} holds the files of an earlier run (")
    assert err.endswith("give a new or empty folder, or --force to replace them\n")
    assert _files(folder) == before  # nothing lost, nothing added
    status, out, err = run(capsys, *again, flag, str(folder), "--force")
    assert status == 0
    earlier = len(before) - 1  # all but notes.txt
    assert err == f"mineproof: removed {earlier} files of an earlier run from {folder}\n"
    # The folder holds this run's files only, and the notes.
    made = sorted(_files(folder))
    if again[0] == "bench":
        assert made == ["game-00001.json", "game-00002.json", "notes.txt"]
    elif "mbf" in again:
        assert made == ["board-00001.mbf", "board-00002.mbf", "manifest.jsonl", "notes.txt"]
    else:
        assert made == ["boards.txt", "notes.txt"]
        assert len(_boards((folder / "boards.txt").read_text())) == 2
    assert (folder / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("form", ["mbf", "json", "text"])
def test_a_run_that_makes_no_board_leaves_nothing_to_refuse_the_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    # No 6x1 board with one mine needs level 3: the run fails before its first board.
    (tmp_path / "notes.txt").write_text("mine")
    hopeless = ["--width", "6", "--height", "1", "--mines", "1", "--min-level", "3"]
    args = ["generate", *hopeless, "--max-level", "3", "--format", form, "--out", str(tmp_path)]
    status, _, err = run(capsys, *args)
    assert status == 1 and "no guess-free 6x1 board" in err
    assert _files(tmp_path) == {"notes.txt": b"mine"}
    args = ["generate", "--level", "beginner", "--format", form, "--out", str(tmp_path)]
    assert run(capsys, *args)[0] == 0


def test_a_folder_of_other_files_is_written_into(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "board.mbf").write_bytes(b"not ours")
    args = ["generate", "--level", "beginner", "--count", "2", "--format", "mbf"]
    status, out, err = run(capsys, *args, "--out", str(tmp_path))
    assert status == 0 and err == "" and out == f"wrote 2 boards and manifest.jsonl to {tmp_path}\n"
    names = ["board-00001.mbf", "board-00002.mbf", "board.mbf", "manifest.jsonl", "notes.txt"]
    assert sorted(_files(tmp_path)) == names


def _proc_children(pid: int) -> set[int]:
    """Return the ids of the processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _running(pid: int) -> bool:
    """Return whether process ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _wait_for(condition: Callable[[], bool], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


GENERATE_MANY = [sys.executable, "-m", "mineproof.cli", "generate", "--level", "beginner"]


def test_a_run_stopped_anywhere_leaves_the_boards_and_the_manifest_agreeing(
    tmp_path: Path,
) -> None:
    # What a Ctrl+C can leave mid-step: a board whose line never came (3), a line handed to
    # the file whose board was then removed (4), a line cut short (5); other files stay.
    for n in (1, 2, 3):
        (tmp_path / f"board-{n:05d}.mbf").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("mine")
    lines = [json.dumps({"file": f"board-{n:05d}.mbf", "index": n - 1}) + "\n" for n in (1, 2, 4)]
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("".join(lines) + '{"file": "board-00005.m')
    cli_module._agree(tmp_path, manifest)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "board-00001.mbf",
        "board-00002.mbf",
        "manifest.jsonl",
        "notes.txt",
    ]
    assert manifest.read_text() == "".join(lines[:2])


def test_ctrl_c_between_a_board_and_its_line_leaves_them_agreeing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    written = []
    real = cli_module._write_bytes

    def write_then_stop(path: Path, data: bytes) -> None:
        real(path, data)
        written.append(path.name)
        if len(written) == 3:
            raise KeyboardInterrupt  # the third board is whole, its line not yet written

    monkeypatch.setattr(cli_module, "_write_bytes", write_then_stop)
    args = ["generate", "--level", "beginner", "--count", "5", "--seed", "1"]
    status, _, _ = run(capsys, *args, "--format", "mbf", "--out", str(tmp_path))
    assert status == 130
    listed = [json.loads(line)["file"] for line in (tmp_path / "manifest.jsonl").open()]
    assert listed == written[:2]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*listed, "manifest.jsonl"])


def test_ctrl_c_pressed_twice_mid_run_quits_with_the_boards_and_the_manifest_agreeing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The second Ctrl+C ends the process at once (compiled code holds the first): the
    # cleanup of the run, not its unwinding, must leave the folder agreeing.
    class Quit(BaseException):
        pass

    left: dict[str, bytes] = {}

    def quit_(status: int) -> None:  # os._exit's: what it leaves is what the folder holds now
        left.update((p.name, p.read_bytes()) for p in tmp_path.iterdir())
        interrupt.cancel_later()  # the first press's trace, which os._exit would end too
        raise Quit(status)

    written = []
    real = cli_module._write_bytes

    def write_then_press_twice(path: Path, data: bytes) -> None:
        real(path, data)
        written.append(path.name)
        if len(written) == 3:  # the third board is whole, its line not yet written
            press = functools.partial(interrupt._interrupted, signal.SIGINT, sys._getframe())
            press(), press()  # deferred, then again: quits (one line, no line runs between)

    monkeypatch.setattr(os, "_exit", quit_)
    monkeypatch.setattr(cli_module, "_write_bytes", write_then_press_twice)
    args = ["generate", "--level", "beginner", "--count", "5", "--seed", "1"]
    with pytest.raises(Quit) as quit:
        main([*args, "--format", "mbf", "--out", str(tmp_path)])
    monkeypatch.undo()
    assert quit.value.args == (130,)
    listed = [json.loads(line)["file"] for line in left["manifest.jsonl"].splitlines()]
    assert listed == written[:2]
    assert sorted(left) == sorted([*listed, "manifest.jsonl"])


def test_ctrl_c_just_after_a_line_reached_the_manifest_keeps_its_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The Ctrl+C that CI met: the line is in the file, the code not yet past its flush.
    real_open = Path.open

    class Listing:
        def __init__(self, file: Any) -> None:
            self.file, self.flushes = file, 0

        def __enter__(self) -> Listing:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def write(self, text: str) -> int:
            return int(self.file.write(text))

        def flush(self) -> None:
            self.file.flush()
            self.flushes += 1
            if self.flushes == 2:
                raise KeyboardInterrupt

    def open_listing(path: Path, *args: Any, **kwargs: Any) -> Any:
        file = real_open(path, *args, **kwargs)
        return Listing(file) if path.name == "manifest.jsonl" and "w" in args else file

    monkeypatch.setattr(Path, "open", open_listing)
    args = ["generate", "--level", "beginner", "--count", "5", "--seed", "1"]
    status, _, _ = run(capsys, *args, "--format", "mbf", "--out", str(tmp_path))
    monkeypatch.undo()
    assert status == 130
    listed = [json.loads(line)["file"] for line in (tmp_path / "manifest.jsonl").open()]
    assert listed == ["board-00001.mbf", "board-00002.mbf"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*listed, "manifest.jsonl"])


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_workers_die_with_their_parent(tmp_path: Path) -> None:
    args = [*GENERATE_MANY, "--count", "100000", "--jobs", "2", "--seed", "1"]
    proc = subprocess.Popen(
        [*args, "--format", "mbf", "--out", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert _wait_for(lambda: len(_proc_children(proc.pid)) >= 2), "no workers started"
        workers = _proc_children(proc.pid)
        proc.kill()  # SIGKILL: the parent has no chance to end them itself
        proc.wait(timeout=10)
        assert _wait_for(lambda: not any(_running(w) for w in workers), 10), "workers outlived"
    finally:
        proc.kill()


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child before it starts: Ctrl+C at its default, as a terminal's command has it. A
    test run started in the background by a shell without job control (``make test &`` in a
    script) hands its children SIGINT ignored, and they would not stop."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_ctrl_c_leaves_the_boards_whole_and_the_manifest_exact(tmp_path: Path) -> None:
    folder = tmp_path / "boards"
    args = [*GENERATE_MANY, "--count", "99999", "--jobs", "2", "--seed", "6"]
    proc = subprocess.Popen(
        [*args, "--format", "mbf", "--out", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's Ctrl+C reaches
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    manifest = folder / "manifest.jsonl"
    try:
        ready = _wait_for(lambda: manifest.exists() and manifest.read_text().count("\n") >= 4)
        assert ready, "no boards written"
        workers = _proc_children(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (130, b"", b"")
    assert _wait_for(lambda: not any(_running(w) for w in workers), 10)
    lines = manifest.read_text().splitlines()
    listed = [json.loads(line)["file"] for line in lines]
    assert sorted(p.name for p in folder.iterdir()) == sorted([*listed, "manifest.jsonl"])
    assert listed == [f"board-{i:05d}.mbf" for i in range(1, len(listed) + 1)]
    # The boards are those of the same seed made by one process.
    request = BatchRequest(Board(9, 9), 10, "opening", None, 5, 1, seed=6)
    for item in run_batch(request, len(listed)):
        assert (folder / listed[item.index]).read_bytes() == format_mbf(item.generated.layout)


def test_boards_are_printed_as_they_are_made_and_ctrl_c_keeps_them_whole() -> None:
    proc = subprocess.Popen(
        [*GENERATE_MANY, "--count", "100000", "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    try:
        assert proc.stdout is not None
        first = [proc.stdout.readline() for _ in range(11)]  # a board: 11 lines
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and err == b""
    text = b"".join(first).decode() + out.decode()
    boards = _boards(text)
    assert text.endswith("\n") and all(len(b.splitlines()) == 11 for b in boards)
    request = BatchRequest(Board(9, 9), 10, "opening", None, 5, 1, seed=3)
    assert [item.to_text(3) + "\n" for item in run_batch(request, len(boards))] == boards


def _with_a_closed(stream: str, *argv: str) -> tuple[int, str]:
    """Run the command line with ``stream`` ("stdout" or "stderr") a pipe nobody reads (its
    reading end closed); return the exit status and what the other stream got."""
    read, write = os.pipe()
    os.close(read)
    closed = stream == "stdout"
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mineproof.cli", *argv],
            stdout=write if closed else subprocess.PIPE,
            stderr=subprocess.PIPE if closed else write,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    return done.returncode, done.stderr if closed else done.stdout


def test_an_error_for_a_reader_that_left_keeps_its_status_and_its_line(tmp_path: Path) -> None:
    # Before: the JSON was printed first, its broken pipe ended the command with 141, and the
    # error line never came.
    bad = write(tmp_path, "bad.txt", "3x3x1\nHHH\nHHH\nHHH\nHHH\n")
    status, err = _with_a_closed("stdout", "analyze", bad, "--json")
    assert status == 1 and err.endswith("line 5: the header says 3 rows but 4 follow\n")


def test_a_closed_standard_error_stops_nothing(tmp_path: Path) -> None:
    # Before: the first note on standard error ended the command with 141; generate --force
    # had emptied its folder and wrote nothing.
    bad = write(tmp_path, "bad.txt", "3x3x1\nHHH\nHHH\nHHH\nHHH\n")
    status, out = _with_a_closed("stderr", "analyze", bad, "--json")
    assert status == 1 and json.loads(out)["kind"] == "format"
    folder = str(tmp_path / "boards")
    argv = ["generate", "--level", "beginner", "--count", "3", "--out", folder]
    assert _with_a_closed("stderr", *argv, "--seed", "1")[0] == 0
    status, out = _with_a_closed("stderr", *argv, "--seed", "2", "--force")
    assert status == 0 and out.startswith("wrote 3 boards")
    assert len(_boards((tmp_path / "boards" / "boards.txt").read_text())) == 3


def test_a_reader_that_leaves_analyze_early_gets_no_traceback(tmp_path: Path) -> None:
    # `mineproof analyze big | head`: about 260 KB of grid, more than a pipe holds.
    path = write(tmp_path, "big.txt", "255x255x100\n" + ("H" * 255 + "\n") * 255)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mineproof.cli", "analyze", path],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141 and err == ""


@pytest.mark.parametrize(
    "command",
    [
        "analyze",
        "solve",
        "hint",
        "explain",
        "grade",
        "generate",
        "bench",
        "replay",
        "review",
        "play",
    ],
)
def test_help_prints_no_doubled_percent(capsys: pytest.CaptureFixture[str], command: str) -> None:
    # argparse formats help strings with %, but not descriptions: a "%%" there is printed as is.
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    out, _ = capsys.readouterr()
    assert exc.value.code == 0 and command in out and "%%" not in out


def test_a_board_that_takes_long_shows_its_progress_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["generate", "--width", "16", "--height", "16", "--mines", "60", "--seed", "1"]
    status, quiet, err = run(capsys, *args)
    assert status == 0 and err == ""  # not a terminal: nothing
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    # Every report drawn, as on a board that takes long.
    monkeypatch.setattr("mineproof.cli._BoardNote.NOTE_AFTER", 0.0)
    monkeypatch.setattr("mineproof.cli._BoardNote.NOTE_EVERY", 0.0)
    status, out, err = run(capsys, *args)
    assert status == 0 and out == quiet
    notes = err.split("\r\x1b[K")
    assert notes[0] == "" and notes[-1] == ""  # erased before the board is printed
    assert notes[1].startswith("board 1: 1 layout tried (")
    assert any(", 1 change tried (" in note for note in notes)
    assert any("changes tried; grading: 1 step (" in note for note in notes)


def test_a_long_gif_or_review_shows_its_progress_on_a_terminal_then_erases_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record: dict[str, object] = {}
    play_game(Board(9, 9), 10, random.Random(2), "classic", "best", record)
    game = write(tmp_path, "game.json", json.dumps(record))
    clicks = len(record["moves"])  # type: ignore[arg-type]
    frames = clicks + 1  # the covered board, then one a click
    replay = ["replay", game, "--out", str(tmp_path / "a.gif")]
    review = ["review", game, "--gif", str(tmp_path / "b.gif")]
    quiet = [run(capsys, *args) for args in (replay, review)]
    assert all(status == 0 and err == "" for status, _, err in quiet)  # not a terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    # Every report drawn, as on a game that takes long.
    monkeypatch.setattr("mineproof.cli._BoardNote.NOTE_AFTER", 0.0)
    monkeypatch.setattr("mineproof.cli._BoardNote.NOTE_EVERY", 0.0)
    for args, (_, out_before, _) in zip((replay, review), quiet, strict=True):
        status, out, err = run(capsys, *args)
        assert status == 0 and out == out_before
        notes = err.split("\r\x1b[K")
        assert notes[0] == "" and notes[-1] == ""  # erased before the result is printed
        first = (
            f"reviewing, click: 1 of {clicks:,}"
            if args[0] == "review"
            else (f"drawing the GIF, frame: 1 of {frames:,}")
        )
        assert notes[1].startswith(f"{first} (")
        last = rf"drawing the GIF, frame: {frames:,} of {frames:,} \(\d+ s\)"
        assert any(re.fullmatch(last, note) for note in notes)


def test_a_position_read_from_a_terminal_is_asked_for(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no file, a command reads standard input: on a terminal it says so, rather than
    seem to hang; from a pipe it says nothing."""
    for terminal in (True, False):
        stdin = io.TextIOWrapper(io.BytesIO(b"3x1x1\n1HH\n"))
        monkeypatch.setattr(stdin, "isatty", lambda t=terminal: t)
        monkeypatch.setattr(sys, "stdin", stdin)
        status, out, err = run(capsys, "analyze")
        assert status == 0 and out.startswith("3x1, 1 mine, 2 covered cells")
        asked = "mineproof: reading a position from the terminal: paste it, then Ctrl+D"
        assert err.startswith(asked) if terminal else err == ""


def test_the_readme_documents_every_option_of_every_command() -> None:
    import argparse

    from mineproof.cli import _parser

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sections = readme.split("\n### ")
    (commands,) = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    for name, parser in commands.choices.items():
        # The command's own section, or the one whose synopsis shows it (replay: under bench).
        heading = re.compile(f"`mineproof {name}[ `]")
        (section,) = [s for s in sections if heading.search(s.split("\n")[0])] or [
            s for s in sections if f"\nmineproof {name} " in s
        ]
        for action in parser._actions:
            for option in action.option_strings:
                if option.startswith("--") and option != "--help":
                    assert option in section, f"mineproof {name} {option}"


@pytest.mark.parametrize("form", ["text", "json"])
def test_generate_output_is_read_back_as_a_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    # Before: "MBF data for 25,199 mines should have 50,402 bytes, got 188" (the comment line).
    board = ["generate", "--level", "beginner", "--seed", "7", "--format", form, "--reveal", "1"]
    _, one, _ = run(capsys, *board)
    path = write(tmp_path, "one", one)
    status, out, err = run(capsys, "solve", path, "--start", "4,4")
    assert (status, err) == (0, "") and out.startswith("solved from E5 (4, 4)")
    for command in ("grade", "explain"):
        status, _, err = run(capsys, command, path, "--start", "4,4")
        assert (status, err) == (0, "")
    _, three, _ = run(capsys, *board, "--count", "3")
    status, _, err = run(capsys, "solve", write(tmp_path, "three", three), "--start", "4,4")
    assert status == 1
    assert err.startswith(f"mineproof: error: {tmp_path / 'three'}: holds 3 boards: give one")


def test_analyze_shows_a_count_of_thousands_of_digits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: a traceback, "Exceeds the limit (4300 digits) for integer string conversion".
    path = write(tmp_path, "p.txt", "150x150x5000\n" + ("H" * 150 + "\n") * 150)
    status, out, err = run(capsys, "analyze", path)
    assert (status, err) == (0, "")
    assert "arrangements: about 7.9 x 10^5173" in out.splitlines()
    status, out, err = run(capsys, "analyze", path, "--json")
    assert (status, err) == (0, "")
    digits = json.loads(out)["arrangements"]
    assert len(digits) == 5174 and digits.startswith("788")


@pytest.mark.parametrize("command", ["analyze", "hint"])
def test_an_argument_too_many_points_to_the_command_help(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # Before: "(see mineproof --help)", the main help, which does not list the command's options.
    status, out, err = run(capsys, command, "a", "b")
    assert (status, out) == (2, "")
    assert err == f"mineproof: error: unrecognized arguments: b (see mineproof {command} --help)\n"
