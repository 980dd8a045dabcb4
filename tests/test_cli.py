"""The command line: outputs of analyze and solve, and one-line errors for every bad input."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from mineproof.board import Board, Layout
from mineproof.cli import main
from mineproof.formats import format_mbf
from mineproof.logic import LEVEL_NAMES, solve
from mineproof.play import play_game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "intermediate-midgame.txt"
LAYOUT = ROOT / "examples" / "expert-solvable.mbf"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the command line in-process; return (status, stdout, stderr)."""
    status = main(list(args))
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


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", str(LAYOUT), "--start", "15,8", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["solved"] is True and data["revealed"] == data["safe_cells"] == 381
    assert data["steps"] > 0


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
    assert status == 0 and data["solved"] is False and data["revealed"] < data["safe_cells"]
    assert data["position"].startswith("30x16x99\n")


BAD_INPUTS = [
    ("missing file", ["analyze", "{tmp}/nope.txt"], "no such file"),
    ("directory", ["analyze", "{tmp}"], "is a directory"),
    ("short row", ["analyze", "{short}"], "line 3"),
    ("unknown character", ["analyze", "{char}"], "column 2"),
    ("digit above neighbours", ["analyze", "{corner4}"], "more than its 3 neighbours"),
    ("digit above 8", ["analyze", "{nine}"], "column 2"),
    ("more mines than covered", ["analyze", "{toomany}"], "more than the 2 covered"),
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
        "mbf_out": write(tmp_path, "out.mbf", bytes([3, 3, 0, 1, 5, 0])),
        "mbf_twice": write(tmp_path, "twice.mbf", bytes([3, 3, 0, 2, 1, 1, 1, 1])),
    }
    status, out, err = run(capsys, *[a.format(**files) for a in argv])
    assert status == 1, name
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("mineproof: error: ")
    assert needle in err
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
        f"({LEVEL_NAMES[3]}) found after 20000 layouts\n"
    )


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


def test_hint_json_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "e.txt", "4x3x3\n01HH\n13HH\nHHHH\n")
    svg = tmp_path / "hint.svg"
    status, out, _ = run(capsys, "hint", path, "--json", "--svg", str(svg))
    assert status == 0
    data = json.loads(out)
    assert data["level"] == 3 and data["rule"] == "combination"
    assert data["premises"] == [[1, 0], [0, 1], [1, 1]]
    assert data["uses_mine_count"] is False
    assert data["safe"] == [] and data["mine"] == [[2, 2]]
    assert data["minimal"] is True and data["fewest"] is True
    # The 3 at B2 less the 1 at B1 and the 1 at A2 leaves C3 = 1.
    assert data["proof"] == {
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


def test_hint_in_another_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "e.txt", "4x3x3\n01HH\n13HH\nHHHH\n")
    _, english, _ = run(capsys, "hint", path)
    _, german, _ = run(capsys, "hint", path, "--lang", "de")
    assert "C3" in german and german != english


def test_grade_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "grade", str(LAYOUT), "--start", "15,8", "--json")
    data = json.loads(out)
    assert status == 0 and data["solved"] is True
    assert data["level"] == max(int(k) for k in data["steps"])
    assert data["total_steps"] == sum(data["steps"].values())
    status, out, _ = run(capsys, "explain", str(LAYOUT), "--start", "15,8")
    lines = out.strip().splitlines()
    assert status == 0 and lines[0].startswith("1. [")
    assert len(lines) == data["total_steps"] + 1
    assert lines[-1].startswith("Solved without a guess")


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
    assert proc.wait(timeout=60) == 1
    assert "Traceback" not in err and err == ""
