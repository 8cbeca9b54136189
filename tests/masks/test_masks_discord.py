"""Island of Monster Masks end to end through SimCord: whole games, races, refusals, timers, restarts.

Defaults of the engine apply: race window 250 ms, 5 s pause after each reveal.
"""

from __future__ import annotations

import json
import re

import pytest
from masks_tables import RACE_MS, SETTLE_S
from replay_checks import assert_stored_record_verifies
from shown import card as card_of
from shown import controls, is_card, labels
from shown import text as words

from bot.engine import IllegalAction
from bot.games.masks.faces import MONSTERS
from bot.games.masks.players import play_game
from bot.glue.components import Press

# SimCord waits, after each action, for timers due within its settle timeout (5 s by default):
# 1 s keeps the race windows (RACE_MS by default at these tables) and the 5 s reveal pause for
# env.advance_time, and still leaves a busy machine time to answer a click.
pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_S)

RACE = RACE_MS / 1000 + 0.1  # seconds: past a table's race window
WIDE = 2000  # ms: a race window that stays open across clicks whatever the wall clock does
PAUSE = 5  # seconds: the pause after a reveal


def ephemerals(channel, member):
    return [m for m in channel.history(viewer=member) if m.flags.ephemeral]


def other_tile(card: int, *taken: int) -> int:
    return next(t for t in range(16) if t != card and t not in taken)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])  # the whole game on each storage
async def test_full_game_four_members_to_the_end_records_cards_and_winners(open_table, world, simcord_env):
    # A wide window: on a busy machine a 250 ms race could close by the wall clock mid-click.
    table = await open_table(4, race_window_ms=WIDE)
    first_footer = card_of(table.board()).footer.text
    bot = simcord_env.bot
    host = table.players[0]
    # The host pressed Start and is the first Mime: the card came with that press, privately.
    first = ephemerals(world.channel, host)[-1]
    assert f"**{MONSTERS[table.card()]}**" in first.content
    assert [a.filename for a in first.attachments] == ["card.png"]

    expected = [0, 0, 0, 0]
    turns = table.view["turns"]
    assert turns == 12
    for turn in range(1, turns + 1):
        assert table.view["turn"] == turn
        mime = table.view["mime"]
        assert mime == (turn - 1) % 4
        card = table.card()
        if turn > 1:
            # The new Mime slapped last turn, so the card reached them through that press.
            assert f"secret card is **{MONSTERS[card]}**" in ephemerals(world.channel, table.mime)[-1].content
        guessers = table.guessers()
        scoring = turn % 4 != 0  # every fourth turn nobody reads the Mime right
        wrong = [other_tile(card)]
        scorer = guessers[turn % 3]
        for guesser in guessers:
            if guesser is scorer and scoring:
                tile = card
            else:
                tile = other_tile(card, *wrong)
                wrong.append(tile)
            result = await table.slap(guesser, tile)
            # A slap alone leaves the board as it is: the press is answered privately.
            assert result.ephemeral
            assert f"You slapped **{MONSTERS[tile]}**" in result.response.content
        if scoring:
            expected[table.players.index(scorer)] += 1
            expected[mime] += 1
        await simcord_env.advance_time(WIDE / 1000)  # races settle, everyone holds a tile: reveal
        if turn < turns:
            assert f"the card was **{MONSTERS[card]}**" in card_of(table.board()).description
            await simcord_env.advance_time(PAUSE)

    assert table.session is None
    final = card_of(table.board())
    assert final.title == "Island of Monster Masks — game over"
    assert final.description == "🏆 Winners: **alice**, **bob**, **carol**"
    assert labels(table.board()) == ["Play again"]
    # Worked by hand: dave mimed the three blank turns, so he only has his three guesses.
    assert expected == [5, 5, 5, 3]
    for member, cards in zip(table.players, expected, strict=True):
        assert f"**{member.name}** — {cards} cards" in final.fields[0].value
    rows, total = await bot.storage.leaderboard(world.guild.id, "masks")
    assert total == 4
    standing = {row.user_id: row for row in rows}
    for member, cards in zip(table.players, expected, strict=True):
        assert standing[member.id].score == cards
        assert standing[member.id].wins == (1 if cards == 5 else 0)
    rec = await assert_stored_record_verifies(
        bot.storage, world.guild.id, world.channel.id, first_footer, final.footer.text
    )
    assert rec["counts"] == expected


