"""The playground's page follows the bot (bot/app/livepage.py): republished when the bot changed
something and only then, a click made a moment before a change still counts if its button is
still there, and the task doing it, like the game's timers, carries on after a failure.

The page is used over HTTP exactly as its scripts use it (SimCord's preview protocol 3), with the
real bot inside SimCord; tests/playground/test_browser.py does the same in Chromium.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from tapgame import TAP, TapEngine

from bot.app import livepage
from bot.app.livepage import LivePage, RealTimeClock
from bot.app.playground import run_playground

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


class BrowserPage:
    """One page of the preview, opened and used over HTTP as the page's scripts do."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        self._http = http
        self._base, self._capability = url.split("/#")
        self.context: str | None = None
        self._sequence = 0
        self.snapshot: dict[str, Any] = {}

    def _headers(self) -> dict[str, str]:
        headers = {"X-Simcord-Capability": self._capability}
        if self.context is not None:
            headers["X-Simcord-Context"] = self.context
        return headers

    async def open(self, member: Any) -> BrowserPage:
        body = {"viewer_id": str(member.id)}
        async with self._http.post(f"{self._base}/api/pages", json=body, headers=self._headers()) as response:
            self.snapshot = await response.json()
        self.context = self.snapshot["context"]["id"]
        return self

    async def poll(self) -> dict[str, Any]:
        async with self._http.get(f"{self._base}/api/state", headers=self._headers()) as response:
            self.snapshot = await response.json()
        return self.snapshot

    @property
    def revision(self) -> int:
        return self.snapshot["publishedRevision"]

    async def command(self, invocation: str) -> dict[str, Any]:
        async with self._http.get(f"{self._base}/api/commands", headers=self._headers()) as response:
            catalog = await response.json()
        return next(entry for entry in catalog["entries"] if " ".join(entry["path"]) == invocation)

    async def act(self, kind: str, made_on: int, **fields: Any) -> dict[str, Any]:
        """Send one action made on revision ``made_on``; the page's receipt."""
        self._sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self._sequence,
            "request_id": uuid.uuid4().hex,
            "generation": self.snapshot["context"]["generation"],
            "bot_generation": self.snapshot["botGeneration"],
            "published_revision": made_on,
            "kind": kind,
            **fields,
        }
        async with self._http.post(
            f"{self._base}/api/action", json=body, headers=self._headers()
        ) as response:
            assert response.status == 200, await response.text()
            return await response.json()

    def button(self, label: str) -> dict[str, str]:
        """The click fields for the button with this label, as the page shows it now: in an
        action row of a card, or beside one of its lines."""
        for message_id, message in self.snapshot["messages"].items():
            for component in drawn(message["components"]):
                if component.get("type") == 2 and component.get("label") == label:
                    return {"control_key": component["control_key"], "target_id": message_id}
        raise LookupError(label)

    def label_at(self, control_key: str) -> str | None:
        """The label of the button the page now shows under ``control_key``, if any."""
        for message in self.snapshot["messages"].values():
            for component in drawn(message["components"]):
                if component.get("type") == 2 and component.get("control_key") == control_key:
                    return component.get("label")
        return None

    def has_button(self, label: str) -> bool:
        try:
            self.button(label)
        except LookupError:
            return False
        return True

    def shows(self, text: str) -> bool:
        return text in repr(self.snapshot["messages"])


def drawn(components: list[dict[str, Any]]) -> Any:
    """Every component of a message as the page has them, those inside a card or beside a line
    included, in the order they are drawn."""
    for component in components:
        yield component
        yield from drawn(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]


async def eventually(check: Callable[[], Awaitable[Any]], what: str, within: float = 15) -> Any:
    deadline = time.perf_counter() + within
    while not (result := await check()):
        assert time.perf_counter() < deadline, what
        await asyncio.sleep(0.05)
    return result


