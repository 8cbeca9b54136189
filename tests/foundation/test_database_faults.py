"""The database failing under a game (issue 30): a press's, a timer's, a finish's and a clean-up's
write meets "database is locked" or an I/O error. Nothing is stuck, nothing is silent: the move
stands and its presser is told the truth, the clock goes on, the write is retried from one place
(``bot.session.guarded``) until the database is back, and a finished game is recorded once."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import copy
import logging
import sqlite3

import discord
import pytest
from lobby_buttons import lobby_id
from shown import above, card, controls, labels
from simcord_clock import clock_held_still
from test_discord_faults import board_edits
from test_sessions import scores, start_tap

from bot.session.guarded import RETRY_MAX_S, WRITE_WAIT_S


class Outage:
    """The bot's database failing on the named writes: every call while ``down`` (or only the
    next ``times``), with SQLite's own error."""

    def __init__(self, storage, *names: str, times: int | None = None, error: str = "database is locked"):
        self.down = True
        self.left = times
        self.error = error
        self.hits: collections.Counter[str] = collections.Counter()
        for name in names:
            setattr(storage, name, self._failing(name, getattr(storage, name)))

    def _failing(self, name, real):
        async def call(*args, **kwargs):
            if self.down and (self.left is None or self.left > 0):
                if self.left is not None:
                    self.left -= 1
                self.hits[name] += 1
                raise sqlite3.OperationalError(self.error)
            return await real(*args, **kwargs)

        return call

    def end(self) -> None:
        self.down = False


class Hang:
    """The bot's database hanging on the named writes (a disk or a network that stops answering
    without an error) until ``end``; each call meanwhile waits, then writes for real."""

    def __init__(self, env, *names: str) -> None:
        self.env = env
        self.back = asyncio.Event()
        self.hits: collections.Counter[str] = collections.Counter()
        self.given_up: collections.Counter[str] = collections.Counter()
        storage = env.bot.storage
        for name in names:
            setattr(storage, name, self._hanging(name, getattr(storage, name)))

    def _hanging(self, name, real):
        async def call(*args, **kwargs):
            self.hits[name] += 1
            try:
                await self.env.external_wait(self.back.wait(), reason="the database hangs")
            except asyncio.CancelledError:
                self.given_up[name] += 1
                raise
            return await real(*args, **kwargs)

        return call

    def end(self) -> None:
        self.back.set()


async def failing_tap(world, target: int, *writes: str, **outage) -> Outage:
    """alice and bob start a Tap game to ``target`` taps; then the database fails on ``writes``."""
    await start_tap(world, target=target)
    return Outage(world.env.bot.storage, *writes, **outage)


def told(result) -> list[str]:
    """Everything the presser was told privately: the answer and its followups."""
    texts = [result.response.content] if result.response is not None and result.response.ephemeral else []
    return texts + [f.content or "" for f in result.followups if f.ephemeral]


async def back_saved_and_restored(world, simcord_env, restart_bot, fault) -> None:
    """The database is back (``fault`` ends): the game as played, alice 1 and bob 1, is saved by
    the guard's retry and comes back so after a restart."""
    fault.end()
    await simcord_env.advance_time(RETRY_MAX_S)
    assert (await saved_engine(simcord_env, world.channel.id))["scores"] == [1, 1]
    assert not simcord_env.bot.guard.waiting and simcord_env.bot.guard.database_ok
    await restart_bot()
    await simcord_env.settle()
    assert scores(world) == "alice: 1\nbob: 1"
    assert not simcord_env.errors


async def saved_engine(env, channel_id: int) -> dict:
    for saved in await env.bot.storage.load_sessions():
        if saved.state["channel_id"] == channel_id:
            return saved.state["engine"]
    raise AssertionError("no saved session")


