"""Prometheus metrics over real processes, scraped and parsed with prometheus_client's parser.

The gateway's /metrics after commands sent to it (with `tablestream up` judging): the
command counter moved by exactly what was sent, per game type and outcome, the latency
histogram by the commands answered, the socket gauge by a socket opened and closed, and
no token, game id or seat anywhere in the text. Then, on a database of its own with no
referee: commands XADDed to cmd:{s} show as referee lag, those read by a consumer of the
referee group and never settled as pending, feed entries after the live checkpoint as
projector lag, on the gateway's /metrics and on `tablestream up --no-referee
--metrics-port`'s."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
import websockets
from prometheus_client.parser import text_string_to_metric_families

from events import keys
from tests.integration.support_gateway import Deployment, deployment, free_port
from tests.integration.support_service import db_url

__all__ = ["deployment"]

METRICS_DB = int(os.environ.get("TS_METRICS_DB", "10"))
DUEL = "seven_wonders_duel"


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def _get(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def _scrape(http: httpx.AsyncClient) -> tuple[str, dict]:
    res = await http.get("/metrics")
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/plain")
    return res.text, _samples(res.text)


async def test_gateway_counts_what_was_sent(deployment: Deployment) -> None:
    base = deployment.gateways[0]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/games", json={"game_type": DUEL})).json()
        gid, tokens = made["game_id"], made["tokens"]
        _, before = await _scrape(http)
        accepted = 0
        for _ in range(3):
            seat = (await http.get(f"/games/{gid}")).json()["to_act"][0]
            h = {"Authorization": f"Bearer {tokens[seat]}"}
            move = (await http.get(f"/games/{gid}/moves", headers=h)).json()["moves"][0]
            res = await http.post(f"/games/{gid}/commands", json={"command": move["text"]}, headers=h)
            assert res.status_code == 200, res.text
            accepted += 1
        seat = (await http.get(f"/games/{gid}")).json()["to_act"][0]
        idle = {"Authorization": f"Bearer {tokens[1 - seat]}"}
        move = (await http.get(f"/games/{gid}/moves", headers={"Authorization": f"Bearer {tokens[seat]}"})).json()
        refused = await http.post(f"/games/{gid}/commands", json={"command": move["moves"][0]["text"]}, headers=idle)
        assert refused.status_code == 422, refused.text
        code = refused.json()["code"]
        bad = await http.post(f"/games/{gid}/commands", json={"command": "fly to the moon"}, headers=idle)
        assert bad.status_code == 400 and bad.json()["code"] == "bad_notation"

        async with websockets.connect(base.replace("http://", "ws://") + f"/games/{gid}/socket") as ws:
            await ws.send(json.dumps({"type": "subscribe", "token": tokens[0]}))
            await asyncio.wait_for(ws.recv(), 20)  # subscribed: its first view
            text, during = await _scrape(http)
        _, after = await _scrape(http)

    def moved(name: str, **labels: str) -> float:
        return _get(after, name, **labels) - _get(before, name, **labels)

    total = "tablestream_gateway_commands_total"
    assert moved(total, game_type=DUEL, outcome="accepted") == accepted
    assert moved(total, game_type=DUEL, outcome=code) == 1
    assert moved(total, game_type=DUEL, outcome="bad_notation") == 1
    # The histogram holds the commands the referee answered (not the one refused by the gateway).
    assert moved("tablestream_gateway_command_seconds_count", game_type=DUEL) == accepted + 1
    assert _get(after, "tablestream_gateway_command_seconds_bucket", game_type=DUEL, le="+Inf") >= accepted + 1
    assert _get(during, "tablestream_gateway_websockets") == _get(after, "tablestream_gateway_websockets") + 1
    assert _get(after, "tablestream_redis_up") == 1
    assert ("tablestream_referee_pending_commands", (("shard", "0"),)) in after
    for secret in (*tokens, gid):
        assert secret not in text
    assert "seat" not in text


@pytest.fixture
def idle(tmp_path: Path) -> Iterator[Deployment]:
    """A gateway on a flushed database of its own, and no referee."""
    url = db_url(METRICS_DB)
    r = redis.Redis.from_url(url)
    try:
        r.flushdb()
    except redis.RedisError as e:
        pytest.fail(f"metrics tests need a real Redis at {url!r}: {e!r}", pytrace=False)
    finally:
        r.close()
    d = Deployment(url, logs=tmp_path)
    try:
        d.start_gateway()
        yield d
    finally:
        d.stop()


def _shard_gauges(samples: dict, shard: int) -> tuple[float, float, float]:
    return (_get(samples, "tablestream_referee_pending_commands", shard=str(shard)),
            _get(samples, "tablestream_referee_lag_commands", shard=str(shard)),
            _get(samples, "tablestream_projector_lag_entries", shard=str(shard)))


async def test_backlogs_read_from_redis_with_no_referee(idle: Deployment) -> None:
    r = redis.Redis.from_url(idle.url)
    try:
        shards = int(r.get(keys.shards()))
        s = shards - 1
        async with httpx.AsyncClient(base_url=idle.gateways[0], timeout=30) as http:
            assert _shard_gauges((await _scrape(http))[1], s) == (0, 0, 0)
            for i in range(3):
                r.xadd(keys.cmd(s), {"n": str(i)})
            assert _shard_gauges((await _scrape(http))[1], s) == (0, 3, 0)  # no group: every entry waits
            r.xgroup_create(keys.cmd(s), "referee", id="0")
            r.xreadgroup("referee", "ghost", {keys.cmd(s): ">"}, count=2)  # read, never settled
            first = r.xadd(keys.feed(s), {"n": "1"})
            r.xadd(keys.feed(s), {"n": "2"})
            r.set(keys.checkpoint(s, "live"), first)
            assert _shard_gauges((await _scrape(http))[1], s) == (2, 1, 1)
            for other in range(shards - 1):
                assert _shard_gauges((await _scrape(http))[1], other) == (0, 0, 0)

        # `up` with a projector only: the same reading of the referee's stream.
        r.delete(keys.feed(s), keys.checkpoint(s, "live"))
        port = free_port()
        idle.start("up", "up", "--no-referee", "--metrics-port", str(port))
        deadline = time.monotonic() + 90
        while True:
            try:
                res = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, (idle.logs / "up.out").read_text()
                await asyncio.sleep(0.2)
        samples = _samples(res.text)
        assert _get(samples, "tablestream_redis_up") == 1
        assert _shard_gauges(samples, s) == (2, 1, 0)
    finally:
        r.close()
