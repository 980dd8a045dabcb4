"""Tests of mineproof.game: reveal and flood fill, flags, chords, win and loss, first clicks."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineproof.board import MAX_SIDE, Board, FirstClick, Layout, iter_bits
from mineproof.errors import ArgumentError, GameOverError, IllegalMoveError
from mineproof.game import Game
from mineproof.position import COVERED, FLAG, Position

rules: st.SearchStrategy[FirstClick] = st.sampled_from(["safe", "opening", "none"])


@st.composite
def layouts(draw: st.DrawFn, max_side: int = 14) -> Layout:
    """Draw a layout of any size up to ``max_side``; sparse layouts are favoured (big floods)."""
    board = Board(draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    density = draw(st.sampled_from([0.0, 0.05, 0.12, 0.2, 0.4, 1.0]))
    mines = draw(st.integers(0, round(board.size * density)))
    return Layout.random(board, mines, draw(st.randoms(use_true_random=False)))


def reference_region(layout: Layout, start: int, flags: int = 0) -> set[int]:
    """Return the cells a click on the safe, unflagged ``start`` opens: an independent BFS."""
    board = layout.board
    w, h = board.width, board.height

    def count(i: int) -> int:
        x, y = i % w, i // w
        return sum(
            layout.is_mine(ny * w + nx)
            for nx in range(x - 1, x + 2)
            for ny in range(y - 1, y + 2)
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) != (x, y)
        )

    seen = {start}
    queue = deque([start])
    while queue:
        i = queue.popleft()
        if count(i):
            continue
        x, y = i % w, i // w
        for nx in range(max(0, x - 1), min(w, x + 2)):
            for ny in range(max(0, y - 1), min(h, y + 2)):
                j = ny * w + nx
                if j not in seen and not flags >> j & 1:
                    seen.add(j)
                    queue.append(j)
    return seen


def safe_cells(layout: Layout) -> list[int]:
    """Return the indices of the mine-free cells."""
    return [i for i in range(layout.board.size) if not layout.is_mine(i)]


def check_position(game: Game) -> None:
    """Assert that the game's position agrees with its layout and never shows a mine."""
    position = game.position()
    layout = game.layout
    numbers = layout.numbers()
    assert isinstance(position, Position)
    assert position.mines == game.mines
    assert position.board == game.board
    opened = 0
    for i, code in enumerate(position.cells):
        if code >= 0:
            assert not layout.is_mine(i)
            assert code == numbers[i]
            opened |= 1 << i
        elif code == FLAG:
            assert game.flag_mask >> i & 1
        else:
            assert code == COVERED
    assert opened == game.opened_mask
    assert position.flag_mask == game.flag_mask
    assert game.opened_mask & layout.mines == 0
    assert game.opened_mask & game.flag_mask == 0
    assert game.mines_left == game.mines - game.flag_mask.bit_count()


# --- reveal and flood fill ----------------------------------------------------------------


@given(layouts(), st.data())
def test_flood_fill_opens_the_connected_zero_region_and_its_border(
    layout: Layout, data: st.DataObject
) -> None:
    safe = safe_cells(layout)
    if not safe:
        return
    start = data.draw(st.sampled_from(safe))
    game = Game(layout)
    x, y = layout.board.xy(start)
    opened = game.reveal(x, y)
    assert opened[0] == start
    assert len(opened) == len(set(opened))
    assert set(opened) == reference_region(layout, start)
    assert game.opened_mask == sum(1 << i for i in opened)
    check_position(game)


@given(layouts(), st.data())
def test_flood_fill_never_opens_flags(layout: Layout, data: st.DataObject) -> None:
    safe = safe_cells(layout)
    if len(safe) < 2:
        return
    start = data.draw(st.sampled_from(safe))
    others = [i for i in range(layout.board.size) if i != start]
    flagged = data.draw(st.sets(st.sampled_from(others), max_size=6))
    game = Game(layout)
    for i in flagged:
        game.flag(*layout.board.xy(i))
    flags = sum(1 << i for i in flagged)
    opened = game.reveal(*layout.board.xy(start))
    assert set(opened) == reference_region(layout, start, flags)
    assert game.flag_mask == flags
    check_position(game)


