"""Recorded games: they replay by the rules, a tampered record is caught, the animation."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from mineproof.board import Board
from mineproof.cli import main
from mineproof.errors import FormatError
from mineproof.play import play_game
from mineproof.play.replay import animation_svg, load_record, replay

SVG = "{http://www.w3.org/2000/svg}"


def recorded(seed: int, strategy: str = "best") -> dict[str, Any]:
    record: dict[str, Any] = {}
    play_game(Board(9, 9), 10, random.Random(seed), "classic", strategy, record)  # type: ignore[arg-type]
    return record


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


def test_cli_record_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    args = ["bench", "--level", "beginner", "--games", "4", "--seed", "3", "--record", str(folder)]
    assert main([*args, "--jobs", "2"]) == 0
    files = sorted(folder.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-0000{i}.json" for i in range(1, 5)]
    out = tmp_path / "game.svg"
    assert main(["replay", str(files[0]), "--out", str(out)]) == 0
    assert out.read_text().startswith("<svg") and "wrote" in capsys.readouterr().out
    assert main(["replay", str(files[0]), "--out", str(tmp_path / "game.gif")]) == 1
    assert "only SVG" in capsys.readouterr().err
