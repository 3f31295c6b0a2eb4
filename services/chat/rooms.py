"""The chat service's own small state in Redis (key names in events/keys.py): per room, the
game it hosts, the lobby's host token and its opener, each seated chat user's seat and seat
token, and the last log position announced; and the set of rooms with a game in play.
Tokens are secrets: kept here to act for their users, never logged, never shown."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import redis.asyncio as aioredis

from events import keys


@dataclass
class Seated:
    seat: int
    token: str
    name: str
    left: bool = False
    resigned: bool = False  # left by resigning (the referee's timer has a bot play the seat)

    def __repr__(self) -> str:  # never a token in a log line or traceback
        return f"Seated(seat={self.seat}, name={self.name!r}, left={self.left}, resigned={self.resigned})"


@dataclass
class Room:
    platform: str
    room: str
    game: str = ""
    game_type: str = ""
    host: str = ""
    opener: str = ""
    started: bool = False
    over: bool = False
    seen: int = 0
    users: dict[str, Seated] = field(default_factory=dict)
    timed: bool = False  # the game has a clock: the watcher reminds seats before their deadlines
    reminded: str = ""  # "seat:deadline" of each running decision reminded already, comma-separated

    def __repr__(self) -> str:
        return f"Room({self.platform!r}, {self.room!r}, game={self.game!r}, seats={len(self.users)})"

    def user_of(self, seat: int) -> str | None:
        return next((u for u, s in self.users.items() if s.seat == seat), None)


class Rooms:
    def __init__(self, r: aioredis.Redis) -> None:
        self.r = r

    async def load(self, platform: str, room: str) -> Room:
        h = {k.decode(): v.decode() for k, v in (await self.r.hgetall(keys.chat_room(platform, room))).items()}
        users = {}
        for k, v in h.items():
            if k.startswith("user:"):
                d = json.loads(v)
                users[k[5:]] = Seated(d["seat"], d["token"], d["name"], d.get("left", False), d.get("resigned", False))
        return Room(platform, room, h.get("game", ""), h.get("type", ""), h.get("host", ""), h.get("opener", ""),
                    h.get("started") == "1", h.get("over") == "1", int(h.get("seen", "0")), users,
                    timed=h.get("timed") == "1", reminded=h.get("reminded", ""))

    async def open(self, room: Room) -> None:
        """A new game in the room: the previous one's record is replaced."""
        key = keys.chat_room(room.platform, room.room)
        async with self.r.pipeline(transaction=True) as p:
            p.delete(key)
            p.hset(key, mapping={"game": room.game, "type": room.game_type, "host": room.host,
                                 "opener": room.opener, "seen": "0", "timed": "1" if room.timed else "0"})
            await p.execute()

    async def seat(self, room: Room, user: str, s: Seated) -> None:
        await self.r.hset(keys.chat_room(room.platform, room.room), f"user:{user}",
                          json.dumps({"seat": s.seat, "token": s.token, "name": s.name, "left": s.left,
                                      "resigned": s.resigned}))
        room.users[user] = s

    async def set(self, room: Room, **fields: str) -> None:
        await self.r.hset(keys.chat_room(room.platform, room.room), mapping=fields)

    async def watch(self, room: Room, on: bool) -> None:
        member = f"{room.platform} {room.room}"
        await (self.r.sadd if on else self.r.srem)(keys.chat_rooms(), member)

    async def watched(self) -> list[tuple[str, str]]:
        out = []
        for m in await self.r.smembers(keys.chat_rooms()):
            platform, _, room = m.decode().partition(" ")
            out.append((platform, room))
        return out
