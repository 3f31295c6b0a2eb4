"""Random legal play of 7 Wonders Duel: a seeded soak over both presets plus Hypothesis
prefixes and a fuzz of `decide`. The soak's game count comes from DUEL_GAMES (default
300 per preset, a few seconds), so a long run is `DUEL_GAMES=5000 pytest -k random_play`."""

from __future__ import annotations

import os
import random

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.contract import Rejection, Seed
from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.commands import (
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStartPlayer,
    DestroyCard,
    DiscardCard,
    DraftWonder,
)
from games.seven_wonders_duel.events import (
    CardBuilt,
    CardDestroyed,
    CardDiscarded,
    GameEnded,
    WonderBuilt,
    WonderRemoved,
)
from games.seven_wonders_duel.rules import accessible

GAMES_PER_PRESET = int(os.environ.get("DUEL_GAMES", "300"))
CARDS = sorted(CATALOG.cards)
WONDERS = sorted(CATALOG.wonders)
TOKENS = sorted(CATALOG.tokens)
ENC = msgspec.json.Encoder()
DEC = msgspec.json.Decoder(GAME.events)


def _illegal_samples(state, seat, rng: random.Random):
    """Commands that must be refused now (never in legal_commands)."""
    age = max(state.age, 1)
    reach = set(accessible(age, state.present)) if state.phase == "play" else set()
    structure = state.structures[age - 1]
    hidden = [structure[p] for p in range(20) if state.present >> p & 1 and p not in reach]
    gone = [c for c in CARDS if c not in structure or not state.present >> structure.index(c) & 1]
    for c in (rng.choice(hidden),) if hidden else ():
        yield BuildCard(card=c)
        yield DiscardCard(card=c)
    yield DiscardCard(card=rng.choice(gone))
    yield BuildCard(card="nonsense")
    other = state.cities[1 - seat].wonders + state.cities[1 - seat].built
    if other:
        yield BuildWonder(wonder=rng.choice(other), card=structure[min(reach)] if reach else CARDS[0])
    if state.pending is None:
        yield ChooseProgressToken(token=rng.choice(TOKENS))
        yield ChooseStartPlayer(start="me")
        yield DestroyCard(card=rng.choice(CARDS))
    else:
        yield DiscardCard(card=rng.choice(CARDS))
    if state.phase != "draft":
        yield DraftWonder(wonder=rng.choice(WONDERS))
    yield ("seat", 1 - seat)


def _check_event_books(state, new, e) -> None:
    """Coins move only as the event says; the seven-wonder limit holds."""
    before = [c.coins for c in state.cities]
    after = [c.coins for c in new.cities]
    assert all(c >= 0 for c in after), ("negative coins", e)
    if isinstance(e, (CardBuilt, WonderBuilt)):
        assert after[e.seat] - before[e.seat] == e.gained - e.paid
        assert 0 <= e.to_opponent <= e.paid
    if isinstance(e, CardDiscarded):
        assert e.gained == 2 + sum(1 for c in state.cities[e.seat].cards if CATALOG.cards[c].color == "yellow")
    assert sum(len(c.built) for c in new.cities) <= 7


def play_one(preset: str, seed: int, check_legal: bool) -> None:
    rng = random.Random(seed)
    events = list(GAME.setup(GAME.presets[preset], Seed(seed.to_bytes(8, "big"))))
    state = replay(GAME, events)
    for _ in range(200):
        if GAME.result(state) is not None:
            break
        seats = GAME.to_act(state)
        assert len(seats) == 1
        seat = seats[0]
        cmds = GAME.legal_commands(state, seat)
        assert cmds, "a seat that must act has no legal command"
        assert cmds == GAME.legal_commands(state, seat), "legal_commands is not deterministic"
        if check_legal:
            for cmd in cmds:
                assert not isinstance(GAME.decide(state, seat, cmd), Rejection), cmd
            for bad in _illegal_samples(state, seat, rng):
                out = GAME.decide(state, bad[1], cmds[0]) if isinstance(bad, tuple) else GAME.decide(state, seat, bad)
                assert isinstance(out, Rejection), bad
        out = GAME.decide(state, seat, rng.choice(cmds))
        assert not isinstance(out, Rejection), out
        for e in out:
            if check_legal:
                assert DEC.decode(ENC.encode(e)) == e
            new = GAME.evolve(state, e)
            _check_event_books(state, new, e)
            state = new
        events += out
    else:
        pytest.fail("game did not end")
    assert replay(GAME, events) == state
    res = GAME.result(state)
    assert res is not None and all(t == sum(r) for t, r in zip(res.totals, res.scores))
    end = events[-1]
    assert isinstance(end, GameEnded)
    if end.victory == "military":
        assert abs(state.pawn) == 9
    # every card of the three structures ends in exactly one place (§3, §5)
    dealt = sorted(c for s in state.structures for c in s)
    left = [state.structures[state.age - 1][p] for p in range(20) if state.present >> p & 1]
    later = [c for a in range(state.age, 3) for c in state.structures[a]]
    placed = sorted([*state.discard, *left, *later, *(c for city in state.cities for c in (*city.cards, *city.tucked))])
    assert dealt == placed
    removed = [e for e in events if isinstance(e, WonderRemoved)]
    assert len(removed) <= 1 and (not removed or sum(len(c.built) for c in state.cities) == 7)
    assert sum(1 for e in events if isinstance(e, CardDestroyed)) <= 2


