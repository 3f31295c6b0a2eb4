"""Replay is a fold of the log with the game's `evolve`."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import Any

from games.contract import GameDef


def replay(game: GameDef, events: Iterable[Any]) -> Any:
    """The state after `events`: reduce(evolve, events, initial). Never re-runs decide."""
    return reduce(game.evolve, events, game.initial)
