"""Naming a conflict: minimal where the search can finish, bounded and said where it cannot,
on snakes whose every number takes part (checked by the brute force of ``test_brute_force``)."""

from __future__ import annotations

import pytest

import mineproof.analysis.conflict as conflict
from mineproof.analysis import analyze
from mineproof.errors import InconsistentPositionError

from .hostile import snake
from .test_brute_force import check_conflict, satisfiable


def conflict_of(side: int) -> tuple[InconsistentPositionError, list[int]]:
    """Return the error of the broken snake of ``side`` and the cells of all its numbers."""
    position, _ = snake(side, broken=True)
    with pytest.raises(InconsistentPositionError) as caught:
        analyze(position, trust_flags=True)
    numbers = [i for i, v in enumerate(position.cells) if v >= 0]
    return caught.value, numbers


def test_a_broken_snake_names_every_number_of_it() -> None:
    # The first number says two mines where the snake, proven from its far end, leaves one:
    # without any one number the rest fits, so the minimal conflict is all of them.
    err, numbers = conflict_of(7)
    position, _ = snake(7, broken=True)
    assert err.minimal and not err.uses_mine_total
    assert sorted(position.board.index(x, y) for x, y in err.clues) == numbers
    check_conflict(position, True, err)
    assert "not all of them may be needed" not in str(err)


def test_past_its_bound_the_search_names_an_impossible_set_and_says_it_may_be_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(conflict, "CONFLICT_WORK", 40)
    err, _ = conflict_of(7)
    position, _ = snake(7, broken=True)
    named = [position.board.index(x, y) for x, y in err.clues]
    assert not err.minimal
    assert not satisfiable(position, True, named, err.uses_mine_total)
    assert str(err).endswith(
        "(not all of them may be needed: the search for the fewest stopped at its bound)"
    )


def test_a_conflict_of_thousands_of_numbers_is_bounded_and_named_in_one_short_line() -> None:
    # A 255x255 snake: 16,256 numbers and 32,513 flags in the conflict. Before, the search
    # tried every number against all the others (hours); the message named every one.
    err, _ = conflict_of(255)
    assert not err.minimal and (1, 1) in err.clues
    message = str(err)
    assert len(message) < 500 and "\n" not in message
    assert "7 at X2 and 16,244 more numbers together" in message
    flags = "A1, B1, C1, D1, E1, F1, G1, H1, I1, J1, K1, L1 and 32,501 more"
    assert f"and 32,513 trusted flags ({flags})" in message
