"""What happens when Redis is full (issue #22 item 6): a redis-server of the test's own with
a tiny `maxmemory` and `noeviction` (deploy/redis.conf's policy) is filled; the referee
answers `storage_full` without writing anything, keeps running, and once memory is freed
the very same commands are accepted and play goes on."""

from __future__ import annotations

import asyncio

import msgspec
import redis.asyncio as aioredis

from events import keys
from events.envelope import Accepted, Rejected
from events.store import EventStore
from services import protocol
from services.client import Client
from services.config import Settings, unique_consumer
from services.referee.app import RefereeService
from tests.integration.support_redis import free_port, start_redis

# Fills Redis and queues commands in one script: Redis checks a script's memory at its
# first write only, so the commands get into cmd:{s} although Redis is full after the SET.
_FILL = """
redis.call('SET', 'filler', string.rep('x', tonumber(ARGV[1])))
for i = 2, #ARGV, 6 do
  redis.call('XADD', KEYS[1], '*', ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5])
end
return 1
"""


def _flat(env) -> list[bytes]:
    return [x for kv in protocol.command_fields(env).items() for x in kv]


async def test_a_full_redis_answers_storage_full_writes_nothing_and_play_resumes(tmp_path, toy) -> None:
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    proc = await start_redis(tmp_path, port, "--appendonly", "no")
    r = aioredis.from_url(url)
    svc = RefereeService(Settings(redis_url=url, consumer=unique_consumer("full"), poll_ms=20,
                                  claim_idle_ms=60_000), url)  # no redelivery within the test
    await svc.start()
    store = EventStore(r)
    try:
        async with Client(r, timeout=10) as c:
            gid, tokens, out = await c.open(toy, preset="2p")
            assert isinstance(out, Accepted)
            assert isinstance(await c.act(toy, gid, 0, tokens[0], "add 1"), Accepted)
            length = await store.version(gid)

            used = int((await r.info("memory"))["used_memory"])
            await r.config_set("maxmemory", str(used + 512 * 1024))
            act = c.envelope(game_id=gid, game_type="toy", seat=1, token=tokens[1], command=b'{"type":"add","amount":2}')
            req = protocol.OpenRequest(token_hashes=[protocol.token_hash(t) for t in tokens], preset="2p")
            new = c.envelope(game_id="opened-when-full", game_type="toy", kind="open", command=msgspec.json.encode(req))
            waiting = [c.expect(e.command_id) for e in (act, new)]
            await r.eval(_FILL, 1, keys.cmd(0), 2 * 1024 * 1024, *_flat(act), *_flat(new))
            for fut in waiting:  # the referee's answer: typed, retriable
                got = await asyncio.wait_for(fut, 10)
                assert isinstance(got, Rejected) and got.code == "storage_full", got
            # Nothing half-written, nothing recorded, nothing left pending.
            assert await store.version(gid) == length
            assert await store.version("opened-when-full") == 0
            assert await r.exists(keys.done(0, act.command_id), keys.rejected(0, act.command_id),
                                  keys.done(0, new.command_id), keys.rejected(0, new.command_id),
                                  keys.secret(0, "opened-when-full")) == 0
            assert (await r.xpending(keys.cmd(0), protocol.GROUP))["pending"] == 0
            # A command sent while Redis is full cannot even be queued: the client says so.
            refused = await c.act(toy, gid, 1, tokens[1], "add 3")
            assert isinstance(refused, Rejected) and refused.code == "storage_full", refused
            assert svc.referees[0].handled >= 4  # the referee kept running

            await r.delete("filler")  # memory freed (archive, retention): the same commands now land
            got = await c.submit(act)
            assert isinstance(got, Accepted) and got.seqs == [length + 1], got
            got = await c.submit(new)
            assert isinstance(got, Accepted), got
            assert isinstance(await c.act(toy, gid, 0, tokens[0], "add 1"), Accepted)  # play goes on
            assert await store.version(gid) == length + 2
            assert await r.ttl(keys.secret(0, "opened-when-full")) == -1
    finally:
        await svc.stop()
        await r.aclose()
        proc.terminate()
        proc.wait(20)
