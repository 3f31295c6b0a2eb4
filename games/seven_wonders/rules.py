"""decide, legal_commands and to_act for 7 Wonders (they share their predicates).

References are to docs/rules/seven-wonders.md (Edifice: seven-wonders-edifice.md). Every choice is validated against
the state at the start of the turn (§7 step 2); the last choice of a turn reveals and
resolves all of them (§7 steps 3-5) and runs the end of the turn (§7 steps 6-8) up to the
next decision, all written out as events.
"""

from __future__ import annotations

from itertools import combinations
from typing import assert_never

from msgspec.structs import replace

from games.contract import Rejection
from games.seven_wonders.boards import BOARDS, stage
from games.seven_wonders.catalog import (
    CATALOG,
    BuildFromDiscard as BuildFromDiscardEffect,
    Coins,
    CoinsPer,
    FreeBuildOncePerAge,
    PlaySeventhCard,
    vec,
)
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
from games.seven_wonders.evolve import evolve, place_all, settle_turn
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
    FreeCityCardDrawn,
    GameEnded,
    HandsPassed,
    LastCardsDiscarded,
    MilitaryResolved,
    Play,
    SevenWondersEvent,
    SeventhCardPlayed,
    TurnResolved,
)
from games.seven_wonders.payment import Way, info, shortfall_message, stage_effects, way_paying, ways
from games.seven_wonders.scoring import CATEGORIES, EDIFICE_CATEGORIES, final_scores, left_of, per, right_of, shields
from games.seven_wonders.state import City, State

DISCARD_COINS = 3  # §4 C
VICTORY = {1: 1, 2: 3, 3: 5}  # §8
DEFEAT = -1
PASS = {1: "left", 2: "right", 3: "left"}  # §3
TURNS = 6


FREE_CITY = 2
"""The Free City's city index in the 2-player variant: the cycle is (P1, P2, Free City), so
P1 = LEFT(Free City) and P2 = RIGHT(Free City) (§12 engine notes)."""


def free_city(state: State) -> int | None:
    """The Free City's index, or None outside the 2-player variant."""
    return FREE_CITY if state.players == 2 else None


def holder(state: State) -> int:
    """2-player variant: who holds the Free City card this turn. Age I and III start with
    the player on the Free City's left (seat 0), Age II with the one on its right; it
    changes hands every turn (§12, §15 #15)."""
    start = 0 if state.age in (1, 3) else 1
    return start if state.turn % 2 == 1 else 1 - start


def to_act(state: State) -> tuple[int, ...]:
    """Seats that must act: every seat yet to choose (the Free City's controller until it
    has chosen for both cities), the owner of a pending decision, or every seat that still
    owes its choice of a failed edifice's penalty (they choose at once, Edifice B6)."""
    if state.pending is not None:
        return (state.pending.seat,)
    if choosing_penalties(state):
        return owing(state)
    if state.phase == "choose":
        seats = [i for i in range(state.players) if state.chosen[i] is None]
        fc = free_city(state)
        if fc is not None and state.chosen[fc] is None and holder(state) not in seats:
            seats = sorted([*seats, holder(state)])
        return tuple(seats)
    return ()


def choosing_penalties(state: State) -> bool:
    """Are the seats a failed edifice penalised choosing how to pay (B6, all at once)?"""
    return state.pending is None and bool(state.due) and state.due[0].kind == "edifice_penalty"


def owing(state: State) -> tuple[int, ...]:
    """The seats that owe a failed edifice's penalty choice and have not made it (B6)."""
    picked = {p[0] for p in state.picks}
    return tuple(sorted(d.seat for d in state.due if d.kind == "edifice_penalty" and d.seat not in picked))


def slot(state: State, seat: int) -> tuple[int, tuple[str, ...], int]:
    """What `seat` decides now: (the city it acts for, the cards it may use, whose hand
    they are in). The Free City's card is chosen after the controller's own (§12)."""
    if state.pending is not None:
        city = state.pending.seat if state.pending.city is None else state.pending.city
        return city, state.hands[city], city
    if state.chosen[seat] is None:
        return seat, state.hands[seat], seat
    hand = list(state.hands[seat])
    hand.remove(state.chosen[seat].card)  # type: ignore[union-attr]
    return FREE_CITY, tuple(hand), seat


