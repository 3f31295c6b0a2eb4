"""Setup for 2-4 players (§4, §9): the castle lot, the start seat and the deal, written out."""

from __future__ import annotations

import msgspec

from games.arkadia.board import lot_problem, random_lots
from games.arkadia.catalog import CATALOG, CATALOG_HASH
from games.arkadia.events import ArkadiaEvent, GameCreated, Lot, Options
from games.contract import Seed
from games.opening import check_players, check_start, fixture_of, start_seat
from games.rng import RNG_NAME, Rng

RULES_VERSION = 2

PRESETS: dict[str, Options] = {
    **{f"{n}p": Options(players=n) for n in (2, 3, 4)},
    **{f"{n}p_random_lot": Options(players=n, lot="random") for n in (2, 3, 4)},
    # the same as "2p" ... "4p" since rules version 2 (the default lot became the default)
    **{f"{n}p_default_lot": Options(players=n, lot="default") for n in (2, 3, 4)},
}


class Fixture(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every random outcome of setup, fixed: each seat's hand, the three open cards, the
    draw pile (top first), the castle lot's position and the start seat (§4, §11.1)."""

    hands: tuple[tuple[str, ...], ...]
    display: tuple[str, ...]
    pile: tuple[str, ...]
    lot: Lot = Lot(x=CATALOG.default_lot.x, y=CATALOG.default_lot.y,
                   orientation=CATALOG.default_lot.orientation)  # type: ignore[arg-type]
    start: int = 0


def deal(options: Options, seed: bytes) -> Fixture:
    """The fixture a seed gives: shuffled deck dealt 4 per seat, 3 open, the rest the pile;
    the lot drawn among the valid central positions (or the default); a random start seat."""
    n = options.players
    deck = Rng(seed, "deck").shuffled(sorted(CATALOG.cards))
    h, d = CATALOG.hand_size, CATALOG.display_size
    hands = tuple(tuple(deck[h * s : h * (s + 1)]) for s in range(n))
    display = tuple(deck[h * n : h * n + d])
    pile = tuple(deck[h * n + d :])
    if options.lot == "random":
        spots = random_lots()
        x, y, o = spots[Rng(seed, "lot").below(len(spots))]
        lot = Lot(x=x, y=y, orientation=o)  # type: ignore[arg-type]
    else:
        dl = CATALOG.default_lot
        lot = Lot(x=dl.x, y=dl.y, orientation=dl.orientation)  # type: ignore[arg-type]
    start = start_seat(seed, n)
    return Fixture(hands=hands, display=display, pile=pile, lot=lot, start=start)


def check_fixture(options: Options, fx: Fixture) -> None:
    """Raise ValueError unless the fixture is a possible setup for these options (§4)."""
    n = options.players
    if len(fx.hands) != n or any(len(h) != CATALOG.hand_size for h in fx.hands):
        raise ValueError(f"deal {CATALOG.hand_size} cards to each of the {n} seats")
    if len(fx.display) != CATALOG.display_size:
        raise ValueError(f"the display holds {CATALOG.display_size} open cards")
    cards = sorted([*(c for h in fx.hands for c in h), *fx.display, *fx.pile])
    if cards != sorted(CATALOG.cards):
        raise ValueError("hands, display and pile must hold every card exactly once")
    problem = lot_problem(fx.lot.x, fx.lot.y, fx.lot.orientation)
    if problem is not None:
        raise ValueError(problem)
    check_start(fx.start, n)


def setup(options: Options, source: Seed | Fixture) -> list[ArkadiaEvent]:
    """The opening event: the whole setup written out. The start seat acts first."""
    check_players("Arkadia", options.players, 2, 4)
    fx = fixture_of(options, source, deal, check_fixture)
    return [
        GameCreated(options=options, lot=fx.lot, start=fx.start, hands=fx.hands, display=fx.display,
                    pile=fx.pile, rules_version=RULES_VERSION, catalog_hash=CATALOG_HASH, rng=RNG_NAME),
    ]
