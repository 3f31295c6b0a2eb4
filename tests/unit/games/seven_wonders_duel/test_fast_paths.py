"""The hot paths agree with the plain definitions they shortcut: the market's prices
with `trade_cost` (§6.3, §6.5), the precomputed accessibility with the covering rule
(§4), and `legal_commands`' affordability shortcut with `decide`."""

from __future__ import annotations

import random

from games.contract import Rejection, Seed
from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.commands import BuildCard, BuildWonder
from games.seven_wonders_duel.payment import SPEC, market, profile, trade_cost, trade_for
from games.seven_wonders_duel.rules import COVER, REACHABLE, accessible

CARDS = sorted(CATALOG.cards)
ITEMS = CARDS + sorted(CATALOG.wonders)
SUPPLIERS = [c for c in CARDS if any(SPEC[c].produce) or SPEC[c].one_of or SPEC[c].fixed]
ONE_OF_WONDERS = [w for w in sorted(CATALOG.wonders) if SPEC[w].one_of]


def test_market_prices_equal_trade_cost() -> None:
    rng = random.Random(7)
    for _ in range(400):
        mine = profile(tuple(rng.sample(SUPPLIERS, rng.randint(0, 8))))
        theirs = profile(tuple(rng.sample(SUPPLIERS, rng.randint(0, 8))))
        built = tuple(rng.sample(ONE_OF_WONDERS, rng.randint(0, len(ONE_OF_WONDERS))))
        masonry, architecture = rng.random() < 0.3, rng.random() < 0.3
        m = market(mine.supply, built, theirs.produce, masonry, architecture)
        for item in rng.sample(ITEMS, 20):
            spec = SPEC[item]
            waived = 2 if (masonry and spec.color == "blue") or (architecture and spec.color == "wonder") else 0
            assert trade_for(m, item) == trade_cost(spec.need, m.supply, theirs, waived), (item, mine, theirs, built)
            assert trade_for(m, item) <= sum(spec.need) * m.dearest


def test_precomputed_accessibility_follows_the_covering_rule() -> None:
    for age in (1, 2, 3):
        cover = COVER[age - 1]
        for present, (mask, positions) in REACHABLE[age - 1].items():
            plain = tuple(p for p in range(20) if present >> p & 1 and not present & cover[p])
            assert positions == plain == accessible(age, present)
            assert mask == sum(1 << p for p in plain)
    assert len(REACHABLE[0]) > 100  # every reachable structure, not just a few


def test_legal_builds_are_exactly_the_accepted_ones() -> None:
    """Every accessible card and wonder: offered by legal_commands iff decide accepts it
    (the affordability shortcut never drops or adds one)."""
    for i in range(40):
        rng = random.Random(i)
        state = replay(GAME, GAME.setup(GAME.presets["2p"], Seed(b"fast" + i.to_bytes(4, "big"))))
        while GAME.result(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_commands(state, seat)
            if state.phase == "play" and state.pending is None:
                structure = state.structures[state.age - 1]
                for pos in accessible(state.age, state.present):
                    card = structure[pos]
                    options = [BuildCard(card=card)]
                    options += [BuildWonder(wonder=w, card=card) for w in state.cities[seat].wonders]
                    for cmd in options:
                        accepted = not isinstance(GAME.decide(state, seat, cmd), Rejection)
                        assert (cmd in legal) == accepted, cmd
            for e in GAME.decide(state, seat, rng.choice(legal)):
                state = GAME.evolve(state, e)
