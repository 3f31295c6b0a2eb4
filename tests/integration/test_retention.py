"""Retention of every key family (issue #22 item 6) and the archive tombstone, against a
real referee on the real Redis (toy game). Retention times are shortened through the
settings (seconds, never minutes)."""

from __future__ import annotations

from pathlib import Path

from events import keys
from events.envelope import Accepted, Rejected
from events.store import EventStore
from services.archive import Archiver
from services.client import Client
from services.projector.runner import Projector


async def _play_to_the_end(c: Client, toy, gid: str, tokens: list[str]) -> list[str]:
    """Add 3 in turn until the toy game is won; the command ids sent."""
    ids, seat = [], 0
    while True:
        cid = c.next_id()
        out = await c.act(toy, gid, seat, tokens[seat], "add 3", command_id=cid)
        assert isinstance(out, Accepted), out
        ids.append(cid)
        if any(e == "toy.won" for e in await _types(c, gid)):
            return ids
        seat = 1 - seat


async def _types(c: Client, gid: str) -> list[str]:
    return [e.type for e in await EventStore(c.redis).read(gid)]


async def test_an_archived_game_is_answered_game_archived_and_its_id_stays_taken(r, toy, referee_factory,
                                                                                tmp_path: Path) -> None:
    first = await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=5) as c:
        gid, tokens, out = await c.open(toy, preset="2p")
        assert isinstance(out, Accepted)
        await _play_to_the_end(c, toy, gid, tokens)
        projector = Projector(r, store, 0)
        while await projector.step(block=False):
            pass
        assert await Archiver(r, store, tmp_path).archive(gid) == "archived"
        assert await r.hexists(keys.archived(0), gid)

        # A restarted referee (nothing cached) reads the tombstone.
        await first.stop()
        await referee_factory()
        for svc_out in (await c.act(toy, gid, 0, tokens[0], "add 1"),
                        (await c.open(toy, game_id=gid, preset="2p"))[2]):
            assert isinstance(svc_out, Rejected) and svc_out.code == "game_archived", svc_out
            assert "archived" in svc_out.message and gid in svc_out.message
        assert await store.version(gid) == 0  # no game opened under the archived id
        assert await r.exists(keys.secret(0, gid)) == 0  # and no seed drawn for it

        # Restored, it is a game again (finished: game_over), never unknown.
        assert await Archiver(r, store, tmp_path).restore(gid) == "restored"
        out = await c.act(toy, gid, 0, tokens[0], "add 1")
        assert isinstance(out, Rejected) and out.code == "game_over", out
        # An unknown id is still unknown_game.
        out = await c.act(toy, "never-was", 0, tokens[0], "add 1")
        assert isinstance(out, Rejected) and out.code == "unknown_game", out
