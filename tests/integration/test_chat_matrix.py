"""Play in chat on Matrix, end to end against a real homeserver: Synapse (SQLite, loopback),
Redis, `tablestream up`, a gateway, and `tablestream chat matrix` as a process. Three users
with their own matrix-nio clients play a whole 3-player 7 Wonders game in one room through
the bot, choosing among the legal commands it sends each of them in their direct-message
room. Each sees their hand only in their DM (a room of two: the bot and them), the game
room never carries any seat's private text, and the game's log verifies. `board` posts the
public board's picture too: an m.image event in the game room whose media, downloaded from
the homeserver, is a PNG; `hand`'s picture (the seat's own board) goes to its owner's DM only."""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

import httpx
import pytest
from nio import (AsyncClient, AsyncClientConfig, InviteMemberEvent, LoginError, MatrixRoom, RoomCreateError,
                 RoomMessageImage, RoomMessageNotice, RoomMessageText)

from services.chat.picture import png_size

from tests.integration.support_gateway import Deployment, deployment
from tests.integration.support_synapse import Synapse, synapse

__all__ = ["deployment", "synapse"]

GAME_S = 600.0  # the whole game's bound on the shared machine (typically far less)
PRIVATE_MARKS = ("your hand:", "your choice:", "legal commands", "done: ", "your view (seat")


@dataclass
class Seen:
    room: str
    sender: str
    body: str
    html: str
    url: str = ""  # an m.image's mxc:// URI
    info: dict = field(default_factory=dict)


@dataclass
class Player:
    """A Matrix user with a matrix-nio client that records every message it sees."""

    hs: Synapse
    name: str
    password: str = field(default_factory=lambda: secrets.token_hex(12))
    user_id: str = ""
    client: AsyncClient | None = None
    seen: list[Seen] = field(default_factory=list)
    bot: str = ""
    game_room: str = ""
    cursor: int = 0
    task: asyncio.Task | None = None
    waits: list[float] = field(default_factory=list)  # seconds from a question to its private answer

    async def start(self, bot: str) -> None:
        self.bot = bot
        self.client = AsyncClient(self.hs.base, self.user_id, config=AsyncClientConfig(encryption_enabled=False))
        res = await self.client.login(password=self.password)
        assert not isinstance(res, LoginError), res
        await self.client.sync(timeout=0, full_state=True)
        self.client.add_event_callback(self._on_message, (RoomMessageText, RoomMessageNotice))
        self.client.add_event_callback(self._on_image, RoomMessageImage)
        self.client.add_event_callback(self._on_invite, InviteMemberEvent)
        self.task = asyncio.create_task(self.client.sync_forever(timeout=3000))

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        if self.client is not None:
            await self.client.close()

    async def _on_message(self, room: MatrixRoom, event) -> None:  # type: ignore[no-untyped-def]
        self.seen.append(Seen(room.room_id, event.sender, event.body, getattr(event, "formatted_body", "") or ""))

    async def _on_image(self, room: MatrixRoom, event: RoomMessageImage) -> None:
        info = (event.source.get("content") or {}).get("info") or {}
        self.seen.append(Seen(room.room_id, event.sender, event.body, "", url=event.url, info=info))

    async def download(self, mxc: str) -> bytes:
        """Media from the homeserver's repository, as clients fetch it now (authenticated media)."""
        server, media_id = mxc.removeprefix("mxc://").split("/", 1)
        async with httpx.AsyncClient(base_url=self.hs.base, timeout=30) as http:
            res = await http.get(f"/_matrix/client/v1/media/download/{server}/{media_id}",
                                 headers={"Authorization": f"Bearer {self.client.access_token}"})
        assert res.status_code == 200, res.text
        return res.content

    async def _on_invite(self, room: MatrixRoom, event: InviteMemberEvent) -> None:
        if event.state_key == self.user_id and event.membership == "invite" and event.sender == self.bot:
            await self.client.join(room.room_id)  # the bot's direct-message room

    async def say(self, text: str) -> None:
        await self.client.room_send(self.game_room, "m.room.message", {"msgtype": "m.text", "body": text})

    def bot_said(self, where: str, images: bool = False) -> list[Seen]:
        """The bot's text messages (or its m.image events) in the game room ("room") or in any
        other room ("dm")."""
        return [s for s in self.seen if s.sender == self.bot and (s.room == self.game_room) == (where == "room")
                and bool(s.url) is images]

    async def ask(self, text: str, timeout: float = 120.0) -> str:
        """Say `text` in the game room; the bot's next private reply (in the DM room)."""
        before, t = len(self.bot_said("dm")), time.monotonic()
        await self.say(text)
        got = await wait_for(lambda: len(self.bot_said("dm")) > before, timeout)
        assert got
        self.waits.append(time.monotonic() - t)
        return self.bot_said("dm")[before].body

    async def pinged_after(self, since: int, timeout: float) -> None:
        """Wait for a turn ping mentioning this user among the bot's room messages from index
        `since` on, or for the game's end, or `timeout` (then the caller asks again)."""
        def pinged() -> bool:
            return any((self.user_id in s.html and "your turn" in s.body) or s.body.startswith("Game over")
                       for s in self.bot_said("room")[since:])
        try:
            await wait_for(pinged, timeout)
        except AssertionError:
            pass

    async def room_line(self, pattern: str, timeout: float = 120.0) -> re.Match:
        return await wait_for(lambda: next((m for s in self.bot_said("room") if (m := re.search(pattern, s.body))),
                                           None), timeout)


