"""Discord: the interactions endpoint (HTTP), its signatures, replies and follow-ups, and
the slash command's definition.

One slash command, `/ts command:<text>`, whose option is the chat grammar's line with
autocomplete from the core's completion. Every request's `X-Signature-Ed25519` is checked
over `X-Signature-Timestamp` + body with the application's public key (PyNaCl), and the
timestamp must be within 5 minutes: anything else is 401. A command answers within
`defer_s` (type 4; flag 64, ephemeral, when the reply is private), else it is deferred
(type 5, ephemeral) and answered later through the webhook REST API (the original edited,
then follow-ups), so private text is never shown to the channel. Later posts (turn pings,
announcements) go to the channel through the bot's REST API; private ones by direct message.
A reply's board picture (`board`; `hand`'s, ephemeral) follows its text as a message with
the PNG uploaded as an attachment (multipart `payload_json` + `files[0]`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import httpx
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from services.chat import format as fmt
from services.chat.config import ChatSettings
from services.chat.core import ChatCore
from services.chat.model import Message, Reply

log = logging.getLogger("tablestream.chat.discord")

PLATFORM = "discord"
PING, APPLICATION_COMMAND, AUTOCOMPLETE = 1, 2, 4
PONG, CHANNEL_MESSAGE, DEFERRED, AUTOCOMPLETE_RESULT = 1, 4, 5, 8
EPHEMERAL = 64
MAX_SKEW_S = 300
COMMAND_NAME = "ts"


def command_definitions() -> list[dict[str, Any]]:
    """The slash commands to register (PUT /applications/{app_id}/commands)."""
    return [{
        "name": COMMAND_NAME, "type": 1,
        "description": "Play board games in this channel (try: help)",
        "options": [{"type": 3, "name": "command", "required": True, "autocomplete": True,
                     "description": "open <game> | join | start | play <move> | moves | hand | board | log | help"}],
    }]


def verify(public_key: str, signature: str, timestamp: str, body: bytes, now: float | None = None) -> bool:
    """Discord's request signature: Ed25519 over timestamp + body, and a recent timestamp."""
    try:
        VerifyKey(bytes.fromhex(public_key)).verify(timestamp.encode() + body, bytes.fromhex(signature))
        ts = int(timestamp)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return abs((time.time() if now is None else now) - ts) <= MAX_SKEW_S


def _user(interaction: dict) -> tuple[str, str]:
    u = (interaction.get("member") or {}).get("user") or interaction.get("user") or {}
    return str(u.get("id", "")), str(u.get("global_name") or u.get("username") or u.get("id", ""))


def _line(interaction: dict) -> tuple[str, bool]:
    """The `command` option's text, and whether it is the focused (autocompleted) one."""
    for o in (interaction.get("data") or {}).get("options") or []:
        if o.get("name") == "command":
            return str(o.get("value", "")), bool(o.get("focused"))
    return "", False


class DiscordRest:
    """Discord's REST API at DISCORD_API_BASE (webhook follow-ups, channel messages, DMs);
    also the core's Sink for this platform."""

    def __init__(self, settings: ChatSettings) -> None:
        self.s = settings
        self.http = httpx.AsyncClient(base_url=settings.discord_api_base, timeout=15)

    async def aclose(self) -> None:
        await self.http.aclose()

    def _bot(self) -> dict[str, str]:
        return {"Authorization": f"Bot {self.s.discord_bot_token}"}

    async def _send(self, method: str, path: str, body: dict, bot: bool = False) -> dict:
        res = await self.http.request(method, path, json=body, headers=self._bot() if bot else {})
        if res.status_code >= 400:
            log.warning("discord: %s %s answered %s", method, path.split("/")[1], res.status_code)
            return {}
        return res.json() if res.content else {}

    async def _attach(self, path: str, reply: Reply, bot: bool = False) -> None:
        """A reply's picture as a message of its own: Discord's file upload, a
        multipart/form-data body of `payload_json` (the message, its `attachments` naming
        file 0 with the alt text as description) and `files[0]` (the PNG). A private reply's
        (the seat's own board) is ephemeral like its text (flag 64), or goes to the DM."""
        pic = reply.picture
        if pic is None:
            return
        payload = {"content": "", "flags": EPHEMERAL if reply.audience == "private" else 0,
                   "allowed_mentions": {"parse": []},
                   "attachments": [{"id": 0, "filename": pic.filename, "description": pic.alt[:1024]}]}
        try:
            res = await self.http.post(path, data={"payload_json": json.dumps(payload)},
                                       files={"files[0]": (pic.filename, pic.png, "image/png")},
                                       headers=self._bot() if bot else {})
        except httpx.HTTPError as e:
            log.warning("discord: posting the board picture failed: %s", type(e).__name__)
            return
        if res.status_code >= 400:
            log.warning("discord: posting the board picture answered %s", res.status_code)

    async def follow_up(self, token: str, reply: Reply) -> None:
        for part in fmt.discord(reply):
            await self._send("POST", f"/webhooks/{self.s.discord_app_id}/{token}",
                             {"content": part, "flags": EPHEMERAL if reply.audience == "private" else 0,
                              "allowed_mentions": {"users": list(reply.mentions)}})
        await self._attach(f"/webhooks/{self.s.discord_app_id}/{token}", reply)

    async def edit_original(self, token: str, content: str) -> None:
        await self._send("PATCH", f"/webhooks/{self.s.discord_app_id}/{token}/messages/@original",
                         {"content": content})

    async def post_room(self, room: str, reply: Reply) -> None:
        for part in fmt.discord(reply):
            await self._send("POST", f"/channels/{room}/messages",
                             {"content": part, "allowed_mentions": {"users": list(reply.mentions)}}, bot=True)
        await self._attach(f"/channels/{room}/messages", reply, bot=True)

    async def post_private(self, user: str, reply: Reply) -> None:
        dm = await self._send("POST", "/users/@me/channels", {"recipient_id": user}, bot=True)
        if dm.get("id"):
            for part in fmt.discord(reply):
                await self._send("POST", f"/channels/{dm['id']}/messages", {"content": part}, bot=True)
            await self._attach(f"/channels/{dm['id']}/messages", reply, bot=True)


