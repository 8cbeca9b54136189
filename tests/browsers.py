"""The system's Chromium as every browser test launches it (Playwright never downloads one)."""

from __future__ import annotations

import os
import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Without the background-networking flags Chromium's own connections are refused by a closed
# network and slow everything down; --no-sandbox because CI runs as root.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def browser_missing() -> str | None:
    """Why a browser test cannot run here (Playwright or Chromium missing), or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (uv sync --locked --extra test)"
    if not os.path.exists(CHROMIUM):
        return "chromium is not installed (apt-get install chromium)"
    return None
