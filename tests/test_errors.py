"""The one table of errors: every kind has its exit status and HTTP status, the most specific
entry wins, and every kind is a ValueError (LookupError too for "not found")."""

from __future__ import annotations

import importlib
import json
import pickle
import pkgutil
import re

import pytest

import mineproof
from mineproof.analysis.counting import CountTooLarge
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
from mineproof.logic.ladder import CombinationTooLarge
from mineproof.logic.linear import RelaxationTooLarge
from mineproof.logic.steps import GradeTooComplex
from mineproof.web.games import GameNotFound
from mineproof.web.work import ImpossiblePosition

CASES: list[tuple[MineproofError, int, int]] = [
    (FormatError("bad", line=2, column=3), 1, 400),
    (FormatError("row 2", line=3, reason="row-count", details={"expected": 3, "found": 2}), 1, 400),
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


CONFLICT = InconsistentPositionError("no arrangement", clues=((1, 1), (2, 1)), uses_mine_total=True)
SAMPLES: list[MineproofError] = [error for error, _, _ in CASES] + [
    CountTooLarge(312, 590, 16_000_000, groups=3),
    RelaxationTooLarge(40, 90, 16_000_000),
    CombinationTooLarge(70),
    GradeTooComplex(1_234),
    GenerationError("no board", size="30x16", layouts=3, changes=40, steps=900, guess_free=0),
    ImpossiblePosition(CONFLICT, {"width": 2, "height": 1}),
]


def _classes(cls: type[MineproofError]) -> set[type[MineproofError]]:
    return {cls}.union(*(_classes(sub) for sub in cls.__subclasses__()))


def test_every_error_class_of_the_package_has_a_sample() -> None:
    for module in pkgutil.walk_packages(mineproof.__path__, "mineproof."):
        if module.name.split(".")[-1] != "__main__":
            importlib.import_module(module.name)
    ours = {c for c in _classes(MineproofError) if c.__module__.startswith("mineproof.")}
    assert ours <= {type(e) for e in SAMPLES}, ours - {type(e) for e in SAMPLES}


@pytest.mark.parametrize("error", SAMPLES, ids=lambda e: type(e).__name__)
def test_each_error_pickles_as_itself_with_its_data(error: MineproofError) -> None:
    """An error raised in a worker process (the web app's pool, --jobs, Dask) reaches the
    caller with its class, message and data: their constructors take the data, not the
    message, so pickle's default way (calling the class with the message) fails."""
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error) and back.args == error.args
    assert vars(back) == vars(error)
    assert (exit_status(back), http_status(back)) == (exit_status(error), http_status(error))


_JSON_DATA: list[tuple[type[MineproofError], dict[str, object]]] = [
    # The most specific first, as STATUS orders them.
    (
        ImpossiblePosition,
        {"clues": None, "uses_mine_total": None, "minimal": None, "position": None},
    ),
    (InconsistentPositionError, {"clues": None, "uses_mine_total": None, "minimal": None}),
    (TooComplexError, {"size": None}),
    (IllegalMoveError, {"cell": None}),
    (ArgumentError, {"name": None, "allowed": None}),
    (FormatError, {"line": None, "column": None, "reason": None, "details": None}),
    (MineproofError, {}),
]


@pytest.mark.parametrize("error", SAMPLES, ids=lambda e: type(e).__name__)
def test_each_error_has_one_json_shape_with_every_key_of_its_kind(error: MineproofError) -> None:
    """The command line's --json and the web API print an error in one shape (the command line
    named the argument ``argument``, had no ``kind``, and left out a missing line)."""
    data = error.to_json()
    assert json.loads(json.dumps(data)) == data
    keys = next(d for cls, d in _JSON_DATA if isinstance(error, cls))
    assert list(data) == ["error", "kind", *keys]
    assert (data["error"], data["kind"]) == (str(error), error.kind)
    for name, value in data.items():
        if name in ("clues", "cell", "allowed") and value is not None:
            # Cells and ranges as JSON arrays, as everywhere else.
            assert isinstance(value, list)
        elif name not in ("error", "kind"):
            # The attribute, or null where it is not known (an empty size).
            attribute = getattr(error, name)
            assert value == attribute or (value is None and attribute in (None, ""))


def test_a_format_reason_carries_exactly_its_details() -> None:
    """A reason a client words has a fixed set of values (the page's placeholders): a raise
    that gives other values is the caller's mistake, caught where it is made."""
    error = FormatError("x", reason="cell-code", details={"code": "?"})
    assert error.to_json()["details"] == {"code": "?"}
    assert FormatError("x").to_json()["details"] == {}
    for reason, details in [("cell-code", {}), ("row-count", {"found": 2}), ("new", {})]:
        with pytest.raises(TypeError, match=reason):
            FormatError("x", reason=reason, details=details)  # type: ignore[arg-type]
    # The details in any order.
    shuffled = FormatError("x", reason="row-count", details={"found": 2, "expected": 3})
    assert shuffled.details == {"found": 2, "expected": 3}
