"""The ``mineproof`` command line: parses arguments, calls the library, prints the results.

Every error ends with one line on standard error, ``mineproof: error: ...``, and the exit
status of the one table in :mod:`mineproof.errors`. A usage error, a command line wrong in
itself (an unknown option, a bad option value, options that do not go together), names the
option and exits 2, before any file is read: single values are checked by the options' ``type=``
validators, combinations by :class:`~mineproof.errors.UsageError` where the command starts.
Bad input (a file, an impossible position), an unwritable output and the like exit 1; the file
is named when what was read from it is wrong, and a command run with ``--json`` also prints
the error as one JSON object (:meth:`~mineproof.errors.MineproofError.to_json`). Ctrl+C ends
any command quietly with 130, and a reader of standard output that leaves before the end with
141 (:data:`PIPE_CLOSED`); standard error that cannot be written stops nothing.
Flags that size the work have caps (:data:`MAX_GAMES`, :data:`MAX_COUNT`, :func:`max_jobs`), and
``generate`` writes each board as soon as it is made.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import secrets
import sqlite3
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, NoReturn, Protocol

from mineproof import __version__
from mineproof.analysis import Analysis, analyze
from mineproof.batch import BatchItem, BatchRequest, iter_batch
from mineproof.board import LEVELS, MAX_SIDE, Board, Layout, cell_name
from mineproof.english import counted, readable
from mineproof.errors import (
    ArgumentError,
    FormatError,
    GameOverError,
    MineproofError,
    NotFoundError,
    UsageError,
    exit_status,
)
from mineproof.explain import (
    LANGUAGES,
    colon,
    explain,
    grade_text,
    hint,
    level_name,
)
from mineproof.formats import format_mbf, load_layout, load_position, read_bytes
from mineproof.generate import GenerationError, check_arguments
from mineproof.interrupt import INTERRUPTED, deferred_interrupt, on_stop
from mineproof.logic import SolveResult, Step, grade, solve
from mineproof.parallel import collect_less, ordered_map
from mineproof.play import RULES, STRATEGIES, BenchRequest, run_bench
from mineproof.play.replay import animation_gif, animation_svg, load_record
from mineproof.position import Position
from mineproof.render import analysis_grid, analysis_svg, percent, position_svg
from mineproof.review import (
    LONG_THINK,
    REPLAY_KINDS,
    RecordedGame,
    Summary,
    mistakes_table,
    read_file,
    review_game,
    review_gif,
    review_svg,
)
from mineproof.streams import drop_stdout, stderr_never_fails
from mineproof.web import run

__all__ = ["MAX_COUNT", "MAX_GAMES", "MAX_SPEED", "MIN_SPEED", "main", "max_jobs"]

MAX_GAMES = 10_000_000
"""The most games ``bench --games`` plays: about three days of expert games on one core, and a
95 % interval of +-0.03 %, finer than any difference worth measuring. (Memory does not grow with
the games: only running totals are kept.)"""
MAX_COUNT = 1_000_000
"""The most boards ``generate --count`` makes: hours to days of work, and as many files as one
folder comfortably holds with ``--format mbf``. (Boards are written as they are made: memory does
not grow with the count.)"""
MIN_SPEED, MAX_SPEED = 0.01, 600.0
"""The range of ``replay --speed``, in seconds per move: a GIF counts time in hundredths of a
second, and ten minutes a move is already a slide show."""
_JOBS_PER_CPU = 4
_MAX_CLUSTER_JOBS = 1024
_MAX_DIGITS = 18  # an int flag with more digits is a usage error, not a very long wait


def max_jobs() -> int:
    """Return the most local processes ``--jobs`` may ask for: 4 per CPU this process may use.

    The work is CPU-bound: past one process a CPU, more only cost memory and switching; four
    leave room for a CPU count that undercounts (some containers).
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return _JOBS_PER_CPU * max(1, cpus)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line naming the option, as every error is,
    and that reads ``-1,1`` as a value (a cell to refuse with a reason), not as an option."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d+,-?\d+$")
        self.commands: dict[str, argparse.ArgumentParser] = {}
        """The parser of each command, by name (set on the main parser only)."""

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: None = None
    ) -> argparse.Namespace:
        """Return the parsed arguments; an argument no option takes is a usage error of the
        command it follows (``mineproof analyze a b``: see ``mineproof analyze --help``)."""
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            command = self.commands.get(getattr(parsed, "command", None) or "", self)
            command.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed

    def error(self, message: str) -> NoReturn:
        """Print the usage error as one line and exit with the status of a usage error."""
        sys.exit(_usage_error(self.prog, UsageError(message)))


def _usage_error(prog: str, exc: UsageError) -> int:
    """Print a usage error as one line, pointing to ``prog --help``; return its exit status."""
    _end_bar()
    print(f"mineproof: error: {exc} (see {prog} --help)", file=sys.stderr)
    return exit_status(exc)


def _usage(flag: str, message: str) -> UsageError:
    """Return the usage error of option ``flag``, worded as the argument parser words its own."""
    return UsageError(f"argument {flag}: {message}", name=flag)


def _cell_xy(text: str) -> tuple[int, int]:
    """Return ``(x, y)`` from ``X,Y``; raises ``ArgumentTypeError`` otherwise."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected X,Y (two numbers from 0), got {text!r}")
    return int(parts[0]), int(parts[1])


def _port(text: str) -> int:
    """Parse a TCP port, 0 to 65535 (0: any free port)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 0..65535")
    return port


def _int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """Return the ``type=`` of an int option from ``low`` to ``high`` (None: no bound but its
    digits): it returns the int, and raises ``ArgumentTypeError`` for any other text (at most
    18 digits, leading zeros aside: a longer number is a usage error, not a very long wait).

    >>> _int_in(1, 8)("08")
    8
    """
    wanted = (
        f"a whole number from {low} to {high:,}"
        if high is not None
        else f"a whole number, {low} or more"
    )

    def check(text: str) -> int:
        if not (text.isascii() and text.isdigit()):
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text[:40]!r}")
        digits = len(text.lstrip("0"))
        if digits > _MAX_DIGITS:
            raise argparse.ArgumentTypeError(
                f"a number of {digits:,} digits is too large (at most {_MAX_DIGITS})"
            )
        value = int(text)
        if value < low or (high is not None and value > high):
            upto = "" if high is None else f"{high:,}"
            raise argparse.ArgumentTypeError(f"{value} is outside {low}..{upto}")
        return value

    return check


_count = _int_in(0)