def tile_button(table, tile: int):
    return next(c for c in controls(table.board()) if (c.custom_id or "").endswith(f".{tile}"))


async def test_a_race_loser_is_told_privately_holds_no_tile_and_is_refused_a_second_slap(
    open_table, world, simcord_env
):
    table = await open_table(4, race_window_ms=WIDE)
    _, bob, carol, dave = table.players
    card = table.card()
    tile = other_tile(card)
    await table.slap(bob, tile)
    await simcord_env.advance_time(0.1)
    carols = await table.slap(carol, tile)  # inside bob's window: a race
    assert carols.ephemeral and "You slapped" in carols.response.content
    await simcord_env.advance_time(WIDE / 1000)

    assert table.view["held_by"][tile] == 1
    lost = carols.followups[-1]
    assert lost.ephemeral
    assert f"**bob** slapped **{MONSTERS[tile]}** 100 ms before you" in lost.content
    assert "can't be changed: you hold no tile this turn" in lost.content
    assert all(
        "100 ms" not in m.content for m in ephemerals(world.channel, dave) + ephemerals(world.channel, bob)
    )
    button = tile_button(table, tile)
    # Still pressable: a slap on it is told who took it (test_masks_discord_slap_answers.py).
    assert button.label == f"{MONSTERS[tile]} · bob" and not button.disabled
    assert "**carol** · ⚡ lost a race: no tile this turn" in card_of(table.board()).fields[0].value

    second = other_tile(card, tile)
    refused = await table.slap(carol, second)
    assert refused.ephemeral
    assert f"You lost the race for {MONSTERS[tile]}: a slap can't be changed" in refused.response.content
    await simcord_env.advance_time(WIDE / 1000)
    assert table.view["held_by"][second] is None and 2 not in table.view["held_by"]
    assert table.view["phase"] == "guessing"  # dave has not slapped yet

    # The reveal waits for dave's slap only, not for a second one from carol.
    await table.slap(dave, card)
    await simcord_env.advance_time(WIDE / 1000)
    text = card_of(table.board()).description
    assert "(every guesser slapped a tile). **dave** guessed it" in text
    assert table.view["piles"] == [1, 0, 0, 1]


async def test_second_chance_option_a_race_loser_slaps_again(open_table, world, simcord_env):
    await world.members[0].slash(world.channel, "masks new", second_chance=True)
    lobby = str(card_of(world.board()).to_dict())
    assert "Second chance: a player who loses a race may slap another tile: **on**" in lobby
    await world.members[0].click(world.board(), label="Cancel")
    rules = card_of((await world.members[0].slash(world.channel, "rules", game="masks")).response)
    assert "Second chance: a player who loses a race may slap another tile" in rules.description

    table = await open_table(4, race_window_ms=WIDE, second_chance=True)
    _, bob, carol, _ = table.players
    assert "second chance: yes" in card_of(table.board()).footer.text
    tile = other_tile(table.card())
    await table.slap(bob, tile)
    await simcord_env.advance_time(0.1)
    carols = await table.slap(carol, tile)
    await simcord_env.advance_time(WIDE / 1000)
    assert "Second chance: slap another free tile!" in carols.followups[-1].content

    second = other_tile(table.card(), tile)
    again = await table.slap(carol, second)
    assert "You slapped" in again.response.content
    await simcord_env.advance_time(WIDE / 1000)
    assert table.view["held_by"][second] == 2


async def test_refusals_change_nothing(open_table, world, simcord_env):
    table = await open_table(3, race_window_ms=WIDE)
    alice, bob, _ = table.players
    outsider = world.members[4]
    card = table.card()

    refused = await table.slap(alice, 0)
    assert refused.ephemeral and "You are the Mime" in refused.response.content
    refused = await table.slap(outsider, 0)
    assert "not playing" in refused.response.content
    refused = await table.my_card(bob)
    assert "Only the Mime" in refused.response.content
    assert str(MONSTERS[card]) not in refused.response.content and not refused.response.attachments
    refused = await table.my_card(outsider)
    assert "not playing" in refused.response.content
    refused = await table.end_guessing(bob)
    assert "Only the Mime" in refused.response.content

    await table.slap(bob, other_tile(card))
    refused = await table.slap(bob, other_tile(card, other_tile(card)))
    assert "racing for" in refused.response.content
    await simcord_env.advance_time(WIDE / 1000)
    refused = await table.slap(bob, card)
    assert "already slapped" in refused.response.content and "can't be changed" in refused.response.content
    assert table.view["held_by"][card] is None
    assert table.view["slapped"] == [1]


