"""The project reads nothing outside its repository (issue #29): the suite's guard
(tests/support_outside_reads.py) catches such a read, and no source file points beside it."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from tests.support_outside_reads import GUARD, ROOT, Guard, system_locations

SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".hypothesis", ".pytest_cache", "build", "dist"}
# these files name what they look for
EXEMPT = {Path(__file__).resolve(), ROOT / "tests" / "unit" / "test_rules_docs.py"}


def outside_probe() -> Path:
    """A path the guard must flag: beside the repository (or at the root when it has no parent to guard)."""
    base = ROOT.parent if GUARD.beside else Path("/")
    return base / f"tablestream-outside-probe-{uuid.uuid4().hex}.json"


def test_the_hook_records_a_read_beside_the_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sibling folder of the repository is flagged even though it lies in the (allowed) temp dir."""
    repo, sibling = tmp_path / "repo", tmp_path / "shared" / "rules" / "data"
    (repo / "tests" / "data").mkdir(parents=True)
    sibling.mkdir(parents=True)
    (sibling / "x.json").write_text("{}")
    guard = Guard(repo, interpreter=[sys.prefix], system=system_locations())
    guard.where = "t"
    guard.hook("open", (str(sibling / "x.json"), "r", 0))
    guard.hook("open", (os.fsencode(tmp_path / "elsewhere.txt"), "r", 0))
    monkeypatch.chdir(repo)
    guard.hook("open", ("../shared/rules/data/x.json", "r", 0))
    guard.hook("open", ("/srv/not-a-system-folder/x", "w", 0))
    assert guard.reads == [("t", str(sibling / "x.json")), ("t", str(tmp_path / "elsewhere.txt")),
                           ("t", str(sibling / "x.json")), ("t", "/srv/not-a-system-folder/x")]
    assert "4 read(s) outside the repository" in guard.report() and str(sibling / "x.json") in guard.report()


def test_the_hook_lets_the_repository_the_interpreter_and_the_system_be(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    venv = tmp_path / "venv"  # a venv beside the repository is the interpreter's, not a rules file
    guard = Guard(repo, interpreter=[venv], system=system_locations())
    monkeypatch.chdir(tmp_path)
    for path in (repo / "tests" / "data" / "x.json", "repo/README.md", venv / "lib" / "site.py",
                 "/usr/lib/python3/x.py", "/etc/hosts", "/dev/null", os.path.join(tempfile.gettempdir(), "t.rdb")):
        guard.hook("open", (os.fspath(path), "r", 0))
    guard.hook("open", (7, "r", 0))  # a file descriptor
    guard.hook("os.listdir", (str(tmp_path / "shared"),))  # not an open
    assert guard.reads == [] and guard.report() == ""


def test_a_clone_right_in_the_temp_dir_may_use_the_temp_dir() -> None:
    guard = Guard("/tmp/repo", system=["/tmp"])
    guard.hook("open", ("/tmp/pytest-of-me/t.json", "r", 0))
    assert guard.reads == []


def test_the_installed_guard_sees_a_real_open(request: pytest.FixtureRequest) -> None:
    probe = outside_probe()
    try:
        with pytest.raises(FileNotFoundError):
            open(probe, encoding="utf-8")  # noqa: SIM115 - the audit event fires before the open fails
        assert (request.node.nodeid, str(probe)) in GUARD.reads
    finally:
        GUARD.reads[:] = [r for r in GUARD.reads if r[1] != str(probe)]  # an expected read: not this run's failure


def test_an_outside_read_fails_the_session(tmp_path: Path) -> None:
    """A pytest run with the guard: its tests pass, yet the run fails and names the test and path."""
    probe = outside_probe()
    (tmp_path / "test_reads.py").write_text(
        "def test_inside():\n"
        f"    open({str(ROOT / 'pyproject.toml')!r}, encoding='utf-8').close()\n\n"
        "def test_outside():\n"
        "    try:\n"
        f"        open({str(probe)!r}, encoding='utf-8')\n"
        "    except FileNotFoundError:\n"
        "        pass\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                          "tests.support_outside_reads", str(tmp_path / "test_reads.py")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})  # a faster start
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout + run.stderr
    assert "2 passed" in run.stdout and "reads outside the repository" in run.stdout
    assert f"test_reads.py::test_outside: {probe}" in run.stdout
    assert "test_inside" not in run.stdout.split("reads outside the repository")[1]


# --- static: no source points beside the repository -----------------------------------
def source_files() -> list[Path]:
    out = []
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")
                   and (not d.startswith(".") or d == ".ci")]
        for name in files:
            path = Path(top) / name
            if path.suffix in {".py", ".toml", ".lua", ".sh"} or path.parent.name == ".ci":
                out.append(path)
    return sorted(out)


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def beside_references(path: Path) -> list[str]:
    """Code in `path` that names a place beside the repository: '../shared' anywhere in a
    non-Python file; in Python, a string (not a docstring: prose is docs/rules' business,
    tests/unit/test_rules_docs.py) holding '../shared' or a path part 'shared'."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if "../shared" not in text and "/shared/" not in text and not re.search(r"""["']/?shared/?["']""", text):
        return []  # the cheap common case: nothing to parse
    if path.suffix != ".py":
        return [line.strip() for line in text.splitlines() if "../shared" in line]
    tree = ast.parse(text, filename=str(path))
    docs = _docstrings(tree)
    return [repr(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
            and ("../shared" in node.value or node.value.strip("/") == "shared" or "/shared/" in node.value)]


def test_the_static_check_sees_a_path_beside_the_repository(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('"""Data from ../shared/rules (prose)."""\nP = ROOT.parent / "shared" / "x"\n')
    (tmp_path / "b.py").write_text('P = open("../shared/rules/data/x.json")\nQ = "a shared win"\n')
    (tmp_path / "run.sh").write_text("cp ../shared/rules/data/*.json .\n")
    assert beside_references(tmp_path / "a.py") == ["'shared'"]
    assert beside_references(tmp_path / "b.py") == ["'../shared/rules/data/x.json'"]
    assert beside_references(tmp_path / "run.sh") == ["cp ../shared/rules/data/*.json ."]


def test_no_source_file_points_beside_the_repository() -> None:
    files = [f for f in source_files() if f not in EXEMPT]
    assert ROOT / "pyproject.toml" in files and ROOT / "events" / "append.lua" in files
    assert ROOT / ".ci" / "run" in files
    found = {str(f.relative_to(ROOT)): refs for f in files if (refs := beside_references(f))}
    assert found == {}
