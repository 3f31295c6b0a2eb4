"""evolve: apply one recorded fact to the state. No validation, no rules arithmetic."""

from __future__ import annotations

from typing import assert_never

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
    match event:
        case TurnStarted():
            return replace(state, current=event.seat, again=False, pending=None)
        case CardsRevealed():
            bits = 0
            for p in event.positions:
                bits |= 1 << p
            return replace(state, face_up=state.face_up | bits)
        case CardBuilt():
            return _card_built(state, event)
        case CardDiscarded():
            c = state.cities[event.seat]
            return replace(state, present=state.present & ~(1 << event.position), last=event.seat, again=False,
                           discard=state.discard + (event.card,),
                           cities=_set(state.cities, event.seat, replace(c, coins=c.coins + event.gained)))
        case WonderBuilt():
            return _wonder_built(state, event)
        case WonderRemoved():
            c = state.cities[event.seat]
            left = tuple(w for w in c.wonders if w != event.wonder)
            return replace(state, wonders_out=state.wonders_out + (event.wonder,),
                           cities=_set(state.cities, event.seat, replace(c, wonders=left)))
        case PawnMoved():
            tokens = tuple(t for t in state.military_tokens if t not in event.tokens)
            cities = state.cities
            if event.lost:
                o = cities[1 - event.seat]
                cities = _set(cities, 1 - event.seat, replace(o, coins=o.coins - event.lost))
            return replace(state, pawn=event.position, military_tokens=tokens, cities=cities)
        case DecisionOpened():
            return replace(state, pending=Pending(event.seat, event.kind, event.options))
        case ProgressTokenTaken():
            c = state.cities[event.seat]
            cities = _set(state.cities, event.seat, replace(c, tokens=c.tokens + (event.token,),
                                                            coins=c.coins + event.gained))
            if event.source == "board":
                return replace(state, cities=cities, pending=None,
                               board_tokens=tuple(t for t in state.board_tokens if t != event.token))
            gone = (event.token, *event.returned)
            return replace(state, cities=cities, pending=None,
                           box_tokens=tuple(t for t in state.box_tokens if t not in gone))
        case CardDestroyed():
            o = state.cities[1 - event.seat]
            cards = list(o.cards)
            cards.remove(event.card)
            return replace(state, pending=None, discard=state.discard + (event.card,),
                           cities=_set(state.cities, 1 - event.seat, replace(o, cards=tuple(cards))))
        case GameEnded():
            return replace(state, phase="over", pending=None, current=-1, victory=event.victory,
                           winners=event.winners, categories=event.categories, scores=event.scores, blue=event.blue)
        case GameCreated():
            return replace(INITIAL, phase="draft", options=event.options, first=event.first, draft=event.draft,
                           board_tokens=event.board_tokens, box_tokens=event.box_tokens,
                           structures=event.structures, removed=event.removed, guilds=event.guilds,
                           cities=(City(), City()))
        case WonderDrafted():
            c = state.cities[event.seat]
            return replace(state, picks=state.picks + 1,
                           cities=_set(state.cities, event.seat, replace(c, wonders=c.wonders + (event.wonder,))))
        case AgeStarted():
            return replace(state, phase="play", age=event.age, present=FULL, face_up=FACE_UP[event.age - 1],
                           current=event.seat, again=False, pending=None)
        case _:
            assert_never(event)


def _set(cities: tuple[City, ...], seat: int, city: City) -> tuple[City, ...]:
    return (city, cities[1]) if seat == 0 else (cities[0], city)


def _pay(cities: tuple[City, ...], seat: int, mine: int, theirs: int) -> tuple[City, ...]:
    """Add `mine` coins to `seat` and `theirs` to the opponent (either may be negative)."""
    a, b = cities[seat], cities[1 - seat]
    if mine:
        a = replace(a, coins=a.coins + mine)
    if theirs:
        b = replace(b, coins=b.coins + theirs)
    return (a, b) if seat == 0 else (b, a)


def _card_built(state: State, e: CardBuilt) -> State:
    c = state.cities[e.seat]
    cities = _set(state.cities, e.seat, replace(c, cards=c.cards + (e.card,)))
    cities = _pay(cities, e.seat, e.gained - e.paid, e.to_opponent)
    if e.position < 0:  # The Mausoleum: part of the wonder's action
        pile = list(state.discard)
        pile.remove(e.card)
        return replace(state, cities=cities, discard=tuple(pile), pending=None)
    return replace(state, cities=cities, present=state.present & ~(1 << e.position), last=e.seat, again=False)


def _wonder_built(state: State, e: WonderBuilt) -> State:
    c = state.cities[e.seat]
    c = replace(c, wonders=tuple(w for w in c.wonders if w != e.wonder), built=c.built + (e.wonder,),
                tucked=c.tucked + (e.card,))
    cities = _pay(_set(state.cities, e.seat, c), e.seat, e.gained - e.paid, e.to_opponent - e.opponent_lost)
    return replace(state, cities=cities, present=state.present & ~(1 << e.position), last=e.seat,
                   again=e.extra_turn)
