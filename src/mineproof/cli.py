"""The ``mineproof`` command line: parses arguments, calls the library, prints the results.

Bad input ends with one line on standard error, ``mineproof: error: ...``, and exit status 1;
a usage error (an unknown flag, a malformed option) exits 2 as argparse does.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mineproof import __version__
from mineproof.analysis import Analysis, analyze
from mineproof.batch import BatchItem, BatchRequest, run_batch
from mineproof.board import LEVELS, Board, cell_name
from mineproof.errors import ArgumentError, FormatError, MineproofError, exit_status
from mineproof.explain import (
    LANGUAGES,
    explain,
    grade_text,
    hint,
    level_name,
)
from mineproof.formats import format_mbf, load_layout, load_position, read_bytes
from mineproof.generate import check_arguments
from mineproof.logic import SolveResult, grade, solve, solve_in_steps
from mineproof.play import BenchRequest, run_bench
from mineproof.play.replay import animation_gif, animation_svg, load_record
from mineproof.render import analysis_grid, analysis_svg, percent, position_svg
from mineproof.web import run

__all__ = ["main"]


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


def _count(text: str) -> int:
    """Return a non-negative int; raises ``ArgumentTypeError`` otherwise."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number from 0, got {text!r}")
    return int(text)


def _position_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of a command that reads a position."""
    parser.add_argument("file", nargs="?", default="-", metavar="FILE", help="position, - stdin")
    parser.add_argument("--mines", type=_count, help="the mine total (needed for ms-toollib grids)")
    parser.add_argument("--trust-flags", action="store_true", help="take every flag as a mine")


def _layout_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of a command that plays a layout from a start cell."""
    parser.add_argument("file", metavar="LAYOUT", help="layout file (MBF or layout text), - stdin")
    parser.add_argument("--start", type=_cell_xy, required=True, metavar="X,Y", help="start cell")


def _size_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --level, or --width/--height/--mines (read back by ``_size``)."""
    size = parser.add_mutually_exclusive_group(required=True)
    size.add_argument("--level", choices=sorted(LEVELS), help="a standard size")
    size.add_argument("--width", type=_count, help="board width (with --height and --mines)")
    parser.add_argument("--height", type=_count, help="board height")
    parser.add_argument("--mines", type=_count, help="number of mines")


def _scheduler_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster (tcp://host:8786; needs the mineproof[cluster] extra)",
    )


@contextmanager
def _executor(address: str | None) -> Iterator[Executor | None]:
    """Yield a Dask cluster's executor for ``address``, or None for local processes."""
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
    try:
        yield client.get_executor()  # type: ignore[no-untyped-call]
    finally:
        client.close()  # type: ignore[no-untyped-call]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
        type=Path,
        metavar="DIR",
        help="where games and statistics are kept (default: the per-user data folder)",
    )
    pl.add_argument("--quiet", action="store_true", help="do not log requests")

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
    hi.add_argument("--svg", metavar="OUT", help="also draw the hint as an SVG file")
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
    ge.add_argument("--start", choices=["opening", "safe"], default="opening", help="start rule")
    ge.add_argument("--at", type=_cell_xy, metavar="X,Y", help="start cell (default: see docs)")
    ge.add_argument("--max-level", type=int, default=5, metavar="L", help="hardest level allowed")
    ge.add_argument("--min-level", type=int, default=1, metavar="L", help="level needed at least")
    ge.add_argument(
        "--reveal", type=_count, default=0, metavar="N", help="make the first N rounds of moves"
    )
    ge.add_argument("--count", type=_count, default=1, metavar="N", help="number of boards")
    ge.add_argument("--seed", type=_count, metavar="S", help="seed (default: a random one, shown)")
    ge.add_argument("--jobs", type=_count, default=1, metavar="J", help="processes to use")
    ge.add_argument("--format", choices=["text", "mbf", "json"], default="text")
    _scheduler_argument(ge)
    ge.add_argument("--out", metavar="DIR", help="folder for MBF files and their manifest")

    be = sub.add_parser(
        "bench",
        help="play many games and report the win rate",
        description="Play many games with a strategy and report games, wins, the win rate with "
        "its 95 %% interval, guesses per game and speed. The result for a seed is the same "
        "whatever --jobs.",
    )
    _size_arguments(be)
    be.add_argument("--rules", choices=["classic", "modern"], default="classic")
    be.add_argument("--strategy", choices=["logic", "safest", "best"], default="best")
    be.add_argument("--games", type=_count, default=1000, metavar="N")
    be.add_argument("--seed", type=_count, default=0, metavar="S")
    be.add_argument("--jobs", type=_count, default=1, metavar="J")
    be.add_argument("--json", action="store_true", help="print one JSON object")
    be.add_argument("--record", metavar="DIR", help="keep every game as JSON in DIR")
    _scheduler_argument(be)

    rp = sub.add_parser(
        "replay",
        help="a recorded game as an animation, move by move",
        description="Check a recorded game (from bench --record) against the rules and draw it "
        "as an animated SVG or GIF (by the name of --out), one move at a time.",
    )
    rp.add_argument("file", metavar="GAME.json", help="a recorded game")
    rp.add_argument(
        "--out", required=True, metavar="OUT.svg|OUT.gif", help="the animation to write"
    )
    rp.add_argument("--speed", type=float, default=0.15, metavar="SECONDS", help="seconds per move")
    rp.add_argument(
        "--scale", type=int, default=1, metavar="N", help="GIF: cells of 16 x N pixels (1-8)"
    )
    return parser


