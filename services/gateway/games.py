"""Games as resources: open one, and read its summary, a seat's (or a spectator's) view,
the bearer's legal moves and the result, all folded from the game's log."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, Response, get, post
from litestar.params import FromPath, FromQuery, JSONBody, Parameter

from events import keys
from events.envelope import Rejected
from games.contract import GameDef, Result
from projections.board import doc
from projections.table import result
from services.gateway import auth
from services.gateway.catalog import lookup
from services.gateway.context import gw
from services.gateway.errors import ApiError
from services.gateway.history import at_position, check_at
from services.gateway.tables import hashes
from services.protocol import ClockOptions

GameId = Annotated[str, msgspec.Meta(pattern=f"^{keys.GAME_ID_PATTERN}$")]


class OpenGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Open a game: `game_type`, then a `preset` name, or `players`, or a full `options`
    object (see /game-types); none of them: the game's first preset. `game_id` is optional."""

    game_type: str
    preset: str = ""
    players: int | None = None
    options: dict[str, Any] | None = None
    game_id: GameId | None = None
    clock: ClockOptions | None = None
    """A time control (README "Clocks"): {"kind": "fischer", "base_ms": 300000,
    "increment_ms": 3000}, {"kind": "move", "base_ms": 30000} or {"kind":
    "correspondence", "days": 3}, with "on_timeout": "random" (default), "greedy", "pass"
    or "forfeit" (and "bot": "greedy" for the bot of pass and forfeit)."""
    undo: bool = False
    """Let seats take back their last command where the game's undo policy allows (README "Undo")."""


class OpenedGame(msgspec.Struct, frozen=True, kw_only=True):
    """The new game and one secret token per seat (seat i's is tokens[i]): hand each to its
    player only; the service keeps only their hashes."""

    game_id: str
    game_type: str
    tokens: list[str]


class Move(msgspec.Struct, frozen=True, kw_only=True):
    text: str
    """The command in the game's notation (send it as `{"command": text}`)."""
    command: msgspec.Raw
    """The same command as a structured object (send it as `{"command": {...}}`)."""


