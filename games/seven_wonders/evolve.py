"""evolve: apply one recorded fact to the state. No validation, no rules arithmetic."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from games.seven_wonders.events import (
    AgeStarted,
    CardChosen,
    DecisionOpened,
    DiscardBuildSkipped,
    DiscardBuilt,
    Due,
    EdificeCompleted,
    EdificeFailed,
    EdificeJoined,
    EdificePawnTaken,
    EdificePenaltyChosen,
    EdificePenaltyPaid,
    EdificesDrawn,
    FreeCityCardDrawn,
    GameCreated,
    GameEnded,
    HandsPassed,
    LastCardsDiscarded,
    MilitaryResolved,
    Play,
    SevenWondersEvent,
    SeventhCardPlayed,
    TurnResolved,
)
from games.seven_wonders.boards import EXTRA
from games.seven_wonders.state import INITIAL, City, State


def evolve(state: State, event: SevenWondersEvent) -> State:
    """The state after `event`."""
    match event:
        case GameCreated():
            return _game_created(event)
        case AgeStarted():
            return replace(state, phase="choose", age=event.age, turn=1, hands=state.deals[event.age - 1],
                           chosen=(None,) * len(state.cities), last_discarded=False)
        case CardChosen():
            chosen = list(state.chosen)
            chosen[event.play.seat] = event.play
            return replace(state, chosen=tuple(chosen))
        case TurnResolved():
            return _turn_resolved(state, event)
        case LastCardsDiscarded():
            hands = tuple(() if c is not None else h for h, c in zip(state.hands, event.cards))
            pile = state.discard + tuple(c for c in event.cards if c is not None)
            return replace(state, hands=hands, discard=pile, last_discarded=True)
        case DecisionOpened():
            return replace(state, pending=state.due[0], due=state.due[1:])
        case SeventhCardPlayed():
            s = _place(state, event.play)
            return replace(s, cities=_pay(s.cities, event.coins), pending=None)
        case DiscardBuilt():
            cities = list(state.cities)
            c = cities[event.seat]
            cities[event.seat] = replace(c, built=c.built + (event.card,))
            pile = list(state.discard)
            pile.remove(event.card)
            return replace(state, cities=_pay(tuple(cities), event.coins), discard=tuple(pile), pending=None)
        case DiscardBuildSkipped():
            if event.reason == "declined":
                return replace(state, pending=None)
            return replace(state, due=state.due[1:])
        case HandsPassed():
            h = state.hands
            n = len(h)
            if event.direction == "swap":  # 2-player variant: the pile (last) stays (§12)
                hands = (h[1], h[0], *h[2:])
            elif event.direction == "left":
                # seat i gives its hand to LEFT(i) = i+1, so seat j receives from j-1 (§0)
                hands = h[-1:] + h[:-1]
            else:  # seat j receives from j+1
                hands = h[1:] + h[:1]
            return replace(state, phase="choose", hands=hands, turn=state.turn + 1, chosen=(None,) * n)
        case FreeCityCardDrawn():
            hands = list(state.hands)
            pile = hands[-1]
            hands[event.seat] = hands[event.seat] + pile[:1]
            hands[-1] = pile[1:]
            return replace(state, hands=tuple(hands))
        case MilitaryResolved():
            cities = tuple(replace(c, tokens=c.tokens + t) for c, t in zip(state.cities, event.tokens))
            return replace(state, cities=cities)
        case EdificesDrawn():
            return replace(state, edifices=event.cards, pawns=(event.pawns,) * len(event.cards),
                           edifice_status=("project",) * len(event.cards))
        case EdificeJoined():
            cities = tuple(replace(c, joined=c.joined + (event.age,)) if i in event.seats else c
                           for i, c in enumerate(state.cities))
            return replace(state, cities=cities, pawns=_at(state.pawns, event.age - 1, event.pawns_left))
        case EdificeCompleted():
            cities = list(_pay(state.cities, event.coins))
            for i in event.holders:
                c = cities[i]
                kept = c.tokens
                if event.defeats_returned[i]:
                    kept = tuple(t for t in kept if t != -1)
                cities[i] = replace(c, rewards=c.rewards + (event.card,), tokens=kept + event.tokens[i])
            return replace(state, cities=tuple(cities), edifice_status=_at(state.edifice_status, event.age - 1, "completed"))
        case EdificeFailed():
            cities = list(_pay(state.cities, event.coins))
            pile = state.discard
            for i, c in enumerate(cities):
                c = _give_up(c, event.discard[i], event.tokens_lost[i])
                if event.discard[i] is not None:
                    pile = pile + (event.discard[i],)
                cities[i] = replace(c, debts=c.debts + (event.debts[i],)) if event.debts[i] else c
            return replace(state, cities=tuple(cities), discard=pile, due=state.due + tuple(Due(s, "edifice_penalty") for s in event.owed),
                           edifice_status=_at(state.edifice_status, event.age - 1, "failed"))
        case EdificePawnTaken():
            cities = list(state.cities)
            c = cities[event.seat]
            cities[event.seat] = replace(c, box_pawns=c.box_pawns + (event.age,))
            return replace(state, cities=tuple(cities))
        case EdificePenaltyChosen():
            # (a decision opened by a rules-version-1 log mid-penalty closes with the choice)
            opened = state.pending is not None and state.pending.seat == event.seat
            return replace(state, picks=state.picks + ((event.seat, event.card, event.tokens),),
                           pending=None if opened else state.pending)
        case EdificePenaltyPaid():
            cities = list(state.cities)
            cities[event.seat] = _give_up(cities[event.seat], event.card, event.tokens)
            pile = state.discard + ((event.card,) if event.card is not None else ())
            due = tuple(d for d in state.due if d.kind != "edifice_penalty" or d.seat != event.seat)
            picks = tuple(p for p in state.picks if p[0] != event.seat)
            return replace(state, cities=tuple(cities), discard=pile, pending=None, due=due, picks=picks)
        case GameEnded():
            return replace(state, phase="over", scores=event.scores, categories=event.categories,
                           final_coins=event.coins, choices=event.choices)
        case _:
            assert_never(event)


def _game_created(e: GameCreated) -> State:
    cities = tuple(City(wonder=w.wonder, side=w.side) for w in e.wonders)
    n = len(cities)
    return replace(INITIAL, options=e.options, players=e.options.players, deals=e.deals, cities=cities,
                   chosen=(None,) * n, hands=((),) * n)


def _place(state: State, p: Play) -> State:
    """Move the played card out of its owner's hand to its place (§7 step 4)."""
    return place_all(state, (p,))


