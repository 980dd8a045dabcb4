"""Standard streams nobody reads: a command goes on, or ends quietly."""

from __future__ import annotations

import contextlib
import io
import os
import sys

import pytest

from mineproof.streams import stderr_never_fails


def test_a_standard_error_that_cannot_be_written_stops_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read, write = os.pipe()
    os.close(read)
    closed = io.TextIOWrapper(io.FileIO(write, "w"), line_buffering=True)
    monkeypatch.setattr(sys, "stderr", closed)
    with pytest.raises(BrokenPipeError):
        print("a note", file=sys.stderr)  # as it was: the first note ended the command
    with stderr_never_fails():
        print("a note", file=sys.stderr)
        sys.stderr.flush()
        assert sys.stderr.fileno() == write  # everything else is the stream's own
    assert sys.stderr is closed  # the block gives the stream back
    monkeypatch.undo()
    with contextlib.suppress(BrokenPipeError):
        closed.close()
