"""The CLI's event loop: uvloop by default, asyncio's own on request (README "Settings")."""

from __future__ import annotations

import asyncio

import pytest
import typer
import uvloop  # a dependency everywhere but Windows (pyproject marker)

from services.cli.shared import USAGE, loop_factory, run


def test_the_cli_runs_on_uvloop_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLESTREAM_LOOP", raising=False)

    async def which() -> type:
        return type(asyncio.get_running_loop())

    assert loop_factory() is uvloop.new_event_loop
    assert run(which()) is uvloop.Loop


def test_tablestream_loop_asyncio_keeps_the_standard_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESTREAM_LOOP", "asyncio")

    async def which() -> type:
        return type(asyncio.get_running_loop())

    assert loop_factory() is None
    assert not issubclass(run(which()), uvloop.Loop)


def test_an_unknown_tablestream_loop_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESTREAM_LOOP", "trio")

    async def never() -> None:
        raise AssertionError("must not run")

    with pytest.raises(typer.Exit) as info:
        run(never())
    assert info.value.exit_code == USAGE
