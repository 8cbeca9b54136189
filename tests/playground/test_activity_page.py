"""`python -m bot play`'s Activity: the games' table page for any playground member, beside the
channel's page, in a real Chromium. Bob joins Alice's lobby and places his cards from the table,
Alice plays on the channel's page, one game; the lobby's Open the table answers with the table's
address, since the playground's Discord launches no Activity."""

from __future__ import annotations

import re

import pytest
from pagedriver import PageDriver, Playground, browser_missing, chromium_pages, wait_until

from bot.app import playtable

pytestmark = [
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
    pytest.mark.timeout(300),
    pytest.mark.slow,
]
CATCH_UP_SECONDS = 60  # a ceiling only a hang reaches: each wait returns once the page shows it


def test_a_member_plays_from_the_table_while_another_plays_in_the_channel():
    playground = Playground().start()
    try:
        with chromium_pages(2) as (channel_page, table_page):
            driver = PageDriver(channel_page, playground.member_ids, strict=True)
            driver.open(playground.url)
            driver.command("kabuki new", {"grace": 0})
            board = playground.session().board_message_id
            bot = playground.bot
            guild, channel = playground.call(lambda: (playground.channel.guild.id, playground.channel.id))
            bob = playground.member_ids["Bob"]
            address = playtable.page_address(bot.table_server, guild, channel, playground.member_ids["Alice"])
            driver.click(board, lambda text: text.endswith("Open the table"), "Open the table")
            wait_until(
                lambda: any(
                    f"Open the table in your browser: {address}" in m["text"] for m in driver.messages()
                ),
                CATCH_UP_SECONDS,
                "Alice told her table's address",
            )
            table_page.goto(playtable.page_address(bot.table_server, guild, channel, bob))
            cards = table_page.locator("#board")
            cards.get_by_role("button", name="Join").click()
            wait_until(
                lambda: bob in playground.session().players, CATCH_UP_SECONDS, "bob seated from the table"
            )
            driver.click(board, "Start", wait=CATCH_UP_SECONDS)
            wait_until(
                lambda: "PLAYING" in (table_page.locator("#game-status").text_content() or "").upper(),
                CATCH_UP_SECONDS,
                "the table shows the game started",
            )
            session = playground.session()
            for _ in range(4):
                view = playground.call(lambda: session.engine.view(None))
                turn, stack = view["turn"], view["turn"] % 4
                shown = driver.message(board)["text"]
                if session.players[view["current"]["seat"]] == bob:
                    place = cards.locator(".control.primary").nth(stack)
                    wait_until(place.is_enabled, CATCH_UP_SECONDS, "bob's stack buttons on the table")
                    place.click()
                else:
                    label = re.compile(rf"^{stack + 1} · ")
                    driver.click(
                        board, lambda text, label=label: bool(label.match(text)), wait=CATCH_UP_SECONDS
                    )
                wait_until(
                    lambda turn=turn: playground.call(lambda: session.engine.view(None)["turn"]) > turn,
                    CATCH_UP_SECONDS,
                    f"placement {turn} counted",
                )
                # The channel's page shows it too before Alice presses there (a button of an older
                # board is refused, as in Discord).
                wait_until(
                    lambda shown=shown: driver.message(board)["text"] != shown,
                    CATCH_UP_SECONDS,
                    f"placement {turn} on the channel's page",
                )
            assert driver.tally.refused == [] and driver.tally.lockups == []
            errors = [record.getMessage() for record in playground.errors]
            assert errors == [], "errors logged"
    finally:
        playground.close()
