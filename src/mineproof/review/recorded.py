"""Recorded games to review: the layout and the player's clicks, read from replay files of the
clients players use, from mineproof's own recorded games, or from moves given by a caller.

Other clients' replays (Minesweeper Arbiter ``.avf``, Minesweeper Clone ``.mvf``, Vienna
Minesweeper ``.rmv``, Metasweeper ``.evf``) are read with ms-toollib, an optional extra
(``pip install 'mineproof[replays]'``), in a process of its own: ms-toollib stops the whole
process on some malformed files, and a bad file must end in a one-line error, not a dead
reader. Its model of each client's mouse turns the mouse events into clicks (a left release
opens, a right press flags or unflags, a chord as the client makes it); only the clicks that
changed the board are kept, with their times from the first click. In the modes of Metasweeper
that move mines during the game, the layout is the one at the end, which fits every position
the player saw.

The clicks are then played by mineproof's own rules on the layout, and the cells open at the end
must be those ms-toollib's replay opened: a file whose clicks do not replay is refused.
"""

from __future__ import annotations

import codecs
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Literal

from mineproof.board import MAX_SIDE, Layout, cell_name
from mineproof.errors import ArgumentError, FormatError, MineproofError
from mineproof.formats import parse_layout_text
from mineproof.game import Game
from mineproof.interrupt import prompt_interrupt
from mineproof.play.replay import load_record, replay

__all__ = [
    "MAX_REPLAY_BYTES",
    "REPLAY_KINDS",
    "Click",
    "ClickAction",
    "RecordedGame",
    "read_file",
    "read_game",
    "read_record",
    "read_replay",
]

ClickAction = Literal["open", "chord", "flag", "unflag"]
REPLAY_KINDS = ("avf", "mvf", "rmv", "evf")
"""The replay formats of other clients read through ms-toollib (by their file extensions)."""
MAX_REPLAY_BYTES = 64 << 20
"""The largest replay file read (a 60x36 game of 57,000 mouse events takes 340 KB)."""

_CHILD = Path(__file__).with_name("_mstoollib.py")
_CHILD_TIMEOUT = 120.0  # seconds: a last resort; the child's CPU is limited to 60 s


@dataclass(frozen=True, slots=True)
class Click:
    """One click that changed the board: ``time`` in seconds from the first click (``None``
    when the record keeps no times), the ``action`` and the ``(x, y)`` cell clicked (for a
    chord, the number)."""

    time: float | None
    action: ClickAction
    cell: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """A game to review: the true ``layout``, the player's ``clicks`` in order (each legal by
    the rules, see :func:`read_game`), where it comes from (``source``: a replay format,
    ``json`` or ``web``), and what the file says of it: the ``player``, the ``software`` and
    ms-toollib's standard statistics (``stats``: ``time``, ``bbbv``, ``bbbv_s``, ``zini``,
    ``ioe``, ``thrp``, ``corr``, ``stnb``, clicks...; empty for mineproof's own games).
    ``strict_flags`` says that the game was played with a flag on a cell with no mine losing it
    (see :class:`~mineproof.game.Game`)."""

    layout: Layout
    clicks: tuple[Click, ...]
    source: str
    player: str | None = None
    software: str | None = None
    stats: dict[str, float | int | None] = field(default_factory=dict)
    strict_flags: bool = False


def read_game(
    layout: Layout,
    moves: Iterable[tuple[float | None, str, int, int]],
    source: str,
    *,
    strict_flags: bool = False,
    **about: Any,
) -> RecordedGame:
    """Return the game of ``moves`` on ``layout``: each ``(time, action, x, y)``, the action
    ``open``, ``chord``, ``flag`` (which flags a covered cell and unflags a flagged one, as a
    right click does) or ``unflag``. Moves that change nothing (a chord whose flags do not match
    its number, an open on an opened cell) are left out; with ``strict_flags`` a flag on a cell
    with no mine ends the game. ``about`` gives the other fields of :class:`RecordedGame`.

    Raises ``FormatError`` naming the move (1-based) when it is outside the board, comes after
    the end of the game, opens a flagged cell, flags or unflags an opened cell, or has an
    unknown action.
    """
    clicks, _ = _play(layout, moves, strict_flags)
    return RecordedGame(layout, clicks, source, strict_flags=strict_flags, **about)


