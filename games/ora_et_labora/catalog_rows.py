"""The shape of Ora et Labora's seed files: one Struct per row and table of game.json,
buildings.json and settlements.json (goods, wheel, landscapes, buildings, settlements, modes),
decoded strictly (unknown fields refused), and the building selection of a mode (§5.2).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from games.ora_et_labora.effect_steps import Step


Mark = Literal["confirmed", "mostly_confirmed", "disputed_repeat", "disputed_value"]
Variant = Literal["both", "france", "ireland"]


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


class GameFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
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


class BuildingFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    buildings: list[Building]


class SettlementFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    starting_settlements_in_hand: list[str]
    settlement_cards_by_phase: dict[str, str]
    settlements: list[Settlement]


def select_buildings(buildings: list[Building], sel: Selection, variant: str, optional_removed: bool) -> list[str]:
    out = set(sel.exclude) | (set(sel.optional_exclude) if optional_removed else set())
    return [b.id for b in buildings
            if b.variant in ("both", variant) and b.phase != "heartland"
            and b.player_mark not in sel.exclude_marks and b.id not in out]
