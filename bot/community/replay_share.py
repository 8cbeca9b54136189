"""What /replay's Post and Download buttons hand out: who may use them, how often a game's replay
may be posted in a channel, and a finished game's record as a file.

A finished game's record holds nothing secret any more (it is what ``python -m bot verify``
reads), but posting and downloading are for the game's own players: the channel sees a replay
only when one of them chose to show it, and at most once per game per channel in ``SHARE_GAP_MS``
(a press that repeats sooner is refused privately, saying when it may be posted again).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import discord
import orjson

from bot.i18n import DEFAULT, N_, t
from bot.storage import StoredGame

SHARE_GAP_MS = 10 * 60 * 1000  # one post of a game per channel in ten minutes

# Refusals, said privately in the presser's language.
NOT_A_PLAYER_POST = N_("Only the players of this game can post its replay in the channel.")
NOT_A_PLAYER_DOWNLOAD = N_("Only the players of this game can download its record.")
NOTHING_TO_POST = N_("This game's record does not replay, so there is nothing to post.")
# The posted replay's button, in the server's language (the post is public).
WATCH_LABEL = N_("Watch it yourself")


def posted_recently(posted_ms: int, locale: str = DEFAULT) -> str:
    """The refusal of a post that comes too soon after the last one of that game here."""
    return t(
        locale,
        "This game's replay was posted in this channel {posted}; it can be posted here again {again}.",
        posted=f"<t:{posted_ms // 1000}:R>",
        again=f"<t:{(posted_ms + SHARE_GAP_MS) // 1000}:R>",
    )


def post_header(poster: str, locale: str = DEFAULT) -> str:
    """Above a posted replay, in the server's language."""
    return t(
        locale,
        "📣 **{name}** posted this replay of a finished game. Press **{watch}** to step through the "
        "whole game (only you will see it).",
        name=poster,
        watch=t(locale, WATCH_LABEL),
    )


def download_text(filename: str, locale: str = DEFAULT) -> str:
    # The commands are the command-line tools', the same in every language.
    return t(
        locale,
        "📥 This game's record, exactly as kept. Check its shuffle with `{verify}`, or read it move "
        "by move with `{replay}`.",
        verify=f"python -m bot verify {filename}",
        replay=f"python -m bot replay {filename}",
    )


class PostGate:
    """When each game's replay was last posted in each channel (kept in memory: a restart
    forgets it, which at worst allows one post more)."""

    def __init__(self) -> None:
        self._posted: dict[tuple[int, str], int] = {}

    def claim(self, channel_id: int, game_key: str, now_ms: int) -> int | None:
        """Take the channel's post of this game now; when it is too soon, the time of the last
        post instead (and nothing is taken). Checked and taken at once, so two presses at the
        same moment post once."""
        self._posted = {key: at for key, at in self._posted.items() if now_ms - at < SHARE_GAP_MS}
        last = self._posted.get((channel_id, game_key))
        if last is not None:
            return last
        self._posted[(channel_id, game_key)] = now_ms
        return None

    def release(self, channel_id: int, game_key: str) -> None:
        """A post that did not happen after all."""
        self._posted.pop((channel_id, game_key), None)


def record_filename(stored: StoredGame) -> str:
    return f"{stored.kind}-{stored.game_key}.json"


def record_bytes(record: Mapping[str, Any]) -> bytes:
    """The record as JSON, as storage keeps it (``pack_log`` before compression)."""
    return orjson.dumps(record)


def record_file(stored: StoredGame) -> discord.File:
    assert stored.log is not None
    return discord.File(io.BytesIO(record_bytes(stored.log)), filename=record_filename(stored))
