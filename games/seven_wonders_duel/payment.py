"""Production, trading and the cheapest payment (§6).

A city's production is fixed (brown and grey cards, counted in the opponent's prices)
plus "one of" sources (Forum, Caravansery, Piraeus, The Great Lighthouse), each giving
one unit of one listed resource per payment. Each missing unit is bought from the bank
at 2 + the opponent's brown/grey production of it, or 1 with the matching yellow card.
Masonry and Architecture waive 2 units. Following §6.3 and §6.5's recommended engine
rule, a construction is always charged the minimum: every assignment of the "one of"
sources is tried, the 2 most expensive remaining units are waived when a reduction
applies, and the cheapest total is kept.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from operator import add, or_

import msgspec
from msgspec.structs import replace

from games.memo import MAX_ENTRIES, Memo
from games.seven_wonders_duel.catalog import CATALOG, COLORS, RESOURCES, Vec

SPEC = CATALOG.spec
_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
REDUCTION = 2  # units waived by Masonry (blue cards) and Architecture (wonders), §6.5


class Supply(msgspec.Struct, frozen=True, gc=False, cache_hash=True):
    """What a city's payments depend on; shared by every city with the same supply."""

    produce: Vec  # brown/grey production: the opponent's trading prices read it (§6.3)
    one_of: tuple[tuple[int, ...], ...]  # "one of" sources (§6.2)
    fixed: tuple[bool, ...]  # per resource: traded at 1 coin (§6.3)


@lru_cache(maxsize=1 << 14)
def _supply(produce: Vec, one_of: tuple[tuple[int, ...], ...], fixed: tuple[bool, ...]) -> Supply:
    return Supply(produce, one_of, fixed)


class Profile(msgspec.Struct, frozen=True, gc=False):
    """What the rules need to know of a city's buildings (not coins, not wonders)."""

    produce: Vec  # brown/grey production: the opponent's trading prices read it (§6.3)
    one_of: tuple[tuple[int, ...], ...]  # "one of" sources of its yellow cards (§6.2)
    fixed: tuple[bool, ...]  # per resource: traded at 1 coin (§6.3)
    chains: int  # chain symbols of its buildings (§6.4), as a bitmask of CHAIN_BIT
    counts: tuple[int, ...]  # buildings per colour, in COLORS order
    symbols: tuple[str, ...]  # science symbols of its green cards (§8)
    supply: Supply  # produce, one_of and fixed, interned


CHAIN_BIT = {c: 1 << i for i, c in enumerate(sorted({s.provides for s in SPEC.values() if s.provides}))}
"""Chain symbol -> its bit in `Profile.chains`."""

_SUPPLIERS = frozenset(i for i, s in SPEC.items() if any(s.produce) or s.one_of or s.fixed)
"""The cards and wonders that change what their owner pays (production, trading)."""

_FIXED = {i: tuple(r in s.fixed for r in range(5)) for i, s in SPEC.items()}
"""Card or wonder -> per resource: it sets the trading price to 1 coin (§6.3)."""

_EMPTY = Profile(produce=(0, 0, 0, 0, 0), one_of=(), fixed=(False,) * 5, chains=0, counts=(0,) * len(COLORS),
                 symbols=(), supply=_supply((0, 0, 0, 0, 0), (), (False,) * 5))


@lru_cache(maxsize=MAX_ENTRIES)
def profile(cards: tuple[str, ...]) -> Profile:
    """The profile of a city with these buildings, built from the profile without the
    last one (cached, so a new building costs one step)."""
    if not cards:
        return _EMPTY
    p = profile(cards[:-1])
    s = SPEC[cards[-1]]
    counts = list(p.counts)
    counts[_COLOR_INDEX[s.color]] += 1
    if not (s.provides or s.symbol or s.id in _SUPPLIERS):  # most cards: only a count changes
        return replace(p, counts=tuple(counts))
    produce, one_of, fixed = p.produce, p.one_of, p.fixed
    supply_ = p.supply
    if s.id in _SUPPLIERS:
        produce = tuple(map(add, produce, s.produce))  # type: ignore[assignment]
        one_of = tuple(sorted((*one_of, s.one_of))) if s.one_of else one_of
        fixed = tuple(map(or_, fixed, _FIXED[s.id])) if s.fixed else fixed
        supply_ = _supply(produce, one_of, fixed)
    return Profile(produce=produce, one_of=one_of, fixed=fixed, supply=supply_,
                   chains=p.chains | CHAIN_BIT[s.provides] if s.provides else p.chains, counts=tuple(counts),
                   symbols=(*p.symbols, s.symbol) if s.symbol else p.symbols)