def _play(
    layout: Layout,
    moves: Iterable[tuple[float | None, str, int, int]],
    strict_flags: bool = False,
) -> tuple[tuple[Click, ...], Game]:
    """Return the clicks of ``moves`` that change the board, and the game they leave; raises
    as :func:`read_game` does."""
    game = Game(layout, strict_flags=strict_flags)
    board = layout.board
    clicks = []
    for n, (time, action, x, y) in enumerate(moves, 1):
        where = f"click {n} ({action} at ({x}, {y})"
        if not (0 <= x < board.width and 0 <= y < board.height):
            raise FormatError(f"{where}): outside the {board.width}x{board.height} board")
        where += f" [{cell_name(x, y)}])"
        if game.state != "playing":
            raise FormatError(f"{where} comes after the end of the game ({game.state})")
        i = board.index(x, y)
        opened = bool(game.opened_mask >> i & 1)
        flagged = bool(game.flag_mask >> i & 1)
        kind: ClickAction
        if action == "open":
            if flagged:
                raise FormatError(f"{where}: the cell is flagged")
            if opened:
                continue
            game.reveal(x, y)
            kind = "open"
        elif action == "chord":
            if not game.chord_cells(x, y):
                continue
            game.chord(x, y)  # may open no safe cell at all: a wrong flag, only mines left
            kind = "chord"
        elif action in ("flag", "unflag"):
            if opened:
                raise FormatError(f"{where}: the cell is open")
            kind = "unflag" if flagged else "flag"
            if action == "unflag" and not flagged:
                continue
            game.toggle_flag(x, y)
        else:
            raise FormatError(f"{where}: unknown action (expected open, chord, flag, unflag)")
        clicks.append(Click(time, kind, (x, y)))
    return tuple(clicks), game


def read_file(data: bytes, name: str) -> RecordedGame:
    """Return the game in the file ``name`` (only its extension is read) holding ``data``:
    a replay of another client (``.avf``, ``.mvf``, ``.rmv``, ``.evf``; see
    :func:`read_replay`) or a game mineproof recorded (``.json``; see :func:`read_record`).

    ``name`` ``-`` is standard input, which has no extension: there a game mineproof recorded
    is read (JSON), and a replay is refused with a word on why. Raises ``FormatError`` for
    another extension and when the file is malformed, and ``ArgumentError`` when ms-toollib is
    needed and missing.
    """
    kind = Path(name).suffix.lower().lstrip(".")
    if name == "-":
        if data.removeprefix(codecs.BOM_UTF8).lstrip()[:1] != b"{":
            raise FormatError(
                "a replay's format is told by its file name (.avf, .mvf, .rmv or .evf), and "
                "standard input has none: give the file itself (a game mineproof recorded, in "
                "JSON, can be piped)"
            )
        kind = "json"
    if kind in REPLAY_KINDS:
        return read_replay(data, kind)
    if kind != "json":
        raise FormatError(
            f"not a game file: expected a replay (.{', .'.join(REPLAY_KINDS)}) or a game "
            "mineproof recorded (.json)"
        )
    return read_record(load_record(data))


def read_record(record: dict[str, Any]) -> RecordedGame:
    """Return a game recorded by mineproof (``mineproof bench --record``; see
    :func:`mineproof.play.replay.check_record`), without times. Raises ``FormatError`` when the
    record is malformed or does not replay as recorded (see :func:`mineproof.play.replay.replay`:
    the same checks as ``mineproof replay``, its outcome included)."""
    replay(record)
    width, height, mines = record["width"], record["height"], record["mines"]
    layout = parse_layout_text(f"{width}x{height}x{mines}\n" + "\n".join(record["layout"]))
    moves = [(None, m["action"], m["cell"][0], m["cell"][1]) for m in record["moves"]]
    return read_game(layout, moves, "json")


