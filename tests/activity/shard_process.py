"""One shard process's Activity server, as a process of its own (tests/activity/test_activity_nginx.py).

    python shard_process.py SPEC

SPEC is JSON: ``shard_count``, ``shard_ids``, ``discord_api`` (the stand-in's address) and
``sessions``, each ``{guild_id, channel_id, seed, players, names}``: the Tap lobbies this process
holds, as a bot holds its shards' games. The server listens on a port the system picks, on the
loopback interface, and the process prints ``LISTENING <port>`` once it does. It stops on SIGTERM
(sent by the test, or by the kernel when the test's process dies).
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys

from discord_standin import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET

from bot.activity.server import ActivityServer
from bot.app.config import Config
from bot.session.publisher import Publishers
from bot.session.sessions import Session, SessionRegistry


class Process:
    """What the server reads of its bot: the session registry of the games it runs."""

    def __init__(self) -> None:
        self.sessions = SessionRegistry()
        self.publishers = Publishers(self)

    def title_of(self, kind: str) -> str:
        return "Tap"


async def main(spec: dict) -> None:
    config = Config(
        token=BOT_TOKEN,
        database_path=":memory:",
        dev_guild_id=None,
        log_level="INFO",
        shard_count=spec["shard_count"],
        shard_ids=tuple(spec["shard_ids"]),
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        discord_api=spec["discord_api"],
        activity_port=0,
    )
    bot = Process()
    for held in spec["sessions"]:
        players = [int(p) for p in held["players"]]
        bot.sessions.add(
            Session(
                kind="tap",
                guild_id=held["guild_id"],
                channel_id=held["channel_id"],
                host_id=players[0],
                options={},
                seed=held["seed"],
                game_key=f"k{held['seed']}",
                created_at=0,
                players=players,
                names={int(p): name for p, name in held["names"].items()},
            )
        )
    server = ActivityServer(bot, config)
    await server.start()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    assert server.address is not None
    print(f"LISTENING {server.address[1]}", flush=True)
    try:
        await stop.wait()
    finally:
        await server.stop()


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
