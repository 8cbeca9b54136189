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

import asyncio
import contextlib
import hashlib
import hmac
import itertools
import logging
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
import orjson
from aiohttp import WSCloseCode, WSMsgType, web

from bot.activity.cards import board_card, message_card
from bot.activity.discord_api import DiscordApi
from bot.activity.signin import SignInRefused, sign_in
from bot.activity.tickets import Member, TicketRefused, Tickets, ticket_key
from bot.glue import faults
from bot.glue.board import Board, Picture, game_title
from bot.glue.clock import now_ms
from bot.glue.components import GameButton, Press, bind
from bot.glue.replies import member_moderates
from bot.i18n import DEFAULT, N_, catalogue_locale, t
from bot.session.guarded import database_fault
from bot.session.press import Answer, Move
from bot.session.publisher import release
from bot.session.rematch import AGAIN, play_again, with_play_again
from bot.session.sessions import LOBBY, PLAYING, Session

if TYPE_CHECKING:
    from bot.app.config import Config
    from bot.session.host import Host

log = logging.getLogger(__name__)

# The page, built from web/ (its sources) and shipped inside the package: no Node at run time.
STATIC = Path(__file__).parent / "static"
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
CLOSE_SLOW = 4009
# Frames waiting for a page that reads slower than the game changes: past this the page is
# closed (it reconnects and is sent the table as it is then), never the game held up.
QUEUE = 256
# A page's press is placed on Discord's timeline as a button's is by its snowflake: at the moment
# the bot reads it, less the page's one-way trip (half its best round trip of the last few, as the
# bot times them), at most this much (docs/activity.md, "The race's clock").
LATENCY_BOUND_MS = 150
ROUND_TRIPS_KEPT = 8
PICTURES_KEPT = 512  # boards' pictures the pages may still ask for, newest kept
_NAME = re.compile(r"[a-z_]{1,32}")
_ARG = re.compile(r"[A-Za-z0-9_.\-]{0,64}")
_TAG = re.compile(r"[0-9a-f]{0,16}")
_VALUE = re.compile(r"[A-Za-z0-9_.:\-]{1,100}")

TOO_BIG = N_("That message was too large: nothing changed.")
MALFORMED = N_("That message could not be read: nothing changed.")
UNKNOWN = N_("I do not know that kind of message: nothing changed.")
SLOW_DOWN = N_("Too many messages at once: some were dropped and changed nothing. Slow down a little.")
SORRY = N_("Sorry, something went wrong on my side. The game is safe; try again.")
DATABASE_DOWN = N_("I could not reach my database just now. Nothing changed; try again in a minute.")
NO_GAME = N_("No game in this channel yet")
START_ONE = N_("Pick a game to open its lobby here, or start one with {commands}.")
UNKNOWN_GAME = N_("I do not run that game here. Start one with {commands}.")
# A page's presses that ask whether its member may moderate the channel's games (Manage Messages),
# as a button's read it from its interaction; and the two that open a lobby rather than press a game's.
MODERATED = frozenset({"start", "cancel", "add_computer", "remove_computer", AGAIN})
NEW = "new"
OPENING = frozenset({NEW, AGAIN})
ELSEWHERE = N_(
    "This server's games are run by another of my processes, and this address did not reach it. "
    "Tell the bot's operator."
)


def shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count


