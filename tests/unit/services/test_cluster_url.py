"""REDIS_URL for a Redis Cluster (README "Redis Cluster"): `redis+cluster://` seed nodes."""

from __future__ import annotations

import pytest
from redis.asyncio.cluster import RedisCluster

from services.config import cluster_nodes, from_env
from services.redis_client import client, is_cluster


def test_seed_nodes_user_and_password_are_read_from_the_url() -> None:
    assert cluster_nodes("redis+cluster://10.0.0.1:7000,10.0.0.2:7001") == (
        [("10.0.0.1", 7000), ("10.0.0.2", 7001)], None, None)
    assert cluster_nodes("redis+cluster://ts:p%40ss@h:7000") == ([("h", 7000)], "ts", "p@ss")
    assert cluster_nodes("redis+cluster://only-password@[::1]:7000") == ([("::1", 7000)], None, "only-password")


@pytest.mark.parametrize("bad", ["redis+cluster://", "redis+cluster://host", "redis+cluster://h:0",
                                 "redis+cluster://h:7000,h2", "redis+cluster://sekret@h:x"])
def test_a_bad_cluster_url_is_refused_without_showing_it(bad: str) -> None:
    with pytest.raises(ValueError) as e:
        from_env({"REDIS_URL": bad})
    assert "redis+cluster://host:port" in str(e.value) and "sekret" not in str(e.value)


async def test_a_cluster_url_gives_a_cluster_client_and_a_plain_url_does_not() -> None:
    assert from_env({"REDIS_URL": "redis+cluster://127.0.0.1:7000"}).redis_url == "redis+cluster://127.0.0.1:7000"
    rc = client("redis+cluster://127.0.0.1:7000,127.0.0.1:7001")  # no connection before the first call
    plain = client("redis://127.0.0.1:6379/0")
    try:
        assert isinstance(rc, RedisCluster) and is_cluster(rc)
        assert [(n.host, n.port) for n in rc.startup_nodes] == [("127.0.0.1", 7000), ("127.0.0.1", 7001)]
        assert not is_cluster(plain)
    finally:
        await rc.aclose()
        await plain.aclose()
