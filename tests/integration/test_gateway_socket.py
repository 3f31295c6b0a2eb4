"""The gateway's WebSocket over real processes: views pushed per position, your_turn,
commands on the socket, reconnect with a seq (nothing lost, nothing twice), refusals with
close codes."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import msgspec
import redis.asyncio as aioredis
import websockets

from events.store import EventStore
from games import registry
from projections.board import doc
from projections.table import advance, command_end, empty
from tests.integration.support_gateway import Deployment, deployment

__all__ = ["deployment"]


def _ws(base: str, gid: str) -> str:
    return base.replace("http://", "ws://") + f"/games/{gid}/socket"


async def _envs(d: Deployment, gid: str) -> list[Any]:
    r = aioredis.from_url(d.url)
    try:
        return await EventStore(r).read(gid)
    finally:
        await r.aclose()


async def _recv(ws: Any, timeout: float = 20) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def _views_until(ws: Any, seq: int) -> list[dict[str, Any]]:
    """Messages until a view at `seq` (inclusive)."""
    got = []
    while True:
        m = await _recv(ws)
        got.append(m)
        if m["type"] == "view" and m["seq"] >= seq:
            return got


def _same(a: Any, b: bytes) -> bool:
    return msgspec.json.encode(a) == msgspec.json.encode(msgspec.json.decode(b))


async def _move(http: httpx.AsyncClient, gid: str, tokens: list[str], rnd: random.Random) -> None:
    summary = (await http.get(f"/games/{gid}")).json()
    seat = summary["to_act"][0]
    h = {"Authorization": f"Bearer {tokens[seat]}"}
    moves = (await http.get(f"/games/{gid}/moves", headers=h)).json()["moves"]
    res = await http.post(f"/games/{gid}/commands", json={"command": rnd.choice(moves)["text"]}, headers=h)
    assert res.status_code == 200, res.text


async def test_push_your_turn_commands_and_reconnect_with_a_seq(deployment: Deployment) -> None:
    base = deployment.gateways[0]
    rnd = random.Random(3)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/games", json={"game_type": "seven_wonders_duel"})).json()
        gid, tokens = made["game_id"], made["tokens"]
        game = registry.get("seven_wonders_duel")
        envs = await _envs(deployment, gid)
        table = advance(empty(gid, game), envs)
        seat = game.to_act(table.state)[0]
        async with websockets.connect(_ws(base, gid), additional_headers={"Authorization": f"Bearer {tokens[seat]}"}
                                      ) as player, websockets.connect(_ws(base, gid)) as spectator:
            await player.send(json.dumps({"type": "subscribe"}))
            await spectator.send(json.dumps({"type": "subscribe", "after": 0}))
            first = await _views_until(player, table.version)
            assert [m["seq"] for m in first if m["type"] == "view"] == sorted({command_end(envs, e.seq) for e in envs})
            assert _same(first[-1]["doc"], doc(table, seat))
            assert await _recv(player) == {"type": "your_turn", "seq": table.version}
            await _views_until(spectator, table.version)
            # a command on the socket: its outcome, then the new position pushed to both
            moves = (await http.get(f"/games/{gid}/moves", headers={"Authorization": f"Bearer {tokens[seat]}"})).json()
            await player.send(json.dumps({"type": "command", "command": moves["moves"][0]["command"], "key": "w1"}))
            out = await _recv(player)
            assert out["type"] == "outcome" and out["key"] == "w1" and out["outcome"]["status"] == "accepted"
            new_seq = out["outcome"]["seqs"][-1]
            pushed = await _views_until(player, new_seq)
            after = advance(empty(gid, game), await _envs(deployment, gid))
            assert pushed[-1]["seq"] == new_seq and _same(pushed[-1]["doc"], doc(after, seat))
            seen = await _views_until(spectator, new_seq)
            assert _same(seen[-1]["doc"], doc(after, None))
            # a spectator's command and a bad message are refused without closing the socket
            await spectator.send(json.dumps({"type": "command", "command": "x"}))
            assert (await _recv(spectator))["code"] == "bad_token"
            await spectator.send("{nope")
            assert (await _recv(spectator))["code"] == "malformed"
            last = new_seq
        # while no one listens, three more commands; a reconnect from `last` gets exactly those
        for _ in range(3):
            await _move(http, gid, tokens, rnd)
        envs = await _envs(deployment, gid)
        wanted = sorted({command_end(envs, e.seq) for e in envs if e.seq > last})
        async with websockets.connect(_ws(base, gid)) as again:
            await again.send(json.dumps({"type": "subscribe", "after": last}))
            got = [m for m in await _views_until(again, wanted[-1]) if m["type"] == "view"]
            assert [m["seq"] for m in got] == wanted
            for m in got:
                prefix = advance(empty(gid, game), [e for e in envs if e.seq <= m["seq"]])
                assert _same(m["doc"], doc(prefix, None))
            await _move(http, gid, tokens, rnd)  # and the next one is pushed as it lands
            envs = await _envs(deployment, gid)
            nxt = await _recv(again)
            assert nxt["type"] == "view" and nxt["seq"] == envs[-1].seq


async def test_bad_subscriptions_are_closed_with_a_code(deployment: Deployment) -> None:
    base = deployment.gateways[0]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/games", json={"game_type": "seven_wonders_duel"})).json()
        gid, tokens = made["game_id"], made["tokens"]
        other = (await http.post("/games", json={"game_type": "seven_wonders_duel"})).json()["tokens"][0]
    cases = [
        (_ws(base, gid) + f"?token={tokens[0]}", {"type": "subscribe"}, 4401, "token_in_url"),
        (_ws(base, gid), {"type": "subscribe", "token": other}, 4401, "bad_token"),
        (_ws(base, "no-such-game"), {"type": "subscribe"}, 4404, "unknown_game"),
        (_ws(base, gid), {"type": "hello"}, 4400, "malformed"),
        (_ws(base, gid), {"type": "subscribe", "colour": 1}, 4400, "malformed"),
    ]
    for url, hello, code, name in cases:
        async with websockets.connect(url) as ws:
            try:
                await ws.send(json.dumps(hello))
            except websockets.ConnectionClosed:  # a token in the URL is refused before the first message
                pass
            err = await _recv(ws)
            assert err["type"] == "error" and err["code"] == name and tokens[0] not in json.dumps(err)
            try:
                await asyncio.wait_for(ws.recv(), 10)
                raise AssertionError("the socket stayed open")
            except websockets.ConnectionClosed:
                pass
            assert ws.close_code == code, (url, hello, ws.close_code)
