"""The Activity's web server, in the bot's own process: the sign-in route and one WebSocket per
open page (docs/activity.md).

Routes:
- ``POST /api/token`` ``{"code", "instance_id"}``: the page's ``authorize`` code signed in
  (``bot.activity.signin``); answers a ticket, who the member is and the socket's path.
- ``GET /ws?ticket=…`` and ``GET /s/{shard}/ws?ticket=…``: the page's socket. With several shard
  processes, a proxy in front sends ``/s/{shard}/`` to the process that runs that shard: the
  sign-in (any process) names the path of the member's server's shard, and a socket that reaches
  a process not running it is told so and closed, so a proxy routing wrong shows at once.

Frames are JSON objects with a ``type``. The page sends ``ping`` (its clock, for the heartbeat and
the latency); the server sends ``hello`` (who the page is and the channel's game, public facts
only), ``pong`` (with a fresh ticket once the page's is half spent, so a page that reconnects
after a drop or a restart signs in again by itself), and ``error`` frames, in the member's
language: a frame too large, not JSON, of no known type, or past the page's share of frames is
answered with one and changes nothing; a page that keeps flooding is closed.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import WSCloseCode, WSMsgType, web

from bot.activity.discord_api import DiscordApi
from bot.activity.signin import SignInRefused, sign_in
from bot.activity.tickets import Member, TicketRefused, Tickets
from bot.glue.board import game_title
from bot.i18n import N_, catalogue_locale, t
from bot.session.sessions import Session

if TYPE_CHECKING:
    from bot.app.config import Config
    from bot.session.host import Host

log = logging.getLogger(__name__)

MAX_FRAME = 4096  # bytes of one frame from a page: its largest real frame is a few hundred
MAX_BODY = 16 * 1024  # the sign-in's request body
# A page's share of frames: a burst of 20, then 10 a second (a player presses a few times a
# second at most). Past it a frame is dropped with an error frame, at most one a second.
RATE = 10.0
BURST = 20.0
FLOOD_CLOSE = 200  # frames dropped in a row: the page is closed
HEARTBEAT_S = 20.0  # aiohttp's own ping: a page gone without a close is noticed
# Close codes a page reads (4000–4999 are the application's): it signs in again on TICKET.
CLOSE_TICKET = 4001
CLOSE_ELSEWHERE = 4002
CLOSE_FLOOD = 4008

TOO_BIG = N_("That message was too large: nothing changed.")
MALFORMED = N_("That message could not be read: nothing changed.")
UNKNOWN = N_("I do not know that kind of message: nothing changed.")
SLOW_DOWN = N_("Too many messages at once: some were dropped and changed nothing. Slow down a little.")
ELSEWHERE = N_(
    "This server's games are run by another of my processes, and this address did not reach it. "
    "Tell the bot's operator."
)


def now_ms() -> int:
    return int(time.time() * 1000)


def shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count


@dataclass(eq=False)
class Page:
    """One open page: its socket, who it is, and its share of frames."""

    socket: web.WebSocketResponse
    member: Member
    ticket_exp: float
    allowance: float = BURST
    # perf_counter, not monotonic: a frame's share is real seconds, whatever clock a test holds.
    checked: float = field(default_factory=time.perf_counter)
    dropped: int = 0
    warned: float = 0.0

    def admits(self) -> bool:
        """A token bucket: whether one more frame fits the page's share now."""
        clock = time.perf_counter()
        self.allowance = min(BURST, self.allowance + (clock - self.checked) * RATE)
        self.checked = clock
        if self.allowance >= 1.0:
            self.allowance -= 1.0
            self.dropped = 0
            return True
        self.dropped += 1
        return False


def game_summary(session: Session | None, member: Member, title: str) -> dict[str, Any] | None:
    """The channel's lobby or game as everyone at the table may know it: its game, its state, who
    sits where. Nothing of any hand: the same facts as the channel's board."""
    if session is None:
        return None
    locale = catalogue_locale(member.locale)
    return {
        "kind": session.kind,
        "title": game_title(locale, title),
        "status": session.status,
        "players": [
            {"seat": seat, "name": session.name_of(seat), "computer": user_id < 0}
            for seat, user_id in enumerate(session.players)
        ],
        "host_id": str(session.host_id),
        "seat": session.seat_of(member.user_id),
    }


