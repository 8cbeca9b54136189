"""/replay through SimCord: a finished game of each title, step by step in a private message, the
board at each step as the engine stood then, what it hid face up, the shuffle's verdict, buttons
that still work after a restart, and polite refusals."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from language_checks import EMBED_TOTAL, LIMITS
from shown import above, card, cards, controls, labels
from test_verify_replay import REPLAYED, record_of, swap_two_cards
from worlds import build_world

from bot import __main__ as cli
from bot.community.replay_board import FACE_UP_TITLE, public_board, replay_moments
from bot.community.replay_share import NOT_A_PLAYER_DOWNLOAD, NOT_A_PLAYER_POST
from bot.community.replays import history, steps, title, verify
from bot.games.kabuki.board import mask
from bot.games.kingdom.cards import NAMES as KINGDOM_CARDS
from bot.games.masks.faces import monster_name
from bot.glue import layout
from bot.storage import FORMER_MEMBER, GameRecord, PlayerRecord

GAMES = REPLAYED  # every registered game that keeps its record
NAV_LABELS = ("⏮", "◀", "▶", "⏭", "−10", "+10")
ENDED_MS = 1_700_000_000_000  # 2023-11-14 22:13 UTC


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(GAMES)


async def keep(world, rec, key, *, channel=None, seated=None, ended=ENDED_MS):
    """Store ``rec`` as a finished game of the world's members (``seated``: their names, None for
    a forgotten member's seat) in ``channel``."""
    channel = channel or world.channel
    members = world.members[: rec["players"]]
    names = seated or [m.name for m in members]
    seats = [
        PlayerRecord(m.id if names[s] else FORMER_MEMBER, s, 0, False, names[s])
        for s, m in enumerate(members)
    ]
    record = GameRecord(
        key,
        world.guild.id,
        channel.id,
        rec["game"],
        rec["options"],
        rec["seed"],
        0,
        ended,
        "finished",
        seats,
        rec,
    )
    assert await world.env.bot.storage.record_game(record)
    return names


def engine_at(rec, names, step):
    for number, (text, engine) in enumerate(steps(rec, names), 1):
        if number == step:
            return text, engine
    raise AssertionError(f"no step {step}")


def secrets_of(kind, engine, names):
    """What only the face-up part may show at this step, in the cards' own names."""
    if kind == "kabuki":
        return [mask(card) for stack in engine.stacks for card in stack]
    if kind == "masks":
        turn = engine.history[-1] if engine.history else None
        return [f"Turn {turn['turn']}'s card: **{monster_name(turn['card'])}**"] if turn else []
    if kind != "kingdom":  # a game these tests do not know: what its history hides
        return [history(kind).hidden(engine, names)]
    return [
        f"{names[s]}: **{KINGDOM_CARDS[card >> 1]}**"
        for s, card in enumerate(engine.hands)
        if card is not None
    ]


def pages_of(rec, names):
    return replay_moments(rec, names, "k1")[0]


def pager(rec, names, page):
    """What page ``page`` says it shows: the record's steps, counted as the verdict counts them
    ("all 84 steps"), a range where steps that changed nothing share the page."""
    moments = pages_of(rec, names)
    first = moments[page - 2].step + 1 if page > 1 else 1
    last, total = moments[page - 1].step, len(list(steps(rec, names)))
    return f"Step **{last} / {total}**" if first == last else f"Steps **{first}–{last} / {total}**"


def as_shown(embed):
    """``embed`` as a card shows it, read back (``shown.card``): what a page's card must equal."""
    return card(SimpleNamespace(components=layout.card(embed)))


def assert_page(shown, rec, names, step, count):
    """The private page shows page ``step``: what it did, the public board as the engine stood
    just after it, and the board's secrets face up."""
    moment = pages_of(rec, names)[step - 1]
    _, engine = engine_at(rec, names, moment.step)
    message = shown.response
    assert f"{pager(rec, names, step)}: {moment.text}" in above(message)
    board, face_up = cards(message)
    expected = public_board(rec["game"], engine, names, "k1").embed
    assert board.to_dict() == as_shown(expected).to_dict()
    assert face_up.title == FACE_UP_TITLE
    for secret in secrets_of(rec["game"], engine, names):
        assert secret in face_up.description
    return engine


