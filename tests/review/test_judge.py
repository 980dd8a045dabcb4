"""The judgement of one click, checked against oracles that share no code with it.

Small positions (random games with right and wrong flags): every covered cell's exact mine
probability, the safe cells, the chance a chord hits a mine, and the lowest level that proves a
cell, all by enumeration of arrangements and the definitions of the levels
(``tests/review/oracle.py``). Large positions (expert and 60x36 games): the probabilities and
the safe cells against ms-toollib's ``cal_probability_onboard``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import ms_toollib
import pytest

from mineproof.analysis import clear_cache
from mineproof.board import Board, Layout, iter_bits
from mineproof.errors import ArgumentError, IllegalMoveError
from mineproof.explain import LANGUAGES, best_guess_text, review_best_guess_text
from mineproof.game import Game
from mineproof.position import Position
from mineproof.review import (
    KINDS,
    Judgement,
    chord_cells,
    judge_chord,
    judge_open,
    lowest_level,
    wrong_flags,
)

from . import oracle


def small_game(seed: int) -> tuple[Layout, Position]:
    """Return a small layout and a position of a game on it: a few safe cells opened (with
    flood fill), some mines flagged and some safe cells flagged by mistake."""
    rng = random.Random(seed)
    w, h = rng.randint(3, 6), rng.randint(3, 6)
    mines = rng.randint(1, max(1, w * h // 3))
    layout = Layout.random(Board(w, h), mines, rng)
    game = Game(layout)
    safe = [i for i in range(w * h) if not layout.is_mine(i)]
    for _ in range(rng.randint(1, 3)):
        covered = [i for i in safe if not game.opened_mask >> i & 1]
        if not covered or game.state != "playing":
            break
        game.reveal(*layout.board.xy(rng.choice(covered)))
    if game.state == "playing":
        for i in range(w * h):
            if game.opened_mask >> i & 1 or rng.random() > 0.15:
                continue
            game.flag(*layout.board.xy(i))
    return layout, game.position()


def cases(n: int) -> list[tuple[Layout, Position]]:
    out: list[tuple[Layout, Position]] = []
    seed = 0
    while len(out) < n:
        layout, position = small_game(seed)
        seed += 1
        safe_left = position.covered_mask & ~layout.mines
        if safe_left & ~position.flag_mask and position.number_mask:
            out.append((layout, position))
    return out


SMALL = cases(140)


def test_the_small_positions_cover_every_kind_and_level() -> None:
    kinds = set()
    levels = set()
    for layout, position in SMALL:
        for i in oracle.bits(position.covered_mask & ~position.flag_mask):
            j = judge_open(position, position.board.xy(i), layout)
            kinds.add(j.kind)
            levels.add((j.kind, j.level))
    assert kinds == {"forced", "guess", "mistake"}
    assert {("forced", 1), ("forced", 2), ("mistake", 1)} <= levels
    assert {level for kind, level in levels if kind == "forced"} >= {1, 2, 5}


def ladder_positions(level: int, n: int) -> list[tuple[Layout, Position]]:
    """Return ``n`` positions of the shared ladder test data whose first deduction needs
    ``level``, each with a layout that fits it."""
    out: list[tuple[Layout, Position]] = []
    for line in LADDER.read_text().splitlines():
        record = json.loads(line)
        if record["level"] != level:
            continue
        position = Position.parse(record["position"])
        if position.covered_count > 40:
            continue
        layout = Layout(position.board, oracle.some_layout(position, len(out)))
        out.append((layout, position))
        if len(out) == n:
            break
    return out


LADDER = Path(__file__).resolve().parents[1] / "data" / "ladder_positions.jsonl"
HARD = ladder_positions(3, 4) + ladder_positions(4, 6)


@pytest.mark.parametrize("k", range(len(SMALL)))
def test_opening_clicks_match_the_oracles(k: int) -> None:
    check_position(*SMALL[k])


@pytest.mark.parametrize("k", range(len(HARD)))
def test_clicks_in_positions_of_levels_3_and_4_match_the_oracles(k: int) -> None:
    check_position(*HARD[k])


def test_the_hard_positions_have_clicks_of_levels_3_and_4() -> None:
    levels = set()
    for layout, position in HARD:
        for i in oracle.bits(position.covered_mask & ~position.flag_mask & ~layout.mines):
            levels.add(judge_open(position, position.board.xy(i), layout).level)
    assert {3, 4} <= levels


def check_position(layout: Layout, position: Position) -> None:
    """Judge every covered unflagged cell of ``position`` and compare with the oracles."""
    counted = oracle.count(position)
    proven = oracle.levels(position)
    total = counted.total
    covered = position.covered_mask & ~position.flag_mask
    lowest = Fraction(min(counted.mine[i] for i in oracle.bits(covered)), total)
    for i in oracle.bits(covered):
        cell = position.board.xy(i)
        j = judge_open(position, cell, layout)
        assert j.fatal == layout.is_mine(i)
        assert j.wrong_flags == position.flag_mask & ~layout.mines == wrong_flags(position, layout)
        assert j.opens == 1 << i and j.action == "open" and j.cell == cell
        assert j.counted
        p = Fraction(counted.mine[i], total)
        if p == 0:
            assert j.kind == "forced"
            assert j.probability == 0
            # The lowest level whose closure proves the cell, by the oracle's definitions.
            level = min(L for L, safe in proven.items() if safe >> i & 1)
            assert j.level == level, (position, cell)
            assert lowest_level(position, proves(i)) == level
            assert not j.fatal
        else:
            assert j.probability == p
            assert j.lowest == lowest
            assert j.safest == (p == lowest)
            if counted.safe:
                assert j.kind == "mistake"
                assert j.level == min(L for L, safe in proven.items() if safe)
                check_missed(j, counted.safe)
            else:
                assert j.kind == "guess"
                assert j.level is None
                assert j.best is not None
                # The best player may open a cell the player flagged without proof.
                assert counted.mine[j.best.cell] < total
                assert j.is_best == (j.best.cell == i)
        assert j.safe_then == counted.safe


def proves(i: int) -> Callable[[int], bool]:
    """Return the test :func:`lowest_level` takes for cell ``i``: is it among the safe cells."""
    return lambda safe: bool(safe >> i & 1)


def check_missed(j: Judgement, safe: int) -> None:
    """The deduction a mistake missed leads to a truly safe cell, at the judgement's level."""
    assert j.missed
    last = j.missed[-1]
    assert last.safe and not last.safe & ~safe
    assert all(not d.safe for d in j.missed[:-1])
    assert max(d.level for d in j.missed) == j.level


