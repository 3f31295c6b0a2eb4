"""Key names: exact spellings, sharding, and one cluster hash slot per shard."""

from __future__ import annotations

import re
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events import keys


def hash_tag(key: str) -> str:
    """The part of a key Redis Cluster hashes: the first non-empty {...}, else the key."""
    m = re.search(r"\{([^}]*)\}", key)
    return m.group(1) if m and m.group(1) else key


def test_exact_names() -> None:
    assert keys.cmd(0) == "cmd:{0}"
    assert keys.log(3, "g1") == "ev:{3}:g1"
    assert keys.feed(3) == "feed:{3}"
    assert keys.done(3, "c1") == "done:{3}:c1"
    assert keys.latency(3, "arkadia") == "latency:{3}:arkadia"
    assert keys.secret(3, "g1") == "secret:{3}:g1"
    assert keys.command_ids(3, "g1") == "ids:{3}:g1"
    assert keys.games(3) == "games:{3}"
    assert keys.rejections(3) == "rej:{3}"
    assert keys.dead(3) == "dlq:{3}"
    assert keys.replies(3, "bot-7") == "reply:{3}:bot-7"
    assert keys.view(3, "g1", 0) == "view:{3}:g1:0"
    assert keys.view(3, "g1", None) == "view:{3}:g1:spectator"
    assert keys.checkpoint(3, "board") == "ckpt:{3}:board"
    assert keys.stats("seven_wonders") == "stats:seven_wonders"
    assert keys.updates(3) == "updated:{3}"
    assert keys.shards() == "layout:shards"


def test_shard_of_is_crc32_mod_shards() -> None:
    assert keys.shard_of("abc", 1) == 0
    assert keys.shard_of("abc", 7) == zlib.crc32(b"abc") % 7
    # Pinned values: a change would move every existing game to another shard.
    assert keys.shard_of("game-1", 16) == 12
    assert keys.shard_of("game-1", 1000) == 4140153980 % 1000


def test_shard_of_refuses_no_shards() -> None:
    with pytest.raises(ValueError):
        keys.shard_of("g", 0)


@given(
    game_id=st.text(min_size=1, max_size=40),
    command_id=st.text(min_size=1, max_size=40),
    shards=st.integers(1, 10_000),
)
def test_every_key_of_a_game_shares_one_slot(game_id: str, command_id: str, shards: int) -> None:
    # The append script touches these together; on a cluster they must share a slot,
    # even when a game or command id itself contains braces.
    s = keys.shard_of(game_id, shards)
    assert 0 <= s < shards
    names = [
        keys.cmd(s),
        keys.log(s, game_id),
        keys.feed(s),
        keys.done(s, command_id),
        keys.latency(s, "arkadia"),
        keys.secret(s, game_id),
        keys.games(s),
        keys.rejections(s),
        keys.dead(s),
        keys.view(s, game_id, 2),
        keys.view(s, game_id, None),
        keys.checkpoint(s, "board"),
    ]
    assert {hash_tag(n) for n in names} == {str(s)}


def test_the_game_of_a_view_key() -> None:
    for g in ("g1", "seven_wonders-abc", "a:b:c"):
        for seat in (None, 0, 6):
            assert keys.game_of_view(keys.view(2, g, seat)) == g
    assert keys.views_pattern(2) == "view:{2}:*" and keys.stats_pattern() == "stats:*"
    assert keys.game_views_pattern(2, "g1") == "view:{2}:g1:*" and keys.games_pattern() == "games:{*}"


def test_a_game_s_views_pattern_matches_its_views_only() -> None:
    from fnmatch import fnmatchcase

    pattern = keys.game_views_pattern(1, "g1")
    assert all(fnmatchcase(keys.view(1, "g1", seat), pattern) for seat in (None, 0, 3))
    assert not any(fnmatchcase(keys.view(s, g, 0), pattern) for s, g in ((1, "g10"), (1, "g"), (0, "g1")))
    assert fnmatchcase(keys.games(7), keys.games_pattern()) and not fnmatchcase(keys.feed(7), keys.games_pattern())


def test_game_id_syntax() -> None:
    """New game ids: 1-100 of [A-Za-z0-9_.-], starting with a letter or digit; the message
    of a refusal shows a long id cut short."""
    for ok in ("g", "seven_wonders-0123456789", "A.b-c_9", "x" * keys.GAME_ID_MAX):
        assert keys.game_id_problem(ok) is None, ok
    for bad in ("", "tab\there", "line\n", "x" * 3000, "x" * (keys.GAME_ID_MAX + 1), "{s}", "a}b", "-a", "_a",
                "a:b", "a b", "é"):
        problem = keys.game_id_problem(bad)
        assert problem is not None and problem.startswith("game id must be 1-100 characters"), bad
        assert len(problem) < 200
