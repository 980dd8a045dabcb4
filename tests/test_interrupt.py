"""Ctrl+C deferred to the next line of interpreted Python, and prompt in waits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mineproof import interrupt
from mineproof.interrupt import deferred_interrupt, on_stop, prompt_interrupt

BIG = 7**1_500_000  # its square takes most of a second, and looks for signals as it goes


def _interrupt_soon() -> subprocess.Popen[bytes]:
    """Return a process that sends this one SIGINT in a twentieth of a second: from outside,
    as a terminal does (a thread of ours could not: the operation holds the interpreter)."""
    return subprocess.Popen(["sh", "-c", f"sleep 0.05; kill -INT {os.getpid()}"])


@pytest.mark.skipif(sys.gettrace() is not None, reason="a tracer (coverage) takes Ctrl+C at once")
def test_ctrl_c_during_a_long_operation_lets_it_finish_then_raises() -> None:
    """CPython's multiplication of big integers looks for signals and fails with
    KeyboardInterrupt when one came: inside compiled code, mypyc takes that failure for a lack
    of memory and aborts the process. Deferred, the product is made, and the next line raises.
    (Without the deferral the product is not made: ``made`` stays empty, unless the signal comes
    after the product on a loaded machine, when the test cannot tell.)"""
    made = []
    with pytest.raises(KeyboardInterrupt), deferred_interrupt():
        timer = _interrupt_soon()
        made.append(BIG * BIG)  # the signal lands here
        timer.wait()
        made.append(0)  # never run: the line before, or this one, raised
    assert len(made) == 1 and made[0] % 7 == 0
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_wait_inside_a_prompt_block_ends_at_once() -> None:
    """A blocking wait resumes after a handler that does not raise: there Ctrl+C raises at
    once, and the deferral is back after the block."""
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), deferred_interrupt(), prompt_interrupt():
        timer = _interrupt_soon()
        threading.Event().wait(60)
    timer.wait()
    assert time.monotonic() - start < 30
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_ignored_by_the_parent_stays_ignored() -> None:
    """A shell starts a background job with SIGINT ignored: the deferral must not make the
    job die on a Ctrl+C meant for the script (it did, with status 130)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with deferred_interrupt():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            timer = _interrupt_soon()
            timer.wait()
            time.sleep(0.05)  # the signal, ignored
    finally:
        signal.signal(signal.SIGINT, previous)


def _two() -> Iterator[int]:
    yield 1
    yield 2


@pytest.mark.skipif(sys.gettrace() is not None, reason="a tracer (coverage) takes Ctrl+C at once")
def test_a_finalizer_run_first_does_not_lose_the_ctrl_c() -> None:
    """The first interpreted code after the signal is a half-run generator's close, when the
    product replaces it: an exception raised there would be printed and dropped."""
    made = []
    with pytest.raises(KeyboardInterrupt), deferred_interrupt():
        timer = _interrupt_soon()
        pending = _two()
        next(pending)
        pending = BIG * BIG  # type: ignore[assignment]  # the signal lands here
        timer.wait()
        made.append(pending)
    assert made == []


_WAIT_PRESSED_TWICE = """
import sys, time
from mineproof.interrupt import deferred_interrupt, on_stop
with deferred_interrupt(), on_stop(lambda: print("outer")):
    with on_stop(lambda: print("inner")):  # neither flushed: the quit flushes them
        # One line: a Ctrl+C once "waiting" is out finds no line to raise at before the
        # wait, which is resumed after it (a deferred raise waits for its end).
        print("waiting", file=sys.stderr, flush=True); time.sleep(60)
print("after")
"""


def _pressed_twice(script: str, stdout: Any) -> subprocess.Popen[str]:
    """Run ``script`` in a child, Ctrl+C at its default as in a terminal; once it writes a
    line on standard error, press Ctrl+C, check the child still runs (the first press waits),
    press again; return the ended child."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered output
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        env=env,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline() == "waiting\n"
        proc.send_signal(signal.SIGINT)
        time.sleep(0.2)
        assert proc.poll() is None, "the first Ctrl+C ended the wait"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        proc.kill()
    return proc


def test_a_second_ctrl_c_before_the_first_was_raised_quits_after_the_cleanups(
    tmp_path: Path,
) -> None:
    """Pressed again while the first Ctrl+C waits for compiled code to return, Ctrl+C ends the
    process at once with 130, quietly, the cleanups run innermost first and standard output
    flushed: raised there instead, it could abort the process (mypyc), and did end it with a
    traceback (the test's stand-in for compiled code, a wait, raises cleanly)."""
    out = tmp_path / "out.txt"
    with out.open("w") as file:
        proc = _pressed_twice(_WAIT_PRESSED_TWICE, file)
    assert proc.stderr is not None
    assert (proc.returncode, proc.stderr.read()) == (130, "")
    assert out.read_text() == "inner\nouter\n"


_FULL_PIPE_PRESSED_TWICE = """
import os, sys, time
from mineproof.interrupt import deferred_interrupt
with deferred_interrupt():
    os.set_blocking(1, False)
    try:
        while True:  # fill the pipe's room, which nobody reads
            os.write(1, b"x" * 4096)
    except BlockingIOError:
        os.set_blocking(1, True)
    print("more")  # kept in the stream's buffer: standard output is a pipe
    print("waiting", file=sys.stderr, flush=True); time.sleep(60)
"""


def test_a_second_ctrl_c_quits_though_standard_output_is_a_full_pipe() -> None:
    """Standard output is a pipe its reader does not read (a pager left waiting) and full: a
    flush of what the stream still holds would wait for the reader, and the quit with it."""
    read, write = os.pipe()
    try:
        with os.fdopen(write, "w") as pipe:
            proc = _pressed_twice(_FULL_PIPE_PRESSED_TWICE, pipe)
    finally:
        os.close(read)
    assert proc.returncode == 130


def test_a_block_stopped_by_an_exception_runs_its_cleanup_first() -> None:
    done: list[str] = []
    with pytest.raises(ValueError), on_stop(lambda: done.append("outer")):
        with on_stop(lambda: done.append("kept")):
            pass  # ended well: no cleanup
        with on_stop(lambda: 1 / 0), on_stop(lambda: done.append("inner")):  # 1/0 dropped
            raise ValueError
    assert done == ["inner", "outer"]


@pytest.mark.skipif(sys.gettrace() is not None, reason="a tracer (coverage) takes Ctrl+C at once")
def test_ctrl_c_during_a_cleanup_on_the_way_out_quits_after_the_whole_cleanup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first Ctrl+C was raised and its cleanups run: one pressed then raised at the
    cleanup's next line, which cut it short (a manifest's boards removed, its lines not yet
    rewritten). It quits instead, after the whole cleanup, run again from its start."""

    class Quit(BaseException):
        pass

    def exit_(status: int) -> None:  # os._exit's stand-in
        interrupt.cancel_later()
        raise Quit(status)

    done: list[str] = []

    def cleanup() -> None:
        done.append("start")
        if len(done) == 1:
            interrupt._interrupted(signal.SIGINT, sys._getframe())  # Ctrl+C while it runs
        done.append("end")

    monkeypatch.setattr(os, "_exit", exit_)
    try:
        with interrupt.on_stop(cleanup):
            raise KeyboardInterrupt  # the first Ctrl+C, raised
    except Quit:
        ended = "quit"
    except KeyboardInterrupt:
        ended = "cut short"
    finally:
        interrupt.cancel_later()
    assert (ended, done) == ("quit", ["start", "start", "end"])
