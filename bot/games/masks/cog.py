"""Island of Monster Masks in Discord: `/masks new`, the tile board, the Mime's card, emoji miming.

The engine (bot/games/masks) holds the rules; bot/games/masks/board.py draws the board from the
public view. This cog turns presses into engine actions, shows the Mime's card only in
ephemeral replies, and in emoji mode keeps the Mime's messages to emoji while a turn runs.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Action, Event, IllegalAction, Result
from bot.games.limits import LONGEST_TURN_S
from bot.games.masks import board as masks_board
from bot.games.masks.engine import GUESSING, TAKEN, MasksEngine
from bot.games.masks.pictures import draw_all_faces
from bot.games.masks.players import SKILLS
from bot.glue.board import Board, drawn, sign
from bot.glue.clock import now_ms
from bot.glue.components import Press
from bot.i18n import DEFAULT, N_, number, t
from bot.session import computers
from bot.session.gamecog import GameCog
from bot.session.press import Answer, Move
from bot.session.sessions import PLAYING, SeatToken, Session

log = logging.getLogger(__name__)

# What a turn ping asks the Mime, and the guessers who have not slapped yet (in the game's language).
PING_MIME = N_("you are the Mime: press 🃏 **My card** and mime it.")
PING_GUESSERS = N_("watch the Mime and slap a tile.")
SKILL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}  # the lobby's note
# A slap on a tile someone else took first (or too late for the turn) is told who took it and by
# how much, as a race's loser is; then why the slap changed nothing (``refusal_text``).
BEATEN = N_("⚡ **{winner}** slapped **{monster}** {ms} ms before you.")
# This slap was made first, but reached the bot once the race for the tile was over.
RACE_OVER = N_("⚡ **{winner}** took **{monster}**: its race was over when your slap arrived.")
SLAP_ANOTHER = N_("Your slap did not count: slap a free tile.")

# One message, so a translator sees the whole text; /rules shows it in the member's language.
RULES = N_("""\
**Island of Monster Masks** (3–8 players). Each turn one player is the **Mime**: they draw a \
secret monster card and act out its face without words. Everyone else slaps **one** of the 16 \
monster tiles; a tile goes to the first to slap it, and a slap can't be changed: if someone \
else was first, you hold no tile this turn. When all have slapped, won or lost (or time is up, \
or the Mime ends the guessing) the card is revealed: the player holding its tile and the Mime \
each win a card; if nobody guessed it, both cards leave the game. The Mime passes to the next \
seat. When the deck (6 cards per player) runs out, most cards wins; ties share the win.

**In Discord:** the tiles are a 4×4 grid of buttons under one picture of all 16 faces; a \
claimed tile's button shows its holder. Two slaps on one tile within a quarter second are a \
race: the earlier Discord timestamp wins, and the loser is told privately who beat them and by \
how many ms. The Mime presses **My card** to see the card (only they can) and **End guessing** \
to reveal early; the guess timer is 60 s unless set otherwise (up to a day, for a slow server). \
After 30 s the guessers who have not slapped (and a Mime who has not seen the card) are pinged \
once, in a short message deleted when the turn ends.
**Mime mode**, chosen in `/masks new`: *camera* — play in a voice/video channel, the bot runs \
cards, tiles and score; *emoji* — the Mime may post only emoji here during a turn; if the bot \
can Manage Messages it removes anything else the Mime posts and says why.
**Making sounds** variant: the Mime may make sounds but no words (“Grrr!” yes, “Vaaamp!” no).
**Second chance: a player who loses a race may slap another tile** (an option of `/masks new`, \
off unless chosen): the reveal then waits for the loser's second slap.
**Computer players** (🤖, seated by the host in the lobby) mime in emoji: as the Mime they post \
emoji describing their card's face here; as guessers they read the Mime's emoji (a computer's, \
or a person's in emoji mode) and slap the tile that fits best, after a few seconds. How well and \
how fast is the `computers` option of `/masks new` (easy, normal, hard; normal unless chosen). \
They can't watch a camera: with a person miming on camera they slap a tile at random, so choose \
emoji mode to play with them.""")
NOTICE_SECONDS = 8  # how long the "emoji only" notice stays before deleting itself

