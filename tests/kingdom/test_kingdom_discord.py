"""Death Over the Kingdom through SimCord: whole games, private cards, refusals, timer, restart."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from simcord.actors import _component_interaction

sys.path.insert(0, str(Path(__file__).parent))

from replay_checks import assert_stored_record_verifies  # noqa: E402
from shown import button, card, controls, is_card, labels, rows  # noqa: E402
from test_kingdom_discord_support import (  # noqa: E402
    action_rows,
    assert_public_secrecy,
    board_of,
    bound,
    card_of,
    card_panel,
    engine_of,
    nested,
    open_game,
    press,
    rig,
    seat_line,
    session_of,
    show_components,
    snapshot_components,
)

from bot.games.kingdom import board as kingdom_board  # noqa: E402
from bot.games.kingdom import pictures  # noqa: E402
from bot.games.kingdom.board import POWERS  # noqa: E402
from bot.games.kingdom.cards import BARD, CLOWN, DEATH, KING, MONK, PRINCESS, QUEEN, THIEF, TRADER  # noqa: E402
from bot.games.kingdom.pictures import card_png, reveal_png  # noqa: E402
from bot.games.kingdom.players import SimplePlayer  # noqa: E402
from bot.i18n import shipped  # noqa: E402

NAMES = ["alice", "bob", "carol", "dave"]


async def play_to_the_end(world, members, seed: int, check_secrecy: bool = True):
    """Every seat plays what a simple computer player would, through the board, until the end.
    Returns the engine (over)."""
    env, channel = world.env, world.channel
    names = NAMES[: len(members)]
    brain = SimplePlayer(seed)
    engine = engine_of(env, channel)
    for _ in range(2000):
        engine = engine_of(env, channel) or engine
        if engine.is_over:
            return engine
        if engine.phase == "reveal":
            await press(env, channel, members[0], {"type": "next"})
            continue
        seat, version, board_id = engine.active, engine.version, session_of(env, channel).board_message_id
        action = brain.choose(engine, seat)
        result = await press(env, channel, members[seat], action)
        assert engine.version > version, f"a legal press was refused: {action}"
        if action["type"] in POWERS:  # played from the presser's card panel, which it replaces
            assert result.response.ephemeral and controls(result.response) == []
        else:
            assert result.response.id == board_id
        if check_secrecy:
            assert_public_secrecy(env, channel, world.mod, engine, names)
    raise AssertionError("the game did not end")


async def standings(world):
    rows, _ = await world.env.bot.storage.leaderboard(world.guild.id, "kingdom", lower_score_wins=True)
    return {row.user_id: row for row in rows}


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])  # the whole game on each storage
async def test_classic_game_with_four_members_is_played_to_the_end_and_recorded(world):
    members = await open_game(world, 4, mode="classic", length=3)
    first_footer = card(world.channel.last_message).footer.text
    engine = await play_to_the_end(world, members, seed=3)

    assert engine.round == 12
    final = card(world.channel.last_message)
    assert final.title == "Death Over the Kingdom — game over"
    winners = engine.result().winners
    for seat in winners:
        assert f"**{NAMES[seat]}**" in final.description.split("\n")[0]
    assert labels(world.channel.last_message) == ["Play again"]
    rows = await standings(world)
    for seat, member in enumerate(members):
        assert rows[member.id].score == engine.tokens[seat]
        assert rows[member.id].wins == (seat in winners)
    assert world.env.bot.sessions.get(world.channel.id) is None
    rec = await assert_stored_record_verifies(
        world.env.bot.storage, world.guild.id, world.channel.id, first_footer, final.footer.text
    )
    assert rec["standings"]["tokens"] == engine.tokens


async def test_only_one_game_is_played_to_the_end_and_records_tokens_lost(world):
    members = await open_game(world, 3, mode="only-one")
    engine = await play_to_the_end(world, members, seed=5, check_secrecy=False)

    result = engine.result()
    assert len(result.winners) >= 1 and all(
        not engine.out[s] or len(result.winners) > 1 for s in result.winners
    )
    final = card(world.channel.last_message)
    eliminated = next(f for f in final.fields if f.name.startswith("Eliminated"))
    for seat in engine.eliminated[0]:
        assert NAMES[seat] in eliminated.value
    rows = await standings(world)
    for seat, member in enumerate(members):
        assert rows[member.id].score == 5 - engine.tokens[seat]  # tokens lost: fewer is better
        assert rows[member.id].wins == (seat in result.winners)


def lobby_state(message) -> tuple[str, str, bool]:
    """The lobby's "needs" sentence, its Players heading and whether Start can be pressed."""
    embed = card(message)
    start = button(message, "Start")
    return embed.description.splitlines()[-1], embed.fields[0].name, not start.disabled


