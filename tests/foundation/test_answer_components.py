"""A board's components as the press's own answer sends them (``bot.glue.layout.rows``, plain
``GameButton`` s) are exactly what discord.py's ``View`` sends for the same items."""

from __future__ import annotations

import discord
import pytest

from bot.glue.components import GameButton, GameSelect, bind, bound_id, button_id, make_view
from bot.glue.layout import layout, rows
from bot.session.rematch import PlayAgainButton

CHANNEL = 123456789012345678


def boards() -> list[list[object]]:
    tiles = [GameButton(CHANNEL, "slap", f"3.{t}", label=f"tile {t}", row=t // 4) for t in range(16)]
    tiles += [
        GameButton(CHANNEL, "card", 3, label="My card", emoji="🃏", row=4),
        GameButton(CHANNEL, "end", 3, label="End", emoji="⏹️", style=discord.ButtonStyle.danger, row=4),
    ]
    stacks = [
        GameButton(CHANNEL, "place", f"{s}-7", label=f"{s + 1}", style=discord.ButtonStyle.primary, row=0)
        for s in range(4)
    ] + [GameButton(CHANNEL, "stop", 7, label="Stop!", emoji="✋", disabled=True, row=1)]
    # No rows given: each goes to the first row with room; a select fills a row by itself.
    options = [discord.SelectOption(label=name, value=name) for name in ("alice", "bob")]
    mixed = [
        GameButton(CHANNEL, "stand", 2, label="Stand"),
        GameSelect(CHANNEL, "exchange", options, placeholder="Exchange with…"),
        GameButton(CHANNEL, "cut", 2, label="Cut"),
        PlayAgainButton("ab12"),
    ]
    return [tiles, stacks, mixed]


def test_the_answers_rows_are_discord_pys_rows_for_every_kind_of_board() -> None:
    for items in boards():
        bind(items, "0badc0de")
        assert rows(items) == make_view(items).to_components()


def test_a_plain_game_button_is_sent_as_discord_pys_button_and_keeps_its_game_binding() -> None:
    button = GameButton(CHANNEL, "stop", 7, label="Stop!", emoji="✋", style=discord.ButtonStyle.danger)
    bind([button], "0badc0de")
    item = make_view([button]).children[0]
    assert isinstance(item, discord.ui.Button)
    assert button.to_component_dict() == item.to_component_dict()
    assert item.custom_id == f"pc:{CHANNEL}:0badc0de:stop:7"
    bind([item], "feedface")  # a panel's view, bound as it is sent
    assert item.custom_id == f"pc:{CHANNEL}:feedface:stop:7"


def test_ids_that_could_not_be_read_back_are_refused():
    assert button_id(CHANNEL, "place", -3) == f"pc:{CHANNEL}:place:-3"
    for arg in ("a b", "é", "x" * 90, "1:2"):
        with pytest.raises(ValueError):
            button_id(CHANNEL, "place", arg)
    assert bound_id(f"pc:{CHANNEL}:place:1", "0af3") == f"pc:{CHANNEL}:0af3:place:1"
    for tag in ("0AF3", "tag", ""):
        with pytest.raises(ValueError):
            bound_id(f"pc:{CHANNEL}:place:1", tag)


async def test_a_rest_edit_sends_what_discord_pys_edit_would() -> None:
    from discord.http import handle_message_parameters

    from bot.glue.answer import edit_message

    class State:
        allowed_mentions = discord.AllowedMentions(everyone=False)

        def __init__(self) -> None:
            self.prevented: list[int] = []

        def prevent_view_updates_for(self, message_id: int) -> None:
            self.prevented.append(message_id)

        @property
        def http(self):
            return self

        async def edit_message(self, channel_id: int, message_id: int, *, params) -> None:
            self.sent = (channel_id, message_id, params.payload)

    embed = discord.Embed(title="Board", description="turn 7")
    for items in [*boards(), []]:
        bind(items, "0badc0de")
        state = State()
        card = layout(embed, items)
        await edit_message(state, CHANNEL, 42, view=card)
        # What discord.py's own edit sends for the same card, clearing a legacy message's embed.
        with handle_message_parameters(
            content=None, embed=None, view=card, previous_allowed_mentions=state.allowed_mentions
        ) as params:
            assert state.sent == (CHANNEL, 42, params.payload)
        payload = state.sent[2]
        assert payload["flags"] & (1 << 15) and payload["embeds"] == [] and payload["content"] is None
        (container,) = payload["components"]
        assert container["components"][0] == {"type": 10, "content": "## Board\nturn 7"}
        assert container["components"][1:] == rows(items)  # the controls, as discord.py lays them out
        assert state.prevented == [42]


def test_words_that_replace_a_card_become_a_text_of_its_layout_with_their_controls():
    """A card cannot be edited back into plain words (Discord refuses to take the flag off):
    private words sent onto a card are the layout's text, their controls kept; elsewhere they
    stay plain words."""
    from bot.glue.layout import private

    button = GameButton(CHANNEL, "card", label="My card")
    message = {"content": "You looked at **bob**'s card.", "view": make_view([button])}
    assert private(message) is message  # words alone, sent as a new message
    sent = private(message, onto_card=True)
    assert sent["content"] is None and sent["view"].has_components_v2()
    assert sent["view"].to_components() == [
        {"type": 10, "content": "You looked at **bob**'s card."},
        {"type": 1, "components": [button.to_component_dict()]},
    ]
