"""Random legal play of 7 Wonders: seeded soak over every player count plus Hypothesis
prefixes and a fuzz of `decide`. The soak's game count comes from SW_GAMES (default 200 per
player count; CI-sized), so a long run is `SW_GAMES=1000 pytest -k random_play`."""

from __future__ import annotations

import os
import random

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.contract import Rejection, Seed
from games.fold import replay
from games.seven_wonders import GAME
from games.seven_wonders.catalog import CATALOG, Coins, CoinsPer
from games.seven_wonders.commands import Build, BuildFromDiscard, BuildStage, Decline, Discard
from games.seven_wonders.events import DiscardBuilt, SeventhCardPlayed, TurnResolved
from games.seven_wonders.scoring import count, left_of, right_of

GAMES_PER_COUNT = int(os.environ.get("SW_GAMES", "200"))
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
            c = before.cities[p.seat]
            effects = CATALOG.wonders[c.wonder].sides[c.side].stages[c.stages].effects
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


def _illegal_samples(state, seat, rng: random.Random):
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


def play_one(players: int, seed: int, check_legal: bool) -> None:
    rng = random.Random(seed)
    preset = "2p_free_city" if players == 2 else f"{players}p"
    events = list(GAME.setup(GAME.presets[preset], Seed(seed.to_bytes(8, "big"))))
    state = replay(GAME, events)
    for _ in range(400):
        if GAME.result(state) is not None:
            break
        seats = GAME.to_act(state)
        assert seats
        seat = rng.choice(seats)
        cmds = GAME.legal_commands(state, seat)
        assert cmds, "a seat that must act has no legal command"
        if check_legal:
            for cmd in cmds:
                assert not isinstance(GAME.decide(state, seat, cmd), Rejection), cmd
            for bad in _illegal_samples(state, seat, rng):
                if isinstance(bad, tuple):
                    out = GAME.decide(state, bad[1], cmds[0])
                else:
                    if bad in cmds:
                        continue
                    out = GAME.decide(state, seat, bad)
                assert isinstance(out, Rejection), bad
        out = GAME.decide(state, seat, rng.choice(cmds))
        assert not isinstance(out, Rejection), out
        for e in out:
            new = GAME.evolve(state, e)
            if isinstance(e, (TurnResolved, SeventhCardPlayed, DiscardBuilt)):
                paid_to_bank = sum(p.bank for p in (e.plays if isinstance(e, TurnResolved) else
                                                    (e.play,) if isinstance(e, SeventhCardPlayed) else ()))
                assert sum(e.coins) == _created_coins(state, new, e) - paid_to_bank, e
            assert all(c.coins >= 0 for c in new.cities), "negative coins"
            state = new
        events += out
    else:
        pytest.fail("game did not end")
    assert replay(GAME, events) == state
    res = GAME.result(state)
    assert res is not None and all(t == sum(r) for t, r in zip(res.totals, res.scores))
    # every physical card of the three deals ends in exactly one place (§3, §4)
    dealt = sorted(c for age in state.deals for hand in age for c in hand)
    placed = sorted([*state.discard, *(c for city in state.cities for c in (*city.built, *city.stage_cards))])
    assert dealt == placed


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_reach_the_end(players: int) -> None:
    for i in range(GAMES_PER_COUNT):
        play_one(players, seed=players * 100_000 + i, check_legal=i % 25 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_soak(players: int) -> None:
    for i in range(int(os.environ.get("SW_SOAK", "500"))):
        play_one(players, seed=players * 1_000_000 + i, check_legal=i % 5 == 0)


commands = st.one_of(
    st.builds(Build, card=st.sampled_from(ALL_KEYS + ["nonsense"]), left=st.none() | st.integers(-3, 20),
              right=st.none() | st.integers(-3, 20), free=st.booleans()),
    st.builds(BuildStage, card=st.sampled_from(ALL_KEYS), left=st.none() | st.integers(-3, 20),
              right=st.none() | st.integers(-3, 20)),
    st.builds(Discard, card=st.sampled_from(ALL_KEYS + [""]), free_city=st.booleans()),
    st.builds(BuildFromDiscard, card=st.sampled_from(ALL_KEYS)),
    st.just(Decline()),
)


@given(seed=st.binary(min_size=4, max_size=16), players=st.integers(2, 7), data=st.data())
def test_random_prefixes_keep_the_invariants(seed: bytes, players: int, data) -> None:
    """Hypothesis-driven prefixes (shrinkable): legal commands are accepted, fuzzed commands
    give events or a Rejection and never raise, and replay equals the incremental state."""
    events = list(GAME.setup(GAME.presets["2p_free_city" if players == 2 else f"{players}p"], Seed(seed)))
    state = replay(GAME, events)
    for _ in range(data.draw(st.integers(1, 50))):
        seat = data.draw(st.sampled_from(GAME.to_act(state)))
        fuzz = data.draw(commands)
        out = GAME.decide(state, data.draw(st.integers(-1, players)), fuzz)
        assert isinstance(out, (list, Rejection))
        cmd = data.draw(st.sampled_from(GAME.legal_commands(state, seat)))
        out = GAME.decide(state, seat, cmd)
        assert not isinstance(out, Rejection), out
        events += out
        for e in out:
            state = GAME.evolve(state, e)
        if GAME.result(state) is not None:
            break
    assert replay(GAME, events) == state
    assert msgspec.json.decode(msgspec.json.encode(events), type=list[GAME.events]) == events
