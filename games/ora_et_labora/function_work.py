"""A building function under way in Ora et Labora (§11): the Work a `Use` is judged on (goods,
wheel, landscape and the decisions it opens, §2, §4), its Outcome, and the queries the steps
and the choices share (a building's row, a chain's targets, a value payment's asks, §2.2).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations_with_replacement, product

import msgspec

from games.contract import Rejection
from games.ora_et_labora import goods as G
from games.ora_et_labora import wheel as W
from games.ora_et_labora.catalog import (
    CATALOG,
    Building,
    Convert,
    ConvertBasicPair,
    ConvertChoice,
    GainPointsGoods,
    UseBuilding,
)
from games.ora_et_labora.commands import Use
from games.ora_et_labora.landscape import Card, Cell, Landscape, neighbours, spaces_with
from games.ora_et_labora.state import PRIOR, Pending, Place, State, UseFunction, occupant, where
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


@dataclass(slots=True)


class Work:
    """Scratchpad of one resolution: what has been taken and gained so far, and what `pay`
    must still carry. Local to `work_through`; the state is never touched."""

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
        made = wheel_produce(self.state, self.wheel or self.state.wheel, good, joker)
        if isinstance(made, Rejection):
            return made
        amount, self.wheel, bonus = made
        self.gain({good: amount})
        for g, n in bonus.items():
            self.bonus[g] = self.bonus.get(g, 0) + n
        return None


def wheel_produce(state: State, wheel: Wheel, good: str, joker: bool) -> tuple[int, Wheel, dict[str, int]] | Rejection:
    """Take the indicator's (or the joker's) value of `good` (§4.3); in the short game every
    seat also takes 1 of it, even when the value is 0 (§13.3, §15 #13)."""
    why = W.can_produce(wheel, good, joker)
    if why:
        return Rejection("not_in_play", why)
    amount, after = W.produce(wheel, good, joker)
    return amount, after, ({good: 1} if state.options.length == "short" else {})


def building_row(state: State, place: Place) -> Building | Rejection:
    """The catalog row of a building that exists where `place` says (-1: the display)."""
    owner, bid = place
    row = CATALOG.buildings.get(bid)
    if row is not None:
        if owner == -1 and bid in state.display:
            return row
        if 0 <= owner < len(state.owners) and where(state.owners[owner], bid) is not None:
            return row
    return Rejection("no_such_building", f"there is no building {bid!r} there")


def counts_times(row: Building) -> bool:
    """Whether the conversions take counts from `times`: several of them, or a repeatable one."""
    conv = [s for s in row.effect_steps if isinstance(s, CONVERSIONS)]
    return len(conv) > 1 or any(s.max != 1 for s in conv)


def via_of(row: Building) -> str:
    """How a decision opened by `row` names it: "priory", "grand_manor", ..."""
    return "_".join("".join(c if c.isalnum() else " " for c in row.name.lower()).split())


def option_good(option: Mapping[str, int | float]) -> str:
    """A choice among goods (GainChoice) is named by its good."""
    return next(iter(option))


def point_budget(state: State, seat: int, s: GainPointsGoods) -> int:
    land = state.owners[seat].land
    if s.budget == "count_forest_and_moor_cards_owned":  # §15 #9: the cards lying there now
        return len(spaces_with(land, "forest")) + len(spaces_with(land, "moor"))
    # §15 #8: R per cloister building in the user's landscape (Cloister Office and this one
    # included when there), rounded down; R by mode from the catalog step.
    cloisters = sum(1 for sp in land.spaces if sp.built in CATALOG.buildings and CATALOG.buildings[sp.built].cloister)
    return math.floor((s.rate or {}).get(state.mode, 0) * cloisters)


def own_card(land: Landscape, cell: Cell, card: Card) -> str:
    sp = land.space(cell)
    if sp is None or sp.card != card:
        return f"there is no {card} card of yours at {cell}"
    return ""


def chain_of(state: State, place: Place) -> tuple[Place, ...]:
    """The buildings whose functions led to using `place` (the open UseFunction's chain)."""
    top = state.pending[-1] if state.pending else None
    return top.chain if isinstance(top, UseFunction) and top.building == place else ()


def target_problem(state: State, seat: int, place: Place, s: UseBuilding, target: Place) -> str:
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


def _either_sums(either: list[tuple[int, list[tuple[int, int]]]]) -> Iterator[tuple[int, int]]:
    """(food, half-energy) of every way to pay the "X or Y" repetitions (Estate)."""
    ways = [[tuple(map(sum, zip(*combo))) for combo in combinations_with_replacement(opts, n)] for n, opts in either]
    for pick in product(*ways):
        yield sum(p[0] for p in pick), sum(p[1] for p in pick)


def value_asks(w: Work, tiers: tuple[int, ...]) -> Iterator[tuple[int, int]]:
    """Every (food, half-energy) requirement that would do, `tiers` the tier energies tried."""
    for food, halves in _either_sums(w.either):
        for t in tiers:
            yield w.food + food, w.energy + halves + 2 * t
