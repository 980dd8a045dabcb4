"""The ``mineproof`` command line: parses arguments, calls the library, prints the results.

Bad input ends with one line on standard error, ``mineproof: error: ...``, and exit status 1;
a usage error (an unknown flag, a malformed option) exits 2 as argparse does.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from mineproof import __version__
from mineproof.analysis import Analysis, analyze
from mineproof.board import cell_name
from mineproof.errors import MineproofError
from mineproof.formats import load_layout, load_position, read_bytes
from mineproof.render import analysis_grid, percent
from mineproof.solve import SolveResult, solve

__all__ = ["main"]


def _cell_xy(text: str) -> tuple[int, int]:
    """Return ``(x, y)`` from ``X,Y``; raises ``ArgumentTypeError`` otherwise."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected X,Y (two numbers from 0), got {text!r}")
    return int(parts[0]), int(parts[1])


def _count(text: str) -> int:
    """Return a non-negative int; raises ``ArgumentTypeError`` otherwise."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number from 0, got {text!r}")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mineproof",
        description="Exact Minesweeper analysis: probabilities, forced cells, logic-only solving.",
    )
    parser.add_argument("--version", action="version", version=f"mineproof {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    an = sub.add_parser(
        "analyze",
        help="every covered cell's mine probability and the forced cells of a position",
        description="Analyse a position exactly: each covered cell's mine probability, the "
        "cells safe or mined in every arrangement, the number of arrangements. Reads "
        "JSMinesweeper text or an ms-toollib JSON grid, recognised by content.",
    )
    an.add_argument("file", nargs="?", default="-", metavar="FILE", help="position file, - stdin")
    an.add_argument("--mines", type=_count, help="the mine total (needed for ms-toollib grids)")
    an.add_argument("--trust-flags", action="store_true", help="take flags as mines")
    an.add_argument("--json", action="store_true", help="print one JSON object")

    so = sub.add_parser(
        "solve",
        help="play a layout logic-only from a start cell",
        description="Play a mine layout (MBF, or the */. layout text) as a perfect logician "
        "who knows the mine total, from a start cell, until cleared or stuck.",
    )
    so.add_argument("file", metavar="LAYOUT", help="layout file (MBF or layout text), - stdin")
    so.add_argument("--start", type=_cell_xy, required=True, metavar="X,Y", help="start cell")
    so.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _analysis_json(analysis: Analysis) -> dict[str, Any]:
    position = analysis.position
    return {
        "width": position.width,
        "height": position.height,
        "mines": position.mines,
        "safe": [list(c) for c in analysis.safe_cells],
        "mine": [list(c) for c in analysis.mine_cells],
        "probabilities": analysis.float_probabilities(),
        "arrangements": str(analysis.arrangements),
        "flags": [
            {"cell": list(xy), "status": status} for xy, status in analysis.flag_status().items()
        ],
    }


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
    if args.command == "analyze":
        position = load_position(read_bytes(args.file), args.mines)
        analysis = analyze(position, trust_flags=args.trust_flags)
        if args.json:
            return json.dumps(_analysis_json(analysis))
        return _analysis_text(analysis)
    layout = load_layout(read_bytes(args.file))
    result = solve(layout, args.start)
    return json.dumps(_solve_json(result)) if args.json else _solve_text(result)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 bad input, 2 usage)."""
    args = _parser().parse_args(argv)
    source = getattr(args, "file", "-")
    try:
        out = _run(args)
    except MineproofError as exc:
        where = "standard input" if source == "-" else source
        print(f"mineproof: error: {where}: {exc}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