def _write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole, as UTF-8 (see :func:`_write_bytes`)."""
    _write_bytes(Path(path), text.encode("utf-8"))


def _hint(args: argparse.Namespace) -> str:
    position = load_position(read_bytes(args.file), args.mines)
    found = hint(position, args.lang, trust_flags=args.trust_flags, open=args.open)
    if args.svg:
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


def _explain(args: argparse.Namespace) -> str:
    layout = load_layout(read_bytes(args.file))
    steps, result = solve_in_steps(layout, args.start)
    if args.json:
        return json.dumps(
            {
                "steps": [
                    {
                        "number": step.number,
                        **step.deduction.to_json(),
                        "text": explain(step.deduction, args.lang),
                    }
                    for step in steps
                ],
                "grade": result.to_json(),
            },
            ensure_ascii=False,
        )
    lines = []
    for step in steps:
        d = step.deduction
        lines.append(
            f"{step.number}. [{d.level}: {level_name(d.level, args.lang)}] {explain(d, args.lang)}"
        )
    lines.append(grade_text(result.solved, result.level, result.steps, args.lang))
    return "\n".join(lines)


def _grade(args: argparse.Namespace) -> str:
    layout = load_layout(read_bytes(args.file))
    result = grade(layout, args.start)
    if args.json:
        return json.dumps(result.to_json())
    return grade_text(result.solved, result.level, result.steps, args.lang)


def _size(args: argparse.Namespace) -> tuple[int, int, int]:
    """Return (width, height, mines) from --level or --width/--height/--mines."""
    if args.level:
        return LEVELS[args.level]
    if args.height is None or args.mines is None:
        raise ArgumentError("--width needs --height and --mines")
    return args.width, args.height, args.mines


def _bench(args: argparse.Namespace) -> str:
    width, height, mines = _size(args)
    if args.games < 1:
        raise ArgumentError("--games must be at least 1")
    board = Board(width, height)
    check_arguments(board, mines, "opening" if args.rules == "modern" else "safe", None, 5, 1)
    request = BenchRequest(board, mines, args.rules, args.strategy, args.seed, bool(args.record))
    keep = None
    if args.record:
        folder = Path(args.record)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArgumentError(f"cannot create {folder}: {exc.strerror or exc}") from exc

        def keep(record: dict[str, Any]) -> None:
            name = folder / f"game-{record['index'] + 1:05d}.json"
            _write_text(str(name), json.dumps(record) + "\n")

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
    if kind not in (".svg", ".gif"):
        raise ArgumentError(
            f"{args.out}: only SVG or GIF animations can be written (name it .svg or .gif)"
        )
    if not args.speed > 0:
        raise ArgumentError("--speed must be a positive number of seconds")
    if not 1 <= args.scale <= 8:
        raise ArgumentError(f"--scale {args.scale} is outside 1..8")
    data = read_bytes(args.file)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError("not a recorded game: not UTF-8 text") from None
    record = load_record(text)
    if kind == ".gif":
        _write_bytes(Path(args.out), animation_gif(record, args.speed, args.scale))
    else:
        _write_text(args.out, animation_svg(record, args.speed))
    return f"wrote {args.out}: {len(record['moves'])} moves, {record['outcome']}"


def _bench_progress(total: int) -> Callable[[int, int], None] | None:
    """Return a progress bar with the running win rate, or None when not on a terminal."""
    if total < 2 or not sys.stderr.isatty():
        return None

    def show(done: int, wins: int) -> None:
        _bar(done, total, f" won {wins / done if done else 0.0:.1%}")

    return show


def _bar(done: int, total: int, note: str = "") -> None:
    """Draw a progress bar on standard error, ending the line when ``done`` reaches ``total``."""
    filled = done * 30 // total
    end = "\n" if done == total else ""
    print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total}{note}", end=end, file=sys.stderr)


def _generate(args: argparse.Namespace) -> str:
    width, height, mines = _size(args)
    if args.format == "mbf" and not args.out:
        raise ArgumentError("--format mbf writes files: give the folder with --out DIR")
    if args.count < 1:
        raise ArgumentError("--count must be at least 1")
    board = Board(width, height)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    request = BatchRequest(
        board, mines, args.start, args.at, args.max_level, args.min_level, seed, args.reveal
    )
    request.check()
    with _executor(args.scheduler) as executor:
        boards = run_batch(request, args.count, args.jobs, _progress(args.count), executor)
    if args.format == "mbf":
        return _write_mbf(Path(args.out), boards, seed)
    lines = []
    for item in boards:
        if args.format == "json":
            lines.append(json.dumps(item.to_json(seed)))
        else:
            lines.append(item.to_text(seed))
    text = "\n".join(lines)
    if args.out:
        folder = Path(args.out)
        folder.mkdir(parents=True, exist_ok=True)
        name = "boards.jsonl" if args.format == "json" else "boards.txt"
        _write_text(str(folder / name), text + "\n")
        return f"wrote {len(boards)} boards to {folder / name}"
    return text


def _progress(total: int) -> Callable[[int], None] | None:
    """Return a progress callback drawing a bar on standard error, or None when not a terminal."""
    if total < 2 or not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        _bar(done, total)

    return show


def _write_mbf(folder: Path, boards: list[BatchItem], seed: int) -> str:
    """Write one MBF per board and the manifest, each whole or not at all."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ArgumentError(f"cannot create {folder}: {exc.strerror or exc}") from exc
    manifest = []
    for item in boards:
        name = f"board-{item.index + 1:05d}.mbf"
        _write_bytes(folder / name, format_mbf(item.generated.layout))
        manifest.append(json.dumps({"file": name, **item.to_json(seed, layout=False)}))
    _write_text(str(folder / "manifest.jsonl"), "\n".join(manifest) + "\n")
    return f"wrote {len(boards)} boards and manifest.jsonl to {folder}"


