"""Arkadia's hooks: the reference's invariants after every command (arkadia.md §11), its
refusals, a random player that picks a kind of command first, the castle end reached in
random play, its fuzz language and its scramble of hidden information (§10). ARK_GAMES
(default 60) random games per player count, ARK_CHECK_EVERY (10): every how many games
one decides every legal command (at every 5th step), ARK_SOAK (1000) in the slow soak."""

from __future__ import annotations

import random

from hypothesis import strategies as st
from msgspec.structs import replace

from games.arkadia.board import ring
from games.arkadia.catalog import CATALOG, SEALS
from games.arkadia.commands import (
    DrawCard,
    EndTurn,
    PlaceBuilding,
    PlaceCastlePiece,
    PlaceWorkers,
    TakeCard,
    UseBanner,
)
from games.arkadia.events import BannerUsed, BuildingCompleted
from games.arkadia.rules import occupancy, step
from games.arkadia.scoring import values
from tests.unit.games.hooks import Hooks, knob

FORMS = sorted(CATALOG.forms)


def after_command(state, events) -> None:
    """docs/rules/arkadia.md §11, checked after every command."""
    n = state.players
    board_owned = [sum(1 for w in state.workers if w.owner == s) for s in range(n)]
    for s in range(n):
        assert state.screens[s].workers + board_owned[s] + state.pool[s] == CATALOG.workers_per_colour
        assert state.screens[s].workers >= 0 and state.screens[s].neutral >= 0
    neutral_board = sum(1 for w in state.workers if w.owner < 0)
    assert sum(sc.neutral for sc in state.screens) + neutral_board + state.pool_neutral == CATALOG.neutral_workers
    placed = [sum(1 for stack in state.castle for c in stack if c == colour) for colour in SEALS]
    in_pools = [sum(p[i] for p in state.pools) for i in range(4)]
    assert [a + b for a, b in zip(placed, in_pools)] == [7, 7, 7, 7]
    heights = [len(s) for s in state.castle]
    assert all(h <= 3 for h in heights)
    for k in (1, 2):
        if any(h > k for h in heights):
            assert all(h >= k for h in heights), "floor k+1 begun before floor k is full"
    assert sum(values(state.castle)) in (8, 9, 10)
    used = sum(1 for e in events if isinstance(e, BannerUsed))
    assert sum(sc.banners for sc in state.screens) + used == CATALOG.banners * n
    assert all(len(sc.hand) <= CATALOG.hand_size for sc in state.screens)
    cards = [*(c for sc in state.screens for c in sc.hand), *state.display, *state.pile, *state.discard]
    assert sorted(cards) == sorted(CATALOG.cards)
    occ = occupancy(state).all
    for b in state.buildings:
        assert b.completed == (ring(b.cells) & ~occ == 0), f"building {b.id}: completed <=> enclosed"
    cells = [w.cell for w in state.workers] + [c for b in state.buildings for c in b.cells]
    assert len(cells) == len(set(cells)), "two things on one cell"
    paid = [0, 0, 0, 0]
    for e in events:
        if isinstance(e, BuildingCompleted):
            paid[SEALS.index(e.seal)] += sum(e.payouts) + (1 if e.token >= 0 else 0)
        elif isinstance(e, BannerUsed):
            paid = [p - k for p, k in zip(paid, e.exchanged)]
    assert [sum(sc.seals[i] for sc in state.screens) for i in range(4)] == paid, "seals are conserved"


