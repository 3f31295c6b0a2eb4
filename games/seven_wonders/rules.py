"""decide and legal_commands for 7 Wonders; the rules they share live beside them (turn_order,
plays, edifice_rules, end_of_turn, military).

References are to docs/rules/seven-wonders.md (Edifice: seven-wonders-edifice.md). Every choice is validated against
the state at the start of the turn (§7 step 2); the last choice of a turn reveals and
resolves all of them (§7 steps 3-5) and runs the end of the turn (§7 steps 6-8) up to the
next decision, all written out as events.
"""

from __future__ import annotations

from typing import get_args

from games.contract import Rejection, guarded, not_your_turn
from games.seven_wonders.boards import BOARDS
from games.seven_wonders.catalog import CATALOG, vec
from games.seven_wonders.commands import (
    Build,
    BuildFromDiscard,
    BuildStage,
    Command_,
    Decline,
    Discard,
    GiveUp,
    ReturnTokens,
)
from games.seven_wonders.edifice import EDIFICE
from games.seven_wonders.edifice_rules import (
    edifice_joined,
    join_refusal,
    penalty_commands,
    penalty_token_sets,
    rewarded,
)
from games.seven_wonders.end_of_turn import (
    TURNS,
    advance,
    build_from_discard,
    choose_card,
    eligible_discards,
    pay_penalty,
)
from games.seven_wonders.events import DiscardBuildSkipped, SevenWondersEvent, SeventhCardPlayed
from games.seven_wonders.evolve import evolve
from games.seven_wonders.military import DEFEAT, VICTORY
from games.seven_wonders.payment import info, payer
from games.seven_wonders.plays import (
    DISCARD_COINS,
    command_play,
    find_card,
    free_build_ready,
    free_city_forced,
    neighbours,
    settle,
    stage_choices,
)
from games.seven_wonders.state import State
from games.seven_wonders.turn_order import FREE_CITY, choosing_penalties, free_city, holder, owing, slot, to_act


__all__ = [
    "DEFEAT", "DISCARD_COINS", "FREE_CITY", "TURNS", "VICTORY", "choosing_penalties", "decide", "find_card", "free_city",
    "holder", "join_refusal", "legal_commands", "owing", "penalty_token_sets", "rewarded", "slot", "stage_choices",
    "to_act",
]


def _waiting(state: State, seat: int, acting: tuple[int, ...]) -> Rejection:
    """A seat with nothing to decide now: in a turn's choice, one that has already chosen."""
    if state.phase == "choose" and state.pending is None:
        return Rejection("already_chosen", "you have already chosen your card for this turn")
    return not_your_turn(seat, acting)


def _rules(state: State, seat: int, cmd: Command_) -> list[SevenWondersEvent] | Rejection:
    """Validate `cmd` from `seat` (a seat to act; the contract checked it) and say what happens."""
    if choosing_penalties(state):
        return pay_penalty(state, seat, cmd)
    at = slot(state, seat)
    city = at[0]
    if getattr(cmd, "free_city", False) != (city != seat):
        if city != seat:
            return Rejection("free_city_decision", "this decision is for the Free City: add 'for free city'")
        return Rejection("own_city_first", "choose for your own city now (the Free City chooses after you, §12)")
    pending = state.pending
    if pending is not None and pending.kind == "edifice_penalty":
        return pay_penalty(state, city, cmd)
    if pending is not None and pending.kind == "discard_build":
        return _DISCARD_BUILD.get(type(cmd), _discard_build_pending)(state, seat, at, cmd)
    return _DECIDE[type(cmd)](state, seat, at, cmd)


decide = guarded(_rules, to_act, _waiting)


Slot = tuple[int, tuple[str, ...], int]  # turn_order.slot: the city acted for, its cards, their holder


def _play(state: State, seat: int, at: Slot, cmd: Build | BuildStage | Discard) -> list[SevenWondersEvent] | Rejection:
    city, cards, owner = at
    play = command_play(state, city, cmd, cards, owner)
    if isinstance(play, Rejection):
        return play
    if city != seat:  # the Free City's rules hold for its 7th card too (§12, §15 #16)
        forced = free_city_forced(state, city, cards, play)
        if forced is not None:
            return forced
    if state.pending is not None:  # Babylon B's 7th card (§11.5); a stage may join (Edifice A7)
        seventh = SeventhCardPlayed(play=play, coins=settle(state, [play]))
        placed = evolve(state, seventh)
        return advance(placed, edifice_joined(placed, (play,)), prefix=[seventh], prefix_states=[placed])
    return choose_card(state, play)


