"""The projector's side of ratings: keeps `keys.ratings(game_type)` equal to the pure fold
of `projections.ratings` over the type's rated results (`keys.rated(game_type)`).

The projector stores each finished game's `Result` with its statistics row (one script
call); then the new results are folded onto the stored ratings when they all come after
the stored fold position, otherwise (another shard's projector folded a later game first)
the type's ratings are folded again from every stored result. The read-fold-write is one
optimistic transaction (WATCH), so projectors of several shards never lose each other's
games. A rebuild folds every type again from its results.
"""

from __future__ import annotations

from collections.abc import Iterable

import redis.asyncio as aioredis
from redis.exceptions import WatchError

from events import keys
from projections import ratings


async def update(redis: aioredis.Redis, game_type: str, results: Iterable[ratings.Result]) -> None:
    """Fold the finished games' `results` (already stored in `keys.rated`) into the ratings."""
    new = list(results)
    if not new:
        return
    key = keys.ratings(game_type)
    for _ in range(100):
        async with redis.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(key)
                stored, at = ratings.decode_ratings(await pipe.hgetall(key))
                got = ratings.extend(stored, at, new)
                if got is None:
                    got = ratings.rebuild(map(ratings.decode_result, (await pipe.hgetall(keys.rated(game_type))).values()))
                pipe.multi()
                pipe.delete(key)
                pipe.hset(key, mapping=ratings.encode_ratings(*got))  # type: ignore[arg-type]
                await pipe.execute()
                return
            except WatchError:
                continue
    raise RuntimeError(f"ratings of {game_type}: other projectors kept writing them")


async def rebuild(redis: aioredis.Redis) -> None:
    """Fold every game type's ratings again from its rated results alone."""
    async for k in redis.scan_iter(match=keys.rated_pattern(), count=1000):
        game_type = k.decode().split(":", 1)[1]
        folded, at = ratings.rebuild(map(ratings.decode_result, (await redis.hgetall(k)).values()))
        async with redis.pipeline(transaction=True) as pipe:
            pipe.delete(keys.ratings(game_type))
            pipe.hset(keys.ratings(game_type), mapping=ratings.encode_ratings(folded, at))  # type: ignore[arg-type]
            await pipe.execute()
