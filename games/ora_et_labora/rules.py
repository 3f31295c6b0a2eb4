"""decide, legal_commands and to_act for Ora et Labora (§3.5, §6-§9, §13).

`decide` judges one command and returns the events it causes, then plays every automatic
step that follows until a seat must decide again: the end of an action, of a round (clergy
return, the wheel's rotation, entering indicators, round goods), settlement phases, the
bonus round, the end of the game and its scores. Building functions are judged in
`functions.py`.

Rounds: the 3-4 player games (long and short) play rounds of one action per seat from the
start player plus a second one for the start player (§6), then the bonus round (§9). The
normal 2-player game plays turns of two actions by the active player, counted as rounds
here (one rotation each, §13.1); the long 2-player game rounds of start player, start
player, other (§13.2); the solo game rounds of two actions (§13.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.contract import Rejection
from games.ora_et_labora import functions as F
from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora import wheel as W
from games.ora_et_labora.catalog import CATALOG, Mode, OnBuild
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
from games.ora_et_labora.evolve import evolve
from games.ora_et_labora.notation import VERB
from games.ora_et_labora.scoring import CATEGORIES, score
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

LETTERS = ("A", "B", "C", "D")
SOLO_LAST_ROUND = CATALOG.modes["solo"].rounds or 32
"""Solo: the final round with settlement phase E (§13.4, §15 #15: 32 recommended; the data's)."""
TWO_PLAYER_END_DISPLAY = 1
"""Normal 2-player game: the end comes once D is out and at most this many buildings are left (§13.1)."""
LONG_END_DISPLAY = 3
"""Long 2-player game: likewise (§13.2)."""
GIFT = {"france": "wine", "ireland": "whiskey"}
"""The work-contract gift (§7.1)."""
THREE_FOUR = ("four_player", "three_player", "four_player_short", "three_player_short")


# -- small queries ---------------------------------------------------------------------------------


def mode(state: State) -> Mode:
    return CATALOG.modes[state.mode]


def _phase_rounds(m: Mode) -> dict[str, int]:
    p = m.settlement_phase_in_round or m.settlement_phase_in_turn
    assert p is not None
    return {"A": p.A, "B": p.B, "C": p.C, "D": p.D}


def _enters(m: Mode, good: str) -> int | None:
    if good == "grapes":
        return m.grapes_enter_round or m.grapes_enter_turn
    return m.stone_enters_round or m.stone_enters_turn


def _is_building(built: str) -> bool:
    return built in CATALOG.buildings


def buildings_of(owner: Owner) -> list[str]:
    """The buildings (not settlements) standing in a landscape."""
    return [s.built for s in owner.land.spaces if s.built and _is_building(s.built)]


def cloister_ok(land: L.Landscape, cell: L.Cell) -> bool:
    """A cloister building must touch one of the player's cloister buildings (§7.3)."""
    return any(n.built and _is_building(n.built) and CATALOG.buildings[n.built].cloister
               for n in L.neighbours(land, cell))


def build_cells(owner: Owner, building: str) -> list[L.Cell]:
    """Empty spaces of `owner`'s landscape where `building` may be built (§3, §7.3)."""
    b = CATALOG.buildings[building]
    return [s.cell for s in owner.land.spaces if s.empty and s.terrain in b.terrain
            and (not b.cloister or cloister_ok(owner.land, s.cell))]


def settlement_cells(owner: Owner, settlement: str) -> list[L.Cell]:
    t = CATALOG.settlements[settlement]
    return [s.cell for s in owner.land.spaces if s.empty and s.terrain in t.terrain]


def _cost(building: str) -> dict[str, int]:
    return dict(CATALOG.buildings[building].cost)


def _raises_contract(building: str) -> bool:
    return any(isinstance(st, OnBuild) and st.effect == "work_contract_cost_becomes_2"
               for st in CATALOG.buildings[building].effect_steps)


def _all_placed(owner: Owner) -> bool:
    return all(at != AVAILABLE for at in owner.clergy)


def _d_out(state: State) -> bool:
    return state.marker >= len(LETTERS)


def _could_ever_build(owner: Owner, building: str) -> bool:
    """Whether `owner` could still build `building` some day with the landscape he has: a
    space without a building or settlement (a forest or moor can be cleared) on allowed
    terrain; for a cloister building, such a space reachable from his cloister buildings
    through spaces where cloister buildings could stand (§7.3)."""
    b = CATALOG.buildings[building]
    free = [s for s in owner.land.spaces if not s.built]
    if not b.cloister:
        return any(s.terrain in b.terrain for s in free)
    usable = {s.cell for s in free if s.terrain in L.DEFAULT_TERRAINS}
    seen: set[L.Cell] = set()
    todo = [s.cell for s in owner.land.spaces
            if s.built and _is_building(s.built) and CATALOG.buildings[s.built].cloister]
    while todo:
        cell = todo.pop()
        for n in L.neighbours(owner.land, cell):
            if n.cell in usable and n.cell not in seen:
                seen.add(n.cell)
                todo.append(n.cell)
    return any(owner.land.space(c).terrain in b.terrain for c in seen)  # type: ignore[union-attr]


def _end_reached(state: State, allowance: int) -> bool:
    """The 2-player end (§13.1, §13.2): D is out and at most `allowance` buildings are left in
    the display — or, our ruling for an open-ended game that could never end otherwise, no
    landscape is left to buy and too few of the display's buildings could ever be built by
    anyone to bring it down to `allowance` (README)."""
    if not _d_out(state):
        return False
    if len(state.display) <= allowance:
        return True
    if state.districts or state.plots:
        return False
    seats = state.owners[:state.players]
    buildable = sum(1 for b in state.display if any(_could_ever_build(o, b) for o in seats))
    return len(state.display) - buildable > allowance


# -- the command's events and what follows automatically ------------------------------------------


class _Run:
    """The events of one decision, applied as they are made."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Any] = []

    def __call__(self, *events: Any) -> None:
        for e in events:
            self.events.append(e)
            self.state = evolve(self.state, e)


def first_round(opening: GameSetUp) -> list[Any]:
    """The events after GameSetUp: the first round's start (§6: return, rotate, ...)."""
    run = _Run(evolve(State(), opening))
    _start_round(run, 1)
    return run.events


def _start_round(run: _Run, r: int, *, bonus: bool = False, final: bool = False,
                 queue: tuple[int, ...] | None = None, start: int | None = None) -> None:
    st = run.state
    m = mode(st)
    n, kind = st.players, st.mode
    if start is None:
        start = st.start if r == 1 else (0 if kind == "solo" else (st.start + 1) % n)
    if queue is None:
        if kind in THREE_FOUR:
            order = tuple((start + i) % n for i in range(n))
            queue = order if bonus else (*order, start)
        elif kind == "two_player":
            queue = (start, start)
        elif kind == "two_player_long":
            queue = (start, start, 1 - start)
        else:  # solo
            queue = (0, 0)
    returned = tuple(o for o, owner in enumerate(st.owners) if _all_placed(owner))
    before = st.wheel
    wheel = W.rotate(before, remove_at_top=kind == "solo")
    removed = tuple(g for g in W.INDICATORS if before.in_play(g) and not wheel.in_play(g))
    entered = []
    if kind != "solo":
        for good in W.LATE:
            if good == "grapes" and st.options.variant != "france":
                continue
            if _enters(m, good) == r and not wheel.in_play(good):
                wheel = W.enter(wheel, good)
                entered.append(good)
    priors: tuple[int, ...] = ()
    if bonus:  # §9: every player takes back his prior if it is on a building
        priors = tuple(o for o, owner in enumerate(st.owners)
                       if o not in returned and owner.clergy[PRIOR] != AVAILABLE)
    goods = dict((m.round_start_goods or {}).get(r, {}))
    reset = (start,) if kind == "two_player_long" else tuple(range(n))
    run(RoundStarted(round=r, start=start, queue=queue, wheel=wheel, returned=returned, priors_returned=priors,
                     entered=tuple(entered), removed=removed, round_goods=goods, bonus=bonus, final=final,
                     reset=reset))
    if bonus or final:
        return
    phases = _phase_rounds(m)
    if st.marker < len(LETTERS) and phases[LETTERS[st.marker]] == r:
        letter = LETTERS[st.marker]
        _open_settlement_phase(run, letter)


def _settlers(st: State) -> tuple[int, ...]:
    """Who builds in a settlement phase, in order: from the start (active) player (§8, §13.1)."""
    return tuple((st.start + i) % st.players for i in range(st.players))


def _open_settlement_phase(run: _Run, letter: str, settlers: tuple[int, ...] | None = None) -> None:
    st = run.state
    run(SettlementPhaseStarted(letter=letter, settlers=settlers if settlers is not None else _settlers(st)))
    if st.mode == "solo":
        _neutral_steps(run)


def _neutral_steps(run: _Run) -> None:
    """Solo (§13.4 steps 3-4): the neutral player builds every building of the display (the
    player places them, first on top), then its prior may be used on one of them."""
    st = run.state
    todo = st.display
    run(DecisionOpened(pending=NeutralPrior(seat=0, buildings=todo)))
    for b in reversed(todo):
        run(DecisionOpened(pending=NeutralBuild(seat=0, building=b)))


def _advance(run: _Run) -> None:
    """Play the automatic steps until a seat must decide or the game is over."""
    while True:
        st = run.state
        if st.phase == "over" or st.pending:
            return
        if st.phase == "settlement":
            if st.settlers:
                return
            if st.letter == "E":
                run(SettlementPhaseEnded(letter="E", revealed=(), card=""))
                _end(run)
                return
            i = LETTERS.index(st.letter)
            run(SettlementPhaseEnded(letter=st.letter, revealed=st.stacks[i],
                                     card=CATALOG.settlement_cards_by_phase[st.letter]))
            continue
        if st.queue:
            return
        _end_of_round(run)


def _end_of_round(run: _Run) -> None:
    st = run.state
    kind, r = st.mode, st.round
    if kind in THREE_FOUR:
        last = mode(st).rounds
        if st.bonus:
            _open_settlement_phase(run, "E")
        elif r == last:
            _start_round(run, r + 1, bonus=True)
        else:
            _start_round(run, r + 1)
    elif kind == "two_player":
        if st.final:
            _open_settlement_phase(run, "E", settlers=(st.start, 1 - st.start))
        elif _end_reached(st, TWO_PLAYER_END_DISPLAY):
            # §13.1: rotate once more, the other player takes one final action.
            other = 1 - st.start
            returned = tuple(o for o, owner in enumerate(st.owners) if _all_placed(owner))
            run(RoundStarted(round=r + 1, start=other, queue=(other,), wheel=W.rotate(st.wheel), final=True,
                             returned=returned, reset=(0, 1)))
        else:
            _start_round(run, r + 1, start=1 - st.start)
    elif kind == "two_player_long":
        if _end_reached(st, LONG_END_DISPLAY):
            if st.options.final_settlement:
                _open_settlement_phase(run, "E", settlers=(st.start, 1 - st.start))
            else:
                _end(run)
        else:
            _start_round(run, r + 1, start=1 - st.start)
    else:  # solo
        if st.final:
            _open_settlement_phase(run, "E", settlers=(0,))
        else:
            _start_round(run, r + 1, final=r + 1 == SOLO_LAST_ROUND)


def _end(run: _Run) -> None:
    st = run.state
    scores = tuple(score(st.owners[s].land, st.owners[s].goods) for s in range(st.players))
    run(GameEnded(categories=CATEGORIES, scores=scores))


# -- decide ----------------------------------------------------------------------------------------


def to_act(state: State) -> tuple[int, ...]:
    if state.phase in ("new", "over"):
        return ()
    if state.pending:
        return (state.pending[-1].seat,)
    if state.phase == "settlement":
        return state.settlers[:1]
    return state.queue[:1]


def decide(state: State, seat: int, cmd: OraEtLaboraCommand) -> list[Any] | Rejection:
    if state.phase == "over":
        return Rejection("game_over", "the game is over")
    if state.phase == "new":
        return Rejection("not_started", "the game has not been set up")
    if not 0 <= seat < state.players:
        return Rejection("unknown_seat", f"seats are 0..{state.players - 1}")
    if seat not in to_act(state):
        who = to_act(state)
        return Rejection("not_your_turn", f"it is seat {who[0]}'s decision" if who else "nobody acts now")
    run = _Run(state)
    handler = _handler(state, cmd)
    if isinstance(handler, Rejection):
        return handler
    out = handler(run, seat, cmd)
    if isinstance(out, Rejection):
        return out
    _advance(run)
    return run.events


Handler = Callable[[_Run, int, Any], Rejection | None]


def _handler(state: State, cmd: Any) -> Handler | Rejection:
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


def _convert(run: _Run, seat: int, cmd: Convert) -> Rejection | None:
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
        return f"the {kind} costs {stack[0]} coins; you have {G.count(owner.goods, 'coin')}"
    return ""


def _buy(run: _Run, seat: int, cmd: BuyLandscape) -> Rejection | None:
    st = run.state
    if st.bought[seat]:
        return Rejection("purchase_used", "you have bought a landscape in this round already (§3.5)")
    why = landscape_problem(st, seat, cmd.kind, cmd.side, cmd.row)
    if why:
        return Rejection("bad_landscape", why)
    price = (st.districts if cmd.kind == "district" else st.plots)[0]
    run(LandscapeBought(seat=seat, kind=cmd.kind, side=cmd.side, row=cmd.row, price=price, counted=True))
    return None


def _phase_landscape(run: _Run, seat: int, cmd: BuySettlementLandscape) -> Rejection | None:
    st = run.state
    if st.phase_bought:
        return Rejection("purchase_used", "one landscape per settlement phase (§3.5)")
    why = landscape_problem(st, seat, cmd.kind, cmd.side, cmd.row)
    if why:
        return Rejection("bad_landscape", why)
    price = (st.districts if cmd.kind == "district" else st.plots)[0]
    run(LandscapeBought(seat=seat, kind=cmd.kind, side=cmd.side, row=cmd.row, price=price, counted=True))
    return None


def _free_landscape(run: _Run, seat: int, cmd: BuyLandscape) -> Rejection | None:
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


def _clergyman(owner: Owner, prior: bool) -> int | None:
    """The index of an available prior (or lay brother), or None."""
    free = available(owner)
    if prior:
        return PRIOR if PRIOR in free else None
    brothers = [i for i in free if i != PRIOR]
    return brothers[0] if brothers else None


def _usable(state: State, owner: int, building: str) -> str:
    """Why `building` of `owner` cannot take a clergyman now, or ""."""
    land = state.owners[owner].land
    if not any(s.built == building for s in land.spaces) or not _is_building(building):
        return f"there is no building {building} in that landscape"
    if occupant(state, (owner, building)) is not None:
        return f"{CATALOG.buildings[building].name} is occupied"
    return ""


def _place(run: _Run, seat: int, cmd: PlaceClergyman) -> Rejection | None:
    st = run.state
    me = st.owners[seat]
    if st.bonus:  # §9: only the prior, on any built building of any player, occupied or not, no contract
        if not cmd.prior:
            return Rejection("prior_only", "in the bonus round only the prior is placed (§9)")
        owner = seat if cmd.owner is None else cmd.owner
        if not 0 <= owner < len(st.owners) or not any(s.built == cmd.building for s in st.owners[owner].land.spaces) \
                or not _is_building(cmd.building):
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
    i = _clergyman(me, cmd.prior)
    if i is None:
        return Rejection("no_clergyman", f"you have no {'prior' if cmd.prior else 'lay brother'} available")
    place = (seat, cmd.building)
    run(ActionTaken(seat=seat, kind="place"), ClergymanPlaced(owner=seat, clergyman=i, building=place),
        DecisionOpened(pending=UseFunction(seat=seat, building=place, via="placement")))
    return None


def _contract(run: _Run, seat: int, cmd: WorkContract) -> Rejection | None:
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
            return Rejection("cannot_afford", f"the work contract costs {st.contract} coins; convert wine or whiskey first, or give a gift")
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


def _assign(run: _Run, seat: int, cmd: AssignClergyman) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, ChooseClergy)
    owner = top.building[0]
    i = _clergyman(run.state.owners[owner], cmd.prior)
    if i is None:
        return Rejection("no_clergyman", f"no {'prior' if cmd.prior else 'lay brother'} available")
    run(DecisionClosed(), ClergymanPlaced(owner=owner, clergyman=i, building=top.building),
        DecisionOpened(pending=UseFunction(seat=top.user, building=top.building, via="contract")))
    return None


