"""The web API's rules, post-mortems and reviews, checked against the stored layouts.

The oracle is a brute force written here: on small boards it lists every arrangement of the
mines over the covered cells that fits the opened numbers and the mine total (its own
neighbour arithmetic, no mineproof code), and from them what was safe in every arrangement, and
each cell's chance to hold a mine. The layouts come from the server's store, which the page
never sees.
"""

from __future__ import annotations

import base64
import io
import json
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageSequence

from mineproof.board import Board, Layout
from mineproof.position import COVERED, FLAG

from .conftest import (
    JSON,
    Cell,
    Client,
    Server,
    cell_code,
    check_view,
    covered,
)

REPLAYS = Path(__file__).parent.parent / "data" / "replays"


# --- the oracle -------------------------------------------------------------------------------


def around(width: int, height: int, x: int, y: int) -> list[Cell]:
    return [
        (nx, ny)
        for ny in (y - 1, y, y + 1)
        for nx in (x - 1, x, x + 1)
        if (nx, ny) != (x, y) and 0 <= nx < width and 0 <= ny < height
    ]


class Brute:
    """Every arrangement of the mines that fits a view's numbers and mine total (flags are
    covered cells, not trusted)."""

    def __init__(self, view: JSON) -> None:
        width, height = view["width"], view["height"]
        cells = view["cells"]
        self.covered = [
            (x, y) for y in range(height) for x in range(width) if cells[y][x] in (COVERED, FLAG)
        ]
        assert len(self.covered) <= 22, "a board too large for the brute force"
        numbers = [
            (x, y, cells[y][x]) for y in range(height) for x in range(width) if cells[y][x] >= 0
        ]
        self.arrangements: list[frozenset[Cell]] = []
        for chosen in combinations(self.covered, view["mines"]):
            mines = frozenset(chosen)
            if all(
                sum(c in mines for c in around(width, height, x, y)) == n for x, y, n in numbers
            ):
                self.arrangements.append(mines)
        assert self.arrangements, "no arrangement fits the view"

    @property
    def safe(self) -> set[Cell]:
        """Return the covered cells with no mine in any arrangement."""
        return {c for c in self.covered if not any(c in a for a in self.arrangements)}

    def probability(self, cell: Cell) -> Fraction:
        return Fraction(sum(cell in a for a in self.arrangements), len(self.arrangements))


def new_game(client: Client, **fields: Any) -> JSON:
    return client.post("/api/games", {"level": "custom", **fields}).ok(201)


def layout_of(server: Server, view: JSON) -> Layout:
    layout = server.layout(view["id"])
    assert layout is not None
    return layout


def mine(layout: Layout, cell: Cell) -> bool:
    return layout.is_mine(layout.board.index(*cell))


def small_game(client: Client, server: Server, tries: int = 40, **fields: Any) -> JSON:
    """Return a 6x5 game with 6 mines after its first click, with some cells the numbers do
    not decide and few enough covered cells for the brute force."""
    for _ in range(tries):
        view = new_game(client, width=6, height=5, mines=6, **fields)
        view = client.move(view["id"], "open", (0, 0))
        if view["state"] != "playing" or len(covered(view)) > 20:
            continue
        brute = Brute(view)
        if len(brute.safe) < len(covered(view)) - 6:
            return {k: v for k, v in view.items() if k not in ("guess", "tutor")}
    raise AssertionError("no small game with undecided cells in the tries")


# --- the post-mortem --------------------------------------------------------------------------


def test_the_post_mortem_of_a_deliberate_loss(own_server: Server) -> None:
    server, client = own_server, own_server.client()
    view = small_game(client, server, guess_free=False)
    layout = layout_of(server, view)
    brute = Brute(view)
    # A wrong flag on a safe cell the numbers do not prove safe, if there is one.
    wrong = [c for c in covered(view) if not mine(layout, c) and c not in brute.safe]
    if wrong:
        view = client.move(view["id"], "flag", wrong[0])
    before = view
    brute = Brute(before)
    fatal = next(c for c in covered(before) if mine(layout, c))
    reply = client.move(view["id"], "open", fatal, lang="en")
    assert reply["state"] == "lost"
    check_view(reply, layout, move=True)
    post = reply["postmortem"]
    assert post["fatal"]["cell"] == list(fatal) and post["fatal"]["action"] == "open"
    assert Fraction(post["fatal"]["probability_exact"]) == brute.probability(fatal)
    assert post["fatal"]["guess"] is True  # a mine is never proven safe
    assert post["fatal"]["forced_move_existed"] is bool(brute.safe)
    assert post["fatal"]["judgement"] == ("mistake" if brute.safe else "guess")
    # Every cell named safe then was safe in every arrangement, and every such cell is named.
    assert {tuple(c) for c in post["safe_then"]} == brute.safe
    flags = {
        (x, y) for y, row in enumerate(reply["cells"]) for x, code in enumerate(row) if code == FLAG
    }
    assert {tuple(c) for c in post["wrong_flags"]} == {c for c in flags if not mine(layout, c)}
    assert post["wrong_flags"] == reply["wrong_flags"]
    assert isinstance(post["text"], str) and "\n" not in post["text"]
    # The game's address gives the same post-mortem, in the language asked for.
    again = client.get(f"/api/games/{view['id']}?lang=fr").ok()
    assert {k: v for k, v in again["postmortem"].items() if k != "text"} == {
        k: v for k, v in post.items() if k != "text"
    }
    assert again["postmortem"]["text"] != post["text"]
    assert client.get(f"/api/games/{view['id']}").ok()["postmortem"] == post
    assert "postmortem" not in client.get(f"/api/games/{small_game(client, server)['id']}").ok()


