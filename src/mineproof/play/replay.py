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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from mineproof.board import MAX_SIDE, Board, Layout, cell_name
from mineproof.english import counted
from mineproof.errors import ArgumentError, FormatError
from mineproof.formats import decode_text, parse_layout_text, read_json
from mineproof.game import Game
from mineproof.play.player import RULES, STRATEGIES
from mineproof.position import COVERED, FLAG, Position
from mineproof.render.gif import Frame, encode_gif
from mineproof.render.raster import (
    EXPLODED,
    MINE,
    OUTLINES,
    PALETTE,
    WRONG_FLAG,
    BoardRaster,
    Highlight,
)
from mineproof.render.svg import lost_tile, position_svg

__all__ = [
    "MAX_GIF_PIXELS",
    "animation_gif",
    "animation_svg",
    "changed_cells",
    "check_record",
    "gif_delays",
    "gif_frames",
    "gif_raster",
    "load_record",
    "lost_cells",
    "mark_loss",
    "replay",
]

_FINAL_HOLD = 300  # hundredths of a second the last frame shows longer than the others

_SVG = "http://www.w3.org/2000/svg"


_RECORD = "the JSON object that bench --record writes"
_NEEDED = ("width", "height", "mines", "layout", "start", "moves", "outcome")
_FIELDS = frozenset((*_NEEDED, "seed", "index", "rules", "strategy"))
_MOVE_FIELDS = frozenset(("action", "cell", "opened", "reason"))
_ACTIONS = ("open", "flag")
_OUTCOMES = ("won", "lost", "stuck")
_GUESSERS = ("safest", "best")
_FORCED_BY = ("one clue", "exact analysis")
_REASON_FIELDS = {
    "start": frozenset(("kind",)),
    "forced": frozenset(("kind", "by")),
    "guess": frozenset(("kind", "probability", "strategy")),
}
MAX_GIF_PIXELS = 2**24
"""The most pixels a frame of :func:`animation_gif` may have (4096 x 4096): a 255x255 board at
scale 1 (4080 x 4080), an expert board at scale 8. Each frame is held in memory, a byte a pixel."""


def load_record(text: str | bytes) -> dict[str, Any]:
    """Return a recorded game read from JSON, with every field checked (:func:`check_record`).

    ``text`` may be bytes (decoded as UTF-8, see :func:`mineproof.formats.decode_text`); a
    leading byte-order mark is dropped, as some editors on Windows write one.
    Raises ``FormatError`` when the bytes are not UTF-8, the text is empty or not JSON (see
    :func:`mineproof.formats.read_json`: with its line and column, in plain English) or not a
    recorded game (naming the field, and the move, that is wrong).
    """
    text = decode_text(text) if isinstance(text, bytes) else text.removeprefix("\ufeff")
    start = text.lstrip()[:1]
    if start and start not in "{[":  # not JSON at all (a position, a layout): say what is wanted
        raise FormatError(
            f"not a recorded game: expected {_RECORD}, not text starting {text.lstrip()[:12]!r}"
        )
    return check_record(read_json(text, "not a recorded game", _RECORD))