# "Only emoji" = custom emoji <:name:id> / <a:name:id>, keycaps (1️⃣ #️⃣), and characters of the
# Unicode emoji blocks with their joiners (ZWJ, variation selectors, skin tones, tags), plus
# whitespace. Letters, digits and punctuation on their own are words, so they are not emoji.
_CUSTOM = re.compile(r"<a?:\w{2,32}:\d{15,21}>")
_KEYCAP = re.compile("[0-9#*]\ufe0f?\u20e3")
_EMOJI_RANGES = (
    (0x1F000, 0x1FAFF),  # emoticons, pictographs, transport, flags (regional indicators), …
    (0x2600, 0x27BF),  # misc symbols and dingbats (☀ ✂ ❤)
    (0x2300, 0x23FF),  # technical (⌚ ⏰ ⏳)
    (0x2B00, 0x2BFF),  # arrows and shapes (⬆ ⭐ ⭕)
    (0x2190, 0x21FF),  # arrows (↔ ↩)
    (0x25A0, 0x25FF),  # geometric shapes (▶ ◀ ◻)
    (0xE0020, 0xE007F),  # tag characters of subdivision flags
)
_EMOJI_SINGLES = frozenset(
    {0x00A9, 0x00AE, 0x203C, 0x2049, 0x2122, 0x2139, 0x3030, 0x303D, 0x3297, 0x3299, 0x200D, 0xFE0E, 0xFE0F}
)


def _is_emoji_char(char: str) -> bool:
    code = ord(char)
    return code in _EMOJI_SINGLES or any(low <= code <= high for low, high in _EMOJI_RANGES)


def is_emoji_only(text: str) -> bool:
    """True if ``text`` holds nothing but emoji and whitespace (an empty text is not a mime)."""
    if not text.strip():
        return False
    rest = _KEYCAP.sub("", _CUSTOM.sub("", text))
    return all(char.isspace() or _is_emoji_char(char) for char in rest)