def _clear(run: _Run, seat: int, good: str, cell: L.Cell | None, joker: bool) -> Rejection | None:
    if run.state.bonus:
        return Rejection("not_now", "no felling or cutting in the bonus round (§9)")
    out = F.clear(run.state, seat, good, cell, joker)
    if isinstance(out, Rejection):
        return out
    run(ActionTaken(seat=seat, kind="fell_trees" if good == "wood" else "cut_peat"),
        LandCleared(seat=seat, good=good, cell=cell, amount=out.gained.get(good, 0),
                    wheel=out.wheel if out.wheel is not None else run.state.wheel, bonus=out.bonus))
    return None


def _fell(run: _Run, seat: int, cmd: FellTrees) -> Rejection | None:
    return _clear(run, seat, "wood", cmd.cell, cmd.joker)


def _cut(run: _Run, seat: int, cmd: CutPeat) -> Rejection | None:
    return _clear(run, seat, "peat", cmd.cell, cmd.joker)


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
    after = G.take(owner.goods, _cost(building))
    if isinstance(after, str):
        return f"{b.name} costs {', '.join(f'{n} {g}' for g, n in _cost(building).items())}: {after}"
    return ""


def _built(run: _Run, seat: int, cmd: Build) -> Rejection | None:
    st = run.state
    why = build_problem(st, seat, cmd.building, cmd.cell)
    if why:
        return Rejection("cannot_build", why)
    me = st.owners[seat]
    after = G.take(me.goods, _cost(cmd.building))
    assert isinstance(after, tuple)
    paid = {g: a - b for g, a, b in zip(G.GOODS, me.goods, after) if a != b}
    contract = 2 if _raises_contract(cmd.building) else st.contract
    run(BuildingBuilt(seat=seat, building=cmd.building, cell=cmd.cell, paid=paid, contract=max(st.contract, contract)))
    if me.clergy[PRIOR] == AVAILABLE:
        run(DecisionOpened(pending=PriorBonus(seat=seat, building=(seat, cmd.building))))
    return None


