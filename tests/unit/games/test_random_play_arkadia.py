"""Random legal play of Arkadia: a seeded soak over 2, 3 and 4 players with the reference's
invariants (arkadia.md §11), Hypothesis prefixes, and a fuzz of `decide`. The soak's game
count comes from ARK_GAMES (default 60 per player count; a long run is
`ARK_GAMES=2000 pytest -k random_games`); ARK_CHECK_EVERY says how often a game checks
every legal command (default every 10th game, at every 5th step)."""

from __future__ import annotations

import os
import random

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.arkadia import GAME
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
from games.contract import Rejection, Seed
from games.fold import replay

GAMES_PER_COUNT = int(os.environ.get("ARK_GAMES", "60"))
CHECK_EVERY = int(os.environ.get("ARK_CHECK_EVERY", "10"))
FORMS = sorted(CATALOG.forms)
ENC = msgspec.json.Encoder()
DEC = msgspec.json.Decoder(list[GAME.events])


def check_invariants(state, events) -> None:
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


def illegal_samples(state, seat, rng: random.Random):
    """Commands that must be refused now."""
    sc = state.screens[seat]
    held = {CATALOG.key(c) for c in sc.hand}
    missing = [(f, s) for f in FORMS for s in SEALS if (f, s) not in held]
    f, s = rng.choice(missing)
    yield PlaceBuilding(form=f, seal=s, anchor=(rng.randrange(16), rng.randrange(12)))
    lot = state.lot
    if held:
        f, s = sorted(held)[0]
        yield PlaceBuilding(form=f, seal=s, anchor=(lot.x, lot.y))  # on the lot
    if state.buildings:
        b = rng.choice(state.buildings)
        yield PlaceWorkers(building=b.id, own=(b.cells[0],))  # on the building itself
    yield PlaceWorkers(building=len(state.buildings), own=((0, 0),))
    yield UseBanner(red=sc.seals[0] + 1)
    st_ = step(state)
    if st_ != "castle":
        yield PlaceCastlePiece(colour="red", square=0)
    if st_ != "refill":
        yield DrawCard()
    if st_ in ("action", "castle", "refill"):
        yield EndTurn()
    others = [x for x in range(state.players) if x != seat]
    yield ("seat", rng.choice(others))


def play_one(players: int, seed: int, check_legal: bool) -> tuple[list, object]:
    rng = random.Random(seed)
    events = list(GAME.setup(GAME.presets[f"{players}p"], Seed(seed.to_bytes(8, "big"))))
    state = replay(GAME, events)
    for i in range(3000):
        if GAME.result(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        cmds = GAME.legal_commands(state, seat)
        assert cmds, "a seat that must act has no legal command"
        if check_legal and i % 5 == 0:
            for cmd in cmds:
                assert not isinstance(GAME.decide(state, seat, cmd), Rejection), cmd
                assert GAME.parse_command(GAME.format_command(cmd)) == cmd
            for bad in illegal_samples(state, seat, rng):
                if isinstance(bad, tuple):
                    out = GAME.decide(state, bad[1], cmds[0])
                else:
                    if bad in cmds:
                        continue
                    out = GAME.decide(state, seat, bad)
                assert isinstance(out, Rejection), bad
        # choose a kind of command first, so worker placements are played often enough
        kinds: dict[type, list] = {}
        for c in cmds:
            kinds.setdefault(type(c), []).append(c)
        cmd = rng.choice(kinds[rng.choice(sorted(kinds, key=lambda k: k.__name__))])
        out = GAME.decide(state, seat, cmd)
        assert not isinstance(out, Rejection), out
        for e in out:
            state = GAME.evolve(state, e)
        events += out
        check_invariants(state, events)
    else:
        pytest.fail("game did not end")
    assert replay(GAME, events) == state
    assert DEC.decode(ENC.encode(events)) == events
    res = GAME.result(state)
    assert res is not None and all(t == sum(r) for t, r in zip(res.totals, res.scores))
    return events, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_reach_the_end(players: int) -> None:
    ends = {"castle": 0, "stalemate": 0}
    for i in range(GAMES_PER_COUNT):
        _, state = play_one(players, seed=players * 100_000 + i, check_legal=i % CHECK_EVERY == 0)
        ends[state.reason] += 1
    assert sum(ends.values()) == GAMES_PER_COUNT
    if players >= 3 and GAMES_PER_COUNT >= 20:
        assert ends["castle"] > 0, "no random game reached the castle end"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_soak(players: int) -> None:
    for i in range(int(os.environ.get("ARK_SOAK", "1000"))):
        play_one(players, seed=players * 1_000_000 + i, check_legal=i % 5 == 0)


cells = st.tuples(st.integers(-2, 17), st.integers(-2, 13))
commands = st.one_of(
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


@given(seed=st.binary(min_size=4, max_size=16), players=st.integers(2, 4), data=st.data())
def test_random_prefixes_keep_the_invariants(seed: bytes, players: int, data) -> None:
    """Hypothesis-driven prefixes (shrinkable): fuzzed commands give events or a Rejection
    and never raise, legal commands are accepted, replay equals the incremental state."""
    events = list(GAME.setup(GAME.presets[f"{players}p"], Seed(seed)))
    state = replay(GAME, events)
    for _ in range(data.draw(st.integers(1, 60))):
        (seat,) = GAME.to_act(state)
        fuzz = data.draw(commands)
        out = GAME.decide(state, data.draw(st.integers(-1, players)), fuzz)
        assert isinstance(out, (list, Rejection))
        if isinstance(out, list) and data.draw(st.booleans()):
            cmd = fuzz  # an accepted fuzzed command is played too
            seat = state.active
        else:
            cmd = data.draw(st.sampled_from(GAME.legal_commands(state, seat)))
        out = GAME.decide(state, seat, cmd)
        assert not isinstance(out, Rejection), out
        events += out
        for e in out:
            state = GAME.evolve(state, e)
        check_invariants(state, events)
        if GAME.result(state) is not None:
            break
    assert replay(GAME, events) == state
    assert msgspec.json.decode(msgspec.json.encode(events), type=list[GAME.events]) == events


@given(text=st.text(max_size=40))
def test_parse_command_never_raises(text: str) -> None:
    out = GAME.parse_command(text)
    if not isinstance(out, Rejection):
        assert GAME.parse_command(GAME.format_command(out)) == out
