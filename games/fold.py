"""Replay is a fold of the log with the game's `evolve`; a decision's events are folded once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from typing import Any

from games.contract import Decided, GameDef


def replay(game: GameDef, events: Iterable[Any]) -> Any:
    """The state after `events`: reduce(evolve, events, initial). Never re-runs decide."""
    return reduce(game.evolve, events, game.initial)


def after(game: GameDef, state: Any, events: Sequence[Any]) -> Any:
    """The state after a decision's `events` on `state`: the one `decide` found if it folded
    them itself (`Decided`), else the fold. Either way each event is folded once."""
    if isinstance(events, Decided):
        return events.state
    return reduce(game.evolve, events, state)
