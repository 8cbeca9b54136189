"""A Discord server for a test: a #games channel, members and a moderator, built in SimCord.

Its own module rather than conftest.py, so that test modules import it by a name no other
folder's conftest.py shadows when several folders run in one command."""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass
class World:
    env: object
    guild: object
    channel: object
    members: list
    mod: object

    def board(self):
        """The newest message in the channel, as SimCord's server holds it."""
        return self.channel.last_message


def build_world(env, names=("alice", "bob", "carol", "dave", "erin", "frank"), guild_name="Friends") -> World:
    guild = env.create_guild(guild_name)
    channel = guild.create_text_channel("games")
    members = [
        guild.add_member(env.create_user(f"{name}-{guild_name}" if guild_name != "Friends" else name))
        for name in names
    ]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user(f"mod-{guild_name}"), roles=[mods])
    return World(env, guild, channel, members, mod)
