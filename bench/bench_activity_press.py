"""A Kabuki placement from an Activity page against the same placement by a button, by hand:
python bench/bench_activity_press.py

One Kabuki game of three in SimCord; the seat whose turn it is places by the channel's button and
by its page's socket in turn (the page signed in with a ticket the bench makes), beside a bare
acknowledge in the same run. Each figure is the process's CPU for one press, end to end: for a
button, SimCord's interaction in, the engine, the save, the board edited in the press's answer;
for a page, the frame in, the same ``GameCog.take``, the save, the channel's board by a REST edit
(a page's press has no interaction to answer with it) and the board sent to the three pages.

Left out, and which way it leans: the page's side of the socket runs in this process too (its
aiohttp client writing the press and reading every frame back), so the page's figure is an upper
bound; SimCord's own work for a button's interaction (building and parsing it) counts on the
button's side. TLS and Discord's proxy are not here for either.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import aiohttp  # noqa: E402
from bench_activity import server_for  # noqa: E402
from bench_kabuki_press import kabuki_table, stack_for  # noqa: E402
from press_harness import cpu_ms, running  # noqa: E402

from bot.activity.tickets import Member  # noqa: E402
from bot.glue.components import bound_id  # noqa: E402

PRESSES = 120  # each kind; a round ends at its 50th card and the next begins (no grace)


async def main() -> None:
    async with running(["kabuki"], settle_timeout=1.0) as (bot, env):
        options = {"grace": 0, "race_window": 2000, "reveal": 2, "turn_timer": 600}
        # Two games: one played by the channel's buttons, one from its members' pages (a page's
        # press reaches its channel's board by a REST edit, which waits its turn in the channel's
        # 5 edits per 5 s: nobody presses that board's buttons meanwhile).
        _, channel, members, ack_message, session = await kabuki_table(bot, env, **options)
        guild, paged, players, _, played = await kabuki_table(bot, env, **options)
        server = server_for(bot)  # attached to the running bench bot: it watches its boards too

        settling: set[asyncio.Task] = set()

        async def as_bot_work(run) -> None:
            # As SimCord runs an interaction: the press as the bot's own work, then settled (the
            # tests do the same, tests/activity/conftest.py).
            with env._bot_scope():
                task = asyncio.ensure_future(run())
            settled = asyncio.ensure_future(settle(task))
            settling.add(settled)
            settled.add_done_callback(settling.discard)
            await task

        async def settle(task) -> None:
            await asyncio.wait([task])
            await env.settle()

        server.dispatch = as_bot_work
        await server.start()
        host, port = server.address
        async with aiohttp.ClientSession() as http:
            sockets = {}
            for member in players:
                ticket = server.tickets.issue(
                    Member(member.id, member.name, "en-US", guild.id, paged.id, "i-bench")
                )
                socket = await http.ws_connect(f"http://{host}:{port}/ws?ticket={ticket}")
                sockets[member.id] = socket
            answers: dict[int, asyncio.Future] = {}

            async def read(socket) -> None:
                async for message in socket:
                    frame = message.json()
                    if frame["type"] == "answer" and frame["id"] in answers:
                        answers.pop(frame["id"]).set_result(frame)
                    elif frame["type"] == "probe":
                        await socket.send_json({"type": "probe", "id": frame["id"]})

            readers = [asyncio.ensure_future(read(s)) for s in sockets.values()]
            await asyncio.sleep(0.5)  # the first frames read, the probes answered

            async def page_press(who, name: str, arg: str) -> None:
                press_id = len(answers) + 1 + page_press.count
                page_press.count += 1
                answers[press_id] = asyncio.get_running_loop().create_future()
                await sockets[who.id].send_json(
                    {"type": "press", "id": press_id, "name": name, "arg": arg, "game": played.tag}
                )
                answer = await answers[press_id] if press_id in answers else None
                assert answer is None or answer["ok"], answer
                while settling:  # SimCord's settling of it, as a button's click waits for it too
                    await asyncio.gather(*settling)

            page_press.count = 0
            button, page, base = [], [], []
            board_id = session.board_message_id
            for _ in range(PRESSES):
                # Presses alternate with each other and with bare acknowledges: all three meet the
                # same machine weather.
                base.append(await cpu_ms(lambda: members[0].click(ack_message, custom_id="ackbench")))
                view = session.engine.view(None)
                who = members[view["current"]["seat"]]
                arg = f"{stack_for(view['turn'])}-{view['turn']}"
                custom_id = bound_id(f"pc:{channel.id}:place:{arg}", session.tag)
                board = next(m for m in reversed(channel.history()) if m.id == board_id)
                button.append(await cpu_ms(lambda who=who, b=board, c=custom_id: who.click(b, custom_id=c)))
                view = played.engine.view(None)
                who = players[view["current"]["seat"]]
                arg = f"{stack_for(view['turn'])}-{view['turn']}"
                page.append(await cpu_ms(lambda who=who, arg=arg: page_press(who, "place", arg)))
            assert session.engine.view(None)["turn"] == PRESSES, "every button press must have been taken"
            assert played.engine.view(None)["turn"] == PRESSES, "every page press must have been taken"
            for reader in readers:
                reader.cancel()
        await server.stop()
    b, p, a = statistics.median(button), statistics.median(page), statistics.median(base)
    print(
        f"kabuki place, {PRESSES} of each: by button {b:.2f} ms CPU, from a page {p:.2f} ms CPU "
        f"(median); page / button {p / b:.2f}; bare acknowledge {a:.2f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main())
