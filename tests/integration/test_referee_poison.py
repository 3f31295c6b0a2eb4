"""Hostile cmd:{s} entries against the real referee (issue #22 items 1 and 2).

Whatever one entry holds (nesting 1,000 deep, a seat of 2**70, NaN, surrogates, a wrong
type at any field, thousands of fields, bytes that are not UTF-8), it gets an outcome on
its first delivery, the legal commands of a real game interleaved with it are accepted,
no log changes because of it, and the referee keeps serving; a referee started with such
an entry pending serves at once. Random entries: TS_FUZZ_ENTRIES (default 150), seeded by
TS_FUZZ_SEED (printed on failure).
"""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

import msgspec

from events import keys
from events.envelope import Accepted, Rejected
from events.store import EventStore
from games import registry
from projections.table import advance, empty
from services import protocol
from services.bots.backlog import script_game
from services.client import Client
from tests.integration.support_service import eventually

duel = registry.get("seven_wonders_duel")
FUZZ = int(os.environ.get("TS_FUZZ_ENTRIES", "150"))
SEED = int(os.environ.get("TS_FUZZ_SEED", str(random.randrange(1 << 30))))
FIELDS = ("command_id", "game_id", "game_type", "kind", "seat", "token", "command", "reply_to", "sent_us")


def _deep(n: int, obj: bool) -> bytes:
    return (b'{"a":' * n + b"1" + b"}" * n) if obj else (b"[" * n + b"]" * n)


def _value(rng: random.Random, depth: int = 0) -> bytes:
    """Raw bytes of a random, often invalid, JSON value."""
    pick = rng.randrange(16)
    if pick == 0:
        return _deep(rng.randrange(33, 3000), rng.random() < 0.5)
    if pick == 1:
        return str(rng.choice([1, -1]) * rng.randrange(2**63, 2**260)).encode()
    if pick == 2:
        return rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-0.0", b"1.5"])
    if pick == 3:
        return rng.choice([rb'"\ud800"', rb'"\udfff x"', b'"\xed\xa0\x80"', b'"\xff\xfe"', rb'"a\u0000b"'])
    if pick == 4:
        return b'"' + bytes(rng.choice(b"ab{}[] \t\n-.:") for _ in range(rng.randrange(0, 300))) + b'"'
    if pick == 5:
        return b'"' + b"x" * rng.randrange(100, 5000) + b'"'
    if pick == 6:
        return b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(rng.randrange(1, 400))) + b"}"
    if pick == 7 and depth < 3:
        return b"[" + b",".join(_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))) + b"]"
    if pick == 8:
        return rng.choice([b"null", b"true", b"false", b"{}", b"[]", b'""', b"0", b"-1", b"255", b"256"])
    if pick == 9:
        return b'{"type":"' + rng.choice([b"nope", b"", b"\\ud800"]) + b'","n":' + _value(rng, depth + 1) + b"}"
    if pick == 10:
        return rng.choice([b"[", b"{", b'"open', b"}", b"\x00", b"1 2", b'{"a"}'])
    return str(rng.randrange(-(2**70), 2**70)).encode()


def _body(rng: random.Random, good: dict[str, bytes]) -> bytes:
    """An envelope as JSON text: the template's fields with one to three replaced at random."""
    fields = dict(good)
    for name in rng.sample(FIELDS, rng.randrange(1, 4)):
        fields[name] = _value(rng)
    if rng.random() < 0.1:
        fields["extra"] = b"1"
    return b"{" + b",".join(b'"%s":%s' % (k.encode(), v) for k, v in fields.items()) + b"}"


