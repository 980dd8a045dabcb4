"""The rules of Minesweeper: a mutable :class:`Game` over a hidden mine layout.

A game opens cells (flood-filling through zeros), places flags, chords on numbers, and ends when a
mine is revealed (``lost``) or every safe cell is open (``won``). A game may start on a known
:class:`~mineproof.board.Layout`, or draw its layout at the first reveal so that the first click
follows a first-click rule (``safe``, ``opening`` or ``none``).

Cells are ints ``i = y * width + x``; :meth:`Game.reveal` and :meth:`Game.chord` return the
indices they opened.

>>> from mineproof.board import Board, Layout
>>> game = Game(Layout.from_cells(Board(3, 3), [(2, 2)]))
>>> game.reveal(0, 0)
[0, 1, 3, 4, 2, 5, 6, 7]
>>> game.state
'won'
>>> print(game)
3x3x1
000
011
01H
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Literal

from mineproof.board import (
    Board,
    FirstClick,
    Layout,
    cell_name,
    check_first_click,
    check_room,
    iter_bits,
)
from mineproof.errors import ArgumentError, GameOverError, IllegalMoveError, check_rng
from mineproof.position import COVERED, FLAG, Position

__all__ = ["Game", "GameState"]

GameState = Literal["playing", "won", "lost"]


def _mask_of(cells: list[int], size: int) -> int:
    """Return the bitmask of ``cells`` (distinct indices below ``size``)."""
    if len(cells) < 64:
        mask = 0
        for c in cells:
            mask |= 1 << c
        return mask
    # Many cells on a wide board: OR-ing one bit at a time copies the big int each time.
    digits = bytearray(b"0") * size
    for c in cells:
        digits[size - 1 - c] = 49  # ord("1")
    return int(digits, 2)


class Game:
    """One game of Minesweeper: the rules applied to a hidden layout, changed by moves.

    ``Game(layout)`` starts a game on a known layout; :meth:`Game.new` starts one whose layout is
    drawn at the first reveal. Moves outside the board or after the end raise
    :class:`~mineproof.errors.IllegalMoveError`.
    """

    __slots__ = (
        "_board",
        "_codes",
        "_exploded",
        "_fatal_flag",
        "_flags",
        "_layout",
        "_lists",
        "_mines",
        "_numbers",
        "_opened",
        "_position",
        "_positive",
        "_rng",
        "_rule",
        "_safe_left",
        "_state",
        "_strict",
    )

    def __init__(self, layout: Layout, *, strict_flags: bool = False) -> None:
        """Start a game on the known ``layout``, every cell covered. With ``strict_flags`` a
        flag on a cell with no mine loses the game (as in Explainable Minesweeper). Raises
        ``TypeError`` when ``layout`` is not a :class:`~mineproof.board.Layout`."""
        if not isinstance(layout, Layout):
            # A Position is what a player sees, not where the mines are: name the way to a game.
            raise TypeError(
                f"Game takes a Layout (where the mines are), not {type(layout).__name__}; "
                "Game.new(board, mines, rng=...) draws one"
            )
        self._setup(layout.board, layout.mine_count)
        self._set_layout(layout)
        self._strict = strict_flags

    def _setup(self, board: Board, mines: int) -> None:
        self._board = board
        self._mines = mines
        self._codes: list[int] = [COVERED] * board.size
        self._lists = board.neighbour_lists()
        self._layout: Layout | None = None
        self._numbers: tuple[int, ...] = ()
        self._positive = 0
        self._rng: random.Random | None = None
        self._rule: FirstClick = "none"
        self._opened = 0
        self._flags = 0
        self._safe_left = board.size - mines
        self._exploded: int | None = None
        self._fatal_flag: int | None = None
        self._strict = False
        # A board without safe cells has nothing left to open: it is won from the start.
        self._state: GameState = "playing" if self._safe_left else "won"
        self._position: Position | None = None

    def _set_layout(self, layout: Layout) -> None:
        self._layout = layout
        self._numbers = layout.numbers()
        positive = 0
        for i, n in enumerate(self._numbers):
            if n > 0:
                positive |= 1 << i
        self._positive = positive

    @classmethod
    def new(
        cls,
        board: Board,
        mines: int,
        rng: random.Random,
        rule: FirstClick = "safe",
    ) -> Game:
        """Return a game of ``mines`` mines whose layout is drawn at the first reveal.

        The layout is ``Layout.random(board, mines, rng, start=first_click, rule=rule)``, so the
        first revealed cell is mine-free (``safe``), has no mine around it either (``opening``)
        or may be a mine (``none``). The same ``rng`` state and first click give the same layout.

        Raises ``ArgumentError`` for an unknown rule, or when ``mines`` does not fit outside the
        start area of every possible first click (so that any first click can be played), and
        ``TypeError`` when ``rng`` is not a ``random.Random``.

        >>> game = Game.new(Board(9, 9), 10, random.Random(1), rule="opening")
        >>> game.position().covered_count
        81
        """
        check_first_click(rule)
        check_rng(rng)
        # The largest start area: one cell, or the biggest 3x3 block that fits on the board.
        largest_area = {
            "none": 0,
            "safe": 1,
            "opening": min(board.width, 3) * min(board.height, 3),
        }[rule]
        where = f" outside the {rule} start area" if rule != "none" else ""
        check_room(board, mines, board.size - largest_area, where)
        game = cls.__new__(cls)
        game._setup(board, mines)
        game._rng = rng
        game._rule = rule
        return game

    # --- properties -----------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """Return the board geometry."""
        return self._board

    @property
    def mines(self) -> int:
        """Return the total number of mines."""
        return self._mines

    @property
    def state(self) -> GameState:
        """Return ``"playing"``, ``"won"`` or ``"lost"``."""
        return self._state

    @property
    def is_over(self) -> bool:
        """Return whether the game has ended (won or lost)."""
        return self._state != "playing"

    @property
    def mines_left(self) -> int:
        """Return the mine total minus the flags placed (negative with too many flags)."""
        return self._mines - self._flags.bit_count()

    @property
    def opened_mask(self) -> int:
        """Return the bitmask of opened cells (a mine is never opened, even the exploded one)."""
        return self._opened

    @property
    def flag_mask(self) -> int:
        """Return the bitmask of flagged cells."""
        return self._flags

    @property
    def exploded(self) -> int | None:
        """Return the index of the mine that lost the game, or ``None``."""
        return self._exploded

    @property
    def fatal_flag(self) -> int | None:
        """Return the index of the flag that lost the game under ``strict_flags`` (a flag on a
        cell with no mine), or ``None``."""
        return self._fatal_flag

    @property
    def strict_flags(self) -> bool:
        """Return whether a flag on a cell with no mine loses the game."""
        return self._strict

    @property
    def layout(self) -> Layout:
        """Return the mine layout.

        Raises ``IllegalMoveError("no layout yet")`` before the first reveal of a game made by
        :meth:`new`.
        """
        if self._layout is None:
            raise IllegalMoveError("no layout yet")
        return self._layout

    # --- the player's view ----------------------------------------------------------------

    def position(self) -> Position:
        """Return what the player sees: numbers of opened cells, flags, covered cells, mines.

        The position never shows a mine: the exploded mine of a lost game stays covered. It is
        built once per change of the game and shared until the next move.
        """
        if self._position is None:
            board = self._board
            covered = board.full_mask & ~self._opened
            self._position = Position.unchecked(
                board,
                tuple(self._codes),
                self._mines,
                covered,
                self._flags,
                self._opened & self._positive,
            )
        return self._position

    def __str__(self) -> str:
        return self.position().text()

    def __repr__(self) -> str:
        b = self._board
        return (
            f"<Game {b.width}x{b.height}/{self._mines} {self._state}: "
            f"{self._opened.bit_count()} opened, {self._flags.bit_count()} flagged>"
        )

    # --- moves ----------------------------------------------------------------------------

    def _cell(self, x: int, y: int) -> int:
        """Return the index of ``(x, y)``; raises ``IllegalMoveError`` after the end or outside."""
        if self._state != "playing":
            raise GameOverError(f"the game is over ({self._state})")
        return self._board.move_index(x, y)

    def reveal(self, x: int, y: int) -> list[int]:
        """Open cell ``(x, y)`` and return the indices newly opened, in the order opened.

        A 0 opens its whole connected region of zeros and their neighbours (flags are never
        opened). An opened or flagged cell gives ``[]``. A mine loses the game (``exploded``)
        and gives ``[]``; opening the last safe cell wins it. The first reveal of a game made by
        :meth:`new` draws the layout.

        Raises ``IllegalMoveError`` outside the board or after the end of the game.
        """
        i = self._cell(x, y)
        if self._codes[i] != COVERED:
            return []
        if self._layout is None:
            assert self._rng is not None
            self._set_layout(
                Layout.random(self._board, self._mines, self._rng, start=(x, y), rule=self._rule)
            )
        return self._open((i,))

    def chord_cells(self, x: int, y: int) -> list[int]:
        """Return the cells a chord at ``(x, y)`` would open: the covered unflagged neighbours
        of an opened number that equals its flagged neighbours; ``[]`` otherwise.

        Raises ``IllegalMoveError`` outside the board or after the end of the game.
        """
        i = self._cell(x, y)
        codes = self._codes
        number = codes[i]
        if number <= 0:
            return []
        around = self._lists[i]
        if sum(1 for n in around if codes[n] == FLAG) != number:
            return []
        return [n for n in around if codes[n] == COVERED]

    def chord(self, x: int, y: int) -> list[int]:
        """Open every covered unflagged neighbour of the opened number at ``(x, y)``.

        Acts only when the number equals its flagged neighbours (see :meth:`chord_cells`);
        otherwise, or on a covered cell, does nothing. Returns the indices newly opened, in the
        order opened. A wrong flag loses the game: the safe neighbours are still opened,
        ``exploded`` is the first mine.

        Raises ``IllegalMoveError`` outside the board or after the end of the game.
        """
        return self._open(self.chord_cells(x, y))

    def _open(self, starts: Iterable[int]) -> list[int]:
        """Open ``starts`` in order with flood fill; update the state; return the cells opened."""
        codes = self._codes
        numbers = self._numbers
        lists = self._lists
        out: list[int] = []
        exploded: int | None = None
        for s in starts:
            if codes[s] != COVERED:  # opened by an earlier flood of this move
                continue
            n = numbers[s]
            if n < 0:
                if exploded is None:
                    exploded = s
                continue
            codes[s] = n
            out.append(s)
            if n:
                continue
            # Breadth-first through the zeros, without recursion (boards reach 255x255).
            zeros = [s]
            head = 0
            while head < len(zeros):
                for c in lists[zeros[head]]:
                    if codes[c] == COVERED:  # never FLAG: flags stay shut
                        k = numbers[c]
                        codes[c] = k
                        out.append(c)
                        if not k:
                            zeros.append(c)
                head += 1
        if out or exploded is not None:
            self._position = None
        if out:
            self._opened |= _mask_of(out, self._board.size)
            self._safe_left -= len(out)
        if exploded is not None:
            self._exploded = exploded
            self._state = "lost"
        elif self._safe_left == 0:
            self._state = "won"
        return out

    def flag(self, x: int, y: int) -> None:
        """Flag the covered cell ``(x, y)`` (a flagged cell stays flagged). Under
        ``strict_flags`` a flag on a cell with no mine loses the game (``fatal_flag``).

        Raises ``IllegalMoveError`` on an opened cell, outside the board or after the end.
        """
        i = self._covered(x, y)
        if self._codes[i] != FLAG:
            self._codes[i] = FLAG
            self._flags |= 1 << i
            self._position = None
            if self._strict and self._layout is not None and self._numbers[i] >= 0:
                self._fatal_flag = i
                self._state = "lost"

    def redraw(self, layout: Layout) -> None:
        """Put ``layout`` in place of the hidden layout, for rules that move mines during a
        game (the web app's ``punish_guesses``). It must agree with everything the player has
        seen: the same board and mine total, no mine on an opened cell, the same number on
        each. The cells opened and flagged stay as they are.

        Raises ``ArgumentError`` when ``layout`` does not agree, ``GameOverError`` after the
        end and ``IllegalMoveError`` before the first reveal of a game made by :meth:`new`.
        """
        if self._state != "playing":
            raise GameOverError(f"the game is over ({self._state})")
        if self._layout is None:
            raise IllegalMoveError("no layout yet")
        if layout.board != self._board or layout.mine_count != self._mines:
            raise ArgumentError("the new layout has another board or mine total")
        numbers = layout.numbers()
        for i in iter_bits(self._opened):
            if numbers[i] != self._numbers[i]:
                x, y = self._board.xy(i)
                raise ArgumentError(
                    f"the new layout does not agree with the opened cell ({x}, {y}) "
                    f"[{cell_name(x, y)}]"
                )
        self._set_layout(layout)

    def unflag(self, x: int, y: int) -> None:
        """Remove the flag of the covered cell ``(x, y)`` (an unflagged cell stays unflagged).

        Raises ``IllegalMoveError`` on an opened cell, outside the board or after the end.
        """
        i = self._covered(x, y)
        if self._codes[i] == FLAG:
            self._codes[i] = COVERED
            self._flags &= ~(1 << i)
            self._position = None

    def toggle_flag(self, x: int, y: int) -> bool:
        """Flag or unflag the covered cell ``(x, y)`` and return whether it is flagged now.

        Raises ``IllegalMoveError`` on an opened cell, outside the board or after the end.
        """
        i = self._covered(x, y)
        if self._codes[i] == FLAG:
            self.unflag(x, y)
            return False
        self.flag(x, y)
        return True

    def _covered(self, x: int, y: int) -> int:
        """Return the index of the covered cell ``(x, y)``; raises ``IllegalMoveError``."""
        i = self._cell(x, y)
        if self._codes[i] >= 0:
            raise IllegalMoveError(
                f"cell ({x}, {y}) [{cell_name(x, y)}] is already open", cell=(x, y)
            )
        return i