async def republished(page: BrowserPage, since: int, showing: str | None = None) -> None:
    """Until the page has a revision newer than ``since`` (with a button ``showing``, if given)."""

    async def newer() -> bool:
        await page.poll()
        return page.revision > since and (showing is None or page.has_button(showing))

    await eventually(newer, "the page is republished")


def completed(receipt: dict[str, Any]) -> bool:
    return not receipt["rejected"] and receipt["settlement"] == "settled"


async def play(tmp_path: Any, scenario: Callable[..., Awaitable[None]]) -> None:
    """Run the playground (with the test game Tap) until ``scenario`` returns."""

    async def ready(**world: Any) -> None:
        async with aiohttp.ClientSession() as http:
            await scenario(http=http, **world)

    await run_playground(
        database=str(tmp_path / "play.db"), port=None, open_browser=False, ready=ready, game_cogs=[TAP]
    )


def quick_turns(monkeypatch: pytest.MonkeyPatch, turn_ms: int) -> None:
    """Tap games whose turn timer passes for an idle player every ``turn_ms``."""
    new = TapEngine.new.__func__

    def with_quick_turns(cls, players, seed, options, now):
        return new(cls, players, seed, {**options, "turn_ms": turn_ms}, now)

    monkeypatch.setattr(TapEngine, "new", classmethod(with_quick_turns))


# -- republished when something changed, and only then --------------------------------------------


async def test_an_idle_page_is_not_republished(tmp_path):
    seen = {}

    async def scenario(http, preview, members, **world):
        page = await BrowserPage(http, preview.url).open(members[0])
        before = (await page.poll())["publishedRevision"]
        await asyncio.sleep(1.2)  # the old playground republished every 0.5 s, changes or not
        seen["revisions"] = before, (await page.poll())["publishedRevision"]

    await play(tmp_path, scenario)
    before, after = seen["revisions"]
    assert after == before


async def test_what_a_bot_timer_redraws_reaches_an_open_page_without_a_refresh(tmp_path, monkeypatch):
    quick_turns(monkeypatch, turn_ms=1000)
    seen = {}

    async def scenario(http, env, channel, members, preview, **world):
        lobby = (await members[0].slash(channel, "tap new")).response
        await members[1].click(lobby, label="Join")
        # SimCord lets a click settle until the bot has no timer due within settle_timeout; with
        # a turn timer this quick it would wait out the whole default 5 s.
        env.settle_timeout = 0.5
        await members[0].click(lobby, label="Start")
        page = await BrowserPage(http, preview.url).open(members[2])
        session = env.bot.sessions.get(channel.id)

        async def shows_a_turn_the_timer_passed_to() -> bool:
            turn = session.engine.s["turn"]
            await page.poll()
            return turn >= 2 and page.shows(f"Turn {turn}:")

        # Nobody presses anything: the timer passes for Alice, then for Bob, and so on.
        seen["followed"] = await eventually(shows_a_turn_the_timer_passed_to, "the page follows the timer")

    await play(tmp_path, scenario)
    assert seen["followed"]


# -- clicks made a moment before the page changed ------------------------------------------------


async def test_a_click_made_just_before_a_change_counts_when_its_button_is_still_there(tmp_path):
    seen = {}

    async def scenario(http, env, channel, members, preview, **world):
        alice, bob, carol = members[:3]
        lobby = (await alice.slash(channel, "tap new")).response
        page = await BrowserPage(http, preview.url).open(bob)
        made_on, join = page.revision, page.button("Join")
        await carol.click(lobby, label="Join")  # the lobby changes under Bob's click
        await republished(page, made_on)
        seen["receipt"] = await page.act("click", made_on, **join)
        seen["players"] = list(env.bot.sessions.get(channel.id).players)
        seen["ids"] = [alice.id, carol.id, bob.id]

    await play(tmp_path, scenario)
    assert completed(seen["receipt"]), seen["receipt"]
    assert seen["players"] == seen["ids"]


