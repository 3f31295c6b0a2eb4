"""The chat `board` picture's cost (services/chat/picture.py): how long CairoSVG takes to draw
each game's public board as a 1000-px PNG, how large the PNG is, and how much the drawing,
run in a thread as the chat service runs it, delays the event loop's other work.

    .venv/bin/python -m bench.chat_picture [--rounds 7]

Boards: the spectator's view at the end of a seeded random game of each game (the largest
boards). Draws are taken round-robin over the games, so a load change hits all alike. Loop
delay: a ticker sleeping 5 ms records how late each wake-up is, alternately while idle and
while a board is drawn in `asyncio.to_thread` (the GIL is shared: CairoSVG's parsing is
Python). Prints figures and the load average; asserts nothing.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import time

from games.contract import Seed
from games.fold import replay
from games.registry import GAMES
from services.chat.picture import png_size, to_png

CASES = [("seven_wonders", "3p"), ("seven_wonders_duel", "2p"), ("arkadia", "2p"), ("ora_et_labora", "4p_france")]


def final_board(game_id: str, preset: str, seed: int = 3) -> str:
    game = GAMES[game_id]
    state = replay(game, game.setup(game.presets[preset], Seed(f"png-{seed}".encode())))
    rng = random.Random(seed)
    while game.result(state) is None:
        seat = rng.choice(game.to_act(state))
        for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
            state = game.evolve(state, e)
    return game.svg(game.view(state, None))


async def lateness(during: "asyncio.Future | None", step: float = 0.005, span: float = 0.0) -> list[float]:
    """How late (ms) each 5-ms sleep wakes, until `during` is done (or for `span` seconds)."""
    out: list[float] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + span
    while (during is not None and not during.done()) or (during is None and loop.time() < end):
        t = loop.time()
        await asyncio.sleep(step)
        out.append((loop.time() - t - step) * 1000)
    return out


async def main(rounds: int) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}, cpus {os.cpu_count()}, python {sys.version.split()[0]}")
    boards = {g: final_board(g, p) for g, p in CASES}
    times: dict[str, list[float]] = {g: [] for g in boards}
    sizes: dict[str, tuple[int, tuple[int, int]]] = {}
    for _ in range(rounds):
        for g, svg in boards.items():
            t = time.perf_counter()
            png = to_png(svg)
            times[g].append((time.perf_counter() - t) * 1000)
            sizes[g] = (len(png), png_size(png))
    print(f"{'game':20} {'svg KB':>7} {'png KB':>7} {'size':>10} {'median ms':>9} {'min':>6} {'max':>6}")
    for g, svg in boards.items():
        n, (w, h) = sizes[g]
        ts = times[g]
        print(f"{g:20} {len(svg) / 1024:7.1f} {n / 1024:7.1f} {f'{w}x{h}':>10} {statistics.median(ts):9.0f} "
              f"{min(ts):6.0f} {max(ts):6.0f}")
    idle: list[float] = []
    busy: list[float] = []
    for _ in range(rounds):  # alternately: idle, then a draw of each board in a thread
        for svg in boards.values():
            idle += await lateness(None, span=0.15)
            fut = asyncio.ensure_future(asyncio.to_thread(to_png, svg))
            busy += await lateness(fut)
            await fut
    for name, xs in (("idle", idle), ("drawing in a thread", busy)):
        xs.sort()
        print(f"loop lateness {name:20}: {len(xs):5} wake-ups, median {statistics.median(xs):.2f} ms, "
              f"p99 {xs[int(len(xs) * 0.99)]:.2f} ms, max {xs[-1]:.2f} ms")
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    r = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 7
    asyncio.run(main(r))
