"""Building functions (§11): what using a building does, and the ways a seat may use it.

`resolve(state, seat, building, use)` judges one `Use` command for the building waiting in
the top `UseFunction` decision and returns the `Outcome` (every good paid and gained, the
wheel after it, cards removed, Wonders taken, clergymen returned, and the decisions the
function opens next), or a Rejection. `choices(state, seat, building)` lists the ways a
seat may use it now, each of which `resolve` accepts (a representative set: one payment
per distinct result where payments could be mixed in many ways).
`clear(state, seat, good, cell, joker)` is Fell Trees / Cut Peat (§7.2), shared with the
Calefactory.

Pure: reads the state, never changes it.

Every function is read from its catalog row's `effect_steps`, one step after the other, so
a disputed row switched in the seed data (§16) changes the behaviour without code. Goods
produced by a step may be used by a later one ("then, additionally or instead", §11.1: the
Bakery sells bread it has just baked); goods given in `pay` come from the holding as it was.

How a `Use` carries the choices (the same reading for every building):

* `times` — one count per *counted* conversion step (convert, convert_choice,
  convert_basic_pair), in step order; a missing entry is 0, more than the step's `max` is
  refused (`over_limit`). A building whose only conversion is once-only (Grain Storage,
  Druid's House, Sacristy, Bathhouse, ...) has no entry: using the function is making it
  once. Bakery (bake, sell), Brewery (brew, sell), Winery (wine, sell), Cloister Workshop
  (ceramics, ornaments), Cloister Library (books, meat+wine), Chapel (book, reliquaries),
  Inn (food points, wine), Alehouse (beer, whiskey), Forger's Workshop (first, further),
  Windmill/Malthouse (grain), Stone Merchant (stones), Estate (repetitions), Peat Coal Kiln,
  Refectory, Dormitory, Slaughterhouse, Whiskey Distillery, Cloister Church, Camera, Coal
  Harbor (their one repeatable conversion). The Calefactory's `times` are joker flags
  (0/1), one per action chosen in `goods`.
* `pay` — the goods given for every value part of the function together: food, energy
  (Bakery, Stone Merchant, Inn, Estate, Shipping Company, Fuel Merchant: the tier is the
  highest the energy reaches, §15 #6), different goods (Cloister Courtyard 3, Market 4,
  Filial Church 5, Chamber of Wonders 13: one tile each, "coin5" is a type of its own,
  §15 #4) and points (Round Tower, §15 #7). Each good must carry the value asked; surplus
  is lost (§15 #5); straw may be flipped from grain. Goods the function names (grain for
  the Windmill, 1 coin for the Grain Storage, ...) are taken from the holding by
  themselves and are not part of `pay`; a function without a value part takes no `pay`.
* `goods` — the goods chosen, in step order: Farmyard grain|livestock; Cloister Courtyard
  the good of six; Druid's House (five of, three of); Sacred Site (grain|malt, beer|whiskey);
  False Lighthouse beer|whiskey; Shipping Company meat|bread|wine; Cooperage beer|whiskey;
  Calefactory the actions as the goods they yield, "wood" (Fell Trees) and/or "peat"
  (Cut Peat), in that order.
* `take` — point goods taken (House of the Brotherhood, Festival Ground), or the
  Pilgrimage Site's upgrades as {"book>ceramic": n, "ceramic>ornament": n,
  "ornament>reliquary": n}, applied in chain order (one tile may go up twice).
* `cells` — forest cards removed (Carpentry, Forest Hut, Printing Office); for the
  Calefactory one forest or moor card per action chosen, in the order of `goods`.
* `target` — the building whose function is used next (Priory, Palace, Grand Manor,
  Cloister Garden, Cottage; Hospice and Guesthouse name a display building as (-1, id));
  its own choices come in the next `Use`, opened in `then`.
* `joker` — produce with the joker (wheel buildings, §4.3); the Shipping Company and the
  Cooperage always use the joker and ignore it.

A use that changes nothing (no good paid or gained, no wheel, card, clergyman or decision)
is refused (`nothing_to_do`): not using a function is the separate `Decline`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, product

import msgspec

from games.contract import Rejection
from games.ora_et_labora import goods as G
from games.ora_et_labora import wheel as W
from games.ora_et_labora.catalog import (
    CATALOG,
    BuildBuilding,
    Building,
    BuildSettlement,
    Convert,
    ConvertBasicPair,
    ConvertChoice,
    EnergyTier,
    ExtraAction,
    FreeLandscape,
    Gain,
    GainChoice,
    GainPer,
    GainPointsGoods,
    JokerTake,
    OnBuild,
    Pay,
    PayDifferent,
    PayPoints,
    RemoveForest,
    ReturnAllOwnClergy,
    ReturnOwnPrior,
    Step,
    ThresholdGain,
    UpgradeChain,
    UseBuilding,
    WheelTake,
)
from games.ora_et_labora.commands import Use
from games.ora_et_labora.landscape import Card, Cell, Landscape, neighbours, spaces_with
from games.ora_et_labora.state import (
    AVAILABLE,
    PRIOR,
    FreeBuild,
    FreeSettlement,
    Pending,
    Place,
    State,
    UseFunction,
    occupant,
    where,
)
from games.ora_et_labora.state import FreeLandscape as OpenLandscape
from games.ora_et_labora.wheel import Wheel


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What a function did (recorded as FunctionUsed, then `then` as DecisionOpened)."""

    paid: dict[str, int] = {}  # taken from the user's goods (grain flipped for straw is paid as grain)
    gained: dict[str, int] = {}  # added to the user's goods
    wheel: Wheel | None = None  # the wheel after the function, if it used the wheel
    bonus: dict[str, int] = {}  # short game (§13.3): given to every seat, the user included
    removed: tuple[Cell, ...] = ()  # forest/moor cards removed from the user's landscape
    wonders: int = 0  # Wonders taken from the supply, net of any paid back to it (§1: a pool of 8)
    returned: tuple[int, ...] = ()  # the user's clergymen returned to his supply (indexes)
    then: tuple[Pending, ...] = ()  # decisions opened next, the first to be taken last


