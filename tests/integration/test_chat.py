"""Play in chat over real processes: Redis, `tablestream up`, a gateway, `tablestream chat
serve`, and a local HTTP server standing in for Discord's and Slack's REST APIs. Requests
are built and signed here as the platforms sign them. A whole 7 Wonders game (two users
and a bot seat) through Discord interactions; part of a Duel through Slack's slash command;
bad signatures, timestamps and bodies refused; no private text ever posted to a room. `board`
also posts the spectator's board as a PNG (a Discord attachment, a Slack file shared to the
channel), the very picture of the gateway's public SVG at that position; `hand`'s picture
(the seat's own board) is on Discord an ephemeral upload to that interaction only, on Slack
none; nothing else is ever uploaded to a channel."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import time
import urllib.parse
from collections.abc import AsyncIterator

import httpx
import pytest
import redis.asyncio as aioredis

from events import keys

from services.chat.picture import png_size, to_png
from tests.integration.support_chat import (APP_ID, DISCORD_BOT_TOKEN, SLACK_BOT_TOKEN, FakePlatforms, Recorded,
                                            discord_headers, discord_key, slack_headers, start_chat, wait_for)
from tests.integration.support_gateway import Deployment, deployment

__all__ = ["deployment"]

_ids = itertools.count(1)


@pytest.fixture
async def platforms() -> AsyncIterator[FakePlatforms]:
    p = FakePlatforms()
    await p.start()
    try:
        yield p
    finally:
        await p.stop()


@pytest.fixture
async def service(deployment: Deployment, platforms: FakePlatforms,
                  request: pytest.FixtureRequest) -> AsyncIterator[tuple[str, object]]:
    """`tablestream chat serve`; a test marked `defer_s(...)` sets TABLESTREAM_CHAT_DEFER_S."""
    key = discord_key()
    mark = request.node.get_closest_marker("defer_s")
    defer = str(mark.args[0]) if mark else "2.0"
    base = await asyncio.to_thread(start_chat, deployment, platforms.base, key, defer)
    try:
        yield base, key
    finally:
        proc = deployment.procs.pop()
        proc.terminate()
        try:
            await asyncio.to_thread(proc.wait, 30)
        except Exception:
            proc.kill()
            raise AssertionError("chat serve did not stop on SIGTERM: " + (deployment.logs / "chat.out").read_text())


class DiscordUser:
    def __init__(self, http: httpx.AsyncClient, key, fake: FakePlatforms, channel: str, uid: str, name: str,
                 seen: list) -> None:
        self.http, self.key, self.fake, self.channel, self.uid, self.name = http, key, fake, channel, uid, name
        self.seen = seen  # every (audience, text) this test saw answered, for the secrecy check
        self.token = ""  # the last interaction's token (its follow-ups' webhook path)

    def _body(self, kind: int, text: str, token: str, focused: bool = False) -> bytes:
        opt = {"type": 3, "name": "command", "value": text, **({"focused": True} if focused else {})}
        return json.dumps({"type": kind, "id": f"i{token}", "application_id": APP_ID, "token": token,
                           "channel_id": self.channel, "guild_id": "g1",
                           "member": {"user": {"id": self.uid, "username": self.name.lower(),
                                               "global_name": self.name}},
                           "data": {"id": "c1", "name": "ts", "type": 1, "options": [opt]}}).encode()

    async def ask(self, text: str) -> list[tuple[str, str]]:
        """The messages answering one slash command: the response, or a deferred one's
        follow-ups (audience from the ephemeral flag)."""
        token = self.token = f"tok{next(_ids)}"
        body = self._body(2, text, token)
        res = await self.http.post("/discord/interactions", content=body, headers=discord_headers(self.key, body))
        assert res.status_code == 200, res.text
        r = res.json()
        if r["type"] == 4:
            out = [("private" if r["data"].get("flags", 0) & 64 else "room", r["data"]["content"])]
        else:
            assert r == {"type": 5, "data": {"flags": 64}}
            path = f"/discord/webhooks/{APP_ID}/{token}"
            calls = await wait_for(lambda: [c for c in self.fake.calls if c.path == path and c.method == "POST"])
            out = [("private" if c.body.get("flags", 0) & 64 else "room", c.body["content"]) for c in calls]
        self.seen.extend(out)
        return out

    async def complete(self, text: str) -> list[str]:
        token = f"tok{next(_ids)}"
        body = self._body(4, text, token, focused=True)
        res = await self.http.post("/discord/interactions", content=body, headers=discord_headers(self.key, body))
        assert res.status_code == 200 and res.json()["type"] == 8, res.text
        return [c["value"] for c in res.json()["data"]["choices"]]


def _block(text: str) -> list[str]:
    m = re.search(r"```\n(.*?)\n```", text, re.S)
    return m.group(1).split("\n") if m else []


PNG = b"\x89PNG\r\n\x1a\n"


def discord_uploads(fake: FakePlatforms, path: str | None = None) -> list[Recorded]:
    """Every Discord request that carried a file (multipart payload_json + files[n]), or those to `path`."""
    return [c for c in fake.calls if c.path.startswith("/discord/") and c.files and path in (None, c.path)]


async def board_png(gw: httpx.AsyncClient, gid: str, seq: int, token: str | None = None) -> bytes:
    """The board at `seq` drawn as the service draws it: the gateway's SVG as a spectator
    (no token) or as the seat whose token it is."""
    res = await gw.get(f"/games/{gid}/svg", params={"at": seq},
                       headers={"Authorization": f"Bearer {token}"} if token else {})
    assert res.status_code == 200, res.text
    return await asyncio.to_thread(to_png, res.text)


async def seat_token(deployment: Deployment, platform: str, room: str, user: str) -> str:
    """The seat token the chat service holds for `user` (its Redis record of the room)."""
    r = aioredis.from_url(deployment.url)
    try:
        return json.loads(await r.hget(keys.chat_room(platform, room), f"user:{user}"))["token"]
    finally:
        await r.aclose()


def check_discord_upload(c: Recorded, path: str, private: bool = False) -> bytes:
    """A board picture posted as Discord documents file uploads: to `path`, ephemeral
    (flag 64) if and only if `private`, one attachment `files[0]` named in payload_json, a
    PNG of sane size."""
    assert c.method == "POST" and c.path == path, c.path
    assert bool(c.body.get("flags", 0) & 64) is private
    assert c.body["attachments"][0]["id"] == 0 and c.body["attachments"][0]["filename"] == "board.png"
    assert re.search(r"board( \(seat \d\))? at position \d+", c.body["attachments"][0]["description"])
    name, ctype, png = c.files["files[0]"]
    assert (name, ctype) == ("board.png", "image/png") and list(c.files) == ["files[0]"]
    assert png[:8] == PNG and png_size(png)[0] == 1000 and 100 < png_size(png)[1] <= 4000
    return png


def discord_room_texts(fake: FakePlatforms, seen: list, channel: str) -> list[str]:
    """Everything the channel could see: non-ephemeral responses and follow-ups, channel messages."""
    out = [t for a, t in seen if a == "room"]
    for c in fake.calls:
        if c.path.startswith("/discord/webhooks/") and c.method == "POST" and not c.body.get("flags", 0) & 64:
            out.append(c.body["content"])
        if c.path == f"/discord/channels/{channel}/messages":
            out.append(c.body["content"])
    return out


async def test_discord_refuses_bad_signatures_timestamps_and_bodies(service, platforms: FakePlatforms) -> None:
    base, key = service
    other = discord_key()
    body = b'{"type": 1, "id": "1", "application_id": "4242", "token": "t"}'
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        ok = await http.post("/discord/interactions", content=body, headers=discord_headers(key, body))
        assert ok.status_code == 200 and ok.json() == {"type": 1}
        good = discord_headers(key, body)
        stale_ts = str(int(time.time()) - 3600)
        cases = [
            discord_headers(other, body),  # another key
            {**good, "X-Signature-Timestamp": str(int(good["X-Signature-Timestamp"]) + 1)},  # timestamp changed
            discord_headers(key, body, ts=stale_ts),  # correctly signed, an hour old
            {**good, "X-Signature-Ed25519": "zz"},
            {"Content-Type": "application/json"},
        ]
        for headers in cases:
            res = await http.post("/discord/interactions", content=body, headers=headers)
            assert res.status_code == 401, headers
        tampered = body.replace(b'"t"', b'"u"')
        res = await http.post("/discord/interactions", content=tampered, headers=good)
        assert res.status_code == 401
        junk = b"not json"
        res = await http.post("/discord/interactions", content=junk, headers=discord_headers(key, junk))
        assert res.status_code == 400
    assert platforms.calls == []


async def test_a_whole_seven_wonders_game_through_discord(service, platforms: FakePlatforms,
                                                          deployment: Deployment) -> None:
    base, key = service
    seen: list[tuple[str, str]] = []
    channel = "c-7w"
    async with httpx.AsyncClient(base_url=base, timeout=60) as http, \
            httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as gw:
        ada = DiscordUser(http, key, platforms, channel, "111", "Ada", seen)
        bob = DiscordUser(http, key, platforms, channel, "222", "Bob", seen)
        eve = DiscordUser(http, key, platforms, channel, "333", "Eve", seen)
        assert (await ada.ask("help"))[0][0] == "private"
        assert await ada.complete("bo") == ["bot", "board"]
        opened = await ada.ask("open seven_wonders 3p")
        assert opened[0][0] == "room" and "for 3 players" in opened[0][1]
        gid = re.search(r"\(game ([^)]+)\)", opened[0][1]).group(1).replace("\\_", "_")  # markdown-escaped
        assert (await ada.ask("open arkadia"))[0] == ("private", "this room already has a game "
                                                                 f"({gid}); it must end first".replace("_", "\\_"))
        assert (await ada.ask("join"))[0][0] == "room"
        assert (await bob.ask("join"))[0][0] == "room"
        assert "only the user who opened" in (await bob.ask("bot 2 greedy"))[0][1]
        assert "no game in play" in (await eve.ask("play discard Loom"))[0][1]
        await ada.ask("bot 2 greedy")
        await wait_for(lambda: any("The game begins" in t for t in discord_room_texts(platforms, seen, channel)))
        assert "you hold no seat" in (await eve.ask("hand"))[0][1]
        assert "you hold no seat" in (await eve.ask("play discard Loom"))[0][1]

        hands: set[str] = set()
        plays: list[str] = []
        boards: list[int] = []
        rnd = random.Random(7)
        typo_done = completed = False
        deadline = asyncio.get_running_loop().time() + 600
        while not any("Game over" in t for t in discord_room_texts(platforms, seen, channel)):
            assert asyncio.get_running_loop().time() < deadline, "the game did not end in time"
            acted = False
            for user in (ada, bob):
                (aud, text), *_ = await user.ask("moves")
                assert aud == "private"
                moves = _block(text)
                if not moves:
                    continue
                if len(plays) % 6 == 0:
                    (aud, text), *_ = await user.ask("hand")
                    assert aud == "private"
                    hands.update(line for line in _block(text) if line.startswith(("your hand:", "your choice:")))
                if len(plays) == 6 and not boards:  # the public board, by a user who holds no seat
                    (aud, text), *_ = await eve.ask("board")
                    assert aud == "room" and "the board at position" in text, text
                    seq = int(re.search(r"position (\d+)", text).group(1))
                    path = f"/discord/webhooks/{APP_ID}/{eve.token}"
                    up = (await wait_for(lambda: discord_uploads(platforms, path)))[0]
                    assert check_discord_upload(up, path) == await board_png(gw, gid, seq)
                    boards.append(seq)
                if not completed:
                    first = moves[0].split()[0]
                    assert moves[0] in await user.complete(f"play {first} ")
                    completed = True
                if not typo_done:
                    word, _, rest = moves[0].partition(" ")
                    (aud, text), *_ = await user.ask(f"play {word}x {rest}")
                    assert aud == "private" and "Did you mean" in text and moves[0] in text, text
                    typo_done = True
                move = rnd.choice(moves)
                (aud, text), *_ = await user.ask(f"play {move}")
                assert (aud, text) == ("private", f"done: {move}"), text
                plays.append(move)
                acted = True
            if not acted:
                await asyncio.sleep(0.2)
        verdict = (await gw.get(f"/games/{gid}/verify")).json()
        assert verdict.get("ok"), verdict
        # the game ended and is no longer the room's: a new one may open
        again = await ada.ask("open seven_wonders_duel")
        assert again[0][0] == "room"
    room = discord_room_texts(platforms, seen, channel)
    assert any(t.startswith("<@111>") and "your turn" in t for t in room), "Ada was never pinged"
    assert any(t.startswith("<@222>") or " <@222>" in t for t in room), "Bob was never pinged"
    assert any("Age II begins." in t for t in room), "no announcement of Age II"
    assert any("Age III begins." in t for t in room)
    assert any(re.search(r"(Ada|Bob) has chosen a card\.", t) for t in room), "no face-down choice told"
    assert any(re.search(r"(Ada|Bob|\S+) built the [A-Z]", t) for t in room), "no building named"
    # 18 turns for each of the two users, plus any extra decision a wonder gives (Halicarnassus'
    # build from the discards, Babylon B's seventh card)
    assert len(plays) >= 36 and hands
    # one picture went to the channel, the board's; every other (each `hand`'s) was ephemeral
    ups = discord_uploads(platforms)
    assert boards and len([c for c in ups if not c.body.get("flags", 0) & 64]) == 1
    assert len(ups) > 1 and all(c.path.startswith("/discord/webhooks/") for c in ups)
    joined = "\n".join(room)
    for secret in hands:
        assert secret not in joined, secret
    assert "your hand" not in joined and "your choice" not in joined and "done:" not in joined
    bot_auth = [c.headers.get("Authorization") for c in platforms.calls if c.path.startswith("/discord/channels/")]
    assert bot_auth and set(bot_auth) == {f"Bot {DISCORD_BOT_TOKEN}"}
    out = (deployment.logs / "chat.out").read_text()
    assert DISCORD_BOT_TOKEN not in out and "/webhooks/" not in out  # nor an interaction token's URL


@pytest.mark.defer_s(0)
async def test_discord_deferred_answers_go_through_the_webhook_with_their_audience(
        service, platforms: FakePlatforms, deployment: Deployment) -> None:
    """With no time to answer at once, every command is deferred (ephemeral) and answered by
    editing the original and posting follow-ups: the room's with flags 0, private ones 64;
    `board`'s picture is a follow-up of its own with the PNG attached."""
    base, key = service
    seen: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http, \
            httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as gw:
        cy = DiscordUser(http, key, platforms, "c-defer", "444", "Cy", seen)
        dee = DiscordUser(http, key, platforms, "c-defer", "555", "Dee", seen)
        opened = await cy.ask("open seven_wonders_duel")
        assert opened[0][0] == "room" and "opened seven" in opened[0][1]
        await cy.ask("join")
        await dee.ask("join")
        hand = await cy.ask("hand")
        assert hand[0][0] == "private" and "your view (seat 0)" in hand[0][1]
        hand_path = f"/discord/webhooks/{APP_ID}/{cy.token}"
        hand_seq = int(re.search(r"position (\d+)", hand[0][1]).group(1))
        helped = await dee.ask("help")
        assert helped[0][0] == "private" and "open <game>" in helped[0][1]
        shown = await dee.ask("board")
        assert shown[0][0] == "room" and "the board at position" in shown[0][1]
        gid = re.search(r"\(game ([^)]+)\)", opened[0][1]).group(1).replace("\\_", "_")
        seq = int(re.search(r"position (\d+)", shown[0][1]).group(1))
        path = f"/discord/webhooks/{APP_ID}/{dee.token}"
        up = (await wait_for(lambda: discord_uploads(platforms, path)))[0]
        assert check_discord_upload(up, path) == await board_png(gw, gid, seq)
        # `hand`'s picture: the seat's own board, ephemeral, to the hand's own interaction only
        mine = (await wait_for(lambda: discord_uploads(platforms, hand_path)))[0]
        own = check_discord_upload(mine, hand_path, private=True)
        assert own == await board_png(gw, gid, hand_seq, await seat_token(deployment, "discord", "c-defer", "444"))
        assert own != await board_png(gw, gid, hand_seq)  # not the spectator's
    assert len(discord_uploads(platforms)) == 2
    edits = [c for c in platforms.calls if c.method == "PATCH"]
    assert len(edits) == 6 and all(c.path.endswith("/messages/@original") for c in edits)
    room = discord_room_texts(platforms, seen, "c-defer")
    assert room and not any("your view" in t or "open <game>" in t for t in room)


