"""Production and commerce (§5.2, §6): every distinct way to pay for a construction.

A city's production is a set of supply vectors (W, S, C, O, G, L, P): one vector per way
of setting its either-or sources. What a neighbour may sell is the same over its board's
starting resource and its brown and grey cards only (never yellow cards or wonder stages).
A way to pay is a purchase from each neighbour; two ways are distinct when they send
different coins to the left or to the right. `ways` lists minimal purchases only (no unit
the city could make itself); `decide` also accepts, when the command names it, a plan that
buys a type the city makes (§6 [interpretation]), never more units than the cost needs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import count, product
from operator import add, itemgetter

import msgspec
from msgspec.structs import replace

from games.memo import MAX_ENTRIES, Memo
from games.seven_wonders.boards import BOARDS
from games.seven_wonders.catalog import CATALOG, MANUFACTURED, RAW, RESOURCES, Produce, TradeDiscount, Vec, vec
from games.seven_wonders.edifice import EDIFICE, ProduceOneOf
from games.seven_wonders.state import City

RESOURCE_NAMES = {"W": "wood", "S": "stone", "C": "clay", "O": "ore", "G": "glass", "L": "loom", "P": "papyrus"}
_RAW_IDX = tuple(RESOURCES.index(r) for r in RAW)
_MAN_IDX = tuple(RESOURCES.index(r) for r in MANUFACTURED)


class Way(msgspec.Struct, frozen=True, gc=False):
    """One way to pay: coins to each neighbour and the units bought from each."""

    left: int
    right: int
    from_left: Vec
    from_right: Vec

    @property
    def total(self) -> int:
        return self.left + self.right


class Info(msgspec.Struct, frozen=True, gc=False):
    """What the rules need to know of a city, derived from its board and structures."""

    own: tuple[Vec, ...]  # every supply vector of the whole city (§5.2)
    sell: tuple[Vec, ...]  # every supply vector a neighbour may buy from (§6)
    left_price: Vec  # what this city pays per unit bought from its left neighbour
    right_price: Vec
    names: frozenset[str]  # names of its structures (duplicate rule, chains)
    # What `own` and `sell` are made of: fixed units, and one type of each either-or
    # source (sorted); kept so that a city one structure larger is derived from this one.
    fixed: Vec = (0,) * 7  # type: ignore[assignment]
    either: tuple[str, ...] = ()
    fixed_sell: Vec = (0,) * 7  # type: ignore[assignment]
    either_sell: tuple[str, ...] = ()
    # Small ints standing for `own`, `sell` and the two prices (`_id_of`): the payment memo
    # is keyed on them, not on the vectors, which would be hashed whole at each look-up.
    own_id: int = 0
    sell_id: int = 0
    price_id: int = 0
    # The most of each type the city makes at once, and sells: all a cost of one type
    # depends on (`_one_type`).
    own_max: Vec = (0,) * 7  # type: ignore[assignment]
    sell_max: Vec = (0,) * 7  # type: ignore[assignment]


CityKey = tuple[str, str, int, tuple[str, ...], tuple[str, ...]]


def city_key(c: City) -> CityKey:
    """What production and prices depend on (not coins)."""
    return (c.wonder, c.side, c.stages, c.built, c.rewards)


def stage_effects(c: City) -> tuple:
    """The effects of the built stages of the city's board (with the alternatives picked on
    a board that offers them)."""
    return _stage_effects(c.wonder, c.side, c.stages, c.stage_options)


@lru_cache(maxsize=4096)  # boards x sides x stages x the few alternatives picked
def _stage_effects(wonder: str, side_name: str, stages: int, options: tuple) -> tuple:
    side = BOARDS[wonder].sides[side_name]
    if not options:
        return tuple([e for st in side.stages[:stages] for e in st.effects])
    return tuple([e for k, st in enumerate(side.stages[:stages])
                  for e in (st.options[options[k] - 1] if st.options else st.effects)])


def info(c: City) -> Info:
    """The production and prices of city `c` (cached on board, stages and structures)."""
    return _info(city_key(c))


_infos: Memo[CityKey, Info] = Memo(8192)
"""Productions by city key. Each entry is asked for while its city is the latest (its own
turn and its neighbours'), so the oldest go first, one per insertion (`games.memo`)."""


def _info(key: CityKey) -> Info:
    """Cached on the key. A city is a function of its board and the multiset of its
    structures, so the city one structure smaller (its last card, else its last stage),
    if cached, extended by that structure's effects is the same Info (hot path: each turn
    every city grows by one, and its previous Info was asked for the turn before)."""
    hit = _infos.get(key)
    if hit is not None:
        return hit
    wonder, side, stages, built, rewards = key
    if built and (parent := _infos.get((wonder, side, stages, built[:-1], rewards))) is not None:
        card = CATALOG.cards[built[-1]]
        hit = _grown(parent, [(card.color, e) for e in card.effects], card.name)
    elif stages and (parent := _infos.get((wonder, side, stages - 1, built, rewards))) is not None:
        hit = _grown(parent, [("stage", e) for e in BOARDS[wonder].sides[side].stages[stages - 1].effects], None)
    else:
        hit = _whole(key)
    return _infos.put(key, hit)


def _info_cache_clear() -> None:
    _infos.clear()


_info.cache_clear = _info_cache_clear  # type: ignore[attr-defined]  # like functools' caches
_info.cache_info = lambda: len(_infos)  # type: ignore[attr-defined]


def _whole(key: CityKey) -> Info:
    wonder, side, stages, built, rewards = key
    start = vec(BOARDS[wonder].sides[side].starting_resource)
    base = Info(own=(), sell=(), left_price=(2,) * 7, right_price=(2,) * 7,  # type: ignore[arg-type]
                names=frozenset(), fixed=start, fixed_sell=start)
    effects = [(CATALOG.cards[cid].color, e) for cid in built for e in CATALOG.cards[cid].effects]
    effects += [
        ("stage", e) for st in BOARDS[wonder].sides[side].stages[:stages] for e in st.effects
    ]
    extra = tuple(r.options for cid in rewards  # Edifice: River Port / Factory, one of several, never sold (§9.1)
                  for r in EDIFICE.cards[cid].rewards if isinstance(r, ProduceOneOf))
    return _grown(replace(base, either=extra), effects, None, frozenset(CATALOG.cards[cid].name for cid in built))


def _grown(parent: Info, effects: list, name: str | None, names: frozenset[str] | None = None) -> Info:
    """`parent` with these (colour, effect) pairs added, and structure `name` (or `names`)."""
    if names is None:
        names = parent.names | {name} if name is not None else parent.names
    if parent.own and not any(type(e) is Produce or type(e) is TradeDiscount for _, e in effects):
        # Most structures change neither production nor prices: the same vectors, numbers
        # and memo entries as the city one structure smaller (`_whole`'s base has none yet).
        return replace(parent, names=names)
    fixed_all = list(parent.fixed)
    fixed_sell = list(parent.fixed_sell)
    either_all = list(parent.either)
    either_sell = list(parent.either_sell)
    left = list(parent.left_price)
    right = list(parent.right_price)
    for color, e in effects:
        if isinstance(e, Produce):
            sellable = e.tradable and color in ("brown", "grey")
            if len(e.options) == 1:
                i = RESOURCES.index(e.options)
                fixed_all[i] += e.amount
                if sellable:
                    fixed_sell[i] += e.amount
            else:
                either_all.append(e.options)
                if sellable:
                    either_sell.append(e.options)
        elif isinstance(e, TradeDiscount):
            for r in e.resources:
                i = RESOURCES.index(r)
                if "left" in e.sides:
                    left[i] = min(left[i], max(1, e.price))
                if "right" in e.sides:
                    right[i] = min(right[i], max(1, e.price))
    fixed, fsell = tuple(fixed_all), tuple(fixed_sell)
    either, esell = tuple(sorted(either_all)), tuple(sorted(either_sell))
    own, sell, prices = _supply(fixed, either), _supply(fsell, esell), (tuple(left), tuple(right))
    return Info(
        own=own,  # type: ignore[arg-type]
        sell=sell,  # type: ignore[arg-type]
        left_price=prices[0],  # type: ignore[arg-type]
        right_price=prices[1],  # type: ignore[arg-type]
        names=names,
        fixed=fixed,  # type: ignore[arg-type]
        either=either,
        fixed_sell=fsell,  # type: ignore[arg-type]
        either_sell=esell,
        own_id=_id_of(own),
        sell_id=_id_of(sell),
        price_id=_id_of(prices),
        own_max=tuple(map(max, *own)) if len(own) > 1 else own[0],  # type: ignore[arg-type]
        sell_max=tuple(map(max, *sell)) if len(sell) > 1 else sell[0],  # type: ignore[arg-type]
    )


_ids: Memo[tuple, int] = Memo(MAX_ENTRIES)
_serials = count(1)


def _id_of(value: tuple) -> int:
    """A number for `value`, the same while it stays in `_ids`; a value let go and met
    again gets a new one, never an old one, so a memo key of these numbers always means
    the same vectors (an entry under a forgotten number is just never found again)."""
    got = _ids.get(value)
    return got if got is not None else _ids.put(value, next(_serials))


@lru_cache(maxsize=8192)
def _supply(fixed: Vec, either: tuple[str, ...]) -> tuple[Vec, ...]:
    """Every vector the sources can supply at once: each either-or source picks one type.

    The either-or sources' vectors shifted by the fixed units (a shift keeps them distinct
    and sorted): cities that differ in fixed units only share the search."""
    if not either:
        return (fixed,)
    return tuple([tuple(map(add, fixed, v)) for v in _either(either)])  # type: ignore[misc]


@lru_cache(maxsize=4096)
def _either(either: tuple[str, ...]) -> tuple[Vec, ...]:
    """Every vector the either-or sources can supply at once, sorted."""
    out = {(0,) * 7}
    for options in either:
        out = {v[:i] + (v[i] + 1,) + v[i + 1 :] for v in out for i in (RESOURCES.index(r) for r in options)}
    return tuple(sorted(out))  # type: ignore[arg-type]


def ways(need: Vec, me: City, left: City, right: City, *, wasteful: bool = False) -> tuple[Way, ...]:
    """Every distinct way for `me` to cover `need` (§6), cheapest first.

    Order (the documented tie-break): fewest coins in total, then fewer coins to the right
    neighbour (so on a tie we buy from the left), then fewer to the left.
    """
    if not any(need):
        return (_FREE,)
    return _listed(need, _info(city_key(me)), _info(city_key(left)), _info(city_key(right)), wasteful)


def payer(me: City, left: City, right: City) -> Callable[[Vec], tuple[tuple[int, int], ...]]:
    """The coins (to the left, to the right) of each of `ways(need, me, left, right)`, in
    its order, as a function of `need` alone: what `legal_commands` lists for a whole
    hand of cards, the three cities' productions looked up once."""
    mine, lc, rc = _info(city_key(me)), _info(city_key(left)), _info(city_key(right))

    def pay(need: Vec) -> tuple[tuple[int, int], ...]:
        i = _TYPE_OF.get(need)
        if i is not None:
            short = need[i] - mine.own_max[i]
            if short <= 0:
                return _FREE_PAIR
            return _one_type(short, mine.left_price[i], mine.right_price[i], lc.sell_max[i], rc.sell_max[i])
        if not any(need):
            return _FREE_PAIR
        idx, cut = _types(need)
        own_id, own = _cut(mine.own_id, mine.own, idx, cut)
        ls_id, ls = _cut(lc.sell_id, lc.sell, idx, cut)
        rs_id, rs = _cut(rc.sell_id, rc.sell, idx, cut)
        wanted, lp, rp = cut(need), cut(mine.left_price), cut(mine.right_price)
        short = _short_lists.get((wanted, own_id))
        if short is None:
            short = _short_lists.put((wanted, own_id), _minimal(wanted, own))
        if len(short) == 1:
            return _bought(short[0], lp, rp, ls_id, rs_id, ls, rs)
        return tuple(sorted({p for m in short for p in _bought(m, lp, rp, ls_id, rs_id, ls, rs)}, key=_pair_order))
    return pay


_FREE = Way(0, 0, (0,) * 7, (0,) * 7)  # type: ignore[arg-type]
_FREE_PAIR = ((0, 0),)

_listings: Memo[tuple, tuple[Way, ...]] = Memo(MAX_ENTRIES)
"""`_ways` by need and the numbers of the productions and prices it depends on."""


def _listed(need: Vec, mine: Info, lc: Info, rc: Info, wasteful: bool) -> tuple[Way, ...]:
    """`_ways` for these cities' productions, memoized on their numbers."""
    key = (need, mine.own_id, mine.price_id, lc.sell_id, rc.sell_id, wasteful)
    hit = _listings.get(key)
    if hit is None:
        hit = _listings.put(key, _ways(need, mine.own, mine.left_price, mine.right_price, lc.sell, rc.sell, wasteful))
    return hit


_TYPE_OF: dict[Vec, int] = {
    tuple(k if j == i else 0 for j in range(7)): i for i in range(7) for k in range(1, 8)}  # type: ignore[misc]
"""The type of a cost of one type (1-7 units), by cost."""


@lru_cache(maxsize=4096)
def _one_type(short: int, lp: int, rp: int, lmax: int, rmax: int) -> tuple[tuple[int, int], ...]:
    """The coins of each way to buy `short` units of one type at these prices from
    neighbours selling at most `lmax` and `rmax` of it, in `_ways`' order: a one-type
    cost's one minimal shortfall is the cost less the most the city makes, and every
    purchase of a pair of neighbour settings is one of the pair selling the most. (43% of
    the costs asked for in random 5-player games; a few hundred keys occur.)"""
    pairs = [(x * lp, (short - x) * rp) for x in range(max(0, short - rmax), min(short, lmax) + 1)]
    return tuple(sorted(pairs, key=_pair_order))


def _pair_order(p: tuple[int, int]) -> tuple[int, int, int]:
    return (p[0] + p[1], p[1], p[0])


_cuts: Memo[tuple[int, tuple[int, ...]], tuple[int, tuple[tuple[int, ...], ...]]] = Memo(MAX_ENTRIES)


def _cut(vid: int, vectors: tuple[Vec, ...], idx: tuple[int, ...], cut: Callable
         ) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """`vectors` (numbered `vid`) cut down to the types `idx`, duplicates dropped, and
    their number: all the search for a cost of those types needs of a city."""
    got = _cuts.get((vid, idx))
    if got is None:
        v = tuple(dict.fromkeys(map(cut, vectors)))
        got = _cuts.put((vid, idx), (_id_of(v), v))
    return got


_short_lists: Memo[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]] = Memo(MAX_ENTRIES)
"""`_minimal` by the cut-down cost and the number of the city's cut-down production."""


