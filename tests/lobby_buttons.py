"""A lobby's buttons by their ids, for tests whose server may speak any language (the labels
are the session's language: "Join" is "Beitreten" on a German server)."""

from __future__ import annotations

from typing import Any

from bot.glue.components import bound_id, button_id


def lobby_id(env: Any, channel: Any, name: str) -> str:
    """The custom id of the lobby's ``name`` button ("join", "start"…) in ``channel``'s game."""
    return bound_id(button_id(channel.id, name), env.bot.sessions.get(channel.id).tag)
