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

import msgspec

from games.seven_wonders_duel.catalog import CATALOG, COLORS, RESOURCES, Vec

SPEC = CATALOG.spec
_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}


class Supply(msgspec.Struct, frozen=True, gc=False, cache_hash=True):
    """What a city's payments depend on; shared by every city with the same supply."""

    produce: Vec  # brown/grey production: the opponent's trading prices read it (§6.3)
    one_of: tuple[tuple[int, ...], ...]  # "one of" sources (§6.2)
    fixed: tuple[bool, ...]  # per resource: traded at 1 coin (§6.3)


@lru_cache(maxsize=1 << 12)
def _supply(produce: Vec, one_of: tuple[tuple[int, ...], ...], fixed: tuple[bool, ...]) -> Supply:
    return Supply(produce, one_of, fixed)


class Profile(msgspec.Struct, frozen=True, gc=False):
    """What the rules need to know of a city's buildings (not coins, not wonders)."""

    produce: Vec  # brown/grey production: the opponent's trading prices read it (§6.3)
    one_of: tuple[tuple[int, ...], ...]  # "one of" sources of its yellow cards (§6.2)
    fixed: tuple[bool, ...]  # per resource: traded at 1 coin (§6.3)
    chains: frozenset[str]  # chain symbols of its buildings (§6.4)
    counts: tuple[int, ...]  # buildings per colour, in COLORS order
    symbols: tuple[str, ...]  # science symbols of its green cards (§8)
    supply: Supply  # produce, one_of and fixed, interned


_EMPTY = Profile(produce=(0, 0, 0, 0, 0), one_of=(), fixed=(False,) * 5, chains=frozenset(), counts=(0,) * len(COLORS),
                 symbols=(), supply=_supply((0, 0, 0, 0, 0), (), (False,) * 5))


@lru_cache(maxsize=1 << 14)
def profile(cards: tuple[str, ...]) -> Profile:
    """The profile of a city with these buildings, built from the profile without the
    last one (cached, so a new building costs one step)."""
    if not cards:
        return _EMPTY
    p = profile(cards[:-1])
    s = SPEC[cards[-1]]
    counts = list(p.counts)
    counts[_COLOR_INDEX[s.color]] += 1
    produce, one_of, fixed = p.produce, p.one_of, p.fixed
    if any(s.produce) or s.one_of or s.fixed:
        produce = tuple(a + b for a, b in zip(produce, s.produce))  # type: ignore[assignment]
        one_of = tuple(sorted((*one_of, s.one_of))) if s.one_of else one_of
        fixed = tuple(f or r in s.fixed for r, f in enumerate(fixed))
    return Profile(produce=produce, one_of=one_of, fixed=fixed, supply=_supply(produce, one_of, fixed),
                   chains=p.chains | {s.provides} if s.provides else p.chains, counts=tuple(counts),
                   symbols=(*p.symbols, s.symbol) if s.symbol else p.symbols)


@lru_cache(maxsize=1 << 12)
def supply(mine: Supply, built: tuple[str, ...]) -> Supply:
    """A city's supply with the "one of" production of its built wonders (§6.2)."""
    extra = tuple(SPEC[w].one_of for w in built if SPEC[w].one_of)
    if not extra:
        return mine
    return _supply(mine.produce, tuple(sorted((*mine.one_of, *extra))), mine.fixed)


def prices(fixed: tuple[bool, ...], opponent_produce: Vec) -> Vec:
    """Unit price of each resource: 1 with a trade card, else 2 + the opponent's
    brown/grey production of it (§6.3)."""
    return tuple(1 if fixed[r] else 2 + opponent_produce[r] for r in range(5))  # type: ignore[return-value]


@lru_cache(maxsize=1 << 16)
def _buy(missing: Vec, one_of: tuple[tuple[int, ...], ...], unit: Vec, waived: int) -> int:
    """The cheapest purchase of `missing` units with the "one of" sources (§6.3, §6.5)."""
    if not waived:
        # each source covers one missing unit: keep the assignment that saves the most
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
        return sum(m * u for m, u in zip(missing, unit)) - best
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


_COSTS: dict[tuple[Vec, Supply, Vec, int], int] = {}
_COSTS_MAX = 1 << 18


def trade_cost(need: Vec, mine: Supply, theirs: Profile, waived: int = 0) -> int:
    """Coins to the bank (or the Economy holder) for the resources `need` (§6.3, §6.5).
    Memoised on what it depends on (the hot path of every turn): the buyer's interned
    supply and the seller's brown/grey production."""
    key = (need, mine, theirs.produce, waived)
    cost = _COSTS.get(key)
    if cost is None:
        if len(_COSTS) >= _COSTS_MAX:
            _COSTS.clear()
        cost = _COSTS[key] = _trade_cost(need, mine, theirs.produce, waived)
    return cost


def _trade_cost(need: Vec, mine: Supply, seller: Vec, waived: int) -> int:
    # unrolled over the five resources: this runs on every change of either city
    n0, n1, n2, n3, n4 = need
    p0, p1, p2, p3, p4 = mine.produce
    m0 = n0 - p0 if n0 > p0 else 0
    m1 = n1 - p1 if n1 > p1 else 0
    m2 = n2 - p2 if n2 > p2 else 0
    m3 = n3 - p3 if n3 > p3 else 0
    m4 = n4 - p4 if n4 > p4 else 0
    if not (m0 or m1 or m2 or m3 or m4):
        return 0
    f0, f1, f2, f3, f4 = mine.fixed
    s0, s1, s2, s3, s4 = seller
    unit = (1 if f0 else 2 + s0, 1 if f1 else 2 + s1, 1 if f2 else 2 + s2, 1 if f3 else 2 + s3,
            1 if f4 else 2 + s4)
    missing = (m0, m1, m2, m3, m4)
    # only the options of a "one of" source that are still missing matter
    sources = tuple(o for o in (tuple(r for r in src if missing[r]) for src in mine.one_of) if o)
    if not sources and not waived:
        return m0 * unit[0] + m1 * unit[1] + m2 * unit[2] + m3 * unit[3] + m4 * unit[4]
    return _buy(missing, sources, unit, waived)


_TABLES: dict[tuple[Supply, Vec, bool, bool], dict[str, int]] = {}


def trade_table(mine: Supply, theirs: Profile, masonry: bool, architecture: bool) -> dict[str, int]:
    """id -> coins traded for that card or wonder by this buyer against this seller,
    filled lazily (`trade_for`); one table per situation, so a turn's lookups are plain
    dictionary hits."""
    key = (mine, theirs.produce, masonry, architecture)
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) >= _COSTS_MAX:
            _TABLES.clear()
        table = _TABLES[key] = {}
    return table


def trade_for(table: dict[str, int], item: str, mine: Supply, theirs: Profile, masonry: bool,
              architecture: bool) -> int:
    """The table's entry for `item` (a card or wonder id), computed on first use."""
    cost = table.get(item)
    if cost is None:
        spec = SPEC[item]
        waived = 2 if (masonry and spec.color == "blue") or (architecture and spec.color == "wonder") else 0
        cost = table[item] = trade_cost(spec.need, mine, theirs, waived)
    return cost


def describe_prices(mine: Supply, theirs: Profile) -> str:
    """'wood 3, clay 2, ...' for messages."""
    unit = prices(mine.fixed, theirs.produce)
    return ", ".join(f"{RESOURCES[r]} {unit[r]}" for r in range(5))