def decide(state: State, seat: int, cmd: Command_) -> list[SevenWondersEvent] | Rejection:
    """Validate `cmd` from `seat` and say what happens."""
    if state.phase == "over":
        return Rejection("game_over", "the game is over")
    if state.phase == "new":
        return Rejection("not_started", "the game has not been set up")
    if not 0 <= seat < state.players:
        return Rejection("unknown_seat", f"there is no seat {seat} in a {state.players}-player game")
    # (to_act's own test, without building the tuple, in the common case: no decision
    # pending, no Free City; every choice of a turn is a command, so this runs for each)
    if state.pending is None and state.phase == "choose" and state.players != 2:
        acts = state.chosen[seat] is None
    else:
        acts = seat in to_act(state)
    if not acts:
        if state.phase == "choose" and state.pending is None:
            return Rejection("already_chosen", "you have already chosen your card for this turn")
        return Rejection("not_your_turn", f"seat {seat} has nothing to decide now")
    if choosing_penalties(state):
        return _pay_penalty(state, seat, cmd)
    city, cards, owner = slot(state, seat)
    if getattr(cmd, "free_city", False) != (city != seat):
        if city != seat:
            return Rejection("free_city_decision", "this decision is for the Free City: add 'for free city'")
        return Rejection("own_city_first", "choose for your own city now (the Free City chooses after you, §12)")
    if state.pending is not None and state.pending.kind == "edifice_penalty":
        return _pay_penalty(state, city, cmd)
    if state.pending is not None and state.pending.kind == "discard_build":
        match cmd:
            case BuildFromDiscard():
                return _build_from_discard(state, city, cmd)
            case Decline():
                return _advance(state, [DiscardBuildSkipped(seat=city, reason="declined")])
            case _:
                return Rejection("decision_pending", "choose a card of the discard pile to build, or decline")
    match cmd:
        case Build() | BuildStage() | Discard():
            play = _play(state, city, cmd, cards, owner)
            if isinstance(play, Rejection):
                return play
            if city != seat:  # the Free City's rules hold for its 7th card too (§12, §15 #16)
                forced = _free_city_forced(state, city, cards, play)
                if forced is not None:
                    return forced
            if state.pending is not None:  # Babylon B's 7th card (§11.5); a stage may join (Edifice A7)
                seventh = SeventhCardPlayed(play=play, coins=_settle(state, [play]))
                return _advance(state, [seventh, *_joined(evolve(state, seventh), (play,))])
            return _choose(state, play)
        case BuildFromDiscard() | Decline():
            return Rejection("no_pending_decision", "there is no discard-pile decision to answer now")
        case GiveUp() | ReturnTokens():
            return Rejection("no_pending_decision", "there is no edifice penalty to pay now")
        case _:
            assert_never(cmd)


# --- choosing and paying -------------------------------------------------------------


def find_card(hand: tuple[str, ...], key: str) -> str | None:
    """The id of a card of `hand` named `key` (a card key or id)."""
    for cid in hand:
        if cid == key or CATALOG.key[cid] == key:
            return cid
    return None


def _neighbours(state: State, seat: int) -> tuple[City, City, City]:
    n = len(state.cities)
    return state.cities[seat], state.cities[left_of(seat, n)], state.cities[right_of(seat, n)]


def free_build_ready(state: State, seat: int) -> bool:
    """Olympia A stage 2: once per age, not yet used in this one (§11.6, §15 #6)."""
    city = state.cities[seat]
    has = any(isinstance(e, FreeBuildOncePerAge) for e in stage_effects(city))
    return has and city.free_build_age != state.age


def _play(state: State, seat: int, cmd: Build | BuildStage | Discard, cards: tuple[str, ...],
          owner: int) -> Play | Rejection:
    """The play of city `seat` with a card of `cards` (held in `owner`'s hand)."""
    cid = find_card(cards, cmd.card)
    if cid is None:
        return Rejection("card_not_in_hand", f"{_name(cmd.card)} is not in your hand")
    play = _resolve(state, seat, cmd, cid)
    if isinstance(play, Play) and owner != seat:
        return replace(play, hand=owner)
    return play


