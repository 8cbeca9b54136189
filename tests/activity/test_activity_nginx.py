"""Two shard processes behind one address, for real: two OS processes, each serving the Activity
for its shards (``shard_process.py``), behind nginx running the rules that ship in
``deploy/nginx-activity.conf`` (the README's). Only the processes' ports and nginx's own port are
written into that file, and nginx listens without TLS (the certificate is the operator's).

Through nginx alone: a member signs in, is handed the socket path of their server's shard, and
that socket is greeted by the process holding their channel's game, for a server on either side
of each routing rule's edge; the socket stays open for a ping and its pong. A page asking for
another shard's path reaches a process that tells it ``elsewhere`` and closes it (4002). Needs
nginx: skipped locally without it, failed in CI (``.ci/run`` installs it)."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from needs import NGINX, need, nginx_missing
from pg_cluster import free_port

from bot.activity import server as activity

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "deploy" / "nginx-activity.conf"
SHARD_PROCESS = Path(__file__).parent / "shard_process.py"
PR_SET_PDEATHSIG = 1  # prctl's option, linux/prctl.h
WAIT_S = 60  # a ceiling only a hang reaches: every wait returns as soon as its thing is there

# The shipped file's layout: SHARD_COUNT=8, shards 0-3 in one process and 4-7 in the other.
SHARD_COUNT = 8
LAYOUT = {"activity_shards_0_3": (0, 1, 2, 3), "activity_shards_4_7": (4, 5, 6, 7)}
# One server on each edge of each rule: (id >> 22) % 8 is its shard.
SHARDS_PLAYED = (0, 3, 4, 7)
ALICE = 8_000_000_000_000_000_001


def guild_on(shard: int) -> int:
    return (SHARD_COUNT * 1_000 + shard) << 22


def channel_on(shard: int) -> int:
    return 7_000_000_000_000_000_000 + shard


def held(shard: int) -> dict:
    """The Tap lobby of the server on ``shard``: Alice in a seat of its own (its index among the
    shards played), so a greeting shows whose game it read."""
    seat = SHARDS_PLAYED.index(shard)
    players = [9_000_000_000_000_000_000 + n for n in range(seat)] + [ALICE]
    names = {str(p): f"player {n}" for n, p in enumerate(players)}
    names[str(ALICE)] = "alice"
    return {
        "guild_id": guild_on(shard),
        "channel_id": channel_on(shard),
        "seed": shard,
        "players": [str(p) for p in players],
        "names": names,
    }


def rendered(ports: dict[str, int], listen: int) -> str:
    """The shipped rules with the test's ports; TLS left out (the operator's certificate)."""
    text = RULES.read_text()
    changes = {
        "server 127.0.0.1:8080;": f"server 127.0.0.1:{ports['activity_shards_0_3']};",
        "server 127.0.0.1:8081;": f"server 127.0.0.1:{ports['activity_shards_4_7']};",
        "listen 443 ssl;": f"listen 127.0.0.1:{listen};",
    }
    for shipped, tested in changes.items():
        assert text.count(shipped) == 1, f"{RULES.name} no longer holds {shipped!r} once"
        text = text.replace(shipped, tested)
    lines = text.splitlines(keepends=True)
    kept = [
        line for line in lines if not line.lstrip().startswith(("ssl_certificate ", "ssl_certificate_key "))
    ]
    assert len(lines) - len(kept) == 2, f"{RULES.name}: its two certificate lines moved"
    return "".join(kept)


def main_conf(home: Path) -> str:
    """nginx's own settings, everything it writes inside ``home``, around the shipped rules."""
    return f"""
error_log {home}/error.log info;
worker_processes 1;
events {{ worker_connections 64; }}
http {{
    access_log {home}/access.log;
    client_body_temp_path {home}/body;
    proxy_temp_path {home}/proxy;
    include {home}/activity.conf;
}}
"""


