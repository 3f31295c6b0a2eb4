"""`tablestream bench gateway` (`python -m bench gateway`): the HTTP gateway against the
direct stream client, and the WebSocket fan-out (issue #30). Prints figures; asserts nothing.

Everything runs on a Redis server the bench starts (as `tablestream bench` does), with
`tablestream up` (referee and projector, one process) and `tablestream gateway` as
processes of their own; the gateway's rate limits are switched off (the bench is one
address sending thousands of commands a second). Games are 7 Wonders Duel, opened by the
direct client and scripted by random legal play beforehand, so both paths send the same
kind of commands, one game's commands one after another.

(1) Closed loop: CONCURRENCY games in flight, each sending its next command as soon as the
    last one's outcome came: commands/s and p50/p99 of publish → outcome, through the
    gateway (POST /games/{id}/commands on keep-alive HTTP/1.1, parsed by httptools:
    `HttpPool`) and direct (services.client on the command stream), ROUNDS times each,
    alternately (the machine's speed drifts).
    CPU a command: the process CPU time (psutil) of `up` plus the gateway, and of `up` plus
    the direct client (this process, which does nothing else then), over each round.
(2) Half load: the gateway's median closed-loop rate halved, offered open-loop on both
    paths (a command published every 1/rate s to a game with none in flight): p50/p99 and
    CPU a command, alternately. The CPU comparison is made here, at one rate: up's CPU a
    command grows as the rate falls (smaller batches), so closed loops at different rates
    do not compare.
(3) Fan-out: SOCKETS spectator WebSockets on one game; UPDATES commands sent one at a
    time: each socket must receive every position; the delay from a command's publish to
    each socket's receipt of its view, p50/p99/max. The receiving sockets live in this
    process (their reading is part of the delay). The fd limit is raised as needed.

After each closed-loop round, how long the projector took to catch up (its views trail the
outcomes while it is behind; the outcomes do not wait for them) is printed too: a closed
loop's rate is the referee's, and a projector that falls behind makes it look faster than
the service can go on.

Each timed round of (1) and (2) starts once the service is idle (`settle`: no command
pending or unread, no feed entry unprojected): the first half-load rounds used to start on
the projector's backlog from the closed loops, and their p99 was that backlog's.

The machine is shared (other agents run on its 2 cores): compare paths within one run,
and runs by their ratios.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httptools
import httpx
import msgspec
import psutil
import redis.asyncio as aioredis
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri
from rich.console import Console
from rich.table import Table

from bench.machine import free_port, pct, python_speed, start_server
from events import keys
from events.envelope import Accepted
from events.store import EventStore
from games import registry
from projections.table import advance, empty
from services.bots.backlog import script_game
from services.client import Client

console = Console()
GAME = registry.get("seven_wonders_duel")
START_S = 90.0


@dataclass
class Script:
    game_id: str
    tokens: list[str]
    moves: list[tuple[int, Any, Any]]  # seat, the command Struct, its JSON form
    next: int = 0


@dataclass
class Round:
    """One measured run of a path: its rate, latencies (ms), and CPU µs a command."""

    rate: float
    p50: float
    p99: float
    cpu_us: float  # up + the gateway (or the direct client)
    service_us: float  # up alone
    late_p99: float = 0.0  # open loop: how late commands were published against the schedule (ms)
    behind_s: float = 0.0  # closed loop: seconds after its last outcome until every view was projected


class Stack:
    """Redis, `tablestream up` and `tablestream gateway`, started for the bench."""

    def __init__(self, gateway_src: str | None = None) -> None:
        self.gateway_src = gateway_src  # run the gateway from another source tree (A/B of versions)
        self.folder = tempfile.mkdtemp(prefix="ts-bench-gw-")
        self.procs: list[subprocess.Popen] = []
        self.url = self.base = ""
        self.redis_proc: subprocess.Popen | None = None

    async def start(self) -> None:
        self.redis_proc, self.url = await start_server(self.folder)
        env = {**os.environ, "REDIS_URL": self.url, "TABLESTREAM_GATEWAY_RATE_ADDRESS": "off",
               "TABLESTREAM_GATEWAY_RATE_TOKEN": "off"}
        out = open(os.path.join(self.folder, "procs.out"), "w")
        self.up = subprocess.Popen([sys.executable, "-m", "services.cli", "up"], env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
        port = free_port()
        self.gateway = subprocess.Popen([sys.executable, "-m", "services.cli", "gateway", "--host", "127.0.0.1",
                                         "--port", str(port)], env=env, stdout=out, stderr=subprocess.STDOUT,
                                        cwd=self.gateway_src)
        self.procs = [self.up, self.gateway]
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_S
        async with httpx.AsyncClient() as http:
            while True:
                try:
                    if (await http.get(self.base + "/game-types")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or any(p.poll() is not None for p in self.procs):
                    raise RuntimeError(f"the gateway did not start: {open(out.name).read()[-2000:]}")
                await asyncio.sleep(0.2)

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far of `up` and of the gateway."""
        def of(p: subprocess.Popen) -> float:
            t = psutil.Process(p.pid).cpu_times()
            return t.user + t.system
        return of(self.up), of(self.gateway)

    def stop(self) -> None:
        running = [psutil.Process(p.pid) for p in self.procs if p.poll() is None]
        for p in running:
            p.terminate()
        for p in psutil.wait_procs(running, timeout=15)[1]:
            p.kill()
        for p in self.procs:
            p.wait(10)  # reaped
        if self.redis_proc is not None:
            self.redis_proc.kill()
            self.redis_proc.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


