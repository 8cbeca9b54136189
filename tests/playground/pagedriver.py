"""The playground in a thread of its own, and its page in a real Chromium driven as a person would.

Shared by tests/playground/test_browser.py and bench/soak_playground.py. Every player action goes
through the page: the "Viewing as" switch, the slash-command composer and the message buttons.
The bot's state is only *read*, on the bot's own event loop, to choose moves and to check what
the page shows.

What the page itself reports is what counts (SimCord's static/actions.js): a receipt that is
rejected, failed, timed out or unacknowledged shows "Action was not completed." and is a *refused*
action; a transport failure, "Action outcome uncertain", an "Unavailable channel" or an empty
Viewing-as switch that does not clear, or a page that never settles, is a *lock-up*.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from browsers import CHROMIUM, CHROMIUM_ARGS, browser_missing  # noqa: F401  (the tests import it from here)

from bot.app.playground import MEMBERS, run_playground

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # browser_missing() says so, and nothing below runs
    PlaywrightError = Exception  # type: ignore[assignment,misc]

T = TypeVar("T")

SETTLE_SECONDS = 45.0  # a page that has not settled by then is locked up (a ceiling: a busy machine is slow)

_SETTLED = """() => {
  const s = window.simcordPreview;
  return Boolean(s && s.ready && !s.pendingAction && s.awaitingRevision === null
    && s.transport.state !== "uncertain");
}"""
_STATE = """() => {
  const s = window.simcordPreview;
  const name = document.getElementById("channel-name");
  const status = document.getElementById("action-status");
  return {
    viewerId: s.viewerId, lastAction: s.lastAction, transport: s.transport,
    channelName: name ? name.textContent : "",
    status: status ? status.textContent : "",
    viewers: document.querySelectorAll("#viewer-picker option").length,
    composer: (document.getElementById("channel-composer-input") || {}).value || "",
  };
}"""
_MESSAGES = """() => [...document.querySelectorAll("article.channel-message")].map((article) => ({
  id: article.dataset.messageId,
  text: article.innerText,
  ephemeral: Boolean(article.querySelector(".message-ephemeral-note")),
  images: [...article.querySelectorAll("img")].map((img) => img.alt),
  buttons: [...article.querySelectorAll("button.component-button")].map((button) => ({
    label: button.innerText.trim(), disabled: button.disabled || button.getAttribute("aria-disabled") === "true",
  })),
}))"""

_WATCH_MEDIA = """() => {
  if (window.unavailableMedia) return;
  window.unavailableMedia = [];
  const note = (node) => {
    if (!(node instanceof Element)) return;
    for (const found of [node, ...node.querySelectorAll(".media-unavailable")]) {
      if (found.classList.contains("media-unavailable")) window.unavailableMedia.push(found.textContent);
    }
  };
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach(note)))
    .observe(document.body, { childList: true, subtree: true });
}"""


class Playground:
    """``run_playground`` on its own event loop in a background thread, until ``close``."""

    def __init__(self, database: str = ":memory:") -> None:
        self._database = database
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._main, name="playground", daemon=True)
        self.errors: list[logging.LogRecord] = []
        self.failure: BaseException | None = None

    def start(self, timeout: float = 60) -> Playground:
        self._thread.start()
        if not self._started.wait(timeout) or self.failure is not None:
            raise RuntimeError("the playground did not start") from self.failure
        return self

    def _main(self) -> None:
        collector = _Collector(self.errors)
        logging.getLogger().addHandler(collector)
        try:
            asyncio.run(
                run_playground(database=self._database, port=None, open_browser=False, ready=self._ready)
            )
        except BaseException as error:
            self.failure = error
            self._started.set()
        finally:
            logging.getLogger().removeHandler(collector)

    async def _ready(self, *, env: Any, channel: Any, members: list[Any], preview: Any, **more: Any) -> None:
        self.loop = asyncio.get_running_loop()
        self.env, self.channel, self.preview = env, channel, preview
        self.bot = env.bot
        self.live = more.get("live")  # the page follower, where the playground has one
        self.url = preview.url
        self.member_ids = {name: member.id for name, member in zip(MEMBERS, members, strict=True)}
        self._done = asyncio.Event()
        self._started.set()
        await self._done.wait()

    def call(self, fn: Callable[[], T], timeout: float = 30) -> T:
        """``fn()`` run on the bot's event loop, between two of its steps."""

        async def run() -> T:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def session(self) -> Any:
        return self.call(lambda: self.bot.sessions.get(self.channel.id))

    def close(self) -> None:
        if self._started.is_set() and self.failure is None:
            self.loop.call_soon_threadsafe(self._done.set)
        self._thread.join(30)


