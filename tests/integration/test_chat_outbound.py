"""What the chat core says on its own (announcements, pings), against real processes:
Redis, `tablestream up` and a gateway, with the core in process and a platform Sink that
holds every room post until the test lets it through (a homeserver that stalls).

While the room's posts are held, its commands are still answered (the watcher posts
outside the room's lock); once they go through, every position is told once, in the log's
order, in sentences naming what the spectator saw ("Ada takes the Piraeus."), then the
turn ping."""

from __future__ import annotations

import asyncio
import re

import redis.asyncio as aioredis

from services.chat.core import ChatCore
from services.chat.model import Message, Reply
from tests.integration.support_chat import wait_for
from tests.integration.support_gateway import Deployment, deployment

__all__ = ["deployment"]

ROOM = "r-slow"
NAMES = {"u1": "Ada", "u2": "Bob"}


class HeldSink:
    """Room posts wait for `gate`; what got through is kept in order."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.waiting = 0
        self.posts: list[Reply] = []

    async def post_room(self, room: str, reply: Reply) -> None:
        assert room == ROOM
        self.waiting += 1
        await self.gate.wait()
        self.posts.append(reply)

    async def post_private(self, user: str, reply: Reply) -> None:
        raise AssertionError("the watcher posts nothing privately")


async def ask(core: ChatCore, user: str, text: str, n: list[int] = [0]) -> list[Reply]:  # noqa: B006
    n[0] += 1
    msg = Message("slow", ROOM, user, NAMES[user], text, message_id=f"m{n[0]}")
    return await asyncio.wait_for(core.handle(msg), 60)  # held posts must not hold commands


async def test_a_stalled_platform_delays_only_its_posts_which_keep_their_order(deployment: Deployment) -> None:
    r = aioredis.from_url(deployment.url)
    sink = HeldSink()
    core = ChatCore(r, deployment.gateways[0], sinks={"slow": sink}, poll_s=0.05)
    watcher = asyncio.create_task(core.watch())
    try:
        opened = await ask(core, "u1", "open seven_wonders_duel")
        game = re.search(r"\(game ([^)]+)\)", opened[0].text).group(1)
        await ask(core, "u1", "join")
        started = await ask(core, "u2", "join")
        assert any("The game begins" in x.text for x in started), started
        await wait_for(lambda: sink.waiting, 60)  # the opening's announcement is held

        played: list[str] = []
        deadline = asyncio.get_running_loop().time() + 120
        while len(played) < 4:  # the draft: Ada, Bob, Bob, Ada
            assert asyncio.get_running_loop().time() < deadline, f"the draft did not move on: {played}"
            for user in ("u1", "u2"):
                moves = (await ask(core, user, "moves"))[0]
                if moves.choices:
                    done = await ask(core, user, f"play {moves.choices[0]}")
                    assert done[0].text == f"done: {moves.choices[0]}", done
                    played.append(f"{NAMES[user]} takes {moves.choices[0].removeprefix('draft ')}")
                    if len(played) == 4:
                        break
        assert sink.posts == [] and sink.waiting == 1  # all of it still held, and nothing answered late

        sink.gate.set()
        last = played[-1].split(" takes ")[1]
        await wait_for(lambda: sink.posts and any(last in p.text for p in sink.posts) and sink.posts[-1].mentions, 60)
        await asyncio.sleep(1.0)  # more watcher ticks: nothing may be told twice
    finally:
        # Let held posts through before closing: a failed check above is then reported as
        # itself, not as a close that waits on a post the gate still holds.
        sink.gate.set()
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        await asyncio.wait_for(core.aclose(), 30)
        await r.aclose()

    lines = [line for p in sink.posts if not p.mentions for line in p.text.split("\n")]
    assert lines[0] == "The game is set up: the wonder draft begins.", lines
    takes = [line for line in lines if " takes " in line]
    for t in played:
        who, wonder = t.split(" takes ")
        assert f"{who} takes {wonder if wonder.startswith('The ') else 'the ' + wonder}." in takes, (t, takes)
    assert len(takes) in (len(played), len(played) + 1), takes  # the draft's last wonder of four is given
    assert len(lines) == len(set(lines)), lines  # each position told once
    assert sink.posts[-1].mentions and sink.posts[-1].text == "your turn.", sink.posts[-1]
