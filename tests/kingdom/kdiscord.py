"""Helpers for the Death Over the Kingdom SimCord tests: open a game, find the board, press what
the engine allows, and look at the channel as a given member sees it."""

from __future__ import annotations

import copy
from typing import Any

from bot.games.kingdom.board import version_arg
from bot.games.kingdom.engine import KingdomEngine

SELECTS = ("thief", "bard")


def session_of(env: Any, channel: Any) -> Any:
    return env.bot.sessions.get(channel.id)


def engine_of(env: Any, channel: Any) -> KingdomEngine:
    return session_of(env, channel).engine


def board_of(env: Any, channel: Any, viewer: Any) -> Any:
    """The current board message, as ``viewer`` sees the channel."""
    board_id = session_of(env, channel).board_message_id
    return next(m for m in channel.history(viewer=viewer) if m.id == board_id)


async def open_game(world: Any, players: int, **options: Any) -> list[Any]:
    """``/kingdom new`` by the first member, ``players - 1`` more join, Start. Returns the
    members in seat order."""
    members = world.members[:players]
    await members[0].slash(world.channel, "kingdom new", **options)
    lobby = world.channel.last_message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    return members


async def press(env: Any, channel: Any, member: Any, action: dict[str, Any]) -> Any:
    """Press the board component for ``action`` (an entry of ``legal_actions``)."""
    engine = engine_of(env, channel)
    message = board_of(env, channel, member)
    kind, target = action["type"], action.get("target")
    if kind in SELECTS:
        return await member.select(
            message, [version_arg(engine.version, target)], custom_id=f"ps:{channel.id}:{kind}"
        )
    arg = version_arg(engine.version, target if kind in ("exchange", "dragon") else None)
    return await member.click(message, custom_id=f"pc:{channel.id}:{kind}:{arg}")


def stored(env: Any, message: Any) -> Any:
    return env.backend.get_message(message.channel.id, message.id)


def snapshot_components(env: Any, message: Any) -> list[dict[str, Any]]:
    return copy.deepcopy(stored(env, message).components)


def show_components(env: Any, message: Any, components: list[dict[str, Any]]) -> None:
    """Make a member's client show these components on the message (a stale or forged client)."""
    stored(env, message).components = copy.deepcopy(components)
