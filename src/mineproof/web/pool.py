"""A bounded pool of worker processes for the web server's CPU work, with cancellation.

The server's event loop never computes: it hands each :class:`~mineproof.web.work.Job` to
:meth:`Pool.run` and awaits the answer, so a trivial request is answered while analyses run.

- ``workers`` processes (default: the cores, at least 2 and at most 4) run one job each.
- Heavy jobs (generation at a first click, pasted positions) take at most ``workers - 1`` of
  them, so the games' own analyses always have a worker.
- Jobs beyond the running ones wait in a queue per kind, at most ``light_queue`` and
  ``heavy_queue``; past that :meth:`Pool.run` raises :class:`PoolFull` at once (the server
  answers 503 with ``Retry-After``).
- A job whose caller is cancelled (the client left) is dropped from the queue, or, when it
  runs, its worker is killed and replaced: the work stops.
- Each job may use ``cpu_seconds`` of CPU time (``setitimer(ITIMER_PROF)`` in the worker, where
  the system has it): past that it ends in ``TooComplexError`` (at the next line of interpreted
  Python; a job still in one compiled call a second later has its worker answer for it and
  end, as an exception raised there would abort the process). Each worker may use
  ``memory_mb`` of address space (Linux): past that a job ends in ``TooComplexError``. A worker
  is replaced after either, after a crash, and after ``recycle_after`` jobs.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any, TypeVar

from mineproof.english import counted
from mineproof.errors import MineproofError, TooComplexError
from mineproof.interrupt import armed, cancel_later, raise_later
from mineproof.web.work import Job

__all__ = ["Pool", "PoolFull", "WorkerError", "default_workers"]

T = TypeVar("T")


def default_workers() -> int:
    """Return the default number of worker processes: the cores, at least 2, at most 4."""
    return min(4, max(2, os.cpu_count() or 1))


class PoolFull(Exception):
    """Every worker is busy and the queue for this kind of job is full; ``retry_after`` is the
    advice in seconds for the client."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WorkerError(RuntimeError):
    """A job failed in its worker with an error that is not a :class:`MineproofError` (a bug),
    or its worker died; the message holds the worker's traceback."""


# --- the worker process ---------------------------------------------------------------------


class _CpuSpent(BaseException):
    """Raised in a worker by SIGPROF when a job has used its CPU time (a BaseException, so no
    ``except Exception`` in the library swallows it)."""


_SPENT_AGAIN = 1.0
"""The CPU seconds after a job's limit when, still in compiled code, it is ended at once."""


_reply: Connection | None = None
"""The worker's end of its pipe, for :func:`_spent` to answer on when it ends the process."""


def _spent(signum: int, frame: FrameType | None) -> None:
    # At the next line of interpreted Python: raised inside compiled code's arithmetic, it
    # would abort the worker (see mineproof.interrupt). The timer fires again after
    # _SPENT_AGAIN seconds: still armed, the job is still in one compiled call, where a raise
    # aborted the worker ("fatal: out of memory", an internal error for the request). The
    # worker answers for the job then, and ends (the pool retires it).
    if raise_later(_CpuSpent, frame):
        return
    if _reply is not None and armed(_CpuSpent):
        with contextlib.suppress(OSError):
            _reply.send(("spent", None))
        os._exit(0)
    raise _CpuSpent