async def test_a_timer_whose_save_fails_keeps_the_game_s_clock_and_saves_once_the_database_is_back(
    world, simcord_env, caplog
):
    caplog.set_level(logging.INFO)
    outage = await failing_tap(world, 5, "save_session", error="disk I/O error")
    await simcord_env.advance_time(31)  # alice's turn passes; its save fails
    assert "Turn 1: **bob**" in card(world.board()).description
    await simcord_env.advance_time(31)  # the clock was set again all the same: bob's passes too
    assert "Turn 2: **alice**" in card(world.board()).description
    lines = [r.getMessage() for r in caplog.records if "the database failed" in r.getMessage()]
    assert len(lines) == 1 and "(tap)" in lines[0] and "disk I/O error" in lines[0]  # once per game
    assert simcord_env.bot.guard.waiting and simcord_env.bot.metrics.stuck() == 0
    outage.end()
    await simcord_env.advance_time(RETRY_MAX_S)
    live = simcord_env.bot.sessions.get(world.channel.id).engine.to_json()["turn"]
    assert live >= 4 and (await saved_engine(simcord_env, world.channel.id))["turn"] == live
    assert not simcord_env.bot.guard.waiting and simcord_env.bot.guard.database_ok
    assert any("went through" in r.getMessage() for r in caplog.records)
    assert not simcord_env.errors


async def test_a_finished_game_whose_clean_up_fails_after_its_record_is_closed_by_a_retry(
    world, simcord_env, caplog
):
    alice = world.members[0]
    await failing_tap(world, 1, "delete_session", times=1)
    storage = simcord_env.bot.storage
    tapped = await alice.click(world.board(), label="Tap")  # recorded; the clean-up fails
    assert tapped.acknowledged and not any("went wrong" in text for text in told(tapped))
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert "failed on its finish" in caplog.text
    assert "Saving its result waits for the database" in above(world.board())
    await simcord_env.advance_time(6)  # the retry: recorded already, so only cleaned up
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert await storage.load_sessions() == []
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert labels(world.board()) == ["Play again"]
    await alice.slash(world.channel, "tap new")  # the channel is free again
    assert card(world.board()).title == "Tap — lobby"
    assert not simcord_env.errors


async def test_a_press_whose_save_fails_counts_and_its_presser_is_told_so(world, simcord_env, restart_bot):
    alice, bob = world.members[:2]
    outage = await failing_tap(world, 5, "save_session")
    tapped = await alice.click(world.board(), label="Tap")
    assert scores(world) == "alice: 1\nbob: 0"  # the move stands, on the board
    texts = told(tapped)
    assert any(text.startswith("Your move counts: the board shows it.") for text in texts)
    assert "Your secret number is" in " ".join(texts)
    assert not any("try again" in text or "went wrong" in text for text in texts)
    again = await alice.click(world.board(), label="Tap")  # not her turn now: the engine says so
    assert told(again) == ["It is not your turn."]
    await bob.click(world.board(), label="Tap")  # the game goes on meanwhile
    assert scores(world) == "alice: 1\nbob: 1"
    await back_saved_and_restored(world, simcord_env, restart_bot, outage)


async def test_a_lobby_press_whose_save_fails_counts_and_its_presser_is_told_so(
    world, simcord_env, restart_bot
):
    alice, bob, carol = world.members[:3]
    await alice.slash(world.channel, "tap new", target=5)
    outage = Outage(simcord_env.bot.storage, "save_session")
    joined = await bob.click(world.board(), custom_id=lobby_id(simcord_env, world.channel, "join"))
    assert card(world.board()).fields[0].value == "1. alice\n2. bob"  # the seat stands, on the lobby
    assert told(joined) == [
        "Your press counts: the lobby shows it. I could not save the lobby just now (the database is "
        "unavailable); I keep trying by myself. If I restart before then, the lobby goes back to how it "
        "was last saved."
    ]
    left = await carol.click(world.board(), custom_id=lobby_id(simcord_env, world.channel, "leave"))
    assert told(left) == ["You are not in this lobby."]  # a refusal saves nothing: only it is said
    started = await alice.click(world.board(), custom_id=lobby_id(simcord_env, world.channel, "start"))
    assert card(world.board()).title == "Tap" and scores(world) == "alice: 0\nbob: 0"  # the game runs
    assert told(started) == [
        "The game has started: the board shows it. I could not save it just now (the database is "
        "unavailable); I keep trying by myself. If I restart before then, the game goes back to its "
        "lobby as it was last saved."
    ]
    assert outage.hits["save_session"] >= 2
    await alice.click(world.board(), label="Tap")  # the game goes on meanwhile
    outage.end()
    await simcord_env.advance_time(RETRY_MAX_S)
    assert (await saved_engine(simcord_env, world.channel.id))["scores"] == [1, 0]
    await restart_bot()
    await simcord_env.settle()
    assert scores(world) == "alice: 1\nbob: 0"
    assert not simcord_env.errors