def slack_calls(fake: FakePlatforms, path: str) -> list[Recorded]:
    return [c for c in fake.calls if c.path == path]


class SlackUser:
    def __init__(self, http: httpx.AsyncClient, fake: FakePlatforms, channel: str, uid: str, name: str) -> None:
        self.http, self.fake, self.channel, self.uid, self.name = http, fake, channel, uid, name

    def body(self, text: str, n: int) -> bytes:
        return urllib.parse.urlencode({
            "token": "legacy", "team_id": "T1", "team_domain": "t", "channel_id": self.channel,
            "channel_name": "games", "user_id": self.uid, "user_name": self.name, "command": "/ts", "text": text,
            "api_app_id": "A1", "response_url": f"{self.fake.base}/slack/response/{n}", "trigger_id": f"tr{n}",
        }).encode()

    async def ask(self, text: str, expect: int = 1) -> list[tuple[str, str]]:
        n = next(_ids)
        body = self.body(text, n)
        res = await self.http.post("/slack/events", content=body, headers=slack_headers(body))
        assert res.status_code == 200, res.text
        path = f"/slack/response/{n}"
        calls = await wait_for(lambda: [c for c in self.fake.calls if c.path == path][:expect] if
                               len([c for c in self.fake.calls if c.path == path]) >= expect else None)
        return [(c.body["response_type"], "\n".join(b["text"]["text"] for b in c.body["blocks"] if "text" in b))
                for c in calls]


    async def press(self, value: str, action_id: str = "ts_play_0") -> tuple[str, str]:
        """A button of a reply pressed by this user: a signed block_actions payload."""
        n = next(_ids)
        payload = {"type": "block_actions", "user": {"id": self.uid, "username": self.name, "team_id": "T1"},
                   "api_app_id": "A1", "token": "legacy", "trigger_id": f"tr{n}", "team": {"id": "T1"},
                   "channel": {"id": self.channel, "name": "games"},
                   "container": {"type": "message", "message_ts": "1.0", "channel_id": self.channel},
                   "response_url": f"{self.fake.base}/slack/response/{n}",
                   "actions": [{"action_id": action_id, "block_id": "b1", "type": "button", "value": value,
                                "text": {"type": "plain_text", "text": value}, "action_ts": "1.0"}]}
        body = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
        res = await self.http.post("/slack/events", content=body, headers=slack_headers(body))
        assert res.status_code == 200, res.text
        c = (await wait_for(lambda: [c for c in self.fake.calls if c.path == f"/slack/response/{n}"]))[0]
        return c.body["response_type"], "\n".join(b["text"]["text"] for b in c.body["blocks"] if "text" in b)