async def open_games(client: Client, store: EventStore, n: int, tag: str) -> list[Script]:
    """`n` Duel games opened directly and scripted to their end by random legal play."""
    out = []
    for start in range(0, n, 50):
        opened = await asyncio.gather(*(client.open(GAME, preset="2p") for _ in range(start, min(n, start + 50))))
        for i, (gid, tokens, res) in enumerate(opened):
            assert isinstance(res, Accepted), res
            table = advance(empty(gid, GAME), await store.read(gid))
            moves = script_game(GAME, table, f"{tag}{start + i}".encode())
            out.append(Script(gid, tokens, [(s, c, msgspec.to_builtins(c)) for s, c in moves]))
    return out


Send = Callable[[Script], Awaitable[None]]


class _Http(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection of the bench's load: a request written as bytes,
    its response parsed by httptools (the C parser uvicorn uses) straight from the socket's
    reads. aiohttp spent ~460 µs of this process's CPU a command at half load here, a fifth
    of the 2-core machine the gateway shares (bench/RESULTS.md); this spends a fraction."""

    def __init__(self) -> None:
        self.transport: Any = None
        self.parser = httptools.HttpResponseParser(self)
        self.body: list[bytes] = []
        self.done: asyncio.Future[tuple[int, bytes]] | None = None
        self.used = time.monotonic()
        self.lost = False

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.parser.feed_data(data)

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        if not self.parser.should_keep_alive():  # the server closes it: never reused
            self.lost = True
        if self.done is not None and not self.done.done():
            self.done.set_result((self.parser.get_status_code(), b"".join(self.body)))
        self.body = []

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if self.done is not None and not self.done.done():
            self.done.set_exception(ConnectionError(f"the gateway closed the connection: {exc}"))

    async def request(self, head: bytes, body: bytes, timeout: float = 30.0) -> tuple[int, bytes]:
        """Send one request and wait (at most `timeout` s) for its response; after a failure
        the connection is closed, never reused."""
        self.done = asyncio.get_running_loop().create_future()
        self.transport.write(head + body)
        try:
            return await asyncio.wait_for(self.done, timeout)
        except BaseException:
            self.lost = True
            self.transport.close()
            raise
        finally:
            self.used = time.monotonic()


class HttpPool:
    """Keep-alive connections to the gateway, one per request in flight. A connection idle
    for `IDLE_S` is closed rather than reused: uvicorn ends idle ones after 5 s, and a
    request written as it does so would be lost (or, sent again, doubled)."""

    IDLE_S = 2.0

    def __init__(self, base: str) -> None:
        self.host, port = base.split("//")[1].split(":")
        self.port = int(port)
        self.idle: list[_Http] = []

    async def take(self) -> _Http:
        now = time.monotonic()
        while self.idle:
            c = self.idle.pop()
            if not c.lost and now - c.used < self.IDLE_S:
                return c
            c.transport.close()
        _, c = await asyncio.get_running_loop().create_connection(_Http, self.host, self.port)
        c.transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return c

    def give(self, c: _Http) -> None:
        if not c.lost:
            self.idle.append(c)

    def close(self) -> None:
        for c in self.idle:
            c.transport.close()
        self.idle = []


def gateway_sender(http: HttpPool) -> Send:
    """Commands over HTTP (`HttpPool`). The clients before: httpx spent ~2.9 ms of this
    process's CPU a command at 32 in flight, which capped the gateway's closed loop near 150
    commands/s while the gateway idled; aiohttp ~0.17 ms there and ~0.46 ms at half load
    (bench/RESULTS.md)."""
    host = f"{http.host}:{http.port}".encode()

    async def send(s: Script) -> None:
        seat, _, body = s.moves[s.next]
        data = _json.encode({"command": body})
        head = (b"POST /games/%s/commands HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"
                b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                % (s.game_id.encode(), host, s.tokens[seat].encode(), len(data)))
        c = await http.take()
        try:
            status, text = await c.request(head, data)
        finally:
            http.give(c)
        if status != 200:
            raise RuntimeError(f"the gateway refused a scripted command: {text.decode(errors='replace')}")
        s.next += 1
    return send


_json = msgspec.json.Encoder()


def direct_sender(client: Client) -> Send:
    async def send(s: Script) -> None:
        seat, cmd, _ = s.moves[s.next]
        out = await client.act(GAME, s.game_id, seat, s.tokens[seat], cmd)
        if not isinstance(out, Accepted):
            raise RuntimeError(f"the referee refused a scripted command: {out}")
        s.next += 1
    return send


class Pool:
    """Scripted games handed out one at a time; a game goes back while it has commands left."""

    def __init__(self, scripts: list[Script]) -> None:
        self.idle = deque(scripts)

    def take(self) -> Script | None:
        return self.idle.popleft() if self.idle else None

    def give(self, s: Script) -> None:
        if s.next < len(s.moves):
            self.idle.append(s)


async def _measured(stack: Stack, direct: bool, run: Callable[[], Awaitable[tuple[list[float], int, float]]]
                    ) -> tuple[list[float], int, float, float, float]:
    """`run()` timed, with the CPU it cost. This process's heap (the scripted games: ~10^5-10^6
    objects) is frozen for the round: a full collection of it took up to 121 ms here, and every
    command in flight, either path's, was counted that much slower."""
    gc.collect()
    gc.freeze()
    up0, gw0 = stack.cpu()
    me0 = time.process_time()
    try:
        lat, n, wall = await run()
    finally:
        gc.unfreeze()
    up1, gw1 = stack.cpu()
    mine = time.process_time() - me0
    extra = mine if direct else gw1 - gw0
    return lat, n, wall, (up1 - up0 + extra) / n * 1e6, (up1 - up0) / n * 1e6


