"""`gain` for greedy bots: what a play brings a city at once, judged from what its seat sees.

A seat sees its own hand (and, in the 2-player variant, the Free City's card it holds),
every city's structures, built stages, coins and conflict tokens, and the discard pile
only while it owes a Halicarnassus decision. `gain` reads nothing else: never another
hand, another seat's choice, the cards tucked under the boards or the deals to come.

The unit is one coin; a victory point is worth 3 coins (§9 treasury: 3 coins = 1 VP, so
coins count exactly instead of rounded down). A play is valued by the change of the
city's score pad (§9, `scoring.score_city`) if it were placed now, with its payment,
the 3 coins of a discard (§4 C) and its one-time coins (§10); plus small estimates for
what the score pad does not show yet: this age's conflicts against the neighbours'
current shields (§8), new production and cheaper trade (§5.2, §6), chains (§5.1) and the
wonders' powers (§11).
"""

from __future__ import annotations

from msgspec.structs import replace

from games.seven_wonders.boards import BOARDS, EXTRA, stage
from games.seven_wonders.catalog import (
    CATALOG,
    BuildFromDiscard as BuildFromDiscardEffect,
    Coins,
    CoinsPer,
    FreeBuildOncePerAge,
    PlaySeventhCard,
    Produce,
    Shields,
    TradeDiscount,
    vec,
)
from games.seven_wonders.commands import Build, BuildFromDiscard, BuildStage, Command_, Discard, GiveUp, ReturnTokens
from games.seven_wonders.edifice import EDIFICE
from games.seven_wonders.payment import info, ways
from games.seven_wonders.rules import DEFEAT, DISCARD_COINS, TURNS, VICTORY, find_card, slot, to_act
from games.seven_wonders.scoring import CATEGORIES, left_of, per, right_of, score_city, shields
from games.seven_wonders.state import City, State

VP = 3
"""Coins per victory point (§9 treasury)."""
PRODUCTION = {1: 4, 2: 2, 3: 0}
"""Per age: a resource type the city did not make yet (it saves buying it, §6)."""
MORE_PRODUCTION = {1: 1, 2: 1, 3: 0}
"""Per age: one more unit of a type the city already makes."""
TRADE = {1: 3, 2: 2, 3: 0}
"""Per age: a trading post or marketplace (§6: units bought for 1 coin)."""
CHAIN = {1: 2, 2: 2, 3: 0}
"""Per age: each later structure this one makes free (§5.1)."""
POWERS = {PlaySeventhCard: 4, FreeBuildOncePerAge: 6, BuildFromDiscardEffect: 6}
"""Wonder powers the score pad does not show (§11.5-11.7): a card more to play."""
FREE_BUILD_SPENT = 2
"""Olympia A's free build used before the last turns of an age: it could serve later."""
_TREASURY = CATEGORIES.index("treasury")


def gain(state: State, seat: int, cmd: Command_) -> int:
    """How many coins' worth `cmd` brings the city `seat` acts for (its own, or the Free
    City's in the 2-player variant, valued by the Free City's own score). 0 for Decline and
    for commands that do not apply now."""
    if state.phase in ("new", "over") or seat not in to_act(state):
        return 0
    city, cards, _ = slot(state, seat)
    if isinstance(cmd, BuildFromDiscard):  # Halicarnassus: this seat sees the discard pile now
        cid = find_card(state.discard, cmd.card)
        return 0 if cid is None else _built(state, city, cid, paid=0)
    if isinstance(cmd, GiveUp):  # Edifice penalty: what the structure is worth on the pad now
        me = state.cities[city]
        cid = find_card(me.built, cmd.card)
        if cid is None:
            return 0
        cities = list(state.cities)
        cities[city] = replace(me, built=tuple(c for c in me.built if c != cid))
        return _standing(tuple(cities), city) - _standing(state.cities, city)
    if isinstance(cmd, ReturnTokens):
        return -VP * sum(cmd.tokens)
    if not isinstance(cmd, (Build, BuildStage, Discard)):
        return 0  # Decline
    cid = find_card(cards, cmd.card)
    if cid is None:
        return 0
    if isinstance(cmd, Discard):
        return DISCARD_COINS
    me = state.cities[city]
    if isinstance(cmd, BuildStage):
        stages = BOARDS[me.wonder].sides[me.side].stages
        if me.stages >= len(stages):
            return 0
        join = EDIFICE.cards[state.edifices[state.age - 1]].cost_coins if cmd.join and state.edifices else 0
        paid = _trade(state, city, vec(stages[me.stages].cost), join, cmd)
        if paid is None:
            return 0
        # Edifice: a pawn spares the Age's penalty; valued as the debt token it may save (§11)
        return _stage(state, city, paid + join, cmd.option or 0) + (-VP * EDIFICE.debt(state.age) if join else 0)
    card = CATALOG.cards[cid]
    names = info(me).names
    if cmd.free:
        late = state.turn >= TURNS - 1
        return _built(state, city, cid, paid=0) - (0 if late else FREE_BUILD_SPENT)
    if any(n in names for n in card.chain_from):
        return _built(state, city, cid, paid=0)
    paid = _trade(state, city, CATALOG.need[cid], card.cost_coins, cmd)
    return 0 if paid is None else _built(state, city, cid, paid=paid + card.cost_coins)


