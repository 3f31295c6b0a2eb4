"""7 Wonders' hooks: the coins the bank pays for an event computed apart from the
engine (§4 C, §10), every dealt card ends in one place (§3, §4), its refusals, its fuzz
language and its scramble of hidden information. SW_GAMES (default 200) random games
per player count, SW_SOAK (500) in the slow soak."""

from __future__ import annotations

import random

import msgspec
from hypothesis import strategies as st
from msgspec.structs import replace

from games.seven_wonders import GAME
from games.seven_wonders.boards import stage
from games.seven_wonders.catalog import CATALOG, Coins, CoinsPer
from games.seven_wonders.commands import Build, BuildFromDiscard, BuildStage, Decline, Discard
from games.seven_wonders.events import DiscardBuilt, Play, SeventhCardPlayed, TurnResolved
from games.seven_wonders.rules import free_city, holder
from games.seven_wonders.scoring import count, left_of, right_of
from tests.unit.games.hooks import Hooks, knob

ALL_KEYS = sorted(CATALOG.by_key)


def _created_coins(before, after, event) -> int:
    """Coins the bank pays out for `event`, computed independently of the engine's
    bookkeeping (§4 C: 3 per discard; §10: coin effects counted after placement)."""
    plays = event.plays if isinstance(event, TurnResolved) else (event.play,) if isinstance(event, SeventhCardPlayed) else ()
    cities = after.cities
    n = len(cities)
    total = 0
    for p in plays:
        if p.action == "discard":
            total += 3
            continue
        if p.action == "stage":
            c = before.cities[p.seat]  # a placeholder board's alternative is the one the play names
            effects = stage(c.wonder, c.side, c.stages, 0 if p.option is msgspec.UNSET else p.option)
        else:
            effects = CATALOG.cards[p.card].effects
        total += _coin_effects(effects, cities, p.seat, n)
    if isinstance(event, DiscardBuilt):
        total += _coin_effects(CATALOG.cards[event.card].effects, cities, event.seat, n)
    return total


def _coin_effects(effects, cities, seat, n) -> int:
    got = 0
    for e in effects:
        if isinstance(e, Coins):
            got += e.amount
        elif isinstance(e, CoinsPer):
            where = {"self": seat, "left": left_of(seat, n), "right": right_of(seat, n)}
            got += e.amount * sum(count(cities[where[c]], k) for c in e.cities for k in e.count)
    return got


def after_event(state, new, e) -> None:
    """Coins the bank creates are exactly those the rules pay; no city goes below 0."""
    if isinstance(e, (TurnResolved, SeventhCardPlayed, DiscardBuilt)):
        paid_to_bank = sum(p.bank for p in (e.plays if isinstance(e, TurnResolved) else
                                            (e.play,) if isinstance(e, SeventhCardPlayed) else ()))
        assert sum(e.coins) == _created_coins(state, new, e) - paid_to_bank, e
    assert all(c.coins >= 0 for c in new.cities), "negative coins"


def at_end(state, events) -> None:
    """Every physical card of the three deals ends in exactly one place (§3, §4)."""
    dealt = sorted(c for age in state.deals for hand in age for c in hand)
    placed = sorted([*state.discard, *(c for city in state.cities for c in (*city.built, *city.stage_cards))])
    assert dealt == placed


def illegal(state, seat, rng: random.Random, legal):
    """Commands that must be refused now."""
    hand = {CATALOG.cards[c].key for c in state.hands[seat]}
    missing = [k for k in ALL_KEYS if k not in hand]
    yield Discard(card=rng.choice(missing))
    yield Build(card=rng.choice(missing))
    if hand:
        yield Build(card=sorted(hand)[0], left=97, right=0)
        yield BuildStage(card=sorted(hand)[0], left=0, right=98)
    yield BuildFromDiscard(card=rng.choice(ALL_KEYS)) if state.pending is None else Discard(card=rng.choice(missing))
    others = [s for s in range(state.players) if s not in GAME.to_act(state)]
    if others:
        yield ("seat", rng.choice(others))


