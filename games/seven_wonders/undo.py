"""Which events may be taken back (`GameDef.quiet`, README "Undo"): only the hidden
commitments of a simultaneous turn, a card choice (`CardChosen`, with its Edifice
participation) and a penalty choice (`EdificePenaltyChosen`, Edifice §5.2 B6). The last
choice of a turn reveals and resolves every choice (§7 steps 3-5: `TurnResolved`), and
hands pass, a Free City card is drawn (§12), a discard pile is searched (§11.7): none of
that is quiet, so a choice can be taken back until the turn resolves."""

from __future__ import annotations

from typing import Any

from games.seven_wonders.events import CardChosen, EdificePenaltyChosen


def quiet(state: Any, event: Any) -> bool:
    """True for a choice kept hidden until the turn resolves."""
    del state
    return isinstance(event, (CardChosen, EdificePenaltyChosen))