SETTLE_S = 30.0


async def settle(r: aioredis.Redis) -> float:
    """Wait until the referees and the projector have nothing left to do (no command
    pending or unread, no feed entry unprojected), so that a timed round starts on an idle
    service rather than on the last round's projection backlog or its own games' openings;
    the seconds it waited (at most SETTLE_S)."""
    from services.metrics import read_backlogs

    shards = int(await r.get(keys.shards()) or 1)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < SETTLE_S:
        if all(b.pending == 0 and b.lag == 0 and b.projector_lag == 0 for b in await read_backlogs(r, shards)):
            break
        await asyncio.sleep(0.05)
    return time.perf_counter() - t0


async def closed_loop(stack: Stack, send: Send, pool: Pool, commands: int, concurrency: int, direct: bool) -> Round:
    async def run() -> tuple[list[float], int, float]:
        lat: list[float] = []

        async def worker() -> None:
            while len(lat) < commands:
                s = pool.take()
                if s is None:
                    return
                t = time.perf_counter()
                await send(s)
                lat.append(time.perf_counter() - t)
                pool.give(s)

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return lat, len(lat), time.perf_counter() - t0

    lat, n, wall, cpu_us, up_us = await _measured(stack, direct, run)
    return Round(n / wall, pct(lat, 0.5) * 1e3, pct(lat, 0.99) * 1e3, cpu_us, up_us)