async def test_part_of_a_duel_through_slack(service, platforms: FakePlatforms, deployment: Deployment) -> None:
    base, _ = service
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        ann = SlackUser(http, platforms, "C9", "U1", "ann")
        ben = SlackUser(http, platforms, "C9", "U2", "ben")
        # refused: bad signature, stale timestamp, body changed after signing
        body = ann.body("help", 0)
        good = slack_headers(body)
        for headers, content in [
            (slack_headers(body, secret="wrong"), body),
            (slack_headers(body, ts=str(int(time.time()) - 3600)), body),
            ({**good, "X-Slack-Request-Timestamp": str(int(good["X-Slack-Request-Timestamp"]) - 1)}, body),
            (good, body.replace(b"help", b"hand")),
            ({"Content-Type": "application/x-www-form-urlencoded"}, body),
        ]:
            res = await http.post("/slack/events", content=content, headers=headers)
            assert res.status_code == 401, headers
        await asyncio.sleep(0.3)
        assert not [c for c in platforms.calls if c.path == "/slack/response/0"]

        assert (await ann.ask("help"))[0][0] == "ephemeral"
        opened = await ann.ask("open seven_wonders_duel undo=true")
        assert opened[0][0] == "in_channel" and "for 2 players" in opened[0][1]
        assert (await ann.ask("join"))[0][0] == "in_channel"
        got = await ben.ask("join", expect=2)
        assert [a for a, _ in got] == ["in_channel", "in_channel"] and "The game begins" in got[1][1]
        board = await ann.ask("board")
        assert board[0][0] == "in_channel" and "```" in board[0][1]
        # its picture: files_upload_v2's three steps, the file shared to the room's channel
        done = (await wait_for(lambda: slack_calls(platforms, "/slack/api/files.completeUploadExternal")))[0]
        asked = slack_calls(platforms, "/slack/api/files.getUploadURLExternal")
        sent = [c for c in platforms.calls if c.path.startswith("/slack/upload/")]
        assert len(asked) == len(sent) == 1 and sent[0].path == f"/slack/upload/{json.loads(done.body['files'])[0]['id']}"
        assert done.body["channel_id"] == "C9" and asked[0].body["filename"] == "board.png"
        assert int(asked[0].body["length"]) == len(sent[0].raw) and sent[0].raw[:8] == PNG
        assert png_size(sent[0].raw)[0] == 1000
        assert {c.headers.get("Authorization") for c in (*asked, done)} == {f"Bearer {SLACK_BOT_TOKEN}"}
        hand = await ann.ask("hand")
        assert hand[0][0] == "ephemeral" and "seat 0" in hand[0][1]
        played = 0
        typo = False
        while played < 6:
            for user in (ann, ben):
                aud, text = (await user.ask("moves"))[0]
                assert aud == "ephemeral"
                m = re.search(r"```\n(.*?)\n```", text, re.S)
                if not m:
                    continue
                moves = [urllib.parse.unquote(x) for x in m.group(1).split("\n")]
                if not typo:
                    word, _, rest = moves[0].partition(" ")
                    aud, text = (await user.ask(f"{word}x {rest}"))[0]
                    assert aud == "ephemeral" and "Did you mean" in text, text
                    typo = True
                aud, text = (await user.ask(f"play {moves[-1]}"))[0]
                assert aud == "ephemeral" and text.startswith("done:"), text
                played += 1
        # interactivity: a `moves` reply's buttons play for whoever presses them, never for another
        pressed = False
        while not pressed:
            for user in (ann, ben):
                n_before = len(platforms.calls)
                aud, text = (await user.ask("moves"))[0]
                reply = next(c for c in platforms.calls[n_before:] if c.path.startswith("/slack/response/"))
                buttons = [e for b in reply.body["blocks"] if b["type"] == "actions" for e in b["elements"]]
                if not buttons:
                    continue
                outsider = SlackUser(http, platforms, "C9", "U3", "cat")
                assert await outsider.press(buttons[0]["value"]) == ("ephemeral",
                                                                      "you hold no seat in this game")
                aud, text = await user.press(buttons[0]["value"])
                assert (aud, text) == ("ephemeral", f"done: {buttons[0]['value']}"), text
                pressed = True
                break
        # turn pings: after each move the watcher posts one "your turn" naming who acts now. Wait for
        # that ping before the next move (the watcher pings only the seats to act when it looks, so
        # moves made faster than it ticks would skip a ping), until both players have been pinged.
        def pings(since: int) -> list:  # type: ignore[type-arg]
            return [c for c in platforms.calls[since:] if c.path == "/slack/api/chat.postMessage"
                    and "your turn" in json.dumps(c.body)]

        pinged: set[str] = set()
        for _ in range(12):
            posts = await wait_for(lambda: pings(0))
            pinged |= {u for u in ("U1", "U2") for c in posts if f"<@{u}>" in json.dumps(c.body)}
            if pinged == {"U1", "U2"}:
                break
            for user in (ann, ben):
                aud, text = (await user.ask("moves"))[0]
                m = re.search(r"```\n(.*?)\n```", text, re.S)
                if m:
                    since = len(platforms.calls)
                    move = urllib.parse.unquote(m.group(1).split("\n")[-1])
                    assert (await user.ask(f"play {move}"))[0][1].startswith("done:")
                    await wait_for(lambda: pings(since))
                    break
        posts = pings(0)
        assert all(c.body["channel"] == "C9" for c in posts)
        assert all(c.headers.get("Authorization") == f"Bearer {SLACK_BOT_TOKEN}" for c in posts)
        assert pinged == {"U1", "U2"}, [json.dumps(c.body) for c in posts]
        gid = re.search(r"\(game ([\w.-]+)\)", opened[0][1]).group(1)
        # `undo` (opened with undo=true): taken back and said to the room exactly when the
        # game's views say the seat may; else refused privately, nothing logged
        async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as gw:
            for user, seat in ((ann, 0), (ben, 1)):
                before = (await gw.get(f"/games/{gid}")).json()["seq"]
                for _ in range(600):  # the view of that position projected
                    if await _view_at(gw, gid, before):
                        break
                    await asyncio.sleep(0.05)
                may = (await gw.get(f"/games/{gid}/view")).json()["undo"]
                said = await user.ask("undo")
                now = (await gw.get(f"/games/{gid}")).json()["seq"]
                if seat in may:
                    assert said == [("in_channel", f"{user.name} takes back their last command.")], said
                    assert now == before + 1
                else:
                    assert said[0][0] == "ephemeral" and said[0][1].startswith("refused (nothing_to_undo)"), said
                    assert now == before
        # `resign`: logged in the game (README "Clocks and timeouts"), said to the room; once only
        said = await ben.ask("resign")
        assert said[0][0] == "in_channel" and "resigns; a random bot plays seat 1 to the end" in said[0][1], said
        again = await ben.ask("resign")
        assert again == [("ephemeral", "you resigned seat 1 already")], again
        async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as gw:
            assert (await gw.get(f"/games/{gid}/result")).json()["resigned"] == [1]
            # `abandon`: the opener's (the lobby's host token), logged as the seat's resignation
            assert await ben.ask("abandon 0") == [("ephemeral", "only the user who opened the game may do that")]
            refused = await ann.ask("abandon 1")
            assert refused[0][0] == "ephemeral" and refused[0][1].startswith("refused (already_resigned)"), refused
            said = await ann.ask("abandon 0 greedy")
            assert said == [("in_channel", "seat 0 is abandoned: a greedy bot plays it to the end, ranked last.")], said
            assert (await gw.get(f"/games/{gid}/result")).json()["resigned"] == [0, 1]
    # one picture was ever uploaded: the board's (`hand` and the moves shared none)
    assert len(slack_calls(platforms, "/slack/api/files.getUploadURLExternal")) == 1
    assert len(slack_calls(platforms, "/slack/api/files.completeUploadExternal")) == 1
    room = [json.dumps(c.body) for c in platforms.calls
            if (c.path.startswith("/slack/response/") and c.body.get("response_type") == "in_channel")
            or (c.path == "/slack/api/chat.postMessage" and c.body.get("channel") == "C9")]
    assert room and not any("done:" in t or "your view" in t or "legal commands" in t for t in room)


