"""Runs of many jobs hold bounded memory, stop at once, and keep their order."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator

import pytest

from mineproof.board import Board
from mineproof.parallel import ordered_map
from mineproof.play import BenchRequest, run_bench


class _Enough(Exception):
    pass


def test_a_trillion_games_start_at_once_and_hold_nothing() -> None:
    # Before, the chunks of 10**12 games were listed up front: MemoryError.
    request = BenchRequest(Board(9, 9), 10, "classic", "logic", seed=1)
    seen: list[int] = []

    def stop(done: int, wins: int) -> None:
        seen.append(done)
        raise _Enough

    started = time.perf_counter()
    with pytest.raises(_Enough):
        run_bench(request, 10**12, progress=stop)
    assert seen == [50] and time.perf_counter() - started < 10


def _double(n: int) -> int:
    return 2 * n


def _fail_at_three(n: int) -> int:
    if n == 3:
        raise ValueError("three")
    return n


@pytest.mark.parametrize("jobs", [1, 2])
def test_items_are_taken_a_few_ahead_of_the_results(jobs: int) -> None:
    pulled = 0

    def endless() -> Iterator[int]:
        nonlocal pulled
        for n in itertools.count():
            pulled += 1
            yield n
        raise AssertionError  # pragma: no cover

    results = ordered_map(_double, endless(), jobs)
    assert [next(results) for _ in range(10)] == list(range(0, 20, 2))
    assert pulled <= 10 + 2 * jobs
    results.close()
    assert not multiprocessing.active_children()  # the workers are ended with the run


def test_an_error_comes_in_order_and_ends_the_workers() -> None:
    taken = []
    with pytest.raises(ValueError, match="three"):
        for n in ordered_map(_fail_at_three, range(100), jobs=2):
            taken.append(n)
    assert taken == [0, 1, 2]
    assert not multiprocessing.active_children()


def _worker_state(_: int) -> tuple[object, int]:
    return signal.getsignal(signal.SIGINT), os.getppid()


def test_local_workers_leave_ctrl_c_to_their_parent() -> None:
    # A terminal's Ctrl+C reaches every process of the group: the workers leave it to the
    # parent, which ends them (no traceback from each worker).
    for handler, parent in ordered_map(_worker_state, range(4), jobs=2):
        assert handler == signal.SIG_IGN and parent == os.getpid()
