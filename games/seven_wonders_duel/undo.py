"""Which events may be taken back (`GameDef.quiet`, README "Undo"). Quiet: what happens in
the open on the table (building, discarding, a wonder, the pawn, a destroyed card, a
token from the board, the next turn, a decision over open cards). Not quiet: face-down
cards turned up (`CardsRevealed`, §4), an age laid out (`AgeStarted`), the draft's
second four wonders turned up by the fourth pick (§3), The Great Library's three tokens
drawn from the box (`DecisionOpened` "great_library", §15 #8) and the one taken from them."""

from __future__ import annotations

from typing import Any

from games.seven_wonders_duel.events import (CardBuilt, CardDestroyed, CardDiscarded, DecisionOpened, PawnMoved,
                                             ProgressTokenTaken, TurnStarted, WonderBuilt, WonderDrafted,
                                             WonderRemoved)

_OPEN = (CardBuilt, CardDiscarded, WonderBuilt, WonderRemoved, PawnMoved, CardDestroyed, TurnStarted)


def quiet(state: Any, event: Any) -> bool:
    """True when `event` on `state` shows nobody anything hidden."""
    if isinstance(event, WonderDrafted):
        return state.picks != 3  # the fourth pick turns the next four wonders up
    if isinstance(event, DecisionOpened):
        return event.kind != "great_library"
    if isinstance(event, ProgressTokenTaken):
        return event.source == "board"
    return isinstance(event, _OPEN)