@pytest.mark.parametrize("kind", GAMES)
async def test_replay_steps_through_the_last_game_in_this_channel_face_up(world, restart_bot, kind):
    rec = record_of(kind)
    names = await keep(world, rec, "k1")
    count = len(pages_of(rec, names))
    alice = world.members[0]
    shown = await alice.slash(world.channel, "replay")
    assert shown.ephemeral
    said = above(shown.response)
    assert f"**Replay: {title(kind)}**" in said and f"<#{world.channel.id}>" in said
    assert "✅ Shuffle verified:" in said
    assert f"SHA-256 of {rec['salt']}:{rec['seed']}" in said
    assert_page(shown, rec, names, 1, count)
    message = shown.response
    assert labels(message) == [
        *NAV_LABELS,
        "Post in channel",
        "Download record",
    ]
    # Every press edits the same private message in place.
    for label, step in [("▶", 2), ("+10", 12), ("◀", 11), ("−10", 1), ("+10", 11)]:
        pressed = await alice.click(message, label=label)
        assert pressed.response.id == message.id
        message = pressed.response
        assert_page(pressed, rec, names, step, count)
    # The buttons are rebuilt from their custom ids after a restart.
    await restart_bot(GAMES)
    pressed = await alice.click(message, label="▶")
    assert_page(pressed, rec, names, 12, count)
    last = await alice.click(pressed.response, label="⏭")
    engine = assert_page(last, rec, names, count, count)
    assert engine.is_over
    assert cards(last.response)[0].title.endswith(" — game over")
    first = await alice.click(last.response, label="⏮")
    assert_page(first, rec, names, 1, count)


async def test_a_game_picked_from_the_members_recent_games(world, simcord_env):
    kabuki, masks = record_of("kabuki"), record_of("masks")
    other = world.guild.create_text_channel("lounge")
    await keep(world, kabuki, "kabukigame", channel=other)
    await keep(world, masks, "masksgame", ended=ENDED_MS - 3_600_000)  # an hour before: listed second
    alice, frank = world.members[0], world.members[5]
    offered = await alice.autocomplete(world.channel, "replay", "game", "")
    assert [(c["name"], c["value"]) for c in offered] == [
        ("Kabuki · 2023-11-14 22:13 UTC · #lounge", "kabukigame"),
        ("Island of Monster Masks · 2023-11-14 21:13 UTC · #games", "masksgame"),
    ]
    typed = await alice.autocomplete(world.channel, "replay", "game", "kabu")
    assert [c["value"] for c in typed] == ["kabukigame"]
    assert await frank.autocomplete(world.channel, "replay", "game", "") == []  # seated in neither
    shown = await alice.slash(world.channel, "replay", game="kabukigame")
    assert "**Replay: Kabuki**" in above(shown.response) and f"<#{other.id}>" in above(shown.response)
    # Anyone in the server may watch a finished game: nothing in it is secret any more.
    watched = await frank.slash(world.channel, "replay", game="kabukigame")
    assert watched.ephemeral and "Step **1 / " in above(watched.response)
    # He did not play it: no Post in channel, no Download record.
    assert labels(watched.response) == [*NAV_LABELS]


async def test_refusals_change_nothing(world, simcord_env):
    alice = world.members[0]
    empty = await alice.slash(world.channel, "replay")
    assert empty.ephemeral and "No finished game has been kept in this channel yet" in empty.response.content
    unknown = await alice.slash(world.channel, "replay", game="nosuchgame")
    assert (
        unknown.ephemeral and "I keep no finished game like that in this server" in unknown.response.content
    )
    elsewhere = build_world(simcord_env, guild_name="Other")
    await keep(elsewhere, record_of("masks"), "theirs")
    theirs = await alice.slash(world.channel, "replay", game="theirs")
    assert theirs.ephemeral and "I keep no finished game like that in this server" in theirs.response.content
    assert not theirs.response.embeds and not theirs.response.components


