"""The state of an Ora et Labora game: nothing but the fold of its events.

Nothing is hidden in Ora et Labora (goods, buildings, hands of settlements and the
building stacks are all open, §1, §5), so every view shows the whole state.

Owners: seats 0..players-1; in the solo game the neutral player is owner `players` (an
index into `State.owners` that no seat has). A building is named by its catalog id, which is
unique within one landscape (the heartland buildings H1-H3 exist once per landscape), so
a building in play is `(owner, id)`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from games.ora_et_labora.landscape import Cell, Landscape
from games.ora_et_labora.wheel import Wheel

Place = tuple[int, str]
"""A building in play: (owner, building id)."""
AVAILABLE: Place = (-1, "")
"""Where a clergyman in his owner's supply is."""
PRIOR = 0
"""Index of the prior among a player's clergymen; the others are lay brothers (§1)."""

Variant = Literal["france", "ireland"]
Length = Literal["normal", "short", "long"]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Game options (§5, §13). `length`: "short" is the short 3-4 player game (§13.3),
    "long" the long 2-player game (§13.2); the solo game is `players=1`.
    `quarry_removed`: the short 4-player France game may remove the C-Quarry (§5.2).
    `final_settlement`: the long 2-player game holds settlement phase E before scoring
    (§15 #14, recommended; a switch)."""

    players: int = 4
    variant: Variant = "france"
    length: Length = "normal"
    quarry_removed: bool = False
    final_settlement: bool = True


class Owner(msgspec.Struct, frozen=True, kw_only=True):
    """One landscape's owner: a seat, or the solo game's neutral player."""

    goods: tuple[int, ...]
    land: Landscape
    clergy: tuple[Place, ...]  # index PRIOR is the prior; AVAILABLE when in the supply
    hand: tuple[str, ...] = ()  # settlements not built yet, in the order received


# -- open decisions: what the game waits for, top of the stack first --------------------------


class _Pending(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    seat: int  # who must decide


class ChooseClergy(_Pending, tag="choose_clergy"):
    """A work contract (§7.1): the building's owner chooses which available clergyman goes
    on `building` (asked only when the owner has both a prior and a lay brother available;
    in the solo game the player chooses for the neutral player)."""

    user: int
    building: Place


class UseFunction(_Pending, tag="use_function"):
    """`seat` carries out `building`'s function, or declines it (§7.1, §11.1). `via`: how it
    came to be used (placement, contract, prior bonus, another building's function);
    `chain`: the buildings whose functions led here, none of which may be used again in
    this chain (our ruling: a Hospice, Priory or Palace must not loop back, README)."""

    building: Place
    via: str
    chain: tuple[Place, ...] = ()


class PriorBonus(_Pending, tag="prior_bonus"):
    """After a build (§7.3): place the prior on the new building and use it, or not."""

    building: Place


class FreeBuild(_Pending, tag="free_build"):
    """A Build action granted by a function (Carpentry, Locutory, §11.2), or declined."""

    via: str


class FreeSettlement(_Pending, tag="free_settlement"):
    """The Castle (§11.2): build one settlement from hand now, or not."""


class FreeLandscape(_Pending, tag="free_landscape"):
    """The Bulwark (§11, §15 #12): take the top district and/or plot without paying."""

    kinds: tuple[str, ...]  # still to take or decline: "district", "plot"


class NeutralBuild(_Pending, tag="neutral_build"):
    """Solo (§13.4 step 3): the player places the neutral player's next new building."""

    building: str


class NeutralPrior(_Pending, tag="neutral_prior"):
    """Solo (§13.4 step 4): place the neutral prior on one of `buildings` (just built by the
    neutral player) and use it, paying the contract price, or not."""

    buildings: tuple[str, ...]


Pending = (ChooseClergy | UseFunction | PriorBonus | FreeBuild | FreeSettlement | FreeLandscape | NeutralBuild
           | NeutralPrior)

Phase = Literal["new", "actions", "settlement", "over"]


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need. Built only by `evolve`."""

    phase: Phase = "new"
    options: Options = Options()
    mode: str = ""  # the catalog mode id (four_player, two_player_long, solo, ...)
    players: int = 0
    owners: tuple[Owner, ...] = ()  # seats, then the neutral player in the solo game
    wheel: Wheel = Wheel()
    round: int = 0  # the round (the turn in the normal 2-player game), from 1
    first: int = 0  # the start player of the first round (§5.1 step 6)
    start: int = 0  # the start player of this round (the active player: normal 2-player game)
    queue: tuple[int, ...] = ()  # the seats still to take an action this round, the actor first
    acted: bool = False  # the actor has taken this action's main action
    bought: tuple[bool, ...] = ()  # per seat: the landscape purchase of the current window is used
    display: tuple[str, ...] = ()  # unbuilt buildings anyone may build (§7.3)
    stacks: tuple[tuple[str, ...], ...] = ()  # the A, B, C, D stacks still to enter
    marker: int = 0  # the building marker: 0..3 = next phase A..D, 4 = E
    districts: tuple[int, ...] = ()  # prices of the district stack, top first
    plots: tuple[int, ...] = ()
    contract: int = 1  # the work-contract price in coins (§7.1, §11.2)
    wonders: int = 8  # Wonders left in the supply (§1)
    pending: tuple[Pending, ...] = ()  # open decisions; the last one is taken first
    letter: str = ""  # the settlement phase in progress (A-E)
    settlers: tuple[int, ...] = ()  # seats still to act in that phase, the current one first
    phase_bought: bool = False  # the current settler bought this phase's landscape
    bonus: bool = False  # this is the bonus round (§9)
    final: bool = False  # the game's last actions are under way (§13.1, §13.2, §13.4)
    # the end
    categories: tuple[str, ...] = ()
    scores: tuple[tuple[int, ...], ...] = ()


def occupant(state: State, place: Place) -> tuple[int, int] | None:
    """(owner of the clergyman, his index) standing on `place`, or None."""
    for o, owner in enumerate(state.owners):
        for i, at in enumerate(owner.clergy):
            if at == place:
                return o, i
    return None


def available(owner: Owner) -> tuple[int, ...]:
    """Indexes of the clergymen in `owner`'s supply (PRIOR first)."""
    return tuple(i for i, at in enumerate(owner.clergy) if at == AVAILABLE)


def where(owner: Owner, building: str) -> Cell | None:
    """The cell of `building` in `owner`'s landscape, or None."""
    for s in owner.land.spaces:
        if s.built == building:
            return s.cell
    return None
