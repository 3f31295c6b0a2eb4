"""Several projector processes sharing the shards (issue #26: "a projector per shard range or
a group of projectors that share shards without double-writing views"): `tablestream up
--no-referee` processes, some with `--projector-shards`, on 4 shards of a real Redis; each
shard is projected by one process at a time (its lease), a SIGKILLed holder's shards are
taken over once its lease lapses, and a clean stop gives its leases up at once."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from events import keys
from events.store import EventStore
from games.seven_wonders_duel import GAME as duel
from projections import board
from projections.table import advance, empty
from services.bots.driver import play_game
from services.client import Client
from services.projector.runner import LIVE, load_views
from services.verify import verify_games
from tests.integration.support_gateway import Deployment
from tests.integration.support_service import db_url

pytestmark = pytest.mark.integration

SHARDS = 4
LEASE_MS = 600


async def _holders(r: aioredis.Redis) -> list[str | None]:
    got = [await r.get(keys.projector_lease(s, LIVE)) for s in range(SHARDS)]
    return [g.decode() if g else None for g in got]


async def _wait_holders(r: aioredis.Redis, want: list[str | None], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while (got := await _holders(r)) != want:
        assert time.monotonic() < deadline, f"lease holders {got}, expected {want}"
        await asyncio.sleep(0.05)


async def _play(r: aioredis.Redis, store: EventStore, tag: str, per_shard: int = 3) -> list[str]:
    """Whole Duel games, `per_shard` on every shard."""
    ids: dict[int, list[str]] = {s: [] for s in range(SHARDS)}
    i = 0
    while any(len(v) < per_shard for v in ids.values()):
        gid = f"{tag}-{i}"
        if len(ids[store.shard(gid)]) < per_shard:
            ids[store.shard(gid)].append(gid)
        i += 1
    games = [g for v in ids.values() for g in v]
    async with Client(r, shards=SHARDS, timeout=30) as c:
        await asyncio.gather(*(play_game(c, store, duel, seed=g.encode(), game_id=g) for g in games))
    return games


async def _projected(r: aioredis.Redis, store: EventStore, games: list[str], timeout: float = 20.0) -> None:
    """Every game's stored views are those of its whole log (written by whichever process
    holds its shard), and verify finds nothing."""
    deadline = time.monotonic() + timeout
    pending = list(games)
    while pending:
        g = pending[0]
        table = advance(empty(g, duel), await store.read(g))
        views = await load_views(r, store.shard(g), g, board.seats(table))
        if views == board.docs(table):
            pending.pop(0)
            continue
        assert time.monotonic() < deadline, f"{g}: its views are not those of its log"
        await asyncio.sleep(0.05)
    assert await verify_games(r, store, games) == {g: [] for g in games}


async def test_projector_processes_share_the_shards_one_at_a_time(r, referee_factory, tmp_path: Path) -> None:
    await referee_factory(shards=SHARDS)
    store = EventStore(r, shards=SHARDS)
    d = Deployment(db_url(), logs=tmp_path)
    env = {"SHARDS": str(SHARDS), "TABLESTREAM_PROJECTOR_LEASE_MS": str(LEASE_MS)}
    try:
        low = d.start("low", "up", "--no-referee", "--projector-shards", "0-1", env={**env, "TABLESTREAM_CONSUMER": "low"})
        await _wait_holders(r, ["low", "low", None, None])
        d.start("all", "up", "--no-referee", env={**env, "TABLESTREAM_CONSUMER": "all"})
        await _wait_holders(r, ["low", "low", "all", "all"])
        await _projected(r, store, await _play(r, store, "a"))
        await asyncio.sleep(3 * LEASE_MS / 1000)  # renewed: nobody takes another's shard
        assert await _holders(r) == ["low", "low", "all", "all"]

        low.send_signal(signal.SIGKILL)  # its leases lapse; "all" takes shards 0 and 1 over
        low.wait(10)
        await _wait_holders(r, ["all"] * SHARDS)
        await _projected(r, store, await _play(r, store, "b"))

        late = d.start("late", "up", "--no-referee", env={**env, "TABLESTREAM_CONSUMER": "late"})
        await asyncio.sleep(3 * LEASE_MS / 1000)
        assert await _holders(r) == ["all"] * SHARDS  # a newcomer waits for a free shard
        d.procs[1].send_signal(signal.SIGTERM)  # a clean stop: its leases are given up at once
        assert d.procs[1].wait(15) == 0
        await _wait_holders(r, ["late"] * SHARDS, timeout=LEASE_MS / 1000 + 5)
        await _projected(r, store, await _play(r, store, "c"))
        late.send_signal(signal.SIGTERM)
        assert late.wait(15) == 0
        assert await _holders(r) == [None] * SHARDS
    finally:
        d.stop()
    out = (tmp_path / "all.out").read_text()
    assert "projector (shards" not in out and "Traceback" not in out, out[-3000:]
    assert "projector (shards 0-1, by lease)" in (tmp_path / "low.out").read_text()