def dies_with_the_test() -> None:
    """Run in a child before its program starts: the kernel sends it SIGTERM when the test's
    process dies, however it dies (Linux's PR_SET_PDEATHSIG), so even a killed test leaves no
    process behind; nginx's master then stops its workers."""
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def children_of(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def written(log: Path) -> str:
    return log.read_text() if log.exists() else ""


def tail(log: Path) -> str:
    """The end of a log, for a failure's message."""
    return written(log)[-3000:]


async def stopped(process: asyncio.subprocess.Process) -> None:
    """A child stopped: asked (SIGTERM; nginx's master then stops its workers), else killed, with
    its own children (nginx's workers) first."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            for child in children_of(process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


async def shard_process(stack, spec: dict, log: Path) -> asyncio.subprocess.Process:
    """A shard process started (stopped with ``stack``)."""
    with log.open("w") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(SHARD_PROCESS),
            json.dumps(spec),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            cwd=ROOT,
            preexec_fn=dies_with_the_test,
        )
    stack.push_async_callback(stopped, process)
    return process


async def listening(process: asyncio.subprocess.Process, log: Path) -> int:
    """Until the shard process listens; its port."""
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), WAIT_S)
    assert line.startswith(b"LISTENING "), f"the shard process did not start: {tail(log)}"
    return int(line.split()[1])


async def nginx(stack, home: Path, ports: dict[str, int]) -> int:
    """nginx started in the foreground on the shipped rules (stopped with ``stack``); its port.
    A port taken meanwhile by someone else: another one, as pg_cluster does."""
    for _ in range(3):
        listen = free_port()
        (home / "activity.conf").write_text(rendered(ports, listen))
        (home / "nginx.conf").write_text(main_conf(home))
        process = await asyncio.create_subprocess_exec(
            NGINX,
            "-p",
            str(home),
            "-e",
            str(home / "error.log"),
            "-c",
            str(home / "nginx.conf"),
            "-g",
            f"daemon off; pid {home}/nginx.pid;",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            preexec_fn=dies_with_the_test,
        )
        stack.push_async_callback(stopped, process)
        for _ in range(WAIT_S * 20):
            if process.returncode is not None:
                break
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", listen)
                writer.close()
                return listen
            await asyncio.sleep(0.05)
        said = tail(home / "error.log")
        if "Address already in use" not in said:
            raise AssertionError(f"nginx did not start: {said}")
    raise AssertionError("nginx found no free port in 3 tries")


@dataclass
class Front:
    base: str  # nginx's address: the only one the test's pages use
    home: Path  # nginx's directory: its settings and logs


@pytest.fixture
async def front(discord_api, tmp_path):
    """Two shard processes and nginx in front of them; all stopped afterwards, whatever happened."""
    need(nginx_missing())
    for shard in SHARDS_PLAYED:
        discord_api.add_instance(f"i-on-{shard}", guild_on(shard), channel_on(shard), [ALICE])
        discord_api.members.add((guild_on(shard), ALICE))
    async with contextlib.AsyncExitStack() as stack:
        specs = {
            upstream: {
                "shard_count": SHARD_COUNT,
                "shard_ids": list(shards),
                "discord_api": discord_api.base,
                "sessions": [held(shard) for shard in SHARDS_PLAYED if shard in shards],
            }
            for upstream, shards in LAYOUT.items()
        }
        logs = {upstream: tmp_path / f"{upstream}.log" for upstream in specs}
        processes = {
            upstream: await shard_process(stack, specs[upstream], logs[upstream]) for upstream in specs
        }
        # Both start at once (each a second or two of imports); either failing fails the test.
        started = await asyncio.gather(
            *(listening(processes[upstream], logs[upstream]) for upstream in specs), return_exceptions=True
        )
        for failed in [port for port in started if isinstance(port, BaseException)][:1]:
            raise failed
        ports = dict(zip(specs, started, strict=True))
        home = tmp_path / "nginx"
        home.mkdir()
        listen = await nginx(stack, home, ports)
        yield Front(f"http://127.0.0.1:{listen}", home)


async def sign_in(http: aiohttp.ClientSession, front: Front, discord_api, shard: int) -> dict:
    code = discord_api.add_user(ALICE, "alice")
    async with http.post(
        f"{front.base}/api/token", json={"code": code, "instance_id": f"i-on-{shard}"}
    ) as answer:
        assert answer.status == 200, await answer.text()
        return await answer.json()


async def frame_of(socket: aiohttp.ClientWebSocketResponse, kind: str) -> dict:
    """The next frame of that type (the board and the bot's probe come between)."""
    while True:
        message = await socket.receive(timeout=WAIT_S)
        assert message.type is aiohttp.WSMsgType.TEXT, f"closed before a {kind}: {message}"
        frame = message.json()
        if frame["type"] == kind:
            return frame


async def test_each_page_reaches_the_process_holding_its_channel_s_game(discord_api, front):
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{front.base}/") as page:
            assert page.status == 200 and "text/html" in page.headers["Content-Type"]
        for shard in SHARDS_PLAYED:
            signin = await sign_in(http, front, discord_api, shard)
            assert signin["socket"] == f"/s/{shard}/ws"
            path = f"{signin['socket']}?ticket={signin['ticket']}"
            async with http.ws_connect(f"{front.base}{path}") as socket:
                hello = await frame_of(socket, "hello")
                assert hello["guild_id"] == str(guild_on(shard))
                assert hello["channel_id"] == str(channel_on(shard))
                game = hello["game"]
                assert game["kind"] == "tap" and game["status"] == "lobby"
                assert game["seat"] == SHARDS_PLAYED.index(shard)
                assert [p["id"] for p in game["players"]] == held(shard)["players"]
                # The proxy keeps the socket open both ways: the page's heartbeat is answered.
                await socket.send_json({"type": "ping", "t": 1})
                pong = await frame_of(socket, "pong")
                assert pong["t"] == 1
    assert "ticket=" not in written(front.home / "access.log")  # the rules log no ticket


async def test_a_route_written_wrong_is_told_elsewhere_and_closed(discord_api, front):
    async with aiohttp.ClientSession() as http:
        on_3 = await sign_in(http, front, discord_api, 3)
        on_4 = await sign_in(http, front, discord_api, 4)
        for signin, path in [
            (on_4, "/s/3/ws"),  # to the process without shard 4
            (on_3, "/s/4/ws"),  # to the process without shard 3
            (on_4, "/s/5/ws"),  # to the process with shard 4, naming another shard
            (on_4, "/ws"),  # one process's path: to the process behind /, without shard 4
        ]:
            async with http.ws_connect(f"{front.base}{path}?ticket={signin['ticket']}") as socket:
                error = await frame_of(socket, "error")
                assert error["code"] == "elsewhere" and "operator" in error["message"], path
                closing = await socket.receive(timeout=WAIT_S)
                assert closing.type is aiohttp.WSMsgType.CLOSE, path
                assert closing.data == activity.CLOSE_ELSEWHERE, path


def test_the_readme_quotes_the_shipped_rules():
    """The rules tested here are the ones the README shows an operator."""
    readme = (ROOT / "README.md").read_text()
    rules = [
        line.split("#")[0].strip()
        for line in RULES.read_text().splitlines()
        if line.lstrip().startswith(("upstream ", "location ", "proxy_", "access_log "))
    ]
    assert rules and [rule for rule in rules if rule not in readme] == []
