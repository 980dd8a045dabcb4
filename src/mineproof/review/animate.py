"""Reviewed games as animations, every click marked by its judgement.

The marks are the outlines of :mod:`mineproof.render.raster`: green for a forced click (and the
first one), amber for a guess that was needed, purple for a mistake (a guess while a safe cell
could be proven) and for a flag where there is no mine, red for a flag, none for a click not
judged. The GIF has a frame for the covered board and one after each click, the click's cell
outlined; the last frame of a lost game shows the mines. The SVG draws the final board once and
lays over each cell the looks it had before (covered, flagged), each shown while it lasted;
every click's cell is outlined from its click on, as in the GIF: a forced click and a flag until
the next click, the guesses, the mistakes, the wrong flags and the click that lost to the end.
The last picture of a lost game shows the mines as the GIF's last frame does (the one that went
off on red, wrong flags crossed out) under those outlines, so it shows where the game was
decided.
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator

from mineproof.english import counted
from mineproof.game import Game
from mineproof.play.replay import gif_delays, gif_frames, gif_raster, mark_loss
from mineproof.position import COVERED, FLAG, Position
from mineproof.render import encode_gif, position_svg
from mineproof.render.raster import OUTLINES, PALETTE, Highlight
from mineproof.review.game import GameReview, ReviewedClick
from mineproof.review.recorded import Click

__all__ = ["review_gif", "review_svg"]

_SVG = "http://www.w3.org/2000/svg"


def _mark(click: ReviewedClick) -> Highlight | None:
    """Return the outline of a reviewed click (see the module's docstring)."""
    j = click.judgement
    if j is None:
        return "mistake" if click.wrong else "mine" if click.action == "flag" else None
    if j.kind == "mistake":
        return "mistake"
    if j.kind == "guess":
        return "guess"
    if j.kind in ("forced", "start"):
        return "safe"
    return None


def _play(game: Game, click: Click) -> None:
    x, y = click.cell
    if click.action == "open":
        game.reveal(x, y)
    elif click.action == "chord":
        game.chord(x, y)
    else:
        game.toggle_flag(x, y)


def _title(review: GameReview) -> str:
    s = review.summary
    return (
        f"{s.width}x{s.height}/{s.mines}: {s.outcome} in {counted(s.clicks, 'click')}, "
        f"{counted(s.guesses_needed, 'guess', 'guesses')} needed, {s.guesses_taken} taken"
    )


def review_gif(
    review: GameReview,
    seconds_per_click: float = 0.15,
    scale: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """Return the reviewed game as an animated GIF, one click every ``seconds_per_click`` (the
    delays of :func:`mineproof.play.replay.gif_delays`), cells ``16 * scale`` pixels square.
    ``progress``, when given, is told ``(frames made, frames)`` after each frame.

    Raises ``ArgumentError`` when a frame would have more than
    :data:`~mineproof.play.replay.MAX_GIF_PIXELS` pixels.
    """
    layout = review.game.layout
    board = layout.board
    raster = gif_raster(board, scale)
    clicks = review.clicks
    delays = gif_delays(seconds_per_click, len(clicks))
    game = Game(layout, strict_flags=review.game.strict_flags)

    def outlines() -> Iterator[dict[int, Highlight]]:
        for click in clicks:
            _play(game, Click(click.time, click.action, click.cell))
            outline = _mark(click)
            yield {} if outline is None else {board.index(*click.cell): outline}

    return encode_gif(
        raster.pixel_width,
        raster.pixel_height,
        PALETTE,
        gif_frames(game, raster, delays, outlines(), progress),
        comment=_title(review),
    )


def review_svg(review: GameReview, seconds_per_click: float = 0.15) -> str:
    """Return the reviewed game as an animated SVG (open it in a browser), one click every
    ``seconds_per_click``: each cell shows the looks it had in turn, and each click's cell is
    outlined (see the module's docstring); a lost game ends showing its mines under the
    outlines."""
    layout = review.game.layout
    board = layout.board
    game = Game(layout, strict_flags=review.game.strict_flags)
    # Each cell's looks before its last one: (code, from click number).
    looks: list[list[tuple[int, int]]] = [[(COVERED, 0)] for _ in range(board.size)]
    for n, click in enumerate(review.clicks, 1):
        before = game.position().cells
        _play(game, Click(click.time, click.action, click.cell))
        after = game.position().cells
        for i in range(board.size):
            if after[i] != before[i]:
                looks[i].append((after[i], n))
    ET.register_namespace("", _SVG)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    final = game.position()
    picture = ET.fromstring(position_svg(final, title=_title(review)))
    tiles = {
        COVERED: _by_cell(Position(board, (COVERED,) * board.size, final.mines)),
        FLAG: _by_cell(Position(board, (FLAG,) * board.size, final.mines)),
    }
    overlay = ET.SubElement(picture, f"{{{_SVG}}}g", {"class": "review"})

    def at(n: int) -> str:
        return f"{round(n * seconds_per_click, 3)}s"

    for i, history in enumerate(looks):
        name = board.name(i)
        for k, (code, start) in enumerate(history[:-1]):
            end = history[k + 1][1]
            group = ET.SubElement(
                overlay,
                f"{{{_SVG}}}g",
                {"data-cell": name, "visibility": "visible" if start == 0 else "hidden"},
            )
            group.extend(copy.deepcopy(element) for element in tiles[code][name])
            if start:
                _set(group, "visible", at(start))
            _set(group, "hidden", at(end))
    covered = tiles[COVERED]
    last = len(review.clicks)
    if game.state == "lost":  # a mine went off, or a flag lost (strict flags)
        places = ET.Element("g")
        for elements in covered.values():
            places.extend(elements)
        mark_loss(picture, places, game, last * seconds_per_click)
    for n, click in enumerate(review.clicks, 1):
        outline = _mark(click)
        j = click.judgement
        fatal = j is not None and j.fatal
        if outline is None and not fatal:
            continue  # a click not judged
        # A forced click and a flag are outlined while they are the last click, as the GIF
        # shows them; the guesses, mistakes, wrong flags and the click that lost stay.
        stays = fatal or outline not in ("safe", "mine")
        name = board.name(board.index(*click.cell))
        rect = next(e for e in covered[name] if e.tag.endswith("rect"))
        colour = OUTLINES[outline or "mine"]
        kind = j.kind if j is not None else "wrong-flag" if click.wrong else "flag"
        box = ET.SubElement(
            picture,
            f"{{{_SVG}}}rect",
            {
                "x": rect.get("x", "0"),
                "y": rect.get("y", "0"),
                "width": rect.get("width", "0"),
                "height": rect.get("height", "0"),
                "fill": "none",
                "stroke": colour,
                "stroke-width": "3",
                "class": f"mark {kind}",
                "data-cell": name,
                "visibility": "hidden",
            },
        )
        _set(box, "visible", at(n))
        if not stays and n < last:
            _set(box, "hidden", at(n + 1))
    return ET.tostring(picture, encoding="unicode")


def _by_cell(position: Position) -> dict[str, list[ET.Element]]:
    """Return the drawn elements of each cell of ``position`` by its name (texts left out)."""
    drawn = ET.fromstring(position_svg(position))
    out: dict[str, list[ET.Element]] = {}
    for element in drawn.iter():
        name = element.get("data-cell")
        if name is not None and not element.tag.endswith("text"):
            out.setdefault(name, []).append(element)
    return out


def _set(element: ET.Element, to: str, begin: str) -> None:
    ET.SubElement(
        element,
        f"{{{_SVG}}}set",
        {"attributeName": "visibility", "to": to, "begin": begin, "fill": "freeze"},
    )
