"""The same batches on a Dask cluster (a local one here) as on local processes."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator

import pytest

from mineproof.board import Board
from mineproof.cli import main
from mineproof.parallel import GC_THRESHOLDS
from mineproof.play import BenchRequest, run_bench

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    try:
        yield str(cluster.scheduler_address)
    finally:
        cluster.close()


def test_bench_on_a_cluster_matches_local(scheduler: str) -> None:
    request = BenchRequest(Board(9, 9), 10, "classic", "safest", seed=5)
    local = run_bench(request, 40, jobs=1)
    with distributed.Client(scheduler) as client:
        remote = run_bench(request, 40, executor=client.get_executor())
    assert (remote.games, remote.wins, remote.guesses) == (local.games, local.wins, local.guesses)


def test_cli_generate_and_bench_with_scheduler(
    scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["generate", "--level", "beginner", "--count", "3", "--seed", "2", "--format", "json"]
    assert main([*args, "--scheduler", scheduler]) == 0
    remote = capsys.readouterr().out
    assert main(args) == 0
    assert remote == capsys.readouterr().out
    assert main(["bench", "--level", "beginner", "--games", "20", "--json",
                 "--scheduler", scheduler]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["games"] == 20
    # The command set the workers' garbage collection as its own (mineproof.parallel).
    with distributed.Client(scheduler) as client:
        thresholds = client.run(gc.get_threshold)
    assert sorted(thresholds.values()) == [GC_THRESHOLDS] * 2


def test_unreachable_scheduler_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["bench", "--level", "beginner", "--games", "5", "--scheduler",
                   "tcp://127.0.0.1:9"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 1 and err.count("\n") == 1 and "cannot reach the Dask scheduler" in err