async def test_the_first_board_names_the_dealer_drawn_at_random_and_their_right_plays_first(world):
    await open_game(world, 4)
    engine = engine_of(world.env, world.channel)
    dealer = engine.view(None)["dealer"]
    description = card(board_of(world.env, world.channel, world.mod)).description
    assert f"🎲 **{NAMES[dealer]}** was drawn at random to deal first." in description
    assert engine.order[0] == (dealer + 1) % 4 and "🎴 dealer" in seat_line(description, NAMES[dealer])


async def test_the_lobby_counts_and_start_follow_the_chosen_modes_player_range(world):
    alice, bob, carol = world.members[:3]
    await alice.slash(world.channel, "kingdom new", mode="classic")
    await bob.click(world.channel.last_message, label="Join")
    lobby = world.channel.last_message
    assert lobby_state(lobby) == (
        "Press **Join** to take a seat. The host starts the game when 3–16 players are seated.",
        "Players (2/16)",
        False,
    )
    # A client that still shows Start enabled gets a refusal, and nothing starts.
    stored = world.env.backend.get_message(world.channel.id, lobby.id)
    start = {"custom_id": f"pc:{world.channel.id}:start:", "component_type": 2}
    refused = await _component_interaction(alice, stored, start)
    assert refused.ephemeral and "needs 3–16 players; 2 seated" in refused.response.content
    assert session_of(world.env, world.channel).engine is None
    await carol.click(lobby, label="Join")
    assert lobby_state(world.channel.last_message)[1:] == ("Players (3/16)", True)
    await alice.slash(world.channel, "end")

    await alice.slash(world.channel, "kingdom new", mode="only-one")
    await bob.click(world.channel.last_message, label="Join")
    lobby = world.channel.last_message
    assert lobby_state(lobby)[1:] == ("Players (2/20)", True)
    assert "2–20 players are seated" in lobby_state(lobby)[0]
    await alice.click(lobby, label="Start")
    assert engine_of(world.env, world.channel).mode == "only-one"


