"""The general commands in every language: /help, /stats, /settings, /season, /forget-me and
their confirmations answer each member in their own Discord language; /leaderboard, its page
buttons and a season's champions post speak the server's. Under the pseudo-locale none of them
shows a word of English that bypassed the catalogue."""

from __future__ import annotations

import discord
from language_checks import assert_card_fits
from shown import above, card, controls
from shown import text as all_words
from test_ratings_discord import play

from bot.community.ratings import MIN_RATED_GAMES
from bot.i18n import shipped
from bot.i18n.pseudo import untranslated

TITLE_MAX, DESCRIPTION_MAX, FIELD_VALUE_MAX, FOOTER_MAX, TOTAL_MAX, CONTENT_MAX, LABEL_MAX = (
    256,
    4096,
    1024,
    2048,
    6000,
    2000,
    80,
)
# Data, not words: the test game (not shipped, so never translated), its score label, members'
# names, the shuffle's command-line tools and Discord's own placeholders in /help.
DATA = [
    "Tap",
    "taps",
    "tap",
    "alice",
    "bob",
    "carol",
    "admin",
    "verify",
    "python",
    "bot",
    "printf",
    "sha256sum",
]
DATA += ["SALT", "SEED", "SHA", "Champions", "Spring", "Discord", "English"]  # a language by its own name


def boss_of(guild, env, name="admin"):
    role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_roles=True))
    return guild.add_member(env.create_user(name), roles=[role])


def embed_text(embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name, field.value]
    return "\n".join(parts)


def labels(message) -> list[str]:
    return [c.label for c in controls(message) if c.label]


def within_limits(message) -> None:
    """Discord's limits: a card's (Components V2) 4,000 characters of text and 40 components in
    all; words alone (a refusal, a notice), a message's 2,000 characters."""
    if not assert_card_fits(message):
        assert len(message.content or "") <= CONTENT_MAX
        for embed in message.embeds:
            assert len(embed.title or "") <= TITLE_MAX and len(embed.description or "") <= DESCRIPTION_MAX
            assert len(embed.footer.text or "") <= FOOTER_MAX
            assert all(len(f.value) <= FIELD_VALUE_MAX for f in embed.fields)
            assert len(embed) <= TOTAL_MAX
    assert all(len(label) <= LABEL_MAX for label in labels(message))


def shown(answer) -> str:
    """Every word of an answer: its card (or content and embeds), then its buttons' labels."""
    message = answer.response
    return "\n".join([all_words(message), *labels(message)])


async def test_every_general_answer_in_the_pseudo_locale_has_no_untranslated_english(
    world, locales, pseudo_locale
):
    alice, bob, carol = world.members[:3]
    boss = boss_of(world.guild, world.env)
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    await play(world, carol, bob)
    for member in (alice, bob, carol, boss):
        locales.members[member.id] = pseudo_locale
    world.env.bot.languages.remember(world.guild.id, pseudo_locale)  # the server speaks it too
    answers = [
        await alice.slash(world.channel, "help"),
        await alice.slash(world.channel, "stats"),
        await carol.slash(world.channel, "stats"),
        await alice.slash(world.channel, "end"),
        await alice.slash(world.channel, "board"),
        await alice.slash(world.channel, "leaderboard", game="tap"),
        await alice.slash(world.channel, "leaderboard", game="tap", sort="wins", season="all time"),
        await alice.slash(world.channel, "leaderboard", game="tap", sort="score"),
        await alice.slash(world.channel, "leaderboard", game="tap", season="no such season"),
        await alice.slash(world.channel, "season list"),
        await alice.slash(world.channel, "season new", name="Spring"),
        await boss.slash(world.channel, "settings"),
        await boss.slash(
            world.channel, "settings", **{"champion-role": world.guild.create_role("Champions")}
        ),
        await boss.slash(world.channel, "settings", **{"turn-pings": True, "computers-rated": True}),
        await alice.slash(world.channel, "forget-me"),
        await boss.slash(world.channel, "standings reset"),
    ]
    asked = await boss.slash(world.channel, "season new", name="Spring")
    answers.append(asked)
    answers.append(await boss.click(asked.response, label=labels(asked.response)[0]))
    post = world.board()
    # /rules: the frame is the catalogue's (the test game's own rules text is not shipped).
    rules = card((await alice.slash(world.channel, "rules", game="tap")).response)
    assert untranslated(rules.title, allowed=DATA) == [] and rules.title.endswith("ŕúĺéš⟧")
    for answer in answers:
        within_limits(answer.response)
        assert untranslated(shown(answer), allowed=DATA) == [], shown(answer)
    # The season's champions post is public: the server's language (the pseudo-locale here).
    assert untranslated(above(post) + "\n" + embed_text(card(post)), allowed=DATA) == []
    assert "⟦" in card(post).title
    # Rating tiers, in /stats and /help, come from the catalogue as well.
    help_text = card(answers[0].response).description
    assert "⟦Ɓŕóñžé⟧" in help_text and "⟦Đíáɱóñđ⟧ 1700+" in help_text