@lru_cache(maxsize=1 << 14)
def supply(mine: Supply, built: tuple[str, ...]) -> Supply:
    """A city's supply with the "one of" production of its built wonders (§6.2)."""
    extra = tuple([SPEC[w].one_of for w in built if SPEC[w].one_of])
    if not extra:
        return mine
    return _supply(mine.produce, tuple(sorted((*mine.one_of, *extra))), mine.fixed)


def prices(fixed: tuple[bool, ...], opponent_produce: Vec) -> Vec:
    """Unit price of each resource: 1 with a trade card, else 2 + the opponent's
    brown/grey production of it (§6.3)."""
    f0, f1, f2, f3, f4 = fixed
    s0, s1, s2, s3, s4 = opponent_produce
    return (1 if f0 else 2 + s0, 1 if f1 else 2 + s1, 1 if f2 else 2 + s2, 1 if f3 else 2 + s3, 1 if f4 else 2 + s4)


@lru_cache(maxsize=MAX_ENTRIES)
def _saving(missing: Vec, one_of: tuple[tuple[int, ...], ...], unit: Vec) -> int:
    """The most the "one of" sources save on `missing` units: each covers one missing unit
    of one of its options (§6.2); every assignment is tried."""
    best = 0
    for choice in product(*one_of):
        left = list(missing)
        saved = 0
        for r in choice:
            if left[r]:
                left[r] -= 1
                saved += unit[r]
        if saved > best:
            best = saved
    return best


@lru_cache(maxsize=MAX_ENTRIES)
def _buy(missing: Vec, one_of: tuple[tuple[int, ...], ...], unit: Vec, waived: int) -> int:
    """The cheapest purchase of `missing` units with the "one of" sources (§6.3, §6.5)."""
    if not waived:
        return sum(m * u for m, u in zip(missing, unit)) - _saving(missing, one_of, unit)
    cheapest = None
    for choice in product(*one_of):
        left = list(missing)
        for r in choice:
            if left[r]:
                left[r] -= 1
        units = sorted((unit[r] for r in range(5) for _ in range(left[r])), reverse=True)
        total = sum(units[waived:])  # the reduction drops the most expensive units
        if cheapest is None or total < cheapest:
            cheapest = total
    return cheapest or 0


@lru_cache(maxsize=1 << 12)
def _useful(one_of: tuple[tuple[int, ...], ...], lacking: int) -> tuple[tuple[int, ...], ...]:
    """The "one of" sources that can give a lacking resource (bit r of `lacking`), each
    reduced to those options."""
    return tuple(o for o in (tuple(r for r in src if lacking >> r & 1) for src in one_of) if o)


@lru_cache(maxsize=1 << 14)
def _sources(one_of: tuple[tuple[int, ...], ...], lacking: int, unit: Vec) -> tuple[tuple[tuple[int, ...], ...], int]:
    """`_useful(one_of, lacking)` and, when a single source is useful, what it saves: the
    dearest unit it can give (0 otherwise)."""
    useful = _useful(one_of, lacking)
    return useful, max([unit[r] for r in useful[0]]) if len(useful) == 1 else 0


@lru_cache(maxsize=1 << 12)
def _sourced(one_of: tuple[tuple[int, ...], ...]) -> int:
    """Bitmask of the resources some "one of" source may give."""
    return sum(1 << r for r in {r for src in one_of for r in src})


def trade_cost(need: Vec, mine: Supply, theirs: Profile, waived: int = 0) -> int:
    """Coins to the bank (or the Economy holder) for the resources `need` (§6.3, §6.5)."""
    return _trade_cost(need, mine, theirs.produce, waived)