VALUES = frozenset({"food", "energy"})  # paid by value with the goods of `pay` (§2.2)
CLEARING: dict[str, Card] = {"wood": "forest", "peat": "moor"}  # §7.2: Fell Trees removes a forest, Cut Peat a moor
ACTION_GOOD = {"fell_trees": "wood", "cut_peat": "peat"}  # the Calefactory's actions by the good they yield
CONVERSIONS = (Convert, ConvertChoice, ConvertBasicPair)
LIMIT = 40  # at most this many entries from `choices`
CHEAP: tuple[str, ...] = (
    "straw", "grain", "wood", "clay", "peat", "livestock", "flour", "grapes", "malt", "coin", "coin5", "coal",
    "stone", "meat", "bread", "beer", "wine", "whiskey", "book", "ceramic", "ornament", "reliquary",
)
"""Goods from the least to the most valuable: `choices` pays with the first ones it can
(never a Wonder, §15 #4)."""
assert set(CHEAP) | {"wonder"} == set(G.GOODS) | {"coin5"}


# -- the function under way ------------------------------------------------------------------


@dataclass(slots=True)
class _Work:
    """Scratchpad of one resolution: what has been taken and gained so far, and what `pay`
    must still carry. Local to `_run`; the state is never touched."""

    state: State
    seat: int
    place: Place
    row: Building
    use: Use
    holding: tuple[int, ...]  # the user's goods less the named goods taken so far
    counted: bool  # the conversions take their counts from `times`
    got: dict[str, int] = field(default_factory=dict)
    wheel: Wheel | None = None
    bonus: dict[str, int] = field(default_factory=dict)
    removed: list[Cell] = field(default_factory=list)
    returned: tuple[int, ...] = ()
    then: list[Pending] = field(default_factory=list)
    food: int = 0  # food `pay` must carry
    energy: int = 0  # energy `pay` must carry, in half units
    different: int = 0  # different goods `pay` must hold
    points: int = 0  # printed points `pay` must carry
    either: list[tuple[int, list[tuple[int, int]]]] = field(default_factory=list)  # (n, options (food, halves))
    tiers: list[tuple[int, int]] = field(default_factory=list)  # (energy, coins), §15 #6
    forests: int = 0  # forest cards removed by this use
    last: int = 0  # the count of the conversion before
    goods_at: int = 0
    times_at: int = 0
    cells_at: int = 0
    took: bool = False  # `take` was read
    targeted: bool = False  # `target` was read

    def next_good(self) -> str:
        if self.goods_at >= len(self.use.goods):
            return ""
        self.goods_at += 1
        return self.use.goods[self.goods_at - 1]

    def next_time(self) -> int:
        if self.times_at >= len(self.use.times):
            return 0
        self.times_at += 1
        return self.use.times[self.times_at - 1]

    def count(self, limit: int | None) -> int | Rejection:
        """The repetitions of the conversion at hand (§11.1 "up to n times")."""
        if not self.counted:
            return 1
        n = self.next_time()
        if n < 0:
            return Rejection("bad_choice", "a count cannot be negative")
        if limit is not None and n > limit:
            return Rejection("over_limit", f"{self.row.name}: this exchange may be made at most {limit} time{'s' if limit != 1 else ''}")
        return n

    def gain(self, amounts: Mapping[str, int | float], n: int = 1) -> None:
        for g, v in amounts.items():
            if v and n:
                self.got[g] = self.got.get(g, 0) + int(v) * n

    def consume(self, amounts: Mapping[str, int]) -> Rejection | None:
        """Give named goods: those produced earlier in this use first, then the holding."""
        rest: dict[str, int] = {}
        for g, n in amounts.items():
            own = min(self.got.get(g, 0), n)
            if own:
                self.got[g] -= own
            if n - own:
                rest[g] = n - own
        after = G.take(self.holding, rest)
        if isinstance(after, str):
            return Rejection("cannot_afford", f"{self.row.name}: {after}")
        self.holding = after
        return None

    def ask_values(self, amounts: Mapping[str, int | float], n: int) -> None:
        self.food += int(amounts.get("food", 0) * n)
        self.energy += round(amounts.get("energy", 0) * 2 * n)

    def produce(self, good: str, joker: bool) -> Rejection | None:
        made = _produce(self.state, self.wheel or self.state.wheel, good, joker)
        if isinstance(made, Rejection):
            return made
        amount, self.wheel, bonus = made
        self.gain({good: amount})
        for g, n in bonus.items():
            self.bonus[g] = self.bonus.get(g, 0) + n
        return None