def _minimal(need: tuple[int, ...], own: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """`_shortfalls` on vectors cut down to a cost's types: what each setting of the
    city's sources leaves missing, the minimal ones only."""
    short = {tuple([a - b if a > b else 0 for a, b in zip(need, o)]) for o in own}
    if len(short) > 1:
        short = {m for m in short if not any(o != m and all(a <= b for a, b in zip(o, m)) for o in short)}
    return tuple(short)


_bought_lists: Memo[tuple, tuple[tuple[int, int], ...]] = Memo(MAX_ENTRIES)
"""`_bought`'s answers by shortfall, prices and the numbers of the neighbours' cut-down sales."""


def _bought(m: tuple[int, ...], lp: tuple[int, ...], rp: tuple[int, ...], ls_id: int, rs_id: int,
            ls: tuple[tuple[int, ...], ...], rs: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """The coins of every split of shortfall `m` between neighbours selling one of `ls`
    (numbered `ls_id`) and one of `rs`, at prices `lp` and `rp`, in `_ways`' order
    (`_purchases`' boxes, on vectors cut down to a cost's types)."""
    key = (m, lp, rp, ls_id, rs_id)
    hit = _bought_lists.get(key)
    if hit is not None:
        return hit
    if not any(m):
        return _bought_lists.put(key, _FREE_PAIR)
    # A split (L from the left, m - L from the right) is possible exactly when one of the
    # left's settings covers L and one of the right's covers m - L: the two sides apart.
    right = _sellable(m, rs_id, rs)
    found = {(sum([a * p for a, p in zip(fl, lp)]), sum([(a - b) * p for a, b, p in zip(m, fl, rp)]))
             for fl in _sellable(m, ls_id, ls) if tuple([a - b for a, b in zip(m, fl)]) in right}
    return _bought_lists.put(key, tuple(sorted(found, key=_pair_order)))


_sellables: Memo[tuple, frozenset[tuple[int, ...]]] = Memo(MAX_ENTRIES)


def _sellable(m: tuple[int, ...], sid: int, sells: tuple[tuple[int, ...], ...]) -> frozenset[tuple[int, ...]]:
    """Every purchase of at most `m` that a neighbour selling one of `sells` (numbered
    `sid`) can make in one setting of its sources."""
    key = (m, sid)
    hit = _sellables.get(key)
    if hit is None:
        hit = _sellables.put(key, frozenset(
            fl for s in sells for fl in product(*(range((a if a < b else b) + 1) for a, b in zip(m, s)))))
    return hit


def _ways(need: Vec, own: tuple[Vec, ...], left_price: Vec, right_price: Vec, lsell: tuple[Vec, ...],
          rsell: tuple[Vec, ...], wasteful: bool = False) -> tuple[Way, ...]:
    """Every distinct way to cover `need` with production `own`, prices and the
    neighbours' sales (memoized by `_listed`: many cities share production and prices).

    `wasteful` also admits buying units the city could make itself (§6 [interpretation]:
    "a player may buy a type that his own city also produces"), never more units of a
    type than the construction needs.
    """
    minimal = _shortfalls(need, own) if not wasteful else _bought_totals(need, own)
    found: dict[tuple[int, int], Way] = {}
    for m in minimal:
        if not any(m):
            found[(0, 0)] = _FREE
            continue
        idx, bought = _purchases_of(m, left_price, right_price, lsell, rsell)
        for lc, rc, fl, fr in bought:
            if (lc, rc) not in found:
                found[(lc, rc)] = Way(lc, rc, _widen(idx, fl), _widen(idx, fr))
    return tuple(sorted(found.values(), key=_order))


def way_paying(need: Vec, me: City, left: City, right: City, to_left: int, to_right: int) -> Way | None:
    """The way of `ways(need, me, left, right)` that sends these coins to each neighbour,
    or None if there is none: the same Way, found without listing and ordering the others
    (a command names its payment, and the referee checks it on every build)."""
    if not any(need):
        return _FREE if to_left == to_right == 0 else None
    mine, lc, rc = _info(city_key(me)), _info(city_key(left)), _info(city_key(right))
    i = _TYPE_OF.get(need)
    if i is not None:  # one type: the coins name the split (prices are at least 1), `_one_type`'s range
        short = need[i] - mine.own_max[i]
        if short <= 0:
            return _FREE if to_left == to_right == 0 else None
        lp, rp = mine.left_price[i], mine.right_price[i]
        x, rest = divmod(to_left, lp)
        if rest or not 0 <= x <= short or x > lc.sell_max[i] or short - x > rc.sell_max[i] \
                or (short - x) * rp != to_right:
            return None
        fl, fr = [0] * 7, [0] * 7
        fl[i], fr[i] = x, short - x
        return Way(to_left, to_right, tuple(fl), tuple(fr))  # type: ignore[arg-type]
    return _way_paying(need, mine.own, mine.left_price, mine.right_price, lc.sell, rc.sell, to_left, to_right)


def _way_paying(need: Vec, own: tuple[Vec, ...], left_price: Vec, right_price: Vec, lsell: tuple[Vec, ...],
                rsell: tuple[Vec, ...], to_left: int, to_right: int) -> Way | None:
    """`_ways`' search, stopped at the first purchase with these coins: `_ways` keeps the
    first purchase it meets for each pair of coin amounts, in this same order."""
    for m in _shortfalls(need, own):
        if not any(m):  # the city covers it alone (then the only minimal shortfall)
            return _FREE if to_left == to_right == 0 else None
        idx, bought = _purchases_of(m, left_price, right_price, lsell, rsell)
        for lc, rc, fl, fr in bought:
            if lc == to_left and rc == to_right:
                return Way(lc, rc, _widen(idx, fl), _widen(idx, fr))
    return None


def _purchases_of(m: Vec, left_price: Vec, right_price: Vec, lsell: tuple[Vec, ...], rsell: tuple[Vec, ...]
                  ) -> tuple[tuple[int, ...], tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]]:
    """The types of shortfall `m` and `_purchases` of it. Only those types matter (a
    purchase is 0 elsewhere): the search runs on the vectors cut down to them, which many
    cities and costs share."""
    idx, cut = _types(m)
    return idx, _purchases(cut(m), cut(left_price), cut(right_price), tuple(dict.fromkeys(map(cut, lsell))),
                           tuple(dict.fromkeys(map(cut, rsell))))


def _order(w: Way) -> tuple[int, int, int]:
    """The documented order of ways: fewest coins, then fewer to the right, then to the left."""
    return (w.left + w.right, w.right, w.left)


@lru_cache(maxsize=1024)  # a few hundred shortfalls occur (156 in a bench drain)
def _types(m: Vec) -> tuple[tuple[int, ...], Callable[[Vec], tuple[int, ...]]]:
    """The indices of the types `m` has, and a function cutting a vector down to them
    (a tuple, also for one type)."""
    idx = tuple(i for i, a in enumerate(m) if a)
    if len(idx) <= 1:  # itemgetter needs an index and gives a bare value for one
        return idx, (lambda v: ()) if not idx else (lambda v, i=idx[0]: (v[i],))
    return idx, itemgetter(*idx)


@lru_cache(maxsize=MAX_ENTRIES)
def _purchases(mm: tuple[int, ...], lp: tuple[int, ...], rp: tuple[int, ...], ls: tuple[tuple[int, ...], ...],
               rs: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """Every way to buy the units `mm` (only the types a shortfall has, in index order) at
    prices `lp`/`rp` from neighbours that can sell any one of the vectors `ls`/`rs` (cut
    down to those types, duplicates dropped): (coins left, coins right, units from the
    left, units from the right), the first purchase found for each pair of coin amounts,
    in the order of the search (left supplies, then right supplies, then purchases)."""
    found: dict[tuple[int, int], tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {}
    # A purchase L from the left is possible with some left supply s and right supply r
    # exactly when max(0, m - r) <= L <= min(m, s): enumerate those boxes.
    for s in ls:
        hi = tuple(a if a < b else b for a, b in zip(mm, s))
        for r in rs:
            lo = tuple(a - b if a > b else 0 for a, b in zip(mm, r))
            if any(x > y for x, y in zip(lo, hi)):
                continue
            for fl in product(*(range(x, y + 1) for x, y in zip(lo, hi))):
                lc = sum(a * p for a, p in zip(fl, lp))
                fr = tuple(a - b for a, b in zip(mm, fl))
                rc = sum(a * p for a, p in zip(fr, rp))
                if (lc, rc) not in found:
                    found[(lc, rc)] = (lc, rc, fl, fr)
    return tuple(found.values())


def _widen(idx: tuple[int, ...], part: tuple[int, ...]) -> Vec:
    """The whole vector that has `part` on the types `idx` (in order) and 0 elsewhere."""
    v = [0] * 7
    for k, i in enumerate(idx):
        v[i] = part[k]
    return tuple(v)  # type: ignore[return-value]


def shortfall_message(name: str, need: Vec, me: City, left: City, right: City) -> str:
    """Why `need` cannot be covered at all, in words a player understands."""
    mine, lc, rc = info(me), info(left), info(right)
    for i, n in enumerate(need):
        if not n:
            continue
        own = max(v[i] for v in mine.own)
        sold = max(v[i] for v in lc.sell) + max(v[i] for v in rc.sell)
        if own + sold < n:
            res = RESOURCE_NAMES[RESOURCES[i]]
            return f"cannot afford {name}: needs {n} {res}, you make {own} and your neighbours sell {sold}"
    wanted = "".join(RESOURCES[i] * n for i, n in enumerate(need))
    return f"cannot afford {name}: your sources and your neighbours' cannot supply {wanted} at the same time"


@lru_cache(maxsize=4096)
def _bought_totals(need: Vec, own: tuple[Vec, ...]) -> tuple[Vec, ...]:
    """Every total purchase v with shortfall <= v <= need for some setting of the sources."""
    out: set[Vec] = set()
    for sup in own:
        low = tuple(a - b if a > b else 0 for a, b in zip(need, sup))
        out.update(product(*(range(x, n + 1) for x, n in zip(low, need))))  # type: ignore[arg-type]
    return tuple(sorted(out))


@lru_cache(maxsize=MAX_ENTRIES)
def _shortfalls(need: Vec, own: tuple[Vec, ...]) -> tuple[Vec, ...]:
    """What is still missing after the city's own production, for each way to set it;
    minimal ones only (a larger shortfall would buy units the plan does not need), sorted.

    Worked out on the types `need` has only (elsewhere every shortfall is 0)."""
    idx, cut = _types(need)
    if len(idx) == 1:  # one type: the most the city makes of it leaves the one minimal shortfall
        i = idx[0]
        short = need[i] - max([s[i] for s in own])
        return ((0,) * i + (short if short > 0 else 0,) + (0,) * (6 - i),)  # type: ignore[return-value]
    missing = _minimal(cut(need), tuple(map(cut, own)))
    return tuple([_widen(idx, m) for m in sorted(missing)])  # the whole vectors' order: 0 on every other type


def describe(way: Way) -> str:
    """'2 coins to the left (W, S)' style summary of a purchase."""
    parts = []
    for side, coins, units in (("left", way.left, way.from_left), ("right", way.right, way.from_right)):
        if any(units):
            got = "".join(RESOURCES[i] * k for i, k in enumerate(units))
            parts.append(f"{coins} to the {side} for {got}")
    return ", ".join(parts) if parts else "own production"
