"""Rules for the whole suite: in CI (``CI`` set, as ``.ci/run`` does) nothing skips silently;
the scripts that made the tests' data (``tests/data/make_*.py``) import one another by name."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# Here, not in the tests that use them: ``--doctest-modules`` imports those scripts too, and
# may do so before any test module has run.
sys.path.insert(0, str(Path(__file__).parent / "data"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail a CI run in which any test was skipped: an oracle that did not run proves nothing."""
    if not os.environ.get("CI") or exitstatus != 0:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    skipped = reporter.stats.get("skipped", [])
    if skipped:
        names = ", ".join(sorted({report.nodeid for report in skipped}))
        reporter.write_line(f"CI: {len(skipped)} test(s) skipped, which CI does not allow: {names}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