def _hostile(rng: random.Random, good: dict[str, bytes], to: bytes, n: int) -> list[dict[bytes, bytes]]:
    """`n` random hostile entries after the fixed ones of the issue."""
    base = dict(good)
    out: list[dict[bytes, bytes]] = [
        {protocol.BODY: _deep(1000, False), protocol.ID: b"p-deep-a", protocol.TO: to},
        {protocol.BODY: _deep(400, True), protocol.ID: b"p-deep-o", protocol.TO: to},
        {protocol.BODY: _body_of({**base, "seat": b"1180591620717411303424", "command_id": b'"p-seat"'}),
         protocol.ID: b"p-seat", protocol.TO: to},
        {protocol.BODY: _body_of({**base, "command": _deep(300, True), "command_id": b'"p-cmd"'}),
         protocol.ID: b"p-cmd", protocol.TO: to},
        {protocol.BODY: _body_of({**base, "sent_us": b"-" + b"9" * 40, "command_id": b'"p-sent"'}),
         protocol.ID: b"p-sent", protocol.TO: to},
        {**{b"f%d" % i: b"x" for i in range(5000)}, protocol.ID: b"p-fields", protocol.TO: to},
        {protocol.BODY: b"\xff" * 100, protocol.ID: b"\xff\xfe", protocol.TO: b"\xed\xa0\x80"},
        {protocol.BODY: b"x" * 100_000, protocol.ID: b"p-big", protocol.TO: to},
        {protocol.BODY: _body_of({**base, "game_id": b'"g{0}: x"', "command_id": b'"p-gid"'}),
         protocol.ID: b"p-gid", protocol.TO: to},
        {protocol.BODY: _body_of({**base, "game_id": b'"' + b"g" * 3000 + b'"', "command_id": b'"p-long"'}),
         protocol.ID: b"p-long", protocol.TO: to},
        {protocol.ID: b"p-nobody", protocol.TO: to},
    ]
    for i in range(n):
        fields = {protocol.BODY: _body(rng, {**base, "command_id": b'"f-%d"' % i})}
        if rng.random() < 0.8:
            fields[protocol.ID] = b"f-%d" % i
        if rng.random() < 0.8:
            fields[protocol.TO] = to if rng.random() < 0.9 else _value(rng)[:200]
        if rng.random() < 0.05:
            fields.update({b"x%d" % j: _value(rng)[:100] for j in range(rng.randrange(1, 50))})
        out.append(fields)
    return out


def _body_of(fields: dict[str, bytes]) -> bytes:
    return b"{" + b",".join(b'"%s":%s' % (k.encode(), v) for k, v in fields.items()) + b"}"


async def _play(c: Client, store: EventStore) -> tuple[str, list[str], list[tuple[int, Any]]]:
    gid, tokens, out = await c.open(duel)
    assert isinstance(out, Accepted)
    table = advance(empty(gid, duel), await store.read(gid))
    return gid, tokens, script_game(duel, table, b"poison-test-seed")


def _legal(c: Client, gid: str, tokens: list[str], seat: int, cmd: Any, cid: str) -> dict[bytes, bytes]:
    return protocol.command_fields(c.envelope(game_id=gid, game_type=duel.id, seat=seat, token=tokens[seat],
                                              command=msgspec.json.encode(cmd), command_id=cid))


async def _audited(r: Any) -> dict[bytes, bytes]:
    """msg_id -> code of every refusal on rej:{0}."""
    return {f[b"msg_id"]: f[b"code"] for _, f in await r.xrange(keys.rejections(0))}


async def test_hostile_entries_are_refused_and_the_legal_ones_between_them_land(r, referee_factory) -> None:
    rng = random.Random(SEED)
    # A long claim time: every outcome must come from the first delivery.
    svc = await referee_factory(claim_idle_ms=600_000)
    store = EventStore(r)
    async with Client(r, timeout=60) as c:
        gid, tokens, script = await _play(c, store)
        opened = await store.version(gid)
        good = {"command_id": b'"x"', "game_id": b'"%s"' % gid.encode(), "game_type": b'"%s"' % duel.id.encode(),
                "kind": b'"act"', "seat": b"0", "token": msgspec.json.encode(tokens[0]),
                "command": b'{"type":"nope"}', "reply_to": msgspec.json.encode(c.id), "sent_us": b"1"}
        hostile = _hostile(rng, good, c.id.encode(), FUZZ)
        legal = [(f"legal-{i}", _legal(c, gid, tokens, seat, cmd, f"legal-{i}"))
                 for i, (seat, cmd) in enumerate(script[:40])]
        futures = {cid: c.expect(cid) for cid, _ in legal}
        poison = {cid: c.expect(cid) for cid in ("p-deep-a", "p-deep-o", "p-seat", "p-cmd", "p-sent", "p-fields",
                                                 "p-big", "p-gid", "p-long", "p-nobody")}
        order: list[tuple[str, dict[bytes, bytes]]] = [(f"h{i}", h) for i, h in enumerate(hostile)]
        for item in legal:  # each legal command at a random place, in their order
            order.insert(rng.randrange(len(order) + 1) if order else 0, item)
        legal_at = sorted(i for i, (name, _) in enumerate(order) if name.startswith("legal-"))
        by_rank = iter(legal)
        for i in legal_at:
            order[i] = next(by_rank)
        pipe = r.pipeline(transaction=False)
        for _, fields in order:
            pipe.xadd(keys.cmd(0), fields)
        ids = await pipe.execute()
        hostile_ids = {mid for (name, _), mid in zip(order, ids) if name.startswith("h")}

        outs = await asyncio.wait_for(asyncio.gather(*futures.values()), 60)
        assert all(isinstance(o, Accepted) for o in outs), (SEED, [o for o in outs if not isinstance(o, Accepted)])
        codes = {cid: (await asyncio.wait_for(f, 30)).code for cid, f in poison.items()}
        assert codes == {"p-deep-a": "malformed", "p-deep-o": "malformed", "p-seat": "malformed",
                         "p-cmd": "malformed", "p-sent": "malformed", "p-fields": "malformed",
                         "p-big": "oversized", "p-gid": "malformed", "p-long": "malformed",
                         "p-nobody": "malformed"}, SEED

        async def all_answered() -> bool:
            return hostile_ids <= set(await _audited(r)) and (await r.xpending(keys.cmd(0), protocol.GROUP))[
                "pending"] == 0
        await eventually(all_answered, timeout=30)
        assert not await r.xlen(keys.dead(0))
        # The log holds the opening and the legal commands' events, nothing else.
        log = await store.read(gid)
        assert {e.command_id for e in log[opened:]} == {cid for cid, _ in legal}, SEED
        assert max(o.seqs[-1] for o in outs) == len(log)

        # Still serving: the next legal command is accepted.
        seat, cmd = script[40]
        env = c.envelope(game_id=gid, game_type=duel.id, seat=seat, token=tokens[seat],
                         command=msgspec.json.encode(cmd))
        assert isinstance(await c.submit(env), Accepted)
        assert svc.referees[0].handled >= len(order)


