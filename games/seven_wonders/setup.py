"""Setup for 3-7 players (§2): decks by player count, N+2 guilds, boards and sides; and
for the 2-player Free City variant (§12): the 3-player decks, a third board, the Free
City's pile of 7 cards per age."""

from __future__ import annotations

import msgspec

from games.contract import Seed
from games.opening import check_players, fixture_of
from games.rng import RNG_NAME, Rng
from games.seven_wonders.catalog import CATALOG, CATALOG_HASH
from games.seven_wonders.edifice import EDIFICE
from games.seven_wonders.events import (
    AgeStarted,
    EdificesDrawn,
    FreeCityCardDrawn,
    GameCreated,
    Options,
    SevenWondersEvent,
    WonderPick,
)

RULES_VERSION = 2
EXTRA_DATA = EDIFICE.wonders
"""Edifice's placeholder boards (Ur, Carthage) as the data describes them."""
HAND = 7  # §3

PRESETS: dict[str, Options] = {
    "2p_free_city": Options(players=2),
    **{f"{n}p": Options(players=n) for n in range(3, 8)},
    **{f"{n}p_side_a": Options(players=n, sides="A") for n in range(3, 8)},
    **{f"{n}p_side_b": Options(players=n, sides="B") for n in range(3, 8)},
    **{f"{n}p_edifice": Options(players=n, edifice=True) for n in range(3, 8)},
    # with Ur and Carthage in the boards dealt: placeholder data (Edifice §12.2)
    **{f"{n}p_edifice_all_boards": Options(players=n, edifice=True, placeholder_boards=True) for n in range(3, 8)},
}


class Fixture(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every random outcome of setup, fixed: each city's board and side, and each age's
    hands (`deals[age-1][city]`: 7 card ids). With 2 players the third city is the Free
    City and its "hand" is its pile, top card first (§12). Used by tests, tutorials and
    duplicate tournaments."""

    wonders: tuple[WonderPick, ...]
    deals: tuple[tuple[tuple[str, ...], ...], ...]
    edifices: tuple[str, ...] = ()  # with the Edifice expansion: [age-1] -> edifice id


def _check_options(options: Options) -> None:
    check_players("7 Wonders", options.players, 2, 7, " (2: the Free City variant)")
    lo, hi = EDIFICE.players
    if options.with_edifice and not lo <= options.players <= hi:
        raise ValueError(f"the Edifice expansion is for {lo} to {hi} players (Edifice §3 step 6)")


def board_pool(options: Options) -> list[str]:
    """The boards setup may deal: the base seven, plus Carthage (and Ur, only with Edifice)
    with `placeholder_boards` (Edifice §2, §12; placeholder data, off by default)."""
    pool = sorted(CATALOG.wonders)
    if options.placeholder_boards is True:
        pool += sorted(w for w, b in EXTRA_DATA.items() if options.with_edifice or not b.requires_edifice)
    return pool


def cities_of(options: Options) -> int:
    """How many cities: one per player, plus the Free City with 2 players (§12)."""
    return 3 if options.players == 2 else options.players


def deal(options: Options, seed: bytes) -> Fixture:
    """The fixture a seed gives (§2): shuffled decks, drawn guilds, dealt boards and sides."""
    n = cities_of(options)
    boards = Rng(seed, "wonders").sample(board_pool(options), n)
    side_rng = Rng(seed, "sides")
    sides = [options.sides if options.sides != "random" else "AB"[side_rng.below(2)] for _ in range(n)]
    guilds = Rng(seed, "guilds").sample(sorted(CATALOG.guilds), n + 2)
    deals = []
    for age in (1, 2, 3):
        deck = sorted(CATALOG.deck(age, n)) + (sorted(guilds) if age == 3 else [])
        deck = Rng(seed, f"age{age}").shuffled(deck)
        deals.append(tuple(tuple(deck[HAND * s : HAND * (s + 1)]) for s in range(n)))
    # Edifice §3 steps 2-3: one card at random from each Age's five
    edifices = tuple(Rng(seed, f"edifice{age}").sample(EDIFICE.of_age(age), 1)[0] for age in (1, 2, 3)) \
        if options.with_edifice else ()
    return Fixture(wonders=tuple(WonderPick(b, s) for b, s in zip(boards, sides)), deals=tuple(deals),  # type: ignore[arg-type]
                   edifices=edifices)


def check_fixture(options: Options, fx: Fixture) -> None:
    """Raise ValueError unless the fixture is a possible deal for these options (§2, §12)."""
    n = cities_of(options)
    if len(fx.wonders) != n or len({w.wonder for w in fx.wonders}) != n:
        raise ValueError(f"a fixture needs {n} distinct boards")
    for w in fx.wonders:
        if w.wonder not in board_pool(options) or w.side not in ("A", "B"):
            raise ValueError(f"unknown board or side: {w.wonder} {w.side}"
                             + (" (Ur and Carthage need placeholder_boards; Ur also edifice)"
                                if w.wonder in EXTRA_DATA else ""))
    if len(fx.deals) != 3:
        raise ValueError("a fixture deals three ages")
    for age, hands in enumerate(fx.deals, 1):
        if len(hands) != n or any(len(h) != HAND for h in hands):
            raise ValueError(f"age {age}: deal 7 cards to each of the {n} seats")
        cards = sorted(c for h in hands for c in h)
        unknown = [c for c in cards if c not in CATALOG.cards]
        if unknown:
            raise ValueError(f"age {age}: unknown cards {unknown}")
        base = sorted(c for c in cards if not CATALOG.cards[c].guild)
        if base != sorted(CATALOG.deck(age, n)):
            raise ValueError(f"age {age}: the cards are not the {n}-player deck of that age (§2.1)")
        guilds = [c for c in cards if CATALOG.cards[c].guild]
        if len(guilds) != (n + 2 if age == 3 else 0) or len(set(guilds)) != len(guilds):
            raise ValueError(f"age {age}: expected {n + 2 if age == 3 else 0} distinct guilds (§2.2)")
    if options.with_edifice:
        if len(fx.edifices) != 3 or any(e not in EDIFICE.of_age(a) for a, e in enumerate(fx.edifices, 1)):
            raise ValueError("an Edifice fixture names one edifice of each Age, in Age order")
    elif fx.edifices:
        raise ValueError("edifices in a fixture of a game without the Edifice expansion")


def setup(options: Options, source: Seed | Fixture) -> list[SevenWondersEvent]:
    """The opening events: the whole deal written out, then Age I starts."""
    _check_options(options)
    fx = fixture_of(options, source, deal, check_fixture)
    return [
        GameCreated(options=options, wonders=fx.wonders, deals=fx.deals, rules_version=RULES_VERSION,
                    catalog_hash=CATALOG_HASH, rng=RNG_NAME),
        *([EdificesDrawn(cards=fx.edifices, pawns=EDIFICE.pawns(options.players), catalog_hash=EDIFICE.hash)] if options.with_edifice else []),
        AgeStarted(age=1),
        *([FreeCityCardDrawn(seat=0)] if options.players == 2 else []),
    ]
