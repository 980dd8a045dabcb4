"""The technique ladder: deductions at the lowest level a person needs, solves and grades."""

from mineproof.logic.deduction import LEVEL_NAMES, RULES, Deduction
from mineproof.logic.ladder import deductions
from mineproof.logic.solver import Grade, Step, grade, logic_steps

__all__ = [
    "LEVEL_NAMES",
    "RULES",
    "Deduction",
    "Grade",
    "Step",
    "deductions",
    "grade",
    "logic_steps",
]
