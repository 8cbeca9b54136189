"""A seeded chaos driver: members press random buttons (legal and illegal, on the board and on old
messages), run /board, /end, /leaderboard, /stats and /replay, beside computer players in odd
seeds' games (turn pings and a computer Mime's emoji then meet the faults too), while Discord's faults are injected at random moments through
SimCord (HTTP 5xx and 429, 403 Missing Permissions / Missing Access, 404 Unknown Message and
Unknown Interaction, a gateway disconnect and resume, a bot restart). It counts what members
would notice and what the bot got wrong; ``Chaos.summary`` is the one line a run prints.

SimCord replaces discord.py's HTTP transports, so discord.py's own retries (5xx, 429) never run
under it: an injected fault reaches the bot as the error discord.py would raise once it gave up.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from chaos.database import DatabaseChaos
from shown import V2, Control, above, card, cards, controls, text
from simcord import _dpy_internals
from simcord.http import router
from simcord.results import to_discord_message
from simcord_clock import clock_held_still

from bot.games import registry
from bot.glue import faults
from bot.glue.components import bind
from bot.session import lobby
from bot.session.guarded import database_fault
from bot.session.sessions import PLAYING
from bot.session.timers import SessionTimers

# Every registered game, the test-only ones too (tests/games): a new game is played here by being registered.
COGS = list(registry.games())
SUMMARIES: list[str] = []  # one line per game played, printed at the end of the run (tests/conftest.py)
EPHEMERAL = 64
APPLICATION_COMMAND = 2  # an interaction's type: a slash command
# The driver moves the clock itself (``advance_time``): SimCord's real-time fallback for a bare
# loop timer (a session's ``Alarm``) is turned off for the run (``virtual_alarms``), so a busy
# machine can neither fire a game's timer by the wall clock between two steps nor make such a
# firing overrun a settle. The settle timeout is generous for the same reason (a board picture
# drawn on a loaded machine); it costs nothing when the bot is idle sooner.
SETTLE_S = 2.5
# Options that keep a game short: timers move it on when nobody presses (a game not named here
# plays with its own defaults).
OPTIONS = {
    "kabuki": {"grace": 0, "race_window": 1500, "turn_timer": 10, "reveal": 2},
    "masks": {"guess_seconds": 10},
    "kingdom": {"length": 2, "timer": 10},
}
# A game with computer seats (odd seeds): turns long enough for a turn ping (30 s) to fall due, so
# pings are sent and deleted under faults, and Masks in emoji mode, where a computer Mime posts.
COMPUTER_OPTIONS = {
    "kabuki": {"grace": 0, "race_window": 1500, "turn_timer": 45, "reveal": 2},
    "masks": {"guess_seconds": 45, "mime_mode": "emoji"},
    "kingdom": {"length": 2, "timer": 45},
}
COMPUTERS = 2  # seated by the host, beside two members; the other members look on and press
# Commands any member may run during a game; Discord's faults meet them as well as the board.
COMMANDS = ["leaderboard", "stats", "replay"]
ENGINE_OPTIONS = {"masks": {"race_window_ms": 1500}}  # set on the lobby before Start: no slash option
# Every custom id the bot may hand out: game presses (pc/ps), and the registered dynamic items.
CUSTOM_ID = re.compile(r"^(p[cs]:\d+:([0-9a-f]{8}:)?[a-z_]+(:[a-z0-9_.-]*)*|[a-z]+:[A-Za-z0-9_:.-]*)$")


@dataclass
class Drawn:
    """Components as a message holds them (a V2 card), for ``tests/shown.py`` to read."""

    components: list[dict[str, Any]]
    flags: int = V2


@dataclass
class Fault:
    """One kind of fault: what it hits and how Discord answers."""

    name: str
    method: str
    path: str  # {ch}: the game's channel; {board}: its board message
    status: int
    code: int = 0
    message: str = "Internal Server Error (chaos)"
    times: tuple[int, int] | None = (1, 2)  # None: an outage, until the driver lifts it


FAULTS = [
    Fault("board edit 5xx", "PATCH", "/channels/{ch}/messages/*", 500),
    Fault("board edit 502", "PATCH", "/channels/{ch}/messages/*", 502, message="Bad Gateway"),
    Fault("board edit 503", "PATCH", "/channels/{ch}/messages/*", 503, message="Service Unavailable"),
    Fault("send 5xx", "POST", "/channels/{ch}/messages", 503, message="Service Unavailable"),
    Fault("send 429", "POST", "/channels/{ch}/messages", 429, message="You are being rate limited."),
    Fault("delete 5xx", "DELETE", "/channels/{ch}/messages/*", 500),
    Fault("delete 404 unknown message", "DELETE", "/channels/{ch}/messages/*", 404, 10008, "Unknown Message"),
    Fault("followup 5xx", "POST", "/webhooks/*/*", 500),
    Fault("callback 5xx", "POST", "/interactions/*/callback", 503, times=(1, 1)),
    Fault("429 route", "PATCH", "/channels/{ch}/messages/*", 429, message="You are being rate limited."),
    Fault("429 global", "*", "/*", 429, message="You are being rate limited. (global)", times=(1, 1)),
    Fault("403 missing permissions", "*", "/channels/{ch}/*", 403, 50013, "Missing Permissions", None),
    Fault("403 missing access", "*", "/channels/{ch}/*", 403, 50001, "Missing Access", None),
    Fault("404 unknown message", "PATCH", "/channels/{ch}/messages/{board}", 404, 10008, "Unknown Message"),
    Fault("404 unknown interaction", "POST", "/interactions/*/callback", 404, 10062, "Unknown Interaction"),
]
COMMAND_FAULTS = [f for f in FAULTS if f.path.startswith(("/interactions", "/webhooks"))]


class LogTap(logging.Handler):
    """Every log record of the run, to count errors and look for secrets in log lines."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Chaos:
    env: Any
    world: Any
    kind: str
    seed: int
    restart: Callable[[], Awaitable[Any]]
    steps: int = 150
    rng: random.Random = field(init=False)
    counts: collections.Counter[str] = field(default_factory=collections.Counter)
    fired: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)
    outages: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (lifted at step, fault)
    private_lines: set[str] = field(default_factory=set)
    fired_paths: list[str] = field(default_factory=list)
    gateway_down: bool = False
    game_key: str | None = None
    computers: bool | None = None  # None: odd seeds seat computers
    requests: collections.Counter[str] = field(default_factory=collections.Counter)
    answered_faults: set[int] = field(default_factory=set)  # ids of errors the bot answered
    database: DatabaseChaos | None = None  # the database's faults (tests/chaos/database.py)
    gone: str = ""  # what the coda did: "channel deleted" or "bot removed"

    def __post_init__(self) -> None:
        self.rng = random.Random(f"chaos:{self.kind}:{self.seed}")
        self.channel = self.world.channel
        # Four players and an onlooker; in a game with computers, two players and two computer
        # seats, the other members looking on. Computer moves are armed on the sessions' own
        # alarms, which only the virtual clock fires here (``virtual_alarms``), and a restart,
        # a press and a command hold the clock still (``simcord_clock``), so no timer of the bot
        # (a board edit's pause, a database retry's) runs on the wall clock: a seed replays
        # exactly, however slow the machine.
        if self.computers is None:
            self.computers = self.seed % 2 == 1
        self.members = self.world.members[:5]
        self.tap = LogTap()
        if self.database is None:
            self.database = DatabaseChaos(self.kind, self.seed, "sqlite")

    # ------------------------------------------------------------------ the world as it is

    @property
    def bot(self) -> Any:
        return self.env.bot

    @property
    def session(self) -> Any:
        return self.bot.sessions.get(self.channel.id)

    def stored(self) -> list[Any]:
        return sorted(self.env.backend.messages.get(self.channel.id, {}).values(), key=lambda m: m.id)

    def board(self) -> Any | None:
        session = self.session
        if session is None or session.board_message_id is None:
            return None
        return self.env.backend.messages.get(self.channel.id, {}).get(session.board_message_id)

    # ------------------------------------------------------------------ the run

    async def play(self) -> None:
        logging.getLogger().addHandler(self.tap)
        original = router._check_faults
        router._check_faults = self._watch_faults(original)
        wakeup = _dpy_internals.is_intentional_wait_wakeup
        _dpy_internals.is_intentional_wait_wakeup = virtual_alarms(wakeup)
        # The game's seed and salt from the run's seed: the same run deals the same cards.
        lobby_secrets = lobby.secrets
        lobby.secrets = SeededSecrets(self.rng.getrandbits(64))  # type: ignore[assignment]
        database = self.database
        assert database is not None
        try:
            database.tap(self.bot.storage, self.bot.guard)
            await self._open()
            for step in range(self.steps):
                if self.session is None:
                    break
                self._lift_outages(step)
                await database.step(step, self.bot)
                await self._step(step)
            await self._drain()
            await self._check_end()
            self._check_pings()
            self._check_secrets()
            self._check_notices()
            await self._gone_coda()
        finally:
            router._check_faults = original
            _dpy_internals.is_intentional_wait_wakeup = wakeup
            lobby.secrets = lobby_secrets  # type: ignore[assignment]
            logging.getLogger().removeHandler(self.tap)
            await database.lift()  # a stopped server runs again for the tests after this one
        self._check_errors()

    def _watch_faults(self, original: Callable[..., None]) -> Callable[..., None]:
        def check(backend: Any, method: str, path: str) -> None:
            if path.startswith(f"/channels/{self.channel.id}/messages"):
                self.requests[f"{method} {'message' if path.count('/') > 3 else 'messages'}"] += 1
            try:
                original(backend, method, path)
            except Exception as error:
                self.fired[f"{getattr(error, 'status', '?')}/{getattr(error, 'code', '?')}"] += 1
                self.fired_paths.append(path)
                self.counts["deletes refused"] += method == "DELETE"
                raise

        return check

    async def _open(self) -> None:
        host, *others = self.members[: 4 - COMPUTERS if self.computers else 4]
        options = COMPUTER_OPTIONS if self.computers else OPTIONS
        await host.slash(self.channel, f"{self.kind} new", **options.get(self.kind, {}))
        for member in others:
            await member.click(self.channel.last_message, label="Join")
        for _ in range(COMPUTERS if self.computers else 0):
            await host.click(self.channel.last_message, label="Add computer")
        self.session.options.update(ENGINE_OPTIONS.get(self.kind, {}))
        await host.click(self.channel.last_message, label="Start")
        assert self.session is not None and self.session.status == PLAYING
        self.game_key = self.session.game_key

    async def _step(self, step: int) -> None:
        roll = self.rng.random()
        if roll < 0.25:
            await self._press(self._board_or_old())
        elif roll < 0.5:
            await self._press(self.board(), self._someone_to_play())
        elif roll < 0.72:
            # With computers, the members dawdle now and then, so a turn waits long enough to ping.
            longest = 40.0 if self.computers and self.rng.random() < 0.3 else 4.0
            await self.env.advance_time(self.rng.uniform(0.2, longest))
        elif roll < 0.86:
            self._inject(step)
        elif roll < 0.88:
            await self._slash("board", self.rng.choice(self.members))
        elif roll < 0.9:
            await self._slash(self.rng.choice(COMMANDS), self.rng.choice(self.members))
        elif roll < 0.93:
            await self._slash("end", self.members[1 + self.rng.randrange(4)])  # never the host
        elif roll < 0.97 or self.counts["reconnects"] >= 3:
            await self._checkpoint()
        else:
            await self._gateway_blip()
        if step == self.steps // 4 and self.session is not None:
            # Faults meant for the old process's requests are dropped: discord.py would wait out
            # a 429 at login, which SimCord's transport does not.
            self._clear_faults()
            await self.database.lift()  # else the new process could not load its games
            await self.restart()
            self.database.tap(self.bot.storage, self.bot.guard)
            self.counts["restarts"] += 1

    def _someone_to_play(self) -> Any:
        """A member with something legal to do now (whose turn it is), else anyone."""
        session = self.session
        if session is None or session.engine is None:
            return self.rng.choice(self.members)
        seats = [seat for seat in range(len(session.players)) if session.engine.legal_actions(seat)]
        ids = {session.players[seat] for seat in seats}
        return self.rng.choice([m for m in self.members if m.id in ids] or self.members)

    def _board_or_old(self) -> Any | None:
        messages = [m for m in self.stored() if controls(m) and not m.flags & EPHEMERAL]
        if not messages:
            return None
        board = self.board()
        if board is not None and self.rng.random() < 0.85:
            return board
        return self.rng.choice(messages)

    async def _press(self, message: Any, member: Any = None) -> None:
        if message is None:
            return
        member = member or self.rng.choice(self.members)
        controls = self._controls(message)
        if not controls:
            return
        control = self.rng.choice(controls)
        target = to_discord_message(self.env, message)
        self.database.pressing()
        try:
            if control.type == 3:
                if not control.values:
                    return
                value = self.rng.choice(control.values)
                with clock_held_still(self.env):
                    result = await member.select(target, [value], custom_id=control.custom_id)
            else:
                with clock_held_still(self.env):
                    result = await member.click(target, custom_id=control.custom_id)
        finally:
            self.database.phase = "timer"
        self._answered(result, "press")

    @staticmethod
    def _controls(message: Any) -> list[Control]:
        """The controls a member may press: every enabled one with an id, in the card's rows or
        beside its lines (``tests/shown.py`` walks the nested layout)."""
        if message is None:
            return []
        return [c for c in controls(message) if c.custom_id and not c.disabled]

    async def _slash(self, name: str, member: Any) -> None:
        if name in COMMANDS and self.rng.random() < 0.5:
            # Often Discord fails this very command: its answer, or the follow-up of a deferred one.
            fault = self.rng.choice(COMMAND_FAULTS)
            self.env.inject_error(fault.method, fault.path, status=fault.status, code=fault.code, times=1)
            self.counts["faults injected"] += 1
        cursor = self.env.error_cursor
        options = {"game": self.kind} if name == "leaderboard" else {}
        with clock_held_still(self.env):
            result = await member.slash(self.channel, name, **options)
        self._answered(result, f"/{name}")
        # SimCord records every error that reaches the command tree's handler, also one the bot
        # answered as Discord's fault (``GameBot.answer_fault``): those are no bug of the bot.
        for error in self.env.errors_since(cursor):
            original = getattr(error, "original", error)
            if faults.discords_fault(original) or faults.forbidden(original) or database_fault(original):
                self.answered_faults.add(id(error))
                self.counts["commands Discord failed, answered"] += not database_fault(original)

    def _answered(self, result: Any, what: str) -> None:
        """A press or command is answered, or refused privately; unanswered only when Discord
        refused the answer itself or never delivered the press (the gateway was down)."""
        self.counts["presses"] += 1
        interaction = result._interaction
        texts = [text(f) for f in result.followups if f.ephemeral]
        if result.response is not None and result.response.ephemeral:
            texts.append(text(result.response))
        untrue = self.database.check_answer(texts, self.bot, self.session)
        if untrue is not None:
            self.failures.append(untrue)
        if result.acknowledged:
            # A replay shows a finished game face up, by design: nothing in it is a secret any more,
            # and its boards read as the live game's do (a title, who deals first).
            secret = what != "/replay"
            response = result.response
            if response is not None and response.ephemeral:
                self.counts["answered privately"] += 1
                if secret:
                    self._remember_private(response)
            else:
                self.counts["answered"] += 1
            for followup in result.followups:
                if followup.ephemeral and secret:
                    self._remember_private(followup)
            return
        if self.gateway_down:
            self.counts["not delivered (gateway down)"] += 1
        elif any(f"/interactions/{interaction.id}/" in path for path in self.fired_paths):
            self.counts["answer refused by Discord"] += 1
        else:
            self.counts["interaction failed"] += 1
            self.failures.append(f"{what} {interaction.data.get('custom_id', '')} left unanswered")

    def _remember_private(self, message: Any) -> None:
        """The lines a member was told privately: the words above or without a card, and each
        card's title, description and field values (``tests/shown.py`` reads a card back)."""
        texts = [above(message) or ""]
        for embed in cards(message):
            texts += [embed.title or "", embed.description or ""]
            texts += [f.value for f in embed.fields]
        for said in texts:
            self.private_lines.update(line.strip() for line in said.splitlines() if len(line.strip()) >= 20)

    # ------------------------------------------------------------------ faults

    def _inject(self, step: int) -> None:
        fault = self.rng.choice(FAULTS)
        if fault.times is None and self.outages:
            return  # one outage at a time
        session = self.session
        board = session.board_message_id if session is not None else None
        if "{board}" in fault.path and board is None:
            return
        path = fault.path.format(ch=self.channel.id, board=board)
        times = None if fault.times is None else self.rng.randint(*fault.times)
        self.env.inject_error(
            fault.method, path, status=fault.status, code=fault.code, message=fault.message, times=times
        )
        self.counts["faults injected"] += 1
        if times is None:
            self.counts["outages"] += 1
            self.outages.append((step + self.rng.randint(3, 10), self.env.backend.faults[-1]))

    def _lift_outages(self, step: int) -> None:
        for entry in list(self.outages):
            until, fault = entry
            if step >= until:
                with contextlib.suppress(ValueError):
                    self.env.backend.faults.remove(fault)
                self.outages.remove(entry)

    def _clear_faults(self) -> None:
        self.env.backend.faults.clear()
        self.outages.clear()

    async def _gateway_blip(self) -> None:
        """A disconnect and resume, in the middle of a race when one is open; a press made
        meanwhile never reaches the bot."""
        shard = self.bot.get_shard(0)
        await self._press(self.board(), self._someone_to_play())  # may open a race
        session = self.session
        if session is not None and session.engine is not None:
            state = session.engine.to_json()
            self.counts["mid-race"] += bool(state.get("race") or state.get("races"))
        await shard.disconnect()
        self.gateway_down = True
        try:
            await self._press(self.board())
            await self.env.advance_time(self.rng.uniform(0.05, 0.3))
        finally:
            with clock_held_still(self.env):
                await shard.reconnect()
            self.gateway_down = False
        with clock_held_still(self.env):  # as around a press: only advance_time moves the game
            await self.env.settle()
        self.counts["reconnects"] += 1

    # ------------------------------------------------------------------ checks

    async def _checkpoint(self) -> None:
        """With every fault lifted, the board matches the game within one publish: time passes
        (retries and the rate limit go by), and if the board is still behind, one press makes
        a publish; after that it must match. A board left without buttons (a reveal on show when
        the permission was lost) offers nothing to press: the member runs ``/board``, as the
        permission notice tells them to."""
        self._clear_faults()
        await self.env.advance_time(6)
        self.counts["checkpoints"] += 1
        if self.bot.metrics.stuck():
            self.counts["stuck games"] += 1
            self.failures.append("a game's timer is more than a minute past its instant")
        if self._board_matches():
            return
        if self._controls(self.board()):
            await self._press(self.board(), self.members[0])
        else:
            await self._slash("board", self.members[0])
        await self.env.advance_time(6)
        if not self._board_matches():
            self.counts["stale boards"] += 1
            self.failures.append("board still behind the game one publish after the faults cleared")

    def _board_matches(self) -> bool:
        session = self.session
        if session is None or session.status != PLAYING:
            return True
        message = self.board()
        if message is None:
            return False
        cog = self.bot.game_cogs[session.kind]
        # A game over whose record waits on the database shows its final board meanwhile.
        board = cog.board_now(session)
        bind(board.items, session.tag)
        # The board as the bot would show it now (its card), read back as the message is.
        drawn = Drawn(board.layout().components)
        if not cards(message):
            return False
        shown, expected = card(message), card(drawn)
        return (
            shown.title == expected.title
            and shown.description == expected.description
            and [(f.name, f.value) for f in shown.fields] == [(f.name, f.value) for f in expected.fields]
            and [(c.custom_id, c.beside) for c in controls(message)]
            == [(c.custom_id, c.beside) for c in controls(drawn)]
            and sorted(c.custom_id or "" for c in controls(drawn))
            == sorted(getattr(item, "custom_id", None) or "" for item in board.items)
        )

    async def _drain(self) -> None:
        """Faults lifted, the members play on (a press every few seconds, on the board only) and
        the game's timers run: it must end within an hour of virtual time."""
        self._clear_faults()
        await self.database.lift()
        for _ in range(1200):
            if self.session is None:
                return
            await self._press(self.board(), self._someone_to_play())
            await self.env.advance_time(3)
        self.counts["stuck games"] += 1
        session = self.session
        waits = self.bot.guard.waiting.get(session.channel_id) if session is not None else None
        over = session is not None and session.engine is not None and session.engine.is_over
        self.failures.append(
            f"the game neither finished nor ended by its timers (over: {over}, waiting on the "
            f"database: {waits.what if waits else None}, timer: {getattr(session.timer, 'deadline', None)})"
        )

    async def _check_end(self) -> None:
        storage = self.bot.storage
        recorded = await storage.game_count(self.world.guild.id, self.kind)
        self.counts["recorded"] = recorded
        if recorded != 1 or await storage.past_game(self.world.guild.id, self.game_key or "") is None:
            self.failures.append(f"{recorded} records of the game, not 1")

    def _check_errors(self) -> None:
        errors = [r for r in self.tap.records if r.levelno >= logging.ERROR]
        unhandled = [e for e in self.env.errors if id(e) not in self.answered_faults]
        self.counts["unhandled"] = len(unhandled) + len(errors)
        for record in errors:
            self.failures.append(f"logged error: {record.getMessage()}")
        for error in unhandled:
            self.failures.append(f"unhandled: {error!r}")

    async def _gone_coda(self) -> None:
        """Channel deletion and the bot's removal join the chaos: a second game, in a channel of
        its own, is played for a few steps, then its channel is deleted (even seeds) or the bot
        removed from the server (odd seeds). It must end as abandoned, recorded once, its save
        and timers gone, one log line, and nothing sent to the channel afterwards."""
        rng = random.Random(f"chaos-gone:{self.kind}:{self.seed}")
        guild = self.world.guild
        self.channel = guild.create_text_channel(f"doomed-{self.seed}")
        computers, self.computers = self.computers, False  # four members here; the summary tells the run
        await self._open()
        self.computers = computers
        key = self.game_key or ""
        for _ in range(rng.randint(3, 12)):
            if self.session is None:
                break
            await self._press(self.board(), self._someone_to_play())
            await self.env.advance_time(rng.uniform(0.5, 8))
        channel = self.channel.id
        # A short game may be over already: then it stays finished, recorded as such when its
        # record waited on the database (kept open meanwhile) and the drop wrote it.
        session = self.session
        in_play = session is not None and not (session.engine is not None and session.engine.is_over)
        said_by = logging.getLogger("bot.session.gamecog")
        level = said_by.level
        said_by.setLevel(logging.INFO)  # the one line saying the game ended
        if self.seed % 2 == 0:
            self.gone = "channel deleted"
            self.env.backend.delete_channel(channel)
        else:
            self.gone = "bot removed"
            self.env.backend.remove_guild(guild.id)
        await self.env.settle()
        since = len(self.env.backend.http_requests)
        await self.env.advance_time(600)  # a drop the database failed is retried meanwhile
        said_by.setLevel(level)
        storage = self.bot.storage
        sent = sum(1 for r in self.env.backend.http_requests[since:] if f"/channels/{channel}/" in r.path)
        saved = [s for s in await storage.load_sessions() if s.state["channel_id"] == channel]
        [host] = [s for s in await storage.stats(guild.id, self.members[0].id) if s.kind == self.kind]
        said = [
            r for r in self.tap.records if "ended as abandoned" in r.getMessage() and key in r.getMessage()
        ]
        self.counts["abandoned"] = host.abandoned
        self.counts["left behind"] = len(saved) + (self.bot.sessions.get(channel) is not None)
        if host.abandoned != in_play or await storage.past_game(guild.id, key) is None:
            self.failures.append(f"{self.gone}: {host.abandoned} abandoned records, not {int(in_play)}")
        if self.counts["left behind"] or sent or len(said) != in_play:
            self.failures.append(
                f"{self.gone}: {self.counts['left behind']} left behind, {sent} requests after, "
                f"{len(said)} log lines"
            )

    def _check_pings(self) -> None:
        """Turn pings under faults: none left in the channel once the game is over (but one whose
        deletion Discord refused), and no loop of sends or deletions."""
        pings = [m for m in self.stored() if not m.flags & EPHEMERAL and m.content.startswith("⏰")]
        self.counts["pings left"] = len(pings)
        mimed = [m for m in self.stored() if "mimes:" in (m.content or "")]
        self.counts["emoji posted"] = len(mimed)
        if len(pings) > self.counts["deletes refused"]:
            self.failures.append(
                f"{len(pings)} turn pings left, {self.counts['deletes refused']} deletions refused"
            )
        sends, deletes = self.requests["POST messages"], self.requests["DELETE message"]
        self.counts["channel sends"], self.counts["deletes"] = sends, deletes
        if sends > 300 or deletes > 300:
            self.failures.append(f"{sends} messages sent and {deletes} deleted: a loop")

    def _check_notices(self) -> None:
        """A lost permission is told to each player once per outage, not again on every edit. A
        member's own command that met it (``/board``) is answered so each time, besides: that
        answer is theirs, not a notice repeated."""
        notices = [m for m in self.stored() if m.flags & EPHEMERAL and "I can't edit the board" in m.content]
        self.counts["permission notices"] = len(notices)
        unasked = [m for m in notices if (m.interaction_metadata or {}).get("type") != APPLICATION_COMMAND]
        for member in self.members:
            told = sum(1 for m in unasked if m.visible_to(member.id))
            if told > self.counts["outages"]:
                self.failures.append(f"{member.name} told of a lost permission {told} times")

    def _check_secrets(self) -> None:
        """What members were told privately never shows in public: a public message, a log line
        or a custom id (the engine's public view is checked for secrets by the property tests)."""
        public: list[str] = []
        for message in self.stored():
            # Every control, in the card's rows or beside its lines (``tests/shown.py``).
            ids = [c.custom_id or "" for c in controls(message)]
            for custom_id in ids:
                if custom_id and not CUSTOM_ID.match(custom_id):
                    self.failures.append(f"unexpected custom id {custom_id!r}")
            public += ids
            if message.flags & EPHEMERAL:
                continue
            # Every word shown: the words above the card, and the card's texts (title,
            # description, fields, small print), or an old message's content and embeds.
            public.append(text(message))
        public += [r.getMessage() for r in self.tap.records]
        leaks = {line for line in self.private_lines for text in public if line in text}
        self.counts["secrets leaked"] = len(leaks)
        self.failures += [f"private text shown in public: {line!r}" for line in sorted(leaks)]

    def summary(self) -> str:
        c = self.counts
        fired = sum(self.fired.values())
        return (
            f"chaos {self.kind:<7} seed {self.seed}: {c['presses']} presses "
            f"({c['answered']} answered, {c['answered privately']} privately, "
            f"{c['answer refused by Discord']} answers refused by Discord, "
            f"{c['not delivered (gateway down)']} lost to the gateway, "
            f"{c['interaction failed']} left to 'interaction failed'); "
            f"{fired} faults hit ({dict(sorted(self.fired.items()))}), "
            f"{c['restarts']} restart(s), {c['reconnects']} reconnect(s) ({c['mid-race']} mid-race), "
            f"{c['permission notices']} permission notices in {c['outages']} outages; "
            f"{'computers, ' if self.computers else ''}{c['emoji posted']} emoji posted, "
            f"{c['channel sends']} sends and {c['deletes']} deletes, {c['pings left']} pings left, "
            f"{c['commands Discord failed, answered']} commands Discord failed answered; "
            f"{c['unhandled']} unhandled, {c['stuck games']} stuck, {c['recorded']} recorded, "
            f"{c['stale boards']} stale boards in {c['checkpoints']} checks, {c['secrets leaked']} secrets leaked"
            f"; {self.database.summary() if self.database else 'no database faults'}; gone: {self.gone}, "
            f"{c['abandoned']} abandoned, {c['left behind']} left behind"
        )


def virtual_alarms(original: Callable[..., bool]) -> Callable[..., bool]:
    """SimCord's test for a timer that only the virtual clock may fire, extended to the
    sessions' alarms."""

    def wakeup(client: Any, callback: Any, args: tuple[Any, ...], task: Any) -> bool:
        return getattr(callback, "__func__", None) is SessionTimers._fire or original(
            client, callback, args, task
        )

    return wakeup


class SeededSecrets:
    """``secrets`` as the lobby uses it, drawn from a seed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def randbits(self, bits: int) -> int:
        return self._rng.getrandbits(bits)

    def token_hex(self, size: int) -> str:
        return self._rng.randbytes(size).hex()
