"""`tablestream chat matrix`: run the Matrix bot (services/chat/matrix.py) until stopped
(`tablestream chat-matrix`, its first name, stays as a hidden alias)."""

from __future__ import annotations

import asyncio
import signal
import sys
from typing import Optional

import typer
from redis.exceptions import RedisError
from rich.console import Console

from services import config as config_mod

err = Console(stderr=True)
USAGE, UNAVAILABLE = 2, 4


def chat_matrix(data_dir: Optional[str] = typer.Option(None, "--data-dir", help="Embedded Redis folder when "
                                                       "REDIS_URL is unset (default ./.tablestream).")) -> None:
    """Play in a Matrix room (README "Play in chat"): a bot account on MATRIX_HOMESERVER
    (MATRIX_USER with MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN) answers `!ts ...` in the rooms
    it is invited to, through the gateway at TABLESTREAM_GATEWAY_URL; private replies go
    to a direct-message room. Runs until Ctrl-C or SIGTERM."""
    from services.chat.matrix import MatrixBot
    from services.chat.matrix import from_env as matrix_env
    from services.redis_client import connect

    try:
        settings = config_mod.from_env(data_dir=data_dir)
        mx = matrix_env()
    except ValueError as e:
        err.print(f"[red]{e}[/red]")
        raise typer.Exit(USAGE) from None

    async def main() -> None:
        async with connect(settings) as r:
            await r.ping()
            bot = MatrixBot(mx, r)
            task = asyncio.create_task(bot.run())
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, task.cancel)
            print(f"tablestream chat matrix: {mx.homeserver} via {mx.gateway_url}", file=sys.stderr, flush=True)
            try:
                await task
            except asyncio.CancelledError:
                pass

    try:
        asyncio.run(main())
    except (ConnectionError, OSError, RedisError) as e:
        err.print(f"[red]the service did not answer: {type(e).__name__}[/red]")
        raise typer.Exit(UNAVAILABLE) from None
    except RuntimeError as e:
        err.print(f"[red]{e}[/red]")
        raise typer.Exit(UNAVAILABLE) from None


def register(app: typer.Typer) -> None:
    """Add this module's verb to the CLI: `chat matrix`, and the hidden alias `chat-matrix`."""
    from services.cli.chat import chat_app

    chat_app.command("matrix")(chat_matrix)
    app.command("chat-matrix", hidden=True)(chat_matrix)
