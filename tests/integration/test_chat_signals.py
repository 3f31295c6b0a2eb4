"""The chat processes stop cleanly on SIGTERM (as a service manager or `docker stop` sends
it): `tablestream chat serve` and `tablestream chat matrix` (against a real Synapse), each
started as a subprocess on a real Redis, made busy, then sent SIGTERM: each must exit with
status 0 within STOP_S, with no traceback in its output."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from nio import AsyncClient, AsyncClientConfig, JoinedMembersResponse, LoginError, RoomCreateError

from tests.integration.support_chat import discord_headers, discord_key
from tests.integration.support_gateway import free_port
from tests.integration.support_synapse import Synapse, synapse

__all__ = ["synapse"]

STOP_S = 15.0  # the processes bound their own stop to a few seconds; this machine is shared and slow
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def start(args: list[str], env: dict[str, str], out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "services.cli", *args], stdout=open(out, "w"),
                            stderr=subprocess.STDOUT, env={**os.environ, "REDIS_URL": REDIS_URL, **env})


def stops_cleanly(proc: subprocess.Popen, out: Path) -> float:
    """SIGTERM `proc`; the seconds it took to exit (status 0, no traceback) or a failure."""
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(STOP_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(f"no exit within {STOP_S} s of SIGTERM: {out.read_text()[-3000:]}") from None
    took = time.monotonic() - t0
    text = out.read_text()
    assert code == 0, f"exit status {code} after SIGTERM: {text[-3000:]}"
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]
    return took


def test_chat_serve_stops_on_sigterm(tmp_path: Path) -> None:
    key = discord_key()
    port = free_port()
    env = {"DISCORD_PUBLIC_KEY": key.verify_key.encode().hex(), "DISCORD_APP_ID": "4242",
           "DISCORD_BOT_TOKEN": "t", "DISCORD_API_BASE": "http://127.0.0.1:9/discord",
           "SLACK_SIGNING_SECRET": "s", "SLACK_BOT_TOKEN": "xoxb-t", "SLACK_API_BASE": "http://127.0.0.1:9/",
           "TABLESTREAM_GATEWAY_URL": "http://127.0.0.1:9", "TABLESTREAM_CHAT_POLL_S": "0.05"}
    out = tmp_path / "chat.out"
    proc = start(["chat", "serve", "--port", str(port)], env, out)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, out.read_text()
            assert time.monotonic() < deadline, "chat serve did not start"
            try:
                if httpx.get(base + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        body = json.dumps({"type": 2, "id": "i1", "application_id": "4242", "token": "tok", "channel_id": "c1",
                           "member": {"user": {"id": "1", "username": "ada"}},
                           "data": {"id": "c", "name": "ts", "type": 1,
                                    "options": [{"type": 3, "name": "command", "value": "help"}]}}).encode()
        res = httpx.post(base + "/discord/interactions", content=body, headers=discord_headers(key, body), timeout=30)
        assert res.status_code == 200, res.text
        took = stops_cleanly(proc, out)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    print(f"chat serve stopped {took:.2f} s after SIGTERM")


async def test_chat_matrix_stops_on_sigterm(synapse: Synapse, tmp_path: Path) -> None:
    bot_password, password = secrets.token_hex(12), secrets.token_hex(12)
    bot = await asyncio.to_thread(synapse.register, "sigbot", bot_password)
    user = await asyncio.to_thread(synapse.register, "sigterm_user", password)
    out = tmp_path / "matrix.out"
    proc = start(["chat", "matrix"], {"MATRIX_HOMESERVER": synapse.base, "MATRIX_USER": bot,
                                      "MATRIX_PASSWORD": bot_password, "TABLESTREAM_GATEWAY_URL": "http://127.0.0.1:9",
                                      "TABLESTREAM_CHAT_POLL_S": "0.05"}, out)
    client = AsyncClient(synapse.base, user, config=AsyncClientConfig(encryption_enabled=False))
    try:
        assert not isinstance(await client.login(password=password), LoginError)
        made = await client.room_create(name="sigterm", invite=[bot])
        assert not isinstance(made, RoomCreateError), made
        deadline = time.monotonic() + 120
        while True:  # the bot is in its sync loop once it has joined the room it was invited to
            assert proc.poll() is None, out.read_text()
            assert time.monotonic() < deadline, "the bot never joined: " + out.read_text()
            members = await client.joined_members(made.room_id)
            if isinstance(members, JoinedMembersResponse) and bot in {m.user_id for m in members.members}:
                break
            await asyncio.sleep(0.2)
        took = await asyncio.to_thread(stops_cleanly, proc, out)
    finally:
        await client.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert bot_password not in out.read_text()
    print(f"chat matrix stopped {took:.2f} s after SIGTERM")