def test_flood_fill_example() -> None:
    layout = Layout.from_cells(Board(4, 3), [(3, 0)])
    game = Game(layout)
    assert game.reveal(0, 2) == [8, 4, 5, 9, 0, 1, 2, 6, 10, 7, 11]
    assert game.state == "won"
    assert str(game) == "4x3x1\n001H\n0011\n0000"


def test_reveal_a_number_opens_only_that_cell() -> None:
    game = Game(Layout.from_cells(Board(3, 3), [(0, 0)]))
    assert game.reveal(1, 1) == [4]
    assert game.opened_mask == 1 << 4
    assert game.state == "playing"


def test_reveal_opened_or_flagged_cell_does_nothing() -> None:
    game = Game(Layout.from_cells(Board(3, 3), [(0, 0), (2, 2)]))
    assert game.reveal(1, 1) == [4]
    assert game.reveal(1, 1) == []
    game.flag(0, 0)
    assert game.reveal(0, 0) == []
    assert game.state == "playing"
    assert game.exploded is None


def test_big_flood_has_no_recursion_limit() -> None:
    board = Board(255, 255)
    game = Game(Layout(board, 1 << (board.size - 1)))
    opened = game.reveal(0, 0)
    assert len(opened) == board.size - 1
    assert game.state == "won"
    assert game.opened_mask == board.full_mask >> 1


def test_expert_board_flood() -> None:
    board = Board(30, 16)
    game = Game(Layout(board, 0))
    assert len(game.reveal(12, 7)) == 480
    assert game.state == "won"


# --- win and loss -------------------------------------------------------------------------


@given(layouts(max_side=10), st.randoms(use_true_random=False))
def test_win_when_every_safe_cell_is_open(layout: Layout, rng: random.Random) -> None:
    game = Game(layout)
    safe = safe_cells(layout)
    if not safe:
        assert game.state == "won"
        return
    rng.shuffle(safe)
    all_safe = layout.board.full_mask & ~layout.mines
    for i in safe:
        assert game.state == "playing"
        game.reveal(*layout.board.xy(i))
        if game.opened_mask == all_safe:
            break
    assert game.state == "won"
    assert game.is_over
    assert game.opened_mask == layout.board.full_mask & ~layout.mines
    assert game.exploded is None
    check_position(game)


def test_loss_on_a_mine() -> None:
    layout = Layout.from_cells(Board(3, 3), [(2, 2)])
    game = Game(layout)
    assert game.reveal(2, 2) == []
    assert game.state == "lost"
    assert game.is_over
    assert game.exploded == 8
    assert game.opened_mask == 0
    assert game.position().cells[8] == COVERED
    check_position(game)


@given(layouts(max_side=10), st.data())
def test_loss_keeps_the_opened_cells(layout: Layout, data: st.DataObject) -> None:
    if not layout.mines:
        return
    safe = safe_cells(layout)
    game = Game(layout)
    for i in data.draw(st.lists(st.sampled_from(safe), max_size=3)) if safe else []:
        if game.state == "playing":
            game.reveal(*layout.board.xy(i))
    if game.is_over:
        return
    before = game.opened_mask
    mine = data.draw(st.sampled_from(iter_bits(layout.mines)))
    assert game.reveal(*layout.board.xy(mine)) == []
    assert game.state == "lost"
    assert game.exploded == mine
    assert game.opened_mask == before
    check_position(game)


# --- chord --------------------------------------------------------------------------------

# 3x3, mines at A1 and C3:
#   * 1 0      reveal B2 (a 2)
#   1 2 1
#   0 1 *
CHORD = Layout.from_cells(Board(3, 3), [(0, 0), (2, 2)])


def test_chord_with_right_flags() -> None:
    game = Game(CHORD)
    game.reveal(1, 1)
    game.flag(0, 0)
    assert game.chord(1, 1) == []  # one flag around a 2: nothing happens
    game.flag(2, 2)
    assert game.chord(1, 1) == [1, 2, 5, 3, 6, 7]  # C1 is a 0: its flood opens C2 at once
    assert game.state == "won"
    check_position(game)


def test_chord_opens_a_flood() -> None:
    game = Game(Layout.from_cells(Board(4, 1), [(0, 0)]))
    game.reveal(1, 0)
    game.flag(0, 0)
    assert game.chord(1, 0) == [2, 3]
    assert game.state == "won"