@dataclass(eq=False)
class Page:
    """One open page: its socket, who it is, its share of frames, and the frames waiting for it
    (sent by its own writer, in order, so nothing the session layer does waits on a page)."""

    socket: web.WebSocketResponse
    member: Member
    ticket_exp: float
    allowance: float = BURST
    # perf_counter, not monotonic: a frame's share is real seconds, whatever clock a test holds.
    checked: float = field(default_factory=time.perf_counter)
    dropped: int = 0
    warned: float = 0.0
    outbox: asyncio.Queue[str | int] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    # The bot's own round trips to the page (ms), the probes out (id -> perf_counter), and when the
    # board the page shows was sent (Discord's ms): no press of it is placed before that.
    round_trips: deque[float] = field(default_factory=lambda: deque(maxlen=ROUND_TRIPS_KEPT))
    probes: dict[int, float] = field(default_factory=dict)
    # When the page's latest boards were sent (Discord's ms), by revision, oldest first: a press is
    # never placed before the board it was pressed on was sent to the page.
    boards_at: OrderedDict[int, int] = field(default_factory=OrderedDict)

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

    def probe(self) -> int:
        """A probe's id, its sending time kept (at most a few out: a page that never answers
        keeps none of them)."""
        probe_id = max(self.probes, default=0) + 1
        if len(self.probes) >= 4:
            self.probes.pop(min(self.probes))
        self.probes[probe_id] = time.perf_counter()
        return probe_id

    def probed(self, probe_id: Any) -> None:
        sent = self.probes.pop(probe_id, None) if isinstance(probe_id, int) else None
        if sent is not None:
            self.round_trips.append((time.perf_counter() - sent) * 1000)

    def shown(self, rev: int, sent: int) -> None:
        """The board of revision ``rev`` went to the page at ``sent`` (the last 8 are kept)."""
        self.boards_at[rev] = sent
        while len(self.boards_at) > 8:
            self.boards_at.popitem(last=False)

    def placed_at(self, now: int, rev: Any) -> int:
        """Where a press the bot reads at ``now``, made on the board of revision ``rev``, goes on
        Discord's timeline: its trip taken off, but not before that board was sent to the page
        (a revision it does not know: the latest board sent)."""
        if not self.boards_at:
            return now  # when its board was sent is not known (a game restored, not yet redrawn)
        floor = self.boards_at.get(rev) if isinstance(rev, int) else None
        if floor is None:
            floor = next(reversed(self.boards_at.values()))
        return max(now - self.trip_ms(), floor)

    def trip_ms(self) -> int:
        """The page's one-way trip as the bot measured it, bounded; 0 before any measurement."""
        if not self.round_trips:
            return 0
        return min(LATENCY_BOUND_MS, int(min(self.round_trips) / 2))

    def put(self, frame: dict[str, Any] | str) -> None:
        """A frame for the page, sent by its writer; a page too far behind is closed."""
        text = frame if isinstance(frame, str) else orjson.dumps(frame).decode()
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.outbox = asyncio.Queue(1)
            self.close(CLOSE_SLOW)

    def close(self, code: int) -> None:
        """Closed by its writer once the frames before have gone (the error that says why)."""
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(code)

    async def write(self) -> None:
        while True:
            item = await self.outbox.get()
            if isinstance(item, int):
                await self.socket.close(code=item)
                return
            if self.socket.closed:
                return
            try:
                await self.socket.send_str(item)
            except (ConnectionError, RuntimeError):
                return


class PageAnswer(Answer):
    """Where a page's press is answered: its ``answer`` frame (the refusal or the ok), then the
    page's private frames."""

    def __init__(
        self,
        page: Page,
        press_id: int,
        cards: Callable[[dict[str, Any]], dict[str, Any]],
        moderates: bool = False,
    ) -> None:
        self.page = page
        self.moderates = moderates  # read for the presses that ask (``ActivityServer._press``)
        self.cards = cards  # a private message as a card (``ActivityServer.message_card``)
        self.press_id = press_id
        self.locale = catalogue_locale(page.member.locale)
        self._done = False

    def done(self) -> bool:
        return self._done

    async def private(self, text: str) -> None:
        if self._done:
            self.page.put({"type": "private", "message": {**message_card({"content": text})}})
            return
        self._done = True
        self.page.put({"type": "answer", "id": self.press_id, "ok": False, "text": text})

    async def tell(self, text: str) -> None:
        await self.acknowledge()
        self.page.put({"type": "private", "message": {**message_card({"content": text})}})

    async def news(self, message: dict[str, Any]) -> bool:
        try:
            self.page.put({"type": "private", "message": self.cards(message)})
        finally:
            release(message)
        return True

    async def acknowledge(self) -> None:
        if not self._done:
            self._done = True
            self.page.put({"type": "answer", "id": self.press_id, "ok": True})

    def member_name(self) -> str:
        return self.page.member.name

    def moderator(self) -> bool:
        return self.moderates


def game_summary(
    session: Session | None, member: Member | None, title: str, locale: str | None = None
) -> dict[str, Any] | None:
    """The channel's lobby or game as everyone at the table may know it: its game, its state, who
    sits where, and the page's own seat (``member``'s; left out without one). Nothing of any hand:
    the same facts as the channel's board. Its title speaks the member's language, or ``locale``."""
    if session is None:
        return None
    locale = catalogue_locale(member.locale) if member is not None else (locale or session.locale)
    summary: dict[str, Any] = {
        "kind": session.kind,
        "title": game_title(locale, title),
        "status": session.status,
        "players": [
            {"seat": seat, "id": str(user_id), "name": session.name_of(seat), "computer": user_id < 0}
            for seat, user_id in enumerate(session.players)
        ],
        "host_id": str(session.host_id),
    }
    if member is not None:
        summary["seat"] = session.seat_of(member.user_id)
    return summary


