"""A press answered by editing the board inside its own answer (``bot.glue.answer.edit_board``): what
the players see afterwards, and the private messages that go with it."""

from __future__ import annotations

import copy
from typing import Any

import discord
from kabuki_tables import Table
from shown import card, controls, rows
from simcord.actors import _component_interaction

from bot.games.kabuki import board as kabuki_board
from bot.games.kabuki.board import PICTURE_NAME, picture_key, render_picture
from bot.session import publisher

Shown = tuple[str, str, bool, str | None]


def drawn_controls(message: Any) -> list[Shown]:
    """The board's controls as drawn: label, id, disabled, and the line each sits beside."""
    return [(c.label, c.custom_id, c.disabled, c.beside) for c in controls(message)]


def expected_controls(table: Table) -> list[Shown]:
    """The board's buttons as the cog draws them for the current state: those beside a line
    first (in the card's order), then the others in their rows."""
    board = table.env.bot.game_cogs["kabuki"].render_board(table.session)
    beside = [(line, item) for line, item in board.beside]
    placed = {id(item) for _, item in beside}
    drawn: list[Shown] = [
        (item.label, table.bound(item.custom_id), item.disabled, line) for line, item in beside
    ]
    in_rows: dict[int, list[Shown]] = {}
    for item in board.items:
        if id(item) not in placed:
            in_rows.setdefault(item.row, []).append(
                (item.label, table.bound(item.custom_id), item.disabled, None)
            )
    return drawn + [shown for row in sorted(in_rows) for shown in in_rows[row]]


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
    assert [(f.name, f.value) for f in card(message).fields] == [(f.name, f.value) for f in expected.fields]
    assert card(message).description == expected.description
    assert card(message).image.url.endswith(PICTURE_NAME)
    # Each stack's Place beside that stack's line, Stop! alone in a row, every id bound to this game.
    assert drawn_controls(message) == expected_controls(table)
    stacks = card(message).fields[0].value.split("\n")
    assert [c.beside for c in controls(message)] == [*stacks, None] and len(stacks) == 4
    assert [[c.label for c in row] for row in rows(message)] == [["Stop!"]]
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
    before = (drawn_controls(table.message()), shown_picture(table))
    seat = table.view()["current"]["seat"]
    refused = await _component_interaction(
        table.member(seat),
        old,
        {"custom_id": table.bound(f"pc:{table.channel.id}:place:0-{turn}"), "component_type": 2},
    )
    assert refused.ephemeral and "already placed" in refused.response.content
    assert (drawn_controls(table.message()), shown_picture(table)) == before


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
    assert drawn_controls(table.message()) == expected_controls(table)
    assert shown_picture(table) == render_picture(picture_key(table.view()))
    await table.place(2)  # the next player plays on as usual
    assert table.view()["turn"] == 2
