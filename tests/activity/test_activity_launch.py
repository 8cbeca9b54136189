"""Launching the Activity from the channel, and the Entry Point command it needs: the lobby's
**Open the table** is answered with LAUNCH_ACTIVITY (callback type 12), only where the Activity is
on; the bot's command sync keeps the Entry Point command Discord holds, where a plain
``tree.sync()`` is refused (50240), as Discord refuses it."""

from __future__ import annotations

import discord
import pytest
from shown import labels, rows
from simcord_activities import ENTRY_POINT_REMOVED

from bot.activity import entry_point


async def test_the_lobby_s_open_the_table_launches_the_activity(world, table):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "tap new")
    # Only where the Activity is on: tests/foundation/test_lobby.py's bot has none, and no such button.
    assert labels(world.board()) == ["Join", "Leave", "Start", "Cancel", "Open the table"]
    launched = await bob.click(world.board(), label="Open the table")
    assert launched.acknowledged
    (launch,) = world.env.backend.launches
    assert launch[1:] == (bob.id, world.channel.id)
    callbacks = [r for r in world.env.http_requests if r.path.endswith("/callback")]
    assert callbacks[-1].json == {"type": 12}
    # Nothing changed: the lobby is as it was, and nobody was seated.
    assert world.env.bot.sessions.get(world.channel.id).players == [alice.id]


async def test_the_entry_point_is_kept_in_the_sync_payload(world, table):
    bot = world.env.bot
    held = [
        {
            "id": "9",
            "application_id": "1",
            "version": "3",
            "name": "launch",
            "description": "",
            "type": 4,
            "handler": 2,
            "contexts": [0, 1, 2],
            "integration_types": [0, 1],
        },
        {"id": "10", "application_id": "1", "version": "3", "name": "old", "description": "gone", "type": 1},
    ]
    payload = await entry_point.payload(bot.tree, held)
    sent = {command["name"]: command for command in payload}
    # Every slash command of the tree, the Entry Point as Discord holds it (bookkeeping left out),
    # and no other command Discord held: the bulk overwrite removes those.
    assert {"tap", "help", "leaderboard", "launch"} <= set(sent) and "old" not in sent
    assert sent["launch"] == {
        "name": "launch",
        "description": "",
        "type": 4,
        "handler": 2,
        "contexts": [0, 1, 2],
        "integration_types": [0, 1],
    }
    # Where Discord holds none, Discord's own default goes (Discord launches: handler 2).
    (default,) = [c for c in await entry_point.payload(bot.tree, []) if c["type"] == 4]
    assert default["handler"] == 2 and default["name"] == "launch"


async def test_a_plain_tree_sync_is_refused_as_discord_refuses_it(world, table):
    with pytest.raises(discord.HTTPException) as refused:
        await world.env.bot.tree.sync()
    assert refused.value.code == ENTRY_POINT_REMOVED


async def test_a_game_in_play_offers_the_table_in_a_row_of_its_own(world, table):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "tap new", target=2)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    board = world.board()
    drawn = [[c.label for c in row] for row in rows(board)]
    assert drawn[-1] == ["Open the table"] and all("Open the table" not in row for row in drawn[:-1])
    launched = await bob.click(board, label="Open the table")
    assert launched.acknowledged
    assert world.env.backend.launches[-1][1:] == (bob.id, world.channel.id)
    # The game did not move, and its board still offers the table after a move.
    session = world.env.bot.sessions.get(world.channel.id)
    assert session.engine.view(None)["taps"] == 0
    await alice.click(world.board(), label="Tap")
    assert session.engine.view(None)["taps"] == 1
    assert labels(world.board())[-1] == "Open the table"
    # Over: the final board offers Play again, not the table.
    await bob.click(world.board(), label="Tap")
    assert "Open the table" not in labels(world.board()) and "Play again" in labels(world.board())


def test_the_table_goes_in_a_free_row_or_not_at_all():
    from bot.glue.board import Board
    from bot.glue.components import GameButton
    from bot.session.launcher import offer_table

    def board_of(rows: list[int | None]) -> Board:
        return Board(embed=discord.Embed(), items=[GameButton(5, "x", i, row=r) for i, r in enumerate(rows)])

    # Unplaced items fill the first rows with room: seven of them take two rows.
    assert offer_table(board_of([None] * 7), 5, "en").items[-1].row == 2
    assert offer_table(board_of([0, 3]), 5, "en").items[-1].row == 4
    # Every row taken: after the last row's own controls while it has room; never on a full board.
    assert offer_table(board_of([0, 1, 2, 3, 4, 4]), 5, "en").items[-1].row == 4
    full = board_of([row for row in range(5) for _ in range(5)])
    assert len(offer_table(full, 5, "en").items) == 25
    once = offer_table(board_of([0]), 5, "en")
    assert len(offer_table(once, 5, "en").items) == 2  # offered once, however often it is asked
