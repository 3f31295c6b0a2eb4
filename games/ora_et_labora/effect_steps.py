"""The language of Ora et Labora's building functions (§11): a building row's `effect_steps`, a
tagged union on `op` (§11.1 explains how to read them), one Struct per kind of step.
"""

from __future__ import annotations

from typing import Literal

import msgspec


Amounts = dict[str, int | float]  # goods id (or "food"/"energy") -> quantity; straw is half an energy (§2.2)


class _Step(msgspec.Struct, frozen=True, kw_only=True, tag_field="op", omit_defaults=True,
            forbid_unknown_fields=True):
    pass


Joiner = Literal["and", "and_or", "and_then_or", "and_then"]


class WheelTake(_Step, tag="wheel_take"):
    """Take the indicator's value of the good (of `choose` among `goods`), or the joker's; used one to 0 (§4.3)."""

    goods: list[str]
    choose: int | None = None


class JokerTake(_Step, tag="joker_take"):
    """Take the joker's value of one good of `goods`; joker to 0 (Shipping Company, Cooperage, §11.2)."""

    goods: list[str]
    choose: int


class Convert(_Step, tag="convert"):
    """Pay `in`, receive `out`, 0..`max` times (None: any number); `joiner` ties it to the step before (§11.1)."""

    in_: Amounts = msgspec.field(name="in")
    out: Amounts
    max: int | None
    joiner: Joiner | None = None


class ConvertBasicPair(_Step, tag="convert_basic_pair"):
    """Pay `in`, receive amounts[0] of one basic good and amounts[1] of a different one (Druid's House, §11).

    The source data writes this output as text (`reference_out`, kept verbatim), not as goods."""

    in_: Amounts = msgspec.field(name="in")
    amounts: list[int]
    max: int | None
    reference_out: str


class ConvertChoice(_Step, tag="convert_choice"):
    """Pay one of `in_options`, receive `out`, up to `max` times (Estate, §11)."""

    in_options: list[Amounts]
    out: Amounts
    max: int | None


class Pay(_Step, tag="pay"):
    """Pay `in` before the rest of the function."""

    in_: Amounts = msgspec.field(name="in")


class PayDifferent(_Step, tag="pay_different"):
    """Pay 1 tile each of `count` different goods types (§11.1, §15 #4)."""

    count: int


class PayPoints(_Step, tag="pay_points"):
    """Pay goods worth at least `min_points` printed points (Round Tower, §15 #7)."""

    min_points: int


class Gain(_Step, tag="gain"):
    """Receive `out`."""

    out: Amounts


class GainChoice(_Step, tag="gain_choice"):
    """Receive exactly one of `options`."""

    options: list[Amounts]


class GainPer(_Step, tag="gain_per"):
    """Receive `out` per counted item (Printing Office: per forest removed)."""

    per: Literal["forest_removed"]
    out: Amounts


class GainPointsGoods(_Step, tag="gain_points_goods"):
    """Take books/ceramics/ornaments/reliquaries worth at most the budget (§15 #8, #9).

    `rate` (R, per mode) multiplies the count for the House of the Brotherhood."""

    budget: Literal["count_forest_and_moor_cards_owned", "R * count_own_cloister_buildings"]
    rate: dict[str, int | float] | None = msgspec.field(name="R", default=None)


class EnergyTier(_Step, tag="energy_tier"):
    """Pay energy once; receive the coins of the highest (energy, coins) tier reached (§15 #6)."""

    tiers: list[tuple[int, int]]


class ThresholdGain(_Step, tag="threshold_gain"):
    """Receive `gain` by the count owned, nothing paid: tiers are (at least, amount) (Spinning Mill)."""

    count_of: Literal["livestock_owned"]
    tiers: list[tuple[int, int]]
    gain: str


class UseBuilding(_Step, tag="use_building"):
    """Carry out another building's function; no contract, no clergyman placed (§11.2)."""

    target: Literal["occupied_by_any_prior", "occupied_by_any_clergy", "own_adjacent_unoccupied", "display_unbuilt"]
    exclude_self: bool = False
    optional: bool = False


class RemoveForest(_Step, tag="remove_forest"):
    """Remove up to `max` own forest cards, no wood taken; `required`: the rest needs one removed."""

    max: int
    required: bool = False


class BuildBuilding(_Step, tag="build_building"):
    """A Build action inside the function, cost paid as usual (Carpentry, Locutory, §11.2)."""

    optional: bool


class BuildSettlement(_Step, tag="build_settlement"):
    """Build up to `max` settlement(s) from hand outside a settlement phase (Castle, §11.2)."""

    max: int


class ExtraAction(_Step, tag="extra_action"):
    """Free Fell Trees / Cut Peat actions, each at most `each_max` times (Calefactory, §11.2)."""

    actions: list[Literal["fell_trees", "cut_peat"]]
    each_max: int
    optional: bool


class UpgradeChain(_Step, tag="upgrade_chain"):
    """Up to `steps_max` times move one tile one step along `chain` (Pilgrimage Site)."""

    chain: list[str]
    steps_max: int


class FreeLandscape(_Step, tag="free_landscape"):
    """Take the top card of each of `types`, no price, at most `each_max` each (Bulwark, §15 #12)."""

    types: list[Literal["district", "plot"]]
    each_max: int


class OnBuild(_Step, tag="on_build"):
    """A permanent effect when the building is built, not when used (§11.2 Winery/Whiskey Distillery)."""

    effect: Literal["work_contract_cost_becomes_2"]


class ReturnAllOwnClergy(_Step, tag="return_all_own_clergy"):
    """All the user's clergymen return to supply, the one just placed included (Bathhouse, §11.2)."""


class ReturnOwnPrior(_Step, tag="return_own_prior"):
    """The user's prior returns to supply from wherever it stands (Locutory, §11.2)."""


Step = (WheelTake | JokerTake | Convert | ConvertBasicPair | ConvertChoice | Pay | PayDifferent | PayPoints | Gain
        | GainChoice | GainPer | GainPointsGoods | EnergyTier | ThresholdGain | UseBuilding | RemoveForest
        | BuildBuilding | BuildSettlement | ExtraAction | UpgradeChain | FreeLandscape | OnBuild | ReturnAllOwnClergy
        | ReturnOwnPrior)


OPS = frozenset(t.__struct_config__.tag for t in Step.__args__)  # type: ignore[union-attr]
