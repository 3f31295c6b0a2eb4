"""Lobbies over real processes: claims by name, the host's bots and start, bot seats played
by the gateways' bot workers (two gateways, each seat played by one), bad lobby input."""

from __future__ import annotations

import asyncio
import random

import httpx
import msgspec
import redis.asyncio as aioredis

from events.envelope import Accepted
from events.meta import SeatPlayer, SeatsTaken
from events.store import EventStore
from games import registry
from projections.audit import verify
from services import protocol
from services.client import Client
from tests.integration.support_gateway import Deployment, deployment

__all__ = ["deployment"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _play_seat(http: httpx.AsyncClient, gid: str, seat: int, token: str, timeout: float = 240) -> None:
    """Plays one seat with random legal moves while the bots play the others, to the end."""
    rnd = random.Random(seat)
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        assert asyncio.get_running_loop().time() < deadline, "the game did not end in time"
        moves = (await http.get(f"/games/{gid}/moves", headers=_bearer(token))).json()
        if moves["over"]:
            return
        if seat not in moves["to_act"] or not moves["moves"]:
            await asyncio.sleep(0.05)
            continue
        res = await http.post(f"/games/{gid}/commands", json={"command": rnd.choice(moves["moves"])["text"]},
                              headers=_bearer(token))
        assert res.status_code == 200, res.text


async def _check_log(d: Deployment, gid: str, seated: list[SeatPlayer]) -> None:
    """The log verifies, holds each bot command once (a seat played twice would have
    left a second command at some position, refused or not) and names who took each seat."""
    r = aioredis.from_url(d.url)
    try:
        envs = await EventStore(r).read(gid)
        # this game's refusals (the deployment's other tests leave theirs in rej:{0})
        rejected = sum(1 for _, f in await r.xrange("rej:{0}") if f.get(b"game_id") == gid.encode())
    finally:
        await r.aclose()
    assert verify(registry.get(envs[0].game_type), envs) == []
    assert rejected == 0
    assert envs[1].type == "ts.seats_taken" and msgspec.json.decode(envs[1].data, type=SeatsTaken).seats == seated


async def test_claims_and_a_bot_seat_then_a_whole_game(deployment: Deployment) -> None:
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        made = await http.post("/lobbies", json={"game_type": "seven_wonders_duel"})
        assert made.status_code == 201, made.text
        gid, host = made.json()["game_id"], made.json()["host_token"]
        lobby = (await http.get(f"/lobbies/{gid}")).json()
        assert lobby["players"] == 2 and not lobby["started"] and lobby["seats"] == [{"seat": 0}, {"seat": 1}]
        assert (await http.get(f"/games/{gid}")).status_code == 404  # not opened yet
        ada = await http.post(f"/lobbies/{gid}/seats", json={"name": "Ada", "seat": 0})
        assert ada.status_code == 201 and ada.json()["seat"] == 0 and not ada.json()["started"]
        again = await http.post(f"/lobbies/{gid}/seats", json={"name": "Bob", "seat": 0})
        assert again.status_code == 409 and again.json()["code"] == "seat_taken"
        not_host = await http.post(f"/lobbies/{gid}/bots", json={"seat": 1, "kind": "greedy"},
                                   headers=_bearer(ada.json()["token"]))
        assert not_host.status_code == 401 and not_host.json()["code"] == "bad_token"
        bot = await http.post(f"/lobbies/{gid}/bots", json={"seat": 1, "kind": "greedy"}, headers=_bearer(host))
        assert bot.status_code == 201, bot.text
        assert bot.json()["started"] and bot.json()["seats"][1] == {"seat": 1, "name": "greedy bot", "bot": "greedy"}
        assert bot.json()["seats"][0] == {"seat": 0, "name": "Ada"}
        full = await http.post(f"/lobbies/{gid}/seats", json={"name": "Cy"})
        assert full.status_code == 409 and full.json()["code"] == "lobby_full"
        assert (await http.get(f"/games/{gid}")).json()["players"] == 2
        await _play_seat(http, gid, 0, ada.json()["token"])
        assert (await http.get(f"/games/{gid}/result")).json()["over"]
    await _check_log(deployment, gid, [SeatPlayer(kind="name", id="Ada", name="Ada"),
                                       SeatPlayer(kind="bot", id="greedy", name="greedy bot")])


async def test_the_host_starts_with_bots_and_two_gateways_play_each_bot_seat_once(deployment: Deployment) -> None:
    """A second gateway runs beside the first: both bot workers look at the same bot seats,
    each seat is leased to one, and the game ends with every command judged once."""
    second = deployment.gateways[1] if len(deployment.gateways) > 1 else deployment.start_gateway()
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http, \
            httpx.AsyncClient(base_url=second, timeout=30) as http2:
        made = (await http.post("/lobbies", json={"game_type": "seven_wonders", "preset": "3p"})).json()
        gid, host = made["game_id"], made["host_token"]
        me = await http2.post(f"/lobbies/{gid}/seats",  # through the other gateway, as the chat service claims
                              json={"name": "Grace", "chat_user": "discord:42"})
        assert me.status_code == 201 and me.json()["seat"] == 0
        bad = await http.post(f"/lobbies/{gid}/start", json={}, headers=_bearer("f" * 36))
        assert bad.status_code == 401 and bad.json()["code"] == "bad_token"
        started = await http.post(f"/lobbies/{gid}/start", json={"bots": "random"}, headers=_bearer(host))
        assert started.status_code == 201 and started.json()["started"], started.text
        assert [s.get("bot") for s in started.json()["seats"]] == [None, "random", "random"]
        await _play_seat(http2, gid, 0, me.json()["token"])
    await _check_log(deployment, gid, [SeatPlayer(kind="chat", id="discord:42", name="Grace"),
                                       *[SeatPlayer(kind="bot", id="random", name="random bot")] * 2])


async def test_a_lobby_with_a_clock_opens_a_timed_game(deployment: Deployment) -> None:
    """A lobby's `clock` is the game's time control once it starts (README "Clocks and timeouts")."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        made = (await http.post("/lobbies", json={"game_type": "seven_wonders_duel",
                                                  "clock": {"kind": "move", "base_ms": 600_000}})).json()
        gid, host = made["game_id"], made["host_token"]
        assert (await http.post(f"/lobbies/{gid}/seats", json={"name": "Ada"})).status_code == 201
        started = await http.post(f"/lobbies/{gid}/start", json={"bots": "random"}, headers=_bearer(host))
        assert started.status_code == 201 and started.json()["started"], started.text
        clock = (await http.get(f"/games/{gid}/view")).json()["clock"]
        assert clock["kind"] == "move" and [s["left_ms"] for s in clock["seats"]] == [600_000, 600_000]


async def test_bad_lobby_input_is_a_typed_4xx(deployment: Deployment) -> None:
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        made = (await http.post("/lobbies", json={"game_type": "arkadia", "players": 3})).json()
        gid, host = made["game_id"], made["host_token"]
        r = aioredis.from_url(deployment.url)
        try:  # the tombstone `tablestream archive` leaves: the id stays taken
            await r.hset("archived:{0}", "arkadia-gone", b'{"file":"arkadia-gone.jsonl","seq":9,"hash":"00"}')
        finally:
            await r.aclose()
        cases = [
            ("GET", "/lobbies/no-such-lobby", {}, None, 404, "unknown_lobby"),
            ("POST", "/lobbies", {}, {"game_type": "chess"}, 404, "unknown_game_type"),
            ("POST", "/lobbies", {}, {"game_type": "arkadia", "game_id": gid}, 409, "game_exists"),
            ("POST", "/lobbies", {}, {"game_type": "arkadia", "game_id": "arkadia-gone"}, 410, "game_archived"),
            ("POST", "/lobbies", {}, {"game_type": "arkadia", "clock": {"kind": "move", "base_ms": 5}}, 400,
             "bad_options"),
            ("POST", f"/lobbies/{gid}/seats", {}, {"name": ""}, 400, "malformed"),
            ("POST", f"/lobbies/{gid}/seats", {}, {"name": "x", "seat": 3}, 400, "unknown_seat"),
            ("POST", f"/lobbies/{gid}/seats", {}, {"name": "x", "team": 1}, 400, "malformed"),
            ("POST", f"/lobbies/{gid}/seats", {}, {"name": "x", "chat_user": "no-platform"}, 400, "malformed"),
            ("POST", f"/lobbies/{gid}/bots", _bearer(host), {"seat": 1, "kind": "genius"}, 400, "bad_options"),
            ("POST", f"/lobbies/{gid}/start", {}, {}, 401, "bad_token"),
            ("GET", f"/games/{gid}/moves", _bearer(host), None, 404, "unknown_game"),
        ]
        for method, path, headers, body, status, code in cases:
            res = await http.request(method, path, headers=headers, json=body)
            assert (res.status_code, res.json().get("code")) == (status, code), (path, res.text)
            assert host not in res.text
        assert (await http.get(f"/lobbies/{gid}")).json()["seats"] == [{"seat": 0}, {"seat": 1}, {"seat": 2}]


async def test_the_lobby_open_command_id_cannot_be_spent_before_the_lobby_starts(deployment: Deployment) -> None:
    """The open's command id is random: a client of the command stream who spends the id a
    lobby's open would have had if derived from its game id (`lobby-open-` + the hash, as it
    was) does not stop the lobby from opening, and the id is not that one."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        made = (await http.post("/lobbies", json={"game_type": "seven_wonders_duel"})).json()
        gid, host = made["game_id"], made["host_token"]
        guessed = f"lobby-open-{protocol.token_hash(gid)[:32]}"
        r = aioredis.from_url(deployment.url)
        try:
            async with Client(r, timeout=10) as c:  # an act on the not yet opened game, under the guessed id
                env = c.envelope(game_id=gid, game_type="seven_wonders_duel", seat=0, token="x",
                                 command=b'"pass"', command_id=guessed)
                assert not isinstance(await c.submit(env), Accepted)
            started = await http.post(f"/lobbies/{gid}/start", json={"bots": "random"}, headers=_bearer(host))
            assert started.status_code == 201 and started.json()["started"], started.text
            envs = await EventStore(r).read(gid)
        finally:
            await r.aclose()
    assert envs[0].command_id.startswith("lobby-open-") and envs[0].command_id != guessed


