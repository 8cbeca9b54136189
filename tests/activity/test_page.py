"""The Activity's page (web/, built into bot/activity/static) in a real Chromium, outside Discord:
the SDK's mock signs in as ``?user_id=``, against a stand-in for the bot's server whose frames are
the test's script (table_standin.py). It signs in, draws the board and sends one press per click,
shows this member's own messages and the bot's refusals, shows the server's text as text, comes
back after a dropped socket with its newest ticket, signs in again when its ticket expired, and
fits a 360 px phone."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from table_standin import TableStandIn, served

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

# How long the page may take to show a change or send a frame: a ceiling only a hang reaches,
# since every wait returns as soon as it happens (a shared CI machine is slow).
CEILING_S = 60
CEILING_MS = CEILING_S * 1000
ALICE, BOB = "420000000000000042", "430000000000000043"
INSTANCE = "i-test-7"
XSS = "<img src=x onerror=alert(1)>"
# Every toast the page shows, kept: a toast goes by itself after a few seconds, which a busy
# machine's test could otherwise miss.
_KEEP_TOASTS = """
window.toastsSeen = [];
new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach((node) => {
  if (node instanceof Element && node.classList.contains("toast")) window.toastsSeen.push(node.textContent);
}))).observe(document, { childList: true, subtree: true });
"""


def button(label: str, name: str, arg: str = "", style: str = "secondary", **more: Any) -> dict[str, Any]:
    return {
        "kind": "button",
        "label": label,
        "emoji": more.get("emoji"),
        "style": style,
        "disabled": more.get("disabled", False),
        "press": {"name": name, "arg": arg},
    }


def card(title: str | None, description: str | None = None, **more: Any) -> dict[str, Any]:
    return {
        "title": title,
        "description": description,
        "color": more.get("color"),
        "fields": more.get("fields", []),
        "footer": more.get("footer"),
        "content": more.get("content"),
        "image": more.get("image"),
        "controls": more.get("controls", []),
    }


def kabuki_board(title: str = "Kabuki: round 1") -> dict[str, Any]:
    grace_end = int(time.time()) + 3600
    return card(
        title,
        f"It is **Alice**'s turn, <@{ALICE}>; then <@{BOB}>.\n> A quoted line\nThe grace ends <t:{grace_end}:R>.",
        color=0xE67E22,
        fields=[
            {"name": "Actors", "value": "Geisha, Samurai", "inline": True},
            {"name": "Masks left", "value": "12", "inline": True},
            {"name": "Last", "value": "_Bob_ placed a mask", "inline": False},
        ],
        footer="Press Stop! when an actor already wears the mask",
        controls=[
            [button("Place", "place", "2", "primary", emoji="🎭"), button("Stop!", "stop", "", "danger")]
        ],
    )


GAME = {
    "kind": "kabuki",
    "title": "Kabuki",
    "status": "playing",
    "players": [
        {"seat": 0, "name": "Alice", "computer": False},
        {"seat": 1, "name": "Bob", "computer": False},
        {"seat": 2, "name": "Robo", "computer": True},
    ],
    "host_id": ALICE,
    "seat": 0,
}


async def until(table: TableStandIn, check) -> None:
    """Until the stand-in has seen what ``check`` looks for."""
    async with asyncio.timeout(CEILING_S):
        await table.wait_for(check)


@pytest.fixture
async def table() -> AsyncIterator[TableStandIn]:
    stand_in = TableStandIn(names={ALICE: "Alice", BOB: "Bob"}, game=GAME, board=kabuki_board())
    async with served(stand_in):
        yield stand_in


class Page:
    """One tab on the stand-in, as ``?user_id=``; what it raised and what it alerted are kept."""

    def __init__(self, page, table: TableStandIn) -> None:
        self.page = page
        self.table = table
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("dialog", self._dialog)

    async def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        await dialog.dismiss()

    async def frame(self, kind: str, count: int) -> dict[str, Any]:
        """The page's ``count``-th frame of that kind (1-based), once it has arrived."""
        await until(self.table, lambda: len(self.table.frames(kind)) >= count)
        return self.table.frames(kind)[count - 1]

    async def toast(self, text: str) -> None:
        """Until the page has shown a toast with exactly this text."""
        await self.page.wait_for_function("(text) => window.toastsSeen.includes(text)", arg=text)

    async def board_title(self, text: str) -> None:
        from playwright.async_api import expect

        await expect(self.page.locator("#board .title")).to_have_text(text)


