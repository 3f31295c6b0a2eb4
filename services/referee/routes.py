"""FastStream wiring of the referee: batch subscribers on cmd:{s}, the handler does no work.

Command bodies are read raw (`raw_entries`): the referee decodes each CommandEnvelope
itself with msgspec, so FastStream's per-message JSON round trip is skipped. Acks are
manual: the referee XACKs in the same pipeline as the outcomes, after the append.
"""

from __future__ import annotations

from typing import Any

from faststream import AckPolicy
from faststream.redis import RedisRouter, StreamSub
from faststream.redis.message import FAKE_CONSUMER, RedisBatchStreamMessage

from events import keys
from services import protocol
from services.referee.referee import Referee


class _Stream(StreamSub):
    """A StreamSub that is its own unprefixed copy.

    FastStream asks for `add_prefix(broker prefix)` on every read and every message (a
    deepcopy each time: ~4% of the referee's CPU in a drain). With no prefix the copy is
    equal to the original, and nothing writes to it, so the original is returned."""

    def add_prefix(self, prefix: str) -> StreamSub:  # type: ignore[override]
        return self if not prefix else super().add_prefix(prefix)


async def raw_entries(msg: Any) -> RedisBatchStreamMessage:
    """Parser: keep the batch as (entry id, fields) pairs, undecoded."""
    ids = msg["message_ids"]
    # The first entry's id names the batch (FastStream would draw a uuid4 for it).
    return RedisBatchStreamMessage(
        raw_message=msg, body=list(zip(ids, msg["data"])), correlation_id=ids[0].decode() if ids else None,
        consumer=FAKE_CONSUMER, group=protocol.GROUP)


async def as_is(msg: RedisBatchStreamMessage) -> Any:
    """Decoder: the body is already what the handler wants."""
    return msg.body


def build_router(referees: dict[int, Referee], consumer: str, *, batch: int, poll_ms: int,
                 claim_idle_ms: int) -> RedisRouter:
    """Two subscribers per shard: new commands, and commands reclaimed from dead referees."""
    router = RedisRouter()
    for shard, referee in referees.items():
        _subscribe(router, referee, keys.cmd(shard), consumer, batch, poll_ms, claim_idle_ms)
    return router


def _subscribe(router: RedisRouter, referee: Referee, stream: str, consumer: str, batch: int,
               poll_ms: int, claim_idle_ms: int) -> None:
    fresh = _Stream(stream, group=protocol.GROUP, consumer=consumer, batch=True,
                    max_records=batch, polling_interval=poll_ms)
    # The claimer looks for commands idle for claim_idle_ms: looking ten times per such
    # period is prompt enough, and each look costs the referee CPU (an XAUTOCLAIM).
    claim = _Stream(stream, group=protocol.GROUP, consumer=consumer, batch=True,
                    min_idle_time=claim_idle_ms, polling_interval=max(poll_ms, claim_idle_ms // 10))

    @router.subscriber(stream=fresh, parser=raw_entries, decoder=as_is,
                       ack_policy=AckPolicy.MANUAL, no_reply=True)
    async def on_commands(entries: Any) -> None:
        # Decide the next batch while this one lands: as fast or faster at every load
        # measured here (2k, 5k, 11k commands/s; at 11k the referee's own p50 halved).
        await referee.handle_batch(entries, wait=False)

    @router.subscriber(stream=claim, parser=raw_entries, decoder=as_is,
                       ack_policy=AckPolicy.MANUAL, no_reply=True)
    async def on_reclaimed(entries: Any) -> None:
        await referee.handle_reclaimed(entries)
