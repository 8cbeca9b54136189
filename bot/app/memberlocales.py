"""Members who speak other languages in the playground, as Discord would tell the bot.

Discord sends every interaction with the member's own Discord language (``locale``) and the
server's (``guild_locale``); the bot answers privately in the first and speaks publicly in the
second, unless a moderator chose one with ``/settings language:`` (``bot.i18n.locales``).
SimCord 3.2 sends "en-US" for both, always. SimCord is not patched: while the playground runs,
``simcord.interactions.base_payload`` (which SimCord's members call through that module) is
wrapped so that interactions of this env's members carry their language and their server's.
The test suite's ``locales`` fixture does the same for its tests.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any


@contextmanager
def member_locales(env: Any, locales: Mapping[int, str]) -> Iterator[None]:
    """While inside: each member of ``env`` (by user id) speaks ``locales[id]`` (else "en-US")."""
    from simcord import interactions

    original = interactions.base_payload
    ours = env.backend

    def base_payload(backend: Any, *, user_id: int, guild_id: int | None, **rest: Any) -> Any:
        record, payload = original(backend, user_id=user_id, guild_id=guild_id, **rest)
        if backend is ours:
            payload["locale"] = locales.get(user_id, "en-US")
            if guild_id is not None:
                payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    interactions.base_payload = base_payload
    try:
        yield
    finally:
        if interactions.base_payload is base_payload:
            interactions.base_payload = original
