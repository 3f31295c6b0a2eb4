"""`events.store` sends the append script packed by hiredis rather than by redis-py (half
the instructions of the call): the bytes on the wire must be the same."""

from __future__ import annotations

from hiredis import pack_command
from hypothesis import given
from hypothesis import strategies as st
from redis.asyncio.connection import Connection

_PACK = Connection().pack_command
_ARG = st.one_of(st.text(), st.binary(), st.integers(min_value=-(2**63), max_value=2**63 - 1))


@given(st.lists(_ARG, max_size=12))
def test_hiredis_packs_a_command_as_redis_py_does(args: list[str | bytes | int]) -> None:
    command = ("EVALSHA", "0" * 40, len(args), *args)
    assert pack_command(command) == b"".join(_PACK(*command))


def test_a_large_argument_packs_the_same() -> None:
    command = ("EVALSHA", "f" * 40, 1, "feed:{0}", b"\x93" * 100_000, "ü" * 10, -5)
    assert pack_command(command) == b"".join(_PACK(*command))
