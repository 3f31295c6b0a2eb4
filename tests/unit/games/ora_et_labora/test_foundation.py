"""Ora et Labora's pure foundations against docs/rules/ora-et-labora.md: goods and
payments (§2, §10 A), the production wheel (§4), the landscape (§3) and scoring (§10),
with the worked examples of §14."""

from __future__ import annotations

import pytest

from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora import scoring as S
from games.ora_et_labora import wheel as W


# -- §2 goods and payments --------------------------------------------------------------------

def test_2_2_food_and_energy_values() -> None:
    assert G.food({"coin": 3, "coin5": 1, "wine": 1, "whiskey": 1, "meat": 1, "bread": 1}) == 3 + 5 + 1 + 2 + 5 + 3
    assert G.energy_halves({"wood": 1, "peat": 1, "coal": 1, "straw": 1}) == 2 + 4 + 6 + 1


def test_2_2_value_payments_take_surplus_but_not_shortfall_or_goods_without_the_value() -> None:
    assert G.value_payment_problem({"livestock": 2, "peat": 1}, food_needed=4, energy_halves_needed=2) == ""  # §14.4
    assert G.value_payment_problem({"meat": 1}, food_needed=2) == ""  # surplus lost, no change
    assert "worth 1 food" in G.value_payment_problem({"grain": 1}, food_needed=2)
    assert "energy" in G.value_payment_problem({"straw": 1}, energy_halves_needed=2)
    assert "neither food nor energy" in G.value_payment_problem({"clay": 1}, food_needed=0)


def test_2_1_straw_is_flipped_from_grain_when_paying_and_coin5_costs_five_coins() -> None:
    h = G.holding({"grain": 2, "straw": 1, "coin": 7})
    after = G.take(h, {"straw": 2, "coin5": 1})
    assert isinstance(after, tuple)
    assert G.as_dict(after) == {"grain": 1, "coin": 2}
    assert "not 4" in G.take(h, {"straw": 4})  # 1 straw + 2 grain are 3
    assert G.take(G.holding({"coin": 4}), {"coin5": 1}) == "you have 4 coin, not 5"


def test_2_1_nothing_but_grain_converts_by_itself() -> None:
    assert isinstance(G.take(G.holding({"wine": 3}), {"coin": 1}), str)  # wine → coin is the player's own action
    assert isinstance(G.take(G.holding({"straw": 2}), {"grain": 1}), str)  # straw never turns back into grain


def test_14_3_cloister_workshop_energy_paid_with_peat_wood_and_flipped_grain() -> None:
    h = G.holding({"clay": 3, "stone": 1, "peat": 1, "wood": 1, "grain": 2})
    paid = {"peat": 1, "wood": 1, "straw": 2}
    assert G.energy_halves(paid) == 8  # 4 energy for 4 conversions
    after = G.take(h, {**paid, "clay": 3, "stone": 1})
    assert isinstance(after, tuple) and G.as_dict(G.add(after, {"ceramic": 3, "ornament": 1})) == {"ceramic": 3, "ornament": 1}


def test_15_4_different_goods_one_tile_each() -> None:
    assert G.different_types({"coin": 1, "coin5": 1, "grain": 1, "straw": 1}) == 4
    assert G.different_types({"wood": 2, "clay": 1}) == -1


def test_10_a_cash_is_tiled_optimally_14_6() -> None:
    # 9 coins and a wine: converting the wine makes two 5-coin tiles (4) instead of one plus the wine (3).
    assert G.cash_points(9, 1, 0) == (4, 1, 0)
    assert G.cash_points(4, 0, 0)[0] == 0  # loose coins score nothing
    assert G.cash_points(0, 3, 0)[0] == 3  # wine kept: 1 each
    assert G.cash_points(3, 0, 1)[0] == 2  # whiskey → 2 coins completes a tile: 2 > 1
    h = G.holding({"book": 2, "ceramic": 1, "reliquary": 1, "wonder": 1, "coin": 9, "wine": 1, "grain": 3, "meat": 2})
    assert G.goods_points(h) == 49  # §14.6 A


