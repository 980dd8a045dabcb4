"""Recorded games: they replay by the rules, a tampered record is caught, the animations."""

from __future__ import annotations

import io
import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageSequence

from mineproof.board import Board
from mineproof.cli import main
from mineproof.errors import ArgumentError, FormatError
from mineproof.formats import parse_layout_text
from mineproof.game import Game
from mineproof.play import play_game
from mineproof.play.replay import (
    MAX_GIF_PIXELS,
    animation_gif,
    animation_svg,
    check_record,
    gif_delays,
    load_record,
    replay,
)
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


def test_the_cells_a_move_opened_may_be_listed_in_any_order() -> None:
    record = recorded(1)
    n, move = next((n, m) for n, m in enumerate(record["moves"]) if len(m.get("opened", [])) > 1)
    record["moves"][n] = {**move, "opened": move["opened"][::-1]}
    replay(record)  # the same game: no error


def test_a_record_saved_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    # Notepad on Windows may save UTF-8 with a leading byte-order mark.
    text = json.dumps(recorded(2))
    assert load_record("\ufeff" + text) == load_record(text)
    assert load_record(b"\xef\xbb\xbf" + text.encode()) == load_record(text)
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert main(["replay", str(path), "--out", str(tmp_path / "game.svg")]) == 0
    with pytest.raises(FormatError, match=r"^the input is not UTF-8 text \(bad byte at offset 1\)"):
        load_record(b"{\xff}")


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
    wrong = {
        "action": "flag",
        "cell": [x, y],
        "opened": [],
        "reason": {"kind": "forced", "by": "one clue"},
    }
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
    with pytest.raises(SystemExit, match="2"):
        main(["replay", str(files[0]), "--out", str(tmp_path / "game.png")])
    assert "ending in .svg or .gif" in capsys.readouterr().err
    big = tmp_path / "big.gif"
    assert main(["replay", str(files[0]), "--out", str(big), "--scale", "3"]) == 0
    width = int.from_bytes(big.read_bytes()[6:8], "little")
    assert width == 3 * int.from_bytes(gif.read_bytes()[6:8], "little") == 9 * 16 * 3
    with pytest.raises(SystemExit, match="2"):
        main(["replay", str(files[0]), "--out", str(big), "--scale", "9"])
    assert "--scale: 9 is outside 1..8" in capsys.readouterr().err


# Every field of a record is checked: each tampering below ends in one FormatError that names
# the field (and the move), never in a traceback or a replay that accepts it.

