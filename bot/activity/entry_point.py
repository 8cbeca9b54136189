"""The global slash commands synced with the app's Entry Point command kept.

Enabling Activities in the developer portal gives the app an Entry Point command (type 4,
``PRIMARY_ENTRY_POINT``: the Activity's "Launch" in Discord's App Launcher), and Discord refuses
any bulk overwrite of the global commands that leaves it out (error 50240). discord.py's
``CommandTree.sync()`` is exactly such an overwrite, and discord.py 2.7 has no type for that
command, so a bot serving the Activity syncs here instead: the tree's commands as discord.py would
send them (translated), plus the Entry Point command as Discord holds it, or, where it holds none,
the one Discord makes itself (Discord launches the Activity: handler 2).
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

ENTRY_POINT = 4  # ApplicationCommandType.PRIMARY_ENTRY_POINT
DISCORD_LAUNCHES = 2  # EntryPointCommandHandlerType.DISCORD_LAUNCH_ACTIVITY
# What Discord answers of a command that is its own bookkeeping: a command sent is matched by its
# name and type, so the Entry Point command sent back without them stays the same command.
READ_ONLY = frozenset({"id", "application_id", "version", "guild_id"})
DEFAULT_ENTRY_POINT: dict[str, Any] = {
    "name": "launch",
    "description": "Open the games' table",
    "type": ENTRY_POINT,
    "handler": DISCORD_LAUNCHES,
    "integration_types": [0],  # installed in servers
    "contexts": [0],  # used in servers' channels: the games are played there
}


async def payload(tree: app_commands.CommandTree, held: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bulk overwrite: ``tree``'s global commands and the Entry Point command of ``held``
    (the app's global commands as Discord returned them)."""
    translator = tree.translator
    commands = tree.get_commands()
    if translator is not None:
        sent = [await command.get_translated_payload(tree, translator) for command in commands]
    else:
        sent = [command.to_dict(tree) for command in commands]
    kept = [
        {k: v for k, v in command.items() if k not in READ_ONLY}
        for command in held
        if command.get("type") == ENTRY_POINT
    ]
    return [*sent, *(kept or [dict(DEFAULT_ENTRY_POINT)])]


async def sync_global(tree: app_commands.CommandTree, http: Any, application_id: int) -> None:
    held = await http.get_global_commands(application_id)
    await http.bulk_upsert_global_commands(application_id, payload=await payload(tree, held))