def _produce(state: State, wheel: Wheel, good: str, joker: bool) -> tuple[int, Wheel, dict[str, int]] | Rejection:
    """Take the indicator's (or the joker's) value of `good` (§4.3); in the short game every
    seat also takes 1 of it, even when the value is 0 (§13.3, §15 #13)."""
    why = W.can_produce(wheel, good, joker)
    if why:
        return Rejection("not_in_play", why)
    amount, after = W.produce(wheel, good, joker)
    return amount, after, ({good: 1} if state.options.length == "short" else {})


def _row(state: State, place: Place) -> Building | Rejection:
    """The catalog row of a building that exists where `place` says (-1: the display)."""
    owner, bid = place
    row = CATALOG.buildings.get(bid)
    if row is not None:
        if owner == -1 and bid in state.display:
            return row
        if 0 <= owner < len(state.owners) and where(state.owners[owner], bid) is not None:
            return row
    return Rejection("no_such_building", f"there is no building {bid!r} there")


def _counted(row: Building) -> bool:
    """Whether the conversions take counts from `times`: several of them, or a repeatable one."""
    conv = [s for s in row.effect_steps if isinstance(s, CONVERSIONS)]
    return len(conv) > 1 or any(s.max != 1 for s in conv)


def _via(row: Building) -> str:
    """How a decision opened by `row` names it: "priory", "grand_manor", ..."""
    return "_".join("".join(c if c.isalnum() else " " for c in row.name.lower()).split())


def _option_good(option: Mapping[str, int | float]) -> str:
    """A choice among goods (GainChoice) is named by its good."""
    return next(iter(option))


# -- the steps ---------------------------------------------------------------------------------


