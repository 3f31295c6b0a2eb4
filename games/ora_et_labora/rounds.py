"""The rounds of Ora et Labora and everything that follows a decision automatically (§6-§9, §13):
the events of one decision applied as they are made (Run), the end of an action, of a round
(clergy return, the wheel's rotation, entering indicators, round goods), settlement phases,
the bonus round, the end of the game and its scores.
"""

from __future__ import annotations

from typing import Any

from games.ora_et_labora import landscape as L
from games.ora_et_labora import wheel as W
from games.ora_et_labora.catalog import CATALOG, Mode
from games.ora_et_labora.events import (
    DecisionOpened,
    GameEnded,
    GameSetUp,
    RoundStarted,
    SettlementPhaseEnded,
    SettlementPhaseStarted,
)
from games.ora_et_labora.evolve import evolve
from games.ora_et_labora.scoring import CATEGORIES, score
from games.ora_et_labora.sites import is_building
from games.ora_et_labora.state import AVAILABLE, PRIOR, NeutralBuild, NeutralPrior, Owner, State


LETTERS = ("A", "B", "C", "D")
SOLO_LAST_ROUND = CATALOG.modes["solo"].rounds or 32
"""Solo: the final round with settlement phase E (§13.4, §15 #15: 32 recommended; the data's)."""
TWO_PLAYER_END_DISPLAY = 1
"""Normal 2-player game: the end comes once D is out and at most this many buildings are left (§13.1)."""
LONG_END_DISPLAY = 3
"""Long 2-player game: likewise (§13.2)."""
THREE_FOUR = ("four_player", "three_player", "four_player_short", "three_player_short")


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
            if s.built and is_building(s.built) and CATALOG.buildings[s.built].cloister]
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


class Run:
    """The events of one decision, applied as they are made."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Any] = []
        self.states: list[State] = []  # the state after each event

    def __call__(self, *events: Any) -> None:
        for e in events:
            self.events.append(e)
            self.state = evolve(self.state, e)
            self.states.append(self.state)


def first_round(opening: GameSetUp) -> list[Any]:
    """The events after GameSetUp: the first round's start (§6: return, rotate, ...)."""
    run = Run(evolve(State(), opening))
    _start_round(run, 1)
    return run.events


def _start_round(run: Run, r: int, *, bonus: bool = False, final: bool = False,
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


def _open_settlement_phase(run: Run, letter: str, settlers: tuple[int, ...] | None = None) -> None:
    st = run.state
    run(SettlementPhaseStarted(letter=letter, settlers=settlers if settlers is not None else _settlers(st)))
    if st.mode == "solo":
        _neutral_steps(run)


def _neutral_steps(run: Run) -> None:
    """Solo (§13.4 steps 3-4): the neutral player builds every building of the display (the
    player places them, first on top), then its prior may be used on one of them."""
    st = run.state
    todo = st.display
    run(DecisionOpened(pending=NeutralPrior(seat=0, buildings=todo)))
    for b in reversed(todo):
        run(DecisionOpened(pending=NeutralBuild(seat=0, building=b)))


def advance(run: Run) -> None:
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


def _end_of_round(run: Run) -> None:
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


def _end(run: Run) -> None:
    st = run.state
    scores = tuple(score(st.owners[s].land, st.owners[s].goods) for s in range(st.players))
    run(GameEnded(categories=CATEGORIES, scores=scores))
