"""A Tablestream bot in one file: plays a seat over the gateway (README "Play over HTTP").

It subscribes to the game's WebSocket as its seat; on each `your_turn` it asks /moves for
the legal commands, picks one at random and sends it with POST /commands under an
Idempotency-Key naming the position (a retry is never applied twice). It exits 0 when a
view says the game is over.

    GATEWAY_URL=http://127.0.0.1:8080 SEAT_TOKEN=... python bot.py GAME_ID

GAME_ID is the first argument (or GAME_ID); SEAT_TOKEN, the seat's secret token, is read
from the environment only (a command line is visible to every user of the machine).
Needs httpx and websockets (`pip install httpx websockets`). BOT_TIMEOUT_S (default 600)
bounds a whole game; BOT_SEED makes the choices repeatable.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from urllib.parse import quote

import httpx
import websockets


class Bot:
    def __init__(self, base: str, game_id: str, token: str, rnd: random.Random) -> None:
        self.path = f"/games/{quote(game_id, safe='')}"
        self.socket_url = base.replace("http", "ws", 1) + self.path + "/socket"
        self.token, self.rnd = token, rnd
        self.http = httpx.AsyncClient(base_url=base, timeout=30, headers={"Authorization": f"Bearer {token}"})
        self.sent = 0

    async def play_once(self) -> bool:
        """Send one legal command if this seat must act; True once the game is over."""
        moves = await self.http.get(self.path + "/moves")
        if moves.status_code != 200:
            raise SystemExit(f"python-bot: moves: {moves.status_code} {moves.text}")
        body = moves.json()
        if body["over"]:
            return True
        if not body["moves"]:
            return False  # not this seat's turn at this position
        pick = self.rnd.choice(body["moves"])
        out = await self.http.post(self.path + "/commands", json={"command": pick["text"]},
                                   headers={"Idempotency-Key": f"python-bot-{body['seq']}"})
        if out.status_code == 200:
            self.sent += 1
        elif out.status_code == 422 or out.json().get("code") == "game_over":
            print(f"python-bot: {pick['text']} refused: {out.json()['code']}", file=sys.stderr)
        else:
            raise SystemExit(f"python-bot: command {pick['text']}: {out.status_code} {out.text}")
        return False

    async def run(self) -> None:
        async with websockets.connect(self.socket_url) as ws:
            await ws.send(json.dumps({"type": "subscribe", "token": self.token, "after": 0}))
            async for raw in ws:
                m = json.loads(raw)
                if m["type"] == "view" and m["doc"]["over"]:
                    return
                if m["type"] == "error":
                    raise SystemExit(f"python-bot: socket: {m['code']}: {m['message']}")
                # Messages are read in order and a command is answered before the next one
                # is read, so a your_turn for a position already played finds no moves.
                if m["type"] == "your_turn" and await self.play_once():
                    return
        raise SystemExit("python-bot: the socket closed before the game ended")


async def main() -> int:
    base = os.environ.get("GATEWAY_URL", "http://127.0.0.1:8080").rstrip("/")
    game_id = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GAME_ID", "")
    token = os.environ.get("SEAT_TOKEN", "")
    if not game_id or not token:
        print("usage: SEAT_TOKEN=<token> [GATEWAY_URL=...] python bot.py GAME_ID", file=sys.stderr)
        return 2
    seed = os.environ.get("BOT_SEED")
    bot = Bot(base, game_id, token, random.Random(int(seed) if seed else None))
    try:
        await asyncio.wait_for(bot.run(), float(os.environ.get("BOT_TIMEOUT_S", "600")))
    finally:
        await bot.http.aclose()
    print(f"python-bot: game {game_id} over after {bot.sent} commands of this seat")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