# ------------------------------------------------------------------ what each member can see
async def test_my_card_is_private_and_received_cards_reach_only_their_holder(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    engine = await rig(env, channel, alice, [THIEF, CLOWN, PRINCESS, DEATH])
    names = NAMES

    mine = await alice.click(board_of(env, channel, alice), label="My card")
    assert mine.ephemeral and "Thief (3)" in card(mine.response).title
    assert "Your turn" in card(mine.response).description
    picture = mine.response.attachments[0]
    assert picture.filename == "card.png" and await picture.read() == card_png(THIEF)
    assert mine.response.id not in {m.id for m in channel.history(viewer=bob)}
    # On her turn her card panel offers the Thief on the later players, and My card again (to see
    # the card held now in this panel); the board offers no power.
    powers, again = controls(mine.response)
    assert again.label == "My card" and again.custom_id == bound(env, channel, f"pc:{channel.id}:card:")
    # Ids and values never name the card.
    assert powers.custom_id == bound(env, channel, f"ps:{channel.id}:power")
    assert powers.values == [f"{engine.version}.{t}" for t in (1, 2, 3)]
    assert [o["label"] for o in powers.options] == [
        "🕵️ Thief: look at bob's card",
        "🕵️ Thief: look at carol's card",
        "🕵️ Thief: look at dave's card",
    ]
    board_ids = [c.custom_id for c in controls(board_of(env, channel, bob))]
    assert not any(name in custom_id for custom_id in board_ids for name in ("power", "thief", "bard"))
    waiting = await carol.click(board_of(env, channel, carol), label="My card")  # reachable later
    assert labels(waiting.response) == ["My card"]
    assert "Not your turn" in card(waiting.response).description
    assert_public_secrecy(env, channel, world.mod, engine, names)

    looked = await press(env, channel, alice, {"type": "thief", "target": 2})
    peek = looked.response  # the look replaces her spent panel
    assert peek.ephemeral and "carol holds: Princess" in card(peek).title and controls(peek) == []
    assert peek.id not in {m.id for m in channel.history(viewer=carol)}
    description = card(board_of(env, channel, bob)).description
    assert "looked at **carol**'s card" in description and "Princess" not in description
    assert_public_secrecy(env, channel, world.mod, engine, names)

    took = await press(env, channel, alice, {"type": "swap"})
    assert "Princess" in card(took.followups[0]).title
    carols = [m for m in channel.history(viewer=carol) if m.flags.ephemeral and is_card(m)]
    assert "Your new card: Thief" in card(carols[-1]).title
    assert carols[-1].id not in {m.id for m in channel.history(viewer=bob)}

    # bob exchanges with carol (reachable: a followup), then carol with dave, who never pressed
    # anything: the board tells dave to look.
    await press(env, channel, bob, {"type": "exchange", "target": 2})
    assert "Your new card: Clown" in card([m for m in channel.history(viewer=carol) if is_card(m)][-1]).title
    await press(env, channel, carol, {"type": "exchange", "target": 3})
    board = card(board_of(env, channel, dave)).description
    assert "**dave**, your card changed: press 🃏 **My card**" in board
    looked = await dave.click(board_of(env, channel, dave), label="My card")
    assert "Clown (4)" in card(looked.response).title
    # He has looked: the board stops asking him to (it kept asking until the game's next change).
    assert "your card changed" not in card(board_of(env, channel, dave)).description
    assert_public_secrecy(env, channel, world.mod, engine, names)


async def test_the_exchange_is_drawn_beside_the_seat_it_acts_on(world):
    """The card draws Exchange next to the line of the seat it exchanges with, not in the row of
    moves under the card; the row keeps the moves on no one seat (Stand, My card)."""
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [CLOWN, PRINCESS, DEATH, QUEEN])
    board = board_of(env, channel, world.mod)
    description = card(board).description

    beside = [c for c in controls(board) if c.beside is not None]
    assert [c.label for c in beside] == ["Exchange with bob"]
    assert "**bob**" in beside[0].beside and beside[0].beside == seat_line(description, "bob")
    assert beside[0].custom_id == bound(
        env, channel, f"pc:{channel.id}:exchange:{engine_of(env, channel).version}.1"
    )
    assert [[c.label for c in row] for row in rows(board)] == [["Stand", "My card"]]
    # Pressed where it is drawn, it exchanges with bob.
    await alice.click(board, label="Exchange with bob")
    assert engine_of(env, channel).active == 1 and engine_of(env, channel).char(0) == PRINCESS


async def test_the_deck_order_reaches_no_member(world, monkeypatch):
    """The engine tells the shuffle and the deck after a draw to nobody (``to=()``): the session
    layer renders them for no seat, while the cards received still go to their holders."""
    rendered = []
    # The bot's own class: discord.py runs an extension's module anew for each bot it loads.
    cog_class = type(world.env.bot.game_cogs["kingdom"])
    real = cog_class.render_private

    def spy(self, session, seat, event):
        rendered.append(event.kind)
        return real(self, session, seat, event)

    monkeypatch.setattr(cog_class, "render_private", spy)
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    engine = await rig(env, channel, alice, [TRADER, CLOWN, PRINCESS, DEATH], deck=[QUEEN])
    await press(env, channel, alice, {"type": "trader"})  # a draw from the deck
    for member in (bob, carol, dave):
        await press(env, channel, member, {"type": "stand"})
    assert engine.round == 2  # and a new shuffle, dealt by the last press
    assert "card" in rendered and not {"shuffle", "deck"} & set(rendered)