def _float_in(low: float, high: float, unit: str) -> Callable[[str], float]:
    """Return the ``type=`` of a float option from ``low`` to ``high`` ``unit``: it returns the
    float, and raises ``ArgumentTypeError`` for any other text (nan and inf too)."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text[:40]!r}") from None
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(f"{text[:40]} is outside {low:g}..{high:g} {unit}")
        return value

    return check


def _out_file(*suffixes: str) -> Callable[[str], str]:
    """Return the ``type=`` of an option naming a file to write, by its kind: the name must end
    in one of ``suffixes`` (any case), which says what is written. It returns the name, and
    raises ``ArgumentTypeError`` for any other (an empty one too)."""
    kinds = " or ".join(suffixes)

    def check(text: str) -> str:
        if Path(text).suffix.lower() not in suffixes:
            raise argparse.ArgumentTypeError(
                f"expected a file name ending in {kinds}, got {text!r}"
            )
        return text

    return check


def _folder_name(text: str) -> str:
    """The ``type=`` of an option naming a folder: returns ``text``; raises
    ``ArgumentTypeError`` for an empty name (which no folder has: a run would have written
    to standard output, or to the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a folder name, got {text!r}")
    return text


def _folder_path(text: str) -> Path:
    """The ``type=`` of an option naming a folder as a ``Path`` (see :func:`_folder_name`)."""
    return Path(_folder_name(text))


def _check_jobs(args: argparse.Namespace) -> None:
    """Raise ``UsageError`` when ``--jobs`` is outside what this machine (or a cluster) runs."""
    if getattr(args, "scheduler", None) is not None:
        high, why = _MAX_CLUSTER_JOBS, "with --scheduler"
    else:
        high, why = max_jobs(), f"{_JOBS_PER_CPU} processes per CPU of this machine"
    if not 1 <= args.jobs <= high:
        raise _usage("--jobs", f"{args.jobs} is outside 1..{high:,} ({why})")


def _position_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of a command that reads a position."""
    parser.add_argument("file", nargs="?", default="-", metavar="FILE", help="position, - stdin")
    parser.add_argument(
        "--mines",
        type=_count,
        help="the mine total (needed for ms-toollib grids; with text, instead of its header's)",
    )
    parser.add_argument("--trust-flags", action="store_true", help="take every flag as a mine")


def _layout_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of a command that plays a layout from a start cell."""
    parser.add_argument("file", metavar="LAYOUT", help="layout file (MBF or layout text), - stdin")
    parser.add_argument("--start", type=_cell_xy, required=True, metavar="X,Y", help="start cell")


def _size_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --level, or --width/--height/--mines (read back by ``_size``)."""
    size = parser.add_mutually_exclusive_group(required=True)
    size.add_argument("--level", choices=sorted(LEVELS), help="a standard size")
    side = _int_in(1, MAX_SIDE)
    size.add_argument("--width", type=side, help="board width (with --height and --mines)")
    parser.add_argument("--height", type=side, help="board height")
    parser.add_argument(
        "--mines", type=_count, help="number of mines (with --level: instead of the level's)"
    )


def _animation_arguments(parser: argparse.ArgumentParser, per: str) -> None:
    """Add --speed (seconds per ``per`` of an animation) and --scale (of a GIF)."""
    parser.add_argument(
        "--speed",
        type=_float_in(MIN_SPEED, MAX_SPEED, f"seconds per {per}"),
        default=0.15,
        metavar="SECONDS",
        help=f"seconds per {per} ({MIN_SPEED}-{MAX_SPEED:g})",
    )
    parser.add_argument(
        "--scale",
        type=_int_in(1, 8),
        default=1,
        metavar="N",
        help="GIF: cells of 16 x N pixels (1-8)",
    )


def _scheduler_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster (tcp://host:8786; needs the mineproof[cluster] extra)",
    )


def _force_argument(parser: argparse.ArgumentParser, flag: str) -> None:
    """Add ``--force``: replace an earlier run's files in the folder of ``flag``."""
    parser.add_argument(
        "--force",
        action="store_true",
        help=f"replace the files an earlier run left in the {flag} folder (without it, such a "
        "folder is refused)",
    )


@contextmanager
def _executor(address: str | None) -> Iterator[Executor | None]:
    """Yield a Dask cluster's executor for ``address``, or None for local processes; the
    cluster's workers are set to collect garbage as local workers do (:func:`collect_less`)."""
    if address is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError:
        raise ArgumentError("--scheduler needs Dask: pip install 'mineproof[cluster]'") from None
    try:
        client = Client(address, timeout=10)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise ArgumentError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    except (ValueError, TypeError, LookupError, ImportError) as exc:  # a malformed address
        raise _usage(
            "--scheduler", f"{address!r} is not a scheduler address such as tcp://host:8786: {exc}"
        ) from exc
    try:
        # The workers collect garbage as local ones do (those that join later keep theirs).
        client.run(collect_less)
        yield client.get_executor()  # type: ignore[no-untyped-call]
    finally:
        client.close()  # type: ignore[no-untyped-call]


def _parser() -> _Parser:
    parser = _Parser(
        prog="mineproof",
        description="Exact Minesweeper analysis: probabilities, forced cells, logic-only solving.",
    )
    parser.add_argument("--version", action="version", version=f"mineproof {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    pl = sub.add_parser(
        "play",
        help="play guess-free games in the browser, with explained hints",
        description="Start the local web app and open it in a browser: guess-free games, "
        "hints explained in nine languages, probabilities, an analysis board, statistics.",
    )
    pl.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback)")
    pl.add_argument(
        "--port", type=_port, default=8000, help="port (default 8000; 0: any free port)"
    )
    pl.add_argument("--no-browser", action="store_true", help="do not open a browser")
    pl.add_argument(
        "--data",
        type=_folder_path,
        metavar="DIR",
        help="where games and statistics are kept (default: the per-user data folder)",
    )
    pl.add_argument("--quiet", action="store_true", help="do not log requests, only errors")

    an = sub.add_parser(
        "analyze",
        help="every covered cell's mine probability and the forced cells of a position",
        description="Analyse a position exactly: each covered cell's mine probability, the "
        "cells safe or mined in every arrangement, the number of arrangements. Reads "
        "JSMinesweeper text or an ms-toollib JSON grid, recognised by content.",
    )
    _position_arguments(an)
    an.add_argument("--json", action="store_true", help="print one JSON object")

    so = sub.add_parser(
        "solve",
        help="play a layout logic-only from a start cell",
        description="Play a mine layout (MBF, or the */. layout text) as a perfect logician "
        "who knows the mine total, from a start cell, until cleared or stuck.",
    )
    _layout_arguments(so)
    so.add_argument("--json", action="store_true", help="print one JSON object")

    hi = sub.add_parser(
        "hint",
        help="the next forced move, explained at the lowest level a person needs",
        description="Find the next deduction of a position: the fewest numbers that prove a "
        "cell safe or a mine, at the lowest level of technique, explained in words. When "
        "nothing is forced, the safest cells to guess.",
    )
    _position_arguments(hi)
    hi.add_argument("--lang", default="en", choices=LANGUAGES, help="language of the text")
    hi.add_argument("--json", action="store_true", help="print one JSON object")
    hi.add_argument(
        "--svg", type=_out_file(".svg"), metavar="OUT.svg", help="also draw the hint as an SVG file"
    )
    hi.add_argument(
        "--open",
        action="store_true",
        help="lead to a cell to open: when the first deductions prove only mines, carry on",
    )

    for name, helptext in (
        ("explain", "the whole logic-only solve of a layout as explained steps, then its grade"),
        ("grade", "the grade of a layout: the hardest technique needed and steps per level"),
    ):
        cmd = sub.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:])
        _layout_arguments(cmd)
        cmd.add_argument("--lang", default="en", choices=LANGUAGES, help="language of the text")
        cmd.add_argument("--json", action="store_true", help="print one JSON object")

    ge = sub.add_parser(
        "generate",
        help="guess-free boards: cleared from the start cell by logic alone, verified",
        description="Generate boards that a perfect logician clears from the start cell without "
        "a single guess. Every board is verified by the complete solver before it is written.",
    )
    _size_arguments(ge)
    ge.add_argument(
        "--start",
        choices=["opening", "safe"],
        default="opening",
        help="what is free of mines: the start cell and its neighbours (opening, the default), "
        "or the start cell alone (safe)",
    )
    ge.add_argument(
        "--at",
        type=_cell_xy,
        metavar="X,Y",
        help="start cell, 0-based from the top left (default: the centre with --start opening; "
        "with --start safe, the mine-free cell nearest the centre with the lowest number)",
    )
    level, least = _int_in(1, 5), _int_in(0, 5)  # 0: the first click clears it; 1 excludes that
    ge.add_argument(
        "--max-level",
        type=level,
        default=5,
        metavar="L",
        help="hardest technique allowed, 1-5: one clue, two clues, a combination of clues, a "
        "case analysis, the mine total (default 5)",
    )
    ge.add_argument(
        "--min-level",
        type=least,
        default=0,
        metavar="L",
        help="hardest technique the board must need, 0-5 (default 0: any; 0 is a board the "
        "first click clears)",
    )
    ge.add_argument(
        "--reveal",
        type=_count,
        default=0,
        metavar="N",
        help="a gentler start: the first N steps of forced moves already made (a step: what "
        "the lowest technique proves beside the cells the step before changed), each board "
        "written with the position the player gets",
    )
    ge.add_argument(
        "--sampler",
        choices=["auto", "exact", "perturb", "chain"],
        default="auto",
        help="exact: every guess-free board equally likely (rejection); perturb: local search, "
        "fast on dense boards but biased (past half the board mined, from layouts whose free "
        "cells grow around the start, once a quarter of the search found none: the grown "
        "sampler, far from uniform); chain: a Markov chain from a perturb board, close to "
        "uniform on dense boards, one to three seconds per expert-sized board; auto (the "
        "default): exact where it is cheap, else perturb",
    )
    ge.add_argument(
        "--count",
        type=_int_in(1, MAX_COUNT),
        default=1,
        metavar="N",
        help=f"number of boards (1-{MAX_COUNT:,})",
    )
    ge.add_argument("--seed", type=_count, metavar="S", help="seed (default: a random one, shown)")
    ge.add_argument(
        "--jobs", type=_count, default=1, metavar="J", help="processes to use (1 to 4 per CPU)"
    )
    ge.add_argument(
        "--format",
        choices=["text", "mbf", "json"],
        default="text",
        help="text (the default): a header and rows of * and .; mbf: one binary file per board, "
        "with --out; json: one object per line",
    )
    _scheduler_argument(ge)
    ge.add_argument(
        "--out",
        type=_folder_name,
        metavar="DIR",
        help="folder to write to instead of standard output: boards.txt or boards.jsonl, or the "
        "MBF files and their manifest",
    )
    _force_argument(ge, "--out")

    be = sub.add_parser(
        "bench",
        help="play many games and report the win rate",
        description="Play many games with a strategy and report games, wins, the win rate with "
        "its 95 % interval, guesses per game and speed. The result for a seed is the same "
        "whatever --jobs.",
    )
    _size_arguments(be)
    be.add_argument(
        "--rules",
        choices=list(RULES),
        default="classic",
        help="first click: classic (the default), a safe click in the top-left corner; modern, "
        "an opening at (3,3)",
    )
    be.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="best",
        help="how to guess when nothing is proven: best (the default), for the best odds of "
        "winning; safest, the least likely mine; logic, never (the game counts as stuck)",
    )
    be.add_argument(
        "--games",
        type=_int_in(1, MAX_GAMES),
        default=1000,
        metavar="N",
        help=f"games (1-{MAX_GAMES:,}; default 1,000)",
    )
    be.add_argument(
        "--seed",
        type=_count,
        default=0,
        metavar="S",
        help="seed of the games' layouts (default 0): game i of a seed is always the same board",
    )
    be.add_argument(
        "--jobs", type=_count, default=1, metavar="J", help="processes to use (1 to 4 per CPU)"
    )
    be.add_argument("--json", action="store_true", help="print one JSON object")
    be.add_argument(
        "--record", type=_folder_name, metavar="DIR", help="keep every game as JSON in DIR"
    )
    _force_argument(be, "--record")
    _scheduler_argument(be)

    rp = sub.add_parser(
        "replay",
        help="a recorded game as an animation, move by move",
        description="Check a recorded game (from bench --record) against the rules and draw it "
        "as an animated SVG or GIF (by the name of --out), one move at a time.",
    )
    rp.add_argument("file", metavar="GAME.json", help="a recorded game")
    rp.add_argument(
        "--out",
        type=_out_file(".svg", ".gif"),
        required=True,
        metavar="OUT.svg|OUT.gif",
        help="the animation to write",
    )
    _animation_arguments(rp, "move")
    rv = sub.add_parser(
        "review",
        help="every click of a recorded game judged and explained",
        description="Review recorded games: replays of Minesweeper Arbiter (.avf), Minesweeper "
        "Clone (.mvf), Vienna Minesweeper (.rmv) and Metasweeper (.evf) (these need the "
        "mineproof[replays] extra), games mineproof recorded (.json), a folder of them, or a "
        "game of the web app by its id. Every click is judged in the position the player saw: "
        "forced (and at what level), a guess (at what odds), or a mistake (with the deduction "
        "missed); then a summary.",
    )
    rv.add_argument(
        "games", nargs="+", metavar="GAME", help="a game file, a folder of them, or a game id"
    )
    rv.add_argument("--lang", default="en", choices=LANGUAGES, help="language of the text")
    rv.add_argument("--json", action="store_true", help="print one JSON object")
    rv.add_argument("--all", action="store_true", help="list every click, not only notable ones")
    rv.add_argument(
        "--long-think",
        type=_float_in(0, MAX_LONG_THINK, "seconds"),
        default=LONG_THINK,
        metavar="SECONDS",
        help=f"the pause before a level-1 move that counts as long (default {LONG_THINK:g})",
    )
    rv.add_argument(
        "--jobs", type=_count, default=1, metavar="J", help="processes to use (1 to 4 per CPU)"
    )
    rv.add_argument(
        "--svg",
        type=_out_file(".svg"),
        metavar="OUT.svg",
        help="also write the game as an animated SVG, marks on its clicks",
    )
    rv.add_argument(
        "--gif",
        type=_out_file(".gif"),
        metavar="OUT.gif",
        help="also write the game as an animated GIF",
    )
    _animation_arguments(rv, "click")
    rv.add_argument(
        "--data",
        type=_folder_path,
        metavar="DIR",
        help="the web app's data folder, for games given by id (default: the per-user one)",
    )
    parser.commands = dict(sub.choices)
    return parser


