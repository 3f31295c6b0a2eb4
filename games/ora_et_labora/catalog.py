"""Ora et Labora's catalog: goods, production wheel, landscapes, buildings, settlements, modes.

Loaded from `seeds/ora_et_labora/` (game.json, buildings.json, settlements.json) and validated
on import; a malformed row fails naming the file and the row. The data was converted row for
row from the rules reference's data file (tests/data/ora-et-labora.json, which the tests
compare it with); every building and settlement row carries `ref` (the § and row of
docs/rules/ora-et-labora.md, the project's rules document) and `confirmation` (the data's
confidence: confirmed, mostly_confirmed, disputed_repeat, disputed_value). Rows named in the unconfirmed list (§16, marked ⚠ in the tables) keep the
value the engine plays, quote the list entry in `unconfirmed`, give the reason in `note`
and the other value(s) in `alternatives` (field path and value), so a ruling can be
switched by editing data only.

Building functions are `effect_steps`, a tagged union on `op` (§11.1 explains how to read
them); the free text of the rules document's §11 tables stays beside them in `effect`.
"""

from __future__ import annotations

import hashlib
import re
from importlib import resources
from typing import Any, Literal

import msgspec

Mark = Literal["confirmed", "mostly_confirmed", "disputed_repeat", "disputed_value"]
Variant = Literal["both", "france", "ireland"]
Amounts = dict[str, int | float]  # goods id (or "food"/"energy") -> quantity; straw is half an energy (§2.2)

TERRAINS = ("water", "coast", "plains", "hillside", "mountain")  # §3
PHASES = ("heartland", "start", "A", "B", "C", "D")  # §11.1
PLAYER_MARKS = ("none", "3+", "4")  # §5.2
COST_KEYS = frozenset({"wood", "clay", "stone", "straw", "coin"})  # building materials and coins (§2, §7.3)
VALUE_KEYS = frozenset({"food", "energy"})  # paid by value with any tiles carrying the symbol (§2.2)
SETTLEMENT_TERRAINS = frozenset({"coast", "plains", "hillside"})  # never water or mountain (§3, §12)
CATEGORIES = ("basic", "processed", "point_good", "money", "material")
WILD_FLIP = "5x marker"  # the Wonder tile's reverse is no good (§1)


class CatalogError(ValueError):
    """A seed file does not hold a valid catalog; the message names the file and row."""


# -- building functions (§11) -------------------------------------------------------------


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


# -- rows ---------------------------------------------------------------------------------


