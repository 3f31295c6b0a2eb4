"""A connection held out of a redis-py client's pool for one hot call site.

The referee makes two calls a batch: the subscriber's XREADGROUP and the append script.
At moderate load batches are small, so each call's fixed cost counts, and redis-py's
`execute_command` carries a lot of it. Measured by callgrind on the append script's call:
339k instructions through the client (a pool checkout that also checks the socket is
idle, the retry wrapper, its observability hooks, its socket timeout as a task per send
and a context per read, its Python packer); on a held connection 228k; with the timeout
as one timer 197k; packed by hiredis 101k. `HeldConnection.call` is that last way.

A call the held connection cannot make (it is in use by an overlapping call, the client
has no pool, or the connection failed mid-call) returns `NOT_SENT`, and the caller makes
it through the client instead, with the client's pool and retries. A call sent again
after a lost connection may have run the first time, exactly as when redis-py retries a
call itself: callers only use this for calls where that is safe.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from hiredis import pack_command
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

NOT_SENT: Any = object()
"""`HeldConnection.call`'s answer when the call was not made (or its reply was lost)."""


class HeldConnection:
    """One connection taken from `redis`'s pool for good, for calls made one at a time.

    The client's `aclose()` disconnects it with the rest of the pool. Its socket timeout is
    kept over each whole call as one timer (plus `extra_s`, for a command that blocks on
    the server by design, such as XREADGROUP BLOCK)."""

    __slots__ = ("_pool", "_conn", "_busy", "_timeout")

    async def call_many(self, commands: list[tuple[Any, ...]], extra_s: float = 0.0) -> Any:
        """`commands` sent in one write on the held connection, their replies read in order
        (an error reply is returned in its place, as an exception, not raised), or NOT_SENT."""
        pool = self._pool
        if self._busy or pool is None:
            return NOT_SENT
        self._busy = True
        try:
            conn = await self._held(pool)
            limit = None if self._timeout is None else self._timeout + extra_s
            return await on_one_connection(conn, commands, limit)
        except (RedisConnectionError, RedisTimeoutError, TimeoutError):
            return NOT_SENT
        finally:
            self._busy = False

    async def _held(self, pool: Any) -> Any:
        """The held connection, taken from `pool` on first use. Its socket timeout (redis-py
        8: 5 s) is kept over each whole call, as one timer, instead of per read."""
        if self._conn is None:
            conn = await pool.get_connection()
            self._timeout = conn.socket_timeout
            conn.socket_timeout = None
            self._conn = conn
        return self._conn

    def __init__(self, redis: Any) -> None:
        self._pool = getattr(redis, "connection_pool", None)
        self._conn: Any = None
        self._busy = False
        self._timeout: float | None = None

    async def release(self) -> None:
        """Give the connection back to the pool (its holder is done, the pool lives on);
        the next call takes one again. Not while a call is under way."""
        conn = self._conn
        if conn is None or self._busy or self._pool is None:
            return
        self._conn = None
        conn.socket_timeout = self._timeout
        await self._pool.release(conn)

    async def call(self, *args: Any, extra_s: float = 0.0) -> Any:
        """The server's raw reply to the command `args` (a reply that is an error is
        raised), or NOT_SENT (see the module's docstring)."""
        pool = self._pool
        if self._busy or pool is None:
            return NOT_SENT
        self._busy = True
        try:
            conn = await self._held(pool)
            limit = None if self._timeout is None else self._timeout + extra_s
            async with asyncio.timeout(limit):
                # Packed by hiredis (C) rather than redis-py's Python packer: the same bytes.
                await conn.send_packed_command(pack_command(args))
                return await conn.read_response()
        except (RedisConnectionError, RedisTimeoutError, TimeoutError):
            # redis-py has closed the connection (as on any failure or cancellation
            # mid-call, so no reply is left on it for the next call); it connects anew on
            # its next call.
            return NOT_SENT
        finally:
            self._busy = False


async def on_one_connection(conn: Any, commands: list[tuple[Any, ...]], limit: float | None) -> list[Any]:
    """Send `commands` on redis-py connection `conn` in one write and read their replies in
    order, within `limit` seconds for the whole exchange (None: the connection's own socket
    timeout per read). An error reply is returned in its place (the exception), so that
    every reply is read off the connection; a lost connection raises (redis-py has closed it)."""
    async with asyncio.timeout(limit):
        await conn.send_packed_command(b"".join(pack_command(c) for c in commands))
        out: list[Any] = []
        for _ in commands:
            try:
                out.append(await conn.read_response(timeout=None if limit is None else math.inf))
            except ResponseError as e:
                out.append(e)
        return out
