"""decide, legal_commands and to_act for Ora et Labora (§3.5, §6-§9, §13).

`decide` judges one command and returns the events it causes, then plays every automatic
step that follows until a seat must decide again: the end of an action, of a round (clergy
return, the wheel's rotation, entering indicators, round goods), settlement phases, the
bonus round, the end of the game and its scores (rounds.py). The commands are judged in
`actions.py`, building functions in `functions.py`, where things may go in `sites.py`.

Rounds: the 3-4 player games (long and short) play rounds of one action per seat from the
start player plus a second one for the start player (§6), then the bonus round (§9). The
normal 2-player game plays turns of two actions by the active player, counted as rounds
here (one rotation each, §13.1); the long 2-player game rounds of start player, start
player, other (§13.2); the solo game rounds of two actions (§13.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.contract import Decided, Rejection, guarded
from games.ora_et_labora import functions as F
from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora.actions import GIFT, clergyman_for, handler_for
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
    OraEtLaboraCommand,
    PlaceClergyman,
    PlaceNeutralBuilding,
    UseNeutralPrior,
    WorkContract,
)
from games.ora_et_labora.rounds import LETTERS, Run, advance, first_round, mode
from games.ora_et_labora.sites import (
    build_cells,
    building_cost,
    buildings_of,
    landscape_problem,
    neutral_cells,
    neutral_prior_targets,
    settlement_cells,
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
    PriorBonus,
    State,
    UseFunction,
    available,
    occupant,
)


__all__ = [
    "GIFT", "LETTERS", "NeutralBuild", "UseNeutralPrior", "build_cells", "buildings_of", "decide", "first_round",
    "legal_commands", "mode", "neutral_cells", "occupant", "to_act",
]


# -- decide ----------------------------------------------------------------------------------------


def to_act(state: State) -> tuple[int, ...]:
    if state.phase in ("new", "over"):
        return ()
    if state.pending:
        return (state.pending[-1].seat,)
    if state.phase == "settlement":
        return state.settlers[:1]
    return state.queue[:1]


def _rules(state: State, seat: int, cmd: OraEtLaboraCommand) -> list[Any] | Rejection:
    """Validate `cmd` from `seat` (the seat to act; the contract checked it) and say what happens."""
    run = Run(state)
    handler = handler_for(state, cmd)
    if isinstance(handler, Rejection):
        return handler
    out = handler(run, seat, cmd)
    if isinstance(out, Rejection):
        return out
    advance(run)
    return Decided(run.events, run.state, run.states)


decide = guarded(_rules, to_act)


# -- legal commands ------------------------------------------------------------------------------------

def _landscape_options(state: State, seat: int, free: bool = False) -> list[tuple[str, str, int]]:
    out = []
    owner = state.owners[seat]
    for side in ("hills", "plains"):
        for row in L.district_rows(owner.land):
            if not landscape_problem(state, seat, "district", side, row, free=free):
                out.append(("district", side, row))
    for side in ("coast", "mountain"):
        for row in L.plot_rows(owner.land, side):  # type: ignore[arg-type]
            if not landscape_problem(state, seat, "plot", side, row, free=free):
                out.append(("plot", side, row))
    return out


def _converts(state: State, seat: int) -> list[Convert]:
    g = state.owners[seat].goods
    return [Convert(good=x) for x in ("grain", "wine", "whiskey") if G.count(g, x) > 0]  # type: ignore[arg-type]


def _builds(state: State, seat: int) -> list[Build]:
    out = []
    for b in state.display:
        if isinstance(G.take(state.owners[seat].goods, building_cost(b)), str):
            continue
        out += [Build(building=b, cell=c) for c in build_cells(state.owners[seat], b)]
    return out


def _settlements(state: State, seat: int) -> list[BuildSettlement]:
    owner = state.owners[seat]
    out = []
    for t in dict.fromkeys(owner.hand):
        row = CATALOG.settlements[t]
        pay = G.value_payment(owner.goods, row.food, 2 * row.energy, F.CHEAP)
        if pay is None:
            continue
        out += [BuildSettlement(settlement=t, cell=c, pay=pay) for c in settlement_cells(owner, t)]
    return out


def legal_commands(state: State, seat: int) -> Sequence[Any]:
    if seat not in to_act(state):
        return []
    out: list[Any] = []
    top = state.pending[-1] if state.pending else None
    if isinstance(top, ChooseClergy):
        return [AssignClergyman(prior=True), AssignClergyman(prior=False)]
    if isinstance(top, UseFunction):
        return [*F.choices(state, seat, top.building), Decline()]
    if isinstance(top, PriorBonus):
        return [PlaceClergyman(building=top.building[1], prior=True), Decline()]
    if isinstance(top, FreeBuild):
        return [*_builds(state, seat), Decline()]
    if isinstance(top, FreeSettlement):
        return [*_settlements(state, seat), Decline()]
    if isinstance(top, FreeLandscape):
        return [BuyLandscape(kind=k, side=s, row=r) for k, s, r in _landscape_options(state, seat, free=True)  # type: ignore[arg-type]
                if k in top.kinds] + [Decline()]
    if isinstance(top, NeutralBuild):
        return [PlaceNeutralBuilding(cell=c) for c in neutral_cells(state, top.building)] or [Decline()]
    if isinstance(top, NeutralPrior):
        me = state.owners[seat]
        opts: list[Any] = []
        for b in neutral_prior_targets(state):
            if G.count(me.goods, "coin") >= state.contract:
                opts.append(UseNeutralPrior(building=b))
            if G.count(me.goods, GIFT[state.options.variant]) > 0:
                opts.append(UseNeutralPrior(building=b, gift=True))
        return [*opts, Decline()]
    if state.phase == "settlement":
        if not state.phase_bought:
            out += [BuySettlementLandscape(kind=k, side=s, row=r) for k, s, r in _landscape_options(state, seat)]  # type: ignore[arg-type]
        out += _settlements(state, seat)
        out.append(EndSettlement())
        return out + _converts(state, seat)
    me = state.owners[seat]
    if not state.acted:
        if state.bonus:
            if me.clergy[PRIOR] == AVAILABLE:
                for o, owner in enumerate(state.owners):
                    for b in buildings_of(owner):
                        out.append(PlaceClergyman(building=b, prior=True, owner=None if o == seat else o))
            out += _builds(state, seat)
        else:
            for b in buildings_of(me):
                if occupant(state, (seat, b)) is None:
                    if clergyman_for(me, True) is not None:
                        out.append(PlaceClergyman(building=b, prior=True))
                    if clergyman_for(me, False) is not None:
                        out.append(PlaceClergyman(building=b))
            gift = GIFT[state.options.variant]
            for o, owner in enumerate(state.owners):
                if o == seat or not available(owner):
                    continue
                for b in buildings_of(owner):
                    if occupant(state, (o, b)) is not None:
                        continue
                    if G.count(me.goods, "coin") >= state.contract:
                        out.append(WorkContract(owner=o, building=b))
                    if G.count(me.goods, gift) > 0:
                        out.append(WorkContract(owner=o, building=b, gift=True))
            for cmd_type, card, good in ((FellTrees, "forest", "wood"), (CutPeat, "moor", "peat")):
                cells = [s.cell for s in L.spaces_with(me.land, card)]  # type: ignore[arg-type]
                for cell in cells or [None]:
                    for joker in (False, True) if cells else (False,):
                        if not isinstance(F.clear(state, seat, good, cell, joker), Rejection):
                            out.append(cmd_type(cell=cell, joker=joker))
            out += _builds(state, seat)
    else:
        out.append(EndAction())
    if not state.bought[seat]:
        out += [BuyLandscape(kind=k, side=s, row=r) for k, s, r in _landscape_options(state, seat)]  # type: ignore[arg-type]
    return out + _converts(state, seat)