async def open_loop(stack: Stack, send: Send, pool: Pool, rate: float, seconds: float, direct: bool) -> Round:
    """A command every 1/rate s, each to an idle game (none idle: it waits, counted as late)."""
    late: list[float] = []

    async def run() -> tuple[list[float], int, float]:
        lat: list[float] = []
        tasks: set[asyncio.Task[None]] = set()
        total = int(rate * seconds)

        async def one(s: Script) -> None:
            t = time.perf_counter()
            await send(s)
            lat.append(time.perf_counter() - t)
            pool.give(s)

        t0 = time.perf_counter()
        i = 0
        while i < total:
            due = min(total, int((time.perf_counter() - t0) * rate) + 1)
            while i < due:
                s = pool.take()
                if s is None:
                    break
                late.append(time.perf_counter() - (t0 + i / rate))
                task = asyncio.create_task(one(s))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                i += 1
            await asyncio.sleep(0.001)
        await asyncio.gather(*tasks)
        return lat, len(lat), time.perf_counter() - t0

    lat, n, wall, cpu_us, up_us = await _measured(stack, direct, run)
    return Round(n / wall, pct(lat, 0.5) * 1e3, pct(lat, 0.99) * 1e3, cpu_us, up_us,
                 late_p99=pct(late, 0.99) * 1e3)


def _raise_fd_limit(need: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, need) if hard != resource.RLIM_INFINITY else need, hard))


class Spectator(asyncio.Protocol):
    """One receiving WebSocket of the fan-out: websockets' own protocol (handshake, frames,
    pings) driven straight from the socket's reads, so a message costs the receiving process
    a parse and no task switch (the library's asyncio connection spends ~25 µs a message
    here, which, on this 2-core machine, the gateway shares). Records when each view arrived."""

    def __init__(self, url: str, got: dict[int, float]) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=None)
        self.got = got
        self.open: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self._flush()

    def _flush(self) -> None:
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        at = time.perf_counter()
        self.ws.receive_data(data)
        for ev in self.ws.events_received():
            if isinstance(ev, Frame):
                if ev.opcode is Opcode.TEXT:
                    j = ev.data.find(b'"seq":')  # the message's own seq comes first: no need to parse the doc
                    self.got[int(ev.data[j + 6:ev.data.index(b",", j)])] = at
            elif not self.open.done():
                if isinstance(ev, Response) and ev.status_code == 101:
                    self.open.set_result(None)
                else:
                    self.open.set_exception(RuntimeError(f"handshake refused: {ev}"))
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.open.done():
            self.open.set_exception(RuntimeError(f"connection lost: {exc}"))

    def send(self, text: str) -> None:
        self.ws.send_text(text.encode())
        self._flush()


@dataclass
class FanOut:
    delays: list[float]  # ms, from each command's publish to each socket's receipt of its view
    complete: int  # sockets that got every position
    opened: int
    spread: float  # ms from the first socket's receipt of a view to the last's (median over updates)
    gateway_us: float  # the gateway's CPU per delivered message
    clients_us: float  # this process's (the receiving sockets') CPU per delivered message


