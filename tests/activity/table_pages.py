"""Members' pages of the Activity in a real Chromium, for the games' browser tests: each member's
page in a browser context of its own (its own storage, as on each member's own device), signed in
by the SDK's mock as ``?user_id=`` against the stand-in for Discord's API, with every frame of its
socket kept so that a test can tell a click reached the bot and what it answered.

Not in conftest.py: test modules import these by this file's name."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from page_client import INSTANCE

CEILING_S = 60  # only a hang reaches it: every wait returns as soon as what it waits for is there


def mock_sign_in(discord_api, member) -> None:
    """What Discord would answer for the code the SDK's mock gives this member's page."""
    discord_api.add_user(member.id, member.name)
    discord_api.codes[f"mock:{member.id}"] = member.id


async def until(check, what: str) -> None:
    """Until ``check()`` holds: SimCord's state and the engine's have no event to wait on."""
    try:
        async with asyncio.timeout(CEILING_S):
            while not check():  # noqa: ASYNC110
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(f"not within {CEILING_S} s: {what}") from None


class TablePage:
    """One member's page: the Playwright page, its JavaScript errors and its socket's frames."""

    def __init__(self, page, member) -> None:
        self.page = page
        self.member = member
        self.errors: list[str] = []
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self._arrived = asyncio.Event()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        socket.on("framesent", lambda payload: self._keep(self.sent, payload))
        socket.on("framereceived", lambda payload: self._keep(self.received, payload))

    def _keep(self, frames: list[dict[str, Any]], payload: str | bytes) -> None:
        try:
            frame = json.loads(payload)
        except ValueError:
            return
        if isinstance(frame, dict):
            frames.append(frame)
            self._arrived.set()

    @property
    def board(self):
        return self.page.locator("#board")

    @property
    def private(self):
        return self.page.locator("#private-list")

    def presses(self) -> list[dict[str, Any]]:
        return [f for f in self.sent if f.get("type") == "press"]

    async def answer(self, after: int) -> dict[str, Any]:
        """The bot's answer to the first press this page sent after its first ``after`` presses
        (waiting for the press to go out, then for its answer)."""
        try:
            async with asyncio.timeout(CEILING_S):
                while True:
                    presses = self.presses()
                    if len(presses) > after:
                        wanted = presses[after]["id"]
                        for frame in self.received:
                            if frame.get("type") == "answer" and frame.get("id") == wanted:
                                return frame
                    self._arrived.clear()
                    await self._arrived.wait()
        except TimeoutError:
            raise AssertionError(f"{self.member.name}'s page: no answer to its press {after + 1}") from None

    async def click(self, control) -> dict[str, Any]:
        """A real click on ``control`` (a locator) and the bot's answer to the press it sent."""
        before = len(self.presses())
        await control.click()
        return await self.answer(before)

    async def text(self) -> str:
        """Every word of the page's document, hidden ones too (a secret hidden by CSS is still sent)."""
        return await self.page.evaluate("document.documentElement.textContent")

    async def html(self) -> str:
        return await self.page.evaluate("document.documentElement.outerHTML")

    async def image_sources(self) -> list[str]:
        return await self.page.evaluate("[...document.images].map((image) => image.src)")

    def privates(self) -> list[dict[str, Any]]:
        """Every private message the page's socket was sent."""
        return [f["message"] for f in self.received if f.get("type") == "private"]


async def open_page(browser, table, world, member, **context_options) -> TablePage:
    """``member``'s page in a browser context of its own (``context_options``: its viewport…),
    opened on the table's address; closed with its context at the end of the browser fixture."""
    context = await browser.new_context(**context_options)
    page = TablePage(await context.new_page(), member)
    host, port = table.address
    query = (
        f"instance_id={INSTANCE}&user_id={member.id}&guild_id={world.guild.id}&channel_id={world.channel.id}"
    )
    await page.page.goto(f"http://{host}:{port}/?{query}")
    return page


async def picture_bytes(page: TablePage, image) -> bytes:
    """The picture an <img> shows, once the page has loaded it, fetched again in the page's own
    browser context (its address is all a page knows of it)."""
    from playwright.async_api import expect

    await expect(image).to_have_js_property("complete", True)
    assert await image.evaluate("(image) => image.naturalWidth") > 0, "the picture did not load"
    answer = await page.page.context.request.get(await image.get_attribute("src"))
    assert answer.ok, answer.status
    return await answer.body()


async def started_from_pages(browser, table, world, command: str, title: str, reveal_ms: int, **options):
    """``/<command>`` by the first of three members in the channel (the game's ``FAST`` options
    as ``options["slash"]``), each on a page of their own showing the lobby ``title``, the others
    joined from theirs, the reveal held ``reveal_ms``, and the game started from the first's page:
    the pages, in seat order, and the session."""
    from playwright.async_api import expect

    members = world.members[:3]
    await members[0].slash(world.channel, command, **options.pop("slash", {}))
    pages = [await open_page(browser, table, world, member, **options) for member in members]
    for page in pages:
        await expect(page.board.locator(".title")).to_have_text(title)
    session = world.env.bot.sessions.get(world.channel.id)
    for page in pages[1:]:
        assert (await page.click(page.board.get_by_role("button", name="Join")))["ok"] is True
        await table.quiet()
    assert session.players == [m.id for m in members]
    session.options["reveal_ms"] = reveal_ms
    started = await pages[0].click(pages[0].board.get_by_role("button", name="Start"))
    assert started["ok"] is True, started
    await table.quiet()
    return pages, session
