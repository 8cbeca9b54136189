"""Death Over the Kingdom in several languages through SimCord: on a French server the board
speaks French to everyone, while each member's My card, power panel, Thief peek, received cards
and refusals speak their own Discord language; no language shows a face-down card in public; the
record and its verification stay the same whatever language the game was played in."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from language_checks import World, assert_shown_in_no_language, rules_as_read, server
from shown import above, card, controls, is_card, labels, rows, text

sys.path.insert(0, str(Path(__file__).parent))

from test_kingdom_discord import play_to_the_end  # noqa: E402
from test_kingdom_discord_support import (  # noqa: E402
    board_of,
    card_panel,
    engine_of,
    face_down_seats,
    open_game,
    press,
    rig,
    seat_line,
    session_of,
)

from bot.community.replays import verify  # noqa: E402
from bot.games.kingdom.cards import CHARACTERS, CLOWN, DEATH, PRINCESS, THIEF  # noqa: E402
from bot.session.turn_pings import PING_AFTER_MS  # noqa: E402


def french_server(env: Any) -> World:
    return server(env, "Paris", "fr", "jeux", ("anna", "benoit", "carl", "dora"), mod=True)


def public_text(world: World) -> str:
    parts = []
    for message in world.channel.history(viewer=world.mod):
        assert not message.flags.ephemeral
        parts.append(text(message))
        parts += [label or "" for label in labels(message)]
    return "\n".join(parts)


def assert_no_face_down_card_in_any_language(world: World, names: list[str]) -> None:
    engine = engine_of(world.env, world.channel)
    description = card(board_of(world.env, world.channel, world.mod)).description
    hidden = face_down_seats(engine)
    assert hidden
    for seat in hidden:
        line = seat_line(description, names[seat])
        assert "face cachée" in line
        for character in CHARACTERS:
            assert_shown_in_no_language(line, character.name, bold=False)
    for message in world.channel.history(viewer=world.mod):
        assert all(a.filename != "card.png" for a in message.attachments)


async def test_a_french_board_and_each_members_own_language_in_private(simcord_env, locales) -> None:
    world = french_server(simcord_env)
    anna, benoit, carl, dora = world.members
    locales.members.update({anna.id: "de", benoit.id: "fr"})  # carl and dora: en-US
    names = ["anna", "benoit", "carl", "dora"]
    await open_game(world, 4)
    assert session_of(simcord_env, world.channel).locale == "fr"
    # anna holds the Thief and plays first; dora deals.
    engine = await rig(simcord_env, world.channel, anna, [THIEF, CLOWN, PRINCESS, DEATH])
    board = board_of(simcord_env, world.channel, world.mod)
    embed = card(board)
    assert embed.title == "La Mort sur le royaume — Manche 1 sur 12"
    assert "👉 C'est au tour d'**anna**." in embed.description  # elided before a vowel
    assert "🎴 donneur" in seat_line(embed.description, "dora")
    assert embed.footer.text.startswith("Classique · Manche 1 sur 12 · La carte la plus basse prend un jeton")
    # The exchange beside benoit's line (the seat it acts on), the rest in the row under the card.
    beside = [(c.label, c.beside) for c in controls(board) if c.beside is not None]
    assert beside == [("Échanger avec benoit", seat_line(embed.description, "benoit"))]
    assert [[c.label for c in row] for row in rows(board)] == [["Passer", "Ma carte"]]
    assert_no_face_down_card_in_any_language(world, names)

    # My card: each member in their own language, with the power panel in it.
    mine = await card_panel(simcord_env, world.channel, anna)
    assert card(mine).title == "Deine Karte: Dieb (3)"
    assert "Du bist am Zug: Du kannst **Passen**" in card(mine).description
    select, again = controls(mine)
    assert again.label == "Meine Karte"
    assert select.placeholder == "Die Kraft deiner Karte einsetzen gegen…"
    assert [o["label"] for o in select.options] == [
        "🕵️ Dieb: die Karte von benoit ansehen",
        "🕵️ Dieb: die Karte von carl ansehen",
        "🕵️ Dieb: die Karte von dora ansehen",
    ]
    theirs = await card_panel(simcord_env, world.channel, benoit)
    assert card(theirs).title == "Votre carte : Bouffon (4)"
    assert "Ce n'est pas votre tour : **anna** joue." in card(theirs).description
    english = await card_panel(simcord_env, world.channel, carl)
    assert card(english).title == "Your card: Princess (10)"

    # Refusals: private, in the presser's language, and nothing changes.
    version = engine.version
    for member, expected in ((benoit, "Ce n'est pas votre tour."), (carl, "It is not your turn.")):
        refused = await member.click(board_of(simcord_env, world.channel, member), label="Passer")
        assert refused.ephemeral and refused.response.content == expected
    assert engine.version == version

    # The Thief's look: private to anna in German, public in French without the card.
    peeked = await press(simcord_env, world.channel, anna, {"type": "thief", "target": 1})
    look = peeked.response  # the look replaces her spent panel
    assert look.ephemeral and above(look) == "🕵️ Du hast die Karte von **benoit** angesehen."
    assert card(look).title == "benoit hält: Narr (4)"
    description = card(board_of(simcord_env, world.channel, world.mod)).description
    assert "**anna** a regardé la carte de **benoit** : la prendre ou garder le Voleur." in description
    assert "Narr" not in public_text(world) and "Bouffon" not in public_text(world)
    # anna takes it: benoit (whose My card left a token) is told in French what he got.
    took = await press(simcord_env, world.channel, anna, {"type": "swap", "target": 1})
    assert card(took.followups[0]).title == "Deine neue Karte: Narr (4)"
    told = [m for m in world.channel.history(viewer=benoit) if m.flags.ephemeral and is_card(m)]
    assert told and above(told[-1]) == "🕵️ Échange du Voleur avec **anna**"
    assert card(told[-1]).title == "Votre nouvelle carte : Voleur (3)"
    public = card(board_of(simcord_env, world.channel, world.mod))
    assert (
        "**anna** a pris la carte de **benoit** ; **benoit** tient maintenant le Voleur"
        in public.fields[0].value
    )
    assert_no_face_down_card_in_any_language(world, names)


async def test_a_whole_game_on_a_french_server_is_recorded_and_verifies_as_in_english(
    simcord_env, locales
) -> None:
    world = french_server(simcord_env)
    anna, benoit, carl, _ = world.members
    locales.members.update({anna.id: "de", benoit.id: "fr"})
    members = await open_game(world, 3, length=2)
    first = card(board_of(simcord_env, world.channel, world.mod)).footer.text
    engine = await play_to_the_end(world, members, seed=4, check_secrecy=False)
    final = card(world.channel.last_message)
    assert final.title == "La Mort sur le royaume — partie terminée"
    assert final.description.startswith(("🏆 Victoire : **", "🏆 Victoire partagée : **"))
    (listed,) = await simcord_env.bot.storage.recent_games(
        world.guild.id, channel_id=world.channel.id, limit=1
    )
    rec = (await simcord_env.bot.storage.game_log(world.guild.id, listed.game_key)).log
    assert verify(rec).verified
    assert rec["commitment"] in first and rec["standings"]["tokens"] == engine.tokens
    # The record holds ids, numbers and the characters' English names, never the game's language.
    stored = json.dumps(rec, ensure_ascii=False)
    for word in ("Voleur", "Bouffon", "Princesse", "Dieb", "Narr", "manche", "Runde"):
        assert word not in stored


async def test_rules_lobby_options_and_the_turn_ping_of_kingdom_speak_their_readers_language(
    simcord_env, locales
) -> None:
    world = french_server(simcord_env)
    anna, benoit, carl, _ = world.members
    locales.members.update({anna.id: "de", benoit.id: "fr"})
    read = await rules_as_read(world, (anna, benoit, carl), "kingdom")
    assert read[anna].startswith("**Ziel.** In jeder Runde hält jeder eine geheime Charakterkarte")
    assert "`/königreich neu modus länge zugzeit`" in read[anna]
    assert read[benoit].startswith("**But.** À chaque manche, chacun tient une carte personnage secrète")
    assert read[carl].startswith("**Goal.** Each round everyone holds one secret character card")
    assert not list(world.channel.history())

    # The lobby's options and the turn ping are public: the server's language, not the host's.
    await anna.slash(world.channel, "kingdom new", mode="only-one", timer=5400)
    lobby = card(world.channel.last_message)
    options = "\n".join([lobby.description or "", *(f"{f.name}\n{f.value}" for f in lobby.fields)])
    assert "Mode : **Il ne peut en rester qu'un** (2–20 joueurs)" in options
    assert "Minuteur de tour : 1 h 30 min" in options
    assert lobby.title == "La Mort sur le royaume — salon d'attente"  # the commands' name for it
    for member in (benoit, carl):
        await member.click(world.channel.last_message, label="Rejoindre")
    await anna.click(world.channel.last_message, label="Lancer")
    engine = engine_of(simcord_env, world.channel)
    player = world.members[engine.active]
    await simcord_env.advance_time(PING_AFTER_MS / 1000 + 1)
    [ping] = [m for m in world.channel.history() if m.content and m.content.startswith("⏰")]
    asked = (
        "c'est votre tour : appuyez sur 🃏 **Ma carte** pour voir votre carte et ce que vous pouvez faire."
    )
    assert f"<@{player.id}>: {asked}" in ping.content
    assert ping.content.startswith("⏰ **La Mort sur le royaume** — ")  # its frame names the game in French