@pytest.mark.parametrize("k", range(0, len(SMALL), 2))
def test_chords_match_the_oracle(k: int) -> None:
    layout, position = SMALL[k]
    counted = oracle.count(position)
    for i in oracle.bits(position.number_mask):
        cell = position.board.xy(i)
        opens = chord_cells(position, cell)
        if not opens:
            with pytest.raises(IllegalMoveError):
                judge_chord(position, cell, layout)
            continue
        j = judge_chord(position, cell, layout)
        assert j.action == "chord" and j.opens == opens
        assert j.fatal == bool(opens & layout.mines)
        risk = 1 - Fraction(counted.free(opens), counted.total)
        if risk == 0:
            assert j.kind == "forced"
            assert j.level is not None
        else:
            assert j.probability == risk
            assert j.kind == ("mistake" if counted.safe else "guess")


def test_chord_cells_follow_the_flags() -> None:
    position = Position.parse("3x3x2\nF1H\n12H\nHHH")
    # Cells are numbered row by row: A1 B1 C1 / A2 B2 C2 / A3 B3 C3 are bits 0-8.
    assert chord_cells(position, (1, 0)) == 1 << 2 | 1 << 5  # the 1 at B1: C1 and C2
    assert chord_cells(position, (1, 1)) == 0  # a 2 with one flag
    assert chord_cells(position, (2, 2)) == 0  # a covered cell
    assert chord_cells(position, (0, 1)) == 1 << 6 | 1 << 7  # the 1 at A2: A3 and B3


def test_the_first_click_is_the_start() -> None:
    layout = Layout.from_cells(Board(4, 4), [(3, 3)])
    position = Game(layout).position()
    j = judge_open(position, (0, 0), layout)
    assert j.kind == "start" and j.probability is None and not j.fatal
    assert "A1" in j.text()


