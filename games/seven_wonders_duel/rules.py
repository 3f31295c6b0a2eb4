"""decide, legal_commands and to_act for 7 Wonders Duel (they share their predicates); the card
structure, what a construction sets off and the open decisions live beside them (structure,
resolution, decisions).

References are to docs/rules/seven-wonders-duel.md. A turn is resolved in one
`decide` call and written out as events: the action with its payment and coins, the
reveals it causes (§4), the pawn's move (§7), then a science pair or a wonder's choice
as an open decision (§8, §12), and finally the next turn, the next age's start choice
(§9) or the end of the game (§10). A decision's answer continues the same turn.
"""

from __future__ import annotations

from functools import lru_cache
from typing import get_args

from msgspec.structs import replace

from games.contract import Rejection, guarded
from games.seven_wonders_duel.catalog import CATALOG, COLORS, Spec
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
from games.seven_wonders_duel.decisions import (
    TOKEN_COINS,
    build_from_discard,
    choose_progress_token,
    choose_start_player,
    destroy_card,
)
from games.seven_wonders_duel.events import (
    AgeStarted,
    CardBuilt,
    CardDiscarded,
    CardsRevealed,
    DecisionOpened,
    WonderBuilt,
    WonderDrafted,
    WonderRemoved,
)
from games.seven_wonders_duel.payment import (
    CHAIN_BIT,
    SPEC,
    Market,
    Profile,
    describe_prices,
    market,
    profile,
    trade_for,
)
from games.seven_wonders_duel.resolution import (
    INCOME,
    MILITARY_LOSS,
    SCIENCE_SUPREMACY,
    SUPREMACY,
    Events,
    construction_effects,
    income,
    move_pawn,
    turn_end,
)
from games.seven_wonders_duel.state import City, State
from games.seven_wonders_duel.structure import COVER, COVERS_MASK, REACHABLE, accessible, accessible_mask, bits
from games.words import count


__all__ = [
    "COVER", "DISCARD_BASE", "DRAFT_ORDER", "MAX_WONDERS", "MILITARY_LOSS", "REACHABLE", "SCIENCE_SUPREMACY", "SUPREMACY",
    "TOKEN_COINS", "URBANISM", "accessible", "build_price", "decide", "income", "legal_commands", "market_of", "offered",
    "to_act", "wonder_price",
]


DRAFT_ORDER = (0, 1, 1, 0, 1, 0, 0, 1)
"""Who takes the i-th drafted wonder: 0 = P1, 1 = P2 (§3 step 7: 1-2-1, then 1-2-1 from P2)."""
DISCARD_BASE = CATALOG.rules["discard_coins"]["base"]  # §5 B: 2 coins + 1 per yellow card
URBANISM = 4  # §13
MAX_WONDERS = 7  # §5
_YELLOW = COLORS.index("yellow")

# Events are built from these prototypes with `replace` in the hot paths: calling an event
# class goes through events.base's metaclass, the generic (slow) call path, 300-700 ns;
# `replace` gives the same value in about 100 ns. Every field without a default is set.
_CARD_BUILT = CardBuilt(seat=0, card="", position=0, via="cost")
_CARD_DISCARDED = CardDiscarded(seat=0, card="", position=0, gained=0)
_WONDER_BUILT = WonderBuilt(seat=0, wonder="", card="", position=0)
_CARDS_REVEALED = CardsRevealed(age=0, positions=(), cards=())
_WONDER_DRAFTED = WonderDrafted(seat=0, wonder="")


def drafter(state: State) -> int:
    """The seat that takes the next wonder of the draft (§3 step 7)."""
    return state.first if DRAFT_ORDER[state.picks] == 0 else 1 - state.first


