"""Finished games for tests that need many of them fast: made in memory by bench/logs.py
and landed through the real store (`import_logs`, as `tablestream import` does), so the
projector folds them from the feed like any other game."""

from __future__ import annotations

import time
from collections.abc import Iterator

from bench.logs import NAMES, finished_logs
from events.envelope import Envelope
from events.store import EventStore
from games.contract import GameDef

__all__ = ["NAMES", "finished_logs", "import_games", "import_logs", "wait_rows"]


async def import_logs(store: EventStore, logs: Iterator[list[Envelope]]) -> list[str]:
    """Land each log through the store, as `tablestream import` does; their game ids."""
    ids = []
    for envs in logs:
        gid = envs[0].game_id
        res = await store.append(gid, expected=0, command_id=f"import:{gid}:{envs[-1].hash[:16]}", envelopes=envs)
        assert res.status == "ok", (gid, res)
        ids.append(gid)
    return ids


async def import_games(url: str, batches: list[tuple[GameDef, int, str, int, str]], now_ms: int,
                       named: bool = True) -> list[str]:
    """Import finished games into the Redis at `url`: per batch (game, how many, preset,
    over how many days, game id prefix)."""
    import redis.asyncio as aioredis

    r = aioredis.from_url(url)
    try:
        store = EventStore(r)
        ids: list[str] = []
        for game, n, preset, days, prefix in batches:
            ids += await import_logs(store, finished_logs(game, n, preset, now_ms, days=days, prefix=prefix,
                                                          named=named))
        return ids
    finally:
        await r.aclose()


def wait_rows(url: str, counts: dict[str, int], timeout: float = 120.0) -> None:
    """Until the projector has written a row for as many games of each type as `counts` says."""
    import redis

    from events import keys

    r = redis.Redis.from_url(url)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(r.hlen(keys.stats(t)) == n for t, n in counts.items()):
                return
            time.sleep(0.2)
        raise AssertionError(f"rows: { {t: r.hlen(keys.stats(t)) for t in counts} }, wanted {counts}")
    finally:
        r.close()