class ActivityServer:
    autostart = True  # started by the bot once its commands are synced (the tests start it themselves)

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
        # Each open game's board: its revision and when it was last sent (Discord's ms). Revisions
        # count across every channel and game, so a page never meets one twice.
        self.board_at: dict[int, tuple[int, int]] = {}
        self._revisions = itertools.count(1)
        self.pictures: OrderedDict[str, Picture] = OrderedDict()  # by token, newest last
        # A private message's picture (the Mime's card), by a random token only its owner's
        # socket is sent: a secret's picture is never found by a key anyone could hash.
        self.private_pictures: OrderedDict[str, bytes] = OrderedDict()
        self._picture_key = hashlib.sha256(b"pictures" + ticket_key(config.client_secret)).digest()
        publishers = getattr(bot, "publishers", None)
        if publishers is not None:
            publishers.tables.watch(self)  # every board and private message (bot.session.tables)
        self.app = web.Application(client_max_size=MAX_BODY)
        self.client_id = config.client_id
        self.app.router.add_get("/", self.index)
        self.app.router.add_get("/api/config", self.public_config)
        self.app.router.add_static("/assets/", STATIC / "assets", append_version=False)
        self.app.router.add_get(r"/api/picture/{token:[0-9a-f]{32}}.png", self.picture)
        self.app.router.add_get(r"/api/private/{token:[0-9a-f]{32}}.png", self.private_picture)
        self.app.router.add_post("/api/token", self.token)
        self.app.router.add_get("/ws", self.socket)
        self.app.router.add_get(r"/s/{shard:\d+}/ws", self.socket)
        self._runner: web.AppRunner | None = None
        self.address: tuple[str, int] | None = None  # where it listens, once started
        # How a page's press is run: at once, in the socket's own task. The tests run it as the
        # bot's own work instead, so that SimCord waits for what it does (tests/activity).
        self.dispatch: Callable[[Callable[[], Awaitable[None]]], Awaitable[None]] = _at_once
        # A member's own address of the table, where there is one outside Discord (the playground's).
        self.link_for: Callable[[int], str] | None = None

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

    # ------------------------------------------------------------------ the page

    async def index(self, request: web.Request) -> web.FileResponse:
        # Never cached: an upgraded bot's page must reach an open iframe on its next load.
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def public_config(self, request: web.Request) -> web.Response:
        """What the page needs before it signs in: the app's client id (public: it is in every
        OAuth2 link)."""
        return web.json_response({"client_id": str(self.client_id)})

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
        writer = asyncio.get_running_loop().create_task(page.write(), name=f"page:{member.channel_id}")
        try:
            page.put(self.hello(page))
            rev, sent = self.board_at.get(member.channel_id, (0, 0))
            if sent:
                page.shown(rev, sent)
            page.put(
                {
                    "type": "board",
                    "rev": rev,
                    "game": self._summary(member),
                    "board": self._current_board(member.channel_id, catalogue_locale(member.locale)),
                }
            )
            page.put({"type": "probe", "id": page.probe()})  # its trip is known before its first press
            async for message in socket:
                if message.type is WSMsgType.TEXT:
                    await self._frame(page, message.data)
                elif message.type is WSMsgType.BINARY:
                    self._refuse(page, "malformed", MALFORMED)
                if page.dropped >= FLOOD_CLOSE:
                    page.close(CLOSE_FLOOD)
                    break
            if not socket.closed:  # closed for a flood: what is queued goes out, then the close
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(writer, timeout=10)
        finally:
            writer.cancel()
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
                self._refuse(page, "slow_down", SLOW_DOWN)
            return
        if len(text.encode()) > MAX_FRAME:
            return self._refuse(page, "too_big", TOO_BIG)
        try:
            frame = orjson.loads(text)
        except orjson.JSONDecodeError:
            frame = None
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            return self._refuse(page, "malformed", MALFORMED)
        if frame["type"] == "ping":
            return self._pong(page, frame)
        if frame["type"] == "press":
            return await self._press(page, frame)
        if frame["type"] == "probe":
            return page.probed(frame.get("id"))
        self._refuse(page, "unknown", UNKNOWN)

    def _pong(self, page: Page, frame: dict[str, Any]) -> None:
        pong: dict[str, Any] = {
            "type": "pong",
            "t": frame.get("t"),
            "server_ms": now_ms(),
            "probe": page.probe(),
        }
        if page.ticket_exp - time.time() < self.tickets.ttl_s / 2:
            pong["ticket"] = self.tickets.issue(page.member)
            page.ticket_exp = time.time() + self.tickets.ttl_s
        page.put(pong)

    def _refuse(self, page: Page, code: str, message: str) -> None:
        page.put(_error(code, t(catalogue_locale(page.member.locale), message)))

    # ------------------------------------------------------------------ presses

    async def _press(self, page: Page, frame: dict[str, Any]) -> None:
        """A control pressed on the page: the same press as a button's, taken the same way
        (``GameCog.take``), refused for the same reasons in the same words. New game and Play
        again open a lobby as the channel's command and button do."""
        press = read_press(frame, page.member.channel_id)
        if press is None:
            return self._refuse(page, "malformed", MALFORMED)
        started = time.perf_counter()
        member = page.member
        # A member's rights are Discord's now, asked only for the presses that need them.
        moderates = press.name in MODERATED and await member_moderates(
            self.bot.get_guild(member.guild_id), member.channel_id, member.user_id
        )
        answer = PageAnswer(page, frame["id"], self.message_card, moderates)
        if press.name in OPENING:
            return await self._open(page, press, answer, started)
        session, refusal = self.bot.game_for(press, answer.locale)
        if session is None:
            await answer.private(refusal)
            self.bot.metrics.pressed("none", started, None)
            return
        cog = self.bot.game_cogs[session.kind]

        async def take() -> None:
            # The move's time is read as the bot takes it, on the bot's own clock (Discord's, as a
            # button press's snowflake is; in the tests, SimCord's).
            at = page.placed_at(now_ms(), frame.get("rev"))
            move = Move(member.user_id, answer.locale, at, press, answer)
            await cog.take(session, move)

        await self._run(take, answer, session.kind, started)

    async def _open(self, page: Page, press: Press, answer: PageAnswer, started: float) -> None:
        """New game (``arg`` the game) or Play again (``arg`` the finished game's key) from a
        page: a lobby posted in the channel, hosted by the page's member."""
        member = page.member
        guild = self.bot.get_guild(member.guild_id)
        guild_locale = guild.preferred_locale if guild is not None else None
        move = Move(member.user_id, answer.locale, now_ms(), press, answer)
        cog = self.bot.game_cogs.get(press.arg) if press.name == NEW else None
        if press.name == NEW and cog is None:
            await answer.private(
                t(answer.locale, UNKNOWN_GAME, commands=self.bot.new_commands(answer.locale))
            )
            return

        async def opening() -> None:
            if cog is None:
                await play_again(self.bot, move, member.guild_id, guild_locale)
            else:
                await cog.open_lobby_for(move, member.guild_id, guild_locale, cog.default_options())

        await self._run(opening, answer, cog.kind if cog else "none", started)

    async def _run(
        self, run: Callable[[], Awaitable[None]], answer: PageAnswer, kind: str, started: float
    ) -> None:
        """A press's work, answered as a button's is when it fails: the database down, Discord's
        hiccup, or the bot's apology, logged; the socket goes on."""
        channel = answer.page.member.channel_id
        try:
            await self.dispatch(run)
        except Exception as error:
            # Status and code only of Discord's errors: an error's text may quote what was sent.
            status = f"{getattr(error, 'status', '?')}/{getattr(error, 'code', '?')}"
            if database_fault(error):
                log.warning("page press in channel %s not taken: the database failed", channel)
                text = t(answer.locale, DATABASE_DOWN)
            elif faults.forbidden(error):  # the bot may not post there (a lobby opened from a page)
                log.warning("page press in channel %s: Discord refused it (%s)", channel, status)
                missing = faults.missing_permissions(self.bot.get_channel(channel), getattr(error, "code", 0))
                text = faults.permission_notice(answer.locale, f"<#{channel}>", missing)
            elif faults.discords_fault(error):
                log.warning("page press in channel %s: Discord failed (%s)", channel, status)
                text = t(answer.locale, faults.DISCORD_HICCUP)
            else:
                log.exception("page press in channel %s failed", channel)
                text = t(answer.locale, SORRY)
            await answer.private(text)
            return
        finally:
            self.bot.metrics.pressed(kind, started, None)  # counted as a button's press is
        await answer.acknowledge()  # a look, or a press whose answer was its board

    # ------------------------------------------------------------------ what the session layer shows

    def board(self, session: Session, board: Board) -> None:
        """The channel's board changed: every page open on it is sent the new one."""
        # Kept even with no page open: a page opening later is sent this board, and none of its
        # presses is placed before it was shown (``_press``). Forgotten with its game: a page
        # opening then is shown no board.
        rev, sent = next(self._revisions), now_ms()
        if self.bot.sessions.get(session.channel_id) is session:
            self.board_at[session.channel_id] = (rev, sent)
        else:
            self.board_at.pop(session.channel_id, None)
        pages = self.pages.get(session.channel_id)
        if not pages:
            return
        for page in pages:
            page.shown(rev, sent)
        # The card and the game's summary are made and encoded once per language of the pages open;
        # each page's frame only adds its own seat to the summary (a 20-seat game's change costs 20
        # small strings, not 20 summaries).
        shared = self.bot.sessions.get(session.channel_id)
        spoken = session.locale or DEFAULT
        drawn = {spoken: self._card(board)}
        for locale in {catalogue_locale(page.member.locale) for page in pages} - set(drawn):
            theirs = self._board_in(session, locale)
            drawn[locale] = self._card(theirs) if theirs is not None else drawn[spoken]
        if shared is None:
            # The game ended: its last board in each page's language, and a new game offered.
            drawn = {
                locale: {**made, "controls": made["controls"] + self._new_games(session.channel_id, locale)}
                for locale, made in drawn.items()
            }
        cards = {locale: orjson.dumps(made).decode() for locale, made in drawn.items()}
        card = cards[spoken]
        if shared is None:
            for page in pages:
                theirs = cards.get(catalogue_locale(page.member.locale), card)
                page.put(f'{{"type":"board","rev":{rev},"game":null,"board":{theirs}}}')
            return
        heads = {
            locale: orjson.dumps(game_summary(shared, None, self.bot.title_of(shared.kind), locale)).decode()[
                :-1
            ]
            for locale in cards  # each without its closing brace: the seat goes before it
        }
        for page in pages:
            seat = shared.seat_of(page.member.user_id)
            mine = "null" if seat is None else seat
            locale = catalogue_locale(page.member.locale)
            head, theirs = heads.get(locale, heads[next(iter(heads))]), cards.get(locale, card)
            page.put(f'{{"type":"board","rev":{rev},"game":{head},"seat":{mine}}},"board":{theirs}}}')

    def private(self, session: Session, seat: int, message: dict[str, Any]) -> bool:
        """A private message for ``seat``: to that member's pages on the channel, nobody else's."""
        pages = self.pages.get(session.channel_id)
        if not pages or not 0 <= seat < len(session.players):
            return False
        member = session.players[seat]
        mine = [page for page in pages if page.member.user_id == member]
        if not mine:
            return False
        frame = orjson.dumps({"type": "private", "message": self.message_card(message)}).decode()
        for page in mine:
            page.put(frame)
        return True

    def reaches(self, session: Session, seat: int) -> bool:
        pages = self.pages.get(session.channel_id)
        if not pages or not 0 <= seat < len(session.players):
            return False
        member = session.players[seat]
        return any(page.member.user_id == member for page in pages)

    def message_card(self, message: dict[str, Any]) -> dict[str, Any]:
        """A private message as a card, its picture (if any) kept under a random token."""
        drawn = message_card(message)
        file = message.get("file")
        if file is not None:
            file.fp.seek(0)
            token = secrets.token_hex(16)
            self.private_pictures[token] = file.fp.read()
            file.fp.seek(0)  # the same message may still go to Discord
            while len(self.private_pictures) > PICTURES_KEPT:
                self.private_pictures.popitem(last=False)
            drawn["image"] = f"/api/private/{token}.png"
        return drawn

    async def private_picture(self, request: web.Request) -> web.Response:
        found = self.private_pictures.get(request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound
        return web.Response(
            body=found, content_type="image/png", headers={"Cache-Control": "private, no-store"}
        )

    def _current_board(self, channel_id: int, locale: str) -> dict[str, Any] | None:
        """The card a page opening now is shown: the channel's board; with no game, a card
        offering one (a game restored and not yet drawn again: none until it is)."""
        session = self.bot.sessions.get(channel_id)
        if session is None:
            return self._no_game(channel_id, locale)
        publisher = self.bot.publishers.get(channel_id)
        if publisher is None or publisher.shown is None:
            return None
        theirs = self._board_in(session, locale) if locale != (session.locale or DEFAULT) else None
        return self._card(theirs if theirs is not None else publisher.shown[1])

    def _no_game(self, channel_id: int, locale: str) -> dict[str, Any]:
        embed = discord.Embed(
            title=t(locale, NO_GAME),
            description=t(locale, START_ONE, commands=self.bot.new_commands(locale)),
        )
        return {**board_card(Board(embed=embed), None), "controls": self._new_games(channel_id, locale)}

    def _new_games(self, channel_id: int, locale: str) -> list[list[dict[str, Any]]]:
        """A control for each game the bot runs, opening its lobby here with its usual options."""
        items = [
            GameButton(channel_id, NEW, kind, label=game_title(locale, cog.title), row=index // 5)
            for index, (kind, cog) in enumerate(self.bot.game_cogs.items())
        ]
        return board_card(Board(embed=discord.Embed(), items=items), None)["controls"]

    def _board_in(self, session: Session, locale: str) -> Board | None:
        """The channel's board drawn again in ``locale``, for a page whose member speaks it: the
        same renderer, the same state, that member's words (and a picture in them). A lobby, a
        game in play, and a game over's final board (its record waiting, or done and offering
        Play again); None for a lobby closed or a game ended early (the channel's is shown)."""
        cog = self.bot.game_cogs.get(session.kind)
        if cog is None:
            return None
        alive = self.bot.sessions.get(session.channel_id) is session
        engine = session.engine
        over = session.status == PLAYING and engine is not None and engine.is_over
        if not (alive or over) or (session.status == PLAYING and engine is None):
            return None
        spoken = session.locale
        session.locale = locale  # put back before anything else runs: no await in between
        try:
            if session.status == LOBBY:
                board = cog._lobby(session)
            elif not over:
                board = cog._offering_table(session, cog.render_board(session))
            else:
                assert engine is not None
                final = cog.render_final(session, engine.result())
                # Still in the registry: its record waits on the database; gone: recorded.
                board = (
                    cog._record_waits(session, final)
                    if alive
                    else with_play_again(final, session.game_key, locale)
                )
        finally:
            session.locale = spoken
        bind(board.items, session.tag)
        return board

    def _card(self, board: Board) -> dict[str, Any]:
        image = None
        if board.picture is not None:
            token = hmac.new(self._picture_key, repr(board.picture.key).encode(), hashlib.sha256).hexdigest()[
                :32
            ]
            self.pictures[token] = board.picture
            self.pictures.move_to_end(token)
            while len(self.pictures) > PICTURES_KEPT:
                self.pictures.popitem(last=False)
            image = f"/api/picture/{token}.png"
        return board_card(board, image)

    async def picture(self, request: web.Request) -> web.Response:
        """A board's picture, by the token only the pages sent that board know; drawn in the
        pictures' thread if it is not kept encoded."""
        found = self.pictures.get(request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound
        return web.Response(
            body=await found.png(),
            content_type="image/png",
            headers={"Cache-Control": "private, max-age=3600"},
        )


async def _at_once(run: Callable[[], Awaitable[None]]) -> None:
    await run()


def read_press(frame: dict[str, Any], channel_id: int) -> Press | None:
    """A page's press frame as a ``Press`` in the page's own channel, or None when any part of it
    is not what a control of the bot's could send."""
    name, arg, game = frame.get("name"), frame.get("arg", ""), frame.get("game", "")
    values = frame.get("values", [])
    if not isinstance(frame.get("id"), int) or not (isinstance(name, str) and _NAME.fullmatch(name)):
        return None
    if not (isinstance(arg, str) and _ARG.fullmatch(arg)) or not (
        isinstance(game, str) and _TAG.fullmatch(game)
    ):
        return None
    if not isinstance(values, list) or len(values) > 25:
        return None
    if not all(isinstance(v, str) and _VALUE.fullmatch(v) for v in values):
        return None
    return Press(channel_id, name, arg, tuple(values), game=game)


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
