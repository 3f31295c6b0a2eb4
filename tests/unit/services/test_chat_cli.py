"""The chat verbs' shape and their start-up refusals: `tablestream chat matrix` is the
Matrix bot's verb (`chat-matrix` a hidden alias); a platform configured by halves (Slack's
signing secret without its bot token, Discord's key without its app id or bot token) is
refused at start with one line and exit 2, before anything is served or connected."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from services.cli.__main__ import app

CHAT_ENV = ("DISCORD_PUBLIC_KEY", "DISCORD_APP_ID", "DISCORD_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN")


def test_matrix_is_a_chat_verb_and_chat_matrix_a_hidden_alias() -> None:
    runner = CliRunner()
    chat = runner.invoke(app, ["chat", "--help"])
    assert chat.exit_code == 0 and "matrix" in chat.output, chat.output
    sub = runner.invoke(app, ["chat", "matrix", "--help"])
    assert sub.exit_code == 0 and "MATRIX_HOMESERVER" in sub.output, sub.output
    alias = runner.invoke(app, ["chat-matrix", "--help"])
    assert alias.exit_code == 0 and "MATRIX_HOMESERVER" in alias.output, alias.output
    assert "chat-matrix" not in runner.invoke(app, ["--help"]).output


def _serve(env: dict[str, str]) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in CHAT_ENV and k != "REDIS_URL"}
    # REDIS_URL unset on purpose: a refusal must come before any Redis (embedded or not) is started
    return subprocess.run([sys.executable, "-m", "services.cli", "chat", "serve", "--port", "0",
                           "--data-dir", "/nonexistent/never-created"], env={**base, **env},
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("env, names", [
    ({"SLACK_SIGNING_SECRET": "s3cret-signing"}, ["SLACK_BOT_TOKEN"]),
    ({"DISCORD_PUBLIC_KEY": "ab" * 32, "DISCORD_BOT_TOKEN": "bot-t0ken"}, ["DISCORD_APP_ID"]),
    ({"DISCORD_PUBLIC_KEY": "ab" * 32, "DISCORD_APP_ID": "42", "SLACK_SIGNING_SECRET": "s3cret-signing",
      "SLACK_BOT_TOKEN": "xoxb-t0ken"}, ["DISCORD_BOT_TOKEN"]),
])
def test_a_platform_set_by_halves_is_refused_in_one_line(env: dict[str, str], names: list[str]) -> None:
    done = _serve(env)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and all(n in lines[0] for n in names), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    for secret in env.values():
        assert secret not in done.stderr
    assert not os.path.exists("/nonexistent/never-created")