def _write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole, as UTF-8 (see :func:`_write_bytes`)."""
    _write_bytes(Path(path), text.encode("utf-8"))


def _input(path: str, what: str) -> bytes:
    """Return the bytes of ``path`` (``-``: standard input, with a word on standard error
    first when it is a terminal, where the command would otherwise wait without a sign).
    Raises what :func:`read_bytes` raises."""
    isatty = getattr(sys.stdin, "isatty", None)  # stdin may be None, or replaced
    if path == "-" and isatty is not None and isatty():
        print(
            f"mineproof: reading {what} from the terminal: paste it, then Ctrl+D on a new line",
            file=sys.stderr,
        )
    return read_bytes(path)


def _position(args: argparse.Namespace) -> Position:
    """Return the position of ``args.file``, with ``--mines`` as its mine total when given.

    Raises ``FormatError`` when the file is malformed, its own mine total larger than its
    covered cells too (the error names the file), and ``ArgumentError`` naming ``--mines`` when
    the file is a grid without a mine total and ``--mines`` is missing, or when the total given
    is larger than the file's covered cells (naming the file).
    """
    data = _input(args.file, "a position")
    try:
        return load_position(data, args.mines)
    except ArgumentError as exc:
        if args.mines is None and exc.name == "mines" and exc.allowed is None:
            raise ArgumentError(f"{exc}: give it with --mines N", name="--mines") from exc
        if args.mines is None:
            raise FormatError(str(exc)) from exc
        source = "standard input" if args.file == "-" else args.file
        raise ArgumentError(f"--mines {args.mines}: {exc} of {source}", name="--mines") from exc


def _hint(args: argparse.Namespace) -> str:
    position = _position(args)
    found = hint(position, args.lang, trust_flags=args.trust_flags, open=args.open)
    if not found.steps and not found.safest:
        raise GameOverError(_nothing_to_hint(found.analysis))
    if args.svg is not None:
        if found.steps:
            premises: list[tuple[int, int]] = []
            safe: list[tuple[int, int]] = []
            mines: list[tuple[int, int]] = []
            for d in found.steps:
                premises += d.premise_cells
                safe += d.safe_cells
                mines += d.mine_cells
            svg = position_svg(position, premises=premises, safe=safe, mines=mines)
        else:
            assert found.analysis is not None
            svg = analysis_svg(found.analysis)
        _write_text(args.svg, svg)
    return json.dumps(found.to_json(), ensure_ascii=False) if args.json else found.headline


def _layout(args: argparse.Namespace) -> Layout:
    """Return the layout of ``args.file``; raises ``FormatError`` when it is malformed and
    ``ArgumentError`` when ``--start`` is outside its board."""
    layout = load_layout(_input(args.file, "a layout"))
    x, y = args.start
    board = layout.board
    if not (x < board.width and y < board.height):
        raise ArgumentError(
            f"--start {x},{y} is outside the {board.width}x{board.height} board of {args.file}",
            name="--start",
        )
    return layout


def _nothing_to_hint(analysis: Analysis | None) -> str:
    """Return why a position has no hint: every covered cell is a mine in every arrangement (a
    flag that may be safe is a cell to guess, with a word on the flag), and, with ``--open``,
    some of those mines may not be flagged yet."""
    if analysis is None or not analysis.position.covered_mask:
        return "nothing to hint: every cell is open"
    unflagged = analysis.mine_mask & ~analysis.position.flag_mask
    if unflagged:
        return (
            "nothing to open: every safe cell is open, the game is won "
            f"({counted(unflagged.bit_count(), 'unflagged mine')} left)"
        )
    return "nothing to hint: every safe cell is open and every mine flagged, the game is won"


def _explain(args: argparse.Namespace) -> str:
    layout = _layout(args)
    # Each step is written out as it is made, and its position let go.
    items: list[dict[str, object]] = []
    lines: list[str] = []

    def note(step: Step) -> None:
        d = step.deduction
        if args.json:
            items.append({"number": step.number, **d.to_json(), "text": explain(d, args.lang)})
        else:
            lines.append(
                f"{step.number}. [{d.level}{colon(args.lang)} {level_name(d.level, args.lang)}] "
                f"{explain(d, args.lang)}"
            )

    result = grade(layout, args.start, on_step=note)
    if args.json:
        return json.dumps({"steps": items, "grade": result.to_json()}, ensure_ascii=False)
    lines.append(grade_text(result.solved, result.level, result.steps, args.lang))
    return "\n".join(lines)


def _grade(args: argparse.Namespace) -> str:
    layout = _layout(args)
    result = grade(layout, args.start)
    if args.json:
        return json.dumps(result.to_json())
    return grade_text(result.solved, result.level, result.steps, args.lang)


def _size(args: argparse.Namespace) -> tuple[int, int, int]:
    """Return (width, height, mines) from --level (and --mines, which replaces the level's mine
    count) or --width/--height/--mines; raises ``UsageError`` for --height with --level or
    --width without the others."""
    if args.level:
        if args.height is not None:
            raise _usage(
                "--height", f"goes with --width, not --level: --level {args.level} sets the size"
            )
        width, height, mines = LEVELS[args.level]
        return width, height, mines if args.mines is None else args.mines
    if args.height is None or args.mines is None:
        raise _usage("--width", "needs --height and --mines")
    return args.width, args.height, args.mines


_FLAGS = {
    "mines": "--mines",
    "start": "--at",
    "rule": "--start",
    "min_level": "--min-level",
    "max_level": "--max-level",
    "sampler": "--sampler",
}
"""The option of each argument of the library's checks of a board's arguments."""


@contextmanager
def _usage_of_board_arguments() -> Iterator[None]:
    """Turn the ``ArgumentError`` of arguments no board can meet (the library's checks, one rule
    for the web app and the command line) into the usage error of the option concerned."""
    try:
        yield
    except ArgumentError as exc:
        flag = _FLAGS.get(exc.name or "")
        raise (_usage(flag, str(exc)) if flag else UsageError(str(exc))) from exc


def _bench(args: argparse.Namespace) -> str:
    width, height, mines = _size(args)
    _check_jobs(args)
    board = Board(width, height)
    with _usage_of_board_arguments():
        check_arguments(board, mines, "opening" if args.rules == "modern" else "safe", None, 5, 1)
    request = BenchRequest(board, mines, args.rules, args.strategy, args.seed, bool(args.record))
    keep = None
    folder = _folder(args.record, "--record", args.force)
    if folder is not None:
        digits = _digits(args.games)

        def keep(record: dict[str, Any]) -> None:
            name = folder / f"game-{record['index'] + 1:0{digits}d}.json"
            _write_bytes(name, (json.dumps(record) + "\n").encode("utf-8"))

    with _executor(args.scheduler) as executor:
        summary = run_bench(
            request, args.games, args.jobs, _bench_progress(args.games), executor, keep
        )
    data = summary.to_json()
    if args.json:
        return json.dumps(data)
    low, high = summary.ci95
    lines = [
        f"{width}x{height}/{mines}, {args.rules} rules, strategy {args.strategy}, seed {args.seed}",
        f"games {summary.games}, wins {summary.wins}, win rate {summary.win_rate:.1%} "
        f"(95 % interval {low:.1%} to {high:.1%})",
        f"guesses per game {data['guesses_per_game']:.2f}; {data['games_per_second']:.1f} games "
        f"per second, {data['games_per_cpu_second']:.1f} per CPU-second",
    ]
    if summary.stuck:
        lines.insert(2, f"stuck (a guess was needed) {summary.stuck}, lost {summary.losses}")
    return "\n".join(lines)


def _replay(args: argparse.Namespace) -> str:
    kind = Path(args.out).suffix.lower()
    replay = Path(args.file).suffix.lower().lstrip(".")
    if replay in REPLAY_KINDS:
        raise FormatError(
            f"a .{replay} replay is not a game that bench --record writes: "
            f"mineproof review {args.file} --svg OUT.svg (or --gif OUT.gif) draws it"
        )
    record = load_record(read_bytes(args.file))
    if kind == ".gif":
        with _late_note("drawing the GIF, frame") as note:
            gif = animation_gif(record, args.speed, args.scale, note)
        _write_bytes(Path(args.out), gif)
    else:
        _write_text(args.out, animation_svg(record, args.speed))
    return f"wrote {args.out}: {counted(len(record['moves']), 'move')}, {record['outcome']}"


_GAME_FILES = (*(f".{kind}" for kind in REPLAY_KINDS), ".json")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
MAX_LONG_THINK = 3600.0
"""The largest ``review --long-think``, in seconds."""


@dataclass(frozen=True)
class _Reviewed:
    """What reviewing one game gives the command: its name and the review's text and JSON,
    or the error that stopped it."""

    name: str
    summary: Summary | None = None
    text: str = ""
    data: dict[str, Any] | None = None
    error: str = ""


def _review_one(job: tuple[str, RecordedGame | None, str, bool, bool, float]) -> _Reviewed:
    """Review one game (a file, or a game already read): the worker of ``review --jobs``."""
    name, game, lang, as_json, every_click, long_think = job
    try:
        if game is None:
            game = read_file(read_bytes(name), name)
        review = review_game(game, long_think=long_think)
    except MineproofError as exc:
        return _Reviewed(name, error=str(exc))
    data = review.to_json(lang) if as_json else None
    text = "" if as_json else review.text(lang, every_click)
    return _Reviewed(name, review.summary, text, data)


def _review_sources(args: argparse.Namespace) -> list[tuple[str, RecordedGame | None]]:
    """Return the games to review, in order: files (a folder gives its game files, sorted)
    and the web app's games by id (read here from ``--data``). Raises ``ArgumentError`` for a
    folder with no game file, ``NotFoundError`` for a name that is neither a file, a folder
    nor a game id, and the errors of reading a game."""
    out: list[tuple[str, RecordedGame | None]] = []
    for name in args.games:
        path = Path(name)
        if path.is_dir():
            files = sorted(
                p for p in path.rglob("*") if p.suffix.lower() in _GAME_FILES and p.is_file()
            )
            if not files:
                raise ArgumentError(f"{name}: no game file (.avf .mvf .rmv .evf .json) in it")
            out += [(str(p), None) for p in files]
        elif path.exists() or name == "-" or path.suffix.lower() in _GAME_FILES:
            out.append((name, None))
        elif _GAME_ID.fullmatch(name):
            out.append((name, _web_game(name, args.data)))
        else:
            raise NotFoundError(
                f"{name}: no such file, nor a game id of the web app (8 to 64 letters, digits, "
                "- or _)"
            )
    return out


def _web_game(game_id: str, data: Path | None) -> RecordedGame:
    """Return the web app's game ``game_id`` from its data folder, read beside a server that
    may be running there. Raises ``NotFoundError`` when there is no such game (or no data
    folder), ``ArgumentError`` when the folder's games cannot be read."""
    from mineproof.web import default_data_dir
    from mineproof.web.games import stored_game
    from mineproof.web.store import read_game

    folder = data or default_data_dir()
    if not (folder / "mineproof.sqlite3").is_file():
        raise NotFoundError(f"{game_id}: no such file, and no web app data in {folder}")
    try:
        # Read only: the web app may be running on the folder (a game just played).
        row = read_game(folder, game_id)
    except (OSError, sqlite3.Error) as exc:
        raise ArgumentError(f"{folder}: cannot read the web app's games: {exc}") from None
    if row is None:
        raise NotFoundError(f"{game_id}: no such file, nor a game of the web app in {folder}")
    if row.layout is None:
        raise NotFoundError(f"game {game_id} has no move yet")
    return stored_game(row).recorded()