def _step(w: _Work, s: Step) -> Rejection | None:
    """Carry out one step of the function (§11)."""
    match s:
        case WheelTake():
            good = s.goods[0]
            if s.choose:
                good = w.next_good()
                if good not in s.goods:
                    return Rejection("bad_choice", f"choose one of {', '.join(s.goods)}")
            return w.produce(good, w.use.joker)
        case JokerTake():
            good = w.next_good()
            if good not in s.goods:
                return Rejection("bad_choice", f"choose one of {', '.join(s.goods)}")
            return w.produce(good, True)  # §11.2: the joker only
        case Convert():
            return _convert(w, s)
        case ConvertChoice():
            n = w.count(s.max)
            if isinstance(n, Rejection):
                return n
            if n:
                w.either.append((n, [(int(o.get("food", 0)), round(o.get("energy", 0) * 2)) for o in s.in_options]))
                w.gain(s.out, n)
            return None
        case ConvertBasicPair():
            return _basic_pair(w, s)
        case Pay():
            w.ask_values(s.in_, 1)
            return w.consume({g: int(v) for g, v in s.in_.items() if g not in VALUES})
        case PayDifferent():
            w.different += s.count
            return None
        case PayPoints():
            w.points += s.min_points
            return None
        case Gain():
            w.gain(s.out)
            return None
        case GainChoice():
            good = w.next_good()
            chosen = [o for o in s.options if _option_good(o) == good]
            if not chosen:
                return Rejection("bad_choice", f"choose one of {', '.join(_option_good(o) for o in s.options)}")
            w.gain(chosen[0])
            return None
        case GainPer():  # per: forest_removed, the only count the catalog allows
            w.gain(s.out, w.forests)
            return None
        case GainPointsGoods():
            return _point_goods(w, s)
        case EnergyTier():
            w.tiers = list(s.tiers)
            return None
        case ThresholdGain():  # count_of: livestock_owned — counted, not paid (§11.1 "per")
            owned = G.count(w.state.owners[w.seat].goods, "livestock")
            w.gain({s.gain: max((n for least, n in s.tiers if owned >= least), default=0)})
            return None
        case UseBuilding():
            return _use_building(w, s)
        case RemoveForest():
            return _remove_forest(w, s)
        case BuildBuilding():  # a normal build without a further main action (§11.2); declinable later
            w.then.append(FreeBuild(seat=w.seat, via=_via(w.row)))
            return None
        case BuildSettlement():
            if not w.state.owners[w.seat].hand:
                return Rejection("not_allowed", "you have no settlement in hand to build")
            w.then += [FreeSettlement(seat=w.seat)] * s.max
            return None
        case ExtraAction():
            return _extra_actions(w, s)
        case UpgradeChain():
            return _upgrade(w, s)
        case FreeLandscape():
            # §15 #12: the top cards, free, not counted against the purchase limit (the caller's).
            kinds = tuple(k for k in s.types for _ in range(s.each_max)
                          if (w.state.districts if k == "district" else w.state.plots))
            if not kinds:
                return Rejection("not_allowed", "no district or plot is left to take")
            w.then.append(OpenLandscape(seat=w.seat, kinds=kinds))
            return None
        case OnBuild():  # acts when built (§11.2 Winery, Whiskey Distillery), not when used
            return None
        case ReturnAllOwnClergy():  # §11.2 Bathhouse: the one just placed included
            w.returned = tuple(i for i, at in enumerate(w.state.owners[w.seat].clergy) if at != AVAILABLE)
            return None
        case ReturnOwnPrior():  # §11.2 Locutory: from wherever he stands
            w.returned = (PRIOR,) if w.state.owners[w.seat].clergy[PRIOR] != AVAILABLE else ()
            return None
    raise AssertionError(f"unhandled step {s!r}")


def _convert(w: _Work, s: Convert) -> Rejection | None:
    n = w.count(s.max)
    if isinstance(n, Rejection):
        return n
    # "and_then" (Forger's Workshop): the further exchange follows the first one.
    if s.joiner == "and_then" and n and not w.last:
        return Rejection("bad_choice", f"{w.row.name}: make the first exchange before the further ones")
    w.last = n
    if not n:
        return None
    w.ask_values(s.in_, n)
    problem = w.consume({g: int(v) * n for g, v in s.in_.items() if g not in VALUES})
    if problem is None:
        w.gain(s.out, n)
    return problem