@pytest.mark.parametrize("preset", list(GAME.presets))
def test_random_games_reach_the_end(preset: str) -> None:
    for i in range(GAMES_PER_PRESET):
        play_one(preset, seed=(1 + list(GAME.presets).index(preset)) * 100_000 + i, check_legal=i % 10 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(GAME.presets))
def test_random_games_soak(preset: str) -> None:
    for i in range(int(os.environ.get("DUEL_SOAK", "3000"))):
        play_one(preset, seed=7_000_000 + i, check_legal=i % 5 == 0)


def test_random_games_reach_every_ending() -> None:
    """Civilian, military and scientific victories all occur in random play."""
    seen = set()
    for i in range(400):
        rng = random.Random(i)
        state = replay(GAME, GAME.setup(GAME.presets["2p"], Seed(b"end" + i.to_bytes(4, "big"))))
        while GAME.result(state) is None:
            seat = GAME.to_act(state)[0]
            cmds = GAME.legal_commands(state, seat)
            # lean on military and science so that supremacies happen
            pref = [c for c in cmds if isinstance(c, BuildCard) and CATALOG.cards[c.card].color in ("red", "green")]
            for e in GAME.decide(state, seat, rng.choice(pref or cmds)):
                state = GAME.evolve(state, e)
        seen.add(state.victory)
        if len(seen) == 3:
            break
    assert seen == {"civilian", "military", "science"}


names = st.sampled_from(CARDS + WONDERS + TOKENS + ["", "nonsense", "The Pyramids"])
commands = st.one_of(
    st.builds(DraftWonder, wonder=names), st.builds(BuildCard, card=names), st.builds(DiscardCard, card=names),
    st.builds(BuildWonder, wonder=names, card=names), st.builds(ChooseProgressToken, token=names),
    st.builds(DestroyCard, card=names), st.builds(BuildFromDiscard, card=names),
    st.builds(ChooseStartPlayer, start=st.sampled_from(["me", "opponent", "later", ""])),
    st.builds(BuildCard, card=st.text(max_size=12)),
)


@given(seed=st.binary(min_size=4, max_size=16), preset=st.sampled_from(list(GAME.presets)), data=st.data())
def test_random_prefixes_keep_the_invariants(seed: bytes, preset: str, data) -> None:
    """Hypothesis-driven prefixes (shrinkable): legal commands are accepted, fuzzed commands
    give events or a Rejection and never raise, replay equals the incremental state."""
    events = list(GAME.setup(GAME.presets[preset], Seed(seed)))
    state = replay(GAME, events)
    for _ in range(data.draw(st.integers(1, 60))):
        seat = GAME.to_act(state)[0]
        fuzz = data.draw(commands)
        out = GAME.decide(state, data.draw(st.integers(-1, 2)), fuzz)
        assert isinstance(out, (list, Rejection))
        if isinstance(out, list):
            assert fuzz in GAME.legal_commands(state, seat), fuzz
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


@given(text=st.text(max_size=40))
def test_parse_command_never_raises(text: str) -> None:
    out = GAME.parse_command(text)
    if not isinstance(out, Rejection):
        assert GAME.parse_command(GAME.format_command(out)) == out
