"""Lobbies: a game opened with empty seats that players claim by name, then started.

`POST /lobbies` reserves a game id and answers with a host token; players claim seats
(`POST /lobbies/{id}/seats`, a display name) and get their seat tokens; the host may give
seats to bots and start the game (empty seats then go to bots); it starts by itself once
every seat is taken. The lobby is a Redis hash (`keys.lobby`) on the game's shard; every
seat is taken by one HSETNX, so two gateways never give one seat twice, and the game is
opened once (HSETNX `started`) with the claimed seats' token hashes: tokens themselves are
kept only for bot seats, whose worker (`services.gateway.botseats`) must send their
commands. Hashes only for the host and the players.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import msgspec
from litestar import Request, get, post
from litestar.params import FromPath, JSONBody

from events import keys
from events.envelope import Accepted
from events.meta import SeatPlayer
from games.contract import GameDef
from projections import clock as clocks
from services import protocol
from services.bots.policies import player
from services.gateway import auth, identities
from services.gateway.catalog import lookup
from services.gateway.context import gw
from services.gateway.errors import ApiError
from services.gateway.games import OpenGame, resolve_options


class LobbySeat(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    seat: int
    name: str | None = None
    bot: str | None = None
    identity: str | None = None
    """The identity (id) the seat was claimed by or offered to."""


class Lobby(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    game_type: str
    players: int
    seats: list[LobbySeat]
    started: bool
    """The game is open: play it at /games/{game_id}."""


class OpenedLobby(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    host_token: str
    """Gives seats to bots and starts the game: keep it secret."""


class Claim(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str | None = None
    """A display name; with an identity token, none: the identity's name."""
    seat: int | None = None
    """A given seat; none: the first free one."""
    chat_user: str | None = None
    """For the chat service: the chat user claiming ("<platform>:<user id>"), whom the
    game's log then names for that seat (ratings are kept by it); self-declared, as names."""