def _trade(state: State, city: int, need, bank: int, cmd: Build | BuildStage) -> int | None:
    """Coins sent to the neighbours: the ones the command names, or the cheapest way (§6)."""
    if cmd.left is not None and cmd.right is not None:
        return cmd.left + cmd.right
    n = len(state.cities)
    me = state.cities[city]
    for w in ways(need, me, state.cities[left_of(city, n)], state.cities[right_of(city, n)]):
        if w.total + bank <= me.coins:
            return w.total
    return None


def _standing(cities: tuple[City, ...], city: int) -> int:
    """The score pad's total in coins, the treasury counted coin by coin (§9), the Edifice
    line included when the city has a pawn, reward or debt (Edifice §7)."""
    c = cities[city]
    cats, _ = score_city(cities, city, edifice=bool(c.joined or c.rewards or c.debts or c.box_pawns))
    return VP * (sum(cats) - cats[_TREASURY]) + cities[city].coins


def _with(state: State, city: int, placed: City, effects) -> tuple[City, ...]:
    """The cities with `placed` instead of the city's own, its one-time coins added (§10)."""
    cities = list(state.cities)
    cities[city] = placed
    placed_cities = tuple(cities)
    income = 0
    for e in effects:
        if isinstance(e, Coins):
            income += e.amount
        elif isinstance(e, CoinsPer):
            income += per(e, placed_cities, city)  # type: ignore[arg-type]
    if income:
        cities[city] = replace(placed, coins=placed.coins + income)
    return tuple(cities)


def _built(state: State, city: int, cid: str, paid: int) -> int:
    me = state.cities[city]
    effects = CATALOG.cards[cid].effects
    placed = replace(me, built=me.built + (cid,), coins=me.coins - paid)
    after = _with(state, city, placed, effects)
    bonus = _extras(state, city, after, effects)
    bonus += CHAIN[state.age] * len(CATALOG.cards[cid].chain_to)
    return _standing(after, city) - _standing(state.cities, city) + bonus


def _stage(state: State, city: int, paid: int, option: int = 0) -> int:
    me = state.cities[city]
    effects = stage(me.wonder, me.side, me.stages, option)
    placed = replace(me, stages=me.stages + 1, coins=me.coins - paid)
    if me.wonder in EXTRA:  # Ur / Carthage: the alternative counts on the pad
        placed = replace(placed, stage_options=me.stage_options + (option,))
    after = _with(state, city, placed, effects)
    bonus = _extras(state, city, after, effects)
    bonus += sum(POWERS.get(type(e), 0) for e in effects)
    return _standing(after, city) - _standing(state.cities, city) + bonus


def _extras(state: State, city: int, after: tuple[City, ...], effects) -> int:
    """What the score pad does not show yet: this age's conflicts (§8) against the
    neighbours' current shields, new production (§5.2) and cheaper trade (§6)."""
    bonus = 0
    if any(isinstance(e, Shields) for e in effects):
        bonus += VP * (_conflicts(after, city, state.age) - _conflicts(state.cities, city, state.age))
    produced = [e for e in effects if isinstance(e, Produce)]
    if produced:
        have = {r for v in info(state.cities[city]).own for r, k in enumerate(v) if k}
        for e in produced:
            types = {r for r, k in enumerate(vec(e.options)) if k}
            units = 1 if len(types) > 1 else e.amount  # either-or: one unit (§5.2)
            if types - have:
                bonus += PRODUCTION[state.age] + MORE_PRODUCTION[state.age] * (units - 1)
            else:
                bonus += MORE_PRODUCTION[state.age] * units
    if any(isinstance(e, TradeDiscount) for e in effects):
        bonus += TRADE[state.age]
    return bonus


def _conflicts(cities: tuple[City, ...], city: int, age: int) -> int:
    """The conflict tokens `city` would take at the end of this age with today's shields."""
    n = len(cities)
    mine = shields(cities[city])
    total = 0
    for nb in {left_of(city, n), right_of(city, n)} - {city}:
        theirs = shields(cities[nb])
        total += VICTORY[age] if mine > theirs else DEFEAT if mine < theirs else 0
    return total
