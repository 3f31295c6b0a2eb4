"""The event log on Redis Streams: read, append (one atomic script), and feed helpers.

With its helper `events.held`, the only part of `events` that imports redis. `EventStore`
is one class made of its jobs: `reads` (logs, feeds), `appends` (the append script, its
types in `items`) and `admin` (groups, heartbeats, seeds, trims), over `base`'s state.
"""

from __future__ import annotations

from events.store.admin import Admin
from events.store.appends import Appends
from events.store.reads import Reads


class EventStore(Reads, Appends, Admin):
    """Game logs, shard feeds and the atomic append, over one redis.asyncio client."""


__all__ = ["EventStore"]
