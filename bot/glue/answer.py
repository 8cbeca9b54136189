"""A press's own answer, posted without asking Discord for the message back.

discord.py's ``InteractionResponse.edit_message`` and ``send_message`` post the callback with
``?with_response=1`` and parse the returned message into a full ``Message``
(``InteractionCallbackResponse``), which the bot never reads: ~0.27 ms profiled per board answer,
and ``edit_message`` wants the components as a ``View``. ``edit_board`` (callback type 7: the
board edited inside the answer) and ``send_private`` (type 4, ephemeral) post the same callback
without it (Discord then answers 204 No Content), the board's components laid out straight from
its items (``bot.glue.layout``), and mark the interaction answered as discord.py does, so ``is_done()`` and a
second answer (``InteractionResponded``) behave as after discord.py's own. See "Answering a
press" in bench/README.md for the figures.

What discord.py does besides, and why it is not needed here: ``store_view`` keeps a live view
to dispatch its callbacks; game components are routed by custom id (``GameBot.on_interaction``)
and board and panel views are stopped before they are sent (``make_view``), so none was ever
stored (``send_private`` hands a live view to discord.py all the same).
``prevent_view_updates_for`` still runs: it stops a view discord.py may be tracking on that
message from being refreshed by the edit, as ``edit_message`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord.enums import InteractionResponseType
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.glue.interactions import message_id
from bot.glue.layout import Layout


async def edit_board(
    interaction: discord.Interaction,
    *,
    view: Layout,
    attachments: Sequence[discord.File] | None = None,
) -> None:
    """Answer ``interaction`` by editing the message it was pressed on to show ``view`` (a
    board's card, ``bot.glue.layout``; an embed or words the message had are cleared).
    ``attachments`` replace the message's files; None keeps them. Raises as ``edit_message`` does: an
    ``HTTPException`` Discord's refusal (``NotFound`` 10062 when answered after 3 s), and
    ``InteractionResponded`` when the press was answered already."""
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    pressed = message_id(interaction)
    if pressed is not None:
        state.prevent_view_updates_for(pressed)
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value,
        content=None,
        embed=None,
        view=view,  # type: ignore[arg-type]
        attachments=MISSING if attachments is None else attachments,
        previous_allowed_mentions=state.allowed_mentions,
    )
    await _answer(interaction, params, InteractionResponseType.message_update)


async def edit_message(
    state: Any,
    channel_id: int,
    message_id: int,
    *,
    view: Layout,
    attachments: Sequence[discord.File] | None = None,
) -> None:
    """Edit a message by REST to show ``view`` (a board's card; an embed or words the message
    had are cleared), as ``PartialMessage.edit`` does, without what the bot does not use: the
    edited ``Message`` parsed from the answer. ``attachments`` replace the message's files; None keeps them.
    Raises ``HTTPException`` as ``edit`` does. ``state`` is discord.py's connection state."""
    state.prevent_view_updates_for(message_id)
    with handle_message_parameters(
        content=None,
        embed=None,
        attachments=MISSING if attachments is None else attachments,
        view=view,  # type: ignore[arg-type]
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        await state.http.edit_message(channel_id, message_id, params=params)


async def send_private(
    interaction: discord.Interaction,
    *,
    content: str | None = None,
    embed: discord.Embed | None = None,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Answer ``interaction`` with an ephemeral message only the presser sees, as
    ``response.send_message(ephemeral=True, ...)`` does, without the message parsed back. A live
    view (one discord.py must keep to dispatch its callbacks) goes through discord.py itself; the
    games' panels are stopped views, routed by custom id."""
    if view is not None and not view.is_finished():
        await interaction.response.send_message(
            content, embed=embed or MISSING, file=file or MISSING, view=view, ephemeral=True
        )
        return
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    params = interaction_message_response_params(
        type=InteractionResponseType.channel_message.value,
        content=content,
        embed=MISSING if embed is None else embed,
        file=MISSING if file is None else file,
        view=MISSING if view is None else view,
        flags=discord.MessageFlags(ephemeral=True),
        previous_allowed_mentions=interaction._state.allowed_mentions,
    )
    await _answer(interaction, params, InteractionResponseType.channel_message)


async def delete_original(webhook: discord.Webhook) -> None:
    """Delete the original response of the interaction ``webhook`` was made from (its
    application id and token, ``Webhook.from_state`` with type 3), as
    ``Interaction.delete_original_response`` does for an interaction still at hand: an ephemeral
    message too, while the token lives (15 minutes). Raises ``HTTPException`` as it does."""
    await async_context.get().delete_original_interaction_response(
        webhook.id,
        webhook.token,  # type: ignore[arg-type]
        session=webhook.session,
        proxy=webhook.proxy,
        proxy_auth=webhook.proxy_auth,
    )


async def _answer(
    interaction: discord.Interaction, params: MultipartParameters, kind: InteractionResponseType
) -> None:
    """Post the interaction's callback and mark it answered, as discord.py's answers do."""
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction._state.http
    # No ``with_response``: Discord answers 204 and nothing is parsed.
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=None if params.files else params.payload,
        files=params.files or None,
        multipart=params.multipart or None,
    )
    interaction.response._response_type = kind
