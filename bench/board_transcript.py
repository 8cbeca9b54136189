"""Everything the bot sends while seeded games are played, to prove a speed-up changed nothing a
member sees. By hand, never as a test:

    python bench/board_transcript.py --out after.json                 # every title, en/de/fr
    python bench/board_transcript.py --compare before.json after.json

Run it in two checkouts of the bot, each with its own copy of this script (it puts the ``bot`` of
its own checkout first on the path, whatever ``PYTHONPATH`` says), and compare: the two
transcripts must be identical.

Each game is played in SimCord on a server speaking en-US, de or fr (members speaking a mix of the
three, so private answers are in every language too), by the load bench's players
(``load_tables``: plausible moves, Stop! races, Kingdom's power panels) with random presses
mixed in (anybody, a non-player too, on any enabled button of the board or of their last private
panel: refusals), time moved on by SimCord's virtual clock (grace periods, races, reveals, turn
timers and computer players fire), a ``/board`` now and then, and the server's language switched
halfway through a game. Whatever is random (the lobby's seed, salt and game key, the players'
choices) is drawn from the run's seed, and SimCord's clock and ids are virtual, so one version
gives one transcript.

What is recorded is every request the bot makes to Discord, as SimCord's HTTP layer receives it:
method, path, JSON body (embeds, components with their custom ids, content, flags) and each
file's name and SHA-256 (the pictures), in order; that is every board edit inside a press's
answer, every REST edit, every private message and follow-up. Between steps the script notes
what it did, so a difference is found at its press.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import sys
import uuid
from pathlib import Path
from typing import Any

import discord
from simcord.backend.errors import SetupError
from simcord.http import router as sim_router

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from load_tables import TABLES, Press, Wait  # noqa: E402
from press_harness import running  # noqa: E402

import bot.session.lobby as lobby_module  # noqa: E402
from bot.app.memberlocales import member_locales  # noqa: E402
from bot.glue.components import bound_id  # noqa: E402

GAMES = ("kabuki", "masks", "kingdom")
SERVERS = ("en-US", "de", "fr")
MEMBER_LOCALES = ("en-US", "de", "fr", "en-GB", "fr")
PLAYERS = {"kabuki": 4, "masks": 5, "kingdom": 5}
# Per seed, so grace periods, second chances and other modes are played too.
OPTIONS = {
    "kabuki": [
        {"grace": 0, "race_window": 250, "reveal": 2, "turn_timer": 10},
        {"grace": 3, "race_window": 500, "reveal": 4, "turn_timer": 20},
    ],
    "masks": [
        {"guess_seconds": 8},
        {"guess_seconds": 12, "second_chance": True},
    ],
    "kingdom": [
        {"timer": 10},
        {"timer": 15, "length": 2},
    ],
}
NOISE = 0.15  # a random press among the plausible ones
LONGEST_WAIT_S = 12.0
SWITCH_AT = 30  # the step at which the server switches its language (most games last longer)


class Recorder:
    """Every request SimCord's HTTP layer receives from the bot, in order, with what the script
    did in between."""

    def __init__(self) -> None:
        self.lines: list[Any] = []

    def note(self, *what: Any) -> None:
        self.lines.append(["step", *what])

    def request(self, method: str, path: str, json_body: Any, files: list[Any] | None) -> None:
        shown = []
        for f in files or ():
            fp = f.fp
            at = fp.tell()
            data = fp.read()
            fp.seek(at)
            shown.append([f.filename, hashlib.sha256(data).hexdigest()])
        if isinstance(json_body, dict) and "nonce" in json_body:  # discord.py's random nonce
            json_body = {key: value for key, value in json_body.items() if key != "nonce"}
        self.lines.append(["http", method, path, json_body, shown])


@contextlib.contextmanager
def recording(recorder: Recorder):
    original = sim_router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        recorder.request(method, path, kwargs.get("json"), kwargs.get("files"))
        return original(backend, method, path, **kwargs)

    sim_router.dispatch = dispatch
    try:
        yield
    finally:
        sim_router.dispatch = original


@contextlib.contextmanager
def seeded_lobbies(rng: random.Random):
    """The lobby's seed, salt and game key drawn from ``rng`` instead of the OS."""
    secrets, uuids = lobby_module.secrets, lobby_module.uuid

    class Secrets:
        @staticmethod
        def randbits(k: int) -> int:
            return rng.getrandbits(k)

        @staticmethod
        def token_hex(n: int) -> str:
            return rng.getrandbits(8 * n).to_bytes(n, "big").hex()

    class Uuids:
        @staticmethod
        def uuid4() -> uuid.UUID:
            return uuid.UUID(int=rng.getrandbits(128), version=4)

    lobby_module.secrets, lobby_module.uuid = Secrets, Uuids  # type: ignore[assignment]
    try:
        yield
    finally:
        lobby_module.secrets, lobby_module.uuid = secrets, uuids


