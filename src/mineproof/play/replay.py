"""Recorded games: read them back, check them against the rules, and animate them as SVG.

A record (what :func:`mineproof.play.play_game` writes with ``record=``) holds the board, the
layout, the start and each move: ``open`` or ``flag``, the cell, the cells it opened and its
reason. The animation draws the final board once and covers every cell that changed during the
game with a tile that disappears when its move is made (SVG ``<set>``), so the file stays the
size of two pictures however long the game.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from mineproof.board import Board, cell_name
from mineproof.errors import FormatError
from mineproof.formats import parse_layout_text
from mineproof.game import Game
from mineproof.position import COVERED, Position
from mineproof.render.svg import position_svg

__all__ = ["animation_svg", "load_record", "replay"]

_SVG = "http://www.w3.org/2000/svg"


def load_record(text: str) -> dict[str, Any]:
    """Return a recorded game read from JSON; raises ``FormatError`` when it is not one."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not a recorded game: {exc.msg}", line=exc.lineno) from None
    needed = {"width", "height", "mines", "layout", "start", "moves", "outcome"}
    if not isinstance(record, dict) or not needed <= set(record):
        missing = sorted(needed - set(record)) if isinstance(record, dict) else sorted(needed)
        raise FormatError(f"not a recorded game: missing {', '.join(missing)}")
    return record


def replay(record: dict[str, Any]) -> Game:
    """Play the recorded moves again on the recorded layout; return the finished game.

    Raises ``FormatError`` when a move's opened cells or the outcome differ from the record.
    """
    width, height, mines = record["width"], record["height"], record["mines"]
    layout = parse_layout_text(f"{width}x{height}x{mines}\n" + "\n".join(record["layout"]))
    game = Game(layout)
    board = layout.board
    for n, move in enumerate(record["moves"], 1):
        x, y = move["cell"]
        if move["action"] == "flag":
            game.flag(x, y)
            continue
        opened = [list(board.xy(i)) for i in game.reveal(x, y)]
        if opened != move["opened"]:
            raise FormatError(f"move {n} at {cell_name(x, y)} opens other cells than recorded")
    outcome = game.state if game.state != "playing" else "stuck"
    if outcome != record["outcome"]:
        raise FormatError(f"the replay ends {outcome}, the record says {record['outcome']}")
    return game


def animation_svg(record: dict[str, Any], seconds_per_move: float = 0.15) -> str:
    """Return the recorded game as an animated SVG, one move every ``seconds_per_move``."""
    game = replay(record)
    board = game.board
    final = game.position()
    covered = Position(board, (COVERED,) * board.size, final.mines)
    ET.register_namespace("", _SVG)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    picture = ET.fromstring(position_svg(final, title=_title(record)))
    tiles = ET.fromstring(position_svg(covered))
    when: dict[str, float] = {}
    for n, move in enumerate(record["moves"]):
        t = round(n * seconds_per_move, 3)
        cells = move["opened"] if move["action"] == "open" else [move["cell"]]
        for x, y in cells:
            when.setdefault(cell_name(x, y), t)
    overlay = ET.SubElement(picture, f"{{{_SVG}}}g", {"class": "replay"})
    groups: dict[str, ET.Element] = {}
    for element in list(tiles.iter()):
        name = element.get("data-cell")
        if name is None or name not in when or element.tag.endswith("text"):
            continue
        if name not in groups:
            groups[name] = ET.SubElement(overlay, f"{{{_SVG}}}g", {"data-cell": name})
        groups[name].append(element)
    for name, group in groups.items():
        ET.SubElement(
            group,
            f"{{{_SVG}}}set",
            {
                "attributeName": "visibility",
                "to": "hidden",
                "begin": f"{when[name]}s",
                "fill": "freeze",
            },
        )
    if game.exploded is not None:
        _explosion(picture, tiles, board, game.exploded, len(record["moves"]) * seconds_per_move)
    return ET.tostring(picture, encoding="unicode")


def _title(record: dict[str, Any]) -> str:
    guesses = sum(m["reason"].get("kind") == "guess" for m in record["moves"])
    return (
        f"{record['width']}x{record['height']}/{record['mines']}: {record['outcome']} "
        f"in {len(record['moves'])} moves, {guesses} guesses"
    )


def _explosion(picture: ET.Element, tiles: ET.Element, board: Board, cell: int, at: float) -> None:
    """Mark the mine that ended a lost game, appearing when the last move is made."""
    name = board.name(cell)
    rect = next(e for e in tiles.iter() if e.get("data-cell") == name and e.tag.endswith("rect"))
    mark = ET.SubElement(
        picture,
        f"{{{_SVG}}}rect",
        {
            "x": rect.get("x", "0"),
            "y": rect.get("y", "0"),
            "width": rect.get("width", "0"),
            "height": rect.get("height", "0"),
            "fill": "#e00000",
            "class": "exploded",
            "visibility": "hidden",
        },
    )
    ET.SubElement(
        mark,
        f"{{{_SVG}}}set",
        {"attributeName": "visibility", "to": "visible", "begin": f"{at:.3f}s", "fill": "freeze"},
    )