def check_record(record: object) -> dict[str, Any]:
    """Return ``record`` when it is a well-formed recorded game; raise ``FormatError`` otherwise.

    Checks every field, as :func:`mineproof.play.play_game` writes them: ``width`` and
    ``height`` (1-255), ``mines`` (0 to the cells), ``layout`` (``height`` rows of ``width``
    characters ``*`` and ``.``, holding ``mines`` mines), ``start`` (a cell of the board, free of
    mines; with ``rules``, the rules' first click and its guarantee), ``outcome`` (won, lost or
    stuck), the optional ``seed``, ``index`` (ints from 0), ``rules`` and ``strategy``; and
    ``moves``: at most one a cell, each an object with ``action`` (open or flag), ``cell`` and
    ``opened`` (``[x, y]`` cells of the board; none for a flag), and ``reason`` (``start`` for
    the first move, an opening of ``start``, and only for it; ``forced`` with ``by``; or
    ``guess`` with ``probability`` from 0 to 1 and ``strategy``). No other field is allowed.
    Whether the moves replay by the rules is checked by :func:`replay`. The message names the
    field and the move (1-based).
    """
    if not isinstance(record, dict):
        raise FormatError(f"not a recorded game: expected a JSON object, not {_shown(record)}")
    missing = [key for key in _NEEDED if key not in record]
    if missing:
        raise FormatError(f"not a recorded game: missing {', '.join(missing)}")
    unknown = sorted(str(key) for key in record if key not in _FIELDS)
    if unknown:
        raise FormatError(f"not a recorded game: unknown field {unknown[0]!r}")
    width = _int(record["width"], "field 'width'", 1, MAX_SIDE)
    height = _int(record["height"], "field 'height'", 1, MAX_SIDE)
    board = Board(width, height)
    _int(record["mines"], "field 'mines'", 0, board.size)
    for key in ("seed", "index"):
        if key in record:
            _int(record[key], f"field {key!r}", 0, None)
    if "rules" in record:
        _choice(record["rules"], "field 'rules'", tuple(RULES))
    if "strategy" in record:
        _choice(record["strategy"], "field 'strategy'", STRATEGIES)
    _choice(record["outcome"], "field 'outcome'", _OUTCOMES)
    layout = _record_layout(record, board)
    start = _cell(record["start"], "field 'start'", board)
    i = board.index(*start)
    if layout.is_mine(i):
        raise FormatError(f"field 'start': the start cell {_named(start)} is a mine in the layout")
    if "rules" in record:
        cell, guarantee = RULES[record["rules"]]
        if cell[0] >= width or cell[1] >= height:
            cell = (0, 0)
        if start != cell:
            raise FormatError(
                f"field 'start': {record['rules']} rules start at {_named(cell)}, "
                f"not {_named(start)}"
            )
        if layout.mines & board.start_area(i, guarantee):
            raise FormatError(
                f"field 'start': {record['rules']} rules keep the start cell "
                f"{'and its neighbours ' if guarantee == 'opening' else ''}free of mines, "
                "but the layout has a mine there"
            )
    moves = record["moves"]
    if not isinstance(moves, list) or not moves:
        raise FormatError(f"field 'moves' must be a non-empty list, not {_shown(moves)}")
    if len(moves) > board.size:
        raise FormatError(
            f"field 'moves' holds {counted(len(moves), 'move')}, more than the "
            f"{counted(board.size, 'cell')}"
        )
    for n, move in enumerate(moves, 1):
        _check_move(move, n, board, start)
    return record


def _check_move(move: object, n: int, board: Board, start: tuple[int, int]) -> None:
    """Raise ``FormatError`` naming move ``n`` and the field when ``move`` is not well formed."""
    where = f"move {n}"
    if not isinstance(move, dict):
        raise FormatError(f"{where} must be a JSON object, not {_shown(move)}")
    missing = [key for key in ("action", "cell", "opened", "reason") if key not in move]
    lacking = FormatError(f"{where}: missing {', '.join(missing)}")
    if "action" in missing:
        raise lacking
    # The action first: a move of another kind (a chord, say) lacks the fields of ours.
    action = _choice(move["action"], f"{where}: field 'action'", _ACTIONS)
    if missing:
        raise lacking
    unknown = sorted(str(key) for key in move if key not in _MOVE_FIELDS)
    if unknown:
        raise FormatError(f"{where}: unknown field {unknown[0]!r}")
    cell = _cell(move["cell"], f"{where}: field 'cell'", board)
    opened = move["opened"]
    if not isinstance(opened, list) or len(opened) > board.size:
        raise FormatError(f"{where}: field 'opened' must be a list of cells, not {_shown(opened)}")
    for k, item in enumerate(opened, 1):
        _cell(item, f"{where}: field 'opened', cell {k}", board)
    reason = move["reason"]
    if not isinstance(reason, dict):
        raise FormatError(f"{where}: field 'reason' must be a JSON object, not {_shown(reason)}")
    kind = _choice(reason.get("kind"), f"{where}: field 'reason.kind'", tuple(_REASON_FIELDS))
    extra = sorted(str(key) for key in reason if key not in _REASON_FIELDS[kind])
    if extra:
        raise FormatError(f"{where}: unknown field 'reason.{extra[0]}' for a {kind} move")
    if (kind == "start") != (n == 1):
        raise FormatError(
            f"{where}: the first move, and only it, has reason 'start'"
            + (f", not {kind!r}" if n == 1 else "")
        )
    if kind == "start" and (action != "open" or cell != start):
        raise FormatError(
            f"{where}: the first move must open the start cell {_named(start)}, "
            f"not {action} {_named(cell)}"
        )
    if kind == "forced":
        if "by" not in reason:
            raise FormatError(f"{where}: missing reason.by")
        _choice(reason["by"], f"{where}: field 'reason.by'", _FORCED_BY)
    if kind == "guess":
        if action != "open":
            raise FormatError(f"{where}: a guess opens a cell; it cannot {action} one")
        for key in ("probability", "strategy"):
            if key not in reason:
                raise FormatError(f"{where}: missing reason.{key}")
        p = reason["probability"]
        if type(p) not in (int, float) or not 0 <= p <= 1:
            raise FormatError(
                f"{where}: field 'reason.probability' must be a number from 0 to 1, not {_shown(p)}"
            )
        _choice(reason["strategy"], f"{where}: field 'reason.strategy'", _GUESSERS)
    if action == "flag" and opened:
        raise FormatError(f"{where}: a flag opens no cell, but field 'opened' lists {len(opened)}")


