"""A stand-in for the bot's Activity server, as the page sees it, for the page's browser tests.

It serves the real built page (``bot/activity/static``) the way ``bot/activity/server.py`` does and
speaks the same frames (docs/activity.md), but what it says is the test's script: the test sets the
board, sends frames, drops the socket, expires the tickets. It turns the SDK mock's codes
(``mock:<user id>``) into tickets of its own, and records everything the page sends: each sign-in,
the ticket of each socket, each frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web
from aiohttp.test_utils import TestServer
from PIL import Image, ImageDraw

import bot.activity

STATIC = Path(bot.activity.__file__).parent / "static"
CLIENT_ID = "1100000000000000001"
GUILD_ID = "200000000000000001"
CHANNEL_ID = "200000000000000002"
CLOSE_TICKET = 4001


def picture_png(width: int = 800, height: int = 450) -> bytes:
    """A board picture wider than a phone, to show it scales down to the card."""
    image = Image.new("RGB", (width, height), (88, 101, 242))
    draw = ImageDraw.Draw(image)
    for x in range(0, width, 100):
        draw.rectangle((x, height // 3, x + 60, 2 * height // 3), fill=(242, 243, 245))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@dataclass
class TableStandIn:
    names: dict[str, str] = field(default_factory=dict)  # user id -> name
    game: dict[str, Any] | None = None  # the hello's summary
    board: dict[str, Any] | None = None  # sent after every hello
    refusal: tuple[int, str] | None = None  # the answer to every sign-in, when set
    renew_next_pong: bool = False  # the next pong hands out a fresh ticket, as the bot's does once
    # a ticket is half spent
    sockets_refused: bool = False  # while set, a socket is answered 503, as a bot restarting is
    sign_ins: list[dict[str, Any]] = field(default_factory=list)  # body and locale of each
    handed: list[str] = field(default_factory=list)  # tickets handed out with pongs
    socket_tickets: list[str] = field(default_factory=list)  # the ticket of each socket tried
    received: list[dict[str, Any]] = field(default_factory=list)  # the page's frames, in order
    tickets: dict[str, str] = field(default_factory=dict)  # good ticket -> user id
    url: str = ""
    _sockets: list[tuple[web.Request, web.WebSocketResponse]] = field(default_factory=list)
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    _serial: itertools.count = field(default_factory=lambda: itertools.count(1))

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.index)
        app.router.add_static("/assets/", STATIC / "assets")
        app.router.add_get("/picture.png", self.picture)
        app.router.add_get("/api/config", self.config)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/ws", self.socket)
        return app

    # ------------------------------------------------------------------ what the page asks

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def picture(self, request: web.Request) -> web.Response:
        return web.Response(body=picture_png(), content_type="image/png")

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": CLIENT_ID})

    async def token(self, request: web.Request) -> web.Response:
        body = await request.json()
        await self._note(self.sign_ins, {**body, "locale": request.query.get("locale")})
        if self.refusal is not None:
            status, sentence = self.refusal
            return web.json_response({"error": sentence}, status=status)
        code = body.get("code", "")
        if not code.startswith("mock:"):
            return web.json_response({"error": "That sign-in code is not one of mine."}, status=401)
        user_id = code.removeprefix("mock:")
        ticket = self.issue(user_id)
        return web.json_response(
            {
                "ticket": ticket,
                "expires_in": 600,
                "socket": "/ws",
                "you": {"id": user_id, "name": self.name(user_id), "locale": "en-US"},
                "guild_id": GUILD_ID,
                "channel_id": CHANNEL_ID,
            }
        )

    async def socket(self, request: web.Request) -> web.StreamResponse:
        ticket = request.query.get("ticket", "")
        await self._note(self.socket_tickets, ticket)
        if self.sockets_refused:
            return web.Response(status=503, text="restarting")
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        user_id = self.tickets.get(ticket)
        if user_id is None:
            await socket.send_json({"type": "error", "code": "expired", "message": "Your sign-in expired."})
            await socket.close(code=CLOSE_TICKET, message=b"expired")
            return socket
        self._sockets.append((request, socket))
        await socket.send_json(
            {
                "type": "hello",
                "you": {"id": user_id, "name": self.name(user_id)},
                "guild_id": GUILD_ID,
                "channel_id": CHANNEL_ID,
                "game": self.game,
                "server_ms": int(time.time() * 1000),
            }
        )
        await socket.send_json({"type": "board", "board": self.board})
        with contextlib.suppress(ConnectionError):
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    continue
                frame = message.json()
                await self._note(self.received, frame)
                if frame.get("type") == "ping":
                    pong = {"type": "pong", "t": frame.get("t"), "server_ms": int(time.time() * 1000)}
                    if self.renew_next_pong:
                        self.renew_next_pong = False
                        pong["ticket"] = self.issue(user_id)
                    await socket.send_json(pong)
                    if "ticket" in pong:
                        await self._note(self.handed, pong["ticket"])
        return socket

    # ------------------------------------------------------------------ what the test does

    def name(self, user_id: str) -> str:
        return self.names.get(user_id, f"Member {user_id[-4:]}")

    def issue(self, user_id: str) -> str:
        ticket = f"ticket-{user_id}-{next(self._serial)}"
        self.tickets[ticket] = user_id
        return ticket

    async def send(self, frame: dict[str, Any]) -> None:
        """A frame to the page's newest socket."""
        await self._sockets[-1][1].send_json(frame)

    async def drop(self) -> None:
        """The connection cut without a close frame, as a network drop does."""
        request, _ = self._sockets.pop()
        assert request.transport is not None, "the socket has no connection to cut"
        request.transport.abort()

    def frames(self, kind: str) -> list[dict[str, Any]]:
        return [frame for frame in self.received if frame.get("type") == kind]

    async def wait_for(self, check) -> Any:
        """Until ``check()`` is true (re-checked whenever the page sends or signs in); its value.
        The caller puts a ceiling on it (``asyncio.timeout``)."""
        async with self._changed:
            return await self._changed.wait_for(check)

    async def _note(self, log: list, item: Any) -> None:
        async with self._changed:
            log.append(item)
            self._changed.notify_all()


@contextlib.asynccontextmanager
async def served(table: TableStandIn):
    """The stand-in on a free loopback port; ``table.url`` is its address."""
    server = TestServer(table.app(), host="127.0.0.1", port=0)
    await server.start_server()
    table.url = str(server.make_url("/"))
    try:
        yield table
    finally:
        await server.close()
