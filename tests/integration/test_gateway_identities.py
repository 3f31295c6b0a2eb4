"""Identities over real processes (issue #30): one bot identity seated in two games at once
(one seat claimed with its token, one offered by the host) plays both to the end through
HTTP, driven only by its NDJSON event stream; another identity's stream sees none of it;
creations and claims are recorded events; bad tokens are 401 with a code."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import redis.asyncio as aioredis
import websockets

from events import keys
from events.store import EventStore
from services.config import Settings
from tests.integration.support_gateway import Deployment, deployment

__all__ = ["deployment"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _identity(http: httpx.AsyncClient, name: str, kind: str = "bot") -> dict[str, Any]:
    res = await http.post("/identities", json={"name": name, "kind": kind})
    assert res.status_code == 201, res.text
    return res.json()


async def _lobby(http: httpx.AsyncClient) -> tuple[str, str]:
    made = await http.post("/lobbies", json={"game_type": "seven_wonders_duel"})
    assert made.status_code == 201, made.text
    return made.json()["game_id"], made.json()["host_token"]


async def _collect(http: httpx.AsyncClient, token: str, into: list[dict[str, Any]]) -> None:
    async with http.stream("GET", "/identities/me/events", headers=_bearer(token), timeout=None) as res:
        assert res.status_code == 200 and res.headers["content-type"].startswith("application/x-ndjson")
        async for line in res.aiter_lines():
            if line:
                into.append(json.loads(line))


async def _play_from_stream(http: httpx.AsyncClient, token: str, tokens: dict[str, str], games: set[str],
                            seen: list[dict[str, Any]]) -> None:
    """Plays every game the stream announces, to the end of all of `games`."""
    rnd = random.Random(7)
    finished: set[str] = set()
    async with http.stream("GET", "/identities/me/events", headers=_bearer(token), timeout=None) as res:
        assert res.status_code == 200, await res.aread()
        async for line in res.aiter_lines():
            if not line:
                continue
            ev = json.loads(line)
            seen.append(ev)
            if ev["type"] == "game_started" and "token" in ev:
                tokens[ev["game_id"]] = ev["token"]
            elif ev["type"] == "your_turn":
                h = _bearer(tokens[ev["game_id"]])
                moves = (await http.get(f"/games/{ev['game_id']}/moves", headers=h)).json()
                assert moves["seat"] == ev["seat"] and moves["moves"], moves
                out = await http.post(f"/games/{ev['game_id']}/commands", headers=h,
                                      json={"command": rnd.choice(moves["moves"])["text"]})
                assert out.status_code == 200 and out.json()["status"] == "accepted", out.text
            elif ev["type"] == "game_finished":
                finished.add(ev["game_id"])
                if finished == games:
                    return


async def test_one_identity_plays_two_games_from_its_event_stream(deployment: Deployment) -> None:
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        me = await _identity(http, "Multi")
        other = await _identity(http, "Other", "player")
        assert me["id"] != other["id"] and me["token"].startswith(me["id"] + ".")
        game_a, host_a = await _lobby(http)
        game_b, host_b = await _lobby(http)
        claim = await http.post(f"/lobbies/{game_a}/seats", json={"seat": 0}, headers=_bearer(me["token"]))
        assert claim.status_code == 201, claim.text
        offer = await http.post(f"/lobbies/{game_b}/offers", json={"seat": 1, "identity": me["id"]},
                                headers=_bearer(host_b))
        assert offer.status_code == 201, offer.text
        assert offer.json()["seats"][1] == {"seat": 1, "name": "Multi", "identity": me["id"]}
        tokens = {game_a: claim.json()["token"]}
        others: list[dict[str, Any]] = []
        spy = asyncio.create_task(_collect(http, other["token"], others))
        seen: list[dict[str, Any]] = []
        player = asyncio.create_task(_play_from_stream(http, me["token"], tokens, {game_a, game_b}, seen))
        await asyncio.sleep(0.5)
        for gid, host, seat in ((game_a, host_a, 1), (game_b, host_b, 0)):
            bot = await http.post(f"/lobbies/{gid}/bots", json={"seat": seat, "kind": "greedy"}, headers=_bearer(host))
            assert bot.status_code == 201 and bot.json()["started"], bot.text
        await asyncio.wait_for(player, 400)
        # The other identity's stream says nothing of these games, only a heartbeat after 5 s
        # of silence: wait for one (the games may end sooner than that).
        for _ in range(200):
            if others:
                break
            await asyncio.sleep(0.1)
        spy.cancel()
        for gid in (game_a, game_b):
            assert (await http.get(f"/games/{gid}/result")).json()["over"]
            assert (await http.get(f"/games/{gid}/verify")).status_code == 200
    started = {e["game_id"]: e for e in seen if e["type"] == "game_started"}
    assert set(started) == {game_a, game_b} and "token" not in started[game_a]
    assert started[game_b]["seat"] == 1 and started[game_b]["token"] == tokens[game_b]
    assert sum(e["type"] == "your_turn" for e in seen) >= 4
    assert others and {e["type"] for e in others} == {"heartbeat"}  # nothing of another identity's games
    r = aioredis.from_url(deployment.url)
    try:
        created = [f for _, f in await r.xrange(keys.identities())]
        mine = [f for f in created if f[b"id"] == me["id"].encode()]
        assert mine[0][b"type"] == b"identity_created" and mine[0][b"kind"] == b"bot"
        assert me["token"].encode() not in b"".join(v for f in created for v in f.values())
        shards = Settings().shards
        claims = [f for gid in (game_a, game_b)
                  for _, f in await r.xrange(keys.claims(keys.shard_of(gid, shards)))
                  if f[b"game_id"] == gid.encode()]
        assert [(f[b"type"], f[b"seat"], f[b"identity"]) for f in claims] == [
            (b"seat_claimed", b"0", me["id"].encode()), (b"seat_offered", b"1", me["id"].encode())]
        assert not await r.hexists(keys.lobby(keys.shard_of(game_b, shards), game_b), "offer:1")  # handed over once
        for gid, seat in ((game_a, 0), (game_b, 1)):  # the game's log names the identity in its seat
            seated = (await EventStore(r, shards=shards).read(gid))[1]
            assert seated.type == "ts.seats_taken"
            assert json.loads(seated.data)["seats"][seat] == {"kind": "identity", "id": me["id"], "name": "Multi"}
    finally:
        await r.aclose()


async def test_bad_identity_tokens_are_refused(deployment: Deployment) -> None:
    base = deployment.gateways[0]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        me = await _identity(http, "Checked")
        wrong = me["id"] + ".0123456789abcdef"
        for headers in ({}, _bearer("garbage"), _bearer(wrong), _bearer("id-nothing.x"), {"Authorization": "Basic x"}):
            res = await http.get("/identities/me/events", headers=headers)
            assert res.status_code == 401 and res.json()["code"] == "bad_token", (headers, res.text)
        in_url = await http.get("/identities/me/events", params={"token": me["token"]})
        assert in_url.status_code == 400 and in_url.json()["code"] == "token_in_url"
        gid, host = await _lobby(http)
        claim = await http.post(f"/lobbies/{gid}/seats", json={"seat": 0}, headers=_bearer(wrong))
        assert claim.status_code == 401 and claim.json()["code"] == "bad_token"
        nameless = await http.post(f"/lobbies/{gid}/seats", json={"seat": 0})
        assert nameless.status_code == 400 and nameless.json()["code"] == "malformed"
        nobody = await http.post(f"/lobbies/{gid}/offers", json={"seat": 0, "identity": "id-nobody"},
                                 headers=_bearer(host))
        assert nobody.status_code == 404 and nobody.json()["code"] == "unknown_identity"
        kind = await http.post("/identities", json={"name": "X", "kind": "robot"})
        assert kind.status_code == 400 and kind.json()["code"] == "malformed"
        assert (await http.get(f"/lobbies/{gid}")).json()["seats"][0] == {"seat": 0}  # nothing taken
    ws_base = base.replace("http://", "ws://")
    async with websockets.connect(ws_base + "/identities/me/socket") as ws:
        await ws.send(json.dumps({"type": "subscribe", "token": wrong}))
        assert json.loads(await ws.recv())["code"] == "bad_token"
        try:
            await asyncio.wait_for(ws.recv(), 10)
        except websockets.ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 4401


async def test_the_websocket_twin_announces_a_game(deployment: Deployment) -> None:
    base = deployment.gateways[0]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        me = await _identity(http, "Socketed")
        gid, host = await _lobby(http)
        async with websockets.connect(base.replace("http://", "ws://") + "/identities/me/socket",
                                      additional_headers=_bearer(me["token"])) as ws:
            claim = await http.post(f"/lobbies/{gid}/seats", json={"seat": 1}, headers=_bearer(me["token"]))
            assert claim.status_code == 201, claim.text
            assert (await http.post(f"/lobbies/{gid}/bots", json={"seat": 0}, headers=_bearer(host))).status_code == 201
            got = []
            while not any(e["type"] == "game_started" for e in got):
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
            started = next(e for e in got if e["type"] == "game_started")
            assert started == {"type": "game_started", "game_id": gid, "game_type": "seven_wonders_duel", "seat": 1}