class Alternative(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A disputed row's other value (§16): `field` is a path into the row, e.g. effect_steps[1].max."""

    field: str
    value: Any


class Building(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One building face (§11): G both faces, F France, I Ireland, H heartland start building."""

    id: str
    card_number: int
    name: str
    variant: Variant
    phase: str
    player_mark: str
    excluded_in_modes: list[str]  # mode ids, or optional_<mode> (§5.2)
    cost: dict[str, int]
    terrain: list[str]
    cloister: bool
    economic_value: int
    dwelling_value: int
    uses_production_wheel: bool
    effect: str
    effect_steps: list[Step]
    ref: str
    confirmation: Mark
    note: str = ""
    unconfirmed: str = ""  # the §16 / data `unconfirmed` entry naming this row, verbatim
    alternatives: list[Alternative] = []


class Settlement(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One settlement (§12): cost in food + energy, no function."""

    id: str
    name: str
    phase: str  # start (in hand) or the settlement phase A-D that hands it out
    food: int
    energy: int
    terrain: list[str]
    economic_value: int
    dwelling_value: int
    ref: str
    confirmation: Mark
    note: str = ""
    unconfirmed: str = ""
    alternatives: list[Alternative] = []


class Good(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One face of a goods tile and its values (§2)."""

    id: str
    name: str
    flip_side: str
    food: int | float
    energy: int | float
    coins: int
    points: int
    variant: Variant
    category: str
    building_material: bool = False
    note: str = ""
    ref: str


class FreeConversion(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An additional action open at any time (§2.1)."""

    from_: dict[str, int] = msgspec.field(name="from")
    to: dict[str, int]
    when: str
    reversible: bool
    ref: str


class _Table(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    ref: str
    confirmation: Mark


class Clergy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    prior: int
    lay_brothers: int


class Components(_Table, frozen=True, kw_only=True):
    """The box contents with counts (§1)."""

    goods_tiles: dict[str, int]  # "face/reverse" -> tiles
    building_cards: int
    settlement_cards: int
    forest_moor_cards: int
    heartlands: int
    districts: int
    plots: int
    clergy_per_colour: Clergy
    colours: int
    goods_indicators: list[str]
    building_marker: int
    wonders: int
    start_player_markers: str


class ProductionWheel(_Table, frozen=True, kw_only=True):
    """The 13 wheel values per side and the state model (§4)."""

    spaces: int
    front_values: list[int]
    back_values: list[int]
    start: str
    model: str
    front_used_by: list[str]
    back_used_by: list[str]


class Size(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rows: int
    cols: int


class HeartlandCell(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    row: int
    col: int
    terrain: str
    card: str | None  # "forest", "moor", "<H id> <name>" or None (empty)


class RemovedCell(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    row: int
    col: int
    card: str


class Heartland(_Table, frozen=True, kw_only=True):
    """Every player's starting landscape (§3.1)."""

    size: Size
    coordinates: str
    cells: list[HeartlandCell]
    short_game_removed: list[RemovedCell]
    neutral_player_solo: str


class DistrictCell(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    col: int
    terrain: str
    card: str | None


class Districts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """§3.2: 1 x 5 cards, two sides."""

    count: int
    shape: str
    costs_top_to_bottom: list[int]
    costs_solo_top_to_bottom: list[int]
    sides: dict[str, list[DistrictCell]]
    placement: str


class PlotCell(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    col: int
    rows: list[int]  # rows relative to the plot's top row
    terrain: str
    single_space: bool = False  # the mountain: one space spanning both rows (§3.3)


class PlotSide(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    attach: str
    cells: list[PlotCell]


class Plots(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """§3.3: 2 x 2 cards, coast or mountain side."""

    count: int
    shape: str
    costs_top_to_bottom: list[int]
    costs_solo_top_to_bottom: list[int]
    sides: dict[str, PlotSide]
    placement: str


class Landscapes(_Table, frozen=True, kw_only=True):
    districts: Districts
    plots: Plots
    adjacency_notes: str
    water_dwelling_value: int  # an unbuilt water space next to a settlement (§10 C)


class WorkContract(_Table, frozen=True, kw_only=True):
    """§7.1: the price paid to the owner, or the wine/whiskey gift."""

    cost_coins_initial: int
    cost_after_winery_or_whiskey_distillery: int
    paid_to: str
    gift_alternative: str
    restrictions: list[str]


class Stacks(_Table, frozen=True, kw_only=True):
    """§5.2: cards per stack (start, A-D) by player count, France = Ireland."""

    by_players: dict[int, dict[str, int]]


class Phases(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Round (or turn) of settlement phases A-D; E is text where the rules give no number."""

    A: int
    B: int
    C: int
    D: int
    E: int | str | None


class Selection(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The buildings a mode uses (§5.2), as data the loader checks against every row."""

    exclude_marks: list[str]
    exclude: list[str]  # building ids
    optional_exclude: list[str]  # removed only if the players choose so (short 4p France: C-Quarry)
    outside_display: list[str]  # used, but not put in the display (solo: Builders' Market)
    counts: dict[str, int]  # variant -> buildings used, per the §5.2 table


class Mode(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One way to play (§5.3, §13); field names as in the source data."""

    players: int
    board: str
    wheel: Literal["front", "back"]
    clergy: Clergy
    starting_goods: dict[str, int]
    structure: str
    rounds: int | None
    bonus_round: int | None = None
    settlement_phase_in_round: Phases | None = None
    settlement_phase_in_turn: Phases | None = None  # normal 2-player game: counted in turns
    grapes_enter_round: int | None = None
    grapes_enter_turn: int | None = None
    stone_enters_round: int | None = None
    stone_enters_turn: int | None = None
    landscape_purchases: str
    end: str
    buildings: str
    heartland_removed: str = ""
    extra_rules: list[str] = []
    round_start_goods: dict[int, dict[str, int]] | None = None
    round_start_goods_confidence: str = ""
    indicators_at_10_on_rotation: str = ""
    confidence: str  # the source data's own wording
    selection: Selection
    ref: str
    confirmation: Mark
    note: str = ""
    unconfirmed: str = ""
    alternatives: list[Alternative] = []


class _GameFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    game: str
    components: Components
    goods: list[Good]
    basic_goods: list[str]
    free_conversions: list[FreeConversion]
    production_wheel: ProductionWheel
    heartland: Heartland
    landscapes: Landscapes
    work_contract: WorkContract
    stacks_by_players: Stacks
    modes: dict[str, Mode]


class _BuildingFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    buildings: list[Building]


class _SettlementFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    starting_settlements_in_hand: list[str]
    settlement_cards_by_phase: dict[str, str]
    settlements: list[Settlement]


FOLDER = "seeds/ora_et_labora"
FILES = ("game.json", "buildings.json", "settlements.json")


class Catalog:
    """The validated data with the lookups the rules will need."""

    def __init__(self, game: _GameFile, buildings: _BuildingFile, settlements: _SettlementFile, digest: str) -> None:
        self.game = game
        self.hash = digest
        self.buildings: dict[str, Building] = {b.id: b for b in buildings.buildings}
        self.settlements: dict[str, Settlement] = {s.id: s for s in settlements.settlements}
        self.starting_settlements = tuple(settlements.starting_settlements_in_hand)
        self.settlement_cards_by_phase = dict(settlements.settlement_cards_by_phase)
        self.goods: dict[str, Good] = {g.id: g for g in game.goods}
        self.modes: dict[str, Mode] = dict(game.modes)

    def selection(self, mode: str, variant: Literal["france", "ireland"], *, optional_removed: bool = False) -> list[str]:
        """Ids of the buildings used in `mode` with `variant`, catalog order (§5.2); no heartland buildings."""
        return _selection(list(self.buildings.values()), self.modes[mode].selection, variant, optional_removed)

    def stack(self, mode: str, variant: Literal["france", "ireland"], phase: str) -> list[str]:
        """The selected buildings of one stack (start = the display at setup, A-D)."""
        return [i for i in self.selection(mode, variant) if self.buildings[i].phase == phase]


def _selection(buildings: list[Building], sel: Selection, variant: str, optional_removed: bool) -> list[str]:
    out = set(sel.exclude) | (set(sel.optional_exclude) if optional_removed else set())
    return [b.id for b in buildings
            if b.variant in ("both", variant) and b.phase != "heartland"
            and b.player_mark not in sel.exclude_marks and b.id not in out]


# -- validation ---------------------------------------------------------------------------

_PATH = re.compile(r"([A-Za-z_]+)|\[(\d+)\]")


def _resolve(row: Any, path: str) -> bool:
    """Whether `path` (a.b[1].c) names a value in the row's builtins."""
    node = row
    for part in path.split("."):
        for name, index in _PATH.findall(part):
            if name:
                if not isinstance(node, dict) or name not in node:
                    return False
                node = node[name]
            else:
                if not isinstance(node, list) or int(index) >= len(node):
                    return False
                node = node[int(index)]
    return True


def _check_marks(where: str, row: Building | Settlement | Mode) -> None:
    """§16: a disputed row says why and keeps its alternative by a path that exists."""
    if row.confirmation != "confirmed" and not row.note:
        raise CatalogError(f"{where}: a {row.confirmation} row needs a note")
    if row.unconfirmed and not row.note:
        raise CatalogError(f"{where}: an unconfirmed row needs a note")
    if row.alternatives and not row.unconfirmed:
        raise CatalogError(f"{where}: alternatives belong to rows of the unconfirmed list")
    builtins = msgspec.to_builtins(row)
    for alt in row.alternatives:
        if not _resolve(builtins, alt.field):
            raise CatalogError(f"{where}: alternative field {alt.field!r} is not in the row")


def _amounts(step: Step) -> list[Amounts]:
    found: list[Amounts] = []
    for name in ("in_", "out"):
        value = getattr(step, name, None)
        if isinstance(value, dict):
            found.append(value)
    found += getattr(step, "options", None) or []
    found += getattr(step, "in_options", None) or []
    return found


def _step_goods(step: Step) -> set[str]:
    names = {k for a in _amounts(step) for k in a}
    names |= set(getattr(step, "goods", None) or ())
    names |= set(getattr(step, "chain", None) or ())
    if isinstance(step, ThresholdGain):
        names.add(step.gain)
    return names


def _check_goods(g: _GameFile) -> None:
    f = f"{FOLDER}/game.json"
    goods = {x.id: x for x in g.goods}
    if len(goods) != len(g.goods):
        raise CatalogError(f"{f}: duplicate good id")
    for i, x in enumerate(g.goods):
        where = f"{f}: goods[{i}] ({x.id})"
        if x.category not in CATEGORIES:
            raise CatalogError(f"{where}: unknown category {x.category!r}")
        if min(x.food, x.energy, x.coins, x.points) < 0:
            raise CatalogError(f"{where}: negative value")
        # Both faces of one tile name each other (§2); the Wonder's reverse is a marker.
        if x.flip_side != WILD_FLIP and (x.flip_side not in goods or goods[x.flip_side].flip_side != x.id):
            raise CatalogError(f"{where}: flip side {x.flip_side!r} is not its reverse face")
    basic = [x.id for x in g.goods if x.category == "basic"]
    if sorted(basic) != sorted(g.basic_goods) or len(set(g.basic_goods)) != len(g.basic_goods):
        raise CatalogError(f"{f}: basic_goods must be the goods of category basic (§2)")
    for i, c in enumerate(g.free_conversions):
        if any(k not in goods or n < 1 for k, n in (*c.from_.items(), *c.to.items())):
            raise CatalogError(f"{f}: free_conversions[{i}]: unknown good or bad amount")
    comp = g.components
    for pair, n in comp.goods_tiles.items():
        if pair == "start_player_markers":
            continue
        face, _, back = pair.partition("/")
        if face not in goods or (goods[face].flip_side != back and not (back == "5x" and face == "wonder")) or n < 1:
            raise CatalogError(f"{f}: components.goods_tiles[{pair!r}]: not the two faces of one tile")
    if comp.wonders != comp.goods_tiles.get("wonder/5x"):
        raise CatalogError(f"{f}: components.wonders must equal the Wonder tiles (§1)")
    if any(x not in goods and x != "joker" for x in comp.goods_indicators):
        raise CatalogError(f"{f}: components.goods_indicators: unknown good")


def _check_board(g: _GameFile, buildings: dict[str, Building]) -> None:
    f = f"{FOLDER}/game.json"
    w = g.production_wheel
    for side, values in (("front", w.front_values), ("back", w.back_values)):
        if len(values) != w.spaces or values[0] != 0 or values[-1] != 10 or values != sorted(values):
            raise CatalogError(f"{f}: production_wheel.{side}_values: {w.spaces} rising values from 0 to 10 (§4.1)")
    used = w.front_used_by + w.back_used_by
    if sorted(used) != sorted(g.modes) or len(set(used)) != len(used):
        raise CatalogError(f"{f}: production_wheel: every mode uses exactly one side (§4.1)")
    for m in w.front_used_by + w.back_used_by:
        if g.modes[m].wheel != ("front" if m in w.front_used_by else "back"):
            raise CatalogError(f"{f}: modes.{m}.wheel disagrees with production_wheel")
    h = g.heartland
    cells = {(c.row, c.col): c for c in h.cells}
    if len(cells) != len(h.cells) or set(cells) != {(r, c) for r in range(h.size.rows) for c in range(h.size.cols)}:
        raise CatalogError(f"{f}: heartland.cells must cover {h.size.rows} x {h.size.cols} once (§3.1)")
    placed = []
    for c in h.cells:
        where = f"{f}: heartland cell ({c.row},{c.col})"
        if c.terrain not in TERRAINS:
            raise CatalogError(f"{where}: unknown terrain {c.terrain!r}")
        if c.card in ("forest", "moor") and c.terrain != "plains":
            raise CatalogError(f"{where}: forest and moor cards lie on plains (§3)")
        if c.card not in (None, "forest", "moor"):
            bid, _, name = c.card.partition(" ")
            b = buildings.get(bid)
            if b is None or b.phase != "heartland" or b.name != name or c.terrain not in b.terrain:
                raise CatalogError(f"{where}: {c.card!r} is no heartland building allowed on {c.terrain}")
            placed.append(bid)
    if sorted(placed) != sorted(b.id for b in buildings.values() if b.phase == "heartland"):
        raise CatalogError(f"{f}: heartland: every heartland building printed once (§3.1)")
    for r in h.short_game_removed:
        if (r.row, r.col) not in cells or cells[(r.row, r.col)].card != r.card:
            raise CatalogError(f"{f}: heartland.short_game_removed ({r.row},{r.col}) is not a {r.card} (§13.3)")
    land = g.landscapes
    for name, stack in (("districts", land.districts), ("plots", land.plots)):
        if len(stack.costs_top_to_bottom) != stack.count or stack.costs_solo_top_to_bottom != stack.costs_top_to_bottom[::-1]:
            raise CatalogError(f"{f}: landscapes.{name}: one price per card; solo stack turned over (§3.2, §3.3)")
    for side, dcells in land.districts.sides.items():
        if [c.col for c in dcells] != list(range(h.size.cols)) or any(
                c.terrain not in TERRAINS or (c.card is not None and (c.card not in ("forest", "moor") or c.terrain != "plains"))
                for c in dcells):
            raise CatalogError(f"{f}: landscapes.districts.sides.{side}: bad cells (§3.2)")
    for side, ps in land.plots.sides.items():
        if any(c.terrain not in TERRAINS or not c.rows for c in ps.cells):
            raise CatalogError(f"{f}: landscapes.plots.sides.{side}: bad cells (§3.3)")
    wc = g.work_contract
    if not 1 <= wc.cost_coins_initial < wc.cost_after_winery_or_whiskey_distillery:
        raise CatalogError(f"{f}: work_contract: the price rises from its initial value (§7.1)")
    comp = g.components
    if (comp.heartlands, comp.districts, comp.plots) != (comp.colours, land.districts.count, land.plots.count):
        raise CatalogError(f"{f}: components: heartlands, districts, plots disagree with the landscapes (§1)")


def _check_buildings(g: _GameFile, rows: list[Building]) -> None:
    f = f"{FOLDER}/buildings.json"
    goods = {x.id: x for x in g.goods}
    ids: set[str] = set()
    modes = set(g.modes)
    for i, b in enumerate(rows):
        where = f"{f}: buildings[{i}] ({b.id} {b.name})"
        if b.id in ids:
            raise CatalogError(f"{where}: duplicate id")
        ids.add(b.id)
        m = re.fullmatch(r"([HGFI])(\d+)", b.id)
        want = {"H": "both", "G": "both", "F": "france", "I": "ireland"}
        if m is None or int(m.group(2)) != b.card_number or want[m.group(1)] != b.variant:
            raise CatalogError(f"{where}: id must be H/G/F/I + card number, with the matching variant (§11.1)")
        if b.phase not in PHASES or (b.phase == "heartland") != (m.group(1) == "H"):
            raise CatalogError(f"{where}: unknown phase {b.phase!r} (H rows, and only they, are heartland)")
        if b.player_mark not in PLAYER_MARKS:
            raise CatalogError(f"{where}: unknown player mark {b.player_mark!r} (§5.2)")
        if bool(b.cost) == (b.phase == "heartland") or any(k not in COST_KEYS or n < 1 for k, n in b.cost.items()):
            raise CatalogError(f"{where}: bad cost {b.cost} (materials wood/clay/stone/straw or coins, §7.3)")
        if not b.terrain or len(set(b.terrain)) != len(b.terrain) or any(t not in TERRAINS for t in b.terrain):
            raise CatalogError(f"{where}: bad terrain {b.terrain} (§3)")
        for x in b.excluded_in_modes:
            if x.removeprefix("optional_") not in modes:
                raise CatalogError(f"{where}: excluded_in_modes names no mode: {x!r}")
        if not b.effect_steps:
            raise CatalogError(f"{where}: no effect steps")
        # A variant's building only handles goods of that variant (§2: France never malt/beer/whiskey).
        allowed = {k for k, x in goods.items() if x.variant in ("both", b.variant)} | VALUE_KEYS
        for k, s in enumerate(b.effect_steps):
            here = f"{where}: effect_steps[{k}] ({s.__struct_config__.tag})"
            bad = _step_goods(s) - allowed
            if bad:
                raise CatalogError(f"{here}: goods {sorted(bad)} unknown or not of variant {b.variant}")
            if any(n <= 0 for a in _amounts(s) for n in a.values()):
                raise CatalogError(f"{here}: amounts must be positive")
            if getattr(s, "joiner", None) is not None and k == 0:
                raise CatalogError(f"{here}: the first step has nothing to join")
            if isinstance(s, WheelTake) and any(x not in g.components.goods_indicators for x in s.goods):
                raise CatalogError(f"{here}: a good without a wheel indicator (§4.3)")
            if isinstance(s, (WheelTake, JokerTake)) and not 1 <= (s.choose or 1) <= len(s.goods):
                raise CatalogError(f"{here}: choose must pick among the goods")
            if isinstance(s, GainPointsGoods) and s.rate is not None and set(s.rate) != modes:
                raise CatalogError(f"{here}: R needs one rate per mode (§15 #8)")
            if isinstance(s, (EnergyTier, ThresholdGain)) and [t[0] for t in s.tiers] != sorted({t[0] for t in s.tiers}):
                raise CatalogError(f"{here}: tiers must rise")
            if isinstance(s, UpgradeChain) and any(goods[x].category != "point_good" for x in s.chain):
                raise CatalogError(f"{here}: the chain runs over point goods")
            if isinstance(s, ConvertBasicPair) and (len(s.amounts) != 2 or min(s.amounts) < 1):
                raise CatalogError(f"{here}: two positive amounts")
        wheel = any(isinstance(s, (WheelTake, JokerTake)) for s in b.effect_steps)
        if wheel != b.uses_production_wheel:
            raise CatalogError(f"{where}: uses_production_wheel disagrees with the steps (§4.3)")
        _check_marks(where, b)
    by_id = {b.id: b for b in rows}
    for variant in ("france", "ireland"):
        numbers = sorted(b.card_number for b in rows if b.variant in ("both", variant) and b.phase != "heartland")
        if numbers != list(range(1, g.components.building_cards + 1)):
            raise CatalogError(f"{f}: {variant}: card numbers must be 1..{g.components.building_cards} once each (§1)")
        raisers = [b.id for b in rows if b.variant == variant and any(isinstance(s, OnBuild) for s in b.effect_steps)]
        if len(raisers) != 1:
            raise CatalogError(f"{f}: {variant}: exactly one building raises the work-contract price (§11.2)")
    if sorted(b.card_number for b in rows if b.phase == "heartland") != [1, 2, 3]:
        raise CatalogError(f"{f}: heartland buildings H1-H3 (§11)")
    _check_selections(g, by_id)


def _check_selections(g: _GameFile, by_id: dict[str, Building]) -> None:
    f = f"{FOLDER}/game.json"
    rows = list(by_id.values())
    for mid, mode in g.modes.items():
        sel = mode.selection
        where = f"{f}: modes.{mid}.selection"
        if any(x not in ("3+", "4") for x in sel.exclude_marks):
            raise CatalogError(f"{where}: unknown player mark (§5.2)")
        for x in (*sel.exclude, *sel.optional_exclude, *sel.outside_display):
            if x not in by_id or by_id[x].phase == "heartland":
                raise CatalogError(f"{where}: {x!r} names no building of the display")
        for i, b in enumerate(rows):
            if (mid in b.excluded_in_modes) != (b.id in sel.exclude) or (
                    f"optional_{mid}" in b.excluded_in_modes) != (b.id in sel.optional_exclude):
                raise CatalogError(f"{FOLDER}/buildings.json: buildings[{i}] ({b.id} {b.name}): "
                                   f"excluded_in_modes disagrees with modes.{mid}.selection")
        if set(sel.counts) != {"france", "ireland"}:
            raise CatalogError(f"{where}: counts for france and ireland")
        for variant, n in sel.counts.items():
            got = _selection(rows, sel, variant, False)
            if len(got) != n:
                raise CatalogError(f"{where}: {variant} selects {len(got)} buildings (by the rows' player_mark and "
                                   f"excluded_in_modes), the §5.2 table says {n}")
            if any(x not in got for x in sel.outside_display if by_id[x].variant in ("both", variant)):
                raise CatalogError(f"{where}: outside_display names an unselected building")
    # §5.2: cards per stack by player count (France = Ireland), from the long modes' selections.
    long_mode = {4: "four_player", 3: "three_player", 2: "two_player"}
    stacks = g.stacks_by_players.by_players
    if set(stacks) != set(long_mode):
        raise CatalogError(f"{f}: stacks_by_players for 2, 3 and 4 players (§5.2)")
    for players, sizes in stacks.items():
        for variant in ("france", "ireland"):
            got = _selection(rows, g.modes[long_mode[players]].selection, variant, False)
            counted = {p: sum(1 for x in got if by_id[x].phase == p) for p in ("start", "A", "B", "C", "D")}
            if counted != sizes:
                raise CatalogError(f"{f}: stacks_by_players[{players}] {variant}: {sizes} but the rows give {counted}")


def _check_modes(g: _GameFile) -> None:
    f = f"{FOLDER}/game.json"
    goods = {x.id: x for x in g.goods}
    for mid, m in g.modes.items():
        where = f"{f}: modes.{mid}"
        if not 1 <= m.players <= 4 or m.clergy.prior != 1 or m.clergy.lay_brothers < 1:
            raise CatalogError(f"{where}: 1-4 players, one prior and lay brothers (§5.3)")
        if any(k not in g.basic_goods or n < 1 for k, n in m.starting_goods.items()):
            raise CatalogError(f"{where}: starting goods are basic goods (§5.1)")
        phases = [p for p in (m.settlement_phase_in_round, m.settlement_phase_in_turn) if p is not None]
        if len(phases) != 1:
            raise CatalogError(f"{where}: settlement phases counted in rounds or in turns, not both")
        p = phases[0]
        if not 0 < p.A < p.B < p.C < p.D or (isinstance(p.E, int) and p.E <= p.D):
            raise CatalogError(f"{where}: settlement phases come in the order A, B, C, D, E (§8)")
        in_turns = m.settlement_phase_in_turn is not None
        if in_turns and (m.grapes_enter_round, m.stone_enters_round) != (None, None) or not in_turns and (
                m.grapes_enter_turn, m.stone_enters_turn) != (None, None):
            raise CatalogError(f"{where}: indicator entries counted like the settlement phases")
        if m.rounds is not None and m.bonus_round not in (None, m.rounds + 1):
            raise CatalogError(f"{where}: the bonus round follows the last round (§9)")
        for r, gift in (m.round_start_goods or {}).items():
            if any(k not in goods or n < 1 for k, n in gift.items()) or not 1 <= r <= (m.bonus_round or 0):
                raise CatalogError(f"{where}: round_start_goods[{r}]: unknown good or round (§13.3)")
        _check_marks(where, m)


def _check_settlements(s: _SettlementFile) -> None:
    f = f"{FOLDER}/settlements.json"
    ids: set[str] = set()
    for i, x in enumerate(s.settlements):
        where = f"{f}: settlements[{i}] ({x.id} {x.name})"
        if x.id in ids or not re.fullmatch(r"S\d+", x.id):
            raise CatalogError(f"{where}: duplicate or malformed id")
        ids.add(x.id)
        if x.phase not in ("start", "A", "B", "C", "D"):
            raise CatalogError(f"{where}: unknown phase {x.phase!r} (§12)")
        if not x.terrain or any(t not in SETTLEMENT_TERRAINS for t in x.terrain):
            raise CatalogError(f"{where}: settlements stand on coast, plains or hillside (§3, §12)")
        if x.food < 0 or x.energy < 0:
            raise CatalogError(f"{where}: negative cost")
        _check_marks(where, x)
    if s.starting_settlements_in_hand != [x.id for x in s.settlements if x.phase == "start"]:
        raise CatalogError(f"{f}: starting_settlements_in_hand must be the start settlements (§5.1)")
    for phase, sid in s.settlement_cards_by_phase.items():
        if [x.id for x in s.settlements if x.phase == phase] != [sid]:
            raise CatalogError(f"{f}: settlement_cards_by_phase.{phase}: {sid} is not that phase's settlement (§8)")
    if sorted(s.settlement_cards_by_phase) != ["A", "B", "C", "D"]:
        raise CatalogError(f"{f}: one settlement card per phase A-D (§8)")


def _check(g: _GameFile, b: _BuildingFile, s: _SettlementFile) -> None:
    """Every cross-row rule of the catalog; raises CatalogError naming the file and row."""
    _check_goods(g)
    _check_modes(g)
    _check_buildings(g, b.buildings)
    _check_board(g, {x.id: x for x in b.buildings})
    _check_settlements(s)
    if g.components.settlement_cards != len(s.settlements) * g.components.colours:
        raise CatalogError(f"{FOLDER}/game.json: components.settlement_cards: one of each settlement per colour (§1)")


def _decode(name: str, raw: bytes, kind: type) -> Any:
    """Decode one file; a schema error names the row (index and id) it sits in."""
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as exc:
        where = f"{FOLDER}/{name}"
        m = re.search(r"\$\.(\w+)\[(\d+)\]", str(exc))
        if m is not None:
            table, index = m.group(1), int(m.group(2))
            try:
                row = msgspec.json.decode(raw)[table][index]
                where += f": {table}[{index}] ({row.get('id', '?')} {row.get('name', '')})".rstrip()
            except (msgspec.DecodeError, KeyError, IndexError, TypeError, AttributeError):
                pass
        raise CatalogError(f"{where}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise CatalogError(f"{FOLDER}/{name}: {exc}") from None


def parse(raw: dict[str, bytes]) -> Catalog:
    """Decode and validate the three files' bytes (by file name); the hash covers them all."""
    game = _decode("game.json", raw["game.json"], _GameFile)
    buildings = _decode("buildings.json", raw["buildings.json"], _BuildingFile)
    settlements = _decode("settlements.json", raw["settlements.json"], _SettlementFile)
    _check(game, buildings, settlements)
    # As for the other games: SHA-256 of the files sorted by name, joined by a NUL byte.
    digest = hashlib.sha256(b"\x00".join(raw[f] for f in sorted(raw))).hexdigest()
    return Catalog(game, buildings, settlements, digest)


def load() -> Catalog:
    """Read and validate the seed files shipped in the `seeds` package."""
    folder = resources.files("seeds").joinpath("ora_et_labora")
    return parse({f: folder.joinpath(f).read_bytes() for f in FILES})


CATALOG = load()
CATALOG_HASH = CATALOG.hash
# Hashes of earlier seed files with today's rules data (only documentation fields changed;
# 2026-12-02: the `source` fields point to docs/rules/), for `verify` of older games.
EARLIER_HASHES: dict[str, str] = {
    "842530db3e9bddc859727eb12cbdb473e9477ba1d300816900445ac661e42d01": CATALOG_HASH,
}
