"""games/ stays pure: an allowlist of imports, checked by parsing every module (STYLE 3.2)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[3] / "games"
ALLOWED = {
    "__future__", "msgspec", "typing", "collections", "dataclasses", "enum", "functools", "itertools",
    "operator", "math", "fractions", "re", "events", "games",
}
# Module -> extra imports it alone may use.
EXTRA = {
    "rng.py": {"hashlib"},
    "seed_files.py": {"hashlib", "importlib"},  # the one permitted read: the versioned seed data (every catalog)
}
FORBIDDEN_EVENTS = {"events.store"}


def modules() -> list[Path]:
    return sorted(GAMES.rglob("*.py"))


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(GAMES)))
def test_module_imports_only_allowlisted_packages(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    allowed = ALLOWED | EXTRA.get(path.name, set())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in allowed, f"{path.name}: import {name} is not allowed in games/"
            assert name not in FORBIDDEN_EVENTS, f"{path.name}: games/ must not import {name}"


def test_the_allowlist_rejects_io_modules(tmp_path: Path) -> None:
    for bad in ("random", "time", "os", "redis", "socket", "datetime", "uuid"):
        assert bad not in ALLOWED


def test_games_never_import_each_other() -> None:
    folders = [p.name for p in GAMES.iterdir() if (p / "__init__.py").exists()]
    for folder in folders:
        for path in (GAMES / folder).rglob("*.py"):
            text = path.read_text()
            for other in folders:
                if other != folder:
                    # word boundaries: games.seven_wonders_duel is not games.seven_wonders
                    assert not re.search(rf"\bgames\.{other}\b", text), f"{path} imports games.{other}"


def test_import_contracts_hold() -> None:
    """import-linter's layer, no-I/O and independence contracts from pyproject.toml."""
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(exe)], cwd=GAMES.parent, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
