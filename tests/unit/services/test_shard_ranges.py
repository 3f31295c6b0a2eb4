"""`up --projector-shards`: which shards a range names, and the usage errors it gives."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from services.cli.__main__ import app
from services.cli.admin import _ranges_text, shard_ranges


def test_ranges_name_each_shard_once_in_order() -> None:
    assert shard_ranges("0-3", 16) == [0, 1, 2, 3]
    assert shard_ranges("8-11, 0,3", 16) == [0, 3, 8, 9, 10, 11]
    assert shard_ranges("2,2,1-2", 4) == [1, 2]
    assert shard_ranges("15", 16) == [15]
    assert _ranges_text([0, 1, 2, 5, 7, 8]) == "0-2,5,7-8"


@pytest.mark.parametrize(("text", "why"), [
    ("", "is not a shard"), ("a-3", "is not a shard"), ("1-", "is not a shard"), ("-1", "is not a shard"),
    ("3-1", "first shard comes after its last"), ("0-16", "shard 16 does not exist: there are 16"),
    ("1.5", "is not a shard"),
])
def test_bad_ranges_say_why(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        shard_ranges(text, 16)


def test_up_refuses_a_bad_range_with_exit_2_before_connecting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARDS", "4")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # never reached: refused first
    got = CliRunner().invoke(app, ["up", "--no-referee", "--projector-shards", "2-4"])
    assert got.exit_code == 2
    assert "--projector-shards: shard 4 does not exist: there are 4" in got.output