async def test_a_click_made_before_its_button_went_away_is_refused_and_presses_nothing_else(tmp_path):
    seen = {}

    async def scenario(http, env, channel, members, preview, **world):
        alice, bob = members[:2]
        lobby = (await alice.slash(channel, "tap new")).response
        page = await BrowserPage(http, preview.url).open(alice)
        made_on, join = page.revision, page.button("Join")
        await bob.click(lobby, label="Join")
        await alice.click(lobby, label="Start")  # the lobby becomes the board: Join's place is another's
        # The page follows the bot on a tick, so it may first be republished with Bob seated and
        # the lobby still up (Join there); the board is a later revision.
        await republished(page, made_on, showing="Tap")
        seen["there now"] = page.label_at(join["control_key"])  # the board's card lays out its own
        presses = env.bot.metrics.press_count
        seen["receipt"] = await page.act("click", made_on, **join)
        seen["presses"] = env.bot.metrics.press_count - presses
        seen["scores"] = list(env.bot.sessions.get(channel.id).engine.s["scores"])

    await play(tmp_path, scenario)
    assert seen["there now"] not in (None, "Join"), seen["there now"]  # a live button of the board
    assert seen["receipt"]["rejected"]
    assert seen["presses"] == 0  # the button now at Join's place was not pressed by accident
    assert seen["scores"] == [0, 0]  # Alice, whose turn it is, did not tap by accident


async def test_clicks_from_two_pages_at_the_same_moment_both_count(tmp_path):
    seen = {}

    async def scenario(http, env, channel, members, preview, **world):
        alice, bob, carol = members[:3]
        await alice.slash(channel, "tap new")
        pages = [await BrowserPage(http, preview.url).open(member) for member in (bob, carol)]
        clicks = [page.act("click", page.revision, **page.button("Join")) for page in pages]
        seen["receipts"] = await asyncio.gather(*clicks)
        seen["seated"] = set(env.bot.sessions.get(channel.id).players) == {alice.id, bob.id, carol.id}

    await play(tmp_path, scenario)
    assert all(completed(receipt) for receipt in seen["receipts"]), seen["receipts"]
    assert seen["seated"]


async def test_a_slash_command_made_just_before_a_change_is_run(tmp_path):
    seen = {}

    async def scenario(http, env, channel, members, preview, **world):
        page = await BrowserPage(http, preview.url).open(members[0])
        made_on, command = page.revision, await page.command("tap new")
        await members[1].slash(channel, "help")  # the bot answers Bob: the page is republished
        await republished(page, made_on)
        seen["receipt"] = await page.act(
            "run_command",
            made_on,
            command_id=command["commandId"],
            path=command["path"],
            schema_fingerprint=command["schemaFingerprint"],
            options={},
        )
        seen["lobby"] = env.bot.sessions.get(channel.id)

    await play(tmp_path, scenario)
    assert completed(seen["receipt"]), seen["receipt"]
    assert seen["lobby"] is not None and seen["lobby"].kind == "tap"


async def test_a_click_from_the_page_returns_before_a_timer_it_armed_has_fired(tmp_path, monkeypatch):
    """SimCord settled a click until no bot timer was due within 5 s: a click arming a shorter
    timer (Kabuki's 3 s grace) waited it out. Now the timer runs beside the answered click."""
    quick_turns(monkeypatch, turn_ms=4500)  # shorter than SimCord's 5 s, long for an answer
    seen = {}

    async def scenario(http, env, channel, members, preview, **world):
        alice, bob = members[:2]
        lobby = (await alice.slash(channel, "tap new")).response
        await bob.click(lobby, label="Join")
        page = await BrowserPage(http, preview.url).open(alice)
        seen["receipt"] = await page.act("click", page.revision, **page.button("Start"))
        engine = env.bot.sessions.get(channel.id).engine
        seen["answered"] = engine.s["turn"]
        await eventually(lambda: asyncio.sleep(0, engine.s["turn"] > seen["answered"]), "the timer fires")

    await play(tmp_path, scenario)
    assert completed(seen["receipt"]), seen["receipt"]
    assert seen["answered"] == 0  # answered before the turn timer passed the first turn on


