"""Death Over the Kingdom played on the Activity's pages in a real Chromium, against the real bot in
SimCord: three members, each on a page of their own (a browser context each), one whole round.
Each page is shown its own card alone (its name and value, its picture); each player moves from
their own page; the round's loser is the one the engine records, and every page shows it."""

from __future__ import annotations

import re

import pytest
from page_client import seat_at_table
from shown import card
from table_pages import TablePage, mock_sign_in, open_page, picture_bytes, started_from_pages, until

from bot.games.kingdom.cards import CHARACTERS, CLOWN, DEATH, KNIGHT, QUEEN
from bot.games.kingdom.pictures import card_png
from bot.i18n import t

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

# The shortest game (players × 2 rounds), of which one round is played. Every move is pressed, so
# no test waits on the turn timer: it is long only so that a slow machine's page is never stood for
# by it (SimCord fires a timer by the wall clock once it is due).
FAST = {"mode": "classic", "length": 2, "timer": 600}
# The reveal's pause (20 s) is no option of /kingdom new: the narrator holds it while the pages are
# read, so the board under test is the reveal's on every page, however slow the machine; a page's
# Next round ends it.
HOLD_REVEAL_MS = 600_000


@pytest.fixture
def games():
    return ["kingdom"]


def card_label(char: int) -> str:
    """A card as the page writes it, name and value: "Death (0)", "King (12)"."""
    return f"{t('en', CHARACTERS[char].name)} ({char})"


async def assert_shows_no_card_but(
    page: TablePage, known: set[int], engine, private_images: list[str]
) -> None:
    """Nothing of a card on ``page`` but those its member may know (``known``) and those face up
    for the whole table: no name with its value, no panel, no picture of any other; and never
    was: nothing its socket was ever sent held more."""
    text = await page.text()
    public = {seat["shown"]["char"] for seat in engine.view(None)["seats"] if seat["shown"] is not None}
    sent = str(page.received).replace("**", "")  # the frames' markdown, as the page draws it
    for char in range(len(CHARACTERS)):
        if char not in known | public:
            assert card_label(char) not in text, f"{page.member.name}'s page shows {card_label(char)}"
            assert card_label(char) not in sent, f"{page.member.name}'s page was sent {card_label(char)}"
    titles = re.findall(r"Your (?:new )?card: ([A-Za-z]+ \(\d+\))", text)
    titles += [message["title"].split(": ", 1)[1] for message in page.privates() if message.get("title")]
    assert set(titles) <= {card_label(char) for char in known}, titles
    html = await page.html()
    assert not any(image in html for image in private_images), "another page's private picture"


