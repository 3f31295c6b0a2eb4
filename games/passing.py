"""The passing move of a timed-out seat (`GameDef.passing`, a clock's on_timeout "pass"),
shared by the games: the first of a seat's legal commands (in the game's own order) whose
type is one of the game's passing kinds, or None where the decision allows none."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def first_of(legal_commands: Callable[[Any, int], Sequence[Any]], kinds: tuple[type, ...]
             ) -> Callable[[Any, int], Any | None]:
    """A `passing` that takes the first legal command of one of `kinds`."""

    def passing(state: Any, seat: int) -> Any | None:
        return next((c for c in legal_commands(state, seat) if isinstance(c, kinds)), None)

    return passing
