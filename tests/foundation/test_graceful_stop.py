"""A graceful stop, with real processes (issue 30): the bot, running in SimCord as a process of its
own (``tests/stoppable_bot.py``), is sent SIGTERM in the middle of a game; it stops by itself
(exit status 0, every open game saved, the database closed), and a new process on the same
database resumes the game exactly where it was and plays on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "stoppable_bot.py"


def states(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_a_bot_stopped_by_sigterm_mid_game_resumes_it_where_it_was(tmp_path):
    database = str(tmp_path / "bot.db")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    log = tmp_path / "first.log"
    with log.open("w") as stderr:
        first = subprocess.Popen(
            [sys.executable, str(SCRIPT), database, "start"],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=ROOT,
            env=env,
        )
        try:
            before = json.loads(first.stdout.readline())
            assert first.stdout.readline().strip() == "READY"
            first.send_signal(signal.SIGTERM)
            first.wait(timeout=60)
        finally:
            if first.poll() is None:
                first.kill()
    said = log.read_text()
    assert first.returncode == 0, said[-3000:]  # stopped by itself, not killed by the signal
    assert "SIGTERM received: stopping" in said
    assert "stopping: 1 open game(s) saved, 0 still waiting on the database" in said
    assert not Path(database + "-wal").exists() or Path(database + "-wal").stat().st_size == 0

    second = subprocess.run(
        [sys.executable, str(SCRIPT), database, "resume"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert second.returncode == 0, second.stderr[-3000:]
    resumed, played_on = states(second.stdout)
    assert resumed == before  # the very state the stopped process had
    assert played_on["turn"] == before["turn"] + 1
