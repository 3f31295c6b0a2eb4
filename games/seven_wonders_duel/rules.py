"""decide, legal_commands and to_act for 7 Wonders Duel (they share their predicates).

References are to ../shared/rules/seven-wonders-duel.md. A turn is resolved in one
`decide` call and written out as events: the action with its payment and coins, the
reveals it causes (§4), the pawn's move (§7), then a science pair or a wonder's choice
as an open decision (§8, §12), and finally the next turn, the next age's start choice
(§9) or the end of the game (§10). A decision's answer continues the same turn.
"""

from __future__ import annotations

from functools import lru_cache, reduce
from typing import assert_never

from games.contract import Rejection
from games.seven_wonders_duel.catalog import (
    CATALOG,
    COLORS,
    GainCoinsPerOwnBuiltWonder,
    GainCoinsPerOwnCard,
    GuildMajorityCards,
    Spec,
)
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
from games.seven_wonders_duel.events import (
    AgeStarted,
    CardBuilt,
    CardDestroyed,
    CardDiscarded,
    CardsRevealed,
    DecisionOpened,
    GameEnded,
    PawnMoved,
    ProgressTokenTaken,
    SevenWondersDuelEvent,
    TurnStarted,
    Victory,
    WonderBuilt,
    WonderDrafted,
    WonderRemoved,
)
from games.seven_wonders_duel.evolve import evolve
from games.seven_wonders_duel.payment import (
    SPEC,
    Profile,
    describe_prices,
    profile,
    supply,
    trade_cost,
    trade_for,
    trade_table,
)
from games.seven_wonders_duel.scoring import CATEGORIES, civilian_winners, scores
from games.seven_wonders_duel.state import City, State

Events = list[SevenWondersDuelEvent]

DRAFT_ORDER = (0, 1, 1, 0, 1, 0, 0, 1)
"""Who takes the i-th drafted wonder: 0 = P1, 1 = P2 (§3 step 7: 1-2-1, then 1-2-1 from P2)."""
DISCARD_BASE = CATALOG.rules["discard_coins"]["base"]  # §5 B: 2 coins + 1 per yellow card
URBANISM = 4  # §13
TOKEN_COINS = {"agriculture": 6, "urbanism": 6}  # §13
REDUCTION = 2  # Masonry, Architecture (§6.5)
MAX_WONDERS = 7  # §5
SUPREMACY = CATALOG.rules["military_supremacy_position"]  # §7: 9
SCIENCE_SUPREMACY = CATALOG.rules["science_supremacy_distinct_symbols"]  # §8: 6
MILITARY_LOSS = {min(abs(x) for x in t["position_range"]): t["coins"] for t in CATALOG.military["tokens"]}
"""A military token's zone start (distance from the centre) -> coins lost (§7): {3: 2, 6: 5}."""
_YELLOW = COLORS.index("yellow")

COVER = tuple(tuple(sum(1 << q for q in p.covered_by) for p in layout) for layout in CATALOG.layouts)
"""COVER[age-1][p]: bitmask of the positions that overlap position p (§4)."""
COVERS = tuple(tuple(p.covers for p in layout) for layout in CATALOG.layouts)
"""COVERS[age-1][p]: the positions that position p overlaps (§4)."""

_INCOME = {
    cid: tuple(e for e in c.effects if isinstance(e, (GainCoinsPerOwnCard, GainCoinsPerOwnBuiltWonder,
                                                        GuildMajorityCards)))
    for cid, c in CATALOG.cards.items()
}
_INCOME = {k: v for k, v in _INCOME.items() if v}
"""Cards whose coins when built depend on the cities (§11.3, §11.4)."""


@lru_cache(maxsize=1 << 16)
def accessible(age: int, present: int) -> tuple[int, ...]:
    """Positions still holding a card with no card overlapping them (§4)."""
    cover = COVER[age - 1]
    return tuple(p for p in range(20) if present >> p & 1 and not present & cover[p])


def drafter(state: State) -> int:
    """The seat that takes the next wonder of the draft (§3 step 7)."""
    return state.first if DRAFT_ORDER[state.picks] == 0 else 1 - state.first


