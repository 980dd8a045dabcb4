"""Running many independent jobs in order, in this process or on an executor."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TypeVar

__all__ = ["ordered_map"]

T = TypeVar("T")
R = TypeVar("R")


def ordered_map(
    fn: Callable[[T], R], items: Iterable[T], jobs: int = 1, executor: Executor | None = None
) -> Iterator[R]:
    """Yield ``fn(item)`` for every item, in order.

    With an ``executor`` (a Dask client's ``get_executor()``, say) the calls run there; else
    with ``jobs`` > 1 on a local process pool made and shut down here; else in this process.
    """
    if executor is None and jobs <= 1:
        yield from map(fn, items)
        return
    own = executor is None
    pool = executor if executor is not None else ProcessPoolExecutor(max_workers=jobs)
    try:
        yield from pool.map(fn, items)
    finally:
        if own:
            pool.shutdown()
