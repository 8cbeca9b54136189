"""Island of Monster Masks played on the Activity's pages in a real Chromium, against the real bot in
SimCord: three members, each on a page of their own (a browser context each). Only the Mime's page
is shown the Mime's card, in words and as its picture; the guessers' pages hold nothing of it
beyond the sixteen public tiles; a guesser's slap from a page scores what the engine records, and
every page shows it. Then the Mime's table on a phone: every control of the board in reach and
clicked for real, nothing wider than the screen, the notch and the home bar kept clear."""

from __future__ import annotations

import re

import pytest
from page_client import seat_at_table
from table_pages import TablePage, mock_sign_in, picture_bytes, started_from_pages, until

from bot.games.masks.faces import FACES, MONSTERS
from bot.games.masks.pictures import face_png
from bot.i18n import t

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

# The guessing ends when every guesser has slapped, so no test waits on the guess timer: it is long
# only so that a slow machine's page is never overtaken by it (SimCord fires a timer by the wall
# clock once it is due), which would reveal the card before the slaps.
FAST = {"guess_seconds": 600}
# The reveal's pause before the next Mime draws is no option of /masks new (5 s): the narrator
# holds it as long as the engine allows while the pages are read (tests/masks/conftest.py sets it
# too), so the board under test is the reveal's on every page, however slow the machine.
HOLD_REVEAL_MS = 60_000
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
# A phone held upright: the notch (or dynamic island) above, the home indicator below.
INSETS = {"top": 47, "right": 0, "bottom": 34, "left": 0}


@pytest.fixture
def games():
    return ["masks"]


def monster(face: int) -> str:
    return t("en", MONSTERS[face])


async def open_masks(world, discord_api, table, browser, **context_options) -> list[TablePage]:
    """``/masks new`` by alice in the channel; alice, bob and carol each on a page of their own,
    bob and carol joined from theirs, the reveal held, and the game started from alice's page."""
    from playwright.async_api import expect

    members = world.members[:3]
    seat_at_table(world, discord_api, *members)
    for member in members:
        mock_sign_in(discord_api, member)
    title = "Island of Monster Masks — lobby"
    pages, session = await started_from_pages(
        browser, table, world, "masks new", title, HOLD_REVEAL_MS, slash=FAST, **context_options
    )
    assert session.status == "playing"
    for page in pages:
        await expect(page.page.locator("#game-status")).to_have_text(re.compile("playing", re.I))
    return pages


async def assert_no_trace_of_the_card(page: TablePage, name: str, private_images: list[str]) -> None:
    """A guesser's page: the card's name nowhere but on its own tile (all sixteen tiles are the
    public board, the same on every page), no picture of it, no private picture at all; and never
    was: nothing its socket was ever sent held more."""
    outside_tiles = await page.page.evaluate(
        """() => {
            const copy = document.documentElement.cloneNode(true);
            for (const tiles of copy.querySelectorAll("#board .controls")) tiles.remove();
            return copy.textContent;
        }"""
    )
    assert name not in outside_tiles, f"{page.member.name}'s page shows the Mime's card"
    tiles = await page.board.locator(".controls button").all_inner_texts()
    assert sum(name in label for label in tiles) == 1, tiles  # its tile, like every other monster's
    assert "secret card is" not in await page.text()  # the board says "your secret card comes…"
    for source in await page.image_sources():
        assert "/api/private/" not in source and name.lower() not in source.lower(), source
    html = await page.html()
    assert not any(image in html for image in private_images), "another page's private picture"
    for frame in page.received:
        if frame.get("type") == "board" and frame.get("board"):
            frame = {**frame, "board": {**frame["board"], "controls": None}}  # less the tiles
        if frame.get("type") == "private" and name not in str(frame):
            assert "/api/private/" not in str(frame), frame
        assert name not in str(frame), f"{page.member.name}'s page was sent {frame}"


