"""Ora et Labora's own fuzz beyond the shared random-play suite (tests/unit/games/
test_random_play.py): misplaced commands of every kind get a typed rejection, and every
building function judges any `Use` without raising."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from games.contract import Rejection, Seed
from games.fold import replay
from games.ora_et_labora import GAME
from games.ora_et_labora import commands as C
from games.ora_et_labora import goods as G
from games.ora_et_labora.commands import Build, EndAction, EndSettlement, PlaceClergyman, WorkContract
from tests.unit.games.hooks.ora_et_labora import AMOUNTS, CELLS, COUNTS, GOODS, IDS

_uses = st.builds(C.Use, joker=st.booleans(), goods=st.lists(st.sampled_from(GOODS), max_size=3).map(tuple),
                  times=st.lists(COUNTS, max_size=3).map(tuple), pay=AMOUNTS, take=AMOUNTS,
                  cells=st.lists(CELLS, max_size=4).map(tuple),
                  target=st.none() | st.tuples(st.integers(-2, 5), st.sampled_from(IDS)))


def test_ora_et_labora_commands_out_of_place_are_refused_and_change_nothing() -> None:
    """Every kind of misplaced command gets a typed rejection (never an exception)."""
    rng = random.Random(3)
    state = replay(GAME, GAME.setup(GAME.presets["4p_ireland"], Seed(b"fuzz")))
    samples = [EndSettlement(), EndAction(), Build(building="G02", cell=(9, 9)), Build(building="ZZ", cell=(0, 3)),
               PlaceClergyman(building="G39"), WorkContract(owner=7, building="H1"), WorkContract(owner=0, building="H9")]
    refused = 0
    for _ in range(300):
        if GAME.result(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        for cmd in samples:
            out = GAME.decide(state, seat, cmd)
            if isinstance(out, Rejection):
                assert out.code and out.message
                refused += 1
        assert isinstance(GAME.decide(state, (seat + 1) % 4, EndAction()), Rejection)
        for e in GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat))):
            state = GAME.evolve(state, e)
    assert refused > 1000


@given(preset=st.sampled_from(sorted(GAME.presets)), seed=st.binary(min_size=2, max_size=8),
       steps=st.integers(0, 250), data=st.data())
def test_ora_et_labora_every_function_judges_any_use_without_raising(preset: str, seed: bytes, steps: int, data) -> None:
    """functions.resolve on any building (in a landscape, the display, or nowhere) with any
    `Use`: an Outcome whose payment the seat can afford, or a Rejection; never an exception."""
    from games.ora_et_labora.functions import Outcome, resolve

    rng = random.Random(seed)
    state = replay(GAME, GAME.setup(GAME.presets[preset], Seed(seed)))
    for _ in range(steps):
        if GAME.result(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        for e in GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat))):
            state = GAME.evolve(state, e)
    seat = data.draw(st.integers(0, state.players - 1))
    for _ in range(10):
        place = (data.draw(st.integers(-1, len(state.owners))), data.draw(st.sampled_from(IDS)))
        out = resolve(state, seat, place, data.draw(_uses))
        assert isinstance(out, (Outcome, Rejection))
        if isinstance(out, Outcome):
            assert isinstance(G.take(state.owners[seat].goods, out.paid), tuple)

