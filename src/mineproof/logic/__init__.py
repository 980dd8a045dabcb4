"""The deduction kernel: the levels of technique, deductions with proofs, solves and grades.

:mod:`~mineproof.logic.levels` defines what each level forces; the
:class:`~mineproof.logic.engine.Engine` plays a layout with the techniques up to a level (the
generator's and the solver's fast path); the ladder finds the deduction a person needs, with the
fewest premises and a proof; :func:`logic_steps` and :func:`grade` solve one deduction at a time,
:func:`hint_steps` leads to the next cell to open, and :func:`solve` plays as a perfect logician.
"""

from mineproof.logic.deduction import LEVEL_NAMES, RULES, Deduction, Proof, Rule, proof_json
from mineproof.logic.engine import Engine
from mineproof.logic.ladder import (
    HINT_WORK,
    best_deduction,
    deductions,
    known_view,
    known_view_and_safe,
    simple_deduction,
)
from mineproof.logic.levels import LEVELS, closures, forced_up_to, one_clue_closure
from mineproof.logic.solve import SolveResult, solve
from mineproof.logic.steps import (
    Grade,
    GradeTooComplex,
    Step,
    grade,
    hint_steps,
    logic_steps,
    solve_in_steps,
)
from mineproof.logic.swaps import SwapCheck

__all__ = [
    "HINT_WORK",
    "LEVELS",
    "LEVEL_NAMES",
    "RULES",
    "Deduction",
    "Engine",
    "Grade",
    "GradeTooComplex",
    "Proof",
    "Rule",
    "SolveResult",
    "Step",
    "SwapCheck",
    "best_deduction",
    "closures",
    "deductions",
    "forced_up_to",
    "grade",
    "hint_steps",
    "known_view",
    "known_view_and_safe",
    "logic_steps",
    "one_clue_closure",
    "proof_json",
    "simple_deduction",
    "solve",
    "solve_in_steps",
]