def offered(state: State) -> list[str]:
    """The revealed wonders of the current draft round nobody has taken yet."""
    start = 4 * (state.picks // 4)
    taken = state.cities[0].wonders + state.cities[1].wonders
    return [w for w in state.draft[start : start + 4] if w not in taken]


_SEATS = ((0,), (1,))  # to_act's answers, shared


def to_act(state: State) -> tuple[int, ...]:
    """The seat that must act: the owner of an open decision, the player whose turn it
    is, or the drafter."""
    pending = state.pending
    if pending is not None:
        return _SEATS[pending.seat]
    if state.phase == "play":
        return _SEATS[state.current]
    if state.phase == "draft" and state.picks < len(DRAFT_ORDER):
        return _SEATS[drafter(state)]
    # (between the last pick and the start of Age I, inside one command, nobody acts)
    return ()


def _rules(state: State, seat: int, cmd: Command_) -> Events | Rejection:
    """Validate `cmd` from `seat` (the seat to act; the contract checked it) and say what happens."""
    return _DECIDE[type(cmd)](state, seat, cmd)  # type: ignore[operator]


decide = guarded(_rules, to_act)


# --- the draft ------------------------------------------------------------------------


def _draft_wonder(state: State, seat: int, cmd: DraftWonder) -> Events | Rejection:
    """§3 step 7: the last wonder of a round goes to its taker without asking."""
    if state.phase != "draft":
        return Rejection("not_drafting", "the wonder draft is over")
    left = offered(state)
    if cmd.wonder not in left:
        return Rejection("wonder_not_offered", f"{CATALOG.name(str(cmd.wonder))} is not among the revealed wonders")
    out: Events = [replace(_WONDER_DRAFTED, seat=seat, wonder=cmd.wonder)]
    picks = state.picks + 1
    if picks % 4 == 3:
        last = next(w for w in left if w != cmd.wonder)
        taker = state.first if DRAFT_ORDER[picks] == 0 else 1 - state.first
        out.append(replace(_WONDER_DRAFTED, seat=taker, wonder=last))
        picks += 1
    if picks == 8:
        out.append(AgeStarted(age=1, seat=state.first))
    return out


# --- taking a card --------------------------------------------------------------------


def _not_taking(state: State) -> Rejection | None:
    """Cards are taken during play with no open decision."""
    if state.pending is not None:
        return Rejection("decision_pending", f"answer the open decision first ({state.pending.kind})")
    if state.phase == "draft":
        return Rejection("draft_in_progress", "draft your wonders first")
    return None


def _locate(state: State, card: str) -> int | Rejection:
    """The position of a face-up card of the structure that may be taken (§4), during
    play with no open decision. Absent, taken and face-down cards get the same answer,
    so nothing hidden leaks."""
    if state.pending is not None or state.phase == "draft":
        return _not_taking(state)  # type: ignore[return-value]
    structure = state.structures[state.age - 1]
    try:
        pos = structure.index(card)
    except ValueError:
        pos = -1
    present = state.present
    if pos < 0 or not (present & state.face_up) >> pos & 1:
        return Rejection("card_not_available", f"{CATALOG.name(str(card))} is not a face-up card of the structure")
    if present & COVER[state.age - 1][pos]:
        return Rejection("card_not_accessible", f"{CATALOG.name(card)} is still covered by other cards (§4)")
    return pos


def market_of(state: State, seat: int, mine: Profile, theirs: Profile) -> Market:
    """The market `seat` buys on this turn: its supply with its wonders' production,
    Masonry / Architecture (the 2 units they waive, §6.5), the opponent's prices (§6.3)."""
    city = state.cities[seat]
    tokens = city.tokens
    return market(mine.supply, city.built, theirs.produce, "masonry" in tokens, "architecture" in tokens)


Turn = tuple[City, City, Profile, Profile, Market]
"""What `seat` builds with in a state: its city, the opponent's, their profiles, its market."""
_LAST_TURN: list[tuple[State, int, Turn]] = [(State(), -1, None)]  # type: ignore[list-item]


def turn(state: State, seat: int) -> Turn:
    """`seat`'s city, the opponent's, their profiles and `seat`'s market, remembered for
    the last (state, seat) asked: legal_commands and then decide ask for the same one."""
    last = _LAST_TURN[0]
    if last[0] is state and last[1] == seat:
        return last[2]
    city, opp = state.cities[seat], state.cities[1 - seat]
    mine, theirs = profile(city.cards), profile(opp.cards)
    tokens = city.tokens
    got = (city, opp, mine, theirs,
           market(mine.supply, city.built, theirs.produce, "masonry" in tokens, "architecture" in tokens))
    _LAST_TURN[0] = (state, seat, got)  # one assignment: the slot always holds a consistent triple
    return got


def build_price(state: State, seat: int, spec: Spec, mine: Profile, trade: Market) -> tuple[bool, int, int]:
    """(via chain, coins paid, part of them going to the opponent) for a building (§6)."""
    if spec.chain is not None and CHAIN_BIT[spec.chain] & mine.chains:
        return True, 0, 0
    cost = trade_for(trade, spec.id)
    return False, spec.coins + cost, cost if "economy" in state.cities[1 - seat].tokens else 0


def wonder_price(state: State, seat: int, wonder: str, trade: Market) -> tuple[int, int]:
    """(coins paid, part of them going to the opponent) for a wonder (§5 C, §6.5)."""
    cost = trade_for(trade, wonder)
    return cost, cost if "economy" in state.cities[1 - seat].tokens else 0


def _build_card(state: State, seat: int, cmd: BuildCard) -> Events | Rejection:
    pos = _locate(state, cmd.card)
    if not isinstance(pos, int):  # a Rejection (isinstance on int is the fast test)
        return pos
    city, opp, mine, theirs, trade = turn(state, seat)
    spec = SPEC[cmd.card]
    chain, paid, to_opp = build_price(state, seat, spec, mine, trade)
    if paid > city.coins:
        return Rejection("cannot_afford", f"{spec.name} costs you {count(paid, 'coin')} and you have {city.coins} "
                                          f"(unit prices: {describe_prices(trade.supply, theirs)})")
    gained = income(spec, city, opp) if spec.id in INCOME else spec.gain
    if chain and "urbanism" in city.tokens:
        gained += URBANISM
    out: Events = [replace(_CARD_BUILT, seat=seat, card=cmd.card, position=pos, via="chain" if chain else "cost",
                           paid=paid, to_opponent=to_opp, gained=gained)]
    present = state.present & ~(1 << pos)
    _reveal(state, pos, present, out)
    pawn = state.pawn
    if spec.shields or spec.symbol is not None:
        pawn = construction_effects(state, seat, spec, mine.symbols, opp.coins + to_opp, out)
        if pawn is None:
            return out
    return turn_end(state, seat, out, present, False, pawn)


def _discard_card(state: State, seat: int, cmd: DiscardCard) -> Events | Rejection:
    pos = _locate(state, cmd.card)
    if not isinstance(pos, int):  # a Rejection (isinstance on int is the fast test)
        return pos
    city = state.cities[seat]
    gained = DISCARD_BASE + profile(city.cards).counts[_YELLOW]
    out: Events = [replace(_CARD_DISCARDED, seat=seat, card=cmd.card, position=pos, gained=gained)]
    present = state.present & ~(1 << pos)
    _reveal(state, pos, present, out)
    return turn_end(state, seat, out, present, False, state.pawn)


def _build_wonder(state: State, seat: int, cmd: BuildWonder) -> Events | Rejection:
    bad = _not_taking(state)
    if bad is not None:
        return bad
    city, opp = state.cities[seat], state.cities[1 - seat]
    if cmd.wonder not in city.wonders:
        if cmd.wonder in state.wonders_out and cmd.wonder in state.draft:
            return Rejection("wonder_removed", "seven wonders are built: the last one left the game (§5)")
        if cmd.wonder in city.built:
            return Rejection("wonder_already_built", f"{CATALOG.name(cmd.wonder)} is already built")
        return Rejection("not_your_wonder", f"{CATALOG.name(str(cmd.wonder))} is not one of your unbuilt wonders")
    pos = _locate(state, cmd.card)
    if not isinstance(pos, int):  # a Rejection (isinstance on int is the fast test)
        return pos
    spec = SPEC[cmd.wonder]
    _, _, _, theirs, trade = turn(state, seat)
    paid, to_opp = wonder_price(state, seat, cmd.wonder, trade)
    if paid > city.coins:
        return Rejection("cannot_afford", f"{spec.name} costs you {count(paid, 'coin')} and you have {city.coins} "
                                          f"(unit prices: {describe_prices(trade.supply, theirs)})")
    opp_coins = opp.coins + to_opp
    lost = min(spec.opponent_loses, opp_coins)  # §12 The Appian Way: all if fewer
    extra = spec.extra_turn or "theology" in city.tokens  # §13 Theology, §15 #1
    out: Events = [replace(_WONDER_BUILT, seat=seat, wonder=cmd.wonder, card=cmd.card, position=pos, paid=paid,
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
        pawn = move_pawn(state, seat, spec.shields, opp_coins - lost, out)
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
    return turn_end(state, seat, out, present, extra, pawn)


def _reveal(state: State, pos: int, present: int, out: Events) -> None:
    """Turn face up every face-down card that taking `pos` made accessible (§4): only
    the cards it covered can be newly uncovered."""
    age = state.age
    reach = REACHABLE[age - 1].get(present)
    reachable = reach[0] if reach is not None else accessible_mask(age, present)
    new = reachable & COVERS_MASK[age - 1][pos] & ~state.face_up
    if new:
        positions = bits(new)
        structure = state.structures[age - 1]
        cards = tuple([structure[p] for p in positions])
        out.append(replace(_CARDS_REVEALED, age=age, positions=positions, cards=cards))


# --- legal commands ---------------------------------------------------------------------


_START = [ChooseStartPlayer(start="me"), ChooseStartPlayer(start="opponent")]
# Commands are frozen values: legal_commands hands out shared instances (the hot path).
_DRAFT = {w: DraftWonder(wonder=w) for w in CATALOG.wonders}
_ROW = {c: (CHAIN_BIT.get(SPEC[c].chain, 0), SPEC[c].coins, sum(SPEC[c].need), BuildCard(card=c),
            DiscardCard(card=c), {w: BuildWonder(wonder=w, card=c) for w in CATALOG.wonders})
        for c in CATALOG.cards}
"""card -> (bit of the chain symbol that makes it free, coin cost, resource units of the cost,
its build, its discard, its wonder builds)."""
_WONDER_UNITS = {w: sum(SPEC[w].need) for w in CATALOG.wonders}
"""wonder -> resource units of its cost."""


@lru_cache(maxsize=1 << 10)


def _by_name(ids: tuple[str, ...]) -> tuple[str, ...]:
    """The ids sorted (a city's unbuilt wonders: a handful of tuples per game)."""
    return tuple(sorted(ids))


def legal_commands(state: State, seat: int) -> list[Command_]:
    """Every legal command of `seat` now, in a deterministic order: for each accessible
    card by position, its build (if affordable), its discard, then each affordable
    unbuilt wonder with it; a decision's options in sorted order."""
    p = state.pending
    if p is not None:  # the same seat as to_act's, without building its tuple
        if seat != p.seat:
            return []
        if p.kind == "choose_start":
            return list(_START)
        if p.kind == "destroy":
            return [DestroyCard(card=c) for c in p.options]
        if p.kind == "mausoleum":
            return [BuildFromDiscard(card=c) for c in p.options]
        return [ChooseProgressToken(token=t) for t in sorted(p.options)]
    if state.phase != "play":
        if state.phase != "draft" or seat != drafter(state):
            return []
        return [_DRAFT[w] for w in sorted(offered(state))]
    if seat != state.current:
        return []
    city, _, mine, _, trade = turn(state, seat)
    costs = trade.costs
    coins = city.coins
    # a price is only computed when the coins could fall short: buying every unit at the
    # dearest unit price is the most a construction can cost (§6.3)
    dearest = trade.dearest
    rich = coins // dearest
    wonders = []  # (a loop, not a comprehension: this runs about 50 times a game)
    if city.wonders:
        for w in _by_name(city.wonders):
            if _WONDER_UNITS[w] <= rich or (costs[w] if w in costs else trade_for(trade, w)) <= coins:
                wonders.append(w)
    age = state.age
    structure = state.structures[age - 1]
    chains = mine.chains
    reach = REACHABLE[age - 1].get(state.present)
    out: list[Command_] = []
    for pos in reach[1] if reach is not None else accessible(age, state.present):
        card = structure[pos]
        chain, price, units, build, discard, row = _ROW[card]
        # the same test as build_price, through the market's table: the hot path
        if chain & chains or price + units * dearest <= coins:
            out.append(build)
        else:
            trade_coins = costs.get(card)
            if trade_coins is None:
                trade_coins = trade_for(trade, card)
            if price + trade_coins <= coins:
                out.append(build)
        out.append(discard)
        for w in wonders:
            out.append(row[w])
    return out


_DECIDE = {
    BuildCard: _build_card, DiscardCard: _discard_card, BuildWonder: _build_wonder, DraftWonder: _draft_wonder,
    ChooseProgressToken: choose_progress_token, DestroyCard: destroy_card, BuildFromDiscard: build_from_discard,
    ChooseStartPlayer: choose_start_player,
}
"""One handler per command type (a dictionary: isinstance on Struct classes is slow)."""
assert set(_DECIDE) == set(get_args(Command_)), "every command needs its handler"
