"""The end of a 7 Wonders turn (§7 steps 3-8): the last choice reveals and resolves every
play, then the turn runs on (7th cards, discard-pile builds, edifices, hands passed, the
conflicts, the next Age or the end of the game) up to the next decision, all as events.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.contract import Decided, Rejection
from games.seven_wonders.catalog import CATALOG, BuildFromDiscard as BuildFromDiscardEffect, PlaySeventhCard
from games.seven_wonders.commands import BuildFromDiscard, Command_, GiveUp, ReturnTokens
from games.seven_wonders.edifice import EDIFICE, DiscardOwnCard, LoseVictoryTokens
from games.seven_wonders.edifice_rules import edifice_failed, edifice_joined, penalty_cards, penalty_token_sets
from games.seven_wonders.events import (
    AgeStarted,
    CardChosen,
    DecisionOpened,
    DiscardBuildSkipped,
    DiscardBuilt,
    Due,
    EdificePenaltyChosen,
    EdificePenaltyPaid,
    FreeCityCardDrawn,
    GameEnded,
    HandsPassed,
    LastCardsDiscarded,
    Play,
    SevenWondersEvent,
    TurnResolved,
)
from games.seven_wonders.evolve import evolve, place_all, settle_turn
from games.seven_wonders.military import military
from games.seven_wonders.payment import info, stage_effects
from games.seven_wonders.plays import built_stage, card_name, coins_of, find_card, settle
from games.seven_wonders.scoring import CATEGORIES, EDIFICE_CATEGORIES, final_scores
from games.seven_wonders.state import City, State
from games.seven_wonders.turn_order import free_city, holder, owing


PASS = {1: "left", 2: "right", 3: "left"}  # §3
TURNS = 6


def choose_card(state: State, play: Play) -> list[SevenWondersEvent]:
    events: list[SevenWondersEvent] = [CardChosen(play=play)]
    if state.chosen.count(None) > 1:  # others have yet to choose
        return events
    chosen = evolve(state, events[0])
    plays = tuple(p for p in chosen.chosen if p is not None)
    placed = place_all(chosen, plays)  # one-time income counts the cards placed this turn (§7 step 5)
    coins = settle(state, list(plays), placed.cities)
    due: list[Due] = []
    if state.turn == TURNS:
        due += [_due(state, p.seat, "seventh_card") for p in plays if _has(placed.cities[p.seat], PlaySeventhCard)]
    due += [_due(state, p.seat, "discard_build") for p in plays
            if p.action == "stage" and _stage_has(state, p, BuildFromDiscardEffect)]
    resolved = TurnResolved(age=state.age, turn=state.turn, plays=plays, coins=coins, due=tuple(due))
    events.append(resolved)
    # evolve(chosen, resolved) is exactly settle_turn(placed, ...) (evolve's own two halves):
    # the turn runs on from there, so that the cards are not placed a second time.
    after = settle_turn(placed, coins, resolved.due)
    return advance(after, edifice_joined(after, plays), prefix=events, prefix_states=[chosen, after])


def _due(state: State, city: int, kind) -> Due:
    """A decision owed to `city`; the Free City's is taken by this turn's holder (§15 #16)."""
    if city == free_city(state):
        return Due(holder(state), kind, city)
    return Due(city, kind)


def _has(city: City, kind: type) -> bool:
    return any(isinstance(e, kind) for e in stage_effects(city))


def _stage_has(state: State, p: Play, kind: type) -> bool:
    return any(isinstance(e, kind) for e in built_stage(state, p))


def advance(state: State, events: list[SevenWondersEvent], prefix: list[SevenWondersEvent] | None = None,
            prefix_states: list[State] | None = None) -> Decided:
    """Apply `events` and run the end of the turn (§7 steps 6-8) until a seat must act: the
    `prefix` (already applied, `prefix_states` the state after each of its events: `state`
    is the last), `events` and what follows, with the state after each of them."""
    out = list(prefix or [])
    states = list(prefix_states or [])

    def push(e: SevenWondersEvent) -> None:
        nonlocal state
        state = evolve(state, e)
        out.append(e)
        states.append(state)

    for e in events:
        push(e)

    while state.pending is None and state.phase == "resolving":
        if state.turn == TURNS and not state.last_discarded:
            keep = {d.seat if d.city is None else d.city for d in state.due if d.kind == "seventh_card"}
            push(LastCardsDiscarded(cards=tuple(None if i in keep or not h else h[0] for i, h in enumerate(state.hands))))
            continue
        if state.due:
            d = state.due[0]
            city = d.seat if d.city is None else d.city
            if d.kind == "discard_build" and not eligible_discards(state, city):
                push(DiscardBuildSkipped(seat=city, reason="nothing_eligible"))
                continue
            if d.kind == "edifice_penalty":
                break  # every seat that owes one chooses at once (B6): to_act lists them
            push(DecisionOpened(seat=d.seat, kind=d.kind, city=d.city))
            break
        if state.turn < TURNS:
            push(HandsPassed(direction="swap" if free_city(state) is not None else PASS[state.age]))
            if free_city(state) is not None:
                push(FreeCityCardDrawn(seat=holder(state)))
            break
        if state.edifices and state.edifice_status[state.age - 1] == "project":
            push(edifice_failed(state))  # before the conflicts (Edifice B1); may open decisions
            continue
        push(military(state))
        if state.age < 3:
            push(AgeStarted(age=state.age + 1))
            if free_city(state) is not None:
                push(FreeCityCardDrawn(seat=holder(state)))
        else:
            edifice = bool(state.edifices)
            scores, notes = final_scores(state.cities, edifice)
            push(GameEnded(categories=EDIFICE_CATEGORIES if edifice else CATEGORIES, scores=scores,
                           coins=tuple(c.coins for c in state.cities), choices=notes))
        break
    return Decided(out, state, states)


def pay_penalty(state: State, seat: int, cmd: Command_) -> list[SevenWondersEvent] | Rejection:
    """The owed choice of a failed edifice's penalty (§5.2): which card, or which tokens."""
    pen = EDIFICE.cards[state.edifices[state.age - 1]].penalty
    city = state.cities[seat]
    if isinstance(pen, DiscardOwnCard):
        if not isinstance(cmd, GiveUp):
            return Rejection("decision_pending", f"give up one of your {pen.colour} structures (the edifice failed)")
        cid = find_card(tuple(penalty_cards(city, pen.colour)), cmd.card)
        if cid is None:
            return Rejection("not_eligible", f"{card_name(cmd.card)} is not one of your {pen.colour} structures")
        return _penalty_chosen(state, seat, cid, ())
    assert isinstance(pen, LoseVictoryTokens)
    if not isinstance(cmd, ReturnTokens):
        return Rejection("decision_pending", f"return {pen.count} of your victory tokens (the edifice failed)")
    chosen = tuple(sorted(cmd.tokens))
    if chosen not in penalty_token_sets(city, pen.count):
        return Rejection("not_eligible", f"return {pen.count} victory tokens you hold, by value")
    return _penalty_chosen(state, seat, None, chosen)


def _penalty_chosen(state: State, seat: int, card: str | None, tokens: tuple[int, ...]) -> list[SevenWondersEvent]:
    """B6: the penalties are resolved simultaneously. A choice is kept hidden while another
    seat still owes one; the last choice pays them all, in seat order, then the turn goes on
    (the conflicts count the cities without what they gave up)."""
    if any(s != seat for s in owing(state)):
        return [EdificePenaltyChosen(seat=seat, card=card, tokens=tokens)]
    picks = sorted([*state.picks, (seat, card, tokens)])
    return advance(state, [EdificePenaltyPaid(seat=s, card=c, tokens=t) for s, c, t in picks])


def eligible_discards(state: State, seat: int) -> list[str]:
    """Discarded cards the seat may build: any whose name its city lacks (§11.7)."""
    names = info(state.cities[seat]).names
    return [cid for cid in state.discard if CATALOG.cards[cid].name not in names]


def build_from_discard(state: State, seat: int, cmd: BuildFromDiscard) -> list[SevenWondersEvent] | Rejection:
    cid = find_card(state.discard, cmd.card)
    if cid is None:
        return Rejection("not_in_discard", f"{card_name(cmd.card)} is not in the discard pile")
    if CATALOG.cards[cid].name in info(state.cities[seat]).names:
        return Rejection("duplicate_structure", f"your city already has a {CATALOG.cards[cid].name} (§11.7)")
    n = len(state.cities)
    cities = list(state.cities)
    cities[seat] = replace(cities[seat], built=cities[seat].built + (cid,))
    coins = [0] * n
    coins[seat] = coins_of(CATALOG.cards[cid].effects, tuple(cities), seat)
    return advance(state, [DiscardBuilt(seat=seat, card=cid, coins=tuple(coins))])
