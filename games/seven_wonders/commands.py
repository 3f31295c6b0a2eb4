"""What a seat can ask for in 7 Wonders.

Cards are named by their key (the snake_case of the printed name, e.g. "east_trading_post");
the engine finds that card in the seat's hand. A payment is named by the coins sent to
each neighbour (`left`, `right`); leave both unset to ask for the cheapest way (§6).
In the 2-player variant (§12) `free_city=True` marks a decision taken for the Free City by
the player who controls it this turn.
"""

from __future__ import annotations

from events.base import Command


class Build(Command, tag="build"):
    """Build the card as a structure (§4 A). `free` uses Olympia A's once-per-age power."""

    card: str
    left: int | None = None
    right: int | None = None
    free: bool = False
    free_city: bool = False


class BuildStage(Command, tag="build_stage"):
    """Use the card to build the next wonder stage (§4 B). `join`: with the Edifice
    expansion, also take part in this Age's edifice, paying its coins (Edifice §4)."""

    card: str
    left: int | None = None
    right: int | None = None
    free_city: bool = False
    join: bool = False
    option: int | None = None  # Carthage: which alternative (1, 2); Ur: the Age of its pawn (1-3)


class Discard(Command, tag="discard"):
    """Discard the card for 3 coins (§4 C)."""

    card: str
    free_city: bool = False


class BuildFromDiscard(Command, tag="build_from_discard"):
    """Halicarnassus: build this card of the discard pile for free (§11.7)."""

    card: str
    free_city: bool = False


class Decline(Command, tag="decline"):
    """Halicarnassus: take nothing from the discard pile (§11.7, 'may')."""

    free_city: bool = False


class GiveUp(Command, tag="give_up"):
    """Edifice: pay a failed edifice's penalty with this structure of the owed colour (§5.2)."""

    card: str


class ReturnTokens(Command, tag="return_tokens"):
    """Edifice: pay a failed edifice's penalty with these victory tokens (§5.2), by value."""

    tokens: list[int]


Command_ = Build | BuildStage | Discard | BuildFromDiscard | Decline | GiveUp | ReturnTokens
SevenWondersCommand = Command_
