"""Replay is a fold of the log with the game's `evolve`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import reduce
from typing import Any, TypeVar

from games.contract import GameDef

S = TypeVar("S")
E = TypeVar("E")


def replay(game: GameDef, events: Iterable[Any]) -> Any:
    """The state after `events`: reduce(evolve, events, initial). Never re-runs decide."""
    return reduce(game.evolve, events, game.initial)


def recent(evolve: Callable[[S, E], S]) -> Callable[[S, E], S]:
    """`evolve` that remembers its last few results by the identity of (state, event).

    `decide` folds its own events to find what follows them (the end of a turn, the next
    decision), and the shell then folds the very same event objects onto the very same
    state: this answers the second fold from the first instead of computing it again. A
    result is returned only for the same objects (`is`, with the key objects held, so an
    id is never reused while remembered); evolve is pure, so the answer is the same.
    """
    memo: dict[int, tuple[S, E, S]] = {}  # id(event) → (state, event, result)
    size = 256

    def evolve_recent(state: S, event: E) -> S:
        hit = memo.get(id(event))
        if hit is not None and hit[1] is event and hit[0] is state:
            return hit[2]
        out = evolve(state, event)
        remember(state, event, out)
        return out

    def remember(state: S, event: E, out: S) -> None:
        """Record `out` as evolve(state, event): also for a game that computed it with
        evolve's own parts (it already holds the result of folding an event it just made)."""
        if len(memo) >= size:
            memo.clear()  # the second fold follows the first at once: a short memory is enough
        memo[id(event)] = (state, event, out)

    evolve_recent.remember = remember  # type: ignore[attr-defined]
    evolve_recent.__doc__ = evolve.__doc__
    evolve_recent.__wrapped__ = evolve  # type: ignore[attr-defined]
    return evolve_recent
