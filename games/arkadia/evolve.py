"""evolve: apply one recorded fact to the state. No validation, no rules arithmetic."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from games.arkadia.catalog import CATALOG, SEALS
from games.arkadia.events import (
    ActionSkipped,
    ArkadiaEvent,
    BannerUsed,
    BuildingCompleted,
    BuildingPlaced,
    CardTaken,
    CastlePiecePlaced,
    FinalRoundStarted,
    FloorCompleted,
    GameCreated,
    GameEnded,
    TurnEnded,
    WorkersPlaced,
)
from games.arkadia.state import INITIAL, Building, Screen, State, Worker


def evolve(state: State, event: ArkadiaEvent) -> State:
    """The state after `event`."""
    match event:
        case GameCreated():
            return _game_created(event)
        case BuildingPlaced():
            return _building_placed(state, event)
        case WorkersPlaced():
            placed = tuple(Worker(c, event.seat) for c in event.own) + tuple(Worker(c, -1) for c in event.neutral)
            s = _screen(state, event.seat, workers=-len(event.own), neutral=-len(event.neutral))
            return replace(s, workers=state.workers + placed, acted="workers", skips=0)
        case BuildingCompleted():
            return _building_completed(state, event)
        case CastlePiecePlaced():
            castle = list(state.castle)
            castle[event.square] = castle[event.square] + (event.colour,)
            pools = _take(state.pools, event.floor - 1, {event.colour: 1})
            return replace(state, castle=tuple(castle), pools=pools, owed=state.owed - 1)
        case FloorCompleted():
            out = {c: event.leftovers.count(c) for c in SEALS}
            pools = _take(state.pools, event.floor - 1, out)
            pools = _take(pools, len(pools) - 1, {c: -k for c, k in out.items()})
            return replace(state, pools=pools)
        case FinalRoundStarted():
            return replace(state, trigger=event.seat, final_turns=event.turns)
        case CardTaken():
            return _card_taken(state, event)
        case BannerUsed():
            s = _screen(state, event.seat, workers=event.workers, banners=-1, gold=event.gold,
                        seals=tuple(-k for k in event.exchanged))
            pool = list(s.pool)
            pool[event.seat] -= event.workers
            return replace(s, pool=tuple(pool))
        case ActionSkipped():
            return replace(state, acted="skip", skips=state.skips + 1)
        case TurnEnded():
            final = state.final_turns - 1 if state.trigger >= 0 else 0
            return replace(state, active=event.next, turn=state.turn + 1, acted="", owed=0, final_turns=final)
        case GameEnded():
            return replace(state, phase="over", reason=event.reason, values=event.values,
                           categories=event.categories, scores=event.scores)
        case _:
            assert_never(event)


def _game_created(e: GameCreated) -> State:
    n = e.options.players
    start_workers = CATALOG.start_workers
    screens = tuple(Screen(hand=h, workers=start_workers, banners=CATALOG.banners) for h in e.hands)
    return replace(
        INITIAL, phase="play", options=e.options, players=n, lot=e.lot, start=e.start, active=e.start,
        screens=screens, pool=(CATALOG.workers_per_colour - start_workers,) * n,
        pool_neutral=CATALOG.neutral_workers, display=e.display, pile=e.pile,
        castle=((),) * len(CATALOG.squares), pools=CATALOG.pools,  # type: ignore[arg-type]
    )


def _screen(state: State, seat: int, *, workers: int = 0, neutral: int = 0, banners: int = 0, gold: int = 0,
            seals: tuple[int, ...] = (0, 0, 0, 0), hand: tuple[str, ...] | None = None) -> State:
    """Add the recorded amounts to one seat's screen."""
    screens = list(state.screens)
    sc = screens[seat]
    screens[seat] = replace(
        sc, workers=sc.workers + workers, neutral=sc.neutral + neutral, banners=sc.banners + banners,
        gold=sc.gold + gold, seals=tuple(a + b for a, b in zip(sc.seals, seals)),
        hand=sc.hand if hand is None else hand,
    )
    return replace(state, screens=tuple(screens))


def _take(pools, floor: int, counts: dict[str, int]):
    """Remove `counts` pieces from the pool of floor index `floor` (negative: add)."""
    out = list(pools)
    out[floor] = tuple(k - counts.get(c, 0) for c, k in zip(SEALS, out[floor]))
    return tuple(out)


def _building_placed(state: State, e: BuildingPlaced) -> State:
    hand = list(state.screens[e.seat].hand)
    hand.remove(e.card)
    s = _screen(state, e.seat, neutral=e.neutral, hand=tuple(hand))
    b = Building(id=e.building, card=e.card, form=e.form, seal=e.seal, cells=e.cells, seat=e.seat)
    return replace(s, buildings=state.buildings + (b,), discard=state.discard + (e.card,),
                   pool_neutral=state.pool_neutral - e.neutral, acted="build", skips=0)


def _building_completed(state: State, e: BuildingCompleted) -> State:
    buildings = list(state.buildings)
    buildings[e.building] = replace(buildings[e.building], completed=True)
    s = replace(state, buildings=tuple(buildings), owed=state.owed + (1 if e.piece else 0))
    k = SEALS.index(e.seal)
    for seat, paid in enumerate(e.payouts):
        got = paid + (1 if seat == e.token else 0)
        if got:
            s = _screen(s, seat, seals=tuple(got if i == k else 0 for i in range(4)))
    return s


def _card_taken(state: State, e: CardTaken) -> State:
    s = _screen(state, e.seat, hand=state.screens[e.seat].hand + (e.card,))
    if e.source == "deck":
        return replace(s, pile=state.pile[1:])
    display = list(state.display)
    i = display.index(e.card)
    if e.revealed is None:
        del display[i]
        return replace(s, display=tuple(display))
    display[i] = e.revealed
    return replace(s, display=tuple(display), pile=state.pile[1:])
