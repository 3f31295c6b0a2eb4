"""The checks Ora et Labora's catalog passes on import, beyond its schema: goods, the board,
every building row (costs, steps, marks, §7.3, §11), selections, modes and settlements; a
failure raises CatalogError naming the file and the row.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from games.ora_et_labora.catalog_rows import (
    Building,
    BuildingFile,
    GameFile,
    Mode,
    Settlement,
    SettlementFile,
    select_buildings,
)
from games.ora_et_labora.effect_steps import (
    Amounts,
    ConvertBasicPair,
    EnergyTier,
    GainPointsGoods,
    JokerTake,
    OnBuild,
    Step,
    ThresholdGain,
    UpgradeChain,
    WheelTake,
)
from games.seed_files import CatalogError


TERRAINS = ("water", "coast", "plains", "hillside", "mountain")  # §3
PHASES = ("heartland", "start", "A", "B", "C", "D")  # §11.1
PLAYER_MARKS = ("none", "3+", "4")  # §5.2
COST_KEYS = frozenset({"wood", "clay", "stone", "straw", "coin"})  # building materials and coins (§2, §7.3)
VALUE_KEYS = frozenset({"food", "energy"})  # paid by value with any tiles carrying the symbol (§2.2)
SETTLEMENT_TERRAINS = frozenset({"coast", "plains", "hillside"})  # never water or mountain (§3, §12)
CATEGORIES = ("basic", "processed", "point_good", "money", "material")
WILD_FLIP = "5x marker"  # the Wonder tile's reverse is no good (§1)




FOLDER = "seeds/ora_et_labora"


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


def _check_goods(g: GameFile) -> None:
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


def _check_board(g: GameFile, buildings: dict[str, Building]) -> None:
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


def _check_buildings(g: GameFile, rows: list[Building]) -> None:
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


def _check_selections(g: GameFile, by_id: dict[str, Building]) -> None:
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
            got = select_buildings(rows, sel, variant, False)
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
            got = select_buildings(rows, g.modes[long_mode[players]].selection, variant, False)
            counted = {p: sum(1 for x in got if by_id[x].phase == p) for p in ("start", "A", "B", "C", "D")}
            if counted != sizes:
                raise CatalogError(f"{f}: stacks_by_players[{players}] {variant}: {sizes} but the rows give {counted}")


def _check_modes(g: GameFile) -> None:
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


def _check_settlements(s: SettlementFile) -> None:
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


def check(g: GameFile, b: BuildingFile, s: SettlementFile) -> None:
    """Every cross-row rule of the catalog; raises CatalogError naming the file and row."""
    _check_goods(g)
    _check_modes(g)
    _check_buildings(g, b.buildings)
    _check_board(g, {x.id: x for x in b.buildings})
    _check_settlements(s)
    if g.components.settlement_cards != len(s.settlements) * g.components.colours:
        raise CatalogError(f"{FOLDER}/game.json: components.settlement_cards: one of each settlement per colour (§1)")
