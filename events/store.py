"""The event log on Redis Streams: read, append (one atomic script), and feed helpers.

With its helper `events.held`, the only module of `events` that imports redis. It needs a
client created with `decode_responses=False`: payloads are stored and hashed as exact bytes.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Sequence
from importlib.resources import files
from typing import Any, Literal

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError, OutOfMemoryError, ResponseError

from events import keys
from events.codec import envelope_from_fields
from events.envelope import Envelope
from events.held import NOT_SENT, HeldConnection, on_one_connection

_SCRIPT = files("events").joinpath("append.lua").read_text(encoding="utf-8")
_ANSWER_FULL = files("events").joinpath("answer_full.lua").read_text(encoding="utf-8")
_DELIVER = files("events").joinpath("deliver.lua").read_text(encoding="utf-8")
Status = Literal["ok", "conflict", "duplicate", "rejected", "reused", "broken"]
_STATUS: tuple[Status, ...] = (
    "ok", "conflict", "duplicate", "rejected", "conflict", "reused", "broken")  # 4: not tried after a conflict
_pack = msgspec.msgpack.Encoder().encode
_PAGE = 256  # entries per XREVRANGE when reading a log's tail
_seqs_decoder = msgspec.json.Decoder(list[int])


def _fields(env: Envelope) -> list[Any]:
    """An envelope's field values in `FIELDS` order, which the script packs into a stream
    entry (`events.codec.ENTRY`). Redis's Lua MessagePack reads str but not bin: the payload
    is JSON, so UTF-8, and travels as str with exactly the same bytes. The whole form, for
    lists of envelopes that are not one command's chain (an import, a fork);
    `EventStore._entry` sends a command's envelopes compact."""
    return [env.game_id, env.game_type, env.seq, env.type, env.v, env.time, env.command_id, env.seat,
            env.prev_hash, env.hash, env.format, env.data.decode()]


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v


def entry_order(entry_id: str) -> tuple[int, int]:
    """A stream entry id ("ms-n") as a pair that sorts as the stream does."""
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)


FINGERPRINT_LEN = 16
"""Hex digits of a command fingerprint, the prefix of its done and rejected records."""


def record(fingerprint: str, answer: bytes) -> bytes:
    """A done or rejected record: the fingerprint of the command it answers, then the
    answer (JSON seqs, or the Rejected outcome)."""
    return fingerprint.encode() + answer


