"""The gateway's seat lookup by bearer token and its Idempotency-Key command ids (pure)."""

from __future__ import annotations

from services.gateway.auth import seat_of
from services.gateway.commands import command_id
from services.protocol import new_token, token_hash


def test_a_token_finds_its_own_seat_and_no_other() -> None:
    tokens = [new_token() for _ in range(4)]
    hashes = [token_hash(t) for t in tokens]
    assert [seat_of(t, hashes) for t in tokens] == [0, 1, 2, 3]
    assert seat_of(new_token(), hashes) is None
    assert seat_of(hashes[1], hashes) is None  # the stored hash is no token
    assert seat_of("", hashes) is None


def test_idempotency_keys_are_namespaced_by_the_bearer() -> None:
    a, b = new_token(), new_token()
    assert command_id(a, "k1") == command_id(a, "k1")
    assert command_id(a, "k1") != command_id(b, "k1")  # another bearer's same key: another command
    assert command_id(a, "k1") != command_id(a, "k2")
    assert a not in command_id(a, "k1") and command_id(a, "k1").startswith("idem-")