def _build(run: _Run, seat: int, cmd: Build) -> Rejection | None:
    why = build_problem(run.state, seat, cmd.building, cmd.cell)
    if why:
        return Rejection("cannot_build", why)
    run(ActionTaken(seat=seat, kind="build"))
    return _built(run, seat, cmd)


def _free_build(run: _Run, seat: int, cmd: Build) -> Rejection | None:
    why = build_problem(run.state, seat, cmd.building, cmd.cell)
    if why:
        return Rejection("cannot_build", why)
    run(DecisionClosed())
    return _built(run, seat, cmd)


def _prior_bonus(run: _Run, seat: int, cmd: PlaceClergyman) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, PriorBonus)
    if not cmd.prior or cmd.building != top.building[1] or cmd.owner not in (None, seat):
        return Rejection("bad_choice", f"the prior bonus places your prior on {top.building[1]} (or decline)")
    run(DecisionClosed(), ClergymanPlaced(owner=seat, clergyman=PRIOR, building=top.building),
        DecisionOpened(pending=UseFunction(seat=seat, building=top.building, via="prior_bonus")))
    return None


def _close(run: _Run, seat: int, cmd: Decline) -> Rejection | None:
    """Decline the open decision: a function (placing without using it, §11.1), the prior
    bonus, a granted build, settlement or landscape, the neutral prior's use."""
    run(DecisionClosed())
    return None