async def test_a_timed_duel_in_slack_shows_the_clock_and_reminds_before_the_deadline(
        service, platforms: FakePlatforms, deployment: Deployment) -> None:
    """`open ... clock=move:8s`: the board and the "your turn" ping carry the clock line, and
    once a seat's decision has a quarter of its time left the watcher reminds its user once,
    by name; at the deadline `up`'s timer has the bot move for it (README "Play in chat")."""
    base, _ = service
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        ann = SlackUser(http, platforms, "C7", "U1", "ann")
        ben = SlackUser(http, platforms, "C7", "U2", "ben")
        assert (await ann.ask("open seven_wonders_duel clock=soon"))[0][1].startswith("clock: ")
        opened = await ann.ask("open seven_wonders_duel clock=move:8s@greedy")
        assert opened[0][0] == "in_channel", opened
        gid = re.search(r"\(game ([\w.-]+)\)", opened[0][1]).group(1)
        await ann.ask("join")
        await ben.ask("join", expect=2)
        board = await ann.ask("board")
        assert "clock (move, on timeout: greedy bot): seat 0 " in board[0][1], board

        def posts(word: str) -> list[str]:
            return [json.dumps(c.body) for c in platforms.calls if c.path == "/slack/api/chat.postMessage"
                    and c.body.get("channel") == "C7" and word in json.dumps(c.body)]

        pinged = await wait_for(lambda: posts("your turn"), timeout=30)
        assert "clock (move" in pinged[0], pinged
        reminded = await wait_for(lambda: posts("left to move"), timeout=30)
        assert "then a greedy bot moves for you" in reminded[0] and ("<@U1>" in reminded[0] or "<@U2>" in reminded[0])
        async with httpx.AsyncClient(base_url=deployment.gateways[0], timeout=30) as gw:
            async def timed_out() -> bool:
                return any(s["timeouts"] for s in (await gw.get(f"/games/{gid}/view")).json()["clock"]["seats"])
            for _ in range(300):  # the deadline passes: the timer's bot moves for the seat
                if await timed_out():
                    break
                await asyncio.sleep(0.1)
            assert await timed_out()
        # the watcher ticked about four times between the reminder and the deadline: one reminder
        assert len(posts("left to move")) == 1, posts("left to move")


async def _view_at(gw: httpx.AsyncClient, gid: str, seq: int) -> bool:
    """Whether the spectator's view has been projected up to `seq`."""
    return (await gw.get(f"/games/{gid}/view")).json()["seq"] >= seq
