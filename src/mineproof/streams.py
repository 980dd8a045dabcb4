"""Standard streams for a command that must not stop because nobody reads them.

A reader of standard output may leave (``mineproof review game.rmv | head``), a standard error
may be closed or full: the command line ends quietly in the first case and goes on in the
second, and the web app serves whether or not its address line could be printed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any, TextIO, cast

__all__ = ["drop_stdout", "stderr_never_fails"]


def drop_stdout() -> None:
    """Send what is left to write on standard output to nowhere, so that Python does not fail
    again when it flushes it at exit (status 120)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class _Unfailing:
    """A text stream whose writes never fail: what cannot be written is dropped."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text``; return its length, written or not."""
        try:
            return self._stream.write(text)
        except OSError:
            return len(text)

    def flush(self) -> None:
        """Flush what is buffered, if it can be written."""
        with suppress(OSError):
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def stderr_never_fails() -> Iterator[None]:
    """Within the block, a standard error that cannot be written (closed, full) stops nothing:
    its notes, progress and error lines are dropped, and the command goes on (a closed
    standard error made ``generate --force`` empty its folder and stop, exit 141)."""
    stderr = sys.stderr
    sys.stderr = cast(TextIO, _Unfailing(stderr))
    try:
        yield
    finally:
        sys.stderr = stderr
