"""/stats' chart through SimCord: a member's all-time rating after each rated game, drawn in the
pictures' thread and attached to the private answer; its words in the asker's language; no chart
for a member without a rated game."""

from __future__ import annotations

import io
import threading

import pytest
from lobby_buttons import lobby_id
from PIL import Image
from shown import card

from bot.community import rating_chart
from bot.community.ratings import NEW, update
from bot.glue import board as glue_board
from bot.glue.picture_cache import ByteLRU
from cogs import general


async def play(world, winner, loser):
    """One finished Tap game (target 1): ``winner`` hosts and taps first, so wins alone."""
    await winner.slash(world.channel, "tap new", target=1)
    await loser.click(world.board(), custom_id=lobby_id(world.env, world.channel, "join"))
    await winner.click(world.board(), custom_id=lobby_id(world.env, world.channel, "start"))
    await winner.click(world.board(), label="Tap")


@pytest.fixture
def charts(monkeypatch):
    """Every chart handed to the drawer, with the thread that drew it; nothing drawn before this
    test is taken from the pictures' cache."""
    seen: list[tuple[rating_chart.Chart, threading.Thread]] = []
    real = rating_chart.draw

    def drawing(chart):
        seen.append((chart, threading.current_thread()))
        return real(chart)

    monkeypatch.setattr(rating_chart, "draw", drawing)
    monkeypatch.setattr(glue_board, "PICTURES", ByteLRU(1 << 20))
    return seen


async def test_the_chart_is_each_rated_games_rating_a_lost_game_included_attached_as_a_png(world, charts):
    alice, bob = world.members[:2]
    await play(world, alice, bob)  # alice wins
    await play(world, bob, alice)  # alice loses
    await play(world, alice, bob)
    a1, b1 = update([NEW, NEW], [1, 2])
    b2, a2 = update([b1, a1], [1, 2])
    a3, _ = update([a2, b2], [1, 2])

    answer = await alice.slash(world.channel, "stats")
    (chart, _), *_ = charts
    (line,) = chart.lines
    assert line.ratings == (a1.shown, a2.shown, a3.shown) == (1069, 1022, 1087)
    assert chart.start == 1000 and line.title == "Tap"
    embed = card(answer.response)
    assert "All-time rating: **1087**" in embed.fields[0].value  # the line ends at the number shown
    (attachment,) = answer.response.attachments
    assert attachment.filename == "rating.png" and embed.image.url.endswith("rating.png")
    png = await attachment.read()
    assert png == rating_chart.draw(chart)
    with Image.open(io.BytesIO(png)) as image:
        assert (image.format, image.size) == ("PNG", (800, 450))
    assert answer.ephemeral


async def test_the_chart_is_drawn_in_the_pictures_thread_never_on_the_event_loop(world, charts):
    alice, bob = world.members[:2]
    await play(world, alice, bob)
    await alice.slash(world.channel, "stats", member=bob)
    ((chart, thread),) = charts
    assert chart.lines[0].ratings == (963,)
    assert thread is not threading.main_thread()
    # The boards' own executor (bot.glue.board._DRAWER), not any thread.
    assert thread.name.startswith(glue_board._DRAWER._thread_name_prefix)


async def test_a_german_members_chart_has_german_words(world, charts, locales):
    alice, bob = world.members[:2]
    await play(world, alice, bob)
    locales.members[bob.id] = "de"
    await bob.slash(world.channel, "stats", member=alice)
    ((chart, _),) = charts
    assert chart.words == rating_chart.Words(
        rating="Wertungszahl (alle Saisons)",
        games="Gewertete Partien",
        tiers=((1700, "Diamant"), (1500, "Platin"), (1300, "Gold"), (1100, "Silber")),
    )
    assert chart.words == rating_chart.words("de") != rating_chart.words("en")


async def test_a_member_without_a_rated_game_gets_the_answer_as_before_without_a_chart(world, charts):
    alice, bob, carol = world.members[:3]
    nothing = await carol.slash(world.channel, "stats")
    assert nothing.response.attachments == [] and card(nothing.response).image.url is None
    await alice.slash(world.channel, "tap new", target=3)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    await alice.slash(world.channel, "end")  # abandoned: rates nobody
    answer = await alice.slash(world.channel, "stats")
    assert "Abandoned: 1" in card(answer.response).fields[0].value
    assert answer.response.attachments == [] and card(answer.response).image.url is None
    assert charts == []


async def test_a_chart_not_ready_in_time_leaves_the_answer_as_before(world, charts, monkeypatch):
    alice, bob = world.members[:2]
    await play(world, alice, bob)
    storage = world.env.bot.storage

    async def late(*args, **kwargs):
        # What asyncio.wait_for raises once CHART_WAIT_S has passed: SimCord's clock moves
        # through timers by itself, so a real wait cannot be timed out inside it.
        raise TimeoutError

    monkeypatch.setattr(storage, "rating_history", late)
    answer = await alice.slash(world.channel, "stats")
    assert "All-time rating: **1069**" in card(answer.response).fields[0].value
    assert answer.response.attachments == [] and card(answer.response).image.url is None
    assert general.CHART_WAIT_S < 3  # Discord wants the answer within 3 s