def _trade_cost(need: Vec, mine: Supply, seller: Vec, waived: int) -> int:
    # unrolled over the five resources
    n0, n1, n2, n3, n4 = need
    p0, p1, p2, p3, p4 = mine.produce
    m0 = n0 - p0 if n0 > p0 else 0
    m1 = n1 - p1 if n1 > p1 else 0
    m2 = n2 - p2 if n2 > p2 else 0
    m3 = n3 - p3 if n3 > p3 else 0
    m4 = n4 - p4 if n4 > p4 else 0
    if not (m0 or m1 or m2 or m3 or m4):
        return 0
    unit = prices(mine.fixed, seller)
    missing = (m0, m1, m2, m3, m4)
    # only the options of a "one of" source that are still missing matter
    sources = tuple(o for o in (tuple(r for r in src if missing[r]) for src in mine.one_of) if o) if mine.one_of else ()
    if not sources and not waived:
        return m0 * unit[0] + m1 * unit[1] + m2 * unit[2] + m3 * unit[3] + m4 * unit[4]
    return _buy(missing, sources, unit, waived)


class Market(msgspec.Struct, gc=False):
    """What one buyer pays one seller for resources in one situation (§6.3, §6.5): the
    buyer's supply, the unit prices, the reductions held, and the trade cost of every
    card or wonder asked about so far (`costs`, filled by `trade_for`). Shared by every
    turn with the same situation, so most of a turn's prices are dictionary hits.
    (`gc=False`: it holds no cycles, and thousands live in the caches.)"""

    supply: Supply
    seller: Vec
    masonry: bool
    architecture: bool
    unit: Vec
    dearest: int  # no unit costs more: a bound on any construction's price
    sourced: int  # bitmask of the resources some "one of" source may give
    costs: dict[str, int]


def _market_for(mine: Supply, seller: Vec, masonry: bool, architecture: bool) -> Market:
    unit = prices(mine.fixed, seller)
    return Market(mine, seller, masonry, architecture, unit, max(unit), _sourced(mine.one_of), {})


def _source_saving(m: Market, need: Vec, lacking: int) -> int:
    """What the "one of" sources save on the units of `need` the buyer lacks (bit r of
    `lacking`): one useful source covers the dearest unit it can; several are assigned
    every way (`_saving`)."""
    useful, single = _sources(m.supply.one_of, lacking, m.unit)
    if single:
        return single
    produce = m.supply.produce
    missing = tuple([n - p if n > p else 0 for n, p in zip(need, produce)])
    return _saving(missing, useful, m.unit)  # type: ignore[arg-type]


_MARKETS: Memo[tuple[Supply, Vec, bool, bool], Market] = Memo(MAX_ENTRIES)
"""Markets shared by buyers in the same situation; once full, the oldest leave one at a
time (`games.memo`), never all at once."""


@lru_cache(maxsize=MAX_ENTRIES)
def market(mine: Supply, built: tuple[str, ...], seller: Vec, masonry: bool, architecture: bool) -> Market:
    """The market of a buyer with this supply of buildings and these built wonders (their
    "one of" production joins it, §6.2), with Masonry / Architecture or not, against a
    seller with this brown/grey production. Buyers in the same situation share one."""
    have = supply(mine, built)
    key = (have, seller, masonry, architecture)
    m = _MARKETS.get(key)
    if m is None:
        m = _MARKETS.put(key, _market_for(have, seller, masonry, architecture))
    return m


def trade_for(m: Market, item: str) -> int:
    """Coins traded for `item` (a card or wonder id) on this market, computed on first use:
    the same as `trade_cost`, by the shortest way for the case at hand."""
    cost = m.costs.get(item)
    if cost is None:
        spec = SPEC[item]
        produce, unit = m.supply.produce, m.unit
        cost = lacking = 0
        for r, n in spec.units:  # every missing unit at its unit price, then
            if n > produce[r]:
                cost += (n - produce[r]) * unit[r]
                lacking |= 1 << r
        if lacking:  # the exact search when a reduction or a "one of" source applies
            if (m.masonry and spec.color == "blue") or (m.architecture and spec.color == "wonder"):
                cost = _trade_cost(spec.need, m.supply, m.seller, REDUCTION)
            elif m.sourced & lacking:
                cost -= _source_saving(m, spec.need, lacking)
        m.costs[item] = cost
    return cost


def describe_prices(mine: Supply, theirs: Profile) -> str:
    """'wood 3, clay 2, ...' for messages."""
    unit = prices(mine.fixed, theirs.produce)
    return ", ".join(f"{RESOURCES[r]} {unit[r]}" for r in range(5))