async def wait_for(cond, timeout: float):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        assert time.monotonic() < deadline, "timed out waiting for the homeserver"
        await asyncio.sleep(0.05)


async def play_seat(p: Player, rng: random.Random) -> int:
    """Play `p`'s seat to the end with legal commands the bot lists privately; the number played."""
    played, since = 0, 0
    while True:
        answer = await p.ask("!ts moves")
        if "the game is over" in answer:
            return played
        if "not your turn" in answer:
            await p.pinged_after(since, 5.0)  # the bot mentions whoever must act next
            continue
        assert "legal commands" in answer, answer
        moves = [m for m in answer.split("\n")[1:] if m and not m.startswith("…")]
        if played % 3 == 0:
            view = await p.ask("!ts hand")
            assert "your hand:" in view, view
        pick = rng.choice(moves)
        since = len(p.bot_said("room"))
        done = await p.ask(f"!ts play {pick}")
        assert done.startswith(f"done: {pick}"), done
        played += 1


async def test_three_users_play_seven_wonders_in_a_matrix_room(deployment: Deployment, synapse: Synapse) -> None:
    t0 = time.monotonic()
    bot_password = secrets.token_hex(12)
    bot = await asyncio.to_thread(synapse.register, "tsbot", bot_password)
    players = [Player(synapse, n) for n in ("alice", "bob", "carol")]
    for p in players:
        p.user_id = await asyncio.to_thread(synapse.register, p.name, p.password)
    env = {"MATRIX_HOMESERVER": synapse.base, "MATRIX_USER": bot, "MATRIX_PASSWORD": bot_password,
           "TABLESTREAM_GATEWAY_URL": deployment.gateways[0], "TABLESTREAM_CHAT_POLL_S": "0.2"}
    proc = deployment.start("matrix", "chat", "matrix", env=env)
    try:
        for p in players:
            await p.start(bot)
        alice = players[0]
        made = await alice.client.room_create(name="tablestream", invite=[bot, players[1].user_id,
                                                                           players[2].user_id])
        assert not isinstance(made, RoomCreateError), made
        for p in players:
            p.game_room = made.room_id
        for p in players[1:]:
            await p.client.join(made.room_id)

        def bot_joined() -> bool:
            room = alice.client.rooms.get(made.room_id)
            assert proc.poll() is None, (deployment.logs / "matrix.out").read_text()
            return room is not None and bot in room.users
        await wait_for(bot_joined, 120.0)
        t_ready = time.monotonic()

        await alice.say("!ts open seven_wonders players=3")
        game = (await alice.room_line(r"\(game ([A-Za-z0-9_.-]+)\)")).group(1)
        for p in players:
            await p.say("!ts join")
            await p.room_line(rf"{p.name} takes seat \d")
        await alice.room_line(r"The game begins")

        # `board`: the text board, then its picture, an m.image whose media is a PNG
        await players[1].say("!ts board")
        await alice.room_line(r"the board at position \d+")
        image = await wait_for(lambda: next(iter(alice.bot_said("room", images=True)), None), 120.0)
        assert image.url.startswith("mxc://") and "board at position" in image.body
        png = await alice.download(image.url)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png_size(png) == (image.info["w"], image.info["h"])
        assert image.info["mimetype"] == "image/png" and image.info["size"] == len(png) and image.info["w"] == 1000

        played = await asyncio.wait_for(asyncio.gather(*(play_seat(p, random.Random(f"{game}:{p.name}"))
                                                         for p in players)), GAME_S)
        assert all(n >= 18 for n in played), played  # three ages of six turns each
        await alice.room_line(r"Game over: ", 60.0)
        t_game = time.monotonic()

        # Secrecy: the room never carries private text; each hand only in its owner's DM.
        room_text = "\n".join(s.body + "\n" + s.html for p in players for s in p.bot_said("room"))
        for mark in PRIVATE_MARKS:
            assert mark not in room_text, mark
        for p in players:
            dms = p.bot_said("dm")
            hands = {line for s in dms for line in s.body.split("\n") if line.startswith("your hand: ")}
            assert hands, f"{p.name} never saw a hand"
            for room_id in {s.room for s in dms}:
                members = set(p.client.rooms[room_id].users)
                assert members == {bot, p.user_id}, members
            for line in hands:
                cards = line.removeprefix("your hand: ")
                if cards.strip() == "-":
                    continue  # an empty hand, shown as "-", tells nothing (and "-" is in room text)
                assert cards not in room_text
                for other in players:
                    if other is not p:
                        # whole lines: a hand passed on is a prefix of the hand it was
                        # ("your hand: A, B" in "your hand: A, B, C"), not a leak; and not in
                        # the other's own DMs, where its own hand may hold the same names
                        # (Loom, Glassworks and Press are cards of ages I and II both)
                        own = {s.room for s in other.bot_said("dm")}
                        assert not any(line in s.body.split("\n") for s in other.seen if s.room not in own), \
                            (p.name, other.name)
            for other in players:  # and no message of p's DM rooms ever reached another user
                if other is not p:
                    assert not {s.room for s in dms} & {s.room for s in other.seen}, (p.name, other.name)
        # One picture went to the game room, the board's; each `hand`'s (the seat's own board)
        # only to its owner's DM, where no other player is.
        in_room = {s.url for p in players for s in p.bot_said("room", images=True)}
        assert in_room == {image.url}
        for p in players:
            mine = p.bot_said("dm", images=True)
            assert mine and all(s.body.startswith("your board (seat ") for s in mine), p.name
            assert {s.room for s in mine} <= {s.room for s in p.bot_said("dm")}  # the DMs checked below
            for other in players:
                if other is not p:
                    assert not {s.url for s in mine} & {s.url for s in other.seen}, (p.name, other.name)
        own = await alice.download(alice.bot_said("dm", images=True)[-1].url)
        assert own[:8] == b"\x89PNG\r\n\x1a\n"
        # Nobody's private text reached another user at all, in any room.
        for p in players:
            mine = {s.body for s in p.bot_said("dm")}
            for other in players:
                if other is not p:
                    own = {s.room for s in other.bot_said("dm")}  # its own hands may read the same
                    assert not mine & {s.body for s in other.seen if s.room != other.game_room and s.room not in own
                                       and s.body.startswith(("your hand", "your view"))}

        verify = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "services.cli", "verify", game],
                                         capture_output=True, text=True, timeout=240,
                                         env={**__import__("os").environ, "REDIS_URL": deployment.url})
        assert verify.returncode == 0 and "1 of 1" in verify.stdout, verify.stdout + verify.stderr
        waits = [w for p in players for w in p.waits]
        print(f"matrix e2e: synapse start {synapse.start_s:.1f} s, bot ready {t_ready - t0:.1f} s, "
              f"game {t_game - t_ready:.1f} s, {sum(played)} commands, {len(waits)} private answers "
              f"(median {statistics.median(waits):.2f} s, max {max(waits):.2f} s)")
        log_text = (deployment.logs / "matrix.out").read_text()
        assert bot_password not in log_text
    finally:
        for p in players:
            await p.stop()
        proc.terminate()
        try:
            await asyncio.to_thread(proc.wait, 60)
        except subprocess.TimeoutExpired:
            proc.kill()
            await asyncio.to_thread(proc.wait, 30)
