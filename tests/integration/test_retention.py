"""Retention of every key family (issue #22 item 6) and the archive tombstone, against a
real referee on the real Redis (toy game). Retention times are shortened through the
settings (seconds, never minutes)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from events import keys
from events.envelope import Accepted, Rejected
from events.store import EventStore
from services.archive import Archiver
from services.client import Client
from services.projector.runner import Projector
from tests.integration.support_service import eventually


async def _play_to_the_end(c: Client, toy, gid: str, tokens: list[str]) -> list[str]:
    """Add 3 in turn until the toy game is won; the command ids sent."""
    ids, seat = [], 0
    while True:
        cid = c.next_id()
        out = await c.act(toy, gid, seat, tokens[seat], "add 3", command_id=cid)
        assert isinstance(out, Accepted), out
        ids.append(cid)
        if any(e == "toy.won" for e in await _types(c, gid)):
            return ids
        seat = 1 - seat


async def _types(c: Client, gid: str) -> list[str]:
    return [e.type for e in await EventStore(c.redis).read(gid)]


async def test_an_archived_game_is_answered_game_archived_and_its_id_stays_taken(r, toy, referee_factory,
                                                                                tmp_path: Path) -> None:
    first = await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=5) as c:
        gid, tokens, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted)
        await _play_to_the_end(c, toy, gid, tokens)
        projector = Projector(r, store, 0)
        while await projector.step(block=False):
            pass
        assert await Archiver(r, store, tmp_path).archive(gid) == "archived"
        assert await r.hexists(keys.archived(0), gid)

        # A restarted referee (nothing cached) reads the tombstone.
        await first.stop()
        await referee_factory()
        for svc_out in (await c.act(toy, gid, 0, tokens[0], "add 1"),
                        (await c.open(toy, game_id=gid, preset="2p"))[2]):
            assert isinstance(svc_out, Rejected) and svc_out.code == "game_archived", svc_out
            assert "archived" in svc_out.message and gid in svc_out.message
        assert await store.version(gid) == 0  # no game opened under the archived id
        assert await r.exists(keys.secret(0, gid)) == 0  # and no seed drawn for it

        # Restored, it is a game again (finished: game_over), never unknown.
        assert await Archiver(r, store, tmp_path).restore(gid) == "restored"
        out = await c.act(toy, gid, 0, tokens[0], "add 1")
        assert isinstance(out, Rejected) and out.code == "game_over", out
        # An unknown id is still unknown_game.
        out = await c.act(toy, "never-was", 0, tokens[0], "add 1")
        assert isinstance(out, Rejected) and out.code == "unknown_game", out


async def _ttl(r, key: str) -> int:
    return int(await r.ttl(key))


async def test_a_games_done_records_outlive_it_by_the_grace_and_its_revealed_seed_goes(r, toy, referee_factory,
                                                                                   ) -> None:
    await referee_factory(done_grace_s=1)
    store = EventStore(r)
    async with Client(r, timeout=5) as c:
        gid, tokens, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted)
        assert await _ttl(r, keys.secret(0, gid)) == -1  # the landed open keeps its seed
        first = c.envelope(game_id=gid, game_type="toy", seat=0, token=tokens[0], command=b'{"type":"add","amount":3}')
        assert isinstance(await c.submit(first), Accepted)
        assert await _ttl(r, keys.done(0, first.command_id)) == -1  # the game is in play: kept
        ids = [out.command_id, first.command_id]
        seat = 1
        while True:
            cid = c.next_id()
            got = await c.act(toy, gid, seat, tokens[seat], "add 3", command_id=cid)
            assert isinstance(got, Accepted), got
            ids.append(cid)
            if "ts.seed_revealed" in await _types(c, gid):
                break
            seat = 1 - seat
        assert await r.exists(keys.secret(0, gid)) == 0  # revealed in the log: deleted
        assert await r.exists(keys.command_ids(0, gid)) == 0  # the list of the log's commands: used, deleted
        for cid in ids:
            assert await _ttl(r, keys.done(0, cid)) in (0, 1), cid
        again = await c.submit(first)  # a retry within the grace: the same answer
        assert isinstance(again, Accepted) and again.seqs == (await c.submit(first)).seqs
        length = await store.version(gid)
        await eventually(lambda: _none_left(r, [keys.done(0, cid) for cid in ids]), timeout=5)
        late = await c.submit(first)  # after the grace: judged again, and the game is over
        assert isinstance(late, Rejected) and late.code == "game_over", late
        assert await store.version(gid) == length


async def test_the_end_finds_every_command_of_the_log_with_or_without_its_list(r, toy, referee_factory) -> None:
    """The game's end gives the grace to the done record of every command in its log: from
    the list the append script keeps (ids:{s}:<game>, each landed command's id), or, for a
    log begun before the list was kept (its list has no head, or none at all), from the log
    itself; so too if the list does not parse. Either way no record is left without its
    expiry, and the list is deleted."""
    await referee_factory(done_grace_s=30)
    async with Client(r, timeout=5) as c:
        games = []
        for kind in ("listed", "headless", "none", "garbled"):
            gid, tokens, out = await c.open(toy, preset="2p")
            assert isinstance(out, Accepted)
            listed = await r.get(keys.command_ids(0, gid))
            assert listed is not None and listed.startswith(b"ids1,") and out.command_id.encode() in listed
            games.append((kind, gid, tokens, [out.command_id]))
        for kind, gid, tokens, ids in games:
            first = await c.act(toy, gid, 0, tokens[0], "add 3")
            assert isinstance(first, Accepted)
            ids.append(first.command_id)
            if kind != "listed":  # as if the log had begun before the list: later APPENDs start a headless one
                await r.delete(keys.command_ids(0, gid))
            if kind == "none":
                await r.set(keys.command_ids(0, gid), b"")  # an empty value: no head either
            if kind == "garbled":
                await r.set(keys.command_ids(0, gid), b"ids1,zz")  # a head, then no netstring
            seat = 1
            while "toy.won" not in await _types(c, gid):
                got = await c.act(toy, gid, seat, tokens[seat], "add 3")
                assert isinstance(got, Accepted), got
                ids.append(got.command_id)
                seat = 1 - seat
        for kind, gid, _, ids in games:
            assert await r.exists(keys.command_ids(0, gid)) == 0, kind
            for cid in ids:
                assert 0 < await _ttl(r, keys.done(0, cid)) <= 30, (kind, cid)


async def _none_left(r, names: list[str]) -> bool:
    return await r.exists(*names) == 0


async def test_refused_opens_keep_nothing_and_refusals_expire(r, toy, referee_factory) -> None:
    svc = await referee_factory(seed_ttl_s=1, rejected_ttl_s=1)
    referee = svc.referees[0]
    async with Client(r, timeout=5) as c:
        refused = []
        for i in range(40):
            gid, _, out = await c.open(toy, game_id=f"nope-{i}", preset="no-such-preset", players=2)
            assert isinstance(out, Rejected) and out.code == "bad_options", out
            refused.append(out.command_id)
        kept, _, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted)
        assert set(referee.cache.secrets) <= {kept}  # no seed of a refused open in memory
        for i in range(40):  # each expires (-2: gone already), none is kept (-1)
            assert await _ttl(r, keys.secret(0, f"nope-{i}")) in (-2, 0, 1)
            assert await _ttl(r, keys.rejected(0, refused[i])) in (-2, 0, 1)
        assert await _ttl(r, keys.secret(0, kept)) == -1
        await eventually(lambda: _none_left(r, [keys.secret(0, f"nope-{i}") for i in range(40)]), timeout=5)
        await eventually(lambda: _none_left(r, [keys.rejected(0, cid) for cid in refused]), timeout=5)
        assert await r.exists(keys.secret(0, kept)) == 1


async def test_reply_streams_expire_when_idle_and_a_late_client_gets_its_outcome_by_resending(
        r, toy, referee_factory) -> None:
    await referee_factory(reply_ttl_s=1)
    async with Client(r, timeout=5) as c:
        gid, tokens, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted)
        stream = keys.replies(0, c.id)
        assert 0 < await _ttl(r, stream) <= 1
        # A command whose sender is not reading: its outcome waits on its stream, then goes.
        away = Client(r, client_id="c-away", timeout=5)
        env = away.envelope(game_id=gid, game_type="toy", seat=0, token=tokens[0],
                            command=b'{"type":"add","amount":2}')
        await c.redis.xadd(keys.cmd(0), {**{k: v for k, v in c_fields(env).items()}})
        await eventually(lambda: r.exists(keys.replies(0, "c-away")), timeout=5)
        await eventually(lambda: _none_left(r, [keys.replies(0, "c-away"), stream]), timeout=5)
    async with Client(r, client_id="c-away", timeout=5) as back:
        again = await back.submit(env)  # resent: answered from its idempotency record
        assert isinstance(again, Accepted) and again.seqs, again
        assert await store_version(r, gid) == again.seqs[-1]


def c_fields(env):
    from services import protocol

    return protocol.command_fields(env)


async def store_version(r, gid: str) -> int:
    return await EventStore(r).version(gid)


async def test_latency_is_counted_for_known_game_types_only(r, toy, referee_factory) -> None:
    await referee_factory()
    async with Client(r, timeout=5) as c:
        for i in range(5):
            out = await c.submit(c.envelope(game_id=f"g-{i}", game_type=f"no-such-type-{i}", kind="open"))
            assert isinstance(out, Rejected) and out.code == "unknown_game_type"
        gid, _, out = await c.open(toy, preset="2p")
    assert [k async for k in r.scan_iter(match="latency:*")] == [keys.latency(0, "toy").encode()]


async def test_the_feed_keeps_only_what_the_projector_has_not_applied(r, toy, referee_factory) -> None:
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=5) as c:
        for _ in range(3):
            await c.open(toy, preset="2p")
    assert await r.xlen(keys.feed(0)) > 3
    projector = Projector(r, store, 0)
    while await projector.step(block=False):
        pass
    await eventually(lambda: _feed_at_most(r, 1), timeout=5)  # the checkpoint's own entry stays
    async with Client(r, timeout=5) as c:
        await c.open(toy, preset="2p")
    assert await r.xlen(keys.feed(0)) > 1  # not projected yet: kept
    assert (await projector.step(block=False)) > 0


async def _feed_at_most(r, n: int) -> bool:
    return await r.xlen(keys.feed(0)) <= n


async def test_oversized_entries_leave_nothing_oversized_behind(r, toy, referee_factory) -> None:
    """20 entries with 1 MiB fields (id, to, body, one more): each is refused and audited,
    and once cmd:{s} is trimmed Redis holds under 1 MiB in all (it was 127.5 MiB)."""
    await referee_factory()
    big = b"x" * (1 << 20)
    for i in range(20):
        await r.xadd(keys.cmd(0), {b"body": big, b"id": big, b"to": big, b"extra%d" % i: big})
    await eventually(lambda: _audited(r, 20), timeout=20)
    await eventually(lambda: _cmd_empty(r), timeout=10)
    total = 0
    async for k in r.scan_iter(count=1000):
        total += int(await r.memory_usage(k) or 0)
    assert total < (1 << 20), total
    for _, fields in await r.xrange(keys.rejections(0)):
        assert sum(len(v) for v in fields.values()) < 1024, fields


async def _audited(r, n: int) -> bool:
    return await r.xlen(keys.rejections(0)) >= n


async def _cmd_empty(r) -> bool:
    return await r.xlen(keys.cmd(0)) == 0


async def test_a_record_written_before_fingerprints_were_canonical_still_answers_its_command(r, toy,
                                                                                          referee_factory) -> None:
    """Records written until 2026-12-02 begin with the hash of the command's exact bytes: a
    resend of that very command is its duplicate (it was command_id_reused), another
    command under that id still is command_id_reused."""
    from services import protocol

    await referee_factory()
    async with Client(r, timeout=5) as c:
        gid, tokens, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted)
        # Keys in another order than the canonical (sorted) one: the two fingerprints differ.
        env = c.envelope(game_id=gid, game_type="toy", seat=0, token=tokens[0], command=b'{"type":"add","amount":1}')
        assert protocol.exact_fingerprint(env) != protocol.fingerprint(env)
        length = await EventStore(r).version(gid)
        await r.set(keys.done(0, env.command_id), protocol.exact_fingerprint(env) + "[7]")
        got = await c.submit(env)
        assert isinstance(got, Accepted) and got.seqs == [7], got
        other = msgspec.structs.replace(env, command=msgspec.Raw(b'{"type":"add","amount":2}'))
        got = await c.submit(other)
        assert isinstance(got, Rejected) and got.code == "command_id_reused", got
        assert await EventStore(r).version(gid) == length  # neither was applied
