"""Load a module of the tests by its path (the tests are not an installed package), so a
benchmark measures with the same oracle or the same positions the tests use."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load(relative: str) -> ModuleType:
    """Return the module at ``ROOT/relative`` (e.g. ``tests/generate/oracle.py``), executed.

    A module inside a package of the tests (a folder with ``__init__.py``, such as
    ``tests/web``) is imported as pytest imports it, by its dotted name from the first folder
    that is no package, so that its relative imports (``from .conftest import ...``) work.
    Raises ``OSError`` when the file cannot be read, ``ImportError`` when it cannot be
    imported.
    """
    path = ROOT / relative
    if (path.parent / "__init__.py").exists():
        names = [path.stem]
        base = path.parent
        while (base / "__init__.py").exists():
            names.insert(0, base.name)
            base = base.parent
        if str(base) not in sys.path:
            sys.path.insert(0, str(base))
        return importlib.import_module(".".join(names))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
