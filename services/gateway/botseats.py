"""The bot worker of a gateway: plays the bot seats of games started from lobbies.

Every gateway runs one. It looks at the shards' bot-seat sets (`keys.bot_seats`) and takes
a seat by a lease (`keys.bot_lease`: SET NX with a short expiry, renewed while it plays),
so two gateways never both play one seat, and a seat whose gateway died is taken over once
its lease lapses. It plays like any client: folds the log, lets the bot policy choose from
the seat's state, sends the command with the seat's token (from the lobby record) under a
command id derived from the game, seat and log position, so a command sent again after a
takeover is the same command, judged once. A finished game's seat leaves the set.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging

import msgspec

from events import keys
from events.envelope import Accepted
from services.bots.policies import Policy, player
from services.gateway.context import Gateway

log = logging.getLogger("tablestream.gateway.bots")

LEASE_MS = 5000
POLL_S = 0.1


class BotWorker:
    def __init__(self, gw: Gateway) -> None:
        self.gw = gw
        self.me = gw.client.id
        self.playing: dict[str, asyncio.Task[None]] = {}

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self._look()
            except Exception:  # Redis away for a moment: look again later
                log.warning("bot worker: looking for bot seats failed", exc_info=True)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)
        for t in self.playing.values():
            t.cancel()
        await asyncio.gather(*self.playing.values(), return_exceptions=True)

    async def _look(self) -> None:
        r = self.gw.redis
        for s in range(self.gw.settings.shards):
            for member in await r.smembers(keys.bot_seats(s)):
                name = member.decode()
                if name in self.playing and not self.playing[name].done():
                    continue
                seat_text, _, game_id = name.partition(":")
                lease = keys.bot_lease(s, game_id, int(seat_text))
                if await r.set(lease, self.me, nx=True, px=LEASE_MS):
                    self.playing[name] = asyncio.create_task(self._play(s, game_id, int(seat_text), name, lease))

    async def _play(self, s: int, game_id: str, seat: int, member: str, lease: str) -> None:
        from services.gateway.lobby import seat_record

        r, g = self.gw.redis, self.gw
        try:
            taken = await seat_record(r, s, game_id, seat)
            policy: Policy = player(taken.bot, hashlib.sha256(game_id.encode()).digest(), seat)
            while True:
                if await r.get(lease) != self.me.encode():
                    return  # the lease went to another worker
                await r.pexpire(lease, LEASE_MS)
                t = await g.tables.get(game_id)
                if t.over:
                    await r.srem(keys.bot_seats(s), member)
                    await r.delete(lease)
                    return
                if seat not in t.game.to_act(t.state):
                    await asyncio.sleep(POLL_S)
                    continue
                if getattr(policy, "slow", False):  # a search: in a thread, the gateway's loop goes on
                    cmd = await asyncio.to_thread(policy.choose, t.game, t.state, seat)
                else:
                    cmd = policy.choose(t.game, t.state, seat)
                cid = "bot-" + hashlib.sha256(f"{game_id}\0{seat}\0{t.version}".encode()).hexdigest()[:32]
                env = g.client.envelope(game_id=game_id, game_type=t.game.id, seat=seat, token=taken.token,
                                        command=msgspec.json.encode(cmd), command_id=cid)
                out = None
                with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                    out = await g.client.submit(env)
                if not isinstance(out, Accepted):  # a legal move is not refused; if it ever is, do not spin
                    log.warning("bot worker: seat %d of %s: %s", seat, game_id, getattr(out, "code", "no outcome"))
                    await asyncio.sleep(1.0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("bot worker: seat %d of %s stopped; another look will take it up again", seat, game_id,
                        exc_info=True)