async def test_members_of_three_languages_on_a_french_server(world, simcord_env, locales):
    # The world's games, played on a server whose own language is French.
    guild = simcord_env.create_guild("Lyon", preferred_locale="fr")
    world.guild, world.channel = guild, guild.create_text_channel("jeux")
    alice, bob, carol = (guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol"))
    world.members = [alice, bob, carol]
    boss = boss_of(guild, simcord_env, "patron")
    locales.members.update({alice.id: "de", bob.id: "en-US", boss.id: "de"})  # carol: English default
    locales.members[carol.id] = "fr"
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)

    # Private answers: each member's own language.
    german = card((await alice.slash(world.channel, "stats")).response)
    assert german.title == "Statistik für alice"
    assert "Partien: **3** · Siege: **3**" in german.fields[0].value
    assert "Wertungszahl: **" in german.fields[0].value and "3 gewertete Partien" in german.fields[0].value
    english = card((await bob.slash(world.channel, "stats")).response)
    assert english.title == "Stats for bob" and "Bronze" in english.fields[0].value
    help_de = card((await alice.slash(world.channel, "help")).response)
    assert (
        help_de.title == "Party-Kartenspiele"
        and "`/rangliste spiel: [sortierung:] [saison:]`" in help_de.description
    )
    help_fr = card((await carol.slash(world.channel, "help")).response)
    assert (
        "`/classement jeu: [tri:] [saison:]`" in help_fr.description and "Argent 1100+" in help_fr.description
    )
    settings = card((await boss.slash(world.channel, "settings")).response).description
    assert (
        "computer-gewertet: **aus**: Partien mit Computerspielern **ändern** keine Wertungszahl" in settings
    )
    assert "sprache: **Français** (die eigene Sprache des Servers)" in settings
    forget = await bob.slash(world.channel, "forget-me")
    assert labels(forget.response) == ["Forget me", "Cancel"]
    cancelled = await carol.slash(world.channel, "forget-me")
    assert labels(cancelled.response) == ["Oubliez-moi", "Annuler"]
    assert (
        await carol.click(cancelled.response, label="Annuler")
    ).response.content == "Annulé : rien n'a changé."

    # The leaderboard is public: French whoever asks, and its pages turn in French.
    board = (await alice.slash(world.channel, "leaderboard", game="tap", sort="wins")).response
    embed = card(board)
    assert embed.title == "Tap — classement · cette saison" or embed.title.startswith("Tap — classement")
    assert embed.description.splitlines()[1:3] == [
        "#  Victoires  Taps  Parties  Nom",
        "1          3     3        3  alice",
    ]
    assert labels(board) == ["◀ Précédente", "Suivante ▶"]
    assert embed.footer.text.startswith("Page 1/1 · classé par victoires")

    # A season's end: the German admin is answered in German, the channel told in French.
    asked = await boss.slash(world.channel, "season new", name="Printemps")
    assert labels(asked.response) == ["Saison archivieren", "Abbrechen"]
    done = await boss.click(asked.response, label="Saison archivieren")
    assert done.response.content == "Saison **Printemps** archiviert."
    post = world.board()
    assert above(post).startswith(
        "La saison **Printemps** est terminée et archivée (`/classement saison:Printemps`)"
    )
    champions = card(post)
    assert champions.title == "Saison Printemps — champions"
    assert champions.fields[0].value.splitlines()[0].startswith(f"🥇 alice (<@{alice.id}>) — **")
    assert (
        champions.footer.text == f"Classés par cote, membres avec {MIN_RATED_GAMES} parties classées ou plus."
    )


async def test_every_general_answer_fits_discord_in_every_shipped_language(world, locales):
    alice, bob = world.members[:2]
    boss = boss_of(world.guild, world.env)
    for _ in range(MIN_RATED_GAMES):
        await play(world, alice, bob)
    english: list[str] = []
    for code in shipped():  # English first
        for member in (alice, boss):
            locales.members[member.id] = code
        world.env.bot.languages.remember(world.guild.id, code)
        answers = [
            await alice.slash(world.channel, "help"),
            await alice.slash(world.channel, "stats"),
            await alice.slash(world.channel, "leaderboard", game="tap"),
            await boss.slash(world.channel, "settings"),
            await alice.slash(world.channel, "forget-me"),
        ]
        for answer in answers:
            within_limits(answer.response)
            assert "{" not in shown(answer)
        texts = [shown(answer) for answer in answers]
        # Each language's answers are its own, not English that happened to fit.
        assert all(text != before for text, before in zip(texts, english, strict=False))
        english = english or texts
