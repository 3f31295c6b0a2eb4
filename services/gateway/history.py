"""A game's past and its type's record: the log as each viewer may see it (paged, or one
position with `?at=SEQ`), and, for finished games, the export and the verify verdict;
statistics per game type with the `stats` filters.

The log is never served raw while a game runs (its opening events hold every deal): each
entry is one command's position (its seqs, acting seat, time and event types) with the
viewer's view document at that position, so an entry shows exactly what that seat's (or a
spectator's) view showed then. The raw log (export) and the audit are for finished games,
whose seed is revealed and whose deals anyone can recompute.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response, get
from litestar.params import FromPath, Parameter

from events import keys
from events.envelope import Envelope
from projections.board import doc
from projections.stats import aggregate, decode_row, latency_summary, parse_option, select
from projections.table import Table, advance, command_end, empty
from services import protocol
from services.gateway import auth
from services.gateway.catalog import lookup
from services.gateway.context import gw
from services.gateway.errors import ApiError
from services.gateway.tables import hashes
from services.verify import verify_games

MAX_PAGE = 200


class LogEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One command's place in the log: envelopes `first`..`seq`, sent by `seat` (-1: the
    service), and the viewer's view document once it was applied."""

    seq: int
    first: int
    seat: int
    time: int
    types: list[str]
    view: msgspec.Raw


class LogPage(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seq: int
    """The log's length now."""
    entries: list[LogEntry]
    next_after: int | None
    """Pass as `after` for the next page; null: this page reaches the end."""


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    ok: bool
    findings: list[str]


def _commands(envs: list[Envelope]) -> list[list[Envelope]]:
    """The log cut at command boundaries (a command's envelopes are consecutive)."""
    out: list[list[Envelope]] = []
    for e in envs:
        if out and out[-1][-1].command_id == e.command_id:
            out[-1].append(e)
        else:
            out.append([e])
    return out


async def _read(request: Request, game_id: str) -> tuple[Table, list[Envelope]]:
    g = gw(request)
    t = await g.tables.get(game_id)
    envs = await g.store.read(game_id)
    return t, envs


def at_position(t: Table, envs: list[Envelope], at: int) -> Table:
    """The table after the command that wrote envelope `at` (past the end: the last position)."""
    end = command_end(envs, at)
    return advance(empty(t.game_id, t.game), [e for e in envs if e.seq <= end])


def check_at(at: int | None) -> None:
    if at is not None and at < 1:
        raise ApiError("malformed", "at is a log position, 1 or more (1: the game's opening)")


@get("/games/{game_id:str}/log", summary="The log as the bearer's seat (or a spectator) saw it, paged by command")
async def game_log(request: Request, game_id: FromPath[str], after: int = Parameter(default=0, ge=0),
                   limit: int = Parameter(default=50, ge=1, le=MAX_PAGE)) -> LogPage:
    t, envs = await _read(request, game_id)
    seat = auth.optional_seat(request, hashes(t), game_id)
    table = empty(game_id, t.game)
    entries: list[LogEntry] = []
    more = False
    for block in _commands(envs):
        table = advance(table, block)
        if block[-1].seq <= after:
            continue
        if len(entries) == limit:
            more = True
            break
        entries.append(LogEntry(seq=block[-1].seq, first=block[0].seq, seat=block[0].seat, time=block[0].time,
                                types=[e.type for e in block], view=msgspec.Raw(doc(table, seat))))
    return LogPage(game_id=game_id, seq=len(envs), entries=entries,
                   next_after=entries[-1].seq if more and entries else None)


async def _finished(request: Request, game_id: str) -> tuple[Table, list[Envelope]]:
    t, envs = await _read(request, game_id)
    if not t.over:
        raise ApiError("game_not_over", "the raw log and its audit are served once the game is over (its opening "
                       "holds every deal); /log shows a running game as each seat sees it", game_id=game_id)
    return t, envs


@get("/games/{game_id:str}/export", summary="A finished game's whole log as JSON lines (as `tablestream export`)",
     media_type="application/x-ndjson")
async def game_export(request: Request, game_id: FromPath[str]) -> Response[bytes]:
    _, envs = await _finished(request, game_id)
    enc = msgspec.json.Encoder()
    return Response(b"".join(enc.encode(e) + b"\n" for e in envs), media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'})


@get("/games/{game_id:str}/verify", summary="A finished game's audit: chain, seed, replay vs stored views and stats")
async def game_verify(request: Request, game_id: FromPath[str]) -> Verdict:
    await _finished(request, game_id)
    g = gw(request)
    findings = (await verify_games(g.redis, g.store, [game_id]))[game_id]
    return Verdict(game_id=game_id, ok=not findings, findings=findings)


@get("/game-types/{game_type:str}/stats", summary="Statistics of a game type's finished games (as `tablestream stats`)")
async def game_type_stats(request: Request, game_type: FromPath[str],
                          players: int | None = Parameter(default=None, ge=1),
                          option: list[str] | None = Parameter(default=None,
                                                               description="KEY=VALUE, repeatable")) -> dict[str, Any]:
    game = lookup(game_type)
    wanted: list[tuple[str, Any]] = []
    for text in option or []:
        try:
            key, value = parse_option(text)
            if key not in game.options_type.__struct_fields__:
                raise ValueError(f"{game.id} has no option {key!r}")
            msgspec.convert({key: value}, game.options_type)
        except (ValueError, msgspec.ValidationError) as e:
            raise ApiError("bad_options", f"option {text[:80]!r}: {e}") from None
        wanted.append((key, value))
    g = gw(request)
    rows = [decode_row(v) for v in (await g.redis.hgetall(keys.stats(game.id))).values()]
    hist: dict[bytes, int] = {}
    for shard in range(g.settings.shards):
        for bound, n in (await g.redis.hgetall(protocol.latency(shard, game.id))).items():
            hist[bound] = hist.get(bound, 0) + int(n)
    if players is not None or wanted:
        rows = select(rows, players, wanted)
    agg = aggregate(rows, msgspec.to_builtins(game.options_type()), game.set_facets)
    agg["latency"] = latency_summary(hist)
    return agg


ROUTES = [game_log, game_export, game_verify, game_type_stats]
