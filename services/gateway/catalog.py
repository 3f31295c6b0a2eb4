"""GET /game-types: the registry's games with their player counts, presets and options."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import get
from litestar.params import FromPath

from games import registry
from games.contract import GameDef
from services.gateway.errors import ApiError


class GameType(msgspec.Struct, frozen=True, kw_only=True):
    """One game type: `presets` are named option sets (open a game with `preset`),
    `options_schema` the JSON Schema of the options object (open with `options`)."""

    id: str
    players: tuple[int, int]
    rules_version: int
    presets: dict[str, dict[str, Any]]
    options_schema: dict[str, Any]


def describe(game: GameDef) -> GameType:
    return GameType(
        id=game.id, players=game.players, rules_version=game.rules_version,
        presets={name: msgspec.to_builtins(opts) for name, opts in game.presets.items()},
        options_schema=msgspec.json.schema(game.options_type))


def lookup(game_type: str) -> GameDef:
    try:
        return registry.get(game_type)
    except KeyError:
        raise ApiError("unknown_game_type", f"no game type {game_type[:64]!r}; known: {', '.join(sorted(registry.GAMES))}"
                       ) from None


@get("/game-types", summary="Every game type with its player counts, presets and options")
async def list_game_types() -> list[GameType]:
    return [describe(g) for g in registry.GAMES.values()]


@get("/game-types/{game_type:str}", summary="One game type")
async def get_game_type(game_type: FromPath[str]) -> GameType:
    return describe(lookup(game_type))


ROUTES = [list_game_types, get_game_type]
