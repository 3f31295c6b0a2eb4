"""`tablestream gateway`: serve the HTTP gateway (services/gateway) until stopped."""

from __future__ import annotations

import os
from typing import Optional

import typer
from redis.exceptions import RedisError
from rich.console import Console

from services import config as config_mod

err = Console(stderr=True)
USAGE, UNAVAILABLE = 2, 4


def gateway(host: str = typer.Option("127.0.0.1", help="Address to listen on."),
            port: int = typer.Option(8080, help="TCP port to listen on."),
            data_dir: Optional[str] = typer.Option(None, "--data-dir", help="Embedded Redis folder when REDIS_URL is "
                                                   "unset (default ./.tablestream).")) -> None:
    """Serve the HTTP gateway (README "Play over HTTP") until Ctrl-C or SIGTERM. Commands are
    judged by the referee of a running `tablestream up`."""
    from services.gateway.server import serve
    from services.redis_client import ShardMismatch

    if not 0 <= port <= 65535:
        err.print("[red]--port must be 0..65535[/red]")
        raise typer.Exit(USAGE)
    try:
        settings = config_mod.from_env(data_dir=data_dir)
    except ValueError as e:
        err.print(f"[red]{e}[/red]")
        raise typer.Exit(USAGE) from None
    loop = "asyncio" if os.environ.get("TABLESTREAM_LOOP") == "asyncio" else "uvloop"
    try:
        code = serve(settings, host, port, loop)
    except ShardMismatch as e:
        err.print(f"[red]{e}[/red]")
        raise typer.Exit(USAGE) from None
    except (ConnectionError, OSError, RedisError) as e:
        err.print(f"[red]the service did not answer: {type(e).__name__}: {e}[/red]")
        raise typer.Exit(UNAVAILABLE) from None
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add this module's verb to the CLI."""
    app.command("gateway")(gateway)
