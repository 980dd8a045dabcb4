"""The garbage-collection policy of mineproof's processes: set by their entry points only."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

from mineproof.board import Board
from mineproof.cli import main
from mineproof.parallel import GC_THRESHOLDS, ordered_map
from mineproof.play import play_game


@pytest.fixture
def default_thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _thresholds(_: int) -> tuple[int, ...]:
    return tuple(gc.get_threshold())


@pytest.mark.usefixtures("default_thresholds")
def test_the_workers_of_a_local_pool_collect_less() -> None:
    assert list(ordered_map(_thresholds, [0, 1, 2], jobs=2)) == [GC_THRESHOLDS] * 3


@pytest.mark.usefixtures("default_thresholds")
def test_the_command_line_collects_less() -> None:
    with pytest.raises(SystemExit):
        main(["--no-such-flag"])
    assert gc.get_threshold() == GC_THRESHOLDS


@pytest.mark.usefixtures("default_thresholds")
def test_a_library_call_leaves_the_policy_to_its_caller() -> None:
    play_game(Board(9, 9), 10, random.Random(3), "classic", "best")
    assert gc.get_threshold() == (700, 10, 10)
