"""What the Activity's pages cost the bot, by hand: python bench/bench_activity.py

1. **A change sent to every page of a 20-seat Kingdom game.** The game's board is drawn by its
   cog as in play, then handed to the Activity's server as the session layer hands it
   (``ActivityServer.board``): the card made and encoded once, queued for each page; each page's
   writer sends it over a real WebSocket on loopback to a real aiohttp client. Reported: the bot's
   CPU for the hand-over (the card, its JSON, the 20 queue puts) per change, the CPU of the 20
   sends (the writers' work, measured with the client's reads in the same process, so an upper
   bound), the wall time until all 20 pages have it, and the frame's size. Moves are real engine
   moves (each player acting in turn), so every board differs.
2. **Open pages' memory.** ``--pages`` sockets (default 1,000) across ``--channels`` channels
   (300), opened by a separate client process, so the figure is the bot's own: its resident
   memory before and after, per page.

Left out: the sign-in (once per page, a few HTTP calls to Discord), TLS (the proxy in front does
it), Discord's proxy between the page and the bot, the page's own drawing, and (1) draws no
picture (Kingdom's board has none; a board picture is fetched once per change by each page, from
the bot's encoded-pictures cache). The CPU of a move from a page against the same move from a
button is not measured here yet.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from bot.activity.server import ActivityServer  # noqa: E402
from bot.activity.tickets import Member  # noqa: E402
from bot.app.config import Config  # noqa: E402
from bot.engine import IllegalAction  # noqa: E402
from bot.games.kingdom.cog import KingdomCog  # noqa: E402
from bot.games.kingdom.engine import KingdomEngine  # noqa: E402
from bot.session.publisher import Publishers  # noqa: E402
from bot.session.sessions import PLAYING, Session, SessionRegistry  # noqa: E402

GUILD = 1 << 22
SECRET = "bench-secret"

CLIENTS = """
import asyncio, resource, sys, aiohttp
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
async def main(base, tickets):
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        sockets = [await http.ws_connect(f"{base}/ws?ticket={t}") for t in tickets]
        print("open", flush=True)
        sys.stdin.readline()
        for s in sockets:
            await s.close()
asyncio.run(main(sys.argv[1], sys.stdin.readline().split()))
"""


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def server_for(bot: SimpleNamespace) -> ActivityServer:
    config = Config(
        token="x",
        database_path=":memory:",
        dev_guild_id=None,
        log_level="INFO",
        shard_count=1,
        client_id=1,
        client_secret=SECRET,
        activity_port=0,
    )
    return ActivityServer(bot, config)


def kingdom_session(bot: SimpleNamespace, channel: int, seats: int) -> Session:
    players = [1000 + seat for seat in range(seats)]
    options = {"mode": "only-one" if seats > 16 else "classic", "length": 6}
    session = Session("kingdom", GUILD, channel, players[0], options, 7, f"g{channel}", 0, players=players)
    session.engine = KingdomEngine.new(seats, 7, options, 0)
    session.status, session.locale, session.salt = PLAYING, "en", "salt"
    session.names = {user: f"player-{user}-with-a-long-name"[:32] for user in players}
    bot.sessions.add(session)
    return session


def a_move(session: Session, clock: int) -> int:
    """Any legal move of the seat whose turn it is (the clock moved past a pause if none is)."""
    engine = session.engine
    for seat in range(engine.players):
        for action in engine.legal_actions(seat):
            try:
                engine.apply(seat, action, clock)
                return clock + 50
            except IllegalAction:
                continue
    engine.advance(clock + 60_000)
    return clock + 60_000


async def fan_out(changes: int) -> None:
    bot = SimpleNamespace(sessions=SessionRegistry(), title_of=lambda kind: "Death Over the Kingdom")
    bot.publishers = Publishers(bot)
    cog = KingdomCog(bot)
    session = kingdom_session(bot, 77, 20)
    server = server_for(bot)
    await server.start()
    host, port = server.address
    received = 0
    done = asyncio.Event()
    try:
        async with aiohttp.ClientSession() as http:
            sockets = []
            for user in session.players:
                member = Member(user, f"p{user}", "en-US", GUILD, 77, "i-bench")
                socket = await http.ws_connect(
                    f"http://{host}:{port}/ws?ticket={server.tickets.issue(member)}"
                )
                await socket.receive()  # hello
                await socket.receive()  # board
                sockets.append(socket)

            async def read(socket) -> None:
                nonlocal received
                async for _frame in socket:
                    received += 1
                    if received % len(sockets) == 0:
                        done.set()

            readers = [asyncio.ensure_future(read(s)) for s in sockets]
            hand_over, sends, walls, sizes = [], [], [], []
            clock = 1
            for _ in range(changes):
                clock = a_move(session, clock)
                if session.engine.is_over:
                    break
                board = cog.render_board(session)
                done.clear()
                started, cpu = time.perf_counter(), time.process_time()
                server.board(session, board)
                hand_over.append((time.process_time() - cpu) * 1000)
                cpu = time.process_time()
                await done.wait()
                sends.append((time.process_time() - cpu) * 1000)
                walls.append((time.perf_counter() - started) * 1000)
                sizes.append(len(server._card(board).__repr__()))
            for reader in readers:
                reader.cancel()
    finally:
        await server.stop()
    print(
        f"a change to every page of a 20-seat Kingdom game ({len(hand_over)} changes): "
        f"hand-over {statistics.median(hand_over):.3f} ms CPU (median; p90 "
        f"{statistics.quantiles(hand_over, n=10)[-1]:.3f}); the 20 sends and reads "
        f"{statistics.median(sends):.2f} ms CPU; all 20 pages have it after "
        f"{statistics.median(walls):.2f} ms wall; frame about {statistics.median(sizes) / 1024:.1f} KiB"
    )


async def memory(pages: int, channels: int) -> None:
    bot = SimpleNamespace(sessions=SessionRegistry(), title_of=lambda kind: "Death Over the Kingdom")
    bot.publishers = Publishers(bot)
    for channel in range(channels):
        kingdom_session(bot, 10_000 + channel, 4)
    server = server_for(bot)
    await server.start()
    host, port = server.address
    tickets = []
    for n in range(pages):
        channel = 10_000 + n % channels
        member = Member(1000 + n % 4, f"p{n}", "en-US", GUILD, channel, "i-bench")
        tickets.append(server.tickets.issue(member))
    gc.collect()
    before = rss_mb()
    clients = subprocess.Popen(  # noqa: ASYNC220  (a bench: the bot's loop serves nothing else here)
        [sys.executable, "-c", CLIENTS, f"http://{host}:{port}"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    clients.stdin.write(" ".join(tickets) + "\n")
    clients.stdin.flush()
    line = await asyncio.get_running_loop().run_in_executor(None, clients.stdout.readline)
    assert line.strip() == "open", line
    while sum(len(p) for p in server.pages.values()) < pages:  # noqa: ASYNC110  (the server's own count)
        await asyncio.sleep(0.05)
    gc.collect()
    after = rss_mb()
    clients.stdin.write("\n")
    clients.stdin.flush()
    # Waited for off the loop: the server must answer the pages' closes meanwhile.
    await asyncio.get_running_loop().run_in_executor(None, clients.wait, 120)
    await server.stop()
    print(
        f"{pages} open pages over {channels} channels: the bot's memory {before:.0f} MB -> {after:.0f} MB, "
        f"{(after - before) * 1024 / pages:.1f} KiB a page"
    )


def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket a page
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--channels", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(fan_out(args.changes))
    asyncio.run(memory(args.pages, args.channels))


if __name__ == "__main__":
    main()
