"""The Matrix adapter: a bot account (matrix-nio's AsyncClient) on any homeserver.

It joins the rooms it is invited to and passes the room messages that address it (the
prefix, `!ts ` by default, or the bot's name or id followed by `:`/`,`) to the chat core.
Room replies are posted as Matrix HTML (`formatted_body`) with a plain `body`; private
replies go to a direct-message room with that user alone: created once (is_direct, an
invite), remembered in Redis (keys.chat_dm), and created anew if anyone else is in it, so a
hand never reaches a room with a third member. A reply's board picture (`board`'s in the
room, `hand`'s in the DM) is uploaded to the homeserver's media repository and posted as an
m.image event after its text. It is the core's `Sink` for what happens
later. Secrets (password, access token) come from the environment and are never logged:
they live in `MatrixSettings` (not in its repr) and in the client's Authorization header.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
from dataclasses import dataclass, field

import redis.asyncio as aioredis
from nio import (AsyncClient, AsyncClientConfig, InviteMemberEvent, LoginError, MatrixRoom, RoomCreateError,
                 RoomMessageText, RoomPreset, RoomSendError, SyncError, UploadResponse)

from events import keys
from services.chat import format as fmt
from services.chat.config import pictures_on
from services.chat.core import ChatCore
from services.chat.model import Message, Reply

log = logging.getLogger("tablestream.chat.matrix")
PLATFORM = "matrix"


@dataclass(frozen=True)
class MatrixSettings:
    homeserver: str
    user: str  # @bot:server (or the localpart, with a password)
    password: str = field(default="", repr=False)
    access_token: str = field(default="", repr=False)
    device_id: str = ""
    prefix: str = "!ts"
    gateway_url: str = "http://127.0.0.1:8080"
    poll_s: float = 0.5
    pictures: bool = True


def from_env(env: dict[str, str] | None = None) -> MatrixSettings:
    """MATRIX_HOMESERVER, MATRIX_USER and MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN (required),
    MATRIX_DEVICE_ID, MATRIX_PREFIX, TABLESTREAM_GATEWAY_URL, TABLESTREAM_CHAT_POLL_S,
    TABLESTREAM_CHAT_PICTURES.
    Raises ValueError naming what is missing (never a value)."""
    e = os.environ if env is None else env
    missing = [k for k in ("MATRIX_HOMESERVER", "MATRIX_USER") if not e.get(k)]
    if not e.get("MATRIX_PASSWORD") and not e.get("MATRIX_ACCESS_TOKEN"):
        missing.append("MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN")
    if missing:
        raise ValueError(f"the Matrix bot needs {', '.join(missing)} in the environment")
    try:
        poll_s = float(e.get("TABLESTREAM_CHAT_POLL_S", "0.5"))
    except ValueError:
        raise ValueError("TABLESTREAM_CHAT_POLL_S must be a number of seconds") from None
    return MatrixSettings(homeserver=e["MATRIX_HOMESERVER"].rstrip("/"), user=e["MATRIX_USER"],
                          password=e.get("MATRIX_PASSWORD", ""), access_token=e.get("MATRIX_ACCESS_TOKEN", ""),
                          device_id=e.get("MATRIX_DEVICE_ID", ""), prefix=e.get("MATRIX_PREFIX", "!ts"),
                          gateway_url=e.get("TABLESTREAM_GATEWAY_URL", "http://127.0.0.1:8080"), poll_s=poll_s,
                          pictures=pictures_on(e))


def addressed(body: str, prefix: str, user_id: str, name: str) -> str | None:
    """The chat command in `body` if the message addresses the bot, else None."""
    text = body.strip()
    heads = [prefix] + [h + sep for h in (user_id, name) if h for sep in (":", ",")]
    for head in heads:
        if text.lower().startswith(head.lower()) and (head != prefix or text[len(head):][:1] in ("", " ")):
            return text[len(head):].strip()
    return None


class MatrixBot:
    """The adapter (and the core's Sink for platform "matrix")."""

    def __init__(self, settings: MatrixSettings, redis: aioredis.Redis) -> None:
        self.s = settings
        self.r = redis
        self.client = AsyncClient(settings.homeserver, settings.user, device_id=settings.device_id or None,
                                  config=AsyncClientConfig(encryption_enabled=False))
        self.core = ChatCore(redis, settings.gateway_url, sinks={PLATFORM: self}, poll_s=settings.poll_s,
                             pictures=settings.pictures)
        self._dm_locks: dict[str, asyncio.Lock] = {}
        self._tails: dict[str, asyncio.Task] = {}
        self._tasks: set[asyncio.Task] = set()
        self.name = ""

    # ---- Sink -------------------------------------------------------------------------

    async def post_room(self, room: str, reply: Reply) -> None:
        await self._send(room, reply)
        await self._image(room, reply)

    async def post_private(self, user: str, reply: Reply) -> None:
        dm = await self.dm_room(user)
        await self._send(dm, reply)
        await self._image(dm, reply)

    async def _send(self, room_id: str, reply: Reply) -> None:
        room = self.client.rooms.get(room_id)
        names = {u: (room.user_name(u) if room else None) or u for u in reply.mentions}
        plain, html = fmt.matrix(reply, names)
        content = {"msgtype": "m.notice", "body": plain, "format": "org.matrix.custom.html", "formatted_body": html}
        if reply.mentions:
            content["m.mentions"] = {"user_ids": list(reply.mentions)}
        res = await self.client.room_send(room_id, "m.room.message", content, ignore_unverified_devices=True)
        if isinstance(res, RoomSendError):
            log.warning("matrix: sending to a room failed: %s", res.status_code)

    async def _image(self, room_id: str, reply: Reply) -> None:
        """A reply's board picture: uploaded to the homeserver's media repository, then an
        m.image event in `room_id` (its `body` the alt text, `info` the PNG's size), the room
        its text went to (a private reply's: the user's DM). A failure is logged (status only)
        and the text stands. (Media in the repository is fetchable by any user of the
        homeserver who learns its mxc:// URI; only the DM's members see the URI.)"""
        pic = reply.picture
        if pic is None:
            return
        up, _ = await self.client.upload(io.BytesIO(pic.png), content_type="image/png", filename=pic.filename,
                                         filesize=len(pic.png))
        if not isinstance(up, UploadResponse):
            log.warning("matrix: uploading the board picture failed: %s", getattr(up, "status_code", None))
            return
        content = {"msgtype": "m.image", "body": pic.alt, "filename": pic.filename, "url": up.content_uri,
                   "info": {"mimetype": "image/png", "size": len(pic.png), "w": pic.width, "h": pic.height}}
        res = await self.client.room_send(room_id, "m.room.message", content, ignore_unverified_devices=True)
        if isinstance(res, RoomSendError):
            log.warning("matrix: sending the board picture failed: %s", res.status_code)

    # ---- direct messages ----------------------------------------------------------------

    def _dm_ok(self, room_id: str, user: str) -> bool:
        """The stored DM room still holds the bot and `user` and nobody else."""
        room = self.client.rooms.get(room_id)
        if room is None:
            return False
        members = set(room.users) | set(room.invited_users)
        return user in members and members <= {user, self.client.user_id}

    async def dm_room(self, user: str) -> str:
        """The direct-message room with `user` alone (created and remembered on first use)."""
        async with self._dm_locks.setdefault(user, asyncio.Lock()):
            key = keys.chat_dm(PLATFORM, user)
            known = await self.r.get(key)
            if known is not None and self._dm_ok(known.decode(), user):
                return known.decode()
            res = await self.client.room_create(is_direct=True, invite=[user], preset=RoomPreset.trusted_private_chat,
                                                name="Tablestream (private)")
            if isinstance(res, RoomCreateError):
                raise RuntimeError(f"could not open a direct-message room: {res.status_code}")
            await self.r.set(key, res.room_id)
            return res.room_id

    # ---- inbound --------------------------------------------------------------------------

    async def on_invite(self, room: MatrixRoom, event: InviteMemberEvent) -> None:
        if event.state_key == self.client.user_id and event.membership == "invite":
            await self.client.join(room.room_id)

    async def on_message(self, room: MatrixRoom, event: RoomMessageText) -> None:
        if event.sender == self.client.user_id:
            return
        text = addressed(event.body, self.s.prefix, self.client.user_id, self.name)
        if text is None:
            return
        msg = Message(PLATFORM, room.room_id, event.sender, room.user_name(event.sender) or event.sender, text,
                      message_id=event.event_id)
        prev = self._tails.get(room.room_id)
        task = asyncio.create_task(self._answer(prev, msg))
        self._tails[room.room_id] = task  # one room's messages are answered in order
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, prev: asyncio.Task | None, msg: Message) -> None:
        if prev is not None:
            await asyncio.gather(prev, return_exceptions=True)
        try:
            for reply in await self.core.handle(msg):
                if reply.audience == "private":
                    await self.post_private(reply.user or msg.user, reply)
                else:
                    await self.post_room(msg.room, reply)
        except Exception as e:  # one message's fault never stops the bot
            log.error("matrix: answering a message failed: %s", type(e).__name__, exc_info=e)

    # ---- running ---------------------------------------------------------------------------

    async def login(self) -> None:
        if self.s.access_token:
            self.client.restore_login(self.s.user, self.s.device_id or "TABLESTREAM", self.s.access_token)
            who = await self.client.whoami()
            if getattr(who, "user_id", None) is None:
                raise RuntimeError("the Matrix access token was refused")
            self.client.user_id = who.user_id
        else:
            res = await self.client.login(password=self.s.password, device_name="tablestream")
            if isinstance(res, LoginError):
                raise RuntimeError(f"Matrix login refused: {res.message}")

    async def run(self) -> None:
        """Log in, skip the history (one full sync first), then answer until cancelled."""
        await self.login()
        first = await self.client.sync(timeout=0, full_state=True)
        if isinstance(first, SyncError):
            raise RuntimeError(f"the first Matrix sync failed: {first.status_code}")
        prof = await self.client.get_displayname(self.client.user_id)
        self.name = getattr(prof, "displayname", None) or ""
        for room_id in list(self.client.invited_rooms):
            await self.client.join(room_id)
        self.client.add_event_callback(self.on_invite, InviteMemberEvent)
        self.client.add_event_callback(self.on_message, RoomMessageText)
        watcher = asyncio.create_task(self.core.watch())
        try:
            await self.client.sync_forever(timeout=10_000)
        finally:  # a bounded stop: nothing pending may keep the process from ending
            watcher.cancel()
            for t in self._tasks:
                t.cancel()
            await asyncio.wait([watcher, *self._tasks], timeout=5)
            for closing in (self.core.aclose(), self.client.close()):
                try:
                    await asyncio.wait_for(closing, 5)
                except (asyncio.TimeoutError, OSError) as e:
                    log.warning("matrix: closing took too long: %s", type(e).__name__)