def _basic_pair(w: _Work, s: ConvertBasicPair) -> Rejection | None:
    """Druid's House: amounts[0] of one basic good and amounts[1] of a different one."""
    n = w.count(s.max)
    if isinstance(n, Rejection):
        return n
    if not n:
        return None
    x, y = w.next_good(), w.next_good()
    if x not in G.BASIC or y not in G.BASIC or x == y:
        return Rejection("bad_choice", f"choose two different basic goods ({', '.join(G.BASIC)})")
    problem = w.consume({g: int(v) * n for g, v in s.in_.items()})
    if problem is None:
        w.gain({x: s.amounts[0], y: s.amounts[1]}, n)
    return problem


def _budget(state: State, seat: int, s: GainPointsGoods) -> int:
    land = state.owners[seat].land
    if s.budget == "count_forest_and_moor_cards_owned":  # §15 #9: the cards lying there now
        return len(spaces_with(land, "forest")) + len(spaces_with(land, "moor"))
    # §15 #8: R per cloister building in the user's landscape (Cloister Office and this one
    # included when there), rounded down; R by mode from the catalog step.
    cloisters = sum(1 for sp in land.spaces if sp.built in CATALOG.buildings and CATALOG.buildings[sp.built].cloister)
    return math.floor((s.rate or {}).get(state.mode, 0) * cloisters)


def _point_goods(w: _Work, s: GainPointsGoods) -> Rejection | None:
    w.took = True
    take = {g: n for g, n in w.use.take.items() if n}
    if any(g not in G.POINT_GOODS or n < 0 for g, n in take.items()):
        return Rejection("bad_choice", "take books, ceramics, ornaments or reliquaries")
    problem = G.point_goods_within(take, _budget(w.state, w.seat, s))
    if problem:
        return Rejection("over_limit", problem)
    w.gain(take)
    return None


def _upgrade(w: _Work, s: UpgradeChain) -> Rejection | None:
    """Pilgrimage Site: steps along the chain, lower steps first so one tile may rise twice."""
    w.took = True
    pairs = [f"{a}>{b}" for a, b in zip(s.chain, s.chain[1:])]
    if any(k not in pairs or n < 0 for k, n in w.use.take.items()):
        return Rejection("bad_choice", f"upgrades are {', '.join(pairs)}")
    if sum(w.use.take.values()) > s.steps_max:
        return Rejection("over_limit", f"at most {s.steps_max} upgrade steps")
    for (a, b), key in zip(zip(s.chain, s.chain[1:]), pairs):
        n = w.use.take.get(key, 0)
        if n:
            problem = w.consume({a: n})
            if problem is not None:
                return problem
            w.gain({b: n})
    return None


def _own_card(land: Landscape, cell: Cell, card: Card) -> str:
    sp = land.space(cell)
    if sp is None or sp.card != card:
        return f"there is no {card} card of yours at {cell}"
    return ""


def _remove_forest(w: _Work, s: RemoveForest) -> Rejection | None:
    cells = w.use.cells[w.cells_at:]
    w.cells_at = len(w.use.cells)
    if len(cells) > s.max:
        return Rejection("over_limit", f"remove at most {s.max} forest card(s)")
    if s.required and not cells:
        return Rejection("bad_cell", "choose a forest card of yours to remove")
    if len(set(cells)) != len(cells):
        return Rejection("bad_cell", "a forest card can be removed only once")
    for cell in cells:
        problem = _own_card(w.state.owners[w.seat].land, cell, "forest")
        if problem:
            return Rejection("bad_cell", problem)
    w.removed += cells
    w.forests += len(cells)
    return None


