"""Board edits of a busy Monster Masks channel: race settles arriving in a burst (one timer per
slap) share the channel's 5 REST edits per 5 s, the latest board wins, and the board ends right."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import simcord.http.router as sim_router
from masks_tables import SETTLE_S
from shown import card, controls

from bot.glue.components import bind
from bot.session.sessions import SeatToken

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_S)

SPACING = 0.1  # seconds between two slaps of the burst
WINDOW_S = 2  # seconds a race stays open (the engine's widest)


class Edits:
    """Every REST edit of the channel's messages, with SimCord's (virtual) time it was made at."""

    def __init__(self, env, channel_id: int, monkeypatch) -> None:
        self.env = env
        self.made: list[tuple[float, dict]] = []
        original = sim_router.dispatch
        prefix = f"/channels/{channel_id}/messages/"

        def dispatch(backend, method, path, **kwargs):
            if method == "PATCH" and path.startswith(prefix):
                self.made.append((env.now().timestamp(), kwargs.get("json") or {}))
            return original(backend, method, path, **kwargs)

        monkeypatch.setattr(sim_router, "dispatch", dispatch)

    def most_in_5_s(self) -> int:
        times = [at for at, _ in self.made]
        return max((sum(1 for t in times if start <= t < start + 5) for start in times), default=0)

    def claimed(self) -> list[int]:
        """How many tiles each edit showed with a holder."""
        return [claimed_tiles(sent(body)) for _, body in self.made]


def sent(body: dict) -> SimpleNamespace:
    """An edit's body as the message it makes (its card and controls, read by tests/shown.py)."""
    return SimpleNamespace(
        components=body.get("components") or [], flags=body.get("flags") or 0, embeds=body.get("embeds") or []
    )


def claimed_tiles(message) -> int:
    return sum(1 for c in controls(message) if ":slap:" in (c.custom_id or "") and " · " in (c.label or ""))


async def table_of_eight(world):
    """An 8-seat game (7 guessers), the Mime alice. The races are WINDOW_S wide: longer than the
    wall time of the burst's clicks, so no race closes by the wall clock mid-burst."""
    env = world.env
    world.members += [world.guild.add_member(env.create_user(name)) for name in ("grace", "heidi")]
    host, *others = world.members[:8]
    await host.slash(world.channel, "masks new")
    for member in others:
        await member.click(world.board(), label="Join")
    session = env.bot.sessions.get(world.channel.id)
    session.options["race_window_ms"] = WINDOW_S * 1000
    await host.click(world.board(), label="Start")
    return world, session


class Burst:
    """Guessers slapping tiles nobody else slaps, SPACING apart: every slap is a race of its own,
    settled by a timer of its own, WINDOW_S after it. Times are counted from the first slap."""

    def __init__(self, world, session) -> None:
        self.world, self.session = world, session
        self.held: dict[int, int] = {}  # tile -> seat
        self.start = 0.0

    async def slap(self, guessers: int) -> None:
        card = self.session.engine.view(self.session.engine.view(None)["mime"])["card"]
        tiles = [t for t in range(16) if t != card][:guessers]
        self.start = self.world.env.now().timestamp()
        for seat, tile in zip(range(1, guessers + 1), tiles, strict=True):
            turn = self.session.engine.view(None)["turn"]
            custom_id = bound(self.session, f"pc:{self.world.channel.id}:slap:{turn}.{tile}")
            await self.world.members[seat].click(board_message(self.world, self.session), custom_id=custom_id)
            self.held[tile] = seat
            await self.world.env.advance_time(SPACING)

    async def until(self, seconds: float) -> None:
        """Move SimCord's clock to ``seconds`` after the first slap."""
        await self.world.env.advance_time(self.start + seconds - self.world.env.now().timestamp())

    def holders(self) -> dict[int, int]:
        held_by = self.session.engine.view(None)["held_by"]
        return {tile: seat for tile, seat in enumerate(held_by) if seat is not None}


def bound(session, custom_id: str) -> str:
    prefix, channel, rest = custom_id.split(":", 2)
    return f"{prefix}:{channel}:{session.tag}:{rest}"


def board_message(world, session):
    return next(m for m in world.channel.history() if m.id == session.board_message_id)


def shows_the_game(env, world, session) -> bool:
    """The board message shows exactly the board the game's state draws now."""
    board = env.bot.game_cogs["masks"].render_board(session)
    bind(board.items, session.tag)
    board.attach_picture()
    shown = board_message(world, session)
    drawn = SimpleNamespace(components=board.layout().to_components())
    want, got = card(drawn).to_dict(), card(shown).to_dict()
    # The picture is the one uploaded with the board: Discord serves it by its CDN's address.
    want_image, got_image = want.pop("image", {}).get("url"), got.pop("image", {}).get("url")
    same_picture = want_image == got_image or (
        want_image is not None
        and want_image.startswith("attachment://")
        and got_image is not None
        and got_image.endswith("/" + want_image.removeprefix("attachment://"))
    )
    return (
        want == got
        and same_picture
        and [c.custom_id for c in controls(shown)] == [c.custom_id for c in controls(drawn)]
        and [c.custom_id for c in controls(shown)] == [item.custom_id for item in board.items]
    )


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(["masks"])


