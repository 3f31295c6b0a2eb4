"""Verbs that move finished games out of Redis and back: `archive`, `restore`."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from services.archive import Archiver, Refused, archived_ids
from services.cli.shared import FAILED, NOT_FOUND, USAGE, DataDir, Exit, console, error, fail, load_settings, run, runtime
from services.config import Settings
from services.verify import all_game_ids

Folder = typer.Option(Path("archive"), "--dir", help="The archive folder: one <game id>.jsonl file per game.")


def archive(game_ids: Optional[list[str]] = typer.Argument(None, help="Game ids."),
            finished: bool = typer.Option(False, "--finished", help="Archive every finished game."),
            folder: Path = Folder,
            data_dir: Optional[str] = DataDir) -> None:
    """Move finished games from Redis to files (the export format), keeping Redis small.

    Each file is written, fsynced and checked before the game's keys leave Redis."""
    if not game_ids and not finished:
        raise fail(USAGE, "give GAME ids or --finished")
    run(_move(load_settings(data_dir), folder, list(game_ids or []), finished, restoring=False))


def restore(game_ids: Optional[list[str]] = typer.Argument(None, help="Game ids."),
            all_games: bool = typer.Option(False, "--all", help="Restore every game of the folder."),
            folder: Path = Folder,
            data_dir: Optional[str] = DataDir) -> None:
    """Put archived games back in Redis, with their views and statistics (the files stay)."""
    if not game_ids and not all_games:
        raise fail(USAGE, "give GAME ids or --all")
    run(_move(load_settings(data_dir), folder, list(game_ids or []), all_games, restoring=True))


async def _move(settings: Settings, folder: Path, ids: list[str], every: bool, restoring: bool) -> None:
    done = already = running = 0
    missing = refused = False
    async with runtime(settings) as rt:
        mover = Archiver(rt.redis, rt.store, folder)
        if every:
            if restoring:
                chosen = archived_ids(folder)
            else:
                found = await all_game_ids(rt.store, settings.shards)
                chosen = [g for g in found if await mover.finished(g)]
                running = len(found) - len(chosen)
            ids = list(dict.fromkeys([*ids, *chosen]))  # the ids named first, each once
        for g in ids:
            try:
                got = await (mover.restore(g) if restoring else mover.archive(g))
            except Refused as e:
                error(str(e))
                missing |= e.missing
                refused |= not e.missing
                continue
            if got == "already":
                already += 1
                _say(f"{g}: already {'in Redis' if restoring else 'archived'}")
            else:
                done += 1
                _say(f"{g}: {got}")
    verb = "restored" if restoring else "archived"
    _say(f"{verb} {done} game{'' if done == 1 else 's'} {'from' if restoring else 'to'} {folder}"
         + (f", {already} already {'in Redis' if restoring else 'archived'}" if already else "")
         + (f", {running} not finished left in Redis" if running else ""))
    if refused:
        raise Exit(FAILED)
    if missing:
        raise Exit(NOT_FOUND)


def _say(text: str) -> None:
    """One line of stdout, never wrapped (scripts read it whole) nor read as markup."""
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add this module's verbs to the CLI."""
    app.command()(archive)
    app.command()(restore)
