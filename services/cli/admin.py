"""Verbs that run and maintain the service: `up`, `projections rebuild`, `bench`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from typing import Optional

import typer

from services.cli.shared import (HELP_PAGES, UNAVAILABLE, USAGE, DataDir, Exit, Jobs, console, err, load_settings, run,
                                 runtime, without_password)
from services.config import Settings


def up(data_dir: Optional[str] = DataDir,
       projector: bool = typer.Option(True, help="Run the projector."),
       referee: bool = typer.Option(True, help="Run the referee (--no-referee: a projector process of its own, "
                                               "e.g. on another CPU than the referee's)."),
       gateway: bool = typer.Option(False, "--gateway", help="Also serve the HTTP gateway (README \"Play over "
                                                            "HTTP\"), as a child process on 127.0.0.1."),
       gateway_port: int = typer.Option(8080, "--gateway-port", help="The gateway's TCP port (with --gateway)."),
       metrics_port: Optional[int] = typer.Option(None, help="Serve Prometheus metrics (each shard's pending "
                                                  "commands, referee lag, projector lag) on 127.0.0.1:PORT/metrics."),
       projector_shards: Optional[str] = typer.Option(
           None, "--projector-shards", metavar="RANGES",
           help="Project only these shards, e.g. 0-7 or 0,3,8-11 (default: every shard). Any number of "
                "projector processes may run: each shard is projected by one at a time (a lease, taken "
                "over within TABLESTREAM_PROJECTOR_LEASE_MS when its holder dies).")
       ) -> None:
    """Run the referee and the projector (and with --gateway the HTTP gateway) until stopped
    (Ctrl-C or SIGTERM)."""
    if not 0 <= gateway_port <= 65535:
        raise typer.Exit(_usage("--gateway-port must be 0..65535"))
    if metrics_port is not None and not 1 <= metrics_port <= 65535:
        raise typer.Exit(_usage("--metrics-port must be 1..65535"))
    settings = load_settings(data_dir)
    shards = None
    if projector_shards is not None:
        try:
            shards = shard_ranges(projector_shards, settings.shards)
        except ValueError as e:
            raise typer.Exit(_usage(f"--projector-shards: {e}")) from None
    run(_up(settings, projector, referee, gateway_port if gateway else None, metrics_port, shards))


def shard_ranges(text: str, shards: int) -> list[int]:
    """The shards named by `text` ("0-7", "0,3,8-11"), each once, in order; ValueError
    (saying why) for anything else or a shard outside 0..shards-1."""
    out: list[int] = []
    for part in text.split(","):
        lo_text, dash, hi_text = part.strip().partition("-")
        if not lo_text.isdigit() or (dash and not hi_text.isdigit()):
            raise ValueError(f"{part.strip()!r} is not a shard or a range of shards (like 0-7)")
        lo = int(lo_text)
        hi = int(hi_text) if dash else lo
        if lo > hi:
            raise ValueError(f"{part.strip()!r}: the range's first shard comes after its last")
        if hi >= shards:
            raise ValueError(f"shard {hi} does not exist: there are {shards} (0-{shards - 1}; SHARDS sets it)")
        out += [s for s in range(lo, hi + 1) if s not in out]
    return sorted(out)


def _ranges_text(shards: list[int]) -> str:
    """0,1,2,5 -> "0-2,5"."""
    parts: list[str] = []
    i = 0
    while i < len(shards):
        j = i
        while j + 1 < len(shards) and shards[j + 1] == shards[j] + 1:
            j += 1
        parts.append(str(shards[i]) if i == j else f"{shards[i]}-{shards[j]}")
        i = j + 1
    return ",".join(parts)


def _usage(message: str) -> int:
    err.print(message, markup=False, highlight=False)
    return USAGE


async def _up(settings: Settings, projector: bool, referee: bool = True, gateway_port: int | None = None,
              metrics_port: int | None = None, projector_shards: list[int] | None = None) -> None:
    if not (referee or projector):
        raise Exit(USAGE, "--no-referee and --no-projector leave nothing to run")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with runtime(settings, referee=referee, projector=projector, projector_shards=projector_shards) as rt:
        shown = "" if projector_shards is None else f" (shards {_ranges_text(projector_shards)}, by lease)"
        what = [f"referee {settings.consumer}"] * referee + [f"projector{shown}"] * projector
        err.print(f"tablestream up: {' and '.join(what)} on {settings.shards} shard(s) at {without_password(rt.url)}",
                  markup=False, highlight=False)
        if metrics_port is not None:
            from services import metrics

            try:
                metrics.serve(rt.redis, settings.shards, metrics_port, loop)
            except OSError as e:
                raise Exit(UNAVAILABLE, f"--metrics-port {metrics_port}: {e.strerror or e}") from None
            err.print(f"tablestream up: metrics on http://127.0.0.1:{metrics_port}/metrics", markup=False,
                      highlight=False)
        if gateway_port is None:
            await stop.wait()  # a referee keeps its own heartbeat (keys.alive); a projector sets none
            return
        child = await _start_gateway(rt.url, gateway_port)
        try:
            waiting = [asyncio.create_task(stop.wait()), asyncio.create_task(child.wait())]
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            for t in waiting:
                t.cancel()
        finally:
            code = await _stop_gateway(child)
        if not stop.is_set():
            raise Exit(code or UNAVAILABLE, f"tablestream up: the gateway stopped (exit {code}); stopping too")


async def _start_gateway(url: str, port: int) -> asyncio.subprocess.Process:
    """`tablestream gateway` as a child process on this deployment's Redis (the embedded
    one's socket too, which outlives the child: up stops the child first)."""
    env = {**os.environ, "REDIS_URL": url}
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "services.cli", "gateway", "--host",
                                                "127.0.0.1", "--port", str(port), env=env)