# Six settles: at W, W+0.1, … W+0.5 (W = WINDOW_S). Five edits go out at once; the sixth waits for
# the first to leave the 5 s window, until W+5.


async def test_a_burst_of_race_settles_makes_at_most_5_board_edits_in_5_s_and_ends_on_the_right_board(
    world, simcord_env, monkeypatch
):
    world, session = await table_of_eight(world)
    edits = Edits(simcord_env, world.channel.id, monkeypatch)
    burst = Burst(world, session)
    await burst.slap(6)  # a 7th guesser still thinks: the turn goes on
    await burst.until(WINDOW_S + 6)

    assert len(edits.made) == 6 and edits.most_in_5_s() <= 5
    assert edits.claimed() == [1, 2, 3, 4, 5, 6]
    assert burst.holders() == burst.held
    assert shows_the_game(simcord_env, world, session)


async def test_settles_waiting_for_their_turn_collapse_into_the_latest_board(world, simcord_env, monkeypatch):
    world, session = await table_of_eight(world)
    edits = Edits(simcord_env, world.channel.id, monkeypatch)
    burst = Burst(world, session)
    await burst.slap(7)  # the seventh settle, at W+0.6, also reveals the card
    await burst.until(WINDOW_S + 4.5)
    assert edits.claimed() == [1, 2, 3, 4, 5]
    assert session.engine.view(None)["phase"] == "reveal"  # the board is behind
    await burst.until(WINDOW_S + 5.5)
    # The sixth settle's board waited; the seventh's (with the reveal) took its place.
    assert edits.claimed() == [1, 2, 3, 4, 5, 7]
    assert "the card was" in card(sent(edits.made[-1][1])).description
    assert edits.most_in_5_s() <= 5
    assert shows_the_game(simcord_env, world, session)


async def test_a_press_on_the_board_answers_with_the_waiting_board_and_no_edit_is_made(
    world, simcord_env, monkeypatch
):
    world, session = await table_of_eight(world)
    edits = Edits(simcord_env, world.channel.id, monkeypatch)
    burst = Burst(world, session)
    await burst.slap(6)
    await burst.until(WINDOW_S + 1)  # five settles shown, the sixth waits for the window
    assert edits.claimed() == [1, 2, 3, 4, 5]
    ended = await world.members[0].click(board_message(world, session), label="End guessing")
    assert not ended.ephemeral  # the press's own answer (type 7) showed the reveal...
    await burst.until(WINDOW_S + 5.5)  # past W+5, before the next Mime's turn (5 s after the reveal)
    assert len(edits.made) == 5  # ...and the waiting edit was dropped
    assert "the card was" in card(board_message(world, session)).description
    assert shows_the_game(simcord_env, world, session)


async def test_a_restart_mid_burst_loses_nothing(world, simcord_env, monkeypatch, restart_bot):
    world, session = await table_of_eight(world)
    edits = Edits(simcord_env, world.channel.id, monkeypatch)
    burst = Burst(world, session)
    await burst.slap(6)
    await burst.until(WINDOW_S + 1)  # the sixth settle's board waits for the window
    assert edits.claimed() == [1, 2, 3, 4, 5]
    await restart_bot(["masks"])  # the waiting edit dies with the process
    burst.session = session = simcord_env.bot.sessions.get(world.channel.id)
    assert burst.holders() == burst.held
    assert edits.claimed()[-1] == 6  # the restored game drew its board again
    assert shows_the_game(simcord_env, world, session)


async def test_a_lost_race_reaches_the_loser_through_the_seats_token_alone(world, simcord_env):
    world, session = await table_of_eight(world)
    bob, carol = world.members[1:3]
    tile = next(t for t in range(16) if t != session.engine.view(0)["card"])
    custom_id = bound(session, f"pc:{world.channel.id}:slap:{session.engine.view(None)['turn']}.{tile}")
    await bob.click(board_message(world, session), custom_id=custom_id)
    await simcord_env.advance_time(0.1)
    carols = await carol.click(board_message(world, session), custom_id=custom_id)
    # What the game keeps to reach carol later: her interaction's id and token, not the interaction.
    assert isinstance(session.last_interaction[2], SeatToken)
    await simcord_env.advance_time(WINDOW_S + 0.1)
    lost = carols.followups[-1]
    assert lost.ephemeral and "**bob** slapped" in lost.content and "100 ms before you" in lost.content
