"""A guard that the suite reads nothing outside the repository (issue #29).

A clone must test with nothing beside it, so a test or module that opens a file outside the
repository fails the run. An audit hook (`sys.addaudithook`) sees every `open` in this process;
paths inside the repository, the interpreter and its packages, the temporary directory and the
system/caches locations are fine; anything else is recorded, and above all anything beside the
repository (its parent folder), where a developer's machine may hold files a clone lacks. The
session then fails and lists each read with the test that made it. Loaded by tests/conftest.py.
Subprocesses (e2e CLI runs) are not watched: they run the project's code, which the suite
exercises in-process too.
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
import tempfile
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _home_caches() -> list[str]:
    home = os.path.expanduser("~")
    if home in ("~", "/"):
        return []
    return [os.path.join(home, d) for d in (".cache", ".config", ".local")] + [
        v for v in (os.environ.get("XDG_CACHE_HOME"), os.environ.get("XDG_CONFIG_HOME")) if v]


def interpreter_locations() -> list[str]:
    """Where Python, the venv and the installed packages live (wherever that is)."""
    places = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *site.getsitepackages()}
    places.add(site.getusersitepackages())
    places.update(p for p in sysconfig.get_paths().values() if p)
    return sorted(places)


def system_locations() -> list[str]:
    """The system's own folders, the temporary directory and the home's caches."""
    return sorted({"/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/proc", "/sys", "/dev", "/run",
                   "/tmp", "/var/tmp", tempfile.gettempdir(), *_home_caches()})


def _prefixes(paths: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({os.path.abspath(p).rstrip(os.sep) + os.sep for p in paths}))


class Guard:
    """Records `open` audit events for paths outside `root` and the allowed locations.

    `interpreter` locations are allowed anywhere; `system` ones only when not under `root`'s
    parent folder (a clone in /tmp/x/repo must not read /tmp/x/shared), unless that parent is
    itself one of them (a clone right in /tmp)."""

    def __init__(self, root: str | Path, interpreter: Iterable[str] = (), system: Iterable[str] = ()) -> None:
        self.root = os.path.abspath(root).rstrip(os.sep) + os.sep
        self.interpreter = _prefixes(interpreter)
        system = _prefixes(system)
        parent = os.path.dirname(self.root.rstrip(os.sep)).rstrip(os.sep) + os.sep
        self.beside = "" if parent in system or parent == os.sep else parent
        self.system = system
        self.where = "collection"
        self.reads: list[tuple[str, str]] = []

    def outside(self, path: str) -> bool:
        """True when opening `path` (absolute or relative to the cwd) leaves the allowed places."""
        full = os.path.abspath(path) + os.sep
        if full.startswith(self.root) or full.startswith(self.interpreter):
            return False
        if self.beside and full.startswith(self.beside):
            return True
        return not full.startswith(self.system)

    def hook(self, event: str, args: tuple) -> None:
        """The audit hook: cheap for every other event; never raises."""
        if event != "open":
            return
        path = args[0]
        if isinstance(path, int) or path is None:
            return
        try:
            path = os.fsdecode(path)
            if self.outside(path):
                self.reads.append((self.where, os.path.abspath(path)))
        except Exception:  # noqa: BLE001 - a hook that raises would break the open it watches
            return

    def report(self) -> str:
        """The lines that fail the session ('' when nothing was read outside)."""
        if not self.reads:
            return ""
        lines = [f"{len(self.reads)} read(s) outside the repository {self.root.rstrip(os.sep)} "
                 "(a fresh clone has nothing beside it; put the data in the repository):"]
        lines += [f"  {where}: {path}" for where, path in self.reads]
        return "\n".join(lines)


GUARD = Guard(ROOT, interpreter_locations(), system_locations())
sys.addaudithook(GUARD.hook)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    GUARD.where = item.nodeid
    try:
        return (yield)
    finally:
        GUARD.where = "between tests"


def pytest_sessionfinish(session, exitstatus) -> None:
    if GUARD.reads and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:
    if text := GUARD.report():
        terminalreporter.section("reads outside the repository", red=True)
        terminalreporter.write_line(text)