def _use(run: _Run, seat: int, cmd: Use) -> Rejection | None:
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


def _end_action(run: _Run, seat: int, cmd: EndAction) -> Rejection | None:
    st = run.state
    if not st.acted:
        return Rejection("no_main_action", "take your main action first: place a clergyman, fell trees, cut peat or build")
    reset: tuple[int, ...] = ()
    if st.mode == "two_player_long" and len(st.queue) > 1 and st.queue[1] != seat:
        reset = (st.queue[1],)  # §13.2: the other player's block of actions begins
    run(ActionEnded(seat=seat, reset=reset))
    return None


# -- settlements -------------------------------------------------------------------------------------


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


def _settle(run: _Run, seat: int, cmd: BuildSettlement) -> Rejection | None:
    why = settlement_problem(run.state, seat, cmd.settlement, cmd.cell, cmd.pay)
    if why:
        return Rejection("cannot_settle", why)
    me = run.state.owners[seat]
    after = G.take(me.goods, cmd.pay)
    assert isinstance(after, tuple)
    paid = {g: a - b for g, a, b in zip(G.GOODS, me.goods, after) if a != b}
    run(SettlementBuilt(seat=seat, settlement=cmd.settlement, cell=cmd.cell, paid=paid))
    return None


def _phase_settlement(run: _Run, seat: int, cmd: BuildSettlement) -> Rejection | None:
    out = _settle(run, seat, cmd)
    if out is None:
        run(SettlerDone(seat=seat))  # at most one settlement per phase (§8)
    return out


