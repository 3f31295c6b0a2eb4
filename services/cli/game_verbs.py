"""Verbs that make games and moves: `new`, `act`, `resign`, `undo`, `abandon`, `script`, `fork`."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any, Optional

import msgspec
import typer

from events import keys
from events.chain import relink
from events.codec import META
from events.envelope import Rejected
from events.meta import GameOpened
from games.contract import GameDef, Rejection
from projections.table import advance, command_end, decode, empty
from services.cli.shared import (FAILED, NOT_FOUND, USAGE, DataDir, Exit, err, fail, game_def, game_of,
                                 load_settings, options_for, print_json, run, runtime)
from services.client import Client, parse_text
from services.config import Settings
from services.protocol import ClockOptions, new_token, parse_clock, token_hash


def new(game: str = typer.Option("seven_wonders", help="Game type."),
        players: int = typer.Option(None, help="Number of players."),
        preset: str = typer.Option(None, help="A named preset."),
        fixture: Path = typer.Option(None, help="JSON file with the game's fixture (fixed deals)."),
        game_id: str = typer.Option(None, "--id", help="Game id (default: generated)."),
        clock: str = typer.Option(None, help="A time control: move:30s, fischer:5m+3s or correspondence:3d, "
                                             "optionally @greedy (the bot that plays a timed-out decision; "
                                             "default @random). README \"Clocks\"."),
        undo: bool = typer.Option(False, "--undo", help="Let seats take back their last command where the "
                                                        "game's undo policy allows (README \"Undo\")."),
        host: bool = typer.Option(False, "--host", help="Also print a host token (host_token), whose holder may "
                                                        "abandon a seat to a bot (`abandon`)."),
        data_dir: Optional[str] = DataDir) -> None:
    """Create a game; prints its id and one secret token per seat as JSON."""
    _check_id(game_id)
    try:
        timed = None if clock is None else parse_clock(clock)
    except ValueError as e:
        raise fail(USAGE, f"--clock: {e}") from None
    run(_new(load_settings(data_dir), game_def(game), players, preset, fixture, game_id, timed, undo, host))


async def _new(settings: Settings, game: GameDef, players: int | None, preset: str | None,
               fixture: Path | None, game_id: str | None, clock: ClockOptions | None = None,
               undo: bool = False, host: bool = False) -> None:
    preset_name, options = options_for(game, players, preset)
    try:
        fx = None if fixture is None else msgspec.json.decode(fixture.read_bytes(), type=game.fixture_type)
    except OSError as e:
        raise Exit(USAGE, f"cannot read the fixture: {e}") from None
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise Exit(USAGE, f"bad fixture (the game's Fixture as JSON, README \"Scripted games\"): {e}") from None
    host_token = new_token() if host else None
    async with runtime(settings) as rt:
        await rt.ensure_referee()
        async with Client(rt.redis, settings.shards) as c:
            gid, tokens, out = await c.open(game, game_id=game_id, preset=preset_name, options=options, fixture=fx,
                                            clock=clock, undo=undo, host_token=host_token)
        if isinstance(out, Rejected):
            print_json(out)
            raise Exit(FAILED)
        print_json({"game_id": gid, "game_type": game.id, "tokens": tokens,
                    **({"host_token": host_token} if host_token else {})})


def _check_id(game_id: str | None) -> None:
    """A new game's id (--id, a script's game_id) must have the syntax of events.keys."""
    if game_id is not None and (problem := keys.game_id_problem(game_id)):
        raise fail(USAGE, problem)


def act(game_id: str = typer.Argument(..., help="Game id."),
        seat: int = typer.Argument(..., help="Your seat (0-based)."),
        token: str = typer.Argument(..., help="Your seat's secret token."),
        command: str = typer.Argument(..., help="The command in the game's text notation."),
        data_dir: Optional[str] = DataDir) -> None:
    """Send one command; prints the outcome as JSON (exit 1 when rejected)."""
    run(_act(load_settings(data_dir), game_id, seat, token, command))


async def _act(settings: Settings, game_id: str, seat: int, token: str, text: str) -> None:
    async with runtime(settings) as rt:
        first = await rt.store.first(game_id)  # the game type, without reading the whole log
        if first is None:
            raise Exit(NOT_FOUND, f"no game {game_id!r}")
        game = game_def(first.game_type)
        parsed = parse_text(game, text, settings.max_command_bytes)
        if isinstance(parsed, Rejection):
            print_json(Rejected(command_id="", game_id=game_id, code=parsed.code, message=parsed.message))
            raise Exit(FAILED)
        await rt.ensure_referee()
        async with Client(rt.redis, settings.shards) as c:
            out = await c.act(game, game_id, seat, token, parsed)
        print_json(out)
        if isinstance(out, Rejected):
            raise Exit(FAILED)


Bot = typer.Option("random", "--bot", help="The bot kind that plays the seat from then on: random or greedy.")


def resign(game_id: str = typer.Argument(..., help="Game id."),
           seat: int = typer.Argument(..., help="Your seat (0-based)."),
           token: str = typer.Argument(..., help="Your seat's secret token."),
           bot: str = Bot,
           data_dir: Optional[str] = DataDir) -> None:
    """Resign your seat: a bot plays it to the end and the result ranks it last; prints the
    outcome as JSON (exit 1 when rejected)."""
    run(_seat_verb(load_settings(data_dir), game_id, seat, token, "resign", bot))


def undo(game_id: str = typer.Argument(..., help="Game id."),
         seat: int = typer.Argument(..., help="Your seat (0-based)."),
         token: str = typer.Argument(..., help="Your seat's secret token."),
         data_dir: Optional[str] = DataDir) -> None:
    """Take back your last command, where the game allows it (opened with --undo; nothing
    hidden revealed or drawn since, no other seat acted on it); prints the outcome as JSON
    (exit 1 when rejected, e.g. nothing_to_undo)."""
    run(_seat_verb(load_settings(data_dir), game_id, seat, token, "undo"))


def abandon(game_id: str = typer.Argument(..., help="Game id."),
            seat: int = typer.Argument(..., help="The seat to give up (0-based)."),
            host_token: str = typer.Argument(..., help="The game's host token (`new --host`, a lobby's)."),
            bot: str = Bot,
            data_dir: Optional[str] = DataDir) -> None:
    """As the game's host, give up a seat whose player is gone to a bot: it plays the seat
    to the end, ranked last; prints the outcome as JSON (exit 1 when rejected)."""
    run(_seat_verb(load_settings(data_dir), game_id, seat, host_token, "abandon", bot))


async def _seat_verb(settings: Settings, game_id: str, seat: int, token: str, verb: str, bot: str = "random") -> None:
    """`resign`, `undo` or `abandon` for a seat: the game type from the log's first entry, then the command."""
    async with runtime(settings) as rt:
        first = await rt.store.first(game_id)
        if first is None:
            raise Exit(NOT_FOUND, f"no game {game_id!r}")
        game = game_def(first.game_type)
        await rt.ensure_referee()
        async with Client(rt.redis, settings.shards) as c:
            if verb == "undo":
                out = await c.undo(game, game_id, seat, token)
            else:
                out = await (c.resign if verb == "resign" else c.abandon)(game, game_id, seat, token, bot=bot)
        print_json(out)
        if isinstance(out, Rejected):
            raise Exit(FAILED)


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


