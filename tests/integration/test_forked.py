"""Rebuild and verify shared among worker processes (`services.forked`, issue #23): the
same projections, failures and findings as one process, in the same order."""

from __future__ import annotations

import asyncio
import os

import msgspec
import pytest

from events import keys
from events.store import EventStore
from games.seven_wonders_duel import GAME as duel
from services import forked
from services.bots.driver import play_game
from services.client import Client
from services.projector.rebuild import all_projections, rebuild
from services.projector.runner import Projector
from services.verify import all_game_ids, verify_games


async def _project_all(r, store: EventStore) -> None:
    p = Projector(r, store, 0)
    while await p.step(block=False):
        pass


async def test_rebuild_and_verify_in_three_processes_match_one(r, referee_factory, monkeypatch):
    monkeypatch.setattr(forked, "MIN_PART", 1)  # three parts of a handful of games
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=30) as c:
        played = await asyncio.gather(*(play_game(c, store, duel, seed=b"f%d" % i) for i in range(6)))
    log = await store.read(played[0].game_id)
    bad = [msgspec.structs.replace(e, game_id="broken") for e in log]
    bad[5] = msgspec.structs.replace(bad[5], data=b'{"nonsense": true}')
    assert (await store.append("broken", expected=0, command_id="import:broken", envelopes=bad)).status == "ok"
    await _project_all(r, store)
    one: dict[str, str] = {}
    assert await rebuild(r, store, 1, one, jobs=1) == 6
    expected = await all_projections(r, 1)
    ids = await all_game_ids(store, 1)
    # Damage in every part: a view ahead of its log, a wrong document, an orphan.
    good = [g for g in ids if g != "broken"]
    first, last = good[0], good[-1]
    await r.hset(keys.view(0, first, None), mapping={"seq": 10_000, "doc": b"{}"})
    await r.hset(keys.view(0, last, 0), mapping={"seq": 3, "doc": b"garbage"})
    await r.hset(keys.view(0, "gone", 1), mapping={"seq": 1, "doc": b"{}"})
    three: dict[str, str] = {}
    assert await rebuild(r, store, 1, three, jobs=3) == 6
    assert three == one and list(three) == ["broken"]
    assert await all_projections(r, 1) == expected
    await r.delete(keys.view(0, last, 1))
    await r.hdel(keys.stats(duel.id), first)
    by_one = await verify_games(r, store, ids, jobs=1)
    by_three = await verify_games(r, store, ids, jobs=3)
    assert by_three == by_one and list(by_three) == ids
    assert any("view of seat 1 is missing" in f for f in by_three[last]), by_three[last]
    assert any("no statistics row" in f for f in by_three[first]), by_three[first]
    assert by_three["broken"] and sum(1 for g in ids if by_three[g]) == 3


async def _pid(_r, part):
    await _r.ping()
    return os.getpid(), part


async def _fails_on_two(_r, part):
    if part == 2:
        raise ValueError("part two")
    return part


async def test_workers_are_processes_of_their_own_and_their_errors_reach_the_caller(r):
    got = await forked.fan_out(r, [1, 2, 3], _pid)
    assert [part for _, part in got] == [1, 2, 3]
    assert got[0][0] == os.getpid() and len({pid for pid, _ in got}) == 3
    with pytest.raises(ValueError, match="part two"):
        await forked.fan_out(r, [1, 2, 3], _fails_on_two)
    assert await r.ping()  # the parent's client still works after its workers ended
