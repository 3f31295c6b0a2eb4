"""What every game's setup does the same way before laying out its own opening.

A setup takes a `Seed` (every random outcome drawn from it) or a fixture (the outcomes
given, checked to be a possible setup); it refuses a player count outside the game's
range and a start seat outside the table, with a ValueError saying why (the shell answers
it as `bad_options`); the start seat is one draw of a named stream of games/rng.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from games.contract import Seed
from games.rng import Rng

F = TypeVar("F")


def fixture_of(options: Any, source: Seed | F, deal: Callable[[Any, bytes], F],
               check: Callable[[Any, F], None]) -> F:
    """The fixture setup lays out: drawn from the seed by `deal`, or the given one once
    `check` has found it a possible setup for these options (else its ValueError)."""
    if isinstance(source, Seed):
        return deal(options, source.value)
    check(options, source)
    return source


def check_players(name: str, players: int, lo: int, hi: int, note: str = "") -> None:
    """ValueError unless `players` is within the game's range lo..hi."""
    if not lo <= players <= hi:
        span = f"{lo} to {hi}" if lo != hi else f"{lo}"
        raise ValueError(f"{name} is for {span} players{note}, not {players}")


def start_seat(seed: bytes, players: int, stream: str = "start") -> int:
    """The seat that starts: a uniform draw among `players` from the named stream."""
    return Rng(seed, stream).below(players)


def check_start(start: int, players: int) -> None:
    """ValueError unless a fixture's start seat is a seat of the table."""
    if not 0 <= start < players:
        raise ValueError(f"the start seat must be a seat 0..{players - 1}, not {start}")