class Landing(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """What the append script settles for a command once its item lands (code 0), in the
    same atomic step: its cmd:{s} entry acknowledged, `outcome` delivered to `reply_to`,
    one count in histogram cell `cell`; for a refusal also its rejected record and audit
    entry. Items that do not land get none of it: the caller settles them.

    kind "a": the item's envelopes are appended and `outcome` is the Accepted JSON up to
    and including `"seqs":` (`events.codec.accepted_prefix`), completed by the script.
    kind "r": a refusal judged on version `expected`: nothing is appended; `outcome` is
    the Rejected JSON, recorded under the item's rejected key (NX) and delivered if the log
    is still at `expected`; `audit` is its rej:{s} entry (field, value, ...).
    kind "s": settle only, unchecked, whatever the log and records say: an answer the
    caller found without the script (an unreadable command, an earlier record's answer, a
    dead letter). Its rejected record is written (NX) if the item names a rejected key,
    `dead` and `audit` if not empty, then outcome, acknowledgement and latency count.
    One settlement path: every outcome the referee sends goes through the script.
    """

    kind: Literal["a", "r", "s"]
    msg_id: str
    reply_to: str = ""
    """The reply stream (a key of the item's shard), or "" to deliver nothing."""
    outcome: str = ""
    cell: int = 0
    """1-based index into the call's histogram cells; 0 counts nothing."""
    audit: list[Any] = []
    dead: list[Any] = []
    """kind "s" only: the command's dead-letter entry on dlq:{s} (field, value, ...), if any."""


class Retention(msgspec.Struct, frozen=True, kw_only=True):
    """How long the append script keeps what it writes beside the logs (counts of entries
    are approximate, MAXLEN ~; times in seconds, 0 = keep)."""

    reply_maxlen: int = 10_000
    reply_ttl: int = 0
    """A reply stream expires this long after the last outcome written to it."""
    rejections_maxlen: int = 10_000
    """Entries kept in rej:{s} and in dlq:{s}."""
    rejected_ttl: int = 86_400
    done_grace: int = 0
    """The done records of a game's commands expire this long after the command that ends
    it (an item with `ends`); 0 keeps them."""


class AppendItem(msgspec.Struct, frozen=True, gc=False):
    """One command's envelopes to append to a game's log if it is still at `expected`
    (or, with a refusal landing, its rejection to record if the log is still there)."""

    game_id: str
    expected: int
    command_id: str
    envelopes: Sequence[Envelope]
    rejected_key: str = ""  # if this key exists the command was refused before: answer that
    fingerprint: str = ""
    """Identifies the command behind `command_id` (see `record`): a record of that id
    written for another fingerprint is answered `reused`, not as this command's."""
    landing: Landing | None = None
    exact_fingerprint: str = ""
    """The fingerprint the command had before fingerprints read it with sorted keys (a hash
    of its exact bytes, `protocol.exact_fingerprint`): a record written then under its id
    answers it too (it was `command_id_reused`)."""
    ends: bool = False
    """The command ends the game: once it lands, the game's undisclosed seed is deleted (the
    log reveals it) and the done records of every command in its log get their expiry
    (`Retention.done_grace`)."""


class AppendResult(msgspec.Struct, frozen=True, gc=False):
    """How an append was judged.

    ok: `seqs` were assigned now. duplicate: the command was applied before and `seqs`
    are the ones it got then (nothing was appended). rejected: the item's `rejected_key`
    exists; `stored` is its value (nothing was appended). conflict: the log was not at the
    expected version, or an earlier item of the same game in this call did not land;
    `seqs` is empty. reused: the command id's record (done or rejected) was written for a
    command with another fingerprint; nothing was appended and nothing of that other
    command is returned. broken: the log's last entry is not where its length says, or
    does not chain to the envelopes (its hash is not their prev_hash), or the envelopes do
    not chain to one another: nothing was appended (never a hole, a fork or a repeated seq).
    `version` is the log's length afterwards.
    """

    status: Status
    seqs: list[int]
    version: int
    stored: bytes = b""


def out_of_memory(exc: BaseException) -> bool:
    """Whether Redis refused a command because it is full (maxmemory with noeviction):
    nothing of that command was written."""
    return isinstance(exc, OutOfMemoryError) or (isinstance(exc, ResponseError) and str(exc).startswith("OOM"))




class EventStore:
    """Game logs, shard feeds and the atomic append, over one redis.asyncio client."""

    def __init__(
        self,
        redis: aioredis.Redis,
        shards: int = 1,
        feed_maxlen: int = 1_000_000,
        done_ttl: int | None = None,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 1000,
    ) -> None:
        """`feed_maxlen` trims each feed approximately (0: never); `done_ttl` expires
        idempotency records after that many seconds (None: keep them forever).

        `wait_replicas` > 0: every append call that settles commands (landings) is followed
        by `WAIT wait_replicas wait_timeout_ms` before their outcomes and acknowledgements
        are written (see `append_batch`); an append whose WAIT saw fewer replicas is still
        delivered (its writes are on the master) and reported to `on_short_wait`."""
        if shards < 1 or feed_maxlen < 0 or (done_ttl is not None and done_ttl < 1):
            raise ValueError("need shards >= 1, feed_maxlen >= 0 and done_ttl None or >= 1")
        if wait_replicas < 0 or wait_timeout_ms < 1:
            raise ValueError("need wait_replicas >= 0 and wait_timeout_ms >= 1 (WAIT 0 would never return)")
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.on_short_wait: Callable[[int, int], Awaitable[None]] | None = None
        """Awaited with (shard, replicas that acknowledged) after a WAIT that saw fewer than asked."""
        encoder = getattr(redis, "get_encoder", None)
        if encoder is not None and encoder().decode_responses:
            raise ValueError("EventStore needs a client with decode_responses=False")
        self._redis = redis
        self.shards = shards
        self.feed_maxlen = feed_maxlen
        self.done_ttl = done_ttl
        self._sha: str | None = None
        self._held = HeldConnection(redis)  # the append script's own connection (see _script)
        self._checked: dict[str, int] = {}  # reply streams found in a shard's slot (key -> shard)

    def shard(self, game_id: str) -> int:
        """The shard holding `game_id`'s keys."""
        return keys.shard_of(game_id, self.shards)

    async def read(self, game_id: str, after_seq: int = 0) -> list[Envelope]:
        """The game's envelopes with seq > `after_seq`, in order ([] for an unknown game)."""
        key = keys.log(self.shard(game_id), game_id)
        if after_seq <= 0:
            return [envelope_from_fields(f) for _, f in await self._redis.xrange(key)]
        # Auto ids do not encode seqs, but seqs are dense from 1, so the envelopes after
        # `after_seq` are the newest ones: page backwards from the end and stop there
        # (a referee catching up from its cache reads only what is new).
        tail: list[Envelope] = []
        upper = "+"
        while True:
            rows = await self._redis.xrevrange(key, max=upper, min="-", count=_PAGE)
            for _, fields in rows:
                env = envelope_from_fields(fields)
                if env.seq <= after_seq:
                    return tail[::-1]
                tail.append(env)
            if len(rows) < _PAGE:
                return tail[::-1]
            upper = "(" + rows[-1][0].decode()

    async def read_many(self, game_ids: Sequence[str]) -> list[list[Envelope]]:
        """Each game's whole log ([] for an unknown game), in one round trip: what a
        rebuild or a verify of many games reads."""
        pipe = self._redis.pipeline(transaction=False)
        for g in game_ids:
            pipe.xrange(keys.log(self.shard(g), g))
        return [[envelope_from_fields(f) for _, f in rows] for rows in await pipe.execute()]

    async def first(self, game_id: str) -> Envelope | None:
        """The game's opening envelope (seq 1: its game type and `ts.game_opened`), None for
        an unknown game; one entry read, however long the log."""
        rows = await self._redis.xrange(keys.log(self.shard(game_id), game_id), count=1)
        return envelope_from_fields(rows[0][1]) if rows else None

    async def load(self, shard: int, game_ids: Sequence[str]) -> list[tuple[list[Envelope], bytes | None, bool]]:
        """Each game's whole log, its undisclosed seed (None once revealed or if never
        drawn) and whether it was archived (its tombstone in `keys.archived`), in one round
        trip: what a referee rebuilds its cached games from. The log is read before the
        tombstone: `archive` deletes a log and leaves its tombstone in one transaction, and
        `restore` appends the log before removing the tombstone, so an archived game is
        never seen with neither."""
        pipe = self._redis.pipeline(transaction=False)
        for g in game_ids:
            pipe.xrange(keys.log(shard, g))
            pipe.get(keys.secret(shard, g))
            pipe.hexists(keys.archived(shard), g)
        got = await pipe.execute()
        return [([envelope_from_fields(f) for _, f in got[3 * i]],
                 None if got[3 * i + 1] is None else bytes.fromhex(got[3 * i + 1].decode()),
                 bool(got[3 * i + 2]))
                for i in range(len(game_ids))]

    async def draw_seeds(self, shard: int, drawn: dict[str, bytes], ttl_s: int | None = None) -> dict[str, bytes]:
        """The seed of each game: the one stored before (a redelivered open), else the one
        drawn here, stored now (before any event of the game), in one round trip. A new
        seed expires after `ttl_s` seconds unless the game's open lands (the append script
        then keeps it): a refused open leaves nothing behind."""
        pipe = self._redis.pipeline(transaction=False)
        for g, seed in drawn.items():
            k = keys.secret(shard, g)
            pipe.set(k, seed.hex(), nx=True, ex=ttl_s)
            pipe.get(k)
        got = await pipe.execute()
        return {g: bytes.fromhex(got[2 * i + 1].decode()) for i, g in enumerate(drawn)}

    async def deliveries(self, stream: str, group: str, entry_ids: Sequence[bytes]) -> dict[bytes, int]:
        """How often each pending entry of `stream` was delivered in `group` (1 if it is
        not pending), in one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        for mid in entry_ids:
            pipe.xpending_range(stream, group, min=mid, max=mid, count=1)
        got = await pipe.execute()
        return {mid: int(p[0]["times_delivered"]) if p else 1 for mid, p in zip(entry_ids, got)}

    async def beat(self, consumer: str, ttl_s: int) -> None:
        """Set a consumer's heartbeat (`keys.alive`) for `ttl_s` seconds."""
        await self._redis.set(keys.alive(consumer), "1", ex=ttl_s)

    async def stop_beating(self, consumer: str) -> None:
        await self._redis.delete(keys.alive(consumer))

    async def take_over_dead(self, stream: str, group: str, me: str) -> None:
        """Claim for consumer `me` every entry of `stream` pending under a consumer of
        `group` that has no heartbeat (a dead referee), so that `me` judges them next."""
        summary = await self._redis.xpending(stream, group)
        for c in summary.get("consumers") or []:
            name = _text(c["name"])
            if name == me or await self._redis.exists(keys.alive(name)):
                continue
            seen: set[bytes] = set()
            while rows := await self._redis.xpending_range(stream, group, min="-", max="+", count=500,
                                                           consumername=name):
                ids = [x["message_id"] for x in rows]
                if seen.issuperset(ids):
                    break  # nothing more could be claimed (e.g. entries trimmed away)
                seen.update(ids)
                await self._redis.xclaim(stream, group, me, 0, ids, justid=True)

    async def own_pending(self, stream: str, group: str, me: str, after: bytes | str, count: int
                          ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """Up to `count` entries of `stream` pending under consumer `me`, after id `after`."""
        got = await self._redis.xreadgroup(group, me, {stream: after}, count=count)
        return got[0][1] if got else []

    async def version(self, game_id: str) -> int:
        """The game's current version: the number of envelopes in its log."""
        return await self._redis.xlen(keys.log(self.shard(game_id), game_id))

    async def append(
        self, game_id: str, *, expected: int, command_id: str, envelopes: Sequence[Envelope]
    ) -> AppendResult:
        """Append one command's envelopes atomically if the log is at `expected`."""
        item = AppendItem(game_id, expected, command_id, envelopes)
        (result,) = await self.append_batch(self.shard(game_id), [item])
        return result

    async def append_batch(self, shard: int, items: Sequence[AppendItem], *, group: str = "",
                           cells: Sequence[tuple[str, str]] = (), retention: Retention = Retention()
                           ) -> list[AppendResult]:
        """Judge and append several commands of one shard in order, in one script call.

        Items of different games are independent: a conflict or duplicate does not stop the
        others. Items of one game form a chain: a later item sees the effect of earlier ones
        (it may expect the version the earlier one produces), and once one of them does not
        land the later ones of that game are not tried (status conflict), so a chain never
        lands on top of a hole.

        Items with a `Landing` are also settled by the script when they land (see
        `Landing`): acknowledged on cmd:{s} in consumer group `group`, outcomes delivered
        (reply streams trimmed and expired as `retention` says), latency counted in
        `cells` (hash key, field), refusals recorded (for `retention.rejected_ttl` seconds)
        and audited on rej:{s}. The AppendResult says which landed.

        Every item's first write is one Redis refuses when it is out of memory (maxmemory,
        noeviction), and Redis checks a script only at its first write: a full Redis
        refuses the whole call (`out_of_memory`), never half of it.
        """
        if not items:
            return []
        # Packed at once: the items' script forms (some lists per command) are freed before
        # the call is awaited, not held through it while the next batch is decided, when the
        # cyclic GC's passes would scan them (measured: about a tenth of its work in a drain).
        packed = _pack([self._entry(shard, item, group) for item in items])
        for key, _ in cells:
            self._check_key(shard, key)
        keys_ = [keys.feed(shard), keys.games(shard), keys.cmd(shard), keys.rejections(shard), keys.dead(shard)]
        args = [self.feed_maxlen, self.done_ttl or 0, packed, group, retention.reply_maxlen,
                retention.rejections_maxlen, retention.rejected_ttl, _pack(cells), retention.reply_ttl,
                retention.done_grace, keys.done(shard, "")]
        if self.wait_replicas and any(item.landing is not None for item in items):
            reply = await self._waited(shard, keys_, args, group, retention)
        else:
            reply = await self._evalsha(keys_, args)
        results: list[AppendResult] = []
        for item, i in zip(items, range(0, len(reply), 3)):
            status, version, stored = _STATUS[reply[i]], reply[i + 1], reply[i + 2]
            if status == "ok":
                seqs = list(range(item.expected + 1, version + 1))
            elif status == "duplicate":
                seqs = _seqs_decoder.decode(stored)
            else:
                seqs = []
            results.append(AppendResult(status, seqs, version, stored if status == "rejected" else b""))
        return results

    def _entry(self, shard: int, item: AppendItem, group: str) -> list[Any]:
        """The script's form of an item, once it is checked.

        The script trusts its input (it cannot raise halfway without breaking
        all-or-nothing), so malformed items are refused here, before any write. The
        envelopes of one command (one game type, time, command id and format, chained one
        after the other: what the referee appends) travel compact, those fields once per
        item and seq and prev_hash not at all (the script derives them); any other list
        travels as whole field lists."""
        fp = item.fingerprint
        for f in (fp, item.exact_fingerprint):
            if len(f) not in (0, FINGERPRINT_LEN) or f[:1] in ("[", "{"):
                raise ValueError(f"a fingerprint is {FINGERPRINT_LEN} hex digits or empty, got {f!r}")
        land = item.landing
        if land is not None and land.kind == "s":  # settle only: no log, no checks
            if item.envelopes:
                raise ValueError("a settlement appends no envelopes")
            self._check_landing(shard, land, group)
            return ["", "", item.rejected_key, 0, "", 0, fp, [], False, land, "", False, ""]
        game_id = item.game_id
        where = self.shard(game_id) if self.shards != 1 else 0  # (no call for one shard: hot path)
        if where != shard:
            raise ValueError(f"game {game_id!r} is on shard {where}, not {shard}")
        expected = item.expected
        if expected < 0:
            raise ValueError(f"expected version must be >= 0, got {expected}")
        envelopes = item.envelopes
        seq = expected
        shared: list[Any] | bool = False
        events: list[list[Any]] = []
        if envelopes:
            first = envelopes[0]
            game_type, at, command_id, fmt, prev = first.game_type, first.time, first.command_id, first.format, None
            compact = True
            for env in envelopes:
                seq += 1
                if env.seq != seq or env.game_id != game_id:
                    raise ValueError(f"envelope {env.game_id}#{env.seq} does not belong at {game_id}#{seq}")
                if compact and (env.time != at or env.command_id != command_id or env.game_type != game_type
                                or env.format != fmt or (prev is not None and env.prev_hash != prev)):
                    compact = False
                prev = env.hash
                events.append([env.type, env.v, env.seat, prev, env.data.decode()])
            if compact:
                shared = [game_type, at, command_id, fmt, first.prev_hash]
            else:
                events = list(map(_fields, envelopes))
        if land is not None:
            if land.kind == "r" and (envelopes or not item.rejected_key):
                raise ValueError("a refusal appends no envelopes and needs its rejected key")
            self._check_landing(shard, land, group)
        # The seed's key: kept once the game's open lands, deleted once its end does.
        secret = keys.secret(shard, game_id) if envelopes and (expected == 0 or item.ends) else ""
        return [keys.log(shard, game_id), keys.done(shard, item.command_id), item.rejected_key,
                expected, game_id, envelopes[0].time if envelopes else 0, fp, events, shared, land, secret,
                item.ends and bool(envelopes), item.exact_fingerprint]

    def _check_landing(self, shard: int, land: Landing, group: str) -> None:
        if not group:
            raise ValueError("items with a landing need the consumer group")
        to = land.reply_to
        if to and self._checked.get(to) != shard:
            self._check_key(shard, to)
            if len(self._checked) >= 1024:
                self._checked.clear()
            self._checked[to] = shard

    @staticmethod
    def _check_key(shard: int, key: str) -> None:
        # Redis Cluster hashes what lies between the first "{" and the next "}".
        start = key.find("{")
        end = key.find("}", start + 1)
        if start < 0 or end < 0 or key[start + 1:end] != str(shard):
            raise ValueError(f"key {key!r} is not in shard {shard}'s slot (hash tag {{{shard}}})")

    async def _evalsha(self, keys_: list[str], args: list[Any]) -> list[Any]:
        if self._sha is None:
            self._sha = await self._redis.script_load(_SCRIPT)
        try:
            return await self._script(self._sha, keys_, args)
        except NoScriptError:
            # The server's script cache is lost on restart, failover or SCRIPT FLUSH.
            self._sha = await self._redis.script_load(_SCRIPT)
            return await self._script(self._sha, keys_, args)

    async def _script(self, sha: str, keys_: list[str], args: list[Any]) -> Any:
        """EVALSHA on a connection of the store's own (`events.held`: a referee calls the
        append script once a batch, and at moderate load batches are small, so a call's
        fixed cost counts); through the client, with its pool and its retries, while that
        connection is in use (two shards landing at once), when it has just failed, or when
        the client has no pool. A call sent again after a lost connection may have run the
        first time: the items' command ids make that a duplicate, answered from its record,
        as when redis-py retries a call itself."""
        got = await self._held.call("EVALSHA", sha, len(keys_), *keys_, *args)
        if got is NOT_SENT:
            got = await self._redis.evalsha(sha, len(keys_), *keys_, *args)
        return got

    async def _waited(self, shard: int, keys_: list[str], args: list[Any], group: str,
                      retention: Retention) -> list[Any]:
        """The append script with its outcomes staged, `WAIT`, then events/deliver.lua, sent
        in one write on one connection to the shard's master: WAIT counts the replicas that
        have every write made on its connection before it (so it must be the script's
        connection), and Redis runs a connection's commands in order, so the outcomes are
        written only once WAIT has returned. One round trip, as without WAIT, plus the wait.

        WAIT returning fewer replicas than asked (its timeout passed: a replica down or
        slow, or none yet after a failover) does not hold the outcomes back: the writes are
        on the master and are delivered; `on_short_wait` is told (the referee logs and
        counts it). A lost connection raises (the referee leaves the batch pending: its
        commands are redelivered and, if they landed, answered from their records)."""
        stage = keys.stage(shard, os.urandom(12).hex())
        wait = ("WAIT", self.wait_replicas, self.wait_timeout_ms)
        deliver = ("EVAL", _DELIVER, 2, stage, keys.cmd(shard), group, retention.reply_maxlen, retention.reply_ttl)
        for attempt in (0, 1):
            if self._sha is None:
                self._sha = await self._redis.script_load(_SCRIPT)
            got = await self._one_connection(
                keys.cmd(shard), [("EVALSHA", self._sha, len(keys_), *keys_, *args, stage), wait, deliver])
            if isinstance(got[0], NoScriptError) and attempt == 0:
                self._sha = None  # the script cache is lost on restart, failover or SCRIPT FLUSH
                continue
            for reply in got:
                if isinstance(reply, Exception):
                    raise reply
            acked = int(got[1])
            if acked < self.wait_replicas and self.on_short_wait is not None:
                await self.on_short_wait(shard, acked)
            return got[0]
        raise AssertionError("unreachable")

    async def _one_connection(self, key: str, commands: list[tuple[Any, ...]]) -> list[Any]:
        """`commands` in one write on one connection to the master of `key`'s slot, their
        replies (error replies in place): the held connection when free, else one of the
        client's pool, or on a cluster one of the slot's node (`same_connection` of
        services.redis_client.FailoverCluster, which re-discovers the cluster after a loss)."""
        extra_s = self.wait_timeout_ms / 1000
        got = await self._held.call_many(commands, extra_s=extra_s)
        if got is not NOT_SENT:
            return got
        r: Any = self._redis
        pool = getattr(r, "connection_pool", None)
        if pool is None:
            same = getattr(r, "same_connection", None)
            if same is None:
                raise ValueError("WAIT on a cluster needs services.redis_client's cluster client")
            return await same(key, commands, extra_s)
        conn = await pool.get_connection()
        try:
            return await on_one_connection(conn, commands, (conn.socket_timeout or 5.0) + extra_s)
        finally:
            await pool.release(conn)

    async def answer_full(self, shard: int, group: str, answers: Sequence[tuple[str, str, str]],
                          retention: Retention = Retention()) -> None:
        """Acknowledge commands of cmd:{s} and deliver their outcomes (entry id, reply stream
        or "", outcome JSON) while Redis is full: the referee's answer `storage_full` to
        commands whose append Redis refused. Nothing else is written: no record, no audit."""
        if not answers:
            return
        args: list[Any] = [group, retention.reply_maxlen, retention.reply_ttl]
        for msg_id, to, outcome in answers:
            if to:
                self._check_key(shard, to)
            args += [msg_id, to, outcome]
        await self._redis.eval(_ANSWER_FULL, 1, keys.cmd(shard), *args)

    async def trim_projected(self, shard: int, projector: str) -> int:
        """Drop the entries of feed:{s} that projector `projector` has applied (below its
        checkpoint); returns how many went. Nothing goes before a projector has a checkpoint."""
        got = await self._redis.get(keys.checkpoint(shard, projector))
        if got is None:
            return 0
        return int(await self._redis.xtrim(keys.feed(shard), minid=_text(got), approximate=False))

    async def ensure_group(self, stream: str, group: str, start_id: str = "0") -> None:
        """Create a consumer group (and the stream if missing); a no-op if it exists."""
        try:
            await self._redis.xgroup_create(stream, group, id=start_id, mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    async def trim_acknowledged(self, stream: str, group: str) -> int:
        """Drop the entries of `stream` that consumer group `group` has delivered and every
        consumer has acknowledged (a command stream would otherwise keep every command ever
        sent); returns how many went. Entries still pending (a referee died holding them)
        and entries not yet delivered stay.

        The floor is read in this order: first the group's last delivered id L, then the
        lowest pending id P. Everything up to L that is below P was delivered before L was
        read and was not pending after: acknowledged for good (an acknowledged entry is
        never pending again). Deliveries in between have ids above L. So the entries below
        min(L's successor, P) go: L too, once acknowledged (a 4 MiB command stayed behind as
        the last one). Only the group `group` is considered: a stream read by other groups
        must not be trimmed by it."""
        try:
            groups = await self._redis.xinfo_groups(stream)
        except ResponseError:  # no such stream
            return 0
        last = next((g["last-delivered-id"] for g in groups if _text(g["name"]) == group), None)
        if last is None or _text(last) == "0-0":
            return 0
        ms, seq = entry_order(_text(last))
        floor = f"{ms}-{seq + 1}"
        pending = await self._redis.xpending(stream, group)
        if pending["pending"] and entry_order(_text(pending["min"])) < entry_order(floor):
            floor = _text(pending["min"])
        return int(await self._redis.xtrim(stream, minid=floor, approximate=False))

    async def read_feed(
        self, shard: int, after_id: str = "0-0", count: int = 1000
    ) -> list[tuple[str, Envelope]]:
        """Up to `count` feed entries after `after_id` as (entry id, envelope): for rebuilds."""
        rows = await self._redis.xrange(keys.feed(shard), min=f"({after_id}", max="+", count=count)
        return [(entry_id.decode(), envelope_from_fields(f)) for entry_id, f in rows]

    async def game_ids(self, shard: int) -> list[str]:
        """The ids of the games opened on `shard`, oldest first."""
        return [g.decode() for g in await self._redis.zrange(keys.games(shard), 0, -1)]