def _record_layout(record: dict[str, Any], board: Board) -> Layout:
    """Return the layout of a record whose size is checked; raises ``FormatError`` naming the
    row of ``layout`` that is wrong."""
    rows = record["layout"]
    width, height = board.width, board.height
    if not isinstance(rows, list) or len(rows) != height:
        raise FormatError(
            f"field 'layout' must be a list of {counted(height, 'row')} of "
            f"{counted(width, 'character')} * and ., "
            f"not {_shown(rows)}"
        )
    for y, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != width or set(row) - {"*", "."}:
            raise FormatError(
                f"field 'layout', row {y + 1}: expected {counted(width, 'character')} * and ., "
                f"not {_shown(row)}"
            )
    count = sum(row.count("*") for row in rows)
    if count != record["mines"]:
        raise FormatError(
            f"field 'layout' holds {counted(count, 'mine')}, field 'mines' says {record['mines']}"
        )
    return _layout(record)


def _int(value: object, what: str, low: int, high: int | None) -> int:
    """Return ``value`` when it is an int from ``low`` to ``high``; raise ``FormatError``."""
    if type(value) is not int or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"from {low}"
        raise FormatError(f"{what} must be an int {bounds}, not {_shown(value)}")
    return value


def _choice(value: object, what: str, choices: tuple[str, ...]) -> str:
    """Return ``value`` when it is one of ``choices``; raise ``FormatError`` otherwise."""
    if not isinstance(value, str) or value not in choices:
        raise FormatError(f"{what} must be one of {', '.join(choices)}, not {_shown(value)}")
    return value


def _cell(value: object, what: str, board: Board) -> tuple[int, int]:
    """Return ``(x, y)`` when ``value`` is ``[x, y]`` on ``board``; raise ``FormatError``."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int for v in value)
        or not (0 <= value[0] < board.width and 0 <= value[1] < board.height)
    ):
        raise FormatError(
            f"{what} must be a cell [x, y] of the {board.width}x{board.height} board, "
            f"not {_shown(value)}"
        )
    return value[0], value[1]


def _named(cell: tuple[int, int]) -> str:
    """Return a cell as ``(x, y) [C4]``."""
    return f"({cell[0]}, {cell[1]}) [{cell_name(*cell)}]"


def _shown(value: object) -> str:
    """Return ``value`` as short JSON for a message (at most 40 characters)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def replay(record: dict[str, Any]) -> Game:
    """Play the recorded moves again on the recorded layout; return the finished game.

    Raises ``FormatError`` when the record is malformed (see :func:`check_record`), when a move
    is not allowed (on an opened cell, a flagged one, after the end) or opens other cells than
    recorded, and when the outcome differs from the record.
    """
    check_record(record)
    game = Game(_layout(record))
    for _ in _moves(game, record):
        pass
    return game


def _layout(record: dict[str, Any]) -> Layout:
    """Return the layout of a checked record."""
    width, height, mines = record["width"], record["height"], record["mines"]
    return parse_layout_text(f"{width}x{height}x{mines}\n" + "\n".join(record["layout"]))


