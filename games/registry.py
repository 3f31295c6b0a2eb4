"""The explicit list of games (no plugin discovery)."""

from __future__ import annotations

from games.arkadia import GAME as ARKADIA
from games.contract import GameDef
from games.ora_et_labora import GAME as ORA_ET_LABORA
from games.seven_wonders import GAME as SEVEN_WONDERS
from games.seven_wonders_duel import GAME as SEVEN_WONDERS_DUEL

GAMES: dict[str, GameDef] = {g.id: g for g in (SEVEN_WONDERS, SEVEN_WONDERS_DUEL, ARKADIA, ORA_ET_LABORA)}


def get(game_id: str) -> GameDef:
    """The game registered under `game_id` (hyphens accepted); KeyError if unknown."""
    key = game_id.replace("-", "_")
    if key not in GAMES:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}")
    return GAMES[key]