@asynccontextmanager
async def opened(browser, table: TableStandIn, width: int = 1280, height: int = 800, user: str = ALICE):
    context = await browser.new_context(viewport={"width": width, "height": height})
    try:
        tab = Page(await context.new_page(), table)
        tab.page.set_default_timeout(CEILING_MS)
        await tab.page.add_init_script(_KEEP_TOASTS)
        query = f"instance_id={INSTANCE}&user_id={user}&guild_id=1&channel_id=2&locale=en-US"
        await tab.page.goto(f"{table.url}?{query}")
        yield tab
        assert tab.errors == [], "the page raised"
        assert tab.dialogs == [], "the page opened a dialog"
    finally:
        await context.close()


async def test_the_page_signs_in_draws_the_board_and_a_double_click_sends_one_press(browser, table):
    from playwright.async_api import expect

    async with opened(browser, table) as tab:
        page = tab.page
        await tab.board_title("Kabuki: round 1")
        assert table.sign_ins == [{"code": f"mock:{ALICE}", "instance_id": INSTANCE, "locale": "en-US"}]
        assert table.socket_tickets == [f"ticket-{ALICE}-1"]
        board = page.locator("#board")
        await expect(board.locator(".description strong")).to_have_text("Alice")
        await expect(board.locator(".description .mention")).to_have_text(["@Alice", "@member"])
        await expect(board.locator(".description blockquote")).to_have_text("A quoted line")
        await expect(board.locator(".description time")).to_have_text(re.compile(r"^in (60|59) minutes$"))
        await expect(board.locator(".field-name")).to_have_text(["Actors", "Masks left", "Last"])
        await expect(board.locator(".field-value em")).to_have_text("Bob")
        await expect(board.locator(".footer")).to_have_text(
            "Press Stop! when an actor already wears the mask"
        )
        await expect(board.locator("button")).to_have_text(["🎭Place", "Stop!"])
        await expect(page.locator("#game-title")).to_have_text("Kabuki")
        await expect(page.locator("#players li")).to_have_text(["Alice (you)", "Bob", "Robo (computer)"])

        place = board.get_by_role("button", name="Place")
        before = int(time.time() * 1000)
        await place.dblclick()
        press = await tab.frame("press", 1)
        assert (press["type"], press["name"], press["arg"], press["id"]) == ("press", "place", "2", 1)
        assert "values" not in press and before <= press["t"] <= int(time.time() * 1000)
        await expect(place).to_be_disabled()
        # The board redrawn before the answer (the bot publishes first): still the same press.
        await table.send({"type": "board", "board": kabuki_board()})
        await expect(place).to_be_disabled()
        await place.click(force=True)
        await table.send({"type": "answer", "id": 1, "ok": True})
        await expect(place).to_be_enabled()

        # The next press is the next click's, not a late second copy of the first.
        await board.get_by_role("button", name="Stop!").click()
        press = await tab.frame("press", 2)
        assert (press["name"], press["arg"], press["id"]) == ("stop", "", 2)
        assert [frame["name"] for frame in table.frames("press")] == ["place", "stop"]

        await table.send({"type": "board", "board": None})
        await expect(board.locator(".empty")).to_contain_text("/kabuki new")


async def test_a_private_message_shows_for_you_only_and_a_refusal_shows_its_words(browser, table):
    from playwright.async_api import expect

    async with opened(browser, table) as tab:
        page = tab.page
        await tab.board_title("Kabuki: round 1")
        await expect(page.locator("#private")).to_be_hidden()
        for number in range(1, 7):
            mine = card(
                f"Your mask {number}", "You hold **Fox**.", controls=[[button("Peek", "peek", str(number))]]
            )
            await table.send({"type": "private", "message": mine})
        area = page.locator("#private")
        await expect(area.locator(".heading")).to_have_text("For you only")
        # The newest first, the last five kept.
        await expect(area.locator(".title")).to_have_text([f"Your mask {n}" for n in (6, 5, 4, 3, 2)])
        await area.locator(".private-card").first.get_by_role("button", name="Dismiss").click()
        await expect(area.locator(".title")).to_have_text([f"Your mask {n}" for n in (5, 4, 3, 2)])

        # A private message's own control presses too.
        await area.get_by_role("button", name="Peek").first.click()
        press = await tab.frame("press", 1)
        assert (press["name"], press["arg"]) == ("peek", "5")
        # Never answered (a socket gone meanwhile, say): free again after at most 5 s.
        peek = area.locator(".private-card").first.get_by_role("button", name="Peek")
        await expect(peek).to_be_disabled()
        await expect(peek).to_be_enabled()

        stop = page.locator("#board").get_by_role("button", name="Stop!")
        await stop.click()
        press = await tab.frame("press", 2)
        await table.send({"type": "answer", "id": press["id"], "ok": False, "text": "It is not your turn."})
        await tab.toast("It is not your turn.")
        await expect(stop).to_be_enabled()