async def test_only_the_mime_s_page_shows_the_card_and_a_slap_from_a_page_scores(
    world, discord_api, table, browser
):
    from playwright.async_api import expect

    pages = await open_masks(world, discord_api, table, browser)
    session = world.env.bot.sessions.get(world.channel.id)
    engine = session.engine
    view = engine.view(None)
    turn, mime = view["turn"], view["mime"]
    card = engine.view(mime)["card"]
    name = monster(card)
    mime_page = pages[mime]
    guessers = [seat for seat in range(3) if seat != mime]
    names = [page.member.name for page in pages]

    # The Mime (the host, who pressed Start on their page) is shown the card under "for you only":
    # its name in words, and its picture, which is the card's own.
    await expect(mime_page.page.locator("#private")).to_be_visible()
    await expect(mime_page.page.locator("#private-heading")).to_have_text("For you only")
    secret = mime_page.private.locator(".private-card").filter(has_text="your secret card is")
    await expect(secret.first).to_contain_text(f"Turn {turn}: your secret card is {name}.")
    # My card, pressed on the Mime's page, shows it again; on a guesser's page it is refused.
    assert (await mime_page.click(mime_page.board.get_by_role("button", name="My card")))["ok"] is True
    await expect(secret).to_have_count(2)
    pictures = secret.locator("img.picture")
    await expect(pictures).to_have_count(2)
    private_images = []
    for index in range(2):
        source = await pictures.nth(index).get_attribute("src")
        assert re.fullmatch(r"http://[^/]+/api/private/[0-9a-f]{32}\.png", source), source
        private_images.append(source.split("/api/private/")[1])
        assert await picture_bytes(mime_page, pictures.nth(index)) == face_png(card, "en")
    for seat in guessers:
        page = pages[seat]
        refused = await page.click(page.board.get_by_role("button", name="My card"))
        text = "Only the Mime can look at the secret card. Watch them and slap!"
        assert (refused["ok"], refused["text"]) == (False, text)
        await expect(page.page.locator("#toasts")).to_contain_text(text)
        await expect(page.page.locator("#private")).to_be_hidden()
        await assert_no_trace_of_the_card(page, name, private_images)
    await table.quiet()

    # The first guesser slaps a wrong tile from their page, the second the card's own from theirs.
    wrong_guesser, right_guesser = guessers
    wrong = (card + 1) % FACES
    page = pages[wrong_guesser]
    tile = page.board.get_by_role("button", name=monster(wrong), exact=True)
    assert (await page.click(tile))["ok"] is True
    await until(lambda: engine.view(None)["held_by"][wrong] == wrong_guesser, "the wrong tile is held")
    await table.quiet()
    for seat in guessers:  # the card is still nobody's business but the Mime's
        await assert_no_trace_of_the_card(pages[seat], name, private_images)
    page = pages[right_guesser]
    assert (await page.click(page.board.get_by_role("button", name=name, exact=True)))["ok"] is True
    await until(lambda: engine.view(None)["phase"] == "reveal", "the card is revealed")
    await table.quiet()

    # What the engine records: the right guesser and the Mime won a card each, the other nothing.
    record = engine.history[turn - 1]
    assert (record["card"], record["scorer"], record["reason"]) == (card, right_guesser, "all_slapped")
    expected = [0, 0, 0]
    expected[mime] = expected[right_guesser] = 1
    assert engine.view(None)["piles"] == expected
    assert engine.piles[mime] == [card] and engine.piles[right_guesser] == [record["won"]]
    held = {seat: tile for tile, seat in enumerate(engine.view(None)["held_by"]) if seat is not None}
    assert held == {wrong_guesser: wrong, right_guesser: card}

    # Every page shows it: the card, who guessed it, and each player's cards.
    said = (
        f"Turn {turn}: the card was {name} (every guesser slapped a tile). {names[right_guesser]} "
        f"guessed it: +1 card for them and +1 for {names[mime]}."
    )
    lines = {
        mime: f"{names[mime]} · 🎭 Mime · 1 🃏",
        right_guesser: f"{names[right_guesser]} · ✋ {name} · 1 🃏",
        wrong_guesser: f"{names[wrong_guesser]} · ✋ {monster(wrong)} · 0 🃏",
    }
    for page in pages:
        await expect(page.board.locator(".description")).to_have_text(re.compile(re.escape(said)))
        players = page.board.locator(".field").filter(
            has=page.page.locator(".field-name", has_text="Players")
        )
        for line in lines.values():
            await expect(players).to_contain_text(line)
        # The tiles can't be slapped any more; the card's own is marked, with its holder.
        revealed = page.board.get_by_role("button", name=f"{name} · {names[right_guesser]}")
        await expect(revealed).to_be_disabled()
        await expect(revealed).to_have_class(re.compile(r"\bsuccess\b"))
    for page in pages:
        assert page.errors == [], (page.member.name, page.errors)


