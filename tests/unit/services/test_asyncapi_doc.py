"""docs/asyncapi.json is what `tablestream asyncapi` writes from the referee's FastStream app:
its command streams, their consumer group, read with XREADGROUP."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from services.cli.__main__ import app
from services.cli.gateway import asyncapi_schema

DOC = Path(__file__).resolve().parents[3] / "docs" / "asyncapi.json"


def test_the_committed_asyncapi_document_is_current() -> None:
    assert DOC.read_bytes() == asyncapi_schema(), "run `tablestream asyncapi` and commit docs/asyncapi.json"
    doc = json.loads(DOC.read_text())
    assert doc["asyncapi"].startswith("3.")
    redis = [c["bindings"]["redis"] for c in doc["channels"].values()]
    assert {b["channel"] for b in redis} == {"cmd:{0}"}
    assert {b["method"] for b in redis} == {"xreadgroup"} and {b["groupName"] for b in redis} == {"referee"}


def test_the_asyncapi_verb_writes_the_document(tmp_path: Path) -> None:
    out = tmp_path / "streams.json"
    res = CliRunner().invoke(app, ["asyncapi", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes() == asyncapi_schema()
