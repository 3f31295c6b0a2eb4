"""The atomic append: one script call (events/append.lua) judges, appends and settles a
batch of one shard's commands; with WAIT, the outcomes are staged and delivered after it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

import msgspec
from redis.exceptions import NoScriptError

from events import keys
from events.envelope import Envelope
from events.held import NOT_SENT, on_one_connection
from events.store.base import StoreBase
from events.store.items import FINGERPRINT_LEN, STATUSES, AppendItem, AppendResult, Landing, Retention, whole_fields

_SCRIPT = files("events").joinpath("append.lua").read_text(encoding="utf-8")
_ANSWER_FULL = files("events").joinpath("answer_full.lua").read_text(encoding="utf-8")
_DELIVER = files("events").joinpath("deliver.lua").read_text(encoding="utf-8")
_pack = msgspec.msgpack.Encoder().encode
_pack_entry = msgspec.msgpack.Encoder().encode  # events.codec.encode_entry's values, as a tuple
_FIRST_ENTRY = 13
"""The ARGV index (1-based, as the script counts) of the call's first packed entry."""
_seqs_decoder = msgspec.json.Decoder(list[int])


class Appends(StoreBase):
    """append, append_batch (the referee's one call a batch) and answer_full."""

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
        entries: list[bytes] = []  # the compact items' packed entries: ARGV[13...]
        packed = _pack([self._entry(shard, item, group, entries) for item in items])
        for key, _ in cells:
            self._check_key(shard, key)
        keys_ = [keys.feed(shard), keys.games(shard), keys.cmd(shard), keys.rejections(shard), keys.dead(shard)]
        args = [self.feed_maxlen, self.done_ttl or 0, packed, group, retention.reply_maxlen,
                retention.rejections_maxlen, retention.rejected_ttl, _pack(cells), retention.reply_ttl,
                retention.done_grace, keys.done(shard, ""), "", *entries]
        if self.wait_replicas and any(item.landing is not None for item in items):
            reply = await self._waited(shard, keys_, args, group, retention)
        else:
            reply = await self._evalsha(keys_, args)
        results: list[AppendResult] = []
        for item, i in zip(items, range(0, len(reply), 3)):
            status, version, stored = STATUSES[reply[i]], reply[i + 1], reply[i + 2]
            if status == "ok":
                seqs = list(range(item.expected + 1, version + 1))
            elif status == "duplicate":
                seqs = _seqs_decoder.decode(stored)
            else:
                seqs = []
            results.append(AppendResult(status, seqs, version, stored if status == "rejected" else b""))
        return results

    def _entry(self, shard: int, item: AppendItem, group: str, entries: list[bytes]) -> list[Any]:
        """The script's form of an item, once it is checked.

        The script trusts its input (it cannot raise halfway without breaking
        all-or-nothing), so malformed items are refused here, before any write. The
        envelopes of one command (one game type, time, command id and format, chained one
        after the other: what the referee appends) travel compact: packed here as the
        stream entries the script writes (`encode_entry`), appended to `entries` (the call's
        arguments after the fixed ones), so Redis's Lua neither unpacks nor packs them
        (with the list of command ids, a fifth fewer Redis instructions a command in a
        drain: bench/RESULTS.md, "The append script's Lua work");
        any other list travels as whole field lists, packed by the script to the same bytes."""
        fp = item.fingerprint
        for f in (fp, item.exact_fingerprint):
            if len(f) not in (0, FINGERPRINT_LEN) or f[:1] in ("[", "{"):
                raise ValueError(f"a fingerprint is {FINGERPRINT_LEN} hex digits or empty, got {f!r}")
        land = item.landing
        if land is not None and land.kind == "s":  # settle only: no log, no checks
            if item.envelopes:
                raise ValueError("a settlement appends no envelopes")
            self._check_landing(shard, land, group)
            return ["", "", item.rejected_key, 0, "", 0, fp, [], False, land, "", False, "", ""]
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
            packed: list[bytes] = []
            for env in envelopes:
                seq += 1
                if env.seq != seq or env.game_id != game_id:
                    raise ValueError(f"envelope {env.game_id}#{env.seq} does not belong at {game_id}#{seq}")
                if compact and (env.time != at or env.command_id != command_id or env.game_type != game_type
                                or env.format != fmt or (prev is not None and env.prev_hash != prev)):
                    compact = False
                prev = env.hash
                packed.append(_pack_entry((game_id, game_type, seq, env.type, env.v, at, command_id, env.seat,
                                           env.prev_hash, prev, fmt, env.data.decode())))
            if compact:
                shared = [command_id, first.prev_hash, _FIRST_ENTRY + len(entries), len(packed), prev]
                entries += packed
            else:
                events = list(map(whole_fields, envelopes))
        if land is not None:
            if land.kind == "r" and (envelopes or not item.rejected_key):
                raise ValueError("a refusal appends no envelopes and needs its rejected key")
            self._check_landing(shard, land, group)
        # The seed's key: kept once the game's open lands, deleted once its end does.
        secret = keys.secret(shard, game_id) if envelopes and (expected == 0 or item.ends) else ""
        return [keys.log(shard, game_id), keys.done(shard, item.command_id), item.rejected_key,
                expected, game_id, envelopes[0].time if envelopes else 0, fp, events, shared, land, secret,
                item.ends and bool(envelopes), item.exact_fingerprint,
                keys.command_ids(shard, game_id) if envelopes else ""]

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
                keys.cmd(shard), [("EVALSHA", self._sha, len(keys_), *keys_, *args[:11], stage, *args[12:]), wait,
                                  deliver])
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
