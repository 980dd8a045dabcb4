"""An Analysis as a value: its text, and copies and pickles of the compiled class."""

from __future__ import annotations

import copy
import pickle

from mineproof.analysis import Analysis, analyze
from mineproof.position import Position


def test_an_analysis_copies_and_pickles_as_itself() -> None:
    """The compiled frozen dataclass cannot be rebuilt field by field (FrozenInstanceError):
    it says how to rebuild itself."""
    analysis = analyze(Position.parse("4x3x3\n001H\n112H\nHHHH"), trust_flags=True)
    pickled = pickle.loads(pickle.dumps(analysis))
    for again in (copy.copy(analysis), copy.deepcopy(analysis), pickled):
        assert type(again) is Analysis and again == analysis
        assert again.probabilities() == analysis.probabilities()


def test_the_text_of_an_analysis_evaluates_back_and_stays_short_on_a_big_board() -> None:
    names = {"analyze": analyze, "Position": Position}
    for text, trusted in (("3x1x1\n1H1", False), ("4x3x3\n001H\n112H\nHHHF", True)):
        analysis = analyze(Position.parse(text), trust_flags=trusted)
        assert eval(repr(analysis), names) == analysis
    # 65,025 covered cells and 30,000 mines: counts of about 15,000 digits, past the 4,300
    # that str writes.
    position = Position.parse("255x255x30000\n" + ("H" * 255 + "\n") * 255)
    assert repr(analyze(position)) == f"analyze({position!r})"
