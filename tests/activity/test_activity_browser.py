"""The Activity's page in a real Chromium against the real bot in SimCord: the built page (the SDK's
mock signs in as ``?user_id=``, the bot's sign-in asks the stand-in for Discord's API), with one
member on the page and the others on the channel's buttons, in the same game."""

from __future__ import annotations

import asyncio
import re

import pytest
from page_client import INSTANCE, seat_at_table
from shown import card, controls

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

CEILING_S = 60  # only a hang reaches it: every wait returns as soon as the page shows the change
FAST = {"grace": 0, "race_window": 2000, "reveal": 2, "turn_timer": 60}


@pytest.fixture
def games():
    return ["kabuki"]


def mock_sign_in(discord_api, member) -> None:
    """What Discord would answer for the code the SDK's mock gives this member's page."""
    discord_api.add_user(member.id, member.name)
    discord_api.codes[f"mock:{member.id}"] = member.id


async def until(check, what: str) -> None:
    async with asyncio.timeout(CEILING_S):
        while not check():  # noqa: ASYNC110  (SimCord's state has no event to wait on)
            await asyncio.sleep(0.05)
    assert check(), what


async def test_a_page_and_the_channel_s_buttons_play_one_kabuki_game(world, discord_api, table, browser):
    from playwright.async_api import expect

    alice, bob = world.members[:2]
    seat_at_table(world, discord_api, alice, bob)
    mock_sign_in(discord_api, bob)
    await alice.slash(world.channel, "kabuki new", **FAST)
    host, port = table.address
    context = await browser.new_context(viewport={"width": 360, "height": 740})
    errors: list[str] = []
    try:
        page = await context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        query = (
            f"instance_id={INSTANCE}&user_id={bob.id}&guild_id={world.guild.id}&channel_id={world.channel.id}"
        )
        await page.goto(f"http://{host}:{port}/?{query}")
        board = page.locator("#board")
        await expect(board.locator(".title")).to_have_text("Kabuki — lobby")
        # Bob joins from the page: the channel's board shows him seated.
        await board.get_by_role("button", name="Join").click()
        await until(lambda: "bob" in str(card(world.board()).to_dict()), "the channel shows bob seated")
        await table.quiet()
        # Alice starts on the channel's button: the page follows, its header too.
        await alice.click(world.board(), label="Start")
        await expect(page.locator("#game-status")).to_have_text(re.compile("playing", re.I))
        session = world.env.bot.sessions.get(world.channel.id)
        # Whoever's turn it is places: the page's member on the page, the other on the button.
        for _ in range(4):
            view = session.engine.view(None)
            stack, turn = view["turn"] % 4, view["turn"]
            if session.players[view["current"]["seat"]] == bob.id:
                place = board.locator(".control.primary").nth(stack)
                await expect(place).to_be_enabled()
                await place.click()
                await until(
                    lambda t=turn: session.engine.view(None)["turn"] > t, "the page's placement counted"
                )
                await table.quiet()
            else:
                await alice.click(
                    world.board(),
                    custom_id=next(
                        c.custom_id
                        for c in controls(world.board())
                        if (c.custom_id or "").endswith(f":place:{stack}-{turn}")
                    ),
                )
        # Four placements from both front-ends, in one game, and the page's board is the channel's.
        assert session.engine.view(None)["turn"] == 4
        title = card(world.board()).title
        await expect(board.locator(".title")).to_have_text(title)
        await page.screenshot(path="/tmp/activity-kabuki-360.png", full_page=True)
    finally:
        await context.close()
    assert errors == []