def _resolve(state: State, seat: int, cmd: Build | BuildStage | Discard, cid: str) -> Play | Rejection:
    if isinstance(cmd, Discard):
        return Play(seat=seat, card=cid, action="discard")
    if (cmd.left is None) != (cmd.right is None):
        return Rejection("bad_payment", "name the coins for both neighbours (pay left N right M), or pay cheapest")
    me, left, right = _neighbours(state, seat)
    card = CATALOG.cards[cid]
    if isinstance(cmd, Build):
        if card.name in info(me).names:
            return Rejection("duplicate_structure", f"your city already has a {card.name} (§4 A)")
        if cmd.free:
            if not free_build_ready(state, seat):
                return Rejection("free_build_unavailable", "you have no unused free build in this age")
            if cmd.left or cmd.right:
                return Rejection("no_such_payment", "a free build pays nothing")
            return Play(seat=seat, card=cid, action="build", via="free_build")
        if any(n in info(me).names for n in card.chain_from):
            if cmd.left or cmd.right:
                return Rejection("no_such_payment", f"{card.name} is free for you through a chain (§5.1)")
            return Play(seat=seat, card=cid, action="build", via="chain")
        way = _pay(card.name, CATALOG.need[cid], card.cost_coins, cmd, me, left, right)
        if isinstance(way, Rejection):
            return way
        return Play(seat=seat, card=cid, action="build", left=way.left, right=way.right, bank=card.cost_coins,
                    via="resources")
    side = BOARDS[me.wonder].sides[me.side]
    if me.stages >= len(side.stages):
        return Rejection("wonder_complete", "every stage of your wonder is built")
    join = 0
    if cmd.join:
        why = join_refusal(state, seat)
        if why is not None:
            return Rejection("cannot_join", why)
        join = EDIFICE.cards[state.edifices[state.age - 1]].cost_coins  # to the bank (Edifice A3, A4)
    choices = stage_choices(state, seat)
    if choices and cmd.option not in choices:
        return Rejection("choose_option", f"this stage needs a choice: option {' or '.join(map(str, choices))}")
    if not choices and cmd.option is not None:
        return Rejection("no_such_option", "this stage offers no choice")
    name = f"stage {me.stages + 1} of your wonder" + (" and your part in the edifice" if join else "")
    way = _pay(name, vec(side.stages[me.stages].cost), join, cmd, me, left, right)
    if isinstance(way, Rejection):
        return way
    extra = {"option": cmd.option} if choices else {}
    if join:
        return Play(seat=seat, card=cid, action="stage", left=way.left, right=way.right, bank=join, via="resources",
                    join=True, **extra)
    return Play(seat=seat, card=cid, action="stage", left=way.left, right=way.right, via="resources", **extra)


def stage_choices(state: State, seat: int) -> tuple[int, ...]:
    """What the next stage of `seat` asks the builder to pick (placeholder boards,
    Edifice §12.2): Carthage's alternatives 1..k, or the Age of Ur's box pawn; () for no choice."""
    me = state.cities[seat]
    stages = BOARDS[me.wonder].sides[me.side].stages
    if me.stages >= len(stages):
        return ()
    st = stages[me.stages]
    if st.options:
        return tuple(range(1, len(st.options) + 1))
    if any(isinstance(e, TakePawn) and e.age == 0 for e in st.effects):
        return (1, 2, 3)
    return ()


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


def _pay(name: str, need, bank: int, cmd: Build | BuildStage, me: City, left: City, right: City) -> Way | Rejection:
    """The payment the command names (or the cheapest), checked against the seat's coins (§6)."""
    named = None if cmd.left is None or cmd.right is None else (cmd.left, cmd.right)
    # A listed way, found without listing them all (the common case: commands name their payment).
    found = None if named is None else way_paying(need, me, left, right, *named)
    if found is None:
        options = ways(need, me, left, right)
        if not options:
            return Rejection("cannot_afford", shortfall_message(name, need, me, left, right))
        if named is None:
            for w in options:
                if w.total + bank <= me.coins:
                    return w
            w = options[0]
            return Rejection(
                "cannot_afford",
                f"cannot afford {name}: the cheapest way costs {w.total + bank} coins "
                f"({w.left} to the left, {w.right} to the right, {bank} to the bank) and you have {me.coins}",
            )
        # Any legal plan is accepted (§6), also one that buys a type the city makes itself
        # (looked up only when the named payment is not a listed way).
        found = next((w for w in ways(need, me, left, right, wasteful=True) if (w.left, w.right) == named), None)
        if found is None:
            listed = "; ".join(f"left {w.left} right {w.right}" for w in options)
            return Rejection("no_such_payment",
                             f"{name} cannot be paid with left {cmd.left} right {cmd.right}; ways: {listed}")
    if found.total + bank > me.coins:
        return Rejection("cannot_afford", f"paying {found.total + bank} coins for {name} needs more than your {me.coins}")
    return found