async def test_a_lobby_press_whose_save_goes_through_says_nothing_of_it(world, simcord_env):
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "tap new", target=5)
    joined = await bob.click(world.board(), custom_id=lobby_id(simcord_env, world.channel, "join"))
    started = await alice.click(world.board(), custom_id=lobby_id(simcord_env, world.channel, "start"))
    assert told(joined) == [] and told(started) == []
    assert not simcord_env.errors


async def test_end_while_the_database_is_down_says_so_and_ends_the_game_once_it_is_back(world, simcord_env):
    alice = world.members[0]
    outage = await failing_tap(world, 5, "record_game")
    storage = simcord_env.bot.storage
    ended = await alice.slash(world.channel, "end")
    assert "it happens by itself as soon as the database is back" in ended.response.content
    assert simcord_env.bot.sessions.get(world.channel.id) is not None
    outage.end()
    await simcord_env.advance_time(6)
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert "recorded as abandoned" in card(world.board()).description
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert not simcord_env.errors


async def test_a_database_down_for_long_is_retried_at_most_a_minute_apart_and_the_game_plays_on(
    world, simcord_env, caplog
):
    outage = await failing_tap(world, 50, "save_session")
    for _ in range(10):
        await simcord_env.advance_time(31)  # every turn passes on time, unsaved
    assert "Turn 10: **alice**" in card(world.board()).description
    assert "still waiting for the database" in caplog.text
    tries = outage.hits["save_session"]
    await simcord_env.advance_time(2 * RETRY_MAX_S)
    assert 1 <= outage.hits["save_session"] - tries <= 3
    outage.end()
    await simcord_env.advance_time(RETRY_MAX_S)
    assert (await saved_engine(simcord_env, world.channel.id))["turn"] >= 10
    assert not simcord_env.bot.guard.waiting
    assert not simcord_env.errors


async def test_a_stop_tries_the_writes_still_waiting_once_more(world, simcord_env):
    alice = world.members[0]
    outage = await failing_tap(world, 5, "save_session")
    await alice.click(world.board(), label="Tap")  # waits on the database
    outage.end()
    assert await simcord_env.bot.guard.flush() == 0  # what GameBot.close does first
    assert (await saved_engine(simcord_env, world.channel.id))["scores"] == [1, 0]
    assert not simcord_env.errors


async def test_a_save_while_a_finish_waits_does_not_take_its_place(world, simcord_env):
    alice = world.members[0]
    outage = await failing_tap(world, 1, "record_game")
    storage = simcord_env.bot.storage
    # The clock held still: the record's first retry (5 s) must not run by the wall clock during
    # these settles (SimCord gives a sleep a real-time fallback), only by the advance below.
    with clock_held_still(simcord_env):
        await alice.click(world.board(), label="Tap")  # over; its record waits
        await alice.slash(world.channel, "board")  # posts the board again, which saves the session
    outage.end()
    await simcord_env.advance_time(RETRY_MAX_S)
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert labels(world.board()) == ["Play again"]
    assert not simcord_env.errors


async def test_a_press_whose_save_hangs_is_answered_within_discord_s_3_s_and_saved_once_it_answers(
    world, simcord_env, caplog, restart_bot
):
    alice, bob = world.members[:2]
    await start_tap(world, target=5)
    hang = Hang(simcord_env, "save_session")
    # The clock held still: only the advance below may give the save up (see tests/simcord_clock.py).
    with clock_held_still(simcord_env):
        tapped = await alice.click(world.board(), label="Tap")  # its save hangs
        assert scores(world) == "alice: 0\nbob: 0" and not tapped.acknowledged
    await simcord_env.advance_time(WRITE_WAIT_S + 0.1)  # given up on: the press goes on
    assert scores(world) == "alice: 1\nbob: 0"  # the move stands, on the board
    assert tapped.acknowledged and not simcord_env.errors
    assert any(text.startswith("Your move counts: the board shows it.") for text in told(tapped))
    assert hang.given_up["save_session"] == 1
    assert "failed on its save (TimeoutError: no answer within 1.5 s)" in caplog.text
    # The game's lock is free: the next press is answered at once, its save joining the wait.
    with clock_held_still(simcord_env):
        await bob.click(world.board(), label="Tap")
    assert scores(world) == "alice: 1\nbob: 1"
    assert hang.hits["save_session"] == 1 and simcord_env.bot.guard.waiting
    await back_saved_and_restored(world, simcord_env, restart_bot, hang)


