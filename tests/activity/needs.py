"""What the Activity's tests need from the machine (npm; Chromium and Playwright; nginx), and what
happens without it: a local run skips and says why; CI (``CI=true``) fails, since a test CI skips
proves nothing there. The CI rule is tests/conftest.py's ``in_ci``, read alike here because that
module is not importable by name from this directory (pytest loads each conftest.py as
``conftest``)."""

from __future__ import annotations

import os
import shutil

import pytest
from browsers import CHROMIUM, CHROMIUM_ARGS, browser_missing  # noqa: F401  (the activity tests import them from here)

# Debian's nginx (apt-get install nginx), in /usr/sbin: often not on a user's PATH.
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def need(missing: str | None) -> None:
    """Skip (or, in CI, fail) the test when ``missing`` says what is missing."""
    if missing is None:
        return
    if in_ci():
        pytest.fail(f"CI runs this test, but {missing}", pytrace=False)
    pytest.skip(missing)


def npm_missing() -> str | None:
    return None if shutil.which("npm") else "npm is not installed (Node.js 18 or newer, with npm)"


def nginx_missing() -> str | None:
    if not os.path.exists(NGINX):
        return "nginx is not installed (apt-get install nginx)"
    return None