def test_chord_with_a_wrong_flag_loses() -> None:
    game = Game(CHORD)
    game.reveal(1, 1)
    game.flag(0, 0)
    game.flag(1, 0)  # wrong: B1 is safe, C3 is the mine
    opened = game.chord(1, 1)
    assert game.state == "lost"
    assert game.exploded == 8
    assert opened == [2, 5, 3, 6, 7]  # the safe unflagged neighbours still open
    assert game.flag_mask == 0b11
    check_position(game)


def test_chord_does_nothing_on_covered_zero_or_flag_mismatch() -> None:
    game = Game(CHORD)
    assert game.chord(1, 1) == []  # covered
    game.reveal(2, 0)  # a 0: opens B1, B2, C2 too
    assert game.chord(2, 0) == []
    game.flag(0, 0)
    game.flag(0, 1)
    assert game.chord(1, 0) == []  # B1 is 1 with two flags around
    game.flag(2, 2)
    assert game.chord(1, 1) == []  # B2 is 2 with three flags around
    assert game.state == "playing"


# --- flags --------------------------------------------------------------------------------


def test_flags_and_mines_left() -> None:
    game = Game(CHORD)
    assert game.mines == 2
    assert game.mines_left == 2
    game.flag(0, 0)
    game.flag(0, 0)  # flagging twice keeps one flag
    assert game.flag_mask == 1
    assert game.mines_left == 1
    assert game.toggle_flag(1, 0) is True
    assert game.toggle_flag(2, 0) is True
    assert game.mines_left == -1
    assert game.toggle_flag(2, 0) is False
    game.unflag(1, 0)
    game.unflag(1, 0)  # unflagging a covered cell does nothing
    assert game.flag_mask == 1
    assert game.mines_left == 1
    assert game.position().cells == (FLAG,) + (COVERED,) * 8


@pytest.mark.parametrize("move", ["flag", "unflag", "toggle_flag"])
def test_flag_an_opened_cell(move: str) -> None:
    game = Game(CHORD)
    game.reveal(1, 1)
    with pytest.raises(IllegalMoveError, match=r"cell \(1, 1\) \[B2\] is already open"):
        getattr(game, move)(1, 1)


def test_position_is_cached_until_the_next_move() -> None:
    game = Game(CHORD)
    first = game.position()
    assert game.position() is first
    game.flag(0, 0)
    second = game.position()
    assert second is not first
    game.flag(0, 0)  # no change
    assert game.position() is second
    game.reveal(1, 1)
    assert game.position() is not second
    assert game.position().text() == "3x3x2\nFHH\nH2H\nHHH"


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (3, 0), (0, 3), (100, 100)])
@pytest.mark.parametrize("move", ["reveal", "chord", "flag", "unflag", "toggle_flag"])
def test_moves_outside_the_board(move: str, cell: tuple[int, int]) -> None:
    game = Game(CHORD)
    x, y = cell
    with pytest.raises(IllegalMoveError, match=rf"cell \({x}, {y}\) is outside the 3x3 board"):
        getattr(game, move)(x, y)
    assert game.state == "playing"


@pytest.mark.parametrize("move", ["reveal", "chord", "flag", "unflag", "toggle_flag"])
def test_moves_after_the_game_ended(move: str) -> None:
    lost = Game(CHORD)
    lost.reveal(0, 0)
    with pytest.raises(IllegalMoveError, match=r"^the game is over \(lost\)$"):
        getattr(lost, move)(1, 1)
    with pytest.raises(IllegalMoveError, match=r"^the game is over \(lost\)$"):
        getattr(lost, move)(9, 9)
    won = Game(Layout.from_cells(Board(2, 1), [(0, 0)]))
    won.reveal(1, 0)
    assert won.state == "won"
    with pytest.raises(IllegalMoveError, match=r"^the game is over \(won\)$"):
        getattr(won, move)(0, 0)


def test_illegal_move_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Game(CHORD).reveal(5, 5)


# --- deferred layouts and first-click rules -----------------------------------------------


