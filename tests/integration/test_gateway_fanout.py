"""The game WebSocket's fan-out over real processes (issue #30): many sockets on one game
share one read per position and get the very same message text, every position once and in
order; a seat socket among them gets its own seat's view; and a socket whose queue fills
while positions come (its client stops reading for a while) leaves the shared reads, catches
up on its own and rejoins, missing nothing and getting nothing twice.

The pause is ended by the gateway's own count of such catch-ups
(`tablestream_gateway_websocket_catch_ups_total`), so the queue is never full for the
SLOW_S that would drop the socket (test_gateway_slow_socket.py covers the drop)."""

from __future__ import annotations

import asyncio
import json
import random
import socket
from typing import Any

import httpx
import websockets

from games import registry
from projections.board import doc
from projections.table import advance, command_end, empty
from tests.integration.support_gateway import Deployment, deployment
from tests.integration.test_gateway_socket import _envs, _move, _same, _ws

__all__ = ["deployment"]

SPECTATORS = 40
QUEUE = 2
SNDBUF = 16384
RCVBUF = 4096


async def _metric(http: httpx.AsyncClient, name: str) -> float:
    text = (await http.get("/metrics")).text
    return float(next(ln for ln in text.splitlines() if ln.startswith(name + " ")).split()[1])


async def _views(ws: Any, until: int, got: list[str] | None = None) -> list[str]:
    """The raw view messages up to the one at seq `until` (appended to `got` as they come)."""
    got = [] if got is None else got
    while True:
        raw = await asyncio.wait_for(ws.recv(), 30)
        m = json.loads(raw)
        if m["type"] == "view":
            got.append(raw)
            if m["seq"] >= until:
                return got


async def test_many_sockets_one_read_and_a_socket_that_falls_behind_catches_up(deployment: Deployment) -> None:
    base = deployment.start_gateway(env={"TABLESTREAM_GATEWAY_WS_QUEUE": str(QUEUE),
                                         "TABLESTREAM_GATEWAY_WS_SNDBUF": str(SNDBUF)})
    game = registry.get("ora_et_labora")  # large views (~10 KB): a few fill the buffers before the queue
    rnd = random.Random(11)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/games", json={"game_type": "ora_et_labora", "preset": "4p_france"})).json()
        gid, tokens = made["game_id"], made["tokens"]
        start = (await _envs(deployment, gid))[-1].seq
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
        raw.connect((base.split("//")[1].split(":")[0], int(base.rsplit(":", 1)[1])))
        raw.setblocking(False)
        lagging = await websockets.connect(_ws(base, gid), sock=raw, max_queue=1, max_size=None, ping_interval=None)
        seat_ws = await websockets.connect(_ws(base, gid), additional_headers={"Authorization": f"Bearer {tokens[1]}"})
        spectators = [await websockets.connect(_ws(base, gid), max_size=None) for _ in range(SPECTATORS)]
        try:
            for ws in (lagging, *spectators):
                await ws.send(json.dumps({"type": "subscribe", "after": start}))
            await seat_ws.send(json.dumps({"type": "subscribe", "after": start}))
            for _ in range(100):
                if await _metric(http, "tablestream_gateway_websockets") >= SPECTATORS + 2:
                    break
                await asyncio.sleep(0.2)
            seen: list[list[str]] = [[] for _ in spectators]
            readers = [asyncio.create_task(_views(ws, 10**9, got)) for ws, got in zip(spectators, seen)]
            # the lagging client reads nothing while moves are made, until the gateway has let its
            # socket go from the shared reads (its queue was full)
            caught0 = await _metric(http, "tablestream_gateway_websocket_catch_ups_total")
            moves = 0
            while await _metric(http, "tablestream_gateway_websocket_catch_ups_total") == caught0:
                await _move(http, gid, tokens, rnd)
                moves += 1
                assert moves < 100, "the lagging socket's queue never filled"
            for _ in range(5):  # moves while it catches up on its own
                await _move(http, gid, tokens, rnd)
            envs = await _envs(deployment, gid)
            last = envs[-1].seq
            wanted = sorted({command_end(envs, e.seq) for e in envs if e.seq > start})
            lagged = await _views(lagging, last)
            assert [json.loads(m)["seq"] for m in lagged] == wanted  # every position once, in order
            for _ in range(3):  # and it is back on the shared reads: the next positions come as they land
                await _move(http, gid, tokens, rnd)
            envs = await _envs(deployment, gid)
            last = envs[-1].seq
            wanted = sorted({command_end(envs, e.seq) for e in envs if e.seq > start})
            lagged += await _views(lagging, last)
            assert [json.loads(m)["seq"] for m in lagged] == wanted
            assert await _metric(http, "tablestream_gateway_websockets") == SPECTATORS + 2  # nobody dropped
            for _ in range(150):  # every spectator has read its last position
                if all(got and json.loads(got[-1])["seq"] == last for got in seen):
                    break
                await asyncio.sleep(0.2)
            for r in readers:
                r.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
            # every spectator got the very same texts, the lagging socket's among them
            assert all(got == lagged for got in seen), [len(got) for got in seen]
            for raw_m in lagged:
                m = json.loads(raw_m)
                prefix = advance(empty(gid, game), [e for e in envs if e.seq <= m["seq"]])
                assert _same(m["doc"], doc(prefix, None))
            # the seat socket: its seat's own view at each position (not the spectators'), your_turn as due
            views = [json.loads(m) for m in await _views(seat_ws, last)]
            assert [m["seq"] for m in views] == wanted
            for m in views:
                prefix = advance(empty(gid, game), [e for e in envs if e.seq <= m["seq"]])
                assert _same(m["doc"], doc(prefix, 1)) and m["doc"]["seat"] == 1
        finally:
            await asyncio.gather(*(ws.close() for ws in (lagging, seat_ws, *spectators)), return_exceptions=True)
