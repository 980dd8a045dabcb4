"""Signals that raise between lines of interpreted Python, never inside compiled code.

The modules mypyc compiles treat a failed operation on a big integer as running out of memory
and abort the process (``fatal: out of memory``, status 134). CPython's multiplication and
division of big integers look for signals as they go (``PyErr_CheckSignals``), so Ctrl+C
during a count in compiled code raised ``KeyboardInterrupt`` inside such an operation, and
``mineproof bench`` then died with a C abort about one time in four instead of ending quietly
with status 130 (likewise a web worker's CPU limit, raised by ``SIGPROF``).

Here a signal's handler only arms a trace function, which raises the exception at the next line
of interpreted Python in a frame that was running when the signal came: as soon as the compiled
call returns (a game, a count), which is a few milliseconds in play, seconds at most on the
biggest boards. A second Ctrl+C before then ends the process at once with status 130 (the user
insists, and a raise there could abort it): the cleanups of the blocks :func:`on_stop` wraps
run first, so files are left whole. Where a tracer is already at work (a debugger, coverage),
the exception is raised at once, as Python does by default.

A deferred raise cannot end a blocking wait (a future's result, a read of standard input): the
wait is resumed after the handler. Such waits are wrapped in :func:`prompt_interrupt`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, NoReturn

__all__ = [
    "INTERRUPTED",
    "armed",
    "cancel_later",
    "deferred_interrupt",
    "on_stop",
    "prompt_interrupt",
    "raise_later",
]

INTERRUPTED = 128 + signal.SIGINT
"""The exit status of a process Ctrl+C ended: 130, what a shell reports for one."""

_Trace = Callable[[FrameType, str, Any], Any]

_armed: list[type[BaseException]] = []
"""The exceptions armed and not yet raised in this process (its main thread)."""


def raise_later(exc: type[BaseException], frame: FrameType | None) -> bool:
    """Arrange for ``exc`` to be raised at the next line of interpreted Python run in ``frame``
    (a signal handler's) or in a frame that called it: where the compiled call in progress
    returns to. Frames called from now on are left alone, so that a finalizer (a ``__del__``,
    a generator closed by the collector), which Python runs anywhere and whose exceptions it
    only prints, cannot take the exception and lose it. Return False, arranging nothing, when
    ``exc`` was armed already or another tracer is at work: the caller should then raise at
    once."""
    if exc in _armed or sys.gettrace() is not None:
        return False

    def trace(frame: FrameType, event: str, arg: Any) -> _Trace | None:
        if event != "line":
            return trace
        cancel_later()
        raise exc

    def untraced(frame: FrameType, event: str, arg: Any) -> None:
        return None  # a frame called after the signal: not traced

    _armed.append(exc)
    sys.settrace(untraced)  # needed for the frames' own traces to be called at all
    while frame is not None:  # the frames running now, from their next line
        frame.f_trace = trace
        frame.f_trace_lines = True
        frame = frame.f_back
    return True


def armed(exc: type[BaseException]) -> bool:
    """Return whether :func:`raise_later` arranged ``exc`` and it has not been raised yet."""
    return exc in _armed


def cancel_later() -> None:
    """Forget what :func:`raise_later` arranged and has not raised yet (the frames' traces run
    no more without the thread's)."""
    if _armed:
        sys.settrace(None)
        _armed.clear()


_cleanups: list[Callable[[], object]] = []
"""The cleanups of the :func:`on_stop` blocks running now, innermost last."""

_cleaning: list[Callable[[], object]] = []
"""The cleanups running now because an exception left their block (a Ctrl+C pressed then
quits, see :func:`_interrupted`)."""


@contextlib.contextmanager
def on_stop(cleanup: Callable[[], object]) -> Iterator[None]:
    """Within the block, call ``cleanup`` when the block stops early: when an exception leaves
    it (Ctrl+C's included), before it goes on; and when a second Ctrl+C ends the process at
    once (see :func:`deferred_interrupt`), before it ends. A Ctrl+C pressed while the cleanup
    runs after an exception ends the process the second way, so the cleanup is not cut short
    (it runs again from its start: cleanups are written to be run twice). The cleanup's own
    errors are dropped (best effort: the error on its way, or the interruption, says why)."""
    _cleanups.append(cleanup)
    try:
        yield
    except BaseException:
        _cleaning.append(cleanup)
        try:
            with contextlib.suppress(Exception):
                cleanup()
        finally:
            _cleaning.pop()
        raise
    finally:  # its own entry, also if blocks of generators ended out of order
        del _cleanups[len(_cleanups) - 1 - _cleanups[::-1].index(cleanup)]


def _quit() -> NoReturn:
    """End the process at once with :data:`INTERRUPTED`, after the cleanups of the
    :func:`on_stop` blocks running now (innermost first) and a flush of the standard streams
    that are not pipes or sockets: a reader that does not read (a pager left waiting) would
    hold the flush, and the process, as it held the write the first Ctrl+C came in."""
    for cleanup in reversed(_cleanups):
        with contextlib.suppress(Exception):
            cleanup()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            mode = os.fstat(stream.fileno()).st_mode
            if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
                stream.flush()
    os._exit(INTERRUPTED)


def _interrupted(signum: int, frame: FrameType | None) -> None:
    if armed(KeyboardInterrupt) or _cleaning:  # pressed again while compiled code holds the
        _quit()  # first, or while a cleanup runs on the way out: not cut short
    if not raise_later(KeyboardInterrupt, frame):
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred_interrupt() -> Iterator[None]:
    """Within the block, Ctrl+C (SIGINT) raises ``KeyboardInterrupt`` at the next line of
    interpreted Python (see the module); pressed again before that, it runs the cleanups of the
    :func:`on_stop` blocks and ends the process at once with :data:`INTERRUPTED`. Outside
    the main thread, where signals cannot be handled, or where SIGINT does not raise
    ``KeyboardInterrupt`` (a background job of a shell ignores it), the block runs unchanged."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    previous = signal.signal(signal.SIGINT, _interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def prompt_interrupt() -> Iterator[None]:
    """Within the block, Ctrl+C raises ``KeyboardInterrupt`` at once, as Python does by default:
    for a blocking wait inside :func:`deferred_interrupt` (a future's result, a read of standard
    input), which a deferred raise would leave waiting. Outside the main thread, or where Ctrl+C
    is not deferred, the block runs unchanged."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not _interrupted
    ):
        yield
        return
    if _armed:  # pressed already: the wait would only delay it
        cancel_later()
        raise KeyboardInterrupt
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, _interrupted)
