"""The HTTP gateway over real processes (Redis, `tablestream up`, `tablestream gateway`):
whole games of every title, idempotent retries, the bad-input matrix and secrecy."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import msgspec
import pytest
import redis.asyncio as aioredis

from events.store import EventStore
from games import registry
from projections import undo as undos
from projections.audit import verify
from projections.board import doc
from projections.table import Table, advance, command_end, empty
from tests.integration.support_gateway import Deployment, deployment

__all__ = ["deployment"]


async def _table(d: Deployment, game_id: str) -> Table:
    r = aioredis.from_url(d.url)
    try:
        envs = await EventStore(r).read(game_id)
    finally:
        await r.aclose()
    return advance(empty(game_id, registry.get(envs[0].game_type)), envs)


async def _log_length(d: Deployment, game_id: str) -> int:
    return (await _table(d, game_id)).version


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _open(http: httpx.AsyncClient, game_type: str, **body: Any) -> tuple[str, list[str]]:
    res = await http.post("/games", json={"game_type": game_type, **body})
    assert res.status_code == 201, res.text
    got = res.json()
    return got["game_id"], got["tokens"]


async def _play(http: httpx.AsyncClient, game_id: str, tokens: list[str], seed: int, limit: int | None = None) -> int:
    """Random legal moves from /moves until the game is over (or `limit` commands are
    sent); commands alternate between notation and structured form, each under an
    Idempotency-Key. Returns the commands sent."""
    rnd = random.Random(seed)
    sent = 0
    while sent < (limit or 5000):
        summary = (await http.get(f"/games/{game_id}")).json()
        if summary["over"]:
            return sent
        for seat in summary["to_act"]:
            moves = (await http.get(f"/games/{game_id}/moves", headers=_bearer(tokens[seat]))).json()
            if seat not in moves["to_act"] or not moves["moves"]:
                continue
            move = rnd.choice(moves["moves"])
            body = {"command": move["text"] if sent % 2 else move["command"]}
            res = await http.post(f"/games/{game_id}/commands", json=body,
                                  headers={**_bearer(tokens[seat]), "Idempotency-Key": f"move-{sent}"})
            assert res.status_code == 200, res.text
            assert res.json()["status"] == "accepted" and res.json()["seqs"]
            sent += 1
    assert limit is not None, f"{game_id} not over after 5000 commands"
    return sent


@pytest.mark.parametrize("game_type,preset", [
    ("seven_wonders", "3p"), ("seven_wonders_duel", "2p"), ("arkadia", "2p"), ("ora_et_labora", "3p_short_france"),
])
async def test_a_whole_game_over_http(deployment: Deployment, game_type: str, preset: str) -> None:
    """Open, play to the end through /moves and /commands; the log verifies, and /result and
    every seat's and the spectator's /view are exactly the fold of the log."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, game_type, preset=preset)
        sent = await _play(http, gid, tokens, seed=len(game_type))
        table = await _table(deployment, gid)
        game = table.game
        assert sent > 10 and table.over and verify(game, (await _envs(deployment, gid))) == []
        res = (await http.get(f"/games/{gid}/result")).json()
        assert res["over"] and res["seq"] == table.version and res["seed"] == table.seed
        assert res["result"] == msgspec.json.decode(msgspec.json.encode(game.result(table.state)))
        for seat, token in enumerate(tokens):
            got = await http.get(f"/games/{gid}/view", headers=_bearer(token))
            assert got.status_code == 200 and got.content == doc(table, seat)
        assert (await http.get(f"/games/{gid}/view")).content == doc(table, None)
        over = await http.get(f"/games/{gid}/moves", headers=_bearer(tokens[0]))
        assert over.json()["over"] and over.json()["moves"] == []
        late = await http.post(f"/games/{gid}/commands", json={"command": "anything"}, headers=_bearer(tokens[0]))
        assert late.status_code in (400, 409, 422) and "code" in late.json()
        exported = await http.get(f"/games/{gid}/export")
        assert exported.status_code == 200
        assert exported.content.splitlines() == [msgspec.json.encode(e) for e in await _envs(deployment, gid)]
        await _eventually(lambda: _verified(http, gid))  # once the projector has written every view


