"""What every verb module of the CLI shares: exit codes, consoles, settings, the runtime
(a connection, and the service in-process when asked), and the game helpers.

Exit codes (stable, for scripts): 0 success; 1 a command was rejected or a check failed;
2 usage error (bad option, bad id or input file, unknown verb); 3 not found (unknown game
type or game id); 4 the service did not answer (Redis unreachable, no outcome in time).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import msgspec
import redis.asyncio as aioredis
import typer
from rich.console import Console
from rich.text import Text

from events import keys
from events.envelope import Envelope
from events.store import EventStore
from games.contract import GameDef
from services import config as config_mod
from services.config import Settings
from services.redis_client import ShardMismatch, check_shards, client, url_for

OK, FAILED, USAGE, NOT_FOUND, UNAVAILABLE = 0, 1, 2, 3, 4

console = Console()
err = Console(stderr=True)

# Click's plain help pages for every Typer app of the CLI: Typer's rich pages (0.29) print
# a type column with `<bool>` beside every flag, -h and --help included, as if each took a
# value. -h is --help.
HELP_PAGES: dict[str, Any] = {"rich_markup_mode": None, "context_settings": {"help_option_names": ["-h", "--help"]}}

ArchiveDir = typer.Option(None, "--archive", metavar="DIR",
                          help="Also read the games archived in this folder (`tablestream archive --dir`).")

DataDir = typer.Option(None, "--data-dir", help="Embedded Redis folder when REDIS_URL is unset (default ./.tablestream).")

Jobs = typer.Option(None, "--jobs", min=1, metavar="N",
                    help="Processes that fold the logs (default: one per core; 1 on a Redis Cluster).")


def error(message: str) -> None:
    """An error on stderr: red, on one line however long (scripts read it whole), and its
    text never read as markup (it may quote user input)."""
    err.print(Text(message, style="red"), soft_wrap=True)


def without_password(url: str) -> str:
    """`url` fit to print: a password in it replaced by ***."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


class Exit(Exception):
    """Raised inside a verb's coroutine: `run` prints the message and exits with `code`."""

    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message)
        self.code = code


def load_settings(data_dir: str | None) -> Settings:
    """The process's settings; a bad variable (SHARDS, REDIS_URL, ...) is a usage error."""
    try:
        return config_mod.from_env(data_dir=data_dir)
    except ValueError as e:
        error(str(e))
        raise typer.Exit(USAGE) from None


def fail(code: int, message: str) -> typer.Exit:
    """For a check made before `run` (an option's value): the message, then the exit code."""
    error(message)
    return typer.Exit(code)


def game_def(name: str) -> GameDef:
    """The game type `name`, or exit 3 naming the known ones."""
    # Imported here: loading every game's catalog costs about a second, which verbs that
    # never need a game (up, projections rebuild, -h) should not pay.
    from games import registry

    try:
        return registry.get(name)
    except KeyError as e:
        raise fail(NOT_FOUND, str(e.args[0])) from None


def loop_factory() -> Any:
    """uvloop's event loop unless TABLESTREAM_LOOP=asyncio (or uvloop is not installed):
    measured at half load, the referee's p50 latency about 25% lower than on asyncio's
    own loop (README "Service benchmark")."""
    choice = os.environ.get("TABLESTREAM_LOOP", "uvloop")
    if choice not in ("uvloop", "asyncio"):
        raise Exit(USAGE, f"TABLESTREAM_LOOP must be uvloop or asyncio, not {choice!r}")
    if choice == "asyncio":
        return None
    try:
        import uvloop  # optional: absent on Windows, where it does not build
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(coro: Any) -> Any:
    """Run a verb's coroutine; an `Exit` or an unreachable service becomes the exit code."""
    try:
        try:
            factory = loop_factory()
        except Exit:
            coro.close()  # never started: no "never awaited" warning
            raise
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(coro)
    except Exit as e:
        if e.args and e.args[0]:
            error(str(e.args[0]))
        raise typer.Exit(e.code) from None
    except (aioredis.ConnectionError, asyncio.TimeoutError, TimeoutError) as e:
        error(f"the service did not answer: {type(e).__name__}: {e}")
        raise typer.Exit(UNAVAILABLE) from None


@dataclass
class Runtime:
    """One connection to the deployment, with what the verb started in-process."""

    settings: Settings
    url: str
    redis: aioredis.Redis
    store: EventStore
    projectors: list[Any] = field(default_factory=list)  # the in-process ones (services.projector.runner.Projector)
    referee: Any = None  # services.referee.app.RefereeService, when started here

    async def ensure_referee(self) -> None:
        """Start a referee in this process unless one is running (its heartbeat is set)."""
        if self.referee is None and not await referee_alive(self.redis):
            await self.start_referee()

    async def start_referee(self) -> None:
        # Imported here: FastStream and the referee add about a second to start-up, and
        # most verbs only read.
        from services.referee.app import RefereeService

        svc = RefereeService(self.settings, self.url)
        await svc.start()
        self.referee = svc