def _review(args: argparse.Namespace) -> str:
    """Review the games. One game: its review (an error stops the command). Several: each
    game's review, then the table of mistakes per level; a game that fails is named with its
    error on standard error, the others go on, and the run is marked failed (exit status 1)."""
    _check_jobs(args)
    animate = args.svg is not None or args.gif is not None
    if animate and len(args.games) != 1:
        raise _usage("--svg" if args.svg is not None else "--gif", "draws one game: give one")
    sources = _review_sources(args)
    if animate and len(sources) != 1:
        raise ArgumentError(
            f"{args.games[0]} holds {counted(len(sources), 'game')}: --svg and --gif draw one"
        )
    if len(sources) == 1:
        name, game = sources[0]
        args.file = name  # errors name the game
        if game is None:
            game = read_file(read_bytes(name), name)
        with _late_note("reviewing, click") as note:
            review = review_game(game, long_think=args.long_think, progress=note)
        if args.svg is not None:
            _write_text(args.svg, review_svg(review, args.speed))
        if args.gif is not None:
            with _late_note("drawing the GIF, frame") as note:
                gif = review_gif(review, args.speed, args.scale, note)
            _write_bytes(Path(args.gif), gif)
        if args.json:
            return json.dumps(review.to_json(args.lang), ensure_ascii=False)
        return review.text(args.lang, args.all)
    jobs = [(name, game, args.lang, args.json, args.all, args.long_think) for name, game in sources]
    done = list(ordered_map(_review_one, jobs, min(args.jobs, len(jobs))))
    failed = [r for r in done if r.error]
    for r in failed:
        print(f"mineproof: error: {r.name}: {r.error}", file=sys.stderr)
    args.failed = bool(failed)
    good = [r for r in done if not r.error]
    rows = [(Path(r.name).name, r.summary) for r in good if r.summary is not None]
    if args.json:
        totals: dict[str, int] = {}
        for _, summary in rows:
            for level, n in summary.mistake_levels.items():
                totals[str(level)] = totals.get(str(level), 0) + n
        return json.dumps(
            {
                "games": [{"game": r.name, **(r.data or {})} for r in good],
                "errors": [{"game": r.name, "error": r.error} for r in failed],
                "mistakes_by_level": dict(sorted(totals.items())),
            },
            ensure_ascii=False,
        )
    parts = [f"{r.name}\n{r.text}" for r in good]
    return "\n\n".join([*parts, mistakes_table(rows, args.lang)])