def script(file: Path = typer.Argument(..., help="The script (JSON)."),
           strict: bool = typer.Option(False, help="Exit 1 if any command is rejected."),
           data_dir: Optional[str] = DataDir) -> None:
    """Create a game (from a fixture) and run a list of text commands through the service."""
    try:
        spec = msgspec.json.decode(file.read_bytes(), type=Script)
    except (msgspec.DecodeError, msgspec.ValidationError, OSError) as e:
        err.print(f"bad script: {e}")
        raise typer.Exit(USAGE) from None
    _check_id(spec.game_id)
    run(_script(load_settings(data_dir), spec, strict))


async def _script(settings: Settings, spec: Script, strict: bool) -> None:
    game = game_def(spec.game)
    preset_name, options = options_for(game, spec.players, spec.preset or None)
    try:
        fx = msgspec.json.decode(spec.fixture, type=game.fixture_type | None)
    except msgspec.ValidationError as e:
        raise Exit(USAGE, f"bad fixture: {e}") from None
    rejected = 0
    async with runtime(settings) as rt, Client(rt.redis, settings.shards) as c:
        await rt.ensure_referee()
        gid, tokens, out = await c.open(game, game_id=spec.game_id, preset=preset_name, options=options, fixture=fx)
        print_json({"step": "open", "game_id": gid, "outcome": out})
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
            print_json({"step": i, "seat": step.seat, "command": step.command, "outcome": res})
        table = advance(empty(gid, game), await rt.store.read(gid))
    result = game.result(table.state)
    print_json({"game_id": gid, "version": table.version, "rejected": rejected,
                 "result": result, "seed": table.seed})
    if strict and rejected:
        raise Exit(FAILED)