def test_a_won_game_has_no_post_mortem_and_bad_languages_are_refused(own_server: Server) -> None:
    client = own_server.client()
    view = small_game(client, own_server)
    layout = layout_of(own_server, view)
    for i in range(layout.board.size):
        cell = layout.board.xy(i)
        if not layout.is_mine(i) and cell_code(view, cell) == COVERED:
            view = client.move(view["id"], "open", cell)
    assert view["state"] == "won" and "postmortem" not in view
    assert client.get(f"/api/games/{view['id']}?lang=xx").json()["kind"] == "argument"


# --- punish_guesses and strict_flags ----------------------------------------------------------


def test_punish_guesses(own_server: Server) -> None:
    """A guess meets a mine; a cell proven safe never does; the new layout agrees with what
    the player saw."""
    server, client = own_server, own_server.client()
    for n in range(8):
        view = small_game(client, server, punish_guesses=True, guess_free=True)
        assert view["punish_guesses"] is True
        # Cells proven safe (by the brute force) open as on any board: a few, then a guess.
        for _ in range(n % 3):
            if view["state"] != "playing":
                break
            brute = Brute(view)
            safe = sorted(c for c in brute.safe if cell_code(view, c) == COVERED)
            if not safe:
                break
            view = client.move(view["id"], "open", safe[0])
            assert view["state"] != "lost", "a proven safe cell met a mine"
            assert view["guess"] is False
        if view["state"] != "playing":
            continue
        # A guess on a cell the stored layout keeps free: it is a mine now.
        before = layout_of(server, view)
        brute = Brute(view)
        guesses = [c for c in covered(view) if not mine(before, c) and c not in brute.safe]
        if not guesses:
            continue
        cell = guesses[0]
        reply = client.move(view["id"], "open", cell)
        after = layout_of(server, view)
        assert reply["state"] == "lost" and reply["exploded"] == list(cell)
        assert mine(after, cell) and after.mines != before.mines
        assert frozenset(after.board.mask_to_xy(after.mines)) in brute.arrangements
        check_view(reply, after, move=True)
        assert reply["postmortem"]["fatal"]["judgement"] == "mistake"
        return
    pytest.fail("no game offered a guess on a cell its layout kept free")


def test_strict_flags(own_server: Server) -> None:
    server, client = own_server, own_server.client()
    view = small_game(client, server, strict_flags=True, guess_free=False)
    layout = layout_of(server, view)
    mines = [c for c in covered(view) if mine(layout, c)]
    view = client.move(view["id"], "flag", mines[0])  # a flag on a mine: the game goes on
    assert view["state"] == "playing" and cell_code(view, mines[0]) == FLAG
    view = client.move(view["id"], "flag", mines[0])  # and off again
    before = {k: v for k, v in view.items() if k not in ("guess", "tutor")}
    brute = Brute(before)
    safe = next(c for c in covered(before) if not mine(layout, c))
    reply = client.move(view["id"], "flag", safe)
    assert reply["state"] == "lost" and reply["fatal_flag"] == list(safe)
    assert reply["exploded"] is None and reply["wrong_flags"] == [list(safe)]
    check_view(reply, layout, move=True)
    post = reply["postmortem"]
    assert post["fatal"]["action"] == "flag" and post["fatal"]["judgement"] is None
    assert Fraction(post["fatal"]["probability_exact"]) == brute.probability(safe)
    assert {tuple(c) for c in post["safe_then"]} == brute.safe
    assert client.post(f"/api/games/{view['id']}/flag", {"x": 0, "y": 4}).status == 409