async def test_a_forgotten_members_seat_is_a_former_member(world):
    rec = record_of("kingdom")
    names = ["alice", None, "carol", "dave", "erin"]
    await keep(world, rec, "k1", seated=names)
    shown = await world.members[0].slash(world.channel, "replay")
    board, face_up = cards(shown.response)
    text = board.description + face_up.description
    assert "a former member" in text and "bob" not in text


async def test_a_tampered_record_does_not_verify(world):
    rec = record_of("kabuki")
    swap_two_cards(rec)
    await keep(world, rec, "k1")
    shown = await world.members[0].slash(world.channel, "replay")
    content = above(shown.response)
    assert "⚠️ Shuffle not verified: log entry 0 (round, round 1): card 1 of the deck is" in content
    assert "This game's record does not replay" in content
    assert "✅" not in content
    # No steps to walk nor to post; its players may still take the record to look into it.
    assert labels(shown.response) == ["Download record"]


async def test_a_stored_record_without_its_commitment_says_it_cannot_be_checked(world, locales):
    """A game stored without a commitment (a session saved before salts existed, or a record
    someone stripped) is never shown as a fair deal, in any language."""
    rec = {k: v for k, v in record_of("masks").items() if k not in ("salt", "commitment")}
    await keep(world, rec, "m1")
    alice, bob = world.members[0], world.members[1]
    locales.members[bob.id] = "de"
    content = above((await alice.slash(world.channel, "replay")).response)
    assert (
        "⚠️ Shuffle cannot be checked: this record carries no shuffle commitment, so nothing shows "
        "the seed was fixed before the deal."
    ) in content
    assert "✅" not in content and "simulated" not in content
    german = above((await bob.slash(world.channel, "replay")).response)
    assert "⚠️ Mischen nicht überprüfbar" in german and "Shuffle" not in german


# What only a game in play shows: a clock (Discord's relative time stamps), a call to press
# something, a timer running out.
LIVE = re.compile(r"<t:\d+:R>|[Pp]ress(es)? \*\*|Time's up|time runs out|starts <t:|Remember what lies")


def embeds_text(message):
    return json.dumps([e.to_dict() for e in cards(message)], ensure_ascii=False)


@pytest.mark.parametrize("kind", GAMES)
def test_every_page_shows_no_live_clock_or_instruction_and_changes_the_board(kind):
    rec = record_of(kind)
    names = ["alice", "bob", "carol", "dave", "erin", "frank"][: rec["players"]]
    moments = pages_of(rec, names)
    said = [text for text, _ in steps(rec, names)]
    # Every step is said once, in order: a step that changed nothing shares the next page.
    assert [m.step for m in moments] == sorted({m.step for m in moments}) and moments[-1].step == len(said)
    joined, start = [], 0
    for moment in moments:
        joined.append(" · ".join(said[start : moment.step]))
        start = moment.step
    assert [m.text for m in moments] == joined
    for before, after in zip(moments, moments[1:], strict=False):
        assert (before.board.to_dict(), before.hidden) != (after.board.to_dict(), after.hidden), after.text
    for moment in moments:
        shown = json.dumps(moment.board.to_dict(), ensure_ascii=False)
        assert not LIVE.search(shown), (moment.text, LIVE.search(shown))


@pytest.mark.parametrize("kind", GAMES)
async def test_stepping_through_a_replay_each_page_differs_and_shows_no_clock(world, kind):
    rec = record_of(kind)
    names = await keep(world, rec, "k1")
    alice = world.members[0]
    shown = await alice.slash(world.channel, "replay")
    message, seen = shown.response, [embeds_text(shown.response)]
    for _ in range(8):
        message = (await alice.click(message, label="▶")).response
        seen.append(embeds_text(message))
        assert not LIVE.search(seen[-1]) and seen[-1] != seen[-2]
    assert not LIVE.search(seen[0])
    if kind == "masks":  # slaps in a race still being decided share the page where it is decided
        second = (await alice.click(message, label="⏮")).response
        second = (await alice.click(second, label="▶")).response
        line = next(line for line in above(second).splitlines() if line.startswith(pager(rec, names, 2)))
        assert " slaps " in line and " · " in line and line.endswith(pages_of(rec, names)[1].text)


def custom_ids(message):
    return [c.custom_id for c in controls(message)]


