"""What the fuzz targets share: how many examples, and a guard against hangs.

Each target runs a few hundred examples with the tests (a few seconds); to fuzz for longer, set
``MINEPROOF_FUZZ_EXAMPLES``, for example ``MINEPROOF_FUZZ_EXAMPLES=20000 pytest tests/fuzz``.
Hypothesis prints the smallest failing input and how to reproduce it.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from hypothesis import HealthCheck, settings

__all__ = ["Hang", "fuzz", "time_limit"]

_EXAMPLES = int(os.environ.get("MINEPROOF_FUZZ_EXAMPLES", "0") or 0)


def fuzz(examples: int) -> settings:
    """Return the settings of a target: ``examples`` examples (or ``MINEPROOF_FUZZ_EXAMPLES``),
    no per-example deadline (these machines are noisy: :func:`time_limit` catches hangs)."""
    return settings(
        max_examples=_EXAMPLES or examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


class Hang(Exception):
    """An input took longer than its target allows."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise :class:`Hang` in the block when it runs longer than ``seconds`` (wall clock; a
    guard only: the code under test bounds its work, this catches it when it does not).

    Does nothing off the main thread or where there is no ``SIGALRM``.
    """
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no result or error after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
