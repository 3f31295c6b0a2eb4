"""The notation's whole language for one seat now, for completion (games/completion.py).

`legal_commands` names each distinct cheapest-first way to pay; the notation also takes
`pay cheapest` (or no payment word) and any other legal plan (§6 [interpretation]: a
player may buy a type his own city makes), so those are added here. Cards, stages,
options and penalties are already listed in full by `legal_commands`. Only the seat's own
slot (its hand or the Free City's) and the public cities are read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from msgspec.structs import replace

from games.seven_wonders.boards import BOARDS
from games.seven_wonders.catalog import CATALOG, vec
from games.seven_wonders.commands import Build, BuildStage, Command_
from games.seven_wonders.payment import ways
from games.seven_wonders.rules import legal_commands, slot
from games.seven_wonders.scoring import left_of, right_of
from games.seven_wonders.state import State


def candidates(state: State, seat: int) -> Iterator[Command_]:
    """`legal_commands`, then each build and stage again paid `cheapest` and in every
    plan that buys what the city could make itself (unchecked: decide filters)."""
    base = legal_commands(state, seat)
    yield from base
    paid = [c for c in base if isinstance(c, (Build, BuildStage)) and not getattr(c, "free", False)]
    if not paid:
        return
    city = slot(state, seat)[0]
    n = len(state.cities)
    me, left, right = state.cities[city], state.cities[left_of(city, n)], state.cities[right_of(city, n)]
    stages = BOARDS[me.wonder].sides[me.side].stages
    stage_need = vec(stages[me.stages].cost) if me.stages < len(stages) else None
    plans: dict[Any, list[tuple[int, int]]] = {}
    for c in paid:
        yield replace(c, left=None, right=None)
        need = CATALOG.need[CATALOG.by_key[c.card][0]] if isinstance(c, Build) else stage_need
        if need is None:
            continue
        if need not in plans:
            plans[need] = [(w.left, w.right) for w in ways(need, me, left, right, wasteful=True)]
        for lft, rgt in plans[need]:
            yield replace(c, left=lft, right=rgt)
