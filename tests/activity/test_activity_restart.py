"""A bot restart with pages open: the stopping bot tells every page to come back (1012), the new
bot listens where the old one did, and a page that reconnects with the ticket it holds is back at
its game, restored from storage, and plays on."""

from __future__ import annotations

import aiohttp
from page_client import PageClient, seat_at_table


async def test_pages_come_back_to_their_game_after_a_restart(
    world, discord_api, table, serve, restart_bot, activity_settings, games
):
    alice, bob = world.members[:2]
    seat_at_table(world, discord_api, alice, bob)
    await alice.slash(world.channel, "tap new", target=5)
    await bob.click(world.board(), label="Join")
    await alice.click(world.board(), label="Start")
    host, port = table.address
    async with aiohttp.ClientSession() as http:
        page = await PageClient(http, f"http://{host}:{port}", table.quiet).open(discord_api, alice)
        assert (await page.press("Tap"))["ok"]
        await bob.click(world.board(), label="Tap")
        # The bot stops as ``GameBot.close`` stops it: its Activity server first.
        await table.stop()
        assert await page.closed() == aiohttp.WSCloseCode.SERVICE_RESTART
        new = await restart_bot(games, **activity_settings)
        again = await serve(new)
        assert again.address[1] == port  # the same address: the proxy in front needs no change
        await page.connect()  # the page's ticket still good: signed with the same secret
        hello = next(f for f in reversed(page.frames) if f["type"] == "hello")
        assert hello["game"]["status"] == "playing" and hello["game"]["seat"] == 0
        board = page.board()
        assert "Turn 2: **alice**" in board["description"]  # the game as it was saved
        assert (await page.press("Tap"))["ok"]  # and it plays on, on the new bot
        assert new.sessions.get(world.channel.id).engine.view(None)["taps"] == 3
        await page.close()
