"""Every CLI verb answers `--help` (issue #3 item 9) with its usage, without touching Redis."""

from __future__ import annotations

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from services.cli.__main__ import app

ROOT = get_command(app)
VERBS = sorted(ROOT.commands)  # type: ignore[attr-defined]


def test_the_verbs_readme_lists_exist() -> None:
    for verb in ("play", "up", "new", "act", "view", "moves", "replay", "verify", "stats", "export", "import",
                 "fork", "script", "bench", "projections"):
        assert verb in VERBS, verb


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_has_help(verb: str) -> None:
    out = CliRunner().invoke(app, [verb, "--help"])
    assert out.exit_code == 0, out.output
    assert "Usage:" in out.output and verb in out.output
