"""What SimCord 3.2.1 lacks of an app with Activities enabled, added around it for the tests.

SimCord knows no Entry Point command: its command sync refuses the ``handler`` field, and it
holds no command before the bot syncs. Discord, once Activities are enabled, holds the default
Entry Point command ("Launch", type 4, handler 2) and refuses a bulk overwrite of the global
commands that leaves it out (400, code 50240). ``enable_activities`` makes SimCord do both, so a
bot that syncs like discord.py's ``tree.sync()`` fails here as it would on Discord.

SimCord's interaction callbacks stop at type 9 (a modal), so an answer of type 12
(``LAUNCH_ACTIVITY``) gets a 400. Here it is taken as Discord takes it: the interaction is
answered (a second answer gets 40060) and the launch is kept in ``backend.launches`` as
``(interaction id, user id, channel id)``, for a test to read.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend import errors
from simcord.backend.models.interaction import ResponseKind
from simcord.backend.ops import commands as backend_commands
from simcord.backend.state import Backend
from simcord.http import router
from simcord.http.routes import commands as command_routes
from simcord.http.routes import interactions as interaction_routes

ENTRY_POINT = 4
ENTRY_POINT_REMOVED = 50240
LAUNCH_ACTIVITY = 12


def default_entry_point(backend: Backend) -> dict[str, Any]:
    return {
        "id": str(backend.snowflake()),
        "application_id": str(backend.application_id),
        "name": "launch",
        "description": "",
        "type": ENTRY_POINT,
        "handler": 2,
        "options": [],
        "default_member_permissions": None,
        "dm_permission": True,
        "contexts": [0, 1, 2],
        "integration_types": [0, 1],
    }


@pytest.fixture
def enable_activities(monkeypatch) -> None:
    fields = (*backend_commands.COMMAND_FIELDS, "handler")
    monkeypatch.setattr(backend_commands, "COMMAND_FIELDS", fields)
    monkeypatch.setattr(command_routes, "COMMAND_FIELDS", fields)
    made = Backend.__init__
    register = Backend.register_commands

    def init(self, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        entry = default_entry_point(self)
        self.commands.setdefault(None, {})[(entry["name"], ENTRY_POINT)] = entry

    def register_commands(self, guild_id: int | None, payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if guild_id is None:
            held = any(c.get("type") == ENTRY_POINT for c in self.commands.get(None, {}).values())
            if held and not any(p.get("type") == ENTRY_POINT for p in payloads):
                raise errors.BackendError(
                    400,
                    ENTRY_POINT_REMOVED,
                    "You cannot remove this app's Entry Point command in a bulk update operation",
                )
        for payload in payloads:
            if payload.get("type") == ENTRY_POINT and payload.get("handler") not in (1, 2):
                raise errors.BackendError(400, 50035, "Invalid Form Body: handler")
            if payload.get("type") != ENTRY_POINT and "handler" in payload:
                raise errors.BackendError(400, 50035, "Invalid Form Body: handler")
        return register(self, guild_id, payloads)

    monkeypatch.setattr(Backend, "__init__", init)
    monkeypatch.setattr(Backend, "register_commands", register_commands)
    callback = interaction_routes.interaction_callback

    def launching_callback(ctx: Any) -> Any:
        if ctx.body().get("type") != LAUNCH_ACTIVITY:
            return callback(ctx)
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        if record is None or record.token != ctx.args["token"]:
            raise errors.unknown_interaction()
        if record.responded:
            raise errors.already_acknowledged()
        record.response_kind = ResponseKind.PONG  # answered, with nothing to show in the channel
        record.responded = True
        launches = ctx.backend.__dict__.setdefault("launches", [])
        launches.append((record.id, record.user_id, record.channel_id))
        instance = f"i-{record.id}-gc-{record.channel_id}"
        return {"interaction": {"id": str(record.id), "type": record.type, "activity_instance_id": instance}}

    routes = [
        (template, launching_callback if handler is callback else handler)
        for template, handler in router._ROUTES["POST"]
    ]
    monkeypatch.setitem(router._ROUTES, "POST", routes)