async def test_a_finish_whose_record_hangs_shows_the_final_board_and_is_recorded_once(world, simcord_env):
    alice = world.members[0]
    await start_tap(world, target=1)
    hang = Hang(simcord_env, "record_game")
    storage = simcord_env.bot.storage
    with clock_held_still(simcord_env):
        await alice.click(world.board(), label="Tap")  # over; its record hangs
    await simcord_env.advance_time(WRITE_WAIT_S + 0.1)
    assert "Saving its result waits for the database" in above(world.board())
    assert hang.given_up["record_game"] == 1
    assert await storage.game_count(world.guild.id, "tap") == 0
    hang.end()
    await simcord_env.advance_time(RETRY_MAX_S)
    assert simcord_env.bot.sessions.get(world.channel.id) is None
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert labels(world.board()) == ["Play again"]
    assert not simcord_env.errors


# Every write to the sessions table notes whether its commit waits for the disk.
NOTE_COMMITS = """
CREATE TABLE commits_noted (status text, synchronous_commit text);
CREATE FUNCTION note_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO commits_noted VALUES (NEW.state::jsonb ->> 'status', current_setting('synchronous_commit'));
    RETURN NEW;
END $$;
CREATE TRIGGER note_commit AFTER INSERT OR UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION note_commit();
"""


def assert_final_board_says_its_record_waits(world) -> None:
    assert "Saving its result waits for the database" in above(world.board())
    assert controls(world.board()) == []  # no game buttons on a game that is over


def final_board_refused(world) -> None:
    """The next press's answer fails once, and every board edit meets a permission taken away."""
    world.env.inject_error("POST", "/interactions/*/callback", status=503, times=1)
    world.env.inject_error(
        "PATCH", f"/channels/{world.channel.id}/messages/*", status=403, code=50013, times=None
    )


async def recorded_once_the_database_is_back(world, outage: Outage) -> None:
    outage.end()
    await world.env.advance_time(RETRY_MAX_S)
    assert await world.env.bot.storage.game_count(world.guild.id, "tap") == 1
    assert labels(world.board()) == ["Play again"]
    assert not world.env.errors


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_finished_game_whose_record_fails_is_recorded_after_the_server_crashes_and_the_bot_restarts(
    world, simcord_env, database, postgres_server, restart_bot
):
    # PostgreSQL's saves do not wait for the disk (synchronous_commit=off), so a server crash may
    # take back the last ones though the bot saw them commit. The finished state, saved before a
    # record that fails, must not be one of them: else the game comes back after a restart as it
    # was before (its lobby, an earlier turn) and is never recorded (the chaos test's Odd One Out
    # 105 on PostgreSQL: "0 records of the game, not 1").
    import asyncpg

    alice = world.members[0]
    await failing_tap(world, 1, "record_game", times=1)
    admin = await asyncpg.connect(database["database_url"])
    try:
        await admin.execute(NOTE_COMMITS)
        await alice.click(world.board(), label="Tap")  # over: saved, then its record fails
        noted = [tuple(row) for row in await admin.fetch("SELECT * FROM commits_noted")]
    finally:
        await admin.close()
    assert "Saving its result waits for the database" in above(world.board())
    assert noted == [("playing", "on")]  # the finished state waited for the disk
    # The server crashes, and the process stops before the guard's retry.
    await asyncio.to_thread(postgres_server.halt)
    await asyncio.to_thread(postgres_server.resume)
    await restart_bot()
    await simcord_env.settle()
    storage = simcord_env.bot.storage
    assert await storage.game_count(world.guild.id, "tap") == 1
    assert await storage.load_sessions() == []
    assert labels(world.board()) == ["Play again"]
    assert not simcord_env.errors