@given(st.integers(1, 12), st.integers(1, 12), rules, st.integers(0, 2**32), st.data())
def test_first_click_rules(
    width: int, height: int, rule: FirstClick, seed: int, data: st.DataObject
) -> None:
    board = Board(width, height)
    largest_area = {"none": 0, "safe": 1, "opening": min(width, 3) * min(height, 3)}[rule]
    room = board.size - largest_area
    mines = data.draw(st.integers(0, room))
    game = Game.new(board, mines, random.Random(seed), rule=rule)
    if mines == board.size:  # nothing safe: won before any move
        assert game.state == "won"
        return
    x = data.draw(st.integers(0, width - 1))
    y = data.draw(st.integers(0, height - 1))
    i = board.index(x, y)
    opened = game.reveal(x, y)
    layout = game.layout
    assert layout.mine_count == mines
    if rule == "safe":
        assert not layout.is_mine(i)
    if rule == "opening":
        assert layout.mines & ((1 << i) | board.neighbour_masks()[i]) == 0
        assert layout.numbers()[i] == 0
        assert set(opened) == reference_region(layout, i)
    if rule != "none" or not layout.is_mine(i):
        assert opened[0] == i
        assert game.state in ("playing", "won")
    else:
        assert game.state == "lost"
    check_position(game)


def test_deferred_game_before_the_first_reveal() -> None:
    game = Game.new(Board(9, 9), 10, random.Random(5))
    assert game.state == "playing"
    assert game.position().text() == "9x9x10\n" + "\n".join(["HHHHHHHHH"] * 9)
    with pytest.raises(IllegalMoveError, match=r"^no layout yet$"):
        _ = game.layout
    assert game.chord(4, 4) == []
    game.flag(0, 0)
    assert game.reveal(0, 0) == []  # a flagged first click draws no layout
    with pytest.raises(IllegalMoveError, match=r"^no layout yet$"):
        _ = game.layout
    game.reveal(4, 4)
    assert game.layout.mine_count == 10


def test_deferred_game_does_not_move_flags() -> None:
    game = Game.new(Board(9, 9), 10, random.Random(5), rule="opening")
    game.flag(8, 8)
    game.reveal(0, 0)
    assert game.flag_mask == 1 << 80
    assert not game.opened_mask >> 80 & 1


@given(st.integers(0, 2**32), rules)
@settings(max_examples=30)
def test_new_is_reproducible_for_a_seed(seed: int, rule: FirstClick) -> None:
    games = [Game.new(Board(30, 16), 99, random.Random(seed), rule=rule) for _ in range(2)]
    outcomes = [g.reveal(3, 3) for g in games]
    assert outcomes[0] == outcomes[1]
    assert games[0].layout == games[1].layout
    assert games[0].layout == Layout.random(
        Board(30, 16), 99, random.Random(seed), start=(3, 3), rule=rule
    )


