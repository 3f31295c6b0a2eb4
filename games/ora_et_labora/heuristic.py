"""A greedy bot's yardstick: how much a command raises the seat's score right away.

Nothing is hidden in Ora et Labora, so the seat judges on the state itself: the command is
decided and its events applied, and the seat's final-score formula (§10: goods points,
economic values, settlement scores) is compared before and after. A command that opens a
decision (placing a clergyman, say) gains nothing until the function is used.
"""

from __future__ import annotations

from typing import Any

from games.contract import Rejection
from games.ora_et_labora.evolve import evolve
from games.ora_et_labora.rules import decide
from games.ora_et_labora.scoring import score
from games.ora_et_labora.state import State


def _points(state: State, seat: int) -> int:
    owner = state.owners[seat]
    return sum(score(owner.land, owner.goods))


def gain(state: State, seat: int, cmd: Any) -> int:
    """Score after `cmd` minus score before (0 for a command it may not give now)."""
    if state.phase != "actions" and state.phase != "settlement":
        return 0
    out = decide(state, seat, cmd)
    if isinstance(out, Rejection):
        return 0
    after = state
    for e in out:
        after = evolve(after, e)
    if after.phase == "over":
        return after.scores[seat][0] + after.scores[seat][1] + after.scores[seat][2] - _points(state, seat)
    return _points(after, seat) - _points(state, seat)
