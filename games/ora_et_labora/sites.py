"""Where things may go in Ora et Labora, and why not: a player's buildings, the cells a building
or settlement may take (terrain, cloister adjacency §7.3, §8), a building's cost, a landscape
purchase's problems (§3.5), and the neutral player's building cells and prior targets (§13.4).
"""

from __future__ import annotations

from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora.catalog import CATALOG, OnBuild
from games.ora_et_labora.state import AVAILABLE, PRIOR, NeutralPrior, Owner, State, occupant
from games.words import count


def is_building(built: str) -> bool:
    return built in CATALOG.buildings


def buildings_of(owner: Owner) -> list[str]:
    """The buildings (not settlements) standing in a landscape."""
    return [s.built for s in owner.land.spaces if s.built and is_building(s.built)]


def cloister_ok(land: L.Landscape, cell: L.Cell) -> bool:
    """A cloister building must touch one of the player's cloister buildings (§7.3)."""
    return any(n.built and is_building(n.built) and CATALOG.buildings[n.built].cloister
               for n in L.neighbours(land, cell))


def build_cells(owner: Owner, building: str) -> list[L.Cell]:
    """Empty spaces of `owner`'s landscape where `building` may be built (§3, §7.3)."""
    b = CATALOG.buildings[building]
    return [s.cell for s in owner.land.spaces if s.empty and s.terrain in b.terrain
            and (not b.cloister or cloister_ok(owner.land, s.cell))]


def settlement_cells(owner: Owner, settlement: str) -> list[L.Cell]:
    t = CATALOG.settlements[settlement]
    return [s.cell for s in owner.land.spaces if s.empty and s.terrain in t.terrain]


def building_cost(building: str) -> dict[str, int]:
    return dict(CATALOG.buildings[building].cost)


def raises_contract(building: str) -> bool:
    return any(isinstance(st, OnBuild) and st.effect == "work_contract_cost_becomes_2"
               for st in CATALOG.buildings[building].effect_steps)


def landscape_problem(state: State, seat: int, kind: str, side: str, row: int, *, free: bool = False) -> str:
    """Why this landscape cannot be bought now (§3.2, §3.3, §3.5), or ""."""
    stack = state.districts if kind == "district" else state.plots
    if not stack:
        return f"no {kind} is left"
    owner = state.owners[seat]
    if kind == "district":
        if side not in ("hills", "plains"):
            return "a district is placed with its hills or plains side up"
        if row not in L.district_rows(owner.land):
            return f"a district goes directly above or below your central column: row {' or '.join(map(str, L.district_rows(owner.land)))}"
    elif kind == "plot":
        if side not in ("coast", "mountain"):
            return "a plot is placed with its coast or mountain side up"
        rows = L.plot_rows(owner.land, side)  # type: ignore[arg-type]
        if row not in rows:
            return f"a {side} plot may start at row {', '.join(map(str, rows))}"
    else:
        return "buy a district or a plot"
    if not free and G.count(owner.goods, "coin") < stack[0]:
        return f"the {kind} costs {count(stack[0], 'coin')}; you have {G.count(owner.goods, 'coin')}"
    return ""


def build_problem(state: State, seat: int, building: str, cell: L.Cell) -> str:
    """Why `seat` cannot build `building` on `cell` now (§7.3), or ""."""
    if building not in state.display:
        return f"{building} is not in the display"
    b = CATALOG.buildings[building]
    owner = state.owners[seat]
    space = owner.land.space(cell)
    if space is None:
        return f"your landscape has no space {cell[0]},{cell[1]}"
    if not space.empty:
        return f"the space {cell[0]},{cell[1]} is not empty"
    if space.terrain not in b.terrain:
        return f"{b.name} stands on {'/'.join(b.terrain)}, not {space.terrain}"
    if b.cloister and not cloister_ok(owner.land, cell):
        return f"{b.name} is a cloister building: it must touch one of your cloister buildings (§7.3)"
    after = G.take(owner.goods, building_cost(building))
    if isinstance(after, str):
        return f"{b.name} costs {', '.join(f'{n} {g}' for g, n in building_cost(building).items())}: {after}"
    return ""


def settlement_problem(state: State, seat: int, settlement: str, cell: L.Cell, pay: dict[str, int]) -> str:
    """Why `seat` cannot build `settlement` on `cell` paying `pay` (§8, §12), or ""."""
    owner = state.owners[seat]
    if settlement not in owner.hand:
        return f"{settlement} is not in your hand"
    t = CATALOG.settlements[settlement]
    space = owner.land.space(cell)
    if space is None:
        return f"your landscape has no space {cell[0]},{cell[1]}"
    if not space.empty:
        return f"the space {cell[0]},{cell[1]} is not empty"
    if space.terrain not in t.terrain:
        return f"{t.name} stands on {'/'.join(t.terrain)}, not {space.terrain}"
    why = G.value_payment_problem(pay, food_needed=t.food, energy_halves_needed=2 * t.energy)
    if why:
        return f"{t.name} costs {t.food} food and {t.energy} energy: {why}"
    after = G.take(owner.goods, pay)
    if isinstance(after, str):
        return after
    return ""


def neutral_cells(state: State, building: str) -> list[L.Cell]:
    """Where the neutral player's new `building` may go (§13.4): any terrain; an empty space
    or an unoccupied building of the same kind (cloister or not) to cover; a cloister building
    must touch another of its cloister buildings. Our ruling (README): when no space keeps a
    cloister building next to the others (all of them occupied and hemmed in), it may go
    wherever a building of its kind could otherwise go; when there is no such place at all,
    the player sets it aside (`Decline`) and it leaves the game."""
    o = state.players
    land = state.owners[o].land
    cloister = CATALOG.buildings[building].cloister
    out = []
    for s in land.spaces:
        if s.built:
            if not is_building(s.built) or CATALOG.buildings[s.built].cloister != cloister:
                continue
            if occupant(state, (o, s.built)) is not None:
                continue
        elif s.card:
            continue
        out.append(s.cell)
    if cloister:  # covering an unoccupied cloister building keeps the group together
        touching = [c for c in out if cloister_ok(land, c) or land.space(c).built]  # type: ignore[union-attr]
        return touching or out
    return out


def neutral_prior_targets(state: State) -> list[str]:
    top = state.pending[-1]
    assert isinstance(top, NeutralPrior)
    neutral = state.owners[state.players]
    if neutral.clergy[PRIOR] != AVAILABLE:
        return []
    standing = set(buildings_of(neutral))
    return [b for b in top.buildings if b in standing]