def test_a_position_too_complex_to_count_is_judged_unknown() -> None:
    # The same small position with a counting budget too small for any count: a cell that
    # levels 1 and 2 prove stays forced (without counting), the others are unknown.
    for layout, position in SMALL:  # noqa: B007 - the layout found is used below
        if position.flag_mask:
            continue
        counted = oracle.count(position)
        proven = oracle.levels(position)
        covered = position.covered_mask
        if proven[2] and counted.safe != proven[2]:
            break
    else:
        pytest.fail("no position with cells of levels 1-2 and others")
    for i in oracle.bits(covered):
        clear_cache()  # counts remembered from earlier tests cost no work
        j = judge_open(position, position.board.xy(i), layout, work=1)
        assert not j.counted
        if proven[2] >> i & 1:
            assert j.kind == "forced" and j.level in (1, 2)
        else:
            assert j.kind == "unknown" and j.probability is None and j.level is None
        assert j.kind != "unknown" or "too complex" in j.text()


def test_bad_clicks_are_refused() -> None:
    layout = Layout.from_cells(Board(4, 3), [(3, 0), (3, 2)])
    position = Position.parse("4x3x2\n001H\n002H\n001F")
    # A move off the board, as the game refuses it.
    with pytest.raises(IllegalMoveError, match=r"^cell \(4, 0\) is outside the 4x3 board"):
        judge_open(position, (4, 0), layout)
    with pytest.raises(IllegalMoveError, match=r"^cell \(0, 3\) is outside the 4x3 board"):
        judge_chord(position, (0, 3), layout)
    with pytest.raises(IllegalMoveError, match="already open"):
        judge_open(position, (0, 0), layout)
    with pytest.raises(IllegalMoveError, match="flagged"):
        judge_open(position, (3, 2), layout)
    with pytest.raises(IllegalMoveError, match="opens nothing"):
        judge_chord(position, (0, 0), layout)
    assert judge_chord(position, (2, 2), layout).kind == "forced"
    with pytest.raises(ArgumentError, match="shows 1 at"):
        judge_open(position, (3, 1), Layout.from_cells(Board(4, 3), [(3, 0), (3, 1)]))
    with pytest.raises(ArgumentError, match="3 mines"):
        judge_open(position, (3, 1), Layout.from_cells(Board(4, 3), [(3, 0), (3, 1), (3, 2)]))
    with pytest.raises(ArgumentError, match="5x3"):
        judge_open(position, (3, 1), Layout.from_cells(Board(5, 3), [(3, 0), (3, 2)]))


def test_every_kind_has_text_and_json_in_every_language() -> None:
    seen: dict[str, Judgement] = {}
    for layout, position in SMALL:
        for i in oracle.bits(position.covered_mask & ~position.flag_mask):
            j = judge_open(position, position.board.xy(i), layout)
            seen.setdefault(j.kind + ("-fatal" if j.fatal else ""), j)
        for i in oracle.bits(position.number_mask):
            cell = position.board.xy(i)
            if chord_cells(position, cell):
                j = judge_chord(position, cell, layout)
                seen.setdefault("chord-" + j.kind, j)
    layout = Layout.from_cells(Board(4, 4), [(3, 3)])
    seen["start"] = judge_open(Game(layout).position(), (0, 0), layout)
    assert {"forced", "guess", "mistake", "start", "chord-forced"} <= set(seen)
    assert any(key.endswith("fatal") for key in seen)
    assert set(KINDS) >= {j.kind for j in seen.values()}
    for lang in LANGUAGES:
        for key, j in seen.items():
            text = j.text(lang)
            assert text and "{" not in text and "}" not in text, (key, lang, text)
            data = j.to_json(lang)
            assert json.loads(json.dumps(data)) == data
            assert data["judgement"] == j.kind and data["text"] == text
            assert data["cell"] == list(j.cell)
            assert Position.parse(data["position"]) == j.position
            if j.probability is not None:
                assert Fraction(data["probability_exact"]) == j.probability
                assert data["probability"] == float(j.probability)


# --------------------------------------------------------------------------------------------
# Large positions against ms-toollib


