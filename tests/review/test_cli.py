"""``mineproof review`` on the command line: one game, a folder with ``--jobs``, the web app's
games by id, animations, and one-line errors."""

from __future__ import annotations

import codecs
import io
import json
import shutil
import time
from pathlib import Path

import pytest

from mineproof.cli import main
from mineproof.review import recorded
from mineproof.web.store import GameRow, Store

from .test_game import LAYOUT, MOVES, RECORD, xy

REPLAYS = Path(__file__).resolve().parents[1] / "data" / "replays"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the command line in-process; return (status, stdout, stderr)."""
    try:
        status = main(["review", *args])
    except SystemExit as exc:  # the argument parser's own usage errors
        status = int(str(exc.code))
    out, err = capsys.readouterr()
    return status, out, err


def test_one_replay(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(REPLAYS / "expert-99s.rmv"))
    assert status == 0 and not err
    lines = out.splitlines()
    assert lines[0].startswith(
        "Game won, 193 clicks. Clicks by action: open 33, chord 78, flag 82."
    )
    assert lines[1].startswith("ms-toollib's statistics: 3BV 134, 3BV/s 1.357")
    assert any("#3: A mistake at B1" in line for line in lines)
    # Forced clicks are left out unless --all, or after a long think.
    assert all("A long think" in line for line in lines if "forced move" in line)
    status, out, _ = run(capsys, str(REPLAYS / "expert-99s.rmv"), "--all", "--lang", "fr")
    assert status == 0 and "Partie gagnée" in out and "coup forcé de niveau 1" in out


def test_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(json.dumps(RECORD))
    status, out, _ = run(capsys, str(game), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["summary"]["outcome"] == "lost" and data["summary"]["fatal_click"] == 9
    assert [c["judgement"] for c in data["clicks"]][:4] == ["start", "guess", None, "mistake"]
    assert data["clicks"][3]["missed"][0]["level"] == 2
    # The board needs a guess from the first click: it has no hardest level, and level 0 would
    # say that the first click clears it.
    assert data["summary"]["grade"]["solved"] is False
    assert data["summary"]["grade"]["level"] is None


def test_a_folder_with_jobs_and_a_bad_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name in ("beginner-4s.evf", "beginner-9s.avf", "expert-38s.mvf"):
        shutil.copy(REPLAYS / name, tmp_path / name)
    (tmp_path / "broken.avf").write_bytes(b"\x00" * 100)
    (tmp_path / "notes.txt").write_text("not a game")
    status, out, err = run(capsys, str(tmp_path), "--jobs", "2")
    assert status == 1
    assert err.strip().splitlines() == [
        f"mineproof: error: {tmp_path / 'broken.avf'}: not a readable .avf replay: "
        "ms-toollib could not read it (malformed or truncated)"
    ]
    table = out.split("\n\n")[-1].splitlines()
    assert table[0].split()[:2] == ["game", "result"]
    assert [row.split()[0] for row in table[1:]] == [
        "beginner-4s.evf",
        "beginner-9s.avf",
        "expert-38s.mvf",
        "all",
    ]
    assert table[-1].split()[-5:] == ["7", "0", "0", "0", "0"]  # expert-38s: 7 at level 1
    status, out, _ = run(capsys, str(tmp_path), "--json", "--jobs", "2")
    data = json.loads(out)
    assert [g["game"] for g in data["games"]] == [
        str(tmp_path / n) for n in ("beginner-4s.evf", "beginner-9s.avf", "expert-38s.mvf")
    ]
    assert data["errors"][0]["game"].endswith("broken.avf")
    assert data["mistakes_by_level"] == {"1": 7}


def test_a_game_of_the_web_app_by_id(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    store = Store(tmp_path)
    row = GameRow(
        id="ReviewMe-0123456789abcd",
        level="custom",
        width=5,
        height=4,
        mines=4,
        guess_free=False,
        seed="1",
        created=time.time(),
        layout=format(LAYOUT.mines, "x"),
    )
    store.create(row)
    for seq, (action, name) in enumerate(MOVES):
        store.append(row, seq, [(action, *xy(name))], None)
    # The store still open, as a running web app holds it: the game is read beside it (it was
    # refused: "another mineproof play is using this data folder").
    status, out, _ = run(capsys, row.id, "--data", str(tmp_path), "--json")
    assert status == 0
    assert json.loads(out)["summary"]["fatal_click"] == 9
    store.close()
    status, _, err = run(capsys, "NoSuchGame-0123456789", "--data", str(tmp_path))
    assert status == 1 and "no such file, nor a game of the web app" in err
    status, _, err = run(capsys, "NoSuchGame-0123456789", "--data", str(tmp_path / "none"))
    assert status == 1 and "no web app data" in err


def test_animations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg, gif = tmp_path / "game.svg", tmp_path / "game.gif"
    status, _, err = run(
        capsys, str(REPLAYS / "beginner-15s.avf"), "--svg", str(svg), "--gif", str(gif)
    )
    assert status == 0 and not err
    assert svg.read_text().startswith("<svg") and gif.read_bytes().startswith(b"GIF89a")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.avf"], "mineproof: error: missing.avf: no such file\n"),
        (["x.json", "--long-think", "-1"], "argument --long-think: -1 is outside 0..3600 seconds"),
        (["x.json", "--jobs", "0"], "argument --jobs: 0 is outside 1.."),
        (["x.json", "--svg", "out.png"], "argument --svg: expected a file name ending in .svg"),
        (["x.json", "--gif", "o.gif", "--scale", "9"], "argument --scale: 9 is outside 1..8"),
        ([str(REPLAYS), "--svg", "out.svg"], "--svg and --gif draw one"),
        (["game.txt"], "not a game file"),
        (
            ["broken.json"],
            "broken.json: line 1, column 14: not a recorded game: unexpected text after the end "
            "of the JSON value",
        ),
        (
            ["empty.json"],
            "empty.json: not a recorded game: empty input: expected the JSON object that bench "
            "--record writes",
        ),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.json").write_text(json.dumps(RECORD))
    (tmp_path / "game.txt").write_text("hello")
    (tmp_path / "broken.json").write_text('{"width": 9} x')
    (tmp_path / "empty.json").write_text("")
    status, out, err = run(capsys, *args)
    assert status == (2 if "argument --" in message else 1) and not out
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_a_replay_on_standard_input_is_refused_with_the_reason_and_a_record_is_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Standard input has no file name to tell a replay's format by: it said 'not a game file',
    as if the replay were broken."""
    replay = (REPLAYS / "beginner-15s.avf").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(replay)))
    status, out, err = run(capsys, "-")
    assert (status, out) == (1, "")
    assert err.startswith("mineproof: error: standard input: a replay's format is told by its file")
    for mark in (b"", codecs.BOM_UTF8):
        piped = io.BytesIO(mark + json.dumps(RECORD).encode())
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(piped))
        status, out, err = run(capsys, "-")
        assert status == 0 and out.startswith("Game "), err


def test_a_missing_ms_toollib_is_named_with_the_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recorded, "find_spec", lambda name: None)
    path = str(REPLAYS / "expert-99s.rmv")
    status, _, err = run(capsys, path)
    assert status == 1
    needs = "reading .rmv replays needs ms-toollib: pip install 'mineproof[replays]'"
    assert err == f"mineproof: error: {path}: {needs}\n"