async def test_a_refused_private_card_fails_nothing_and_the_board_asks_its_holder_to_look(world, caplog):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    engine = await rig(env, channel, alice, [CLOWN, PRINCESS, DEATH, QUEEN])
    await bob.click(board_of(env, channel, bob), label="My card")  # bob looks reachable
    revoked = session_of(env, channel).last_interaction[1].token
    env.inject_error("POST", f"/webhooks/*/{revoked}", status=404, code=10015, message="Unknown Webhook")
    exchanged = await press(env, channel, alice, {"type": "exchange", "target": 1})

    assert not exchanged.response.ephemeral, "the move's own answer is the board, not an apology"
    assert [card(m).title for m in exchanged.followups] == ["Your new card: Princess (10)"]
    assert engine.view(1)["me"]["card"]["char"] == CLOWN and engine.active == 1
    assert (
        "**bob**, your card changed: press 🃏 **My card**" in card(board_of(env, channel, carol)).description
    )
    assert "Clown" not in caplog.text and "refused" in caplog.text
    looked = await bob.click(board_of(env, channel, bob), label="My card")
    assert "Clown (4)" in card(looked.response).title


async def test_a_private_card_discord_finds_malformed_is_a_bug_and_not_hidden(world):
    """Only a refused token counts as a refusal; any other error is raised (and logged), so a
    broken message cannot go missing silently."""
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    await rig(env, channel, alice, [CLOWN, PRINCESS, DEATH, QUEEN])
    await bob.click(board_of(env, channel, bob), label="My card")
    token = session_of(env, channel).last_interaction[1].token
    env.inject_error("POST", f"/webhooks/*/{token}", status=400, code=50035, message="Invalid Form Body")
    result = await press(env, channel, alice, {"type": "exchange", "target": 1})
    assert "Sorry, something went wrong" in result.followups[-1].content
    with pytest.raises(ExceptionGroup) as raised:
        env.raise_errors()
    assert [error.code for error in raised.value.exceptions] == [50035]


