"""Rules for the whole suite: in CI (``CI`` set, as ``.ci/run`` does) nothing skips silently."""

from __future__ import annotations

import os

import pytest


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