def _extra_actions(w: _Work, s: ExtraAction) -> Rejection | None:
    """Calefactory (§11.2): Fell Trees and/or Cut Peat, in that order, each with the wheel."""
    offered = [ACTION_GOOD[a] for a in s.actions]
    chosen = w.use.goods[w.goods_at:]
    w.goods_at = len(w.use.goods)
    if not chosen:  # "and/or": one of them or both (§11.1); not using it is `Decline`
        return Rejection("bad_choice", f"choose {' and/or '.join(offered)} (goods=...), or decline")
    order = [offered.index(g) if g in offered else -1 for g in chosen]
    if -1 in order or order != sorted(order) or any(chosen.count(g) > s.each_max for g in chosen):
        return Rejection("bad_choice", f"choose among {', '.join(offered)} in that order, "
                                       f"each at most {s.each_max} time{'s' if s.each_max != 1 else ''}")
    for good in chosen:
        joker = w.next_time()
        if joker not in (0, 1):
            return Rejection("bad_choice", "a joker flag is 0 or 1")
        if w.cells_at >= len(w.use.cells):
            return Rejection("bad_cell", f"choose the {CLEARING[good]} card to remove")
        cell = w.use.cells[w.cells_at]
        w.cells_at += 1
        problem = _own_card(w.state.owners[w.seat].land, cell, CLEARING[good])
        if cell in w.removed:
            problem = "a card can be removed only once"
        if problem:
            return Rejection("bad_cell", problem)
        if joker or (w.wheel or w.state.wheel).in_play(good):
            problem_ = w.produce(good, bool(joker))
            if problem_ is not None:
                return problem_
        # else solo, the indicator has left the game: the card is removed, nothing taken
        # (the same ruling as `clear`, README)
        w.removed.append(cell)
    return None


def _chain(state: State, place: Place) -> tuple[Place, ...]:
    """The buildings whose functions led to using `place` (the open UseFunction's chain)."""
    top = state.pending[-1] if state.pending else None
    return top.chain if isinstance(top, UseFunction) and top.building == place else ()


def _target_problem(state: State, seat: int, place: Place, s: UseBuilding, target: Place) -> str:
    """Why `target` may not be used through `place`'s function (§11.2, §15 #10, #11), or ""."""
    o, bid = target
    if s.target == "display_unbuilt":
        return "" if o == -1 and bid in state.display else "choose a building still in the display"
    if bid not in CATALOG.buildings or not 0 <= o < len(state.owners) or where(state.owners[o], bid) is None:
        return "there is no such building"
    if s.exclude_self and bid == place[1]:
        return f"the {CATALOG.buildings[bid].name} cannot use a {CATALOG.buildings[bid].name}"
    who = occupant(state, target)
    if s.target == "occupied_by_any_prior":
        # several clergymen may share a building in the bonus round (§9): any prior counts
        priors = [i for o2 in state.owners for i, at in enumerate(o2.clergy) if at == target and i == PRIOR]
        return "" if priors else "no prior stands on that building"
    if s.target == "occupied_by_any_clergy":
        return "" if who is not None else "no clergyman stands on that building"
    # own_adjacent_unoccupied: Cloister Garden / Cottage standing in the user's landscape.
    if place[0] != seat or o != seat:
        return "only your own building next to your own " + CATALOG.buildings[place[1]].name
    land = state.owners[seat].land
    here = where(state.owners[seat], place[1])
    if here is None or all(sp.built != bid for sp in neighbours(land, here)):
        return f"that building is not next to the {CATALOG.buildings[place[1]].name}"
    return "" if who is None else "that building is occupied"


def _use_building(w: _Work, s: UseBuilding) -> Rejection | None:
    w.targeted = True
    target = w.use.target
    if target is None:
        return None if s.optional else Rejection("bad_target", f"choose the building the {w.row.name} uses")
    problem = _target_problem(w.state, w.seat, w.place, s, target)
    if problem:
        return Rejection("bad_target", problem)
    chain = (*_chain(w.state, w.place), w.place)
    if (target[0], target[1]) in chain:
        return Rejection("bad_target", "a building already used in this chain of functions cannot be used again")
    w.then.append(UseFunction(seat=w.seat, building=(target[0], target[1]), via=_via(w.row), chain=chain))
    return None


# -- payment by value (§2.2, §15 #4 - #7) ------------------------------------------------------


def _either_sums(either: list[tuple[int, list[tuple[int, int]]]]) -> Iterator[tuple[int, int]]:
    """(food, half-energy) of every way to pay the "X or Y" repetitions (Estate)."""
    ways = [[tuple(map(sum, zip(*combo))) for combo in combinations_with_replacement(opts, n)] for n, opts in either]
    for pick in product(*ways):
        yield sum(p[0] for p in pick), sum(p[1] for p in pick)


def _asks(w: _Work, tiers: tuple[int, ...]) -> Iterator[tuple[int, int]]:
    """Every (food, half-energy) requirement that would do, `tiers` the tier energies tried."""
    for food, halves in _either_sums(w.either):
        for t in tiers:
            yield w.food + food, w.energy + halves + 2 * t


