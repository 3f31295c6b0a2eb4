"""What a seat can ask for in Ora et Labora (§7, §8, §9, §13).

An action (§6 phase 4) is a short sequence of commands by the actor: any additional
actions (`BuyLandscape`, `Convert`), one main action (`PlaceClergyman`, `WorkContract`,
`FellTrees`, `CutPeat`, `Build`), the decisions it opens (`Use` or `Decline` a function,
the prior bonus, ...), more additional actions, then `EndAction`. A work contract may ask
the building's owner which clergyman goes on it (`AssignClergyman`). A settlement phase
asks each seat in turn for an optional landscape and an optional settlement
(`BuySettlementLandscape`, `BuildSettlement`, `EndSettlement`).

Buildings are named by catalog id (G02, F05, I27, H1 ...); a building in play also by its
owner (a seat; the solo game's neutral player is owner 1). Cells are (row, col) (§3.1).
"""

from __future__ import annotations

from typing import Literal

from events.base import Command

Cell = tuple[int, int]


class BuyLandscape(Command, tag="buy_landscape"):
    """Additional action (§3.5): buy the top district or plot, placed at `row` (a district:
    directly above or below the central column; a plot: its top row) with `side` up
    ("hills"/"plains" for a district, "coast"/"mountain" for a plot)."""

    kind: Literal["district", "plot"]
    side: str
    row: int


class Convert(Command, tag="convert"):
    """Additional action (§2.1): `count` times grain → straw, wine → 1 coin or whiskey → 2 coins."""

    good: Literal["grain", "wine", "whiskey"]
    count: int = 1


class PlaceClergyman(Command, tag="place_clergyman"):
    """Main action 1 (§7.1): one of your available clergymen (`prior` or a lay brother) on
    your unoccupied building; its function follows (`Use` or `Decline`).
    In the bonus round (§9) only the prior, on any player's building (`owner`)."""

    building: str
    prior: bool = False
    owner: int | None = None  # bonus round: whose building (default: your own)


class WorkContract(Command, tag="work_contract"):
    """Main action 1 (§7.1): use `owner`'s unoccupied building, paying the work-contract
    price to the owner, or with `gift` one wine (France) / whiskey (Ireland) to the supply."""

    owner: int
    building: str
    gift: bool = False


class AssignClergyman(Command, tag="assign_clergyman"):
    """The owner's choice for a work contract on his building (§7.1): prior or lay brother."""

    prior: bool


class FellTrees(Command, tag="fell_trees"):
    """Main action 2 (§7.2): remove the forest card at `cell` (None: you have none) and take
    the wood indicator's (or the joker's) value in wood."""

    cell: Cell | None = None
    joker: bool = False


class CutPeat(Command, tag="cut_peat"):
    """Main action 2 (§7.2): remove the moor card at `cell` and take peat likewise."""

    cell: Cell | None = None
    joker: bool = False


class Build(Command, tag="build"):
    """Main action 3 (§7.3), or the build a function grants: build `building` from the
    display on the empty space `cell`, paying its printed cost (building materials or
    coins; missing straw is flipped from grain). The prior bonus follows if the prior is
    available."""

    building: str
    cell: Cell


class Use(Command, tag="use"):
    """Carry out the function of the building waiting for it (§11), every choice made here.

    `joker`: produce with the joker (§4.3). `goods`: goods chosen, in the order the
    function offers them (Farmyard grain or livestock; the good of six for the Cloister
    Courtyard; ...). `times`: repetitions of each repeatable part, in the function's order.
    `pay`: the goods given where the function asks for food, energy, different goods or
    points (their sum must cover every such part). `take`: point goods chosen (House of the
    Brotherhood, Festival Ground) or upgrades (Pilgrimage Site, "book>ceramic": 1).
    `cells`: forest or moor cards removed. `target`: the building whose function is used
    next (Priory, Palace, Grand Manor, Cloister Garden, Cottage, Hospice, Guesthouse; owner
    -1 for a building in the display).
    A function that is one exchange per use (Grain Storage, Druid's House, ...) needs no
    `times`: using it makes the exchange. The Calefactory takes `goods` ⊆ ("wood", "peat")
    for Fell Trees and/or Cut Peat, `cells` the card removed by each and `times` a joker
    flag (0/1) for each. A use that changes nothing is refused: `Decline` instead."""

    joker: bool = False
    goods: tuple[str, ...] = ()
    times: tuple[int, ...] = ()
    pay: dict[str, int] = {}
    take: dict[str, int] = {}
    cells: tuple[Cell, ...] = ()
    target: tuple[int, str] | None = None


class Decline(Command, tag="decline"):
    """Do not take what is offered: a function (placing without using, §11.1), the prior
    bonus (§7.3), a granted build or settlement, the neutral prior's use (§13.4)."""


class PlaceNeutralBuilding(Command, tag="place_neutral_building"):
    """Solo (§13.4 step 3): put the neutral player's new building on `cell` of its landscape
    (any terrain; on an unoccupied building of the same kind (cloister or not) to cover it)."""

    cell: Cell


class UseNeutralPrior(Command, tag="use_neutral_prior"):
    """Solo (§13.4 step 4): place the neutral prior on `building`, just built by the neutral
    player, paying the contract price (or the `gift`) to the supply; its function follows."""

    building: str
    gift: bool = False


class EndAction(Command, tag="end_action"):
    """End this action after its main action (and any additional actions after it)."""


class BuildSettlement(Command, tag="build_settlement"):
    """In a settlement phase (§8) or through the Castle: build `settlement` from your hand
    on the empty space `cell`, paying its food and energy with the goods `pay` (§2.2)."""

    settlement: str
    cell: Cell
    pay: dict[str, int] = {}


class BuySettlementLandscape(Command, tag="buy_settlement_landscape"):
    """In a settlement phase (§3.5, §8 step 2): the phase's one landscape, before the settlement."""

    kind: Literal["district", "plot"]
    side: str
    row: int


class EndSettlement(Command, tag="end_settlement"):
    """Build no (more) settlement in this phase (§8 step 2)."""


OraEtLaboraCommand = (BuyLandscape | Convert | PlaceClergyman | WorkContract | AssignClergyman | FellTrees | CutPeat
                      | Build | Use | Decline | PlaceNeutralBuilding | UseNeutralPrior | EndAction | BuildSettlement
                      | BuySettlementLandscape | EndSettlement)
