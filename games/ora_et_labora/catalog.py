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
The steps are `effect_steps.py`, the rows `catalog_rows.py`, the checks `catalog_checks.py`;
this module loads and hashes the files and names everything the rules import.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from games import seed_files
from games.ora_et_labora.catalog_checks import (
    CATEGORIES,
    COST_KEYS,
    FOLDER,
    PHASES,
    PLAYER_MARKS,
    SETTLEMENT_TERRAINS,
    TERRAINS,
    VALUE_KEYS,
    WILD_FLIP,
    CatalogError,
    check,
)
from games.ora_et_labora.catalog_rows import (
    Alternative,
    Building,
    BuildingFile,
    Clergy,
    Components,
    DistrictCell,
    Districts,
    FreeConversion,
    GameFile,
    Good,
    Heartland,
    HeartlandCell,
    Landscapes,
    Mark,
    Mode,
    Phases,
    PlotCell,
    Plots,
    PlotSide,
    ProductionWheel,
    RemovedCell,
    Selection,
    Settlement,
    SettlementFile,
    Size,
    Stacks,
    Variant,
    WorkContract,
    select_buildings,
)
from games.ora_et_labora.effect_steps import (
    OPS,
    Amounts,
    BuildBuilding,
    BuildSettlement,
    Convert,
    ConvertBasicPair,
    ConvertChoice,
    EnergyTier,
    ExtraAction,
    FreeLandscape,
    Gain,
    GainChoice,
    GainPer,
    GainPointsGoods,
    JokerTake,
    OnBuild,
    Pay,
    PayDifferent,
    PayPoints,
    RemoveForest,
    ReturnAllOwnClergy,
    ReturnOwnPrior,
    Step,
    ThresholdGain,
    UpgradeChain,
    UseBuilding,
    WheelTake,
)


__all__ = [
    "CATEGORIES", "COST_KEYS", "FOLDER", "OPS", "PHASES", "PLAYER_MARKS", "SETTLEMENT_TERRAINS", "TERRAINS",
    "VALUE_KEYS", "WILD_FLIP", "Alternative", "Amounts", "BuildBuilding", "Building", "BuildingFile",
    "BuildSettlement", "CatalogError", "Clergy", "Components", "Convert", "ConvertBasicPair", "ConvertChoice",
    "DistrictCell", "Districts", "EnergyTier", "ExtraAction", "FreeConversion", "FreeLandscape", "Gain", "GainChoice",
    "GainPer", "GainPointsGoods", "GameFile", "Good", "Heartland", "HeartlandCell", "JokerTake", "Landscapes", "Mark",
    "Mode", "OnBuild", "Pay", "PayDifferent", "PayPoints", "Phases", "PlotCell", "Plots", "PlotSide",
    "ProductionWheel", "RemovedCell", "RemoveForest", "ReturnAllOwnClergy", "ReturnOwnPrior", "Selection",
    "Settlement", "SettlementFile", "Size", "Stacks", "Step", "ThresholdGain", "UpgradeChain", "UseBuilding",
    "Variant", "WheelTake", "WorkContract",
]


FILES = ("game.json", "buildings.json", "settlements.json")


class Catalog:
    """The validated data with the lookups the rules will need."""

    def __init__(self, game: GameFile, buildings: BuildingFile, settlements: SettlementFile, digest: str) -> None:
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
        return select_buildings(list(self.buildings.values()), self.modes[mode].selection, variant, optional_removed)

    def stack(self, mode: str, variant: Literal["france", "ireland"], phase: str) -> list[str]:
        """The selected buildings of one stack (start = the display at setup, A-D)."""
        return [i for i in self.selection(mode, variant) if self.buildings[i].phase == phase]


T = TypeVar("T")


def _decode(name: str, raw: bytes, kind: type[T]) -> T:
    return seed_files.decode(f"{FOLDER}/{name}", raw, kind)


def parse(raw: dict[str, bytes]) -> Catalog:
    """Decode and validate the three files' bytes (by file name); the hash covers them all."""
    game = _decode("game.json", raw["game.json"], GameFile)
    buildings = _decode("buildings.json", raw["buildings.json"], BuildingFile)
    settlements = _decode("settlements.json", raw["settlements.json"], SettlementFile)
    check(game, buildings, settlements)
    return Catalog(game, buildings, settlements, seed_files.digest(raw))


def load() -> Catalog:
    """Read and validate the seed files shipped in the `seeds` package."""
    return parse(seed_files.read("ora_et_labora", FILES))


CATALOG = load()
CATALOG_HASH = CATALOG.hash
# Hashes of earlier seed files with today's rules data (only documentation fields changed;
# 2026-12-02: the `source` fields point to docs/rules/), for `verify` of older games.
EARLIER_HASHES: dict[str, str] = {
    "842530db3e9bddc859727eb12cbdb473e9477ba1d300816900445ac661e42d01": CATALOG_HASH,
}
