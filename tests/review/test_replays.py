"""Every recorded game of real players reviewed, and each judgement checked independently.

The ten replays of ``tests/data/replays`` (four formats) are read through ms-toollib and
reviewed. Each click judged ``forced`` must be safe in every arrangement by ms-toollib's own
probabilities (``cal_probability_onboard``), each ``guess`` and ``mistake`` must have the mine
probability ms-toollib gives, and a mistake must come with a cell ms-toollib finds safe; on the
small boards, the exact probabilities are also checked against the brute-force enumeration of
``tests/review/oracle.py``. The luck of each game is the product over its needed guesses of
ms-toollib's chances to survive them. Malformed and truncated files end in one-line errors.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import ms_toollib
import pytest

import mineproof.review.recorded as recorded
from mineproof.analysis import analyze
from mineproof.errors import ArgumentError, FormatError
from mineproof.explain import hint
from mineproof.logic import known_view
from mineproof.play.lookahead import Lookahead
from mineproof.position import Position
from mineproof.review import GameReview, read_file, read_replay, review_game

from . import oracle

REPLAYS = Path(__file__).resolve().parents[1] / "data" / "replays"
FILES = sorted(p for p in REPLAYS.iterdir() if p.suffix in (".avf", ".mvf", ".rmv", ".evf"))
SIZES = {
    "beginner-4s.evf": (8, 8, 10),
    "beginner-9s.avf": (8, 8, 10),
    "beginner-15s.avf": (8, 8, 10),
    "beginner-505s.evf": (8, 8, 10),
    "custom-8x11-7.avf": (8, 11, 7),
    "expert-38s.mvf": (30, 16, 99),
    "expert-49s.avf": (30, 16, 99),
    "expert-99s.rmv": (30, 16, 99),
    "expert-101s.avf": (30, 16, 99),
    "custom-60x36-540.evf": (60, 36, 540),
}

_reviews: dict[str, GameReview] = {}


def reviewed(path: Path) -> GameReview:
    """Return the review of a replay (made once per test run)."""
    if path.name not in _reviews:
        _reviews[path.name] = review_game(read_replay(path.read_bytes(), path.suffix[1:]))
    return _reviews[path.name]


def test_every_replay_of_the_shared_folder_is_here() -> None:
    assert sorted(p.name for p in FILES) == sorted(SIZES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_replay_is_read_and_reviewed(path: Path) -> None:
    review = reviewed(path)
    layout = review.game.layout
    assert (layout.board.width, layout.board.height, layout.mine_count) == SIZES[path.name]
    s = review.summary
    assert s.outcome == "won"  # every one of these games was won
    assert s.clicks == len(review.clicks) and s.judged == sum(s.kinds.values())
    assert s.kinds.get("start") == 1 and review.clicks[0].judgement is not None
    assert s.guesses_taken == s.kinds.get("guess", 0) + s.kinds.get("mistake", 0)
    assert sum(s.mistake_levels.values()) == s.kinds.get("mistake", 0)
    assert s.kinds.get("unknown", 0) == 0
    assert s.stats["bbbv"] and s.stats["time"]
    assert s.time is not None and abs(s.time - float(s.stats["time"] or 0)) < 0.2
    # The clicks by action add up, and against ms-toollib's effective clicks (Ce): the same
    # count where nothing was unflagged; otherwise fewer in ms-toollib, by at most each unflag
    # and the flag it undid.
    actions = s.to_json()["clicks_by_action"]
    assert sum(actions.values()) == s.clicks
    assert all(n == sum(c.action == a for c in review.clicks) for a, n in actions.items())
    effective = int(s.stats["ce"] or 0)
    assert 0 <= s.clicks - effective <= 2 * actions["unflag"]
    times = [c.time for c in review.clicks]
    assert all(t is not None for t in times)
    assert times == sorted(times, key=lambda t: t or 0.0)
    # Each click judged holds the position it was made in, with the player's flags.
    for click in review.clicks:
        j = click.judgement
        if j is None:
            assert click.action in ("flag", "unflag")
            continue
        assert j.cell == click.cell and j.action == click.action
        assert not j.fatal
        assert j.opens & j.position.covered_mask == j.opens
        assert not j.opens & j.position.flag_mask


def grid(position: Position) -> list[list[int]]:
    """Return ms-toollib's grid of a position, flags as covered cells (not trusted)."""
    w = position.width
    return [
        [10 if c < 0 else c for c in position.cells[y * w : (y + 1) * w]]
        for y in range(position.height)
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_judgements_match_ms_toollib(path: Path) -> None:
    review = reviewed(path)
    board = review.game.layout.board
    luck = 1.0
    checked = 0
    for click in review.clicks:
        j = click.judgement
        if j is None or j.kind == "start":
            continue
        theirs, _ = ms_toollib.cal_probability_onboard(grid(j.position), j.position.mines)
        cells = [board.xy(i) for i in oracle.bits(j.opens)]
        zero = {
            (x, y)
            for y, row in enumerate(theirs)
            for x, p in enumerate(row)
            if p == 0 and j.position.covered_mask >> board.index(x, y) & 1
        }
        if j.kind == "forced":
            assert all(c in zero for c in cells), (click.number, cells)
        else:
            assert j.probability is not None
            if len(cells) == 1:
                x, y = cells[0]
                assert abs(float(j.probability) - theirs[y][x]) < 1e-9, click.number
            assert (j.kind == "mistake") == bool(zero), click.number
            if j.kind == "guess":
                # The chance to survive a chord is not a product of marginals: only single
                # cells are multiplied here (none of these games guesses with a chord).
                assert len(cells) == 1
                luck *= 1 - theirs[cells[0][1]][cells[0][0]]
        if j.counted:
            assert j.safe_then == sum(1 << board.index(x, y) for x, y in zero)
        else:
            assert not j.safe_then & ~sum(1 << board.index(x, y) for x, y in zero)
        checked += 1
    assert checked
    assert math.isclose(float(review.summary.luck), luck, rel_tol=1e-9)


@pytest.mark.parametrize(
    "path", [p for p in FILES if SIZES[p.name][:2] != (30, 16) and p.stat().st_size < 100_000]
)
def test_small_games_match_the_brute_force(path: Path) -> None:
    review = reviewed(path)
    for click in review.clicks:
        j = click.judgement
        if j is None or j.kind == "start":
            continue
        counted = oracle.count(j.position)
        risk = 1 - Fraction(counted.free(j.opens), counted.total)
        if j.kind == "forced":
            assert risk == 0
        else:
            assert j.probability == risk
            assert (j.kind == "mistake") == bool(counted.safe)


def test_the_60x36_game_is_reviewed_with_its_hard_guesses() -> None:
    review = reviewed(REPLAYS / "custom-60x36-540.evf")
    s = review.summary
    assert s.guesses_needed >= 30
    assert 0 < s.luck < Fraction(1, 1000)
    assert "1 in 4007" in s.to_json()["text"]
    assert s.stats["cl"] and s.player


def test_the_long_wait_is_a_long_think() -> None:
    review = reviewed(REPLAYS / "beginner-505s.evf")
    s = review.summary
    assert s.long_thinks >= 1
    assert s.time_lost is not None and s.time_lost > 400
    assert "Long thinks" in s.to_json()["text"]
    longest = max(review.clicks, key=lambda c: c.think or 0.0)
    assert longest.think is not None and longest.think > 400
    assert longest.judgement is not None and longest.judgement.kind == "forced"


def test_the_summary_says_what_the_clicks_were_when_they_were_not_all_opens() -> None:
    # "38 clicks" beside ms-toollib's "Cl 42, Ce 28" said nothing of the 5 flags taken off.
    text = reviewed(REPLAYS / "beginner-15s.avf").summary.to_json()["text"]
    assert text.startswith(
        "Game won, 38 clicks. Clicks by action: open 13, chord 9, flag 11, flag taken off 5."
    )
    assert "Clicks by action" not in reviewed(REPLAYS / "expert-101s.avf").summary.to_json()["text"]


def test_a_game_without_a_long_think_says_so_in_words() -> None:
    """It said 'Long thinks before a move of level 1 (at least 3 s): 0, 0.00 s lost.'"""
    s = reviewed(REPLAYS / "beginner-4s.evf").summary
    assert s.long_thinks == 0 and s.time_lost is not None
    assert "No long think before a move of level 1 (at least 3 s)." in s.to_json()["text"]
    assert "Long thinks" not in s.to_json()["text"]


def test_the_review_is_the_same_with_the_exact_count_for_every_click() -> None:
    # The cheap level-1 proof only skips work: the judgements are those of the exact count.
    game = read_replay((REPLAYS / "expert-49s.avf").read_bytes(), "avf")
    quick, exact = review_game(game), review_game(game, exact=True)
    for a, b in zip(quick.clicks, exact.clicks, strict=True):
        if a.judgement is None or b.judgement is None:
            assert a == b
            continue
        assert (a.judgement.kind, a.judgement.level) == (b.judgement.kind, b.judgement.level)
        assert a.judgement.probability == b.judgement.probability
        assert not a.judgement.safe_then & ~b.judgement.safe_then
        assert b.judgement.counted
    assert quick.summary.to_json()["kinds"] == exact.summary.to_json()["kinds"]


def test_json_holds_the_summary_and_every_click() -> None:
    review = reviewed(REPLAYS / "expert-38s.mvf")
    data = json.loads(json.dumps(review.to_json("de")))
    assert set(data) == {"summary", "clicks"}
    assert len(data["clicks"]) == review.summary.clicks
    assert data["summary"]["text"].startswith("Spiel gewonnen")
    first = data["clicks"][0]
    assert first["judgement"] == "start" and first["time"] == 0.0
    for click in data["clicks"]:
        assert {"number", "time", "think", "action", "cell", "judgement"} <= set(click)
        if click["judgement"] is not None:
            assert {"probability", "level", "text", "position"} <= set(click)
            Position.parse(click["position"])


# --------------------------------------------------------------------------------------------
# Bad files


ONE_OF_EACH = ["beginner-15s.avf", "beginner-4s.evf", "expert-38s.mvf", "expert-99s.rmv"]


@pytest.mark.parametrize("name", ONE_OF_EACH)
def test_truncated_and_malformed_files_end_in_one_line_errors(name: str) -> None:
    path = REPLAYS / name
    data = path.read_bytes()
    kind = path.suffix[1:]
    # (An .avf file cut by a few bytes at the end still holds the whole game: its last bytes
    # are not needed to replay it, so the cuts stop at nine tenths.)
    for cut in (1, 40, len(data) // 3, 9 * len(data) // 10):
        with pytest.raises(FormatError) as caught:
            read_replay(data[:cut], kind)
        assert "\n" not in str(caught.value)
    with pytest.raises(FormatError, match="empty"):
        read_replay(b"", kind)
    garbage = bytes((i * 37 + 11) % 256 for i in range(3000))
    with pytest.raises(FormatError, match=f"not a readable .{kind} replay"):
        read_replay(garbage, kind)


def test_a_replay_whose_clicks_do_not_replay_is_refused() -> None:
    path = REPLAYS / "beginner-9s.avf"
    found = recorded._read_in_child(path.read_bytes(), "avf")
    assert recorded._recorded(found, "avf").clicks
    # Drop one click that opened cells: the end no longer matches ms-toollib's.
    events = found["events"]
    k = next(n for n, e in enumerate(events) if e[1] == "open" and n > 0)
    with pytest.raises(FormatError, match="do not replay"):
        recorded._recorded({**found, "events": events[:k] + events[k + 1 :]}, "avf")
    with pytest.raises(FormatError, match="outside"):
        recorded._recorded({**found, "events": [[0.0, "open", 99, 0]]}, "avf")


def test_without_ms_toollib_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recorded, "find_spec", lambda name: None)
    with pytest.raises(ArgumentError, match=r"pip install 'mineproof\[replays\]'"):
        read_replay((REPLAYS / "beginner-9s.avf").read_bytes(), "avf")
    # The reader's process says so too when it cannot import ms-toollib (-S: no site-packages).
    done = subprocess.run(
        [sys.executable, "-S", str(recorded._CHILD), "avf"],
        input=b"x",
        capture_output=True,
        check=True,
    )
    assert json.loads(done.stdout) == {"missing": True}


def test_files_are_read_by_their_extension() -> None:
    with pytest.raises(FormatError, match="not a game file"):
        read_file(b"whatever", "game.txt")
    with pytest.raises(FormatError, match="not a recorded game"):
        read_file(b"{}", "game.json")
    with pytest.raises(FormatError, match="not UTF-8"):
        read_file(b"\xff\xfe", "game.json")
    bom = b"\xef\xbb\xbf"
    with pytest.raises(FormatError, match="not a recorded game: missing"):
        read_file(bom + b"{}", "game.json")  # the mark is dropped: the record itself is read
    key = r"^line 1, column 2: not a recorded game: expected a key in double quotes$"
    with pytest.raises(FormatError, match=key):
        read_file(b"{'width': 9}", "game.json")
    with pytest.raises(ArgumentError, match="unknown replay format"):
        read_replay(b"x", "txt")
    game = read_file((REPLAYS / "expert-99s.rmv").read_bytes(), "EXPERT.RMV")
    assert game.source == "rmv" and game.software == "Viennasweeper"


@pytest.mark.parametrize(
    ("lang", "needle"),
    [
        ("en", "Guesses: 1 needed, 3 taken."),
        ("es", "Apuestas necesarias: 1; hechas: 3."),
        ("fr", "Coups au hasard nécessaires\u00a0: 1\u00a0; joués\u00a0: 3."),
        ("pt", "Chutes necessários: 1; feitos: 3."),
    ],
)
def test_one_guess_needed_agrees_in_every_language(lang: str, needle: str) -> None:
    # An adjective after a count agrees with it: "1 necesarias" was wrong; a label is right
    # for any count.
    review = reviewed(REPLAYS / "beginner-15s.avf")
    assert review.summary.guesses_needed == 1
    assert needle in review.text(lang)


def cell_xy(name: str) -> tuple[int, int]:
    """Return the ``(x, y)`` of a cell named as the board shows it (``AB12``)."""
    letters = name.rstrip("0123456789")
    x = 0
    for c in letters:
        x = x * 26 + ord(c) - ord("A") + 1
    return x - 1, int(name[len(letters) :]) - 1


def test_the_best_guess_of_the_look_ahead_is_explained_by_what_decided_it() -> None:
    # #1264: the player opened F34 (11%, among the safest); the best player's A36 (25%) is
    # below the nearly safest and wins on its long-term risk only. Before, the review said
    # "The best guess is A36 ...: of the nearly safest cells, it gives the best chance to
    # survive this guess and the move after it", false twice (and in the present tense).
    clicks = reviewed(REPLAYS / "custom-60x36-540.evf").clicks
    j = clicks[1263].judgement
    assert j is not None and j.best is not None
    assert j.position.board.name(j.best.cell) == "A36"  # the player's pick is unchanged
    text = j.text()
    assert "nearly safest" not in text and "The best guess is" not in text, text
    assert "A36 was less likely to leave a 50/50 behind it" in text, text
    # The hint of the same position says it as the review does, in the present.
    advice = hint(j.position).best
    assert advice is not None and advice.cell == cell_xy("A36")
    assert "nearly safest" not in advice.text, advice.text
    assert "A36 is less likely to leave a 50/50 behind it" in advice.text, advice.text
    counted = 0
    for click in clicks:
        j = click.judgement
        if j is None or j.best is None or j.best.reason != "lookahead" or j.is_best:
            continue
        assert j.best_probability is not None and j.lowest is not None
        text, counted = j.text(), counted + 1
        assert "The best guess is" not in text, text  # the review speaks in the past
        # "Nearly safest" only within the look ahead's cut-off: 90 % of the best chance to be
        # safe, worked out here from the two probabilities.
        if "nearly safest" in text:
            assert 1 - j.best_probability >= Fraction(9, 10) * (1 - j.lowest), text
        # A cell named as surviving better than the pick does, by the player's own measure.
        found = re.search(r"([A-Z]+\d+) gave (a|a slightly) better chance", text)
        if found:
            analysis = analyze(known_view(j.position, False), trust_flags=True)
            look = Lookahead(analysis)
            rival = look.score(j.position.board.index(*cell_xy(found.group(1))))
            assert rival.secondary > look.score(j.best.cell).secondary, text
    assert counted >= 10


_MINES = [(0, 7), (2, 7), (4, 4), (6, 1), (7, 7), (3, 2), (5, 6), (1, 4), (6, 5), (0, 2)]
"""The mines ``(row, column)`` of the 8x8 board the games below are recorded on."""


_LOST = 4
"""ms-toollib's state of a game board when the game is lost."""


def _recorded(*presses: tuple[str, int, int]) -> tuple[bytes, int]:
    """Return the Metasweeper replay (``.evf``) ms-toollib records of ``presses`` on the board
    of ``_MINES``: each a mouse event (``lc`` left press, ``lr`` left release, ``rc``, ``rr``
    the right button's) on the cell ``(row, column)``, as a client's mouse makes them; and the
    state ms-toollib's game is left in."""
    board = [[0] * 8 for _ in range(8)]
    for r, c in _MINES:
        board[r][c] = -1
    video = ms_toollib.BaseVideo(ms_toollib.cal_board_numbers(board), 16)
    for event, r, c in presses:
        video.step(event, (r * 16 + 8, c * 16 + 8))
    video.generate_evf_v4_raw_data()
    return bytes(video.raw_data), video.game_board_state


_OPEN_D8 = (("lc", 7, 3), ("lr", 7, 3))
_CHORD_E8 = (("lc", 7, 4), ("rc", 7, 4), ("lr", 7, 4), ("rr", 7, 4))
_CHORD_E8_RIGHT_FIRST = (("rc", 7, 4), ("lc", 7, 4), ("rr", 7, 4), ("lr", 7, 4))
_CHORD_E6 = (("lc", 5, 4), ("rc", 5, 4), ("lr", 5, 4), ("rr", 5, 4))


@pytest.mark.parametrize(
    ("presses", "chord", "flags"),
    [
        # A wrong flag on F8 and the 1 at E8 chorded: it opens F7 alone, a mine.
        ((*_OPEN_D8, ("rc", 7, 5), ("rr", 7, 5), *_CHORD_E8), (4, 7), 1),
        # The same chord pressed right button first, and released in the other order.
        (
            (*_OPEN_D8, ("rc", 7, 5), ("rr", 7, 5), *_CHORD_E8_RIGHT_FIRST),
            (4, 7),
            1,
        ),
        # Wrong flags on D5 and F5 and the 2 at E6 chorded: it opens a safe cell and mines.
        (
            (*_OPEN_D8, ("rc", 4, 3), ("rr", 4, 3), ("rc", 4, 5), ("rr", 4, 5), *_CHORD_E6),
            (4, 5),
            2,
        ),
    ],
)
def test_a_game_lost_by_a_chord_is_lost_at_that_chord(
    presses: tuple[tuple[str, int, int], ...], chord: tuple[int, int], flags: int
) -> None:
    """ms-toollib marks a chord that hits a mine as it marks a left click on one: read as an
    open of the opened number, the chord was dropped, and the game was "not finished" (or, where
    the chord also opened safe cells, refused as not replaying)."""
    data, state = _recorded(*presses)
    assert state == _LOST  # says ms-toollib
    video = ms_toollib.EvfVideo("lost.evf", list(data))
    video.parse()
    video.analyse()
    assert not video.is_completed
    review = review_game(read_replay(data, "evf"))
    s = review.summary
    assert [c.action for c in review.clicks] == ["open"] + ["flag"] * flags + ["chord"]
    assert (s.outcome, s.fatal, review.clicks[-1].cell) == ("lost", flags + 2, chord)
    assert s.time is not None and abs(s.time - video.rtime) < 0.01