def large_game(seed: int, size: tuple[int, int, int]) -> tuple[Layout, Position]:
    """Return a layout and a mid-game position on it: an opening, then safe cells near the
    opened area opened one by one, some mines flagged."""
    rng = random.Random(seed)
    w, h, m = size
    board = Board(w, h)
    start = (rng.randrange(w), rng.randrange(h))
    layout = Layout.random(board, m, rng, start, "opening")
    game = Game(layout)
    game.reveal(*start)
    steps = rng.randint(5, 60)
    for _ in range(steps):
        near = board.dilate(game.opened_mask) & ~game.opened_mask & ~layout.mines
        if not near or game.state != "playing":
            break
        cells = list(oracle.bits(near))
        game.reveal(*board.xy(rng.choice(cells)))
    for i in oracle.bits(layout.mines & board.dilate(game.opened_mask)):
        if rng.random() < 0.5 and game.state == "playing":
            game.flag(*board.xy(i))
    return layout, game.position()


def grid(position: Position) -> list[list[int]]:
    """Return ms-toollib's grid of a position, flags as covered cells (not trusted)."""
    w = position.width
    return [
        [10 if c < 0 else c for c in position.cells[y * w : (y + 1) * w]]
        for y in range(position.height)
    ]


@pytest.mark.parametrize(
    ("seed", "size"),
    [(s, (30, 16, 99)) for s in range(8)] + [(s, (60, 36, 540)) for s in range(4)],
)
def test_large_positions_match_ms_toollib(seed: int, size: tuple[int, int, int]) -> None:
    layout, position = large_game(seed, size)
    theirs, _ = ms_toollib.cal_probability_onboard(grid(position), position.mines)
    board = position.board
    safe = 0
    for y, row in enumerate(theirs):
        for x, p in enumerate(row):
            if position.covered_mask >> board.index(x, y) & 1 and p == 0:
                safe |= 1 << board.index(x, y)
    rng = random.Random(seed)
    covered = list(oracle.bits(position.covered_mask & ~position.flag_mask))
    picks = rng.sample(covered, min(12, len(covered))) + list(oracle.bits(safe))[:4]
    for i in picks:
        x, y = board.xy(i)
        j = judge_open(position, (x, y), layout)
        assert j.safe_then == safe
        if safe >> i & 1:
            assert j.kind == "forced" and j.level is not None
        else:
            assert j.probability is not None
            assert abs(float(j.probability) - theirs[y][x]) < 1e-9
            assert j.kind == ("mistake" if safe else "guess")


def test_either_cell_of_an_isolated_fifty_fifty_is_the_best_guess() -> None:
    # A1 and B1 hold one mine between them and no number can ever tell them apart (the hint
    # example of the README): the best player takes the 50/50 first, whichever cell.
    position = Position.parse("6x3x5\nHHFHHH\n13FHHH\n012HHH")
    layout = Layout.from_cells(Board(6, 3), [(0, 0), (2, 0), (2, 1), (3, 2), (5, 0)])
    for cell in ((0, 0), (1, 0)):
        j = judge_open(position, cell, layout)
        assert j.kind == "guess" and j.probability == Fraction(1, 2)
        assert j.best is not None and j.best.reason == "fifty-fifty"
        assert j.is_best and j.best.cell == position.board.index(*cell)
        assert j.fatal == (cell == (0, 0))
    j = judge_open(position, (5, 2), layout)
    assert j.best is not None and j.best.cell == 0 and not j.is_best


def test_every_cell_of_a_fifty_fifty_chain_is_the_best_guess() -> None:
    # Column C: C1/C2 and C4/C5 hold their mines one of two ways (C1 and C4, or C2 and C5),
    # and no number can ever tell which; D3 to E5 are still open to a later number.
    position = Position.parse("5x5x6\n01H10\n01H21\n1213H\nH2H4H\n12HHH")
    mines = [(2, 0), (4, 2), (0, 3), (2, 3), (4, 3), (3, 4)]
    layout = Layout.from_cells(Board(5, 5), mines)
    assert all(
        sum((x + dx, y + dy) in mines for dx in (-1, 0, 1) for dy in (-1, 0, 1)) == n
        for (x, y), n in ((c, position.at(*c)) for c in _opened(position))
    ), "the layout must fit the numbers"
    for cell in ((2, 0), (2, 1), (2, 3), (2, 4)):
        j = judge_open(position, cell, layout)
        assert j.probability == Fraction(1, 2)
        assert j.best is not None and j.best.reason == "fifty-fifty"
        assert j.is_best and j.best.cell == position.board.index(*cell)
        assert j.fatal == (cell in mines)
    j = judge_open(position, (4, 4), layout)
    assert j.best is not None and j.best.reason == "fifty-fifty" and not j.is_best