class _Collector(logging.Handler):
    """Errors logged anywhere while the playground runs (a failed task, a failed command)."""

    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self._into = into

    def emit(self, record: logging.LogRecord) -> None:
        self._into.append(record)


class PageFailure(AssertionError):
    """A refused action or a lock-up, raised at once by a strict driver."""


@dataclass
class Tally:
    strict: bool = False
    actions: int = 0
    refused: list[str] = field(default_factory=list)
    lockups: list[str] = field(default_factory=list)

    def refuse(self, what: str) -> None:
        self.refused.append(what)
        if self.strict:
            raise PageFailure(f"refused action: {what}")

    def lockup(self, what: str) -> None:
        self.lockups.append(what)
        if self.strict:
            raise PageFailure(f"page lock-up: {what}")


class PageDriver:
    """One browser tab on the playground, used like a person would, counting what went wrong."""

    def __init__(self, page: Any, member_ids: Mapping[str, int], *, strict: bool = False) -> None:
        self.page = page
        self.member_ids = dict(member_ids)
        self.tally = Tally(strict=strict)
        self.viewer: str | None = None
        self._failures = 0  # the page's count of transport failures, as last seen
        self.answer_seconds: list[float] = []  # each action: from the press to the page's receipt
        self.pressed_at = 0.0  # time.perf_counter() of the latest press
        self.failed_assets: list[str] = []  # pictures the server refused (once watch_media is on)

    def open(self, url: str) -> None:
        self.page.goto(url)
        self._opened()

    def reload(self) -> None:
        """What a person does with a stuck page (going to the same address would not reload it)."""
        self.page.reload()
        self._opened()

    def _opened(self) -> None:
        self._failures = 0
        self.settle("opening the page")
        self.viewer = self._name_of(self.state()["viewerId"])

    # -- watching ---------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        return self.page.evaluate(_STATE)

    def messages(self) -> list[dict[str, Any]]:
        return self.page.evaluate(_MESSAGES)

    def message(self, message_id: int) -> dict[str, Any] | None:
        return next((m for m in self.messages() if m["id"] == str(message_id)), None)

    def watch_media(self) -> None:
        """From now on, note every picture the page shows as unavailable (its "... unavailable"
        placeholder), however briefly; ``unavailable_media`` reads them."""
        self.page.evaluate(_WATCH_MEDIA)
        self.page.on("response", self._note_failed_asset)

    def _note_failed_asset(self, response: Any) -> None:
        if "/api/assets/" in response.url and response.status >= 400:
            self.failed_assets.append(
                f"{response.status} {response.url.rsplit('/', 1)[-1]} at {time.perf_counter():.2f}"
            )

    def unavailable_media(self) -> list[str]:
        return self.page.evaluate("() => window.unavailableMedia || []") + self.failed_assets

    def settle(self, what: str) -> bool:
        try:
            self.page.wait_for_function(_SETTLED, timeout=SETTLE_SECONDS * 1000, polling=50)
        except Exception:
            self.tally.lockup(f"{what}: the page did not settle ({self.state()['status']!r})")
            return False
        return self._check_lockup(what)

    def _check_lockup(self, what: str) -> bool:
        state = self.state()
        problems = []
        transport = state["transport"]
        if transport["failures"] > self._failures or transport["state"] in ("uncertain", "error"):
            problems.append(f"transport {transport['state']} ({transport['failures']} failures)")
        self._failures = transport["failures"]
        if "uncertain" in state["status"]:
            problems.append(state["status"])
        if state["channelName"] == "Unavailable channel":
            problems.append("Unavailable channel")
        if not state["viewers"]:
            problems.append("empty Viewing-as switch")
        if problems:
            self.tally.lockup(f"{what}: " + ", ".join(problems))
            return False
        return True

    def _act(self, what: str, do: Callable[[], None]) -> dict[str, Any] | None:
        """Do one action through the page and judge its receipt; None if the page locked up."""
        before = (self.state()["lastAction"] or {}).get("requestId")
        self.tally.actions += 1
        pressed = self.pressed_at = time.perf_counter()
        do()
        try:
            self.page.wait_for_function(
                """(before) => {
                  const s = window.simcordPreview;
                  return Boolean(s && s.lastAction && s.lastAction.requestId !== before && !s.pendingAction)
                    || Boolean(s && s.transport.state === "uncertain");
                }""",
                arg=before,
                timeout=SETTLE_SECONDS * 1000,
                polling=25,
            )
        except Exception:
            self.tally.lockup(f"{what}: no answer ({self.state()['status']!r})")
            return None
        self.answer_seconds.append(time.perf_counter() - pressed)
        if not self.settle(what):
            return None
        receipt = self.state()["lastAction"]
        if (
            receipt["rejected"]
            or receipt["settlement"] in ("rejected", "failed", "timeout", "cancelled")
            or receipt["acknowledgement"] == "unacknowledged"
        ):
            codes = [item.get("code") for item in receipt.get("diagnostics", [])]
            self.tally.refuse(f"{what}: {receipt['settlement']} {codes}")
        return receipt

    def _name_of(self, member_id: Any) -> str | None:
        return next((name for name, id_ in self.member_ids.items() if str(id_) == str(member_id)), None)

    # -- doing ------------------------------------------------------------------------------------

    def view_as(self, name: str) -> None:
        """The Viewing-as switch."""
        if self.viewer == name:
            return
        member_id = str(self.member_ids[name])
        self.tally.actions += 1
        self.page.select_option("#viewer-picker", value=member_id)
        try:
            self.page.wait_for_function(
                "(id) => Boolean(window.simcordPreview && window.simcordPreview.viewerId === id)",
                arg=member_id,
                timeout=SETTLE_SECONDS * 1000,
                polling=25,
            )
        except Exception:
            self.tally.lockup(f"view as {name}: the switch did not happen ({self.state()['status']!r})")
        if self.settle(f"view as {name}"):
            receipt = self.state()["lastAction"]
            if receipt is not None and receipt.get("rejected"):
                self.tally.refuse(f"view as {name}: {receipt['settlement']}")
        self.viewer = self._name_of(self.state()["viewerId"])

    def command(self, name: str, options: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        """Type ``/name``, pick it, fill ``options`` through the option picker, press Enter."""
        page = self.page
        composer = page.locator("#channel-composer-input")
        composer.click()
        composer.fill("")
        composer.type(f"/{name}")
        page.locator(".command-entry", has_text=f"/{name}").first.wait_for()
        page.keyboard.press("Tab")
        page.locator(".command-chip").wait_for()
        for index, (option, value) in enumerate((options or {}).items()):
            if index or not page.locator(f'.command-suggestion[data-value="{option}"]').is_visible():
                page.locator(".command-ghost").click()
            page.locator(f'.command-suggestion[data-value="{option}"]').click()
            page.locator(f'.command-option-input[data-option="{option}"]').fill(str(value))
        page.keyboard.press("Escape")  # close the option picker, or Enter would pick an option

        def run() -> None:
            page.keyboard.press("Enter")

        receipt = self._act(f"/{name} as {self.viewer}", run)
        if receipt is not None and self.state()["composer"]:
            self.tally.refuse(f"/{name}: the command stayed in the composer")
        return receipt

    def click(
        self, message_id: int, label: str | Callable[[str], bool], what: str | None = None, *, wait: float = 0
    ) -> dict[str, Any] | None:
        """Press the enabled button of a message whose label is ``label`` (or passes it), waiting
        up to ``wait`` seconds for the page to show it."""
        test = label if callable(label) else (lambda text: text == label)
        what = what or (label if isinstance(label, str) else "a button")
        buttons = self.page.locator(
            f'article.channel-message[data-message-id="{message_id}"] button.component-button'
        )
        deadline = time.perf_counter() + wait
        while True:
            for index in range(buttons.count()):
                button = buttons.nth(index)
                try:  # the page may redraw the message meanwhile: look again
                    found = test(button.inner_text(timeout=1000).strip()) and button.is_enabled()
                except PlaywrightError:
                    break
                if found:
                    return self._act(f"{what} as {self.viewer}", lambda button=button: button.click())
            if time.perf_counter() >= deadline:
                raise LookupError(f"no enabled button {what!r} on message {message_id} for {self.viewer}")
            time.sleep(0.05)


@contextmanager
def chromium(headless: bool = True) -> Iterator[Any]:
    """A fresh Chromium through Playwright; yields a new page."""
    with chromium_pages(1, headless=headless) as pages:
        yield pages[0]


@contextmanager
def chromium_pages(count: int, headless: bool = True) -> Iterator[list[Any]]:
    """A fresh Chromium with ``count`` pages, each in a browser context of its own (its own
    storage, as two people's browsers would be)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=headless)
        try:
            contexts = [
                browser.new_context(
                    bypass_csp=True,  # SimCord's page forbids eval, which Playwright's waits use
                    viewport={"width": 1280, "height": 900},
                )
                for _ in range(count)
            ]
            yield [context.new_page() for context in contexts]
        finally:
            browser.close()


def wait_until(check: Callable[[], T], timeout: float, what: str) -> T:
    """Poll ``check`` until it returns something true; AssertionError with ``what`` if it never does."""
    deadline = time.perf_counter() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.perf_counter() > deadline:
            raise AssertionError(f"{what} (after {timeout:g} s)")
        time.sleep(0.05)
