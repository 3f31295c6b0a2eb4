"""evolve(state, event) -> state: applies recorded facts, re-applies no rule (STYLE 3.1)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora.events import (
    ActionEnded,
    ActionTaken,
    BuildingBuilt,
    ClergymanPlaced,
    DecisionClosed,
    DecisionOpened,
    FunctionUsed,
    GameEnded,
    GameSetUp,
    GoodsConverted,
    LandCleared,
    LandscapeBought,
    NeutralBuilt,
    NeutralSetAside,
    RoundStarted,
    SettlementBuilt,
    SettlementPhaseEnded,
    SettlementPhaseStarted,
    SettlerDone,
    WorkContracted,
)
from games.ora_et_labora.state import AVAILABLE, PRIOR, Owner, State

LETTERS = ("A", "B", "C", "D")


def _owner(state: State, o: int, owner: Owner) -> State:
    owners = list(state.owners)
    owners[o] = owner
    return replace(state, owners=tuple(owners))


def _goods(state: State, o: int, paid: dict[str, int] | None = None, gained: dict[str, int] | None = None) -> State:
    owner = state.owners[o]
    g = owner.goods
    if paid:
        after = G.take(g, paid)
        assert isinstance(after, tuple), after  # decide checked it
        g = after
    if gained:
        g = G.add(g, gained)
    return _owner(state, o, replace(owner, goods=g))


def _to_all(state: State, gained: dict[str, int]) -> State:
    for s in range(state.players):
        state = _goods(state, s, gained=gained)
    return state


def _cleared(land: L.Landscape, cells) -> L.Landscape:
    for cell in cells:
        s = land.space(cell)
        assert s is not None
        land = L.with_space(land, L.Space(s.row, s.col, s.terrain, "", s.built))
    return land


def _game_set_up(state: State, e: GameSetUp) -> State:
    return State(phase="actions", options=e.options, mode=e.mode, players=e.options.players, owners=e.owners,
                 wheel=e.wheel, first=e.start, start=e.start, display=e.display, stacks=e.stacks, districts=e.districts,
                 plots=e.plots, bought=(False,) * e.options.players)


def _round_started(state: State, e: RoundStarted) -> State:
    owners = list(state.owners)
    for o in e.returned:
        owners[o] = replace(owners[o], clergy=(AVAILABLE,) * len(owners[o].clergy))
    for o in e.priors_returned:
        clergy = list(owners[o].clergy)
        clergy[PRIOR] = AVAILABLE
        owners[o] = replace(owners[o], clergy=tuple(clergy))
    bought = tuple(False if s in e.reset else b for s, b in enumerate(state.bought))
    state = replace(state, owners=tuple(owners), round=e.round, start=e.start, queue=e.queue, wheel=e.wheel,
                    acted=False, bought=bought, bonus=e.bonus, final=e.final, phase="actions")
    if e.round_goods:
        state = _to_all(state, e.round_goods)
    return state


def _settlement_phase_started(state: State, e: SettlementPhaseStarted) -> State:
    marker = LETTERS.index(e.letter) + 1 if e.letter in LETTERS else state.marker
    return replace(state, phase="settlement", letter=e.letter, settlers=e.settlers, phase_bought=False, marker=marker)


def _settler_done(state: State, e: SettlerDone) -> State:
    return replace(state, settlers=state.settlers[1:], phase_bought=False)


def _settlement_phase_ended(state: State, e: SettlementPhaseEnded) -> State:
    stacks = state.stacks
    if e.letter in LETTERS:
        i = LETTERS.index(e.letter)
        stacks = (*stacks[:i], (), *stacks[i + 1:])
    owners = state.owners
    if e.card:
        owners = tuple(replace(o, hand=(*o.hand, e.card)) if s < state.players else o for s, o in enumerate(owners))
    return replace(state, phase="actions", letter="", settlers=(), display=(*state.display, *e.revealed),
                   stacks=stacks, owners=owners)


def _landscape_bought(state: State, e: LandscapeBought) -> State:
    owner = state.owners[e.seat]
    if e.kind == "district":
        land = L.with_district(owner.land, e.row, e.side)  # type: ignore[arg-type]
        state = replace(state, districts=state.districts[1:])
    else:
        land = L.with_plot(owner.land, e.row, e.side)  # type: ignore[arg-type]
        state = replace(state, plots=state.plots[1:])
    state = _owner(state, e.seat, replace(owner, land=land))
    if e.price:
        state = _goods(state, e.seat, paid={"coin": e.price})
    if e.counted:
        if state.phase == "settlement":
            state = replace(state, phase_bought=True)
        else:
            state = replace(state, bought=tuple(True if s == e.seat else b for s, b in enumerate(state.bought)))
    return state


def _goods_converted(state: State, e: GoodsConverted) -> State:
    return _goods(state, e.seat, e.paid, e.gained)


def _action_taken(state: State, e: ActionTaken) -> State:
    return replace(state, acted=True)


def _work_contracted(state: State, e: WorkContracted) -> State:
    state = _goods(state, e.user, paid=e.paid)
    if e.paid_to >= 0:
        state = _goods(state, e.paid_to, gained=e.paid)
    return state


def _clergyman_placed(state: State, e: ClergymanPlaced) -> State:
    owner = state.owners[e.owner]
    clergy = list(owner.clergy)
    clergy[e.clergyman] = e.building
    return _owner(state, e.owner, replace(owner, clergy=tuple(clergy)))


def _decision_opened(state: State, e: DecisionOpened) -> State:
    return replace(state, pending=(*state.pending, e.pending))


def _decision_closed(state: State, e: DecisionClosed) -> State:
    return replace(state, pending=state.pending[:-1])


def _function_used(state: State, e: FunctionUsed) -> State:
    state = _goods(state, e.seat, e.paid, e.gained)
    if e.wheel is not None:
        state = replace(state, wheel=e.wheel)
    if e.bonus:
        state = _to_all(state, e.bonus)
    owner = state.owners[e.seat]
    if e.removed or e.returned:
        clergy = tuple(AVAILABLE if i in e.returned else at for i, at in enumerate(owner.clergy))
        state = _owner(state, e.seat, replace(owner, land=_cleared(owner.land, e.removed), clergy=clergy))
    if e.wonders:
        state = replace(state, wonders=state.wonders - e.wonders)
    return state


def _land_cleared(state: State, e: LandCleared) -> State:
    owner = state.owners[e.seat]
    if e.cell is not None:
        state = _owner(state, e.seat, replace(owner, land=_cleared(owner.land, [e.cell])))
    state = replace(state, wheel=e.wheel)
    if e.amount:
        state = _goods(state, e.seat, gained={e.good: e.amount})
    if e.bonus:
        state = _to_all(state, e.bonus)
    return state


def _building_built(state: State, e: BuildingBuilt) -> State:
    owner = state.owners[e.seat]
    s = owner.land.space(e.cell)
    assert s is not None
    land = L.with_space(owner.land, L.Space(s.row, s.col, s.terrain, "", e.building))
    state = _owner(state, e.seat, replace(owner, land=land))
    state = _goods(state, e.seat, paid=e.paid)
    return replace(state, display=tuple(b for b in state.display if b != e.building), contract=e.contract)


def _neutral_built(state: State, e: NeutralBuilt) -> State:
    o = state.players  # the neutral player
    owner = state.owners[o]
    s = owner.land.space(e.cell)
    assert s is not None
    land = L.with_space(owner.land, L.Space(s.row, s.col, s.terrain, "", e.building))
    state = _owner(state, o, replace(owner, land=land))
    return replace(state, display=tuple(b for b in state.display if b != e.building),
                   contract=max(state.contract, e.contract))


def _neutral_set_aside(state: State, e: NeutralSetAside) -> State:
    return replace(state, display=tuple(b for b in state.display if b != e.building))


def _settlement_built(state: State, e: SettlementBuilt) -> State:
    owner = state.owners[e.seat]
    s = owner.land.space(e.cell)
    assert s is not None
    land = L.with_space(owner.land, L.Space(s.row, s.col, s.terrain, "", e.settlement))
    hand = list(owner.hand)
    hand.remove(e.settlement)
    state = _owner(state, e.seat, replace(owner, land=land, hand=tuple(hand)))
    return _goods(state, e.seat, paid=e.paid)


def _action_ended(state: State, e: ActionEnded) -> State:
    bought = tuple(False if s in e.reset else b for s, b in enumerate(state.bought))
    return replace(state, queue=state.queue[1:], acted=False, bought=bought)


def _game_ended(state: State, e: GameEnded) -> State:
    return replace(state, phase="over", categories=e.categories, scores=e.scores, queue=(), pending=())


_HANDLERS: dict[type, Any] = {
    GameSetUp: _game_set_up,
    RoundStarted: _round_started,
    SettlementPhaseStarted: _settlement_phase_started,
    SettlerDone: _settler_done,
    SettlementPhaseEnded: _settlement_phase_ended,
    LandscapeBought: _landscape_bought,
    GoodsConverted: _goods_converted,
    ActionTaken: _action_taken,
    WorkContracted: _work_contracted,
    ClergymanPlaced: _clergyman_placed,
    DecisionOpened: _decision_opened,
    DecisionClosed: _decision_closed,
    FunctionUsed: _function_used,
    LandCleared: _land_cleared,
    BuildingBuilt: _building_built,
    NeutralBuilt: _neutral_built,
    NeutralSetAside: _neutral_set_aside,
    SettlementBuilt: _settlement_built,
    ActionEnded: _action_ended,
    GameEnded: _game_ended,
}


def evolve(state: State, event: Any) -> State:
    """The state after `event` (one handler per event type)."""
    return _HANDLERS[type(event)](state, event)
