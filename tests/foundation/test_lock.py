"""The dependency lock: every install (the README's commands, CI) takes its exact versions from
``uv.lock``, so it is only as good as its agreement with ``pyproject.toml``'s ranges."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# uv comes with the test extra, beside this interpreter; a venv not activated still finds it.
UV = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")


def lock_check(folder: Path) -> subprocess.CompletedProcess[str]:
    # Offline: the answer must come from the two files, never from what the index holds today.
    return subprocess.run(
        [UV, "lock", "--check", "--offline"], cwd=folder, capture_output=True, text=True, timeout=120
    )


def locked_version(lock: Path, name: str) -> str:
    packages = tomllib.loads(lock.read_text())["package"]
    return next(p["version"] for p in packages if p["name"] == name)


def test_the_lock_agrees_with_pyproject() -> None:
    result = lock_check(ROOT)
    assert result.returncode == 0, f"uv.lock is out of date; run `uv lock`:\n{result.stderr}"


def test_a_range_the_locked_version_leaves_is_caught(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copy(ROOT / "uv.lock", tmp_path)
    pinned = locked_version(tmp_path / "uv.lock", "pillow")
    project = tmp_path / "pyproject.toml"
    text, changed = re.subn(r'"Pillow[^"]*"', f'"Pillow>{pinned}"', project.read_text())
    assert changed == 1
    project.write_text(text)

    result = lock_check(tmp_path)

    assert result.returncode != 0
    assert "pillow" in result.stderr.lower()


def test_a_dependency_missing_from_the_lock_is_caught(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copy(ROOT / "uv.lock", tmp_path)
    project = tmp_path / "pyproject.toml"
    project.write_text(project.read_text().replace("dependencies = [\n", 'dependencies = [\n    "six",\n', 1))

    assert lock_check(tmp_path).returncode != 0


def test_the_readme_and_ci_bootstrap_the_locked_uv() -> None:
    # The first `pip install uv==…` is the one step outside the lock: keep it the lock's own uv.
    pinned = locked_version(ROOT / "uv.lock", "uv")
    for script in (ROOT / "README.md", ROOT / ".ci" / "run"):
        asked = set(re.findall(r"uv==([\w.]+)", script.read_text()))
        assert asked == {pinned}, f"{script.name} installs uv {asked}, the lock has {pinned}"
