"""Secrecy in Ora et Labora: nothing is hidden (docs/rules/ora-et-labora.md §1, §5: goods, buildings,
settlement hands, the building stacks and the wheel are all open), so every seat and every
spectator sees the same view, which holds the whole public state."""

from __future__ import annotations

import random

import msgspec

from games.contract import Seed
from games.fold import replay
from games.ora_et_labora import GAME


def _scramble(state, seat: int, rng: random.Random):
    """Another state that differs from `state` only in what `seat` may not see: there is
    nothing of the kind in Ora et Labora, so it is the state itself."""
    return state


def test_every_seat_and_a_spectator_see_the_same_board() -> None:
    enc = msgspec.json.encode
    checked = 0
    for preset in ("3p_france", "2p_ireland", "1p_france"):
        rng = random.Random(preset)
        state = replay(GAME, GAME.setup(GAME.presets[preset], Seed(preset.encode())))
        players = GAME.presets[preset].players
        while GAME.result(state) is None:
            (seat,) = GAME.to_act(state)
            views = [msgspec.structs.replace(GAME.view(state, who), seat=None) for who in (None, *range(players))]
            assert all(enc(v) == enc(views[0]) for v in views), preset
            checked += 1
            for e in GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat))):
                state = GAME.evolve(state, e)
    assert checked > 500


def test_the_view_shows_every_owner_s_goods_and_hand() -> None:
    state = replay(GAME, GAME.setup(GAME.presets["4p_ireland"], Seed(b"open")))
    view = msgspec.to_builtins(GAME.view(state, 0))
    text = msgspec.json.encode(view).decode()
    assert len(view["owners"]) == 4
    assert all("S4" in o["hand"] for o in view["owners"])
    assert text.count("livestock") >= 4
    rendered = GAME.render(GAME.view(state, None))
    assert rendered.count("hand S1 S2 S3 S4") == 4 and rendered.count("H3") == 4
