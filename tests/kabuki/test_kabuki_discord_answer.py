"""A press answered by editing the board inside its own answer (``bot.glue.answer.edit_board``): what
the players see afterwards, and the private messages that go with it."""

from __future__ import annotations

import copy
from typing import Any

import discord
from kabuki_tables import Table
from simcord.actors import _component_interaction

from bot.games.kabuki import board as kabuki_board
from bot.games.kabuki.board import PICTURE_NAME, picture_key, render_picture
from bot.session import publisher


def rows(message: Any) -> list[list[tuple[str, str, bool]]]:
    return [[(c.label, c.custom_id, c.disabled) for c in row.children] for row in message.components]


def expected_rows(table: Table) -> list[list[tuple[str, str, bool]]]:
    """The board's buttons as the cog draws them for the current state, in their rows."""
    board = table.env.bot.game_cogs["kabuki"].render_board(table.session)
    drawn: dict[int, list[tuple[str, str, bool]]] = {}
    for item in board.items:
        drawn.setdefault(item.row, []).append((item.label, table.bound(item.custom_id), item.disabled))
    return [drawn[row] for row in sorted(drawn)]


def shown_picture(table: Table) -> bytes:
    (attachment,) = table.message().attachments
    assert attachment.filename == PICTURE_NAME
    return table.env.backend.cdn.get(attachment.url)


async def test_a_placement_edits_the_board_in_its_answer_with_the_new_embed_buttons_and_picture(
    open_game, monkeypatch
) -> None:
    table = await open_game(3)
    board_id = table.message().id
    answered: list[tuple[bool, Any]] = []
    real = publisher.edit_board

    async def watched(interaction: discord.Interaction, **kwargs: Any) -> None:
        await real(interaction, **kwargs)
        answered.append((interaction.response.is_done(), interaction.response.type))

    monkeypatch.setattr(publisher, "edit_board", watched)
    result = await table.place(1)
    # Answered once, by the edit, and discord.py knows it (a second answer would be refused).
    assert answered == [(True, discord.InteractionResponseType.message_update)]
    assert result.acknowledged and not result.deferred and result.followups == []
    message = table.message()
    assert message.id == board_id
    expected = table.env.bot.game_cogs["kabuki"].render_board(table.session).embed
    assert [(f.name, f.value) for f in message.embeds[0].fields] == [
        (f.name, f.value) for f in expected.fields
    ]
    assert message.embeds[0].description == expected.description
    assert message.embeds[0].image.url.endswith(PICTURE_NAME)
    # Four stacks on the first row, Stop! alone on the second, every id bound to this game.
    assert rows(message) == expected_rows(table)
    assert [len(row) for row in rows(message)] == [4, 1]
    assert shown_picture(table) == render_picture(picture_key(table.view()))


async def test_the_answer_after_a_change_of_picture_replaces_the_old_picture(open_game) -> None:
    table = await open_game(3)
    await table.place(0)
    first = shown_picture(table)
    await table.place(2)
    assert len(table.message().attachments) == 1
    assert shown_picture(table) != first
    assert shown_picture(table) == render_picture(picture_key(table.view()))


async def test_a_stop_that_joins_a_race_gets_its_private_message_beside_the_answer(open_game) -> None:
    table = await open_game(4)
    await table.place(0)
    placer = table.view()["stop_window"]["placer"]
    first, second = (placer + 1) % 4, (placer + 2) % 4
    await table.stop(first)  # opens the race: the board shows it
    joined = await table.stop(second)
    private = [joined.response] if joined.response is not None and joined.ephemeral else []
    private += [m for m in joined.followups if m.ephemeral]
    assert [m.content for m in private] == [
        "✋ **Stop!** registered. Presses within the race window all count; "
        "the earliest wins. The result shows on the board in a moment."
    ]


async def test_a_press_on_an_old_board_is_refused_privately_and_leaves_the_board(open_game) -> None:
    table = await open_game(3)
    old = copy.deepcopy(table.env.backend.get_message(table.channel.id, table.session.board_message_id))
    turn = table.view()["turn"]
    await table.place(1)
    before = (rows(table.message()), shown_picture(table))
    seat = table.view()["current"]["seat"]
    refused = await _component_interaction(
        table.member(seat),
        old,
        {"custom_id": table.bound(f"pc:{table.channel.id}:place:0-{turn}"), "component_type": 2},
    )
    assert refused.ephemeral and "already placed" in refused.response.content
    assert (rows(table.message()), shown_picture(table)) == before


async def test_a_placement_answered_after_discords_3_s_still_shows_its_board_and_picture(
    open_game, monkeypatch
) -> None:
    """Discord refuses the late answer; the move stands, and the board message is edited
    directly with the new picture."""
    table = await open_game(3)
    real_render = kabuki_board.render

    def slow_render(*args, **kwargs):  # the board takes 3.5 s to draw
        table.env.backend.advance_clock(3.5)
        return real_render(*args, **kwargs)

    monkeypatch.setattr(kabuki_board, "render", slow_render)
    late = await table.place(1)
    monkeypatch.undo()
    assert late.response is None and late.followups == []
    assert table.view()["turn"] == 1
    assert rows(table.message()) == expected_rows(table)
    assert shown_picture(table) == render_picture(picture_key(table.view()))
    await table.place(2)  # the next player plays on as usual
    assert table.view()["turn"] == 2