def test_strict_flags_off_keeps_wrong_flags_harmless(own_server: Server) -> None:
    server, client = own_server, own_server.client()
    view = small_game(client, server, guess_free=False)
    layout = layout_of(server, view)
    safe = next(c for c in covered(view) if not mine(layout, c))
    assert client.move(view["id"], "flag", safe)["state"] == "playing"


# --- boards by technique, a gentler start -----------------------------------------------------


def flood(layout: Layout, start: Cell) -> set[Cell]:
    """Return the cells a click on ``start`` opens (flood fill computed here)."""
    board = layout.board
    out: set[Cell] = set()
    todo = [start]
    while todo:
        x, y = todo.pop()
        if (x, y) in out:
            continue
        out.add((x, y))
        near = around(board.width, board.height, x, y)
        if not any(mine(layout, c) for c in near):
            todo += [c for c in near if c not in out]
    return out


@pytest.mark.parametrize("technique", ["gentle", "level3", "total"])
def test_a_board_by_technique_with_a_gentler_start(own_server: Server, technique: str) -> None:
    server, client = own_server, own_server.client()
    view = client.post(
        "/api/games", {"level": "intermediate", "technique": technique, "reveal": 2}
    ).ok(201)
    assert (view["technique"], view["reveal"]) == (technique, 2)
    reply = client.move(view["id"], "open", (8, 8))
    layout = layout_of(server, view)
    check_view(reply, layout, move=True)
    opened = {
        (x, y) for y, row in enumerate(reply["cells"]) for x, code in enumerate(row) if code >= 0
    }
    flags = {
        (x, y) for y, row in enumerate(reply["cells"]) for x, code in enumerate(row) if code == FLAG
    }
    first = flood(layout, (8, 8))
    assert first < opened or reply["state"] == "won"  # forced moves were made after the click
    assert all(mine(layout, c) for c in flags)
    row = server.store.load(view["id"])
    assert row is not None and row.technique == technique and row.reveal == 2
    assert reply["moves"] == len(row.moves) > 1 and row.moves[0] == ("open", 8, 8)
    assert reply["guess"] is False


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"technique": "level9"}, "technique"),
        ({"technique": "gentle", "guess_free": False}, "technique"),
        ({"reveal": 4}, "reveal"),
        ({"reveal": -1}, "reveal"),
    ],
)
def test_bad_modes_are_refused(client: Client, fields: JSON, name: str) -> None:
    reply = client.post("/api/games", {"level": "beginner", **fields})
    reply.error(400)
    assert reply.json()["kind"] == "argument" and reply.json()["name"] == name
    for field in ("punish_guesses", "strict_flags"):
        assert client.post("/api/games", {"level": "beginner", field: 1}).status == 400


# --- reviews ----------------------------------------------------------------------------------


def lost_game(client: Client, server: Server) -> JSON:
    view = small_game(client, server, guess_free=False)
    layout = layout_of(server, view)
    brute = Brute(view)
    safe = sorted(c for c in brute.safe if cell_code(view, c) == COVERED)
    if safe:
        view = client.move(view["id"], "open", safe[0])
    cell = next(c for c in covered(view) if mine(layout, c))
    reply = client.move(view["id"], "open", cell)
    assert reply["state"] == "lost"
    return reply


def test_the_review_of_a_finished_game(own_server: Server) -> None:
    server, client = own_server, own_server.client()
    game = lost_game(client, server)
    layout = layout_of(server, game)
    review = client.get(f"/api/games/{game['id']}/review?lang=en").ok()
    assert review["board"] == {"width": 6, "height": 5, "mines": 6}
    assert sorted(map(tuple, review["mine_cells"])) == sorted(layout.board.mask_to_xy(layout.mines))
    clicks = review["clicks"]
    assert review["summary"]["outcome"] == "lost"
    assert review["summary"]["fatal_click"] == len(clicks) and clicks[-1]["fatal"] is True
    assert clicks[-1]["exploded"] == game["exploded"]
    # Each click judged in the position before it, by the brute force: forced clicks open cells
    # safe in every arrangement; a guess's odds are exact.
    # The position before each click is drawn from the clicks before it, as the page does.
    seen: set[Cell] = set()
    cells = [[COVERED] * 6 for _ in range(5)]
    for click in clicks:
        assert "position" not in click and "safe_then" not in click
        view = {"width": 6, "height": 5, "mines": 6, "cells": cells}
        brute = Brute(view) if click["judgement"] != "start" else None
        if click["judgement"] == "forced":
            assert brute is not None and {tuple(c) for c in click["opens"]} <= brute.safe
        elif click["judgement"] in ("guess", "mistake"):
            assert brute is not None
            (cell,) = click["opens"]
            assert Fraction(click["probability_exact"]) == brute.probability(tuple(cell))
            assert (click["judgement"] == "mistake") is bool(brute.safe)
        for x, y, n in click["revealed"]:
            assert not mine(layout, (x, y)) and (x, y) not in seen
            assert n == sum(mine(layout, c) for c in around(6, 5, x, y))
            seen.add((x, y))
            cells[y][x] = n
        if click["action"] in ("flag", "unflag"):
            x, y = click["cell"]
            cells[y][x] = FLAG if click["action"] == "flag" else COVERED
    opened = {
        (x, y) for y, row in enumerate(game["cells"]) for x, code in enumerate(row) if code >= 0
    }
    assert seen == opened
    # In another language, the same judgements in other words.
    again = client.get(f"/api/games/{game['id']}/review?lang=de").ok()
    assert [c["judgement"] for c in again["clicks"]] == [c["judgement"] for c in clicks]
    assert again["summary"]["text"] != review["summary"]["text"]


