"""A member's rating game by game (/stats' chart): storage keeps only each rating and the one
before the last game, so the sequence is the server's recorded games replayed in order, as
recording rated them; on both backends."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.community.ratings import NEW, update
from bot.storage import ALL_TIME, FORMER_MEMBER, GameRecord, PlayerRecord, Storage

GUILD = 111
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4


@pytest.fixture
async def storage(storage_target):
    store = await Storage.open(storage_target)
    yield store
    await store.close()


def game(key: str, order: list[int], *, kind: str = "tap", outcome: str = "finished", **seat) -> GameRecord:
    """Users in finishing order: the first wins, scores 10, 9, 8…, places as recording gives them."""
    players = [
        PlayerRecord(user, at, 10 - at, at == 0, f"user{user}", place=at + 1, **seat)
        for at, user in enumerate(order)
    ]
    return GameRecord(key, GUILD, 5, kind, {}, 1, 1000, 2000, outcome, players)


async def test_the_sequence_is_each_rated_games_rating_in_order_a_lost_game_included(storage):
    await storage.record_game(game("g1", [ALICE, BOB]))  # alice wins
    await storage.record_game(game("g2", [BOB, ALICE]))  # alice loses
    await storage.record_game(game("g3", [CAROL, DAVE]))  # not hers, but carol's rating meets her next
    await storage.record_game(game("g4", [CAROL, ALICE, BOB]))  # second of three
    await storage.record_game(replace(game("a", [ALICE, BOB]), outcome="abandoned"))  # rates nobody
    with_computer = game("c", [ALICE, BOB, 99])
    computer = replace(with_computer.players[2], user_id=FORMER_MEMBER, computer=True, name="🤖 Robo 1")
    await storage.record_game(replace(with_computer, players=[*with_computer.players[:2], computer]))
    await storage.record_game(game("k", [BOB, ALICE], kind="other"))  # another game: its own line

    # By hand, as recording rated them.
    a1, b1 = update([NEW, NEW], [1, 2])
    b2, a2 = update([b1, a1], [1, 2])
    c3, d3 = update([NEW, NEW], [1, 2])
    c4, a4, b4 = update([c3, a2, b2], [1, 2, 3])
    _, other = update([NEW, NEW], [1, 2])

    history = await storage.rating_history(GUILD, ALICE)
    assert history == {"tap": [a1, a2, a4], "other": [other]}
    # The numbers /stats shows: the lost game takes 47 off; second of three adds 31.
    assert [r.shown for r in history["tap"]] == [1069, 1022, 1053]
    assert history["tap"][-1] == next(
        r.rating
        for r in await storage.ratings_of(GUILD, ALICE)
        if r.kind == "tap" and r.season_id == ALL_TIME
    )
    assert (await storage.rating_history(GUILD, DAVE)) == {"tap": [d3]}
    assert (await storage.rating_history(GUILD, 5)) == {}  # no game: no history


async def test_a_member_whose_games_rated_nobody_has_no_history(storage):
    with_computer = game("c", [ALICE, 99])
    computer = replace(with_computer.players[1], user_id=FORMER_MEMBER, computer=True, name="🤖 Robo 1")
    await storage.record_game(replace(with_computer, players=[with_computer.players[0], computer]))
    await storage.record_game(replace(game("a", [ALICE, BOB]), outcome="abandoned"))
    assert await storage.rating_history(GUILD, ALICE) == {}


async def test_a_server_that_rates_games_with_computers_replays_them_rated(storage):
    await storage.set_computers_rated(GUILD, True)
    with_computer = game("c", [99, ALICE, BOB])
    computer = replace(with_computer.players[0], user_id=FORMER_MEMBER, computer=True, name="🤖 Robo 1")
    await storage.record_game(replace(with_computer, players=[computer, *with_computer.players[1:]]))
    alice, _ = update([NEW, NEW], [2, 3])  # the computer is not rated; its place still counts
    assert await storage.rating_history(GUILD, ALICE) == {"tap": [alice]}


async def test_a_replay_that_cannot_end_at_the_stored_rating_is_not_shown(storage):
    # The server rated games with computers, then stopped: today's setting cannot say how that
    # game was rated, so the replay would contradict the stored rating, and nothing is drawn.
    await storage.set_computers_rated(GUILD, True)
    with_computer = game("c", [ALICE, BOB, 99])
    computer = replace(with_computer.players[2], user_id=FORMER_MEMBER, computer=True, name="🤖 Robo 1")
    await storage.record_game(replace(with_computer, players=[*with_computer.players[:2], computer]))
    await storage.record_game(game("g", [ALICE, BOB], kind="other"))
    await storage.set_computers_rated(GUILD, False)
    assert list(await storage.rating_history(GUILD, ALICE)) == ["other"]


async def test_a_forgotten_opponent_keeps_the_members_history(storage):
    await storage.record_game(game("g1", [ALICE, BOB]))
    await storage.record_game(game("g2", [ALICE, CAROL]))
    await storage.forget_member(BOB)
    # Bob was a newcomer in his only game: replayed as one, alice's history is unchanged.
    a1, _ = update([NEW, NEW], [1, 2])
    a2, _ = update([a1, NEW], [1, 2])
    assert await storage.rating_history(GUILD, ALICE) == {"tap": [a1, a2]}
