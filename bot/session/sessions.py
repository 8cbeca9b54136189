"""Channel sessions: at most one lobby or game per channel (a thread counts as a channel).

A ``Session`` is the Discord-side wrapper around one engine: who sits where, the board message,
the options, and the lock that serializes every press on it. It is plain data plus the lock and
its timer (``bot.session.timers``), and is saved as JSON after every accepted action so a
restart loses nothing.

The engine's replay log (``"log"`` in every engine's ``to_json()``) only grows, so it is not saved
whole with the state: each save stores the state without it plus the entries added since the last
save, as rows of their own (``save``), and a restart puts them back (``restored_state``). An
engine's saved state may leave out more of what follows from its log (``GameEngine.to_save``:
Monster Masks' finished turns).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine import GameEngine
from bot.engine.replay import commitment
from bot.i18n.catalogues import catalogue_locale
from bot.i18n.french import Name
from bot.storage import LogGap, LogRows, SavedSession, Storage

LOBBY = "lobby"
PLAYING = "playing"
# In a state saved without its engine's log: how many log rows go with it.
LOGGED = "logged"


@dataclass(frozen=True, slots=True)
class SeatToken:
    """What a followup to a seat needs of its latest interaction: the id (its age: a token lives
    15 minutes), the token and the application. A whole ``Interaction`` kept per seat held its
    message, parsed with every button of the board, and was most of an open game's memory."""

    id: int
    token: str
    application_id: int
    # The member's language as last seen (their Discord locale's catalogue): private news sent
    # later through this token speaks it.
    locale: str = ""

    @classmethod
    def of(cls, interaction: Any) -> SeatToken:
        locale = catalogue_locale(getattr(interaction, "locale", None))
        return cls(interaction.id, interaction.token, interaction.application_id, locale)


@dataclass(frozen=True, slots=True)
class Panel:
    """A seat's kept private panel (``GameCog.send_panel(..., single=True)``): ``token``, the
    latest interaction whose original response the panel is (the press that sent it, or one that
    edited it in place), which can still delete it for 15 minutes; ``origin``, the interaction
    that first sent it (Discord names it on the message: ``interaction_metadata``); the message's
    id once a press on it told it (None for a panel only just sent)."""

    token: SeatToken
    origin: int
    message_id: int | None = None

    def may_be(self, origin: int | None, message_id: int | None) -> bool:
        """Whether the message pressed (its ``origin`` and id, each None when unknown) may be this
        panel: False only when known to be another."""
        if self.message_id is not None and message_id is not None:
            return self.message_id == message_id
        if origin is not None:
            return self.origin == origin
        return True


