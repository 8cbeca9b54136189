"""Every registered game that has catalogues, played whole by a member and two computers through
SimCord on a server of each language: in the pseudo-locale no word of its lobby, boards, final
board, ``/rules`` or the member's private answers bypassed the catalogue; on a German and a French
server no English sentence of the game's or the session's catalogue shows; every message fits
Discord's limits. A game is checked here by being registered (with catalogues and computers)."""

from __future__ import annotations

from typing import Any

import pytest
from chaos.driver import SeededSecrets
from language_checks import (
    EMBED_TOTAL,
    LABEL,
    LIMITS,
    assert_card_fits,
    english_phrases,
    translated_games,
)
from lobby_buttons import lobby_id
from shown import controls
from shown import text as shown_text
from simcord_clock import clock_held_still
from test_computers import GAMES as FAST_OPTIONS

from bot.games import registry
from bot.i18n.pseudo import untranslated

KINDS = [kind for kind in translated_games() if registry.get(kind).computers is not None]
CONTENT = 2000


@pytest.fixture
def simcord_bot(make_bot, monkeypatch):
    # The same deal on every run, so a failure can be run again.
    monkeypatch.setattr("bot.session.lobby.secrets", SeededSecrets(26))
    return make_bot(KINDS)


def labels(message: Any) -> list[str]:
    """A message's button labels, those beside a line included (``shown.controls``)."""
    return [control.label or "" for control in controls(message)]


def words(message: Any) -> str:
    """A message's words: its card (or content and embeds), then its button labels."""
    return "\n".join([shown_text(message), *labels(message)])


def assert_fits(message: Any) -> None:
    if not assert_card_fits(message):
        assert len(message.content or "") <= CONTENT
        for embed in message.embeds:
            assert len(embed.title or "") <= LIMITS["title"]
            assert len(embed.description or "") <= LIMITS["description"]
            assert len(embed.footer.text or "") <= LIMITS["footer"]
            for field in embed.fields:
                assert len(field.name) <= LIMITS["field_name"] and len(field.value) <= LIMITS["field_value"]
        assert sum(len(embed) for embed in message.embeds) <= EMBED_TOTAL
    assert all(len(label) <= LABEL for label in labels(message))


async def play(world, env, locales, kind: str, code: str) -> list[str]:
    """A whole game of ``kind`` on a server speaking ``code``, its member speaking it too: every
    text anyone was shown, public (the channel, each board as it was drawn) and private (the
    member's answers), each message checked against Discord's limits."""
    env.bot.languages.remember(world.guild.id, code)
    member = world.members[0]
    locales.members[member.id] = code
    texts: list[str] = []

    def look(message: Any) -> None:
        # A board is edited in place: its every state is read as it is drawn.
        assert_fits(message)
        if not texts or words(message) != texts[-1]:
            texts.append(words(message))

    look((await member.slash(world.channel, "rules", game=kind)).response)
    await member.slash(world.channel, f"{kind} new", **FAST_OPTIONS.get(kind, {}))
    for _ in range(2):
        await member.click(world.board(), custom_id=lobby_id(env, world.channel, "add_computer"))
    look(world.board())
    # The computers move only when the test moves time: their moves, armed by these presses,
    # would otherwise come due on the wall clock while a press settles.
    with clock_held_still(env):
        await member.click(world.board(), custom_id=lobby_id(env, world.channel, "start"))
        # The member presses the board's first button twice (a move, a refusal, a private word).
        for _ in range(2):
            look(world.board())
            pressable = [c for c in controls(world.board()) if c.custom_id and not c.disabled]
            if pressable:
                pressed = await member.click(world.board(), custom_id=pressable[0].custom_id)
                if pressed.response is not None:
                    look(pressed.response)
    for _ in range(2000):
        look(world.board())
        if env.bot.sessions.get(world.channel.id) is None:
            break
        await env.advance_time(3)
    assert env.bot.sessions.get(world.channel.id) is None, "the game did not end"
    for message in world.channel.history(viewer=member):  # the final board, posts, private news
        look(message)
    return texts


@pytest.mark.parametrize("kind", KINDS)
async def test_a_whole_game_in_the_pseudo_locale_shows_no_english(
    world, simcord_env, locales, pseudo_locale, kind
):
    texts = await play(world, simcord_env, locales, kind, pseudo_locale)
    # Data, not words: the members' and the computers' names.
    names = [*(member.name for member in world.members), "Robo"]
    assert len(texts) > 3
    for text in texts:
        assert untranslated(text, allowed=names) == [], text


@pytest.mark.parametrize("code", ["de", "fr"])
@pytest.mark.parametrize("kind", KINDS)
async def test_a_whole_game_on_a_german_or_french_server_speaks_its_language(
    world, simcord_env, locales, kind, code
):
    text = "\n".join(await play(world, simcord_env, locales, kind, code))
    phrases = english_phrases(code, kind, "session")
    assert phrases  # the check reads the game's catalogue
    assert [phrase for phrase in phrases if phrase in text] == []
