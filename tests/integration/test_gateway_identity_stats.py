"""GET /identities/{id}/stats over real processes (issue #30): an identity's games played,
finished and won, by game type, counted from its recorded seats and the games' results
(checked against each game's /result), public, and 404 for an unknown identity."""

from __future__ import annotations

from typing import Any

import httpx

from tests.integration.support_gateway import Deployment, deployment
from tests.integration.test_gateway import _eventually, _play
from tests.integration.test_gateway_identities import _bearer, _identity

__all__ = ["deployment"]


async def _claim(http: httpx.AsyncClient, gid: str, seat: int, token: str) -> str:
    res = await http.post(f"/lobbies/{gid}/seats", json={"seat": seat}, headers=_bearer(token))
    assert res.status_code == 201, res.text
    return res.json()["token"]


async def _lobby(http: httpx.AsyncClient, game_type: str, **body: Any) -> str:
    res = await http.post("/lobbies", json={"game_type": game_type, **body})
    assert res.status_code == 201, res.text
    return res.json()["game_id"]


async def _winners(http: httpx.AsyncClient, gid: str) -> list[int]:
    res = (await http.get(f"/games/{gid}/result")).json()
    assert res["over"], res
    return res["result"]["winners"]


async def test_statistics_per_identity(deployment: Deployment) -> None:
    async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as http:
        me, other = await _identity(http, "Counted"), await _identity(http, "Rival", "player")
        # a: me against other, played to the end
        a = await _lobby(http, "seven_wonders_duel")
        tokens_a = [await _claim(http, a, 0, me["token"]), await _claim(http, a, 1, other["token"])]
        await _play(http, a, tokens_a, seed=1)
        # b: me in both seats (one game, counted once, won whoever wins)
        b = await _lobby(http, "seven_wonders_duel")
        await _play(http, b, [await _claim(http, b, 0, me["token"]), await _claim(http, b, 1, me["token"])], seed=2)
        # c: me against other at Arkadia, a few moves in; d: a lobby still waiting for its second player
        c = await _lobby(http, "arkadia")
        tokens_c = [await _claim(http, c, 1, me["token"]), await _claim(http, c, 0, other["token"])][::-1]
        await _play(http, c, tokens_c, seed=3, limit=3)
        d = await _lobby(http, "seven_wonders", preset="3p")
        await _claim(http, d, 2, me["token"])
        winners_a = await _winners(http, a)
        mine: dict[str, Any] = {}

        async def counted() -> bool:  # once the projector has written both finished games' rows
            mine.update((await http.get(f"/identities/{me['id']}/stats")).json())
            return mine["games"]["finished"] == 2

        await _eventually(counted)
        duel = {"played": 2, "finished": 2, "won": 1 + (0 in winners_a), "in_play": 0}
        assert mine == {"identity": me["id"], "name": "Counted", "kind": "bot", "waiting": 1, "archived": 0,
                        "games": {"played": 3, "finished": 2, "won": duel["won"], "in_play": 1},
                        "by_game_type": {"arkadia": {"played": 1, "finished": 0, "won": 0, "in_play": 1},
                                         "seven_wonders_duel": duel}}
        theirs = (await http.get(f"/identities/{other['id']}/stats")).json()
        assert theirs["games"] == {"played": 2, "finished": 1, "won": int(1 in winners_a), "in_play": 1}
        assert theirs["waiting"] == 0 and set(theirs["by_game_type"]) == {"arkadia", "seven_wonders_duel"}
        # public: no token asked, none given back; an unknown identity is a 404 with its code
        assert me["token"] not in str(mine) and other["token"] not in str(theirs)
        for bad in ("id-nobody", "x" * 300):
            res = await http.get(f"/identities/{bad}/stats")
            assert res.status_code == 404 and res.json()["code"] == "unknown_identity", res.text
        fresh = (await http.get(f"/identities/{(await _identity(http, 'New'))['id']}/stats")).json()
        assert fresh["games"] == {"played": 0, "finished": 0, "won": 0, "in_play": 0} and fresh["by_game_type"] == {}
