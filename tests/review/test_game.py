"""Reviews of games made by hand, in mineproof's own JSON format, with what each click is known
to be worked out here (and checked again by the brute force of ``tests/review/oracle.py``).

The board, 5x4 with 4 mines (``*``), first click A4, which opens the bottom row::

    .*...        row 1     after the first click:   HHHHH
    .**.*        row 2                              HHHHH
    .....        row 3                              12221
    .....        row 4                              00000

Row 2 holds either B2, C2, E2 or A2, C2, D2 (the numbers of row 3 allow nothing else), so C2 is
a mine, the other cells of row 2 are 50/50, and the last mine is in row 1: a 1 in 5 chance for
each cell there, the safest. The clicks:

1. A4: the start.
2. D1: a needed guess, 1/5, one of the safest. It shows 2 (C2 and E2), so C1 and E1 are safe:
   the 2 at D1 needs 1 more mine besides C2 among C1, E1, D2, E2, and the 1 at E3 puts it in
   D2 or E2 (two clues: level 2; the 2 at D3 does too, once C2 is known).
3. flag C2 (right).
4. A1: a mistake at level 2, 1/2 (the last mine of row 1 is A1 or B1), the deduction missed
   proving C1 and E1 safe from the 2 at D1 and the 1 at E3 (or the 2 at D3). A1 shows 2.
5. flag D2: wrong, D2 has no mine.
6. C1 and 7. E1: forced.
8. A2: a needed guess, 1/2 (row 2 is still one of its two ways).
9. E2: a mistake that hits a mine: A2 showed 2, so B1 and B2 are mines (one clue), and then
   the 2 at C3 has B2 and C2, so D2 (under the wrong flag) is safe (level 1).

Luck: the perfect logician survives the needed guesses of clicks 2 and 8 with a chance of
4/5 x 1/2 = 2/5.
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageSequence

from mineproof.board import Board, Layout, cell_name
from mineproof.errors import FormatError, TooComplexError
from mineproof.explain import LANGUAGES
from mineproof.formats import format_layout_text
from mineproof.formats.layout_text import parse_layout_text
from mineproof.game import Game
from mineproof.logic import linear, steps
from mineproof.logic.linear import clear_relaxations
from mineproof.play import replay
from mineproof.play.replay import lost_cells
from mineproof.render import Frame
from mineproof.render.raster import MINE, PALETTE, WRONG_FLAG, BoardRaster
from mineproof.review import (
    Judgement,
    mistakes_table,
    post_mortem,
    read_game,
    read_record,
    review_game,
    review_gif,
    review_svg,
    summary_text,
)

from . import oracle

LAYOUT = Layout.from_cells(Board(5, 4), [(1, 0), (1, 1), (2, 1), (4, 1)])
MOVES = [
    ("open", "A4"),
    ("open", "D1"),
    ("flag", "C2"),
    ("open", "A1"),
    ("flag", "D2"),
    ("open", "C1"),
    ("open", "E1"),
    ("open", "A2"),
    ("open", "E2"),
]


def xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


def record_of(layout: Layout, moves: list[tuple[str, str]]) -> dict[str, Any]:
    """Return the game as mineproof records it (the format of ``mineproof bench --record``)."""
    game = Game(layout)
    board = layout.board
    out = []
    for n, (action, name) in enumerate(moves):
        x, y = xy(name)
        opened: list[int] = []
        if action == "open":
            opened = game.reveal(x, y)
        else:
            game.flag(x, y)
        reason: dict[str, Any] = {"kind": "forced", "by": "one clue"}
        if n == 0:
            reason = {"kind": "start"}
        out.append(
            {
                "action": action,
                "cell": [x, y],
                "opened": [list(board.xy(i)) for i in opened],
                "reason": reason,
            }
        )
    return {
        "width": board.width,
        "height": board.height,
        "mines": layout.mine_count,
        "layout": format_layout_text(layout).splitlines()[1:],
        "start": list(xy(moves[0][1])),
        "moves": out,
        "outcome": game.state if game.state != "playing" else "stuck",
    }


RECORD = record_of(LAYOUT, MOVES)


def judged(n: int) -> Judgement:
    review = review_game(read_record(RECORD))
    j = review.clicks[n - 1].judgement
    assert j is not None
    return j


def test_the_record_is_read_as_mineproof_writes_it() -> None:
    game = read_record(json.loads(json.dumps(RECORD)))
    assert game.source == "json"
    assert [c.action for c in game.clicks] == [a for a, _ in MOVES]
    assert all(c.time is None for c in game.clicks)


def test_a_record_whose_moves_do_not_end_as_it_says_is_refused() -> None:
    # The same checks as `mineproof replay`: the outcome stated must be where the moves lead.
    assert RECORD["outcome"] == "lost"
    with pytest.raises(FormatError, match="the replay ends lost, the record says won"):
        read_record({**RECORD, "outcome": "won"})
    with pytest.raises(FormatError, match="the replay ends stuck, the record says lost"):
        read_record({**RECORD, "moves": RECORD["moves"][:3]})
    with pytest.raises(FormatError, match="opens other cells than recorded"):
        moves = [dict(m) for m in RECORD["moves"]]
        moves[0]["opened"] = moves[0]["opened"][:1]
        read_record({**RECORD, "moves": moves})


def test_each_click_is_what_the_docstring_says() -> None:
    review = review_game(read_record(RECORD))
    kinds = [None if c.judgement is None else c.judgement.kind for c in review.clicks]
    assert kinds == [
        "start",
        "guess",
        None,
        "mistake",
        None,
        "forced",
        "forced",
        "guess",
        "mistake",
    ]
    assert judged(2).probability == Fraction(1, 5) and judged(2).safest
    assert judged(4).probability == Fraction(1, 2) and judged(4).level == 2
    assert judged(8).probability == Fraction(1, 2) and judged(8).safest
    assert judged(9).probability == 1 and judged(9).level == 1 and judged(9).fatal
    assert not any(judged(n).fatal for n in (1, 2, 4, 6, 7, 8))
    assert [c.wrong for c in review.clicks] == [False] * 4 + [True] + [False] * 4


def test_the_deduction_missed_is_the_one_worked_out_by_hand() -> None:
    board = LAYOUT.board
    names = {cell_name(*board.xy(i)) for i in oracle.bits(judged(4).missed[-1].safe)}
    first = judged(4).missed[0]
    # The 1 at E3 and the 2 at D3 (with the flag on C2) each put the mine in D2 or E2.
    assert first.level == 2
    assert {cell_name(*c) for c in first.premise_cells} in ({"D1", "E3"}, {"D1", "D3"})
    assert names <= {"C1", "E1"} and names
    assert {cell_name(*board.xy(i)) for i in oracle.bits(judged(4).safe_then)} == {"C1", "E1"}
    last = judged(9).missed
    assert [d.level for d in last] == [1] * len(last)
    assert {cell_name(*c) for c in last[-1].safe_cells} == {"D2"}
    text = judged(9).text()
    assert "D2" in text and "It hit a mine" in text
    # D2 is under the player's wrong flag, and the judgement says so.
    assert judged(9).wrong_flags == 1 << board.index(*xy("D2"))


def test_the_summary() -> None:
    s = review_game(read_record(RECORD)).summary
    assert s.outcome == "lost" and s.fatal == 9
    assert (s.guesses_needed, s.guesses_taken) == (2, 4)
    assert s.luck == Fraction(2, 5)
    assert s.mistake_levels == {1: 1, 2: 1} and s.study == 1
    assert sum(s.forced_levels.values()) == 2  # C1 and E1
    assert s.wrong_flags == 1
    assert s.time is None and s.time_lost is None
    assert s.grade is not None and not s.grade.solved
    for lang in LANGUAGES:
        text = s.to_json(lang)["text"]
        # 40 %, with a no-break space where the language puts one (narrow in French).
        sign = {"fr": "\u202f%", "es": "\u00a0%", "de": "\u00a0%", "ru": "\u00a0%"}
        assert "{" not in text and f"40{sign.get(lang, '%')}" in text, text
    assert s.to_json()["text"].startswith("Game lost at click 9, 9 clicks.")
    table = mistakes_table([("by hand", s), ("again", s)])
    assert table.splitlines()[-1].split()[-5:] == ["2", "2", "0", "0", "0"]


def test_every_click_against_the_brute_force() -> None:
    review = review_game(read_record(RECORD))
    for click in review.clicks:
        j = click.judgement
        if j is None or j.kind == "start":
            continue
        counted = oracle.count(j.position)
        risk = 1 - Fraction(counted.free(j.opens), counted.total)
        assert j.probability == risk
        assert j.kind == ("forced" if risk == 0 else "mistake" if counted.safe else "guess")


def test_chords_unflags_and_times_from_moves() -> None:
    # The same board played with times: D1 after a long pause, then a chord on the 1 at E3
    # once E2 is flagged (it opens D2), then E2 unflagged.
    moves = [
        (0.0, "open", 0, 3),
        (6.0, "open", 3, 0),
        (7.0, "flag", 4, 1),
        (7.5, "chord", 4, 2),
        (8.0, "flag", 4, 1),
        (9.0, "chord", 0, 0),  # on a covered cell: changes nothing, left out
    ]
    game = read_game(LAYOUT, moves, "test")
    assert [c.action for c in game.clicks] == ["open", "open", "flag", "chord", "unflag"]
    review = review_game(game, long_think=5.0)
    chord = review.clicks[3].judgement
    assert chord is not None and chord.action == "chord"
    assert chord.opens == 1 << LAYOUT.board.index(3, 1)
    assert chord.kind == "mistake"  # E2 was not proven when it was flagged: C1 and E1 were
    assert review.clicks[3].think == 1.5  # from D1, the flag of E2 between being thought
    assert review.clicks[1].think == 6.0
    assert review.summary.time == 8.0


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([(None, "open", 5, 0)], "outside the 5x4 board"),
        ([(None, "flag", 0, 3), (None, "open", 0, 3)], "the cell is flagged"),
        ([(None, "open", 0, 3), (None, "flag", 0, 3)], "the cell is open"),
        ([(None, "open", 1, 0), (None, "open", 0, 0)], "after the end of the game"),
        ([(None, "jump", 0, 0)], "unknown action"),
    ],
)
def test_moves_that_break_the_rules_are_refused(
    moves: list[tuple[float | None, str, int, int]], message: str
) -> None:
    with pytest.raises(FormatError, match=message):
        read_game(LAYOUT, moves, "test")


def test_the_animations_mark_the_clicks() -> None:
    review = review_game(read_record(RECORD))
    gif = review_gif(review, 0.1, 2)
    assert gif.startswith(b"GIF89a")
    svg = review_svg(review, 0.1)
    assert svg.count('class="mark mistake"') == 2 and svg.count('class="mark guess"') == 2
    assert svg.count('class="mark wrong-flag"') == 1 and svg.count('class="mark flag"') == 1
    assert 'class="exploded"' in svg


def _gif_frames(data: bytes) -> list[bytes]:
    """Return each frame of a GIF as Pillow composes it (RGB bytes)."""
    with Image.open(io.BytesIO(data)) as im:
        return [frame.convert("RGB").tobytes() for frame in ImageSequence.Iterator(im)]


GIF_GAMES = {
    "the record": None,
    "a flag, an unflag a click later, a loss by an open": [
        (None, "open", *xy("A4")),
        (None, "flag", *xy("B1")),
        (None, "open", *xy("D1")),
        (None, "unflag", *xy("B1")),
        (None, "open", *xy("B2")),
    ],
    "a loss by a chord on a wrong flag": [
        (None, "open", 0, 3),
        (None, "flag", 3, 1),
        (None, "chord", 4, 2),
    ],
    "a loss by a flag (strict flags)": [
        (None, "open", *xy("A4")),
        (None, "open", *xy("D1")),
        (None, "flag", *xy("D2")),
    ],
}


@pytest.mark.parametrize("name", GIF_GAMES)
def test_the_review_gif_draws_only_what_each_click_changed_and_shows_every_frame(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Each frame is painted from the cells its click changed and stored as the raster's box;
    Pillow shows the same frames as from a drawing told nothing (every cell looked at, the
    frames compared pixel by pixel). A lost game ends on its mines, the wrong flags crossed
    out, whether a mine went off or a flag lost the game."""
    moves = GIF_GAMES[name]
    strict = "strict" in name
    game = (
        read_record(RECORD) if moves is None else read_game(LAYOUT, moves, "t", strict_flags=strict)
    )
    review = review_game(game)
    told = _gif_frames(review_gif(review, 0.1, 2))
    monkeypatch.setattr(
        replay, "Frame", lambda pixels, delay, box=None: Frame(bytes(pixels), delay)
    )
    monkeypatch.setattr(replay, "changed_cells", lambda before, after: None)
    untold = _gif_frames(review_gif(review, 0.1, 2))
    monkeypatch.undo()
    assert len(told) == len(review.clicks) + 1
    assert told == untold
    if review.summary.outcome == "lost":
        assert told[-1] != told[-2]
        assert 'class="lost"' in review_svg(review, 0.1)
    if strict:  # the flag that lost is crossed out, and the mines shown, as after a mine
        ended = Game(LAYOUT, strict_flags=True)
        for _, action, x, y in moves or []:
            getattr(ended, {"open": "reveal", "flag": "toggle_flag"}[action])(x, y)
        assert ended.state == "lost"
        cells = lost_cells(ended, ended.position().cells)
        assert cells.count(WRONG_FLAG) == 1 and cells.count(MINE) == 4
        raster = BoardRaster(LAYOUT.board.width, LAYOUT.board.height, 2)
        pixels = raster.draw(cells, {LAYOUT.board.index(*xy("D2")): "mistake"})
        assert told[-1] == b"".join(bytes(PALETTE[p]) for p in pixels)


