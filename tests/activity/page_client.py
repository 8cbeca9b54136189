"""A page as the tests drive it without a browser: signed in against the stand-in for Discord's
API, its socket open, its presses sent as the page sends them and every frame it is sent kept."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from typing import Any

import aiohttp

INSTANCE = "i-77-gc-1-2"


def seat_at_table(world, discord_api, *members) -> None:
    """The Activity instance in the world's channel with ``members`` in it; everyone in the server."""
    discord_api.add_instance(INSTANCE, world.guild.id, world.channel.id, [m.id for m in members])
    discord_api.members |= {(world.guild.id, m.id) for m in world.members}


class PageClient:
    def __init__(self, http: aiohttp.ClientSession, base: str, quiet=None, delay_s: float = 0.0) -> None:
        self.http = http
        self.base = base
        self.delay_s = delay_s  # how late the page answers the bot's probes: a page far away
        self.quiet = quiet  # until the bot's work for a press has settled (the ``table`` fixture)
        self.frames: list[dict[str, Any]] = []
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None
        self._ids = itertools.count(1)
        self._arrived = asyncio.Event()

    async def open(self, discord_api, member, locale: str = "en-US") -> PageClient:
        code = discord_api.add_user(member.id, member.name, locale)
        async with self.http.post(
            f"{self.base}/api/token", json={"code": code, "instance_id": INSTANCE}
        ) as answer:
            assert answer.status == 200, await answer.text()
            signin = await answer.json()
        self.path, self.ticket = signin["socket"], signin["ticket"]
        await self.connect()
        return self

    async def connect(self) -> None:
        """The socket opened (again) with the newest ticket, as the page does after a drop."""
        after = len(self.frames)
        self.socket = await self.http.ws_connect(f"{self.base}{self.path}?ticket={self.ticket}")
        self._reader = asyncio.ensure_future(self._read())
        await self.wait_for(lambda f: f["type"] == "board", after)

    async def closed(self) -> int:
        """Until the bot closes the socket; its close code."""
        assert self._reader is not None and self.socket is not None
        await self._reader
        return self.socket.close_code

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                frame = message.json()
                self.frames.append(frame)
                self._arrived.set()
                if frame.get("ticket"):
                    self.ticket = frame["ticket"]  # a pong's renewed ticket: the newest
                probe = frame.get("id") if frame["type"] == "probe" else frame.get("probe")
                if isinstance(probe, int):  # as the page does: the probe straight back
                    asyncio.ensure_future(self._answer_probe(probe))

    async def _answer_probe(self, probe: int) -> None:
        if self.delay_s:
            # Real seconds, slept in a thread: the bot times its round trips on the real clock,
            # and SimCord holds the loop's own timers to its virtual one.
            await asyncio.get_running_loop().run_in_executor(None, time.sleep, self.delay_s)
        assert self.socket is not None
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.socket.send_json({"type": "probe", "id": probe})

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    async def wait_for(self, match, after: int = 0, within: float = 30) -> dict[str, Any]:
        """The first frame from index ``after`` on that ``match`` es, waiting for it to arrive."""
        async with asyncio.timeout(within):
            while True:
                for frame in self.frames[after:]:
                    if match(frame):
                        return frame
                self._arrived.clear()
                await self._arrived.wait()

    def board(self) -> dict[str, Any] | None:
        """The board the page shows now: the last board frame."""
        return next(f["board"] for f in reversed(self.frames) if f["type"] == "board")

    def control(self, label: str) -> dict[str, Any]:
        board = self.board()
        assert board is not None
        return next(c for row in board["controls"] for c in row if c.get("label") == label)

    def privates(self) -> list[dict[str, Any]]:
        return [f["message"] for f in self.frames if f["type"] == "private"]

    def rev(self) -> int | None:
        """The revision of the board the page shows now."""
        return next((f.get("rev") for f in reversed(self.frames) if f["type"] == "board"), None)

    async def press(
        self, label: str | None = None, *, press: dict[str, Any] | None = None, rev: int | None = None
    ) -> dict[str, Any]:
        """Press a control of the board on show by its label (or send ``press`` as it is), made on
        the board on show (or the board of revision ``rev``), and the answer to it."""
        what = press if press is not None else self.control(label)["press"]
        press_id = next(self._ids)
        after = len(self.frames)
        assert self.socket is not None
        shown = rev if rev is not None else self.rev()
        await self.socket.send_json({"type": "press", "id": press_id, "rev": shown, **what})
        answer = await self.wait_for(lambda f: f["type"] == "answer" and f["id"] == press_id, after)
        if self.quiet is not None:
            await self.quiet()
        return answer
