"""`gain` for greedy bots: what a command brings its seat at once, judged from what it sees.

Everything `gain` reads is public in Duel (§1, §4): both cities (coins, buildings,
wonders, progress tokens), the pawn and the military tokens left, the progress tokens on
the board, the discard pile, and the command's own card. It never reads the structure
(so no face-down card), the other ages, the box of progress tokens or the cards removed
at setup; The Great Library's draw is read only from the open decision of its owner.

The unit is one coin; a victory point is worth 3 coins (§10: 3 coins = 1 VP, counted
coin by coin). Duel is a duel, so a command's value is the change of the seat's standing
minus the change of the opponent's (a coin lost by the opponent is a coin won), where a
standing is the score sheet (§10, `scoring.score_sheet`) with the coins counted exactly.
A command that wins at once (military supremacy, §7; scientific supremacy, §8) is worth
WIN. Small estimates cover what the sheet does not show yet: pawn steps toward the
opponent's capital, new science symbols, production and trade (§6), chains (§6.4),
extra turns (§12) and the lasting progress tokens (§13).
"""

from __future__ import annotations

from msgspec.structs import replace

from games.seven_wonders_duel.catalog import COLORS
from games.seven_wonders_duel.commands import (
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStartPlayer,
    Command_,
    DestroyCard,
    DiscardCard,
    DraftWonder,
)
from games.seven_wonders_duel.payment import SPEC, profile
from games.seven_wonders_duel.rules import (
    DISCARD_BASE,
    MAX_WONDERS,
    MILITARY_LOSS,
    SCIENCE_SUPREMACY,
    SUPREMACY,
    TOKEN_COINS,
    URBANISM,
    income,  # the coins a building gives when built, exactly as the referee counts them
    build_price,
    market_of,
    to_act,
    wonder_price,
)
from games.seven_wonders_duel.scoring import CATEGORIES, score_sheet
from games.seven_wonders_duel.state import City, State

VP = 3
"""Coins per victory point (§10)."""
WIN = 1_000_000
"""An immediate supremacy victory (§7, §8): better than anything else."""
STEP = 2
"""Each step of the pawn toward the opponent's capital (military supremacy at 9, §7)."""
SYMBOL = 2
"""A new science symbol, times the different symbols then held (supremacy at 6, §8)."""
PRODUCTION = {1: 3, 2: 2, 3: 0}
"""Per age: a unit of production or a trade card's resource (§6)."""
CHAIN = {1: 2, 2: 2, 3: 0}
"""Per age: a chain symbol, a later building for free (§6.4)."""
EXTRA_TURN = 6
"""Playing again (§12, Theology): about one more card."""
FUTURE = {
    "architecture": 6, "economy": 5, "law": 0, "masonry": 5, "mathematics": 3, "strategy": 5, "theology": 6,
    "urbanism": 4, "agriculture": 0, "philosophy": 0,
}
"""What a progress token is worth beyond its coins and points now (§13); Law counts as a symbol."""
BOX_TOKEN = 8
"""The Great Library: a token drawn from the box, before seeing it (§12)."""
DESTROY = 4
"""Circus Maximus / The Statue of Zeus: a card of the opponent discarded (§12)."""
START = {"me": 1, "opponent": 0}
"""Taking the first turn of the next age (§9)."""
_YELLOW = COLORS.index("yellow")
_COINS = CATEGORIES.index("coins")


def gain(state: State, seat: int, cmd: Command_) -> int:
    """How many coins' worth `cmd` brings `seat` relative to its opponent, WIN for an
    immediate victory; 0 for commands that do not apply now."""
    if state.phase in ("new", "over") or seat not in to_act(state):
        return 0
    match cmd:
        case BuildCard():
            return _building(state, seat, cmd.card, from_discard=False)
        case DiscardCard():
            return _discarded(state, seat)
        case BuildWonder():
            return _wonder(state, seat, cmd.wonder)
        case DraftWonder():
            return _drafted(cmd.wonder)
        case ChooseProgressToken():
            return _token(state, seat, cmd.token)
        case DestroyCard():
            return _destroyed(state, seat, cmd.card)
        case BuildFromDiscard():
            return _building(state, seat, cmd.card, from_discard=True)
        case ChooseStartPlayer():
            return START.get(cmd.start, 0)
    return 0