def test_a_chord_on_a_wrong_flag_that_opens_only_a_mine() -> None:
    # The 1 at E3 sees D2 and E2; D2 flagged (wrongly), a chord on E3 opens E2: the mine.
    moves = [(None, "open", 0, 3), (None, "flag", 3, 1), (None, "chord", 4, 2)]
    game = read_game(LAYOUT, moves, "test")
    assert [c.action for c in game.clicks] == ["open", "flag", "chord"]
    review = review_game(game)
    chord = review.clicks[2].judgement
    assert chord is not None and chord.fatal and chord.kind == "guess"
    assert chord.probability == Fraction(1, 2)
    assert "relied on a wrong flag at D2" in chord.text()
    assert review.summary.outcome == "lost" and review.summary.fatal == 3
    with pytest.raises(FormatError, match="after the end"):
        read_game(LAYOUT, [*moves, (None, "open", 0, 0)], "test")


# --- the post-mortem of a lost game ---------------------------------------------------------


def test_the_post_mortem_of_the_click_that_lost() -> None:
    game = read_record(RECORD)
    found = post_mortem(game)
    assert found is not None
    # The position before click 9, played here on the layout.
    before = Game(LAYOUT)
    for action, name in MOVES[:-1]:
        x, y = xy(name)
        before.reveal(x, y) if action == "open" else before.flag(x, y)
    position = before.position()
    counted = oracle.count(position)
    e2 = LAYOUT.board.index(*xy("E2"))
    assert found.position == position
    assert found.safe_then == counted.safe and counted.safe  # a safe cell was provable
    assert found.probability == Fraction(counted.mine[e2], counted.total)
    assert found.guess is True and found.forced and found.counted
    assert found.wrong_flags == 1 << LAYOUT.board.index(*xy("D2"))
    data = found.to_json("en")
    assert data["fatal"] == {
        "action": "open",
        "cell": list(xy("E2")),
        "probability": float(found.probability),
        "probability_exact": str(found.probability),
        "guess": True,
        "judgement": "mistake",
        "level": 1,
        "forced_move_existed": True,
        "counted": True,
    }
    assert data["wrong_flags"] == [list(xy("D2"))]
    assert sorted(map(tuple, data["safe_then"])) == sorted(
        LAYOUT.board.xy(i) for i in oracle.bits(counted.safe)
    )
    assert "E2" in data["text"] and "1 flag was placed where there is no mine" in data["text"]
    for lang in LANGUAGES:
        assert found.text(lang) and "{" not in found.text(lang)


