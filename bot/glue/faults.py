"""Discord's own faults, told apart from the bot's bugs.

discord.py already retries a 5xx (500, 502, 504, 524: five tries, 1–7 s apart) and waits out
every 429 before it raises anything; what reaches the bot is what was left after that, or a fault
it does not retry (503). Such a fault is Discord's, not a bug: it is logged as a warning with its
status and code only (a payload may hold a secret) and the game goes on. A 403 in the game's
channel means the bot lost a permission there: the players are told which one, once.
"""

from __future__ import annotations

import logging

import discord

from bot.i18n import N_, t

UNKNOWN_INTERACTION = 10062  # an interaction not answered within 3 s can no longer be answered
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013

log = logging.getLogger(__name__)

# What the bot needs in a game's channel, with the names Discord's settings show (message ids:
# Discord shows them translated in each member's language, and so does the notice).
NEEDED = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("embed_links", N_("Embed Links")),
    ("attach_files", N_("Attach Files")),
    ("read_message_history", N_("Read Message History")),
)


def transient(error: discord.HTTPException) -> bool:
    """A fault of Discord's that may pass by itself: a server error or a rate limit."""
    return error.status >= 500 or error.status == 429


def discords_fault(error: BaseException) -> bool:
    """Whether ``error`` (raised while answering a member) is Discord's doing rather than a bug:
    a transient fault, or an interaction Discord no longer takes (answered too late)."""
    if isinstance(error, discord.app_commands.CommandInvokeError):
        error = error.original
    if not isinstance(error, discord.HTTPException):
        return False
    return transient(error) or (isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION)


def not_acknowledged(error: discord.HTTPException, channel_id: int) -> None:
    """A press's acknowledgement (a deferred update, a spent panel's edit) that Discord refused:
    its fault (answered too late, or failing) is logged and the caller goes on, the move saved
    and the board going by REST; anything else is a bug, raised."""
    if not discords_fault(error):
        raise error
    log.warning("press in channel %s not acknowledged: %s/%s", channel_id, error.status, error.code)


def forbidden(error: BaseException) -> bool:
    """The bot may not do that in the channel: a permission or the channel itself was taken away."""
    if isinstance(error, discord.app_commands.CommandInvokeError):
        error = error.original
    return isinstance(error, discord.Forbidden) and error.code in (MISSING_ACCESS, MISSING_PERMISSIONS)


def missing_permissions(channel: object, code: int) -> list[str]:
    """The permissions the bot lacks in ``channel`` as its cache knows them. The cache can lag
    behind Discord (or know nothing of the channel): then what the error code says."""
    names: list[str] = []
    guild = getattr(channel, "guild", None)
    if guild is not None and guild.me is not None and hasattr(channel, "permissions_for"):
        allowed = channel.permissions_for(guild.me)  # type: ignore[attr-defined]
        in_thread = isinstance(channel, discord.Thread)
        for flag, name in NEEDED:
            if in_thread and flag == "send_messages":
                flag, name = "send_messages_in_threads", N_("Send Messages in Threads")
            if not getattr(allowed, flag):
                names.append(name)
    if names:
        return names
    if code == MISSING_ACCESS:
        return [N_("View Channel")]
    return [name for _, name in NEEDED[1:]]


def permission_notice(locale: str, channel_mention: str, names: list[str]) -> str:
    """What the players are told, once, when the bot cannot touch the board any more: in
    ``locale`` (each reader's), the permissions named as Discord's settings name them there."""
    needed = " / ".join(f"**{t(locale, name)}**" for name in names)
    return t(
        locale,
        "I can't edit the board here: I need {permissions} in {channel}. The game goes on (your "
        "presses still work); a moderator can give it back, and `/board` posts the board again.",
        permissions=needed,
        channel=channel_mention,
    )


def permission_letter(locale: str, channel_mention: str, server: str, names: list[str]) -> str:
    """The same news as ``permission_notice``, sent to the host as a direct message when no
    followup of theirs could carry it (no game press in the last 14 minutes)."""
    needed = " / ".join(f"**{t(locale, name)}**" for name in names)
    return t(
        locale,
        "On **{server}**, I can't edit the board of your game in {channel}: I need {permissions} "
        "there. The game goes on (presses still work); a moderator can give it back, and `/board` "
        "posts the board again.",
        server=server,
        permissions=needed,
        channel=channel_mention,
    )


# Said in the member's language: ``t(locale, DISCORD_HICCUP)``.
DISCORD_HICCUP = N_(
    "Discord did not take my answer just now. The game is safe: check the board, "
    "and press again if your move is not there."
)