def _from_discard(state: State, seat: int, at: Slot, cmd: BuildFromDiscard) -> list[SevenWondersEvent] | Rejection:
    return build_from_discard(state, at[0], cmd)


def _decline(state: State, seat: int, at: Slot, cmd: Decline) -> list[SevenWondersEvent] | Rejection:
    return advance(state, [DiscardBuildSkipped(seat=at[0], reason="declined")])


def _discard_build_pending(state: State, seat: int, at: Slot, cmd: Command_) -> Rejection:
    return Rejection("decision_pending", "choose a card of the discard pile to build, or decline")


def _no_discard_decision(state: State, seat: int, at: Slot, cmd: Command_) -> Rejection:
    return Rejection("no_pending_decision", "there is no discard-pile decision to answer now")


def _no_penalty(state: State, seat: int, at: Slot, cmd: Command_) -> Rejection:
    return Rejection("no_pending_decision", "there is no edifice penalty to pay now")


_DISCARD_BUILD = {BuildFromDiscard: _from_discard, Decline: _decline}
"""The commands that answer a pending discard-pile decision (Halicarnassus, Solomon); any other is refused."""
_DECIDE = {
    Build: _play, BuildStage: _play, Discard: _play, BuildFromDiscard: _no_discard_decision,
    Decline: _no_discard_decision, GiveUp: _no_penalty, ReturnTokens: _no_penalty,
}
"""One handler per command type in a turn's choice (the dispatch style of every game)."""
assert set(_DECIDE) == set(get_args(Command_)), "every command needs its handler"


# --- legal commands ------------------------------------------------------------------


def legal_commands(state: State, seat: int) -> list[Command_]:
    """Every legal command of `seat` now, in a deterministic order: per card of the hand
    (by key) its builds (each distinct payment, cheapest first; chain; free build), its
    wonder stages (each distinct payment) and its discard. For the Free City (§12) only
    the plays it is allowed: a chain card is built, a discard only when nothing is playable."""
    if seat not in to_act(state) or state.phase == "over":
        return []
    if choosing_penalties(state):
        return penalty_commands(state, seat)
    city, cards, _ = slot(state, seat)
    fc = city != seat
    if state.pending is not None and state.pending.kind == "edifice_penalty":  # a rules-version-1 log
        return penalty_commands(state, city)
    if state.pending is not None and state.pending.kind == "discard_build":
        keys = sorted({CATALOG.key[c] for c in eligible_discards(state, city)})
        return [*(BuildFromDiscard(card=k, free_city=fc) for k in keys), Decline(free_city=fc)]
    forced = fc  # the Free City's choice, its 7th card included (§12, §15 #16)
    me, left, right = neighbours(state, city)
    names = info(me).names
    side = BOARDS[me.wonder].sides[me.side]
    pay = payer(me, left, right)
    stage_ways: tuple[tuple[int, int], ...] = ()  # coins to the left and to the right
    join_ways: tuple[tuple[int, int], ...] = ()
    if me.stages < len(side.stages):
        all_ways = pay(vec(side.stages[me.stages].cost))
        stage_ways = tuple(w for w in all_ways if w[0] + w[1] <= me.coins)
        if state.edifices and join_refusal(state, city) is None:  # Edifice §4: join with the stage
            price = EDIFICE.cards[state.edifices[state.age - 1]].cost_coins
            join_ways = tuple(w for w in all_ways if w[0] + w[1] + price <= me.coins)
    free = free_build_ready(state, city)
    picks: tuple[int | None, ...] = stage_choices(state, city) or (None,)  # Ur / Carthage
    out: list[Command_] = []
    discards: list[Command_] = []
    listing = CATALOG.listing
    for key, name, chain_from, need, cost_coins in sorted({listing[c] for c in cards}):  # by key, each once
        chain = name not in names and not names.isdisjoint(chain_from)
        if name not in names:
            if chain:
                out.append(Build(key, 0, 0, False, fc))  # positional: Build(card, left, right, free, free_city)
            else:
                budget = me.coins - cost_coins
                out.extend([Build(key, lc, rc, False, fc) for lc, rc in pay(need) if lc + rc <= budget])
            if free and not (forced and chain):
                out.append(Build(key, None, None, True, fc))
        if not (forced and chain):
            for o in picks:  # BuildStage(card, left, right, free_city, join, option)
                if stage_ways:
                    out.extend([BuildStage(key, lc, rc, fc, False, o) for lc, rc in stage_ways])
                if join_ways:
                    out.extend([BuildStage(key, lc, rc, False, True, o) for lc, rc in join_ways])
            discards.append(Discard(key, fc))
        if not forced:
            out.append(discards.pop())
    if forced and not out:
        out = discards
    return out
