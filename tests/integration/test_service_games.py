"""Whole 7 Wonders bot games through the service: outcomes, verify, replay, secrecy, rebuild.

Each game goes the real path: commands XADDed to cmd:{s}, the FastStream referee, the
append script, the feed, the projector. Then: verify passes, every stored view equals
replay, no view at any log position shows another seat's hand or unrevealed choice, a
rebuild from nothing equals the live projections, and export → import → verify passes.
"""

from __future__ import annotations

import asyncio
import os

import msgspec
import pytest

from events import keys
from events.envelope import Accepted, Rejected
from events.store import EventStore
from games.contract import Rejection
from projections import board
from projections.audit import verify
from projections.table import advance, empty
from services.bots.driver import play_game
from services.client import Client
from services.projector.rebuild import all_projections, rebuild
from services.projector.runner import Projector, load_views

from games.seven_wonders import GAME as sw
GAMES_PER_COUNT = int(os.environ.get("TS_GAMES", "1"))


async def _project_all(r, store) -> Projector:
    p = Projector(r, store, 0, block_ms=10)
    while await p.step(block=False):
        pass
    return p


def _hide(state, seat):
    """The state with everything `seat` may not know replaced: other hands, all future deals."""
    dummy = "__hidden__"
    hands = tuple(h if i == seat else tuple(dummy for _ in h) for i, h in enumerate(state.hands))
    deals = tuple(tuple(tuple(dummy for _ in hand) for hand in age) for age in state.deals)
    chosen = state.chosen
    others = [i for i, c in enumerate(chosen) if c is not None and i != seat]
    if len(others) > 1:  # rotate the hidden choices of the other seats among themselves
        rot = others[1:] + others[:1]
        lst = list(chosen)
        for i, j in zip(others, rot):
            lst[i] = chosen[j]
        chosen = tuple(lst)
    return msgspec.structs.replace(state, hands=hands, deals=deals, chosen=chosen)


def check_secrecy(game, envs) -> int:
    """Every view at every log position is blind to what its seat may not know."""
    table = empty(envs[0].game_id, game)
    checked = 0
    enc = msgspec.json.encode
    for env in envs:
        table = advance(table, [env])
        st = table.state
        if not st.hands or game.result(st) is not None:
            continue
        for seat in board.seats(table):
            v = enc(game.view(st, seat))
            hidden = _hide(st, -1 if seat is None else seat)
            assert enc(game.view(hidden, seat)) == v, f"view of {seat} at seq {env.seq} leaks"
            checked += 1
        # An unrevealed choice: two different choices of one seat look the same to the others.
        acting = game.to_act(st)
        if len(acting) > 1:
            j = acting[0]
            legal = game.legal_commands(st, j)
            if len(legal) > 1:
                a, b = (game.decide(st, j, c) for c in (legal[0], legal[-1]))
                assert not isinstance(a, Rejection) and not isinstance(b, Rejection)
                sa, sb = st, st
                for e in a:
                    sa = game.evolve(sa, e)
                for e in b:
                    sb = game.evolve(sb, e)
                for seat in [*range(st.players), None]:
                    if seat != j:
                        assert enc(game.view(sa, seat)) == enc(game.view(sb, seat)), "a choice leaks"
    return checked


@pytest.mark.parametrize("preset", ["3p", "5p", "7p", "5p_edifice"])
async def test_bot_games_verify_replay_and_secrecy(r, referee_factory, preset):
    """Whole games through the service (with the Edifice expansion too)."""
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=20) as c:
        played = await asyncio.gather(*(
            play_game(c, store, sw, preset=preset, seed=b"t%d" % i,
                      bot_kinds=("random", "greedy") if i == 0 and preset in ("3p", "5p_edifice") else ("random",))
            for i in range(GAMES_PER_COUNT)))
    await _project_all(r, store)
    for p in played:
        res = sw.result(p.table.state)
        assert res is not None and p.rejected == 0
        envs = await store.read(p.game_id)
        assert envs[-1].type == "ts.seed_revealed"
        views = await load_views(r, 0, p.game_id, board.seats(p.table))
        assert all(v is not None for v in views.values())
        row = await r.hget(keys.stats(sw.id), p.game_id)
        assert row is not None
        assert verify(sw, envs, views, row) == []
        assert check_secrecy(sw, envs) > 0
    # No rejection was needed, and nothing was dead-lettered.
    assert await r.xlen(keys.dead(0)) == 0


async def test_rebuild_from_nothing_equals_live_and_export_import_verifies(r, referee_factory, tmp_path):
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=20) as c:
        played = await asyncio.gather(*(play_game(c, store, sw, preset="4p", seed=b"x%d" % i) for i in range(2)))
        # one game left running, so views of an unfinished game are compared too
        gid, tokens, _ = await c.open(sw, preset="3p")
        st = advance(empty(gid, sw), await store.read(gid)).state
        await c.act(sw, gid, 0, tokens[0], sw.legal_commands(st, 0)[0])
    await _project_all(r, store)
    live = await all_projections(r, 1)
    assert any(k.startswith("stats:") for k in live)
    assert await rebuild(r, store, 1) == 3
    assert await all_projections(r, 1) == live

    # export → import into another database → verify there
    from tests.integration.support_service import db_url
    import redis.asyncio as aioredis

    other = aioredis.from_url(db_url(int(os.environ.get("TS_TEST_DB2", "12"))))
    await other.flushdb()
    try:
        ostore = EventStore(other)
        for p in played:
            envs = await store.read(p.game_id)
            lines = [msgspec.json.encode(e) for e in envs]
            back = [msgspec.json.decode(line, type=type(envs[0])) for line in lines]
            res = await ostore.append(p.game_id, expected=0, command_id=f"import:{p.game_id}", envelopes=back)
            assert res.status == "ok"
            assert verify(sw, await ostore.read(p.game_id)) == []
    finally:
        await other.flushdb()
        await other.aclose()


async def test_bad_input_on_seven_wonders_never_leaks_a_hand(r, referee_factory):
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=10) as c:
        gid, tokens, out = await c.open(sw, preset="3p")
        assert isinstance(out, Accepted)
        st = advance(empty(gid, sw), await store.read(gid)).state
        other_cards = set(st.hands[1]) | set(st.hands[2])
        own = set(st.hands[0])
        for text in ["discard Nothing", "build Palace", "wonder Loom", *(f"build {c}" for c in other_cards)]:
            cmd = sw.parse_command(text)
            if isinstance(cmd, Rejection):
                continue
            res = await c.act(sw, gid, 0, tokens[0], cmd)
            if isinstance(res, Rejected):
                leaked = {x for x in other_cards - own if x in res.message}
                mentioned = {x for x in leaked if x in text}
                assert leaked <= mentioned, res.message
