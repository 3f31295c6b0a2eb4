"""`tablestream`: play, run, inspect, verify and move games (typer + rich).

Exit codes (stable, for scripts): 0 success; 1 a command was rejected or a check failed;
2 usage error (bad option, unknown verb); 3 not found (unknown game type or game id);
4 the service did not answer (Redis unreachable, no outcome in time).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import msgspec
import redis.asyncio as aioredis
import typer
from rich.console import Console
from rich.table import Table as RichTable

from events import keys
from events.envelope import Envelope, Rejected
from events.store import EventStore, entry_order
from games.contract import GameDef
from services import config as config_mod
from services.config import Settings

OK, FAILED, USAGE, NOT_FOUND, UNAVAILABLE = 0, 1, 2, 3, 4

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Tablestream: an event-sourced board-game referee on Redis Streams.")
projections_app = typer.Typer(no_args_is_help=True, help="Maintain the projections (views, statistics).")
app.add_typer(projections_app, name="projections")
console = Console()
err = Console(stderr=True)

DataDir = typer.Option(None, "--data-dir", help="Embedded Redis folder when REDIS_URL is unset (default ./.tablestream).")


class Exit(Exception):
    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message)
        self.code = code


def _settings(data_dir: str | None) -> Settings:
    try:
        return config_mod.from_env(data_dir=data_dir)
    except ValueError as e:  # a bad SHARDS or another variable's number
        err.print(f"[red]{e}[/red]")
        raise typer.Exit(USAGE) from None


def _fail(code: int, message: str) -> typer.Exit:
    """For a check made before `_run` (an option's value): the message, then the exit code."""
    err.print(f"[red]{message}[/red]")
    return typer.Exit(code)


def _game(name: str) -> GameDef:
    from games import registry

    try:
        return registry.get(name)
    except KeyError as e:
        raise _fail(NOT_FOUND, str(e.args[0])) from None


def _loop_factory() -> Any:
    """uvloop's event loop unless TABLESTREAM_LOOP=asyncio (or uvloop is not installed):
    measured at half load, the referee's p50 latency about 25% lower than on asyncio's
    own loop (README "Service benchmark")."""
    choice = os.environ.get("TABLESTREAM_LOOP", "uvloop")
    if choice not in ("uvloop", "asyncio"):
        raise Exit(USAGE, f"TABLESTREAM_LOOP must be uvloop or asyncio, not {choice!r}")
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:  # e.g. Windows, where uvloop does not build
        return None
    return uvloop.new_event_loop


def _run(coro: Any) -> Any:
    try:
        try:
            factory = _loop_factory()
        except Exit:
            coro.close()  # never started: no "never awaited" warning
            raise
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(coro)
    except Exit as e:
        if e.args and e.args[0]:
            err.print(f"[red]{e.args[0]}[/red]")
        raise typer.Exit(e.code) from None
    except (aioredis.ConnectionError, asyncio.TimeoutError, TimeoutError) as e:
        err.print(f"[red]the service did not answer: {type(e).__name__}: {e}[/red]")
        raise typer.Exit(UNAVAILABLE) from None


@dataclass
class Runtime:
    settings: Settings
    url: str
    redis: aioredis.Redis
    store: EventStore
    projectors: list[Any] = field(default_factory=list)  # the in-process ones (services.projector.runner.Projector)


@contextlib.asynccontextmanager
async def runtime(settings: Settings, *, referee: bool = False, projector: bool = False,
                  quiet: bool = True) -> AsyncIterator[Runtime]:
    """Connect (starting the embedded Redis if needed) and optionally run the service in-process."""
    from services.redis_client import ShardMismatch, check_shards, client, url_for

    url, emb = url_for(settings)
    r = client(url)
    rt = Runtime(settings, url, r, EventStore(r, shards=settings.shards, feed_maxlen=settings.feed_maxlen))
    svc = None
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    try:
        await r.ping()
        try:
            await check_shards(r, settings.shards)
        except ShardMismatch as e:
            raise Exit(USAGE, str(e)) from None
        if referee:
            from services.referee.app import RefereeService

            svc = RefereeService(settings, url)
            await svc.start()
        if projector:
            from services.projector.runner import Projector

            rt.projectors = [Projector(r, rt.store, s) for s in range(settings.shards)]
            tasks += [asyncio.create_task(p.run(stop)) for p in rt.projectors]
        yield rt
    finally:
        stop.set()
        for t in tasks:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(t, 3)
        if svc is not None:
            with contextlib.suppress(Exception):
                await svc.stop()
        await r.aclose()
        if emb is not None:
            emb.close()


async def _referee_alive(r: aioredis.Redis) -> bool:
    async for _ in r.scan_iter(match=keys.alive("*"), count=100):
        return True
    return False


def _options_for(game: GameDef, players: int | None, preset: str | None) -> tuple[str, Any]:
    lo, hi = game.players
    if players is not None and not lo <= players <= hi:
        raise Exit(USAGE, f"{game.id} is for {lo}-{hi} players" if lo != hi else f"{game.id} is for {lo} players")
    if preset:
        if preset not in game.presets:
            raise Exit(USAGE, f"unknown preset {preset!r}; known: {', '.join(game.presets)}")
        if players is not None and game.presets[preset].players != players:
            raise Exit(USAGE, f"preset {preset!r} is for {game.presets[preset].players} players, not {players}: "
                              "give one of the two")
        return preset, None
    if players is None:
        return next(iter(game.presets)), None
    if f"{players}p" in game.presets:
        return f"{players}p", None
    return "", game.options_type(players=players)


def _print_json(obj: Any) -> None:
    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------------------- play
@app.command()
def play(game: str = typer.Option("seven_wonders", help="Game type."),
         players: int = typer.Option(None, help="Players per game (within the game's range; default: its first preset)."),
         preset: str = typer.Option(None, help="A named preset instead of --players."),
         games: int = typer.Option(20, min=1, help="How many games."),
         bots: str = typer.Option("random", help="Bot kinds by seat, comma-separated: random, greedy."),
         concurrency: int = typer.Option(20, min=1, help="Games played at once."),
         seed: str = typer.Option("tablestream", help="Seed of the bots' choices."),
         data_dir: Optional[str] = DataDir) -> None:
    """Play bot games through the real path (stream, referee, log, projections) and summarise."""
    from services.bots.policies import BOTS

    kinds = [k.strip() for k in bots.split(",")]
    if unknown := [k for k in kinds if k not in BOTS]:
        raise _fail(USAGE, f"unknown bot kind {unknown[0]!r}; known: {', '.join(BOTS)}")
    _run(_play(_settings(data_dir), _game(game), players, preset, games, kinds, concurrency, seed))


async def _play(settings: Settings, game: GameDef, players: int | None, preset: str | None, n: int,
                bot_kinds: list[str], concurrency: int, seed: str) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from services.bots.driver import Played, play_game
    from services.client import Client

    preset_name, options = _options_for(game, players, preset)
    async with runtime(settings, referee=True, projector=True) as rt, Client(rt.redis, rt.settings.shards) as client:
        results: list[Played] = []
        sem = asyncio.Semaphore(concurrency)
        commands = 0
        t0 = time.perf_counter()
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.fields[cmds]} commands"), TimeElapsedColumn(), console=console) as bar:
            task = bar.add_task(f"{game.id}", total=n, cmds=0)

            def tick() -> None:
                nonlocal commands
                commands += 1
                if commands % 50 == 0:
                    bar.update(task, cmds=commands)

            async def one(i: int) -> None:
                async with sem:
                    p = await play_game(client, rt.store, game, preset=preset_name, options=options,
                                        seed=f"{seed}/{i}".encode(), bot_kinds=bot_kinds, on_command=tick)
                    results.append(p)
                    bar.update(task, advance=1, cmds=commands)

            await asyncio.gather(*(one(i) for i in range(n)))
        elapsed = time.perf_counter() - t0
        # The projector runs beside the referee and can be behind when the last game ends:
        # let it reach what the games wrote, so that `stats` and `view` show every game.
        with console.status("projections: catching up") as status:
            caught_up = await _catch_up(rt, lambda n: status.update(f"projections: catching up ({n:,} feed entries projected)"))
        if not caught_up:
            err.print("[yellow]projections are behind (no progress for a while): `tablestream up` goes on "
                      "projecting, `tablestream projections rebuild` starts them afresh[/yellow]")
        _summary(game, results, commands, elapsed)


