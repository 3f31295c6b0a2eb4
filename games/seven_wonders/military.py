"""The conflicts at the end of each Age of 7 Wonders (§8): each adjacent pair compares shields."""

from __future__ import annotations

from games.seven_wonders.events import MilitaryResolved
from games.seven_wonders.scoring import left_of, shields
from games.seven_wonders.state import State


VICTORY = {1: 1, 2: 3, 3: 5}  # §8
DEFEAT = -1


def military(state: State) -> MilitaryResolved:
    """Each adjacent pair compares shields once (§8)."""
    n = len(state.cities)
    strength = tuple(shields(c) for c in state.cities)
    tokens: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        j = left_of(i, n)
        if strength[i] > strength[j]:
            tokens[i].append(VICTORY[state.age])
            tokens[j].append(DEFEAT)
        elif strength[i] < strength[j]:
            tokens[j].append(VICTORY[state.age])
            tokens[i].append(DEFEAT)
    return MilitaryResolved(age=state.age, shields=strength, tokens=tuple(tuple(t) for t in tokens))
