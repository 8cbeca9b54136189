"""The playground's tests report what they measured (never asserted: timing targets live in bench/)."""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter) -> None:
    """Each test's ``playground timings`` line, shown even under -q (and from xdist's workers,
    which send their reports' user properties back)."""
    lines = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        for name, value in getattr(report, "user_properties", ())
        if name == "playground timings" and getattr(report, "when", None) == "call"
    ]
    if lines:
        terminalreporter.section("playground")
        for line in lines:
            terminalreporter.write_line(line)