# -- failures are logged, and everything carries on -----------------------------------------------


async def test_a_failure_of_the_page_follower_is_logged_with_its_traceback_and_it_starts_again(
    tmp_path, monkeypatch, caplog
):
    monkeypatch.setattr(livepage, "RESTART_SECONDS", 0.05)
    publish = LivePage.publish_changes
    ticks = {"n": 0}

    def fails_once(self: LivePage) -> int:
        ticks["n"] += 1
        if ticks["n"] == 3:
            raise RuntimeError("a publication went wrong")
        return publish(self)

    monkeypatch.setattr(LivePage, "publish_changes", fails_once)
    seen = {}

    async def scenario(http, env, channel, members, preview, **world):
        page = await BrowserPage(http, preview.url).open(members[0])
        await eventually(lambda: asyncio.sleep(0, ticks["n"] > 3), "the follower runs again")
        before = env.now()
        await members[0].slash(channel, "tap new")

        async def shows_the_lobby() -> bool:
            await page.poll()
            return page.shows("Tap")

        seen["lobby"] = await eventually(shows_the_lobby, "the page shows the new lobby")
        await asyncio.sleep(0.3)
        seen["clock"] = (env.now() - before).total_seconds()

    with caplog.at_level(logging.ERROR, logger="bot.app.livepage"):
        await play(tmp_path, scenario)
    failures = [record for record in caplog.records if record.exc_info is not None]
    assert len(failures) == 1 and "a publication went wrong" in str(failures[0].exc_info[1])
    assert seen["lobby"]
    assert seen["clock"] >= 0.3  # the clock still follows the wall clock


async def test_the_games_timers_run_on_after_one_of_them_failed_to_settle(tmp_path, monkeypatch, caplog):
    quick_turns(monkeypatch, turn_ms=300)
    advance = TapEngine.advance
    slow = {"timers": 0}

    def slow_once(self: TapEngine, now: int) -> list[Any]:
        if slow["timers"]:
            slow["timers"] -= 1
            time.sleep(1.0)  # this timer's work outlasts what SimCord allows a timer to settle
        return advance(self, now)

    monkeypatch.setattr(TapEngine, "advance", slow_once)
    seen = {}

    async def scenario(env, channel, members, **world):
        lobby = (await members[0].slash(channel, "tap new")).response
        await members[1].click(lobby, label="Join")
        env.settle_timeout = 0.5  # how long SimCord lets the bot's work after a timer take
        await members[0].click(lobby, label="Start")
        session = env.bot.sessions.get(channel.id)
        slow["timers"] = 1
        await eventually(lambda: asyncio.sleep(0, slow["timers"] == 0), "the slow timer fires")
        after_the_slow_one = session.engine.s["turn"]
        await eventually(
            lambda: asyncio.sleep(0, session.engine.s["turn"] >= after_the_slow_one + 3), "timers run on"
        )
        seen["ran_on"] = True

    with caplog.at_level(logging.ERROR, logger="bot.app.livepage"):
        await play(tmp_path, scenario)
    assert seen["ran_on"]
    failures = [record for record in caplog.records if record.exc_info is not None]
    assert failures and isinstance(failures[0].exc_info[1], TimeoutError)


# -- the clock ------------------------------------------------------------------------------------


class FakeEnv:
    class backend:  # noqa: N801 - SimCord's attribute name
        class clock:  # noqa: N801
            elapsed = 100.0

        @classmethod
        def advance_clock(cls, seconds: float) -> None:
            cls.clock.elapsed += seconds


