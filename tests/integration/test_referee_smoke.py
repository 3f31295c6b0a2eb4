from __future__ import annotations

from events.envelope import Accepted, Rejected
from services.client import Client


async def counted(r) -> int:
    from services import protocol

    return sum(int(n) for n in (await r.hgetall(protocol.latency(0, "toy"))).values())


async def test_toy_game_through_the_service(r, toy, referee_factory):
    """Every command answered once, acknowledged, and counted once in the latency
    histogram (README "Keys": latency:{s}:<game_type>), as the append script settles it."""
    from events import keys
    from services import protocol

    await referee_factory()
    before = await counted(r)
    sent = 0
    async with Client(r, timeout=5) as c:
        gid, tokens, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted), out
        sent += 1
        seat = 0
        while True:
            out = await c.act(toy, gid, seat, tokens[seat], "add 3")
            sent += 1
            assert isinstance(out, Accepted), out
            if len(out.seqs) > 1:
                break
            seat = 1 - seat
        out = await c.act(toy, gid, seat, tokens[seat], "add 1")
        sent += 1
        assert isinstance(out, Rejected) and out.code == "game_over"
    assert await counted(r) - before == sent
    assert (await r.xpending(keys.cmd(0), protocol.GROUP))["pending"] == 0


async def test_open_with_options_or_a_fixture_and_their_rejections(r, referee_factory):
    """Opening a game with explicit options or a fixture (README "Scripted games"); options
    or a fixture the game refuses are a `bad_options` rejection (never a dead letter)."""
    import msgspec

    from events import keys
    from events.store import EventStore
    from games.seven_wonders import GAME as sw
    from games.seven_wonders.events import Options
    from games.seven_wonders.setup import deal

    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=10) as c:
        _, _, out = await c.open(sw, options=Options(players=4, edifice=True))
        assert isinstance(out, Accepted), out
        fx = deal(Options(players=3), b"fixed")
        gid, _, out = await c.open(sw, preset="3p", fixture=fx)
        assert isinstance(out, Accepted), out
        logged = await store.read(gid)
        assert msgspec.json.decode(logged[1].data)["deals"] == msgspec.json.decode(msgspec.json.encode(fx.deals))
        bad_fx = msgspec.structs.replace(fx, deals=fx.deals[:2])
        _, _, out = await c.open(sw, preset="3p", fixture=bad_fx)
        assert isinstance(out, Rejected) and out.code == "bad_options" and "three ages" in out.message
        _, _, out = await c.open(sw, options=Options(players=2, edifice=True))
        assert isinstance(out, Rejected) and out.code == "bad_options" and "3 to 7" in out.message
    assert await r.xlen(keys.dead(0)) == 0
