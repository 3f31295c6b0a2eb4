"""Judging one use of an Ora et Labora building (§11): each step of its function, payment by
value (§2.2, §15 #4 - #7), and `resolve` / `clear` (Fell Trees, Cut Peat, §7.2) that run them.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.contract import Rejection
from games.ora_et_labora import goods as G
from games.ora_et_labora.catalog import (
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
from games.ora_et_labora.function_work import (
    ACTION_GOOD,
    CLEARING,
    VALUES,
    Outcome,
    Work,
    building_row,
    chain_of,
    counts_times,
    option_good,
    own_card,
    point_budget,
    target_problem,
    value_asks,
    via_of,
    wheel_produce,
)
from games.ora_et_labora.landscape import Cell, spaces_with
from games.ora_et_labora.state import AVAILABLE, PRIOR, FreeBuild, FreeSettlement, Place, State, UseFunction
from games.ora_et_labora.state import FreeLandscape as OpenLandscape


# -- the steps ---------------------------------------------------------------------------------


def _step(w: Work, s: Step) -> Rejection | None:
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
            chosen = [o for o in s.options if option_good(o) == good]
            if not chosen:
                return Rejection("bad_choice", f"choose one of {', '.join(option_good(o) for o in s.options)}")
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
            w.then.append(FreeBuild(seat=w.seat, via=via_of(w.row)))
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


def _convert(w: Work, s: Convert) -> Rejection | None:
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


def _basic_pair(w: Work, s: ConvertBasicPair) -> Rejection | None:
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


def _point_goods(w: Work, s: GainPointsGoods) -> Rejection | None:
    w.took = True
    take = {g: n for g, n in w.use.take.items() if n}
    if any(g not in G.POINT_GOODS or n < 0 for g, n in take.items()):
        return Rejection("bad_choice", "take books, ceramics, ornaments or reliquaries")
    problem = G.point_goods_within(take, point_budget(w.state, w.seat, s))
    if problem:
        return Rejection("over_limit", problem)
    w.gain(take)
    return None


def _upgrade(w: Work, s: UpgradeChain) -> Rejection | None:
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


def _remove_forest(w: Work, s: RemoveForest) -> Rejection | None:
    cells = w.use.cells[w.cells_at:]
    w.cells_at = len(w.use.cells)
    if len(cells) > s.max:
        return Rejection("over_limit", f"remove at most {s.max} forest card(s)")
    if s.required and not cells:
        return Rejection("bad_cell", "choose a forest card of yours to remove")
    if len(set(cells)) != len(cells):
        return Rejection("bad_cell", "a forest card can be removed only once")
    for cell in cells:
        problem = own_card(w.state.owners[w.seat].land, cell, "forest")
        if problem:
            return Rejection("bad_cell", problem)
    w.removed += cells
    w.forests += len(cells)
    return None


def _extra_actions(w: Work, s: ExtraAction) -> Rejection | None:
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
        problem = own_card(w.state.owners[w.seat].land, cell, CLEARING[good])
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


def _use_building(w: Work, s: UseBuilding) -> Rejection | None:
    w.targeted = True
    target = w.use.target
    if target is None:
        return None if s.optional else Rejection("bad_target", f"choose the building the {w.row.name} uses")
    problem = target_problem(w.state, w.seat, w.place, s, target)
    if problem:
        return Rejection("bad_target", problem)
    chain = (*chain_of(w.state, w.place), w.place)
    if (target[0], target[1]) in chain:
        return Rejection("bad_target", "a building already used in this chain of functions cannot be used again")
    w.then.append(UseFunction(seat=w.seat, building=(target[0], target[1]), via=via_of(w.row), chain=chain))
    return None


# -- payment by value (§2.2, §15 #4 - #7) ------------------------------------------------------


def _value_problem(pay: Mapping[str, int], food: int, halves: int) -> str:
    """Why `pay` does not carry `food` and `halves`, or "": each good must carry a value asked."""
    asked = "food" if not halves else "energy" if not food else "food or energy"
    for g in pay:
        if not (food and g in G.FOOD or halves and g in G.ENERGY_HALVES):
            return f"{g} carries no {asked}"
    return G.value_payment_problem(pay, food_needed=food, energy_halves_needed=halves)


def _payment_problem(w: Work, pay: Mapping[str, int]) -> str:
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
    for food, halves in value_asks(w, (w.tiers[0][0],) if w.tiers else (0,)):
        problem = _value_problem(pay, food, halves)
        if not problem:
            return ""
        problems.append(problem)
    # several ways to ask (the Estate's energy or food per repetition): name a shortfall
    # rather than a good that only the other way would not take
    return next((p for p in problems if "worth" in p), problems[0] if problems else "")


def _settle(w: Work, pay: Mapping[str, int]) -> Rejection | None:
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


def work_through(state: State, seat: int, place: Place, row: Building, use: Use) -> Work | Rejection:
    """Every step of `row`'s function with the choices of `use`, all but `pay`."""
    w = Work(state=state, seat=seat, place=place, row=row, use=use, holding=state.owners[seat].goods,
              counted=counts_times(row))
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


def _outcome(w: Work) -> Outcome:
    before = w.state.owners[w.seat].goods
    paid = {g: b - a for g, b, a in zip(G.GOODS, before, w.holding) if b > a}
    gained = {g: w.got[g] for g in G.GOODS if w.got.get(g)}
    return Outcome(paid=paid, gained=gained, wheel=w.wheel, bonus=dict(w.bonus), removed=tuple(w.removed),
                   wonders=gained.get("wonder", 0) - paid.get("wonder", 0), returned=w.returned, then=tuple(w.then))


def resolve(state: State, seat: int, building: Place, use: Use) -> Outcome | Rejection:
    """Seat `seat` carries out the function of `building` (owner -1: a display building used
    through the Hospice/Guesthouse) with the choices of `use` (§11; conventions above)."""
    row = building_row(state, building)
    if isinstance(row, Rejection):
        return row
    w = work_through(state, seat, building, row, use)
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
    problem = own_card(land, cell, card)
    if problem:
        return Rejection("bad_cell", problem)
    if not joker and not state.wheel.in_play(good):
        # Solo: the indicator left the game at 10 (§13.4). Our ruling: the card is still
        # removed (the space is cleared) and nothing is taken; the joker remains an option.
        return Outcome(removed=(cell,))
    made = wheel_produce(state, state.wheel, good, joker)
    if isinstance(made, Rejection):
        return made
    amount, after, bonus = made
    return Outcome(gained={good: amount} if amount else {}, wheel=after, bonus=bonus, removed=(cell,))