async def _verified(http: httpx.AsyncClient, gid: str) -> bool:
    res = (await http.get(f"/games/{gid}/verify")).json()
    return res["ok"] and res["findings"] == []


async def _eventually(check: Any, timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "not reached in time"
        await asyncio.sleep(0.2)


async def test_statistics_per_game_type_with_filters(deployment: Deployment) -> None:
    """After the whole games above: the finished 7 Wonders game is counted, filters apply."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        async def counted() -> bool:
            return (await http.get("/game-types/seven_wonders/stats")).json()["games"] >= 1

        await _eventually(counted)
        assert (await http.get("/game-types/seven_wonders/stats?players=3")).json()["games"] >= 1
        assert (await http.get("/game-types/seven_wonders/stats?players=7")).json()["games"] == 0
        assert (await http.get("/game-types/seven_wonders/stats?option=edifice=true")).json()["games"] == 0
        bad = await http.get("/game-types/seven_wonders/stats?option=colour=red")
        assert bad.status_code == 400 and bad.json()["code"] == "bad_options"


async def test_log_pages_and_positions_as_each_viewer_saw_them(deployment: Deployment) -> None:
    """The log, paged by command, holds each command once with the viewer's view at that
    position (the fold of that prefix, redacted for that viewer); ?at=SEQ views likewise;
    the raw log and the audit wait for the end of the game."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, "seven_wonders", preset="3p")
        await _play(http, gid, tokens, seed=7, limit=9)
        envs = await _envs(deployment, gid)
        game = registry.get("seven_wonders")
        ends = sorted({command_end(envs, e.seq) for e in envs})
        for seat in (None, 0, 2):
            headers = {} if seat is None else _bearer(tokens[seat])
            got, after = [], 0
            while True:
                page = (await http.get(f"/games/{gid}/log?after={after}&limit=2", headers=headers)).json()
                got += page["entries"]
                if page["next_after"] is None:
                    break
                after = page["next_after"]
            assert [e["seq"] for e in got] == ends
            for e in got:
                prefix = advance(empty(gid, game), [x for x in envs if x.seq <= e["seq"]])
                assert msgspec.json.encode(e["view"]) == msgspec.json.encode(msgspec.json.decode(doc(prefix, seat)))
            inside = ends[1] - 1 if ends[1] - 1 > ends[0] else ends[1]
            at = await http.get(f"/games/{gid}/view?at={inside}", headers=headers)
            prefix = advance(empty(gid, game), [x for x in envs if x.seq <= ends[1]])
            assert at.status_code == 200 and at.content == doc(prefix, seat)
        for path in ("export", "verify"):
            res = await http.get(f"/games/{gid}/{path}")
            assert res.status_code == 409 and res.json()["code"] == "game_not_over"
        for bad in ("at=0", "at=x"):
            res = await http.get(f"/games/{gid}/view?{bad}")
            assert res.status_code == 400 and res.json()["code"] == "malformed"
        res = await http.get(f"/games/{gid}/log?limit=0")
        assert res.status_code == 400 and res.json()["code"] == "malformed"


async def _envs(d: Deployment, game_id: str) -> list[Any]:
    r = aioredis.from_url(d.url)
    try:
        return await EventStore(r).read(game_id)
    finally:
        await r.aclose()


async def test_idempotency_key_retries_get_the_first_outcome(deployment: Deployment) -> None:
    """The same key and body: the first outcome again and nothing logged twice; the same key
    with another body: command_id_reused; another seat's same key is its own command."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, "seven_wonders", preset="3p")
        moves = [(await http.get(f"/games/{gid}/moves", headers=_bearer(t))).json()["moves"] for t in tokens]
        h0 = {**_bearer(tokens[0]), "Idempotency-Key": "turn-1"}
        first = await http.post(f"/games/{gid}/commands", json={"command": moves[0][0]["text"]}, headers=h0)
        assert first.status_code == 200, first.text
        length = await _log_length(deployment, gid)
        again = await http.post(f"/games/{gid}/commands", json={"command": moves[0][0]["command"]}, headers=h0)
        assert again.status_code == 200 and again.json() == first.json()
        assert await _log_length(deployment, gid) == length
        other = await http.post(f"/games/{gid}/commands", json={"command": moves[0][-1]["text"]}, headers=h0)
        assert other.status_code == 409 and other.json()["code"] == "command_id_reused"
        assert await _log_length(deployment, gid) == length
        h1 = {**_bearer(tokens[1]), "Idempotency-Key": "turn-1"}
        theirs = await http.post(f"/games/{gid}/commands", json={"command": moves[1][0]["text"]}, headers=h1)
        assert theirs.status_code == 200, theirs.text
        assert theirs.json()["command_id"] != first.json()["command_id"]
        # a refusal is the answer to its retries too (the referee's rejected record)
        h2 = {**_bearer(tokens[2]), "Idempotency-Key": "bad-1"}
        wrong = {"command": {"type": "discard", "card": "no_such_card"}}
        refused = [await http.post(f"/games/{gid}/commands", json=wrong, headers=h2) for _ in range(2)]
        assert refused[0].status_code == refused[1].status_code and refused[0].json() == refused[1].json()
        assert 400 <= refused[0].status_code < 500


def _matrix(gid: str, token: str, other_token: str) -> list[tuple[str, str, dict[str, str], bytes, int, str]]:
    """(method, path, headers, body, status, code) of bad requests."""
    cmds = f"/games/{gid}/commands"
    auth = _bearer(token)
    js = {"Content-Type": "application/json"}
    return [
        ("POST", "/games", js, b"{not json", 400, "malformed"),
        ("POST", "/games", js, b'{"game_type": "seven_wonders", "colour": "red"}', 400, "malformed"),
        ("POST", "/games", js, b'{"game_type": 7}', 400, "malformed"),
        ("POST", "/games", js, b'{"game_type": "chess"}', 404, "unknown_game_type"),
        ("POST", "/games", js, b'{"game_type": "seven_wonders", "preset": "99p"}', 400, "bad_options"),
        ("POST", "/games", js, b'{"game_type": "seven_wonders", "players": 9}', 400, "bad_options"),
        ("POST", "/games", js, b'{"game_type": "seven_wonders", "options": {"players": 3, "x": 1}}', 400, "bad_options"),
        ("POST", "/games", js, b'{"game_type": "arkadia", "game_id": "../../etc"}', 400, "malformed"),
        ("POST", "/games", js, b'{"game_type": "arkadia", "clock": {"kind": "move", "base_ms": 5}}', 400,
         "bad_options"),
        ("POST", "/games", js, b'{"game_type": "arkadia", "clock": {"kind": "move", "tempo": 1}}', 400, "malformed"),
        ("POST", "/games", js, b'{"game_type": "seven_wonders", "pad": "' + b"x" * 70_000 + b'"}', 413, "oversized"),
        ("GET", "/game-types/chess", {}, b"", 404, "unknown_game_type"),
        ("GET", "/games/no-such-game/view", {}, b"", 404, "unknown_game"),
        ("POST", "/games/no-such-game/commands", {**js, **auth}, b'{"command": "x"}', 404, "unknown_game"),
        ("GET", f"/games/{gid}/moves", {}, b"", 401, "bad_token"),
        ("GET", f"/games/{gid}/moves", {"Authorization": "Basic abc"}, b"", 401, "bad_token"),
        ("GET", f"/games/{gid}/moves", _bearer("0" * 36), b"", 401, "bad_token"),
        ("GET", f"/games/{gid}/view", _bearer(other_token), b"", 401, "bad_token"),
        ("GET", f"/games/{gid}/view?token={token}", {}, b"", 400, "token_in_url"),
        ("POST", cmds, js, b'{"command": "x"}', 401, "bad_token"),
        ("POST", cmds, {**js, **_bearer(other_token)}, b'{"command": "x"}', 401, "bad_token"),
        ("POST", cmds, {**js, **auth}, b"{oops", 400, "malformed"),
        ("POST", cmds, {**js, **auth}, b'{"command": "x", "seat": 1}', 400, "malformed"),
        ("POST", cmds, {**js, **auth}, b'{"command": 12}', 400, "malformed"),
        ("POST", cmds, {**js, **auth}, b'{"command": {"type": "fly_away"}}', 400, "malformed"),
        ("POST", cmds, {**js, **auth}, b'{"command": "' + b"a" * 5000 + b'"}', 413, "oversized"),
        ("POST", cmds, {**js, **auth, "Idempotency-Key": ""}, b'{"command": "x"}', 400, "bad_idempotency_key"),
        ("POST", cmds, {**js, **auth, "Idempotency-Key": "k" * 300}, b'{"command": "x"}', 400, "bad_idempotency_key"),
        ("GET", "/no/such/resource", {}, b"", 404, "not_found"),
        ("DELETE", f"/games/{gid}", {}, b"", 405, "method_not_allowed"),
    ]


async def test_bad_input_is_a_typed_4xx_and_changes_nothing(deployment: Deployment) -> None:
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, "seven_wonders_duel")
        _, other = await _open(http, "seven_wonders_duel")
        length = await _log_length(deployment, gid)
        for method, path, headers, body, status, code in _matrix(gid, tokens[0], other[0]):
            res = await http.request(method, path, headers=headers, content=body)
            assert (res.status_code, res.json().get("code")) == (status, code), (method, path, body[:60], res.text)
            assert res.json()["status"] == "rejected" and res.json()["message"]
            assert "Traceback" not in res.text and tokens[0] not in res.text and other[0] not in res.text
        # the rules' refusal of a move out of turn: the game's own code, a 422
        summary = (await http.get(f"/games/{gid}")).json()
        idle = 1 - summary["to_act"][0]
        out = await http.post(f"/games/{gid}/commands", json={"command": "draft Piraeus"}, headers=_bearer(tokens[idle]))
        assert out.status_code == 422 and out.json()["code"] == "not_your_turn"
        assert await _log_length(deployment, gid) == length
        assert (await http.get("/game-types")).status_code == 200  # still serving


async def test_each_seat_sees_only_its_own_view(deployment: Deployment) -> None:
    """A seat token's view and moves are that seat's exactly as the game redacts them; no
    other seat's hand shows in it, nor in the spectator's; moves need the seat's token."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, "seven_wonders", preset="3p")
        table = await _table(deployment, gid)
        hands = table.state.hands
        spectator = await http.get(f"/games/{gid}/view")
        assert spectator.content == doc(table, None)
        for seat, token in enumerate(tokens):
            view = (await http.get(f"/games/{gid}/view", headers=_bearer(token))).content
            assert view == doc(table, seat)
            assert all(card.encode() in view for card in hands[seat])  # the check below can see cards
            for other in range(len(tokens)):
                hidden = set(hands[other]) - set(hands[seat])
                assert not [c for c in hidden if c.encode() in view], (seat, other)
                assert not [c for c in hands[other] if c.encode() in spectator.content]
            moves = (await http.get(f"/games/{gid}/moves", headers=_bearer(token))).json()
            game = table.game
            assert [m["text"] for m in moves["moves"]] == [game.format_command(c)
                                                           for c in game.legal_commands(table.state, seat)]


async def test_a_game_opened_with_a_clock_shows_it_in_every_view(deployment: Deployment) -> None:
    """README "Clocks": POST /games with a `clock` opens a timed game; its views carry the
    clock (the same for every audience), as the log folds it."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, "seven_wonders_duel",
                                  clock={"kind": "fischer", "base_ms": 300_000, "increment_ms": 3_000})
        table = await _table(deployment, gid)
        assert table.clock is not None
        spectator = await http.get(f"/games/{gid}/view")
        assert spectator.content == doc(table, None)
        clock = spectator.json()["clock"]
        assert clock["kind"] == "fischer" and clock["increment_ms"] == 3_000
        first = table.game.to_act(table.state)[0]
        assert clock["seats"][first]["deadline"] == table.clock.deadline(first) is not None
        assert clock["seats"][1 - first] == {"seat": 1 - first, "left_ms": 300_000, "deadline": None, "timeouts": 0}
        for token in tokens:
            assert (await http.get(f"/games/{gid}/view", headers=_bearer(token))).json()["clock"] == clock
        untimed, _ = await _open(http, "seven_wonders_duel")
        assert "clock" not in (await http.get(f"/games/{untimed}/view")).json()


async def test_a_seat_resigns_over_http(deployment: Deployment) -> None:
    """POST /games/{id}/resign resigns the bearer's seat (README "Clocks and timeouts"): once,
    then 409 already_resigned; without a seat token 401; the result names the seat."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, "seven_wonders", preset="3p")
        assert (await http.post(f"/games/{gid}/resign")).status_code == 401
        bad = await http.post(f"/games/{gid}/resign", json={"bot": "nobody"}, headers=_bearer(tokens[1]))
        assert bad.status_code == 400 and bad.json()["code"] == "bad_options"
        done = await http.post(f"/games/{gid}/resign", json={"bot": "greedy"}, headers=_bearer(tokens[1]))
        assert done.status_code == 200 and done.json()["status"] == "accepted", done.text
        await _eventually(lambda: _projected(http, gid, tokens[0], done.json()["seqs"][-1]))
        assert (await http.get(f"/games/{gid}/view")).json()["clock"]["seats"][1]["played_by"] == "greedy"
        again = await http.post(f"/games/{gid}/resign", headers=_bearer(tokens[1]))
        assert again.status_code == 409 and again.json()["code"] == "already_resigned"
        got = (await http.get(f"/games/{gid}/result")).json()
        assert got["resigned"] == [1] and got["over"] is False and got["result"] is None
        table = await _table(deployment, gid)
        assert table.resigned == (1,)


@pytest.mark.parametrize("game_type,preset", [("seven_wonders", "3p"), ("seven_wonders_duel", "2p")])
async def test_undo_over_http_to_the_end_of_a_game(deployment: Deployment, game_type: str, preset: str) -> None:
    """A game opened with "undo": true, played to its end with a POST /games/{id}/undo after
    about every third move: taken back (200) exactly when the log's fold holds the seat's
    command open, else 409 nothing_to_undo, nothing logged; an undo right after a move
    gives back the state before it; the views show who may undo; the log verifies. A game
    opened without undo answers 409 undo_not_allowed, and an undo needs the seat's token."""
    rnd = random.Random(f"undo-{game_type}")
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, game_type, preset=preset, undo=True)
        assert (await http.post(f"/games/{gid}/undo")).status_code == 401
        taken = refused = 0
        for n in range(2000):
            table = await _table(deployment, gid)
            if table.over:
                break
            seat = rnd.choice(table.game.to_act(table.state))
            moves = (await http.get(f"/games/{gid}/moves", headers=_bearer(tokens[seat]))).json()["moves"]
            res = await http.post(f"/games/{gid}/commands", json={"command": rnd.choice(moves)["text"]},
                                  headers={**_bearer(tokens[seat]), "Idempotency-Key": f"m-{n}"})
            assert res.status_code == 200, res.text
            if n % 3:
                continue
            moved = await _table(deployment, gid)
            asker = rnd.randrange(len(tokens))
            res = await http.post(f"/games/{gid}/undo", headers={**_bearer(tokens[asker]), "Idempotency-Key": f"u-{n}"})
            after = await _table(deployment, gid)
            if moved.over:
                assert res.status_code == 409 and res.json()["code"] == "game_over", res.text
                break
            if undos.last(moved.undo, asker) is None:
                assert res.status_code == 409 and res.json()["code"] == "nothing_to_undo", res.text
                assert after.version == moved.version
                refused += 1
            else:
                assert res.status_code == 200 and res.json()["status"] == "accepted", res.text
                assert after.version == moved.version + 1
                if asker == seat:
                    assert after.state == table.state  # its move just made, taken back
                taken += 1
            await _eventually(lambda: _projected(http, gid, tokens[asker], after.version))
            got = (await http.get(f"/games/{gid}/view", headers=_bearer(tokens[asker]))).json()
            assert got["undo"] == undos.seats(after.undo)
        table = await _table(deployment, gid)
        assert table.over and taken and refused, (taken, refused)
        assert verify(table.game, await _envs(deployment, gid)) == []
        await _eventually(lambda: _verified(http, gid))
        plain, plain_tokens = await _open(http, game_type, preset=preset)
        res = await http.post(f"/games/{plain}/undo", headers=_bearer(plain_tokens[0]))
        assert res.status_code == 409 and res.json()["code"] == "undo_not_allowed"