def _choose(state: State, play: Play) -> list[SevenWondersEvent]:
    events: list[SevenWondersEvent] = [CardChosen(play=play)]
    if state.chosen.count(None) > 1:  # others have yet to choose
        return events
    chosen = evolve(state, events[0])
    plays = tuple(p for p in chosen.chosen if p is not None)
    placed = place_all(chosen, plays)  # one-time income counts the cards placed this turn (§7 step 5)
    coins = _settle(state, list(plays), placed.cities)
    due: list[Due] = []
    if state.turn == TURNS:
        due += [_due(state, p.seat, "seventh_card") for p in plays if _has(placed.cities[p.seat], PlaySeventhCard)]
    due += [_due(state, p.seat, "discard_build") for p in plays
            if p.action == "stage" and _stage_has(state, p, BuildFromDiscardEffect)]
    resolved = TurnResolved(age=state.age, turn=state.turn, plays=plays, coins=coins, due=tuple(due))
    events.append(resolved)
    # evolve(chosen, resolved) is exactly settle_turn(placed, ...) (evolve's own two halves):
    # handed to evolve's memory so that the cards are not placed a second time.
    after = settle_turn(placed, coins, resolved.due)
    evolve.remember(chosen, resolved, after)  # type: ignore[attr-defined]
    events += _joined(after, plays)
    return _advance(chosen, events[1:], prefix=events[:1])


def _joined(state: State, plays: tuple[Play, ...]) -> list[SevenWondersEvent]:
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


def _due(state: State, city: int, kind) -> Due:
    """A decision owed to `city`; the Free City's is taken by this turn's holder (§15 #16)."""
    if city == free_city(state):
        return Due(holder(state), kind, city)
    return Due(city, kind)


def _free_city_forced(state: State, city: int, cards: tuple[str, ...], play: Play) -> Rejection | None:
    """§12 / §15 #13: a card the Free City can chain must be built through the chain, and
    the Free City discards only when it can play none of the cards left in the hand."""
    card = CATALOG.cards[play.card]
    names = info(state.cities[city]).names
    if play.via != "chain" and card.name not in names and any(n in names for n in card.chain_from):
        return Rejection("free_city_must_chain", f"the Free City must build {card.name} through its chain (§12)")
    if play.action == "discard" and any(_playable(state, city, cid) for cid in cards):
        return Rejection("free_city_must_play", "the Free City may discard only when it can play none of these cards (§12)")
    return None


def _playable(state: State, city: int, cid: str) -> bool:
    """Could `city` build this card or use it for its next stage (own coins, purchases, chain)?"""
    me, left, right = _neighbours(state, city)
    card = CATALOG.cards[cid]
    names = info(me).names
    if card.name not in names:
        if any(n in names for n in card.chain_from) or free_build_ready(state, city):
            return True
        if any(w.total + card.cost_coins <= me.coins for w in ways(CATALOG.need[cid], me, left, right)):
            return True
    stages = BOARDS[me.wonder].sides[me.side].stages
    return me.stages < len(stages) and any(
        w.total <= me.coins for w in ways(vec(stages[me.stages].cost), me, left, right)
    )


def _has(city: City, kind: type) -> bool:
    return any(isinstance(e, kind) for e in stage_effects(city))


def _stage_has(state: State, p: Play, kind: type) -> bool:
    return any(isinstance(e, kind) for e in _built_stage(state, p))


def _built_stage(state: State, p: Play) -> tuple:
    """The effects of the stage `p` builds (the alternative it picked, on Carthage)."""
    city = state.cities[p.seat]
    return stage(city.wonder, city.side, city.stages, p.option if isinstance(p.option, int) else 0)