async def test_a_finished_game_whose_record_waits_shows_its_final_board_on_every_redraw(world, simcord_env):
    # /board, or a board deleted, while the record waits: the game is still open, and it was
    # posted again as its last turn, buttons and all, over a game that is over (the chaos test's
    # Monster Masks 314: "board still behind the game" at every checkpoint until the record).
    alice = world.members[0]
    outage = await failing_tap(world, 1, "record_game")
    with clock_held_still(simcord_env):  # the record's retry runs by the advance below only
        await alice.click(world.board(), label="Tap")  # over; its record waits
        final = world.board()
        assert "Saving its result waits for the database" in above(final)
        await alice.slash(world.channel, "board")
    again = world.board()
    assert again.id != final.id  # posted anew, as /board does
    assert "Saving its result waits for the database" in above(again)
    assert card(again).description == card(final).description
    assert controls(again) == []  # no game buttons on a game that is over
    await simcord_env.bot.game_cogs["tap"].board_deleted(
        simcord_env.bot.sessions.get(world.channel.id), again.id
    )
    assert_final_board_says_its_record_waits(world)
    await recorded_once_the_database_is_back(world, outage)


async def test_a_finished_game_whose_final_board_discord_refused_shows_it_at_the_record_s_next_try(
    world, simcord_env
):
    # The last press's answer failed, and the board's REST edit met a permission taken away: the
    # channel kept showing the last turn, buttons and all. Once the permission was back, the
    # record's retries (and presses that moved the game's clock, such as Kabuki's reveal ending)
    # never drew the final board again: it was drawn "once", and that once had been refused (the
    # chaos test's Kabuki 605: "board still behind the game" until the record went through).
    alice = world.members[0]
    outage = await failing_tap(world, 1, "record_game")
    final_board_refused(world)
    with clock_held_still(simcord_env):
        await alice.click(world.board(), label="Tap")  # over; its record waits; no board shows it
    assert "Tap" in labels(world.board())
    simcord_env.backend.faults.clear()  # the permission is back; the database is still down
    await simcord_env.advance_time(RETRY_MAX_S)
    assert outage.hits["record_game"] >= 2
    assert_final_board_says_its_record_waits(world)
    await recorded_once_the_database_is_back(world, outage)


async def test_a_press_refused_while_the_record_waits_sends_the_final_board_on_show_no_more(
    world, simcord_env
):
    # A client still showing the last turn's buttons (a panel, a board not yet refreshed) presses
    # while the record waits: each refusal sent the final board by REST again, though the board
    # message showed it already (a board without buttons was never compared with the one on show).
    alice, bob = world.members[:2]
    outage = await failing_tap(world, 1, "record_game")
    last_turn = world.board()
    kept = copy.deepcopy(simcord_env.backend.get_message(world.channel.id, last_turn.id).components)
    with clock_held_still(simcord_env):
        await alice.click(world.board(), label="Tap")  # over; its record waits
        assert_final_board_says_its_record_waits(world)
        shown = simcord_env.backend.get_message(world.channel.id, last_turn.id)
        final = copy.deepcopy(shown.components)  # the final board, without buttons
        since = len(simcord_env.backend.http_requests)
        for presser in (bob, alice, bob):
            shown.components = copy.deepcopy(kept)  # the stale client's view of the board
            refused = await presser.click(last_turn, label="Tap")
            assert refused.ephemeral and "over" in refused.response.content
        assert board_edits(simcord_env, world.channel.id, since) == 0
    shown.components = final
    await recorded_once_the_database_is_back(world, outage)


