"""Helpers every CLI verb shares (services/cli/shared.py)."""

from __future__ import annotations

import pytest

from services.cli.shared import without_password
from services.config import from_env


def test_a_printed_url_never_shows_its_password() -> None:
    assert without_password("redis://:s3cret@127.0.0.1:6381/0") == "redis://:***@127.0.0.1:6381/0"
    assert without_password("rediss://user:s3cret@host:6380/1") == "rediss://user:***@host:6380/1"
    assert without_password("redis://127.0.0.1:6381/0") == "redis://127.0.0.1:6381/0"


@pytest.mark.parametrize("url", ["notaurl", "redis://127.0.0.1:notaport/0", "redis://:s3cret@h:99999/0", "redis://[::1"])
def test_a_malformed_redis_url_is_a_value_error_that_does_not_echo_it(url: str) -> None:
    with pytest.raises(ValueError, match="REDIS_URL is not a Redis URL") as e:
        from_env({"REDIS_URL": url})
    assert "s3cret" not in str(e.value) and "notaport" not in str(e.value)


def test_well_formed_redis_urls_pass() -> None:
    for url in ("redis://127.0.0.1:6381/0", "rediss://u:p@h:1/2", "unix:///tmp/redis.sock"):
        assert from_env({"REDIS_URL": url}).redis_url == url
    assert from_env({}).redis_url is None
