"""Seat tokens (issue #3 item 4: one secret token per seat) as a command line takes them."""

from __future__ import annotations

import re

from typer.main import get_command

from services.cli.__main__ import app
from services.protocol import new_token, token_hash

ACT = get_command(app).commands["act"]  # type: ignore[attr-defined]


def test_tokens_are_long_random_and_never_look_like_an_option() -> None:
    tokens = [new_token() for _ in range(5000)]
    assert len(set(tokens)) == len(tokens)
    assert all(re.fullmatch(r"[0-9a-f]{36}", t) for t in tokens)  # 144 bits, shell-safe
    assert len({token_hash(t) for t in tokens}) == len(tokens)


def test_act_takes_every_new_token_as_its_token_argument() -> None:
    """`tablestream act GAME SEAT TOKEN COMMAND`: a token beginning with "-" was read as an
    option (a usage error, exit 2); URL-safe base64 tokens began so one time in 64."""
    for _ in range(500):
        token = new_token()
        ctx = ACT.make_context("act", ["seven_wonders-0123456789", "1", token, "discard Loom"])
        assert ctx.params["token"] == token and ctx.params["seat"] == 1
