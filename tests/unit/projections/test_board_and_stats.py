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



def test_a_view_whose_text_an_older_render_wrote_verifies_and_a_changed_view_does_not():
    """The board text is derived from the structured view: a document stored with an older
    rendering of the same view ("1 coins") verifies; one whose structured view differs does not."""
    envs = _log([3, 3, 3, 3])
    whole = advance(empty("g", TOY), envs)
    docs = board.docs(whole)
    old = board.decode_doc(docs[0])
    older_text = msgspec.json.encode(msgspec.structs.replace(old, text=old.text + " (as an older version wrote it)"))
    assert older_text != docs[0]
    assert verify(TOY, envs, {**docs, 0: older_text}, None) == []
    view = msgspec.json.decode(old.view)
    view["secrets"][0] = 999
    other_view = msgspec.json.encode(msgspec.structs.replace(old, view=msgspec.Raw(msgspec.json.encode(view))))
    assert verify(TOY, envs, {**docs, 0: other_view}, None) == [
        f"the stored view of seat 0 at seq {len(envs)} differs from replay"]
    moved = msgspec.json.encode(msgspec.structs.replace(old, over=not old.over))
    assert verify(TOY, envs, {**docs, 0: moved}, None) == [
        f"the stored view of seat 0 at seq {len(envs)} differs from replay"]

def _row(players: int, options: dict, winner: int = 0) -> stats.GameRow:
    seats = [stats.SeatRow(facets={"seat": str(i)}, scores=[i], total=i, rank=1 if i == winner else 2)
             for i in range(players)]
    return stats.GameRow(game_id=f"g{players}{sorted(options.items())}", game_type="toy", players=players,
                         categories=["win"], seats=seats, winners=[winner], events=5, commands=3,
                         started_ms=0, ended_ms=1, options={"players": players, **options})


def test_a_row_records_its_options_and_statistics_split_by_setup():
    envs = _log([3, 3, 3, 3])
    row = stats.row(advance(empty("g", TOY), envs), envs)
    assert row is not None and row.options == {"players": 2, "target": 10}
    defaults = msgspec.to_builtins(TOY.options_type())
    rows = [row, _row(2, {"target": 20}), _row(3, {"target": 10}), _row(3, {"target": 10})]
    agg = stats.aggregate(rows, defaults)
    assert agg["setups"] == {"2 players": 1, "2 players, target=20": 1, "3 players": 2}
    assert [r.players for r in stats.select(rows, players=3)] == [3, 3]
    assert stats.select(rows, options=[("target", 20)]) == [rows[1]]
    assert stats.select(rows, players=2, options=[("target", 10)]) == [row]
    # an option left unset (omitted from the row) counts as false
    unset = _row(3, {})
    assert stats.select([unset], options=[("edifice", False)]) == [unset]
    assert stats.select([unset], options=[("edifice", True)]) == []
    assert stats.setup(_row(3, {"edifice": True}), {"players": 3}) == "3 players, edifice"
    # a number is not a truth value: 0 is neither false nor unset, 1 not true
    assert stats.select([_row(3, {"level": 0})], options=[("level", False)]) == []
    assert stats.select([_row(3, {"level": 1})], options=[("level", True)]) == []
    assert stats.setup(_row(3, {"level": 0}), {"players": 3}) == "3 players, level=0"


def test_option_filters_read_json_values_or_plain_strings():
    assert stats.parse_option("edifice=true") == ("edifice", True)
    assert stats.parse_option("players=4") == ("players", 4)
    assert stats.parse_option("variant=ireland") == ("variant", "ireland")
    try:
        stats.parse_option("edifice")
    except ValueError as e:
        assert "KEY=VALUE" in str(e)
    else:
        raise AssertionError("a filter without '=' was accepted")


def test_a_row_stored_before_rows_recorded_options_still_verifies_and_a_changed_one_does_not():
    """projections.audit: the projector of earlier versions wrote rows without `options`;
    such a row verifies when every other field matches, and a row that differs elsewhere
    (or claims other options) is still a finding."""
    envs = _log([3, 3, 3, 3])
    whole = advance(empty("g", TOY), envs)
    row = stats.row(whole, envs)
    assert row is not None
    older = stats.encode_row(msgspec.structs.replace(row, options={}))
    assert b'"options"' not in older
    assert verify(TOY, envs, board.docs(whole), older) == []
    tampered = stats.encode_row(msgspec.structs.replace(row, options={}, winners=[0]))
    assert verify(TOY, envs, board.docs(whole), tampered) == ["the stored statistics row differs from replay"]
    other = stats.encode_row(msgspec.structs.replace(row, options={"players": 2, "target": 99}))
    assert verify(TOY, envs, board.docs(whole), other) == ["the stored statistics row differs from replay"]
    assert stats.aggregate([msgspec.structs.replace(row, options={})], {"players": 2})["setups"] == \
        {"2 players (options not recorded)": 1}


def test_a_set_facet_counts_each_member():
    """GameDef.set_facets: a seat's set of values (Duel's four wonders) counts each member
    as a value of the facet; other facets keep their whole value."""
    seats = [stats.SeatRow(facets={"wonders": "a,b", "start": "first"}, scores=[1], total=1, rank=1),
             stats.SeatRow(facets={"wonders": "b,c", "start": "second"}, scores=[0], total=0, rank=2)]
    r = stats.GameRow(game_id="d", game_type="duel", players=2, categories=["x"], seats=seats, winners=[0],
                      events=1, commands=1, started_ms=0, ended_ms=0)
    split = stats.aggregate([r], set_facets=frozenset({"wonders"}))["by_facet"]["wonders"]
    assert split == {"a": {"games": 1, "plays": 1, "wins": 1}, "b": {"games": 1, "plays": 2, "wins": 1},
                     "c": {"games": 1, "plays": 1, "wins": 0}}
    assert set(stats.aggregate([r])["by_facet"]["wonders"]) == {"a,b", "b,c"}


def test_latency_summary_reads_bucket_bounds_in_ms():
    """p50 and p99 are the upper bounds (µs → ms) of the buckets where the counts reach them."""
    hist = {b"1024": b"50", b"2048": b"49", b"65536": b"1"}
    assert stats.latency_summary(hist) == {"commands": 100.0, "p50_ms": 1.024, "p99_ms": 2.048}
    assert stats.latency_summary({}) == {"commands": 0.0}  # nothing measured: no percentiles