def offered(state: State) -> list[str]:
    """The revealed wonders of the current draft round nobody has taken yet."""
    start = 4 * (state.picks // 4)
    taken = state.cities[0].wonders + state.cities[1].wonders
    return [w for w in state.draft[start : start + 4] if w not in taken]


def to_act(state: State) -> tuple[int, ...]:
    """The seat that must act: the owner of an open decision, the player whose turn it
    is, or the drafter."""
    if state.pending is not None:
        return (state.pending.seat,)
    if state.phase == "play":
        return (state.current,)
    if state.phase == "draft":
        return (drafter(state),)
    return ()


def decide(state: State, seat: int, cmd: Command_) -> Events | Rejection:
    """Validate `cmd` from `seat` and say what happens."""
    if state.phase == "over":
        return Rejection("game_over", "the game is over")
    if state.phase == "new":
        return Rejection("not_started", "the game has not been set up")
    if seat not in (0, 1):
        return Rejection("unknown_seat", f"there is no seat {seat!r} in a 2-player game")
    if seat not in to_act(state):
        return Rejection("not_your_turn", f"seat {seat} has nothing to decide now")
    match cmd:
        case DraftWonder():
            if state.phase != "draft":
                return Rejection("not_drafting", "the wonder draft is over")
            return _draft_wonder(state, seat, cmd)
        case BuildCard() | DiscardCard() | BuildWonder():
            if state.pending is not None:
                return Rejection("decision_pending", f"answer the open decision first ({state.pending.kind})")
            if state.phase == "draft":
                return Rejection("draft_in_progress", "draft your wonders first")
            match cmd:
                case BuildCard():
                    return _build_card(state, seat, cmd)
                case DiscardCard():
                    return _discard_card(state, seat, cmd)
                case _:
                    return _build_wonder(state, seat, cmd)
        case ChooseProgressToken():
            return _choose_progress_token(state, seat, cmd)
        case DestroyCard():
            return _destroy_card(state, seat, cmd)
        case BuildFromDiscard():
            return _build_from_discard(state, seat, cmd)
        case ChooseStartPlayer():
            return _choose_start_player(state, seat, cmd)
        case _:
            assert_never(cmd)


# --- the draft ------------------------------------------------------------------------


def _draft_wonder(state: State, seat: int, cmd: DraftWonder) -> Events | Rejection:
    """§3 step 7: the last wonder of a round goes to its taker without asking."""
    left = offered(state)
    if cmd.wonder not in left:
        return Rejection("wonder_not_offered", f"{CATALOG.name(str(cmd.wonder))} is not among the revealed wonders")
    out: Events = [WonderDrafted(seat=seat, wonder=cmd.wonder)]
    picks = state.picks + 1
    if picks % 4 == 3:
        last = next(w for w in left if w != cmd.wonder)
        taker = state.first if DRAFT_ORDER[picks] == 0 else 1 - state.first
        out.append(WonderDrafted(seat=taker, wonder=last))
        picks += 1
    if picks == 8:
        out.append(AgeStarted(age=1, seat=state.first))
    return out


# --- taking a card --------------------------------------------------------------------


def _locate(state: State, card: str) -> int | Rejection:
    """The position of a face-up card of the structure that may be taken (§4). Absent,
    taken and face-down cards get the same answer, so nothing hidden leaks."""
    structure = state.structures[state.age - 1]
    pos = structure.index(card) if card in structure else -1
    if pos < 0 or not state.present >> pos & 1 or not state.face_up >> pos & 1:
        return Rejection("card_not_available", f"{CATALOG.name(str(card))} is not a face-up card of the structure")
    if state.present & COVER[state.age - 1][pos]:
        return Rejection("card_not_accessible", f"{CATALOG.name(card)} is still covered by other cards (§4)")
    return pos


def build_price(state: State, seat: int, spec: Spec, mine: Profile, theirs: Profile) -> tuple[bool, int, int]:
    """(via chain, coins paid, part of them going to the opponent) for a building (§6)."""
    city = state.cities[seat]
    if spec.chain is not None and spec.chain in mine.chains:
        return True, 0, 0
    waived = REDUCTION if spec.color == "blue" and "masonry" in city.tokens else 0
    trade = trade_cost(spec.need, supply(mine.supply, city.built), theirs, waived)
    return False, spec.coins + trade, trade if "economy" in state.cities[1 - seat].tokens else 0


def wonder_price(state: State, seat: int, wonder: str, mine: Profile, theirs: Profile) -> tuple[int, int]:
    """(coins paid, part of them going to the opponent) for a wonder (§5 C, §6.5)."""
    city = state.cities[seat]
    waived = REDUCTION if "architecture" in city.tokens else 0
    trade = trade_cost(SPEC[wonder].need, supply(mine.supply, city.built), theirs, waived)
    return trade, trade if "economy" in state.cities[1 - seat].tokens else 0


def _income(spec: Spec, city: City, other: City) -> int:
    """Coins a building gives when built, counted after placing it (§11, §15 #19)."""
    gain = spec.gain
    effects = _INCOME.get(spec.id)
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


def _build_card(state: State, seat: int, cmd: BuildCard) -> Events | Rejection:
    pos = _locate(state, cmd.card)
    if isinstance(pos, Rejection):
        return pos
    city, opp = state.cities[seat], state.cities[1 - seat]
    spec = SPEC[cmd.card]
    mine = profile(city.cards)
    theirs = profile(opp.cards)
    chain, paid, to_opp = build_price(state, seat, spec, mine, theirs)
    if paid > city.coins:
        return Rejection("cannot_afford", f"{spec.name} costs you {paid} coins and you have {city.coins} "
                                          f"(unit prices: {describe_prices(supply(mine.supply, city.built), theirs)})")
    gained = _income(spec, city, opp)
    if chain and "urbanism" in city.tokens:
        gained += URBANISM
    out: Events = [CardBuilt(seat=seat, card=cmd.card, position=pos, via="chain" if chain else "cost", paid=paid,
                             to_opponent=to_opp, gained=gained)]
    present = state.present & ~(1 << pos)
    _reveal(state, pos, present, out)
    pawn = _construction_effects(state, seat, spec, mine.symbols, opp.coins + to_opp, out)
    if pawn is None:
        return out
    return _turn_end(state, seat, out, present, False, pawn)


def _discard_card(state: State, seat: int, cmd: DiscardCard) -> Events | Rejection:
    pos = _locate(state, cmd.card)
    if isinstance(pos, Rejection):
        return pos
    city = state.cities[seat]
    gained = DISCARD_BASE + profile(city.cards).counts[_YELLOW]
    out: Events = [CardDiscarded(seat=seat, card=cmd.card, position=pos, gained=gained)]
    present = state.present & ~(1 << pos)
    _reveal(state, pos, present, out)
    return _turn_end(state, seat, out, present, False, state.pawn)


def _build_wonder(state: State, seat: int, cmd: BuildWonder) -> Events | Rejection:
    city, opp = state.cities[seat], state.cities[1 - seat]
    if cmd.wonder not in city.wonders:
        if cmd.wonder in state.wonders_out and cmd.wonder in state.draft:
            return Rejection("wonder_removed", "seven wonders are built: the last one left the game (§5)")
        if cmd.wonder in city.built:
            return Rejection("wonder_already_built", f"{CATALOG.name(cmd.wonder)} is already built")
        return Rejection("not_your_wonder", f"{CATALOG.name(str(cmd.wonder))} is not one of your unbuilt wonders")
    pos = _locate(state, cmd.card)
    if isinstance(pos, Rejection):
        return pos
    spec = SPEC[cmd.wonder]
    mine = profile(city.cards)
    theirs = profile(opp.cards)
    paid, to_opp = wonder_price(state, seat, cmd.wonder, mine, theirs)
    if paid > city.coins:
        return Rejection("cannot_afford", f"{spec.name} costs you {paid} coins and you have {city.coins} "
                                          f"(unit prices: {describe_prices(supply(mine.supply, city.built), theirs)})")
    opp_coins = opp.coins + to_opp
    lost = min(spec.opponent_loses, opp_coins)  # §12 The Appian Way: all if fewer
    extra = spec.extra_turn or "theology" in city.tokens  # §13 Theology, §15 #1
    out: Events = [WonderBuilt(seat=seat, wonder=cmd.wonder, card=cmd.card, position=pos, paid=paid,
                               to_opponent=to_opp, gained=spec.gain, opponent_lost=lost, extra_turn=extra)]
    if len(city.built) + len(opp.built) + 1 == MAX_WONDERS:  # §5, §15 #22
        for s, c in ((seat, city), (1 - seat, opp)):
            for w in c.wonders:
                if w != cmd.wonder:
                    out.append(WonderRemoved(seat=s, wonder=w))
    present = state.present & ~(1 << pos)
    _reveal(state, pos, present, out)
    pawn = state.pawn
    if spec.shields:  # wonders never get Strategy's bonus (§7)
        pawn = _move_pawn(state, seat, spec.shields, opp_coins - lost, out)
        if pawn is None:
            return out
    if spec.destroy is not None:
        options = tuple(sorted(c for c in opp.cards if SPEC[c].color == spec.destroy))
        if options:  # §15 #5: nothing to discard, nothing happens
            out.append(DecisionOpened(seat=seat, kind="destroy", options=options))
            return out
    if spec.from_box and state.box_tokens:
        out.append(DecisionOpened(seat=seat, kind="great_library", options=state.box_tokens[:3]))
        return out
    if spec.from_discard and state.discard:  # §15 #6: an empty pile gives nothing
        out.append(DecisionOpened(seat=seat, kind="mausoleum", options=tuple(sorted(set(state.discard)))))
        return out
    return _turn_end(state, seat, out, present, extra, pawn)


def _reveal(state: State, pos: int, present: int, out: Events) -> None:
    """Turn face up every face-down card that taking `pos` made accessible (§4): only
    the cards it covered can be newly uncovered."""
    cover = COVER[state.age - 1]
    face_up = state.face_up
    new = tuple(q for q in COVERS[state.age - 1][pos]
                if present >> q & 1 and not present & cover[q] and not face_up >> q & 1)
    if new:
        structure = state.structures[state.age - 1]
        out.append(CardsRevealed(age=state.age, positions=new, cards=tuple(structure[p] for p in new)))


def _move_pawn(state: State, seat: int, shields: int, opp_coins: int, out: Events) -> int | None:
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
    out.append(PawnMoved(seat=seat, shields=shields, position=pawn, tokens=tuple(taken), lost=lost))
    if abs(pawn) >= SUPREMACY:
        out.append(_ended(state, out, "military", (seat,)))
        return None
    return pawn


def _construction_effects(state: State, seat: int, spec: Spec, symbols: tuple[str, ...], opp_coins: int,
                          out: Events) -> int | None:
    """Shields then science of a building just built (§5 resolution order, §7, §8).
    Returns the pawn position, or None when the game ended or a decision is open."""
    pawn = state.pawn
    tokens = state.cities[seat].tokens
    if spec.shields:
        shields = spec.shields + (1 if spec.color == "red" and "strategy" in tokens else 0)  # §13 Strategy
        pawn = _move_pawn(state, seat, shields, opp_coins, out)
        if pawn is None:
            return None
    if spec.symbol is not None:
        have = set(symbols)
        distinct = len(have | {spec.symbol}) + (1 if "law" in tokens else 0)
        if distinct >= SCIENCE_SUPREMACY:
            out.append(_ended(state, out, "science", (seat,)))
            return None
        if spec.symbol in have and state.board_tokens:  # a pair (§8); none left: nothing (§15 #11)
            out.append(DecisionOpened(seat=seat, kind="progress_token", options=tuple(sorted(state.board_tokens))))
            return None
    return pawn


def _ended(state: State, out: Events, victory: Victory, winners: tuple[int, ...] | None = None) -> GameEnded:
    """The end of the game with the score sheet of the state after `out` (§10)."""
    final = reduce(evolve, out, state)
    sheets = scores(final)
    return GameEnded(victory=victory, winners=winners if winners is not None else civilian_winners(sheets),
                     categories=CATEGORIES, scores=sheets, blue=(sheets[0][0], sheets[1][0]))


def _turn_end(state: State, seat: int, out: Events, present: int, again: bool, pawn: int) -> Events:
    """After the action and its decisions: the end of the age (§9, §10), an extra turn,
    or the opponent's turn (§5)."""
    if not present:
        if state.age == 3:
            out.append(_ended(state, out, "civilian"))
        else:
            # §9: the weaker player (the pawn on their half) chooses; centred: the last active player
            chooser = 1 if pawn > 0 else 0 if pawn < 0 else seat
            out.append(DecisionOpened(seat=chooser, kind="choose_start"))
        return out
    out.append(TurnStarted(seat=seat, extra=True) if again else TurnStarted(seat=1 - seat))
    return out


# --- open decisions ---------------------------------------------------------------------


def _pending(state: State, *kinds: str) -> Rejection | None:
    if state.pending is None or state.pending.kind not in kinds:
        return Rejection("no_pending_decision", f"there is no {' or '.join(kinds)} decision to answer now")
    return None


def _choose_progress_token(state: State, seat: int, cmd: ChooseProgressToken) -> Events | Rejection:
    bad = _pending(state, "progress_token", "great_library")
    if bad is not None:
        return bad
    p = state.pending
    assert p is not None
    if cmd.token not in p.options:
        return Rejection("option_not_offered", f"{CATALOG.name(str(cmd.token))} is not one of the tokens offered")
    box = p.kind == "great_library"
    out: Events = [ProgressTokenTaken(seat=seat, token=cmd.token, source="box" if box else "board",
                                      gained=TOKEN_COINS.get(cmd.token, 0),
                                      returned=tuple(t for t in p.options if t != cmd.token) if box else ())]
    if cmd.token == "law":  # §8: Law counts toward six different symbols, never a pair (§15 #12)
        city = state.cities[seat]
        if len(set(profile(city.cards).symbols)) + 1 >= SCIENCE_SUPREMACY:
            out.append(_ended(state, out, "science", (seat,)))
            return out
    return _turn_end(state, seat, out, state.present, state.again, state.pawn)


def _destroy_card(state: State, seat: int, cmd: DestroyCard) -> Events | Rejection:
    bad = _pending(state, "destroy")
    if bad is not None:
        return bad
    assert state.pending is not None
    if cmd.card not in state.pending.options:
        return Rejection("option_not_offered", f"{CATALOG.name(str(cmd.card))} is not a card you may discard")
    out: Events = [CardDestroyed(seat=seat, card=cmd.card)]
    return _turn_end(state, seat, out, state.present, state.again, state.pawn)


def _build_from_discard(state: State, seat: int, cmd: BuildFromDiscard) -> Events | Rejection:
    """The Mausoleum: free, no chain, so no Urbanism coins (§15 #7); every other effect."""
    bad = _pending(state, "mausoleum")
    if bad is not None:
        return bad
    assert state.pending is not None
    if cmd.card not in state.pending.options:
        return Rejection("option_not_offered", f"{CATALOG.name(str(cmd.card))} is not in the discard pile")
    city, opp = state.cities[seat], state.cities[1 - seat]
    spec = SPEC[cmd.card]
    out: Events = [CardBuilt(seat=seat, card=cmd.card, position=-1, via="discard_pile",
                             gained=_income(spec, city, opp))]
    pawn = _construction_effects(state, seat, spec, profile(city.cards).symbols, opp.coins, out)
    if pawn is None:
        return out
    return _turn_end(state, seat, out, state.present, state.again, pawn)


def _choose_start_player(state: State, seat: int, cmd: ChooseStartPlayer) -> Events | Rejection:
    bad = _pending(state, "choose_start")
    if bad is not None:
        return bad
    if cmd.start not in ("me", "opponent"):
        return Rejection("bad_choice", "choose 'me' or 'opponent'")
    return [AgeStarted(age=state.age + 1, seat=seat if cmd.start == "me" else 1 - seat, chosen_by=seat)]


# --- legal commands ---------------------------------------------------------------------


_START = (ChooseStartPlayer(start="me"), ChooseStartPlayer(start="opponent"))
# Commands are frozen values: legal_commands hands out shared instances (the hot path).
_BUILD = {c: BuildCard(card=c) for c in CATALOG.cards}
_DISCARD = {c: DiscardCard(card=c) for c in CATALOG.cards}
_WONDER_ROW = {c: {w: BuildWonder(wonder=w, card=c) for w in CATALOG.wonders} for c in CATALOG.cards}


def legal_commands(state: State, seat: int) -> list[Command_]:
    """Every legal command of `seat` now, in a deterministic order: for each accessible
    card by position, its build (if affordable), its discard, then each affordable
    unbuilt wonder with it; a decision's options in sorted order."""
    if seat not in to_act(state):
        return []
    p = state.pending
    if p is not None:
        if p.kind == "choose_start":
            return list(_START)
        if p.kind == "destroy":
            return [DestroyCard(card=c) for c in p.options]
        if p.kind == "mausoleum":
            return [BuildFromDiscard(card=c) for c in p.options]
        return [ChooseProgressToken(token=t) for t in sorted(p.options)]
    if state.phase == "draft":
        return [DraftWonder(wonder=w) for w in sorted(offered(state))]
    city, opp = state.cities[seat], state.cities[1 - seat]
    mine = profile(city.cards)
    theirs = profile(opp.cards)
    have = supply(mine.supply, city.built)
    coins = city.coins
    masonry = "masonry" in city.tokens
    architecture = "architecture" in city.tokens
    table = trade_table(have, theirs, masonry, architecture)
    wonders = [w for w in sorted(city.wonders)
               if trade_for(table, w, have, theirs, masonry, architecture) <= coins]
    structure = state.structures[state.age - 1]
    chains = mine.chains
    out: list[Command_] = []
    for pos in accessible(state.age, state.present):
        card = structure[pos]
        spec = SPEC[card]
        # the same test as build_price, through the turn's trade table: the hot path
        if spec.chain in chains:
            out.append(_BUILD[card])
        else:
            trade = table.get(card)
            if trade is None:
                trade = trade_for(table, card, have, theirs, masonry, architecture)
            if spec.coins + trade <= coins:
                out.append(_BUILD[card])
        out.append(_DISCARD[card])
        if wonders:
            row = _WONDER_ROW[card]
            out.extend([row[w] for w in wonders])
    return out