@pytest.mark.parametrize("coins,wine,whiskey", [(c, w, x) for c in range(0, 12) for w in range(0, 7) for x in range(0, 7)])
def test_10_a_cash_points_is_the_best_of_every_conversion(coins: int, wine: int, whiskey: int) -> None:
    best = max(2 * ((coins + w + 2 * x) // 5) + (wine - w) + (whiskey - x)
               for w in range(wine + 1) for x in range(whiskey + 1))
    assert G.cash_points(coins, wine, whiskey)[0] == best


def test_15_8_point_goods_budget() -> None:
    assert G.point_goods_within({"book": 1, "ceramic": 2}, 8) == ""
    assert "more than 7" in G.point_goods_within({"book": 1, "ceramic": 2}, 7)
    assert "not a point good" in G.point_goods_within({"wonder": 1}, 40)


# -- §4 the production wheel -----------------------------------------------------------------

def test_4_1_wheel_sides() -> None:
    assert W.FRONT == (0, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 10)
    assert W.BACK == (0, 1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 8, 10)


def test_4_2_setup_has_seven_indicators_at_zero_and_no_grapes_or_stone() -> None:
    w = W.new()
    assert all(w.value(g) == 0 and w.in_play(g) for g in W.START)
    assert not w.in_play("grapes") and not w.in_play("stone")


def test_14_1_clay_mound_with_the_joker() -> None:
    w = W.new()
    for r in range(1, 6):
        w = W.rotate(w)
        if r == 2:
            _, w = W.produce(w, "clay", joker=False)  # clay last used in round 2
    assert w.rotation == 5 and w.value("clay") == 4 and w.value(W.JOKER) == 6
    got, w = W.produce(w, "clay", joker=True)
    assert got == 6 and w.value(W.JOKER) == 0 and w.value("clay") == 4
    w = W.rotate(w)
    assert w.value("clay") == 5 and w.value(W.JOKER) == 2


def test_4_2_an_indicator_at_10_is_pushed_and_stays_at_10() -> None:
    w = W.new()
    for _ in range(12):
        w = W.rotate(w)
    assert w.value("wood") == 10
    for _ in range(5):
        w = W.rotate(w)
        assert w.value("wood") == 10
    _, w = W.produce(w, "wood", joker=False)
    assert w.value("wood") == 0
    w = W.rotate(w)
    assert w.value("wood") == 2


def test_13_4_solo_an_indicator_at_10_is_removed_on_rotation() -> None:
    w = W.new()
    for _ in range(12):
        w = W.rotate(w, remove_at_top=True)
    assert w.value("peat") == 10
    w = W.rotate(w, remove_at_top=True)
    assert not w.in_play("peat") and not w.in_play(W.JOKER)
    assert "joker" in W.can_produce(w, "peat", joker=True)
    assert "not in play" in W.can_produce(w, "peat", joker=False)


def test_15_2_a_late_indicator_enters_at_zero_and_first_yields_the_next_round() -> None:
    w = W.new()
    for _ in range(8):
        w = W.rotate(w)
    w = W.enter(w, "grapes")
    assert w.value("grapes") == 0
    w = W.rotate(w)
    assert w.value("grapes") == 2


# -- §3 the landscape -----------------------------------------------------------------------------

def test_3_1_heartland_layout() -> None:
    land = L.heartland()
    cards = {s.cell: (s.terrain, s.card, s.built) for s in land.spaces}
    assert cards[(0, 0)] == ("plains", "moor", "") and cards[(1, 0)] == ("plains", "moor", "")
    assert [cards[(r, c)][1] for r, c in ((0, 1), (0, 2), (1, 1))] == ["forest"] * 3
    assert cards[(0, 4)] == ("hillside", "", "H1") and cards[(1, 2)][2] == "H2" and cards[(1, 4)][2] == "H3"
    assert cards[(0, 3)] == ("plains", "", "") and cards[(1, 3)] == ("plains", "", "")
    short = {s.cell: s.card for s in L.heartland(short=True).spaces}
    assert short[(0, 0)] == "" and short[(0, 1)] == "" and short[(0, 2)] == "forest"
    neutral = {s.cell: (s.card, s.built) for s in L.heartland(neutral=True).spaces}
    assert all(card == "" for card, _ in neutral.values()) and neutral[(0, 0)] == ("", "G13")


def test_3_2_districts_go_directly_above_or_below_the_central_column() -> None:
    land = L.heartland()
    assert L.district_rows(land) == (-1, 2)
    land = L.with_district(land, 2, "hills")
    assert L.district_rows(land) == (-1, 3)
    row = {s.col: (s.terrain, s.card) for s in land.spaces if s.row == 2}
    assert row == {0: ("plains", "moor"), 1: ("plains", "forest"), 2: ("plains", "forest"),
                   3: ("hillside", ""), 4: ("hillside", "")}
    land = L.with_district(land, -1, "plains")
    row = {s.col: (s.terrain, s.card) for s in land.spaces if s.row == -1}
    assert row == {0: ("plains", "forest"), 1: ("plains", ""), 2: ("plains", ""), 3: ("plains", ""), 4: ("hillside", "")}


def test_3_3_plots_need_a_connection_and_never_overlap() -> None:
    land = L.heartland()
    assert L.plot_rows(land, "coast") == [-1, 0, 1]  # a coast space beside row 0 or 1
    land = L.with_plot(land, 0, "coast")
    assert L.plot_rows(land, "coast") == [-2, 2]  # directly above or below the first plot
    land = L.with_plot(land, 2, "coast")  # reaches below the heartland, touching the plot above
    assert L.plot_rows(land, "coast") == [-2, 4]
    assert L.plot_rows(land, "mountain") == [-1, 0, 1]
    terrains = {s.cell: s.terrain for s in L.with_plot(land, 0, "mountain").spaces if s.col >= 5}
    assert terrains == {(0, 5): "hillside", (1, 5): "hillside", (0, 6): "mountain"}


def test_3_4_a_mountain_touches_only_its_own_hillsides() -> None:
    land = L.with_plot(L.with_plot(L.heartland(), 0, "mountain"), 2, "mountain")
    assert {s.cell for s in L.neighbours(land, (0, 6))} == {(0, 5), (1, 5)}
    assert {s.cell for s in L.neighbours(land, (1, 5))} == {(0, 5), (2, 5), (1, 4), (0, 6)}
    assert {s.cell for s in L.neighbours(land, (2, 5))} == {(1, 5), (3, 5), (2, 6)}
    assert {s.cell for s in L.neighbours(land, (2, 6))} == {(2, 5), (3, 5)}


# -- §10 scoring, §14.5 and §14.6 -------------------------------------------------------------------

def _example_14_5() -> L.Landscape:
    land = L.with_plot(L.heartland(), 0, "coast")
    for cell, built in (((0, -1), "S4"), ((1, -1), "F11"), ((0, 2), "F05"), ((0, 3), "S3"), ((1, 3), "F24")):
        s = land.space(cell)
        assert s is not None
        land = L.with_space(land, L.Space(s.row, s.col, s.terrain, "", built))
    return land


def test_14_5_settlement_scores() -> None:
    land = _example_14_5()
    fishing, market = land.space((0, -1)), land.space((0, 3))
    assert fishing is not None and market is not None
    assert S.settlement_score(land, fishing) == 16  # own 6 + water 3 + Harbor Promenade 7 + moor 0
    assert S.settlement_score(land, market) == 19  # own 2 + Bakery 5 + Clay Mound 3 + Cloister Church 9
    assert S.settlements(land) == 35


def test_14_6_final_score() -> None:
    land = _example_14_5()
    h = G.holding({"book": 2, "ceramic": 1, "reliquary": 1, "wonder": 1, "coin": 9, "wine": 1, "grain": 3, "meat": 2})
    assert S.score(land, h) == (49, 23, 35)
    assert sum(S.score(land, h)) == 107


def test_10_c_negative_dwelling_values_and_the_houseboat() -> None:
    land = L.with_plot(L.heartland(), 0, "coast")
    # Shanty Town (-3) beside a Farming Village (1): each counts the other.
    for cell, built in (((0, 3), "S1"), ((1, 3), "S2"), ((0, -2), "I11")):
        s = land.space(cell)
        assert s is not None
        land = L.with_space(land, L.Space(s.row, s.col, s.terrain, "", built))
    shanty, farming = land.space((0, 3)), land.space((1, 3))
    assert shanty is not None and farming is not None
    assert S.settlement_score(land, shanty) == -3 + 0 + 3 + 1  # forest (0,2) 0, Clay Mound 3, Farming Village 1
    assert S.settlement_score(land, farming) == 1 + (-3) + 2 + 2  # Shanty Town, Farmyard, Cloister Office
    land2 = L.with_space(land, L.Space(0, -1, "coast", "", "S4"))
    fishing = land2.space((0, -1))
    assert fishing is not None
    assert S.settlement_score(land2, fishing) == 6 + 6 + 0 + 0  # Houseboat 6 replaces the water's 3; (1,-1) empty, (0,0) moor


def test_2_2_a_deterministic_payment_wastes_nothing_it_can_avoid() -> None:
    """§2.1, §2.2: the payment legal commands and function choices offer."""
    order = ("straw", "grain", "wood", "peat", "livestock", "coin", "coal", "meat", "wine")
    assert G.value_payment(G.holding({"wood": 1, "coal": 1}), 0, 6, order) == {"coal": 1}
    assert G.value_payment(G.holding({"grain": 3}), 1, 2, order) == {"straw": 2, "grain": 1}  # two flipped
    assert G.value_payment(G.holding({"grain": 2, "livestock": 1, "meat": 1}), 7, 0, order) == {"grain": 2, "meat": 1}
    assert G.value_payment(G.holding({"grain": 1}), 2, 0, order) is None