def test_no_post_mortem_for_a_game_not_lost() -> None:
    assert post_mortem(read_record(record_of(LAYOUT, MOVES[:-1]))) is None


def test_a_game_lost_by_a_flag_under_strict_flags() -> None:
    moves = [(None, "open", *xy("A4")), (None, "open", *xy("D1")), (None, "flag", *xy("D2"))]
    game = read_game(LAYOUT, moves, "web", strict_flags=True)
    review = review_game(game)
    assert review.summary.outcome == "lost" and review.summary.fatal == 3
    # The summary names the flag as what lost, as the post-mortem does, never "no mistake".
    summary = review.summary.to_json("en")
    assert summary["fatal_flag"] == list(xy("D2"))
    assert "The flag on D2 lost the game: there is no mine there." in summary["text"]
    assert "No mistake" not in summary["text"]
    assert "No guess was taken while a safe cell could be proven." in summary["text"]
    found = post_mortem(game)
    assert found is not None and found.judgement is None
    before = Game(LAYOUT)
    before.reveal(*xy("A4"))
    before.reveal(*xy("D1"))
    counted = oracle.count(before.position())
    d2 = LAYOUT.board.index(*xy("D2"))
    assert found.probability == Fraction(counted.mine[d2], counted.total)
    assert found.guess is True and found.safe_then == counted.safe
    data = found.to_json("en")
    assert data["fatal"]["action"] == "flag" and data["fatal"]["judgement"] is None
    assert "The flag on D2 lost the game" in data["text"]
    # Without strict flags the same moves leave the game going on.
    assert post_mortem(read_game(LAYOUT, moves, "web")) is None
    assert review_gif(review)[:6] == b"GIF89a"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_take_the_languages_decimal_separator(lang: str) -> None:
    moves = [(0.0, "open", 0, 3), (6.25, "open", 3, 0), (7.5, "open", 1, 1)]
    review = review_game(read_game(LAYOUT, moves, "test"), long_think=2.5)
    text = review.text(lang, every_click=True)
    comma = lang in ("es", "fr", "de", "pt", "ru")
    assert ("6,25" in text) == comma and ("6.25" in text) != comma, text
    assert ("2,5" in text) == comma, text  # the long-think threshold
    if comma:
        assert not re.search(r"\d\.\d", text), text


