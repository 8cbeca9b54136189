"""What arming a session's deadline costs on the loop, the old way against the new (issue 13).

Old (before ``bot/session/timers.py``): every press cancelled the session's sleeping task and
created another, which ran its first step up to its sleep. New: a press that moves the deadline
cancels a loop ``TimerHandle`` and arms another; one that leaves it in place arms nothing. Run by
hand: ``python bench/bench_timer_arming.py``. The figures are the loop thread's CPU per arming,
with the cost of one bare loop turn (each arming is followed by one) taken out.
"""

from __future__ import annotations

import asyncio
import time

N = 20_000


async def sleeper(seconds: float) -> None:
    await asyncio.sleep(seconds)


async def per_arming(arm) -> float:  # noqa: ANN001 - a callable arming once
    started = time.thread_time()
    for _ in range(N):
        arm()
        await asyncio.sleep(0)
    return (time.thread_time() - started) / N


async def main() -> None:
    loop = asyncio.get_running_loop()
    armed: list[asyncio.Task[None] | asyncio.TimerHandle] = []

    def task_way() -> None:
        if armed:
            armed.pop().cancel()
        armed.append(loop.create_task(sleeper(30)))

    def handle_way() -> None:
        if armed:
            armed.pop().cancel()
        armed.append(loop.call_later(30, print))

    turn = await per_arming(lambda: None)
    old = await per_arming(task_way)
    armed.pop().cancel()
    await asyncio.sleep(0)
    new = await per_arming(handle_way)
    armed.pop().cancel()
    print(
        f"per press: task re-created {1e6 * (old - turn):.1f} µs, timer re-armed {1e6 * (new - turn):.1f} µs, "
        f"deadline unchanged 0 µs (one loop turn: {1e6 * turn:.1f} µs, taken out)"
    )


if __name__ == "__main__":
    asyncio.run(main())
