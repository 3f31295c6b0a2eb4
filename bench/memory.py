"""Redis memory over a long run with 10% hostile commands (issue #22 item 6): does it level off?

Starts its own redis-server (deploy/redis.conf, AOF off) on a free port in a temporary
folder, and in this process a referee, the live projector and an operator that archives
finished games (`tablestream archive`), all with SHORT retention settings so that the
retention bites within the run (done grace 2 s, rejected records, reply streams and
undisclosed seeds 10 s; the defaults are a day, an hour, 10 minutes: with them the same
levels are reached, later and higher). Then, wave after wave, `--games` games of
`--game` (preset `--preset`) are opened, scripted to their end by random legal play and
sent as one backlog, with one hostile command per nine legal ones mixed in:

* oversized: a 8 KiB body, or a 1 KiB command id and reply stream, or a 64 KiB extra field;
* unknown presets: opens of fresh game ids that are refused (bad_options);
* random reply streams: refused commands (a wrong token) each answered to a new stream;
* bad ids: command ids with a blank or a brace (malformed, unrecorded);
* replays: a legal command sent again (duplicate), or its id with another command
  (command_id_reused).

After each wave it prints Redis's used memory and the bytes per key family (MEMORY USAGE
over SCAN) twice: once the referee has answered the wave ("judged": the wave's games just
finished, their logs, views, done records, the wave's reply streams, refusals and seeds
all there) and once the projector has applied it and its games are archived
("archived"); at the end, the bytes a finished game holds until it is archived. Prints figures,
asserts nothing:

    .venv/bin/python -m bench.memory [--commands 1000000] [--games 200] [--game seven_wonders --preset 3p]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import msgspec
import redis.asyncio as aioredis

from bench.machine import start_server
from events import keys
from events.envelope import Accepted, CommandEnvelope
from events.store import EventStore
from games import registry
from projections.table import advance, empty
from services import protocol
from services.archive import Archiver, Refused
from services.bots.backlog import interleave, script_game
from services.client import Client
from services.config import Settings, unique_consumer
from services.projector.runner import Projector
from services.referee.app import RefereeService

RETENTION = dict(done_grace_s=2, rejected_ttl_s=10, reply_ttl_s=10, seed_ttl_s=10)
"""The short retention of the run (seconds)."""


def _family(key: bytes) -> str:
    """A key's family: its name up to the first ":" (`reply`, `done`, `ev`, ...)."""
    return key.split(b":", 1)[0].decode(errors="replace")


