"""A 7 Wonders play checked against the state at the start of the turn (§4, §6, §7 step 2):
the card in hand, a build (resources, chain, free build), a wonder stage (its option, joining
the edifice) or a discard, its payment, and the coins each seat nets from the turn's plays.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.contract import Rejection
from games.seven_wonders.boards import BOARDS, stage
from games.seven_wonders.catalog import CATALOG, Coins, CoinsPer, FreeBuildOncePerAge, vec
from games.seven_wonders.commands import Build, BuildStage, Discard
from games.seven_wonders.edifice import EDIFICE, TakePawn
from games.seven_wonders.edifice_rules import join_refusal
from games.seven_wonders.events import Play, TurnResolved
from games.seven_wonders.evolve import evolve
from games.seven_wonders.payment import Way, info, shortfall_message, stage_effects, way_paying, ways
from games.seven_wonders.scoring import left_of, per, right_of
from games.seven_wonders.state import City, State
from games.words import count


DISCARD_COINS = 3  # §4 C


def find_card(hand: tuple[str, ...], key: str) -> str | None:
    """The id of a card of `hand` named `key` (a card key or id)."""
    for cid in hand:
        if cid == key or CATALOG.key[cid] == key:
            return cid
    return None


def neighbours(state: State, seat: int) -> tuple[City, City, City]:
    n = len(state.cities)
    return state.cities[seat], state.cities[left_of(seat, n)], state.cities[right_of(seat, n)]


def free_build_ready(state: State, seat: int) -> bool:
    """Olympia A stage 2: once per age, not yet used in this one (§11.6, §15 #6)."""
    city = state.cities[seat]
    has = any(isinstance(e, FreeBuildOncePerAge) for e in stage_effects(city))
    return has and city.free_build_age != state.age


def command_play(state: State, seat: int, cmd: Build | BuildStage | Discard, cards: tuple[str, ...],
          owner: int) -> Play | Rejection:
    """The play of city `seat` with a card of `cards` (held in `owner`'s hand)."""
    cid = find_card(cards, cmd.card)
    if cid is None:
        return Rejection("card_not_in_hand", f"{card_name(cmd.card)} is not in your hand")
    play = _resolve(state, seat, cmd, cid)
    if isinstance(play, Play) and owner != seat:
        return replace(play, hand=owner)
    return play


def _resolve(state: State, seat: int, cmd: Build | BuildStage | Discard, cid: str) -> Play | Rejection:
    if isinstance(cmd, Discard):
        return Play(seat=seat, card=cid, action="discard")
    if (cmd.left is None) != (cmd.right is None):
        return Rejection("bad_payment", "name the coins for both neighbours (pay left N right M), or pay cheapest")
    me, left, right = neighbours(state, seat)
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
                f"cannot afford {name}: the cheapest way costs {count(w.total + bank, 'coin')} "
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
        return Rejection("cannot_afford", f"paying {count(found.total + bank, 'coin')} for {name} needs more than your {me.coins}")
    return found


def free_city_forced(state: State, city: int, cards: tuple[str, ...], play: Play) -> Rejection | None:
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
    me, left, right = neighbours(state, city)
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


def built_stage(state: State, p: Play) -> tuple:
    """The effects of the stage `p` builds (the alternative it picked, on Carthage)."""
    city = state.cities[p.seat]
    return stage(city.wonder, city.side, city.stages, p.option if isinstance(p.option, int) else 0)


def settle(state: State, plays: list[Play], placed: tuple[City, ...] | None = None) -> tuple[int, ...]:
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
        effects = built_stage(state, p)
    else:
        effects = CATALOG.cards[p.card].effects
    return coins_of(effects, placed, p.seat)


def coins_of(effects, cities: tuple[City, ...], seat: int) -> int:
    total = 0
    for e in effects:
        if isinstance(e, Coins):
            total += e.amount
        elif isinstance(e, CoinsPer):
            total += per(e, cities, seat)  # type: ignore[arg-type]
    return total


def card_name(key: str) -> str:
    ids = CATALOG.by_key.get(key) or ((key,) if key in CATALOG.cards else ())
    return CATALOG.cards[ids[0]].name if ids else repr(key)