def _value_problem(pay: Mapping[str, int], food: int, halves: int) -> str:
    """Why `pay` does not carry `food` and `halves`, or "": each good must carry a value asked."""
    asked = "food" if not halves else "energy" if not food else "food or energy"
    for g in pay:
        if not (food and g in G.FOOD or halves and g in G.ENERGY_HALVES):
            return f"{g} carries no {asked}"
    return G.value_payment_problem(pay, food_needed=food, energy_halves_needed=halves)


def _payment_problem(w: _Work, pay: Mapping[str, int]) -> str:
    """Why `pay` does not carry what the function asks (checked after it was taken), or ""."""
    if w.different:
        n = G.different_types(pay)
        if n != w.different:
            return f"pay one tile each of exactly {w.different} different goods"
        return ""
    if w.points:
        if any(g not in G.POINTS or g == "wonder" for g in pay):
            return "pay goods with printed points: book, ceramic, ornament, reliquary, 5-coin tile, wine, whiskey (§15 #7)"
        if G.printed_points(pay) < w.points:
            return f"the goods paid are worth {G.printed_points(pay)} points, not {w.points}"
        return ""
    problems = []
    for food, halves in _asks(w, (w.tiers[0][0],) if w.tiers else (0,)):
        problem = _value_problem(pay, food, halves)
        if not problem:
            return ""
        problems.append(problem)
    # several ways to ask (the Estate's energy or food per repetition): name a shortfall
    # rather than a good that only the other way would not take
    return next((p for p in problems if "worth" in p), problems[0] if problems else "")


def _settle(w: _Work, pay: Mapping[str, int]) -> Rejection | None:
    """Take `pay` from the holding and check it carries every value part."""
    given = {g: n for g, n in pay.items() if n}
    asked = w.food or w.energy or w.different or w.points or w.either or w.tiers
    if not asked:
        return Rejection("bad_payment", f"the {w.row.name} asks for no payment of your choice") if given else None
    if any(n < 0 or (g not in G.INDEX and g != "coin5") for g, n in given.items()):
        return Rejection("bad_payment", "pay a positive number of known goods")
    after = G.take(w.holding, given)
    if isinstance(after, str):
        return Rejection("cannot_afford", f"{w.row.name}: {after}")
    problem = _payment_problem(w, given)
    if problem:
        return Rejection("bad_payment", f"{w.row.name}: {problem}")
    w.holding = after
    if w.tiers:  # §15 #6: one tier, the highest the energy paid reaches
        spare = G.energy_halves(given) - w.energy
        w.gain({"coin": max(c for e, c in w.tiers if spare >= 2 * e)})
    return None


# -- resolve ---------------------------------------------------------------------------------


def _run(state: State, seat: int, place: Place, row: Building, use: Use) -> _Work | Rejection:
    """Every step of `row`'s function with the choices of `use`, all but `pay`."""
    w = _Work(state=state, seat=seat, place=place, row=row, use=use, holding=state.owners[seat].goods,
              counted=_counted(row))
    if use.joker and not any(isinstance(s, (WheelTake, JokerTake)) for s in row.effect_steps):
        return Rejection("bad_choice", f"the {row.name} does not produce with the wheel")
    for s in row.effect_steps:
        problem = _step(w, s)
        if problem is not None:
            return problem
    if w.goods_at < len(use.goods):
        return Rejection("bad_choice", f"the {row.name} offers no choice of {', '.join(use.goods[w.goods_at:])}")
    if w.times_at < len(use.times):
        return Rejection("bad_choice", f"the {row.name} takes {w.times_at or 'no'} times= count"
                                       f"{'' if w.times_at == 1 else 's'}, not {len(use.times)}")
    if w.cells_at < len(use.cells):
        return Rejection("bad_cell", f"the {row.name} removes no further card")
    if any(use.take.values()) and not w.took:
        return Rejection("bad_choice", f"the {row.name} offers nothing to take")
    if use.target is not None and not w.targeted:
        return Rejection("bad_target", f"the {row.name} uses no other building")
    return w