def _castle_settlement(run: _Run, seat: int, cmd: BuildSettlement) -> Rejection | None:
    why = settlement_problem(run.state, seat, cmd.settlement, cmd.cell, cmd.pay)
    if why:
        return Rejection("cannot_settle", why)
    run(DecisionClosed())
    return _settle(run, seat, cmd)


def _end_settlement(run: _Run, seat: int, cmd: EndSettlement) -> Rejection | None:
    run(SettlerDone(seat=seat))
    return None


# -- the solo game's neutral player ----------------------------------------------------------------


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
            if not _is_building(s.built) or CATALOG.buildings[s.built].cloister != cloister:
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


def _neutral_build(run: _Run, seat: int, cmd: PlaceNeutralBuilding) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, NeutralBuild)
    cells = neutral_cells(run.state, top.building)
    if cmd.cell not in cells:
        return Rejection("bad_cell", f"the neutral player's {top.building} may go on: "
                         + "; ".join(f"{r},{c}" for r, c in cells))
    space = run.state.owners[run.state.players].land.space(cmd.cell)
    assert space is not None
    contract = 2 if _raises_contract(top.building) else run.state.contract
    run(DecisionClosed(), NeutralBuilt(building=top.building, cell=cmd.cell, covered=space.built,
                                       contract=max(run.state.contract, contract)))
    return None


