"""Which events may be taken back (`GameDef.quiet`, README "Undo"). Behind each screen
are the hand, the held workers, the seals and the gold (§10), and the pile is face down:
an event that shows any of them is not quiet. So a building (its card leaves the hand),
workers put out, a banner's exchange and a card taken from the deck or with a new card
turned up cannot be taken back; a castle piece (from the open pools), the turn's end
and what follows from the open board (a building enclosed and its payouts, a floor
completed, the final round) can, and so can a card taken from the display when nothing is
turned up. A skipped action (§8 [R]) is not quiet: that a seat has no legal action tells
something of its hand and held workers."""

from __future__ import annotations

from typing import Any

from games.arkadia.events import (BuildingCompleted, CardTaken, CastlePiecePlaced, FinalRoundStarted, FloorCompleted,
                                  TurnEnded)

_OPEN = (CastlePiecePlaced, FloorCompleted, FinalRoundStarted, BuildingCompleted, TurnEnded)


def quiet(state: Any, event: Any) -> bool:
    """True when `event` shows nobody anything from behind a screen or from the pile."""
    del state
    if isinstance(event, CardTaken):
        return event.source == "display" and event.revealed is None
    return isinstance(event, _OPEN)