def _bench_progress(total: int) -> Callable[[int, int], None] | None:
    """Return a progress bar with the running win rate, or None when not on a terminal."""
    if total < 2 or not sys.stderr.isatty():
        return None

    def show(done: int, wins: int) -> None:
        _bar(done, total, f" won {wins / done if done else 0.0:.1%}")

    return show


_bar_open = [False]  # whether a progress bar's line is on standard error, not yet ended


def _bar(done: int, total: int, note: str = "") -> None:
    """Draw a progress bar on standard error, ending the line when ``done`` reaches ``total``."""
    filled = done * 30 // total
    end = "\n" if done == total else ""
    print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total}{note}", end=end, file=sys.stderr)
    _bar_open[0] = done != total


def _end_bar() -> None:
    """End the line of a progress bar cut short (by an error or Ctrl+C), so the next line is
    whole."""
    if _bar_open[0]:
        _bar_open[0] = False
        print(file=sys.stderr)


def _note(line: str | None) -> None:
    """Draw ``line`` on standard error over the line there (a note that the next note, a
    progress bar or the output replaces), or erase that line when ``line`` is ``None``."""
    print(f"\r\033[K{line or ''}", end="", file=sys.stderr, flush=True)
    _bar_open[0] = line is not None


@contextlib.contextmanager
def _late_note(what: str) -> Iterator[Callable[[int, int], None] | None]:
    """Yield a progress callback, told ``(done, total)``, that shows ``what: done of total``
    on standard error (a terminal) once the work has taken :attr:`_BoardNote.NOTE_AFTER`
    seconds, redrawn at most every :attr:`_BoardNote.NOTE_EVERY` seconds, and erased when the
    block ends; ``None`` when standard error is no terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    start = time.monotonic()
    due = [start + _BoardNote.NOTE_AFTER]
    shown = [False]

    def show(done: int, total: int) -> None:
        now = time.monotonic()
        if now < due[0]:
            return
        due[0] = now + _BoardNote.NOTE_EVERY
        _note(f"{what}: {done:,} of {total:,} ({now - start:.0f} s)")
        shown[0] = True

    try:
        yield show
    finally:
        if shown[0]:
            _note(None)


class _BoardNote:
    """A line on standard error (a terminal) while one board takes long: the fresh layouts and
    changes tried for it so far, then the steps of its grading (see
    :data:`~mineproof.batch.BoardProgress`), from :data:`NOTE_AFTER` seconds into the board,
    redrawn at most every :data:`NOTE_EVERY` seconds (so the many reports of a fast board cost
    a clock read each). :meth:`clear` erases it before a board or a bar is drawn."""

    NOTE_AFTER = 1.0
    NOTE_EVERY = 0.25

    def __init__(self) -> None:
        self.index = -1
        self.since = self.next = 0.0
        self.shown = False

    def __call__(self, index: int, layouts: int, changes: int, steps: int) -> None:
        now = time.monotonic()
        if index != self.index:
            self.index, self.since, self.next = index, now, now + self.NOTE_AFTER
        if now < self.next:
            return
        self.next = now + self.NOTE_EVERY
        tried = counted(layouts, "layout")
        if changes:
            tried += f", {counted(changes, 'change')}"
        grading = f"; grading: {counted(steps, 'step')}" if steps else ""
        line = f"board {index + 1}: {tried} tried{grading} ({now - self.since:.0f} s)"
        _note(line)
        self.shown = True

    def clear(self) -> None:
        """Erase the note, if one is shown."""
        if self.shown:
            _note(None)
            self.shown = False


def _noted(boards: Iterable[BatchItem], note: _BoardNote | None, count: int) -> Iterator[BatchItem]:
    """Yield the ``boards``, erasing the ``note`` of each before it is written. Raises the
    ``GenerationError`` of a board that could not be made naming it, when there are several of
    ``count`` ("board 3 of 8: no guess-free ...")."""
    made = iter(boards)
    for index in range(1, count + 1):
        try:
            item = next(made)
        except StopIteration:
            return
        except GenerationError as exc:
            if count == 1:
                raise
            raise exc.reworded(f"board {index:,} of {count:,}: {exc}") from exc
        if note is not None:
            note.clear()
        yield item


def _generate(args: argparse.Namespace) -> str | None:
    """Make the boards and write each as soon as it is made, in index order: printed (text or
    JSON lines), or into ``--out``. Returns the summary line for files, None when printed."""
    width, height, mines = _size(args)
    if args.format == "mbf" and not args.out:
        raise _usage("--format", "mbf writes files: give the folder with --out DIR")
    _check_jobs(args)
    board = Board(width, height)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    request = BatchRequest(
        board,
        mines,
        args.start,
        args.at,
        args.max_level,
        args.min_level,
        seed,
        args.reveal,
        args.sampler,
    )
    with _usage_of_board_arguments():
        request.check()
    folder = _folder(args.out, "--out", args.force)

    def show(item: BatchItem) -> str:
        return item.to_text(seed) if args.format == "text" else json.dumps(item.to_json(seed))

    note = _BoardNote() if sys.stderr.isatty() else None
    with (
        _try_exact(args),
        _executor(args.scheduler) as executor,
        closing(iter_batch(request, args.count, args.jobs, executor, note)) as made,
    ):
        boards = _noted(made, note, args.count)
        if folder is None:
            # Printed boards show their own progress on a terminal; a bar would cut them.
            progress = None if sys.stdout.isatty() else _progress(args.count)
            try:
                _print_boards(boards, show, sys.stdout, progress)
            except _WriteFailed as exc:
                raise _stdout_failed(exc.error) from exc.error
            return None
        progress = _progress(args.count)
        if args.format == "mbf":
            return _write_mbf(folder, boards, seed, _digits(args.count), progress)
        path = folder / ("boards.jsonl" if args.format == "json" else "boards.txt")
        try:
            raw = path.open("wb", buffering=0)
        except OSError as exc:
            raise ArgumentError(f"cannot write {path}: {exc.strerror or exc}") from exc

        def drop_if_empty() -> None:
            # A run stopped before its first board leaves no file to refuse the next.
            if path.stat().st_size == 0:
                path.unlink()

        try:
            with on_stop(drop_if_empty), raw:
                done = _print_boards(boards, show, _WholeLines(raw), progress)
        except _WriteFailed as exc:
            error = exc.error
            raise ArgumentError(f"cannot write {path}: {error.strerror or error}") from error
        return f"wrote {counted(done, 'board')} to {path}"


@contextmanager
def _try_exact(args: argparse.Namespace) -> Iterator[None]:
    """Add to the error of a search with a window of levels that did not sample exactly the
    advice to try ``--sampler exact``: where the local search misses a rare grade (beginner's
    level 4 alone, half the time), rejection finds it (every time, in about 4 s: see the
    README's ``generate``). The library's message does not say it: the web app's boards take
    no sampler."""
    try:
        yield
    except GenerationError as exc:
        window = args.min_level > 0 or args.max_level < 5
        if not window or args.sampler == "exact" or exc.guess_free is not None:
            raise
        advice = "--sampler exact draws layouts uniformly and may find one"
        raise exc.reworded(f"{exc}; {advice}") from exc


class _WriteFailed(Exception):
    """Writing a board failed (not making it): ``error`` is the ``OSError`` of the write."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _Lines(Protocol):
    """Where boards are printed: standard output, or a file of :class:`_WholeLines`."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class _WholeLines:
    """A file written straight to the system that keeps only whole writes: when one fails
    (a full disk), the file is cut back to the end of the write before it, and the error
    raised, so a file of boards ends with a whole board."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.whole = 0

    def write(self, text: str, /) -> int:
        """Write ``text`` (UTF-8) whole; return its length. Raises ``OSError`` when it cannot
        be, with the file cut back to what was whole."""
        encoded = text.encode("utf-8")
        data = memoryview(encoded)
        try:
            while data:
                data = data[self.raw.write(data) or 0 :]
        except OSError:
            with suppress(OSError):
                self.raw.truncate(self.whole)
            raise
        self.whole += len(encoded)
        return len(text)

    def flush(self) -> None:
        """Nothing to do: every write went to the system."""


def _print_boards(
    boards: Iterable[BatchItem],
    show: Callable[[BatchItem], str],
    out: _Lines,
    progress: Callable[[int], None] | None,
) -> int:
    """Write each board to ``out`` as it comes, whole (one write, then a flush); return how many.

    Raises :class:`_WriteFailed` when ``out`` cannot be written (``BrokenPipeError`` when its
    reader left), and what making the boards raises.
    """
    done = 0
    for item in boards:
        try:
            out.write(show(item) + "\n")
            out.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _WriteFailed(exc) from exc
        done += 1
        if progress:
            progress(done)
    return done


def _progress(total: int) -> Callable[[int], None] | None:
    """Return a progress callback drawing a bar on standard error, or None when not a terminal."""
    if total < 2 or not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        _bar(done, total)

    return show


def _digits(count: int) -> int:
    """Return the digits of a file number among ``count`` files: 5, or more for more files.

    >>> _digits(100), _digits(1_000_000)
    (5, 7)
    """
    return max(5, len(str(count)))


def _make_folder(folder: Path, flag: str) -> Path:
    """Return ``folder``, made if needed; raises ``ArgumentError`` naming ``flag`` when it cannot
    be (a file in the way, no permission)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise ArgumentError(f"{flag} {folder}: not a folder (a file has that name)") from None
    except OSError as exc:
        raise ArgumentError(
            f"{flag} {folder}: cannot create the folder: {exc.strerror or exc}"
        ) from exc
    return folder


_RUN_FILE = re.compile(
    r"(board-[0-9]+\.mbf|game-[0-9]+\.json|manifest\.jsonl|boards\.jsonl|boards\.txt)(\.tmp)?"
)
"""The names of the files a run of ``generate --out`` or ``bench --record`` writes, and of
their temporary files."""


def _folder(name: str | None, flag: str, force: bool) -> Path | None:
    """Return the folder ``name`` of option ``flag`` claimed for this run (see
    :func:`_claim_folder`), or None when it is not given. Raises ``UsageError`` naming
    ``--force`` when it is given without the folder it replaces files in, and what
    :func:`_claim_folder` raises."""
    if not name:
        if force:
            raise _usage("--force", f"replaces the files in the {flag} folder: give {flag} DIR")
        return None
    return _claim_folder(Path(name), flag, force)


def _claim_folder(folder: Path, flag: str, force: bool) -> Path:
    """Return ``folder`` for the files of one run, made if needed.

    A folder holds the files of one run, never a mix of two. One that already holds files a
    run writes (:data:`_RUN_FILE`: boards, games, a manifest, their temporary files) is refused
    before any work is done, unless ``force``: then they are removed first, and a line on
    standard error says how many. Other files are left as they are. Raises ``ArgumentError``
    naming ``flag`` when the folder cannot be made or read, holds such files without ``force``,
    or one of them cannot be removed.
    """
    _make_folder(folder, flag)
    try:
        earlier = sorted(
            entry.name for entry in folder.iterdir() if _RUN_FILE.fullmatch(entry.name)
        )
    except OSError as exc:
        raise ArgumentError(
            f"{flag} {folder}: cannot read the folder: {exc.strerror or exc}"
        ) from exc
    if not earlier:
        return folder
    if not force:
        shown = ", ".join(earlier[:3])
        if len(earlier) > 3:
            shown += f" and {len(earlier) - 3:,} more"
        raise ArgumentError(
            f"{flag} {folder} holds the files of an earlier run ({shown}): "
            "give a new or empty folder, or --force to replace them",
            name=flag,
        )
    for name in earlier:
        _remove(folder / name)
    print(
        f"mineproof: removed {counted(len(earlier), 'file')} of an earlier run from {folder}",
        file=sys.stderr,
    )
    return folder


def _write_mbf(
    folder: Path,
    boards: Iterable[BatchItem],
    seed: int,
    digits: int,
    progress: Callable[[int], None] | None,
) -> str:
    """Write one MBF per board as each comes, and its line of the manifest right after it.

    The folder holds no earlier run's files (see :func:`_claim_folder`). Each file is written
    whole (through a temporary file) and the manifest lists exactly the files written, also
    when an error or Ctrl+C stops the run (see :func:`_agree`). Returns the summary line;
    raises ``ArgumentError`` when a file cannot be written, and what making the boards raises.
    """
    manifest = folder / "manifest.jsonl"
    done = 0
    try:
        with (
            on_stop(lambda: _agree(folder, manifest)),
            manifest.open("w", encoding="utf-8") as listing,
        ):
            for item in boards:
                path = folder / f"board-{item.index + 1:0{digits}d}.mbf"
                line = json.dumps({"file": path.name, **item.to_json(seed, layout=False)})
                _write_bytes(path, format_mbf(item.generated.layout))
                listing.write(line + "\n")
                listing.flush()
                done += 1
                if progress:
                    progress(done)
    except OSError as exc:
        raise ArgumentError(f"cannot write {manifest}: {exc.strerror or exc}") from exc
    return f"wrote {counted(done, 'board')} and manifest.jsonl to {folder}"


def _agree(folder: Path, manifest: Path) -> None:
    """Make the boards in ``folder`` and the lines of ``manifest`` agree after a run stopped
    early, wherever it stopped (a Ctrl+C may come between a board and its line, or after a
    line was handed to the file and before the code knew it): a line cut short, or naming no
    board file, is dropped, and a board the manifest does not list is removed; a manifest
    that lists no board is removed too, so a run stopped before its first board leaves no file
    to refuse the next run. Raises ``OSError`` when a file cannot be read, removed or
    written."""
    listing = manifest.read_text(encoding="utf-8")
    kept = []
    for line in listing.splitlines(keepends=True):
        with suppress(ValueError, KeyError, TypeError):
            if line.endswith("\n") and (folder / json.loads(line)["file"]).is_file():
                kept.append(line)
    names = {json.loads(line)["file"] for line in kept}
    for path in folder.iterdir():
        board = _RUN_FILE.fullmatch(path.name) and path.name.startswith("board-")
        if board and path.name not in names:
            path.unlink(missing_ok=True)
    text = "".join(kept)
    if not text:
        manifest.unlink()
    elif listing != text:
        _write_bytes(manifest, text.encode("utf-8"))


def _remove(path: Path) -> None:
    """Remove the file ``path`` and its temporary file, if they are there; raises
    ``ArgumentError`` when one is there and cannot be removed."""
    for file in (path, path.with_name(path.name + ".tmp")):
        try:
            file.unlink(missing_ok=True)
        except OSError as exc:
            raise ArgumentError(f"cannot remove {file}: {exc.strerror or exc}") from exc


def _write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole (through a temporary file), or raise ``ArgumentError``.

    Nothing is left behind when the write fails or is interrupted: ``path`` is the new data or
    what it was before.
    """
    if not path.name or path.is_dir():
        raise ArgumentError(f"cannot write {path}: is a directory")
    tmp = path.with_name(path.name + ".tmp")
    try:
        with on_stop(lambda: tmp.unlink(missing_ok=True)):  # no temporary file left
            tmp.write_bytes(data)
            tmp.replace(path)
    except OSError as exc:
        raise ArgumentError(f"cannot write {path}: {exc.strerror or exc}") from exc


def _one_line(text: str) -> str:
    r"""Return ``text`` with its control characters escaped, so that an error stays one line
    whatever a file's name holds.

    >>> _one_line("mineproof: error: ri\nng.txt: no such file")
    'mineproof: error: ri\\nng.txt: no such file'
    """
    return "".join(
        c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) == "Cc" else c
        for c in text
    )


