"""Secrecy: a seat's view never depends on what it may not see (ARCHITECTURE: hidden
information never leaks). We change every secret of the other seats and check the view
is byte for byte the same."""

from __future__ import annotations

import random

import msgspec
from msgspec.structs import replace

from games.contract import Seed
from games.fold import replay
from games.seven_wonders import GAME
from games.seven_wonders.catalog import CATALOG
from games.seven_wonders.events import Play
from games.seven_wonders.rules import free_city, holder


def _scramble(state, seat, rng: random.Random):
    """Another state that differs from `state` only in what `seat` may not see."""
    others = [s for s in range(state.players) if s != seat]
    every = sorted(CATALOG.cards)
    hands = tuple(
        h if s == seat else tuple(rng.choice(every) for _ in h) for s, h in enumerate(state.hands)
    )
    fc = free_city(state)
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
    assert others
    return replace(state, hands=hands, chosen=chosen, cities=cities, discard=discard, deals=deals)


def test_views_do_not_depend_on_hidden_information() -> None:
    enc = msgspec.json.encode
    checked = 0
    for preset in ["2p_free_city", *(f"{n}p" for n in range(3, 8)), "4p_edifice", "6p_edifice", "7p_edifice_all_boards"]:
        players = GAME.presets[preset].players
        rng = random.Random(preset)
        state = replay(GAME, GAME.setup(GAME.presets[preset], Seed(bytes([players]) * 8)))
        while GAME.result(state) is None:
            seat = rng.choice(GAME.to_act(state))
            for who in (None, *range(players)):
                other = _scramble(state, -1 if who is None else who, rng)
                assert enc(GAME.view(state, who)) == enc(GAME.view(other, who)), (preset, who)
                checked += 1
            for e in GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat))):
                state = GAME.evolve(state, e)
    assert checked > 1000


def test_spectator_sees_no_hand_and_no_choice() -> None:
    state = replay(GAME, GAME.setup(GAME.presets["4p"], Seed(b"spectator")))
    seat = GAME.to_act(state)[0]
    for e in GAME.decide(state, seat, GAME.legal_commands(state, seat)[0]):
        state = GAME.evolve(state, e)
    v = GAME.view(state, None)
    assert v.hand is None and v.choice is None and v.discard is None
    assert v.cities[seat].chosen is True
    mine = GAME.view(state, seat)
    assert mine.choice is not None and mine.hand is not None
