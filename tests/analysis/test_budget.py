"""The exact analysis within bounds: counted work and memory, a clear error past them, and
orders of the boxes that change the work but never the count."""

from __future__ import annotations

import random
import re
from itertools import permutations, product
from pathlib import Path

import pytest

import mineproof.analysis.core as core
import mineproof.analysis.counting as counting
from mineproof.analysis import analyze, clear_cache
from mineproof.analysis.constraints import constraints_of
from mineproof.analysis.counting import ComponentCount, CountTooLarge
from mineproof.errors import TooComplexError
from mineproof.explain import hint
from mineproof.formats import format_layout_text
from mineproof.logic import HINT_WORK, best_deduction, closures
from mineproof.position import COVERED

from .hostile import case_snake, lattice, pair_strips, scattered, tiling


def test_past_the_budget_a_clear_error_names_the_size() -> None:
    clear_cache()
    with pytest.raises(TooComplexError) as caught:
        analyze(lattice(25, 25), work=50_000)
    error = caught.value
    assert isinstance(error, ValueError) and error.size
    assert "too complex to count exactly: a group of" in str(error)
    assert "numbers over" in error.size and "covered cells" in error.size
    # The same position within the default budget is counted exactly.
    clear_cache()
    assert analyze(lattice(25, 25)).arrangements > 0


def test_the_budget_is_exactly_the_work_of_the_counts_of_one_analysis() -> None:
    # The work an analysis needs, summed count by count: one unit less fails, that much works.
    position = lattice(25, 25)
    clear_cache()
    with counting.counting_budget(10**12) as outer:
        analyze(position)
    needed = outer.spent
    clear_cache()
    with pytest.raises(TooComplexError):
        analyze(position, work=needed - 1)
    clear_cache()
    assert analyze(position, work=needed).arrangements > 0


def test_a_large_scattered_position_is_too_complex_within_the_budget() -> None:
    # Thousands of scattered ones: hundreds of small components, cheap to count one by one,
    # whose mine counts multiply into numbers of thousands of digits. Combining them is
    # charged to the same budget, so the analysis stops with the one-line error (before, it
    # ran for minutes), and so does counting the arrangements that keep a cell free.
    position = scattered(160)
    clear_cache()
    with pytest.raises(TooComplexError) as caught:
        analyze(position)
    assert "too complex to count exactly" in str(caught.value)
    # Each group is small: the message names the many groups, not "a group of" them all.
    assert re.search(
        r": [\d,]+ numbers in [\d,]+ independent groups over [\d,]+ covered cells need more",
        str(caught.value),
    ), caught.value
    with pytest.raises(TooComplexError):
        core.arrangements_free(position, position.covered_mask & -position.covered_mask)


def test_the_budget_is_exactly_the_work_of_combining_many_components() -> None:
    # The combination of the components is charged unit by unit, like the counts: the work a
    # scattered position needs, one unit less fails, that much works.
    position = scattered(60)
    clear_cache()
    with counting.counting_budget(10**12) as outer:
        expected = analyze(position)
    needed = outer.spent
    counted = sum(cc.work for _, cc in core._cache.items())
    assert needed > counted  # more than the counts of the components alone
    clear_cache()
    with pytest.raises(TooComplexError):
        analyze(position, work=needed - 1)
    clear_cache()
    assert analyze(position, work=needed) == expected


def test_the_memory_of_one_count_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "COUNT_MEMORY", 1_000)
    clear_cache()
    with pytest.raises(CountTooLarge):
        analyze(lattice(15, 15))
    clear_cache()


@pytest.mark.parametrize("seed", range(40))
def test_every_order_of_the_boxes_gives_the_same_count(seed: int) -> None:
    rng = random.Random(seed)
    boxes = rng.randint(2, 6)
    sizes = [rng.randint(1, 3) for _ in range(boxes)]
    truth = [rng.randint(0, s) for s in sizes]
    clue_boxes = []
    for _ in range(rng.randint(1, 4)):
        seen = sorted(rng.sample(range(boxes), rng.randint(1, boxes)))
        clue_boxes.append(seen)
    counts = [sum(truth[b] for b in seen) for seen in clue_boxes]
    reference = ComponentCount(sizes, clue_boxes, counts, sum(sizes))
    orders = [list(p) for p in permutations(range(boxes))]
    for order in rng.sample(orders, min(24, len(orders))):
        other = ComponentCount(sizes, clue_boxes, counts, sum(sizes), greedy=order)
        assert other.order == order  # followed as given
        assert other.weights == reference.weights
        assert other.box_mines([1] * len(other.weights)) == reference.box_mines(
            [1] * len(reference.weights)
        )


def test_the_count_cache_stays_within_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "_CACHE_SIZE", 5_000)
    clear_cache()
    for seed in range(30):
        analyze(lattice(11, 11, seed))
        assert core._cache_held <= 5_000
    assert len(core._cache) > 0
    clear_cache()


