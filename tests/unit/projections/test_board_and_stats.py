"""Pure projections over the toy game: documents, idempotent folds, statistics rows."""

from __future__ import annotations

import msgspec

from events.chain import GENESIS, link
from events.codec import META
from events.meta import GameOpened
from games.contract import Seed
from projections import board, stats
from projections.audit import verify
from projections.table import advance, codec, empty
from tests.support_toygame import GAME as TOY, Add


def _log(moves: list[int]):
    opened = GameOpened(game_type="toy", players=2, options=msgspec.Raw(b'{"players":2,"target":10}'), preset="2p",
                        rules_version=1, seed_commitment="", rng="", seat_token_hashes=["a", "b"], fixture=True)
    events = [opened, *TOY.setup(TOY.presets["2p"], Seed(b"s"))]
    state = TOY.initial
    for e in events[1:]:
        state = TOY.evolve(state, e)
    seat = 0
    for m in moves:
        out = TOY.decide(state, seat, Add(amount=m))
        assert isinstance(out, list)
        for e in out:
            state = TOY.evolve(state, e)
        events += out
        seat = 1 - seat
    prev, envs = GENESIS, []
    for i, ev in enumerate(events, 1):
        tag, v, data = META.encode(ev) if i == 1 else codec(TOY).encode(ev)
        env = link(prev, game_id="g", game_type="toy", seq=i, type=tag, v=v, time=i, command_id=f"c{i}",
                   seat=-1 if i <= 2 else 0, data=data)
        envs.append(env)
        prev = env.hash
    return envs


def test_views_hide_other_secrets_until_the_end():
    envs = _log([3, 3])
    t = advance(empty("g", TOY), envs)
    d0, d1, spec = (board.decode_doc(board.doc(t, s)) for s in (0, 1, None))
    v0 = msgspec.json.decode(d0.view)
    assert v0["secrets"][1] is None and v0["secrets"][0] is not None
    assert msgspec.json.decode(spec.view)["secrets"] == [None, None]
    assert d1.seq == len(envs)


def test_folding_twice_is_refused_and_rebuild_equals_incremental():
    envs = _log([3, 3, 3, 3])
    inc = empty("g", TOY)
    for e in envs:
        inc = advance(inc, [e])
    whole = advance(empty("g", TOY), envs)
    assert board.docs(inc) == board.docs(whole)
    row = stats.row(whole, envs)
    assert row is not None and row.winners == [1]
    agg = stats.aggregate([row])
    assert agg["games"] == 1 and set(agg["categories"]) == {"win", "secret"}
    assert verify(TOY, envs, board.docs(whole), stats.encode_row(row)) == []