def _opened(position: Position) -> list[tuple[int, int]]:
    return [position.board.xy(i) for i in iter_bits(position.number_mask)]


@pytest.mark.parametrize(
    ("text", "mines", "cell", "kind", "words"),
    [
        # B1 and C1 are mines by the 2 at B1 (one clue), and so A3 is safe: a mistake.
        ("4x3x4\n02HH\n13HH\nHHHH", 332, (2, 0), "mistake", "A mistake at C1: it was a mine"),
        # The 3 at A1 has just 3 covered cells, all mines; nothing can be proven safe.
        ("4x3x4\n3HHH\nHHHH\nHHHH", 178, (1, 0), "guess", "B1 was a mine in every arrangement"),
    ],
)
def test_a_click_on_a_proven_mine_is_not_called_a_guess_at_100_percent(
    text: str, mines: int, cell: tuple[int, int], kind: str, words: str
) -> None:
    position = Position.parse(text)
    j = judge_open(position, cell, Layout(position.board, mines))
    assert j.kind == kind and j.probability == 1 and j.fatal
    said = j.text("en")
    assert said.startswith(words) and "100%" not in said
    for lang in LANGUAGES:
        assert "100" not in j.text(lang)


def test_a_click_as_good_as_the_exact_searchs_pick_is_the_best_guess() -> None:
    # A small end game: the brute force of the player tests gives opening E1 first a chance
    # of 1/2 to win, the exact search's pick; E2, D3 and E4 win 1/2 too, D1 and E3 3/7, D4
    # 5/14, C1 and C3 nothing (they are mines).
    position = Position.parse("5x4x5\n01HHH\n023HH\n01HHH\n012HH")
    layout = Layout.from_cells(Board(5, 4), [(2, 0), (2, 2), (3, 0), (3, 3), (4, 2)])
    pick = position.board.index(4, 0)
    for cell in ((4, 0), (4, 1), (3, 2), (4, 3)):
        j = judge_open(position, cell, layout)
        assert j.kind == "guess" and j.best is not None and j.best.reason == "endgame"
        assert j.is_best and j.best.cell == position.board.index(*cell)
        assert j.best.win == pytest.approx(1 / 2)
    for cell in ((3, 0), (4, 2), (3, 3)):
        j = judge_open(position, cell, layout)
        assert j.best is not None and j.best.cell == pick and not j.is_best


def test_of_an_uneven_chain_only_the_cells_that_win_most_often_are_the_best_guess() -> None:
    # Column C again, but C1 and C4 show other numbers than C2 and C5 where safe: with best
    # play after it, opening C1 or C4 wins 7 games in 20, C2 or C5 only 6 (brute force in
    # tests/play/test_fifty.py); few arrangements remain, so the exact search tells them apart.
    position = Position.parse("6x5x8\n2HH100\nHHH100\nHH2100\nHHH210\nHHHH10")
    mines = [(1, 0), (0, 1), (2, 1), (1, 2), (0, 3), (0, 4), (2, 4), (3, 4)]
    layout = Layout.from_cells(Board(6, 5), mines)
    assert all(
        sum((x + dx, y + dy) in mines for dx in (-1, 0, 1) for dy in (-1, 0, 1)) == n
        for (x, y), n in ((c, position.at(*c)) for c in _opened(position))
    ), "the layout must fit the numbers"
    for cell, best in (((2, 0), True), ((2, 3), True), ((2, 1), False), ((2, 4), False)):
        j = judge_open(position, cell, layout)
        assert j.best is not None and j.best.reason == "fifty-fifty"
        assert j.best.win == pytest.approx(7 / 20)
        assert j.is_best == best
        assert position.board.xy(j.best.cell) == (cell if best else (2, 0))


def a_guess() -> Judgement:
    """Return a guess: the 1 proves B1 a mine, and C1 and D1 share the last one."""
    position = Position.parse("4x1x2\n1HHH")
    j = judge_open(position, (2, 0), Layout.from_cells(Board(4, 1), [(1, 0), (3, 0)]))
    assert j.kind == "guess" and j.probability == j.lowest == Fraction(1, 2)
    return j


