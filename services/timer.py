"""The timer: sends a timeout command for every decision whose clock ran out.

Deadlines are in Redis (`keys.timers`, kept by the projector from each game's clock: one
member "<seat>:<game type>:<game id>" per running decision, its deadline as score), so a restarted
timer finds them all. One timer per shard sends, the process that holds the shard's
projector lease (`services.projector.lease`). A due decision gets a "timeout" command on
the shard's command stream, through the same path as any client's (no reply is asked
for), under a command id made of the game, the seat and the deadline: sent again (after
`RESEND_S`, while the projector still shows that deadline), it is the same command, judged
once. The referee judges it by its own clock against the deadline the log folds to
(services/referee/judge.py), so a timeout is never applied early or twice; the projector
then records the seat's next deadline, or none.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import msgspec
import redis.asyncio as aioredis

from events import keys
from events.envelope import CommandEnvelope
from services import protocol
from services.reconnect import LOST

log = logging.getLogger("tablestream.timer")

POLL_S = 0.1
"""How often the due deadlines are read: a timeout lands this much after its deadline, at most
(plus the referee's and the projector's lag)."""
RESEND_S = 2.0
"""A timeout sent but still due this long after (its outcome not projected yet, or lost) is sent again."""
BATCH = 200


def timeout_id(game_id: str, seat: int, deadline: int) -> str:
    """The command id of a decision's timeout: the same for every send of it."""
    return f"timeout-{deadline}-{seat}-{game_id}"[:128]


class Timer:
    """Sends the timeouts of one shard while `holds()` says this process holds the shard."""

    def __init__(self, redis: aioredis.Redis, shard: int, holds: Callable[[], bool],
                 now_ms: Callable[[], int] = lambda: time.time_ns() // 1_000_000) -> None:
        self.redis = redis
        self.shard = shard
        self.holds = holds
        self.now_ms = now_ms
        self.sent: dict[str, tuple[float, float]] = {}  # member -> (deadline, when sent)
        self.timeouts = 0  # commands sent

    async def tick(self) -> int:
        """Send the timeouts now due (those not sent within `RESEND_S`); how many were sent."""
        due = await self.redis.zrangebyscore(keys.timers(self.shard), "-inf", self.now_ms(), start=0, num=BATCH,
                                             withscores=True)
        now = time.monotonic()
        fields = []
        for member, score in due:
            name = member.decode()
            seat_text, game_type, game_id = (name.split(":", 2) + ["", ""])[:3]
            was = self.sent.get(name)
            if was is not None and was[0] == score and now - was[1] < RESEND_S:
                continue
            if not seat_text.isdigit() or not game_type or not game_id:
                continue
            deadline = int(score)
            env = CommandEnvelope(command_id=timeout_id(game_id, int(seat_text), deadline), game_id=game_id,
                                  game_type=game_type, kind="timeout", seat=int(seat_text),
                                  command=msgspec.Raw(msgspec.json.encode(protocol.TimeoutRequest(deadline=deadline))))
            fields.append(protocol.command_fields(env))
            self.sent[name] = (score, now)
        if fields:
            pipe = self.redis.pipeline(transaction=False)
            for f in fields:
                pipe.xadd(keys.cmd(self.shard), f)  # type: ignore[arg-type]
            await pipe.execute()
            self.timeouts += len(fields)
        if len(self.sent) > 10 * BATCH:  # forget decisions long gone
            self.sent = {k: v for k, v in self.sent.items() if now - v[1] < RESEND_S}
        return len(fields)

    async def run(self, stop: asyncio.Event) -> None:
        """Tick every `POLL_S` while this process holds the shard, until `stop`."""
        while not stop.is_set():
            try:
                if self.holds():
                    await self.tick()
            except LOST:
                pass  # the projector's loop reports and waits out a lost Redis
            except Exception:
                log.exception("timer of shard %d: a tick failed", self.shard)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), POLL_S)
