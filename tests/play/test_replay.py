"""Recorded games: they replay by the rules, a tampered record is caught, the animations."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageSequence

from mineproof.board import Board
from mineproof.cli import main
from mineproof.errors import FormatError
from mineproof.formats import parse_layout_text
from mineproof.game import Game
from mineproof.play import play_game
from mineproof.play.replay import animation_gif, animation_svg, gif_delays, load_record, replay
from mineproof.position import COVERED, FLAG
from mineproof.render.raster import EXPLODED, MINE, TILE, WRONG_FLAG
from mineproof.render.svg import NUMBER_COLOURS

SVG = "{http://www.w3.org/2000/svg}"


def recorded(
    seed: int, strategy: str = "best", size: tuple[int, int, int] = (9, 9, 10)
) -> dict[str, Any]:
    record: dict[str, Any] = {}
    board = Board(size[0], size[1])
    play_game(board, size[2], random.Random(seed), "classic", strategy, record)  # type: ignore[arg-type]
    return record


# What each look of a cell is made of inside the two-pixel border that outlines cover.
LOOKS = {
    frozenset({"#c0c0c0"}): COVERED,
    frozenset({"#c0c0c0", "#e00000", "#000000"}): FLAG,
    frozenset({"#e4e4e4"}): 0,
    frozenset({"#e4e4e4", "#000000", "#ffffff"}): MINE,
    frozenset({"#e00000", "#000000", "#ffffff"}): EXPLODED,
    frozenset({"#e4e4e4", "#000000", "#ffffff", "#e00000"}): WRONG_FLAG,
} | {frozenset({"#e4e4e4", c}): n for n, c in NUMBER_COLOURS.items()}
OUTLINES = {"safe": (0x13, 0x8A, 0x36), "mine": (0xD0, 0x1C, 0x1C), "guess": (0xE0, 0x8A, 0x00)}


def gif_frames(data: bytes) -> tuple[list[Image.Image], list[int], int]:
    """Return the frames of a GIF as Pillow composes them (RGB), their durations in ms and the
    loop count."""
    frames, durations = [], []
    with Image.open(io.BytesIO(data)) as im:
        for frame in ImageSequence.Iterator(im):
            frames.append(frame.convert("RGB"))
            durations.append(frame.info["duration"])
        return frames, durations, im.info["loop"]


def look(frame: Image.Image, x: int, y: int) -> int:
    """Return the cell code whose look cell (x, y) of a decoded frame has."""
    box = (x * TILE + 2, y * TILE + 2, (x + 1) * TILE - 2, (y + 1) * TILE - 2)
    rgb = frame.crop(box).tobytes()
    found = frozenset("#" + rgb[i : i + 3].hex() for i in range(0, len(rgb), 3))
    assert found in LOOKS, f"cell ({x}, {y}) has the colours {sorted(found)}"
    return LOOKS[found]


def expected_states(record: dict[str, Any]) -> list[list[int]]:
    """Return the cells after each move (and before the first), played here on a Game of our
    own; the last state of a lost game shows the mines."""
    w, h, mines = record["width"], record["height"], record["mines"]
    layout = parse_layout_text(f"{w}x{h}x{mines}\n" + "\n".join(record["layout"]))
    game = Game(layout)
    states = [list(game.position().cells)]
    for move in record["moves"]:
        if move["action"] == "flag":
            game.flag(*move["cell"])
        else:
            game.reveal(*move["cell"])
        states.append(list(game.position().cells))
    if game.exploded is not None:
        last = states[-1]
        for i in range(layout.board.size):
            if i == game.exploded:
                last[i] = EXPLODED
            elif layout.is_mine(i) and last[i] == COVERED:
                last[i] = MINE
            elif not layout.is_mine(i) and last[i] == FLAG:
                last[i] = WRONG_FLAG
    return states


def check_gif(record: dict[str, Any], data: bytes, speed: float) -> None:
    """Assert that every cell of every frame looks as the game stood at that move, that the
    move's cell is outlined in its colour, and the frame count, delays and loop."""
    frames, durations, loop = gif_frames(data)
    moves = record["moves"]
    assert len(frames) == len(moves) + 1
    assert durations == [10 * d for d in gif_delays(speed, len(moves))]
    assert durations[-1] > durations[0] and loop == 0
    w, h = record["width"], record["height"]
    for n, (frame, state) in enumerate(zip(frames, expected_states(record), strict=True)):
        assert frame.size == (w * TILE, h * TILE)
        seen = [look(frame, i % w, i // w) for i in range(w * h)]
        assert seen == state, f"frame {n}"
        if n:
            move = moves[n - 1]
            kind = "mine" if move["action"] == "flag" else "safe"
            kind = "guess" if move["reason"]["kind"] == "guess" else kind
            x, y = move["cell"]
            assert frame.getpixel((x * TILE, y * TILE)) == OUTLINES[kind], f"frame {n}"
        outlined = [
            (x, y)
            for y in range(h)
            for x in range(w)
            if frame.getpixel((x * TILE + 1, y * TILE + 8)) in OUTLINES.values()
        ]
        assert len(outlined) == (1 if n else 0), f"frame {n}: {outlined}"


def test_records_round_trip_through_json_and_the_rules() -> None:
    for seed in range(20):
        record = load_record(json.dumps(recorded(seed)))
        game = replay(record)
        assert (game.state if game.state != "playing" else "stuck") == record["outcome"]
        assert record["moves"][0]["reason"] == {"kind": "start"}
        for move in record["moves"][1:]:
            reason = move["reason"]
            assert reason["kind"] in ("forced", "guess")
            if reason["kind"] == "guess":
                assert 0 <= reason["probability"] < 1


def test_a_tampered_record_is_caught() -> None:
    record = recorded(1)
    record["moves"][0]["opened"] = record["moves"][0]["opened"][:-1] or [[8, 8]]
    with pytest.raises(FormatError, match="opens other cells"):
        replay(record)
    with pytest.raises(FormatError, match="missing"):
        load_record('{"width": 9}')


def test_animation_hides_each_changed_cell_at_its_move() -> None:
    record = recorded(2)
    root = ET.fromstring(animation_svg(record, 0.5))
    overlay = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "replay")
    changed = {
        tuple(c)
        for m in record["moves"]
        for c in (m["opened"] if m["action"] == "open" else [m["cell"]])
    }
    assert len(overlay) == len(changed)
    begins = [float(g.find(f"{SVG}set").get("begin", "0s")[:-1]) for g in overlay]  # type: ignore[union-attr]
    assert min(begins) == 0.0 and max(begins) <= 0.5 * (len(record["moves"]) - 1)


def test_gif_frames_show_the_game_move_by_move() -> None:
    outcomes = set()
    for seed in (2, 4, 7, 15):
        record = recorded(seed)
        outcomes.add(record["outcome"])
        check_gif(record, animation_gif(record, 0.25), 0.25)
    assert outcomes == {"won", "lost"}  # both ends are drawn


def test_gif_of_an_expert_game_is_small_and_right() -> None:
    record = recorded(3, size=(30, 16, 99))
    assert len(record["moves"]) > 100
    data = animation_gif(record, 0.1)
    assert len(data) < 400 * len(record["moves"])  # about 200 bytes a move, measured
    check_gif(record, data, 0.1)


def test_gif_of_a_lost_game_crosses_out_a_wrong_flag() -> None:
    record = recorded(7)
    assert record["outcome"] == "lost"
    layout = record["layout"]
    x, y = next(
        (x, y)
        for y in range(9)
        for x in range(9)
        if layout[y][x] != "*" and [x, y] not in record["moves"][0]["opened"]
    )
    wrong = {"action": "flag", "cell": [x, y], "opened": [], "reason": {"kind": "forced"}}
    record["moves"].insert(1, wrong)
    check_gif(record, animation_gif(record), 0.15)
    assert WRONG_FLAG in expected_states(record)[-1]


def test_gif_of_a_tampered_record_fails() -> None:
    record = recorded(1)
    record["outcome"] = "won" if record["outcome"] != "won" else "lost"
    with pytest.raises(FormatError, match="the replay ends"):
        animation_gif(record)


def test_cli_record_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    args = ["bench", "--level", "beginner", "--games", "4", "--seed", "3", "--record", str(folder)]
    assert main([*args, "--jobs", "2"]) == 0
    files = sorted(folder.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-0000{i}.json" for i in range(1, 5)]
    out = tmp_path / "game.svg"
    assert main(["replay", str(files[0]), "--out", str(out)]) == 0
    assert out.read_text().startswith("<svg") and "wrote" in capsys.readouterr().out
    gif = tmp_path / "game.GIF"
    assert main(["replay", str(files[0]), "--out", str(gif), "--speed", "0.5"]) == 0
    assert "wrote" in capsys.readouterr().out
    record = load_record(files[0].read_text())
    check_gif(record, gif.read_bytes(), 0.5)
    assert main(["replay", str(files[0]), "--out", str(tmp_path / "game.png")]) == 1
    assert "only SVG or GIF" in capsys.readouterr().err
    big = tmp_path / "big.gif"
    assert main(["replay", str(files[0]), "--out", str(big), "--scale", "3"]) == 0
    width = int.from_bytes(big.read_bytes()[6:8], "little")
    assert width == 3 * int.from_bytes(gif.read_bytes()[6:8], "little") == 9 * 16 * 3
    assert main(["replay", str(files[0]), "--out", str(big), "--scale", "9"]) == 1
    assert "--scale 9 is outside 1..8" in capsys.readouterr().err
