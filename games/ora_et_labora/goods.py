"""Goods: what a player holds, what a payment is worth, and what goods score (§2, §10 A).

A player's goods are a tuple of counts in `GOODS` order. Money is held as one count of
coins ("coin"): the 5-coin tile is only an exchange of five coins, open at any time in
both directions (§2.1), so a holding never needs to know how its coins are tiled. Where a
tile type matters — paying "different goods" (§15 #4), where a 5-coin tile is a type of its
own — "coin5" may be named in a payment and costs five coins. Scoring tiles the coins
optimally (§10 A).

Energy is counted in half units, because straw is worth half an energy (§2.2).

The free conversions (§2.1) are explicit except two: grain may be flipped to straw in the
middle of a payment (§7.4), so a payment naming straw uses straw first, then grain; and
coins are exchanged 5↔1 silently (above). Wine → 1 coin and whiskey → 2 coins are the
player's own additional action (`convert`), because they cost the wine's or whiskey's point.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.ora_et_labora.catalog import CATALOG

GOODS: tuple[str, ...] = tuple(g for g in CATALOG.goods if g != "coin5")
"""Every good a player can hold, in catalog order (§2); money as one count of coins."""
INDEX: dict[str, int] = {g: i for i, g in enumerate(GOODS)}
EMPTY: tuple[int, ...] = (0,) * len(GOODS)

FOOD: dict[str, int] = {g.id: int(g.food) for g in CATALOG.goods.values() if g.food}
"""Food value per good (§2.2): coins 1 (a 5-coin tile 5), wine 1, whiskey 2, meat 5, ..."""
ENERGY_HALVES: dict[str, int] = {g.id: int(g.energy * 2) for g in CATALOG.goods.values() if g.energy}
"""Energy value per good in half units (§2.2): wood 2, peat 4, coal 6, straw 1."""
POINTS: dict[str, int] = {g.id: g.points for g in CATALOG.goods.values() if g.points}
"""Printed points (§10 A); coins and wine/whiskey are scored through `goods_points`."""
POINT_GOODS: tuple[str, ...] = ("book", "ceramic", "ornament", "reliquary")
"""What "take point goods worth at most N" may take (House of the Brotherhood, Festival Ground, §11)."""
BASIC: tuple[str, ...] = tuple(CATALOG.game.basic_goods)
"""wood, peat, grain, livestock, clay, coin (§2)."""
COINS_PER_TILE = 5
TILE_POINTS = POINTS["coin5"]  # 2 (§10 A)


def holding(counts: Mapping[str, int]) -> tuple[int, ...]:
    """A holding from a mapping of good -> count ("coin5" counts five coins)."""
    out = list(EMPTY)
    for g, n in counts.items():
        if g == "coin5":
            out[INDEX["coin"]] += COINS_PER_TILE * n
        else:
            out[INDEX[g]] += n
    return tuple(out)


def as_dict(goods: tuple[int, ...]) -> dict[str, int]:
    """The non-zero counts of a holding, by good."""
    return {g: n for g, n in zip(GOODS, goods) if n}


def count(goods: tuple[int, ...], good: str) -> int:
    return goods[INDEX[good]]


def add(goods: tuple[int, ...], gained: Mapping[str, int]) -> tuple[int, ...]:
    """`goods` plus `gained` ("coin5" counts five coins)."""
    out = list(goods)
    for g, n in gained.items():
        if g == "coin5":
            out[INDEX["coin"]] += COINS_PER_TILE * n
        else:
            out[INDEX[g]] += n
    return tuple(out)


def take(goods: tuple[int, ...], paid: Mapping[str, int]) -> tuple[int, ...] | str:
    """`goods` less `paid`, or why it cannot be paid (a sentence naming the shortfall).

    Straw that is missing is flipped from grain (§2.1, §7.4); "coin5" costs five coins (the
    exchange of §2.1); nothing else converts by itself."""
    out = list(goods)
    for g, n in paid.items():
        if n < 0:
            return f"cannot pay a negative amount of {g}"
        if n == 0:
            continue
        if g == "coin5":
            g, n = "coin", COINS_PER_TILE * n
        if g not in INDEX:
            return f"there is no good {g!r}"
        i = INDEX[g]
        if out[i] >= n:
            out[i] -= n
            continue
        if g == "straw" and out[i] + out[INDEX["grain"]] >= n:
            out[INDEX["grain"]] -= n - out[i]
            out[i] = 0
            continue
        have = out[i] + (out[INDEX["grain"]] if g == "straw" else 0)
        return f"you have {have} {g}{' (straw and grain)' if g == 'straw' else ''}, not {n}"
    return tuple(out)


def food(paid: Mapping[str, int]) -> int:
    """The food value of goods paid (§2.2)."""
    return sum(FOOD.get(g, 0) * n for g, n in paid.items())


def energy_halves(paid: Mapping[str, int]) -> int:
    """The energy value of goods paid, in half units (§2.2)."""
    return sum(ENERGY_HALVES.get(g, 0) * n for g, n in paid.items())


def value_payment_problem(paid: Mapping[str, int], *, food_needed: int = 0, energy_halves_needed: int = 0) -> str:
    """Why `paid` does not pay `food_needed` food and `energy_halves_needed` half-energy, or "".

    Every good paid must carry food or energy (§2.2); surplus is lost, no change is given.
    One tile pays one kind of value: the food and the energy of a payment that needs both are
    counted apart, so the goods are split by what they carry (no good carries both)."""
    for g, n in paid.items():
        if not n:
            continue
        if g not in FOOD and g not in ENERGY_HALVES:
            return f"{g} is neither food nor energy"
        if not (food_needed and g in FOOD) and not (energy_halves_needed and g in ENERGY_HALVES):
            return f"{g} pays {'food' if g in FOOD else 'energy'}, which is not asked here"
    f, e = food(paid), energy_halves(paid)
    if f < food_needed:
        return f"the goods paid are worth {f} food, not {food_needed}"
    if e < energy_halves_needed:
        return f"the goods paid are worth {e / 2:g} energy, not {energy_halves_needed / 2:g}"
    return ""


def different_types(paid: Mapping[str, int]) -> int:
    """How many different goods types a "different goods" payment holds; -1 if a type is
    paid more than once (§11.1: 1 tile each; 1-coin and 5-coin tiles are different types)."""
    if any(n > 1 for n in paid.values()):
        return -1
    return sum(1 for n in paid.values() if n == 1)


def printed_points(paid: Mapping[str, int]) -> int:
    """Printed points of goods paid (§15 #7: book, ceramic, ornament, reliquary, 5-coin
    tile, wine, whiskey; the Round Tower's payment refuses a Wonder before counting)."""
    return sum(POINTS.get(g, 0) * n for g, n in paid.items())


def cash_points(coins: int, wine: int, whiskey: int) -> tuple[int, int, int]:
    """The best score of money, wine and whiskey (§10 A, §14.6): (points, wine converted,
    whiskey converted). Wine scores 1 kept or becomes 1 coin; whiskey 1 kept or 2 coins;
    every 5 coins make a 5-coin tile worth 2."""
    best = (-1, 0, 0)
    # Converting more than four of either never helps: five wines kept score 5, converted 2.
    for w in range(min(wine, 4) + 1):
        for x in range(min(whiskey, 4) + 1):
            pts = TILE_POINTS * ((coins + w + 2 * x) // COINS_PER_TILE) + (wine - w) + (whiskey - x)
            if pts > best[0]:
                best = (pts, w, x)
    return best


def goods_points(goods: tuple[int, ...]) -> int:
    """Category A of the final score (§10 A): point goods plus optimally tiled cash."""
    pts = sum(POINTS[g] * goods[INDEX[g]] for g in ("book", "ceramic", "ornament", "reliquary", "wonder"))
    return pts + cash_points(goods[INDEX["coin"]], goods[INDEX["wine"]], goods[INDEX["whiskey"]])[0]


def point_goods_within(taken: Mapping[str, int], budget: int) -> str:
    """Why `taken` is not a mix of point goods worth at most `budget`, or "" (§15 #8, #9)."""
    for g, n in taken.items():
        if n < 0 or (n and g not in POINT_GOODS):
            return f"{g} is not a point good (books, ceramics, ornaments, reliquaries)"
    worth = sum(POINTS[g] * n for g, n in taken.items())
    if worth > budget:
        return f"the goods taken are worth {worth} points, more than {budget}"
    return ""


def value_payment(holding: tuple[int, ...], food_needed: int, energy_halves_needed: int,
                  order: tuple[str, ...]) -> dict[str, int] | None:
    """A deterministic payment of food and energy from `holding`, or None if none is found
    (§2.2): goods taken one tile at a time in `order` (cheapest first), energy before food
    with grain flipped to straw when the energy goods run short (§2.1), or food first if
    that leaves the food short; then the tiles the payment does not need are dropped, the
    most valuable first (no change is given, §2.2)."""
    for energy_first in (True, False):
        pay: dict[str, int] = {}
        left = list(holding)
        parts = [(energy_halves_needed, ENERGY_HALVES), (food_needed, FOOD)]
        for need, value in parts if energy_first else parts[::-1]:
            got = 0
            for g in order:
                if g not in value or g not in INDEX:
                    continue
                while got < need and left[INDEX[g]] > 0:
                    left[INDEX[g]] -= 1
                    pay[g] = pay.get(g, 0) + 1
                    got += value[g]
            if value is ENERGY_HALVES:
                while got < need and left[INDEX["grain"]] > 0:  # flipped to straw as it is paid
                    left[INDEX["grain"]] -= 1
                    pay["straw"] = pay.get("straw", 0) + 1
                    got += ENERGY_HALVES["straw"]
            if got < need:
                break
        else:
            for g in sorted(pay, key=lambda g: -(FOOD.get(g, 0) + ENERGY_HALVES.get(g, 0))):
                while pay[g] and food({**pay, g: pay[g] - 1}) >= food_needed \
                        and energy_halves({**pay, g: pay[g] - 1}) >= energy_halves_needed:
                    pay[g] -= 1
            return {g: n for g, n in pay.items() if n}
    return None