def public_messages(world, viewer):
    return [m for m in world.channel.history(viewer=viewer) if not m.flags.ephemeral]


async def test_a_player_posts_the_step_they_watch_for_the_channel_once_in_ten_minutes(world, restart_bot):
    rec = record_of("kabuki")
    key = "0123456789abcdef" * 4  # the longest key a custom id takes: 64 characters
    names = await keep(world, rec, key)
    count = len(pages_of(rec, names))
    alice, bob, frank = world.members[0], world.members[1], world.members[5]  # frank did not play
    page = (await alice.slash(world.channel, "replay")).response
    page = (await alice.click(page, label="+10")).response
    assert all(len(cid) <= 100 and cid.split(":")[1] == key for cid in custom_ids(page))
    posted = await alice.click(page, label="Post in channel")
    public = posted.response
    assert not public.ephemeral and public.channel_id == world.channel.id
    assert above(public).startswith("📣 **alice** posted this replay of a finished game.")
    assert f"{pager(rec, names, 11)}\n✅ Shuffle verified:" in above(public)
    assert pages_of(rec, names)[10].text not in above(public)  # the step's words are written face up
    # The board as the channel saw it at that step; what it hid stays in the private view.
    assert [e.to_dict() for e in cards(public)] == [cards(page)[0].to_dict()]
    _, engine = engine_at(rec, names, pages_of(rec, names)[10].step)
    view = engine.view(None)
    shown = {s["top"] for s in view["stacks"]} | ({view["current"]["card"]} if view["current"] else set())
    buried = {c for stack in engine.stacks for c in stack[:-1]} - shown  # as test_kabuki_discord_game
    assert buried and not any(mask(card) in embeds_text(public) + above(public) for card in buried)
    assert labels(public) == ["Watch it yourself"]
    assert custom_ids(public) == [f"rwatch:{key}:11"]
    # Everyone in the channel sees it; whoever presses Watch gets the replay privately there.
    assert [m.id for m in public_messages(world, frank)] == [public.id]
    watched = await frank.click(public, label="Watch it yourself")
    assert watched.ephemeral and pager(rec, names, 11) in above(watched.response)
    assert cards(watched.response)[1].title == FACE_UP_TITLE
    # frank did not play: he may watch, but neither post it nor take its record, so his page
    # shows no button that could only refuse him.
    assert labels(watched.response) == [*NAV_LABELS]
    # Another player, a minute later: the same game was posted here just now.
    await world.env.advance_time(60)
    again = (await bob.slash(world.channel, "replay")).response
    too_soon = await bob.click(again, label="Post in channel")
    assert too_soon.ephemeral and too_soon.response.content.startswith(
        "This game's replay was posted in this channel <t:"
    )
    assert "it can be posted here again <t:" in too_soon.response.content
    assert [m.id for m in public_messages(world, frank)] == [public.id]
    # Ten minutes after the first post it may be posted again; the buttons outlive a restart.
    await world.env.advance_time(9 * 60 + 1)
    await restart_bot(GAMES)
    again = (await bob.click(again, label="⏭")).response
    second = (await bob.click(again, label="Post in channel")).response
    assert not second.ephemeral and above(second).startswith("📣 **bob** posted")
    assert f"{pager(rec, names, count)}" in above(second) and card(second).title == "Kabuki — game over"
    # The last Stop! revealed a stack the channel never saw (the final board keeps it hidden).
    _, engine = engine_at(rec, names, pages_of(rec, names)[-1].step)
    tops = {s["top"] for s in engine.view(None)["stacks"]}
    hidden = {c for stack in engine.stacks for c in stack[:-1]} - tops
    assert hidden and not any(mask(card) in embeds_text(second) + above(second) for card in hidden)
    watched = await frank.click(public, label="Watch it yourself")
    assert watched.ephemeral and pager(rec, names, 11) in above(watched.response)
    assert len(public_messages(world, frank)) == 2
    # A page shown while its viewer was a player, pressed after /forget-me took their seat away,
    # still refuses: the buttons only stop being offered, the check stays.
    await world.env.bot.storage.forget_member(alice.id)
    refused = await alice.click(page, label="Post in channel")
    assert refused.ephemeral and refused.response.content == NOT_A_PLAYER_POST
    refused = await alice.click(page, label="Download record")
    assert refused.ephemeral and refused.response.content == NOT_A_PLAYER_DOWNLOAD
    assert not refused.response.attachments