_DELETE = object()
_TAMPERED: list[tuple[str, tuple[Any, ...], Any, str]] = [
    # (name, path to the field, new value or _DELETE, what the message says)
    ("width missing", ("width",), _DELETE, "missing width"),
    ("width a string", ("width",), "9", "field 'width' must be an int from 1 to 255"),
    ("width a float", ("width",), 9.0, "field 'width' must be an int"),
    ("width a bool", ("width",), True, "field 'width' must be an int"),
    ("width 0", ("width",), 0, "field 'width' must be an int from 1 to 255, not 0"),
    ("width 256", ("width",), 256, "not 256"),
    ("width NaN", ("width",), float("nan"), "field 'width'"),
    ("height huge", ("height",), 10**400, "field 'height'"),
    ("mines negative", ("mines",), -1, "field 'mines' must be an int from 0 to 81"),
    ("mines disagree", ("mines",), 11, "field 'layout' holds 10 mines, field 'mines' says 11"),
    ("seed negative", ("seed",), -5, "field 'seed' must be an int from 0"),
    ("index a list", ("index",), [1], "field 'index'"),
    ("unknown rules", ("rules",), "hard", "field 'rules' must be one of classic, modern"),
    ("unknown strategy", ("strategy",), "luck", "field 'strategy' must be one of"),
    ("unknown outcome", ("outcome",), "draw", "field 'outcome' must be one of won, lost, stuck"),
    ("unknown field", ("cheat",), 1, "unknown field 'cheat'"),
    ("layout a string", ("layout",), ".........", "field 'layout' must be a list of 9 rows"),
    ("layout short", ("layout",), ["........."] * 8, "field 'layout' must be a list of 9 rows"),
    ("layout row short", ("layout", 4), "....", "field 'layout', row 5: expected 9 characters"),
    ("layout row char", ("layout", 8), "....x....", "field 'layout', row 9"),
    ("layout row int", ("layout", 0), 5, "field 'layout', row 1"),
    ("start outside", ("start",), [9, 0], "field 'start' must be a cell [x, y] of the 9x9"),
    ("start negative", ("start",), [-1, 0], "field 'start' must be a cell"),
    ("start floats", ("start",), [0.0, 0.0], "field 'start' must be a cell"),
    ("start three", ("start",), [0, 0, 0], "field 'start' must be a cell"),
    ("start elsewhere", ("start",), [4, 8], "classic rules start at (0, 0) [A1], not (4, 8)"),
    ("start a mine", ("start",), [5, 0], "the start cell (5, 0) [F1] is a mine"),
    ("moves empty", ("moves",), [], "field 'moves' must be a non-empty list"),
    ("moves a dict", ("moves",), {}, "field 'moves' must be a non-empty list"),
    ("move a list", ("moves", 1), [], "move 2 must be a JSON object"),
    ("move field missing", ("moves", 1, "cell"), _DELETE, "move 2: missing cell"),
    ("move field unknown", ("moves", 1, "why"), "x", "move 2: unknown field 'why'"),
    ("unknown action", ("moves", 1, "action"), "dig", "move 2: field 'action' must be one of"),
    ("action chord", ("moves", 4, "action"), "chord", "move 5: field 'action'"),
    (
        # before: "move 2: missing opened, reason", the fields of an open or a flag
        "unknown action, its own fields",
        ("moves", 1),
        {"action": "frobnicate", "cell": [2, 2]},
        "move 2: field 'action' must be one of",
    ),
    ("action missing", ("moves", 1, "action"), _DELETE, "move 2: missing action"),
    ("cell outside", ("moves", 1, "cell"), [2, 9], "move 2: field 'cell' must be a cell"),
    ("cell a string", ("moves", 1, "cell"), "C3", "move 2: field 'cell'"),
    ("opened a dict", ("moves", 1, "opened"), {}, "move 2: field 'opened' must be a list"),
    ("opened outside", ("moves", 1, "opened", 0), [9, 9], "move 2: field 'opened', cell 1"),
    ("opened other", ("moves", 1, "opened"), [[2, 3]], "move 2 at C3 opens other cells"),
    ("flag opens", ("moves", 3, "opened"), [[1, 3]], "move 4: a flag opens no cell"),
    ("reason missing", ("moves", 1, "reason"), _DELETE, "move 2: missing reason"),
    ("reason a string", ("moves", 1, "reason"), "forced", "move 2: field 'reason' must be"),
    ("reason unknown kind", ("moves", 1, "reason", "kind"), "hunch", "field 'reason.kind'"),
    ("reason no by", ("moves", 1, "reason", "by"), _DELETE, "move 2: missing reason.by"),
    ("reason unknown by", ("moves", 1, "reason", "by"), "magic", "field 'reason.by'"),
    ("reason extra", ("moves", 1, "reason", "p"), 0.5, "unknown field 'reason.p'"),
    ("second start", ("moves", 1, "reason"), {"kind": "start"}, "only it, has reason 'start'"),
    ("first not start", ("moves", 0, "reason"), {"kind": "forced", "by": "one clue"}, "move 1"),
    ("first elsewhere", ("moves", 0, "cell"), [1, 0], "must open the start cell (0, 0)"),
    ("first a flag", ("moves", 0, "action"), "flag", "move 1: the first move must open"),
    ("guess a flag", ("moves", 2, "action"), "flag", "move 3: a guess opens a cell"),
    ("probability 2", ("moves", 2, "reason", "probability"), 2, "from 0 to 1, not 2"),
    ("probability NaN", ("moves", 2, "reason", "probability"), float("nan"), "from 0 to 1"),
    ("probability text", ("moves", 2, "reason", "probability"), "0.1", "from 0 to 1"),
    ("guess strategy", ("moves", 2, "reason", "strategy"), "logic", "'reason.strategy'"),
    ("outcome changed", ("outcome",), "lost", "the replay ends won, the record says lost"),
]


