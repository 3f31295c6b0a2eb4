"""Verbs that read games: `view`, `replay`, `moves`, `verify`, `stats`, `export`, `import`."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Optional

import msgspec
import typer
from rich.table import Table as RichTable

from events import keys
from events.envelope import Envelope
from games.contract import GameDef
from projections import clock as clocks
from projections.board import decode_doc, doc
from projections.stats import aggregate, decode_row, latency_summary, option_text, parse_option, select
from projections.table import advance, command_end, empty
from services.cli.shared import (FAILED, NOT_FOUND, USAGE, ArchiveDir, DataDir, Exit, Jobs, console, err, facet_words, fail, game_def,
                                 game_of, load_settings, players_problem, print_json, run, runtime)
from services.config import Settings


Legend = typer.Option(False, "--legend", help="Also explain the symbols of the board's text (Arkadia's grid).")
PlayersFilter = typer.Option(None, "--players", min=1, help="Only games of this many players.")
OptionFilter = typer.Option([], "--option", metavar="KEY=VALUE",
                            help="Only games with this option (repeatable), e.g. edifice=true, variant=ireland; values "
                                 "as in the game's options (JSON: true, 3); an option the game was opened without "
                                 "(edifice) counts as false, the others as their default.")


def view(game_id: str = typer.Argument(..., help="Game id."),
         seat: Optional[int] = typer.Option(None, "--as", help="Seat to view as (default: spectator)."),
         as_json: bool = typer.Option(False, "--json", help="Print the view document as JSON."),
         legend: bool = Legend,
         data_dir: Optional[str] = DataDir) -> None:
    """Show the projected board of a game as a seat or a spectator would see it."""
    run(_view(load_settings(data_dir), game_id, seat, as_json, legend))


def _print_board(game_type: str, text: str, legend: bool) -> None:
    """A view's text, then its game's legend if asked for, else where to find it."""
    console.print(text, markup=False, highlight=False)
    explained = game_def(game_type).legend
    if legend:
        console.print(explained or "(this board's text needs no legend)", markup=False, highlight=False)
    elif explained:
        console.print("(--legend explains the board's symbols)", style="dim", highlight=False)


def undo_line(seats: list[int]) -> str:
    """A view's undo field in one line: who may take back a command now (`tablestream undo`)."""
    if not seats:
        return "undo: no command can be taken back now"
    return f"undo: seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))} may take back a command"