async def test_a_player_downloads_the_record_verify_reads(world, tmp_path):
    rec = record_of("masks")
    await keep(world, rec, "k1")
    alice = world.members[0]
    page = (await alice.slash(world.channel, "replay")).response
    got = await alice.click(page, label="Download record")
    assert got.ephemeral and "python -m bot verify masks-k1.json" in got.response.content
    (attachment,) = got.response.attachments
    assert attachment.filename == "masks-k1.json"
    data = world.env.backend.cdn.get(attachment.url)
    stored = await world.env.bot.storage.game_log(world.guild.id, "k1")
    assert json.loads(data) == stored.log == rec
    assert verify(json.loads(data)).verified
    path = tmp_path / attachment.filename
    path.write_bytes(data)
    assert cli.main(["verify", str(path)]) == 0
    assert not public_messages(world, world.members[5])  # nothing was posted in the channel


@pytest.mark.simcord(settle_timeout=0.5)  # computers think for 1.2 s at least (test_computers.py)
async def test_a_game_played_here_downloads_as_a_record_that_says_so_and_verifies(
    world, simcord_env, tmp_path
):
    alice = world.members[0]
    await alice.slash(world.channel, "masks new", guess_seconds=5)
    for _ in range(2):
        await alice.click(world.board(), label="Add computer")
    await alice.click(world.board(), label="Start")
    for _ in range(2000):
        if simcord_env.bot.sessions.get(world.channel.id) is None:
            break
        await simcord_env.advance_time(3)
    page = (await alice.slash(world.channel, "replay")).response
    assert "✅ Shuffle verified: Island of Monster Masks" in above(page)
    (attachment,) = (await alice.click(page, label="Download record")).response.attachments
    rec = json.loads(world.env.backend.cdn.get(attachment.url))
    assert rec["source"] == "discord" and rec["commitment"]  # what the session layer stored
    path = tmp_path / "game.json"
    path.write_text(
        json.dumps({key: value for key, value in rec.items() if key not in ("salt", "commitment")})
    )
    assert cli.main(["verify", str(path)]) == 1  # stripped of its commitment, it no longer passes
    last = (await alice.click(page, label="⏭")).response
    assert "game over" in cards(last)[0].title and not LIVE.search(embeds_text(last))


@pytest.mark.parametrize("kind", GAMES)
def test_every_replay_board_of_every_registered_game_fits_discords_limits(kind):
    """Its embed, the only part of it a page shows, with the longest names a seat can have."""
    rec = record_of(kind)
    names = ["a-member-with-a-long-display-name"[: 32 - s] for s in range(rec["players"])]
    for text, engine in steps(rec, names):
        board = history(kind).replay_board(engine, names, "k1")
        embed = board.embed
        assert (
            len(embed.title or "") <= LIMITS["title"]
            and len(embed.description or "") <= LIMITS["description"]
        )
        assert len(embed.fields) <= 25 and len(embed) <= EMBED_TOTAL, text
        for field in embed.fields:
            assert len(field.name) <= LIMITS["field_name"] and len(field.value) <= LIMITS["field_value"], text


@pytest.mark.parametrize("kind", ["kabuki", "masks", "kingdom"])
async def test_the_pager_counts_the_steps_the_verdict_counts(world, kind):
    """One number: the last page says "Step 84 / 84" where the verdict says "all 84 steps",
    not the pages' count (Monster Masks' slaps in a race share a page)."""
    rec = record_of(kind)
    await keep(world, rec, "k1")
    alice = world.members[0]
    shown = (await alice.slash(world.channel, "replay")).response
    last = (await alice.click(shown, label="⏭")).response
    said = above(last)
    counted = re.search(r"and all (\d+) steps replay", said)[1]
    assert re.search(rf"^Steps? \*\*(\d+–)?{counted} / {counted}\*\*: ", said, re.MULTILINE), said
