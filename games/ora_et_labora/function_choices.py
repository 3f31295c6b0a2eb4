"""The ways a seat may use an Ora et Labora building now (§11): one `Use` per distinct result,
each of which `resolve` accepts (a representative set where payments could be mixed in many ways).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, product

import msgspec

from games.contract import Rejection
from games.ora_et_labora import goods as G
from games.ora_et_labora.catalog import (
    CATALOG,
    Building,
    Convert,
    ConvertBasicPair,
    ConvertChoice,
    ExtraAction,
    Gain,
    GainChoice,
    GainPointsGoods,
    JokerTake,
    RemoveForest,
    UpgradeChain,
    UseBuilding,
    WheelTake,
)
from games.ora_et_labora.commands import Use
from games.ora_et_labora.function_steps import resolve, work_through
from games.ora_et_labora.function_work import (
    ACTION_GOOD,
    CLEARING,
    Outcome,
    Work,
    building_row,
    chain_of,
    counts_times,
    option_good,
    point_budget,
    target_problem,
    value_asks,
)
from games.ora_et_labora.landscape import Cell, spaces_with
from games.ora_et_labora.state import Place, State


LIMIT = 40  # at most this many entries from `choices`
CHEAP: tuple[str, ...] = (
    "straw", "grain", "wood", "clay", "peat", "livestock", "flour", "grapes", "malt", "coin", "coin5", "coal",
    "stone", "meat", "bread", "beer", "wine", "whiskey", "book", "ceramic", "ornament", "reliquary",
)
"""Goods from the least to the most valuable: `choices` pays with the first ones it can
(never a Wonder, §15 #4)."""
assert set(CHEAP) | {"wonder"} == set(G.GOODS) | {"coin5"}


class _Part(msgspec.Struct, frozen=True, kw_only=True):
    """One step's share of a `Use` (merged in step order)."""

    joker: bool = False
    goods: tuple[str, ...] = ()
    times: tuple[int, ...] = ()
    cells: tuple[Cell, ...] = ()
    take: dict[str, int] = {}
    target: Place | None = None


def _have(avail: Mapping[str, int], key: str) -> int:
    """What a holding (as a dict) can give of a good or a value, straw flipped from grain."""
    if key == "food":
        return G.food(avail)
    if key == "energy":
        return G.energy_halves(avail) + avail.get("grain", 0)
    return avail.get(key, 0) + (avail.get("grain", 0) if key == "straw" else 0)


def _bound(s: Convert | ConvertChoice | ConvertBasicPair, avail: Mapping[str, int]) -> int:
    """An upper bound of the repetitions the holding could pay."""
    def most(amounts: Mapping[str, int | float]) -> int:
        per = {k: (v * 2 if k == "energy" else v) for k, v in amounts.items()}
        return min(int(_have(avail, k) // v) for k, v in per.items())
    cap = sum(most(o) for o in s.in_options) if isinstance(s, ConvertChoice) else most(s.in_)
    return cap if s.max is None else min(cap, s.max)


def _counts(bound: int) -> list[int]:
    """Every count up to a small bound (the bound is optimistic: goods counted for food and
    for energy at once may not stretch that far); a sample of a large one."""
    if bound <= 8:
        return list(range(bound + 1))
    return sorted({n for n in (0, 1, 2, bound // 2, bound - 1, bound) if 0 <= n <= bound})


_REST = {0: {}, 1: {}, 2: {"book": 1}, 3: {"ceramic": 1}, 4: {"ornament": 1}, 5: {"ceramic": 1, "book": 1},
         6: {"ornament": 1, "book": 1}, 7: {"ornament": 1, "ceramic": 1}}
"""The most points under 8 from books 2, ceramics 3, ornaments 4 (§10 A): all but 1 exactly."""


def _best_mix(budget: int) -> dict[str, int]:
    """Point goods worth as much as possible within `budget` (any budget of 2 or more is met
    exactly: a leftover 1 turns a reliquary into ornament + ceramic + book)."""
    reliquaries, rest = divmod(budget, G.POINTS["reliquary"])
    if rest == 1 and reliquaries:
        reliquaries, rest = reliquaries - 1, rest + G.POINTS["reliquary"]
    mix = {"reliquary": reliquaries} if reliquaries else {}
    if rest == 9:
        mix |= {"ornament": 1, "ceramic": 1, "book": 1}
    else:
        mix |= _REST[rest]
    return mix


def _point_mixes(budget: int) -> list[dict[str, int]]:
    """The most points within `budget`, only books, one book (§15 #8, #9)."""
    mixes = [_best_mix(budget), {"book": budget // 2}, {"book": min(1, budget // 2)}]
    out: list[dict[str, int]] = []
    for m in mixes:
        m = {g: n for g, n in m.items() if n}
        if m and m not in out:
            out.append(m)
    return out


def _targets(state: State, seat: int, place: Place, s: UseBuilding) -> list[Place]:
    if s.target == "display_unbuilt":
        found = [(-1, b) for b in state.display]
    else:
        found = [(o, sp.built) for o, owner in enumerate(state.owners) for sp in owner.land.spaces
                 if sp.built in CATALOG.buildings]
    chain = (*chain_of(state, place), place)
    return [t for t in found if t not in chain and not target_problem(state, seat, place, s, t)]


def _options(state: State, seat: int, place: Place, row: Building) -> list[list[_Part]]:
    """For each step, the representative shares of a `Use`."""
    land = state.owners[seat].land
    avail = G.as_dict(state.owners[seat].goods)  # an upper bound of what each step can use
    counted = counts_times(row)
    out: list[list[_Part]] = []
    for s in row.effect_steps:
        opts = [_Part()]
        match s:
            case WheelTake():
                opts = [_Part(joker=j, goods=(g,) if s.choose else ()) for g in s.goods for j in (False, True)]
            case JokerTake():
                opts = [_Part(goods=(g,)) for g in s.goods]
            case Convert() | ConvertChoice() | ConvertBasicPair():
                bound = _bound(s, avail)
                if not isinstance(s, ConvertBasicPair):
                    for g, v in s.out.items():
                        avail = {**avail, g: avail.get(g, 0) + int(v) * bound}
                counts = _counts(bound) if counted else [1]
                if isinstance(s, ConvertBasicPair):
                    pairs = [(x, y) for x in G.BASIC for y in G.BASIC if x != y]
                    opts = [_Part(times=(n,) if counted else (), goods=p if n else ())
                            for n in counts for p in (pairs if n else [()])]
                else:
                    opts = [_Part(times=(n,) if counted else ()) for n in counts]
            case Gain():
                avail = {**avail, **{g: avail.get(g, 0) + int(v) for g, v in s.out.items()}}
            case GainChoice():
                opts = [_Part(goods=(option_good(o),)) for o in s.options]
            case GainPointsGoods():
                opts = [_Part(take=m) for m in _point_mixes(point_budget(state, seat, s))]
            case UpgradeChain():
                pairs = [f"{a}>{b}" for a, b in zip(s.chain, s.chain[1:])]
                opts = [_Part(take={p: n for p, n in zip(pairs, ns) if n})
                        for ns in product(range(s.steps_max + 1), repeat=len(pairs)) if 0 < sum(ns) <= s.steps_max]
            case RemoveForest():
                forests = [sp.cell for sp in spaces_with(land, "forest")]
                opts = [_Part(cells=tuple(forests[:k])) for k in range(0 if not s.required else 1,
                                                                        min(s.max, len(forests)) + 1)]
            case ExtraAction():
                first = {g: [sp.cell for sp in spaces_with(land, CLEARING[g])][:1]
                         for g in (ACTION_GOOD[a] for a in s.actions)}
                usable = [g for g, cells in first.items() if cells]
                opts = [_Part(goods=chosen, times=flags, cells=tuple(first[g][0] for g in chosen))
                        for r in range(1, len(usable) + 1) for chosen in combinations(usable, r)
                        for flags in product((0, 1), repeat=r)]
            case UseBuilding():
                opts = ([_Part()] if s.optional else []) + [_Part(target=t) for t in _targets(state, seat, place, s)]
        out.append(opts)
    return out


def _merge(parts: tuple[_Part, ...]) -> Use:
    return Use(joker=any(p.joker for p in parts), goods=tuple(g for p in parts for g in p.goods),
               times=tuple(n for p in parts for n in p.times), cells=tuple(c for p in parts for c in p.cells),
               take=next((p.take for p in parts if p.take), {}),
               target=next((p.target for p in parts if p.target is not None), None))


def _pay_tiles(holding: tuple[int, ...], enough, order: tuple[str, ...], distinct: bool) -> dict[str, int] | None:
    """Add one tile at a time in `order` (each type once if `distinct`) until `enough(pay)`."""
    pay: dict[str, int] = {}
    for g in order:
        while not enough(pay):
            trial = {**pay, g: pay.get(g, 0) + 1}
            if isinstance(G.take(holding, trial), str):
                break
            pay = trial
            if distinct:
                break
    return pay if enough(pay) else None


def _payments(w: Work) -> list[dict[str, int]]:
    """One deterministic payment per distinct value requirement (§2.2): cheapest goods first."""
    if w.different:
        found = _pay_tiles(w.holding, lambda p: len(p) >= w.different, CHEAP, True)
        return [found] if found is not None else []
    if w.points:
        order = tuple(sorted((g for g in CHEAP if g in G.POINTS), key=lambda g: G.POINTS[g]))
        found = _pay_tiles(w.holding, lambda p: G.printed_points(p) >= w.points, order, False)
        return [found] if found is not None else []
    if not (w.food or w.energy or w.either or w.tiers):
        return [{}]
    out: list[dict[str, int]] = []
    holding = w.holding
    if w.got.get("coin"):  # paying coins as food for coins gains nothing: pay with other food
        holding = G.take(holding, {"coin": G.count(holding, "coin")})  # type: ignore[assignment]
    for food, halves in value_asks(w, tuple(e for e, _ in w.tiers) or (0,)):
        found = G.value_payment(holding, food, halves, CHEAP)  # type: ignore[arg-type]
        if found is not None and found not in out:
            out.append(found)
    return out


def choices(state: State, seat: int, building: Place) -> list[Use]:
    """A deterministic, representative list (at most LIMIT) of the ways `seat` may use the
    function of `building` now, every one accepted by `resolve`: each wheel good with and
    without the joker; counts 0, 1, 2, half, all but one and all that the goods allow; one
    payment per requirement (cheapest goods first); every target; a few point-goods mixes."""
    row = building_row(state, building)
    if isinstance(row, Rejection):
        return []
    found: list[Use] = []
    seen: set[bytes] = set()
    for parts in product(*_options(state, seat, building, row)):
        base = _merge(parts)
        w = work_through(state, seat, building, row, base)
        if isinstance(w, Rejection):
            continue
        for pay in _payments(w):
            use = msgspec.structs.replace(base, pay=pay)
            key = msgspec.json.encode(use)
            if key in seen or not isinstance(resolve(state, seat, building, use), Outcome):
                continue
            seen.add(key)
            found.append(use)
            if len(found) == LIMIT:
                return found
    return found
