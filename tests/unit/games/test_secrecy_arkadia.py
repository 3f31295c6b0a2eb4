"""Secrecy: a seat's view never depends on what it may not see (arkadia.md §10). We change
every secret of the other seats (hand contents, workers and neutral workers held, seals,
gold) and the order of the draw pile, and check the view is byte for byte the same."""

from __future__ import annotations

import random

import msgspec
from msgspec.structs import replace

from games.arkadia import GAME
from games.arkadia.catalog import CATALOG
from games.contract import Seed
from games.fold import replay


def _scramble(state, seat: int, rng: random.Random):
    """Another state that differs from `state` only in what `seat` may not see."""
    every = sorted(CATALOG.cards)
    screens = tuple(
        sc if s == seat else replace(
            sc, hand=tuple(rng.choice(every) for _ in sc.hand), workers=rng.randrange(12),
            neutral=rng.randrange(25), seals=tuple(rng.randrange(30) for _ in range(4)), gold=rng.randrange(200))
        for s, sc in enumerate(state.screens)
    )
    pile = tuple(rng.sample(state.pile, len(state.pile)))
    return replace(state, screens=screens, pile=pile)


def test_views_do_not_depend_on_hidden_information() -> None:
    enc = msgspec.json.encode
    checked = 0
    for players in (2, 3, 4):
        rng = random.Random(players)
        state = replay(GAME, GAME.setup(GAME.presets[f"{players}p"], Seed(bytes([players]) * 8)))
        while GAME.result(state) is None:
            (seat,) = GAME.to_act(state)
            for who in (None, *range(players)):
                other = _scramble(state, -1 if who is None else who, rng)
                assert enc(GAME.view(state, who)) == enc(GAME.view(other, who)), (players, who)
                assert GAME.render(GAME.view(state, who)) == GAME.render(GAME.view(other, who))
                checked += 1
            for e in GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat))):
                state = GAME.evolve(state, e)
    assert checked > 1000


def test_a_seat_sees_its_own_screen_and_nobody_elses() -> None:
    state = replay(GAME, GAME.setup(GAME.presets["4p"], Seed(b"screens")))
    for seat in range(4):
        v = GAME.view(state, seat)
        assert sorted(v.hand) == sorted(state.screens[seat].hand)
        assert (v.workers_held, v.neutral_held, v.seals, v.gold) == (3, 0, (0, 0, 0, 0), 0)
        text = GAME.render(v)
        assert "your hand" in text
    spectator = GAME.view(state, None)
    assert (spectator.hand, spectator.workers_held, spectator.neutral_held, spectator.seals, spectator.gold) == (
        None, None, None, None, None)
