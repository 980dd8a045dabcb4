"""End games: the best player's guess wins as often as an exhaustive search says is possible."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest

from mineproof.analysis import analyze
from mineproof.analysis.constraints import condition, constraints_of
from mineproof.board import Board, iter_bits
from mineproof.explain import hint
from mineproof.play import BestGuess
from mineproof.play.config import GuessConfig
from mineproof.play.endgame import EndgameSearch, arrangements, isolated_regions
from mineproof.play.player import _endgame, best_guess, isolated_region, opening_chance
from mineproof.position import Position

from .conftest import StuckPositions
from .oracle import layouts, optimal


def test_best_guess_is_optimal_in_small_end_games(stuck_positions: StuckPositions) -> None:
    positions = [p for p in stuck_positions(60, 5, 4, 4, 7) if p.covered_count >= 3][:25]
    assert len(positions) == 25
    for position in positions:
        chances = optimal(position)
        analysis = analyze(position, trust_flags=True)
        exact = _endgame(analysis)
        assert exact is not None  # few cells left: the exact search answers
        assert abs(chances[exact[0]] - max(chances.values())) < 1e-9, position
        assert exact[1] == pytest.approx(max(chances.values())), position
        guess = best_guess(analysis)
        assert abs(chances[guess.cell] - max(chances.values())) < 1e-9, position
        if guess.reason != "fifty-fifty":  # an isolated 50/50 is taken first, just as good
            assert guess.reason == "endgame" and guess.win == pytest.approx(exact[1])


def test_the_hint_names_the_exact_end_games_pick_and_its_chance() -> None:
    position = Position.parse("4x4x3\n1HHH\nHHHH\nHHHH\nHHHH")
    chances = optimal(position)
    found = hint(position)
    assert found.best is not None and found.best.reason == "endgame"
    x, y = found.best.cell
    assert chances[y * 4 + x] == pytest.approx(max(chances.values()))
    assert found.best.win == pytest.approx(max(chances.values()))
    layouts = brute_arrangements(position)
    assert found.best.probability == pytest.approx(
        sum(m >> (y * 4 + x) & 1 for m in layouts) / len(layouts)
    )
    data = found.to_json()
    assert data["level"] == 0 and data["best"] == {
        "cell": [x, y],
        "probability": found.best.probability,
        "reason": "endgame",
        "win": found.best.win,
        "text": found.best.text,
    }
    assert found.best.win is not None
    assert f"{round(100 * found.best.win)}%" in found.best.text


def brute_arrangements(position: Position) -> set[int]:
    """Return every mine set over the covered cells that fits the numbers and the total."""
    masks = position.board.neighbour_masks()
    covered = iter_bits(position.covered_mask)
    numbers = [(i, c) for i, c in enumerate(position.cells) if c >= 0]
    out = set()
    for chosen in combinations(covered, position.mines):
        m = sum(1 << c for c in chosen)
        if all((masks[i] & m).bit_count() == c for i, c in numbers):
            out.add(m)
    return out


@pytest.mark.parametrize(("size", "mines"), [((5, 4), 4), ((6, 5), 6)])
def test_arrangements_match_brute_force(
    stuck_positions: StuckPositions, size: tuple[int, int], mines: int
) -> None:
    for position in stuck_positions(12, *size, mines, 12):
        cons = constraints_of(position)
        got = arrangements(cons.unknown, cons.mines, cons.clues, 10_000)
        assert got is not None and len(got) == len(set(got))
        assert set(got) == brute_arrangements(position)


def test_arrangements_give_up_past_the_limit() -> None:
    position = Position.parse("4x4x3\n0HHH\nHHHH\nHHHH\nHHHH")
    cons = constraints_of(position)
    assert arrangements(cons.unknown, cons.mines, cons.clues, 10) is None


@pytest.mark.parametrize(("size", "mines"), [((5, 4), 4), ((6, 5), 6)])
def test_search_wins_as_often_as_brute_force(
    stuck_positions: StuckPositions, size: tuple[int, int], mines: int
) -> None:
    positions = stuck_positions(12, *size, mines, 12)
    assert len(positions) == 12
    for position in positions:
        chances = optimal(position)
        cons = constraints_of(position)
        states = arrangements(cons.unknown, cons.mines, cons.clues, 10_000)
        assert states is not None
        search = EndgameSearch(position.board.neighbour_masks(), iter_bits(cons.unknown), 10**6)
        found = search.best_cell(tuple(states))
        assert found is not None
        cell, chance = found
        assert chance == pytest.approx(max(chances.values())), position
        assert chances[cell] == pytest.approx(chance), position
        # The player's end game picks a cell just as good.
        exact = _endgame(analyze(position, trust_flags=True))
        assert exact is not None and chances[exact[0]] == pytest.approx(chance)


def test_every_cells_chance_is_the_brute_forces(stuck_positions: StuckPositions) -> None:
    ties = worse = 0
    for position in stuck_positions(12, 6, 5, 6, 12):
        chances = optimal(position)
        analysis = analyze(position, trust_flags=True)
        best = best_guess(analysis)
        if best.reason != "endgame" or best.win is None:
            continue
        for cell, chance in chances.items():
            assert opening_chance(analysis, best, cell) == pytest.approx(chance), position
            if cell != best.cell:
                ties += chance == pytest.approx(best.win)
                worse += chance < best.win - 1e-9
    assert ties and worse  # cells as good as the pick, and worse ones, were both met


def test_search_gives_up_past_its_budget(stuck_positions: StuckPositions) -> None:
    searched = 0
    for position in stuck_positions(10, 6, 5, 6, 12):
        cons = constraints_of(position)
        states = arrangements(cons.unknown, cons.mines, cons.clues, 10_000)
        assert states is not None and len(states) > 1
        masks, cells = position.board.neighbour_masks(), iter_bits(cons.unknown)
        enough = EndgameSearch(masks, cells, 10**6)
        assert enough.best_cell(tuple(states)) is not None
        spent = 10**6 - enough.budget
        if spent:  # a position where some cell is worth weighing (not only dead cells)
            searched += 1
            assert EndgameSearch(masks, cells, spent - 1).best_cell(tuple(states)) is None
            assert EndgameSearch(masks, cells, spent).best_cell(tuple(states)) is not None
    assert searched


def test_a_closed_regions_best_cell_is_a_best_first_move(stuck_positions: StuckPositions) -> None:
    checked = 0
    for position in stuck_positions(200, 6, 5, 6, 12):
        analysis = analyze(position, trust_flags=True)
        found = isolated_region(analysis)
        if found is None:
            continue
        chances = optimal(position)
        cell, win = found
        best = max(chances.values())
        assert chances[cell] == pytest.approx(best), position
        # The region alone is cleared at least as often as the whole game is won.
        assert win >= best - 1e-9, position
        # Each cell of the region, opened first, clears it as often as the brute force says
        # (the region's arrangements are the layouts' mines in it); the other cells are not
        # measured on that scale.
        guess = BestGuess(cell, "region", win)
        cons = condition(constraints_of(position), analysis.mine_mask, 0)
        masks = position.board.neighbour_masks()
        region = next(
            r.mask for r in isolated_regions(cons.unknown, cons.clues, masks) if r.mask >> cell & 1
        )
        states = frozenset(sum(1 << c for c in m if region >> c & 1) for m in layouts(position))
        for c in chances:
            got = opening_chance(analysis, guess, c)
            if not region >> c & 1:
                assert got is None
                continue
            parts: dict[int, set[int]] = {}
            for m in states:
                if not m >> c & 1:
                    parts.setdefault((m & masks[c]).bit_count(), set()).add(m)
            won = sum(unpruned_wins(masks, iter_bits(region), frozenset(p)) for p in parts.values())
            assert got == pytest.approx(won / len(states)), position
        checked += 1
    assert checked >= 10


def test_the_player_solves_a_closed_region_before_the_rest() -> None:
    # Expert game 49 of seed 1: J12, J13, J15 and J16 hold two mines in two ways that no cell
    # outside them can tell apart, while millions of arrangements remain elsewhere.
    position = Position.parse(EXPERT_REGION)
    analysis = analyze(position, trust_flags=True)
    assert analysis.arrangements > 200  # the end game's exact search does not apply
    cells = {(9, 11), (9, 12), (9, 14), (9, 15)}
    guess = best_guess(analysis, config=GuessConfig(chains=False))
    assert guess.reason == "region" and guess.win == pytest.approx(0.5)
    assert position.board.xy(guess.cell) in cells
    # The region is also a chain of links (numbers that need one mine in two cells) whose two
    # ways every cell outside sees evenly: by default it is taken first as that 50/50.
    guess = best_guess(analysis)
    assert guess.reason == "fifty-fifty" and position.board.xy(guess.cell) in cells


EXPERT_REGION = "\n".join(
    [
        "30x16x99",
        "13HH21001H11122H10111000012H10",
        "2HH6H2113332H2H2212H100001H210",
        "H4H4H32H2HH213221H212111232100",
        "121213H4333323H211112H22HH2100",
        "001112H3H23HH4H31101H3H223H211",
        "002H211212HH5H32H10112110123H1",
        "002H200001235H4222110111112H32",
        "001110000002HH3H11H112H11H33HH",
        "111111011113H54222212H4323HHHH",
        "2H11H102H43H4HH33H312HH2H2HHHH",
        "H3211113HHH23HHHHHH22333232HHH",
        "2H10112H4H3224HHHHHHHHHHHHHHHH",
        "11101H223H11H2H3H33H32112HHHHH",
        "00001111H21112133H22H1001HHHHH",
        "000000012H1001H2H211111234HHHH",
        "000000001H1001H21100001HHHHHHH",
    ]
)


def test_a_region_whose_mine_count_varies_is_left_to_the_rest() -> None:
    # The covered cells around C3 form a closed region, but its arrangements hold different
    # numbers of mines, so the mine total links it to the rest: solving it alone would pick
    # a cell that is not the best (the oracle's best is 2/3; the region's own pick wins 1/3).
    position = Position.parse("5x4x5\n0001H\n1122H\n2H3H2\nHHHHH")
    analysis = analyze(position, trust_flags=True)
    cons = constraints_of(position, trust_flags=True)
    assert isolated_regions(cons.unknown, cons.clues, position.board.neighbour_masks())
    assert isolated_region(analysis) is None


def unpruned_wins(masks: Sequence[int], cells: list[int], states: frozenset[int]) -> int:
    """The arrangements of ``states`` best play wins, by trying every cell at every step (each
    set of arrangements searched once)."""

    @cache
    def wins(states: frozenset[int]) -> int:
        if len(states) == 1:
            return 1
        best = 0
        for c in cells:
            parts: dict[int, set[int]] = {}
            for m in states:
                if not m >> c & 1:
                    parts.setdefault((m & masks[c]).bit_count(), set()).add(m)
            if len(parts) == 1 and sum(map(len, parts.values())) == len(states):
                continue  # safe everywhere and always the same number: it tells nothing
            best = max(best, sum(wins(frozenset(p)) for p in parts.values()))
        return best

    return wins(states)


@pytest.mark.parametrize("seed", range(120))
def test_the_pruned_search_finds_the_optimum_of_random_arrangements(seed: int) -> None:
    # Sets of up to 80 arrangements over up to 11 cells: deep enough that the search stops
    # short on many sets, remembers the bounds it found and meets those sets again.
    rng = random.Random(seed)
    board = Board(5, 4) if seed % 2 else Board(4, 3)
    masks = board.neighbour_masks()
    cells = sorted(rng.sample(range(board.size), rng.randint(4, 11)))
    count = rng.randint(2, 80)
    states = tuple(
        dict.fromkeys(sum(1 << c for c in cells if rng.random() < 0.3) for _ in range(count))
    )
    if len(states) < 2:
        return
    found = EndgameSearch(masks, cells, 10**6).best_cell(states)
    assert found is not None
    best = unpruned_wins(masks, cells, frozenset(states))
    assert found[1] == pytest.approx(best / len(states)), states
    cell = found[0]
    parts: dict[int, set[int]] = {}
    for m in states:
        if not m >> cell & 1:
            parts.setdefault((m & masks[cell]).bit_count(), set()).add(m)
    won: int = sum(unpruned_wins(masks, cells, frozenset(p)) for p in parts.values())
    assert won == best


def test_when_every_cell_is_dead_one_arrangement_is_won() -> None:
    # Three cells of a row, none beside another: one mine among them, and a safe one always
    # shows 0. Whatever is opened tells nothing but whether it was the mine.
    masks = Board(5, 1).neighbour_masks()
    cells = [0, 2, 4]
    states = (1 << 0, 1 << 2, 1 << 4)
    assert unpruned_wins(masks, cells, frozenset(states)) == 1
    found = EndgameSearch(masks, cells, 10).best_cell(states)
    assert found is not None and found[0] == 0 and found[1] == pytest.approx(1 / 3)
