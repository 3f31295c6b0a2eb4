"""Whole games of all four titles driven over the gateway's WebSocket (issue #30): every
seat is a socket client that plays on `your_turn` (a random legal move from /moves, sent
as a `command` message on its socket and answered by an `outcome`), every seat and a
spectator get each position's view pushed once and in order, the game ends with its
result, and the log verifies."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import pytest
import websockets

from games import registry
from projections.audit import verify
from projections.board import doc
from projections.table import advance, command_end, empty
from tests.integration.support_gateway import Deployment, deployment
from tests.integration.test_gateway_socket import _envs, _recv, _ws

__all__ = ["deployment"]

RECV_S = 60.0  # a position's view or a command's outcome, on a loaded 2-core machine


@dataclass
class Seen:
    """What one socket received."""

    seqs: list[int] = field(default_factory=list)
    last_doc: Any = None
    turns: int = 0
    sent: int = 0


async def _watch(ws: Any, seen: Seen) -> None:
    """Views until the one that says the game is over (a spectator's whole part)."""
    while True:
        m = await _recv(ws, RECV_S)
        assert m["type"] == "view", m
        _view(m, seen)
        if m["doc"]["over"]:
            return


def _view(m: dict[str, Any], seen: Seen) -> None:
    assert not seen.seqs or m["seq"] > seen.seqs[-1], (seen.seqs[-1:], m["seq"])  # in order, none twice
    seen.seqs.append(m["seq"])
    seen.last_doc = m["doc"]


async def _seat(base: str, http: httpx.AsyncClient, gid: str, seat: int, token: str) -> Seen:
    """One seat's socket client: acts on each `your_turn` (or on one that came while its
    previous command awaited its outcome), one command at a time, until the game is over."""
    rnd, seen = random.Random(seat), Seen()
    bearer = {"Authorization": f"Bearer {token}"}
    pending: str | None = None  # the key of the command awaiting its outcome
    owed = False  # a your_turn came while a command was pending

    async def act(seq: int) -> str | None:
        moves = (await http.get(f"/games/{gid}/moves", headers=bearer)).json()
        if seat not in moves["to_act"] or not moves["moves"]:
            return None
        move = rnd.choice(moves["moves"])
        key = f"s{seat}-{seq}-{seen.sent}"
        await ws.send(json.dumps({"type": "command", "key": key,
                                  "command": move["text"] if seen.sent % 2 else move["command"]}))
        return key

    async with websockets.connect(_ws(base, gid), additional_headers=bearer, max_size=None) as ws:
        await ws.send(json.dumps({"type": "subscribe"}))
        while True:
            m = await _recv(ws, RECV_S)
            if m["type"] == "view":
                _view(m, seen)
                if m["doc"]["over"]:
                    if pending is not None:
                        # the command that ended the game: its outcome (from the reply stream) and the
                        # last view (from the projector's notice) race; the outcome must still come
                        m = await _recv(ws, RECV_S)
                        assert m["type"] == "outcome" and m["key"] == pending, m
                        assert m["outcome"]["status"] == "accepted", m
                        seen.sent, pending = seen.sent + 1, None
                    return seen
            elif m["type"] == "your_turn":
                seen.turns += 1
                if pending is None:
                    pending = await act(m["seq"])
                else:
                    owed = True
            elif m["type"] == "outcome":
                assert m["key"] == pending and m["outcome"]["status"] == "accepted", m
                seen.sent, pending = seen.sent + 1, None
                if owed:
                    owed, pending = False, await act(m["outcome"]["seqs"][-1])
            else:
                raise AssertionError(f"unexpected message {m}")


@pytest.mark.parametrize("game_type,preset", [
    ("seven_wonders", "3p"), ("seven_wonders_duel", "2p"), ("arkadia", "2p"), ("ora_et_labora", "3p_short_france"),
])
async def test_a_whole_game_over_the_socket(deployment: Deployment, game_type: str, preset: str) -> None:
    base = deployment.gateways[0]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = await http.post("/games", json={"game_type": game_type, "preset": preset})
        assert made.status_code == 201, made.text
        gid, tokens = made.json()["game_id"], made.json()["tokens"]
        spectator = Seen()
        async with websockets.connect(_ws(base, gid), max_size=None) as ws:
            await ws.send(json.dumps({"type": "subscribe", "after": 0}))
            *seats, _ = await asyncio.gather(*(_seat(base, http, gid, s, t) for s, t in enumerate(tokens)),
                                             _watch(ws, spectator))
        envs = await _envs(deployment, gid)
        game = registry.get(game_type)
        table = advance(empty(gid, game), envs)
        assert table.over and verify(game, envs) == []
        # every position pushed to every socket once, in order; the last view is the fold of the log
        positions = sorted({command_end(envs, e.seq) for e in envs})
        for seat, seen in [*enumerate(seats), (None, spectator)]:
            assert seen.seqs == positions, seat
            assert msgspec.json.encode(seen.last_doc) == msgspec.json.encode(msgspec.json.decode(doc(table, seat)))
        # every command of the game was sent on a socket, each after a your_turn
        commands = len({e.command_id for e in envs}) - 1  # less the opening
        assert sum(s.sent for s in seats) == commands > 10
        assert all(0 < s.sent <= s.turns for s in seats), [(s.sent, s.turns) for s in seats]
        res = (await http.get(f"/games/{gid}/result")).json()
        assert res["over"] and res["result"] == msgspec.json.decode(msgspec.json.encode(game.result(table.state)))
