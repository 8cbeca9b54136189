"""Which language a message speaks.

A public message (a board, a lobby, an announcement) is read by the whole channel, so it speaks
the server's language: the one a moderator chose with ``/settings language:``, else the
server's own locale (Community servers set it; Discord sends it with every interaction and guild),
else English. A private answer is read by one member, so it speaks that member's Discord language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n.catalogues import catalogue_locale

if TYPE_CHECKING:
    from bot.storage import Storage


def public_locale(language: str | None, guild_locale: object = None) -> str:
    """The catalogue of a public message: the server's chosen ``language``, else its
    ``guild_locale`` (``interaction.guild_locale`` or ``guild.preferred_locale``), else English."""
    return catalogue_locale(language or guild_locale)


def private_locale(interaction: discord.Interaction) -> str:
    """The catalogue of a private (ephemeral) answer: the pressing member's own language."""
    return catalogue_locale(interaction.locale)


class ServerLanguages:
    """Each server's ``/settings language``, read from storage once and then kept: a public
    message must not cost a database read. A server lives on one shard and so in one process,
    which is the one that changes the setting, so the kept value cannot go stale."""

    def __init__(self) -> None:
        self._chosen: dict[int, str | None] = {}

    async def chosen(self, storage: Storage, guild_id: int) -> str | None:
        if guild_id not in self._chosen:
            self._chosen[guild_id] = (await storage.settings(guild_id)).language
        return self._chosen[guild_id]

    def remember(self, guild_id: int, language: str | None) -> None:
        self._chosen[guild_id] = language

    async def public(self, storage: Storage, guild_id: int | None, guild_locale: object = None) -> str:
        """The catalogue of a public message in a server: pass ``interaction.guild_id`` and
        ``interaction.guild_locale``, or ``guild.id`` and ``guild.preferred_locale`` where no
        interaction is at hand (a timer's board). English outside a server."""
        chosen = None if guild_id is None else await self.chosen(storage, guild_id)
        return public_locale(chosen, guild_locale)
