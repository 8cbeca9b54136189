"""Secrets on their owner's socket only: in Island of Monster Masks only the Mime's page is shown
the card (its words and its picture); in Death Over the Kingdom each page is shown its own card.
No other page's frames, no board and no picture address hold them."""

from __future__ import annotations

import aiohttp
import pytest
from page_client import PageClient, seat_at_table

from bot.i18n import t


@pytest.fixture
def games(request):
    return [request.module.GAME_OF.get(request.node.originalname, "masks")]


GAME_OF = {"test_only_each_kingdom_page_is_shown_its_own_card": "kingdom"}


@pytest.fixture
async def pages_of(world, discord_api, table):
    opened: list[PageClient] = []
    host, port = table.address
    async with aiohttp.ClientSession() as http:

        async def open_pages(members) -> list[PageClient]:
            seat_at_table(world, discord_api, *world.members)
            for member in members:
                opened.append(
                    await PageClient(http, f"http://{host}:{port}", table.quiet).open(discord_api, member)
                )
            return opened

        yield open_pages
        for page in opened:
            await page.close()


async def started(world, command: str, n: int) -> None:
    host, *others = world.members[:n]
    await host.slash(world.channel, command)
    for member in others:
        await member.click(world.board(), label="Join")
    await host.click(world.board(), label="Start")


async def test_only_the_mime_s_page_is_shown_the_card(world, pages_of):
    await started(world, "masks new", 3)
    pages = await pages_of(world.members[:3])
    session = world.env.bot.sessions.get(world.channel.id)
    mime = session.engine.view(None)["mime"]
    card_name = session.engine.view(mime)["card_name"]
    secret = t("en", card_name)
    for seat, page in enumerate(pages):
        board = page.board()
        card = next(c for row in board["controls"] for c in row if c["label"] == "My card")
        answer = await page.press(press=card["press"])
        if seat == mime:
            assert answer["ok"] is True
            shown = await page.wait_for(lambda f: f["type"] == "private")
            assert f"your secret card is **{secret}**" in shown["message"]["content"]
            assert shown["message"]["image"].startswith("/api/private/")
            async with aiohttp.ClientSession() as http:
                host, port = world.env.bot.table_server.address
                async with http.get(f"http://{host}:{port}{shown['message']['image']}") as picture:
                    assert picture.status == 200 and (await picture.read()).startswith(b"\x89PNG")
        else:
            assert (answer["ok"], answer["text"]) == (
                False,
                "Only the Mime can look at the secret card. Watch them and slap!",
            )
    # Every tile's monster is on the public board; which one is the Mime's is the secret.
    for seat, page in enumerate(pages):
        if seat != mime:
            assert secret not in str(page.privates()), f"seat {seat}'s page was told the Mime's card"
            assert "secret card is" not in str(page.frames)
            assert "/api/private/" not in str(page.frames)


async def test_only_each_kingdom_page_is_shown_its_own_card(world, pages_of):
    await started(world, "kingdom new", 3)
    pages = await pages_of(world.members[:3])
    engine = world.env.bot.sessions.get(world.channel.id).engine
    names = {seat: t("en", engine.view(seat)["me"]["card"]["name"]) for seat in range(3)}
    for seat, page in enumerate(pages):
        card = next(c for row in page.board()["controls"] for c in row if c["press"]["name"] == "card")
        assert (await page.press(press=card["press"]))["ok"] is True
        shown = await page.wait_for(lambda f: f["type"] == "private")
        assert shown["message"]["title"].startswith(f"Your card: {names[seat]} (")
    # A card's power may name another card ("… if a King is in play"): its title is whose it is.
    for seat, page in enumerate(pages):
        titles = [message["title"] for message in page.privates()]
        assert titles and all(title.startswith(f"Your card: {names[seat]} (") for title in titles)
        for other, name in names.items():
            if name != names[seat]:
                assert not any(name in title for title in titles), (
                    f"seat {seat}'s page was shown seat {other}'s card"
                )
