"""Read a replay of another client with ms-toollib, in a process of its own.

Run as ``python _mstoollib.py KIND`` (KIND one of avf, mvf, rmv, evf) with the file's bytes on
standard input; prints one JSON object on standard output: ``width``, ``height``, ``mines``,
``layout`` (rows of ``*`` and ``.``), ``events`` (each ``[time, action, x, y]``: the mouse
events that changed the board, as ms-toollib's model of the clients' mouse reads them: ``open``
for a left click that opened, ``chord`` for a chord that opened, ``flag`` for a right click
that flagged or unflagged; the time in seconds from the first click), ``opened`` (the cells
open at the end, as ms-toollib replays them), ``player``, ``software``, ``mode``, ``completed``
and ``stats`` (its standard statistics). An error it reports is printed as ``{"error": ...}``.

ms-toollib stops the whole process on some malformed files (a Rust panic aborts), which is why
this runs apart: the reader that started it reports the file as unreadable instead of dying.
This file imports nothing of mineproof, so the process starts quickly.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from typing import Any

_USEFUL = {1: "flag", 2: "open", 3: "chord", 4: "open"}
"""ms-toollib's ``useful_level`` of an event: 1 a flag placed or removed, 2 a left click that
opened, 3 a chord that opened, 4 a click that hit a mine: a left click on it, or a chord of an
opened number beside it (told apart by the board before the event, see :func:`_action`)."""

_OPENED = range(9)
"""The codes of ms-toollib's game board for an opened cell: its number (10 is covered, 11 a
flag)."""

_STATS = {
    "time": "rtime",
    "bbbv": "bbbv",
    "bbbv_s": "bbbv_s",
    "zini": "zini",
    "hzini": "hzini",
    "ioe": "ioe",
    "thrp": "thrp",
    "corr": "corr",
    "stnb": "stnb",
    "left": "left",
    "right": "right",
    "double": "double",
    "cl": "cl",
    "ce": "ce",
    "path": "path",
}
"""Our names of ms-toollib's standard statistics, and its attributes."""


def _limit() -> None:
    """Bound this process: 2 GB of memory and 60 s of CPU (where the system allows it)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return
    for kind, value in ((resource.RLIMIT_AS, 2 << 30), (resource.RLIMIT_CPU, 60)):
        # A lower limit may be set already: it stays.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(kind, (value, value))


def _number(value: object) -> float | int | None:
    """Return a statistic as JSON allows it: ``None`` for NaN and the infinities."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _text(value: object) -> str | None:
    if isinstance(value, bytes | bytearray):
        value = bytes(value).decode("utf-8", "replace")
    return value if isinstance(value, str) and value else None


def _action(event: Any, x: int, y: int) -> str:
    """Return what the event at cell ``(x, y)``, one that changed the board, did to it:
    ``open``, ``chord`` or ``flag``. A click that hit a mine on an opened number was a chord (a
    game lost by chording beside a wrong flag): read as an open of that opened cell, it was
    dropped, and the game's end with it."""
    if event.useful_level == 4:
        rows = event.prior_game_board.game_board
        if 0 <= y < len(rows) and 0 <= x < len(rows[y]) and rows[y][x] in _OPENED:
            return "chord"
    return _USEFUL[event.useful_level]


def read(kind: str, data: bytes) -> dict[str, Any]:
    """Return what a replay of ``kind`` holds (see the module's docstring)."""
    import ms_toollib

    classes: dict[str, Any] = {
        "avf": ms_toollib.AvfVideo,
        "mvf": ms_toollib.MvfVideo,
        "rmv": ms_toollib.RmvVideo,
        "evf": ms_toollib.EvfVideo,
    }
    video: Any = classes[kind](f"replay.{kind}", data)
    video.parse()
    video.analyse()
    video.current_time = 1e9  # the statistics at the end of the game
    board = video.board
    height, width = len(board), len(board[0]) if board else 0
    size = video.pix_size or 16
    shift = video.video_start_time  # minus the time of the first click
    events = []
    last = None
    for event in video.events:
        if event.useful_level not in _USEFUL:
            continue  # changed nothing (and may be no mouse event: a game state's, say)
        mouse = event.event.unwrap_mouse()
        x, y = mouse.x // size, mouse.y // size
        events.append([round(event.time + shift, 6), _action(event, x, y), x, y])
        last = event
    final = last.next_game_board.game_board if last is not None else []
    opened = [
        [x, y] for y, row in enumerate(final) for x, code in enumerate(row) if code in _OPENED
    ]
    return {
        "width": width,
        "height": height,
        "mines": video.mine_num,
        "layout": ["".join("*" if c == -1 else "." for c in row) for row in board],
        "events": events,
        "opened": opened,
        "player": _text(video.player_identifier),
        "software": _text(video.software),
        "mode": video.mode,
        "completed": bool(video.is_completed),
        "stats": {name: _number(getattr(video, attr, None)) for name, attr in _STATS.items()},
    }


def main() -> int:
    """Read the replay on standard input and print what it holds; 2 for a bad call."""
    if len(sys.argv) != 2 or sys.argv[1] not in ("avf", "mvf", "rmv", "evf"):
        print("usage: _mstoollib.py avf|mvf|rmv|evf < REPLAY", file=sys.stderr)
        return 2
    _limit()
    data = sys.stdin.buffer.read()
    try:
        out = read(sys.argv[1], data)
    except ImportError:
        out = {"missing": True}
    except BaseException as exc:  # ms-toollib's errors and panics that do not abort
        out = {"error": " ".join(str(exc).split())[:200] or type(exc).__name__}
    sys.stdout.write(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
