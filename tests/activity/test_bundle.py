"""The page the package ships (bot/activity/static) is exactly what its sources (web/) build.

The bot serves the built files and never runs Node, so an edit to web/src that was not rebuilt, a
build from other dependencies than the lock's, or a hand edit of the bundle would ship unseen. This
copies web/ without node_modules, installs from the lock (``npm ci``) and builds into a temporary
directory, then demands the same files, byte for byte."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from needs import need, npm_missing

import bot.activity

WEB = Path(__file__).parents[2] / "web"
STATIC = Path(bot.activity.__file__).parent / "static"
REBUILD = "cd web && npm ci && npm run build"


def files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*") if path.is_file()
    }


def run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=540)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_shipped_page_is_what_its_sources_build(tmp_path: Path) -> None:
    need(npm_missing())
    source = tmp_path / "web"
    shutil.copytree(WEB, source, ignore=shutil.ignore_patterns("node_modules"))
    run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"], source)
    built = tmp_path / "static"
    run(["npm", "run", "build", "--", str(built)], source)

    fresh, shipped = files(built), files(STATIC)
    assert sorted(fresh) == ["assets/app.css", "assets/app.js", "index.html"]
    assert sorted(shipped) == sorted(fresh), (
        f"bot/activity/static holds other files than the build makes: {REBUILD}"
    )
    stale = [name for name in fresh if fresh[name] != shipped[name]]
    assert stale == [], f"bot/activity/static differs from what web/ builds ({stale}): {REBUILD}"