async def by_family(r: aioredis.Redis) -> dict[str, tuple[int, int]]:
    """Per key family: (keys, bytes by MEMORY USAGE), over one SCAN."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    batch: list[bytes] = []

    async def measure() -> None:
        pipe = r.pipeline(transaction=False)
        for k in batch:
            pipe.memory_usage(k)
        for k, n in zip(batch, await pipe.execute()):
            row = out[_family(k)]
            row[0] += 1
            row[1] += int(n or 0)
        batch.clear()

    async for k in r.scan_iter(count=2000):
        batch.append(k)
        if len(batch) >= 1000:
            await measure()
    await measure()
    return {f: (n, b) for f, (n, b) in out.items()}


def _hostile(kind: int, rng: random.Random, legal: list[CommandEnvelope], game_ids: list[str],
             game_type: str, client_id: str, n: int) -> dict[bytes, bytes]:
    """One hostile cmd:{s} entry of kind 0-4 (see the module's docstring)."""
    victim = rng.choice(legal)
    if kind == 0:  # oversized fields
        which = n % 3
        if which == 0:
            return {protocol.BODY: b"[" + b"1," * 4096 + b"1]", protocol.ID: b"big-%d" % n,
                    protocol.TO: client_id.encode()}
        if which == 1:
            return {protocol.BODY: b"{}", protocol.ID: b"i" * 1024, protocol.TO: b"t" * 1024}
        return {**protocol.command_fields(victim), b"extra": b"x" * 65536}
    if kind == 1:  # an open with an unknown preset, under a fresh game id
        req = protocol.OpenRequest(token_hashes=["0" * 64], preset=f"no-such-preset-{n}")
        env = CommandEnvelope(command_id=f"{client_id}-h{n}", game_id=f"hostile-{client_id}-{n}",
                              game_type=game_type, kind="open", command=msgspec.Raw(msgspec.json.encode(req)),
                              reply_to=client_id)
        return protocol.command_fields(env)
    if kind == 2:  # refused, answered to a new reply stream each time
        env = msgspec.structs.replace(victim, command_id=f"{client_id}-h{n}", token="not-the-token",
                                      reply_to=f"r-{rng.getrandbits(64):016x}")
        return protocol.command_fields(env)
    if kind == 3:  # a bad command id
        env = msgspec.structs.replace(victim, command_id=f"bad id {{{n}}}")
        return {protocol.BODY: msgspec.json.encode(env), protocol.ID: b"bad id", protocol.TO: client_id.encode()}
    if n % 2:  # a replay of a legal command
        return protocol.command_fields(victim)
    other = msgspec.structs.replace(victim, command=msgspec.Raw(b'{"type":"not-the-same"}'))
    return protocol.command_fields(other)


async def _wave(r: aioredis.Redis, store: EventStore, game_name: str, preset: str, games: int, wave: int,
                rng: random.Random) -> tuple[list[dict[bytes, bytes]], list[str], int]:
    """Open a wave's games and script them to their end: the backlog's entries (legal and
    hostile), the game ids, and how many entries are hostile."""
    game = registry.get(game_name)
    client_id = f"mem-{os.getpid()}-{wave}"
    tokens, scripts = {}, {}
    async with Client(r, client_id=client_id + "-open", timeout=60) as c:
        opened = []
        for start in range(0, games, 50):
            opened += await asyncio.gather(*(c.open(game, preset=preset) for _ in range(start, min(games, start + 50))))
    for i, (gid, toks, out) in enumerate(opened):
        assert isinstance(out, Accepted), out
        tokens[gid] = toks
        scripts[gid] = script_game(game, advance(empty(gid, game), await store.read(gid)), b"mem%d-%d" % (wave, i))
    legal = interleave(game, scripts, tokens, client_id, staggered=True)
    entries: list[dict[bytes, bytes]] = []
    hostile = 0
    for i, env in enumerate(legal):
        entries.append(protocol.command_fields(env))
        if i % 9 == 8:
            entries.append(_hostile(hostile % 5, rng, legal[: i + 1], list(scripts), game.id, client_id, hostile))
            hostile += 1
    return entries, list(scripts), hostile


async def _until(check, timeout: float = 600.0) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise TimeoutError("the run did not catch up in time")
        await asyncio.sleep(0.05)


async def main(commands: int, games: int, game_name: str, preset: str) -> None:
    folder = tempfile.mkdtemp(prefix="ts-memory-")
    proc, url = await start_server(folder)
    r = aioredis.from_url(url)
    await r.config_set("appendonly", "no")
    settings = Settings(redis_url=url, consumer=unique_consumer("mem"), poll_ms=20, **RETENTION)  # type: ignore[arg-type]
    svc = RefereeService(settings, url)
    await svc.start()
    referee = svc.referees[0]
    store = EventStore(r)
    projector = Projector(r, store, 0)
    stop = asyncio.Event()
    projecting = asyncio.create_task(projector.run(stop))
    rng = random.Random(22)
    base = int((await r.info("memory"))["used_memory"])
    print(f"retention: {RETENTION}; Redis used_memory at start {base:,} B", flush=True)
    sent = hostile = archived = 0
    families: set[str] = set()
    rows: list[tuple[int, str, int, dict[str, tuple[int, int]]]] = []
    t0 = time.perf_counter()
    per_game: list[int] = []
    phase: dict[str, float] = defaultdict(float)
    wave = 0
    try:
        while sent < commands:
            t = time.perf_counter()
            entries, game_ids, h = await _wave(r, store, game_name, preset, games, wave, rng)
            phase["open+script"] += time.perf_counter() - t
            t = time.perf_counter()
            start = referee.handled
            pipe = r.pipeline(transaction=False)
            for f in entries:
                pipe.xadd(keys.cmd(0), f)
                if len(pipe) >= 500:
                    await pipe.execute()
            await pipe.execute()
            await _until(lambda: _answered(referee, start + len(entries)))
            phase["judge"] += time.perf_counter() - t
            sent += len(entries) + len(game_ids)  # the opens went through the referee too
            hostile += h
            await _snapshot(r, rows, families, sent, "judged")
            t = time.perf_counter()
            await _until(projector.idle)
            phase["project"] += time.perf_counter() - t
            t = time.perf_counter()
            per_game.append(await _footprint(r, game_ids[0]))
            archiver = Archiver(r, store, Path(folder) / "archive")
            for g in game_ids:
                try:
                    await archiver.archive(g)
                    archived += 1
                except Refused as e:
                    print(f"not archived: {e}")
            phase["archive"] += time.perf_counter() - t
            wave += 1
            fam = await _snapshot(r, rows, families, sent, "archived")
            stones = fam.get("archived", (0, 0))[1]
            print(f"{'':>9} {hostile:,} hostile, {archived:,} games finished and archived, "
                  f"{time.perf_counter() - t0:,.0f} s, {stones / max(1, archived):,.0f} B kept per archived game",
                  flush=True)
    finally:
        stop.set()
        await projecting
        await svc.stop()
        await r.aclose()
        proc.terminate()
        proc.wait(20)
        shutil.rmtree(folder, ignore_errors=True)
    if per_game:
        print(f"a finished game before its archive: {sum(per_game) / len(per_game):,.0f} B of log, views, "
              f"stats row and done records (mean of {len(per_game)} games, one per wave)")
    print("seconds spent: " + ", ".join(f"{k} {v:,.0f}" for k, v in phase.items()))
    print("\nbytes per key family (keys) at each interval:")
    names = sorted(families)
    print("commands  when      used_MiB  " + "  ".join(names))
    for sent_, when, used, fam in rows:
        print(f"{sent_:>8,}  {when:8}  {used / 2**20:8.1f}  " + "  ".join(
            f"{fam.get(f, (0, 0))[1] / 1024:,.0f}K/{fam.get(f, (0, 0))[0]:,}" for f in names))


async def _snapshot(r: aioredis.Redis, rows: list, families: set[str], sent: int, when: str
                    ) -> dict[str, tuple[int, int]]:
    """Measure and print memory now; kept in `rows` for the final table."""
    fam = await by_family(r)
    families |= set(fam)
    used = int((await r.info("memory"))["used_memory"])
    rows.append((sent, when, used, fam))
    top = ", ".join(f"{f} {b / 1024:,.0f} KiB/{n:,}" for f, (n, b) in sorted(fam.items(), key=lambda x: -x[1][1])[:9])
    print(f"{sent:>9,} commands, {when:>8}: used_memory {used / 2**20:6.1f} MiB; {top}", flush=True)
    return fam


async def _answered(referee, n: int) -> bool:
    return referee.handled >= n


async def _footprint(r: aioredis.Redis, game_id: str) -> int:
    """Bytes Redis holds for one finished game: its log, views, stats row share and done records."""
    total = 0
    store = EventStore(r)
    envs = await store.read(game_id)
    names = [keys.log(0, game_id), *[k async for k in r.scan_iter(match=keys.game_views_pattern(0, game_id))],
             *{keys.done(0, e.command_id) for e in envs}]
    for k in names:
        total += int(await r.memory_usage(k) or 0)
    row = await r.hget(keys.stats(envs[0].game_type), game_id)
    return total + len(row or b"")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=200, help="games per wave")
    ap.add_argument("--game", default="seven_wonders")
    ap.add_argument("--preset", default="3p")
    a = ap.parse_args()
    asyncio.run(main(a.commands, a.games, a.game, a.preset))