async def _view(settings: Settings, game_id: str, seat: int | None, as_json: bool, legend: bool = False) -> None:
    async with runtime(settings) as rt:
        data = await rt.redis.hget(keys.view(rt.store.shard(game_id), game_id, seat), "doc")
        if data is None:
            game, envs = await game_of(rt, game_id)  # no such game: says so
            players = msgspec.json.decode(envs[0].data).get("players", 0)
            if seat is not None and not 0 <= seat < players:
                raise Exit(USAGE, f"seat must be 0..{players - 1}")
            raise Exit(NOT_FOUND, f"no projected view of {game_id!r} yet: the projector (`tablestream up`, "
                                  "or `up --no-referee`) writes the views")
        doc = decode_doc(data)
        logged = await rt.store.version(game_id)
    if as_json:
        sys.stdout.write(data.decode() + "\n")
    else:
        console.print(f"[bold]{game_id}[/bold] at seq {doc.seq}" + (" (over)" if doc.over else ""))
        _print_board(doc.game_type, doc.text, legend)
        if doc.clock is not None:
            console.print(clocks.text(doc.clock, time.time_ns() // 1_000_000), markup=False, highlight=False,
                          soft_wrap=True)
        if doc.undo is not None:
            console.print(undo_line(doc.undo), markup=False, highlight=False, soft_wrap=True)
    if doc.seq < logged:  # the projector has not (yet) projected the end of the log
        err.print(f"view at seq {doc.seq}, log at {logged}: is a projector running? (`tablestream up`, "
                  "or `up --no-referee`, projects the logs)", style="yellow", markup=False, highlight=False,
                  soft_wrap=True)


def replay(game_id: str = typer.Argument(..., help="Game id."),
           at: Optional[int] = typer.Option(None, "--at", help="Log position (default: the end)."),
           seat: Optional[int] = typer.Option(None, "--as", help="Seat to view as (default: spectator)."),
           as_json: bool = typer.Option(False, "--json", help="Print the view document as JSON."),
           legend: bool = Legend,
           archive: Optional[Path] = ArchiveDir,
           data_dir: Optional[str] = DataDir) -> None:
    """Show the board at any point of the log, as that seat (or a spectator) saw it then."""
    run(_replay(load_settings(data_dir), game_id, at, seat, as_json, legend, archive))


async def _replay(settings: Settings, game_id: str, at: int | None, seat: int | None, as_json: bool,
                  legend: bool = False, archive: Path | None = None) -> None:
    if at is not None and at < 1:
        raise Exit(USAGE, "--at is a log position, 1 or more (1: the game's opening)")

    async with runtime(settings) as rt:
        game, envs = await game_of(rt, game_id, archive)
    if at is not None:
        at = command_end(envs, at)  # inside a command: the board once that command was applied
    upto = [e for e in envs if at is None or e.seq <= at]
    table = advance(empty(game_id, game), upto)
    if seat is not None and table.opened is not None and not 0 <= seat < table.opened.players:
        raise Exit(USAGE, f"seat must be 0..{table.opened.players - 1}")
    data = doc(table, seat)
    if as_json:
        sys.stdout.write(data.decode() + "\n")
    else:
        console.print(f"[bold]{game_id}[/bold] at seq {table.version} of {len(envs)}")
        _print_board(game.id, decode_doc(data).text, legend)


def moves(game_id: str = typer.Argument(..., help="Game id."),
          seat: int = typer.Argument(..., help="The seat whose options are listed."),
          as_json: bool = typer.Option(False, "--json", help="Print a JSON object instead of lines."),
          data_dir: Optional[str] = DataDir) -> None:
    """List what SEAT may send now, in the game's text notation (for `act`), from the log."""
    run(_moves(load_settings(data_dir), game_id, seat, as_json))


async def _moves(settings: Settings, game_id: str, seat: int, as_json: bool) -> None:
    async with runtime(settings) as rt:
        game, envs = await game_of(rt, game_id)
    table = advance(empty(game_id, game), envs)
    players = table.opened.players if table.opened is not None else 0
    if not 0 <= seat < players:
        raise Exit(USAGE, f"seat must be 0..{players - 1}")
    over = game.result(table.state) is not None
    acting = list(game.to_act(table.state))
    texts = [game.format_command(c) for c in game.legal_commands(table.state, seat)]
    if as_json:
        print_json({"game_id": game_id, "seq": table.version, "seat": seat, "over": over, "to_act": acting,
                     "moves": texts})
        return
    if over:
        console.print(f"{game_id} is over")
    elif not texts:
        console.print(f"seat {seat} has nothing to do now; to act: {', '.join(map(str, acting))}")
    for t in texts:
        sys.stdout.write(t + "\n")


def verify(game_id: Optional[str] = typer.Argument(None, help="Game id."),
           all_games: bool = typer.Option(False, "--all", help="Verify every game (with --archive: the archived too)."),
           archive: Optional[Path] = ArchiveDir,
           jobs: Optional[int] = Jobs,
           data_dir: Optional[str] = DataDir) -> None:
    """Check hash chains, seed commitments against the logged deals, and replay = stored views and result."""
    if not game_id and not all_games:
        err.print("give a GAME id or --all")
        raise typer.Exit(USAGE)
    run(_verify(load_settings(data_dir), game_id, all_games, archive, jobs))


async def _verify(settings: Settings, game_id: str | None, all_games: bool, archive: Path | None = None,
                  jobs: int | None = None) -> None:
    # Imported here: verify reads the stored views through the projector's module (about a second).
    from services.archive import archived_ids, verify_archived
    from services.forked import cores
    from services.verify import all_game_ids, verify_games

    async with runtime(settings) as rt:
        ids = await all_game_ids(rt.store, settings.shards) if all_games else [game_id or ""]
        if not all_games and not await rt.store.read(ids[0]):
            await game_of(rt, ids[0], archive)  # not archived either: says so
            ids = []
        found = await verify_games(rt.redis, rt.store, ids, jobs=jobs or cores())
    if archive is not None:  # the archived games Redis does not hold (a restored one is judged there)
        for g in (archived_ids(archive) if all_games else [game_id or ""] if not ids else []):
            if g not in found:
                found[g] = verify_archived(archive, g)
    bad = 0
    for g, problems in found.items():
        if problems:
            bad += 1
            console.print(f"[red]FAIL[/red] {g}")
            for p in problems:
                console.print(f"  - {p}", markup=False)
        else:
            console.print(f"[green]ok[/green]   {g}")
    console.print(f"{len(found) - bad} of {len(found)} games verified")
    if bad:
        raise Exit(FAILED)


def stats(game: str = typer.Option("seven_wonders", help="Game type."),
          players: Optional[int] = PlayersFilter,
          option: list[str] = OptionFilter,
          as_json: bool = typer.Option(False, "--json", help="Print as JSON."),
          ratings: bool = typer.Option(False, "--ratings", help="The players' ratings instead (openskill: mu, "
                                       "sigma, ordinal, games), best first."),
          move_times: bool = typer.Option(False, "--move-times", help="The time each seat took per decision "
                                          "instead (mean, p50, p90, max ms), per seat and in all."),
          archive: Optional[Path] = ArchiveDir,
          data_dir: Optional[str] = DataDir) -> None:
    """Statistics of finished games: wins by facet (e.g. wonder and side), scores, length, latency.

    Figures cover every finished game of the type unless --players/--option pick one
    setup; the games counted per setup are listed first. The latency is the referee's
    for the whole game type, whatever the filter. --ratings shows the players' ratings
    (over every rated game of the type); --move-times the seats' time per decision."""
    g = game_def(game)
    if ratings:
        from services.cli.analytics import show_ratings

        run(show_ratings(load_settings(data_dir), g, as_json))
        return
    wanted = _filters(g, players, option)
    if move_times:
        from services.cli.analytics import show_move_times

        run(show_move_times(load_settings(data_dir), g, as_json, players, wanted, archive))
        return
    run(_stats(load_settings(data_dir), g, as_json, players, wanted, archive))


def _filters(g: GameDef, players: int | None, option: list[str]) -> list[tuple[str, Any]]:
    """The `--players`/`--option` filters checked against the game (a usage error for a
    player count or an option value the game cannot have: it would match no game)."""
    if problem := players_problem(g, players):  # no game of that many players can exist
        raise fail(USAGE, problem)
    wanted = []
    for text in option:
        try:
            key, value = parse_option(text)
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--option") from None
        if key not in g.options_type.__struct_fields__:
            raise typer.BadParameter(f"{g.id} has no option {key!r} (options: "
                                     f"{', '.join(g.options_type.__struct_fields__)})", param_hint="--option")
        try:  # a value the option cannot take would silently match no game
            msgspec.convert({key: value}, g.options_type)
        except (msgspec.ValidationError, ValueError) as e:
            raise typer.BadParameter(f"{text!r} is no value of {g.id}'s option {key!r}: {e}",
                                     param_hint="--option") from None
        wanted.append((key, value))
    return wanted


async def _stats(settings: Settings, game: GameDef, as_json: bool, players: int | None = None,
                 wanted: list[tuple[str, Any]] | None = None, archive: Path | None = None) -> None:
    async with runtime(settings) as rt:
        stored = {g.decode(): decode_row(v) for g, v in (await rt.redis.hgetall(keys.stats(game.id))).items()}
        hist: dict[bytes, int] = {}  # every shard's histogram, summed
        for shard in range(settings.shards):
            for bound, n in (await rt.redis.hgetall(keys.latency(shard, game.id))).items():
                hist[bound] = hist.get(bound, 0) + int(n)
    if archive is not None:  # each game once: a game both archived and (still or again) in Redis counts once
        from services.archive import archived_rows

        try:
            stored = {**archived_rows(archive, game.id), **stored}
        except ValueError as e:
            raise Exit(FAILED, str(e)) from None
    rows = list(stored.values())
    filtered = players is not None or bool(wanted)
    if filtered:
        rows = select(rows, players, wanted or [])
    agg = aggregate(rows, msgspec.to_builtins(game.options_type()), game.set_facets)
    agg["latency"] = latency_summary(hist)
    if as_json:
        print_json(agg)
        return
    chosen = ", ".join([*([f"{players} player{'' if players == 1 else 's'}"] if players is not None else []),
                        *(f"{k}={option_text(v)}" for k, v in wanted or [])])
    n = agg["games"]
    console.print(f"[bold]{game.id}[/bold]: {n} finished game{'' if n == 1 else 's'}"
                  + (f" with {chosen}" if chosen else ""), highlight=False)
    if not n:
        console.print("No finished game to show" + (" with these filters." if chosen else " yet."), highlight=False)
        return
    if len(agg["setups"]) > 1:
        t = RichTable(title="games by setup")
        t.add_column("setup")
        t.add_column("games", justify="right")
        for label, n in agg["setups"].items():
            t.add_row(label, str(n))
        console.print(t)
        console.print("The figures below mix these setups; pick one with --players and --option.", highlight=False)
    for facet, values in sorted(agg["by_facet"].items()):
        if facet in ("players",):
            continue
        t = RichTable(title=f"wins by {facet}")
        t.add_column(facet)
        t.add_column("games", justify="right")
        t.add_column("plays", justify="right")
        t.add_column("wins", justify="right")
        t.add_column("win rate", justify="right")
        for v, c in sorted(values.items()):
            t.add_row(facet_words(game, facet, v), str(c.get("games", "")), str(c["plays"]), str(c["wins"]),
                      f"{c['wins'] / max(1, c['plays']):.0%}")
        console.print(t)
    t = RichTable(title="score by category")
    t.add_column("category")
    t.add_column("mean", justify="right")
    t.add_column("sd", justify="right")
    for c, m in agg["categories"].items():
        t.add_row(c, f"{m['mean']:.2f}", f"{m['sd']:.2f}")
    t.add_row("total", f"{agg['total']['mean']:.2f}", f"{agg['total']['sd']:.2f}", style="bold")
    console.print(t)
    for k, v in agg.get("summary", {}).items():  # the game's own extra numbers and labels
        shown = f"mean {v['mean']:.1f}, sd {v['sd']:.1f}" if set(v) == {"mean", "sd"} else \
            ", ".join(f"{label} {n}" for label, n in v.items())
        console.print(f"{k}: {shown}", markup=False)
    console.print(f"game length: {agg['length_events']['mean']:.1f} events, "
                  f"{agg['length_commands']['mean']:.1f} commands; latency {_latency_text(agg['latency'])}")


def _latency_text(lat: dict[str, float]) -> str:
    """The latency summary as a reader wants it: commands counted, p50 and p99."""
    if not lat.get("commands"):
        return "not measured yet"
    return (f"{lat['commands']:,.0f} commands, p50 {lat.get('p50_ms', 0):g} ms, p99 {lat.get('p99_ms', 0):g} ms "
            "(publish to outcome, bucket bounds)")


def export(game_id: Optional[str] = typer.Argument(None, help="Game id."),
           out: Path = typer.Option(None, "--out", "-o", help="File (default: stdout); for jsonl, csv and "
                                    "parquet a folder (one file per table)."),
           fmt: str = typer.Option("log", "--format", help="log (the game's log, the default), or finished games as "
                                   "tables games/seats/scores/commands: jsonl, csv, parquet; or bgstats (BG Stats' "
                                   "play import JSON)."),
           game: Optional[str] = typer.Option(None, "--game", help="Every finished game of this type (with the "
                                              "stats filters)."),
           every: bool = typer.Option(False, "--all", help="Every finished game of every type."),
           players: Optional[int] = PlayersFilter,
           option: list[str] = OptionFilter,
           archive: Optional[Path] = ArchiveDir,
           data_dir: Optional[str] = DataDir) -> None:
    """Write a game's log as JSON lines (one envelope per line, payload bytes base64), or
    finished games (GAME, --game TYPE with the stats filters, or --all) as tables or BG
    Stats' import file (--format)."""
    from services.cli.exports import FORMATS, export_games

    if fmt not in FORMATS:
        raise typer.BadParameter(f"{fmt!r} is none of {', '.join(FORMATS)}", param_hint="--format")
    if fmt == "log":
        if game_id is None or game or every or players is not None or option:
            raise fail(USAGE, "--format log (the default) writes one game's log: give its GAME id, and no filter")
        run(_export(load_settings(data_dir), game_id, out))
        return
    if sum((game_id is not None, game is not None, every)) != 1:
        raise fail(USAGE, "give one of: a GAME id, --game TYPE (with --players/--option), --all")
    g = game_def(game) if game is not None else None
    if (players is not None or option) and g is None:
        raise fail(USAGE, "--players and --option filter the games of one type: give --game TYPE")
    wanted = _filters(g, players, option) if g is not None else []
    run(export_games(load_settings(data_dir), fmt, game_id, g, every, players, wanted, out, archive))


async def _export(settings: Settings, game_id: str, out: Path | None) -> None:
    async with runtime(settings) as rt:
        _, envs = await game_of(rt, game_id)
    text = "".join(msgspec.json.encode(e).decode() + "\n" for e in envs)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text)