@contextlib.contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Within the block, raise :class:`_CpuSpent` once this process has used ``seconds`` of
    CPU time (user and system); no limit where the system has no profiling timer."""
    if not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return
    signal.signal(signal.SIGPROF, _spent)
    signal.setitimer(signal.ITIMER_PROF, seconds, _SPENT_AGAIN)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        cancel_later()


def _serve(conn: Connection, cpu_seconds: float, memory_mb: int) -> None:
    """The worker's loop: receive a job, answer ``(kind, payload)``; ends when the pipe closes.

    Kinds: ``ok`` (the value), ``error`` (a :class:`MineproofError`, which pickles as itself),
    ``spent`` (the CPU time ran out), ``memory``, ``bug`` (a traceback).
    """
    global _reply
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is for the server, which stops us
    _reply = conn
    if memory_mb and sys.platform == "linux":
        import resource

        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        reply: tuple[str, Any]
        try:
            with _cpu_limit(cpu_seconds):
                value = job.run()
            reply = ("ok", value)
        except _CpuSpent:
            reply = ("spent", None)
        except MemoryError:
            reply = ("memory", None)
        except MineproofError as exc:
            reply = ("error", exc)
        except BaseException as exc:  # a bug: its traceback goes to the server's log
            reply = ("bug", "".join(traceback.format_exception(exc)))
        try:
            conn.send(reply)
        except Exception as exc:  # an answer that does not pickle is a bug too
            conn.send(("bug", "".join(traceback.format_exception(exc))))


# --- the pool -------------------------------------------------------------------------------


def _context() -> BaseContext:
    """Return the start method of the workers: a fork server where the system has one (a clean
    process, forked from quickly, with the analysis imported once), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["mineproof.web.work"])
        return context
    return multiprocessing.get_context("spawn")


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: BaseContext, cpu_seconds: float, memory_mb: int) -> None:
        parent, child = context.Pipe()
        process: BaseProcess = context.Process(  # type: ignore[attr-defined]
            target=_serve,
            args=(child, cpu_seconds, memory_mb),
            name="mineproof-worker",
            daemon=True,
        )
        process.start()
        child.close()
        self.process = process
        self.conn = parent
        self.jobs = 0

    @property
    def pid(self) -> int | None:
        """The worker's process id."""
        return self.process.pid

    def receive(self) -> tuple[str, Any]:
        """Return the next answer (blocks until it is whole). Raises ``EOFError`` when the
        worker died or was killed."""
        answer: tuple[str, Any] = self.conn.recv()
        return answer

    def dispose(self) -> None:
        """Kill the process (at once: it may be in the middle of a job) and release the pipe."""
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        self.process.join(10)
        self.conn.close()


@dataclass(slots=True)
class _Lane:
    """The jobs of one kind: how many wait for a worker and how many may."""

    queue: int
    retry_after: int
    waiting: int = 0


