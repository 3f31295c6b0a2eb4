"""The referee: load → decide → append → reply, for a batch of commands at a time.

`handle_batch` is the whole imperative shell of the write side. It decodes a batch read
from cmd:{s}, groups it by game, decides each game's commands in order on its cached
Table (pure `decide`), and lands every decision in one call of the append script
(`EventStore.append_batch`: idempotency records, earlier rejections, expected versions).
The same call settles each command that lands: its outcome on the sender's reply stream,
its XACK, its latency count, and for a refusal (which stands only if the log is still
where it was judged) its rejected record and audit entry. Games that met a version
conflict are re-read and re-decided; the rest (answers from earlier records, rejections
of unreadable commands, dead letters) are settled by one pipeline afterwards.

The subscriber hands over every batch with `wait=False`: batch N+1 is decided on the
states batch N will leave while N is still landing (one batch decided ahead, landings in
order). If N does not land as assumed, the game's cached state is dropped and every
decision taken on it is taken again before anything is sent (`_stale`).
Works through GameDef only; no game is special-cased.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from events import keys
from events.chain import Linker
from events.codec import (
    META,
    accepted_prefix,
    encode_outcome,
    encode_outcomes,
    envelope_from_fields,
)
from events.envelope import Accepted, CommandEnvelope, Envelope, Outcome, Rejected
from events.meta import GameOpened, SeedRevealed
from events.store import AppendItem, EventStore, Landing, record
from games.contract import GameDef, Rejection, Seed
from games.rng import RNG_NAME, seed_commitment
from projections.table import Table, advance, codec, empty
from services import protocol
from services.config import Settings

log = logging.getLogger("tablestream.referee")

MAX_ROUNDS = 8
"""Conflict retries per batch before leaving a command pending for redelivery."""
YIELD_EVERY_S = 0.00002
"""Deciding a batch gives the event loop a turn this often (seconds): in practice after
every game (one game's commands take longer). The previous batch's append reply and
outcomes wait for these turns; at half load, yielding every 0.5 ms instead put a
millisecond or two on each of those round trips (traced: a batch's read-to-outcomes time
10.2 ms then, 6.0 ms now; the p50 was lower in 7 of 10 paired runs)."""


def ms_clock() -> int:
    return time.time_ns() // 1_000_000


def lookup(game_type: str) -> GameDef | None:
    """The registered game of this type (the registry is read at call time: tests add games)."""
    return _registry().GAMES.get(game_type)


@functools.cache
def _registry() -> Any:
    from games import registry  # imported on first use, once

    return registry


class _Item(msgspec.Struct, gc=False):
    """One command of the batch and, once known, its outcome.

    (Not tracked by the cyclic GC: a batch's items live while it is decided and lands,
    through many of the collector's young passes; nothing they hold refers back to them.)"""

    msg_id: bytes
    command_id: str
    reply_to: str
    env: CommandEnvelope | None = None
    outcome: Outcome | None = None
    failed: str | None = None  # why handling raised (a bug): left pending
    game: GameDef | None = None
    sent_us: int = 0
    based_on: int = 0  # the log version a decision was taken on
    stamp: tuple[int, int] = (0, 0)  # (epoch, generation) of the cached state it was decided on
    fp: str = ""  # protocol.fingerprint of the command, once decoded
    settled: bool = False  # outcome, XACK and latency written by the append script

    def reject(self, game_id: str, code: str, message: str) -> None:
        self.outcome = Rejected(command_id=self.command_id, game_id=game_id, code=code, message=message)

    def reused(self, game_id: str) -> None:
        self.reject(game_id, REUSED, f"command id {self.command_id!r} was used before for another command; "
                                     "give every command a new id (a retry resends the same command)")


_TRANSPORT = (RedisConnectionError, RedisTimeoutError, OSError, asyncio.TimeoutError)
"""Failures of the way to Redis, not of what was sent: the whole batch stays pending."""

BROKEN = "broken_log"
"""The code of a command whose game's log the append script found broken (see AppendResult)."""

_Decided = tuple[str, _Item, "tuple[Envelope, ...] | None"]
"""A decision: game id, the command, and its envelopes (None: refused)."""

REUSED = "command_id_reused"
"""The code of a command whose id's record belongs to another command: no record is kept
for it, so the other command's answer stays as it was."""


_env_decoder = msgspec.json.Decoder(CommandEnvelope)
_open_decoder = msgspec.json.Decoder(protocol.OpenRequest)
_cmd_decoders: dict[str, tuple[GameDef, msgspec.json.Decoder]] = {}


def _command_decoder(game: GameDef) -> msgspec.json.Decoder:
    hit = _cmd_decoders.get(game.id)
    if hit is None or hit[0] is not game:
        hit = (game, msgspec.json.Decoder(game.commands))
        _cmd_decoders[game.id] = hit
    return hit[1]


def _where(exc: BaseException) -> str:
    """An exception's type and innermost frame: enough to find the bug, no state content."""
    tb = traceback.extract_tb(exc.__traceback__)
    frame = f" at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
    return f"{type(exc).__name__}{frame}"


class Referee:
    """Judges the commands of one shard; keeps recently used game Tables in memory."""

    def __init__(
        self,
        redis: aioredis.Redis,
        store: EventStore,
        settings: Settings,
        shard: int,
        clock: Callable[[], int] = ms_clock,
        new_seed: Callable[[], bytes] = lambda: os.urandom(32),
    ) -> None:
        self.redis = redis
        self.store = store
        self.settings = settings
        self.shard = shard
        self.clock = clock
        self.new_seed = new_seed
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.secrets: dict[str, bytes] = {}
        self._tokens: dict[str, dict[int, str]] = {}  # game → seat → its token, once checked
        self.cmd_stream = keys.cmd(shard)
        self.handled = 0
        self._appended: asyncio.Future[None] | None = None  # set once the last batch's append is done
        self._inflight: set[asyncio.Task[None]] = set()  # landings not finished yet
        # A game's cached state is tentative until its batch lands. When a game's cache is
        # dropped because the log was not what it assumed, its generation goes up (all games'
        # when the epoch does), and every decision taken on the dropped state is taken again
        # instead of being sent: a version number alone could match a different history.
        self._gen: dict[str, int] = {}
        self._epoch = 0
        self._drops = 0  # cached states dropped so far: unchanged means no decision is stale

    # ------------------------------------------------------------------ the batch
    async def handle_batch(
        self,
        entries: Sequence[tuple[bytes, dict[bytes, bytes]]],
        deliveries: dict[bytes, int] | None = None,
        *,
        wait: bool = True,
    ) -> list[_Item]:
        """Judge a batch of cmd:{s} entries (id, fields); reply and XACK what was decided.

        The batch is decided now, on the cached states as the batches before it left them
        (tentatively: a decision taken on a state that is dropped before it is sent is
        taken again, and the append script's version check catches the rest). Landing it
        (append, then replies and XACKs) starts once the previous batch's append is done.
        With `wait=False` (the subscriber) this returns as soon as the
        *previous* batch's append is done, so deciding this batch overlaps the previous
        one's round trips to Redis and at most one batch is decided ahead; with
        `wait=True` it returns once this batch has landed and its outcomes are sent.
        """
        items = [self._parse(mid, fields) for mid, fields in entries]
        live = [it for it in items if it.outcome is None]
        decided, drops = await self._prepare(live) if live else ([], self._drops)
        prev, appended = self._appended, asyncio.get_running_loop().create_future()
        self._appended = appended
        task = asyncio.ensure_future(self._complete(prev, appended, items, decided, drops, deliveries or {}, wait))
        self._inflight.add(task)
        task.add_done_callback(self._landed)
        if wait:
            await asyncio.wait([task])
            task.result()
        elif prev is not None:
            await prev
        return items

    def _landed(self, task: asyncio.Task[None]) -> None:
        self._inflight.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved here; logged in _complete

    async def drain(self) -> None:
        """Wait until every batch handed over has landed and its outcomes are sent."""
        while self._inflight:
            await asyncio.wait(list(self._inflight))

    async def _complete(self, prev: asyncio.Future[None] | None, appended: asyncio.Future[None], items: list[_Item],
                        decided: list[_Decided], drops: int, deliveries: dict[bytes, int], wait: bool) -> None:
        try:
            if prev is not None:
                await prev  # landings go in batch order (never fails: set in a finally)
            if not wait:
                # One turn of the event loop first, for the subscriber's next read and the
                # previous batch's replies (measured: without it the process sat idle for
                # 15-20% of a backlog drain, waiting on Redis; with it, almost never).
                await asyncio.sleep(0)
            live = await self._land_apart(decided, drops)
            for _ in range(MAX_ROUNDS - 1):
                if not live:
                    break
                live = await self._decide_and_append(live)
        except Exception:
            # Redis went away mid-batch: nothing is acknowledged, so every command of the
            # batch is delivered again (and answered from its record if it had landed).
            log.exception("a batch could not land; its commands stay pending")
            self._forget_all()
            raise
        finally:
            if not appended.done():
                appended.set_result(None)
        try:
            await self._finish(items, deliveries)  # overlaps the next batch's append
        except Exception:
            log.exception("the outcomes of a batch could not be sent; its commands stay pending")
            raise
        self.handled += len(items)

    def _parse(self, msg_id: bytes, fields: dict[bytes, bytes]) -> _Item:
        """One cmd:{s} entry as an item: decoded, or already refused. Whatever the entry
        holds, this returns (an entry that breaks the reading is refused as malformed),
        so one entry never stops its batch or the referee."""
        try:
            return self._read(msg_id, fields)
        except Exception as e:  # a case the bounds below miss: refuse it, keep going
            log.error("command entry %s could not be read: %s", msg_id.decode(), _where(e))
            it = _Item(msg_id, protocol.name_field(fields.get(protocol.ID)),
                       protocol.name_field(fields.get(protocol.TO)))
            it.fp = protocol.entry_fingerprint(fields)
            it.reject("", "malformed", "unreadable command entry")
            return it

    def _read(self, msg_id: bytes, fields: dict[bytes, bytes]) -> _Item:
        # Until the body is read and checked, the id and reply stream are the entry's own
        # fields (if they are valid names), and the fingerprint is that of the entry's bytes.
        it = _Item(msg_id, protocol.name_field(fields.get(protocol.ID)), protocol.name_field(fields.get(protocol.TO)))
        problem = protocol.entry_problem(fields, self.settings.max_command_bytes)
        if problem is not None:
            it.fp = protocol.entry_fingerprint(fields)
            it.reject("", *problem)
            return it
        try:
            env = _env_decoder.decode(fields[protocol.BODY])
            bad = protocol.envelope_problem(env)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as e:
            env, bad = None, f"undecodable command envelope: {e}"
        if env is None or bad is not None:
            it.fp = protocol.entry_fingerprint(fields)
            it.reject("", "malformed", bad or "")
            return it
        it.env, it.sent_us = env, env.sent_us
        it.command_id, it.reply_to = env.command_id, env.reply_to
        it.fp = protocol.fingerprint(env)
        if keys.shard_of(env.game_id, self.settings.shards) != self.shard:
            it.reject(env.game_id, "wrong_shard", f"game {env.game_id!r} is not on shard {self.shard}")
        elif (game := lookup(env.game_type)) is None:
            it.reject(env.game_id, "unknown_game_type", f"no game type {env.game_type!r}")
        elif env.kind not in ("act", "open"):
            it.reject(env.game_id, "malformed", "kind must be act or open")
        else:
            it.game = game
        return it

    # ------------------------------------------------------------------ decide + append
    async def _decide_and_append(self, items: list[_Item]) -> list[_Item]:
        """Decide every item in order per game, append every game's chain in one script
        call, confirm the rejections; return the items to decide again."""
        return await self._land_apart(*await self._prepare(items))

    async def _land_apart(self, decided: list[_Decided], drops: int) -> list[_Item]:
        """`_land`, and if the decisions cannot be packed or the script refuses them (not
        a lost connection: a bug, or an entry the bounds let through), each decision on its
        own, so that only the one at fault fails (left pending: redelivered, then
        dead-lettered) and the others are judged as usual."""
        try:
            return await self._land(decided, drops)
        except _TRANSPORT:
            raise
        except Exception as e:
            log.error("a batch's decisions could not land together (%s); landing them one by one", _where(e))
        retry: list[_Item] = []
        for d in decided:
            try:
                retry += await self._land([d], drops)
            except _TRANSPORT:
                raise
            except Exception as e:
                game_id, it, _ = d
                it.outcome, it.failed = None, _where(e)
                log.error("command %s could not land: %s", it.command_id, it.failed)
                self._forget(game_id)
        return retry

    async def _prepare(self, items: list[_Item]) -> tuple[list[_Decided], int]:
        """Decide every item in order per game on the cached states, leaving each game's
        tentative state in the cache; returns the decisions, in order per game (envelopes
        to append, or None for a refusal), and the count of dropped cached states before
        the first decision (for `_land`)."""
        drops = self._drops
        by_game: dict[str, list[_Item]] = {}
        opening: dict[str, None] = {}  # games opened in these items, in order
        for it in items:
            env = it.env
            assert env is not None
            by_game.setdefault(env.game_id, []).append(it)
            if env.kind == "open":
                opening[env.game_id] = None
        await self._load([g for g in by_game if g not in self.tables])
        await self._load_secrets([g for g in opening if g not in self.secrets])

        # Per game: a chain of decisions taken on tentative states; the script judges a
        # chain in order and stops a game's chain at its first item that does not land.
        decided: list[_Decided] = []
        landing = self._appended  # the previous batch's append, if any
        pause = time.perf_counter() + YIELD_EVERY_S
        for game_id, its in by_game.items():
            if landing is not None and time.perf_counter() > pause:
                # Let the previous batch's landing deliver its outcomes instead of waiting
                # for this whole batch to be decided (between games: a yield inside a
                # game's chain would change nothing, its decisions are stamped anyway).
                # Once it has landed, the rest of it (outcomes of the few commands the
                # script did not settle) can wait for the end of this batch: no more yields.
                if landing.done():
                    landing = None
                else:
                    await asyncio.sleep(0)
                    pause = time.perf_counter() + YIELD_EVERY_S
            table = self.tables.get(game_id)
            stamp = (self._epoch, self._gen.get(game_id, 0))
            for it in its:
                it.based_on = table.version if table is not None else 0
                it.stamp = stamp
                try:
                    got = self._decide(it, table)
                except Exception as e:  # a bug in a game or here: never crash the referee
                    it.failed = _where(e)
                    log.error("command %s failed: %s", it.command_id, it.failed)
                    continue
                if got is None:
                    decided.append((game_id, it, None))
                    continue
                envelopes, table = got
                decided.append((game_id, it, envelopes))
            if table is not None:
                self._remember(game_id, table)  # tentative: the next batch decides on it
        return decided, drops

    async def _land(self, decided: list[_Decided], drops: int) -> list[_Item]:
        """Land every decision in one script call, which also settles each one that lands
        (outcome, acknowledgement, latency; for a refusal its record and audit entry);
        returns the items to decide again. `drops`: the count of dropped cached states
        when these items began to be decided."""
        # Decided on a state that has been dropped since (the batch before did not land as
        # assumed): decide again rather than send.
        retry: list[_Item] = []
        if self._drops != drops:  # some cached state was dropped since they were decided
            fresh: list[_Decided] = []
            for d in decided:
                if self._stale(d[1]):
                    d[1].outcome = None
                    retry.append(d[1])
                else:
                    fresh.append(d)
            decided = fresh
        if not decided:
            return retry
        shard = self.shard
        now_us = time.time_ns() // 1000
        cells: dict[tuple[str, str], int] = {}
        streams: dict[str, str] = {"": ""}  # reply_to -> its reply stream
        batch: list[AppendItem] = []
        for game_id, it, envelopes in decided:
            env = it.env
            assert env is not None
            cell = 0
            if it.sent_us:
                where = (protocol.latency(shard, env.game_type), str(1 << max(1, now_us - it.sent_us).bit_length()))
                cell = cells.get(where) or cells.setdefault(where, len(cells) + 1)
            to = streams.get(it.reply_to)
            if to is None:
                to = streams[it.reply_to] = keys.replies(shard, it.reply_to)
            rejected_key = keys.rejected(shard, it.command_id)
            if envelopes is None:  # a refusal: it stands if the log is still where it was judged
                out = it.outcome
                assert isinstance(out, Rejected)
                land = Landing("r", it.msg_id.decode(), to, encode_outcome(out).decode(), cell, [
                    "command_id", it.command_id, "game_id", out.game_id, "seat", env.seat, "code", out.code,
                    "message", out.message, "msg_id", it.msg_id.decode()])
                batch.append(AppendItem(game_id, it.based_on, it.command_id, (), rejected_key, it.fp, land))
            else:
                land = Landing("a", it.msg_id.decode(), to, accepted_prefix(it.command_id, game_id).decode(), cell)
                batch.append(AppendItem(game_id, envelopes[0].seq - 1, it.command_id, envelopes, rejected_key,
                                        it.fp, land))
        results = await self.store.append_batch(
            shard, batch, group=protocol.GROUP, cells=list(cells), reply_maxlen=protocol.REPLY_MAXLEN,
            rejections_maxlen=self.settings.rejections_maxlen, rejected_ttl=protocol.REJECTED_TTL_S)
        for (game_id, it, envelopes), res in zip(decided, results):
            status = res.status
            if status == "ok":  # settled by the script; the cache already holds its state
                it.settled = True
                if envelopes is not None:
                    it.outcome = Accepted(command_id=it.command_id, game_id=game_id, seqs=res.seqs)
                continue
            if status == "duplicate":  # applied before (a redelivery or a resend)
                it.outcome = Accepted(command_id=it.command_id, game_id=game_id, seqs=res.seqs)
            elif status == "rejected":  # refused before: the same answer again
                it.outcome = msgspec.json.decode(res.stored, type=Rejected)
            elif status == "reused":  # the id answers another command
                it.reused(game_id)
            elif status == "broken":  # the log does not end where its chain says: append nothing
                it.reject(game_id, BROKEN, f"game {game_id!r}: its log's last entry does not chain to this "
                          "command's events; nothing was appended (run verify)")
            else:  # the log is not where the decision assumed: decide again
                it.outcome = None
                retry.append(it)
            if envelopes is not None or status in ("conflict", "broken"):
                # The log is not what the tentative chain assumed: re-read it next time.
                self._forget(game_id)
        return retry

    def _decide(self, it: _Item, table: Table | None) -> tuple[tuple[Envelope, ...], Table] | None:
        """Decide one command on `table`: its envelopes and the table after them, or None."""
        env, game = it.env, it.game
        assert env is not None and game is not None
        if env.kind == "open":
            return self._open(it, table)
        if table is None or table.opened is None:
            it.reject(env.game_id, "unknown_game", f"no game {env.game_id!r}")
            return None
        opened = table.opened
        if table.game is not game:
            it.reject(env.game_id, "unknown_game", f"game {env.game_id!r} is not a {env.game_type}")
            return None
        if not 0 <= env.seat < opened.players:
            it.reject(env.game_id, "unknown_seat", f"seat must be 0..{opened.players - 1}")
            return None
        seats = self._tokens.get(env.game_id)
        if seats is None or seats.get(env.seat) != env.token:
            if protocol.token_hash(env.token) != opened.seat_token_hashes[env.seat]:
                it.reject(env.game_id, "bad_token", "this token is not the token of that seat in that game")
                return None
            self._tokens.setdefault(env.game_id, {})[env.seat] = env.token  # checked: skip the hash next time
        if game.result(table.state) is not None:
            it.reject(env.game_id, "game_over", "the game is over")
            return None
        try:
            cmd = _command_decoder(game).decode(env.command)
        except msgspec.ValidationError as e:
            text = str(e)
            code = "unknown_command" if "`$.type`" in text else "malformed"
            it.reject(env.game_id, code, f"bad command: {text}")
            return None
        except msgspec.DecodeError as e:
            it.reject(env.game_id, "malformed", f"undecodable command: {e}")
            return None
        out = game.decide(table.state, env.seat, cmd)
        if isinstance(out, Rejection):
            it.reject(env.game_id, out.code, out.message)
            return None
        if not out:
            it.reject(env.game_id, "no_effect", "the command changes nothing")
            return None
        return self._seal(it, table, out, env.seat)

    def _open(self, it: _Item, table: Table | None) -> tuple[tuple[Envelope, ...], Table] | None:
        env, game = it.env, it.game
        assert env is not None and game is not None
        if table is not None and table.version > 0:
            it.reject(env.game_id, "game_exists", f"game {env.game_id!r} already exists")
            return None
        try:
            req = _open_decoder.decode(env.command)
            given = msgspec.json.decode(req.options, type=game.options_type | None)
            if given is not None:
                options = given
            elif req.preset in game.presets:
                options = game.presets[req.preset]
            else:
                it.reject(env.game_id, "bad_options", f"unknown preset {req.preset!r}; known: {', '.join(game.presets)}")
                return None
            fixture = msgspec.json.decode(req.fixture, type=game.fixture_type | None)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            it.reject(env.game_id, "malformed", f"bad open request: {e}")
            return None
        players = options.players
        lo, hi = game.players
        if not lo <= players <= hi or len(req.token_hashes) != players:
            it.reject(env.game_id, "bad_options", f"{game.id} takes {lo}-{hi} players, one token hash each")
            return None
        seed = self.secrets.get(env.game_id)
        if fixture is None and seed is None:
            it.reject(env.game_id, "retry", "seed not ready")  # unreachable: secrets are loaded first
            return None
        try:
            opening = list(game.setup(options, fixture if fixture is not None else Seed(seed)))  # type: ignore[arg-type]
        except ValueError as e:  # the game refuses these options or this fixture, and says why
            it.reject(env.game_id, "bad_options", str(e))
            return None
        opened = GameOpened(
            game_type=game.id, players=players,
            options=msgspec.Raw(msgspec.json.encode(options)),
            preset=req.preset if given is None else "",
            rules_version=game.rules_version,
            seed_commitment="" if fixture is not None else seed_commitment(seed),  # type: ignore[arg-type]
            rng="" if fixture is not None else RNG_NAME,
            seat_token_hashes=list(req.token_hashes), fixture=fixture is not None,
        )
        return self._seal(it, empty(env.game_id, game), [opened, *opening], -1)

    def _seal(self, it: _Item, table: Table, events: list[Any], seat: int) -> tuple[tuple[Envelope, ...], Table]:
        """Envelopes (hash-chained after `table`) for `events`, plus the reveal if the game ends."""
        game, game_id = table.game, table.game_id
        gcodec = codec(game)
        link = Linker(game_id=game_id, game_type=game.id, time=self.clock(), command_id=it.command_id)
        envelopes: list[Envelope] = []
        prev, seq = table.last_hash, table.version
        state, opened = table.state, table.opened
        evolve = game.evolve
        for ev in events:
            if isinstance(ev, GameOpened):
                tag, v, data = META.encode(ev)
                opened = ev
            else:
                tag, v, data = gcodec.encode(ev)
                state = evolve(state, ev)
            seq += 1
            e = link(prev, seq, tag, v, seat, data)
            envelopes.append(e)
            prev = e.hash
        seed = table.seed
        if opened is not None and not opened.fixture and seed is None and game.result(state) is not None:
            secret = self.secrets.get(game_id)
            if secret is not None:
                seed = secret.hex()
                tag, v, data = META.encode(SeedRevealed(seed=seed))
                seq += 1
                envelopes.append(link(prev, seq, tag, v, -1, data))
        after = Table(game_id=game_id, game=game, state=state, version=seq,
                      last_hash=envelopes[-1].hash, opened=opened, seed=seed)
        return tuple(envelopes), after  # a tuple of untracked Structs: the GC lets go of it

    # ------------------------------------------------------------------ state cache
    def _forget(self, game_id: str) -> None:
        """Drop a game's cached state: decisions taken on it become stale."""
        self.tables.pop(game_id, None)
        self._gen[game_id] = self._gen.get(game_id, 0) + 1
        self._drops += 1

    def _forget_all(self) -> None:
        self.tables.clear()
        self._epoch += 1
        self._drops += 1

    def _stale(self, it: _Item) -> bool:
        """Was `it` decided on a cached state that has been dropped since?"""
        game_id = it.env.game_id if it.env is not None else ""
        return it.stamp != (self._epoch, self._gen.get(game_id, 0))

    def _remember(self, game_id: str, table: Table) -> None:
        self.tables[game_id] = table
        self.tables.move_to_end(game_id)
        while len(self.tables) > self.settings.cache_games:
            old, _ = self.tables.popitem(last=False)
            self.secrets.pop(old, None)
            self._tokens.pop(old, None)

    async def preload(self, game_ids: Sequence[str], chunk: int = 200) -> None:
        """Rebuild these games' states from their logs into the cache now (benchmarks,
        warm starts) instead of on their next command."""
        missing = [g for g in game_ids if g not in self.tables]
        for i in range(0, len(missing), chunk):
            await self._load(missing[i:i + chunk])

    async def _load(self, game_ids: list[str]) -> None:
        """Rebuild the Tables of games missing from the cache from their logs (one round trip)."""
        if not game_ids:
            return
        pipe = self.redis.pipeline(transaction=False)
        for g in game_ids:
            pipe.xrange(keys.log(self.shard, g))
            pipe.get(keys.secret(self.shard, g))
        got = await pipe.execute()
        for i, g in enumerate(game_ids):
            rows, secret = got[2 * i], got[2 * i + 1]
            if secret is not None:
                self.secrets[g] = bytes.fromhex(secret.decode())
            if not rows:
                continue
            envs = [envelope_from_fields(f) for _, f in rows]
            game = lookup(envs[0].game_type)
            if game is None:
                continue
            self._remember(g, advance(empty(g, game), envs))

    async def _load_secrets(self, game_ids: list[str]) -> None:
        """Draw (or find) the seed of each game being opened; stored before any event."""
        if not game_ids:
            return
        pipe = self.redis.pipeline(transaction=False)
        for g in game_ids:
            k = keys.secret(self.shard, g)
            pipe.set(k, self.new_seed().hex(), nx=True)
            pipe.get(k)
        got = await pipe.execute()
        for i, g in enumerate(game_ids):
            self.secrets[g] = bytes.fromhex(got[2 * i + 1].decode())

    # ------------------------------------------------------------------ replies
    async def _finish(self, items: list[_Item], deliveries: dict[bytes, int]) -> None:
        """For the items the append script did not settle: deliver outcomes, audit
        rejections, dead-letter hopeless commands, XACK; one pipeline (none if all were
        settled, as every legal or refused command that lands is)."""
        pipe = self.redis.pipeline(transaction=False)
        acks: list[bytes] = []
        now_us = time.time_ns() // 1000
        hist: dict[tuple[str, int], int] = {}
        replies: dict[str, list[Outcome]] = {}
        for it in items:
            if it.settled:
                continue
            if it.outcome is None:
                reason = it.failed or "not decided after repeated version conflicts"
                if deliveries.get(it.msg_id, 1) < self.settings.max_deliveries:
                    continue  # left pending: the claimer redelivers it after claim_idle_ms
                pipe.xadd(keys.dead(self.shard), {
                    b"msg_id": it.msg_id, b"command_id": it.command_id,
                    b"game_id": it.env.game_id if it.env else "", b"reason": reason,
                    b"deliveries": deliveries.get(it.msg_id, 1)}, maxlen=self.settings.rejections_maxlen,
                    approximate=True)
                it.reject(it.env.game_id if it.env else "", "dead_letter",
                          f"the command failed {deliveries.get(it.msg_id, 1)} times and was set aside")
            out = it.outcome
            assert out is not None
            if it.reply_to:
                replies.setdefault(it.reply_to, []).append(out)
            if isinstance(out, Rejected):
                env = it.env
                pipe.xadd(keys.rejections(self.shard), {
                    b"command_id": it.command_id, b"game_id": out.game_id,
                    b"seat": env.seat if env else -2, b"code": out.code, b"message": out.message,
                    b"msg_id": it.msg_id}, maxlen=self.settings.rejections_maxlen, approximate=True)
                if it.command_id and out.code not in (REUSED, BROKEN):
                    # NX: a record already there is another command's (judged before, or
                    # refused before its body could be read) and keeps its answer. None
                    # for a broken log: once it is mended the command may be sent again.
                    pipe.set(keys.rejected(self.shard, it.command_id), record(it.fp, encode_outcome(out)),
                             ex=protocol.REJECTED_TTL_S, nx=True)
            if it.sent_us and it.env is not None:
                lat = max(1, now_us - it.sent_us)
                b = (it.env.game_type, 1 << lat.bit_length())
                hist[b] = hist.get(b, 0) + 1
            acks.append(it.msg_id)
        # One reply entry per client and batch, holding all of its outcomes in order.
        for client, outs in replies.items():
            pipe.xadd(keys.replies(self.shard, client), {protocol.OUTCOMES: encode_outcomes(outs)},
                      maxlen=protocol.REPLY_MAXLEN, approximate=True)
        for (gt, bucket), n in hist.items():
            pipe.hincrby(protocol.latency(self.shard, gt), str(bucket), n)
        if acks:
            pipe.xack(self.cmd_stream, protocol.GROUP, *acks)
        if len(pipe):
            await pipe.execute()

    async def handle_reclaimed(self, entries: Sequence[tuple[bytes, dict[bytes, bytes]]]) -> list[_Item]:
        """Commands taken over from a dead referee (XAUTOCLAIM): judged with their delivery counts."""
        pipe = self.redis.pipeline(transaction=False)
        for mid, _ in entries:
            pipe.xpending_range(self.cmd_stream, protocol.GROUP, min=mid, max=mid, count=1)
        got = await pipe.execute()
        deliveries = {mid: int(p[0]["times_delivered"]) if p else 1 for (mid, _), p in zip(entries, got)}
        return await self.handle_batch(entries, deliveries)
