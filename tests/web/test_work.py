"""The web app's CPU work as plain functions: here, the hint in play when only mines can be
proven (the rest is tested through the API)."""

from __future__ import annotations

from fractions import Fraction

from mineproof.analysis import analyze
from mineproof.board import iter_bits
from mineproof.position import Position
from mineproof.web.work import hint, hint_json

# A random beginner board after its first click: the numbers prove mines, no safe cell.
ONLY_MINES = Position.parse(
    "9x9x10\nHHHHHHHHH\nHHHHHHHHH\nHHH211HHH\nHH2101HHH\nHH1001HHH\nHH1111HHH\n"
    "HHHHHHHHH\nHHHHHHHHH\nHHHHHHHHH"
)


def test_a_hint_that_proves_only_mines_goes_on_to_the_guess() -> None:
    analysis = analyze(ONLY_MINES)
    assert analysis.mine_mask and not analysis.safe_mask
    data = hint(ONLY_MINES, "en")
    steps = data["steps"]
    assert steps and not any(step["safe"] for step in steps)
    board = ONLY_MINES.board
    # The safest cells: the covered cells of lowest mine probability, proven mines aside
    # (counted here from the analysis' arrangements, not from the hint).
    lowest = min(
        Fraction(analysis.mine_counts[i], analysis.arrangements)
        for i in iter_bits(ONLY_MINES.covered_mask & ~analysis.mine_mask)
    )
    expected = {
        board.xy(i)
        for i in iter_bits(ONLY_MINES.covered_mask)
        if Fraction(analysis.mine_counts[i], analysis.arrangements) == lowest
    }
    assert {tuple(c) for c in data["safest"]} == expected
    assert data["probability"] == float(lowest)
    best = data["best"]
    assert not analysis.mine_mask >> board.index(*best["cell"]) & 1
    assert best["text"] in data["guess_text"]
    assert data["guess_text"].startswith("No cell can be proven safe: a guess is needed.")
    # A hint whose steps end in a safe cell has no guess.
    flagless = Position.parse("4x3x3\n001H\n112H\nHHHH")
    assert "guess_text" not in hint(flagless, "en")


def test_a_hints_label_and_text_are_in_a_row_as_the_language_writes_them() -> None:
    """The page joined each step's label and text with a space: "Niveau 5 (...) : Il reste",
    and a space after the Japanese label's full-width colon. The server gives them in a row
    (``labelled``)."""
    position = Position.parse("4x3x3\n01HH\n13HH\nHHHH")
    french = hint_json(position, "fr")
    assert french["labelled"] == french["label"] + " " + "i" + french["text"][1:]
    japanese = hint_json(position, "ja")
    assert japanese["labelled"] == japanese["label"] + japanese["text"]
    english = hint_json(position, "en")
    assert english["labelled"] == english["label"] + " " + english["text"]
    for step in french["steps"]:
        assert step["labelled"].startswith(step["label"] + " ")
