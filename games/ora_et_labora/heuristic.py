"""A greedy bot's yardstick: how much a command improves the seat's position right away.

Nothing is hidden in Ora et Labora, so the seat judges on the state itself: the command is
decided, its events applied, and the seat's position compared before and after. The
position is the final-score formula (§10: goods points, economic values, settlement
scores) in tenths, plus a small value for what builds the score later: building materials
and other goods held, the empty spaces of the landscape where buildings can stand, and a
place for each building of the display.
Without it a greedy player never buys land or gathers stone (both lower the score at first)
and a 2-player game, which ends only when the display is nearly built out (§13.1, §13.2),
would drag on for thousands of turns.
"""

from __future__ import annotations

from typing import Any

from games.contract import Rejection
from games.ora_et_labora import goods as G
from games.ora_et_labora.catalog import CATALOG
from games.ora_et_labora.evolve import evolve
from games.ora_et_labora.rules import build_cells, decide
from games.ora_et_labora.scoring import score
from games.ora_et_labora.state import State

SCORE = 10
"""Tenths of a point per point of the final score."""
GOODS_WORTH = {"wood": 3, "clay": 3, "stone": 6, "straw": 2, "grain": 1, "peat": 2, "coal": 3, "livestock": 2,
               "meat": 3, "grapes": 1, "flour": 1, "bread": 2, "malt": 1, "beer": 3}
"""Tenths of a point per good that carries no points of its own but builds or feeds."""
SPACE_WORTH = 4
"""Tenths of a point per empty space a building could stand on (not water)."""
ROOM_WORTH = 5
"""Tenths of a point per point of economic value (at least 3) of each display building the
seat has a place for (terrain, cloister): the value of land that a building needs."""


def _position(state: State, seat: int) -> int:
    owner = state.owners[seat]
    if state.phase == "over":
        return SCORE * sum(state.scores[seat])
    held = sum(GOODS_WORTH.get(g, 0) * n for g, n in zip(G.GOODS, owner.goods))
    spaces = sum(1 for s in owner.land.spaces if s.empty and s.terrain != "water")
    room = sum(max(3, CATALOG.buildings[b].economic_value) for b in state.display if build_cells(owner, b))
    return SCORE * sum(score(owner.land, owner.goods)) + held + SPACE_WORTH * spaces + ROOM_WORTH * room


def gain(state: State, seat: int, cmd: Any) -> int:
    """Position after `cmd` minus position before (0 for a command it may not give now)."""
    if state.phase not in ("actions", "settlement"):
        return 0
    out = decide(state, seat, cmd)
    if isinstance(out, Rejection):
        return 0
    after = state
    for e in out:
        after = evolve(after, e)
    return _position(after, seat) - _position(state, seat)
