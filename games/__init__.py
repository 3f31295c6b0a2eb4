"""The rules, one folder per game: pure and deterministic, no I/O.

`games.get(id)` returns a game's `GameDef`; `games.GAMES` lists them all. Both are
resolved lazily so that importing `games.contract` alone pulls in no game.
"""

from typing import Any


def get(game_id: str) -> Any:
    """The `GameDef` registered under `game_id` (see `games.registry`)."""
    from games.registry import get as _get

    return _get(game_id)


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        from games.registry import GAMES

        return GAMES
    raise AttributeError(name)
