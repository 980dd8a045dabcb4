"""Build mineproof, compiling its counting and playing core to C with mypyc where it can.

The modules listed under ``[tool.mineproof] compiled`` in ``pyproject.toml`` are ordinary, fully
typed Python; mypyc (part of mypy, a build requirement) turns them into C extensions, which play
expert games about 1.5 times as fast. Everything else in the build is declared in
``pyproject.toml``. With ``MINEPROOF_PURE=1`` in the environment the build compiles nothing and
the same modules run as Python: the results are identical, only slower.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent


def compiled_modules() -> list[str]:
    """Return the paths of the modules to compile, as ``pyproject.toml`` lists them."""
    with open(HERE / "pyproject.toml", "rb") as f:
        names: list[str] = tomllib.load(f)["tool"]["mineproof"]["compiled"]
    return [f"src/{name.replace('.', '/')}.py" for name in names]


def extensions() -> list[Extension]:
    """Return the C extensions to build: none when ``MINEPROOF_PURE`` is set."""
    if os.environ.get("MINEPROOF_PURE"):
        return []
    from mypyc.build import mypycify

    return mypycify(compiled_modules(), opt_level="3", group_name="mineproof")


setup(ext_modules=extensions())