def read_replay(data: bytes, kind: str) -> RecordedGame:
    """Return the game of a replay file of another client: ``kind`` is its format (one of
    :data:`REPLAY_KINDS`), ``data`` its bytes.

    Raises ``ArgumentError`` when ms-toollib (the extra ``mineproof[replays]``) is not
    installed or the format is unknown, and ``FormatError`` when the file is larger than
    :data:`MAX_REPLAY_BYTES`, is not a readable replay of that format (malformed, truncated),
    or holds clicks that do not replay to the end ms-toollib reads.
    """
    if kind not in REPLAY_KINDS:
        raise ArgumentError(f"unknown replay format {kind!r} (expected {', '.join(REPLAY_KINDS)})")
    if find_spec("ms_toollib") is None:
        raise _missing(kind)
    if len(data) > MAX_REPLAY_BYTES:
        raise FormatError(
            f"the file has {len(data):,} bytes, more than the {MAX_REPLAY_BYTES:,} "
            "a replay is read up to"
        )
    if not data:
        raise FormatError(f"the file is empty, not a .{kind} replay")
    found = _read_in_child(data, kind)
    return _recorded(found, kind)


def _missing(kind: str) -> ArgumentError:
    return ArgumentError(
        f"reading .{kind} replays needs ms-toollib: pip install 'mineproof[replays]'",
        name="ms-toollib",
    )


def _read_in_child(data: bytes, kind: str) -> dict[str, Any]:
    """Return what :mod:`mineproof.review._mstoollib` reads from ``data``, run in a process of
    its own (in a temporary folder: ms-toollib writes ``crash.log`` where it fails)."""
    unreadable = f"not a readable .{kind} replay: ms-toollib could not read it"
    with tempfile.TemporaryDirectory(prefix="mineproof-replay-") as folder:
        try:
            with prompt_interrupt():  # a wait for the child: Ctrl+C must end it
                done = subprocess.run(
                    [sys.executable, str(_CHILD), kind],
                    input=data,
                    capture_output=True,
                    cwd=folder,
                    timeout=_CHILD_TIMEOUT,
                    check=False,
                )
        except subprocess.TimeoutExpired:
            raise FormatError(f"{unreadable} in {_CHILD_TIMEOUT:g} s") from None
        except OSError as exc:  # pragma: no cover - no process could be started
            raise MineproofError(f"cannot start a process to read the replay: {exc}") from None
    if done.returncode != 0:
        raise FormatError(f"{unreadable} (malformed or truncated)")
    try:
        found = json.loads(done.stdout)
    except ValueError:
        raise FormatError(f"{unreadable} (malformed or truncated)") from None
    if not isinstance(found, dict):
        raise FormatError(unreadable)
    if found.get("missing"):
        raise _missing(kind)
    if "error" in found:
        raise FormatError(f"{unreadable}: {found['error']}")
    return found


def _recorded(found: dict[str, Any], kind: str) -> RecordedGame:
    """Return the game ms-toollib read, its clicks checked by mineproof's own rules."""
    width, height, mines = found["width"], found["height"], found["mines"]
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise FormatError(f"the replay's board is {width}x{height}, outside 1..{MAX_SIDE} a side")
    layout = parse_layout_text(f"{width}x{height}x{mines}\n" + "\n".join(found["layout"]))
    if not found["events"]:
        raise FormatError(f"the .{kind} replay has no click that opens a cell")
    clicks, replayed = _play(layout, ((t, a, x, y) for t, a, x, y in found["events"]))
    board = layout.board
    theirs = 0
    for x, y in found["opened"]:
        theirs |= 1 << board.index(x, y)
    if replayed.opened_mask != theirs:
        raise FormatError(
            f"the .{kind} replay's clicks do not replay by the rules to the end it records"
        )
    return RecordedGame(
        layout,
        clicks,
        kind,
        player=found.get("player"),
        software=found.get("software"),
        stats=found.get("stats") or {},
    )