def _neutral_set_aside(run: _Run, seat: int, cmd: Decline) -> Rejection | None:
    top = run.state.pending[-1]
    assert isinstance(top, NeutralBuild)
    if neutral_cells(run.state, top.building):
        return Rejection("bad_choice", f"the neutral player's {top.building} has a place: choose it")
    run(DecisionClosed(), NeutralSetAside(building=top.building))
    return None


def neutral_prior_targets(state: State) -> list[str]:
    top = state.pending[-1]
    assert isinstance(top, NeutralPrior)
    neutral = state.owners[state.players]
    if neutral.clergy[PRIOR] != AVAILABLE:
        return []
    standing = set(buildings_of(neutral))
    return [b for b in top.buildings if b in standing]


def _neutral_prior(run: _Run, seat: int, cmd: UseNeutralPrior) -> Rejection | None:
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
        return Rejection("cannot_afford", f"the contract costs {st.contract} coins (or the gift)")
    o = st.players
    place = (o, cmd.building)
    run(DecisionClosed(), WorkContracted(user=seat, building=place, paid=paid, paid_to=-1),
        ClergymanPlaced(owner=o, clergyman=PRIOR, building=place),
        DecisionOpened(pending=UseFunction(seat=seat, building=place, via="neutral_prior")))
    return None


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
        if isinstance(G.take(state.owners[seat].goods, _cost(b)), str):
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
                    if _clergyman(me, True) is not None:
                        out.append(PlaceClergyman(building=b, prior=True))
                    if _clergyman(me, False) is not None:
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