def test_korean_luck_of_one_in_n_reads_well() -> None:
    s = replace(review_game(read_record(RECORD)).summary, luck=Fraction(1, 4007))
    text = summary_text(s, "ko")
    assert "4007분의 1의 확률로" in text and "1예요" not in text, text


@pytest.mark.parametrize(("lang", "times"), [("ko", "번"), ("ja", "回"), ("zh", "次")])
def test_mistakes_per_level_are_counted_as_times_not_steps(lang: str, times: str) -> None:
    s = review_game(read_record(RECORD)).summary  # one mistake at level 1, one at level 2
    text = summary_text(s, lang)
    assert f"1{times}" in text and "1단계" not in text and "1步" not in text, text


@pytest.mark.parametrize(
    ("lang", "seconds"),
    [
        ("en", "6.25 s #2:"),
        ("fr", "6,25 s #2\u00a0:"),  # French puts a (no-break) space before a colon
        ("ru", "6,25 \u0441 #2:"),  # the Cyrillic letter es
        ("ja", "6.25秒 #2:"),
        ("ko", "6.25초 #2:"),
        ("zh", "6.25秒 #2:"),
    ],
)
def test_each_click_says_its_time_in_the_language(lang: str, seconds: str) -> None:
    moves = [(0.0, "open", 0, 3), (6.25, "open", 3, 0), (7.5, "open", 1, 1)]
    review = review_game(read_game(LAYOUT, moves, "test"), long_think=2.5)
    lines = review.text(lang, every_click=True).splitlines()
    assert any(line.startswith(seconds) for line in lines), lines


