"""Turn pings in Island of Monster Masks: once a turn has waited, the guessers who have not slapped
(and a Mime whose card could not reach them) are mentioned once; the ping goes with the turn."""

from __future__ import annotations

from shown import card

from bot.games.masks.faces import MONSTERS
from bot.session.turn_pings import PING_AFTER_MS

PING_S = PING_AFTER_MS / 1000


def pings(world) -> list:
    return [m for m in world.channel.history() if m.content and m.content.startswith("⏰")]


async def test_the_guessers_still_to_slap_are_pinged_once_a_turn(open_table, world) -> None:
    table = await open_table(4, guess_seconds=3600)
    mime_seat = table.view["mime"]
    guessers = table.guessers()
    await table.slap(guessers[0], 0)  # acted: never pinged this turn
    await table.env.advance_time(PING_S + 1)
    [ping] = pings(world)
    asked = {user.id for user in ping.mentions}
    assert guessers[0].id not in asked
    assert {g.id for g in guessers[1:]} <= asked
    waiting = " ".join(f"<@{g.id}>" for g in guessers[1:])
    assert f"{waiting}: watch the Mime and slap a tile." in ping.content
    # The host pressed Start, so a host Mime has their card already; any other is sent to it.
    mime = table.players[mime_seat]
    if mime_seat == 0:
        assert mime.id not in asked
    else:
        assert (
            mime.id in asked
            and f"<@{mime.id}>: you are the Mime: press 🃏 **My card** and mime it." in ping.content
        )
    assert MONSTERS[table.card()] not in ping.content  # the secret card is never named
    # More slaps and redraws in the same turn ping nobody again.
    await table.slap(guessers[1], 1)
    await table.env.advance_time(2)
    assert len(pings(world)) == 1
    # The turn ends: its ping is deleted.
    await table.end_guessing(table.mime)
    await table.env.advance_time(1)
    assert pings(world) == []


async def test_a_slow_table_may_take_up_to_a_day_per_turn(world, simcord_env) -> None:
    await world.members[0].slash(world.channel, "masks new", guess_seconds=86_400, mime_mode="emoji")
    options = next(f.value for f in card(world.board()).fields if f.name == "Options")
    assert "Guess timer: **24 h**" in options
    assert simcord_env.bot.sessions.get(world.channel.id).options["guess_ms"] == 86_400_000


async def test_computers_are_never_pinged(world, simcord_env) -> None:
    alice = world.members[0]
    await alice.slash(world.channel, "masks new", guess_seconds=120)
    for _ in range(2):
        await alice.click(world.board(), label="Add computer")
    await alice.click(world.board(), label="Start")
    session = simcord_env.bot.sessions.get(world.channel.id)
    if session.engine.view(None)["mime"] == 0:
        # Alice mimes first: the computers slap within seconds, the card is revealed, and the
        # next Mime is a computer. Nobody was pinged: alice had her card, the rest are computers.
        await world.env.advance_time(12)
        assert pings(world) == []
    assert session.engine.view(None)["mime"] != 0
    await world.env.advance_time(PING_S + 1)
    [ping] = pings(world)
    # The computer Mime, and the computer guesser (which slapped long ago), are not mentioned.
    assert [user.id for user in ping.mentions] == [alice.id]
    assert f"<@{alice.id}>: watch the Mime and slap a tile." in ping.content
    assert "you are the Mime" not in ping.content
