"""The commands a seat's decisions take in Ora et Labora, each judged and applied to a Run:
which handler judges a command now, the additional actions (convert §2.1, buy a landscape §3.5,
§7.4), the main actions (place a clergyman, work contract, fell trees, cut peat, build, §7),
open decisions, settlements (§8) and the solo game's neutral player (§13.4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.contract import Rejection
from games.ora_et_labora import functions as F
from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora.catalog import CATALOG
from games.ora_et_labora.commands import (
    AssignClergyman,
    Build,
    BuildSettlement,
    BuyLandscape,
    BuySettlementLandscape,
    Convert,
    CutPeat,
    Decline,
    EndAction,
    EndSettlement,
    FellTrees,
    PlaceClergyman,
    PlaceNeutralBuilding,
    Use,
    UseNeutralPrior,
    WorkContract,
)
from games.ora_et_labora.events import (
    ActionEnded,
    ActionTaken,
    BuildingBuilt,
    ClergymanPlaced,
    DecisionClosed,
    DecisionOpened,
    FunctionUsed,
    GoodsConverted,
    LandCleared,
    LandscapeBought,
    NeutralBuilt,
    NeutralSetAside,
    SettlementBuilt,
    SettlerDone,
    WorkContracted,
)
from games.ora_et_labora.notation import VERB
from games.ora_et_labora.rounds import Run
from games.ora_et_labora.sites import (
    build_problem,
    building_cost,
    is_building,
    landscape_problem,
    neutral_cells,
    neutral_prior_targets,
    raises_contract,
    settlement_problem,
)
from games.ora_et_labora.state import (
    AVAILABLE,
    PRIOR,
    ChooseClergy,
    FreeBuild,
    FreeLandscape,
    FreeSettlement,
    NeutralBuild,
    NeutralPrior,
    Owner,
    Place,
    PriorBonus,
    State,
    UseFunction,
    available,
    occupant,
)
from games.words import count


GIFT = {"france": "wine", "ireland": "whiskey"}
"""The work-contract gift (§7.1)."""


Handler = Callable[[Run, int, Any], Rejection | None]


def handler_for(state: State, cmd: Any) -> Handler | Rejection:
    """The handler of `cmd` in the current situation, or why it is not allowed now."""
    if isinstance(cmd, Convert):
        return _convert
    top = state.pending[-1] if state.pending else None
    allowed: dict[type, Handler]
    if top is not None:
        allowed = {
            ChooseClergy: {AssignClergyman: _assign},
            UseFunction: {Use: _use, Decline: _close},
            PriorBonus: {PlaceClergyman: _prior_bonus, Decline: _close},
            FreeBuild: {Build: _free_build, Decline: _close},
            FreeSettlement: {BuildSettlement: _castle_settlement, Decline: _close},
            FreeLandscape: {BuyLandscape: _free_landscape, Decline: _close},
            NeutralBuild: {PlaceNeutralBuilding: _neutral_build, Decline: _neutral_set_aside},
            NeutralPrior: {UseNeutralPrior: _neutral_prior, Decline: _close},
        }[type(top)]
        what = f"the open decision ({top.__struct_config__.tag.replace('_', ' ')})"
    elif state.phase == "settlement":
        allowed = {BuySettlementLandscape: _phase_landscape, BuildSettlement: _phase_settlement,
                   EndSettlement: _end_settlement}
        what = f"settlement phase {state.letter}"
    else:
        allowed = {BuyLandscape: _buy, EndAction: _end_action}
        if not state.acted:
            allowed |= {PlaceClergyman: _place, WorkContract: _contract, FellTrees: _fell, CutPeat: _cut,
                        Build: _build}
        what = "your action" + (" (main action taken: buy, convert or end)" if state.acted else "")
    handler = allowed.get(type(cmd))
    if handler is None:
        names = ", ".join(sorted(VERB[t] for t in allowed))
        return Rejection("not_now", f"{VERB.get(type(cmd), type(cmd).__name__)} is not possible now; "
                                    f"{what} takes: {names}; convert is always allowed")
    return handler


# -- additional actions ------------------------------------------------------------------------------


def _convert(run: Run, seat: int, cmd: Convert) -> Rejection | None:
    if cmd.count < 1:
        return Rejection("bad_count", "convert at least one")
    gained = {"grain": {"straw": cmd.count}, "wine": {"coin": cmd.count},
              "whiskey": {"coin": 2 * cmd.count}}.get(cmd.good)
    if gained is None:
        return Rejection("bad_choice", "the free conversions are grain → straw, wine → coin, whiskey → 2 coins (§2.1)")
    paid = {cmd.good: cmd.count}
    if isinstance(G.take(run.state.owners[seat].goods, paid), str):
        return Rejection("cannot_afford", f"you have fewer than {cmd.count} {cmd.good}")
    run(GoodsConverted(seat=seat, paid=paid, gained=gained))
    return None


def _buy(run: Run, seat: int, cmd: BuyLandscape) -> Rejection | None:
    st = run.state
    if st.bought[seat]:
        return Rejection("purchase_used", "you have bought a landscape in this round already (§3.5)")
    why = landscape_problem(st, seat, cmd.kind, cmd.side, cmd.row)
    if why:
        return Rejection("bad_landscape", why)
    price = (st.districts if cmd.kind == "district" else st.plots)[0]
    run(LandscapeBought(seat=seat, kind=cmd.kind, side=cmd.side, row=cmd.row, price=price, counted=True))
    return None


def _phase_landscape(run: Run, seat: int, cmd: BuySettlementLandscape) -> Rejection | None:
    st = run.state
    if st.phase_bought:
        return Rejection("purchase_used", "one landscape per settlement phase (§3.5)")
    why = landscape_problem(st, seat, cmd.kind, cmd.side, cmd.row)
    if why:
        return Rejection("bad_landscape", why)
    price = (st.districts if cmd.kind == "district" else st.plots)[0]
    run(LandscapeBought(seat=seat, kind=cmd.kind, side=cmd.side, row=cmd.row, price=price, counted=True))
    return None


def _free_landscape(run: Run, seat: int, cmd: BuyLandscape) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, FreeLandscape)
    if cmd.kind not in top.kinds:
        return Rejection("bad_landscape", f"the Bulwark gives: {', '.join(top.kinds)}")
    why = landscape_problem(run.state, seat, cmd.kind, cmd.side, cmd.row, free=True)
    if why:
        return Rejection("bad_landscape", why)
    run(DecisionClosed(), LandscapeBought(seat=seat, kind=cmd.kind, side=cmd.side, row=cmd.row, price=0,
                                          counted=False))
    rest = tuple(k for k in top.kinds if k != cmd.kind)
    if rest:
        run(DecisionOpened(pending=FreeLandscape(seat=seat, kinds=rest)))
    return None


# -- main actions --------------------------------------------------------------------------------------


def clergyman_for(owner: Owner, prior: bool) -> int | None:
    """The index of an available prior (or lay brother), or None."""
    free = available(owner)
    if prior:
        return PRIOR if PRIOR in free else None
    brothers = [i for i in free if i != PRIOR]
    return brothers[0] if brothers else None


def _usable(state: State, owner: int, building: str) -> str:
    """Why `building` of `owner` cannot take a clergyman now, or ""."""
    land = state.owners[owner].land
    if not any(s.built == building for s in land.spaces) or not is_building(building):
        return f"there is no building {building} in that landscape"
    if occupant(state, (owner, building)) is not None:
        return f"{CATALOG.buildings[building].name} is occupied"
    return ""


def _place(run: Run, seat: int, cmd: PlaceClergyman) -> Rejection | None:
    st = run.state
    me = st.owners[seat]
    if st.bonus:  # §9: only the prior, on any built building of any player, occupied or not, no contract
        if not cmd.prior:
            return Rejection("prior_only", "in the bonus round only the prior is placed (§9)")
        owner = seat if cmd.owner is None else cmd.owner
        if not 0 <= owner < len(st.owners) or not any(s.built == cmd.building for s in st.owners[owner].land.spaces) \
                or not is_building(cmd.building):
            return Rejection("no_such_building", f"there is no building {cmd.building} in that landscape")
        if me.clergy[PRIOR] != AVAILABLE:
            return Rejection("no_clergyman", "your prior is not in your supply")
        place: Place = (owner, cmd.building)
        run(ActionTaken(seat=seat, kind="place"), ClergymanPlaced(owner=seat, clergyman=PRIOR, building=place),
            DecisionOpened(pending=UseFunction(seat=seat, building=place, via="bonus_round")))
        return None
    if cmd.owner not in (None, seat):
        return Rejection("not_yours", "place on your own building, or make a work contract (§7.1)")
    why = _usable(st, seat, cmd.building)
    if why:
        return Rejection("cannot_place", why)
    i = clergyman_for(me, cmd.prior)
    if i is None:
        return Rejection("no_clergyman", f"you have no {'prior' if cmd.prior else 'lay brother'} available")
    place = (seat, cmd.building)
    run(ActionTaken(seat=seat, kind="place"), ClergymanPlaced(owner=seat, clergyman=i, building=place),
        DecisionOpened(pending=UseFunction(seat=seat, building=place, via="placement")))
    return None


def _contract(run: Run, seat: int, cmd: WorkContract) -> Rejection | None:
    st = run.state
    if st.bonus:
        return Rejection("not_now", "no work contracts in the bonus round: place your prior on any building (§9)")
    if cmd.owner == seat or not 0 <= cmd.owner < len(st.owners):
        return Rejection("bad_owner", "a work contract uses another player's building (§7.1)")
    why = _usable(st, cmd.owner, cmd.building)
    if why:
        return Rejection("cannot_place", why)
    owner = st.owners[cmd.owner]
    if not available(owner):
        return Rejection("no_clergyman", "that player has no clergyman available (§7.1)")
    me = st.owners[seat]
    if cmd.gift:
        gift = GIFT[st.options.variant]
        paid = {gift: 1}
        if G.count(me.goods, gift) < 1:
            return Rejection("cannot_afford", f"the gift is one {gift}; you have none")
        to = -1
    else:
        paid = {"coin": st.contract}
        if G.count(me.goods, "coin") < st.contract:
            return Rejection("cannot_afford", f"the work contract costs {count(st.contract, 'coin')}; convert wine or whiskey first, or give a gift")
        to = -1 if cmd.owner >= st.players else cmd.owner  # the neutral player's fee goes to the supply
    place = (cmd.owner, cmd.building)
    run(ActionTaken(seat=seat, kind="contract"), WorkContracted(user=seat, building=place, paid=paid, paid_to=to))
    free = available(owner)
    kinds = {i == PRIOR for i in free}
    if len(kinds) == 2:
        chooser = cmd.owner if cmd.owner < st.players else seat  # solo: you choose for the neutral player
        run(DecisionOpened(pending=ChooseClergy(seat=chooser, user=seat, building=place)))
    else:
        run(ClergymanPlaced(owner=cmd.owner, clergyman=free[0], building=place),
            DecisionOpened(pending=UseFunction(seat=seat, building=place, via="contract")))
    return None


def _assign(run: Run, seat: int, cmd: AssignClergyman) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, ChooseClergy)
    owner = top.building[0]
    i = clergyman_for(run.state.owners[owner], cmd.prior)
    if i is None:
        return Rejection("no_clergyman", f"no {'prior' if cmd.prior else 'lay brother'} available")
    run(DecisionClosed(), ClergymanPlaced(owner=owner, clergyman=i, building=top.building),
        DecisionOpened(pending=UseFunction(seat=top.user, building=top.building, via="contract")))
    return None


def _clear(run: Run, seat: int, good: str, cell: L.Cell | None, joker: bool) -> Rejection | None:
    if run.state.bonus:
        return Rejection("not_now", "no felling or cutting in the bonus round (§9)")
    out = F.clear(run.state, seat, good, cell, joker)
    if isinstance(out, Rejection):
        return out
    run(ActionTaken(seat=seat, kind="fell_trees" if good == "wood" else "cut_peat"),
        LandCleared(seat=seat, good=good, cell=cell, amount=out.gained.get(good, 0),
                    wheel=out.wheel if out.wheel is not None else run.state.wheel, bonus=out.bonus))
    return None


def _fell(run: Run, seat: int, cmd: FellTrees) -> Rejection | None:
    return _clear(run, seat, "wood", cmd.cell, cmd.joker)


def _cut(run: Run, seat: int, cmd: CutPeat) -> Rejection | None:
    return _clear(run, seat, "peat", cmd.cell, cmd.joker)


def _built(run: Run, seat: int, cmd: Build) -> Rejection | None:
    st = run.state
    why = build_problem(st, seat, cmd.building, cmd.cell)
    if why:
        return Rejection("cannot_build", why)
    me = st.owners[seat]
    after = G.take(me.goods, building_cost(cmd.building))
    assert isinstance(after, tuple)
    paid = {g: a - b for g, a, b in zip(G.GOODS, me.goods, after) if a != b}
    contract = 2 if raises_contract(cmd.building) else st.contract
    run(BuildingBuilt(seat=seat, building=cmd.building, cell=cmd.cell, paid=paid, contract=max(st.contract, contract)))
    if me.clergy[PRIOR] == AVAILABLE:
        run(DecisionOpened(pending=PriorBonus(seat=seat, building=(seat, cmd.building))))
    return None


def _build(run: Run, seat: int, cmd: Build) -> Rejection | None:
    why = build_problem(run.state, seat, cmd.building, cmd.cell)
    if why:
        return Rejection("cannot_build", why)
    run(ActionTaken(seat=seat, kind="build"))
    return _built(run, seat, cmd)


def _free_build(run: Run, seat: int, cmd: Build) -> Rejection | None:
    why = build_problem(run.state, seat, cmd.building, cmd.cell)
    if why:
        return Rejection("cannot_build", why)
    run(DecisionClosed())
    return _built(run, seat, cmd)


def _prior_bonus(run: Run, seat: int, cmd: PlaceClergyman) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, PriorBonus)
    if not cmd.prior or cmd.building != top.building[1] or cmd.owner not in (None, seat):
        return Rejection("bad_choice", f"the prior bonus places your prior on {top.building[1]} (or decline)")
    run(DecisionClosed(), ClergymanPlaced(owner=seat, clergyman=PRIOR, building=top.building),
        DecisionOpened(pending=UseFunction(seat=seat, building=top.building, via="prior_bonus")))
    return None


def _close(run: Run, seat: int, cmd: Decline) -> Rejection | None:
    """Decline the open decision: a function (placing without using it, §11.1), the prior
    bonus, a granted build, settlement or landscape, the neutral prior's use."""
    run(DecisionClosed())
    return None