async def test_a_save_going_through_inside_a_finish_s_retry_leaves_the_finish_waiting(
    world, simcord_env, monkeypatch
):
    # A game whose final board moves to a new message (Monster Masks in emoji mode) saves the
    # session when it does. In a retry of a finish whose record failed again, that save went
    # through, and the guard took it for the finish itself: the finish was never tried again, and
    # the game stayed open, over and unrecorded (the chaos test's Monster Masks 1, on a variant).
    alice = world.members[0]
    cog = simcord_env.bot.game_cogs["tap"]
    publish = cog._publish

    async def final_board_moved(session, board, interaction=None):
        if session.engine is not None and session.engine.is_over:
            with contextlib.suppress(discord.HTTPException):  # no right to post: edited in place
                await cog.repost(session, board)
                return
        await publish(session, board, interaction)

    monkeypatch.setattr(cog, "_publish", final_board_moved)
    outage = await failing_tap(world, 1, "record_game")
    # The final board shows nowhere: its move refused, then as below.
    simcord_env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=403, code=50013)
    final_board_refused(world)
    with clock_held_still(simcord_env):
        await alice.click(world.board(), label="Tap")  # over; its record waits
    simcord_env.backend.faults.clear()  # the permission is back; the database is still down
    await simcord_env.advance_time(RETRY_MAX_S)  # the retries move the final board, and save
    assert outage.hits["record_game"] >= 3
    assert_final_board_says_its_record_waits(world)
    await recorded_once_the_database_is_back(world, outage)


async def test_a_finished_game_whose_record_waits_is_not_counted_as_stuck(world, simcord_env):
    # Its turn's timer, armed before the last press, must not stay the game's: an over game has no
    # instant to wait for, and its record's wait is the guard's, retried and counted apart.
    alice = world.members[0]
    outage = await failing_tap(world, 1, "record_game")
    await alice.click(world.board(), label="Tap")  # over; its record waits
    await simcord_env.advance_time(100)  # past the turn's deadline, by more than a minute
    assert simcord_env.bot.guard.waiting and outage.hits["record_game"] >= 2
    assert simcord_env.bot.metrics.stuck() == 0
    outage.end()
    await simcord_env.advance_time(RETRY_MAX_S)
    assert await simcord_env.bot.storage.game_count(world.guild.id, "tap") == 1
    assert not simcord_env.errors


async def test_a_read_the_database_fails_or_leaves_unanswered_is_answered_privately(
    world, simcord_env, caplog
):
    # /leaderboard, /stats and /replay read; a read has nothing to keep for later, so the member is
    # told to ask again. A PostgreSQL statement left unanswered raises TimeoutError
    # (bot.storage.postgres.STATEMENT_WAIT_S; test_storage.py holds a lock to check it).
    storage = simcord_env.bot.storage
    for error in (TimeoutError("no answer"), sqlite3.OperationalError("disk I/O error")):

        async def failing(*args, error=error, **kwargs):
            raise error

        storage.leaderboard = failing
        result = await world.members[0].slash(world.channel, "leaderboard", game="tap", sort="wins")
        assert result.response is not None and result.response.ephemeral
        assert result.response.content == (
            "I could not reach my database just now. Nothing changed; try again in a minute."
        )
    # SimCord lists every command's error, answered or not: these two are the database's, and
    # nothing was logged as a bug.
    assert [type(error.original) for error in simcord_env.errors] == [TimeoutError, sqlite3.OperationalError]
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_game_started_just_before_the_server_crashes_comes_back_started(
    world, simcord_env, database, postgres_server, restart_bot
):
    # Saves do not wait for the disk, so a crash may take back the last ones the bot saw commit.
    # The start's must not be one of them: the game came back after a restart as its lobby, the
    # turns played since undone at once, and a lobby closed is never recorded (the chaos test's
    # Kingdom 302 on PostgreSQL: "0 records of the game, not 1"). The start's save waits for the
    # disk, as a finished game's does; the saves around it do not.
    import asyncpg

    admin = await asyncpg.connect(database["database_url"])
    try:
        await admin.execute(NOTE_COMMITS)
        await start_tap(world, target=3)
        noted = [tuple(row) for row in await admin.fetch("SELECT * FROM commits_noted")]
        await world.members[0].click(world.board(), label="Tap")
        after = [tuple(row) for row in await admin.fetch("SELECT * FROM commits_noted")][len(noted) :]
    finally:
        await admin.close()
    assert noted == [("lobby", "off"), ("lobby", "off"), ("playing", "on")]
    assert after == [("playing", "off")]  # the turns played after it do not wait
    await asyncio.to_thread(postgres_server.halt)  # a crash, at once
    await asyncio.to_thread(postgres_server.resume)
    await restart_bot()
    await simcord_env.settle()
    session = simcord_env.bot.sessions.get(world.channel.id)
    assert session is not None and session.status == "playing"
    assert not simcord_env.errors
