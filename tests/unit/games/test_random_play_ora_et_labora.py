"""Random legal play of Ora et Labora: a seeded soak over every preset (all modes, both
variants) with invariants checked after every command, and a fuzz of `decide` with
commands that must be refused. The game count per preset comes from OEL_GAMES (default 2;
a long run is `OEL_GAMES=200 pytest -k ora_et_labora_random`); OEL_CHECK_EVERY says how
often a game decides every legal command (default every 5th game, at every 7th step)."""

from __future__ import annotations

import os
import random
from collections import Counter

import msgspec
import pytest

from games.contract import Rejection, Seed
from games.fold import replay
from games.ora_et_labora import GAME
from games.ora_et_labora import goods as G
from games.ora_et_labora.catalog import CATALOG
from games.ora_et_labora.commands import Build, EndAction, EndSettlement, PlaceClergyman, WorkContract
from games.ora_et_labora.scoring import score
from games.ora_et_labora.setup import mode_of
from games.ora_et_labora.state import AVAILABLE, State

GAMES_PER_PRESET = int(os.environ.get("OEL_GAMES", "2"))
CHECK_EVERY = int(os.environ.get("OEL_CHECK_EVERY", "5"))
ENC = msgspec.json.Encoder()
DEC = msgspec.json.Decoder(GAME.events)


def check_invariants(state: State) -> None:
    """Conservation and consistency after every command."""
    mode = mode_of(state.options)
    m = CATALOG.modes[mode]
    clergy = m.clergy.prior + m.clergy.lay_brothers
    buildings: list[str] = [*state.display, *(b for s in state.stacks for b in s)]
    wonders_held = 0
    for o, owner in enumerate(state.owners):
        assert all(n >= 0 for n in owner.goods), (o, owner.goods)
        assert len(owner.clergy) == clergy
        for at in owner.clergy:
            if at != AVAILABLE:
                target = state.owners[at[0]].land
                assert any(s.built == at[1] for s in target.spaces), f"clergyman on a missing building {at}"
        built = [s.built for s in owner.land.spaces if s.built]
        buildings += [b for b in built if b in CATALOG.buildings and not b.startswith("H")]
        if o < state.players:
            settled = [b for b in built if b in CATALOG.settlements]
            assert len(set(settled + list(owner.hand))) == len(settled) + len(owner.hand), "a settlement twice"
            assert len(settled) + len(owner.hand) == 4 + min(state.marker, 4) - (1 if state.phase == "settlement"
                                                                                 and state.letter in "ABCD" else 0)
        for s in owner.land.spaces:
            assert not (s.card and s.built), "a card under a building"
        wonders_held += G.count(owner.goods, "wonder")
    counts = Counter(buildings)
    assert all(n == 1 for n in counts.values()), "a building in two places"
    used = set(CATALOG.selection(mode, state.options.variant, optional_removed=state.options.quarry_removed))
    if mode == "solo":
        assert set(counts) <= used  # covered neutral buildings leave the game (§13.4)
    else:
        assert set(counts) == used
    assert state.wonders + wonders_held == CATALOG.game.components.wonders
    assert state.contract in (1, 2)
    if state.phase != "over":
        assert GAME.to_act(state)


