"""Languages end to end: Discord receives every slash command in German and French, /privacy
answers each member in their own language, and /settings language: sets the server's."""

from __future__ import annotations

import discord
from shown import card, text

from bot.community.ratings import MIN_RATED_GAMES
from bot.i18n.pseudo import untranslated

EMBED_TITLE_MAX, EMBED_DESCRIPTION_MAX = 256, 4096


def admin(guild, env, name="admin"):
    role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[role])


async def test_discord_receives_every_command_with_german_and_french_names(world, simcord_env):
    privacy = simcord_env.backend.find_command("privacy", None)
    assert privacy["name_localizations"] == {"de": "datenschutz", "fr": "confidentialité"}
    assert (
        privacy["description_localizations"]["de"]
        == "Was dieser Bot über dich speichert und wie du es entfernst."
    )
    leaderboard = simcord_env.backend.find_command("leaderboard", None)
    sort = next(o for o in leaderboard["options"] if o["name"] == "sort")
    assert sort["name_localizations"] == {"de": "sortierung", "fr": "tri"}
    assert [c["name_localizations"]["de"] for c in sort["choices"]] == ["Wertungszahl", "Siege", "Punkte"]
    assert [c["value"] for c in sort["choices"]] == ["rating", "wins", "score"]  # values stay as they are
    season = simcord_env.backend.find_command("season", None)
    new = next(o for o in season["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"de": "neu", "fr": "nouvelle"}
    assert new["options"][0]["description_localizations"]["fr"].startswith("Le nom de la saison terminée")
    # The English names are unchanged, so members keep invoking /privacy as before.
    shown = await world.members[0].slash(world.channel, "privacy")
    assert shown.ephemeral


async def test_privacy_answers_each_member_in_their_own_discord_language(world, locales):
    german, french, spanish, english = world.members[:4]
    locales.members.update({german.id: "de", french.id: "fr", spanish.id: "es-ES"})
    answers = {}
    for member in (german, french, spanish, english):
        shown = await member.slash(world.channel, "privacy")
        assert shown.ephemeral
        answers[member] = card(shown.response)
    assert answers[german].title == "Deine Daten"
    assert "**Was dieser Bot speichert**" in answers[german].description
    assert "`/vergiss-mich` entfernt deine Ergebnisse" in answers[german].description
    assert answers[french].title == "Vos données"
    assert "`/oublie-moi` efface vos résultats" in answers[french].description
    # Spanish has no catalogue yet: English, as for everyone else.
    for member in (spanish, english):
        assert answers[member].title == "Your data"
        assert "`/forget-me` removes your results" in answers[member].description
    for embed in answers.values():
        assert f" {MIN_RATED_GAMES} " in embed.description and "{" not in embed.description
        assert len(embed.title) <= EMBED_TITLE_MAX and len(embed.description) <= EMBED_DESCRIPTION_MAX
    # Nothing public was said in any language.
    assert not list(world.channel.history())


async def test_privacy_in_the_pseudo_locale_has_no_untranslated_english(world, locales, pseudo_locale):
    member = world.members[0]
    locales.members[member.id] = pseudo_locale
    embed = card((await member.slash(world.channel, "privacy")).response)
    assert embed.title.startswith("⟦") and embed.description.startswith("⟦")
    # `verify` is the command-line tool's name, the same in every language.
    assert untranslated(f"{embed.title}\n{embed.description}", allowed=["verify"]) == []
    assert len(embed.description) <= EMBED_DESCRIPTION_MAX


async def test_a_moderator_sets_the_servers_language_for_public_messages(
    world, locales, simcord_env, restart_bot
):
    bot, guild = simcord_env.bot, world.guild
    boss = admin(world.guild, simcord_env)
    assert await bot.languages.public(bot.storage, guild.id, "en-US") == "en"
    # A server may allow the command to anyone: the bot checks the permission itself.
    command = simcord_env.backend.find_command("settings", None)
    world.guild.set_command_permissions(int(command["id"]), {world.members[0]: True})
    refused = await world.members[0].slash(world.channel, "settings", language="de")
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert (await bot.storage.settings(guild.id)).language is None

    saved = await boss.slash(world.channel, "settings", language="de")
    assert saved.ephemeral
    assert (
        "language: **Deutsch** (chosen here): boards and announcements speak it"
        in card(saved.response).description
    )
    assert (await bot.storage.settings(guild.id)).language == "de"
    # Public messages speak German whatever the server's own locale; private ones stay per member.
    assert await bot.languages.public(bot.storage, guild.id, "fr") == "de"
    locales.members[world.members[1].id] = "fr"
    assert card((await world.members[1].slash(world.channel, "privacy")).response).title == "Vos données"

    bot = await restart_bot()
    assert await bot.languages.public(bot.storage, guild.id, "en-US") == "de"
    back = await boss.slash(world.channel, "settings", language="default")
    assert "language: **English** (the server's own language)" in card(back.response).description
    assert (await bot.storage.settings(guild.id)).language is None
    assert await bot.languages.public(bot.storage, guild.id, "fr") == "fr"
    assert not any("language" in text(m) for m in world.channel.history())


async def test_a_french_server_speaks_french_until_a_moderator_chooses_otherwise(simcord_env, locales):
    guild = simcord_env.create_guild("Paris", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    boss = admin(guild, simcord_env, "patron")
    bot = simcord_env.bot
    shown = await boss.slash(channel, "settings")
    assert "language: **Français** (the server's own language)" in card(shown.response).description
    assert await bot.languages.public(bot.storage, guild.id, "fr") == "fr"
    await boss.slash(channel, "settings", language="en")
    assert await bot.languages.public(bot.storage, guild.id, "fr") == "en"