async def fan_out(stack: Stack, client: Client, store: EventStore, sockets: int, updates: int,
                  pause_s: float) -> FanOut:
    """`sockets` spectators of one game, `updates` commands one every `pause_s` s."""
    script = (await open_games(client, store, 1, "fan"))[0]
    start = (await store.version(script.game_id))
    ws_url = stack.base.replace("http://", "ws://") + f"/games/{script.game_id}/socket"
    got: list[dict[int, float]] = [dict() for _ in range(sockets)]
    conns: list[Spectator] = []

    host, port = stack.base.split("//")[1].split(":")
    loop = asyncio.get_running_loop()
    for start_k in range(0, sockets, 100):
        batch = [Spectator(ws_url, got[k]) for k in range(start_k, min(sockets, start_k + 100))]
        await asyncio.gather(*(loop.create_connection(lambda c=c: c, host, int(port)) for c in batch))
        await asyncio.gather(*(c.open for c in batch))
        for c in batch:
            c.send(json.dumps({"type": "subscribe", "after": start}))
        conns += batch
    async with httpx.AsyncClient(base_url=stack.base) as http:
        for _ in range(300):  # every socket subscribed (the gateway counts them)
            text = (await http.get("/metrics")).text
            line = next(ln for ln in text.splitlines() if ln.startswith("tablestream_gateway_websockets "))
            if float(line.split()[1]) >= sockets:
                break
            await asyncio.sleep(0.1)
    published: dict[int, float] = {}
    _, gw0 = stack.cpu()
    me0 = time.process_time()
    for _ in range(min(updates, len(script.moves))):
        seat, cmd, _ = script.moves[script.next]
        t = time.perf_counter()
        out = await client.act(GAME, script.game_id, seat, script.tokens[seat], cmd)
        assert isinstance(out, Accepted), out
        published[out.seqs[-1]] = t
        script.next += 1
        await asyncio.sleep(pause_s)
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and not all(len(g) >= len(published) for g in got):
        await asyncio.sleep(0.1)
    _, gw1 = stack.cpu()
    messages = max(1, len(published) * len(conns))
    gw_us, me_us = (gw1 - gw0) / messages * 1e6, (time.process_time() - me0) / messages * 1e6
    spread = [max(g[seq] for g in got if seq in g) - min(g[seq] for g in got if seq in g) for seq in published
              if any(seq in g for g in got)]
    for c in conns:
        c.transport.close()
    return FanOut(delays=[(g[seq] - t) * 1e3 for g in got for seq, t in published.items() if seq in g],
                  complete=sum(all(seq in g for seq in published) for g in got), opened=len(conns),
                  spread=pct([x * 1e3 for x in spread], 0.5), gateway_us=gw_us, clients_us=me_us)


def _med(rounds: list[Round], field: str) -> float:
    return statistics.median(getattr(r, field) for r in rounds)