def illegal(state, seat, rng: random.Random, legal):
    """Commands that must be refused now (a sample that happens to be legal is left out)."""
    def unless_legal(cmd):
        return () if cmd in legal else (cmd,)

    sc = state.screens[seat]
    held = {CATALOG.key(c) for c in sc.hand}
    missing = [(f, s) for f in FORMS for s in SEALS if (f, s) not in held]
    f, s = rng.choice(missing)
    yield from unless_legal(PlaceBuilding(form=f, seal=s, anchor=(rng.randrange(16), rng.randrange(12))))
    lot = state.lot
    if held:
        f, s = sorted(held)[0]
        yield from unless_legal(PlaceBuilding(form=f, seal=s, anchor=(lot.x, lot.y)))  # on the lot
    if state.buildings:
        b = rng.choice(state.buildings)
        yield from unless_legal(PlaceWorkers(building=b.id, own=(b.cells[0],)))  # on the building itself
    yield from unless_legal(PlaceWorkers(building=len(state.buildings), own=((0, 0),)))
    yield from unless_legal(UseBanner(red=sc.seals[0] + 1))
    st_ = step(state)
    if st_ != "castle":
        yield from unless_legal(PlaceCastlePiece(colour="red", square=0))
    if st_ != "refill":
        yield from unless_legal(DrawCard())
    if st_ in ("action", "castle", "refill"):
        yield from unless_legal(EndTurn())
    others = [x for x in range(state.players) if x != seat]
    yield ("seat", rng.choice(others))


def choose(cmds, rng: random.Random):
    """A kind of command first, so that worker placements are played often enough."""
    kinds: dict[type, list] = {}
    for c in cmds:
        kinds.setdefault(type(c), []).append(c)
    return rng.choice(kinds[rng.choice(sorted(kinds, key=lambda k: k.__name__))])


def over_games(preset, count, states) -> None:
    """With three or more players some random game of twenty ends by the castle."""
    ends = {"castle": 0, "stalemate": 0}
    for state in states:
        ends[state.reason] += 1
    assert sum(ends.values()) == count
    if states and states[0].players >= 3 and count >= 20:
        assert ends["castle"] > 0, f"no random game of {preset} reached the castle end"


def scramble(state, seat, rng: random.Random):
    """Another state that differs from `state` only in what `seat` (None: a spectator) may
    not see: the other screens (hand, workers and neutral workers held, seals, gold) and
    the order of the draw pile."""
    every = sorted(CATALOG.cards)
    screens = tuple(
        sc if s == seat else replace(
            sc, hand=tuple(rng.choice(every) for _ in sc.hand), workers=rng.randrange(12),
            neutral=rng.randrange(25), seals=tuple(rng.randrange(30) for _ in range(4)), gold=rng.randrange(200))
        for s, sc in enumerate(state.screens)
    )
    pile = tuple(rng.sample(state.pile, len(state.pile)))
    return replace(state, screens=screens, pile=pile)


cells = st.tuples(st.integers(-2, 17), st.integers(-2, 13))
fuzz = st.one_of(
    st.builds(PlaceBuilding, form=st.sampled_from(FORMS + ["castle"]), seal=st.sampled_from(SEALS + ("gold",)),
              anchor=cells, rotation=st.integers(-2, 9)),
    st.builds(PlaceWorkers, building=st.integers(-2, 45), own=st.lists(cells, max_size=4).map(tuple),
              neutral=st.lists(cells, max_size=3).map(tuple)),
    st.builds(PlaceCastlePiece, colour=st.sampled_from(SEALS + ("none",)), square=st.integers(-2, 12)),
    st.builds(TakeCard, form=st.sampled_from(FORMS), seal=st.sampled_from(SEALS)),
    st.just(DrawCard()),
    st.builds(UseBanner, red=st.integers(-2, 30), olive=st.integers(-2, 30), black=st.integers(0, 30),
              silver=st.integers(0, 30)),
    st.just(EndTurn()),
)

HOOKS = Hooks(
    games=knob("ARK_GAMES", 60), soak=knob("ARK_SOAK", 1000), per_players=True,
    check_games=knob("ARK_CHECK_EVERY", 10), check_steps=5, max_steps=3000, fuzz=fuzz, scramble=scramble,
    choose=choose, illegal=illegal, after_command=after_command, over_games=over_games,
    complete_every=40,
)