def _use(run: Run, seat: int, cmd: Use) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, UseFunction)
    out = F.resolve(run.state, seat, top.building, cmd)
    if isinstance(out, Rejection):
        return out
    run(DecisionClosed(), FunctionUsed(seat=seat, building=top.building, paid=out.paid, gained=out.gained,
                                       wheel=out.wheel, bonus=out.bonus, removed=out.removed,
                                       wonders=out.wonders, returned=out.returned))
    for p in out.then:
        run(DecisionOpened(pending=p))
    return None


def _end_action(run: Run, seat: int, cmd: EndAction) -> Rejection | None:
    st = run.state
    if not st.acted:
        return Rejection("no_main_action", "take your main action first: place a clergyman, fell trees, cut peat or build")
    reset: tuple[int, ...] = ()
    if st.mode == "two_player_long" and len(st.queue) > 1 and st.queue[1] != seat:
        reset = (st.queue[1],)  # §13.2: the other player's block of actions begins
    run(ActionEnded(seat=seat, reset=reset))
    return None


# -- settlements -------------------------------------------------------------------------------------


def _settle(run: Run, seat: int, cmd: BuildSettlement) -> Rejection | None:
    why = settlement_problem(run.state, seat, cmd.settlement, cmd.cell, cmd.pay)
    if why:
        return Rejection("cannot_settle", why)
    me = run.state.owners[seat]
    after = G.take(me.goods, cmd.pay)
    assert isinstance(after, tuple)
    paid = {g: a - b for g, a, b in zip(G.GOODS, me.goods, after) if a != b}
    run(SettlementBuilt(seat=seat, settlement=cmd.settlement, cell=cmd.cell, paid=paid))
    return None


