"""What the Kabuki board, lobby and /rules say, against what the bot does."""

from __future__ import annotations

from kabuki_tables import embed_text
from shown import card

FOX, MOON = 2, 1


async def test_the_board_says_when_the_next_player_may_place_only_while_it_lies_ahead(open_game) -> None:
    table = await open_game(3, grace=3)
    table.script([FOX, MOON], first=0)
    await table.place(0)  # alice; bob must wait for the grace
    view = table.view()
    opens, deadline = view["place_from"] // 1000, view["turn_deadline"] // 1000
    status = card(table.message()).description
    assert status.startswith(f"▶️ **bob** can place the **Moon** on a stack <t:{opens}:R>")
    assert "(from" not in status
    await table.env.advance_time(3.1)  # the grace passes: the board is redrawn by its timer
    status = card(table.message()).description
    assert status.startswith(
        f"▶️ **bob** places the **Moon** on a stack; the bot places it for them <t:{deadline}:R>"
    )
    assert f"<t:{opens}:R>" not in status  # no "1 second ago"


async def test_the_rules_promise_about_stop_is_what_a_stop_press_gets(open_game, world) -> None:
    rules = card((await world.members[0].slash(world.channel, "rules", game="kabuki")).response).description
    assert "your press counted" not in rules
    assert "first Stop! shows on the board at once" in rules
    assert "a later press in the window is confirmed to you privately" in rules
    table = await open_game(3)
    table.script([FOX, MOON, FOX], first=0)
    for stack in (0, 1, 0):
        await table.place(stack)
    first, later = await table.stop(0), await table.stop(1)
    # The first Stop! is answered with the board, which says a race is on; no private message.
    assert not first.response.ephemeral and first.followups == []
    assert "**Stop!** was pressed" in embed_text(table.message())
    assert later.response.ephemeral and "registered" in later.response.content