async def test_the_server_s_text_is_shown_as_text_never_as_markup(browser, table):
    from playwright.async_api import expect

    table.names[ALICE] = XSS
    table.game = {**GAME, "title": XSS, "players": [{"seat": 0, "name": XSS, "computer": False}]}
    table.board = card(
        XSS,
        f"**{XSS}** and <@{ALICE}>",
        fields=[{"name": XSS, "value": f"`{XSS}`", "inline": False}],
        footer=XSS,
        content=f"> {XSS}",
        controls=[[button(XSS, "place", XSS)]],
    )
    async with opened(browser, table) as tab:
        page = tab.page
        await tab.board_title(XSS)
        await table.send({"type": "private", "message": card(XSS, XSS)})
        await table.send({"type": "error", "code": "unknown", "message": XSS})
        await expect(page.locator("#private .title")).to_have_text(XSS)
        await tab.toast(XSS)
        await page.locator("#board").get_by_role("button").click()
        press = await tab.frame("press", 1)
        await table.send({"type": "answer", "id": press["id"], "ok": False, "text": XSS})
        await page.wait_for_function("() => window.toastsSeen.length === 2")
        assert await page.evaluate("() => window.toastsSeen") == [XSS, XSS]

        board = page.locator("#board")
        await expect(board.locator(".description strong")).to_have_text(XSS)
        await expect(board.locator(".description .mention")).to_have_text(f"@{XSS}")
        await expect(board.locator(".field-value code")).to_have_text(XSS)
        await expect(board.locator(".content blockquote")).to_have_text(XSS)
        await expect(board.locator("button")).to_have_text(XSS)
        await expect(page.locator("#game-title")).to_have_text(XSS)
        await expect(page.locator("#status-you")).to_have_text(XSS)
        assert await page.locator("img").count() == 0
        assert press["arg"] == XSS


async def test_a_dropped_socket_reconnects_with_the_newest_ticket_and_redraws(browser, table):
    from playwright.async_api import expect

    table.renew_next_pong = True
    async with opened(browser, table) as tab:
        page = tab.page
        await tab.board_title("Kabuki: round 1")
        # The pong that answered the page's first ping carried the fresh ticket.
        await until(table, lambda: len(table.handed) == 1)
        renewed = table.handed[0]
        # Shown on a pong: that one (or a later one, after it) has been read.
        await expect(page.locator("#status-latency")).to_have_text(re.compile(r"^\d+ ms$"))
        await expect(page.locator("#status-state")).to_have_text("Connected")

        table.board = kabuki_board("Kabuki: round 2")
        table.game = {**GAME, "status": "lobby"}
        table.sockets_refused = True  # the bot restarting: the page keeps trying, backing off
        await table.drop()
        await until(table, lambda: len(table.socket_tickets) >= 3)
        await expect(page.locator("#status-state")).to_have_text("Reconnecting…")
        table.sockets_refused = False

        await tab.board_title("Kabuki: round 2")
        await expect(page.locator("#status-state")).to_have_text("Connected")
        await expect(page.locator("#game-status")).to_have_text("Lobby")
        await expect(page.locator("#board .card")).to_have_count(1)
        assert table.socket_tickets[0] == f"ticket-{ALICE}-1"
        assert set(table.socket_tickets[1:]) == {renewed}, "every reconnect used the newest ticket"
        assert len(table.sign_ins) == 1, "a reconnect is no new sign-in"


async def test_an_expired_ticket_signs_in_again_once(browser, table):
    async with opened(browser, table) as tab:
        await tab.board_title("Kabuki: round 1")
        table.tickets.clear()  # away too long: every ticket it holds has expired
        table.board = kabuki_board("Kabuki: round 3")
        await table.drop()
        await tab.board_title("Kabuki: round 3")
        assert [sign_in["code"] for sign_in in table.sign_ins] == [f"mock:{ALICE}"] * 2
        assert table.socket_tickets == [f"ticket-{ALICE}-1", f"ticket-{ALICE}-1", f"ticket-{ALICE}-2"]


async def test_a_refused_sign_in_shows_the_bot_s_sentence_full_screen(browser, table):
    from playwright.async_api import expect

    table.refusal = (403, "You are not in this Activity.")
    async with opened(browser, table) as tab:
        await expect(tab.page.locator("#screen")).to_have_text("You are not in this Activity.")
        await expect(tab.page.locator("#table")).to_be_hidden()
        assert table.socket_tickets == []