def _phase_settlement(run: Run, seat: int, cmd: BuildSettlement) -> Rejection | None:
    out = _settle(run, seat, cmd)
    if out is None:
        run(SettlerDone(seat=seat))  # at most one settlement per phase (§8)
    return out


def _castle_settlement(run: Run, seat: int, cmd: BuildSettlement) -> Rejection | None:
    why = settlement_problem(run.state, seat, cmd.settlement, cmd.cell, cmd.pay)
    if why:
        return Rejection("cannot_settle", why)
    run(DecisionClosed())
    return _settle(run, seat, cmd)


def _end_settlement(run: Run, seat: int, cmd: EndSettlement) -> Rejection | None:
    run(SettlerDone(seat=seat))
    return None


# -- the solo game's neutral player ----------------------------------------------------------------


def _neutral_build(run: Run, seat: int, cmd: PlaceNeutralBuilding) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, NeutralBuild)
    cells = neutral_cells(run.state, top.building)
    if cmd.cell not in cells:
        return Rejection("bad_cell", f"the neutral player's {top.building} may go on: "
                         + "; ".join(f"{r},{c}" for r, c in cells))
    space = run.state.owners[run.state.players].land.space(cmd.cell)
    assert space is not None
    contract = 2 if raises_contract(top.building) else run.state.contract
    run(DecisionClosed(), NeutralBuilt(building=top.building, cell=cmd.cell, covered=space.built,
                                       contract=max(run.state.contract, contract)))
    return None


