"""Dashboard benchmark: how long the gateway takes to serve a game type's dashboard data
(GET /game-types/{type}/dashboard, every chart) for many finished games, and what keeping
the aggregates costs the projector.

    .venv/bin/python -m bench dashboard --games 10000      (or: tablestream bench dashboard)

On a Redis server of its own (as `tablestream bench`), `real` finished 7 Wonders Duel games
are played in memory with random legal moves (bench/logs.py) and folded into their
statistics rows; `games` rows are written from them (each a copy under a new game id,
ended on one of 30 days, its seats held by players of a pool of 50 names and two bot
kinds) through `ts_row`, the Lua the projector's writes use, so the dashboard's counters
are those the projector keeps. A real gateway process (uvicorn, loopback HTTP) then
serves, alternately, the dashboard (all games; one day; one setup and players' kind) and,
for comparison, /stats (aggregated on read from every row). Writes: `ts_row` (row and
aggregates) against a bare HSET of the row, alternately. Prints figures; asserts nothing.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Annotated

import httpx
import msgspec
import redis.asyncio as aioredis
import typer
from rich.console import Console
from rich.table import Table

from bench.logs import finished_log
from bench.machine import free_port, start_server
from events import keys
from events.meta import SeatPlayer
from games import registry
from projections import stats
from projections.table import advance, empty
from services import aggregates

GAME = "seven_wonders_duel"
DAYS = 30
PLAYERS = [SeatPlayer(kind="name", id=f"p{i:02d}", name=f"Player {i:02d}") for i in range(50)]
PLAYERS += [SeatPlayer(kind="bot", id=k, name=f"{k} bot") for k in ("random", "greedy")]
_SET = aggregates.LUA + """
local a = 1
while a <= #ARGV do
  ts_row(ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4])
  a = a + 5
end
return 1
"""
BATCH = 200


def real_rows(n: int) -> list[stats.GameRow]:
    game = registry.get(GAME)
    now = int(time.time() * 1000)
    out = []
    for i in range(n):
        envs = finished_log(game, f"bench-{i}", "2p", seed=i, start_ms=now)
        row = stats.row(advance(empty(envs[0].game_id, game), envs), envs)
        assert row is not None
        out.append(row)
    return out


def copies(rows: list[stats.GameRow], n: int) -> list[stats.GameRow]:
    rnd = random.Random(7)
    now = int(time.time() * 1000)
    return [msgspec.structs.replace(rows[i % len(rows)], game_id=f"dash-{i:06d}",
                                    ended_ms=now - rnd.randrange(DAYS) * 86_400_000,
                                    seated=rnd.sample(PLAYERS, 2)) for i in range(n)]


async def write_rows(r: aioredis.Redis, rows: list[stats.GameRow], bare: bool = False) -> float:
    """Seconds to write `rows` in batches of BATCH: through `ts_row` (row and aggregates) or,
    `bare`, a plain HSET of each row."""
    game = registry.get(GAME)
    script = r.register_script(_SET)
    started = time.perf_counter()
    for at in range(0, len(rows), BATCH):
        batch = rows[at:at + BATCH]
        if bare:
            await r.hset(keys.stats(GAME) + ":bare", mapping={x.game_id: stats.encode_row(x) for x in batch})
        else:
            args: list[object] = []
            for x in batch:
                args += aggregates.row_args(game, x.game_id, x)
            await script(keys=[], args=args)
    return time.perf_counter() - started


def start_gateway(url: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "services.cli", "gateway", "--port", str(port)],
                            env={**os.environ, "REDIS_URL": url}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(base + "/game-types", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the gateway did not start")


def timed(http: httpx.Client, path: str, params: dict[str, str]) -> tuple[float, int]:
    started = time.perf_counter()
    res = http.get(path, params=params)
    took = time.perf_counter() - started
    res.raise_for_status()
    return took, res.json()["games"]


async def run(games: int, real: int, rounds: int) -> None:
    console = Console()
    with tempfile.TemporaryDirectory() as folder:
        server, url = await start_server(folder)
        gateway = None
        try:
            started = time.perf_counter()
            base_rows = real_rows(real)
            console.print(f"{real} Duel games played in memory in {time.perf_counter() - started:.1f} s")
            rows = copies(base_rows, games)
            r = aioredis.from_url(url)
            writes: dict[str, list[float]] = {"ts_row (row + aggregates)": [], "HSET (row only)": []}
            for i in range(3):  # alternately, each time into an empty database
                for bare in ((False, True) if i % 2 == 0 else (True, False)):
                    await r.flushdb()
                    took = await write_rows(r, rows, bare=bare)
                    writes["HSET (row only)" if bare else "ts_row (row + aggregates)"].append(took)
            await r.flushdb()
            await write_rows(r, rows)
            buckets = len(await aggregates.buckets(r, GAME))
            await r.aclose()
            gateway, base = start_gateway(url)
            day = time.strftime("%Y-%m-%d", time.gmtime(rows[0].ended_ms / 1000))
            cases = {"dashboard, all games": ("/dashboard", {}),
                     "dashboard, one day": ("/dashboard", {"since": day, "until": day}),
                     "dashboard, setup + bots": ("/dashboard", {"setup": "2 players", "kind": "bot"}),
                     "stats (aggregated on read)": ("/stats", {})}
            times: dict[str, list[float]] = {k: [] for k in cases}
            served: dict[str, int] = {}
            with httpx.Client(base_url=f"{base}/game-types/{GAME}", timeout=120) as http:
                for name, (path, params) in cases.items():  # warm-up
                    timed(http, path, params)
                for _ in range(rounds):
                    for name, (path, params) in cases.items():
                        took, n = timed(http, path, params)
                        times[name].append(took)
                        served[name] = n
            table = Table(title=f"{games} finished {GAME} games ({buckets} buckets), {rounds} rounds, alternating")
            for col in ("request", "games", "median ms", "p90 ms", "max ms"):
                table.add_column(col, justify="right" if col != "request" else "left")
            for name, xs in times.items():
                xs = sorted(xs)
                table.add_row(name, str(served[name]), f"{statistics.median(xs) * 1000:.1f}",
                              f"{xs[int(0.9 * (len(xs) - 1))] * 1000:.1f}", f"{xs[-1] * 1000:.1f}")
            console.print(table)
            all_games = statistics.median(times["dashboard, all games"])
            console.print(f"dashboard data for {games} games: median {all_games * 1000:.1f} ms "
                          f"({'under' if all_games < 1 else 'OVER'} the 1 s target); /stats takes "
                          f"{statistics.median(times['stats (aggregated on read)']) / all_games:.1f}x as long")
            for name, xs in writes.items():
                console.print(f"write {games} rows, {name}: " + ", ".join(f"{x:.2f} s" for x in xs)
                              + f" (median {statistics.median(xs) / games * 1e6:.0f} µs a row)")
        finally:
            if gateway is not None:
                gateway.send_signal(signal.SIGTERM)
                gateway.wait(15)
            server.terminate()
            server.wait(15)


def main(games: Annotated[int, typer.Option(help="Finished games the dashboard covers.")] = 10_000,
         real: Annotated[int, typer.Option(help="Games played in memory, copied up to --games.")] = 200,
         rounds: Annotated[int, typer.Option(help="Requests of each kind, alternating.")] = 15) -> None:
    """Time the dashboard's data for many finished games, and the cost of keeping it."""
    asyncio.run(run(games, real, rounds))


if __name__ == "__main__":
    typer.run(main)