class Claimed(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seat: int
    token: str
    started: bool


class Offer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: int
    identity: str
    """The id of the identity the seat is offered to (bound to it at once)."""


class BotSeat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: int
    kind: str = "random"


class Start(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    bots: str = "random"
    """The bot kind that takes every seat still empty."""


class _Spec(msgspec.Struct, frozen=True):
    game_type: str
    preset: str
    options: msgspec.Raw
    players: int
    clock: protocol.ClockOptions | None = None
    undo: bool = False


class _Taken(msgspec.Struct, frozen=True, omit_defaults=True):
    """A taken seat as the lobby hash holds it; a bot seat's token is stored with it (its
    worker must send its commands), a player's never (its hash only)."""

    name: str = ""
    hash: str = ""
    bot: str = ""
    token: str = ""
    identity: str = ""
    chat: str = ""


def _player(t: _Taken) -> SeatPlayer:
    """Who holds a taken seat, as the game's log records it (`SeatsTaken`)."""
    if t.bot:
        return SeatPlayer(kind="bot", id=t.bot, name=t.name)
    if t.identity:
        return SeatPlayer(kind="identity", id=t.identity, name=t.name)
    if t.chat:
        return SeatPlayer(kind="chat", id=t.chat, name=t.name)
    return SeatPlayer(kind="name", id=t.name, name=t.name)


def _key(request: Request, game_id: str) -> str:
    return keys.lobby(gw(request).store.shard(game_id), game_id)


async def _load(request: Request, game_id: str) -> tuple[_Spec, dict[bytes, bytes]]:
    if len(game_id) > 200:
        raise ApiError("unknown_lobby", "no such lobby")
    fields = await gw(request).redis.hgetall(_key(request, game_id))
    if b"spec" not in fields:
        raise ApiError("unknown_lobby", f"no lobby {game_id!r}", game_id=game_id)
    return msgspec.json.decode(fields[b"spec"], type=_Spec), fields


def _taken(fields: dict[bytes, bytes], players: int) -> list[_Taken | None]:
    return [msgspec.json.decode(fields[f"seat:{i}".encode()], type=_Taken) if f"seat:{i}".encode() in fields
            else None for i in range(players)]


def _host(request: Request, fields: dict[bytes, bytes], game_id: str) -> None:
    if auth.seat_of(auth.bearer(request) or "", [fields[b"host"].decode()]) is None:
        raise ApiError("bad_token", "this needs the lobby's host token: 'Authorization: Bearer <host token>'",
                       game_id=game_id)


def _kind(kind: str) -> str:
    try:
        player(kind, b"", 0)
    except ValueError as e:
        raise ApiError("bad_options", str(e)) from None
    return kind


def _seat(seat: int, players: int) -> int:
    if not 0 <= seat < players:
        raise ApiError("unknown_seat", f"seat must be 0..{players - 1}")
    return seat


@post("/lobbies", status_code=201, summary="Open a lobby: a game with empty seats; returns the host token")
async def open_lobby(request: Request, data: JSONBody[OpenGame]) -> OpenedLobby:
    g = gw(request)
    game = lookup(data.game_type)
    preset, options = resolve_options(game, data)
    players = options.players if options is not None else game.presets[preset].players
    game_id = data.game_id or f"{game.id}-{protocol.new_token()[:10]}"
    if await g.store.version(game_id):
        raise ApiError("game_exists", f"there is a game {game_id!r} already", game_id=game_id)
    if data.game_id and await g.redis.hexists(keys.archived(g.store.shard(game_id)), game_id):
        # the referee would refuse its open at start: refused now, not once seats are taken
        raise ApiError("game_archived", f"game {game_id!r} was archived: its id stays taken", game_id=game_id)
    if data.clock is not None and (problem := clocks.problem(protocol.clock_set(data.clock))):
        raise ApiError("bad_options", problem)  # refused now, not once every seat is taken
    host = protocol.new_token()
    spec = _Spec(game.id, preset, msgspec.Raw(msgspec.json.encode(options)), players, data.clock, data.undo)
    key = keys.lobby(g.store.shard(game_id), game_id)
    if not await g.redis.hsetnx(key, "spec", msgspec.json.encode(spec)):
        raise ApiError("game_exists", f"there is a lobby {game_id!r} already", game_id=game_id)
    await g.redis.hset(key, "host", protocol.token_hash(host))
    return OpenedLobby(game_id=game_id, host_token=host)


@get("/lobbies/{game_id:str}", summary="A lobby's seats (names, bots) and whether its game has started")
async def get_lobby(request: Request, game_id: FromPath[str]) -> Lobby:
    return await _lobby(request, game_id)


async def _lobby(request: Request, game_id: str) -> Lobby:
    spec, fields = await _load(request, game_id)
    seats = [LobbySeat(seat=i, name=t.name or None, bot=t.bot or None, identity=t.identity or None)
             if t is not None else LobbySeat(seat=i)
             for i, t in enumerate(_taken(fields, spec.players))]
    return Lobby(game_id=game_id, game_type=spec.game_type, players=spec.players, seats=seats,
                 started=b"started" in fields)


async def _take(request: Request, game_id: str, spec: _Spec, want: int | None, taken: _Taken) -> int | None:
    """Takes seat `want` (or the first free one) with one HSETNX per try; None if none is free."""
    r, key = gw(request).redis, _key(request, game_id)
    for i in ([want] if want is not None else range(spec.players)):
        if await r.hsetnx(key, f"seat:{i}", msgspec.json.encode(taken)):
            return i
    return None


@post("/lobbies/{game_id:str}/seats", status_code=201,
      summary="Claim a seat by display name or identity token; returns its seat token")
async def claim_seat(request: Request, game_id: FromPath[str], data: JSONBody[Claim]) -> Claimed:
    spec, fields = await _load(request, game_id)
    token_of_identity = auth.bearer(request)
    ident = None if token_of_identity is None else await identities.require_identity(gw(request), token_of_identity)
    if data.name is None and ident is None:
        raise ApiError("malformed", "a claim needs a display name or an identity token", game_id=game_id)
    name = identities.check_name(data.name if data.name is not None else ident.name, game_id)  # type: ignore[union-attr]
    want = None if data.seat is None else _seat(data.seat, spec.players)
    token = protocol.new_token()
    chat = data.chat_user or ""
    if chat and (len(chat) > 100 or ":" not in chat or not chat.isprintable()):
        raise ApiError("malformed", "chat_user is '<platform>:<user id>', at most 100 printable characters",
                       game_id=game_id)
    taken = _Taken(name=name, hash=protocol.token_hash(token), identity=ident.id if ident else "",
                   chat="" if ident else chat)
    seat = await _take(request, game_id, spec, want, taken)
    if seat is None:
        raise ApiError("seat_taken" if want is not None else "lobby_full",
                       "that seat is taken" if want is not None else "every seat is taken", game_id=game_id)
    if ident is not None:
        await identities.record_seat(gw(request), ident, game_id, seat, "claimed")
    try:
        started = await _start_if_full(request, game_id)
    except ApiError:  # the seat is the claimer's all the same: the lobby records why the game did not open
        started = False
    return Claimed(game_id=game_id, seat=seat, token=token, started=started)


@post("/lobbies/{game_id:str}/offers", status_code=201,
      summary="Host: offer a seat to an identity; its event stream hands the seat token over once")
async def offer_seat(request: Request, game_id: FromPath[str], data: JSONBody[Offer]) -> Lobby:
    spec, fields = await _load(request, game_id)
    _host(request, fields, game_id)
    seat = _seat(data.seat, spec.players)
    g = gw(request)
    fields_of = await g.redis.hgetall(keys.identity(data.identity)) if 0 < len(data.identity) <= 40 else {}
    if b"name" not in fields_of:
        raise ApiError("unknown_identity", "no such identity", game_id=game_id)
    ident = identities.Identity(id=data.identity, name=fields_of[b"name"].decode(), kind=fields_of[b"kind"].decode())
    token = protocol.new_token()
    await g.redis.hset(_key(request, game_id), f"offer:{seat}", token)  # kept until its stream hands it over
    if await _take(request, game_id, spec, seat, _Taken(name=ident.name, hash=protocol.token_hash(token),
                                                         identity=ident.id)) is None:
        await g.redis.hdel(_key(request, game_id), f"offer:{seat}")
        raise ApiError("seat_taken", "that seat is taken", game_id=game_id)
    await identities.record_seat(g, ident, game_id, seat, "offered")
    await _start_if_full(request, game_id)
    return await _lobby(request, game_id)


@post("/lobbies/{game_id:str}/bots", status_code=201, summary="Host: give a seat to a bot kind (random, greedy, mcts[:N|:Nms])")
async def give_to_bot(request: Request, game_id: FromPath[str], data: JSONBody[BotSeat]) -> Lobby:
    spec, fields = await _load(request, game_id)
    _host(request, fields, game_id)
    seat = _seat(data.seat, spec.players)
    if await _take(request, game_id, spec, seat, _bot(_kind(data.kind))) is None:
        raise ApiError("seat_taken", "that seat is taken", game_id=game_id)
    await _start_if_full(request, game_id)
    return await _lobby(request, game_id)


@post("/lobbies/{game_id:str}/start", status_code=201, summary="Host: start now; empty seats go to bots")
async def start_lobby(request: Request, game_id: FromPath[str], data: JSONBody[Start]) -> Lobby:
    spec, fields = await _load(request, game_id)
    _host(request, fields, game_id)
    kind = _kind(data.bots)
    for seat in range(spec.players):
        await _take(request, game_id, spec, seat, _bot(kind))
    await _start_if_full(request, game_id)
    return await _lobby(request, game_id)


def _bot(kind: str) -> _Taken:
    token = protocol.new_token()
    return _Taken(name=f"{kind} bot", hash=protocol.token_hash(token), bot=kind, token=token)


async def _start_if_full(request: Request, game_id: str) -> bool:
    """Opens the game once every seat is taken (one gateway wins `started`); True if started."""
    g = gw(request)
    key = _key(request, game_id)
    spec, fields = await _load(request, game_id)
    taken = _taken(fields, spec.players)
    if b"started" in fields:
        return True
    if any(t is None for t in taken) or not await g.redis.hsetnx(key, "started", g.client.id):
        return b"started" in await g.redis.hgetall(key)
    game: GameDef = lookup(spec.game_type)
    req = protocol.OpenRequest(token_hashes=[t.hash for t in taken if t is not None], preset=spec.preset,
                               options=spec.options, seats=[_player(t) for t in taken if t is not None],
                               clock=spec.clock, undo=spec.undo, host_hash=fields.get(b"host", b"").decode())
    # A random id, not one derived from the game id: anyone able to guess it could spend it first
    # (the referee answers a reused id with its first outcome) and so keep the lobby from opening.
    # Idempotency does not need it: the HSETNX above lets one gateway submit the open, once, and the
    # client resends that same envelope (same id) after a reconnect.
    env = g.client.envelope(game_id=game_id, game_type=game.id, kind="open", command=msgspec.json.encode(req),
                            command_id=f"lobby-open-{secrets.token_hex(16)}")
    try:
        out = await g.client.submit(env)
    except (asyncio.TimeoutError, TimeoutError):
        raise ApiError("no_outcome", "the referee did not answer in time", game_id=game_id) from None
    if not isinstance(out, Accepted):
        await g.redis.hset(key, "error", f"{out.code}: {out.message}")
        raise ApiError(out.code, out.message, game_id=game_id)
    bots = [f"{i}:{game_id}" for i, t in enumerate(taken) if t is not None and t.bot]
    if bots:
        await g.redis.sadd(keys.bot_seats(g.store.shard(game_id)), *bots)
    return True


ROUTES = [open_lobby, get_lobby, claim_seat, offer_seat, give_to_bot, start_lobby]


async def seat_record(r: Any, s: int, game_id: str, seat: int) -> _Taken:
    """A taken seat of a lobby (for the bot worker: a bot seat's kind and token)."""
    data = await r.hget(keys.lobby(s, game_id), f"seat:{seat}")
    if data is None:
        raise LookupError(f"no seat {seat} in lobby {game_id!r}")
    return msgspec.json.decode(data, type=_Taken)


async def hand_over(r: Any, s: int, game_id: str, seat: int) -> str | None:
    """The seat token an offered seat kept for its identity, once: the reader whose HDEL
    removed it gets it, every later reader None."""
    key = keys.lobby(s, game_id)
    token = await r.hget(key, f"offer:{seat}")
    if token is None or not await r.hdel(key, f"offer:{seat}"):
        return None
    return token.decode()