def _moves(game: Game, record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Make the recorded moves of a checked record on ``game`` one by one, yielding each after
    it is made.

    Raises ``FormatError`` naming the move when it comes after the end, opens or flags an
    opened cell, opens a flagged one, flags a flagged one, or opens other cells than recorded
    (the order they are listed in does not matter);
    and, once the moves are made, when the outcome differs.
    """
    board = game.board
    for n, move in enumerate(record["moves"], 1):
        x, y = move["cell"]
        i = board.index(x, y)
        what = f"move {n} ({move['action']} {cell_name(x, y)})"
        if game.state != "playing":
            raise FormatError(f"{what} comes after the end of the game ({game.state})")
        if game.opened_mask >> i & 1:
            raise FormatError(f"{what}: the cell is already open")
        flagged = bool(game.flag_mask >> i & 1)
        if move["action"] == "flag":
            if flagged:
                raise FormatError(f"{what}: the cell is already flagged")
            game.flag(x, y)
        else:
            if flagged:
                raise FormatError(f"{what}: the cell is flagged")
            opened = [list(board.xy(c)) for c in game.reveal(x, y)]
            if sorted(opened) != sorted(move["opened"]):  # the same cells, in any order
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
    if game.state == "lost":
        mark_loss(picture, tiles, game, (len(record["moves"]) - 1) * seconds_per_move)
    _outline_moves(picture, tiles, record, seconds_per_move)
    return ET.tostring(picture, encoding="unicode")


def _outline_moves(
    picture: ET.Element, tiles: ET.Element, record: dict[str, Any], seconds_per_move: float
) -> None:
    """Add to ``picture`` the outline of each move's cell, as the GIF's frames draw it (green a
    forced or first opening, amber a guess, red a flag), shown from the move until the next
    one; the last move's stays, on top of the end of a lost game."""
    rects = _cell_rects(tiles)
    moves = record["moves"]
    for n, move in enumerate(moves):
        mark: Highlight = "mine" if move["action"] == "flag" else "safe"
        if move["reason"].get("kind") == "guess":
            mark = "guess"
        rect = rects[cell_name(*move["cell"])]
        box = ET.SubElement(
            picture,
            f"{{{_SVG}}}rect",
            {
                **{k: rect.get(k, "0") for k in ("x", "y", "width", "height")},
                "fill": "none",
                "stroke": OUTLINES[mark],
                "stroke-width": "3",
                "class": f"mark {mark}",
                "data-cell": cell_name(*move["cell"]),
                "visibility": "hidden",
            },
        )
        for to, when in (("visible", n), ("hidden", n + 1)):
            if to == "hidden" and n == len(moves) - 1:
                break
            ET.SubElement(
                box,
                f"{{{_SVG}}}set",
                {
                    "attributeName": "visibility",
                    "to": to,
                    "begin": f"{round(when * seconds_per_move, 3)}s",
                    "fill": "freeze",
                },
            )


def gif_raster(board: Board, scale: int) -> BoardRaster:
    """Return the raster of the frames of a GIF of ``board``, cells ``16 * scale`` pixels
    square. Raises ``ArgumentError`` when a frame would have more than
    :data:`MAX_GIF_PIXELS` pixels."""
    side = 16 * scale
    if board.width * side * board.height * side > MAX_GIF_PIXELS:
        raise ArgumentError(
            f"a GIF of the {board.width}x{board.height} board at scale {scale} would have "
            f"{board.width * side}x{board.height * side} pixels, more than {MAX_GIF_PIXELS:,}",
            name="scale",
        )
    return BoardRaster(board.width, board.height, scale)


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


def animation_gif(
    record: dict[str, Any],
    seconds_per_move: float = 0.15,
    scale: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """Return the recorded game as an animated GIF, one move every ``seconds_per_move``.

    The first frame is the covered board; each move adds a frame with the move's cell outlined
    (green for a forced or first opening, amber for a guess, red for a flag), so there are
    ``moves + 1`` frames, with the delays of :func:`gif_delays`. The last frame of a lost game
    shows the mines, the exploded one on red and wrong flags crossed out. Cells are
    ``16 * scale`` pixels square. ``progress``, when given, is told ``(frames made, frames)``
    after each frame.

    Raises ``FormatError`` when the record does not replay by the rules (see :func:`replay`),
    and ``ArgumentError`` when a frame would have more than :data:`MAX_GIF_PIXELS` pixels.
    """
    check_record(record)
    game = Game(_layout(record))
    board = game.board
    raster = gif_raster(board, scale)
    delays = gif_delays(seconds_per_move, len(record["moves"]))

    def outlines() -> Iterator[dict[int, Highlight]]:
        for move in _moves(game, record):
            mark: Highlight = "mine" if move["action"] == "flag" else "safe"
            if move["reason"].get("kind") == "guess":
                mark = "guess"
            x, y = move["cell"]
            yield {board.index(x, y): mark}

    return encode_gif(
        raster.pixel_width,
        raster.pixel_height,
        PALETTE,
        gif_frames(game, raster, delays, outlines(), progress),
        comment=_title(record),
    )


def gif_frames(
    game: Game,
    raster: BoardRaster,
    delays: Sequence[int],
    outlines: Iterable[Mapping[int, Highlight]],
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Frame]:
    """Yield the frames of ``game`` as it is played: its position now, then one after each
    move, which ``outlines`` makes as it yields the cells to outline in that move's frame.
    Frame ``n`` shows ``delays[n]``; the last, when the game is then lost (by a mine, or a flag
    under strict flags), shows its mines (:func:`lost_cells`). Each frame after the first is
    painted from the cells its move changed and comes with the raster's box (a view of the
    raster's pixels, which the next frame changes). ``progress``, when given, is told
    ``(frames made, frames)`` after each frame."""
    before = game.position()
    yield Frame(raster.draw(before.cells), delays[0])
    if progress is not None:
        progress(1, len(delays))
    for n, outlined in enumerate(outlines, 1):
        after = game.position()
        cells: Sequence[int] = after.cells
        changed: Iterable[int] | None = changed_cells(before, after)
        if n == len(delays) - 1 and game.state == "lost":
            cells, changed = lost_cells(game, cells), None
        yield Frame(raster.draw_view(cells, outlined, changed), delays[n], raster.box)
        before = after
        if progress is not None:
            progress(n + 1, len(delays))


def changed_cells(before: Position, after: Position) -> list[int]:
    """Return the cells that are covered, opened or flagged in ``after`` otherwise than in
    ``before`` (two positions of one game), in index order."""
    diff = (before.covered_mask ^ after.covered_mask) | (before.flag_mask ^ after.flag_mask)
    cells = []
    while diff:  # one step a changed cell, not a cell of the board
        low = diff & -diff
        cells.append(low.bit_length() - 1)
        diff ^= low
    return cells


def lost_cells(game: Game, cells: Sequence[int]) -> list[int]:
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
        f"in {counted(len(record['moves']), 'move')}, {counted(guesses, 'guess', 'guesses')}"
    )


def _cell_rects(tiles: ET.Element) -> dict[str, ET.Element]:
    """Return the first ``<rect>`` of each cell of the drawing ``tiles``, by the cell's name:
    its place and size."""
    rects: dict[str, ET.Element] = {}
    for element in tiles.iter():
        name = element.get("data-cell")
        if name is not None and element.tag.endswith("rect"):
            rects.setdefault(name, element)
    return rects


def mark_loss(picture: ET.Element, tiles: ET.Element, game: Game, at: float) -> ET.Element:
    """Add to ``picture`` the end of the lost ``game`` as the last frame of its GIF shows it,
    appearing at ``at`` seconds: every mine that was covered, the mine that went off on red
    (``class="exploded"``) and the flags with no mine under them crossed out (see
    :func:`lost_cells`). ``tiles`` is a drawing of the same board (its cells give the places).
    Returns the group added (``class="lost"``), so that marks added later lie on top of it."""
    board = game.board
    places = _cell_rects(tiles)
    kinds = {MINE: "mine", EXPLODED: "exploded", WRONG_FLAG: "wrong-flag"}
    group = ET.SubElement(picture, f"{{{_SVG}}}g", {"class": "lost", "visibility": "hidden"})
    for i, code in enumerate(lost_cells(game, game.position().cells)):
        if code in kinds:
            rect = places[board.name(i)]
            x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
            size = float(rect.get("width", "0"))
            group.append(lost_tile(x, y, size, kinds[code], board.name(i)))
    ET.SubElement(
        group,
        f"{{{_SVG}}}set",
        {"attributeName": "visibility", "to": "visible", "begin": f"{at:.3f}s", "fill": "freeze"},
    )
    return group