@contextlib.contextmanager
def held(env: Any):
    """Only ``advance_time`` fires the bot's timers (see tests/simcord_clock.py)."""
    env._advancing = True
    try:
        yield
    finally:
        env._advancing = False


def now_ms(env: Any) -> int:
    return int(env.backend.clock.now().timestamp() * 1000)


def enabled_components(message: discord.Message) -> list[Any]:
    """Every enabled control of the message, nested in a V2 card (rows, a section's accessory)
    or in a legacy action row."""
    found = []

    def walk(items: Any) -> None:
        for item in items:
            if getattr(item, "custom_id", None) and not getattr(item, "disabled", False):
                found.append(item)
            walk(getattr(item, "children", None) or getattr(item, "components", None) or [])
            accessory = getattr(item, "accessory", None)
            if accessory is not None:
                walk([accessory])

    walk(message.components)
    return found


async def play(game: str, server: str, seed: int, steps: int, recorder: Recorder) -> None:
    rng = random.Random(f"{game}:{server}:{seed}")
    options = OPTIONS[game][seed % len(OPTIONS[game])]
    locales: dict[int, str] = {}
    with seeded_lobbies(rng), contextlib.ExitStack() as speaking:
        async with running(list(GAMES), settle_timeout=10.0) as (bot, env):
            # SimCord sends every interaction as en-US; Discord sends the member's and the server's.
            speaking.enter_context(member_locales(env, locales))
            guild = env.create_guild(f"g-{server}", preferred_locale=server)
            channel = guild.create_text_channel("games")
            names = ["anna", "ben", "chloé", "dai", "eve", "finn"][: PLAYERS[game]]
            members = [guild.add_member(env.create_user(name)) for name in names]
            stranger = guild.add_member(env.create_user("stranger"))
            admins = guild.create_role(
                "Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True)
            )
            boss = guild.add_member(env.create_user("boss"), roles=[admins])
            for i, member in enumerate([*members, stranger, boss]):
                locales[member.id] = MEMBER_LOCALES[(i + seed) % len(MEMBER_LOCALES)]
            by_id = {m.id: m for m in [*members, stranger, boss]}
            recorder.note(game, server, seed, options)
            with recording(recorder):
                with held(env):
                    await members[0].slash(channel, f"{game} new", **options)
                    for member in members[1:-1]:
                        await member.click(channel.last_message, custom_id=lobby_id(channel, "join"))
                    await members[0].click(channel.last_message, custom_id=lobby_id(channel, "add_computer"))
                    await members[0].click(channel.last_message, custom_id=lobby_id(channel, "start"))
                session = bot.sessions.get(channel.id)
                if session is None or session.engine is None:
                    raise RuntimeError(f"{game} did not start")
                table = TABLES[game](
                    game, bot, guild.id, channel, members, dict(options), random.Random(rng.random())
                )
                switched = False
                for step in range(steps):
                    session = bot.sessions.get(channel.id)
                    if session is None or session.engine is None or session.engine.is_over:
                        break
                    if not switched and step >= min(steps // 2, SWITCH_AT):
                        switched = True
                        language = {"en-US": "fr", "de": "en", "fr": "de"}[server]
                        recorder.note("language", language)
                        with held(env):
                            await boss.slash(channel, "settings", language=language)
                        continue
                    roll = rng.random()
                    if roll < 0.02:
                        recorder.note("/board")
                        with held(env):
                            await members[rng.randrange(len(members))].slash(channel, "board")
                        continue
                    if roll < 0.02 + NOISE:
                        await noise(env, channel, session, rng, [*members, stranger], recorder)
                        continue
                    planned = table.next_presses(now_ms(env))
                    if isinstance(planned, Wait):
                        wait = min(max(planned.until_ms - now_ms(env), 50) / 1000, LONGEST_WAIT_S)
                        recorder.note("wait", round(wait, 3))
                        await env.advance_time(wait)
                        continue
                    for press in planned:
                        await make(env, table, channel, session, press, by_id, recorder)
                recorder.note("end", bot.sessions.get(channel.id) is None)
                with held(env):
                    if bot.sessions.get(channel.id) is not None:
                        await boss.slash(channel, "end")
                await env.advance_time(6)


def lobby_id(channel: Any, name: str) -> str:
    return next(
        item.custom_id
        for item in enabled_components(channel.last_message)
        if item.custom_id.split(":")[-2] == name
    )


async def make(
    env: Any, table: Any, channel: Any, session: Any, press: Press, by_id: dict[int, Any], recorder: Recorder
) -> None:
    if press.delay:
        await env.advance_time(press.delay)
    user = session.players[press.seat]
    if user < 0:  # a computer's seat: its own timer plays it
        recorder.note("computer", press.seat)
        await env.advance_time(2.5)
        return
    member = by_id[user]
    custom_id = bound_id(press.custom_id, session.tag)
    if press.on_panel:
        panels = [m for m in channel.history(viewer=member) if m.flags.ephemeral and m.components]
        if not panels:
            return
        message = panels[-1]
    else:
        message = board_message(channel, session)
        if message is None:
            return
    recorder.note("press", press.seat, press.name, custom_id, press.values)
    try:
        with held(env):
            if press.values is not None:
                await member.select(message, press.values, custom_id=custom_id)
            else:
                await member.click(message, custom_id=custom_id)
    except SetupError as error:  # disabled, or not on that message: no client could press it
        recorder.note("not pressable", str(error))
        await env.advance_time(0.5)
        return
    follow = getattr(table, "follow_up", None)
    if follow is not None and (after := follow(press)) is not None:
        await make(env, table, channel, session, after, by_id, recorder)


def board_message(channel: Any, session: Any) -> discord.Message | None:
    return next((m for m in reversed(channel.history()) if m.id == session.board_message_id), None)


async def noise(
    env: Any, channel: Any, session: Any, rng: random.Random, members: list[Any], recorder: Recorder
) -> None:
    """Somebody presses something at random: on the board, or on their last private panel."""
    member = rng.choice(members)
    message = board_message(channel, session)
    if rng.random() < 0.3:
        panels = [m for m in channel.history(viewer=member) if m.flags.ephemeral and enabled_components(m)]
        if panels:
            message = panels[-1]
    if message is None or not (items := enabled_components(message)):
        return
    item = rng.choice(items)
    recorder.note("noise", members.index(member), item.custom_id)
    with held(env):
        if isinstance(item, discord.SelectMenu):
            await member.select(message, [rng.choice(item.options).value], custom_id=item.custom_id)
        else:
            await member.click(message, custom_id=item.custom_id)


def run(games: list[str], servers: list[str], seeds: int, steps: int) -> list[Any]:
    recorder = Recorder()
    for game in games:
        for server in servers:
            for seed in range(seeds):
                asyncio.run(play(game, server, seed, steps, recorder))
    return recorder.lines


def compare(before: Path, after: Path) -> int:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    requests = sum(1 for line in a if line[0] == "http")
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            context = [line for line in a[max(0, i - 6) : i] if line[0] == "step"]
            print(f"first difference at line {i} (after {context[-1:] or 'the start'}):")
            print("  before:", json.dumps(x, ensure_ascii=False)[:2000])
            print("  after: ", json.dumps(y, ensure_ascii=False)[:2000])
            return 1
    if len(a) != len(b):
        print(f"one transcript is longer: {len(a)} against {len(b)} lines")
        return 1
    steps = sum(1 for line in a if line[0] == "step")
    files = sum(len(line[4]) for line in a if line[0] == "http")
    print(f"identical: {len(a)} lines, {requests} requests to Discord ({files} files), {steps} steps")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--servers", default=",".join(SERVERS))
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--steps", type=int, default=500)
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("--out or --compare")
    lines = run(args.games.split(","), args.servers.split(","), args.seeds, args.steps)
    args.out.write_text(json.dumps(lines, ensure_ascii=False, indent=0))
    requests = sum(1 for line in lines if line[0] == "http")
    print(f"{args.out}: {requests} requests to Discord in {len(lines)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