async def test_the_reveal_shows_every_card_and_its_picture(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    engine = await rig(env, channel, alice, [MONK, QUEEN, PRINCESS, DEATH], reveal_ms=20_000)
    for member in (alice, bob, carol, dave):
        await press(env, channel, member, {"type": "stand"})
    assert engine.phase == "reveal"
    board = board_of(env, channel, world.mod)
    description = card(board).description
    assert "Round 1 revealed" in description and "Lowest card: **dave**" in description
    assert "Queen** (11) → turned **1**" in seat_line(description, "bob")
    assert "Monk** (6) → copied **1**" in seat_line(description, "alice")
    picture = board.attachments[0]
    assert picture.filename == "reveal.png"
    assert await picture.read() == reveal_png(engine.reveal, NAMES)
    await press(env, channel, carol, {"type": "next"})
    assert engine.round == 2 and engine.phase == "play"


async def test_the_reveal_picture_is_drawn_off_the_event_loop(world, monkeypatch):
    """A 16-seat table takes tens of milliseconds to draw; other channels must not wait for it."""
    drawn_on = []

    def recording_reveal_png(reveal, names, locale="en"):
        drawn_on.append(threading.current_thread())
        return reveal_png(reveal, names, locale=locale)

    monkeypatch.setattr(kingdom_board, "reveal_png", recording_reveal_png)
    env, channel = world.env, world.channel
    members = await open_game(world, 4)
    engine = await rig(env, channel, members[0], [MONK, QUEEN, PRINCESS, DEATH], reveal_ms=20_000)
    for member in members:
        await press(env, channel, member, {"type": "stand"})
    assert engine.phase == "reveal"
    assert drawn_on and threading.main_thread() not in drawn_on
    picture = board_of(env, channel, world.mod).attachments[0]
    assert await picture.read() == reveal_png(engine.reveal, NAMES)


# ------------------------------------------------------------------ refusals
async def test_card_pictures_are_drawn_when_the_cog_loads_off_the_event_loop(world, restart_bot, monkeypatch):
    """No press waits for a card's first drawing, and loading does not block other servers."""
    drawn_on = []
    real_card_image = pictures._card_image

    def recording_card_image(char, locale="en"):
        drawn_on.append(threading.current_thread())
        return real_card_image(char, locale)

    monkeypatch.setattr(pictures, "_card_image", recording_card_image)
    card_png.cache_clear()
    await restart_bot(["kingdom"])
    # Every card in every shipped language: a card's words are drawn in its reader's language.
    assert card_png.cache_info().currsize == 13 * len(shipped())
    assert len(drawn_on) == 13 * len(shipped()) and threading.main_thread() not in drawn_on
    # What a press sends (a private card) is what was drawn: the cache is asked the same way.
    for locale in shipped():
        for char in range(13):
            kingdom_board.card_file(char, locale)
    assert len(drawn_on) == 13 * len(shipped())


async def test_an_open_game_keeps_no_opening_events_once_they_are_delivered(world):
    """As a restored engine has none: what the collector walks per open game stays small."""
    await open_game(world, 4)
    engine = world.env.bot.sessions.get(world.channel.id).engine
    assert engine.opening == [] and engine.round == 1


async def test_a_card_panel_acts_once_and_only_while_it_is_current(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    engine = await rig(env, channel, alice, [TRADER, CLOWN, PRINCESS, DEATH], deck=[QUEEN])
    first = await card_panel(env, channel, alice)
    # A second look deletes the first panel, unless Discord will not (its token is over 15
    # minutes old): then it stays, and must not act.
    token = session_of(env, channel).panels[0].token.token
    env.inject_error("DELETE", f"/webhooks/*/{token}/messages/@original", status=404, code=10015)
    used = await alice.click(
        await card_panel(env, channel, alice), label="⚖️ Trader: swap with the deck's top card"
    )
    assert "Your new card: Queen (11)" in card(used.response).title and controls(used.response) == []
    assert engine.active == 1 and "Trader" in card(board_of(env, channel, bob)).fields[0].value
    again = await alice.click(first, label="⚖️ Trader: swap with the deck's top card")
    assert again.ephemeral and "out-of-date" in again.response.content
    assert engine.active == 1 and engine.char(0) == QUEEN


async def test_refusals_change_nothing(world):
    env, channel = world.env, world.channel
    alice, bob, carol, dave = await open_game(world, 4)
    frank = world.members[5]
    engine = await rig(env, channel, alice, [BARD, KING, QUEEN, MONK])
    version = engine.version
    board = board_of(env, channel, alice)

    # King holders are not offered as targets, neither to exchange nor to the Bard.
    assert not any("bob" in (label or "") for label in labels(board))
    panel = await card_panel(env, channel, alice)
    (powers,) = [c for c in controls(panel) if c.type == 3]
    assert powers.values == [f"{version}.2", f"{version}.3"]

    out_of_turn = await carol.click(board, label="Stand")
    assert out_of_turn.ephemeral and "not your turn" in out_of_turn.response.content
    stranger = await frank.click(board, label="Stand")
    assert stranger.ephemeral and "not playing" in stranger.response.content
    stranger = await frank.click(board, label="My card")
    assert stranger.ephemeral and "not playing" in stranger.response.content

    # A forged client offering bob (the King's holder) as a target, on the panel and the board;
    # and a board move slipped onto the private panel, which only takes powers.
    forged_panel = snapshot_components(env, panel)
    (forged_powers,) = [c for c in nested(forged_panel) if c["type"] == 3]
    forged_powers["options"].append({"label": "Bard: bob", "value": f"{version}.1"})
    card_of(forged_panel)["components"].append(
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": 2,
                    "label": "Stand",
                    "custom_id": bound(env, channel, f"pc:{channel.id}:stand:{version}"),
                }
            ],
        }
    )
    show_components(env, panel, forged_panel)
    refused = await alice.select(
        panel, [f"{version}.1"], custom_id=bound(env, channel, f"ps:{channel.id}:power")
    )
    assert refused.ephemeral and "King" in refused.response.content
    refused = await alice.click(panel, label="Stand")
    assert refused.ephemeral and "old board" in refused.response.content
    forged = snapshot_components(env, board)
    action_rows(forged)[0]["components"].insert(
        0,
        {
            "type": 2,
            "style": 2,
            "label": "Exchange with bob",
            "custom_id": bound(env, channel, f"pc:{channel.id}:exchange:{version}.1"),
        },
    )
    show_components(env, board, forged)
    refused = await alice.click(board, label="Exchange with bob")
    assert refused.ephemeral and "King" in refused.response.content
    assert engine.version == version and engine.active == 0 and engine.char(1) == KING

    # A stale board: alice stands (bob's King stands at once), then carol presses the old Stand.
    stale = snapshot_components(env, board)
    await press(env, channel, alice, {"type": "stand"})
    assert engine.active == 2
    show_components(env, board, stale)
    refused = await carol.click(board, label="Stand")
    assert refused.ephemeral and "out-of-date" in refused.response.content
    assert engine.active == 2

    # An old board message (the board was posted again) is refused by the session layer.
    old = board_of(env, channel, carol)
    current = snapshot_components(env, old)
    await carol.slash(channel, "board")
    show_components(env, old, current)
    refused = await carol.click(old, label="Stand")
    assert refused.ephemeral and "old board" in refused.response.content
    assert engine.active == 2
    await press(env, channel, carol, {"type": "stand"})
    assert engine.active == 3