async def test_a_referee_started_with_poison_pending_serves_at_once(r, referee_factory) -> None:
    """Poison left pending by a dead referee (no heartbeat) and by this consumer name: the
    next start judges it (malformed) and serves; it used to exit with status 1 every time."""
    svc = await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=30) as c:
        gid, tokens, script = await _play(c, store)
        consumer = svc.settings.consumer
        await svc.stop()
        seat, cmd = script[0]
        pipe = r.pipeline(transaction=False)
        pipe.xadd(keys.cmd(0), {protocol.BODY: _deep(1000, False), protocol.ID: b"dead-1", protocol.TO: c.id})
        pipe.xadd(keys.cmd(0), {protocol.BODY: _body_of({"command_id": b'"dead-2"', "game_id": b'"%s"' % gid.encode(),
                                                        "game_type": b'"x"', "seat": b"9" * 30}),
                                protocol.ID: b"dead-2", protocol.TO: c.id})
        pipe.xadd(keys.cmd(0), _legal(c, gid, tokens, seat, cmd, "after-poison"))
        await pipe.execute()
        # Half of it delivered to a dead consumer, half to this consumer name, none acknowledged.
        await r.xreadgroup(protocol.GROUP, "ghost", {keys.cmd(0): ">"}, count=1)
        await r.xreadgroup(protocol.GROUP, consumer, {keys.cmd(0): ">"}, count=1)
        fut = {cid: c.expect(cid) for cid in ("dead-1", "dead-2", "after-poison")}
        await referee_factory(consumer=consumer)
        got = {cid: await asyncio.wait_for(f, 10) for cid, f in fut.items()}
        assert isinstance(got["after-poison"], Accepted)
        assert isinstance(got["dead-1"], Rejected) and got["dead-1"].code == "malformed"
        assert isinstance(got["dead-2"], Rejected) and got["dead-2"].code == "malformed"


async def test_a_malformed_entry_cannot_squat_a_command_id(r, referee_factory) -> None:
    """#22 item 2: a malformed entry's rejected record carries the fingerprint of its bytes:
    a resend of those bytes gets the same answer, a command with the same id is
    `command_id_reused` (it was answered `malformed` for 24 h) and the log does not move;
    a record without a fingerprint answers no fingerprinted command either."""
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=30) as c:
        gid, tokens, script = await _play(c, store)
        before = await store.version(gid)
        squat = {protocol.BODY: b"not json", protocol.ID: b"victim-1", protocol.TO: c.id.encode()}
        for _ in range(2):  # the same bytes twice: the same answer
            fut = c.expect("victim-1")
            await r.xadd(keys.cmd(0), squat)
            out = await asyncio.wait_for(fut, 10)
            assert isinstance(out, Rejected) and out.code == "malformed"
        stored = await r.get(keys.rejected(0, "victim-1"))
        assert stored[:16] == protocol.entry_fingerprint(squat).encode()
        seat, cmd = script[0]
        for cid in ("victim-1", "victim-2"):
            if cid == "victim-2":  # a record as written before fingerprints: none
                await r.set(keys.rejected(0, cid), b'{"status":"rejected","command_id":"victim-2","game_id":"",'
                                                  b'"code":"malformed","message":"old"}')
            out = await c.submit(c.envelope(game_id=gid, game_type=duel.id, seat=seat, token=tokens[seat],
                                            command=msgspec.json.encode(cmd), command_id=cid))
            assert isinstance(out, Rejected) and out.code == "command_id_reused", out
        assert await store.version(gid) == before
        out = await c.act(duel, gid, seat, tokens[seat], cmd)
        assert isinstance(out, Accepted)