async def test_the_host_abandons_a_seat_to_a_bot_that_plays_it_to_the_end(deployment: Deployment) -> None:
    """A lobby's host token is the game's host (`ts.host_named`): POST /games/{id}/seats/{seat}/
    abandon gives the seat to the bot kind of the body; the seat's own token is refused from
    then on, `up`'s timer has the bot play it to the end, and the result ranks it last. A seat
    token is no host token (401), an unknown seat 400, a bad body 400, a second abandon 409."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        made = (await http.post("/lobbies", json={"game_type": "seven_wonders_duel"})).json()
        gid, host = made["game_id"], made["host_token"]
        ada = (await http.post(f"/lobbies/{gid}/seats", json={"name": "Ada"})).json()
        ben = (await http.post(f"/lobbies/{gid}/seats", json={"name": "Ben"})).json()
        assert ada["seat"] == 0 and ben["seat"] == 1
        url = f"/games/{gid}/seats/1/abandon"
        assert (await http.post(url, headers=_bearer(ada["token"]))).json()["code"] == "bad_token"
        assert (await http.post(url, json={"bot": "greedy"})).status_code == 401  # no token at all
        assert (await http.post(f"/games/{gid}/seats/7/abandon", headers=_bearer(host))).json()["code"] == "unknown_seat"
        bad = await http.post(url, content=b"{not json", headers=_bearer(host))
        assert bad.status_code == 400 and bad.json()["code"] == "malformed"
        done = await http.post(url, json={"bot": "greedy"}, headers=_bearer(host))
        assert done.status_code == 200 and done.json()["status"] == "accepted", done.text
        again = await http.post(url, headers=_bearer(host))
        assert again.status_code == 409 and again.json()["code"] == "already_resigned"
        late = await http.post(f"/games/{gid}/commands", json={"command": "anything"}, headers=_bearer(ben["token"]))
        assert late.status_code in (400, 409)
        await _play_seat(http, gid, 0, ada["token"])
        got = (await http.get(f"/games/{gid}/result")).json()
        assert got["over"] and got["resigned"] == [1] and got["result"]["ranks"][0] == 1
        view = (await http.get(f"/games/{gid}/view")).json()
        assert view["clock"]["seats"][1]["played_by"] == "greedy"
    r = aioredis.from_url(deployment.url)
    try:
        envs = await EventStore(r).read(gid)
    finally:
        await r.aclose()
    assert verify(registry.get("seven_wonders_duel"), envs) == []
    assert envs[2].type == "ts.host_named" and msgspec.json.decode(envs[2].data)["token_hash"] == protocol.token_hash(host)
    gone = [msgspec.json.decode(e.data) for e in envs if e.type == "ts.seat_resigned"]
    assert gone == [{"type": "ts.seat_resigned", "seat": 1, "reason": "host", "bot": "greedy"}]


async def test_a_search_bot_seat_plays_a_whole_game(deployment: Deployment) -> None:
    """A lobby seat given to the search bot (`mcts:8`, issue #27) is played by the gateway's
    bot worker (its search in a thread beside the event loop) through the command path."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        made = (await http.post("/lobbies", json={"game_type": "seven_wonders_duel"})).json()
        gid, host = made["game_id"], made["host_token"]
        ada = (await http.post(f"/lobbies/{gid}/seats", json={"name": "Ada", "seat": 0})).json()
        bad = await http.post(f"/lobbies/{gid}/bots", json={"seat": 1, "kind": "mcts:many"}, headers=_bearer(host))
        assert bad.status_code == 400 and bad.json()["code"] == "bad_options"
        bot = await http.post(f"/lobbies/{gid}/bots", json={"seat": 1, "kind": "mcts:8"}, headers=_bearer(host))
        assert bot.status_code == 201 and bot.json()["started"], bot.text
        await _play_seat(http, gid, 0, ada["token"])
        assert (await http.get(f"/games/{gid}/result")).json()["over"]
    await _check_log(deployment, gid, [SeatPlayer(kind="name", id="Ada", name="Ada"),
                                       SeatPlayer(kind="bot", id="mcts:8", name="mcts:8 bot")])
