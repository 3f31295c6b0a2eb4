"""The chat tests' network edge: a local HTTP server standing in for Discord's and Slack's
REST APIs (it records every request: follow-ups, channel messages, DMs, chat.postMessage,
response_url posts, Discord's multipart file uploads with their files, Slack's
files.getUploadURLExternal / upload / files.completeUploadExternal), a Discord signing key,
and `tablestream chat serve` as a process."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
import urllib.parse
from dataclasses import dataclass, field

import httpx
from aiohttp import web
from nacl.signing import SigningKey

from tests.integration.support_gateway import Deployment, START_S, free_port

SLACK_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
DISCORD_BOT_TOKEN = "discord-bot-token-sekrit"
SLACK_BOT_TOKEN = "xoxb-slack-bot-token-sekrit"
APP_ID = "4242"


@dataclass
class Recorded:
    method: str
    path: str
    body: dict
    headers: dict[str, str]
    files: dict[str, tuple[str, str, bytes]] = field(default_factory=dict)
    """A multipart upload's files: form field name -> (filename, content type, bytes)."""
    raw: bytes = b""
    """The request body as sent (Slack's file upload to the URL it gave)."""


@dataclass
class FakePlatforms:
    """Records what the chat service sends to the platforms' REST APIs."""

    calls: list[Recorded] = field(default_factory=list)
    base: str = ""
    runner: web.AppRunner | None = None

    async def start(self) -> None:
        async def any_request(request: web.Request) -> web.Response:
            ctype = request.headers.get("Content-Type", "")
            files: dict[str, tuple[str, str, bytes]] = {}
            raw = b""
            if ctype.startswith("multipart/form-data"):  # Discord's file upload: payload_json + files[n]
                body = {}
                async for part in await request.multipart():
                    data = await part.read()
                    if part.filename is not None:
                        files[part.name] = (part.filename, part.headers.get("Content-Type", ""), bytes(data))
                    elif part.name == "payload_json":
                        body = json.loads(data)
            else:
                raw = await request.read()
                if "json" in ctype:
                    body = json.loads(raw or b"{}")
                elif request.path.startswith("/slack/upload/"):
                    body = {}
                else:
                    body = {k: v[0] for k, v in urllib.parse.parse_qs(raw.decode()).items()}
            body = {**dict(request.query), **body}  # slack_sdk sends some methods' arguments in the query
            self.calls.append(Recorded(request.method, request.path, body, dict(request.headers), files, raw))
            if request.path == "/discord/users/@me/channels":
                return web.json_response({"id": f"dm-{body.get('recipient_id')}"})
            if request.path == "/slack/api/files.getUploadURLExternal":
                fid = f"F{len(self.calls)}"
                return web.json_response({"ok": True, "file_id": fid, "upload_url": f"{self.base}/slack/upload/{fid}"})
            if request.path.startswith("/slack/upload/"):
                return web.Response(text="OK - " + str(len(raw)))
            if request.path == "/slack/api/files.completeUploadExternal":
                done = json.loads(body.get("files", "[]"))
                return web.json_response({"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in done]})
            if request.path.startswith("/slack/api/"):
                return web.json_response({"ok": True, "channel": body.get("channel"), "ts": "1.0"})
            return web.json_response({"id": str(len(self.calls))})

        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", any_request)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        port = free_port()
        await web.TCPSite(self.runner, "127.0.0.1", port).start()
        self.base = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


def discord_key() -> SigningKey:
    return SigningKey.generate()


def discord_headers(key: SigningKey, body: bytes, ts: str | None = None) -> dict[str, str]:
    ts = ts or str(int(time.time()))
    sig = key.sign(ts.encode() + body).signature.hex()
    return {"X-Signature-Ed25519": sig, "X-Signature-Timestamp": ts, "Content-Type": "application/json"}


def slack_headers(body: bytes, ts: str | None = None, secret: str = SLACK_SECRET) -> dict[str, str]:
    ts = ts or str(int(time.time()))
    sig = "v0=" + hmac.new(secret.encode(), f"v0:{ts}:".encode() + body, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": sig,
            "Content-Type": "application/x-www-form-urlencoded"}


def start_chat(d: Deployment, platforms: str, key: SigningKey, defer_s: str = "2.0") -> str:
    """`tablestream chat serve` on a free port, both platforms pointed at `platforms`."""
    port = free_port()
    env = {"TABLESTREAM_GATEWAY_URL": d.gateways[0], "TABLESTREAM_CHAT_POLL_S": "0.2", "TABLESTREAM_CHAT_DEFER_S": defer_s,
           "DISCORD_PUBLIC_KEY": key.verify_key.encode().hex(), "DISCORD_APP_ID": APP_ID,
           "DISCORD_BOT_TOKEN": DISCORD_BOT_TOKEN, "DISCORD_API_BASE": platforms + "/discord",
           "SLACK_SIGNING_SECRET": SLACK_SECRET, "SLACK_BOT_TOKEN": SLACK_BOT_TOKEN,
           "SLACK_API_BASE": platforms + "/slack/api/"}
    p = d.start("chat", "chat", "serve", "--host", "127.0.0.1", "--port", str(port), env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if p.poll() is not None:
            raise AssertionError(f"chat exited with {p.returncode}: {(d.logs / 'chat.out').read_text()}")
        try:
            if httpx.get(base + "/health", timeout=2).status_code == 200:
                return base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("the chat service did not start")


async def wait_for(cond, timeout: float = 60.0, step: float = 0.05):  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        got = cond()
        if got:
            return got
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(step)
