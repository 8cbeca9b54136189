"""The bot object: storage, the session registry, the games' cogs and press routing.

It names no game and imports no cog: the games come from ``bot.games.registry`` and every cog,
a game's or a shared one, is a discord.py extension loaded by its module's name.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.activity import entry_point
from bot.activity.server import ActivityServer
from bot.app.config import Config
from bot.games import registry
from bot.games.registry import GameDescriptor
from bot.glue import faults, interactions, picture_processes, uploads
from bot.glue.components import Press, press_of
from bot.i18n import N_, CommandTranslator, ServerLanguages, private_locale, t, translated
from bot.ops.gc_tuning import release_garbage_collector, tune_garbage_collector
from bot.ops.metrics import Metrics
from bot.session import gone
from bot.session.gamecog import GameCog, message_link, reply_private, score_problem
from bot.session.guarded import Guard, database_fault
from bot.session.launcher import TABLE
from bot.session.overload import shed, tell_too_late
from bot.session.publisher import Publishers
from bot.session.rematch import PlayAgainButton
from bot.session.sessions import Session, SessionRegistry, restored_state
from bot.storage import SavedSession, Storage

log = logging.getLogger(__name__)

# A command or press that needed the database while it was failing (a write waits and is retried
# by itself: bot/session/guarded.py; this is for what cannot wait, a read).
DATABASE_DOWN = N_("I could not reach my database just now. Nothing changed; try again in a minute.")


# The commands every game shares, loaded after the games' (their ``game:`` choices list them).
SHARED_COGS = ("cogs.general", "cogs.standings", "cogs.replay")


def games_of(games: Sequence[str | GameDescriptor] | None) -> list[GameDescriptor]:
    """The games a bot runs: every registered game, or those named (an id or a descriptor; a
    test's game need not be registered). An unknown id is refused, naming the close matches."""
    if games is None:
        return list(registry.games().values())
    return [registry.get(game) if isinstance(game, str) else game for game in games]


class GameBot(commands.AutoShardedBot):
    """Runs the shards ``config`` names (every shard Discord recommends when it names none); a
    process restores and times only the games of guilds on its own shards."""

    def __init__(self, config: Config, games: Sequence[str | GameDescriptor] | None = None) -> None:
        interactions.install()  # no cycle, no pressed message parsed unread (bot.glue.interactions)
        uploads.install()  # a picture's upload in one write, not nine (bot.glue.uploads)
        intents = discord.Intents.default()
        # Emoji-only miming has to read what the Mime writes; the rest needs no privileged intent.
        intents.message_content = True
        # No message cache: every game is played through interactions and partial messages, and
        # a cache would copy and re-parse the board on every edit (and hold 1,000 messages).
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            max_messages=None,
            shard_count=config.shard_count,
            shard_ids=list(config.shard_ids) if config.shard_ids is not None else None,
        )
        # Message edits are never used (boards are read back from the game, not from Discord), yet
        # with the messages intent every board edit comes back as MESSAGE_UPDATE, which discord.py
        # would parse into a full Message each time. The intent stays for MESSAGE_CREATE (a game that
        # reads what members write: an emoji-only Mime); the edits are dropped unread.
        self._connection.parsers.pop("MESSAGE_UPDATE", None)
        self.config = config
        self.sessions = SessionRegistry()
        self.publishers = Publishers(self)
        self.guard = Guard(self)  # every write a game makes, retried when the database fails
        self.metrics = Metrics(self.sessions, self.guard)
        self.game_cogs: dict[str, GameCog] = {}
        self.languages = ServerLanguages()  # each server's /settings language (bot/i18n)
        self.games = games_of(games)
        self.storage: Storage
        self.tree.on_error = self._on_tree_error
        # The Activity's page and sockets (bot/activity), when the app's client id and secret are set.
        self.table_server = ActivityServer(self, config) if config.activity else None

    def title_of(self, kind: str) -> str:
        cog = self.game_cogs.get(kind)
        return cog.title if cog is not None else kind

    def new_commands(self, locale: str) -> str:
        """Each game's ``new`` command as members of ``locale`` type it (`/<game> neu` in German)."""

        def name(word: str) -> str:
            return translated(locale, word, "command name") or word

        return ", ".join(f"`/{name(kind)} {name('new')}`" for kind in self.game_cogs)

    async def setup_hook(self) -> None:
        await picture_processes.start(self.config.picture_processes)
        self.storage = await Storage.open(self.config.database)
        await self.load_cogs()
        restored = 0
        shards = self.config.shards()
        for saved in await self.storage.load_sessions(shards):
            restored += self._restore(saved)
        for session in self.sessions:
            if not session.locale:  # saved before sessions had a language: the server's setting
                session.locale = await self.languages.public(self.storage, session.guild_id)
        where = f"shards {sorted(shards.ids)} of {shards.count}" if shards else "every shard"
        log.info("restored %d open session(s) on %s from %s", restored, where, self.storage.backend)
        config = self.config
        self.metrics.start(
            port=config.metrics_port, host=config.metrics_host, health_log_s=config.health_log_s
        )
        await self._sync_commands()
        if self.table_server is not None and self.table_server.autostart:
            await self.table_server.start()
        tune_garbage_collector()

    async def load_cogs(self) -> None:
        """Every cog, its slash commands and persistent buttons, and the commands' translator:
        all of the bot that needs no connection (the catalogue extractor loads just this). A game
        that lacks a part it needs stops the start here, naming the game and the part."""
        self.add_dynamic_items(PlayAgainButton)
        for game in self.games:
            registry.check(game)
            lacks = registry.goes_without(game)
            if lacks:  # a test's or a plugin's game: a members' game has every part (check)
                log.info("the game %r (%s) has %s", game.id, game.title, "; ".join(lacks))
            await self.load_extension(game.cog)
            cog = next((c for c in self.cogs.values() if isinstance(c, GameCog) and c.kind == game.id), None)
            if cog is None:
                raise registry.GameError(
                    f"the game {game.id!r}'s cog extension {game.cog} adds no cog for it"
                )
            problem = score_problem(cog)
            if problem:
                raise registry.GameError(f"the game {game.id!r} ({game.package}) is incomplete: {problem}")
            cog.computer_policy = game.part("computers") if game.computers else None
            self.game_cogs[game.id] = cog
        for name in SHARED_COGS:
            await self.load_extension(name)
        await self.tree.set_translator(CommandTranslator())

    def _restore(self, saved: SavedSession) -> bool:
        """Bring one saved game back. A save that cannot be (hand-edited, its log rows short, a
        format this bot does not know) stays in storage as it is and is logged: one bad save
        must not keep every other game, and the bot itself, from starting."""
        state = saved.state
        cog = self.game_cogs.get(state.get("kind", ""))
        if cog is None:
            log.warning(
                "a saved %r session in channel %s has no game cog", state.get("kind"), state.get("channel_id")
            )
            return False
        try:
            cog.restore(restored_state(saved))
        except (ValueError, KeyError, TypeError, IndexError):
            log.exception(
                "the saved session in channel %s could not be restored; left as it is",
                state.get("channel_id"),
            )
            return False
        return True

    async def _sync_commands(self) -> None:
        if self.config.dev_guild_id:
            guild = discord.Object(id=self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        elif self.config.activity and self.config.entry_point:
            # Not tree.sync(): Discord refuses an overwrite without the Activity's Entry Point.
            assert self.application_id is not None
            await entry_point.sync_global(self.tree, self.http, self.application_id)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        """Stop: a last try of the writes waiting on the database, every other open game saved once
        more, every game's timer stopped, board edits and looks for lost turn pings still waiting
        dropped (a restored game draws its board and looks again), then the connection and the
        database closed."""
        if not self.is_closed():
            saved, waiting = await self.guard.stop(lambda s: self.game_cogs[s.kind]._save(s))
            for session in self.sessions:
                if session.timer is not None:
                    session.timer.cancel()
            log.info("stopping: %d open game(s) saved, %d still waiting on the database", saved, waiting)
        if self.table_server is not None:
            await self.table_server.stop()  # its pages reconnect to the next process
        self.publishers.close()
        picture_processes.stop()
        for cog in self.game_cogs.values():
            cog.pings.close()
        self.guard.close()
        await super().close()
        self.metrics.stop()
        storage = getattr(self, "storage", None)
        if storage is not None:
            await storage.close()
        release_garbage_collector()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        press = press_of(interaction)
        if press is not None:
            started = time.perf_counter()
            self.metrics.queue.measure()  # how far behind the loop is (bot.session.overload)
            session = self.sessions.get(press.channel_id)
            try:
                if shed(interaction, self.metrics, session.kind if session else "none"):
                    await tell_too_late(interaction)
                    return  # came too late to answer: not taken (bot.session.overload)
                await self.route_press(interaction, press)
            finally:
                self.metrics.pressed(session.kind if session else "none", started, interaction)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        await self._maybe_board_deleted(payload.channel_id, {payload.message_id})

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        await self._maybe_board_deleted(payload.channel_id, payload.message_ids)

    async def _maybe_board_deleted(self, channel_id: int, message_ids: set[int]) -> None:
        """Raw events, because the client keeps no message cache; every deletion the bot can see
        passes here, so anything but a board is dismissed at once."""
        session = self.sessions.get(channel_id)
        if session is not None and session.board_message_id in message_ids:
            await self.game_cogs[session.kind].board_deleted(session, session.board_message_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await gone.channel_deleted(self, channel.id, gone.CHANNEL_DELETED)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await gone.channel_deleted(self, payload.thread_id, gone.THREAD_DELETED)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await gone.guild_left(self, guild.id)

    def game_for(self, press: Press, locale: str, *, here: bool = True) -> tuple[Session | None, str]:
        """The session a press on a game's control (from any front-end) is for, or None and the
        refusal to say, in ``locale``: no game in the channel any more (or the press not made in
        its channel: ``here`` False), or a control of an earlier game there. Counted by reason."""
        session = self.sessions.get(press.channel_id)
        if session is None or not here:
            self.metrics.refused(session.kind if session else "none", "no_game")
            text = t(
                locale, "This game is over. Start a new one: {commands}", commands=self.new_commands(locale)
            )
            return None, text
        if press.game and press.game != session.tag:
            self.metrics.refused(session.kind, "earlier_game")
            text = t(
                locale,
                "That message is from an earlier game in this channel: it does nothing now. "
                "This channel's game is here: {link}",
                link=message_link(session, locale),
            )
            return None, text
        return session, ""

    async def route_press(self, interaction: discord.Interaction, press: Press) -> None:
        """Every game button and select lands here first: find the session, check the message.
        Its refusals speak the presser's language."""
        locale = private_locale(interaction)
        try:
            # A control copied into another channel's message is no game's there.
            here = interaction.channel_id == press.channel_id
            session, refusal = self.game_for(press, locale, here=here)
            if session is None:
                return await reply_private(interaction, refusal)
            if press.name == TABLE and self.table_server is not None:
                return await self.open_table(interaction, locale)
            # The refusals below link to the board; an accepted press (nearly all) needs no link.
            cog = self.game_cogs[session.kind]
            on_board = interactions.message_id(interaction) == session.board_message_id
            if not on_board and not press.game:
                # Sent before game marks existed: the board message binds such a press to its
                # game (each game posts its own), nothing else does.
                self.metrics.refused(session.kind, "old_board")
                return await reply_private(
                    interaction,
                    t(
                        locale,
                        "That message is out of date. The game goes on here: {link}",
                        link=message_link(session, locale),
                    ),
                )
            if not on_board and not cog.on_panel(interaction, press):
                self.metrics.refused(session.kind, "old_board")
                return await reply_private(
                    interaction,
                    t(
                        locale,
                        "That is an old board. The game goes on here: {link}",
                        link=message_link(session, locale),
                    ),
                )
            await cog.on_press(interaction, session, press)
        except Exception as error:
            if database_fault(error):
                log.warning(
                    "press in channel %s not answered: the database failed (%s)", press.channel_id, error
                )
                return await self.apologize(interaction, t(locale, DATABASE_DOWN))
            if faults.discords_fault(error):
                # Discord's, not a bug: whatever the press changed is saved, the board heals.
                log.warning("press in channel %s not answered: %s", press.channel_id, _status(error))
                return await self.apologize(interaction, t(locale, faults.DISCORD_HICCUP))
            await self.apologize(interaction)
            raise

    async def open_table(self, interaction: discord.Interaction, locale: str) -> None:
        """The lobby's "Open the table": Discord opens the Activity for the presser (callback type
        12); it signs in and finds this channel's game by itself. Where Discord will not (the
        Activity not enabled for the app in the developer portal; the playground's in-memory
        Discord, which has no Activities), the presser is told, with the table's own address
        where there is one for them (the playground's)."""
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as error:
            log.warning(
                "the Activity was not launched in channel %s: %s", interaction.channel_id, _status(error)
            )
            link = self.table_server.link_for(interaction.user.id) if self.table_server.link_for else None
            if link is not None:
                text = t(locale, "Open the table in your browser: {link}", link=link)
            else:
                text = t(
                    locale,
                    "Discord did not open the table just now. Try the Activities button of this channel.",
                )
            await reply_private(interaction, text)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CheckFailure):
            text = str(error) or t(private_locale(interaction), "You cannot use that command here.")
            await reply_private(interaction, text)
            return
        if await self.answer_fault(interaction, error):
            return
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if database_fault(original):
            # Reads (/leaderboard, /stats, /replay) have nothing to keep for later: the member asks again.
            command = interaction.command.qualified_name if interaction.command else "?"
            log.warning(
                "/%s in channel %s: the database failed (%s)", command, interaction.channel_id, original
            )
            await self.apologize(interaction, t(private_locale(interaction), DATABASE_DOWN))
            return
        log.error("slash command failed", exc_info=error)
        await self.apologize(interaction)

    async def answer_fault(self, interaction: discord.Interaction, error: BaseException) -> bool:
        """Answer a command Discord failed (a fault of its own, or a permission the bot lacks in
        the channel) privately, saying which; False for any other error, which is a bug."""
        if not (faults.discords_fault(error) or faults.forbidden(error)):
            return False
        command = interaction.command.qualified_name if interaction.command else "?"
        log.warning("/%s in channel %s failed: %s", command, interaction.channel_id, _status(error))
        locale = private_locale(interaction)
        text = t(locale, faults.DISCORD_HICCUP)
        if faults.forbidden(error):
            original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
            names = faults.missing_permissions(interaction.channel, getattr(original, "code", 0))
            text = faults.permission_notice(locale, f"<#{interaction.channel_id}>", names)
        await self.apologize(interaction, text)
        return True

    @staticmethod
    async def apologize(interaction: discord.Interaction, text: str | None = None) -> None:
        """``text`` (already in the member's language), or the bot's apology in it."""
        if text is None:
            text = t(
                private_locale(interaction),
                "Sorry, something went wrong on my side. The game is safe; try again.",
            )
        with contextlib.suppress(discord.HTTPException):
            await reply_private(interaction, text)


def _status(error: BaseException) -> str:
    """An HTTP error's status and code, all that is logged of it (its payload may be a secret)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return f"{getattr(error, 'status', '?')}/{getattr(error, 'code', '?')}"


def create_bot(
    config: Config | None = None, *, games: Sequence[str | GameDescriptor] | None = None, **overrides: Any
) -> GameBot:
    """A bot on ``config``; ``games``: the games it runs (ids or descriptors), by default every
    registered game."""
    config = config or Config.from_env()
    if overrides:
        config = Config(**{**config.__dict__, **overrides})
    return GameBot(config, games)