class ActivityServer:
    def __init__(self, bot: Host, config: Config) -> None:
        assert config.client_id is not None and config.client_secret
        self.bot = bot
        self.host = config.activity_host
        self.port = config.activity_port
        self.shards = config.shards()
        self.shard_count = config.shard_count
        self.api = DiscordApi(config.discord_api, config.client_id, config.client_secret, config.token)
        self.tickets = Tickets(config.client_secret, config.activity_ticket_s)
        self.pages: dict[int, set[Page]] = {}  # by channel id
        self.app = web.Application(client_max_size=MAX_BODY)
        self.app.router.add_post("/api/token", self.token)
        self.app.router.add_get("/ws", self.socket)
        self.app.router.add_get(r"/s/{shard:\d+}/ws", self.socket)
        self._runner: web.AppRunner | None = None
        self.address: tuple[str, int] | None = None  # where it listens, once started

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None)  # a ticket in a URL: never logged
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.address = (host, port)
        log.info("the Activity is served on http://%s:%s", host, port)

    async def stop(self) -> None:
        """Every page is told the server is going away (1012: it reconnects), then the server stops."""
        for page in [p for pages in self.pages.values() for p in pages]:
            with contextlib.suppress(Exception):
                await page.socket.close(code=WSCloseCode.SERVICE_RESTART, message=b"restarting")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.api.close()

    def socket_path(self, guild_id: int) -> str:
        if self.shard_count is None or self.shard_count == 1:
            return "/ws"
        return f"/s/{shard_of(guild_id, self.shard_count)}/ws"

    # ------------------------------------------------------------------ sign-in

    async def token(self, request: web.Request) -> web.Response:
        locale = catalogue_locale(request.query.get("locale", "en-US"))
        try:
            body = await request.json(loads=orjson.loads)
        except (ValueError, web.HTTPRequestEntityTooLarge):
            body = None
        if not isinstance(body, dict):
            return _refusal(400, t(locale, MALFORMED))
        try:
            member = await sign_in(self.api, body.get("code"), body.get("instance_id"))
        except SignInRefused as refusal:
            return _refusal(refusal.status, t(locale, refusal.message))
        ticket = self.tickets.issue(member)
        return web.json_response(
            {
                "ticket": ticket,
                "expires_in": self.tickets.ttl_s,
                "socket": self.socket_path(member.guild_id),
                "you": {"id": str(member.user_id), "name": member.name, "locale": member.locale},
                "guild_id": str(member.guild_id),
                "channel_id": str(member.channel_id),
            },
            dumps=lambda data: orjson.dumps(data).decode(),
        )

    # ------------------------------------------------------------------ the socket

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=HEARTBEAT_S, max_msg_size=16 * MAX_FRAME)
        await socket.prepare(request)
        hint = catalogue_locale(request.query.get("locale", "en-US"))
        try:
            member = self.tickets.read(request.query.get("ticket", ""))
        except TicketRefused as refusal:
            await _send(socket, _error(refusal.reason, t(hint, refusal.message)))
            await socket.close(code=CLOSE_TICKET, message=refusal.reason.encode())
            return socket
        wanted = request.match_info.get("shard")
        owned = self.shards is None or self.shards.owns(member.guild_id)
        if not owned or (
            wanted is not None
            and self.shard_count
            and int(wanted) != shard_of(member.guild_id, self.shard_count)
        ):
            await _send(socket, _error("elsewhere", t(catalogue_locale(member.locale), ELSEWHERE)))
            await socket.close(code=CLOSE_ELSEWHERE, message=b"elsewhere")
            return socket
        page = Page(socket, member, ticket_exp=time.time() + self.tickets.ttl_s)
        self.pages.setdefault(member.channel_id, set()).add(page)
        try:
            await self._send(page, self.hello(page))
            async for message in socket:
                if message.type is WSMsgType.TEXT:
                    await self._frame(page, message.data)
                elif message.type is WSMsgType.BINARY:
                    await self._refuse(page, "malformed", MALFORMED)
                if page.dropped >= FLOOD_CLOSE:
                    await socket.close(code=CLOSE_FLOOD, message=b"flood")
        finally:
            pages = self.pages.get(member.channel_id)
            if pages is not None:
                pages.discard(page)
                if not pages:
                    del self.pages[member.channel_id]
        return socket

    def hello(self, page: Page) -> dict[str, Any]:
        member = page.member
        return {
            "type": "hello",
            "you": {"id": str(member.user_id), "name": member.name},
            "guild_id": str(member.guild_id),
            "channel_id": str(member.channel_id),
            "game": self._summary(member),
            "server_ms": now_ms(),
        }

    def _summary(self, member: Member) -> dict[str, Any] | None:
        session = self.bot.sessions.get(member.channel_id)
        return game_summary(session, member, self.bot.title_of(session.kind)) if session else None

    async def _frame(self, page: Page, text: str) -> None:
        if not page.admits():
            if time.perf_counter() - page.warned >= 1.0:
                page.warned = time.perf_counter()
                await self._refuse(page, "slow_down", SLOW_DOWN)
            return
        if len(text.encode()) > MAX_FRAME:
            return await self._refuse(page, "too_big", TOO_BIG)
        try:
            frame = orjson.loads(text)
        except orjson.JSONDecodeError:
            frame = None
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            return await self._refuse(page, "malformed", MALFORMED)
        if frame["type"] == "ping":
            return await self._pong(page, frame)
        await self._refuse(page, "unknown", UNKNOWN)

    async def _pong(self, page: Page, frame: dict[str, Any]) -> None:
        pong: dict[str, Any] = {"type": "pong", "t": frame.get("t"), "server_ms": now_ms()}
        if page.ticket_exp - time.time() < self.tickets.ttl_s / 2:
            pong["ticket"] = self.tickets.issue(page.member)
            page.ticket_exp = time.time() + self.tickets.ttl_s
        await self._send(page, pong)

    async def _refuse(self, page: Page, code: str, message: str) -> None:
        await self._send(page, _error(code, t(catalogue_locale(page.member.locale), message)))

    @staticmethod
    async def _send(page: Page, frame: dict[str, Any]) -> None:
        await _send(page.socket, frame)


async def _send(socket: web.WebSocketResponse, frame: dict[str, Any]) -> None:
    """A frame to one page; a page gone meanwhile is no error (its loop ends by itself)."""
    if socket.closed:
        return
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.send_str(orjson.dumps(frame).decode())


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def _refusal(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)
