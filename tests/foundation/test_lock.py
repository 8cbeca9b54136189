"""The dependency lock: every install (the README's commands, CI) takes its exact versions from
``uv.lock``, so it is only as good as its agreement with ``pyproject.toml``'s ranges.

Each check runs uv on an empty cache of its own and offline, as a fresh machine would, and reads
the two files itself (``tests/lock_agreement.py``) to name what disagrees: uv, offline and with
nothing cached, can say that the lock is stale but not which package made it so."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from lock_agreement import read

ROOT = Path(__file__).resolve().parents[2]
# uv comes with the test extra, beside this interpreter; a venv not activated still finds it.
UV = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")


def lock_check(folder: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    # Offline and on an empty cache: the answer comes from the two files, never from what the
    # index or an earlier resolve on this machine holds.
    env = {**os.environ, "UV_CACHE_DIR": str(cache), "UV_OFFLINE": "1"}
    return subprocess.run(
        [UV, "lock", "--check", "--offline"], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )


def locked_version(lock: Path, name: str) -> str:
    packages = tomllib.loads(lock.read_text())["package"]
    return next(p["version"] for p in packages if p["name"] == name)


def project_copy(tmp_path: Path, edit) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    shutil.copy(ROOT / "uv.lock", folder)
    text = (ROOT / "pyproject.toml").read_text()
    edited = edit(text)
    assert edited != text, "the edit found nothing to change in pyproject.toml"
    (folder / "pyproject.toml").write_text(edited)
    return folder


def test_the_lock_agrees_with_pyproject(tmp_path: Path) -> None:
    assert read(ROOT) == [], "uv.lock does not fit pyproject.toml; run `uv lock`"
    result = lock_check(ROOT, tmp_path / "empty-cache")
    assert result.returncode == 0, f"uv.lock is out of date; run `uv lock`:\n{result.stderr}"


def test_a_range_the_locked_version_leaves_is_caught(tmp_path: Path) -> None:
    pinned = locked_version(ROOT / "uv.lock", "pillow")
    folder = project_copy(tmp_path, lambda text: re.sub(r'"Pillow[^"]*"', f'"Pillow>{pinned}"', text))

    assert read(folder) == [f"pillow: pyproject.toml asks for pillow>{pinned}; uv.lock pins {pinned}"]
    assert lock_check(folder, tmp_path / "empty-cache").returncode != 0


def test_a_dependency_missing_from_the_lock_is_caught(tmp_path: Path) -> None:
    folder = project_copy(
        tmp_path, lambda text: text.replace("dependencies = [\n", 'dependencies = [\n    "six",\n', 1)
    )

    assert read(folder) == ["six: pyproject.toml asks for six; uv.lock has no six at all"]
    assert lock_check(folder, tmp_path / "empty-cache").returncode != 0


def test_a_range_changed_without_a_new_lock_is_caught(tmp_path: Path) -> None:
    # The locked Pillow still fits the wider range, but the lock was made from the old one:
    # uv.lock --check refuses that too, so a range is never edited without `uv lock`.
    folder = project_copy(tmp_path, lambda text: re.sub(r'"Pillow[^"]*"', '"Pillow>=9"', text))

    assert read(folder) == ["pillow: pyproject.toml asks for pillow>=9, which uv.lock was not made from"]
    assert lock_check(folder, tmp_path / "empty-cache").returncode != 0


def test_the_readme_and_ci_bootstrap_the_locked_uv() -> None:
    # The first `pip install uv==…` is the one step outside the lock: keep it the lock's own uv.
    pinned = locked_version(ROOT / "uv.lock", "uv")
    for script in (ROOT / "README.md", ROOT / ".ci" / "run"):
        asked = set(re.findall(r"uv==([\w.]+)", script.read_text()))
        assert asked == {pinned}, f"{script.name} installs uv {asked}, the lock has {pinned}"
