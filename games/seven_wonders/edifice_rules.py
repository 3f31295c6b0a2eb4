"""The Edifice expansion's part of a 7 Wonders turn (seven-wonders-edifice.md): who may take
part in an Age's edifice (Edifice A2), its pawns and rewards (Edifice A5, §5.1; Ur's box pawns,
Edifice §12.2) and the penalty of an edifice that fails at the end of its Age (§5.2, B1-B6).
"""

from __future__ import annotations

from itertools import combinations

from games.seven_wonders.boards import stage
from games.seven_wonders.catalog import CATALOG
from games.seven_wonders.commands import Command_, GiveUp, ReturnTokens
from games.seven_wonders.edifice import (
    EDIFICE,
    DiscardOwnCard,
    DiscardOwnDefeatTokens,
    GainCoins,
    GainVictoryToken,
    LoseVictoryTokens,
    PayCoins,
    TakePawn,
)
from games.seven_wonders.events import (
    EdificeCompleted,
    EdificeFailed,
    EdificeJoined,
    EdificePawnTaken,
    Play,
    SevenWondersEvent,
)
from games.seven_wonders.evolve import evolve
from games.seven_wonders.military import DEFEAT
from games.seven_wonders.state import City, State
from games.seven_wonders.turn_order import free_city


BOX = EDIFICE.ur_pawn_from_box
"""What Ur's box pawns do: placeholder semantics, read from the data (Edifice §12.2)."""


def rewarded(c: City, age: int) -> bool:
    """Does the city get that Age's edifice reward when it completes (§5.1; Ur's box pawn per the data)?"""
    return age in c.joined or (BOX.grants_reward_if_edifice_completed_later and age in c.box_pawns)


def exempt(c: City, age: int) -> bool:
    """Is the city spared that Age's edifice penalty (B4; Ur's box pawn per the data)?"""
    return age in c.joined or (BOX.grants_penalty_immunity_for_that_edifice and age in c.box_pawns)


def _box_pawns(state: State, plays: tuple[Play, ...]) -> list[SevenWondersEvent]:
    """Ur (placeholder semantics, Edifice §12.2), on the state after placement: a stage that
    takes a pawn from the box makes the city a holder of a project edifice of that Age
    (nothing for an edifice already completed or resolved)."""
    out: list[SevenWondersEvent] = []
    if not state.edifices:
        return out
    for p in plays:
        if p.action != "stage":
            continue
        c = state.cities[p.seat]
        picked = p.option if isinstance(p.option, int) else 0
        for e in stage(c.wonder, c.side, c.stages - 1, picked):
            if isinstance(e, TakePawn):
                age = e.age or picked
                if state.edifice_status[age - 1] == "project":
                    out.append(EdificePawnTaken(seat=p.seat, age=age))
    return out


def join_refusal(state: State, seat: int) -> str | None:
    """Why `seat` may not take part in this Age's edifice now (Edifice §4 A2), or None."""
    if not state.edifices:
        return "this game is played without the Edifice expansion"
    if free_city(state) == seat:
        return "the Free City takes no part in edifices"
    age = state.age
    if state.edifice_status[age - 1] != "project" or state.pawns[age - 1] < 1:
        return "this Age's edifice has no pawn left on its card (A2)"
    me = state.cities[seat]
    if age in me.joined or (BOX.uses_once_per_age_participation and age in me.box_pawns):
        return "you have already taken part in this Age's edifice (A2, A6)"
    return None


def edifice_joined(state: State, plays: tuple[Play, ...]) -> list[SevenWondersEvent]:
    """Edifice §4 A5 and §5.1, once the plays are placed: one pawn to each participant (from
    the card while any is left, then from the box), and the reward to every holder if the
    card is now empty."""
    out = _box_pawns(state, plays)  # Ur's first: holders when the card empties this turn
    seats = tuple(p.seat for p in plays if p.join is True)
    if not seats:
        return out
    age = state.age
    left = max(0, state.pawns[age - 1] - len(seats))
    for e in out:
        state = evolve(state, e)
    out.append(EdificeJoined(age=age, seats=seats, pawns_left=left))
    if left == 0:
        after = evolve(state, out[-1])
        holders = tuple(i for i, c in enumerate(after.cities) if rewarded(c, age))
        card = EDIFICE.cards[state.edifices[age - 1]]
        n = len(state.cities)
        coins, tokens, returned = [0] * n, [()] * n, [0] * n
        for i in holders:
            for r in card.rewards:
                if isinstance(r, GainCoins):
                    coins[i] += r.amount
                elif isinstance(r, GainVictoryToken):
                    tokens[i] += (r.value,)
                elif isinstance(r, DiscardOwnDefeatTokens):
                    returned[i] = sum(1 for t in after.cities[i].tokens if t == DEFEAT)
        out.append(EdificeCompleted(age=age, card=card.id, holders=holders, coins=tuple(coins), tokens=tuple(tokens),
                                    defeats_returned=tuple(returned)))
    return out


def edifice_failed(state: State) -> EdificeFailed:
    """Edifice §5.2 (B1-B6): pawns left at the end of the Age; every non-holder pays the
    penalty in full if it can (what needs no choice is paid here), else takes the debt."""
    age = state.age
    card = EDIFICE.cards[state.edifices[age - 1]]
    pen = card.penalty
    n = len(state.cities)
    coins, discard, lost, debts, owed = [0] * n, [None] * n, [()] * n, [0] * n, []
    for i, c in enumerate(state.cities):
        if exempt(c, age):
            continue  # a holder pays nothing (B4; Ur's box pawns as the data says, Edifice §12.2)
        if isinstance(pen, PayCoins):
            if c.coins >= pen.amount:
                coins[i] = -pen.amount
            else:
                debts[i] = EDIFICE.debt(age)
        elif isinstance(pen, DiscardOwnCard):
            mine = penalty_cards(c, pen.colour)
            if not mine:
                debts[i] = EDIFICE.debt(age)
            elif len(mine) == 1:
                discard[i] = mine[0]
            else:
                owed.append(i)
        else:
            ways_ = penalty_token_sets(c, pen.count)
            if not ways_:
                debts[i] = EDIFICE.debt(age)
            elif len(ways_) == 1:
                lost[i] = ways_[0]
            else:
                owed.append(i)
    return EdificeFailed(age=age, card=card.id, coins=tuple(coins), discard=tuple(discard), tokens_lost=tuple(lost),
                         debts=tuple(debts), owed=tuple(owed))


def penalty_cards(city: City, colour: str) -> list[str]:
    """The structures of `colour` a penalised city may give up (§5.2)."""
    return sorted(cid for cid in city.built if CATALOG.cards[cid].color == colour)


def penalty_token_sets(city: City, k: int) -> list[tuple[int, ...]]:
    """The distinct sets of `k` victory tokens (by value) a city may return (§5.2): defeat
    tokens never count; none if it holds fewer than `k`."""
    wins = sorted(t for t in city.tokens if t > 0)
    return sorted(set(combinations(wins, k))) if len(wins) >= k else []


def penalty_commands(state: State, city: int) -> list[Command_]:
    """The ways `city` may pay the failed edifice's penalty it owes (§5.2)."""
    pen = EDIFICE.cards[state.edifices[state.age - 1]].penalty
    if isinstance(pen, DiscardOwnCard):
        return [GiveUp(card=CATALOG.key[c]) for c in penalty_cards(state.cities[city], pen.colour)]
    assert isinstance(pen, LoseVictoryTokens)
    return [ReturnTokens(tokens=list(t)) for t in penalty_token_sets(state.cities[city], pen.count)]