def _names(cells: list[tuple[int, int]]) -> str:
    return " ".join(cell_name(x, y) for x, y in cells) if cells else "none"


_SAFEST_SHOWN = 5
"""How many of the safest cells ``analyze`` names when nothing is forced safe."""


def _besides(analysis: Analysis) -> str:
    """Return ", besides N trusted flags" when the analysis takes flags as mines (they are no
    covered cells it weighs, so the mines it lists leave them out), or nothing."""
    flags = analysis.position.flag_count
    return f", besides {counted(flags, 'trusted flag')}" if analysis.trust_flags and flags else ""


def _analysis_text(analysis: Analysis) -> str:
    position = analysis.position
    lines = [
        f"{position.width}x{position.height}, {counted(position.mines, 'mine')}, "
        f"{counted(position.covered_count, 'covered cell')}"
        + (f", {counted(position.flag_count, 'flag')}" + " (trusted)" * analysis.trust_flags)
        * bool(position.flag_count),
        "",
        analysis_grid(analysis),
        "",
        "S safe in every arrangement, M mine in every arrangement, F flag, NN% mine probability",
        f"arrangements: {readable(analysis.arrangements)}",
        f"safe in every arrangement ({len(analysis.safe_cells)}): {_names(analysis.safe_cells)}",
        f"mine in every arrangement ({len(analysis.mine_cells)}{_besides(analysis)}): "
        f"{_names(analysis.mine_cells)}",
    ]
    if not analysis.safe_mask:
        board = position.board
        ranked = sorted(
            (n, i)
            for i, n in enumerate(analysis.mine_counts)
            if 0 <= n < analysis.arrangements  # a certain mine is no guess
            and not (analysis.trust_flags and position.flag_mask >> i & 1)
        )
        best = ranked[:_SAFEST_SHOWN]
        if best:
            shown = ", ".join(
                f"{board.name(i)} ({percent(n / analysis.arrangements)})" for n, i in best
            )
            rest = len(ranked) - len(best)
            more = f", then {counted(rest, 'more covered cell')}, none safer" if rest else ""
            lines.append(f"nothing is forced safe; safest cells: {shown}{more}")
    statuses = analysis.flag_status()
    if statuses and not analysis.trust_flags:
        lines.append(
            "flags: " + ", ".join(f"{cell_name(*xy)} {status}" for xy, status in statuses.items())
        )
    return "\n".join(lines)


