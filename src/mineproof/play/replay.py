"""Recorded games: read them back, check them against the rules, and animate them as SVG or GIF.

A record (what :func:`mineproof.play.play_game` writes with ``record=``) holds the board, the
layout, the start and each move: ``open`` or ``flag``, the cell, the cells it opened and its
reason. The SVG animation draws the final board once and covers every cell that changed during
the game with a tile that disappears when its move is made (SVG ``<set>``), so the file stays
the size of two pictures however long the game. The GIF animation has a frame for the covered
board and one after each move, the move's cell outlined; each frame after the first stores only
the rectangle that changed.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from typing import Any

from mineproof.board import Board, Layout, cell_name
from mineproof.errors import FormatError
from mineproof.formats import parse_layout_text
from mineproof.game import Game
from mineproof.position import COVERED, FLAG, Position
from mineproof.render.gif import Frame, encode_gif
from mineproof.render.raster import EXPLODED, MINE, PALETTE, WRONG_FLAG, BoardRaster, Highlight
from mineproof.render.svg import position_svg

__all__ = ["animation_gif", "animation_svg", "gif_delays", "load_record", "replay"]

_FINAL_HOLD = 300  # hundredths of a second the last frame shows longer than the others

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
    game = Game(_layout(record))
    for _ in _moves(game, record):
        pass
    return game


def _layout(record: dict[str, Any]) -> Layout:
    """Return the recorded layout; raises ``FormatError`` when it is malformed."""
    width, height, mines = record["width"], record["height"], record["mines"]
    return parse_layout_text(f"{width}x{height}x{mines}\n" + "\n".join(record["layout"]))


def _moves(game: Game, record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Make the recorded moves on ``game`` one by one, yielding each after it is made.

    Raises ``FormatError`` when a move's opened cells differ from the record, and, once the
    moves are made, when the outcome differs.
    """
    board = game.board
    for n, move in enumerate(record["moves"], 1):
        x, y = move["cell"]
        if move["action"] == "flag":
            game.flag(x, y)
        else:
            opened = [list(board.xy(i)) for i in game.reveal(x, y)]
            if opened != move["opened"]:
                raise FormatError(f"move {n} at {cell_name(x, y)} opens other cells than recorded")
        yield move
    outcome = game.state if game.state != "playing" else "stuck"
    if outcome != record["outcome"]:
        raise FormatError(f"the replay ends {outcome}, the record says {record['outcome']}")


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


def gif_delays(seconds_per_move: float, moves: int) -> list[int]:
    """Return the delay of each frame of :func:`animation_gif`, in hundredths of a second.

    Every frame shows ``seconds_per_move`` rounded to hundredths (at least 0.02 s: browsers
    slow shorter GIF delays down to 0.1 s), the last one 3 s longer; a delay is at most
    655.35 s. There are ``moves + 1`` frames.

    >>> gif_delays(0.15, 3)
    [15, 15, 15, 315]
    """
    delay = min(0xFFFF, max(2, round(seconds_per_move * 100)))
    return [delay] * moves + [min(0xFFFF, delay + _FINAL_HOLD)]


def animation_gif(record: dict[str, Any], seconds_per_move: float = 0.15, scale: int = 1) -> bytes:
    """Return the recorded game as an animated GIF, one move every ``seconds_per_move``.

    The first frame is the covered board; each move adds a frame with the move's cell outlined
    (green for a forced or first opening, amber for a guess, red for a flag), so there are
    ``moves + 1`` frames, with the delays of :func:`gif_delays`. The last frame of a lost game
    shows the mines, the exploded one on red and wrong flags crossed out. Cells are
    ``16 * scale`` pixels square.

    Raises ``FormatError`` when the record does not replay by the rules (see :func:`replay`).
    """
    game = Game(_layout(record))
    board = game.board
    raster = BoardRaster(board.width, board.height, scale)
    delays = gif_delays(seconds_per_move, len(record["moves"]))

    def frames() -> Iterator[Frame]:
        yield Frame(raster.draw(game.position().cells), delays[0])
        last = len(delays) - 1
        for n, move in enumerate(_moves(game, record), 1):
            cells: Sequence[int] = game.position().cells
            if n == last and game.exploded is not None:
                cells = _lost(game, cells)
            mark: Highlight = "mine" if move["action"] == "flag" else "safe"
            if move["reason"].get("kind") == "guess":
                mark = "guess"
            x, y = move["cell"]
            yield Frame(raster.draw(cells, {board.index(x, y): mark}), delays[n])

    return encode_gif(
        raster.pixel_width, raster.pixel_height, PALETTE, frames(), comment=_title(record)
    )


def _lost(game: Game, cells: Sequence[int]) -> list[int]:
    """Return ``cells`` of a lost game with its mines shown: the exploded one, the covered
    ones, and the flags that were wrong."""
    mines = game.layout.mines
    out = list(cells)
    for i, code in enumerate(out):
        if i == game.exploded:
            out[i] = EXPLODED
        elif code == COVERED and mines >> i & 1:
            out[i] = MINE
        elif code == FLAG and not mines >> i & 1:
            out[i] = WRONG_FLAG
    return out


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
