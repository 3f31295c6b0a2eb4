from __future__ import annotations

from events.envelope import Accepted, Rejected
from services.client import Client


async def test_toy_game_through_the_service(r, toy, referee_factory):
    await referee_factory()
    async with Client(r, timeout=5) as c:
        gid, tokens, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted), out
        seat = 0
        while True:
            out = await c.act(toy, gid, seat, tokens[seat], "add 3")
            assert isinstance(out, Accepted), out
            if len(out.seqs) > 1:
                break
            seat = 1 - seat
        out = await c.act(toy, gid, seat, tokens[seat], "add 1")
        assert isinstance(out, Rejected) and out.code == "game_over"