def _tampered(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    record = recorded(2)
    record.update(seed=2, index=0)
    place: Any = record
    for key in path[:-1]:
        place = place[key]
    if value is _DELETE:
        del place[path[-1]]
    else:
        place[path[-1]] = value
    return record


@pytest.mark.parametrize(
    ("path", "value", "needle"), [t[1:] for t in _TAMPERED], ids=[t[0] for t in _TAMPERED]
)
def test_every_field_of_a_record_is_checked(path: tuple[Any, ...], value: Any, needle: str) -> None:
    record = _tampered(path, value)
    with pytest.raises(FormatError) as caught:
        replay(load_record(json.dumps(record)))
    assert needle in str(caught.value)
    with pytest.raises(FormatError):
        animation_gif(record)


def test_the_untampered_record_replays() -> None:
    record = _tampered(("seed",), 2)
    assert replay(load_record(json.dumps(record))).state == "won"


@pytest.mark.parametrize(
    ("move", "needle"),
    [
        ({"action": "open", "cell": [0, 0]}, "move 5 (open A1): the cell is already open"),
        ({"action": "flag", "cell": [0, 0]}, "move 5 (flag A1): the cell is already open"),
        ({"action": "flag", "cell": [1, 3]}, "move 5 (flag B4): the cell is already flagged"),
        ({"action": "open", "cell": [1, 3]}, "move 5 (open B4): the cell is flagged"),
    ],
)
def test_moves_the_rules_forbid_are_named(move: dict[str, Any], needle: str) -> None:
    record = recorded(2)
    extra = {"opened": [], "reason": {"kind": "forced", "by": "one clue"}, **move}
    record["moves"].insert(4, extra)
    with pytest.raises(FormatError, match=re.escape(needle)):
        replay(record)


def test_a_move_after_the_end_is_named() -> None:
    record = recorded(7)  # lost on its second move
    reason = {"kind": "forced", "by": "one clue"}
    record["moves"].append({"action": "flag", "cell": [8, 8], "opened": [], "reason": reason})
    with pytest.raises(FormatError, match=r"move 3 \(flag I9\) comes after the end of the game"):
        replay(record)


def test_modern_rules_keep_the_opening_free() -> None:
    record = recorded(2)
    record["rules"] = "modern"
    with pytest.raises(FormatError, match=r"modern rules start at \(3, 3\)"):
        replay(record)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "not a recorded game: empty input: expected the JSON object that bench --record"),
        (" \n", "not a recorded game: empty input: expected the JSON object that bench --record"),
        ("[1, 2]", "expected a JSON object, not [1, 2]"),
        ("3x1x1\n1H1", "expected the JSON object that bench --record writes, not text starting"),
        ('{"width": 9}', "missing height, mines, layout, start, moves, outcome"),
        ("[" * 100_000, "not a recorded game"),
        ('{"width": 1' + "0" * 5000 + "}", "not a recorded game"),
        ('{"width": 9,\n "height": }', "line 2, column 12"),
        (
            '{"width": 9,\n "height": }',
            "line 2, column 12: not a recorded game: expected a JSON value (a number, string, "
            "list or object)",
        ),
        (
            '{"width": 9} x',
            "line 1, column 14: not a recorded game: unexpected text after the end of the JSON "
            "value",
        ),
        ("{'width': 9}", "line 1, column 2: not a recorded game: expected a key in double quotes"),
        ('{"width": 9\n "height": 9}', "line 2, column 2: not a recorded game: expected a comma"),
    ],
)
def test_text_that_is_not_a_record(text: str, needle: str) -> None:
    with pytest.raises(FormatError) as caught:
        load_record(text)
    assert needle in str(caught.value)


def test_more_moves_than_cells() -> None:
    record = recorded(2)
    record["moves"] += [record["moves"][-1]] * 81
    with pytest.raises(FormatError, match="more than the 81 cells"):
        check_record(record)


def test_a_gif_too_large_for_memory_is_refused() -> None:
    record = recorded(0, "logic", size=(255, 20, 10))
    with pytest.raises(ArgumentError, match=r"at scale 8 would have 32640x2560 pixels"):
        animation_gif(record, scale=8)
    assert MAX_GIF_PIXELS == 4096 * 4096


def _shows(element: ET.Element, parents: dict[ET.Element, ET.Element], t: float) -> bool:
    """Return whether ``element`` shows at ``t`` seconds, from its and its parents'
    ``visibility`` and ``<set>`` animations, read from the SVG alone."""
    node: ET.Element | None = element
    while node is not None:
        state = node.get("visibility", "visible")
        for begin, to in sorted(
            (float(s.get("begin", "0s")[:-1]), s.get("to", state))
            for s in node.findall(f"{SVG}set")
        ):
            if begin <= t + 1e-9:
                state = to
        if state == "hidden":
            return False
        node = parents.get(node)
    return True


def test_the_svg_of_a_lost_game_ends_as_its_gif_does() -> None:
    record = next(r for r in map(recorded, range(2, 30)) if r["outcome"] == "lost")
    root = ET.fromstring(animation_svg(record, 0.5))
    parents = {child: parent for parent in root.iter() for child in parent}
    order = {element: n for n, element in enumerate(root.iter())}
    moves = record["moves"]
    end = 0.5 * (len(moves) - 1)
    # The mines, from the layout: those still covered at the end, and the one that went off.
    rows = record["layout"]
    flagged = {tuple(m["cell"]) for m in moves if m["action"] == "flag"}
    x, y = moves[-1]["cell"]
    want = {
        (f"{chr(65 + i)}{j + 1}", "lost exploded" if (i, j) == (x, y) else "lost mine")
        for j, row in enumerate(rows)
        for i, c in enumerate(row)
        if c == "*" and (i, j) not in flagged
    }
    lost = [g for g in root.iter(f"{SVG}g") if str(g.get("class", "")).startswith("lost ")]
    assert {(g.get("data-cell"), g.get("class")) for g in lost} == want
    assert all(_shows(g, parents, end) and not _shows(g, parents, end - 0.5) for g in lost)
    # Every move's cell is outlined while it is the last move; the one that lost stays, on top.
    marks = [e for e in root.iter(f"{SVG}rect") if str(e.get("class", "")).startswith("mark ")]
    for n, move in enumerate(moves):
        i, j = move["cell"]
        name = f"{chr(65 + i)}{j + 1}"
        now = {e.get("data-cell") for e in marks if _shows(e, parents, 0.5 * n)}
        assert now == {name}, (n, now)
    last = next(e for e in marks if _shows(e, parents, end))
    assert last.get("class") == "mark guess" and all(order[last] > order[g] for g in lost)