async def test_a_round_of_kingdom_played_from_three_pages(world, discord_api, table, browser):
    from playwright.async_api import expect

    members = world.members[:3]
    names = [member.name for member in members]
    seat_at_table(world, discord_api, *members)
    for member in members:
        mock_sign_in(discord_api, member)
    title = "Death Over the Kingdom — lobby"
    pages, session = await started_from_pages(
        browser, table, world, "kingdom new", title, HOLD_REVEAL_MS, slash=FAST
    )
    engine = session.engine
    assert session.status == "playing" and engine.round == 1
    dealt = [engine.char(seat) for seat in range(3)]
    order = list(engine.order)

    # Each page presses My card: its own card under "for you only", its name and value, its picture.
    private_images: list[str] = []
    for seat, page in enumerate(pages):
        assert (await page.click(page.board.get_by_role("button", name="My card")))["ok"] is True
        panel = page.private.locator(".private-card").filter(has_text="Your card:")
        await expect(panel).to_have_count(1)
        await expect(panel.locator(".title")).to_have_text(f"Your card: {card_label(dealt[seat])}")
        picture = panel.locator("img.picture")
        source = await picture.get_attribute("src")
        assert re.fullmatch(r"http://[^/]+/api/private/[0-9a-f]{32}\.png", source), source
        private_images.append(source.split("/api/private/")[1])
        assert await picture_bytes(page, picture) == card_png(dealt[seat], "en")
    await table.quiet()
    for seat, page in enumerate(pages):
        others = private_images[:seat] + private_images[seat + 1 :]
        await assert_shows_no_card_but(page, {dealt[seat]}, engine, others)

    # Each player in turn moves from their own page, on the board the engine is at (its controls
    # carry the engine's version): the first player the board offers an exchange with the player to
    # their right exchanges (nobody takes a King), everyone else stands. A King's holder stands by
    # itself.
    known = {seat: {dealt[seat]} for seat in range(3)}
    held = list(dealt)  # who holds what, as the moves pressed change it
    pressed: list[dict] = []
    while engine.phase == "play":
        seat, version = engine.active, engine.version
        page = pages[seat]
        stand = page.board.get_by_role("button", name="Stand")
        await expect(stand).to_have_attribute("data-press-key", f"stand\x00{version}")
        await expect(page.board.locator(".description")).to_contain_text(f"👉 {names[seat]}'s turn")
        exchange = page.board.get_by_role("button", name="Exchange with")
        if all(move["type"] == "stand" for move in pressed) and await exchange.count():
            right = engine.right_of(seat)
            await expect(exchange).to_have_text(f"🔁Exchange with {names[right]}")
            assert (await page.click(exchange))["ok"] is True
            pressed.append({"type": "exchange", "seat": seat, "target": right})
        else:
            assert (await page.click(stand))["ok"] is True
            pressed.append({"type": "stand", "seat": seat})
        await until(lambda v=version: engine.version > v, f"{names[seat]}'s move is taken")
        await table.quiet()
        if pressed[-1]["type"] == "exchange":
            # Each of the two is shown the card they received.
            right = pressed[-1]["target"]
            held[seat], held[right] = held[right], held[seat]
            for receiver in (seat, right):
                shown = pages[receiver].private.locator(".private-card").filter(has_text="Your new card:")
                await expect(shown.locator(".title")).to_have_text(
                    f"Your new card: {card_label(held[receiver])}"
                )
                known[receiver].add(held[receiver])
        for other, shown_to in enumerate(pages):  # and nobody anything more
            theirs = private_images[:other] + private_images[other + 1 :]
            await assert_shows_no_card_but(shown_to, known[other], engine, theirs)

    # The round as the engine recorded it: the moves pressed (a King's holder stood by itself), the
    # cards held at the end, the lowest of them taking a token.
    assert [a for a in engine.actions if a.get("auto") != "king"] == pressed
    assert {a["seat"] for a in engine.actions} == set(order)
    reveal = engine.reveal
    assert engine.phase == "reveal" and reveal["round"] == 1
    cards = {card["seat"]: card for card in reveal["cards"]}
    assert {seat: card["char"] for seat, card in cards.items()} == dict(enumerate(held))
    lowest = min(card["value"] for card in cards.values())
    losers = [s for s in order if cards[s]["value"] == lowest or cards[s]["char"] == DEATH]
    assert reveal["losers"] == losers and losers
    assert engine.tokens == [1 if seat in losers else 0 for seat in range(3)]

    # Every page shows the same result: who took the token, every card and every seat's tokens.
    said = f"Round 1 revealed. Lowest card: {', '.join(names[s] for s in losers)}."
    for page in pages:
        description = page.board.locator(".description")
        await expect(description).to_contain_text(said)
        lines = (await description.inner_text()).split("\n")
        for position, seat in enumerate(order, start=1):
            line = next(line for line in lines if re.search(rf"\b{position}\. {names[seat]} — ", line))
            assert f"— {engine.tokens[seat]} 🪙 · " in line, line
            assert card_label(held[seat]) in line, line
            assert ("LOSES +1" in line) == (seat in losers), line
        await expect(page.board.locator("img.picture")).to_be_visible()  # the revealed table
        await expect(page.board.get_by_role("button", name="Next round")).to_be_enabled()

    # Any player may start the next round: from a page, and every page says who lost the last.
    assert (await pages[1].click(pages[1].board.get_by_role("button", name="Next round")))["ok"] is True
    await until(lambda: engine.round == 2 and engine.phase == "play", "the second round is dealt")
    await table.quiet()
    for page in pages:
        field = page.board.locator(".field").filter(
            has=page.page.locator(".field-name", has_text="Last round (1)")
        )
        for seat in losers:
            lost = rf"{names[seat]} with \S+ {re.escape(card_label(held[seat]))} → {cards[seat]['value']}"
            await expect(field).to_contain_text(re.compile(lost))
        for seat in range(3):
            await expect(page.board.locator(".description")).to_contain_text(
                f"{names[seat]} — {engine.tokens[seat]} 🪙"
            )
    for page in pages:
        assert page.errors == [], (page.member.name, page.errors)


def rigged(hands: list[int]) -> list[int]:
    """A whole deal of the 26 cards: ``hands`` in play order, then the rest of the box."""
    rest = [char for char in range(len(CHARACTERS)) for _ in range(2)]
    for char in hands:
        rest.remove(char)
    return [*hands, *rest]


async def test_a_card_handed_to_a_page_s_member_is_not_announced_as_unseen(
    world, discord_api, table, browser
):
    """Alice exchanges with Bob from her page; Bob's page is sent his new card at once. The board's
    note for a player "no private message can reach" must not name him, and a look from his page
    must not leave it there."""
    from playwright.async_api import expect

    alice, bob, carol = world.members[:3]
    seat_at_table(world, discord_api, alice, bob, carol)
    for member in (alice, bob):
        mock_sign_in(discord_api, member)
    await alice.slash(world.channel, "kingdom new", **FAST)
    alice_page, bob_page = [await open_page(browser, table, world, member) for member in (alice, bob)]
    assert (await bob_page.click(bob_page.board.get_by_role("button", name="Join")))["ok"] is True
    await table.quiet()
    await carol.click(world.board(), label="Join")
    session = world.env.bot.sessions.get(world.channel.id)
    # The narrator deals: Carol deals, so Alice plays first with Bob on her right.
    session.options.update(dealer=2, decks=[rigged([KNIGHT, QUEEN, CLOWN])])
    assert session.players == [alice.id, bob.id, carol.id]
    assert (await alice_page.click(alice_page.board.get_by_role("button", name="Start")))["ok"] is True
    await table.quiet()
    engine = session.engine
    assert engine.order == [0, 1, 2] and [engine.char(seat) for seat in range(3)] == [KNIGHT, QUEEN, CLOWN]
    exchange = alice_page.board.get_by_role("button", name="Exchange with bob")
    assert (await alice_page.click(exchange))["ok"] is True
    await table.quiet()
    shown = bob_page.private.locator(".private-card .title")
    await expect(shown).to_have_text(f"Your new card: {card_label(KNIGHT)}")  # his page has it
    await expect(bob_page.board).to_contain_text("alice exchanged cards with bob")
    # ...and he looks again from his page, as the note would ask.
    assert (await bob_page.click(bob_page.board.get_by_role("button", name="My card")))["ok"] is True
    await table.quiet()
    note = "your card changed"  # "📬 **bob**, your card changed: press 🃏 **My card**."
    assert note not in card(world.board()).description
    for page in (alice_page, bob_page):
        await expect(page.board.locator(".description")).not_to_contain_text(note)
