"""The hash chain: its exact definition, and that verify() catches tampering."""

from __future__ import annotations

import hashlib

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from events.chain import GENESIS, hash_of, link, relink, verify
from events.envelope import Envelope


def make_log(n: int, game_id: str = "g1") -> list[Envelope]:
    log: list[Envelope] = []
    prev = GENESIS
    for seq in range(1, n + 1):
        env = link(
            prev,
            game_id=game_id,
            game_type="demo",
            seq=seq,
            type="demo.moved" if seq > 1 else "ts.game_opened",
            v=1,
            time=1_700_000_000_000 + seq,
            command_id=f"c{(seq + 1) // 2}",
            seat=-1 if seq == 1 else seq % 3,
            data=b'{"type":"demo.moved","n":%d}' % seq,
        )
        log.append(env)
        prev = env.hash
    return log


def test_a_linked_log_verifies() -> None:
    log = make_log(5)
    assert verify(log) == []
    assert verify([]) == []
    assert log[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in zip(log, log[1:]))
    assert all(hash_of(e) == e.hash for e in log)


def test_hash_is_sha256_of_netstrings_in_the_documented_order() -> None:
    # Restates events/README.md independently of the implementation.
    env = make_log(2)[1]
    parts = [
        b"1",
        env.game_id.encode(),
        env.game_type.encode(),
        str(env.seq).encode(),
        env.type.encode(),
        str(env.v).encode(),
        str(env.time).encode(),
        env.command_id.encode(),
        str(env.seat).encode(),
        env.prev_hash.encode(),
        env.data,
    ]
    canonical = b"".join(b"%d:%s," % (len(p), p) for p in parts)
    assert env.hash == hashlib.sha256(canonical).hexdigest()


def test_hash_is_pinned() -> None:
    # Golden value: if this changes, every stored log stops verifying.
    env = link(
        GENESIS, game_id="g", game_type="t", seq=1, type="x", v=1, time=0,
        command_id="c", seat=-1, data=b"{}",
    )
    canonical = b"1:1,1:g,1:t,1:1,1:x,1:1,1:0,1:c,2:-1,64:" + GENESIS.encode() + b",2:{},"
    assert env.hash == hashlib.sha256(canonical).hexdigest()
    assert env.hash == "40a701fa7139d91520c07b64eeeccdcf1d36310b6e2263277030e846e10d5865"


def test_field_boundaries_are_unambiguous() -> None:
    common = dict(seq=1, type="x", v=1, time=0, command_id="c", seat=0, data=b"{}")
    a = link(GENESIS, game_id="ab", game_type="c", **common)  # type: ignore[arg-type]
    b = link(GENESIS, game_id="a", game_type="bc", **common)  # type: ignore[arg-type]
    assert a.hash != b.hash


def test_tampered_payload_is_reported_once_at_its_entry() -> None:
    log = make_log(4)
    log[1] = msgspec.structs.replace(log[1], data=log[1].data.replace(b"2", b"9"))
    problems = verify(log)
    assert len(problems) == 1
    assert problems[0].startswith("entry 2 ") and "does not match" in problems[0]


def test_rehashed_tampering_breaks_the_next_link() -> None:
    log = make_log(4)
    forged = msgspec.structs.replace(log[1], seat=0)
    log[1] = msgspec.structs.replace(forged, hash=hash_of(forged))
    problems = verify(log)
    assert len(problems) == 1
    assert problems[0].startswith("entry 3 ") and "prev_hash" in problems[0]


def test_dropped_entry_is_reported() -> None:
    log = make_log(4)
    del log[2]
    problems = verify(log)
    assert any("seq should be 3" in p for p in problems)
    assert any("prev_hash" in p for p in problems)


def test_a_dropped_entry_of_a_long_log_is_reported_once_not_on_every_later_entry() -> None:
    log = make_log(30)
    del log[4]
    problems = verify(log)
    assert problems == [f"entry 5 (seq 6, {log[4].type}): seq should be 5",
                        f"entry 5 (seq 6, {log[4].type}): prev_hash {log[4].prev_hash} should be the previous hash "
                        f"{log[3].hash}"]


def test_swapped_entries_are_reported() -> None:
    log = make_log(4)
    log[1], log[2] = log[2], log[1]
    assert verify(log)


def test_first_entry_must_follow_genesis() -> None:
    log = make_log(3)[1:]
    problems = verify(log)
    assert any("GENESIS" in p for p in problems)
    assert any("seq should be 1" in p for p in problems)


def test_entries_of_another_game_are_reported() -> None:
    log = make_log(2)
    other = make_log(3, game_id="g2")[2]
    assert any("game id" in p for p in verify([*log, other]))


@given(
    index=st.integers(0, 5),
    field=st.sampled_from(["game_type", "type", "command_id", "v", "time", "seat", "data", "seq"]),
)
def test_any_single_field_change_is_detected(index: int, field: str) -> None:
    log = make_log(6)
    env = log[index]
    value = getattr(env, field)
    if isinstance(value, int):
        changed = value + 1
    else:
        changed = value + (b" " if isinstance(value, bytes) else "!")
    log[index] = msgspec.structs.replace(env, **{field: changed})
    assert verify(log)


def test_a_linker_makes_the_envelopes_link_makes() -> None:
    """events/README.md, the hash chain: the referee's per-command Linker is `link`."""
    from events.chain import Linker

    make = Linker(game_id="g-1", game_type="seven_wonders", time=1_700_000_000_123, command_id="c-9")
    prev = GENESIS
    for seq, (tag, seat, data) in enumerate([("a", 2, b'{"x":1}'), ("bb", 2, b""), ("ts.seed_revealed", -1, b"{}")], 1):
        got = make(prev, seq, tag, 1, seat, data)
        assert got == link(prev, game_id="g-1", game_type="seven_wonders", seq=seq, type=tag, v=1,
                           time=1_700_000_000_123, command_id="c-9", seat=seat, data=data)
        assert got.hash == hash_of(got)
        prev = got.hash


def test_relink_rechains_a_prefix_under_a_new_id() -> None:
    """A fork's log: same seqs, types, command ids and payloads (but the replaced one),
    the new id and time, a chain of its own from GENESIS that verifies."""
    log = make_log(4)
    out = relink(log[:3], game_id="g2", time=42, data={1: b'{"new":1}'})
    assert verify(out) == []
    assert [e.game_id for e in out] == ["g2"] * 3 and {e.time for e in out} == {42}
    assert out[0].data == b'{"new":1}' and [e.data for e in out[1:]] == [e.data for e in log[1:3]]
    assert [(e.seq, e.type, e.command_id, e.seat) for e in out] == [(e.seq, e.type, e.command_id, e.seat)
                                                                    for e in log[:3]]
    assert out[0].prev_hash == GENESIS and out[2].hash != log[2].hash
