"""`tablestream chat serve` (the chat service: Discord's and Slack's endpoints over the chat
core, a client of a running gateway) and `tablestream chat discord-commands [--register]`
(the slash command's JSON; --register PUTs it to Discord with the bot token)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from typing import Optional

import typer
from rich.console import Console

from services import config as config_mod
from services.cli.shared import HELP_PAGES

err = Console(stderr=True)
USAGE, UNAVAILABLE = 2, 4

chat_app = typer.Typer(add_completion=False, no_args_is_help=True,
                       help="Play in chat: Discord and Slack endpoints, the Matrix bot (README \"Play in chat\").",
                       **HELP_PAGES)


@chat_app.command("serve")
def serve(host: str = typer.Option("127.0.0.1", help="Address to listen on."),
          port: int = typer.Option(8090, help="TCP port to listen on."),
          data_dir: Optional[str] = typer.Option(None, "--data-dir", help="Embedded Redis folder when REDIS_URL is "
                                                 "unset (default ./.tablestream).")) -> None:
    """Serve POST /discord/interactions (DISCORD_PUBLIC_KEY set) and POST /slack/events
    (SLACK_SIGNING_SECRET set) until Ctrl-C or SIGTERM, playing through the gateway at
    TABLESTREAM_GATEWAY_URL."""
    import uvicorn

    class _Server(uvicorn.Server):
        """uvicorn re-raises the SIGTERM/SIGINT it stopped on once it is done, so the process
        would die of the signal (status -15) after its clean stop; here the stop is the end."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                yield
                self._captured_signals.clear()

    from services.chat.app import create_app
    from services.chat.config import from_env, incomplete
    from services.redis_client import url_for

    if not 0 <= port <= 65535:
        err.print("[red]--port must be 0..65535[/red]")
        raise typer.Exit(USAGE)
    try:
        settings = config_mod.from_env(data_dir=data_dir)
        chat = from_env()
    except ValueError as e:
        err.print(f"[red]{e}[/red]")
        raise typer.Exit(USAGE) from None
    if not chat.discord and not chat.slack:
        err.print("[red]set DISCORD_PUBLIC_KEY (and DISCORD_APP_ID, DISCORD_BOT_TOKEN) and/or SLACK_SIGNING_SECRET "
                  "(and SLACK_BOT_TOKEN)[/red]")
        raise typer.Exit(USAGE)
    if problem := incomplete(chat):
        err.print(problem, style="red", soft_wrap=True, markup=False)
        raise typer.Exit(USAGE)
    url, emb = url_for(settings)
    loop = "asyncio" if os.environ.get("TABLESTREAM_LOOP") == "asyncio" else "uvloop"
    try:
        server = _Server(uvicorn.Config(create_app(chat, url), host=host, port=port, loop=loop,
                                               lifespan="on", access_log=False, log_level="warning",
                                               timeout_graceful_shutdown=5,
                                               server_header=False))
        where = ", ".join(p for p, on in (("discord", chat.discord), ("slack", chat.slack)) if on)
        print(f"tablestream chat: http://{host}:{port} ({where}) via {chat.gateway_url}", file=sys.stderr, flush=True)
        server.run()
        code = 0 if server.started else UNAVAILABLE
    finally:
        if emb is not None:
            emb.close()
    raise typer.Exit(code)


@chat_app.command("discord-commands")
def discord_commands(register: bool = typer.Option(False, "--register", help="PUT them to Discord "
                                                   "(DISCORD_APP_ID, DISCORD_BOT_TOKEN, DISCORD_API_BASE).")) -> None:
    """Print the slash command definitions as JSON; with --register, install them."""
    import httpx

    from services.chat.config import from_env
    from services.chat.discord import command_definitions

    defs = command_definitions()
    print(json.dumps(defs, indent=2))
    if not register:
        return
    chat = from_env()
    if not chat.discord_app_id or not chat.discord_bot_token:
        err.print("[red]--register needs DISCORD_APP_ID and DISCORD_BOT_TOKEN[/red]")
        raise typer.Exit(USAGE)
    try:
        res = httpx.put(f"{chat.discord_api_base}/applications/{chat.discord_app_id}/commands", json=defs,
                        headers={"Authorization": f"Bot {chat.discord_bot_token}"}, timeout=15)
    except httpx.HTTPError as e:
        err.print(f"[red]Discord did not answer: {type(e).__name__}[/red]")
        raise typer.Exit(UNAVAILABLE) from None
    if res.status_code >= 300:
        err.print(f"[red]Discord refused the commands: HTTP {res.status_code}[/red]")
        raise typer.Exit(1)
    err.print(f"registered {len(defs)} command(s)")


def register(app: typer.Typer) -> None:
    """Add this module's verb group to the CLI."""
    app.add_typer(chat_app, name="chat")
