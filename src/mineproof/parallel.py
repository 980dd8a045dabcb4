"""Running many independent jobs in order, in this process or on an executor.

Work is handed out a little ahead of what has been taken back (``ahead`` calls at most), so a
run of a billion jobs holds no more in memory than a run of ten. A local process pool is tied
to this process: its workers ignore Ctrl+C (this process handles it and ends them), die with
this process even when it is killed outright (Linux: the parent-death signal; elsewhere a
watchdog thread that notices the parent is gone within a second), and are ended, not waited
for, when the run stops early (an error, Ctrl+C, a reader that stops reading).
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import TypeVar

from mineproof.interrupt import prompt_interrupt

__all__ = ["GC_THRESHOLDS", "collect_less", "local_pool", "ordered_map"]

T = TypeVar("T")
R = TypeVar("R")

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_WATCH_SECONDS = 1.0
_EXECUTOR_AHEAD = 256  # calls in flight on a given executor (a cluster): enough to keep it busy

GC_THRESHOLDS = (100_000, 20, 20)
"""The cyclic garbage collector's thresholds in mineproof's own processes (Python's default is
700, 10, 10; mypy sets 200,000, 30, 30 for the same reason). Counting makes and drops many small
lists and dicts, and at the default the collector took 13 % of the time of 1,000 expert classic
games (17.78 s of CPU; 15.72 s with the collector off, 16.39 s at these thresholds; two runs
side by side, compiled, 2026-11-26). Its cost is a little more memory held by cycles not yet
collected: a few tens of MB at most."""


def collect_less() -> None:
    """Set this process's garbage collector to :data:`GC_THRESHOLDS`: a policy for a whole
    process, set by its entry point (the command line, a pool's worker), never by a library
    call, which would change it under its caller."""
    gc.set_threshold(*GC_THRESHOLDS)


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    jobs: int = 1,
    executor: Executor | None = None,
    ahead: int | None = None,
) -> Generator[R, None, None]:
    """Yield ``fn(item)`` for every item, in order, each as soon as it and those before it are done.

    With an ``executor`` (a Dask client's ``get_executor()``, say) the calls run there; else
    with ``jobs`` > 1 on a local process pool made here (see :func:`local_pool`) and shut down
    when the last result is taken, or ended at once when the caller stops early or a call
    raises; else in this process. At most ``ahead`` calls are submitted and not yet yielded
    (default: twice ``jobs`` on a local pool, 256 on an executor), so ``items`` may be long.
    Raises what ``fn`` raises, in order.

    >>> list(ordered_map(abs, [-1, 2, -3]))
    [1, 2, 3]
    """
    if executor is None and jobs <= 1:
        yield from map(fn, items)
        return
    own: _Pool | None = None
    pool: Executor
    if executor is None:
        own = local_pool(jobs)
        pool = own
    else:
        pool = executor
    limit = ahead if ahead is not None else 2 * jobs if own is not None else _EXECUTOR_AHEAD
    limit = max(1, limit)
    pending: deque[Future[R]] = deque()
    finished = False
    try:
        for item in items:
            pending.append(pool.submit(fn, item))
            if len(pending) >= limit:
                yield _result(pending.popleft())
        while pending:
            yield _result(pending.popleft())
        finished = True
    finally:
        for future in pending:
            future.cancel()
        if own is not None:
            if finished:
                own.shutdown()
            else:
                own.terminate()


def _result(future: Future[R]) -> R:
    """Return the future's result, waiting for it; Ctrl+C ends the wait at once (see
    :func:`mineproof.interrupt.prompt_interrupt`)."""
    with prompt_interrupt():
        return future.result()


class _Pool(ProcessPoolExecutor):
    """A process pool whose workers can be ended at once."""

    def terminate(self) -> None:
        """End every worker now (running calls are lost) and shut the pool down."""
        workers = list((self._processes or {}).values())
        for process in workers:
            if process.is_alive():
                process.terminate()
        self.shutdown(wait=True, cancel_futures=True)
        for process in workers:
            process.join(timeout=5)


def local_pool(jobs: int) -> _Pool:
    """Return a pool of ``jobs`` worker processes that die with this process (see the module)."""
    return _Pool(max_workers=jobs, initializer=_worker_start, initargs=(os.getpid(),))


def _worker_start(parent: int) -> None:
    """Set a worker up: Ctrl+C is the parent's to handle, the worker dies with ``parent``, and
    it collects garbage as the command line does (see :func:`collect_less`)."""
    collect_less()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watchdog remains
            pass
    direct = os.getppid() == parent
    if not _alive(parent, direct):  # the parent died before the signal was asked for
        os._exit(1)
    threading.Thread(target=_watch, args=(parent, direct), name="parent-watch", daemon=True).start()


def _alive(parent: int, direct: bool) -> bool:
    """Return whether the process ``parent`` still runs (``direct``: it is our parent)."""
    if direct:
        return os.getppid() == parent  # an orphan is adopted by another process
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - a process of another user took the id
        return False
    return True


def _watch(parent: int, direct: bool) -> None:
    """End this worker as soon as ``parent`` is gone (where no parent-death signal exists)."""
    while _alive(parent, direct):
        time.sleep(_WATCH_SECONDS)
    os._exit(1)