@pytest.mark.parametrize("lang", LANGUAGES)
def test_probabilities_that_round_alike_are_told_apart(lang: str) -> None:
    # 9.3 % against 9.05 %: both are "9%" to the unit, which read as the same odds.
    j = replace(a_guess(), probability=Fraction(93, 1000), lowest=Fraction(181, 2000))
    assert not j.safest
    text = j.text(lang)
    point = "," if lang in ("es", "fr", "de", "pt", "ru") else "."
    # A no-break space before the sign where the language puts one (narrow in French).
    pc = {"fr": "\u202f%", "es": "\u00a0%", "de": "\u00a0%", "ru": "\u00a0%"}.get(lang, "%")
    assert f"9{point}3{pc}" in text and f"9{point}0{pc}" in text, text
    if lang == "en":
        assert "The safest cells had a mine probability of 9.0%." in text
    # Figures that differ to the unit keep none.
    text = replace(j, probability=Fraction(1, 5)).text(lang)
    assert f"20{pc}" in text and f"9{pc}" in text, text


@pytest.mark.parametrize(
    ("p", "said"),
    [
        (Fraction(11, 100), "with an 11% chance"),
        (Fraction(8, 100), "with an 8% chance"),
        (Fraction(18, 100), "with an 18% chance"),
        (Fraction(83, 100), "with an 83% chance"),
        (Fraction(12, 100), "with a 12% chance"),
        (Fraction(1, 1000), "with a <1% chance"),
    ],
)
def test_a_chord_takes_the_english_article_its_figure_is_read_with(p: Fraction, said: str) -> None:
    chords = [
        judge_chord(position, position.board.xy(i), layout)
        for layout, position in SMALL
        for i in oracle.bits(position.number_mask)
        if chord_cells(position, position.board.xy(i))
    ]
    for kind in ("guess", "mistake"):
        j = next(j for j in chords if j.kind == kind)
        text = replace(j, probability=p, lowest=p).text()
        assert said in text, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_best_guess_riskier_than_the_safest_cells_says_why(lang: str) -> None:
    # A1 and B1 are a 50/50 no number can decide; the cells on the right are safer (1/7).
    position = Position.parse("6x3x5\nHHFHHH\n13FHHH\n012HHH")
    layout = Layout.from_cells(Board(6, 3), [(0, 0), (2, 0), (2, 1), (3, 1), (5, 2)])
    j = judge_open(position, (1, 0), layout)
    assert j.kind == "guess" and j.probability == Fraction(1, 2) and j.is_best
    assert j.best is not None and j.best.reason == "fifty-fifty"
    assert j.lowest is not None and j.lowest < j.probability
    text = j.text(lang)
    said = review_best_guess_text((1, 0), "fifty-fifty", "50%", None, lang, clicked=True)
    assert said in text, text
    # In the past, as the rest of the review, and saying that the click was the best guess
    # (before: "The best guess is B1: ... so take it now", and not a word of it being the click).
    assert best_guess_text((1, 0), "fifty-fifty", "50%", None, lang) not in text
    if lang == "en":
        assert "It was the best guess. It belonged to a group of cells" in text, text
        assert " is " not in text and "take it now" not in text, text
    assert j.to_json(lang)["best"]["probability"] == 0.5


@pytest.mark.parametrize(
    ("click", "mine", "safe"), [((10, 0), (13, 0), (11, 0)), ((4, 0), (1, 0), (3, 0))]
)
def test_the_deduction_missed_is_the_one_nearest_the_click_among_equals(
    click: tuple[int, int], mine: tuple[int, int], safe: tuple[int, int]
) -> None:
    """Two equally simple proofs, one at each end of the row (a 1 by the edge makes its
    neighbour a mine, and the next 1 its other neighbour safe): the one shown is the proof
    near the guess (a review quoted the same far-away proof at every guess while it stood)."""
    position = Position.parse("15x1x4\n1H1HHHHHHHHH1H1")
    layout = Layout.from_cells(Board(15, 1), [(1, 0), (5, 0), (7, 0), (13, 0)])
    judged = judge_open(position, click, layout)
    assert judged.kind == "mistake"
    assert [(d.mine_cells, d.safe_cells) for d in judged.missed] == [([mine], []), ([], [safe])]
