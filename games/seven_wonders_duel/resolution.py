"""What a 7 Wonders Duel construction sets off and how a turn ends: the coins a building gives
(§11), the pawn's move and military tokens (§7), science (§8), then the end of the game
(§10), the next Age's start choice (§9) or the next turn (§5).
"""

from __future__ import annotations

from functools import reduce

from msgspec.structs import replace

from games.seven_wonders_duel.catalog import (
    CATALOG,
    COLORS,
    GainCoinsPerOwnBuiltWonder,
    GainCoinsPerOwnCard,
    GuildMajorityCards,
    Spec,
)
from games.seven_wonders_duel.events import (
    DecisionOpened,
    GameEnded,
    PawnMoved,
    SevenWondersDuelEvent,
    TurnStarted,
    Victory,
)
from games.seven_wonders_duel.evolve import evolve
from games.seven_wonders_duel.payment import profile
from games.seven_wonders_duel.scoring import CATEGORIES, civilian_winners, scores
from games.seven_wonders_duel.state import City, State


Events = list[SevenWondersDuelEvent]
SUPREMACY = CATALOG.rules["military_supremacy_position"]  # §7: 9
SCIENCE_SUPREMACY = CATALOG.rules["science_supremacy_distinct_symbols"]  # §8: 6
MILITARY_LOSS = {min(abs(x) for x in t["position_range"]): t["coins"] for t in CATALOG.military["tokens"]}
"""A military token's zone start (distance from the centre) -> coins lost (§7): {3: 2, 6: 5}."""
# built with `replace` in the hot path, like rules.py's other event prototypes
_PAWN_MOVED = PawnMoved(seat=0, shields=0, position=0)

INCOME = {
    cid: tuple(e for e in c.effects if isinstance(e, (GainCoinsPerOwnCard, GainCoinsPerOwnBuiltWonder,
                                                        GuildMajorityCards)))
    for cid, c in CATALOG.cards.items()
}
INCOME = {k: v for k, v in INCOME.items() if v}
"""Cards whose coins when built depend on the cities (§11.3, §11.4)."""


def income(spec: Spec, city: City, other: City) -> int:
    """Coins a building gives when built, counted after placing it (§11, §15 #19)."""
    gain = spec.gain
    effects = INCOME.get(spec.id)
    if not effects:
        return gain
    mine = profile(city.cards + (spec.id,)).counts
    theirs = profile(other.cards).counts
    for e in effects:
        if isinstance(e, GainCoinsPerOwnCard):
            gain += e.coins_per_card * sum(mine[COLORS.index(c)] for c in e.colors)
        elif isinstance(e, GainCoinsPerOwnBuiltWonder):
            gain += e.coins_per_wonder * len(city.built)
        else:
            most = max(sum(mine[COLORS.index(c)] for c in e.colors), sum(theirs[COLORS.index(c)] for c in e.colors))
            gain += e.coins_per_card_on_construction * most
    return gain


def move_pawn(state: State, seat: int, shields: int, opp_coins: int, out: Events) -> int | None:
    """Move the pawn, apply the military tokens entered, 2-coin first (§7, §15 #9-10).
    Returns the new position, or None when the move won the game."""
    step = 1 if seat == 0 else -1
    pawn = max(-SUPREMACY, min(SUPREMACY, state.pawn + step * shields))
    taken = []
    lost = 0
    for t in sorted(state.military_tokens, key=abs):
        if t * step > 0 and abs(t) <= pawn * step:
            loss = min(MILITARY_LOSS[abs(t)], opp_coins - lost)
            lost += loss
            taken.append(t)
    out.append(replace(_PAWN_MOVED, seat=seat, shields=shields, position=pawn, tokens=tuple(taken), lost=lost))
    if abs(pawn) >= SUPREMACY:
        out.append(ended(state, out, "military", (seat,)))
        return None
    return pawn


def construction_effects(state: State, seat: int, spec: Spec, symbols: tuple[str, ...], opp_coins: int,
                          out: Events) -> int | None:
    """Shields then science of a building just built (§5 resolution order, §7, §8).
    Returns the pawn position, or None when the game ended or a decision is open."""
    pawn = state.pawn
    tokens = state.cities[seat].tokens
    if spec.shields:
        shields = spec.shields + (1 if spec.color == "red" and "strategy" in tokens else 0)  # §13 Strategy
        pawn = move_pawn(state, seat, shields, opp_coins, out)
        if pawn is None:
            return None
    if spec.symbol is not None:
        have = set(symbols)
        distinct = len(have | {spec.symbol}) + (1 if "law" in tokens else 0)
        if distinct >= SCIENCE_SUPREMACY:
            out.append(ended(state, out, "science", (seat,)))
            return None
        if spec.symbol in have and state.board_tokens:  # a pair (§8); none left: nothing (§15 #11)
            out.append(DecisionOpened(seat=seat, kind="progress_token", options=tuple(sorted(state.board_tokens))))
            return None
    return pawn


def ended(state: State, out: Events, victory: Victory, winners: tuple[int, ...] | None = None) -> GameEnded:
    """The end of the game with the score sheet of the state after `out` (§10)."""
    final = reduce(evolve, out, state)
    sheets = scores(final)
    return GameEnded(victory=victory, winners=winners if winners is not None else civilian_winners(sheets),
                     categories=CATEGORIES, scores=sheets, blue=(sheets[0][0], sheets[1][0]))


def turn_end(state: State, seat: int, out: Events, present: int, again: bool, pawn: int) -> Events:
    """After the action and its decisions: the end of the age (§9, §10), an extra turn,
    or the opponent's turn (§5)."""
    if not present:
        if state.age == 3:
            out.append(ended(state, out, "civilian"))
        else:
            # §9: the weaker player (the pawn on their half) chooses; centred: the last active player
            chooser = 1 if pawn > 0 else 0 if pawn < 0 else seat
            out.append(DecisionOpened(seat=chooser, kind="choose_start"))
        return out
    out.append(_EXTRA_TURN[seat] if again else _NEXT_TURN[1 - seat])
    return out


_NEXT_TURN = (TurnStarted(seat=0), TurnStarted(seat=1))
_EXTRA_TURN = (TurnStarted(seat=0, extra=True), TurnStarted(seat=1, extra=True))
# events are frozen values: the common ones are shared instances
