"""Ora et Labora's hooks: conservation and consistency after every command, the scores
recomputed from the final state (§10), its fuzz language, and no hidden information at
all (§1, §5: goods, buildings, settlement hands, the stacks and the wheel are open, so
every seat and a spectator see the same view). OEL_GAMES (default 2) random games per
preset, OEL_CHECK_EVERY (5): every how many games one decides every legal command (at
every 7th step), OEL_SOAK (50) in the slow soak."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import strategies as st

from games.ora_et_labora import GAME
from games.ora_et_labora import commands as C
from games.ora_et_labora import goods as G
from games.ora_et_labora.catalog import CATALOG
from games.ora_et_labora.scoring import score
from games.ora_et_labora.setup import mode_of
from games.ora_et_labora.state import AVAILABLE, State
from tests.unit.games.hooks import Hooks, knob


def after_command(state: State, events) -> None:
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


def at_end(state: State, events) -> None:
    """§10 recomputed from the final state."""
    res = GAME.result(state)
    for s in range(state.players):
        owner = state.owners[s]
        assert res.scores[s] == score(owner.land, owner.goods)


def scramble(state, seat, rng: random.Random):
    """Another state that differs from `state` only in what `seat` may not see: there is
    nothing of the kind in Ora et Labora, so it is the state itself."""
    return state


IDS = sorted(CATALOG.buildings) + ["S1", "ZZ", "", "h1"]
GOODS = sorted(G.GOODS) + ["coin5", "food", "energy", "gold", ""]
CELLS = st.tuples(st.integers(-4, 8), st.integers(-3, 8))
COUNTS = st.integers(-2, 14)
AMOUNTS = st.dictionaries(st.sampled_from(GOODS + ["book>ceramic", "ceramic>ornament", "x>y"]), COUNTS, max_size=4)
fuzz = st.one_of(
    st.builds(C.Use, joker=st.booleans(), goods=st.lists(st.sampled_from(GOODS), max_size=3).map(tuple),
              times=st.lists(COUNTS, max_size=3).map(tuple), pay=AMOUNTS, take=AMOUNTS,
              cells=st.lists(CELLS, max_size=3).map(tuple),
              target=st.none() | st.tuples(st.integers(-2, 5), st.sampled_from(IDS))),
    st.builds(C.BuyLandscape, kind=st.sampled_from(["district", "plot", "castle"]),
              side=st.sampled_from(["hills", "plains", "coast", "mountain", "sky"]), row=st.integers(-5, 8)),
    st.builds(C.BuySettlementLandscape, kind=st.sampled_from(["district", "plot"]),
              side=st.sampled_from(["hills", "plains", "coast", "mountain"]), row=st.integers(-5, 8)),
    st.builds(C.Convert, good=st.sampled_from(["grain", "wine", "whiskey", "coin"]), count=COUNTS),
    st.builds(C.PlaceClergyman, building=st.sampled_from(IDS), prior=st.booleans(),
              owner=st.none() | st.integers(-2, 5)),
    st.builds(C.WorkContract, owner=st.integers(-2, 5), building=st.sampled_from(IDS), gift=st.booleans()),
    st.builds(C.AssignClergyman, prior=st.booleans()),
    st.builds(C.FellTrees, cell=st.none() | CELLS, joker=st.booleans()),
    st.builds(C.CutPeat, cell=st.none() | CELLS, joker=st.booleans()),
    st.builds(C.Build, building=st.sampled_from(IDS), cell=CELLS),
    st.builds(C.BuildSettlement, settlement=st.sampled_from(["S1", "S2", "S4", "S8", "S9", "G02"]), cell=CELLS,
              pay=AMOUNTS),
    st.builds(C.PlaceNeutralBuilding, cell=CELLS),
    st.builds(C.UseNeutralPrior, building=st.sampled_from(IDS), gift=st.booleans()),
    st.sampled_from([C.Decline(), C.EndAction(), C.EndSettlement()]),
)

HOOKS = Hooks(
    games=knob("OEL_GAMES", 2), soak=knob("OEL_SOAK", 50), per_players=False, check_games=knob("OEL_CHECK_EVERY", 5),
    check_steps=7, max_steps=6000, fuzz=fuzz, scramble=scramble, seed=lambda preset, n: f"{preset}/{n}".encode(),
    after_command=after_command, at_end=at_end, prefix_steps=80, same_views=True, fuzz_played=True,
)
