"""The command line: a friendly refusal without a token, and the browser playground."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import urllib.request

import discord
import pytest
from tapgame import TAP

from bot import __main__ as cli
from bot.app.playground import run_playground
from bot.games import registry


def test_running_without_a_token_explains_where_to_get_one(monkeypatch, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr("bot.app.config.load_dotenv", lambda: None)
    assert cli.main([]) == 1
    err = capsys.readouterr().err
    assert "developers/applications" in err and ".env" in err and "python -m bot play" in err


def test_a_bad_token_gives_one_line_and_a_failing_status(monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setattr("bot.app.config.load_dotenv", lambda: None)

    async def refuse(self, token, **kwargs):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr("bot.app.client.GameBot.start", refuse)
    monkeypatch.setattr("discord.utils.setup_logging", lambda **kwargs: None)  # keep pytest's streams
    assert cli.main([]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Reset Token" in err


def test_simulate_without_a_known_game_shows_usage(capsys):
    assert cli.main(["simulate", "chess"]) == 2
    assert "kabuki" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["run", "--help"]])
def test_help_exits_0_with_the_usage_of_every_subcommand(argv, capsys):
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("usage: python -m bot [run]\n")
    assert "Command line." not in out
    usages = [line for line in out.splitlines() if line.startswith("usage: ")]
    assert usages[0] == "usage: python -m bot [run]"
    assert usages[1].startswith("usage: python -m bot play [-h] [--port PORT]")
    for game in registry.games():  # a registered game's simulator too
        assert any(u.startswith(f"usage: python -m bot simulate {game} [-h]") for u in usages), game
    assert "--database DATABASE" in out and "--players PLAYERS" in out


def test_an_unknown_command_is_an_error_with_the_usage(capsys):
    assert cli.main(["chess"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Unknown command 'chess'.") and "usage: python -m bot play" in err


def test_the_module_run_as_a_program_exits_0_on_help():
    done = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("usage: python -m bot [run]")


@pytest.mark.filterwarnings("ignore::ResourceWarning")
async def test_the_playground_serves_the_channel_and_keeps_real_time(tmp_path):
    seen = {}

    async def ready(env, channel, members, preview, **more):
        body = await asyncio.to_thread(lambda: urllib.request.urlopen(preview.url.split("#")[0]).status)
        seen["status"] = body
        seen["commands"] = members[0].available_commands(channel)
        before = env.now()
        await asyncio.sleep(0.3)
        seen["moved"] = (env.now() - before).total_seconds()
        seen["members"] = [m.name for m in members]

    await run_playground(
        database=str(tmp_path / "play.db"), port=None, open_browser=False, ready=ready, game_cogs=[TAP]
    )
    assert seen["status"] == 200
    assert {"help", "tap new", "leaderboard", "end"} <= set(seen["commands"])
    assert seen["moved"] >= 0.2  # the virtual clock follows the wall clock
    assert len(seen["members"]) == 8