class Pool:
    """Worker processes that run :class:`~mineproof.web.work.Job` s for one event loop.

    Use it from one event loop: :meth:`start` (optional: the first job starts it), then
    :meth:`run` from any number of tasks, and :meth:`close`.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        light_queue: int = 64,
        heavy_queue: int = 4,
        cpu_seconds: float = 10.0,
        memory_mb: int = 2048,
        recycle_after: int = 2000,
    ) -> None:
        self.workers = workers or default_workers()
        if self.workers < 1:
            raise ValueError(f"a pool needs at least one worker, not {self.workers}")
        self.heavy_workers = max(1, self.workers - 1)
        self.cpu_seconds = cpu_seconds
        self.memory_mb = memory_mb
        self.recycle_after = recycle_after
        self._light = _Lane(light_queue, retry_after=1)
        self._heavy = _Lane(heavy_queue, retry_after=5)
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._slots: asyncio.Semaphore | None = None
        self._heavy_slots: asyncio.Semaphore | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._starting: asyncio.Lock | None = None
        self._context: BaseContext | None = None
        self._closed = False
        self.counts = {
            "done": 0,
            "cancelled": 0,  # waiting or running when their caller was cancelled
            "refused": 0,
            "spent": 0,
            "crashed": 0,
            "recycled": 0,
        }
        """What happened to the jobs so far (for tests and benchmarks)."""

    # --- life ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the worker processes (once); raises ``OSError`` when they cannot be started."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._slots is not None:
                return
            if self._closed:
                raise RuntimeError("the pool is closed")
            context = _context()
            # Threads only start and stop workers (and read answers where the loop cannot
            # watch a pipe).
            self._threads = ThreadPoolExecutor(
                max_workers=self.workers + 2, thread_name_prefix="mineproof-pool"
            )
            loop = asyncio.get_running_loop()
            for _ in range(self.workers):
                self._idle.append(await loop.run_in_executor(self._threads, self._spawn, context))
            self._context = context
            self._slots = asyncio.Semaphore(self.workers)
            self._heavy_slots = asyncio.Semaphore(self.heavy_workers)

    def _spawn(self, context: BaseContext | None = None) -> _Worker:
        context = context or self._context
        assert context is not None
        return _Worker(context, self.cpu_seconds, self.memory_mb)

    async def close(self) -> None:
        """Stop every worker (a running job is killed) and release the threads."""
        self._closed = True
        for task in list(self._background):
            task.cancel()
        workers = [*self._idle, *self._busy]
        self._idle.clear()
        self._busy.clear()
        threads = self._threads
        if threads is None:
            return
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(threads, w.dispose) for w in workers), return_exceptions=True
        )
        threads.shutdown(wait=False, cancel_futures=True)

    # --- state --------------------------------------------------------------------------------

    @property
    def busy(self) -> int:
        """The jobs running now."""
        return len(self._busy)

    @property
    def waiting(self) -> int:
        """The jobs waiting for a worker now."""
        return self._light.waiting + self._heavy.waiting

    def pids(self) -> list[int]:
        """Return the process ids of the workers alive now."""
        return [w.pid for w in (*self._idle, *self._busy) if w.pid is not None]

    # --- work ---------------------------------------------------------------------------------

    async def run(self, job: Job[T]) -> T:
        """Return the value of ``job`` computed in a worker.

        Raises what the job raises (a :class:`MineproofError`, as raised there), ``TooComplexError``
        when it spent its CPU time or memory, :class:`PoolFull` when its queue is full,
        :class:`WorkerError` for a bug or a dead worker. Cancelling the caller stops the job.
        """
        await self.start()
        assert self._slots is not None and self._heavy_slots is not None
        lane = self._heavy if job.heavy else self._light
        if lane.waiting >= lane.queue:
            self.counts["refused"] += 1
            kind = "heavy" if job.heavy else "quick"
            raise PoolFull(
                f"the server is busy: {counted(self.workers, 'worker')} at work and "
                f"{counted(lane.waiting, kind + ' request')} waiting; try again in "
                f"{lane.retry_after} s",
                lane.retry_after,
            )
        lane.waiting += 1
        queued = True
        heavy_held = False
        try:
            if job.heavy:
                await self._heavy_slots.acquire()
                heavy_held = True
            await self._slots.acquire()
            lane.waiting -= 1
            queued = False
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                self.counts["cancelled"] += 1
            if queued:
                lane.waiting -= 1
            if heavy_held:
                self._heavy_slots.release()
            raise
        worker = self._idle.pop()
        self._busy.add(worker)
        worker.jobs += 1
        try:
            worker.conn.send(job)
            kind, payload = await self._answer(worker)
        except asyncio.CancelledError:
            self.counts["cancelled"] += 1
            self._retire(worker, job.heavy)
            raise
        except (EOFError, OSError) as exc:
            self.counts["crashed"] += 1
            self._retire(worker, job.heavy)
            raise WorkerError(f"a worker died during the job: {exc!r}") from None
        except BaseException:
            self._retire(worker, job.heavy)
            raise
        if kind in ("ok", "error") and worker.jobs < self.recycle_after:
            self._busy.discard(worker)
            self._idle.append(worker)
            self._release(job.heavy)
        else:
            self.counts["recycled"] += 1
            self._retire(worker, job.heavy)
        self.counts["done"] += 1
        if kind == "ok":
            value: T = payload
            return value
        if kind == "error":
            error: MineproofError = payload
            raise error
        if kind in ("spent", "memory"):
            self.counts["spent"] += 1
            what = f"{self.cpu_seconds:g} s of CPU" if kind == "spent" else "its memory"
            raise TooComplexError(job.refusal or f"the request needs more than {what}")
        raise WorkerError(str(payload))

    async def _answer(self, worker: _Worker) -> tuple[str, Any]:
        """Return the worker's answer, read when its pipe is readable (no thread, where the
        loop can watch a pipe; else read in a thread). Raises ``EOFError`` when it died."""
        loop = asyncio.get_running_loop()
        if sys.platform == "win32":
            return await loop.run_in_executor(self._threads, worker.receive)
        answer: asyncio.Future[tuple[str, Any]] = loop.create_future()
        fd = worker.conn.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if answer.done():
                return
            try:
                answer.set_result(worker.receive())
            except BaseException as exc:
                answer.set_exception(exc)

        loop.add_reader(fd, readable)
        try:
            return await answer
        finally:
            loop.remove_reader(fd)

    def _release(self, heavy: bool) -> None:
        assert self._slots is not None and self._heavy_slots is not None
        self._slots.release()
        if heavy:
            self._heavy_slots.release()

    def _retire(self, worker: _Worker, heavy: bool) -> None:
        """Kill ``worker`` now; in the background, start its replacement and then free its
        place (so a place is free only with a worker ready behind it)."""
        with contextlib.suppress(OSError, ValueError):
            worker.process.kill()

        async def replace() -> None:
            loop = asyncio.get_running_loop()
            try:
                await loop.run_in_executor(self._threads, worker.dispose)
                self._busy.discard(worker)
                if self._closed:
                    return
                try:
                    fresh = await loop.run_in_executor(self._threads, self._spawn)
                except OSError as exc:  # no process to be had: the pool shrinks by one
                    sys.stderr.write(f"mineproof: warning: cannot start a worker: {exc}\n")
                    return
                self._idle.append(fresh)
                self._release(heavy)
            finally:
                self._background.discard(task)

        task = asyncio.get_running_loop().create_task(replace())
        self._background.add(task)
