"""The facts of an Ora et Labora game.

These tags and fields are the storage format; change them only as the versioning policy
in `events/README.md` allows. Events carry their outcomes (goods paid and gained, the wheel
after a production or a rotation, cards removed, clergy returned, decisions opened), so
`evolve` never re-applies a rule.
"""

from __future__ import annotations

from typing import ClassVar

from events.base import Event
from games.ora_et_labora.landscape import Cell
from games.ora_et_labora.state import Options, Owner, Pending, Place
from games.ora_et_labora.wheel import Wheel


class GameSetUp(Event, tag="game_set_up"):
    """Setup (§5, §13): the mode, the start player (the one random outcome), and everything
    laid out: the display, the A-D stacks, the landscape stacks (prices, top first), the
    wheel, each owner's heartland, goods and clergy (the solo neutral player last)."""

    version: ClassVar[int] = 1
    options: Options
    mode: str
    start: int
    display: tuple[str, ...]
    stacks: tuple[tuple[str, ...], ...]
    districts: tuple[int, ...]
    plots: tuple[int, ...]
    wheel: Wheel
    owners: tuple[Owner, ...]
    rules_version: int
    catalog_hash: str
    rng: str


class RoundStarted(Event, tag="round_started"):
    """A round (a turn in the normal 2-player game) begins (§6 phases 1-2, §9, §13): the
    owners whose clergy all came back, the wheel after its rotation and any entering
    indicator, the round goods every seat takes (short game), the start player and the
    order of actions."""

    version: ClassVar[int] = 1
    round: int
    start: int
    queue: tuple[int, ...]
    wheel: Wheel
    returned: tuple[int, ...] = ()  # owners whose clergymen all returned
    priors_returned: tuple[int, ...] = ()  # bonus round: owners whose prior came back (§9)
    entered: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()  # solo: indicators removed at 10 (§13.4)
    round_goods: dict[str, int] = {}
    bonus: bool = False
    final: bool = False
    reset: tuple[int, ...] = ()  # seats whose landscape purchase of the window is open again (§3.5)


class SettlementPhaseStarted(Event, tag="settlement_phase_started"):
    """§8: the building marker moves on; the seats act in this order."""

    version: ClassVar[int] = 1
    letter: str
    settlers: tuple[int, ...]


class SettlerDone(Event, tag="settler_done"):
    """The current seat of a settlement phase has finished (§8 step 2)."""

    version: ClassVar[int] = 1
    seat: int


class SettlementPhaseEnded(Event, tag="settlement_phase_ended"):
    """§8 step 3: the letter's buildings join the display; every seat receives `card`."""

    version: ClassVar[int] = 1
    letter: str
    revealed: tuple[str, ...]
    card: str


class LandscapeBought(Event, tag="landscape_bought"):
    """§3.5: the top district or plot, placed at once; `price` coins paid (0 when free)."""

    version: ClassVar[int] = 1
    seat: int
    kind: str
    side: str
    row: int
    price: int
    counted: bool  # it uses up the purchase of the current window (or of the phase)


class GoodsConverted(Event, tag="goods_converted"):
    """§2.1: `paid` became `gained`."""

    version: ClassVar[int] = 1
    seat: int
    paid: dict[str, int]
    gained: dict[str, int]


class ActionTaken(Event, tag="action_taken"):
    """The actor's main action of this action (§7), by kind."""

    version: ClassVar[int] = 1
    seat: int
    kind: str


class WorkContracted(Event, tag="work_contracted"):
    """§7.1: `user` paid `paid` to `paid_to` (an owner; -1 the supply) to use `building`."""

    version: ClassVar[int] = 1
    user: int
    building: Place
    paid: dict[str, int]
    paid_to: int


class ClergymanPlaced(Event, tag="clergyman_placed"):
    """Clergyman `clergyman` of `owner` now stands on `building`."""

    version: ClassVar[int] = 1
    owner: int
    clergyman: int
    building: Place


class DecisionOpened(Event, tag="decision_opened"):
    """The game now waits for `pending` (on top of any other open decision)."""

    version: ClassVar[int] = 1
    pending: Pending


class DecisionClosed(Event, tag="decision_closed"):
    """The decision on top has been taken (or declined)."""

    version: ClassVar[int] = 1


class FunctionUsed(Event, tag="function_used"):
    """`seat` carried out `building`'s function (§11): goods paid and gained, the wheel after
    it (if used), the goods every seat received as a short-game bonus (§13.3), cards
    removed from the user's landscape, Wonders taken, the user's clergymen returned."""

    version: ClassVar[int] = 1
    seat: int
    building: Place
    paid: dict[str, int] = {}
    gained: dict[str, int] = {}
    wheel: Wheel | None = None
    bonus: dict[str, int] = {}
    removed: tuple[Cell, ...] = ()
    wonders: int = 0  # taken from the supply, net (negative: a Wonder paid went back to it)
    returned: tuple[int, ...] = ()


class LandCleared(Event, tag="land_cleared"):
    """Fell Trees or Cut Peat (§7.2): the card at `cell` removed (None: no card left),
    `amount` of `good` taken, the wheel after it, the short-game bonus (§13.3)."""

    version: ClassVar[int] = 1
    seat: int
    good: str
    cell: Cell | None
    amount: int
    wheel: Wheel
    bonus: dict[str, int] = {}


class BuildingBuilt(Event, tag="building_built"):
    """§7.3: `building` left the display for `cell`, `paid` given; `contract` is the
    work-contract price from now on (2 once the Winery or Whiskey Distillery stands)."""

    version: ClassVar[int] = 1
    seat: int
    building: str
    cell: Cell
    paid: dict[str, int]
    contract: int


class NeutralBuilt(Event, tag="neutral_built"):
    """Solo (§13.4): the neutral player's new building on `cell`, covering `covered` ("" none);
    `contract` is the work-contract price from now on (2 once a Winery or Whiskey
    Distillery stands anywhere, §11.2)."""

    version: ClassVar[int] = 1
    building: str
    cell: Cell
    covered: str = ""
    contract: int = 1


class NeutralSetAside(Event, tag="neutral_set_aside"):
    """Solo: the neutral player's new building had no place at all; it leaves the game (README)."""

    version: ClassVar[int] = 1
    building: str


class SettlementBuilt(Event, tag="settlement_built"):
    """§8, §12: `settlement` from hand on `cell`, `paid` given (food and energy)."""

    version: ClassVar[int] = 1
    seat: int
    settlement: str
    cell: Cell
    paid: dict[str, int]


class ActionEnded(Event, tag="action_ended"):
    """The actor's action is over; the next seat in the queue acts."""

    version: ClassVar[int] = 1
    seat: int
    reset: tuple[int, ...] = ()  # seats whose landscape purchase window opens again (§13.2)


class GameEnded(Event, tag="game_ended"):
    """§10: each seat's scores by category (goods, economic, settlements)."""

    version: ClassVar[int] = 1
    categories: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]


OraEtLaboraEvent = (GameSetUp | RoundStarted | SettlementPhaseStarted | SettlerDone | SettlementPhaseEnded
                    | LandscapeBought | GoodsConverted | ActionTaken | WorkContracted | ClergymanPlaced
                    | DecisionOpened | DecisionClosed | FunctionUsed | LandCleared | BuildingBuilt | NeutralBuilt
                    | NeutralSetAside | SettlementBuilt | ActionEnded | GameEnded)
