"""Back-pressure on the game WebSocket, for real (issue #30): a client that stops reading is
dropped with close code 4008 once its queue (TABLESTREAM_GATEWAY_WS_QUEUE) stays full, the
server keeping no more than that queue and the socket's buffers for it, while another
socket on the same game gets every position and a new one subscribes afterwards.

Buffers are made small on both sides, else the kernels hold a whole game (seen: 3.4 MB of
views of a 4-player Ora et Labora game all absorbed, the socket then ended by the server's
keepalive, 1011, not by its queue): the gateway's send buffer per WebSocket
(TABLESTREAM_GATEWAY_WS_SNDBUF; the kernel's own sizing grows to 4 MiB), the slow client's
receive buffer (SO_RCVBUF, set before connecting) and its library's queue (one frame); what
they still held in all was about 0.5 MB here. The game, about 3 MB of spectator views (Ora
et Labora, 4 players), is played to its end by the gateway's random bots, and the slow
socket asks for every position from the start."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import httpx
import websockets

from tests.integration.support_gateway import Deployment, deployment
from tests.integration.test_gateway_socket import _recv, _ws

__all__ = ["deployment"]

QUEUE = 2
RCVBUF = 4096
SNDBUF = 16384


async def _sockets_open(http: httpx.AsyncClient) -> int:
    text = (await http.get("/metrics")).text
    line = next(ln for ln in text.splitlines() if ln.startswith("tablestream_gateway_websockets "))
    return int(float(line.split()[1]))


async def _until(check: Any, timeout: float, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.2)


async def _all_views(ws: Any) -> tuple[list[int], int]:
    """Every view until the one that says the game is over: their seqs and total bytes."""
    seqs, size = [], 0
    while True:
        raw = await asyncio.wait_for(ws.recv(), 60)
        m = json.loads(raw)
        if m["type"] == "view":
            seqs.append(m["seq"])
            size += len(raw)
            if m["doc"]["over"]:
                return seqs, size


async def test_a_slow_socket_is_dropped_with_4008_and_the_others_go_on(deployment: Deployment) -> None:
    base = deployment.start_gateway(env={"TABLESTREAM_GATEWAY_WS_QUEUE": str(QUEUE),
                                         "TABLESTREAM_GATEWAY_WS_SNDBUF": str(SNDBUF)})
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        lobby = (await http.post("/lobbies", json={"game_type": "ora_et_labora", "preset": "4p_france"})).json()
        gid, host = lobby["game_id"], lobby["host_token"]
        started = await http.post(f"/lobbies/{gid}/start", json={"bots": "random"},
                                  headers={"Authorization": f"Bearer {host}"})
        assert started.status_code == 201, started.text

        async def over() -> bool:
            got = await http.get(f"/games/{gid}")
            return got.status_code == 200 and got.json()["over"]

        await _until(over, 600, "the bots did not finish the game")
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)  # before connect: the window it offers
        raw.connect((base.split("//")[1].split(":")[0], int(base.rsplit(":", 1)[1])))
        raw.setblocking(False)
        async with websockets.connect(_ws(base, gid), sock=raw, max_queue=1, max_size=None,
                                      ping_interval=None) as slow, websockets.connect(_ws(base, gid)) as fast:
            await slow.send(json.dumps({"type": "subscribe", "after": 0}))
            await fast.send(json.dumps({"type": "subscribe", "after": 0}))
            reading = asyncio.create_task(_all_views(fast))

            async def both() -> bool:
                return await _sockets_open(http) == 2

            async def dropped() -> bool:  # the gateway gave the slow socket up; the fast one is still open
                return await _sockets_open(http) == 1

            await _until(both, 30, "the two sockets did not subscribe")
            await _until(dropped, 60, "the slow socket was not dropped")
            seqs, size = await reading  # the fast socket was not held up by the slow one
            assert seqs == sorted(set(seqs)) and len(seqs) > 300
            # Now the slow client reads: what was buffered for it, less than the whole game, then
            # the close frame, which waited behind it (the server's keepalive would end it at 40 s)
            got, got_size = [], 0
            try:
                while True:
                    raw_msg = await asyncio.wait_for(slow.recv(), 60)
                    got.append(json.loads(raw_msg)["seq"])
                    got_size += len(raw_msg)
            except websockets.ConnectionClosed:
                pass
            assert slow.close_code == 4008, (slow.close_code, slow.close_reason)
            assert got == seqs[:len(got)] and len(got) < len(seqs), (len(got), len(seqs))
            # what was held for it anywhere (the queue, the write buffer, both kernels, the client
            # library) is bounded, well under the game's views, which an unbounded server keeps
            assert got_size < size / 2, (got_size, size)
            # the fast socket still works: the spectator view of the end is there for a new subscriber too
            async with websockets.connect(_ws(base, gid)) as again:
                await again.send(json.dumps({"type": "subscribe", "after": seqs[-2]}))
                assert (await _recv(again))["seq"] == seqs[-1]
            await fast.send(json.dumps({"type": "command", "command": "x"}))  # and the fast one still answers
            assert (await _recv(fast))["code"] == "bad_token"