class MasksCog(
    GameCog, group_name="masks", group_description="Island of Monster Masks: mime a face, slap its tile"
):
    engine_cls = MasksEngine
    colour = masks_board.COLOUR
    score_label = "cards"
    rules_summary = RULES

    async def cog_load(self) -> None:
        await super().cog_load()
        # The Mime's card is sent inside a press: draw the 16 cards now, off the event loop.
        await drawn(draw_all_faces)

    @app_commands.command(name="new", description="Open an Island of Monster Masks lobby in this channel")
    @app_commands.describe(
        guess_seconds="Seconds the guessers have each turn: 5–86400, i.e. up to a day (default 60)",
        mime_mode="How the Mime acts: camera (voice/video call) or emoji (in this channel)",
        sounds="Variant: the Mime may make sounds, but no words",
        second_chance=masks_board.SECOND_CHANCE,
        computers="How well computer players read the Mime's emoji (default normal)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        guess_seconds: app_commands.Range[int, 5, LONGEST_TURN_S] = 60,
        mime_mode: Literal["camera", "emoji"] = "camera",
        sounds: bool = False,
        second_chance: bool = False,
        computers: Literal["easy", "normal", "hard"] = "normal",
    ) -> None:
        options = {
            "guess_ms": guess_seconds * 1000,
            "mime_mode": mime_mode,
            "sounds": sounds,
            "second_chance": second_chance,
            "computer_skill": computers,
        }
        await self.open_lobby(interaction, options)

    def default_options(self) -> dict[str, Any]:
        return {
            "guess_ms": 60_000,
            "mime_mode": "camera",
            "sounds": False,
            "second_chance": False,
            "computer_skill": "normal",
        }

    # ------------------------------------------------------------------ rendering

    def turn_ms(self, options: Any) -> int:
        return int(options.get("guess_ms", 0))

    def options_text(self, options: Any, locale: str = DEFAULT) -> str:
        return masks_board.options_text(dict(options), locale)

    def lobby_notes(self, session: Session) -> list[str]:
        if not session.computer_seats():
            return []
        # Public: the lobby speaks the game's language.
        locale = session.locale
        skill_name = session.options.get("computer_skill", "normal")
        skill = SKILLS[skill_name]
        low, high = (number(locale, ms / 1000, "#,##0.##") for ms in skill.reaction_ms)
        notes = [
            t(
                locale,
                "🤖 Computers read the Mime's emoji (**{skill}**): the right tile {percent}% of the time, "
                "{low}–{high} s after. A computer Mime posts emoji here.",
                skill=t(locale, SKILL_NAMES[skill_name]) if skill_name in SKILL_NAMES else skill_name,
                percent=round(skill.accuracy * 100),
                low=low,
                high=high,
            )
        ]
        if session.options.get("mime_mode") != "emoji":
            notes.append(
                t(
                    locale,
                    "⚠️ **Camera mode**: computers can't watch a call, so when a person mimes they slap "
                    "a tile at random. For a real game with computers, open the lobby with "
                    "`/masks new mime_mode:emoji` and mime in emoji.",
                )
            )
        return notes

    def render_board(self, session: Session) -> Board:
        assert session.engine is not None
        board = masks_board.render(
            session.channel_id,
            session.engine.view(None),
            session.seat_names(),
            session.computer_seats(),
            locale=session.locale,
        )
        return sign(board, session.commitment, locale=session.locale)

    def board_state(self, session: Session) -> Any:
        assert session.engine is not None
        view = session.engine.view(None)
        state = masks_board.board_state(view, session.seat_names(), session.computer_seats())
        return state, session.locale, session.commitment

    def render_final(self, session: Session, result: Result) -> Board:
        assert session.engine is not None
        board = masks_board.render_final(session.engine.view(None), session.seat_names(), session.locale)
        return sign(board, session.commitment, seed=session.seed, salt=session.salt, locale=session.locale)

    async def _publish(
        self, session: Session, board: Board, interaction: discord.Interaction | None = None
    ) -> None:
        """In emoji mode every turn's emoji were posted under the board, so the result would end
        up scrolled away above them: the final board moves to a new message at the bottom of the
        channel (the old one says where it went, as a board posted anew always does)."""
        over = session.engine is not None and session.engine.is_over
        if over and session.options.get("mime_mode") == "emoji":
            try:
                await self.repost(session, board)
                return
            except discord.HTTPException as error:  # no right to post, say: edit it in place
                log.warning(
                    "final board of channel %s not moved: %s/%s", session.channel_id, error.status, error.code
                )
        await super()._publish(session, board, interaction)

    def ping_turn(self, session: Session) -> str | None:
        """One turn per Mime, while the guessers guess."""
        engine = session.engine
        assert isinstance(engine, MasksEngine)
        return str(engine.turn) if engine.phase == GUESSING else None

    def awaited(self, session: Session) -> dict[int, str]:
        """While the guessers guess: the guessers who have not slapped yet (a slap is final, so
        they are all the turn still waits for), and the Mime if their card could not reach them
        privately (no press of theirs within an interaction token's life) and they have not
        looked at it with My card since."""
        assert session.engine is not None
        view = session.engine.view(None)
        if view["phase"] != GUESSING:
            return {}
        asks = {}
        if self.unreached(session, view["mime"], now_ms()):
            asks[view["mime"]] = t(session.locale, PING_MIME)
        asks.update(dict.fromkeys(view["waiting"], t(session.locale, PING_GUESSERS)))
        return asks

    def render_private(self, session: Session, seat: int, event: Event) -> dict[str, Any] | None:
        # Private: in the seat's own language (as their latest press showed it).
        locale = session.seat_locale(seat)
        data = event.data
        names = session.seat_names()
        if event.kind == "secret_card":
            return masks_board.card_message(data["card"], data["name"], data["turn"], locale)
        if event.kind == "race_lost":
            fields = {
                "winner": names[data["winner"]],
                "monster": masks_board.monster(locale, data["name"]),
                "ms": data["by_ms"],
            }
            if data["again"]:
                text = t(
                    locale,
                    "⚡ **{winner}** slapped **{monster}** {ms} ms before you. Second chance: slap "
                    "another free tile!",
                    **fields,
                )
            else:
                text = t(
                    locale,
                    "⚡ **{winner}** slapped **{monster}** {ms} ms before you. A slap can't be changed: "
                    "you hold no tile this turn.",
                    **fields,
                )
            return {"content": text}
        if event.kind == "slapped":  # the presser's own answer, made in _deliver from public events
            return {
                "content": t(
                    locale,
                    "✋ You slapped **{monster}**. If someone slapped it too, the earliest slap wins it "
                    "in a moment.",
                    monster=masks_board.monster(locale, data["name"]),
                )
            }
        return None

    def refusal_text(self, session: Session, refusal: IllegalAction, locale: str) -> str:
        """A slap refused because someone else took that tile first (a slap that reached the bot
        after the race for it closed, or on a tile taken already, or after the turn ended) says
        who took it and by how many ms, as a race's loser is told; then what is left: another
        tile while the turn runs (the refused slap did not count), else why it changed nothing."""
        fields = refusal.fields
        if "holder" not in fields:
            return super().refusal_text(session, refusal, locale)
        who = {
            "winner": session.name_of(fields["holder"]),
            "monster": masks_board.monster(locale, fields["monster"]),
        }
        if fields["by_ms"] > 0:
            first = t(locale, BEATEN, ms=fields["by_ms"], **who)
        else:
            first = t(locale, RACE_OVER, **who)
        if refusal.message == TAKEN:
            return f"{first} {t(locale, SLAP_ANOTHER)}"
        return f"{first} {super().refusal_text(session, refusal, locale)}"

    # ------------------------------------------------------------------ presses

    def action_for(self, session: Session, seat: int, press: Press) -> Action:
        if press.name == masks_board.SLAP:
            parsed = masks_board.parse_slap_arg(press.arg)
            if parsed is None:
                raise IllegalAction(N_("That button is not part of this board."))
            turn, tile = parsed
            return {"type": "slap", "tile": tile, "turn": turn}
        if press.name == masks_board.END:
            if not press.arg.isdigit():
                raise IllegalAction(N_("That button is not part of this board."))
            return {"type": "end_guessing", "turn": int(press.arg)}
        raise IllegalAction(N_("That button is not part of this board."))

    async def handle_query(self, move: Move, session: Session, seat: int) -> bool:
        if move.press.name != masks_board.CARD:
            return False
        assert session.engine is not None  # a lobby never gets here: its presses are refused first
        view = session.engine.view(seat)
        locale = move.locale
        if view["role"] != "mime":
            await move.answer.private(
                t(locale, "Only the Mime can look at the secret card. Watch them and slap!")
            )
        elif view.get("card") is None:
            await move.answer.private(t(locale, "The card is revealed already; the next Mime draws soon."))
        else:
            message = masks_board.card_message(view["card"], view["card_name"], view["turn"], locale)
            # The Mime has the card: one panel of it, the earlier one deleted (``send_panel``).
            await self.send_panel(move, session, message, single=True)
        return True

    async def _deliver(
        self,
        session: Session,
        events: list[Event],
        interaction: discord.Interaction | None,
        presser: int | None,
        answer: Answer | None = None,
    ) -> None:
        # A slap only opens or joins a race (public events that leave the board as it is), so the
        # presser's own answer is made from them, and goes first: it is the press's answer.
        own = [
            Event("slapped", event.data, to=(presser,))
            for event in events
            if event.kind in ("race_opened", "race_joined") and event.data["seat"] == presser
        ]
        await super()._deliver(session, own + events, interaction, presser, answer)
        for event in events:
            if event.kind == "said":
                await self._post_mimed(session, event.data)

    async def _post_mimed(self, session: Session, data: dict[str, Any]) -> None:
        """A computer Mime's emoji, posted as the bot: emoji mode never removes the bot's messages."""
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        name = session.name_of(data["seat"])
        try:
            await channel.send(
                t(session.locale, "🎭 **{name}** mimes: {emoji}", name=name, emoji=data["text"]),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.warning(
                "could not post a computer Mime's emoji in channel %s: %s/%s",
                session.channel_id,
                error.status,
                error.code,
            )
            # Nobody saw it: the computers forget it, and the Mime tries once more (computers.unheard).
            engine = session.engine
            same_turn = (
                engine is not None and not engine.is_over and getattr(engine, "turn", None) == data["turn"]
            )
            if same_turn and self._alive(session, PLAYING):
                computers.unheard(session, data["text"])
                await self._save(session)
                self.timers.arm(session)

    async def _start(self, move: Move, session: Session) -> None:
        await super()._start(move, session)
        if session.status != PLAYING or session.engine is None:
            return
        # new() returns no events, so the first Mime's card is sent here, to the Mime only:
        # a moderator may have pressed Start for the host.
        mime = session.engine.view(None)["mime"]
        if move.member_id == session.players[mime]:
            if move.interaction is not None:
                session.last_interaction[mime] = SeatToken.of(move.interaction)
            await self._deliver(session, session.engine.turn_events(), move.interaction, mime, move.answer)

    # ------------------------------------------------------------------ emoji miming

    def _can_delete(self, session: Session) -> bool:
        channel = self.bot.get_channel(session.channel_id)
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None:
            return False
        return channel.permissions_for(guild.me).manage_messages  # type: ignore[union-attr]

    async def on_game_start(self, session: Session) -> None:
        if session.options.get("mime_mode") != "emoji" or self._can_delete(session):
            return
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        await channel.send(
            t(
                session.locale,
                "😀 Emoji mode: the Mime should post only emoji here during a turn. I don't have the "
                "**Manage Messages** permission in this channel, so I can't remove other messages — "
                "please play fair!",
            )
        )

    async def _mimed(self, session: Session, turn: int, author: int, text: str) -> None:
        """A person Mime's emoji, kept for the computer guessers to read (public: it is in the channel)."""
        if not session.computer_seats():
            return
        async with session.lock:
            engine = session.engine
            if not self._alive(session, PLAYING) or engine is None:
                return
            view = engine.view(None)
            if view["turn"] != turn or view["phase"] != "guessing" or session.seat_of(author) != view["mime"]:
                return
            computers.heard(session, text)
            await self._save(session)
            self.timers.arm(session)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.guild is None:
            return
        session = self.bot.sessions.get(message.channel.id)
        if session is None or session.kind != self.kind or session.status != PLAYING:
            return
        engine = session.engine
        if engine is None or session.options.get("mime_mode") != "emoji":
            return
        view = engine.view(None)
        if view["phase"] != "guessing" or session.seat_of(message.author.id) != view["mime"]:
            return
        if is_emoji_only(message.content) and not message.attachments and not message.stickers:
            await self._mimed(session, view["turn"], message.author.id, message.content)
            return
        if not self._can_delete(session):
            return
        try:
            await message.delete()
        except discord.NotFound:
            return  # already gone
        except discord.HTTPException as error:
            log.warning("could not remove a Mime's message in channel %s: %s", session.channel_id, error)
            return
        # There is no interaction to answer privately; a notice that deletes itself keeps the
        # channel clean and never repeats what the Mime wrote.
        # Public, so in the game's language.
        await message.channel.send(
            t(
                session.locale,
                "{mime} you are the Mime: only emoji while the others guess. I removed your message.",
                mime=message.author.mention,
            ),
            delete_after=NOTICE_SECONDS,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: commands.Bot) -> None:
    """Loaded as a discord.py extension by the bot, from the game's descriptor (``GAME.cog``)."""
    await bot.add_cog(MasksCog(bot))