async def _stop_gateway(child: asyncio.subprocess.Process) -> int:
    """SIGTERM, then SIGKILL after 15 s; the child's exit code."""
    if child.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            child.terminate()
        try:
            await asyncio.wait_for(child.wait(), 15)
        except (asyncio.TimeoutError, TimeoutError):
            with contextlib.suppress(ProcessLookupError):
                child.kill()
            await child.wait()
    return child.returncode or 0


def projections_rebuild(jobs: Optional[int] = Jobs, data_dir: Optional[str] = DataDir) -> None:
    """Rebuild every view and statistics row from the logs (safe while the service runs)."""
    run(_rebuild(load_settings(data_dir), jobs))


async def _rebuild(settings: Settings, jobs: int | None = None) -> None:
    from services.forked import cores
    from services.projector.rebuild import rebuild  # imported here: the projector is only up's and rebuild's

    async with runtime(settings) as rt:
        n = await rebuild(rt.redis, rt.store, settings.shards, jobs=jobs or cores())
    console.print(f"rebuilt the projections of {n} game{'' if n == 1 else 's'}")


def bench(ctx: typer.Context) -> None:
    """Measure raw Redis limit vs the referee, latency at half load, and the cost of AOF
    (`python -m bench`; its options: `tablestream bench --help`)."""
    # A process of its own: the product does not import the benchmark (pyproject's
    # import-linter contract). Every argument, --help included, is passed on unchanged.
    argv = [sys.executable, "-m", "bench", *ctx.args]
    if {"-h", "--help"} & set(ctx.args):  # written through this process's stdout, as every verb's help
        shown = subprocess.run(argv, capture_output=True, text=True)
        sys.stdout.write(shown.stdout)
        sys.stderr.write(shown.stderr)
        raise typer.Exit(shown.returncode)
    raise typer.Exit(subprocess.run(argv).returncode)


def register(app: typer.Typer) -> None:
    """Add this module's verbs to the CLI."""
    app.command()(up)
    projections_app = typer.Typer(no_args_is_help=True, help="Maintain the projections (views, statistics).",
                                  **HELP_PAGES)
    projections_app.command("rebuild")(projections_rebuild)
    app.add_typer(projections_app, name="projections")
    app.command(add_help_option=False,
                context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(bench)
