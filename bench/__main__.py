"""`python -m bench` (also `tablestream bench`): the service benchmark of `bench/run.py`;
`python -m bench dashboard` (`tablestream bench dashboard`): the dashboard's (bench/dashboard.py).
`python -m bench gateway` (`tablestream bench gateway`): the gateway's, `bench/gateway.py`.
`python -m bench memory`: Redis memory per key family over a long hostile run, `bench/memory.py`.
`python -m bench projections`: rebuild and verify speed (`bench/projections.py`).
`python -m bench cluster`: on a local Redis Cluster, WAIT's cost or 1 vs 2 referees (`bench/cluster.py`).

The benchmark is outside the product: the CLI runs this module in a process of its own
rather than importing it (an import-linter contract keeps services/events/games/
projections from importing `bench`).
"""

from __future__ import annotations

import os
from typing import Optional

import typer

from bench.run import main as bench_main
from services.cli.shared import HELP_PAGES, DataDir, load_settings, run

app = typer.Typer(add_completion=False, **HELP_PAGES)


@app.callback(invoke_without_command=True)
def bench(ctx: typer.Context,
          games: int = typer.Option(int(os.environ.get("TS_BENCH_GAMES", "200")), help="Concurrent games in the backlog."),
          commands: int = typer.Option(int(os.environ.get("TS_BENCH_COMMANDS", "20000")), help="Commands in each drain backlog: (a), (b) and (d)."),
          players: int = typer.Option(5, help="Players per game."),
          aof: bool = typer.Option(True, help="Also compare AOF everysec with AOF off (on a server bench starts)."),
          pin: bool = typer.Option(True, help="Pin Redis and the referee to different CPUs (Linux, 2+ CPUs); "
                                   "--no-pin lets the scheduler place them (figures then vary with where it does)."),
          latency_seconds: float = typer.Option(3.0, min=0.1, help="How long latency is measured (after 1 s of warm-up)."),
          data_dir: Optional[str] = DataDir) -> None:
    """Measure raw Redis limit vs the referee, latency at half load, and the cost of AOF
    (`gateway`: the HTTP gateway against the direct client, and the WebSocket fan-out;
    `projections`: the speed of rebuild and verify)."""
    if ctx.invoked_subcommand is not None:
        return
    run(bench_main(load_settings(data_dir), games=games, commands=commands, players=players, aof=aof, pin=pin,
                   latency_seconds=latency_seconds))


@app.command()
def gateway(rounds: int = typer.Option(3, min=1, help="Measured rounds of each path, alternately."),
            commands: int = typer.Option(3000, min=100, help="Commands in each closed-loop round."),
            concurrency: int = typer.Option(32, min=1, help="Games in flight in the closed loop."),
            half_seconds: float = typer.Option(5.0, min=0.5, help="Seconds of each half-load round."),
            sockets: int = typer.Option(1000, min=1, help="Spectator WebSockets on one game (fan-out)."),
            updates: int = typer.Option(30, min=1, help="Commands the fan-out game gets, one every 0.1 s."),
            parts: str = typer.Option("all", help="all, paths (gateway vs direct) or fanout."),
            gateway_src: Optional[str] = typer.Option(None, help="Run the gateway from this source tree "
                                                      "(to compare another version of it).")) -> None:
    """The gateway against the direct stream client: commands/s, p50/p99, CPU a command, p99
    at half load; and the WebSocket fan-out to many spectators."""
    from bench.gateway import main as gateway_main

    run(gateway_main(rounds=rounds, commands=commands, concurrency=concurrency, half_seconds=half_seconds,
                     sockets=sockets, updates=updates, parts=parts,
                     gateway_src=gateway_src))


@app.command()
def memory(commands: int = typer.Option(1_000_000, min=1, help="Commands to send (legal and 10% hostile)."),
           games: int = typer.Option(200, min=1, help="Games per wave."),
           game: str = typer.Option("seven_wonders", help="Game type of the waves."),
           preset: str = typer.Option("3p", help="Preset of the waves' games.")) -> None:
    """Redis bytes per key family over a long run with 10% hostile commands, short
    retention settings (`bench/memory.py`): does memory level off?"""
    from bench.memory import main as memory_main

    run(memory_main(commands, games, game, preset))


@app.command()
def projections(games: int = typer.Option(300, help="Whole games seeded through the referee."),
                players: int = typer.Option(5, help="Players per game."),
                rounds: int = typer.Option(3, min=1, help="Timed rebuilds and verifies, alternately."),
                url: Optional[str] = typer.Option(None, help="Use this Redis (seeded only if it holds fewer "
                                                  "games) instead of starting one."),
                cli: bool = typer.Option(False, help="Also time the verbs in processes of their own."),
                jobs: Optional[int] = typer.Option(None, min=1, help="Time only this many worker processes "
                                                   "(default: 1 and one per core, alternately).")) -> None:
    """Events/s of `projections rebuild` and `verify --all` on seeded 7 Wonders games."""
    from bench.projections import run as run_projections

    run_projections(games, players, rounds, url, cli, jobs)


@app.command()
def cluster(compare: str = typer.Option("wait", help="wait: no WAIT vs TABLESTREAM_WAIT_REPLICAS=1; "
                                        "referees: 1 referee vs 2."),
            rounds: int = typer.Option(3, min=1, help="Rounds of each case, alternately."),
            games: int = typer.Option(32, min=1, help="Whole 7 Wonders games (3 players) played at once per round.")
            ) -> None:
    """The service on a local Redis Cluster (`bench/cluster.py`): commands/s, p50/p99 and
    the referees' CPU a command, two cases alternately."""
    from bench.cluster import main as cluster_main

    if compare not in ("wait", "referees"):
        raise typer.BadParameter("--compare is wait or referees")
    run(cluster_main(compare, rounds, games))


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["dashboard"]:  # `python -m bench dashboard` / `tablestream bench dashboard`
        from bench.dashboard import main as dashboard_main

        del sys.argv[1]
        typer.run(dashboard_main)
    else:
        app(prog_name="tablestream bench")