async def _catch_up(rt: Runtime, progress: Callable[[int], None] | None = None, patience_s: float = 30.0) -> bool:
    """Wait until each in-process projector has projected its shard's feed up to the entry
    that was last when called; False if none of them got further for `patience_s`."""
    targets = []
    for p in rt.projectors:
        last = await rt.redis.xrevrange(keys.feed(p.shard), count=1)
        if last:
            targets.append((p, entry_order(last[0][0].decode())))
    applied, since = -1, time.monotonic()
    while True:
        behind = [p for p, target in targets if entry_order(p.position or "0-0") < target]
        if not behind:
            return True
        now = sum(p.applied for p in rt.projectors)
        if now != applied:
            applied, since = now, time.monotonic()
            if progress is not None:
                progress(now)
        elif time.monotonic() - since > patience_s:
            return False
        await asyncio.sleep(0.05)


def _summary(game: GameDef, results: list[Any], commands: int, elapsed: float) -> None:
    """One row per game: its winner(s), what they played as, the game's own facets (e.g.
    Duel's victory type), and the winner's score in each of the game's own categories."""
    finished = [(p, game.result(p.table.state), list(game.facets(p.table.state))) for p in results]
    done = [(p, res, f) for p, res, f in finished if res is not None]
    cats: tuple[str, ...] = done[0][1].categories if done else ()
    # a facet with one value for every seat of every game describes the game (Duel's victory)
    names = [k for _, _, f in done for seat in f for k in seat]
    names = [k for i, k in enumerate(names) if k not in names[:i] and k not in ("seat", "players")]
    whole = [k for k in names if done and all(len({seat.get(k) for seat in f}) == 1 for _, _, f in done)]
    t = RichTable(title=f"{len(results)} games of {game.id}")
    t.add_column("game")
    t.add_column("winner")
    t.add_column("as")
    for k in whole:
        t.add_column(k)
    for c in cats:
        t.add_column(c, justify="right")
    t.add_column("total", justify="right")
    for p, res, f in sorted(finished, key=lambda x: x[0].game_id):
        if res is None:
            t.add_row(p.game_id, "unfinished")
            continue
        w = res.winners[0]
        who = ", ".join(f"seat {s} ({p.bots[s]})" for s in res.winners)
        if len(res.winners) > 1:
            who += " (shared)"
        mine = f[w] if w < len(f) else {}

        def played_as(facets: dict[str, str]) -> str:
            return " ".join(k if v == "true" else v.replace(",", ", ") if k in game.set_facets else v
                            for k, v in facets.items()
                            if k not in ("seat", "players", "board", *whole) and v != "false") or "-"

        what = " / ".join(played_as(f[s] if s < len(f) else {}) for s in res.winners)  # each winner's
        scores = [str(x) for x in res.scores[w]] if res.categories == cats else ["?"] * len(cats)
        t.add_row(p.game_id, who, what, *(mine.get(k, "") for k in whole), *scores, str(res.totals[w]))
    if console.is_terminal:
        console.print(t)
    else:  # piped or captured: never squeeze the columns of a wide table
        from rich.measure import Measurement

        narrow = console.width
        console.width = max(narrow, Measurement.get(console, console.options.update_width(1000), t).maximum)
        try:
            console.print(t)
        finally:
            console.width = narrow
    lat = sorted(x for p in results for x in p.latencies_us)
    p50 = lat[len(lat) // 2] / 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] / 1000 if lat else 0.0
    console.print(f"{commands} commands in {elapsed:.2f} s: {commands / max(elapsed, 1e-9):.0f} commands/s; "
                  f"latency p50 {p50:.2f} ms, p99 {p99:.2f} ms (publish → outcome)")


# ---------------------------------------------------------------------------- up
@app.command()
def up(data_dir: Optional[str] = DataDir,
       projector: bool = typer.Option(True, help="Run the projector."),
       referee: bool = typer.Option(True, help="Run the referee (--no-referee: a projector process of its own, "
                                               "e.g. on another CPU than the referee's; run one per deployment).")) -> None:
    """Run the referee and the projector until stopped (Ctrl-C or SIGTERM)."""
    _run(_up(_settings(data_dir), projector, referee))


async def _up(settings: Settings, projector: bool, referee: bool = True) -> None:
    if not (referee or projector):
        raise Exit(USAGE, "--no-referee and --no-projector leave nothing to run")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with runtime(settings, referee=referee, projector=projector) as rt:
        what = [f"referee {settings.consumer}"] * referee + ["projector"] * projector
        err.print(f"tablestream up: {' and '.join(what)} on {settings.shards} shard(s) at {rt.url}")
        await stop.wait()  # a referee keeps its own heartbeat (keys.alive); a projector sets none


# ---------------------------------------------------------------------------- new / act
@app.command()
def new(game: str = typer.Option("seven_wonders", help="Game type."),
        players: int = typer.Option(None, help="Number of players."),
        preset: str = typer.Option(None, help="A named preset."),
        fixture: Path = typer.Option(None, help="JSON file with the game's fixture (fixed deals)."),
        game_id: str = typer.Option(None, "--id", help="Game id (default: generated)."),
        data_dir: Optional[str] = DataDir) -> None:
    """Create a game; prints its id and one secret token per seat as JSON."""
    _run(_new(_settings(data_dir), _game(game), players, preset, fixture, game_id))


async def _new(settings: Settings, game: GameDef, players: int | None, preset: str | None,
               fixture: Path | None, game_id: str | None) -> None:
    from services.client import Client

    preset_name, options = _options_for(game, players, preset)
    try:
        fx = None if fixture is None else msgspec.json.decode(fixture.read_bytes(), type=game.fixture_type)
    except OSError as e:
        raise Exit(USAGE, f"cannot read the fixture: {e}") from None
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise Exit(USAGE, f"bad fixture (the game's Fixture as JSON, README \"Scripted games\"): {e}") from None
    async with runtime(settings) as rt:
        own = not await _referee_alive(rt.redis)
    async with runtime(settings, referee=own) as rt, Client(rt.redis, settings.shards) as c:
        gid, tokens, out = await c.open(game, game_id=game_id, preset=preset_name, options=options, fixture=fx)
        if isinstance(out, Rejected):
            _print_json(out)
            raise Exit(FAILED)
        _print_json({"game_id": gid, "game_type": game.id, "tokens": tokens})


@app.command()
def act(game_id: str = typer.Argument(..., help="Game id."),
        seat: int = typer.Argument(..., help="Your seat (0-based)."),
        token: str = typer.Argument(..., help="Your seat's secret token."),
        command: str = typer.Argument(..., help="The command in the game's text notation."),
        data_dir: Optional[str] = DataDir) -> None:
    """Send one command; prints the outcome as JSON (exit 1 when rejected)."""
    _run(_act(_settings(data_dir), game_id, seat, token, command))


async def _game_of(rt: Runtime, game_id: str) -> tuple[GameDef, list[Envelope]]:
    envs = await rt.store.read(game_id)
    if not envs:
        raise Exit(NOT_FOUND, f"no game {game_id!r}")
    return _game(envs[0].game_type), envs


async def _act(settings: Settings, game_id: str, seat: int, token: str, text: str) -> None:
    from games.contract import Rejection
    from services.client import Client, parse_text

    async with runtime(settings) as rt:
        game, _ = await _game_of(rt, game_id)
        own = not await _referee_alive(rt.redis)
    parsed = parse_text(game, text, settings.max_command_bytes)
    if isinstance(parsed, Rejection):
        _print_json(Rejected(command_id="", game_id=game_id, code=parsed.code, message=parsed.message))
        raise Exit(FAILED)
    async with runtime(settings, referee=own) as rt, Client(rt.redis, settings.shards) as c:
        out = await c.act(game, game_id, seat, token, parsed)
        _print_json(out)
        if isinstance(out, Rejected):
            raise Exit(FAILED)


# ---------------------------------------------------------------------------- view / replay
@app.command()
def view(game_id: str = typer.Argument(..., help="Game id."),
         seat: Optional[int] = typer.Option(None, "--as", help="Seat to view as (default: spectator)."),
         as_json: bool = typer.Option(False, "--json", help="Print the view document as JSON."),
         data_dir: Optional[str] = DataDir) -> None:
    """Show the projected board of a game as a seat or a spectator would see it."""
    _run(_view(_settings(data_dir), game_id, seat, as_json))


async def _view(settings: Settings, game_id: str, seat: int | None, as_json: bool) -> None:
    from projections.board import decode_doc

    async with runtime(settings) as rt:
        data = await rt.redis.hget(keys.view(rt.store.shard(game_id), game_id, seat), "doc")
        if data is None:
            game, envs = await _game_of(rt, game_id)  # no such game: says so
            players = msgspec.json.decode(envs[0].data).get("players", 0)
            if seat is not None and not 0 <= seat < players:
                raise Exit(USAGE, f"seat must be 0..{players - 1}")
            raise Exit(NOT_FOUND, f"no projected view of {game_id!r} yet: the projector (`tablestream up`, "
                                  "or `up --no-referee`) writes the views")
        if as_json:
            sys.stdout.write(data.decode() + "\n")
        else:
            doc = decode_doc(data)
            console.print(f"[bold]{game_id}[/bold] at seq {doc.seq}" + (" (over)" if doc.over else ""))
            console.print(doc.text, markup=False, highlight=False)


@app.command()
def replay(game_id: str = typer.Argument(..., help="Game id."),
           at: Optional[int] = typer.Option(None, "--at", help="Log position (default: the end)."),
           seat: Optional[int] = typer.Option(None, "--as", help="Seat to view as (default: spectator)."),
           as_json: bool = typer.Option(False, "--json", help="Print the view document as JSON."),
           data_dir: Optional[str] = DataDir) -> None:
    """Show the board at any point of the log, as that seat (or a spectator) saw it then."""
    _run(_replay(_settings(data_dir), game_id, at, seat, as_json))


async def _replay(settings: Settings, game_id: str, at: int | None, seat: int | None, as_json: bool) -> None:
    from projections.board import decode_doc, doc
    from projections.table import advance, command_end, empty

    if at is not None and at < 1:
        raise Exit(USAGE, "--at is a log position, 1 or more (1: the game's opening)")

    async with runtime(settings) as rt:
        game, envs = await _game_of(rt, game_id)
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
        console.print(decode_doc(data).text, markup=False, highlight=False)


@app.command()
def moves(game_id: str = typer.Argument(..., help="Game id."),
          seat: int = typer.Argument(..., help="The seat whose options are listed."),
          as_json: bool = typer.Option(False, "--json", help="Print a JSON object instead of lines."),
          data_dir: Optional[str] = DataDir) -> None:
    """List what SEAT may send now, in the game's text notation (for `act`), from the log."""
    _run(_moves(_settings(data_dir), game_id, seat, as_json))


async def _moves(settings: Settings, game_id: str, seat: int, as_json: bool) -> None:
    from projections.table import advance, empty

    async with runtime(settings) as rt:
        game, envs = await _game_of(rt, game_id)
    table = advance(empty(game_id, game), envs)
    players = table.opened.players if table.opened is not None else 0
    if not 0 <= seat < players:
        raise Exit(USAGE, f"seat must be 0..{players - 1}")
    over = game.result(table.state) is not None
    acting = list(game.to_act(table.state))
    texts = [game.format_command(c) for c in game.legal_commands(table.state, seat)]
    if as_json:
        _print_json({"game_id": game_id, "seq": table.version, "seat": seat, "over": over, "to_act": acting,
                     "moves": texts})
        return
    if over:
        console.print(f"{game_id} is over")
    elif not texts:
        console.print(f"seat {seat} has nothing to do now; to act: {', '.join(map(str, acting))}")
    for t in texts:
        sys.stdout.write(t + "\n")


# ---------------------------------------------------------------------------- verify
@app.command()
def verify(game_id: Optional[str] = typer.Argument(None, help="Game id."),
           all_games: bool = typer.Option(False, "--all", help="Verify every game."),
           data_dir: Optional[str] = DataDir) -> None:
    """Check hash chains, seed commitments against the logged deals, and replay = stored views and result."""
    if not game_id and not all_games:
        err.print("give a GAME id or --all")
        raise typer.Exit(USAGE)
    _run(_verify(_settings(data_dir), game_id, all_games))


async def _verify(settings: Settings, game_id: str | None, all_games: bool) -> None:
    from services.verify import all_game_ids, verify_games

    async with runtime(settings) as rt:
        ids = await all_game_ids(rt.store, settings.shards) if all_games else [game_id or ""]
        if not all_games and not await rt.store.read(ids[0]):
            raise Exit(NOT_FOUND, f"no game {ids[0]!r}")
        found = await verify_games(rt.redis, rt.store, ids)
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


# ---------------------------------------------------------------------------- stats
@app.command()
def stats(game: str = typer.Option("seven_wonders", help="Game type."),
          players: Optional[int] = typer.Option(None, "--players", min=1, help="Only games of this many players."),
          option: list[str] = typer.Option([], "--option", metavar="KEY=VALUE",
                                           help="Only games with this option (repeatable), e.g. edifice=true, "
                                                "variant=ireland; values as in the game's options (JSON: true, "
                                                "3); an option the game was opened without (edifice) counts as "
                                                "false, the others as their default."),
          as_json: bool = typer.Option(False, "--json", help="Print as JSON."),
          data_dir: Optional[str] = DataDir) -> None:
    """Statistics of finished games: wins by facet (e.g. wonder and side), scores, length, latency.

    Figures cover every finished game of the type unless --players/--option pick one
    setup; the games counted per setup are listed first. The latency is the referee's
    for the whole game type, whatever the filter."""
    from projections.stats import parse_option

    g = _game(game)
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
    _run(_stats(_settings(data_dir), g, as_json, players, wanted))


async def _stats(settings: Settings, game: GameDef, as_json: bool, players: int | None = None,
                 wanted: list[tuple[str, Any]] | None = None) -> None:
    from projections.stats import aggregate, decode_row, latency_summary, option_text, select
    from services.protocol import latency

    async with runtime(settings) as rt:
        rows = [decode_row(v) for v in (await rt.redis.hgetall(keys.stats(game.id))).values()]
        hist: dict[bytes, int] = {}  # every shard's histogram, summed
        for shard in range(settings.shards):
            for bound, n in (await rt.redis.hgetall(latency(shard, game.id))).items():
                hist[bound] = hist.get(bound, 0) + int(n)
    filtered = players is not None or bool(wanted)
    if filtered:
        rows = select(rows, players, wanted or [])
    agg = aggregate(rows, msgspec.to_builtins(game.options_type()), game.set_facets)
    agg["latency"] = latency_summary(hist)
    if as_json:
        _print_json(agg)
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
            t.add_row(v, str(c.get("games", "")), str(c["plays"]), str(c["wins"]),
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


# ---------------------------------------------------------------------------- export / import / fork
@app.command()
def export(game_id: str = typer.Argument(..., help="Game id."),
           out: Path = typer.Option(None, "--out", "-o", help="File (default: stdout)."),
           data_dir: Optional[str] = DataDir) -> None:
    """Write a game's log as JSON lines (one envelope per line, payload bytes base64)."""
    _run(_export(_settings(data_dir), game_id, out))


async def _export(settings: Settings, game_id: str, out: Path | None) -> None:
    async with runtime(settings) as rt:
        _, envs = await _game_of(rt, game_id)
    text = "".join(msgspec.json.encode(e).decode() + "\n" for e in envs)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text)


@app.command("import")
def import_(file: Path = typer.Argument(..., help="JSON lines written by `export`."),
            data_dir: Optional[str] = DataDir) -> None:
    """Read an exported log into this Redis (refused if the game already exists there)."""
    _run(_import(_settings(data_dir), file))


async def _import(settings: Settings, file: Path) -> None:
    dec = msgspec.json.Decoder(Envelope)
    try:
        lines = [x for x in file.read_bytes().splitlines() if x.strip()]
    except OSError as e:
        raise Exit(USAGE, f"cannot read {file}: {e}") from None
    envs = []
    for n, line in enumerate(lines, 1):
        try:
            envs.append(dec.decode(line))
        except (msgspec.ValidationError, msgspec.DecodeError) as e:
            raise Exit(USAGE, f"{file}, line {n}: not an envelope as `export` writes them: {e}") from None
    if not envs:
        raise Exit(USAGE, "the file holds no envelopes")
    gid = envs[0].game_id
    async with runtime(settings) as rt:
        res = await rt.store.append(gid, expected=0, command_id=f"import:{gid}:{envs[-1].hash[:16]}",
                                    envelopes=envs)
    if res.status != "ok":
        raise Exit(FAILED, f"import refused ({res.status}): game {gid!r} exists here")
    if not any(e.type == "ts.seed_revealed" for e in envs) and not _opened_with_fixture(envs[0]):
        err.print("[yellow]this game is not over: its seed stayed with the service it came from, so it "
                  "will not be revealed here and `verify` will say so once it ends (export finished "
                  "games to audit them elsewhere)[/yellow]")
    _print_json({"game_id": gid, "imported": len(envs)})


def _opened_with_fixture(first: Envelope) -> bool:
    return bool(msgspec.json.decode(first.data).get("fixture")) if first.type == "ts.game_opened" else False


@app.command()
def fork(game_id: str = typer.Argument(..., help="Game id to fork."),
         at: int = typer.Option(..., "--at", help="Copy the log up to this seq."),
         new_id: str = typer.Option(None, "--id", help="Id of the new game."),
         data_dir: Optional[str] = DataDir) -> None:
    """Start a new game from a point of another: same history, new id and new seat tokens."""
    _run(_fork(_settings(data_dir), game_id, at, new_id))


async def _fork(settings: Settings, game_id: str, at: int, new_id: str | None) -> None:
    import uuid

    from events.chain import relink
    from events.codec import META
    from events.meta import GameOpened
    from projections.table import advance, command_end, decode, empty
    from services.protocol import new_token, token_hash
    from services.referee.referee import ms_clock

    if at < 1:
        raise Exit(USAGE, "--at is a log position, 1 or more (1: the game's opening)")
    async with runtime(settings) as rt:
        game, envs = await _game_of(rt, game_id)
        at = command_end(envs, at)  # never fork inside a command: that state is no game position
        if game.result(advance(empty(game_id, game), [e for e in envs if e.seq <= at]).state) is not None:
            raise Exit(USAGE, f"the game is over at seq {at}: fork it at an earlier position")
        envs = [e for e in envs if e.seq <= at and not e.type.startswith("ts.seed")]
        gid = new_id or f"{game_id}-fork-{uuid.uuid4().hex[:6]}"
        opened = decode(game, envs[0])
        assert isinstance(opened, GameOpened)
        tokens = [new_token() for _ in range(opened.players)]
        opened = msgspec.structs.replace(opened, seat_token_hashes=[token_hash(t) for t in tokens])
        out = relink(envs, game_id=gid, time=ms_clock(), data={1: META.encode(opened)[2]})
        secret = await rt.redis.get(keys.secret(rt.store.shard(game_id), game_id))
        if secret is not None:
            await rt.redis.set(keys.secret(rt.store.shard(gid), gid), secret, nx=True)
        res = await rt.store.append(gid, expected=0, command_id=f"fork:{gid}", envelopes=out)
        if res.status != "ok":
            raise Exit(FAILED, f"fork refused ({res.status})")
    _print_json({"game_id": gid, "game_type": game.id, "forked_from": game_id, "at": at, "tokens": tokens})


# ---------------------------------------------------------------------------- script
class ScriptStep(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: int
    command: str


class Script(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A scripted game: see README "Scripted games"."""

    game: str
    commands: list[ScriptStep]
    preset: str = ""
    players: Optional[int] = None
    # Raw, not Optional[Raw]: msgspec decodes Optional[Raw] as null only (an object there
    # was refused); an absent fixture reads as null.
    fixture: msgspec.Raw = msgspec.Raw(b"null")
    game_id: Optional[str] = None


@app.command()
def script(file: Path = typer.Argument(..., help="The script (JSON)."),
           strict: bool = typer.Option(False, help="Exit 1 if any command is rejected."),
           data_dir: Optional[str] = DataDir) -> None:
    """Create a game (from a fixture) and run a list of text commands through the service."""
    try:
        spec = msgspec.json.decode(file.read_bytes(), type=Script)
    except (msgspec.DecodeError, msgspec.ValidationError, OSError) as e:
        err.print(f"bad script: {e}")
        raise typer.Exit(USAGE) from None
    _run(_script(_settings(data_dir), spec, strict))


async def _script(settings: Settings, spec: Script, strict: bool) -> None:
    from games.contract import Rejection
    from projections.table import advance, empty
    from services.client import Client, parse_text

    game = _game(spec.game)
    preset_name, options = _options_for(game, spec.players, spec.preset or None)
    try:
        fx = msgspec.json.decode(spec.fixture, type=game.fixture_type | None)
    except msgspec.ValidationError as e:
        raise Exit(USAGE, f"bad fixture: {e}") from None
    async with runtime(settings) as rt:
        own = not await _referee_alive(rt.redis)
    rejected = 0
    async with runtime(settings, referee=own) as rt, Client(rt.redis, settings.shards) as c:
        gid, tokens, out = await c.open(game, game_id=spec.game_id, preset=preset_name, options=options, fixture=fx)
        _print_json({"step": "open", "game_id": gid, "outcome": out})
        if isinstance(out, Rejected):
            raise Exit(FAILED)
        for i, step in enumerate(spec.commands):
            parsed = parse_text(game, step.command, settings.max_command_bytes)
            if isinstance(parsed, Rejection):
                res: Any = Rejected(command_id="", game_id=gid, code=parsed.code, message=parsed.message)
            elif not 0 <= step.seat < len(tokens):
                res = Rejected(command_id="", game_id=gid, code="unknown_seat",
                               message=f"seat must be 0..{len(tokens) - 1}")
            else:
                res = await c.act(game, gid, step.seat, tokens[step.seat], parsed)
            rejected += isinstance(res, Rejected)
            _print_json({"step": i, "seat": step.seat, "command": step.command, "outcome": res})
        table = advance(empty(gid, game), await rt.store.read(gid))
    result = game.result(table.state)
    _print_json({"game_id": gid, "version": table.version, "rejected": rejected,
                 "result": result, "seed": table.seed})
    if strict and rejected:
        raise Exit(FAILED)


# ---------------------------------------------------------------------------- projections
@projections_app.command("rebuild")
def projections_rebuild(data_dir: Optional[str] = DataDir) -> None:
    """Rebuild every view and statistics row from the logs (safe while the service runs)."""
    _run(_rebuild(_settings(data_dir)))


async def _rebuild(settings: Settings) -> None:
    from services.projector.runner import rebuild

    async with runtime(settings) as rt:
        n = await rebuild(rt.redis, rt.store, settings.shards)
    console.print(f"rebuilt the projections of {n} games")


# ---------------------------------------------------------------------------- bench
@app.command()
def bench(games: int = typer.Option(int(os.environ.get("TS_BENCH_GAMES", "200")), help="Concurrent games in the backlog."),
          commands: int = typer.Option(int(os.environ.get("TS_BENCH_COMMANDS", "20000")), help="Commands in each drain backlog: (a), (b) and (d)."),
          players: int = typer.Option(5, help="Players per game."),
          aof: bool = typer.Option(True, help="Also compare AOF everysec with AOF off (on a server bench starts)."),
          pin: bool = typer.Option(True, help="Pin Redis and the referee to different CPUs (Linux, 2+ CPUs); "
                                   "--no-pin lets the scheduler place them (figures then vary with where it does)."),
          latency_seconds: float = typer.Option(3.0, min=0.1, help="How long latency is measured (after 1 s of warm-up)."),
          data_dir: Optional[str] = DataDir) -> None:
    """Measure raw Redis limit vs the referee, latency at half load, and the cost of AOF."""
    from bench.run import main as bench_main

    _run(bench_main(_settings(data_dir), games=games, commands=commands, players=players, aof=aof, pin=pin,
                    latency_seconds=latency_seconds))


from services.cli.gateway import gateway as _gateway  # noqa: E402  (a verb in its own module)

app.command("gateway")(_gateway)


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("tablestream.broker").setLevel(logging.WARNING)
    app()


if __name__ == "__main__":
    main()