def gif_frames(data: bytes) -> tuple[tuple[int, int], int]:
    """Return the size and the number of frames of a GIF, decoded by Pillow."""
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF"
        return gif.size, sum(1 for _ in ImageSequence.Iterator(gif))


def test_the_review_as_a_gif(own_server: Server) -> None:
    server, client = own_server, own_server.client()
    game = lost_game(client, server)
    reply = client.get(f"/api/games/{game['id']}/review.gif")
    assert reply.status == 200 and reply.headers["content-type"] == "image/gif"
    assert "attachment" in reply.headers["content-disposition"]
    clicks = len(client.get(f"/api/games/{game['id']}/review").ok()["clicks"])
    assert gif_frames(reply.body) == ((6 * 16, 5 * 16), clicks + 1)


def test_no_review_before_the_end(own_server: Server) -> None:
    client = own_server.client()
    view = small_game(client, own_server)
    for path in ("review", "review.gif"):
        reply = client.get(f"/api/games/{view['id']}/{path}")
        reply.error(400)
        assert reply.json()["kind"] == "argument"
    client.get("/api/games/NoSuchGame123/review").error(404)


def upload(client: Client, name: str, data: bytes, path: str = "/api/review", **more: Any) -> Any:
    return client.post(path, {"name": name, "data": base64.b64encode(data).decode(), **more})


def test_an_uploaded_replay_is_reviewed(client: Client) -> None:
    data = (REPLAYS / "beginner-15s.avf").read_bytes()
    review = upload(client, "beginner-15s.avf", data, lang="ja").ok()
    assert review["board"] == {"width": 8, "height": 8, "mines": 10}
    assert review["summary"]["source"] == "avf" and review["summary"]["outcome"] == "won"
    assert review["clicks"] and all("revealed" in c for c in review["clicks"])
    reply = upload(client, "beginner-15s.avf", data, "/api/review.gif")
    assert reply.status == 200 and reply.headers["content-type"] == "image/gif"
    assert gif_frames(reply.body)[1] == len(review["clicks"]) + 1


def test_a_recorded_json_game_is_reviewed(client: Client) -> None:
    # A 4x3 board, its mine at A1: a click at D3 opens all but A1 (flood fill done here).
    opened = sorted(flood(Layout(Board(4, 3), 1), (3, 2)))
    record = {
        "width": 4,
        "height": 3,
        "mines": 1,
        "layout": ["*...", "....", "...."],
        "start": [3, 2],
        "moves": [
            {
                "action": "open",
                "cell": [3, 2],
                "opened": [list(c) for c in opened],
                "reason": {"kind": "start"},
            },
        ],
        "outcome": "won",
    }
    review = upload(client, "game.json", json.dumps(record).encode()).ok()
    assert review["summary"]["source"] == "json" and len(review["clicks"]) == 1


@pytest.mark.parametrize(
    ("name", "data", "status", "kind"),
    [
        ("broken.avf", b"\x00\x01not a replay", 400, "format"),
        ("empty.evf", b"", 400, "format"),
        ("notes.txt", b"hello", 400, "format"),
        ("big.avf", b"x" * 700_001, 413, "request"),
    ],
)
def test_bad_uploads_end_in_one_line(
    client: Client, name: str, data: bytes, status: int, kind: str
) -> None:
    reply = upload(client, name, data)
    reply.error(status)
    assert reply.json()["kind"] == kind


def test_upload_fields_are_checked(client: Client) -> None:
    client.post("/api/review", {"name": "a.avf", "data": "%%%"}).error(400)
    client.post("/api/review", {"name": "a.avf"}).error(400)
    client.post("/api/review", {"name": 3, "data": ""}).error(400)
    reply = client.post("/api/review", {"name": "a.avf", "data": "", "lang": "xx"})
    assert reply.json()["kind"] == "argument"
    assert client.get("/api/review").status == 405