@pytest.mark.parametrize(
    ("mines", "rule", "message"),
    [
        (-1, "safe", r"-1 mines cannot fit outside the safe start area .*at most 80"),
        (81, "safe", r"81 mines cannot fit outside the safe start area .*at most 80"),
        (73, "opening", r"73 mines cannot fit outside the opening start area .*at most 72"),
        (82, "none", r"82 mines cannot fit on a 9x9 board \(at most 81\)"),
    ],
)
def test_new_errors_when_mines_do_not_fit(mines: int, rule: FirstClick, message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        Game.new(Board(9, 9), mines, random.Random(0), rule=rule)


def test_new_rejects_an_unknown_rule() -> None:
    with pytest.raises(ArgumentError, match="unknown first-click rule 'corner'"):
        Game.new(Board(9, 9), 10, random.Random(0), rule="corner")  # type: ignore[arg-type]


def test_new_largest_counts() -> None:
    with pytest.raises(ArgumentError, match="at most 0"):
        Game.new(Board(2, 1), 1, random.Random(0), rule="opening")
    assert Game.new(Board(MAX_SIDE, MAX_SIDE), 0, random.Random(0), rule="opening").mines == 0
    assert Game.new(Board(9, 9), 72, random.Random(0), rule="opening").reveal(0, 0)
    game = Game.new(Board(2, 2), 4, random.Random(0), rule="none")
    assert game.state == "won"  # nothing safe to open
    game = Game.new(Board(2, 2), 3, random.Random(0), rule="safe")
    assert game.reveal(1, 1) == [3]
    assert game.state == "won"


# --- random play: the position always agrees with the layout ------------------------------


@given(layouts(max_side=10), st.randoms(use_true_random=False))
@settings(max_examples=60)
def test_position_agrees_with_the_layout_during_play(layout: Layout, rng: random.Random) -> None:
    game = Game(layout)
    board = layout.board
    for _ in range(3 * board.size):
        if game.is_over:
            break
        x, y = rng.randrange(board.width), rng.randrange(board.height)
        i = board.index(x, y)
        move = rng.choice(["reveal", "reveal", "flag", "unflag", "toggle", "chord"])
        opened_before = game.opened_mask
        if move != "reveal" and move != "chord" and opened_before >> i & 1:
            with pytest.raises(IllegalMoveError):
                game.flag(x, y)
            continue
        if move == "reveal":
            # avoid most mines so that games go on
            if layout.is_mine(i) and rng.random() < 0.9:
                continue
            opened = game.reveal(x, y)
        elif move == "chord":
            opened = game.chord(x, y)
        else:
            opened = []
            if move == "flag":
                game.flag(x, y)
            elif move == "unflag":
                game.unflag(x, y)
            else:
                game.toggle_flag(x, y)
        assert len(opened) == len(set(opened))
        assert sum(1 << c for c in opened) == game.opened_mask & ~opened_before
        check_position(game)
    if game.state == "lost":
        assert game.exploded is not None and layout.is_mine(game.exploded)
    assert (game.state == "won") == (game.opened_mask == board.full_mask & ~layout.mines)


def test_repr_and_str() -> None:
    game = Game(CHORD)
    game.reveal(1, 1)
    game.flag(0, 0)
    assert repr(game) == "<Game 3x3/2 playing: 1 opened, 1 flagged>"
    assert str(game) == "3x3x2\nFHH\nH2H\nHHH"


# --- strict flags and a layout drawn again ---------------------------------------------------


def test_strict_flags_lose_on_a_flag_without_a_mine() -> None:
    game = Game(CHORD, strict_flags=True)
    game.reveal(1, 1)
    game.flag(0, 0)  # A1 is a mine: the game goes on
    assert game.state == "playing" and game.fatal_flag is None
    game.flag(1, 0)  # B1 has no mine
    after: tuple[str, int | None, int | None] = (game.state, game.fatal_flag, game.exploded)
    assert after == ("lost", 1, None)
    with pytest.raises(GameOverError):
        game.flag(2, 2)


def test_flags_are_free_without_strict_flags() -> None:
    game = Game(CHORD)
    game.flag(1, 0)
    assert game.state == "playing" and game.fatal_flag is None and not game.strict_flags


def test_redraw_keeps_what_the_player_saw() -> None:
    # A 4x1 row with one mine: B1 shows 1 whether the mine is at A1 or at C1.
    first = Layout.from_cells(Board(4, 1), [(0, 0)])
    other = Layout.from_cells(Board(4, 1), [(2, 0)])
    game = Game(first)
    game.reveal(1, 0)  # B1 shows 1 on both layouts
    game.redraw(other)
    assert game.layout == other
    assert game.reveal(0, 0) == [0]  # A1 is free now
    assert game.reveal(2, 0) == [] and game.state == "lost" and game.exploded == 2


def test_redraw_refuses_a_layout_that_disagrees() -> None:
    board = Board(6, 1)
    game = Game(Layout.from_cells(board, [(0, 0), (4, 0)]))
    game.reveal(2, 0)  # C1 shows 0 and opens B1 (1) and D1 (1)
    with pytest.raises(ArgumentError, match="does not agree"):
        game.redraw(Layout.from_cells(board, [(0, 0), (5, 0)]))  # D1 would be 0
    with pytest.raises(ArgumentError, match="mine total"):
        game.redraw(Layout.from_cells(board, [(0, 0), (4, 0), (5, 0)]))
    game.reveal(5, 0)
    assert game.state == "won"
    with pytest.raises(GameOverError):
        game.redraw(Layout.from_cells(board, [(0, 0), (4, 0)]))


def test_a_game_without_a_random_generator_is_refused_at_once() -> None:
    """``None`` passed, the first reveal failed with a bare AssertionError."""
    with pytest.raises(TypeError, match=r"random\.Random"):
        Game.new(Board(3, 3), 1, None)  # type: ignore[arg-type]


def test_a_game_on_a_position_is_refused_with_the_way_to_a_layout() -> None:
    # A Position (what a player sees) has no mines: it used to fail inside with AttributeError.
    position = Position.parse("3x3x1\nHHH\nHHH\nHHH")
    with pytest.raises(TypeError, match=r"takes a Layout .* not Position; Game\.new"):
        Game(position)  # type: ignore[arg-type]
