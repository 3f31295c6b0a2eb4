"""Work split over forked worker processes: `projections rebuild` and `verify --all` fold
logs in Python, which runs on one core; workers fold on the others.

Forked, not spawned: a spawned worker imports everything again (about a second, as long
as the whole job on 300 games). Each worker runs its part on an event loop and Redis
connections of its own (made from the parent client's settings), sends back its result
pickled through a pipe and ends with `os._exit`: it never touches the parent's loop or
connections, and no inherited finalizer closes a socket the parent still uses. The parent
works on the first part itself.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import redis.asyncio as aioredis

from services.redis_client import is_cluster

T = TypeVar("T")
R = TypeVar("R")

MIN_PART = 50
"""Fewest items a worker is given: below that a fork costs more than it saves."""


def cores() -> int:
    """The cores this process may run on: the default number of jobs."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def split(items: Sequence[T], jobs: int) -> list[list[T]]:
    """`items` in at most `jobs` contiguous parts of at least `MIN_PART` each (one part,
    maybe empty, when there are too few); their concatenation is `items`."""
    n = max(1, min(jobs, len(items) // max(MIN_PART, 1)))
    size, extra = divmod(len(items), n)
    parts, start = [], 0
    for i in range(n):
        end = start + size + (i < extra)
        parts.append(list(items[start:end]))
        start = end
    return parts


class WorkerFailed(RuntimeError):
    """A worker process ended without a result (killed, or its error could not be sent)."""


async def fan_out(redis: aioredis.Redis, parts: Sequence[T],
                  work: Callable[[aioredis.Redis, T], Awaitable[R]]) -> list[R]:
    """`[await work(redis, part) for part in parts]`, the parts after the first each in a
    forked process with a client of its own; a worker's exception is raised here. On a
    Redis Cluster client, or where there is no fork, everything runs here in turn."""
    if len(parts) <= 1 or is_cluster(redis) or not hasattr(os, "fork"):
        return [await work(redis, p) for p in parts]
    pool = redis.connection_pool
    settings = (pool.connection_class, dict(pool.connection_kwargs))
    children: list[tuple[int, int]] = []
    try:
        for part in parts[1:]:
            rfd, wfd = os.pipe()
            pid = os.fork()
            if pid == 0:  # the worker: never returns
                os.close(rfd)
                _worker(settings, work, part, wfd)
            os.close(wfd)
            children.append((pid, rfd))
        first = await work(redis, parts[0])
    except BaseException:
        for pid, rfd in children:
            _kill(pid, rfd)
        raise
    loop = asyncio.get_running_loop()
    outcomes = [await loop.run_in_executor(None, _collect, pid, rfd) for pid, rfd in children]
    results = [first]
    for ok, value in outcomes:
        if not ok:
            raise value
        results.append(value)
    return results


def _worker(settings: tuple[type, dict[str, Any]], work: Callable[[aioredis.Redis, Any], Awaitable[Any]],
            part: Any, wfd: int) -> None:
    """Run `work` on `part` in this forked process and send (ok, result or error) to `wfd`."""
    status = 1
    try:
        signal.set_wakeup_fd(-1)  # the parent loop's wake-up pipe is the parent's
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        connection_class, kwargs = settings

        async def main() -> Any:
            client = aioredis.Redis(connection_pool=aioredis.ConnectionPool(connection_class=connection_class,
                                                                             **kwargs))
            try:
                return await work(client, part)
            finally:
                await client.aclose()

        try:
            payload = pickle.dumps((True, asyncio.run(main())))
        except BaseException as e:  # sent to the parent, which raises it
            try:
                payload = pickle.dumps((False, e))
            except Exception:
                payload = pickle.dumps((False, WorkerFailed(f"{type(e).__name__}: {e}")))
        view = memoryview(payload)
        while view:
            view = view[os.write(wfd, view):]
        status = 0
    finally:
        os._exit(status)


def _collect(pid: int, rfd: int) -> tuple[bool, Any]:
    """A worker's (ok, value), read to the end of its pipe, once it has exited."""
    chunks = []
    try:
        while chunk := os.read(rfd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(rfd)
        _, status = os.waitpid(pid, 0)
    if not chunks:
        return False, WorkerFailed(f"worker {pid} ended without a result (wait status {status})")
    return pickle.loads(b"".join(chunks))


def _kill(pid: int, rfd: int) -> None:
    """Stop a worker whose result is no longer wanted, and reap it."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.close(rfd)
    os.waitpid(pid, 0)