async def main(*, rounds: int, commands: int, concurrency: int, half_seconds: float, sockets: int,
               updates: int, parts: str = "all", gateway_src: str | None = None) -> None:
    _raise_fd_limit(sockets + 512)  # before the gateway starts: it inherits the limit
    stack = Stack(gateway_src)
    await stack.start()
    r = aioredis.from_url(stack.url)
    store = EventStore(r)
    http: HttpPool | None = None
    try:
        console.print(f"machine: a Python loop step takes {python_speed():.0f} ns (best of 3); "
                      "a 2-core machine shared with other work: compare within a run")
        per_game = 70  # a Duel game is 60-80 commands
        http = HttpPool(stack.base)
        async with Client(r, timeout=30) as client:
            paths = {"gateway": gateway_sender(http), "direct": direct_sender(client)}
            closed: dict[str, list[Round]] = {"gateway": [], "direct": []}
            half: dict[str, list[Round]] = {"gateway": [], "direct": []}
            waited: list[float] = []  # before each timed round, for the service to go idle
            for k in range(rounds if parts in ("all", "paths") else 0):
                for name in (("gateway", "direct") if k % 2 == 0 else ("direct", "gateway")):
                    pool = Pool(await open_games(client, store, commands // per_game + concurrency * 2, f"c{k}{name}"))
                    waited.append(await settle(r))
                    closed[name].append(await closed_loop(stack, paths[name], pool, commands, concurrency,
                                                          name == "direct"))
                    x = closed[name][-1]
                    x.behind_s = await settle(r)
                    console.print(f"  closed loop, {name}: {x.rate:,.0f} commands/s, p50 {x.p50:.2f} ms, "
                                  f"p99 {x.p99:.2f} ms, CPU {x.cpu_us:.0f} µs a command (up alone {x.service_us:.0f}); "
                                  f"views projected {x.behind_s:.2f} s after the last outcome")
            for k in range(rounds if parts in ("all", "paths") else 0):
                for name in (("gateway", "direct") if k % 2 == 0 else ("direct", "gateway")):
                    rate = _med(closed["gateway"], "rate") / 2  # both at the gateway's half load
                    n = int(rate * half_seconds)
                    pool = Pool(await open_games(client, store, n // per_game + 60, f"h{k}{name}"))
                    waited.append(await settle(r))
                    half[name].append(await open_loop(stack, paths[name], pool, rate, half_seconds,
                                                      name == "direct"))
                    x = half[name][-1]
                    console.print(f"  half load, {name}: {x.rate:,.0f} commands/s offered, p50 {x.p50:.2f} ms, "
                                  f"p99 {x.p99:.2f} ms (published up to {x.late_p99:.1f} ms late, p99), CPU "
                                  f"{x.cpu_us:.0f} µs a command (up alone {x.service_us:.0f})")
            if waited:
                console.print(f"  each timed round started on an idle service (no command or feed entry left): "
                              f"waited {min(waited):.2f}-{max(waited):.2f} s before one")
            fan = FanOut([], 0, 0, 0.0, 0.0, 0.0)
            if parts in ("all", "fanout"):
                fan = await fan_out(stack, client, store, sockets, updates, 0.1)
                console.print(f"  fan-out: {fan.complete} of {fan.opened} sockets got all {updates} updates; delivery "
                              f"p50 {pct(fan.delays, 0.5):.1f}, p99 {pct(fan.delays, 0.99):.1f}, max "
                              f"{max(fan.delays, default=0):.1f} ms; first to last socket {fan.spread:.1f} ms (median); "
                              f"CPU a delivered message: the gateway {fan.gateway_us:.0f} µs, the receiving clients "
                              f"{fan.clients_us:.0f} µs")
        if parts == "fanout":
            return
        # CPU compared at one offered rate: the referee's and projector's CPU a command depends on
        # the rate (batching), and the closed loops run at very different rates
        g_cpu, d_cpu = _med(half["gateway"], "cpu_us"), _med(half["direct"], "cpu_us")
        t = Table(title="tablestream bench gateway (medians)")
        for col in ("figure", "gateway", "direct", "target"):
            t.add_column(col, justify="left" if col == "figure" else "right")

        def row(name: str, of: dict[str, list[Round]], fmt: str, target: str = "") -> None:
            t.add_row(name, *(fmt.format(*(_med(of[p], f) for f in ("rate", "p50", "p99"))) for p in ("gateway", "direct")),
                      target)

        row("commands/s, closed loop", closed, "{0:,.0f}")
        row("p50 / p99 closed loop (ms)", closed, "{1:.2f} / {2:.2f}")
        t.add_row("closed loop: views projected after the last outcome (s)",
                  *(f"{_med(closed[p], 'behind_s'):.2f}" for p in ("gateway", "direct")), "")
        t.add_row("CPU a command at half load (µs): up + gateway | up + client", f"{g_cpu:.0f}", f"{d_cpu:.0f}", "")
        t.add_row("CPU the gateway adds", f"{g_cpu / d_cpu - 1:+.0%}", "", "≤ +15%")
        row("p50 / p99 at half load (ms)", half, "{1:.2f} / {2:.2f}", "p99 < 15")
        if parts == "all":
            t.add_row(f"fan-out: sockets with all {updates} updates", f"{fan.complete} of {fan.opened}", "", f"{sockets}")
            t.add_row("fan-out delivery p50 / p99 / max (ms)", f"{pct(fan.delays, 0.5):.1f} / "
                      f"{pct(fan.delays, 0.99):.1f} / {max(fan.delays, default=0):.1f}", "", "p99 < 50")
        console.print(t)
    finally:
        if http is not None:
            http.close()
        await r.aclose()
        stack.stop()