async def test_a_pick_of_several_is_sent_once_its_count_fits(browser, table):
    from playwright.async_api import expect

    options = [
        {"label": name, "value": name.lower(), "description": None, "emoji": None, "default": False}
        for name in ("Fox", "Owl", "Cat")
    ]
    pick = {"kind": "select", "placeholder": "Pick two", "min": 2, "max": 2, "disabled": False}
    table.board = card("Masks", controls=[[{**pick, "options": options, "press": {"name": "pick"}}]])
    async with opened(browser, table) as tab:
        page = tab.page
        await tab.board_title("Masks")
        send = page.locator("#board").get_by_role("button", name="Send")
        await expect(send).to_be_disabled()
        await page.get_by_label("Fox").check()
        await expect(send).to_be_disabled()
        await page.get_by_label("Cat").check()
        await send.click()
        press = await tab.frame("press", 1)
        assert (press["name"], press["arg"], press["values"]) == ("pick", "", ["fox", "cat"])
        await expect(page.get_by_label("Owl")).to_be_disabled()
        await table.send({"type": "answer", "id": press["id"], "ok": True})
        await expect(page.get_by_label("Owl")).to_be_enabled()


def busy_board() -> dict[str, Any]:
    long = "Extraordinarily long label"
    return card(
        "Death Over the Kingdom: the last round before the reckoning",
        "**Carol** plays the *Alchemist* against ~~Dave~~ __Erin__; `7` cards left.\n"
        "> Everyone has until the end of the turn to answer.",
        color=0x9B59B6,
        fields=[
            {"name": f"Seat {n}", "value": f"Player number {n}: 2 tokens", "inline": True} for n in range(5)
        ]
        + [
            {
                "name": "Log",
                "value": "A_very_long_unbroken_word_that_would_widen_a_phone_page_if_it_could",
                "inline": False,
            }
        ],
        footer="Lowest card takes a token",
        image="/picture.png",
        controls=[
            [button(f"{long} {n}", "pick", str(n), "primary") for n in range(5)],
            [
                button("OK", "ok", "", "success"),
                button("No", "no", "", "danger"),
                button("", "x", "", emoji="🃏"),
            ],
            [
                {
                    "kind": "select",
                    "placeholder": "Choose a character to accuse of being the traitor",
                    "min": 1,
                    "max": 1,
                    "disabled": False,
                    "options": [
                        {
                            "label": "Alchemist",
                            "value": "a",
                            "description": None,
                            "emoji": "⚗️",
                            "default": False,
                        },
                        {
                            "label": "Knight",
                            "value": "k",
                            "description": "brave",
                            "emoji": None,
                            "default": False,
                        },
                    ],
                    "press": {"name": "accuse"},
                }
            ],
        ],
    )


async def test_the_page_fits_a_360_px_phone_and_a_desktop(browser, table):
    from playwright.async_api import expect

    table.board = busy_board()
    async with opened(browser, table, width=360, height=740) as tab:
        page = tab.page
        await tab.board_title(busy_board()["title"])
        for number in (1, 2):
            mine = card(
                f"Your character {number}", "You are the **Knight**.", controls=[[button("Use", "use")]]
            )
            await table.send({"type": "private", "message": mine})
        await expect(page.locator("#private .private-card")).to_have_count(2)
        await page.locator("#board img.picture").evaluate(
            "(image) => image.decode()"  # loaded and drawn: its height counts
        )
        await page.locator("#board select").select_option("k")
        press = await tab.frame("press", 1)
        assert (press["name"], press["values"]) == ("accuse", ["k"])

        sizes = await page.evaluate(_SIZES)
        assert sizes["scrollWidth"] <= 360, sizes
        width, height = sizes["image"]
        assert width >= 300 and abs(height - width * 450 / 800) <= 2, (
            "the picture: full card width, its own shape"
        )
        assert sizes["controls"] and min(height for _, height in sizes["controls"]) >= 44, sizes["controls"]
        await page.screenshot(path="/tmp/activity-360.png", full_page=True)

        await page.set_viewport_size({"width": 1280, "height": 800})
        sizes = await page.evaluate(_SIZES)
        assert sizes["private"][0] >= sizes["board"][1], (
            "on a desktop, the member's own messages beside the board"
        )
        assert sizes["scrollWidth"] <= 1280, sizes
        await page.screenshot(path="/tmp/activity-desktop.png", full_page=True)


# Every control's rendered size, the picture's, and how wide the page scrolls.
_SIZES = """() => ({
  scrollWidth: document.scrollingElement.scrollWidth,
  image: (() => { const r = document.querySelector("#board img.picture").getBoundingClientRect();
                  return [r.width, r.height]; })(),
  board: (() => { const r = document.querySelector("#board").getBoundingClientRect(); return [r.left, r.right]; })(),
  private: (() => { const r = document.querySelector("#private").getBoundingClientRect(); return [r.left, r.right]; })(),
  controls: [...document.querySelectorAll("button, select")]
    .filter((element) => element.offsetParent !== null)
    .map((element) => [element.textContent.trim(), element.getBoundingClientRect().height]),
})"""