def import_(file: Path = typer.Argument(..., help="JSON lines written by `export`."),
            data_dir: Optional[str] = DataDir) -> None:
    """Read an exported log into this Redis (refused if the game already exists there)."""
    run(_import(load_settings(data_dir), file))


async def _import(settings: Settings, file: Path) -> None:
    from services.archive import parse_log

    try:
        envs = parse_log(file.read_bytes(), str(file))
    except OSError as e:
        raise Exit(USAGE, f"cannot read {file}: {e}") from None
    except ValueError as e:
        raise Exit(USAGE, str(e)) from None
    # The append script refuses a log that does not chain (`broken`); say which line, as for
    # a missing one. A payload edited under an intact chain is imported: `verify` finds it.
    for n, (before, env) in enumerate(zip(envs, envs[1:]), 2):
        if env.prev_hash != before.hash:
            raise Exit(USAGE, f"{file}, line {n}: its prev_hash is not line {n - 1}'s hash "
                              "(a line was edited, or comes from another log)")
    gid = envs[0].game_id
    async with runtime(settings) as rt:
        res = await rt.store.append(gid, expected=0, command_id=f"import:{gid}:{envs[-1].hash[:16]}",
                                    envelopes=envs)
    if res.status == "broken":
        raise Exit(USAGE, f"import refused: {file} does not chain from its first line (run `verify` on it)")
    if res.status != "ok":
        raise Exit(FAILED, f"import refused ({res.status}): game {gid!r} exists here")
    if not any(e.type == "ts.seed_revealed" for e in envs) and not _opened_with_fixture(envs[0]):
        err.print("[yellow]this game is not over: its seed stayed with the service it came from, so it "
                  "will not be revealed here and `verify` will say so once it ends (export finished "
                  "games to audit them elsewhere)[/yellow]")
    print_json({"game_id": gid, "imported": len(envs)})


def _opened_with_fixture(first: Envelope) -> bool:
    return bool(msgspec.json.decode(first.data).get("fixture")) if first.type == "ts.game_opened" else False


def register(app: typer.Typer) -> None:
    """Add this module's verbs to the CLI."""
    for verb in (view, replay, moves, verify, stats, export):
        app.command()(verb)
    app.command("import")(import_)