def _standing(state: State, seat: int) -> int:
    sheet = score_sheet(state, seat)
    return VP * (sum(sheet) - sheet[_COINS]) + state.cities[seat].coins


def _relative(before: State, after: State, seat: int) -> int:
    """The seat's standing change minus the opponent's."""
    other = 1 - seat
    return (_standing(after, seat) - _standing(before, seat)) - (_standing(after, other) - _standing(before, other))


def _cities(seat: int, mine: City, theirs: City) -> tuple[City, City]:
    return (mine, theirs) if seat == 0 else (theirs, mine)


def _pawn(state: State, seat: int, shields: int, opp_coins: int) -> tuple[int, int, tuple[int, ...]]:
    """The pawn after `shields` steps, the coins the opponent loses and the military
    tokens left (§7, 2-coin token first), as the referee moves it."""
    step = 1 if seat == 0 else -1
    pawn = max(-SUPREMACY, min(SUPREMACY, state.pawn + step * shields))
    lost = 0
    left = []
    for t in sorted(state.military_tokens, key=abs):
        if t * step > 0 and abs(t) <= pawn * step:
            lost += min(MILITARY_LOSS[abs(t)], opp_coins - lost)
        else:
            left.append(t)
    return pawn, lost, tuple(left)


def _production(state: State, spec) -> int:
    """Production, "one of" sources and trade cards of a building or wonder (§6)."""
    worth = PRODUCTION.get(state.age, 0)
    units = sum(spec.produce) + (1 if spec.one_of else 0) + len(spec.fixed)
    return worth * units + (CHAIN.get(state.age, 0) if spec.provides else 0)


def _building(state: State, seat: int, card: str, from_discard: bool) -> int:
    """Construct `card` (paid as the referee charges it, or free from the discard pile)."""
    city, opp = state.cities[seat], state.cities[1 - seat]
    spec = SPEC.get(card)
    if spec is None:
        return 0
    if from_discard:
        chain, paid, to_opp = False, 0, 0
    else:
        mine = profile(city.cards)
        chain, paid, to_opp = build_price(state, seat, spec, mine, market_of(state, seat, mine, profile(opp.cards)))
        if paid > city.coins:
            return 0
    gained = income(spec, city, opp) + (URBANISM if chain and "urbanism" in city.tokens else 0)
    built = replace(city, cards=city.cards + (card,), coins=city.coins - paid + gained)
    opp = replace(opp, coins=opp.coins + to_opp)
    after = replace(state, cities=_cities(seat, built, opp))
    bonus = _production(state, spec)
    if spec.shields:
        shields = spec.shields + (1 if spec.color == "red" and "strategy" in city.tokens else 0)  # §13 Strategy
        pawn, lost, tokens = _pawn(state, seat, shields, opp.coins)
        if abs(pawn) >= SUPREMACY:
            return WIN
        after = replace(after, pawn=pawn, military_tokens=tokens,
                        cities=_cities(seat, built, replace(opp, coins=opp.coins - lost)))
        bonus += STEP * shields
    if spec.symbol is not None:
        have = set(profile(city.cards).symbols)
        law = 1 if "law" in city.tokens else 0
        distinct = len(have | {spec.symbol}) + law
        if distinct >= SCIENCE_SUPREMACY:
            return WIN
        if spec.symbol in have:
            if state.board_tokens:  # a pair: the best token on the board (§8); Law may win
                best = max(_token(after, seat, t) for t in state.board_tokens)
                if best >= WIN:
                    return WIN
                bonus += best
        else:
            bonus += SYMBOL * distinct
    return _relative(state, after, seat) + bonus


def _discarded(state: State, seat: int) -> int:
    """2 coins + 1 per yellow card (§5 B); a coin guild may count them too (§11.4)."""
    city = state.cities[seat]
    coins = city.coins + DISCARD_BASE + profile(city.cards).counts[_YELLOW]
    after = replace(state, cities=_cities(seat, replace(city, coins=coins), state.cities[1 - seat]))
    return _relative(state, after, seat)


