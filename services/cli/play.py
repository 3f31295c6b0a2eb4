"""`tablestream play`: bot games through the real path, with their progress and summary."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Optional

import typer
from rich.measure import Measurement
from rich.table import Table as RichTable

from events import keys
from events.store.reads import entry_order
from games.contract import GameDef
from games.words import count
from projections.stats import table_setup
from services.cli.shared import (USAGE, DataDir, Exit, Runtime, console, err, facet_words, fail, game_def,
                                 load_settings, options_for, run, runtime)
from services.client import Client
from services.config import Settings


def play(game: str = typer.Option("seven_wonders", help="Game type."),
         players: int = typer.Option(None, help="Players per game (within the game's range; default: its first preset)."),
         preset: str = typer.Option(None, help="A named preset instead of --players."),
         games: int = typer.Option(20, min=1, help="How many games."),
         bots: str = typer.Option("random", help="Bot kinds by seat, comma-separated: random, greedy, mcts (the "
                                                 "search bot; mcts:N for N iterations a decision, mcts:Nms for N ms)."),
         concurrency: int = typer.Option(20, min=1, help="Games played at once."),
         seed: str = typer.Option("tablestream", help="Seed of the bots' choices."),
         data_dir: Optional[str] = DataDir) -> None:
    """Play bot games through the real path (stream, referee, log, projections) and summarise."""
    from services.bots.policies import known, player  # imported here: only play needs the bots

    kinds = [k.strip() for k in bots.split(",")]
    if unknown := [k for k in kinds if not known(k)]:
        try:
            player(unknown[0], b"", 0)
        except ValueError as e:
            raise fail(USAGE, str(e)) from None
    run(_play(load_settings(data_dir), game_def(game), players, preset, games, kinds, concurrency, seed))


async def _play(settings: Settings, game: GameDef, players: int | None, preset: str | None, n: int,
                bot_kinds: list[str], concurrency: int, seed: str) -> None:
    # Imported here: the bots and rich's progress bar are only play's.
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from services.bots.driver import Played, play_game

    preset_name, options = options_for(game, players, preset)
    seats = game.presets[preset_name].players if preset_name else options.players
    if len(bot_kinds) > seats:  # fewer are reused in turn; more would be ignored in silence
        raise Exit(USAGE, f"{len(bot_kinds)} bot kinds for {seats} seats: give at most one per seat")
    async with runtime(settings, referee=True, projector=True) as rt, Client(rt.redis, rt.settings.shards) as client:
        results: list[Played] = []
        sem = asyncio.Semaphore(concurrency)
        commands = playing = 0
        t0 = time.perf_counter()
        # The counts move with every command, not only when a whole game ends (a game of
        # Ora et Labora is thousands of commands).
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                      TextColumn("{task.completed:.0f}/{task.total:.0f} games, {task.fields[playing]} in play, "
                                 "{task.fields[cmds]}"), TimeElapsedColumn(), console=console) as bar:
            task = bar.add_task(f"{game.id}", total=n, cmds=_commands(0), playing=0)

            def tick() -> None:
                nonlocal commands
                commands += 1
                bar.update(task, cmds=_commands(commands))

            async def one(i: int) -> None:
                nonlocal playing
                async with sem:
                    playing += 1
                    bar.update(task, playing=playing)
                    p = await play_game(client, rt.store, game, preset=preset_name, options=options,
                                        seed=f"{seed}/{i}".encode(), bot_kinds=bot_kinds, on_command=tick)
                    results.append(p)
                    playing -= 1
                    bar.update(task, advance=1, cmds=_commands(commands), playing=playing)

            await asyncio.gather(*(one(i) for i in range(n)))
        elapsed = time.perf_counter() - t0
        # The projector runs beside the referee and can be behind when the last game ends:
        # let it reach what the games wrote, so that `stats` and `view` show every game.
        with console.status("projections: catching up") as status:
            caught_up = await catch_up(rt, lambda n: status.update(f"projections: catching up ({n:,} feed entries projected)"))
        if not caught_up:
            err.print("[yellow]projections are behind (no progress for a while): `tablestream up` goes on "
                      "projecting, `tablestream projections rebuild` starts them afresh[/yellow]")
        _summary(game, results, commands, elapsed)


async def catch_up(rt: Runtime, progress: Callable[[int], None] | None = None, patience_s: float = 30.0) -> bool:
    """Wait until each shard of the in-process projectors has been projected up to the feed
    entry that was last when called, by whichever process holds its lease (this one's
    projector, or another `up`'s: services.projector.lease), as its stored checkpoint says;
    False if no checkpoint moved for `patience_s`. `progress` gets the count of feed
    entries this process's projectors have applied."""
    targets = []
    for p in rt.projectors:
        last = await rt.redis.xrevrange(keys.feed(p.shard), count=1)
        if last:
            targets.append((p, entry_order(last[0][0].decode())))
    seen: tuple[Any, ...] | None = None
    since = time.monotonic()
    while True:
        pipe = rt.redis.pipeline(transaction=False)
        for p, _ in targets:
            pipe.get(keys.checkpoint(p.shard, p.name))
        marks = [m.decode() if m else "0-0" for m in await pipe.execute()] if targets else []
        if all(entry_order(m) >= target for m, (_, target) in zip(marks, targets)):
            return True
        applied = sum(p.applied for p in rt.projectors)
        now = (applied, *marks)
        if now != seen:
            seen, since = now, time.monotonic()
            if progress is not None:
                progress(applied)
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
    setup = table_setup(results[0].table) if results else ""
    t = RichTable(title=f"{count(len(results), 'game')} of {game.id}" + (f", {setup}" if setup else ""))
    t.add_column("game", no_wrap=True)  # whole, to be copied into `view`, `replay`, ...
    t.add_column("winner")
    t.add_column("as")
    for k in whole:
        t.add_column(k)
    for c in cats:
        t.add_column(c, justify="right")
    t.add_column("total", justify="right")
    blocks: list[str] = []  # the same rows, as lines, for a terminal too narrow for the table
    for p, res, f in sorted(finished, key=lambda x: x[0].game_id):
        if res is None:
            t.add_row(p.game_id, "unfinished")
            blocks.append(f"{p.game_id}  unfinished")
            continue
        w = res.winners[0]
        who = ", ".join(f"seat {s} ({p.bots[s]})" for s in res.winners)
        if len(res.winners) > 1:
            who += " (shared)"
        mine = f[w] if w < len(f) else {}
        what = " / ".join(_played_as(game, f[s] if s < len(f) else {}, whole) for s in res.winners)  # each winner's
        scores = [str(x) for x in res.scores[w]] if res.categories == cats else ["?"] * len(cats)
        facets = [facet_words(game, k, mine.get(k, "")) for k in whole]
        t.add_row(p.game_id, who, what, *facets, *scores, str(res.totals[w]))
        blocks.append(f"{p.game_id}  winner {who} as {what}" + "".join(f", {k} {v}" for k, v in zip(whole, facets))
                      + "\n  " + " · ".join(f"{c} {x}" for c, x in (*zip(cats, scores), ("total", res.totals[w]))))
    wide = Measurement.get(console, console.options.update_width(1000), t).maximum
    if not console.is_terminal:  # piped or captured: never squeeze the columns of a wide table
        narrow = console.width
        console.width = max(narrow, wide)
        try:
            console.print(t)
        finally:
            console.width = narrow
    elif wide <= console.width:
        console.print(t)
    else:  # a squeezed table would cut the game ids short ("sev…")
        console.print(f"[bold]{t.title}[/bold]", highlight=False)
        for b in blocks:
            console.print(b, markup=False, highlight=False)
    lat = sorted(x for p in results for x in p.latencies_us)
    p50 = lat[len(lat) // 2] / 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] / 1000 if lat else 0.0
    console.print(f"{commands} commands in {elapsed:.2f} s: {commands / max(elapsed, 1e-9):.0f} commands/s; "
                  f"latency p50 {p50:.2f} ms, p99 {p99:.2f} ms (publish → outcome)")


def _commands(n: int) -> str:
    return f"{n:,} command{'' if n == 1 else 's'}"


def _played_as(game: GameDef, facets: dict[str, str], whole: list[str]) -> str:
    """What a seat played as: its facets but the seat, the player count and those that
    describe the whole game, in the views' words ("Alexandria B")."""
    return " ".join(k if v == "true" else facet_words(game, k, v) for k, v in facets.items()
                    if k not in ("seat", "players", "board", *whole) and v != "false") or "-"


def register(app: typer.Typer) -> None:
    """Add this module's verbs to the CLI."""
    app.command()(play)