def _solve_json(result: SolveResult) -> dict[str, Any]:
    return {
        "solved": result.solved,
        "start": list(result.start),
        "opened_count": result.revealed,
        "safe_count": result.safe_cells,
        "rounds": result.steps,
        "position": result.position.text(),
    }


def _solve_text(result: SolveResult) -> str:
    x, y = result.start
    head = (
        f"solved from {cell_name(x, y)} ({x}, {y}): all {counted(result.safe_cells, 'safe cell')} "
        f"opened in {counted(result.steps, 'round')} of deduction, no guess needed"
        if result.solved
        else f"stuck after {counted(result.steps, 'round')} of deduction from {cell_name(x, y)} "
        f"({x}, {y}): "
        f"{result.revealed} of {counted(result.safe_cells, 'safe cell')} opened; a guess is needed "
        "here"
    )
    if result.solved:
        return head
    return head + "\n\n" + result.position.text()


def _run(args: argparse.Namespace) -> str | None:
    if args.command == "hint":
        return _hint(args)
    if args.command == "explain":
        return _explain(args)
    if args.command == "grade":
        return _grade(args)
    if args.command == "generate":
        return _generate(args)
    if args.command == "bench":
        return _bench(args)
    if args.command == "replay":
        return _replay(args)
    if args.command == "review":
        return _review(args)
    if args.command == "analyze":
        position = _position(args)
        analysis = analyze(position, trust_flags=args.trust_flags)
        if args.json:
            return json.dumps(analysis.to_json())
        return _analysis_text(analysis)
    layout = _layout(args)
    result = solve(layout, args.start)
    return json.dumps(_solve_json(result)) if args.json else _solve_text(result)