def _write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole (through a temporary file), or raise ``ArgumentError``."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ArgumentError(f"cannot write {path}: {exc.strerror or exc}") from exc


def _names(cells: list[tuple[int, int]]) -> str:
    return " ".join(cell_name(x, y) for x, y in cells) if cells else "none"


def _analysis_text(analysis: Analysis) -> str:
    position = analysis.position
    lines = [
        f"{position.width}x{position.height}, {position.mines} mines, "
        f"{position.covered_count} covered cells"
        + (f", {position.flag_count} flags" + (" (trusted)" if analysis.trust_flags else ""))
        * bool(position.flag_count),
        "",
        analysis_grid(analysis),
        "",
        "S safe in every arrangement, M mine in every arrangement, F flag, NN% mine probability",
        f"arrangements: {analysis.arrangements}",
        f"safe in every arrangement ({len(analysis.safe_cells)}): {_names(analysis.safe_cells)}",
        f"mine in every arrangement ({len(analysis.mine_cells)}): {_names(analysis.mine_cells)}",
    ]
    if not analysis.safe_mask:
        board = position.board
        ranked = sorted(
            (n, i)
            for i, n in enumerate(analysis.mine_counts)
            if n >= 0 and not (analysis.trust_flags and position.flag_mask >> i & 1)
        )
        best = ranked[:5]
        if best:
            shown = ", ".join(
                f"{board.name(i)} ({percent(n / analysis.arrangements)})" for n, i in best
            )
            lines.append(f"nothing is forced safe; safest cells: {shown}")
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
        "revealed": result.revealed,
        "safe_cells": result.safe_cells,
        "steps": result.steps,
        "position": result.position.text(),
    }


def _solve_text(result: SolveResult) -> str:
    x, y = result.start
    head = (
        f"solved from {cell_name(x, y)} ({x}, {y}): all {result.safe_cells} safe cells "
        f"opened in {result.steps} steps, no guess needed"
        if result.solved
        else f"stuck after {result.steps} steps from {cell_name(x, y)} ({x}, {y}): "
        f"{result.revealed} of {result.safe_cells} safe cells opened; a guess is needed here"
    )
    if result.solved:
        return head
    return head + "\n\n" + result.position.text()


def _run(args: argparse.Namespace) -> str:
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
    if args.command == "analyze":
        position = load_position(read_bytes(args.file), args.mines)
        analysis = analyze(position, trust_flags=args.trust_flags)
        if args.json:
            return json.dumps(analysis.to_json())
        return _analysis_text(analysis)
    layout = load_layout(read_bytes(args.file))
    result = solve(layout, args.start)
    return json.dumps(_solve_json(result)) if args.json else _solve_text(result)


def _play(args: argparse.Namespace) -> int:
    """Run the web app until interrupted; a one-line error when it cannot start."""
    try:
        run(args.host, args.port, args.data, open_browser=not args.no_browser, quiet=args.quiet)
    except sqlite3.Error as exc:
        print(f"mineproof: error: {args.data or 'data folder'}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        where = exc.filename or f"cannot listen on {args.host}:{args.port}"
        print(f"mineproof: error: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 bad input, 2 usage, 130 Ctrl+C)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # Ctrl+C ends any command quietly, with the status a shell gives an interrupted one.
        return 130
    except BrokenPipeError:
        # The reader left (`mineproof explain ... | head`): stop quietly, and keep Python from
        # failing again when it flushes standard output at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "play":
        return _play(args)
    # Commands that read no file (generate, bench) name no source in their errors.
    source = getattr(args, "file", None)
    try:
        out = _run(args)
    except MineproofError as exc:
        where = "" if source is None else "standard input: " if source == "-" else f"{source}: "
        print(f"mineproof: error: {where}{exc}", file=sys.stderr)
        return exit_status(exc)
    print(out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
