"""`tablestream`: play, run, inspect, verify and move games (typer + rich).

This module only assembles the Typer app: each verb group is a module of its own with a
`register(app)` function, so a new verb is one module and one line in `VERB_MODULES`.
Exit codes are listed in `services/cli/shared.py` and the README.
"""

from __future__ import annotations

import logging

import typer

from services.cli import admin, archive, chat, game_verbs, gateway, inspection, matrix, play
from services.cli.shared import HELP_PAGES

VERB_MODULES = (play, game_verbs, inspection, archive, admin, gateway, chat, matrix)
"""Each registers its verbs, in this order (the order of `tablestream --help`)."""

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Tablestream: an event-sourced board-game referee on Redis Streams.", **HELP_PAGES)
for _module in VERB_MODULES:
    _module.register(app)


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("tablestream.broker").setLevel(logging.WARNING)
    app()


if __name__ == "__main__":
    main()