async def test_a_stale_board_and_an_earlier_turns_button_are_refused(open_table, world, simcord_env):
    table = await open_table(3)
    old = table.board()
    # The board is posted anew (/board); the old one would be emptied, unless that edit fails.
    simcord_env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{old.id}")
    await table.players[1].slash(world.channel, "board")
    assert table.board().id != old.id
    refused = await table.players[1].click(old, custom_id=table.bound(f"pc:{world.channel.id}:slap:1.0"))
    assert "old board" in refused.response.content
    assert table.view["racing"] == []

    await table.end_guessing(table.mime)
    await simcord_env.advance_time(PAUSE)
    assert table.view["turn"] == 2
    # A button of turn 1 (a client that has not seen the edit yet) is refused by the engine.
    cog = simcord_env.bot.game_cogs["masks"]
    action = cog.action_for(table.session, 2, Press(world.channel.id, "slap", "1.0"))
    with pytest.raises(IllegalAction, match="earlier turn"):
        table.session.engine.apply(2, action, 0)


async def test_guess_timer_runs_out_then_the_next_mime_draws(open_table, world, simcord_env):
    table = await open_table(3, guess_seconds=30)
    bob = table.players[1]
    card = table.card()
    await table.slap(bob, other_tile(card))
    await simcord_env.advance_time(29)
    assert table.view["phase"] == "guessing"
    await simcord_env.advance_time(1.5)
    assert table.view["phase"] == "reveal"
    text = card_of(table.board()).description
    assert f"the card was **{MONSTERS[card]}** (the guess timer ran out)" in text
    assert "Nobody guessed it" in text
    assert all(c.disabled for c in controls(table.board()))
    await simcord_env.advance_time(PAUSE)
    assert table.view["turn"] == 2 and table.mime is bob
    assert "**bob** is the Mime" in card_of(table.board()).description
    assert "press **My card**" in card_of(table.board()).description


async def test_the_mime_ends_guessing_early(open_table, world, simcord_env):
    table = await open_table(3)
    card = table.card()
    await table.slap(table.players[1], card)
    await simcord_env.advance_time(RACE)
    result = await table.end_guessing(table.mime)
    assert not result.ephemeral
    assert "(the Mime ended the guessing). **bob** guessed it" in card_of(table.board()).description
    assert table.view["piles"] == [1, 1, 0]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_restart_mid_game_restores_the_same_engine_and_the_game_is_recorded_whole(
    open_table, world, simcord_env, restart
):
    # The log is saved a press's entries at a time and put back at the restart: the restored
    # engine is the one saved, and the record of the finished game replays from its seed.
    table = await open_table(4, race_window_ms=WIDE, reveal_ms=10_000)
    first_footer = card_of(table.board()).footer.text
    saved, turns = None, table.view["turns"]
    for turn in range(1, turns + 1):
        card = table.card()
        wrong = [other_tile(card)]
        for i, guesser in enumerate(table.guessers()):
            tile = card if i == turn % 3 else other_tile(card, *wrong)
            wrong.append(tile)
            await table.slap(guesser, tile)
        await simcord_env.advance_time(WIDE / 1000)
        if turn == 6:  # during the reveal pause, half way
            saved = simcord_env.bot.sessions.get(world.channel.id).engine.to_json()
            await restart()
            assert simcord_env.bot.sessions.get(world.channel.id).engine.to_json() == saved
        if turn < turns:
            await simcord_env.advance_time(10)
    assert table.session is None and saved is not None
    rec = await assert_stored_record_verifies(
        simcord_env.bot.storage,
        world.guild.id,
        world.channel.id,
        first_footer,
        card_of(table.board()).footer.text,
    )
    assert rec["log"][: len(saved["log"])] == saved["log"]