# ------------------------------------------------------------------ time and restarts
async def test_an_idle_player_stands_when_the_timer_runs_out(world):
    env, channel = world.env, world.channel
    await open_game(world, 4, timer=10)
    engine = engine_of(env, channel)
    first = engine.active
    await env.advance_time(10.5)
    # (A King held by the next seat stands at once after it, so the timeout need not be last.)
    assert engine.active != first and {"type": "stand", "seat": first, "timeout": True} in engine.actions
    board = board_of(env, channel, world.mod)
    assert f"⏰ **{NAMES[first]}** ran out of time and stands" in card(board).fields[0].value
    # Nobody moves: the round ends, the reveal pause passes, round 2 is dealt.
    for _ in range(3):
        await env.advance_time(10.5)
    await env.advance_time(21)
    assert engine.round == 2
    assert "Round 2/12" in card(board_of(env, channel, world.mod)).title


async def test_a_restart_mid_round_keeps_the_game_going(world, restart_bot):
    env, channel = world.env, world.channel
    members = await open_game(world, 4)
    engine = engine_of(env, channel)
    await press(env, channel, members[engine.active], {"type": "stand"})
    saved = engine.to_json()

    await restart_bot(["kingdom"])

    restored = engine_of(env, channel)
    assert restored is not engine and restored.to_json() == saved
    seat = restored.active
    mine = await members[seat].click(board_of(env, channel, members[seat]), label="My card")
    assert restored.hands[seat] is not None
    assert f"({restored.char(seat)})" in card(mine.response).title
    round_ = restored.round
    while restored.round == round_ and restored.phase == "play":
        result = await press(env, channel, members[restored.active], {"type": "stand"})
        assert not result.response.ephemeral
    assert restored.reveal is not None and restored.reveal["round"] == round_


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_restart_mid_game_restores_the_same_engine_and_the_game_is_recorded_whole(world, restart_bot):
    # The log is saved a press's entries at a time and put back at the restart: the restored
    # engine is the one saved, and the record of the finished game replays from its seed.
    env, channel = world.env, world.channel
    members = await open_game(world, 4, mode="classic", length=2)
    first_footer = card(channel.last_message).footer.text
    for _ in range(6):
        engine = engine_of(env, channel)
        if engine.phase == "reveal":
            await press(env, channel, members[0], {"type": "next"})
        else:
            await press(env, channel, members[engine.active], {"type": "stand"})
    saved = engine_of(env, channel).to_json()
    assert len(saved["log"]) > 6

    await restart_bot(["kingdom"])

    assert engine_of(env, channel).to_json() == saved
    engine = await play_to_the_end(world, members, seed=7, check_secrecy=False)
    final = card(channel.last_message)
    rec = await assert_stored_record_verifies(
        env.bot.storage, world.guild.id, channel.id, first_footer, final.footer.text
    )
    assert rec["standings"]["tokens"] == engine.tokens