def test_the_remembered_orders_stay_within_their_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "_ORDERS_KEPT", 3)
    clear_cache()
    for seed in range(10):
        analyze(lattice(9, 9, seed))
        assert 0 < len(core._orders) <= 3
    clear_cache()
    assert not core._orders
    # The least recently used goes first.
    for n in range(1, 5):
        core._count((1,) * n, ((0,),), (0,), n, tuple)
    assert [len(sizes) for sizes, _ in core._orders] == [2, 3, 4]
    core._count((1, 1), ((0,),), (1,), 2, tuple)  # used again: kept
    core._count((1,) * 5, ((0,),), (0,), 5, tuple)
    assert [len(sizes) for sizes, _ in core._orders] == [4, 2, 5]
    clear_cache()


def test_a_remembered_order_changes_no_count() -> None:
    # The same boxes and clues with other mines (as the look one move ahead counts them, once
    # per number a cell can show) follow the greedy order remembered for them, here one that is
    # not greedy at all, put there by hand; each count still matches the arrangements listed.
    sizes = (1, 1, 1, 1, 1)
    clue_boxes = ((0, 1), (0, 1, 2), (2, 3), (3, 4))
    clear_cache()
    core._orders[(sizes, clue_boxes)] = [4, 0, 2, 1, 3]
    for counts in ((1, 1, 1, 1), (1, 2, 1, 0), (0, 1, 2, 1), (1, 2, 2, 2), (2, 2, 0, 0)):
        listed = [0] * 6
        for cells in product((0, 1), repeat=5):
            seen = zip(clue_boxes, counts, strict=True)
            if all(sum(cells[b] for b in boxes) == n for boxes, n in seen):
                listed[sum(cells)] += 1
        count = core._count(sizes, clue_boxes, counts, 5, tuple)
        assert count.order == [4, 0, 2, 1, 3]  # the remembered order was followed
        assert count.weights + [0] * (6 - len(count.weights)) == listed
    assert len(core._orders) == 1
    clear_cache()


def test_a_budget_inside_another_is_charged_to_both() -> None:
    # The work one analysis of a lattice needs: enough inside an outer budget with room for it,
    # refused inside an outer budget with less room, whatever the inner budget allows.
    position = lattice(12, 12)
    clear_cache()
    with counting.counting_budget(10**12) as outer:
        analyze(position)
    needed = outer.spent
    assert needed > 100
    clear_cache()
    with counting.counting_budget(needed):
        analyze(position, work=10 * needed)
    clear_cache()
    with counting.counting_budget(needed - 1), pytest.raises(CountTooLarge) as caught:
        analyze(position, work=10 * needed)
    assert caught.value.limit == needed - 1
    # Two analyses inside one outer budget share it: the second no longer fits.
    clear_cache()
    with counting.counting_budget(needed + needed // 2), pytest.raises(CountTooLarge):
        analyze(position)
        clear_cache()
        analyze(position)


# --- a hint on a long chain: bounded --------------------------------------------------------------


def test_a_hint_on_a_chain_too_long_to_search_is_refused_at_once() -> None:
    # A snake of 1,481 linked numbers that only a case analysis at its end decides: the
    # search for a combination among all of them took minutes (killed after 120 s); now the
    # hint says it is too complex, naming the size.
    position, _ = case_snake(81)
    with pytest.raises(TooComplexError, match=r"too complex to explain: .*a group of 1,481 "):
        hint(position, trust_flags=True)


def test_the_web_tests_copy_of_the_long_chain_is_the_same() -> None:
    copy = Path(__file__).resolve().parents[1] / "data" / "case-snake-81.txt"
    assert copy.read_text() == case_snake(81)[0].text() + "\n"


def test_a_case_analysis_at_the_end_of_a_chain_is_found_and_true_within_any_budget() -> None:
    position, layout = case_snake(21)
    for work in (HINT_WORK, 1_000):  # the search for the fewest premises stops at the budget
        d = best_deduction(position, True, work=work)
        assert d is not None and d.level == 4
        assert d.safe & layout.mines == 0 and d.mine & ~layout.mines == 0 and d.safe | d.mine
        assert d.minimal or work < HINT_WORK


def test_strips_of_links_that_pairs_decide_are_proven_at_level_two_link_by_link() -> None:
    # 85 strips of 85 links: each covered cell of a middle row needs the pair of numbers of
    # its link and the cell before it; rounds over every pair took 21 s here, one link per round.
    position, layout = pair_strips(255, 255)
    middle = 0
    for i, code in enumerate(position.cells):
        if code == COVERED and (i // 255) % 3 == 1:
            middle |= 1 << i
    assert middle.bit_count() == 85 * 85 and not middle & layout.mines
    cons = constraints_of(position, trust_flags=True)
    found = {level: (s, m) for level, s, m in closures(cons.clues, cons.unknown, cons.mines)}
    assert found[1] == (0, 0)
    assert found[2] == (middle, 0)
    assert found[5] == (middle, 0)  # the pairs above them stay undecided


def test_the_tiling_of_the_tests_data_is_the_one_made_here() -> None:
    # tests/logic and tests/review read the tiling of side 21 from tests/data.
    text = (Path(__file__).parents[1] / "data" / "tiling-21.txt").read_text()
    assert format_layout_text(tiling(21)) == text
    assert tiling(255).mine_count == 784 * 16