def fork(game_id: str = typer.Argument(..., help="Game id to fork."),
         at: int = typer.Option(..., "--at", help="Copy the log up to this seq."),
         new_id: str = typer.Option(None, "--id", help="Id of the new game."),
         data_dir: Optional[str] = DataDir) -> None:
    """Start a new game from a point of another: same history, new id and new seat tokens."""
    _check_id(new_id)
    run(_fork(load_settings(data_dir), game_id, at, new_id))


async def _fork(settings: Settings, game_id: str, at: int, new_id: str | None) -> None:
    if at < 1:
        raise Exit(USAGE, "--at is a log position, 1 or more (1: the game's opening)")
    async with runtime(settings) as rt:
        game, envs = await game_of(rt, game_id)
        if at > envs[-1].seq:  # a typo'd position should not silently become "the end"
            raise Exit(USAGE, f"--at {at} is past the log's end (seq {envs[-1].seq})")
        at = command_end(envs, at)  # never fork inside a command: that state is no game position
        if game.result(advance(empty(game_id, game), [e for e in envs if e.seq <= at]).state) is not None:
            raise Exit(USAGE, f"the game is over at seq {at}: fork it at an earlier position")
        envs = [e for e in envs if e.seq <= at and not e.type.startswith("ts.seed")]
        gid = new_id or f"{game_id}-fork-{uuid.uuid4().hex[:6]}"
        if keys.game_id_problem(gid):  # a long id's fork: named after the game type instead
            gid = f"{game.id}-fork-{uuid.uuid4().hex[:12]}"
        if await rt.store.version(gid):
            raise Exit(FAILED, f"game {gid!r} already exists")
        opened = decode(game, envs[0])
        assert isinstance(opened, GameOpened)
        tokens = [new_token() for _ in range(opened.players)]
        opened = msgspec.structs.replace(opened, seat_token_hashes=[token_hash(t) for t in tokens])
        out = relink(envs, game_id=gid, time=time.time_ns() // 1_000_000, data={1: META.encode(opened)[2]})
        secret = await rt.redis.get(keys.secret(rt.store.shard(game_id), game_id))
        if secret is not None:
            await rt.redis.set(keys.secret(rt.store.shard(gid), gid), secret, nx=True)
        res = await rt.store.append(gid, expected=0, command_id=f"fork:{gid}", envelopes=out)
        if res.status != "ok":
            raise Exit(FAILED, f"game {gid!r} already exists" if res.status == "conflict" else
                       f"fork refused ({res.status})")
    print_json({"game_id": gid, "game_type": game.id, "forked_from": game_id, "at": at, "tokens": tokens})


def register(app: typer.Typer) -> None:
    """Add this module's verbs to the CLI."""
    for verb in (new, act, resign, undo, abandon, script, fork):
        app.command()(verb)
