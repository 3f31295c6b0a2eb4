"""A client of the service: XADDs commands to cmd:{s} and waits for their outcomes.

Outcomes arrive on the client's own reply streams (`reply:{s}:<client>`, one per shard,
written by the referee of that shard), read by one background task (one XREAD over all of
them) that resolves a future per command id. The first outcome of a command
wins; a second one (a redelivery after a referee crash) is ignored.

A Redis restart is ridden out: a send that meets a lost connection is retried with
back-off (services/reconnect.py) until the command's timeout; the reader backs off and
resumes from the last reply entry it read, and once it is reading again it resends every
command still waiting for its outcome (same id and bytes: the referee answers a command
it already applied from its idempotency record), in case the restart lost it. On a
cluster it also resends them whenever the cluster client has re-discovered the topology
(`FailoverCluster.topology_epoch`): redis-py follows a failover inside a call, so no error
reaches the reader, while the commands sent to the dead master may have been lost with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import uuid
from collections.abc import Sequence
from typing import Any

import msgspec
import redis.asyncio as aioredis

from events import keys
from events.codec import decode_outcomes
from events.envelope import CommandEnvelope, Outcome, Rejected
from events.held import NOT_SENT, HeldConnection
from events.meta import SeatPlayer
from events.store.items import out_of_memory
from games.contract import GameDef, Rejection
from services import protocol
from services.reconnect import LOST, Backoff, retrying
from services.redis_client import is_cluster

log = logging.getLogger("tablestream.client")


def parse_text(game: GameDef, text: str, limit: int = 4096) -> Any:
    """A command's text notation -> the game's Command, or a Rejection. A text longer than
    `limit` bytes (the referee's largest command, `Settings.max_command_bytes`) is refused
    as `oversized` before the game's parser sees it, so that no message echoes it back."""
    size = len(text.encode())
    if size > limit:
        return Rejection("oversized", f"a command may be at most {limit} bytes; this one has {size}")
    return game.parse_command(text)


class Client:
    """Sends commands as one client id; use `async with Client(...)`."""

    def __init__(self, redis: aioredis.Redis, shards: int = 1, client_id: str | None = None,
                 timeout: float = 30.0) -> None:
        self.redis = redis
        self.shards = shards
        self.id = client_id or f"c-{secrets.token_hex(16)}"
        self.timeout = timeout
        self._waiting: dict[str, asyncio.Future[Outcome]] = {}
        self._sent: dict[str, CommandEnvelope] = {}  # command id → envelope, until its outcome
        self.reconnects = 0  # how often the reader lost Redis and read again
        self._reader: asyncio.Task[None] | None = None
        self._reader_redis: aioredis.Redis | None = None
        self._last: dict[str, str] = {}  # reply stream → the last entry read
        self._stopping = False
        self._epoch = -1  # the cluster client's topology epoch when the waiting commands were last resent
        # Sends: XADDs queued while one write is under way go out together in the next, on
        # a connection held for them (`events.held`; a cluster client sends through itself).
        self._held = None if is_cluster(redis) else HeldConnection(redis)
        self._queue: list[tuple[str, dict[bytes, bytes], asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Client:
        # Blocking reads get their own connection pool so they never delay a send (a
        # cluster client takes a connection of its node's pool per call anyway).
        if is_cluster(self.redis):
            self._reader_redis = self.redis
        else:
            pool = self.redis.connection_pool
            self._reader_redis = aioredis.Redis(connection_pool=pool.__class__(
                connection_class=pool.connection_class, **pool.connection_kwargs))
        # Start reading from "now" so that an old reply of this id is never taken as new.
        for s in range(self.shards):
            stream = keys.replies(s, self.id)
            info = await self.redis.xrevrange(stream, count=1)
            self._last[stream] = info[0][0].decode() if info else "0-0"
        # On a cluster one XREAD may name keys of one slot only: a reader per shard's stream.
        self._epoch = getattr(self.redis, "topology_epoch", -1)
        groups = [[k] for k in self._last] if is_cluster(self.redis) else [list(self._last)]
        readers = [self._read_replies(g) for g in groups]
        self._reader = asyncio.create_task(readers[0] if len(readers) == 1 else self._all(readers))
        return self

    async def __aexit__(self, *exc: object) -> None:
        # Never cancel a blocking XREAD (redis-py can hang on it): ask the reader to stop.
        self._stopping = True
        if self._reader is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._reader), 2.0)
        if self._reader_redis is not None and self._reader_redis is not self.redis:
            await self._reader_redis.aclose()
            await self._reader_redis.connection_pool.disconnect()
        for f in self._waiting.values():
            f.cancel()
        if self._held is not None:
            if self._sender is not None and not self._sender.done():  # a write under way ends first
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                    await asyncio.wait_for(asyncio.shield(self._sender), 2.0)
            await self._held.release()  # the pool is the caller's: its connection goes back

    @staticmethod
    async def _all(readers: list[Any]) -> None:
        await asyncio.gather(*readers)

    async def _read_replies(self, streams: list[str]) -> None:
        """Read the outcomes on `streams` (blocking reads) and hand them to their waiters."""
        assert self._reader_redis is not None
        backoff, lost = Backoff(), False
        while not self._stopping:
            try:
                got = await self._reader_redis.xread({k: self._last[k] for k in streams}, block=100, count=500)  # type: ignore[arg-type]
            except LOST as e:
                if not lost:
                    log.warning("client %s lost Redis (%s); reconnecting", self.id, type(e).__name__)
                lost = True
                await backoff.wait()
                continue
            epoch = getattr(self._reader_redis, "topology_epoch", -1)
            if lost or epoch != self._epoch:
                # Read again after a loss, or the cluster client re-discovered the topology
                # (it follows a failover inside a call, unseen here, and the commands it was
                # answered for may have gone with the dead master): resend the waiting ones.
                lost = False
                backoff.reset()
                self.reconnects += 1
                self._epoch = epoch
                await self._resend_waiting()
            for stream, rows in got:
                name = stream.decode()
                for entry_id, fields in rows:
                    self._last[name] = entry_id.decode()
                    for out in decode_outcomes(fields[protocol.OUTCOMES]):
                        self._sent.pop(out.command_id, None)
                        fut = self._waiting.pop(out.command_id, None)
                        if fut is not None and not fut.done():
                            fut.set_result(out)

    async def _resend_waiting(self) -> None:
        """Send again every command still waiting for its outcome: a restart that lost the
        last writes (a crash, `appendfsync everysec`) may have lost the command itself."""
        for env in list(self._sent.values()):
            if env.command_id in self._waiting:
                try:
                    await self._xadd(env)
                except LOST:
                    pass
                except Exception as e:  # Redis is full: its submit answers storage_full
                    if not out_of_memory(e):
                        raise

    def next_id(self) -> str:
        """A fresh command id: the client id and 128 random bits. Ids were `<client>-<n>`,
        so one observed id predicted the next (another client could send under it first)."""
        return f"{self.id}-{secrets.token_hex(16)}"

    def envelope(self, *, game_id: str, game_type: str, kind: str = "act", seat: int = -1, token: str = "",
                 command: bytes = b"null", command_id: str | None = None) -> CommandEnvelope:
        return CommandEnvelope(
            command_id=command_id or self.next_id(), game_id=game_id, game_type=game_type, kind=kind,
            seat=seat, token=token, command=msgspec.Raw(command), reply_to=self.id,
            sent_us=time.time_ns() // 1000)

    async def submit(self, env: CommandEnvelope) -> Outcome:
        """Send one command and wait for its outcome (across a Redis restart, if need be).
        If Redis is full the command cannot even be sent: it is answered `storage_full`, as
        the referee answers a command it could not write, and may be sent again as it is."""
        fut = self.expect(env.command_id)
        self._sent[env.command_id] = env
        try:
            try:
                await retrying(lambda: self._xadd(env), self.timeout, f"client {self.id}")
            except Exception as e:
                if not out_of_memory(e):
                    raise
                return Rejected(command_id=env.command_id, game_id=env.game_id, code=protocol.STORAGE_FULL,
                                message="the service's storage is full: the command was not sent; send the same "
                                        "command again later")
            return await asyncio.wait_for(fut, self.timeout)
        finally:
            self._sent.pop(env.command_id, None)
            if self._waiting.get(env.command_id) is fut:
                del self._waiting[env.command_id]

    def expect(self, command_id: str) -> asyncio.Future[Outcome]:
        fut = self._waiting.get(command_id)
        if fut is None:
            fut = asyncio.get_running_loop().create_future()
            self._waiting[command_id] = fut
        return fut

    async def send(self, env: CommandEnvelope) -> None:
        """XADD one command (once: `submit` retries across a lost connection)."""
        await self._xadd(env)

    async def _xadd(self, env: CommandEnvelope) -> None:
        shard = keys.shard_of(env.game_id, self.shards)
        stream, fields = keys.cmd(shard), protocol.command_fields(env)
        if self._held is None:
            await self.redis.xadd(stream, fields)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((stream, fields, fut))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_queued())
        await fut

    async def _send_queued(self) -> None:
        """Write the queued XADDs, all that are queued at once in one write, until none is
        left. Where the held connection cannot make the call (it failed), each goes through
        redis-py instead, and an error (a lost connection: `submit` retries; Redis full)
        reaches its sender. Sending an XADD again that may have run is safe: the referee
        answers a command id it has seen from its record."""
        assert self._held is not None
        while self._queue:
            batch, self._queue = self._queue, []
            calls = [("XADD", stream, "*", *[x for kv in fields.items() for x in kv]) for stream, fields, _ in batch]
            try:
                replies = await self._held.call_many(calls)
                if replies is NOT_SENT:
                    replies = []
                    for stream, fields, _ in batch:
                        try:
                            replies.append(await self.redis.xadd(stream, fields))
                        except Exception as e:
                            replies.append(e)
            except BaseException as e:  # cancelled, or a failure the calls above do not answer
                for _, _, fut in batch + self._queue:
                    if not fut.done():
                        fut.set_exception(e if isinstance(e, Exception) else ConnectionError("the client stopped"))
                self._queue = []
                raise
            for (_, _, fut), reply in zip(batch, replies):
                if fut.done():  # its sender gave up waiting
                    continue
                if isinstance(reply, Exception):
                    fut.set_exception(reply)
                else:
                    fut.set_result(None)

    async def send_raw(self, game_id: str, fields: dict[bytes, bytes]) -> None:
        """XADD arbitrary fields (tests of malformed input)."""
        await self.redis.xadd(keys.cmd(keys.shard_of(game_id, self.shards)), fields)

    async def open(self, game: GameDef, *, game_id: str | None = None, preset: str = "",
                   options: Any = None, fixture: Any = None, players: int | None = None,
                   seats: Sequence[SeatPlayer] = (), clock: protocol.ClockOptions | None = None,
                   undo: bool = False, host_token: str | None = None) -> tuple[str, list[str], Outcome]:
        """Create a game: its id, one fresh secret token per seat, and the outcome; `seats`
        names who holds each seat (logged: ratings are kept by it); `clock` its time control;
        `undo` lets seats take back their last command (README "Undo"); `host_token` makes
        its holder the game's host, who may abandon a seat to a bot (`abandon`)."""
        game_id = game_id or f"{game.id}-{uuid.uuid4().hex[:10]}"
        if options is None and not preset:
            preset = next(iter(game.presets))
        n = players or (options.players if options is not None else game.presets[preset].players)
        tokens = [protocol.new_token() for _ in range(n)]
        req = protocol.OpenRequest(
            token_hashes=[protocol.token_hash(t) for t in tokens], preset=preset,
            options=msgspec.Raw(msgspec.json.encode(options)),  # None encodes as null
            fixture=msgspec.Raw(msgspec.json.encode(fixture)), seats=list(seats), clock=clock,
            undo=undo, host_hash=protocol.token_hash(host_token) if host_token else "")
        out = await self.submit(self.envelope(game_id=game_id, game_type=game.id, kind="open",
                                              command=msgspec.json.encode(req)))
        return game_id, tokens, out

    async def resign(self, game: GameDef, game_id: str, seat: int, token: str,
                     command_id: str | None = None, bot: str = "random") -> Outcome:
        """Resign a seat (its token proves it): the bot kind `bot` plays its decisions from
        then on and the result ranks it below every seat that did not resign (README
        "Clocks and timeouts")."""
        env = self.envelope(game_id=game_id, game_type=game.id, kind="resign", seat=seat, token=token,
                            command=msgspec.json.encode(protocol.LeaveRequest(bot=bot)), command_id=command_id)
        return await self.submit(env)

    async def abandon(self, game: GameDef, game_id: str, seat: int, host_token: str,
                      command_id: str | None = None, bot: str = "random") -> Outcome:
        """The host gives `seat` up to the bot kind `bot` (a seat whose player is gone): logged
        as the seat's resignation, reason "host"; refused `no_host` in a game without one."""
        env = self.envelope(game_id=game_id, game_type=game.id, kind="abandon", seat=seat, token=host_token,
                            command=msgspec.json.encode(protocol.LeaveRequest(bot=bot)), command_id=command_id)
        return await self.submit(env)

    async def undo(self, game: GameDef, game_id: str, seat: int, token: str,
                   command_id: str | None = None) -> Outcome:
        """Take back the seat's last command, where the game's undo policy allows it (README
        "Undo"): accepted with the seq of `ts.undone`, or refused (`nothing_to_undo`,
        `undo_not_allowed`)."""
        env = self.envelope(game_id=game_id, game_type=game.id, kind="undo", seat=seat, token=token,
                            command_id=command_id)
        return await self.submit(env)

    async def act(self, game: GameDef, game_id: str, seat: int, token: str, command: Any,
                  command_id: str | None = None) -> Outcome:
        """Send a seat's command (a Command Struct or its text notation) and wait for the outcome."""
        if isinstance(command, str):
            parsed = parse_text(game, command)
            if isinstance(parsed, Rejection):
                raise ValueError(f"{parsed.code}: {parsed.message}")
            command = parsed
        env = self.envelope(game_id=game_id, game_type=game.id, seat=seat, token=token,
                            command=msgspec.json.encode(command), command_id=command_id)
        return await self.submit(env)