def scramble(state, seat, rng: random.Random):
    """Another state that differs from `state` only in what `seat` (None: a spectator)
    may not see: the other hands (but the Free City's while `seat` decides for it), the
    other seats' hidden choices (an Edifice
    contribution too), the cards under other wonders, the discard pile (unless `seat`
    is choosing from it), the deals."""
    seat = -1 if seat is None else seat
    every = sorted(CATALOG.cards)
    fc = free_city(state)
    decides_for_fc = fc is not None and state.pending is not None and state.pending.seat == seat \
        and state.pending.city == fc  # the controller decides from the Free City's hand it chose from (§12)
    hands = tuple(
        h if s == seat or (s == fc and decides_for_fc) else tuple(rng.choice(every) for _ in h)
        for s, h in enumerate(state.hands)
    )
    sees_fc = fc is not None and state.phase == "choose" and holder(state) == seat  # §12: the holder chose it
    chosen = tuple(
        c if s == seat or c is None or (s == fc and sees_fc)
        else Play(seat=s, card=rng.choice(every), action=rng.choice(["build", "discard"]))
        if rng.random() < 0.5 else Play(seat=s, card=rng.choice(every), action="stage", bank=1, join=True)  # Edifice
        for s, c in enumerate(state.chosen)
    )
    cities = tuple(
        c if s == seat else replace(c, stage_cards=tuple(rng.choice(every) for _ in c.stage_cards))
        for s, c in enumerate(state.cities)
    )
    discard = state.discard
    if not (state.pending is not None and state.pending.seat == seat and state.pending.kind == "discard_build"):
        discard = tuple(rng.choice(every) for _ in state.discard)
    deals = tuple(tuple(tuple(rng.choice(every) for _ in h) for h in age) for age in state.deals)
    return replace(state, hands=hands, chosen=chosen, cities=cities, discard=discard, deals=deals)


def decide_scramble(state, seat: int, rng: random.Random):
    """`scramble`, made consistent for `decide`: another seat's hidden choice becomes a
    discard of a card its (scrambled) hand holds, so that the last chooser's decision can
    resolve the turn."""
    other = scramble(state, seat, rng)
    hands = [list(h) for h in other.hands]
    used = [0] * len(hands)
    chosen = list(other.chosen)
    for s, (was, now) in enumerate(zip(state.chosen, other.chosen)):
        if was is None or now == was:
            continue
        owner = s if was.hand is None else was.hand
        if owner == seat:
            chosen[s] = was
            continue
        hands[owner][used[owner]] = now.card
        used[owner] += 1
        chosen[s] = Play(seat=s, card=now.card, action="discard", hand=was.hand)
    return replace(other, hands=tuple(tuple(h) for h in hands), chosen=tuple(chosen))


fuzz = st.one_of(
    st.builds(Build, card=st.sampled_from(ALL_KEYS + ["nonsense"]), left=st.none() | st.integers(-3, 20),
              right=st.none() | st.integers(-3, 20), free=st.booleans()),
    st.builds(BuildStage, card=st.sampled_from(ALL_KEYS), left=st.none() | st.integers(-3, 20),
              right=st.none() | st.integers(-3, 20)),
    st.builds(Discard, card=st.sampled_from(ALL_KEYS + [""]), free_city=st.booleans()),
    st.builds(BuildFromDiscard, card=st.sampled_from(ALL_KEYS)),
    st.just(Decline()),
)

HOOKS = Hooks(
    games=knob("SW_GAMES", 200), soak=knob("SW_SOAK", 500), per_players=True, check_games=25, check_steps=1,
    max_steps=400, one_at_a_time=False, fuzz=fuzz, scramble=scramble, illegal=illegal, after_event=after_event,
    at_end=at_end, prefix_steps=50, decide_scramble=decide_scramble,
)
