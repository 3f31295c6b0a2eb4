"""The notation's language for one seat now, for completion (games/completion.py).

`legal_commands` converts one good at a time; the notation names any count, so every
count up to the goods held is added (`convert grain 3`). A function's uses (`use ...`) and
a settlement's payment stay the representative ones of `legal_commands`
(`functions.choices`: sampled counts, one payment per requirement): their combinations
are too many to list, and a typed other legal one still completes (`Completion.complete`).
Reads the seat's own goods only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.ora_et_labora import goods as G
from games.ora_et_labora.commands import Convert
from games.ora_et_labora.rules import legal_commands
from games.ora_et_labora.state import State


def candidates(state: State, seat: int) -> Iterator[Any]:
    """`legal_commands`, then each conversion again at every count of 2 and more (unchecked)."""
    base = legal_commands(state, seat)
    yield from base
    held = state.owners[seat].goods if 0 <= seat < len(state.owners) else ()
    for c in base:
        if isinstance(c, Convert):
            yield from (Convert(good=c.good, count=n) for n in range(2, G.count(held, c.good) + 1))