async def test_restart_mid_turn_play_continues(open_table, world, simcord_env, restart):
    # A restart keeps the clock still: the race open when the bot goes down is settled by the
    # restored bot's timer once time moves on, and so is the reveal pause.
    table = await open_table(4, reveal_ms=10_000)
    _, bob, carol, dave = table.players
    card = table.card()
    await table.slap(bob, card)  # the race for it is still open when the bot goes down
    await restart()
    await simcord_env.advance_time(RACE)
    assert table.view["held_by"][card] == 1
    await table.slap(carol, other_tile(card))
    await table.slap(dave, other_tile(card, other_tile(card)))
    await simcord_env.advance_time(RACE)
    assert "**bob** guessed it" in card_of(table.board()).description
    await restart()  # during the reveal pause
    await simcord_env.advance_time(10)
    assert table.view["turn"] == 2
    shown = await table.my_card(bob)
    assert shown.ephemeral and f"**{MONSTERS[table.card()]}**" in shown.response.content
    assert table.view["piles"] == [1, 1, 0, 0]


async def test_the_card_never_shows_in_public_before_the_reveal(open_table, world, simcord_env, caplog):
    table = await open_table(4)
    alice, bob, carol, dave = table.players
    card = table.card()
    name = MONSTERS[card]
    shown = await table.my_card(alice)
    assert shown.ephemeral and name in shown.response.content
    assert [a.filename for a in shown.response.attachments] == ["card.png"]
    await table.slap(bob, other_tile(card))
    await table.slap(carol, other_tile(card, other_tile(card)))
    await simcord_env.advance_time(RACE)

    for viewer in (bob, carol, dave, world.mod):
        for message in world.channel.history(viewer=viewer):
            # Every word the message shows (card and all), and its picture's address.
            said = words(message) + (str(card_of(message).to_dict()) if is_card(message) else "")
            assert name not in said
            assert all(a.filename != "card.png" for a in message.attachments)
            for item in controls(message):
                assert re.fullmatch(
                    rf"pc:{world.channel.id}:{table.session.tag}:(slap:1\.\d+|card:1|end:1)",
                    item.custom_id,
                )
    assert all(name not in record.getMessage() for record in caplog.records)

    # Stronger: the public board is identical whatever the card is.
    cog = simcord_env.bot.game_cogs["masks"]
    session = table.session
    before = cog.render_board(session)
    session.engine.card = (card + 1) % 16
    after = cog.render_board(session)
    session.engine.card = card
    assert before.embed.to_dict() == after.embed.to_dict()
    assert before.picture.key == after.picture.key
    assert [i.custom_id for i in before.items] == [i.custom_id for i in after.items]
    assert [i.label for i in before.items] == [i.label for i in after.items]

    await table.slap(dave, card)
    await simcord_env.advance_time(RACE)
    assert f"the card was **{name}**" in card_of(table.board()).description


def test_a_saved_state_does_not_change_as_the_game_goes_on():
    """to_json shares finished turns and log entries with the engine (saves are per press)."""
    engine, _ = play_game(4, 3)
    replay = type(engine).new(4, 3, engine.log[0]["options"], engine.log[0]["now"])
    snapshots = []
    for step in engine.log[1:]:
        data = replay.to_json()
        snapshots.append((data, json.dumps(data)))
        if step["op"] == "apply":
            replay.apply(step["seat"], step["action"], step["now"])
        else:
            replay.advance(step["now"])
    assert all(json.dumps(data) == frozen for data, frozen in snapshots)
    assert replay.to_json() == engine.to_json()


async def test_my_card_pressed_again_leaves_the_mime_one_card_panel(open_table, world):
    table = await open_table(3)
    mime = table.mime
    looks = [await table.my_card(mime) for _ in range(3)]
    assert all(look.acknowledged for look in looks)
    newest = looks[-1].response
    assert newest is not None and newest.ephemeral and "your secret card is" in newest.content
    # Each newer panel took the place of the one before: those are gone (SimCord shows no message
    # for them any more), and the Mime sees this panel and at most the card the game's start sent.
    assert [look.response for look in looks[:-1]] == [None, None]
    panels = [
        m
        for m in world.channel.history(viewer=mime)
        if m.flags.ephemeral and m.content and "your secret card is" in m.content
    ]
    assert newest.id in {m.id for m in panels} and len(panels) <= 2
