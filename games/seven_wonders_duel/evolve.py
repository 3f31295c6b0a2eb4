"""evolve: apply one recorded fact to the state. No validation, no rules arithmetic."""

from __future__ import annotations

from typing import get_args

from msgspec.structs import replace

from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.events import (
    AgeStarted,
    CardBuilt,
    CardDestroyed,
    CardDiscarded,
    CardsRevealed,
    DecisionOpened,
    GameCreated,
    GameEnded,
    PawnMoved,
    ProgressTokenTaken,
    SevenWondersDuelEvent,
    TurnStarted,
    WonderBuilt,
    WonderDrafted,
    WonderRemoved,
)
from games.seven_wonders_duel.state import INITIAL, City, Pending, State

FULL = (1 << 20) - 1
FACE_UP = tuple(sum(1 << p.index for p in layout if p.face_up_at_setup) for layout in CATALOG.layouts)
"""Per age, the bitmask of the positions dealt face up (§4)."""


def evolve(state: State, event: SevenWondersDuelEvent) -> State:
    """The state after `event`."""
    return _EVOLVE[type(event)](state, event)  # type: ignore[operator]


def _turn_started(state: State, e: TurnStarted) -> State:
    return replace(state, current=e.seat, again=False, pending=None)


def _cards_revealed(state: State, e: CardsRevealed) -> State:
    bits = 0
    for p in e.positions:
        bits |= 1 << p
    return replace(state, face_up=state.face_up | bits)


def _card_discarded(state: State, e: CardDiscarded) -> State:
    seat, cities = e.seat, state.cities
    c = cities[seat]
    c = replace(c, coins=c.coins + e.gained)
    return replace(state, present=state.present & ~(1 << e.position), last=seat, again=False,
                   discard=(*state.discard, e.card), cities=(c, cities[1]) if seat == 0 else (cities[0], c))


def _wonder_removed(state: State, e: WonderRemoved) -> State:
    c = state.cities[e.seat]
    left = tuple(w for w in c.wonders if w != e.wonder)
    return replace(state, wonders_out=state.wonders_out + (e.wonder,),
                   cities=_set(state.cities, e.seat, replace(c, wonders=left)))


def _pawn_moved(state: State, e: PawnMoved) -> State:
    tokens = tuple(t for t in state.military_tokens if t not in e.tokens) if e.tokens else state.military_tokens
    cities = state.cities
    if e.lost:
        o = cities[1 - e.seat]
        cities = _set(cities, 1 - e.seat, replace(o, coins=o.coins - e.lost))
    return replace(state, pawn=e.position, military_tokens=tokens, cities=cities)


def _decision_opened(state: State, e: DecisionOpened) -> State:
    return replace(state, pending=Pending(e.seat, e.kind, e.options))


def _progress_token_taken(state: State, e: ProgressTokenTaken) -> State:
    c = state.cities[e.seat]
    cities = _set(state.cities, e.seat, replace(c, tokens=c.tokens + (e.token,), coins=c.coins + e.gained))
    if e.source == "board":
        return replace(state, cities=cities, pending=None,
                       board_tokens=tuple(t for t in state.board_tokens if t != e.token))
    # §12 The Great Library: the 2 tokens not taken go back to the box (logs of rules
    # version 1 dropped them: their views, stored then, keep showing a box of 2)
    gone = (e.token,) if state.rules_version >= 2 else (e.token, *e.returned)
    return replace(state, cities=cities, pending=None, box_tokens=tuple(t for t in state.box_tokens if t not in gone))


def _card_destroyed(state: State, e: CardDestroyed) -> State:
    o = state.cities[1 - e.seat]
    cards = list(o.cards)
    cards.remove(e.card)
    return replace(state, pending=None, discard=state.discard + (e.card,),
                   cities=_set(state.cities, 1 - e.seat, replace(o, cards=tuple(cards))))


def _game_ended(state: State, e: GameEnded) -> State:
    return replace(state, phase="over", pending=None, current=-1, victory=e.victory, winners=e.winners,
                   categories=e.categories, scores=e.scores, blue=e.blue)


def _game_created(state: State, e: GameCreated) -> State:
    return replace(INITIAL, phase="draft", options=e.options, first=e.first, draft=e.draft,
                   board_tokens=e.board_tokens, box_tokens=e.box_tokens, structures=e.structures,
                   removed=e.removed, guilds=e.guilds, cities=(City(), City()), rules_version=e.rules_version)


def _wonder_drafted(state: State, e: WonderDrafted) -> State:
    c = state.cities[e.seat]
    return replace(state, picks=state.picks + 1,
                   cities=_set(state.cities, e.seat, replace(c, wonders=c.wonders + (e.wonder,))))


def _age_started(state: State, e: AgeStarted) -> State:
    return replace(state, phase="play", age=e.age, present=FULL, face_up=FACE_UP[e.age - 1], current=e.seat,
                   again=False, pending=None)


def _set(cities: tuple[City, ...], seat: int, city: City) -> tuple[City, ...]:
    return (city, cities[1]) if seat == 0 else (cities[0], city)


def _pay(cities: tuple[City, ...], seat: int, city: City, theirs: int) -> tuple[City, ...]:
    """The cities with `seat`'s replaced by `city` and `theirs` coins added to the
    opponent (may be negative)."""
    other = cities[1 - seat]
    if theirs:
        other = replace(other, coins=other.coins + theirs)
    return (city, other) if seat == 0 else (other, city)


def _card_built(state: State, e: CardBuilt) -> State:
    c = state.cities[e.seat]
    cities = _pay(state.cities, e.seat, replace(c, cards=c.cards + (e.card,), coins=c.coins + e.gained - e.paid),
                  e.to_opponent)
    if e.position < 0:  # The Mausoleum: part of the wonder's action
        pile = list(state.discard)
        pile.remove(e.card)
        return replace(state, cities=cities, discard=tuple(pile), pending=None)
    return replace(state, cities=cities, present=state.present & ~(1 << e.position), last=e.seat, again=False)


def _wonder_built(state: State, e: WonderBuilt) -> State:
    c = state.cities[e.seat]
    c = replace(c, wonders=tuple(w for w in c.wonders if w != e.wonder), built=c.built + (e.wonder,),
                tucked=c.tucked + (e.card,), coins=c.coins + e.gained - e.paid)
    cities = _pay(state.cities, e.seat, c, e.to_opponent - e.opponent_lost)
    return replace(state, cities=cities, present=state.present & ~(1 << e.position), last=e.seat,
                   again=e.extra_turn)


_EVOLVE = {
    GameCreated: _game_created, WonderDrafted: _wonder_drafted, AgeStarted: _age_started, CardBuilt: _card_built,
    CardDiscarded: _card_discarded, WonderBuilt: _wonder_built, WonderRemoved: _wonder_removed,
    CardsRevealed: _cards_revealed, PawnMoved: _pawn_moved, DecisionOpened: _decision_opened,
    ProgressTokenTaken: _progress_token_taken, CardDestroyed: _card_destroyed, TurnStarted: _turn_started,
    GameEnded: _game_ended,
}
"""One handler per event type (a dictionary: evolve runs about 160 times a game)."""
assert set(_EVOLVE) == set(get_args(SevenWondersDuelEvent)), "every event needs its evolve handler"