@dataclass
class Session:
    kind: str
    guild_id: int
    channel_id: int
    host_id: int
    options: dict[str, Any]
    seed: int
    game_key: str
    created_at: int  # ms since the epoch
    players: list[int] = field(default_factory=list)  # user ids, index = seat
    names: dict[int, str] = field(default_factory=dict)  # display names, for boards and pictures
    status: str = LOBBY
    board_message_id: int | None = None
    lobby_deadline: int | None = None
    started_at: int | None = None
    engine: GameEngine | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # per-game Discord-side data, saved too
    # Secret until the game ends: with the seed it makes the shuffle commitment (bot.engine.replay).
    # Empty for a session saved before commitments existed: its boards show none.
    salt: str = ""
    # A rematch's lobby asks the finished game's players to join (bot/session/rematch.py): their ids.
    invited: list[int] = field(default_factory=list)
    # The finished game a rematch lobby plays again (its game key): that game's players take a
    # seat here by pressing its Play again. Empty for any other lobby.
    rematch_of: str = ""
    # Computer seats' next moves (bot/session/computers.py): seat -> {"at": ms, "action": ...}, and how
    # many plans were drawn (each plan's generator is seeded from the seed, seat and this count).
    plans: dict[int, dict[str, Any]] = field(default_factory=dict)
    planned: int = 0
    # What each Kabuki computer seat remembers of the public placements: seat -> stacks of card
    # ids, bottom to top, -1 for a mask it forgot (bot.games.kabuki.players.ComputerPlayer).
    memories: dict[int, list[list[int]]] = field(default_factory=dict)
    # The language of the game's public messages (lobby, boards, notes): a catalogue code, chosen
    # when the lobby opens (bot.i18n.ServerLanguages.public) and changed with /settings language:
    # (SessionRegistry.speak). "" (a save from before languages, until the bot's start-up fills
    # it in from the server's setting) reads as English.
    locale: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    # The timers' armed instant (bot.session.timers.Alarm): the session only carries it.
    timer: Any = field(default=None, repr=False, compare=False)
    # Each seat's most recent interaction, so private news found by a timer (a lost race) can
    # still reach them as an ephemeral followup. Not saved: tokens die with the process.
    last_interaction: dict[int, SeatToken] = field(default_factory=dict, repr=False, compare=False)
    # Each seat's one private panel that shows what it holds now (Kingdom's My card), so that a
    # newer one takes its place and a change of card deletes it (``GameCog.send_panel``). Not
    # saved: its token dies with the process too.
    panels: dict[int, Panel] = field(default_factory=dict, repr=False, compare=False)
    # How many of the engine's log entries are stored as rows (0 for a session restored from a
    # state saved whole: its next save stores them all).
    logged: int = field(default=0, repr=False, compare=False)
    # The final board says the result waits for the database (bot.session.guarded). Not saved.
    result_waits: bool = field(default=False, repr=False, compare=False)

    @functools.cached_property
    def tag(self) -> str:
        """A short public mark of this game, in the custom id of every component it sends, so a
        message kept from an earlier game in the channel is told apart (its own version counters
        start again at 0 every game). Not a secret: custom ids are public."""
        return hashlib.blake2b(self.game_key.encode(), digest_size=4).hexdigest()

    @functools.cached_property
    def commitment(self) -> str | None:
        """The shuffle commitment shown on this game's boards (None without a salt)."""
        return commitment(self.seed, self.salt) if self.salt else None

    def seat_of(self, user_id: int) -> int | None:
        try:
            return self.players.index(user_id)
        except ValueError:
            return None

    def name_of(self, seat: int) -> str:
        """The seat's name as the table shows it, marked as a name for the messages it fills in
        (French elides before it: "la carte d'anna")."""
        user_id = self.players[seat]
        return Name(self.names.get(user_id, f"Player {seat + 1}"))

    def seat_locale(self, seat: int) -> str:
        """The language of ``seat``'s private messages: their Discord language as their latest
        accepted press showed it (the press being answered is already that one), else the game's."""
        token = self.last_interaction.get(seat)
        return token.locale if token is not None and token.locale else self.locale

    def computer_seats(self) -> list[int]:
        return [seat for seat, user in enumerate(self.players) if user < 0]

    def seat_names(self) -> list[str]:
        return [self.name_of(seat) for seat in range(len(self.players))]

    def to_json(self, *, saving: bool = False) -> dict[str, Any]:
        """The whole state; ``saving``: with the engine's state as saved (``GameEngine.to_save``)."""
        engine = self.engine
        return {
            "kind": self.kind,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "options": self.options,
            "seed": self.seed,
            "game_key": self.game_key,
            "created_at": self.created_at,
            "players": self.players,
            "names": {str(k): v for k, v in self.names.items()},
            "status": self.status,
            "board_message_id": self.board_message_id,
            "lobby_deadline": self.lobby_deadline,
            "started_at": self.started_at,
            "engine": None if engine is None else engine.to_save() if saving else engine.to_json(),
            "extra": self.extra,
            "salt": self.salt,
            "invited": self.invited,
            "rematch_of": self.rematch_of,
            "plans": {str(seat): plan for seat, plan in self.plans.items()},
            "planned": self.planned,
            "memories": {str(seat): stacks for seat, stacks in self.memories.items()},
            "locale": self.locale,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], engine_cls: type[GameEngine]) -> Session:
        engine_state = data.get("engine")
        return cls(
            kind=data["kind"],
            guild_id=int(data["guild_id"]),
            channel_id=int(data["channel_id"]),
            host_id=int(data["host_id"]),
            options=dict(data["options"]),
            seed=int(data["seed"]),
            game_key=data["game_key"],
            created_at=int(data["created_at"]),
            players=[int(p) for p in data["players"]],
            names={int(k): v for k, v in data.get("names", {}).items()},
            status=data["status"],
            board_message_id=data.get("board_message_id"),
            lobby_deadline=data.get("lobby_deadline"),
            started_at=data.get("started_at"),
            engine=engine_cls.from_json(engine_state) if engine_state is not None else None,
            extra=dict(data.get("extra") or {}),
            salt=str(data.get("salt", "")),
            invited=[int(user) for user in data.get("invited", ())],
            rematch_of=str(data.get("rematch_of", "")),
            plans={int(seat): dict(plan) for seat, plan in (data.get("plans") or {}).items()},
            planned=int(data.get("planned", 0)),
            memories={int(seat): stacks for seat, stacks in (data.get("memories") or {}).items()},
            locale=str(data.get("locale") or ""),
            logged=int(data.get(LOGGED, 0)),
        )

    def to_save(self) -> tuple[dict[str, Any], LogRows | None]:
        """The state as saved: without the engine's log, whose entries since the last save go as
        rows of their own. An engine without a log is saved whole."""
        state = self.to_json(saving=True)
        engine = state["engine"]
        if not isinstance(engine, dict) or not isinstance(engine.get("log"), list):
            return state, None
        log = engine.pop("log")
        start = self.logged if self.logged <= len(log) else 0  # a log never shrinks; if it did, all again
        rows = LogRows(self.game_key, start, log[start:])
        state[LOGGED] = rows.end
        return state, rows