class Moves(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seq: int
    seat: int
    over: bool
    to_act: list[int]
    moves: list[Move]


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    game_type: str
    players: int
    preset: str
    options: msgspec.Raw
    rules_version: int
    seq: int
    over: bool
    to_act: list[int]


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seq: int
    over: bool
    result: Result | None
    seed: str | None
    """The revealed seed (hex) of a finished game: check it against the log's commitment."""
    resigned: list[int] = []
    """Seats that resigned (or forfeited on a timeout): a bot played them on, they rank last."""


def resolve_options(game: GameDef, body: OpenGame) -> tuple[str, Any]:
    lo, hi = game.players
    if body.options is not None:
        if body.preset:
            raise ApiError("bad_options", "give a preset or options, not both")
        try:
            opts = msgspec.convert(body.options, game.options_type)
        except msgspec.ValidationError as e:
            raise ApiError("bad_options", f"options: {e}") from None
        if body.players is not None and body.players != opts.players:
            raise ApiError("bad_options", f"options are for {opts.players} players, not {body.players}")
        return "", opts
    if body.players is not None and not lo <= body.players <= hi:
        raise ApiError("bad_options", f"{game.id} is for {lo}-{hi} players")
    if body.preset:
        if body.preset not in game.presets:
            raise ApiError("bad_options", f"unknown preset {body.preset[:64]!r}; known: {', '.join(game.presets)}")
        if body.players is not None and game.presets[body.preset].players != body.players:
            raise ApiError("bad_options", f"preset {body.preset!r} is for {game.presets[body.preset].players} players")
        return body.preset, None
    if body.players is None:
        return next(iter(game.presets)), None
    if f"{body.players}p" in game.presets:
        return f"{body.players}p", None
    return "", game.options_type(players=body.players)


@post("/games", status_code=201, summary="Open a game; returns its id and one token per seat")
async def open_game(request: Request, data: JSONBody[OpenGame]) -> OpenedGame:
    game = lookup(data.game_type)
    preset, options = resolve_options(game, data)
    gid, tokens, out = await gw(request).client.open(game, game_id=data.game_id, preset=preset, options=options,
                                                     clock=data.clock, undo=data.undo)
    if isinstance(out, Rejected):
        raise ApiError(out.code, out.message, game_id=gid)
    return OpenedGame(game_id=gid, game_type=game.id, tokens=tokens)


@get("/games/{game_id:str}", summary="A game's type, options, position and who must act")
async def game_summary(request: Request, game_id: FromPath[str]) -> GameSummary:
    t = await gw(request).tables.get(game_id)
    o = t.opened
    assert o is not None  # a log's first envelope opens the game
    return GameSummary(game_id=game_id, game_type=t.game.id, players=o.players, preset=o.preset, options=o.options,
                       rules_version=o.rules_version, seq=t.version, over=t.over, to_act=list(t.game.to_act(t.state)))


@get("/games/{game_id:str}/view", summary="The board as the bearer's seat sees it (no token: as a spectator)",
     media_type="application/json")
async def game_view(request: Request, game_id: FromPath[str], at: FromQuery[int | None] = None) -> Response[bytes]:
    """`?at=SEQ`: the view once the command that wrote envelope SEQ was applied (a position
    inside a command is no position any seat saw; past the end: the last position)."""
    check_at(at)
    g = gw(request)
    t = await g.tables.get(game_id)
    seat = auth.optional_seat(request, hashes(t), game_id)
    if at is not None:
        t = at_position(t, await g.store.read(game_id), at)
    return Response(doc(t, seat), media_type="application/json")


_enc = msgspec.json.Encoder()


@get("/games/{game_id:str}/moves", summary="The bearer's legal commands now, as notation and structured")
async def game_moves(request: Request, game_id: FromPath[str]) -> Moves:
    t = await gw(request).tables.get(game_id)
    seat, _ = auth.require_seat(request, hashes(t), game_id)
    game = t.game
    legal = game.legal_commands(t.state, seat) if not t.over else []
    return Moves(game_id=game_id, seq=t.version, seat=seat, over=t.over, to_act=list(game.to_act(t.state)),
                 moves=[Move(text=game.format_command(c), command=msgspec.Raw(_enc.encode(c))) for c in legal])


@get("/games/{game_id:str}/result", summary="Scores and ranking once the game is over, and its revealed seed")
async def game_result(request: Request, game_id: FromPath[str]) -> GameResult:
    t = await gw(request).tables.get(game_id)
    return GameResult(game_id=game_id, seq=t.version, over=t.over, result=result(t), seed=t.seed,
                      resigned=list(t.resigned))




class Completed(msgspec.Struct, frozen=True, kw_only=True):
    """What may follow `prefix` for the bearer's seat now (the game's `complete`): the words
    that may stand at the cursor, the complete legal commands it leads to (notation, at most
    `limit`; `more`: there are others), and whether the prefix is itself a legal command."""

    game_id: str
    seq: int
    seat: int
    prefix: str
    words: list[str]
    commands: list[str]
    complete: bool
    more: bool


@get("/games/{game_id:str}/complete", summary="Completion of a partial command for the bearer's seat")
async def game_complete(request: Request, game_id: FromPath[str], prefix: FromQuery[str] = "",
                        limit: int = Parameter(default=50, ge=1, le=200)) -> Completed:
    g = gw(request)
    if len(prefix.encode()) > g.settings.max_command_bytes:
        raise ApiError("oversized", f"a command may be at most {g.settings.max_command_bytes} bytes", game_id=game_id)
    t = await g.tables.get(game_id)
    seat, _ = auth.require_seat(request, hashes(t), game_id)
    c = t.game.complete(t.state, seat, prefix, limit)
    return Completed(game_id=game_id, seq=t.version, seat=seat, prefix=prefix, words=list(c.words),
                     commands=list(c.commands), complete=c.complete, more=c.more)


ROUTES = [open_game, game_summary, game_view, game_moves, game_result, game_complete]
