"""The real bot in SimCord as a process of its own, for the graceful-stop test
(``tests/foundation/test_graceful_stop.py``).

``python tests/stoppable_bot.py DATABASE start``: a server, a #games channel, alice and bob; they
start a Kabuki game and place three cards; the game's state is printed as one JSON line, then
READY, and the bot runs until a signal stops it (``bot.app.shutdown``, as ``python -m bot`` does).

``python tests/stoppable_bot.py DATABASE resume``: the same world again (SimCord's ids follow from
the order things are made in), the bot restores the game from DATABASE; its state is printed, the
active player places a card, and the state after it is printed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
from typing import Any

import orjson
import simcord
from shown import controls

from bot.app.client import create_bot
from bot.app.config import Config
from bot.app.shutdown import stop_on_signals


def digest(session: Any) -> dict[str, Any]:
    state = session.engine.to_json()
    text = orjson.dumps(state, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return {"turn": state["turn"], "log": len(state["log"]), "sha": hashlib.sha256(text).hexdigest()}


async def place(env: Any, channel: Any, members: list[Any], bot: Any) -> None:
    """The player whose turn it is places the card on show on the first actor."""
    session = bot.sessions.get(channel.id)
    seat = session.engine.view(None)["current"]["seat"]
    board = next(m for m in channel.history() if m.id == session.board_message_id)
    [custom_id] = [c.custom_id for c in controls(board) if ":place:0-" in (c.custom_id or "")]
    await members[seat].click(board, custom_id=custom_id)


async def main(database: str, phase: str) -> None:
    config = Config(token=None, database_path=database, dev_guild_id=None, log_level="INFO", shard_count=1)
    bot = create_bot(config, games=["kabuki"])
    env = simcord.Env(bot, check_errors=False)
    # The world exists before the bot connects, as Discord's does when a bot restarts.
    guild = env.create_guild("Friends")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
    if phase == "resume":
        # SimCord numbers everything from the same start in every process: without these, the
        # board posted again could get the old board's id, which Discord never hands out twice.
        for n in range(200):
            guild.create_text_channel(f"elsewhere-{n}")
    await env.start()
    try:
        await env.settle()
        if phase == "start":
            alice, bob = members
            await alice.slash(channel, "kabuki new", turn_timer=600, grace=0)
            await bob.click(channel.last_message, label="Join")
            await alice.click(channel.last_message, label="Start")
            for _ in range(3):
                await place(env, channel, members, bot)
            print(json.dumps(digest(bot.sessions.get(channel.id))), flush=True)
            stopped = stop_on_signals(bot)
            print("READY", flush=True)
            await stopped.wait()
            return
        await env.advance_time(3)  # the restored game draws its board again (a new message here)
        session = bot.sessions.get(channel.id)
        print(json.dumps(digest(session)), flush=True)
        await place(env, channel, members, bot)
        print(json.dumps(digest(session)), flush=True)
        await bot.close()
    finally:
        await env.shutdown()


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    logging.getLogger("bot").setLevel(logging.INFO)  # "stopping: …" among them
    asyncio.run(main(sys.argv[1], sys.argv[2]))