async def save(storage: Storage, session: Session, now: int, *, durable: bool = False) -> None:
    """The session's state and its log's new entries, in one transaction; the whole log again if
    the database lost rows it had taken (``LogGap``: a server crash). ``durable``: see
    ``Storage.save_session``."""
    state, log = session.to_save()
    key = (session.guild_id, session.channel_id, session.kind)
    try:
        await storage.save_session(*key, state, now, log, durable=durable)
    except LogGap:
        session.logged = 0
        state, log = session.to_save()
        await storage.save_session(*key, state, now, log, durable=durable)
    session.logged = 0 if log is None else log.end


def restored_state(saved: SavedSession) -> dict[str, Any]:
    """The state a whole save would have given: the log rows put back in the engine, in order.
    A state saved whole (before logs had rows of their own) comes back as it was."""
    state = saved.state
    if saved.log is None or state.get("engine") is None:
        return state
    if len(saved.log) != state.get(LOGGED):
        raise ValueError(
            f"the session of game {state.get('game_key')} counts {state.get(LOGGED)} log rows, "
            f"{len(saved.log)} were found"
        )
    state["engine"]["log"] = saved.log
    return state


class ChannelBusy(Exception):
    def __init__(self, session: Session) -> None:
        super().__init__(f"channel {session.channel_id} already has a {session.kind} {session.status}")
        self.session = session


class SessionRegistry:
    """The one registry of every game, keyed by channel id, shared by all game cogs."""

    def __init__(self) -> None:
        self._by_channel: dict[int, Session] = {}

    def get(self, channel_id: int) -> Session | None:
        return self._by_channel.get(channel_id)

    def add(self, session: Session) -> None:
        existing = self._by_channel.get(session.channel_id)
        if existing is not None and existing is not session:
            raise ChannelBusy(existing)
        self._by_channel[session.channel_id] = session

    def speak(self, guild_id: int, locale: str) -> None:
        """A server's public language changed (``/settings language:``): its open lobbies and
        games speak ``locale`` from their next board on."""
        for session in self._by_channel.values():
            if session.guild_id == guild_id:
                session.locale = locale

    def remove(self, session: Session) -> None:
        if self._by_channel.get(session.channel_id) is session:
            del self._by_channel[session.channel_id]

    def __iter__(self) -> Iterator[Session]:
        return iter(list(self._by_channel.values()))

    def __len__(self) -> int:
        return len(self._by_channel)
