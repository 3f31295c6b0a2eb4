"""What a seat can ask for in 7 Wonders Duel.

Cards, wonders and progress tokens are named by their id (the snake_case of the printed
name, e.g. "lumber_yard", "the_pyramids", "law"). A construction is always paid the
cheapest way (§6.3's recommended engine rule), so no command names a payment.
"""

from __future__ import annotations

from typing import Literal

from events.base import Command


class DraftWonder(Command, tag="draft_wonder"):
    """Take one of the revealed wonders during the draft (§3 step 7)."""

    wonder: str


class BuildCard(Command, tag="build_card"):
    """Take an accessible card and construct it (§5 A)."""

    card: str


class DiscardCard(Command, tag="discard_card"):
    """Take an accessible card and discard it for 2 coins + 1 per yellow card (§5 B)."""

    card: str


class BuildWonder(Command, tag="build_wonder"):
    """Take an accessible card and tuck it under one of your unbuilt wonders (§5 C)."""

    wonder: str
    card: str


class ChooseProgressToken(Command, tag="choose_progress_token"):
    """Answer a science pair (a board token, §8) or The Great Library (a drawn token, §12)."""

    token: str


class DestroyCard(Command, tag="destroy_card"):
    """Circus Maximus / The Statue of Zeus: the opponent's card to discard (§12)."""

    card: str


class BuildFromDiscard(Command, tag="build_from_discard"):
    """The Mausoleum: the card of the discard pile to construct for free (§12)."""

    card: str


class ChooseStartPlayer(Command, tag="choose_start_player"):
    """Who takes the first turn of the next age, chosen by the weaker player (§9)."""

    start: Literal["me", "opponent"]


Command_ = (
    DraftWonder | BuildCard | DiscardCard | BuildWonder | ChooseProgressToken | DestroyCard | BuildFromDiscard
    | ChooseStartPlayer
)
SevenWondersDuelCommand = Command_