def _neutral_set_aside(run: Run, seat: int, cmd: Decline) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, NeutralBuild)
    if neutral_cells(run.state, top.building):
        return Rejection("bad_choice", f"the neutral player's {top.building} has a place: choose it")
    run(DecisionClosed(), NeutralSetAside(building=top.building))
    return None


def _neutral_prior(run: Run, seat: int, cmd: UseNeutralPrior) -> Rejection | None:
    st = run.state
    if cmd.building not in neutral_prior_targets(st):
        return Rejection("bad_choice", "the neutral prior goes on a building the neutral player has just built, "
                         "if the prior is available (§13.4 step 4)")
    me = st.owners[seat]
    if cmd.gift:
        gift = GIFT[st.options.variant]
        paid = {gift: 1}
    else:
        paid = {"coin": st.contract}
    if isinstance(G.take(me.goods, paid), str):
        return Rejection("cannot_afford", f"the contract costs {count(st.contract, 'coin')} (or the gift)")
    o = st.players
    place = (o, cmd.building)
    run(DecisionClosed(), WorkContracted(user=seat, building=place, paid=paid, paid_to=-1),
        ClergymanPlaced(owner=o, clergyman=PRIOR, building=place),
        DecisionOpened(pending=UseFunction(seat=seat, building=place, via="neutral_prior")))
    return None
