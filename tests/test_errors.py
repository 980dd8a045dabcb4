"""The one table of errors: every kind has its exit status and HTTP status, the most specific
entry wins, and every kind is a ValueError (LookupError too for "not found")."""

from __future__ import annotations

import re

import pytest

from mineproof.errors import (
    STATUS,
    ArgumentError,
    FormatError,
    GameNotStartedError,
    GameOverError,
    IllegalMoveError,
    InconsistentPositionError,
    MineproofError,
    NotFoundError,
    TooComplexError,
    UsageError,
    exit_status,
    http_status,
)
from mineproof.generate import GenerationError
from mineproof.web.games import GameNotFound

CASES: list[tuple[MineproofError, int, int]] = [
    (FormatError("bad", line=2, column=3), 1, 400),
    (ArgumentError("cannot write out.svg: Permission denied"), 1, 400),
    (UsageError("--jobs 0 is outside 1..8", name="--jobs"), 2, 400),
    (IllegalMoveError("outside", cell=(9, 9)), 1, 400),
    (GameOverError("the game is over (won)"), 1, 409),
    (GameNotStartedError("the game has not started"), 1, 409),
    (NotFoundError("no such game"), 1, 404),
    (GameNotFound("no such game"), 1, 404),
    (TooComplexError("too complex", size="a group of 400 numbers"), 1, 422),
    (GenerationError("no board"), 1, 422),
    (InconsistentPositionError("no arrangement", clues=((1, 1),), uses_mine_total=False), 1, 422),
    (MineproofError("anything else"), 1, 400),
]


@pytest.mark.parametrize(("error", "exit_code", "http"), CASES, ids=lambda c: type(c).__name__)
def test_each_error_has_its_statuses(error: MineproofError, exit_code: int, http: int) -> None:
    assert (exit_status(error), http_status(error)) == (exit_code, http)
    assert isinstance(error, ValueError)


def test_the_most_specific_entry_comes_first() -> None:
    kinds = [kind for kind, _, _ in STATUS]
    for n, kind in enumerate(kinds):
        for later in kinds[n + 1 :]:
            assert not issubclass(later, kind) or later is kind, (later, kind)
    assert kinds[-1] is MineproofError


def test_not_found_is_a_lookup_error_and_errors_carry_their_data() -> None:
    assert isinstance(NotFoundError("x"), LookupError)
    assert TooComplexError("x", size="y").size == "y"
    assert ArgumentError("x", name="--count").name == "--count"
    assert str(FormatError("no digit", line=2, column=5, excerpt="9x")) == (
        "line 2, column 5: no digit (in '9x')"
    )


def test_each_kind_of_error_has_its_own_name_for_the_web_api() -> None:
    kinds = [entry[0].kind for entry in STATUS]
    assert len(set(kinds)) == len(kinds)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", kind) for kind in kinds)
    assert GenerationError("x").kind == TooComplexError.kind
