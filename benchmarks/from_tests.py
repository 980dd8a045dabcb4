"""Load a module of the tests by its path (the tests are not an installed package), so a
benchmark measures with the same oracle or the same positions the tests use."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load(relative: str) -> ModuleType:
    """Return the module at ``ROOT/relative`` (e.g. ``tests/generate/oracle.py``), executed.

    Raises ``OSError`` when the file cannot be read.
    """
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