async def test_the_mime_s_table_on_a_phone(world, discord_api, table, browser):
    """At 360×740, upright, with a notch and a home bar: the header and the seats in view, nothing
    wider than the screen, and every enabled control of the board within it and clicked for real
    (each click's press reaches the bot and is answered), the last one revealing the card."""
    from playwright.async_api import expect

    pages = await open_masks(world, discord_api, table, browser, **PHONE)
    session = world.env.bot.sessions.get(world.channel.id)
    engine = session.engine
    mime = engine.view(None)["mime"]
    card = engine.view(mime)["card"]
    phone = pages[mime]
    page = phone.page
    width = PHONE["viewport"]["width"]

    # The page keeps clear of the device's safe areas with CSS env(), all four of them...
    sheets = await page.evaluate(
        "[...document.styleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join('\\n')"
    )
    for side in ("top", "right", "bottom", "left"):
        assert f"env(safe-area-inset-{side}" in sheets, side
    assert "viewport-fit=cover" in await page.locator('meta[name="viewport"]').get_attribute("content")
    # ...and with a phone's insets in force, its header sits below the notch and its status bar
    # above the home indicator.
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": INSETS})
    await expect(page.locator("#table")).to_have_css("padding-top", f"{INSETS['top'] + 8}px")
    await expect(page.locator("#status")).to_have_css("padding-bottom", f"{INSETS['bottom']}px")
    header = await page.locator("#game").bounding_box()
    assert header["y"] >= INSETS["top"], header
    status = await page.locator("#status").bounding_box()
    assert status["y"] + status["height"] <= PHONE["viewport"]["height"]  # stuck to the bottom

    async def fits() -> None:
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"the page scrolls sideways: {wide} px wide"

    # The header: the game, its state and every seat, the phone's own marked.
    await expect(page.locator("#game-title")).to_have_text("Island of Monster Masks")
    await expect(page.locator("#game-status")).to_be_visible()
    seats = page.locator("#players li")
    await expect(seats).to_have_count(3)
    for seat, other in enumerate(pages):
        item = seats.nth(seat)
        await expect(item).to_be_visible()
        await expect(item).to_contain_text(other.member.name)
        box = await item.bounding_box()
        assert 0 <= box["x"] <= width - box["width"], (other.member.name, box)
    await expect(seats.nth(mime)).to_have_class(re.compile(r"\bme\b"))
    await fits()

    # Every enabled control of the board, the sixteen tiles then My card, then End guessing last
    # (it reveals the card): in the screen's width, and a real click each, answered by the bot.
    buttons = phone.board.locator("button.control")  # by place: a pending press disables its own
    enabled = await buttons.evaluate_all("(all) => all.flatMap((b, i) => (b.disabled ? [] : [i]))")
    turn = engine.view(None)["turn"]
    presses = [("slap", f"{turn}.{face}", monster(face)) for face in range(FACES)]
    presses += [("card", str(turn), "🃏My card"), ("end", str(turn), "⏹️End guessing")]
    assert len(enabled) == len(presses)
    for index, (name, arg, label) in zip(enabled, presses, strict=True):
        control = buttons.nth(index)
        await expect(control).to_have_text(label)
        await control.scroll_into_view_if_needed()
        box = await control.bounding_box()
        assert box is not None and 0 <= box["x"] <= width - box["width"], (label, box)
        assert box["width"] >= 44 and box["height"] >= 44, (label, box)  # a thumb's size
        answer = await phone.click(control)
        sent = phone.presses()[-1]
        assert (sent["name"], sent["arg"]) == (name, arg), sent  # the control clicked, no neighbour
        if name == "slap":  # the Mime's slap: refused, in the button's words, shown on the phone
            assert (answer["ok"], answer["text"]) == (
                False,
                "You are the Mime: act out the face, don't slap!",
            )
        elif name == "card":
            assert answer["ok"] is True
            shown = phone.private.locator(".private-card").filter(has_text="your secret card is")
            await expect(shown.first).to_contain_text(f"your secret card is {monster(card)}")
            await expect(shown.first.locator("img.picture")).to_be_visible()
            await fits()  # the card and its picture fit the screen too
        else:
            assert answer["ok"] is True
        await table.quiet()
    await expect(page.locator("#toasts")).to_contain_text("You are the Mime: act out the face, don't slap!")

    # The last click ended the guessing: what the engine records, and what the phone shows.
    await until(lambda: engine.view(None)["phase"] == "reveal", "the Mime's End guessing is taken")
    record = engine.history[0]
    assert (record["card"], record["scorer"], record["reason"], record["slaps"]) == (card, None, "mime", [])
    assert engine.view(None)["piles"] == [0, 0, 0] and engine.view(None)["removed"] == 2
    await expect(phone.board.locator(".description")).to_contain_text(
        f"the card was {monster(card)} (the Mime ended the guessing). Nobody guessed it"
    )
    await expect(phone.board.locator("button.control:enabled")).to_have_count(0)
    await expect(phone.board.locator("img.picture")).to_be_visible()
    await fits()
    await expect(page.locator("#toasts .toast")).to_have_count(0)  # each goes after 4 s
    await page.screenshot(path="/tmp/activity-masks-360.png", full_page=True)
    for other in pages:
        assert other.errors == [], (other.member.name, other.errors)
