"""docs/openapi.json is what `tablestream openapi` writes from the code; the gateway's rate
settings parse as documented; building the app raises no deprecation warning."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from services.cli.__main__ import app
from services.cli.gateway import openapi_schema
from services.config import Settings
from services.gateway.app import create_app
from services.gateway.limits import cors, parse_rate

DOC = Path(__file__).resolve().parents[3] / "docs" / "openapi.json"


def test_the_committed_openapi_document_is_current() -> None:
    assert DOC.read_bytes() == openapi_schema(), "run `tablestream openapi` and commit docs/openapi.json"
    paths = json.loads(DOC.read_text())["paths"]
    assert {"/games", "/games/{game_id}/commands", "/games/{game_id}/log", "/lobbies", "/game-types"} <= set(paths)


def test_the_openapi_verb_writes_the_document(tmp_path: Path) -> None:
    out = tmp_path / "api.json"
    res = CliRunner().invoke(app, ["openapi", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes() == openapi_schema()


def test_rates_and_cors_settings() -> None:
    assert parse_rate("600/minute") == ("minute", 600)
    assert parse_rate("off") is None and parse_rate("") is None
    for bad in ("600", "x/minute", "5/fortnight", "-1/second"):
        with pytest.raises(ValueError):
            parse_rate(bad)
    assert cors("") is None
    assert cors("https://a.example, https://b.example").allow_origins == ["https://a.example", "https://b.example"]


def test_the_app_is_built_without_deprecated_declarations() -> None:
    """Litestar warns at build time of handler parameters declared in its deprecated styles
    (inferred path/query parameters, `data` without a body marker): none may be left."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        create_app(Settings(), "redis://unused").openapi_schema.to_schema()