SVG = "{http://www.w3.org/2000/svg}"


def _visible(element: ET.Element, parents: dict[ET.Element, ET.Element], t: float) -> bool:
    """Return whether ``element`` shows at ``t`` seconds of an SVG animated by ``<set>`` of
    visibility (a hidden group hides its children), read here from the SVG alone."""
    node: ET.Element | None = element
    while node is not None:
        shown = node.get("visibility", "visible")
        sets = [(float(s.get("begin", "0s")[:-1]), s.get("to")) for s in node.findall(f"{SVG}set")]
        for begin, to in sorted(sets, key=lambda bt: bt[0]):
            if begin <= t + 1e-9:
                shown = to or shown
        if shown == "hidden":
            return False
        node = parents.get(node)
    return True


def test_the_svg_outlines_every_click_and_ends_where_the_game_was_decided() -> None:
    review = review_game(read_record(RECORD))
    root = ET.fromstring(review_svg(review, 0.1))
    parents = {child: parent for parent in root.iter() for child in parent}
    order = {element: n for n, element in enumerate(root.iter())}
    marks = [e for e in root.iter(f"{SVG}rect") if e.get("class", "").startswith("mark ")]

    def shown(t: float) -> set[tuple[str, str]]:
        return {
            (str(e.get("class"))[5:], str(e.get("data-cell")))
            for e in marks
            if _visible(e, parents, t)
        }

    # Each click's cell is outlined at its click (click n at 0.1 n s), as in the GIF.
    for n, (_, name) in enumerate(MOVES, 1):
        assert any(cell == name for _, cell in shown(0.1 * n)), (n, name)
    assert ("start", "A4") in shown(0.1) and ("flag", "C2") in shown(0.3)
    assert ("forced", "C1") in shown(0.6)
    # Forced clicks and flags only while they are the last click; the rest stay to the end.
    end = 0.1 * len(MOVES)
    assert shown(end) == {
        ("guess", "D1"),
        ("mistake", "A1"),
        ("wrong-flag", "D2"),
        ("guess", "A2"),
        ("mistake", "E2"),
    }
    # The last picture shows the mines as the GIF's last frame does: the covered ones, the one
    # that went off, the wrong flag crossed out; the outlines lie on top of them.
    lost = [g for g in root.iter(f"{SVG}g") if str(g.get("class", "")).startswith("lost ")]
    assert {(g.get("data-cell"), g.get("class")) for g in lost} == {
        ("B1", "lost mine"),
        ("B2", "lost mine"),
        ("E2", "lost exploded"),
        ("D2", "lost wrong-flag"),
    }
    assert all(_visible(g, parents, end) and not _visible(g, parents, end - 0.1) for g in lost)
    fatal = next(e for e in marks if e.get("data-cell") == "E2")
    assert all(order[fatal] > order[g] for g in lost)


