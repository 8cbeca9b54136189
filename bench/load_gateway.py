"""The load bench's ``--gateway``: every gateway event also arrives as production's websocket
delivers it.

SimCord hands discord.py each event already parsed (``simcord.gateway.FakeGateway.feed``). In
production the event loop first inflates and decodes each one (``DiscordWebSocket.received_message``:
one zlib stream per connection, then JSON), also for events the bot then ignores, such as the echo
of each board edit (``MESSAGE_UPDATE``). With ``Gateway`` installed, each event the bot's intents
let through is first encoded and compressed on the stream as Discord's gateway sends it (SimCord's
column: the feed is metered as Discord's side), then inflated and decoded by discord.py's own
decompression context and JSON loader in the ``bot`` column of whatever press the event belongs
to (its ``INTERACTION_CREATE``, the echo of its edit); SimCord's parsed copy is then fed as before.
Left out: the websocket's framing and its TLS, and the heartbeat. ``bench_gateway_decode.py``
measures the same decoding alone.
"""

from __future__ import annotations

import zlib
from typing import Any

import discord.utils
import orjson
from simcord import gateway
from simcord import intents as sim_intents


class Gateway:
    def __init__(self) -> None:
        self.events = 0
        self.sent_bytes = 0
        self._original: Any = None

    def install(self, meter: Any) -> None:
        """``meter``: the load bench's CPU meter (``load_probe.Meter``)."""
        sender = zlib.compressobj()
        reader = discord.utils._ActiveDecompressionContext()
        feed = self._original = gateway.FakeGateway.feed
        counted = self

        def received(fake: Any, event: str, payload: Any) -> None:
            gate = sim_intents.required_intent(event, payload)
            if gate is None or getattr(fake.intents, gate):
                counted.events += 1
                raw = orjson.dumps({"op": 0, "s": counted.events, "t": event, "d": payload}, default=str)
                frame = sender.compress(raw) + sender.flush(zlib.Z_SYNC_FLUSH)
                counted.sent_bytes += len(frame)
                meter.enter(meter.current(), "bot")
                try:
                    text = reader.decompress(frame)
                    if text is not None:
                        discord.utils._from_json(text)
                finally:
                    meter.leave()
            feed(fake, event, payload)

        gateway.FakeGateway.feed = received  # type: ignore[method-assign]

    def remove(self) -> None:
        if self._original is not None:
            gateway.FakeGateway.feed = self._original  # type: ignore[method-assign]
            self._original = None