def test_the_clock_catches_up_after_a_late_tick_and_never_counts_a_timers_jump_twice(monkeypatch):
    wall = {"now": 50.0}
    monkeypatch.setattr(livepage.time, "perf_counter", lambda: wall["now"])
    env = FakeEnv()
    env.backend.clock.elapsed = 100.0
    clock = RealTimeClock(env)

    wall["now"] += 7.5  # a tick 7.5 s late (a busy machine, a restarted follower)
    clock.catch_up()
    assert env.backend.clock.elapsed == pytest.approx(107.5)

    env.backend.advance_clock(0.3)  # something else moved it ahead (env.advance_time, say)
    wall["now"] += 0.1
    clock.catch_up()
    assert env.backend.clock.elapsed == pytest.approx(107.8)  # not 107.9: it waits for the wall
    wall["now"] += 0.5
    clock.catch_up()
    assert env.backend.clock.elapsed == pytest.approx(108.1)


async def test_the_playground_closes_its_database_when_it_stops_on_an_error(tmp_path):
    """Its database thread is not a daemon: left open, it kept the process (and a failing test
    run) from ever exiting."""
    seen = {}

    async def scenario(bot, **world):
        seen["db"] = bot.storage._db
        raise RuntimeError("the scenario failed")

    with pytest.raises(RuntimeError):
        await play(tmp_path, scenario)
    seen["db"]._thread.join(timeout=5)
    assert not seen["db"]._thread.is_alive()


def test_a_footers_lines_are_joined_so_the_page_does_not_run_them_together():
    messages = {
        "1": {"embeds": [{"footer": {"text": "12 turns · 0 cards left the game\nShuffle: seed 5"}}]},
        "2": {"embeds": [{"footer": {"text": "one line"}}], "snapshots": [{"footer": {"text": "a\n\nb"}}]},
    }
    livepage.footers_on_one_line(messages)
    assert (
        messages["1"]["embeds"][0]["footer"]["text"] == "12 turns · 0 cards left the game · Shuffle: seed 5"
    )
    assert messages["2"]["embeds"][0]["footer"]["text"] == "one line"
    assert messages["2"]["snapshots"][0]["footer"]["text"] == "a · b"


class FakePreview:
    """What LivePictures uses of SimCord's preview: a page, its assets, the refusals."""

    def __init__(self, refusal: str) -> None:
        from simcord import SetupError

        self.refusal = SetupError(refusal)
        self.page = type("Page", (), {})()
        self.page.id, self.page.channel_id, self.page.viewer = "p1", 1, "viewer"
        self.page.snapshot = {"assets": {"a1": {}}}
        self.page.assets = {"a1": type("Record", (), {"available": True})()}
        self._pages = {"p1": self.page}

    def _authorize_asset(self, page: Any, asset_id: str, **how: Any) -> Any:
        raise self.refusal

    async def _prepare_asset(self, context_id: Any, asset_id: str, **how: Any) -> Any:
        raise self.refusal

    def _publish(self, page: Any, **kwargs: Any) -> None:
        pass

    def _get_page(self, context_id: Any) -> Any:
        return self.page


@pytest.mark.parametrize(
    ("refusal", "may_see", "kept"),
    [
        ("asset is unavailable", True, True),  # edited away: still this page's picture
        ("asset is unavailable", False, False),  # the viewer lost the channel meanwhile
        ("asset access denied", True, False),  # SimCord said no for the viewer's sake
    ],
)
def test_a_picture_the_page_showed_stays_authorized_only_while_its_viewer_may_see_it(refusal, may_see, kept):
    from bot.app.livepictures import LivePictures

    preview = FakePreview(refusal)
    pictures = LivePictures(object(), preview)
    pictures._can_see = lambda *args, **kwargs: may_see
    if kept:
        assert preview._authorize_asset(preview.page, "a1") is preview.page.assets["a1"]
    else:
        with pytest.raises(type(preview.refusal)):
            preview._authorize_asset(preview.page, "a1")