def _at(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def _give_up(c: City, card: str | None, tokens: tuple[int, ...]) -> City:
    """An Edifice penalty paid: a structure leaves the city, victory tokens go back (§5.2)."""
    if card is not None:
        built = list(c.built)
        built.remove(card)
        c = replace(c, built=tuple(built))
    if tokens:
        kept = list(c.tokens)
        for t in tokens:
            kept.remove(t)
        c = replace(c, tokens=tuple(kept))
    return c


def _pay(cities: tuple[City, ...], coins: tuple[int, ...]) -> tuple[City, ...]:
    return tuple(c if d == 0 else replace(c, coins=c.coins + d) for c, d in zip(cities, coins))


def _turn_resolved(state: State, e: TurnResolved) -> State:
    return settle_turn(place_all(state, e.plays), e.coins, e.due)


def place_all(state: State, plays: tuple[Play, ...]) -> State:
    """The first half of TurnResolved: every played card moved to its place (§7 step 4),
    in turn, into one new State (hot path: the end of every turn)."""
    hands = list(state.hands)
    cities = list(state.cities)
    discard = state.discard
    age = state.age
    for p in plays:
        owner = p.seat if p.hand is None else p.hand
        hand = list(hands[owner])
        hand.remove(p.card)
        hands[owner] = tuple(hand)
        c = cities[p.seat]
        if p.action == "build":
            c = replace(c, built=c.built + (p.card,))
            if p.via == "free_build":
                c = replace(c, free_build_age=age)
        elif p.action == "stage":
            c = replace(c, stages=c.stages + 1, stage_cards=c.stage_cards + (p.card,))
            if c.wonder in EXTRA:  # Ur / Carthage: the alternative picked, for the stage's effects
                c = replace(c, stage_options=c.stage_options + (p.option if isinstance(p.option, int) else 0,))
        else:
            discard = discard + (p.card,)
        cities[p.seat] = c
    return replace(state, hands=tuple(hands), cities=tuple(cities), discard=discard)


def settle_turn(placed: State, coins: tuple[int, ...], due: tuple) -> State:
    """The second half of TurnResolved, on the state `place_all` returned: coins paid and
    received, the choices cleared, the decisions owed recorded."""
    return replace(placed, phase="resolving", cities=_pay(placed.cities, coins), chosen=(None,) * len(placed.cities),
                   due=due)
