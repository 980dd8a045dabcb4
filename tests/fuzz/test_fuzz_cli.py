"""Fuzz the command line: commands with flags and values drawn from what breaks programs.

Every command line ends in exit status 0, a one-line error with status 1 (``mineproof: error:
...``, a ``MineproofError``), or a one-line usage error with status 2; never a traceback,
never a hang. Values are drawn so that each run is short: sizes small or refused, counts small
or over their caps (``play``, which serves until stopped, and cluster addresses that could be
reached are left out).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from hypothesis import event, given
from hypothesis import strategies as st

from mineproof.board import Board, Layout
from mineproof.cli import main
from mineproof.formats import format_mbf
from mineproof.play import play_game

from .harness import fuzz, time_limit


def _record() -> str:
    record: dict[str, object] = {"seed": 2, "index": 0}
    play_game(Board(9, 9), 10, random.Random(2), "classic", "best", record)
    return json.dumps(record)


_RECORD = _record()
_FILES: dict[str, str | bytes] = {
    "position.txt": "4x3x3\n01HH\n13HH\nHHHH\n",
    "guess.txt": "3x1x1\nH1H\n",
    "ring.txt": "5x5x4\nHHHHH\nH121H\nH202H\nH121H\nHHHHH\n",
    "won.txt": "3x1x1\n01F\n",
    "grid.json": "[[0,0,1,10],[1,1,2,10],[10,10,10,10]]",
    "digits.txt": "9" * 4400 + "x1x1\nH\n",
    "layout.txt": "4x3x2\n*...\n....\n...*\n",
    "layout.mbf": format_mbf(Layout(Board(5, 5), 0b10001)),
    "game.json": _RECORD,
    "tampered.json": _RECORD.replace('"open"', '"dig"', 2),
    "empty": b"",
    "binary": bytes(range(256)),
    "a-file": "not a folder",
}

_NUMBERS = ["0", "1", "2", "3", "-1", "00", "1e3", "x", "", " 1", "\u0661", "9" * 30, "9" * 5000]
_PATHS = ["{d}/new", "{d}/a-file", "{d}/a-file/sub", "{d}", "{d}/x.svg", "{d}/x.gif", "."]

# Per kind of value: the values that usually work, and all the others worth a try. Every value
# keeps the work small: boards up to 9x9 (255 and over are refused before any work), counts of
# a few or over their caps, no window of levels 3-4 (a long search on small boards).
_VALUES: dict[str, tuple[list[str], list[str]]] = {
    "count": (["1", "2", "3"], ["0", "10000001", "1000001", *_NUMBERS]),
    "size": (["1", "2", "3", "5", "9"], ["256", "0", *_NUMBERS]),
    "mines": (["0", "1", "3", "10"], ["60", "65025", *_NUMBERS]),
    "jobs": (["1"], ["0", "100000", "-2", *_NUMBERS]),
    "level": (["1", "2", "5"], ["0", "6", "-1", "x", "99"]),
    "cell": (["0,0", "1,1", "2,2"], ["3,3", "300,0", "a,b", "", "-1,0", "1,2,3", "9" * 30 + ",0"]),
    "speed": (["0.15", "0.01"], ["600", "0", "-1", "inf", "nan", "1e300", "1e-300", "x"]),
    "scale": (["1", "2"], ["8", "0", "9", "-1", "1e3", "x"]),
    "lang": (["en", "de", "ja"], ["xx", ""]),
    "path": (["{d}/new", "{d}/x.svg", "{d}/x.gif"], _PATHS),
    "scheduler": ([], ["foo bar", "tcp://", "", "inproc://", "tcp://[::1", "ucx://x:1"]),
    "level-name": (["beginner"], ["nope", ""]),
    "format": (["text", "json", "mbf"], ["csv"]),
    "start": (["opening", "safe"], ["none"]),
    "rules": (["classic", "modern"], ["x"]),
    "strategy": (["logic", "safest", "best"], ["x"]),
    "file": (sorted(_FILES), ["missing.txt", "{d}", "/dev/null", "-"]),
}
_FITTING = {
    "analyze": ["position.txt", "guess.txt", "ring.txt", "won.txt", "grid.json"],
    "solve": ["layout.txt", "layout.mbf"],
    "replay": ["game.json", "tampered.json"],
}
_FITTING.update(hint=_FITTING["analyze"], explain=_FITTING["solve"], grade=_FITTING["solve"])


def _value(rnd: random.Random, kind: str) -> str:
    """Return a value of a flag: three times in four one that works, else any other."""
    good, other = _VALUES[kind]
    return rnd.choice(good) if good and rnd.random() < 0.75 else rnd.choice(other)


# Each command's flags: flag -> kind of value (None: a switch).
_FLAGS: dict[str, dict[str, str | None]] = {
    "analyze": {"--mines": "mines", "--trust-flags": None, "--json": None},
    "hint": {
        "--mines": "mines",
        "--trust-flags": None,
        "--json": None,
        "--open": None,
        "--lang": "lang",
        "--svg": "path",
    },
    "solve": {"--start": "cell", "--json": None},
    "explain": {"--start": "cell", "--json": None, "--lang": "lang"},
    "grade": {"--start": "cell", "--json": None, "--lang": "lang"},
    "generate": {
        "--level": "level-name",
        "--width": "size",
        "--height": "size",
        "--mines": "mines",
        "--start": "start",
        "--at": "cell",
        "--max-level": "level",
        "--min-level": "level",
        "--reveal": "count",
        "--count": "count",
        "--seed": "count",
        "--jobs": "jobs",
        "--format": "format",
        "--out": "path",
        "--scheduler": "scheduler",
    },
    "bench": {
        "--level": "level-name",
        "--width": "size",
        "--height": "size",
        "--mines": "mines",
        "--rules": "rules",
        "--strategy": "strategy",
        "--games": "count",
        "--seed": "count",
        "--jobs": "jobs",
        "--json": None,
        "--record": "path",
        "--scheduler": "scheduler",
    },
    "replay": {"--out": "path", "--speed": "speed", "--scale": "scale"},
}
# What a command needs, given most of the time so that the examples get past the parser.
_NEEDED = {
    "generate": ["--width", "--height", "--mines"],
    "bench": ["--width", "--height", "--mines", "--games"],
    "solve": ["--start"],
    "explain": ["--start"],
    "grade": ["--start"],
    "replay": ["--out"],
}


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """Draw a command, mostly with a fitting file and what it needs, and a few of its flags with
    values (``{d}`` stands for the example's folder). ``bench`` always plays a few games.

    The choices are made by a random generator Hypothesis gives (and replays), so that their
    odds are those written here.
    """
    rnd = draw(st.randoms(use_true_random=False))
    command = rnd.choice(sorted(_FLAGS))
    argv = [command]
    if command in _FITTING and rnd.random() < 0.9:
        fitting = rnd.random() < 0.75
        argv.append(rnd.choice(_FITTING[command]) if fitting else _value(rnd, "file"))
    flags = _FLAGS[command]
    chosen = rnd.sample(sorted(flags), rnd.randint(0, min(5, len(flags))))
    if rnd.random() < 0.8:
        needed = _NEEDED.get(command, [])
        if command in ("generate", "bench") and rnd.random() < 0.5:
            needed = ["--level", *needed[3:]]
        chosen = [*needed, *(f for f in chosen if f not in needed)]
    if command == "bench" and "--games" not in chosen:
        chosen.append("--games")
    for flag in chosen:
        kind = flags[flag]
        if kind is None:
            argv.append(flag)
        elif flag == "--games":
            argv += [flag, rnd.choice(["1", "2", "2", "0", "10000001", "x"])]
        else:
            argv += [flag, _value(rnd, kind)]
    if rnd.random() < 0.05:
        argv.insert(rnd.randint(0, len(argv)), rnd.choice(["--nope", "-x", "--", "--help"]))
    return argv


@contextlib.contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    """Give ``data`` as standard input in the block."""
    saved = sys.stdin
    sys.stdin = _Stdin(data)
    try:
        yield
    finally:
        sys.stdin = saved


class _Stdin:
    """Standard input for a command that reads it (``-``, or no file given)."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


@fuzz(200)
@given(command_lines(), st.sampled_from(sorted(_FILES)))
def test_command_lines(argv: list[str], stdin: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name, data in _FILES.items():
            path = Path(folder, name)
            path.write_bytes(data if isinstance(data, bytes) else data.encode())
        args = [a.replace("{d}", folder) for a in argv]
        args = [str(Path(folder, a)) if a in _FILES else a for a in args]
        out, err = io.StringIO(), io.StringIO()
        data = _FILES[stdin]
        with (
            _stdin(data if isinstance(data, bytes) else data.encode()),
            time_limit(60),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            contextlib.chdir(folder),
        ):
            try:
                status = main(args)
            except SystemExit as exc:  # argparse: usage errors, --help
                status = exc.code if isinstance(exc.code, int) else 2
    errors = err.getvalue()
    event(f"{argv[0] if argv[0] in _FLAGS else 'other'} exit {status}")
    assert "Traceback" not in errors, errors
    assert status in (0, 1, 2), (status, errors)
    if status in (1, 2):  # bad input, or a usage error: one line either way
        assert errors.startswith("mineproof: error: ") and errors.count("\n") == 1, errors