def _settle(state: State, plays: list[Play], placed: tuple[City, ...] | None = None) -> tuple[int, ...]:
    """Each seat's net coins from `plays` (§7 steps 3 and 5): payments out, purchases
    received by the sellers, and one-time income counted on the cities after placement."""
    n = len(state.cities)
    if placed is None:
        s = state
        for p in plays:  # a single play settled at once (7th card)
            s = evolve(s, TurnResolved(age=s.age, turn=s.turn, plays=(p,), coins=(0,) * n))
        placed = s.cities
    delta = [0] * n
    for p in plays:
        delta[p.seat] -= p.left + p.right + p.bank
        delta[left_of(p.seat, n)] += p.left
        delta[right_of(p.seat, n)] += p.right
        delta[p.seat] += _income(state, p, placed)
    return tuple(delta)


def _income(state: State, p: Play, placed: tuple[City, ...]) -> int:
    if p.action == "discard":
        return DISCARD_COINS
    if p.action == "stage":
        effects = _built_stage(state, p)
    else:
        effects = CATALOG.cards[p.card].effects
    return _coins_of(effects, placed, p.seat)


def _coins_of(effects, cities: tuple[City, ...], seat: int) -> int:
    total = 0
    for e in effects:
        if isinstance(e, Coins):
            total += e.amount
        elif isinstance(e, CoinsPer):
            total += per(e, cities, seat)  # type: ignore[arg-type]
    return total


# --- the end of a turn ---------------------------------------------------------------


def _advance(state: State, events: list[SevenWondersEvent], prefix: list[SevenWondersEvent] | None = None):
    """Apply `events` and run the end of the turn (§7 steps 6-8) until a seat must act."""
    out = list(prefix or [])
    for e in events:
        state = evolve(state, e)
        out.append(e)

    def push(e: SevenWondersEvent) -> None:
        nonlocal state
        state = evolve(state, e)
        out.append(e)

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
            push(_failed(state))  # before the conflicts (Edifice B1); may open decisions
            continue
        push(_military(state))
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
    return out


def _military(state: State) -> MilitaryResolved:
    """Each adjacent pair compares shields once (§8)."""
    n = len(state.cities)
    strength = tuple(shields(c) for c in state.cities)
    tokens: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        j = left_of(i, n)
        if strength[i] > strength[j]:
            tokens[i].append(VICTORY[state.age])
            tokens[j].append(DEFEAT)
        elif strength[i] < strength[j]:
            tokens[j].append(VICTORY[state.age])
            tokens[i].append(DEFEAT)
    return MilitaryResolved(age=state.age, shields=strength, tokens=tuple(tuple(t) for t in tokens))


def _failed(state: State) -> EdificeFailed:
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


def _pay_penalty(state: State, seat: int, cmd: Command_) -> list[SevenWondersEvent] | Rejection:
    """The owed choice of a failed edifice's penalty (§5.2): which card, or which tokens."""
    pen = EDIFICE.cards[state.edifices[state.age - 1]].penalty
    city = state.cities[seat]
    if isinstance(pen, DiscardOwnCard):
        if not isinstance(cmd, GiveUp):
            return Rejection("decision_pending", f"give up one of your {pen.colour} structures (the edifice failed)")
        cid = find_card(tuple(penalty_cards(city, pen.colour)), cmd.card)
        if cid is None:
            return Rejection("not_eligible", f"{_name(cmd.card)} is not one of your {pen.colour} structures")
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
    return _advance(state, [EdificePenaltyPaid(seat=s, card=c, tokens=t) for s, c, t in picks])


def _penalty_commands(state: State, city: int) -> list[Command_]:
    """The ways `city` may pay the failed edifice's penalty it owes (§5.2)."""
    pen = EDIFICE.cards[state.edifices[state.age - 1]].penalty
    if isinstance(pen, DiscardOwnCard):
        return [GiveUp(card=CATALOG.key[c]) for c in penalty_cards(state.cities[city], pen.colour)]
    assert isinstance(pen, LoseVictoryTokens)
    return [ReturnTokens(tokens=list(t)) for t in penalty_token_sets(state.cities[city], pen.count)]


def eligible_discards(state: State, seat: int) -> list[str]:
    """Discarded cards the seat may build: any whose name its city lacks (§11.7)."""
    names = info(state.cities[seat]).names
    return [cid for cid in state.discard if CATALOG.cards[cid].name not in names]


