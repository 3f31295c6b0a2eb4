"""`export --format jsonl|csv|parquet|bgstats`: finished games as tables or as BG Stats'
play import file, for one game, the games a `stats` filter picks, or every game.

The tables (`projections.exports.COLUMNS`: games, seats, scores, commands) go to a folder,
one file per table (`games.csv`, ...); BG Stats' JSON to a file or stdout. A game's
statistics row comes from Redis (the projector's), its commands and move times from its
log; a game whose log has left Redis (archived) is exported with `--archive DIR`.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any

import msgspec

from events import keys
from games import registry
from games.contract import GameDef
from projections import exports
from projections.stats import GameRow, decode_row, row, select
from projections.table import advance, empty
from services.cli.shared import USAGE, Exit, Runtime, facet_words, game_of, print_json, runtime
from services.config import Settings

TABLE_FORMATS = ("jsonl", "csv", "parquet")
FORMATS = ("log", *TABLE_FORMATS, "bgstats")


async def export_games(settings: Settings, fmt: str, game_id: str | None, game: GameDef | None, every: bool,
                       players: int | None, wanted: list[tuple[str, Any]], out: Path | None,
                       archive: Path | None) -> None:
    """Export the chosen finished games in `fmt` (a table format or bgstats) to `out`."""
    async with runtime(settings) as rt:
        chosen = await _chosen(rt, game_id, game, every, players, wanted, archive)
        if fmt == "bgstats":
            doc = exports.bgstats([r for _, r, _ in chosen], _role)
            data = msgspec.json.encode(doc)
            if out is None:
                sys.stdout.write(data.decode() + "\n")
            else:
                out.write_bytes(data + b"\n")
            return
        tables = exports.merge(exports.game_tables(g, r, envs) for g, r, envs in chosen)
    if out is None:
        raise Exit(USAGE, f"--format {fmt} writes one file per table: give the folder with --out")
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in tables.items():
        _write(fmt, out / f"{name}.{fmt}", name, rows)
    print_json({"format": fmt, "out": str(out), "games": len(chosen),
                "rows": {name: len(rows) for name, rows in tables.items()}})


async def _chosen(rt: Runtime, game_id: str | None, game: GameDef | None, every: bool, players: int | None,
                  wanted: list[tuple[str, Any]], archive: Path | None) -> list[tuple[GameDef, GameRow, list[Any]]]:
    """(game, statistics row, log) of each chosen finished game, in game id order."""
    if game_id is not None:
        g, envs = await game_of(rt, game_id, archive)
        r = row(advance(empty(game_id, g), envs), envs)
        if r is None:
            raise Exit(USAGE, f"game {game_id!r} is not over: only finished games export as tables "
                              "(`export GAME` writes any game's log)")
        return [(g, r, envs)]
    out = []
    for g in ([game] if game is not None else list(registry.GAMES.values()) if every else []):
        stored = [decode_row(v) for v in (await rt.redis.hgetall(keys.stats(g.id))).values()]
        if archive is not None:
            from services.archive import archived_rows

            try:
                stored = list({**archived_rows(archive, g.id), **{r.game_id: r for r in stored}}.values())
            except ValueError as e:
                raise Exit(USAGE, str(e)) from None
        for r in sorted(select(stored, players, wanted), key=lambda x: x.game_id):
            _, envs = await game_of(rt, r.game_id, archive)
            out.append((g, r, envs))
    return out


def _role(game_type: str, facets: dict[str, str]) -> str:
    """A seat's role for BG Stats: its facets in the views' words ("Alexandria B")."""
    g = registry.GAMES[game_type]
    return " ".join(k if v == "true" else facet_words(g, k, v) for k, v in facets.items()
                    if k not in ("seat", "players", "board") and v != "false")


def _write(fmt: str, path: Path, table: str, rows: list[dict[str, Any]]) -> None:
    columns = exports.COLUMNS[table]
    names = [c for c, _ in columns]
    if fmt == "jsonl":
        path.write_bytes(b"".join(msgspec.json.encode({c: r[c] for c in names}) + b"\n" for r in rows))
    elif fmt == "csv":
        with path.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(names)
            w.writerows([("" if r[c] is None else r[c]) for c in names] for r in rows)
    else:
        import pyarrow as pa  # imported here: only Parquet needs it (a second to load)
        import pyarrow.parquet as pq

        types = {"str": pa.string(), "int": pa.int64(), "bool": pa.bool_()}
        schema = pa.schema([(c, types[t]) for c, t in columns])
        pq.write_table(pa.Table.from_pylist([{c: r[c] for c in names} for r in rows], schema=schema), path)