def _wonder(state: State, seat: int, wonder: str) -> int:
    city, opp = state.cities[seat], state.cities[1 - seat]
    if wonder not in city.wonders:
        return 0
    spec = SPEC[wonder]
    paid, to_opp = wonder_price(state, seat, wonder, market_of(state, seat, profile(city.cards),
                                                                  profile(opp.cards)))
    if paid > city.coins:
        return 0
    opp_coins = opp.coins + to_opp
    lost = min(spec.opponent_loses, opp_coins)
    built = replace(city, coins=city.coins - paid + spec.gain, wonders=tuple(w for w in city.wonders if w != wonder),
                    built=city.built + (wonder,))
    theirs = replace(opp, coins=opp_coins - lost)
    bonus = _production(state, spec)
    if len(city.built) + len(opp.built) + 1 == MAX_WONDERS:  # the last wonder leaves the game (§5)
        built = replace(built, wonders=())
        theirs = replace(theirs, wonders=())
        bonus += VP * (len(opp.wonders) - (len(city.wonders) - 1))
    after = replace(state, cities=_cities(seat, built, theirs))
    if spec.shields:  # never Strategy's bonus (§7)
        pawn, lost_more, tokens = _pawn(state, seat, spec.shields, theirs.coins)
        if abs(pawn) >= SUPREMACY:
            return WIN
        after = replace(after, pawn=pawn, military_tokens=tokens,
                        cities=_cities(seat, built, replace(theirs, coins=theirs.coins - lost_more)))
        bonus += STEP * spec.shields
    if spec.extra_turn or "theology" in city.tokens:
        bonus += EXTRA_TURN
    if spec.destroy is not None and any(SPEC[c].color == spec.destroy for c in opp.cards):
        bonus += DESTROY
    if spec.from_box:
        bonus += BOX_TOKEN
    if spec.from_discard and state.discard:  # the discard pile is public
        bonus += max(0, max(_building(after, seat, c, from_discard=True) for c in sorted(set(state.discard))))
    return _relative(state, after, seat) + bonus


def _drafted(wonder: str) -> int:
    """A wonder's worth when drafted, before its price is known (§3)."""
    spec = SPEC.get(wonder)
    if spec is None:
        return 0
    return (VP * spec.points + spec.gain + spec.opponent_loses + VP * spec.shields
            + (EXTRA_TURN if spec.extra_turn else 0) + (DESTROY if spec.destroy else 0)
            + (BOX_TOKEN if spec.from_box else 0) + (BOX_TOKEN if spec.from_discard else 0)
            + (PRODUCTION[1] if spec.one_of else 0))


def _token(state: State, seat: int, token: str) -> int:
    """A progress token taken now: its coins and points (Agriculture, Philosophy,
    Mathematics), Law as a science symbol, and a lasting effect's estimate (§13)."""
    city = state.cities[seat]
    if token in city.tokens:
        return 0
    if token == "law":
        distinct = len(set(profile(city.cards).symbols)) + 1
        if distinct >= SCIENCE_SUPREMACY:
            return WIN
    taken = replace(city, tokens=city.tokens + (token,), coins=city.coins + TOKEN_COINS.get(token, 0))
    after = replace(state, cities=_cities(seat, taken, state.cities[1 - seat]))
    value = _relative(state, after, seat) + FUTURE.get(token, 0)
    if token == "law":
        value += SYMBOL * (len(set(profile(city.cards).symbols)) + 1)
    return value


def _destroyed(state: State, seat: int, card: str) -> int:
    """The opponent loses `card`: its points and its production (§12)."""
    opp = state.cities[1 - seat]
    if card not in opp.cards:
        return 0
    cards = list(opp.cards)
    cards.remove(card)
    after = replace(state, cities=_cities(seat, state.cities[seat], replace(opp, cards=tuple(cards))))
    return _relative(state, after, seat) + _production(state, SPEC[card])