class DiscordInteractions:
    """Handles one verified interaction body; answers the HTTP response's JSON."""

    def __init__(self, settings: ChatSettings, core: ChatCore, rest: DiscordRest) -> None:
        self.s, self.core, self.rest = settings, core, rest
        self._later: set[asyncio.Task] = set()

    async def handle(self, body: bytes, signature: str, timestamp: str) -> tuple[int, dict]:
        if not verify(self.s.discord_public_key, signature, timestamp, body):
            return 401, {"error": "invalid request signature"}
        try:
            interaction = json.loads(body)
            kind = interaction["type"]
        except (ValueError, KeyError, TypeError):
            return 400, {"error": "malformed interaction"}
        if kind == PING:
            return 200, {"type": PONG}
        room = str(interaction.get("channel_id") or (interaction.get("channel") or {}).get("id") or "")
        user, name = _user(interaction)
        text, _ = _line(interaction)
        if not room or not user:
            return 400, {"error": "an interaction without a channel or user"}
        if kind == AUTOCOMPLETE:
            got = await self.core.complete(PLATFORM, room, user, text)
            return 200, {"type": AUTOCOMPLETE_RESULT,
                         "data": {"choices": [{"name": c[:100], "value": c[:100]} for c in got[:25]]}}
        if kind != APPLICATION_COMMAND:
            return 400, {"error": f"unsupported interaction type {kind!r}"}
        msg = Message(PLATFORM, room, user, name, text, message_id=str(interaction.get("id") or "") or None)
        task = asyncio.create_task(self.core.handle(msg))
        done, _ = await asyncio.wait({task}, timeout=self.s.defer_s)
        if done:
            if task.exception() is not None:
                log.error("discord: a command failed: %s", type(task.exception()).__name__, exc_info=task.exception())
                return 200, {"type": CHANNEL_MESSAGE, "data": {"content": "that failed; the fault is logged",
                                                                "flags": EPHEMERAL}}
            replies = task.result()
            first = replies[0]
            parts = fmt.discord(first)
            data: dict = {"content": parts[0], "allowed_mentions": {"users": list(first.mentions)}}
            if first.audience == "private":
                data["flags"] = EPHEMERAL
            if len(parts) > 1 or len(replies) > 1 or first.picture is not None:
                self._spawn(self._follow(interaction["token"], parts[1:], first, replies[1:]))
            return 200, {"type": CHANNEL_MESSAGE, "data": data}
        self._spawn(self._deferred(interaction["token"], task))
        return 200, {"type": DEFERRED, "data": {"flags": EPHEMERAL}}

    def _spawn(self, coro: Any) -> None:
        t = asyncio.create_task(coro)
        self._later.add(t)
        t.add_done_callback(self._later.discard)

    async def _follow(self, token: str, parts: list[str], first: Reply, replies: list[Reply]) -> None:
        """The rest of an answer, after the interaction's response: the first reply's other
        parts and its picture, then each further reply (ephemeral when private)."""
        await asyncio.sleep(0.5)  # after the response is on its way (a follow-up needs it)
        for p in parts:
            await self.rest._send("POST", f"/webhooks/{self.s.discord_app_id}/{token}",
                                  {"content": p, "flags": EPHEMERAL if first.audience == "private" else 0})
        await self.rest._attach(f"/webhooks/{self.s.discord_app_id}/{token}", first)
        for r in replies:
            await self.rest.follow_up(token, r)

    async def _deferred(self, token: str, task: asyncio.Task) -> None:
        """A deferred (ephemeral) answer: the original shows the private replies' first
        message, or a note; every reply then goes as a follow-up of its own audience."""
        try:
            replies = await task
        except Exception as e:
            log.error("discord: a command failed: %s", type(e).__name__, exc_info=e)
            await self.rest.edit_original(token, "that failed; the fault is logged")
            return
        await self.rest.edit_original(token, "done" if any(r.audience == "room" for r in replies) else "…")
        for r in replies:
            await self.rest.follow_up(token, r)
