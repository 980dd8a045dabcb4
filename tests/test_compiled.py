"""The modules mypyc compiles run compiled, and from the sources as they stand.

``setup.py`` compiles the modules ``pyproject.toml`` lists under ``[tool.mineproof] compiled``
and puts the extensions beside their sources. An extension older than its source would run old
code in every other test: this one fails first, saying how to rebuild. In CI the build must
have compiled every listed module (the README's speed figures are those of the compiled build).

Pytest's doctest collection cannot see inside a compiled module (its functions are built-ins),
so the examples of these modules' docstrings run here, read from the source and run against the
module as it was imported (compiled or not).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
with open(ROOT / "pyproject.toml", "rb") as f:
    COMPILED: list[str] = tomllib.load(f)["tool"]["mineproof"]["compiled"]


def _source(name: str) -> Path:
    """Return the source file of module ``name``."""
    return ROOT / "src" / (name.replace(".", "/") + ".py")


def test_the_list_names_real_modules() -> None:
    for name in COMPILED:
        assert _source(name).is_file(), name


@pytest.mark.parametrize("name", COMPILED)
def test_compiled_module_is_current(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__file__ is not None
    path = Path(module.__file__)
    source = _source(name)
    if path.suffix == ".py":
        assert not os.environ.get("CI"), f"{name} runs as Python: the build did not compile it"
        assert path.resolve() == source.resolve()
        return
    assert path.suffix == ".so"
    assert path.stat().st_mtime >= source.stat().st_mtime, (
        f"{path.name} is older than {source.name}: rebuild with `make .venv/.installed` "
        "(or `pip install -e .`)"
    )


@pytest.mark.parametrize("name", COMPILED)
def test_docstring_examples_hold_for_the_module_as_imported(name: str) -> None:
    source = _source(name)
    spec = importlib.util.spec_from_file_location(f"_source_of_{name}", source)
    assert spec is not None and spec.loader is not None
    text = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = text  # dataclasses look their module up while they are made
    try:
        spec.loader.exec_module(text)
    finally:
        del sys.modules[spec.name]
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(text, name):
        test.globs = dict(vars(module))
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} docstring examples of {name} failed"


_GAMES = """
import json, sys
from mineproof.board import Board
from mineproof.play import game_rng, play_game
out = []
for (w, h, m), games in (((9, 9, 10), 6), ((30, 16, 99), 3)):
    for i in range(games):
        for rules in ("classic", "modern"):
            record = {}
            play_game(Board(w, h), m, game_rng(7, i), rules, "best", record)
            out.append(record)
import mineproof.analysis.counting as counting
json.dump({"games": out, "counting": counting.__file__}, sys.stdout)
"""


def test_compiled_and_pure_python_play_the_same_games(tmp_path: Path) -> None:
    # The same source run as Python (a copy without the extensions, no site-packages) and as
    # imported here: every move, reason and probability of 18 games must be the same.
    shutil.copytree(
        ROOT / "src" / "mineproof",
        tmp_path / "mineproof",
        ignore=shutil.ignore_patterns("*.so", "__pycache__"),
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    pure = subprocess.run(
        [sys.executable, "-S", "-c", _GAMES], capture_output=True, text=True, env=env, check=True
    )
    here = subprocess.run(
        [sys.executable, "-c", _GAMES],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        check=True,
    )
    python, imported = json.loads(pure.stdout), json.loads(here.stdout)
    assert python["counting"].endswith(".py")
    if os.environ.get("CI"):
        assert imported["counting"].endswith(".so")
    assert len(python["games"]) == 18
    assert python["games"] == imported["games"]