def test_a_game_whose_positions_would_not_fit_in_memory_is_refused_before_any_work() -> None:
    # Mines on a grid every third cell of a 255x255 board, 1,600 safe cells opened one click
    # each: their positions would hold 104 million cells (a crafted game of every safe cell
    # grew past 8 GB and ended in a MemoryError).
    board = Board(255, 255)
    mines = [(x, y) for y in range(1, 255, 3) for x in range(1, 255, 3)]
    layout = Layout.from_cells(board, mines)
    safe = [(x, y) for y in range(255) for x in range(255) if x % 3 != 1 or y % 3 != 1]
    game = read_game(layout, [(None, "open", x, y) for x, y in safe[:1600]], "test")
    with pytest.raises(TooComplexError) as caught:
        review_game(game)
    assert str(caught.value) == (
        "too big to review: 1,600 clicks that open cells on a 255x255 board would keep "
        "104,040,000 cells of positions (at most 100,000,000)"
    )


def test_a_grade_too_complex_leaves_the_review_without_a_grade(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Four groups of 16 mines that each need a combination of clues twice (see
    # ``tiling`` in tests/analysis/hostile.py); the game is its first click, in the corner.
    text = (Path(__file__).parents[1] / "data" / "tiling-21.txt").read_text()
    game = read_game(parse_layout_text(text), [(None, "open", 0, 0)], "test")
    graded = review_game(game).summary.grade
    assert graded is not None and graded.solved and graded.level == 3
    monkeypatch.setattr(steps, "GRADE_WORK", 1_000)
    review = review_game(game)
    assert review.summary.grade is None and len(review.clicks) == 1
    # So does a step of the grade whose combination passes its own budget.
    monkeypatch.undo()
    monkeypatch.setattr(linear, "COUNT_WORK", 100)
    clear_relaxations()
    review = review_game(game)
    assert review.summary.grade is None and len(review.clicks) == 1


@pytest.mark.parametrize(
    ("lang", "missed"),
    [
        ("fr", "La déduction manquée\u00a0: niveau 2 (deux nombres)\u00a0: le 2 en D3"),
        ("es", ": nivel 2 (dos números): el 2 en D3"),
        ("en", "The deduction missed: Level 2 (two clues): The 2 at D3"),
        ("ja", "見落とした推論\uff1aレベル2\uff082つの数字\uff09\uff1aD3の2"),
        ("ja", "B2にフラグを立てたとします。C3の2"),
        ("ru", ": уровень 2"),
        ("fr", "#4\u00a0: une erreur sur A1"),
    ],
)
def test_the_deduction_missed_follows_its_colon_as_the_language_writes(
    lang: str, missed: str
) -> None:
    """French, Spanish and Portuguese write on in lower case after a colon, Japanese and
    Chinese leave no space after a full-width colon or full stop: the review wrote "manquée :
    Niveau 2 (deux nombres) : Le 2 en D3", and a space after the Japanese label's colon."""
    text = review_game(read_record(RECORD)).text(lang, every_click=True)
    assert missed in text, text