async def _projected(http: httpx.AsyncClient, gid: str, token: str, seq: int) -> bool:
    return (await http.get(f"/games/{gid}/view", headers=_bearer(token))).json()["seq"] >= seq


async def test_openapi_is_served(deployment: Deployment) -> None:
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        res = await http.get("/schema/openapi.json")
        assert res.status_code == 200
        assert {"/game-types", "/games", "/games/{game_id}/view", "/games/{game_id}/commands"} <= set(res.json()["paths"])


async def test_completion_of_a_partial_command_for_the_bearer(deployment: Deployment) -> None:
    """The words and complete commands a prefix leads to are the game's `complete` for the
    bearer's seat; they need the seat's token."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        gid, tokens = await _open(http, "seven_wonders_duel")
        table = await _table(deployment, gid)
        seat = table.game.to_act(table.state)[0]
        h = _bearer(tokens[seat])
        moves = [m["text"] for m in (await http.get(f"/games/{gid}/moves", headers=h)).json()["moves"]]
        got = (await http.get(f"/games/{gid}/complete", params={"prefix": "dr"}, headers=h)).json()
        assert got["words"] == ["draft"] and got["seat"] == seat and not got["complete"]
        got = (await http.get(f"/games/{gid}/complete", params={"prefix": "draft "}, headers=h)).json()
        assert got["commands"] == moves and not got["more"]
        want = table.game.complete(table.state, seat, moves[0], 50)
        got = (await http.get(f"/games/{gid}/complete", params={"prefix": moves[0]}, headers=h)).json()
        assert got["complete"] and got["commands"] == list(want.commands) and got["words"] == list(want.words)
        assert (await http.get(f"/games/{gid}/complete", params={"prefix": "dr"})).status_code == 401
        idle = _bearer(tokens[1 - seat])
        assert (await http.get(f"/games/{gid}/complete", params={"prefix": "dr"}, headers=idle)).json()["words"] == []
        big = await http.get(f"/games/{gid}/complete", params={"prefix": "a" * 5000}, headers=h)
        assert big.status_code == 413 and big.json()["code"] == "oversized"


async def test_rate_limits_and_cors_as_configured(deployment: Deployment) -> None:
    """A gateway started with CORS for one origin and low limits: the origin's preflight is
    answered, another origin's is not; the sixth request of one token in a minute and the
    fifteenth of one address are 429 rate_limited. The default gateway sends no CORS headers."""
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        plain = await http.get("/game-types", headers={"Origin": "https://bots.example"})
        assert "access-control-allow-origin" not in plain.headers
        gid, tokens = await _open(http, "seven_wonders_duel")
    base = deployment.start_gateway(env={"TABLESTREAM_GATEWAY_CORS_ORIGINS": "https://bots.example",
                                         "TABLESTREAM_GATEWAY_RATE_ADDRESS": "14/minute",
                                         "TABLESTREAM_GATEWAY_RATE_TOKEN": "5/minute"})
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        pre = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}
        ok = await http.options("/games", headers={"Origin": "https://bots.example", **pre})
        assert ok.headers.get("access-control-allow-origin") == "https://bots.example"
        other = await http.options("/games", headers={"Origin": "https://evil.example", **pre})
        assert other.headers.get("access-control-allow-origin") != "https://evil.example"
        codes = [(await http.get(f"/games/{gid}/moves", headers=_bearer(tokens[0]))).status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
        limited = await http.get(f"/games/{gid}/moves", headers=_bearer(tokens[0]))
        assert limited.json()["code"] == "rate_limited" and tokens[0] not in limited.text
        seen = [(await http.get("/game-types")).status_code for _ in range(10)]
        assert 429 in seen and (await http.get("/game-types")).json()["code"] == "rate_limited"
