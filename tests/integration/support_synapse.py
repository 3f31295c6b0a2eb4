"""A real Matrix homeserver for the Matrix tests: Synapse (`matrix-synapse` from the package
index, in its own virtualenv because its pins may clash with the project's), SQLite, one
client listener on a free loopback port, no federation and no outbound network (no URL
previews, no key servers, no stats), rate limits raised for tests. Users are registered
with the shared secret through the admin register API (HMAC-SHA1 over a nonce).

The interpreter comes from TABLESTREAM_SYNAPSE_PYTHON (.ci/run installs Synapse and sets
it), else `.synapse-venv/bin/python` at the repository's root, else the cached one that
.ci/run and the first test run install (`~/.cache/tablestream/synapse-venv`, a few minutes
once), so README's test command works on a fresh clone. Nothing is skipped: if Synapse
cannot be installed or does not start, the test fails and says why."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import fcntl
import sys

import httpx
import pytest

from tests.integration.support_gateway import free_port

ROOT = Path(__file__).resolve().parents[2]
START_S = 240.0  # Synapse's first start creates its SQLite schema; the shared machine is slow


def synapse_python() -> Path:
    """TABLESTREAM_SYNAPSE_PYTHON, else `.synapse-venv/` in the clone, else .ci/run's cache."""
    given = os.environ.get("TABLESTREAM_SYNAPSE_PYTHON")
    if given:
        return Path(given)
    local = ROOT / ".synapse-venv" / "bin" / "python"
    if local.exists():
        return local
    cache = Path(os.environ.get("TABLESTREAM_SYNAPSE_VENV") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tablestream" / "synapse-venv")
    return install_synapse(cache)


def install_synapse(venv: Path) -> Path:
    """`venv`'s interpreter, with matrix-synapse installed into it first if it cannot import
    Synapse yet (as .ci/run does; under a lock, so parallel runs install once)."""
    py = venv / "bin" / "python"
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / "synapse-venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ready = py.exists() and subprocess.run([str(py), "-c", "import synapse.app.homeserver"],
                                               capture_output=True).returncode == 0
        if not ready:
            print(f"installing matrix-synapse into {venv} (once; a few minutes)", file=sys.stderr, flush=True)
            steps = [[sys.executable, "-m", "venv", str(venv)],
                     [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", "matrix-synapse"]]
            for step in steps:
                done = subprocess.run(step, capture_output=True, text=True)
                if done.returncode != 0:
                    pytest.fail(f"could not install Synapse ({' '.join(step[:3])} ...): {done.stderr[-2000:]}",
                                pytrace=False)
    return py


def overrides(d: Path, port: int, secret: str) -> str:
    """The test homeserver's settings, laid over the generated config (later -c wins)."""
    fast = "{per_second: 10000, burst_count: 10000}"
    return f"""\
server_name: localhost
public_baseurl: http://127.0.0.1:{port}/
listeners:
  - port: {port}
    bind_addresses: ['127.0.0.1']
    type: http
    tls: false
    x_forwarded: false
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: {d}/homeserver.db
media_store_path: {d}/media
signing_key_path: {d}/localhost.signing.key
log_config: {d}/tests.log.config
registration_shared_secret: "{secret}"
enable_registration: false
report_stats: false
enable_metrics: false
trusted_key_servers: []
suppress_key_server_warning: true
url_preview_enabled: false
federation_domain_whitelist: []
allow_public_rooms_over_federation: false
presence:
  enabled: false
rc_message: {fast}
rc_registration: {fast}
rc_joins:
  local: {fast}
  remote: {fast}
rc_invites:
  per_room: {fast}
  per_user: {fast}
  per_issuer: {fast}
rc_login:
  address: {fast}
  account: {fast}
  failed_attempts: {fast}
rc_admin_redaction: {fast}
rc_3pid_validation: {fast}
rc_room_creation: {fast}
"""


LOG_CONFIG = """\
version: 1
formatters:
  plain:
    format: '%(asctime)s - %(name)s - %(levelname)s - %(message)s'
handlers:
  file:
    class: logging.FileHandler
    formatter: plain
    filename: {d}/homeserver.log
root:
  level: WARNING
  handlers: [file]
disable_existing_loggers: false
"""
"""Warnings only, into the test's folder (the generated config logs every request)."""


@dataclass
class Synapse:
    base: str
    secret: str
    proc: subprocess.Popen
    dir: Path
    start_s: float = 0.0

    def register(self, user: str, password: str, admin: bool = False) -> str:
        """Registers `user` with the shared secret; returns its Matrix id (@user:localhost)."""
        url = self.base + "/_synapse/admin/v1/register"
        nonce = httpx.get(url, timeout=30).json()["nonce"]
        mac = hmac.new(self.secret.encode(), digestmod=hashlib.sha1)
        mac.update(b"\x00".join([nonce.encode(), user.encode(), password.encode(),
                                 b"admin" if admin else b"notadmin"]))
        res = httpx.post(url, timeout=60, json={"nonce": nonce, "username": user, "password": password,
                                                "admin": admin, "mac": mac.hexdigest()})
        assert res.status_code == 200, f"registering {user} failed: {res.status_code} {res.text[:300]}"
        return res.json()["user_id"]

    def log_tail(self) -> str:
        out = self.dir / "synapse.out"
        return out.read_text(errors="replace")[-3000:] if out.exists() else ""


def start_synapse(d: Path) -> Synapse:
    """Generates a config in `d`, starts Synapse and waits for /_matrix/client/versions."""
    py = synapse_python()
    if not py.exists():
        pytest.fail(f"Synapse is not installed: no {py} (run .ci/run, or: python3 -m venv .synapse-venv && "
                    ".synapse-venv/bin/pip install matrix-synapse; or set TABLESTREAM_SYNAPSE_PYTHON)", pytrace=False)
    port, secret = free_port(), secrets.token_hex(24)
    cfg = d / "homeserver.yaml"
    gen = subprocess.run([str(py), "-m", "synapse.app.homeserver", "--server-name", "localhost",
                          "--config-path", str(cfg), "--config-directory", str(d), "--data-directory", str(d),
                          "--generate-config", "--report-stats=no"],
                         capture_output=True, text=True, timeout=300, cwd=d)
    if gen.returncode != 0:
        pytest.fail(f"Synapse could not generate its config: {gen.stderr[-2000:]}", pytrace=False)
    (d / "tests.yaml").write_text(overrides(d, port, secret))
    (d / "tests.log.config").write_text(LOG_CONFIG.format(d=d))
    t0 = time.monotonic()
    proc = subprocess.Popen([str(py), "-m", "synapse.app.homeserver", "-c", str(cfg), "-c", str(d / "tests.yaml")],
                            cwd=d, stdout=open(d / "synapse.out", "w"), stderr=subprocess.STDOUT)
    hs = Synapse(f"http://127.0.0.1:{port}", secret, proc, d)
    deadline = t0 + START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"Synapse exited with {proc.returncode}: {hs.log_tail()}", pytrace=False)
        try:
            if httpx.get(hs.base + "/_matrix/client/versions", timeout=2).status_code == 200:
                hs.start_s = time.monotonic() - t0
                return hs
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    stop_synapse(hs)
    pytest.fail(f"Synapse did not answer within {START_S:.0f} s: {hs.log_tail()}", pytrace=False)


def stop_synapse(hs: Synapse) -> None:
    if hs.proc.poll() is None:
        hs.proc.send_signal(signal.SIGTERM)
        try:
            hs.proc.wait(30)
        except subprocess.TimeoutExpired:
            hs.proc.kill()
            hs.proc.wait()


@pytest.fixture(scope="session")
def synapse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synapse]:
    """A running Synapse for the whole session (fails, never skips, if it cannot start)."""
    hs = start_synapse(tmp_path_factory.mktemp("synapse"))
    print(f"synapse: answered after {hs.start_s:.1f} s at {hs.base}")
    try:
        yield hs
    finally:
        stop_synapse(hs)