def play(preset: str, seed: int, check_every: int) -> tuple[list, State]:
    rng = random.Random(seed)
    events = list(GAME.setup(GAME.presets[preset], Seed(f"{preset}/{seed}".encode())))
    state = replay(GAME, events)
    for step in range(6000):
        if GAME.result(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_commands(state, seat)
        assert legal
        if check_every and step % check_every == 0:
            for cmd in legal:
                assert not isinstance(GAME.decide(state, seat, cmd), Rejection), cmd
                assert GAME.parse_command(GAME.format_command(cmd)) == cmd
        out = GAME.decide(state, seat, rng.choice(legal))
        assert not isinstance(out, Rejection), out
        for e in out:
            assert DEC.decode(ENC.encode(e)) == e
            state = GAME.evolve(state, e)
        events += out
        check_invariants(state)
    else:
        pytest.fail(f"{preset} seed {seed} did not end")
    return events, state


@pytest.mark.parametrize("preset", list(GAME.presets))
def test_ora_et_labora_random_games_keep_the_invariants(preset: str) -> None:
    for seed in range(GAMES_PER_PRESET):
        events, state = play(preset, seed, 7 if seed % CHECK_EVERY == 0 else 0)
        assert replay(GAME, events) == state
        res = GAME.result(state)
        assert res is not None
        for s in range(state.players):
            owner = state.owners[s]
            assert res.scores[s] == score(owner.land, owner.goods)  # §10 recomputed from the final state
        assert all(GAME.legal_commands(state, s) == [] for s in range(state.players))


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


# -- fuzz: any command, any field, any seat: events or a typed rejection, never an exception ------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from games.ora_et_labora import commands as C  # noqa: E402

_ids = sorted(CATALOG.buildings) + ["S1", "ZZ", "", "h1"]
_goods = sorted(G.GOODS) + ["coin5", "food", "energy", "gold", ""]
_cells = st.tuples(st.integers(-4, 8), st.integers(-3, 8))
_counts = st.integers(-2, 14)
_amounts = st.dictionaries(st.sampled_from(_goods + ["book>ceramic", "ceramic>ornament", "x>y"]), _counts, max_size=4)
fuzz_commands = st.one_of(
    st.builds(C.Use, joker=st.booleans(), goods=st.lists(st.sampled_from(_goods), max_size=3).map(tuple),
              times=st.lists(_counts, max_size=3).map(tuple), pay=_amounts, take=_amounts,
              cells=st.lists(_cells, max_size=3).map(tuple),
              target=st.none() | st.tuples(st.integers(-2, 5), st.sampled_from(_ids))),
    st.builds(C.BuyLandscape, kind=st.sampled_from(["district", "plot", "castle"]),
              side=st.sampled_from(["hills", "plains", "coast", "mountain", "sky"]), row=st.integers(-5, 8)),
    st.builds(C.BuySettlementLandscape, kind=st.sampled_from(["district", "plot"]),
              side=st.sampled_from(["hills", "plains", "coast", "mountain"]), row=st.integers(-5, 8)),
    st.builds(C.Convert, good=st.sampled_from(["grain", "wine", "whiskey", "coin"]), count=_counts),
    st.builds(C.PlaceClergyman, building=st.sampled_from(_ids), prior=st.booleans(),
              owner=st.none() | st.integers(-2, 5)),
    st.builds(C.WorkContract, owner=st.integers(-2, 5), building=st.sampled_from(_ids), gift=st.booleans()),
    st.builds(C.AssignClergyman, prior=st.booleans()),
    st.builds(C.FellTrees, cell=st.none() | _cells, joker=st.booleans()),
    st.builds(C.CutPeat, cell=st.none() | _cells, joker=st.booleans()),
    st.builds(C.Build, building=st.sampled_from(_ids), cell=_cells),
    st.builds(C.BuildSettlement, settlement=st.sampled_from(["S1", "S2", "S4", "S8", "S9", "G02"]), cell=_cells,
              pay=_amounts),
    st.builds(C.PlaceNeutralBuilding, cell=_cells),
    st.builds(C.UseNeutralPrior, building=st.sampled_from(_ids), gift=st.booleans()),
    st.sampled_from([C.Decline(), C.EndAction(), C.EndSettlement()]),
)


@given(preset=st.sampled_from(sorted(GAME.presets)), seed=st.binary(min_size=2, max_size=8), data=st.data())
def test_ora_et_labora_fuzzed_commands_never_raise(preset: str, seed: bytes, data) -> None:
    """Hypothesis-driven prefixes: fuzzed commands (any fields, any seat) give events or a
    Rejection and never raise; an accepted one is played and the invariants hold."""
    events = list(GAME.setup(GAME.presets[preset], Seed(seed)))
    state = replay(GAME, events)
    players = GAME.presets[preset].players
    for _ in range(data.draw(st.integers(1, 80))):
        (seat,) = GAME.to_act(state)
        fuzz = data.draw(fuzz_commands)
        who = data.draw(st.integers(-1, players))
        out = GAME.decide(state, who, fuzz)
        assert isinstance(out, (list, Rejection))
        if isinstance(out, list):
            cmd, seat = fuzz, who
        else:
            cmd = data.draw(st.sampled_from(GAME.legal_commands(state, seat)))
            out = GAME.decide(state, seat, cmd)
            assert not isinstance(out, Rejection), out
        events += out
        for e in out:
            state = GAME.evolve(state, e)
        check_invariants(state)
        if GAME.result(state) is not None:
            break
    assert replay(GAME, events) == state


@given(text=st.text(max_size=40))
def test_ora_et_labora_parse_command_never_raises(text: str) -> None:
    out = GAME.parse_command(text)
    if not isinstance(out, Rejection):
        assert GAME.parse_command(GAME.format_command(out)) == out


_uses = st.builds(C.Use, joker=st.booleans(), goods=st.lists(st.sampled_from(_goods), max_size=3).map(tuple),
                  times=st.lists(_counts, max_size=3).map(tuple), pay=_amounts, take=_amounts,
                  cells=st.lists(_cells, max_size=4).map(tuple),
                  target=st.none() | st.tuples(st.integers(-2, 5), st.sampled_from(_ids)))


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
        place = (data.draw(st.integers(-1, len(state.owners))), data.draw(st.sampled_from(_ids)))
        out = resolve(state, seat, place, data.draw(_uses))
        assert isinstance(out, (Outcome, Rejection))
        if isinstance(out, Outcome):
            assert isinstance(G.take(state.owners[seat].goods, out.paid), tuple)