@contextlib.asynccontextmanager
async def runtime(settings: Settings, *, referee: bool = False, projector: bool = False,
                  projector_shards: Sequence[int] | None = None) -> AsyncIterator[Runtime]:
    """Connect (starting the embedded Redis if needed) and optionally run the service in-process:
    the referee, and a projector for every shard (or those of `projector_shards`), each
    stepping, and sending its shard's timeouts (services.timer), while this process holds
    its shard's lease (services.projector.lease)."""
    url, emb = url_for(settings)
    r = client(url)
    rt = Runtime(settings, url, r, EventStore(r, shards=settings.shards, feed_maxlen=settings.feed_maxlen))
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    try:
        await r.ping()
        try:
            await check_shards(r, settings.shards)
        except ShardMismatch as e:
            raise Exit(USAGE, str(e)) from None
        if referee:
            await rt.start_referee()
        if projector:
            # Imported here, as the referee is: only play and up run a projector.
            from services.projector.lease import Lease
            from services.projector.runner import Projector
            from services.timer import Timer

            shards = range(settings.shards) if projector_shards is None else projector_shards
            rt.projectors = [Projector(r, rt.store, s) for s in shards]
            for p in rt.projectors:
                lease = Lease(r, p.shard, p.name, settings.consumer, settings.projector_lease_ms)
                tasks.append(asyncio.create_task(p.run(stop, lease)))
                # The shard's timeouts are sent by the process that projects it (its clocks' deadlines).
                tasks.append(asyncio.create_task(Timer(r, p.shard, lambda lease=lease: lease.held).run(stop)))
        yield rt
    finally:
        stop.set()
        for t in tasks:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(t, 3)
        if rt.referee is not None:
            with contextlib.suppress(Exception):
                await rt.referee.stop()
        await r.aclose()
        if emb is not None:
            emb.close()


async def referee_alive(r: aioredis.Redis) -> bool:
    """True when some referee's heartbeat (keys.alive) is set."""
    async for _ in r.scan_iter(match=keys.alive("*"), count=100):
        return True
    return False


def players_problem(game: GameDef, players: int | None) -> str | None:
    """Why `players` is no player count of `game` (None when it is, or is not given)."""
    lo, hi = game.players
    if players is None or lo <= players <= hi:
        return None
    return f"{game.id} is for {lo}-{hi} players" if lo != hi else f"{game.id} is for {lo} players"


def options_for(game: GameDef, players: int | None, preset: str | None) -> tuple[str, Any]:
    """(preset name, options) for a new game from --players / --preset; "" and the options
    Struct when no preset fits the player count."""
    if problem := players_problem(game, players):
        raise Exit(USAGE, problem)
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


def print_json(obj: Any) -> None:
    """One line of JSON on stdout (what scripts read)."""
    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")
    sys.stdout.flush()


async def game_of(rt: Runtime, game_id: str, archive: Path | None = None) -> tuple[GameDef, list[Envelope]]:
    """A game's type and whole log, from Redis or else from the archive folder `archive`;
    exit 3 if neither has it (naming its archive file if it was archived)."""
    envs = await rt.store.read(game_id)
    if not envs and archive is not None:
        from services.archive import read_archived  # imported here: it loads the projector

        try:
            envs = read_archived(archive, game_id) or []
        except ValueError as e:
            raise Exit(FAILED, str(e)) from None
    if not envs:
        stone = await rt.redis.hget(keys.archived(rt.store.shard(game_id)), game_id)
        if stone is not None:
            name = msgspec.json.decode(stone).get("file", "")
            raise Exit(NOT_FOUND, f"game {game_id!r} was archived (file {name}"
                                  + (f", not in {archive}" if archive is not None else "")
                                  + "): `restore` it, or give replay, verify or stats --archive DIR")
        raise Exit(NOT_FOUND, f"no game {game_id!r}")
    return game_def(envs[0].game_type), envs


def facet_words(game: GameDef, facet: str, value: str) -> str:
    """A facet's value as the game's views word it (each member of a set facet)."""
    if game.facet_text is None or not value:
        return value
    if facet in game.set_facets:
        return ", ".join(game.facet_text(facet, v) for v in value.split(","))
    return game.facet_text(facet, value)
