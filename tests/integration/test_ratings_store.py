"""The projectors' ratings in a real Redis (services/projector/ratings.py): whatever order
the projectors of several shards fold finished games in, and however they interleave,
the stored ratings end equal to the pure fold of every game in end order."""

from __future__ import annotations

import asyncio
import random
import uuid

import redis.asyncio as aioredis

from events import keys
from events.meta import SeatPlayer
from projections import ratings
from services.projector import ratings as stored_ratings


def _results(n: int) -> list[ratings.Result]:
    rnd = random.Random(3)
    names = [SeatPlayer(kind="bot", id=k, name=k) for k in ("greedy", "random")] + \
        [SeatPlayer(kind="name", id=n, name=n) for n in ("Ada", "Bob")]
    out = []
    for i in range(n):
        seated = rnd.sample(names, 3)
        out.append(ratings.Result(game_id=f"g{i:03d}", ended_ms=1_000 + i // 2, ranks=rnd.sample([1, 2, 3], 3),
                                  seated=seated))
    return out


async def _store(r: aioredis.Redis, game_type: str, batch: list[ratings.Result]) -> None:
    """As a projector does: the games' results first, then the fold."""
    for res in batch:
        await r.hset(keys.rated(game_type), res.game_id, ratings.encode_result(res))
    await stored_ratings.update(r, game_type, batch)


async def test_out_of_order_and_concurrent_projectors_end_at_the_pure_fold(redis: aioredis.Redis) -> None:
    game_type = f"t{uuid.uuid4().hex[:8]}"
    games = _results(60)
    try:
        shuffled = random.Random(5).sample(games, len(games))
        batches = [shuffled[i:i + 4] for i in range(0, len(shuffled), 4)]
        # two "shards" folding their batches at the same time, in no particular order
        await asyncio.gather(*(_store(redis, game_type, b) for b in batches[::2]),
                             *(_store(redis, game_type, b) for b in batches[1::2]))
        got = ratings.decode_ratings(await redis.hgetall(keys.ratings(game_type)))
        assert got == ratings.rebuild(games) and got[1].games == 60
        # in order: each batch extends the stored fold (no refold), to the same figures
        await redis.delete(keys.ratings(game_type), keys.rated(game_type))
        for i in range(0, 60, 6):
            await _store(redis, game_type, sorted(games, key=ratings.order)[i:i + 6])
        assert ratings.decode_ratings(await redis.hgetall(keys.ratings(game_type))) == ratings.rebuild(games)
        # a rebuild folds from the kept results alone
        await redis.hset(keys.ratings(game_type), "bot:greedy", b'{"mu":1.0,"sigma":1.0,"games":1,"name":"x"}')
        await stored_ratings.rebuild(redis)
        assert ratings.decode_ratings(await redis.hgetall(keys.ratings(game_type))) == ratings.rebuild(games)
    finally:
        await redis.delete(keys.ratings(game_type), keys.rated(game_type))