def _build_from_discard(state: State, seat: int, cmd: BuildFromDiscard) -> list[SevenWondersEvent] | Rejection:
    cid = find_card(state.discard, cmd.card)
    if cid is None:
        return Rejection("not_in_discard", f"{_name(cmd.card)} is not in the discard pile")
    if CATALOG.cards[cid].name in info(state.cities[seat]).names:
        return Rejection("duplicate_structure", f"your city already has a {CATALOG.cards[cid].name} (§11.7)")
    n = len(state.cities)
    cities = list(state.cities)
    cities[seat] = replace(cities[seat], built=cities[seat].built + (cid,))
    coins = [0] * n
    coins[seat] = _coins_of(CATALOG.cards[cid].effects, tuple(cities), seat)
    return _advance(state, [DiscardBuilt(seat=seat, card=cid, coins=tuple(coins))])


def _name(key: str) -> str:
    ids = CATALOG.by_key.get(key) or ((key,) if key in CATALOG.cards else ())
    return CATALOG.cards[ids[0]].name if ids else repr(key)


# --- legal commands ------------------------------------------------------------------


def legal_commands(state: State, seat: int) -> list[Command_]:
    """Every legal command of `seat` now, in a deterministic order: per card of the hand
    (by key) its builds (each distinct payment, cheapest first; chain; free build), its
    wonder stages (each distinct payment) and its discard. For the Free City (§12) only
    the plays it is allowed: a chain card is built, a discard only when nothing is playable."""
    if seat not in to_act(state) or state.phase == "over":
        return []
    if choosing_penalties(state):
        return _penalty_commands(state, seat)
    city, cards, _ = slot(state, seat)
    fc = city != seat
    if state.pending is not None and state.pending.kind == "edifice_penalty":  # a rules-version-1 log
        return _penalty_commands(state, city)
    if state.pending is not None and state.pending.kind == "discard_build":
        keys = sorted({CATALOG.key[c] for c in eligible_discards(state, city)})
        return [*(BuildFromDiscard(card=k, free_city=fc) for k in keys), Decline(free_city=fc)]
    forced = fc  # the Free City's choice, its 7th card included (§12, §15 #16)
    me, left, right = _neighbours(state, city)
    names = info(me).names
    side = BOARDS[me.wonder].sides[me.side]
    stage_ways: tuple[Way, ...] = ()
    join_ways: tuple[Way, ...] = ()
    if me.stages < len(side.stages):
        all_ways = ways(vec(side.stages[me.stages].cost), me, left, right)
        stage_ways = tuple(w for w in all_ways if w.total <= me.coins)
        if state.edifices and join_refusal(state, city) is None:  # Edifice §4: join with the stage
            price = EDIFICE.cards[state.edifices[state.age - 1]].cost_coins
            join_ways = tuple(w for w in all_ways if w.total + price <= me.coins)
    free = free_build_ready(state, city)
    picks: tuple[int | None, ...] = stage_choices(state, city) or (None,)  # Ur / Carthage
    out: list[Command_] = []
    discards: list[Command_] = []
    seen: set[str] = set()
    for cid in sorted(cards, key=lambda c: CATALOG.key[c]):
        card = CATALOG.cards[cid]
        key = CATALOG.key[cid]
        if key in seen:
            continue
        seen.add(key)
        chain = card.name not in names and any(n in names for n in card.chain_from)
        if card.name not in names:
            if chain:
                out.append(Build(card=key, left=0, right=0, free_city=fc))
            else:
                for w in ways(CATALOG.need[cid], me, left, right):
                    if w.total + card.cost_coins <= me.coins:
                        out.append(Build(card=key, left=w.left, right=w.right, free_city=fc))
            if free and not (forced and chain):
                out.append(Build(card=key, free=True, free_city=fc))
        if not (forced and chain):
            for o in picks:
                out.extend(BuildStage(card=key, left=w.left, right=w.right, free_city=fc, option=o) for w in stage_ways)
                out.extend(BuildStage(card=key, left=w.left, right=w.right, join=True, option=o) for w in join_ways)
            discards.append(Discard(card=key, free_city=fc))
        if not forced:
            out.append(discards.pop())
    if forced and not out:
        out = discards
    return out
