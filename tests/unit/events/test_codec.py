"""Payload codec, upcaster chain, envelope field maps and outcomes (pure, no Redis)."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.base import Event
from events.codec import (
    ENTRY,
    FIELDS,
    META,
    PayloadCodec,
    accepted_prefix,
    decode_outcome,
    encode_entry,
    encode_outcome,
    envelope_from_entry,
    envelope_from_fields,
    envelope_to_fields,
)
from events.envelope import Accepted, Envelope, Rejected
from events.meta import GameOpened, SeedRevealed, is_meta
from events.upcasting import UpcastError, upcast

# A tiny game whose "moved" event went through three schemas:
#   v1 {"seat", "square"}  ->  v2 {"seat", "squares": [..]}  ->  v3 {"seat", "to": [..], "why"}


class Moved(Event, tag="demo.moved"):
    version: ClassVar[int] = 3
    seat: int
    to: list[int]
    why: str


class Passed(Event, tag="demo.passed"):
    seat: int
    note: str = ""  # added later without a bump: old payloads lack it


DemoEvent = Moved | Passed
calls: list[str] = []


def _moved_v1_to_v2(raw: dict[str, Any]) -> dict[str, Any]:
    calls.append("1->2")
    rest = {k: v for k, v in raw.items() if k != "square"}
    return {**rest, "squares": [raw["square"]]}


def _moved_v2_to_v3(raw: dict[str, Any]) -> dict[str, Any]:
    calls.append("2->3")
    rest = {k: v for k, v in raw.items() if k != "squares"}
    return {**rest, "to": raw["squares"], "why": "upcast"}


UPCASTERS = {("demo.moved", 1): _moved_v1_to_v2, ("demo.moved", 2): _moved_v2_to_v3}
DEMO = PayloadCodec(DemoEvent, UPCASTERS)


@pytest.fixture(autouse=True)
def _reset_calls() -> None:
    calls.clear()


def test_encode_gives_tag_version_and_json() -> None:
    tag, v, data = DEMO.encode(Moved(seat=1, to=[4, 5], why="x"))
    assert (tag, v) == ("demo.moved", 3)
    assert msgspec.json.decode(data) == {"type": "demo.moved", "seat": 1, "to": [4, 5], "why": "x"}
    assert DEMO.versions == {"demo.moved": 3, "demo.passed": 1}


def test_stored_json_names_every_field_even_defaults() -> None:
    _, _, data = DEMO.encode(Passed(seat=0))
    assert msgspec.json.decode(data) == {"type": "demo.passed", "seat": 0, "note": ""}


def test_current_version_round_trips() -> None:
    event = Moved(seat=2, to=[1], why="y")
    assert DEMO.decode(*DEMO.encode(event)) == event
    assert calls == []


def test_additive_change_decodes_without_a_bump() -> None:
    assert DEMO.decode("demo.passed", 1, b'{"type":"demo.passed","seat":3}') == Passed(seat=3)


def test_upcaster_chain_runs_every_step_in_order() -> None:
    got = DEMO.decode("demo.moved", 1, b'{"type":"demo.moved","seat":0,"square":7}')
    assert got == Moved(seat=0, to=[7], why="upcast")
    assert calls == ["1->2", "2->3"]


def test_upcaster_chain_starts_at_the_stored_version() -> None:
    got = DEMO.decode("demo.moved", 2, b'{"type":"demo.moved","seat":0,"squares":[1,2]}')
    assert got == Moved(seat=0, to=[1, 2], why="upcast")
    assert calls == ["2->3"]


def test_missing_upcaster_step_is_a_clear_error() -> None:
    codec = PayloadCodec(DemoEvent, {("demo.moved", 1): _moved_v1_to_v2})
    with pytest.raises(UpcastError, match=r"'demo.moved' v2 -> v3"):
        codec.decode("demo.moved", 1, b'{"type":"demo.moved","seat":0,"square":7}')


def test_upcast_refuses_versions_from_the_future() -> None:
    with pytest.raises(UpcastError, match="newer"):
        upcast({"seat": 0}, "demo.moved", 4, UPCASTERS, 3)
    assert upcast({"a": 1}, "demo.moved", 3, {}, 3) == {"a": 1}


def test_upcasting_keeps_the_fast_path_rules_for_raw_fields() -> None:
    class Opened(Event, tag="demo.opened"):
        version: ClassVar[int] = 2
        options: msgspec.Raw
        players: int

    codec = PayloadCodec(Opened, {("demo.opened", 1): lambda raw: {**raw, "players": 2}})
    got = codec.decode("demo.opened", 1, b'{"type":"demo.opened","options":{"a":[1,2]}}')
    assert got.players == 2 and msgspec.json.decode(got.options) == {"a": [1, 2]}


def test_decode_refuses_unknown_tags_and_mislabelled_payloads() -> None:
    with pytest.raises(ValueError, match="unknown event type"):
        DEMO.decode("demo.flew", 1, b"{}")
    with pytest.raises(ValueError, match="payload is a Passed"):
        DEMO.decode("demo.moved", 3, b'{"type":"demo.passed","seat":0}')


def test_encode_refuses_events_of_another_union() -> None:
    with pytest.raises(TypeError):
        DEMO.encode(SeedRevealed(seed="00"))


def test_bad_tables_and_unions_fail_at_construction() -> None:
    with pytest.raises(ValueError, match="matches no older version"):
        PayloadCodec(DemoEvent, {("demo.moved", 3): _moved_v2_to_v3})
    with pytest.raises(ValueError):
        PayloadCodec(DemoEvent, {("demo.gone", 1): _moved_v1_to_v2})

    class Twin(Event, tag="demo.passed"):
        seat: int

    with pytest.raises(TypeError, match="used by"):
        PayloadCodec(Passed | Twin, {})

    class Untagged(msgspec.Struct):
        x: int

    with pytest.raises(TypeError, match="explicit string tag"):
        PayloadCodec(Untagged, {})


def test_meta_events_round_trip() -> None:
    opened = GameOpened(
        game_type="demo",
        players=3,
        options=msgspec.Raw(b'{"players":3,"edifice":false}'),
        preset="3p",
        rules_version=1,
        seed_commitment="ab" * 32,
        rng="sha256-ctr/1",
        seat_token_hashes=["h0", "h1", "h2"],
        fixture=False,
    )
    tag, v, data = META.encode(opened)
    assert (tag, v) == ("ts.game_opened", 1)
    assert msgspec.json.decode(data)["options"] == {"players": 3, "edifice": False}
    assert META.decode(tag, v, data) == opened
    revealed = SeedRevealed(seed="cd" * 16)
    assert META.decode(*META.encode(revealed)) == revealed
    assert is_meta("ts.game_opened") and is_meta("ts.seed_revealed")
    assert not is_meta("demo.moved")


def as_stream_entry(fields: dict[str, bytes | str | int]) -> dict[bytes, bytes]:
    """What redis-py hands back for an entry written with `fields`."""
    return {
        k.encode(): v if isinstance(v, bytes) else str(v).encode() for k, v in fields.items()
    }


envelopes = st.builds(
    Envelope,
    game_id=st.text(min_size=1, max_size=20),
    game_type=st.sampled_from(["seven_wonders", "arkadia"]),
    seq=st.integers(1, 10**9),
    type=st.text(min_size=1, max_size=20),
    v=st.integers(1, 50),
    time=st.integers(0, 2**53),
    command_id=st.text(min_size=1, max_size=30),
    seat=st.integers(-1, 7),
    data=st.binary(max_size=200),
    prev_hash=st.text("0123456789abcdef", min_size=64, max_size=64),
    hash=st.text("0123456789abcdef", min_size=64, max_size=64),
)


@given(envelopes)
def test_envelope_fields_round_trip(env: Envelope) -> None:
    """The layout written until 2026-11-30 (one stream field per envelope field) still reads."""
    fields = envelope_to_fields(env)
    assert tuple(fields) == FIELDS
    assert fields["data"] == env.data
    assert envelope_from_fields(as_stream_entry(fields)) == env
    flat = [x for name_value in as_stream_entry(fields).items() for x in name_value]
    assert envelope_from_entry(flat) == envelope_from_entry(as_stream_entry(fields)) == env


@given(envelopes.map(lambda e: msgspec.structs.replace(e, data=e.data.hex().encode())))
def test_a_stream_entry_round_trips_the_envelope(env: Envelope) -> None:
    """events/README.md, stream entries: one field `e`, the envelope's values in FIELDS order
    as a MessagePack array (the payload, UTF-8 JSON, as a string with its exact bytes)."""
    assert msgspec.msgpack.decode(encode_entry(env)) == [
        env.data.decode() if name == "data" else getattr(env, name) for name in FIELDS]
    assert envelope_from_fields(as_stream_entry({ENTRY.decode(): encode_entry(env)})) == env
    assert envelope_from_entry([ENTRY, encode_entry(env)]) == env  # as Redis sends it


def test_envelope_from_fields_names_a_missing_field() -> None:
    env = Envelope(
        game_id="g", game_type="t", seq=1, type="x", v=1, time=0, command_id="c",
        seat=0, data=b"{}", prev_hash="0" * 64, hash="1" * 64,
    )
    entry = as_stream_entry(envelope_to_fields(env))
    del entry[b"hash"]
    with pytest.raises(ValueError, match="hash"):
        envelope_from_fields(entry)


def test_outcomes_round_trip_with_a_status_tag() -> None:
    ok = Accepted(command_id="c1", game_id="g1", seqs=[4, 5])
    no = Rejected(command_id="c2", game_id="g1", code="not_your_turn", message="Wait for seat 2.")
    assert decode_outcome(encode_outcome(ok)) == ok
    assert decode_outcome(encode_outcome(no)) == no
    assert msgspec.json.decode(encode_outcome(no))["status"] == "rejected"


@given(st.text(), st.text(), st.lists(st.integers(min_value=1, max_value=2**53), max_size=5))
def test_the_accepted_prefix_completed_by_the_append_script_is_the_accepted_outcome(
        command_id: str, game_id: str, seqs: list[int]) -> None:
    """The append script writes an Accepted outcome as `accepted_prefix` + the JSON seqs it
    assigned ("[" + digits joined by "," + "]") + "}": byte for byte what encode_outcome
    writes, whatever the ids hold (quotes, backslashes, control and non-ASCII characters)."""
    written = accepted_prefix(command_id, game_id) + b"[" + ",".join(map(str, seqs)).encode() + b"]}"
    ok = Accepted(command_id=command_id, game_id=game_id, seqs=seqs)
    assert written == encode_outcome(ok)
    assert decode_outcome(written) == ok


def test_the_append_scripts_values_follow_the_entry_order() -> None:
    """events.store sends each whole envelope to append.lua as its values in FIELDS order
    (the payload as str: Redis's Lua MessagePack reads str, not bin), which the script packs
    into the entry `envelope_from_fields` reads (checked against real servers by
    tests/integration/test_store.py)."""
    from events.chain import GENESIS, link
    from events.codec import FIELDS
    from events.store.items import whole_fields

    env = link(GENESIS, game_id="g", game_type="t", seq=1, type="x", v=1, time=5, command_id="c",
               seat=-1, data=b'{"a":1}')
    got = whole_fields(env)
    assert got == [env.data.decode() if name == "data" else getattr(env, name) for name in FIELDS]
    assert envelope_from_fields({ENTRY: msgspec.msgpack.encode(got)}) == env