def _play(args: argparse.Namespace) -> int:
    """Run the web app until interrupted; a one-line error when it cannot start (the address is
    taken, the data folder is unusable or used by another server, its database is damaged or
    read-only, the worker processes cannot start)."""
    try:
        if args.data is not None:  # a file in the way is named as such, not "File exists"
            _make_folder(args.data, "--data")
        run(args.host, args.port, args.data, open_browser=not args.no_browser, quiet=args.quiet)
    except MineproofError as exc:
        print(f"mineproof: error: {exc}", file=sys.stderr)
        return exit_status(exc)
    except sqlite3.Error as exc:
        from mineproof.web import default_data_dir

        database = (args.data or default_data_dir()) / "mineproof.sqlite3"
        print(f"mineproof: error: {database}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        where = exc.filename or f"cannot listen on {args.host}:{args.port}"
        print(f"mineproof: error: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except RuntimeError as exc:
        print(f"mineproof: error: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 bad input, 2 usage, 130 Ctrl+C,
    141 when the reader of standard output left before the end).

    Sets this process's garbage-collection policy (:func:`mineproof.parallel.collect_less`).
    """
    collect_less()
    try:
        with stderr_never_fails():
            return _main(argv)
    except KeyboardInterrupt:
        # Ctrl+C ends any command quietly, with the status a shell gives an interrupted one.
        _end_bar()
        return INTERRUPTED
    except BrokenPipeError:
        # The reader left (`mineproof explain ... | head`): stop quietly, with the status a
        # shell gives a command that a closed pipe ended (as `yes | head` does), not that of an
        # error; and keep Python from failing again when it flushes standard output at exit.
        drop_stdout()
        return PIPE_CLOSED


PIPE_CLOSED = 128 + 13
"""The exit status when the reader of standard output left before the end: 128 + SIGPIPE."""


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "play":
        return _play(args)
    try:
        # Never inside compiled code (see mineproof.interrupt); a bar cut short is ended
        # before any error line, whatever stops the command.
        with deferred_interrupt(), on_stop(_end_bar):
            out = _run(args)
    except UsageError as exc:
        return _usage_error(f"mineproof {args.command}", exc)
    except MineproofError as exc:
        # Commands that read no file (generate, bench) name no source in their errors.
        source = getattr(args, "file", None)
        # The source is named for what was read from it, not for a bad argument (but a
        # missing ms-toollib is about the file it could not read).
        about_source = not isinstance(exc, ArgumentError) or exc.name == "ms-toollib"
        where = (
            ""
            if source is None or not about_source
            else "standard input: "
            if source == "-"
            else f"{source}: "
        )
        print(_one_line(f"mineproof: error: {where}{exc}"), file=sys.stderr)
        # generate's JSON is asked for as a format: when it goes to standard output (not to
        # files under --out), its errors come as JSON too.
        as_json = getattr(args, "format", None) == "json" and getattr(args, "out", None) is None
        if getattr(args, "json", False) or as_json:
            try:
                _emit(json.dumps(exc.to_json()))
            except BrokenPipeError:
                # Its reader left; the error is still the command's status (and was said).
                drop_stdout()
        return exit_status(exc)
    except BrokenPipeError:
        raise
    except OSError as exc:
        # The system refused something no input asked for (too many open files to start a
        # pool, a cluster's connection closed): one line, as every error.
        what = f"{exc.filename}: " if exc.filename else ""
        print(_one_line(f"mineproof: error: {what}{exc.strerror or exc}"), file=sys.stderr)
        return 1
    if out is not None and not _emit(out):
        return 1
    return 1 if getattr(args, "failed", False) else 0


def _emit(text: str) -> bool:
    """Print ``text`` on standard output; return False, with the error line on standard error,
    when it cannot be written (a full disk). Raises ``BrokenPipeError`` when its reader left."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        raise
    except OSError as exc:
        print(_one_line(f"mineproof: error: {_stdout_failed(exc)}"), file=sys.stderr)
        return False
    return True


def _stdout_failed(exc: OSError) -> MineproofError:
    """Return the error of standard output that could not be written (a full disk), and send
    what is left to write to nowhere, so that Python does not fail again at exit."""
    drop_stdout()
    return MineproofError(f"cannot write standard output: {exc.strerror or exc}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
