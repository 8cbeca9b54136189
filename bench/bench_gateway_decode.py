"""What production's gateway costs the loop per press, alone (the load bench counts it in play with
``--gateway``), by hand: python bench/bench_gateway_decode.py

SimCord hands discord.py each gateway event as a parsed dict. In production each one arrives over
the websocket as zlib-stream compressed JSON, and discord.py's reader inflates and decodes it on
the event loop before anything else (``DiscordWebSocket.received_message``), also for events the
bot then ignores. A press brings its ``INTERACTION_CREATE`` (with the whole message it was pressed
on) and, when it edits the board, the gateway's echo of that edit (``MESSAGE_UPDATE``); a bare
acknowledge brings only its small ``INTERACTION_CREATE``.

Here: a Kabuki game and a bare acknowledge are played in SimCord, the events each delivers to the
bot are captured, then compressed as Discord's gateway does (one stream, a sync flush per event)
and decoded as discord.py does (its own decompression context and JSON loader), CPU per press.
Warm figures: in play, with cold caches, a piece of work costs a few times more (bench/README.md,
*Measuring the ratio*). Left out: the websocket's framing and TLS (aiohttp, the loop's own
callbacks), and the gateway's heartbeat.
"""

from __future__ import annotations

import asyncio
import copy
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import discord.utils
import orjson
from simcord import gateway

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_kabuki_press import kabuki_table  # noqa: E402
from press_harness import running  # noqa: E402

from bot.glue.components import bound_id  # noqa: E402

PLACEMENTS = 12
REPEATS = 1000

Events = list[tuple[str, dict[str, Any]]]


async def captured_events() -> tuple[Events, list[Events]]:
    """The events a bare acknowledge, then each Kabuki placement, delivered to the bot."""
    seen: Events = []
    feed = gateway.FakeGateway.feed

    def capture(self: Any, event: str, payload: Any) -> None:
        seen.append((event, copy.deepcopy(dict(payload))))
        feed(self, event, payload)

    gateway.FakeGateway.feed = capture  # type: ignore[method-assign]
    try:
        async with running(["kabuki"], settle_timeout=1.0) as (bot, env):
            _, channel, members, ack_message, session = await kabuki_table(bot, env, grace=0, turn_timer=600)
            seen.clear()
            await members[0].click(ack_message, custom_id="ackbench")
            ack = list(seen)
            placements = []
            for turn in range(PLACEMENTS):
                seen.clear()
                view = session.engine.view(None)
                who = members[view["current"]["seat"]]
                custom_id = bound_id(f"pc:{channel.id}:place:{turn % 4}-{view['turn']}", session.tag)
                board = next(m for m in reversed(channel.history()) if m.id == session.board_message_id)
                await who.click(board, custom_id=custom_id)
                placements.append(list(seen))
    finally:
        gateway.FakeGateway.feed = feed  # type: ignore[method-assign]
    return ack, placements


def decode_cost(events: Events, *, fresh: bool) -> tuple[float, int, int]:
    """µs of CPU to inflate and decode ``events`` as discord.py does, and their size as JSON and
    as sent compressed. The gateway's stream keeps a 32 kB window, so an event like the last few
    compresses to little: ``fresh`` sends each repeat on a new stream (nothing like it seen yet,
    the dearest case), else all on one stream (an event exactly like the last, the cheapest)."""
    raws = [orjson.dumps({"op": 0, "s": 1, "t": name, "d": payload}, default=str) for name, payload in events]
    streams = []
    sender = zlib.compressobj()
    for _ in range(REPEATS):
        if fresh or not streams:
            sender = zlib.compressobj()
            streams.append([])
        streams[-1] += [sender.compress(raw) + sender.flush(zlib.Z_SYNC_FLUSH) for raw in raws]
    readers = [discord.utils._ActiveDecompressionContext() for _ in streams]
    started = time.thread_time()
    for reader, frames in zip(readers, streams, strict=True):
        for frame in frames:
            text = reader.decompress(frame)
            if text is not None:
                discord.utils._from_json(text)
    spent = (time.thread_time() - started) / REPEATS * 1e6
    sent = sum(len(frame) for frame in streams[-1][-len(raws) :])
    return spent, sum(len(raw) for raw in raws), sent


def main() -> None:
    ack, placements = asyncio.run(captured_events())
    kinds = [("bare acknowledge", ack)] + [("Kabuki placement", p) for p in placements[2:]]
    for fresh in (True, False):
        print("each on a stream of its own (the dearest):" if fresh else "each on one stream with its like:")
        figures: dict[str, list[tuple[float, int, int, str]]] = {}
        for label, events in kinds:
            names = "+".join(name for name, _ in events)
            figures.setdefault(label, []).append((*decode_cost(events, fresh=fresh), names))
        for label, rows in figures.items():
            spent = statistics.median(r[0] for r in rows)
            _, size, sent, names = rows[len(rows) // 2]
            print(
                f"  {label}: {names}, {size:,} bytes of JSON, {sent:,} compressed; "
                f"inflated and decoded in {spent:.1f} µs of CPU (median of {len(rows)}, warm)"
            )


if __name__ == "__main__":
    main()
