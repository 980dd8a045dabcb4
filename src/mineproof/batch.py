"""Batches of guess-free boards, made in parallel and the same whatever the number of jobs.

Board ``i`` of a batch with seed ``S`` draws from ``random.Random(f"mineproof:{S}:{i}")``, so it
depends on nothing but its seed and index; jobs only change which process makes it.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Generator
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from mineproof.board import Board, cell_name
from mineproof.formats import format_layout_text
from mineproof.generate import (
    Generated,
    Progress,
    Sampler,
    StartRule,
    check_arguments,
    check_sampler,
    generate,
)
from mineproof.logic import Engine, Grade, grade
from mineproof.parallel import ordered_map
from mineproof.position import Position

__all__ = [
    "BatchItem",
    "BatchRequest",
    "BoardProgress",
    "board_rng",
    "iter_batch",
    "pre_revealed",
    "run_batch",
]


def board_rng(seed: int, index: int) -> random.Random:
    """Return the random generator of board ``index`` of the batch with ``seed``."""
    return random.Random(f"mineproof:{seed}:{index}")


BoardProgress = Callable[[int, int, int, int], None]
"""Told the work done so far on one board of a batch: ``(index, layouts, changes, steps)``, the
fresh layouts drawn and the changes tried while it is made (see
:data:`~mineproof.generate.Progress`), then the steps of the solve that grades it (0 until
then). Called after each, so it must be quick."""


@dataclass(frozen=True, slots=True)
class BatchRequest:
    """What every board of a batch must be: size, mines, start rule and cell, levels, seed."""

    board: Board
    mines: int
    rule: StartRule
    start: tuple[int, int] | None
    max_level: int
    min_level: int
    seed: int
    reveal: int = 0
    sampler: Sampler = "auto"

    def check(self) -> None:
        """Raise ``ArgumentError`` now for arguments no board can meet, or no sampler takes."""
        check_arguments(
            self.board, self.mines, self.rule, self.start, self.max_level, self.min_level
        )
        check_sampler(self.board, self.sampler)

    def make(self, index: int, progress: BoardProgress | None = None) -> BatchItem:
        """Return board ``index`` of the batch, verified and graded; ``progress`` is told the
        work done on it (see :data:`BoardProgress`). Raises what
        :func:`~mineproof.generate.generate` raises."""
        making: Progress | None = None
        grading: Callable[[int], None] | None = None
        if progress is not None:
            tell, made = progress, [0, 0]

            def making(layouts: int, changes: int) -> None:
                made[:] = layouts, changes
                tell(index, layouts, changes, 0)

            def grading(steps: int) -> None:
                tell(index, made[0], made[1], steps)

        generated = generate(
            self.board,
            self.mines,
            board_rng(self.seed, index),
            rule=self.rule,
            start=self.start,
            max_level=self.max_level,
            min_level=self.min_level,
            sampler=self.sampler,
            progress=making,
        )
        graded = grade(generated.layout, generated.start, grading)
        shown = pre_revealed(generated, self.reveal) if self.reveal else None
        return BatchItem(index, self.rule, generated, graded, shown)


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One board of a batch: its index, start rule, the board and its grade."""

    index: int
    rule: StartRule
    generated: Generated
    grade: Grade
    revealed: Position | None = None

    def to_json(self, seed: int, layout: bool = True) -> dict[str, Any]:
        """Return the board as a JSON-ready object (without the layout rows if not ``layout``)."""
        lay = self.generated.layout
        x, y = self.generated.start
        out: dict[str, Any] = {
            "index": self.index,
            "seed": seed,
            "width": lay.board.width,
            "height": lay.board.height,
            "mines": lay.mine_count,
            "start_rule": self.rule,
            "start": [x, y],
            "sampler": self.generated.sampler,
            "grade": self.grade.to_json(),
        }
        if self.revealed is not None:
            out["revealed"] = [
                list(lay.board.xy(i)) for i, code in enumerate(self.revealed.cells) if code >= 0
            ]
            out["position"] = self.revealed.text()
        if layout:
            out["layout"] = format_layout_text(lay).splitlines()[1:]
        return out

    def to_text(self, seed: int) -> str:
        """Return the board for people: a header line, then the layout text."""
        x, y = self.generated.start
        level = self.grade.level
        hardest = f"level {level}" if level else "level 0 (none: the first click clears the board)"
        text = (
            f"# board {self.index + 1} (seed {seed}): {self.rule} start at ({x}, {y}) "
            f"[{cell_name(x, y)}], hardest technique {hardest}, "
            f"{self.generated.sampler} sampler\n" + format_layout_text(self.generated.layout)
        )
        if self.revealed is not None:
            text += (
                "\n# the board as the player gets it, first moves made:\n" + self.revealed.text()
            )
        return text


def pre_revealed(generated: Generated, rounds: int) -> Position:
    """Return the player's view after the start click and ``rounds`` steps of forced moves
    (each what the lowest level that works proves, see ``Engine.step``).

    A gentler start: the first forced moves are already made (proven mines flagged).
    """
    layout = generated.layout
    i = layout.board.index(*generated.start)
    engine = Engine(layout, i)
    engine.reveal(i)
    for _ in range(rounds):
        if engine.cleared() or not engine.step(5, exact_levels=False):
            break
    return engine.position()


def iter_batch(
    request: BatchRequest,
    count: int,
    jobs: int = 1,
    executor: Executor | None = None,
    progress: BoardProgress | None = None,
) -> Generator[BatchItem, None, None]:
    """Yield ``count`` boards of ``request`` in index order, each as soon as it is made.

    ``jobs`` processes make them (or the ``executor``, a Dask client's ``get_executor()``,
    say); a few boards at most are made ahead of the one yielded, so memory does not grow with
    ``count``. The boards are the same whatever ``jobs``. Close the iterator (or let it go) to
    stop early: the local workers are ended at once. Raises what :meth:`BatchRequest.make`
    raises (``ArgumentError`` when no board meets the request), once the boards before are
    yielded. ``progress``, when the boards are made in this process (one job, no executor), is
    told the work done on each board (see :data:`BoardProgress`); workers elsewhere tell
    nothing.
    """
    if progress is None or jobs > 1 or executor is not None:
        return ordered_map(request.make, range(count), jobs, executor)
    return ordered_map(functools.partial(request.make, progress=progress), range(count))


def run_batch(
    request: BatchRequest,
    count: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> list[BatchItem]:
    """Return ``count`` boards of ``request`` in index order, made by ``jobs`` processes.

    An ``executor`` given (a Dask client's ``get_executor()``, say) is used instead of a local
    process pool. ``progress`` is called with the number of boards done after each one. (To
    handle each board as it is made, without holding them all, use :func:`iter_batch`.)
    """
    items = []
    for item in iter_batch(request, count, jobs, executor):
        items.append(item)
        if progress:
            progress(len(items))
    return items
