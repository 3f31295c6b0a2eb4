"""`tablestream gateway`: serve the HTTP gateway (services/gateway) until stopped; `tablestream
openapi`: write its OpenAPI document."""

from __future__ import annotations

import os
import sys
from pathlib import Path
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
    from services.gateway.limits import parse_rate

    try:
        parse_rate(settings.gateway_rate_address)
        parse_rate(settings.gateway_rate_token)
    except ValueError as e:
        err.print(f"[red]TABLESTREAM_GATEWAY_RATE_*: {e}[/red]")
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




def openapi_schema() -> bytes:
    """The gateway's OpenAPI document (as served at /schema/openapi.json), as stable JSON."""
    import json

    from services.config import Settings
    from services.gateway.app import create_app

    schema = create_app(Settings(), "redis://unused").openapi_schema.to_schema()  # builds, never connects
    return (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode()


def openapi(out: Path = typer.Option(Path("docs/openapi.json"), "--out", "-o",
                                     help="Where to write it ('-': standard output).")) -> None:
    """Write the gateway's OpenAPI document (default docs/openapi.json)."""
    data = openapi_schema()
    if str(out) == "-":
        sys.stdout.write(data.decode())
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    err.print(f"wrote {out}")


def register(app: typer.Typer) -> None:
    """Add this module's verbs to the CLI."""
    app.command("gateway")(gateway)
    app.command("openapi")(openapi)