def _outcome(w: _Work) -> Outcome:
    before = w.state.owners[w.seat].goods
    paid = {g: b - a for g, b, a in zip(G.GOODS, before, w.holding) if b > a}
    gained = {g: w.got[g] for g in G.GOODS if w.got.get(g)}
    return Outcome(paid=paid, gained=gained, wheel=w.wheel, bonus=dict(w.bonus), removed=tuple(w.removed),
                   wonders=gained.get("wonder", 0) - paid.get("wonder", 0), returned=w.returned, then=tuple(w.then))


def resolve(state: State, seat: int, building: Place, use: Use) -> Outcome | Rejection:
    """Seat `seat` carries out the function of `building` (owner -1: a display building used
    through the Hospice/Guesthouse) with the choices of `use` (§11; conventions above)."""
    row = _row(state, building)
    if isinstance(row, Rejection):
        return row
    w = _run(state, seat, building, row, use)
    if isinstance(w, Rejection):
        return w
    problem = _settle(w, use.pay)
    if problem is not None:
        return problem
    out = _outcome(w)
    if out.wonders > state.wonders:  # §11.2: no Wonder left (a Wonder paid goes back first, §11.1)
        return Rejection("not_allowed", "no Wonder is left in the supply")
    if out.paid == out.gained and not (out.wheel or out.removed or out.returned or out.then):
        return Rejection("nothing_to_do", f"this use of the {row.name} changes nothing; decline it instead")
    return out


def clear(state: State, seat: int, good: str, cell: Cell | None, joker: bool) -> Outcome | Rejection:
    """Fell Trees (good "wood", a forest card) or Cut Peat ("peat", a moor card), §7.2: the
    seat's card at `cell` is removed and the indicator's (or joker's) value taken. `cell` None:
    the seat has no such card left; nothing is gained and the wheel does not move."""
    card = CLEARING.get(good)
    if card is None:
        return Rejection("bad_choice", "fell trees for wood or cut peat for peat")
    land = state.owners[seat].land
    if cell is None:
        if spaces_with(land, card):
            return Rejection("bad_cell", f"choose one of your {card} cards to remove")
        return Outcome()
    problem = _own_card(land, cell, card)
    if problem:
        return Rejection("bad_cell", problem)
    if not joker and not state.wheel.in_play(good):
        # Solo: the indicator left the game at 10 (§13.4). Our ruling: the card is still
        # removed (the space is cleared) and nothing is taken; the joker remains an option.
        return Outcome(removed=(cell,))
    made = _produce(state, state.wheel, good, joker)
    if isinstance(made, Rejection):
        return made
    amount, after, bonus = made
    return Outcome(gained={good: amount} if amount else {}, wheel=after, bonus=bonus, removed=(cell,))


# -- choices ---------------------------------------------------------------------------------


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
    chain = (*_chain(state, place), place)
    return [t for t in found if t not in chain and not _target_problem(state, seat, place, s, t)]


def _options(state: State, seat: int, place: Place, row: Building) -> list[list[_Part]]:
    """For each step, the representative shares of a `Use`."""
    land = state.owners[seat].land
    avail = G.as_dict(state.owners[seat].goods)  # an upper bound of what each step can use
    counted = _counted(row)
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
                opts = [_Part(goods=(_option_good(o),)) for o in s.options]
            case GainPointsGoods():
                opts = [_Part(take=m) for m in _point_mixes(_budget(state, seat, s))]
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


def _payments(w: _Work) -> list[dict[str, int]]:
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
    for food, halves in _asks(w, tuple(e for e, _ in w.tiers) or (0,)):
        found = G.value_payment(holding, food, halves, CHEAP)  # type: ignore[arg-type]
        if found is not None and found not in out:
            out.append(found)
    return out


def choices(state: State, seat: int, building: Place) -> list[Use]:
    """A deterministic, representative list (at most LIMIT) of the ways `seat` may use the
    function of `building` now, every one accepted by `resolve`: each wheel good with and
    without the joker; counts 0, 1, 2, half, all but one and all that the goods allow; one
    payment per requirement (cheapest goods first); every target; a few point-goods mixes."""
    row = _row(state, building)
    if isinstance(row, Rejection):
        return []
    found: list[Use] = []
    seen: set[bytes] = set()
    for parts in product(*_options(state, seat, building, row)):
        base = _merge(parts)
        w = _run(state, seat, building, row, base)
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
