"""Production and commerce: §5.2, §6, §7 steps 2-5, §14 example 5, §15 #1-#3, #20, #21, #23.

Pure payment questions call `payment.ways(need, me, left, right)` on City values; timing
questions (who has which coins when) are played through the Table driver.
"""

from __future__ import annotations

import itertools
import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from games import get
from games.contract import Rejection, Seed
from games.fold import replay
from games.seven_wonders import payment
from games.seven_wonders.boards import BOARDS
from games.seven_wonders.catalog import CATALOG, vec
from games.seven_wonders.edifice import EDIFICE, ProduceOneOf
from games.seven_wonders.events import TurnResolved
from games.seven_wonders.payment import info, ways
from games.seven_wonders.scoring import left_of, right_of
from games.seven_wonders.state import City

from .table import Table


def C(wonder: str, *built: str, side: str = "A", stages: int = 0, coins: int = 3) -> City:
    return City(wonder=wonder, side=side, built=tuple(built), stages=stages, coins=coins)


def coins(ws) -> list[tuple[int, int]]:
    """The (to left, to right) coins of each way, in the engine's order."""
    return [(w.left, w.right) for w in ws]


def units(v) -> str:
    return "".join(r * k for r, k in zip("WSCOGLP", v))


# A neighbour with nothing to sell: Ephesus' starting papyrus only.
NOBODY = C("ephesus")


# --- distinct ways, either-or cards, both neighbours -----------------------------------


def test_every_distinct_way_is_listed_with_coins_to_each_neighbour() -> None:
    """§6: if both neighbours produce the resource the buyer chooses freely; each way names
    the coins sent left and right, cheapest first, ties buying from the LEFT first."""
    me = C("giza")  # makes S only
    left = C("olympia")  # W on the board
    right = C("babylon", "lumber_yard")  # W from a brown card
    got = ways(vec("W"), me, left, right)
    assert coins(got) == [(2, 0), (0, 2)]
    assert units(got[0].from_left) == "W" and units(got[0].from_right) == ""
    assert units(got[1].from_right) == "W" and units(got[1].from_left) == ""


def test_two_units_can_be_split_in_any_mix_between_the_neighbours() -> None:
    """§6: purchases from both neighbours in the same turn are allowed, in any mix."""
    me = C("rhodes")
    left = C("olympia", "lumber_yard")  # W W
    right = C("babylon", "sawmill")  # W W
    got = ways(vec("WW"), me, left, right)
    assert coins(got) == [(4, 0), (2, 2), (0, 4)]
    assert units(got[1].from_left) == "W" and units(got[1].from_right) == "W"


def test_a_unit_missing_on_each_side_must_be_bought_from_both_neighbours() -> None:
    """§6: a construction may need purchases from LEFT and RIGHT together (Aqueduct SSS)."""
    me = C("giza")  # S
    left = C("babylon", "stone_pit")  # S
    right = C("olympia", "stone_pit")  # S
    got = ways(vec("SSS"), me, left, right)
    assert coins(got) == [(2, 2)]


def test_own_production_covers_the_cost_without_any_purchase() -> None:
    """§5.2: own sources are used first and are never spent; a covered cost costs nothing."""
    me = C("giza", "stone_pit", "quarry")  # S + S + SS
    got = ways(vec("SSSS"), me, NOBODY, NOBODY)
    assert coins(got) == [(0, 0)]
    # resources are never spent: the same city covers the same cost again
    assert coins(ways(vec("SSSS"), me, NOBODY, NOBODY)) == [(0, 0)]


def test_either_or_card_gives_one_unit_not_both() -> None:
    """§5.2: Timber Yard supplies exactly one unit, W or S, per construction."""
    me = C("rhodes", "timber_yard")  # O + (W or S)
    assert coins(ways(vec("W"), me, NOBODY, NOBODY)) == [(0, 0)]
    assert coins(ways(vec("S"), me, NOBODY, NOBODY)) == [(0, 0)]
    assert ways(vec("WS"), me, NOBODY, NOBODY) == ()


def test_own_either_or_card_may_be_set_either_way_when_buying_the_other_unit() -> None:
    """§5.2, §6: a '/' source is chosen anew for each construction, and a player may buy a
    type his own city also produces (his only source is needed for the other unit)."""
    me = C("rhodes", "timber_yard")  # W or S
    left = C("olympia")  # sells W only
    right = C("giza")  # sells S only
    got = ways(vec("WS"), me, left, right)
    assert coins(got) == [(2, 0), (0, 2)]
    assert units(got[0].from_left) == "W"  # Timber Yard set to S
    assert units(got[1].from_right) == "S"  # Timber Yard set to W


def test_neighbours_either_or_card_sells_only_one_of_its_types() -> None:
    """§6: for a '/' card the buyer chooses which type; it still sells only one unit."""
    me = C("ephesus")
    left = C("alexandria", "timber_yard")  # sells W or S (and G)
    assert coins(ways(vec("W"), me, left, NOBODY)) == [(2, 0)]
    assert coins(ways(vec("S"), me, left, NOBODY)) == [(2, 0)]
    assert ways(vec("WS"), me, left, NOBODY) == ()


def test_double_card_sells_both_of_its_units() -> None:
    """§6: a double card (Sawmill) can sell up to its 2 units."""
    me = C("giza")
    left = C("ephesus", "sawmill")
    assert coins(ways(vec("WW"), me, left, NOBODY)) == [(4, 0)]
    assert ways(vec("WWW"), me, left, NOBODY) == ()


def test_a_neighbour_sells_each_unit_at_most_once_per_construction() -> None:
    """§6: one Stone Pit and the stone starting resource sell that buyer at most 2 stone."""
    me = C("ephesus")
    left = C("giza", "stone_pit")  # S + S
    assert coins(ways(vec("SS"), me, left, NOBODY)) == [(4, 0)]
    assert ways(vec("SSS"), me, left, NOBODY) == ()
    # with one more stone on the other side the third unit comes from the right
    assert coins(ways(vec("SSS"), me, left, C("olympia", "stone_pit"))) == [(4, 2)]


# --- prices ------------------------------------------------------------------------------


def test_east_trading_post_discounts_raw_materials_from_the_right_only() -> None:
    """§6: East Trading Post = raw materials bought from the RIGHT neighbour cost 1."""
    me = C("rhodes", "east_trading_post")
    left = C("giza")  # S
    right = C("olympia", "stone_pit")  # S
    got = ways(vec("S"), me, left, right)
    assert coins(got) == [(0, 1), (2, 0)]
    # manufactured goods are not discounted by it
    assert coins(ways(vec("G"), me, NOBODY, C("alexandria"))) == [(0, 2)]


def test_west_trading_post_discounts_raw_materials_from_the_left_only() -> None:
    """§0, §6: West = left; West Trading Post = raw materials from the LEFT cost 1."""
    me = C("rhodes", "west_trading_post")
    left = C("giza")
    right = C("olympia", "stone_pit")
    assert coins(ways(vec("S"), me, left, right)) == [(1, 0), (0, 2)]


def test_marketplace_discounts_manufactured_goods_from_both_sides() -> None:
    """§6: Marketplace = G/L/P bought from either neighbour cost 1; raw materials stay 2."""
    me = C("giza", "marketplace")
    left = C("alexandria", "lumber_yard")  # G, W
    right = C("halicarnassus", "ore_vein")  # L, O
    assert coins(ways(vec("G"), me, left, right)) == [(1, 0)]
    assert coins(ways(vec("L"), me, left, right)) == [(0, 1)]
    assert coins(ways(vec("W"), me, left, right)) == [(2, 0)]
    assert coins(ways(vec("O"), me, left, right)) == [(0, 2)]


def test_olympia_b_stage_1_discounts_raw_materials_from_both_sides() -> None:
    """§6, §11.6: Olympia B stage 1 = W/S/C/O from LEFT and RIGHT cost 1 (not G/L/P)."""
    me = C("olympia", side="B", stages=1)
    left = C("giza")  # S
    right = C("babylon", "glassworks_1")  # C, G
    assert coins(ways(vec("SC"), me, left, right)) == [(1, 1)]
    assert coins(ways(vec("G"), me, left, right)) == [(0, 2)]
    # before the stage is built: full price
    assert coins(ways(vec("SC"), C("olympia", side="B"), left, right)) == [(2, 2)]


def test_olympia_b_discount_covers_a_raw_starting_resource() -> None:
    """§15 #21: the discount covers every tradeable raw unit, the board's one included."""
    me = C("olympia", side="B", stages=1)
    assert coins(ways(vec("O"), me, C("rhodes"), NOBODY)) == [(1, 0)]


def test_discounts_never_drop_below_one_coin() -> None:
    """§6, §15 #20: Olympia B stage 1 plus both trading posts still costs 1 per unit."""
    me = C("olympia", "east_trading_post", "west_trading_post", side="B", stages=1)
    left = C("giza")
    right = C("rhodes")
    assert coins(ways(vec("SO"), me, left, right)) == [(1, 1)]
    me2 = C("giza", "marketplace", "west_trading_post", "east_trading_post")
    assert coins(ways(vec("GW"), me2, C("alexandria", "lumber_yard"), NOBODY)) == [(2, 0)]


# --- what cannot be bought ---------------------------------------------------------------


def test_caravansery_and_forum_are_never_offered_to_neighbours() -> None:
    """§6: yellow production (Caravansery, Forum) cannot be bought."""
    me = C("giza")
    left = C("ephesus", "caravansery", "forum")
    assert ways(vec("W"), me, left, NOBODY) == ()
    assert ways(vec("G"), me, left, NOBODY) == ()
    # ...but the owner uses them
    assert coins(ways(vec("WG"), left, NOBODY, NOBODY)) == [(0, 0)]


def test_alexandria_stage_resources_are_never_offered_but_its_glass_is() -> None:
    """§6, §11.3: Alexandria's stage resources are not tradable; the starting glass is."""
    me = C("giza")
    alexandria = C("alexandria", side="B", stages=2)  # G board; stages: W/S/C/O and G/L/P
    assert ways(vec("C"), me, alexandria, NOBODY) == ()
    assert ways(vec("L"), me, alexandria, NOBODY) == ()
    assert coins(ways(vec("G"), me, alexandria, NOBODY)) == [(2, 0)]
    assert ways(vec("GG"), me, alexandria, NOBODY) == ()
    # Alexandria itself uses them: C from stage 1, L from stage 2, G from the board
    assert coins(ways(vec("CLG"), alexandria, NOBODY, NOBODY)) == [(0, 0)]
    alexandria_a = C("alexandria", side="A", stages=2)
    assert ways(vec("O"), me, alexandria_a, NOBODY) == ()


def test_a_boards_starting_resource_is_sellable() -> None:
    """§6: the wonder board's starting resource can be bought."""
    me = C("giza")
    for board, res in (("rhodes", "O"), ("olympia", "W"), ("babylon", "C"), ("halicarnassus", "L"),
                       ("ephesus", "P"), ("alexandria", "G")):
        assert coins(ways(vec(res), me, C(board), C("giza"))) == [(2, 0)], board


def test_buyer_cannot_buy_from_a_city_beyond_its_neighbours() -> None:
    """§6: only the two neighbouring cities sell; a 4-player table's opposite seat does not."""
    t = Table(boards=["giza", "babylon", "rhodes", "ephesus"], plan={(0, 1): ["barracks"]})
    # seat 0's neighbours: LEFT 1 (Babylon, C) and RIGHT 3 (Ephesus, P); Rhodes (O) is seat 2
    got = t.act(0, "build Barracks")
    assert isinstance(got, Rejection) and got.code == "cannot_afford"


# --- cheapest default and the tie-break ------------------------------------------------


def test_cheapest_way_is_the_default_and_ties_buy_from_the_left() -> None:
    """§6: the engine offers the cheapest plan by default; the documented tie-break of
    payment.ways is fewest coins, then fewer to the right (buy left), then fewer left."""
    t = Table(boards=["giza", "olympia", "rhodes"], plan={(0, 1): ["barracks"], (2, 1): ["stockade"]})
    # seat 0 (Giza): LEFT seat 1 Olympia has W, RIGHT seat 2 Rhodes has O.
    # seat 2 (Rhodes): LEFT seat 0 Giza has S, RIGHT seat 1 Olympia has W.
    t.act(2, "build Stockade")
    ev = t.act(0, "build Barracks")
    assert not isinstance(ev, Rejection)
    t.turn()
    plays = {p.seat: p for p in t.of(TurnResolved)[0].plays}
    assert (plays[0].left, plays[0].right) == (0, 2)
    assert (plays[2].left, plays[2].right) == (0, 2)


def test_tie_between_neighbours_sends_the_coins_left() -> None:
    """§6 tie-break documented in payment.ways: equal totals -> buy from the LEFT."""
    t = Table(boards=["giza", "olympia", "babylon"], plan={(0, 1): [None, "stockade"], (2, 1): ["lumber_yard"]})
    t.turn({2: "build Lumber Yard"})
    # seat 0: LEFT Olympia (W board), RIGHT Babylon (Lumber Yard): both sell W for 2
    t.turn({0: "build Stockade"})
    p = [p for p in t.of(TurnResolved)[-1].plays if p.seat == 0][0]
    assert (p.left, p.right) == (2, 0)


def test_any_listed_payment_is_accepted_and_an_unlisted_one_rejected() -> None:
    """§6: the engine accepts any legal plan; a payment that is no way to pay is refused."""
    t = Table(boards=["giza", "olympia", "babylon"], plan={(0, 1): [None, "stockade"], (2, 1): ["lumber_yard"]})
    t.turn({2: "build Lumber Yard"})
    bad = t.act(0, "build Stockade pay left 1 right 0")
    assert isinstance(bad, Rejection) and bad.code == "no_such_payment"
    bad = t.act(0, "build Stockade pay left 2 right 2")
    assert isinstance(bad, Rejection) and bad.code == "no_such_payment"
    t.turn({0: "build Stockade pay left 0 right 2"})
    p = [p for p in t.of(TurnResolved)[-1].plays if p.seat == 0][0]
    assert (p.left, p.right) == (0, 2)
    assert t.coins()[2] == 3 + 3 + 2  # Babylon: turn-2 filler discard + the sale


# --- §14 example 5 -------------------------------------------------------------------


def _example_5(trading_post: bool = True):
    me = C("rhodes", "lumber_yard", *(("west_trading_post",) if trading_post else ()))
    left = C("halicarnassus", "timber_yard", "sawmill", "caravansery")
    right = C("giza", "stone_pit", "forest_cave")
    return ways(vec("WWSO"), me, left, right)


def test_example_5_cheapest_is_two_coins_both_to_the_left() -> None:
    """§14 example 5: Senate (WWSO) for Rhodes A with Lumber Yard and West Trading Post:
    W from LEFT's Sawmill + S from LEFT's Timber Yard = 2 coins, both to LEFT."""
    got = _example_5()
    assert (got[0].left, got[0].right) == (2, 0)
    assert units(got[0].from_left) == "WS"


def test_example_5_next_best_costs_three() -> None:
    """§14 example 5: next best plan: 3 coins (one unit from each side)."""
    got = _example_5()
    assert [w.total for w in got] == [2, 3, 4]
    assert (got[1].left, got[1].right) == (1, 2)


def test_example_5_without_the_trading_post_every_split_costs_four() -> None:
    """§14 example 5: without the West Trading Post: 4 coins (any split)."""
    got = _example_5(trading_post=False)
    assert {w.total for w in got} == {4}
    assert sorted(coins(got)) == [(0, 4), (2, 2), (4, 0)]


def test_example_5_timber_yard_cannot_deliver_both_and_caravansery_is_not_for_sale() -> None:
    """§14 example 5: LEFT's Caravansery is not for sale and Timber Yard cannot deliver
    both W and S: without the Sawmill and the RIGHT neighbour there is no way."""
    me = C("rhodes", "lumber_yard", "west_trading_post")
    left = C("halicarnassus", "timber_yard", "caravansery")
    assert ways(vec("WWSO"), me, left, NOBODY) == ()


def test_example_5_needs_two_coins_at_the_start_of_the_turn() -> None:
    """§14 example 5: X needs at least 2 coins at the start of the turn (the cheapest way
    is the one taken by default)."""
    got = _example_5()
    assert min(w.total for w in got) == 2


# --- coin costs and coin timing ------------------------------------------------------


def test_brown_card_coin_cost_goes_to_the_bank() -> None:
    """§5.1: Timber Yard costs 1 coin paid to the bank, not to a neighbour."""
    t = Table(boards=["giza", "olympia", "babylon"], plan={(0, 1): ["timber_yard"]})
    ev = t.turn({0: "build Timber Yard"})
    (tr,) = t.of(TurnResolved, ev)
    p = [p for p in tr.plays if p.seat == 0][0]
    assert (p.bank, p.left, p.right) == (1, 0, 0)
    assert t.coins() == (2, 6, 6)


def test_a_coin_cost_cannot_be_paid_with_resources() -> None:
    """§5.2, §15 #23: coins are not a resource; with 0 coins a 1-coin brown card cannot be
    built (no debt)."""
    t = Table(boards=["giza", "olympia", "babylon"], plan={(0, 1): ["stockade", "timber_yard", "clay_pit"]})
    t.turn({0: "build Stockade"})  # W bought for 2 -> 1 coin
    t.turn({0: "build Timber Yard"})  # 1 coin to the bank -> 0
    assert t.coins()[0] == 0
    got = t.act(0, "build Clay Pit")
    assert isinstance(got, Rejection) and got.code == "cannot_afford"


def spare(t: Table, seat: int) -> str:
    """A card of the seat's hand nobody planned for (to use as a stage marker)."""
    return t.filler(seat).split()[1]


def test_outlay_is_limited_by_the_coins_held_at_the_start_of_the_turn() -> None:
    """§6, §15 #1: purchases must be covered by start-of-turn coins; coins earned in the
    turn (here: a sale to a neighbour) arrive at the end of the turn, spendable next turn."""
    t = Table(boards=["giza", "babylon", "olympia"],
              plan={(0, 1): ["stockade", "lumber_yard"], (1, 1): ["stone_pit"], (2, 1): [None, "baths"]})
    # seat 0 Giza (S): LEFT 1 Babylon, RIGHT 2 Olympia (W). Olympia's LEFT is Giza.
    t.turn({0: "build Stockade", 1: "build Stone Pit"})  # Giza pays 2 to Olympia
    assert t.coins()[0] == 1
    assert not isinstance(t.act(2, "build Baths"), Rejection)  # buys Giza's stone: 2 coins
    assert t.coins()[0] == 1  # nothing arrives before the reveal
    got = t.act(0, f"wonder {spare(t, 0)}")  # Giza A stage 1 SS: 1 S bought for 2
    assert isinstance(got, Rejection) and got.code == "cannot_afford"
    ev = t.turn({0: "build Lumber Yard"})
    (tr,) = t.of(TurnResolved, ev)
    assert tr.coins[0] == 2  # the sale, credited at the end of the turn
    assert t.coins()[0] == 3
    t.turn({0: f"wonder {spare(t, 0)}"})  # from the next turn on the income is spendable
    assert t.city(0).stages == 1 and t.coins()[0] == 1


def test_a_unit_is_used_by_its_owner_and_sold_to_both_neighbours_in_one_turn() -> None:
    """§6, §15 #2: selling consumes nothing: Olympia uses its board's wood for its own
    stage while both neighbours buy wood from it; it is paid at the end of the turn."""
    t = Table(boards=["rhodes", "olympia", "giza"],
              plan={(0, 1): ["lumber_yard", "altar"], (1, 1): ["timber_yard", "theater"], (2, 1): [None, "stockade"]})
    # seat 0 Rhodes: LEFT 1 Olympia. seat 2 Giza: RIGHT 1 Olympia.
    t.turn({0: "build Lumber Yard", 1: "build Timber Yard"})
    assert t.coins() == (3, 2, 6)
    t.act(0, "wonder Altar")  # Rhodes A stage 1 WW: Lumber Yard + 1 W bought left
    t.act(2, "build Stockade pay left 0 right 2")  # W bought right (Rhodes sells W too)
    assert t.coins()[1] == 2
    ev = t.act(1, "wonder Theater")  # Olympia A stage 1 WW: board W + Timber Yard
    assert not isinstance(ev, Rejection)
    (tr,) = t.of(TurnResolved, ev)
    plays = {p.seat: p for p in tr.plays}
    assert (plays[0].left, plays[0].right) == (2, 0)
    assert (plays[2].left, plays[2].right) == (0, 2)
    assert (plays[1].left, plays[1].right) == (0, 0)
    assert t.coins() == (1, 2 + 4, 4)
    assert t.city(0).stages == 1 and t.city(1).stages == 1


def test_a_card_placed_this_turn_cannot_be_bought_from_in_the_same_turn() -> None:
    """§5.2, §15 #3: a structure placed in a turn does not produce for other constructions
    of that turn; it sells from the next turn on."""
    t = Table(boards=["giza", "babylon", "rhodes"], plan={(0, 1): [None, "stockade"], (1, 1): [None, "lumber_yard"]})
    # Giza seat 0: LEFT Babylon (C), RIGHT Rhodes (O): nobody sells W yet.
    t.turn()
    assert not isinstance(t.act(1, "build Lumber Yard"), Rejection)
    got = t.act(0, "build Stockade")
    assert isinstance(got, Rejection) and got.code == "cannot_afford"
    t.turn({1: "build Lumber Yard"})
    assert coins(ways(vec("W"), t.city(0), t.city(1), t.city(2))) == [(2, 0)]


def test_cannot_afford_message_names_need_own_and_neighbours() -> None:
    """§6: the one message test: Aqueduct (SSS) when the city makes 1 stone and its
    neighbours sell 1."""
    t = Table(boards=["giza", "babylon", "olympia"], plan={(1, 1): ["stone_pit"], (0, 2): ["aqueduct"]})
    t.turn({1: "build Stone Pit"})
    t.finish_age()
    got = t.act(0, "build Aqueduct")
    assert isinstance(got, Rejection) and got.code == "cannot_afford"
    assert got.message == "cannot afford Aqueduct: needs 3 stone, you make 1 and your neighbours sell 1"


def test_cheapest_unaffordable_is_rejected_cannot_afford() -> None:
    """§6, §15 #23: an outlay above the start-of-turn coins is illegal."""
    t = Table(boards=["giza", "babylon", "olympia"], plan={(0, 1): ["stockade", "workshop"]})
    t.turn({0: "build Stockade"})  # 1 coin left; Workshop needs G which nobody sells
    got = t.act(0, "build Workshop")
    assert isinstance(got, Rejection) and got.code == "cannot_afford"


def test_buying_a_type_the_city_makes_is_accepted_when_named_but_never_listed() -> None:
    """§6 [interpretation] 'a player may buy a type that his own city also produces' and
    'accept any legal plan': Olympia (starting W) may still buy the Stockade's W from its right
    neighbour Babylon's Lumber Yard; `ways` lists only the free way."""
    t = Table(boards=["olympia", "giza", "babylon"], plan={(0, 1): [None, "stockade"], (2, 1): ["lumber_yard"]})
    t.turn({2: "build Lumber Yard"})
    me = t.city(0)
    assert [(w.left, w.right) for w in ways(vec("W"), me, t.city(1), t.city(2))] == [(0, 0)]
    bad = t.act(0, "build Stockade pay left 2 right 0")  # Giza (left) makes no wood
    assert isinstance(bad, Rejection) and bad.code == "no_such_payment"
    t.turn({0: "build Stockade pay left 0 right 2"})  # Babylon (right) sells its Lumber Yard's W
    p = [p for p in t.of(TurnResolved)[-1].plays if p.seat == 0][0]
    assert (p.left, p.right) == (0, 2)


# --- the production cache ------------------------------------------------------------

_CARDS = sorted(CATALOG.cards)
_PRODUCING_EDIFICES = sorted(c for c in EDIFICE.cards if any(isinstance(r, ProduceOneOf) for r in EDIFICE.cards[c].rewards))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(BOARDS)), st.sampled_from(["A", "B"]), st.lists(st.sampled_from(_CARDS), max_size=18),
       st.integers(0, 4), st.lists(st.sampled_from(_PRODUCING_EDIFICES), max_size=2), st.randoms())
def test_a_citys_production_derived_step_by_step_equals_the_whole_computation(
        wonder: str, side: str, built: list[str], stages: int, rewards: list[str], rnd) -> None:
    """§5.2, §6 and Edifice §9.1: `payment._info` derives a city from the same city one
    structure smaller when it has it cached; whatever the order the city grew in (and
    whatever was cached), the production, what neighbours may buy, the prices and the
    names are those computed from the whole city."""
    stages = min(stages, len(BOARDS[wonder].sides[side].stages))
    city = City(wonder=wonder, side=side, built=tuple(built), stages=stages, rewards=tuple(rewards))
    payment._info.cache_clear()
    whole = info(city)
    payment._info.cache_clear()
    # Grow it again from the bare board: one structure at a time, cards and stages mixed.
    steps = ["card"] * len(built) + ["stage"] * stages
    rnd.shuffle(steps)
    grown = City(wonder=wonder, side=side, rewards=tuple(rewards))
    info(grown)
    for step in steps:
        if step == "card":
            grown = msgspec.structs.replace(grown, built=grown.built + (built[len(grown.built)],))
        else:
            grown = msgspec.structs.replace(grown, stages=grown.stages + 1)
        if rnd.random() < 0.2:
            payment._info.cache_clear()  # a parent not cached: computed whole
        info(grown)
    assert grown == city
    got = info(city)
    assert (got.own, got.sell, got.left_price, got.right_price, got.names) == (
        whole.own, whole.sell, whole.left_price, whole.right_price, whole.names)
    assert whole.names == frozenset(CATALOG.cards[c].name for c in built)


def test_a_full_production_cache_lets_its_oldest_cities_go_one_at_a_time() -> None:
    """The cache never empties whole (that freed 8,192 productions in one 4.9 ms pause):
    past its limit each new city pushes out the oldest one, and the latest stay."""
    payment._info.cache_clear()
    limit = payment._infos.limit
    board = sorted(BOARDS)[0]
    cities = [City(wonder=board, side="A", built=built)
              for built in itertools.islice(itertools.permutations(_CARDS, 3), limit + 5)]
    assert len({payment.city_key(c) for c in cities}) > limit  # distinct cities, more than it holds
    for c in cities:
        info(c)
    assert payment._info.cache_info() == limit
    first, latest = payment.city_key(cities[0]), payment.city_key(cities[-1])
    assert first not in payment._infos and latest in payment._infos
    payment._info.cache_clear()


# --- the payment search against the definition ------------------------------------------

_VEC = st.tuples(*[st.integers(0, 3)] * 7)
# Costs name one to four types (as the cards' do), at most 3 units of each here.
_NEED = st.dictionaries(st.integers(0, 6), st.integers(1, 3), min_size=1, max_size=4).map(
    lambda d: tuple(d.get(i, 0) for i in range(7)))


def _by_definition(need, own, lp, rp, lsell, rsell) -> set[tuple[int, int]]:
    """§6 by brute force: the coin pairs of every purchase that buys exactly a minimal
    shortfall (what the city's own production, set one way, leaves missing; no unit it
    could make itself), split between one setting of each neighbour's sellable sources."""
    from itertools import product

    short = {tuple(max(0, a - b) for a, b in zip(need, o)) for o in own}
    minimal = {m for m in short if not any(o != m and all(x <= y for x, y in zip(o, m)) for o in short)}
    pairs = set()
    for m in minimal:
        for s in lsell:
            for r in rsell:
                for left in product(*(range(k + 1) for k in m)):
                    right = tuple(a - b for a, b in zip(m, left))
                    if all(x <= y for x, y in zip(left, s)) and all(x <= y for x, y in zip(right, r)):
                        pairs.add((sum(a * p for a, p in zip(left, lp)), sum(a * p for a, p in zip(right, rp))))
    return pairs


@settings(max_examples=400, deadline=None)
@given(_NEED, st.lists(_VEC, min_size=1, max_size=8), st.tuples(*[st.integers(1, 2)] * 7),
       st.tuples(*[st.integers(1, 2)] * 7), st.lists(_VEC, min_size=1, max_size=4), st.lists(_VEC, min_size=1, max_size=4))
def test_the_payment_search_finds_exactly_the_ways_the_rules_define(need, own, lp, rp, lsell, rsell) -> None:
    """§6: `_ways` (which works on the types a shortfall has only, from cached pieces
    shared between cities) lists exactly the coin pairs of the brute-force definition,
    cheapest first with ties to the left, each with units that one setting of each
    neighbour's sources can sell and that cover a minimal shortfall."""
    own, lsell, rsell = tuple(sorted(set(own))), tuple(sorted(set(lsell))), tuple(sorted(set(rsell)))
    payment._shortfalls.cache_clear()
    got = payment._ways(need, own, lp, rp, lsell, rsell)
    assert {(w.left, w.right) for w in got} == _by_definition(need, own, lp, rp, lsell, rsell)
    assert [(w.total, w.right, w.left) for w in got] == sorted((w.total, w.right, w.left) for w in got)
    short = {tuple(max(0, a - b) for a, b in zip(need, o)) for o in own}
    for w in got:
        bought = tuple(a + b for a, b in zip(w.from_left, w.from_right))
        assert bought in short
        assert any(all(x <= y for x, y in zip(w.from_left, s)) for s in lsell)
        assert any(all(x <= y for x, y in zip(w.from_right, r)) for r in rsell)
        assert (w.left, w.right) == (sum(a * p for a, p in zip(w.from_left, lp)),
                                     sum(a * p for a, p in zip(w.from_right, rp)))


@settings(max_examples=400, deadline=None)
@given(_NEED, st.lists(_VEC, min_size=1, max_size=8), st.tuples(*[st.integers(1, 2)] * 7),
       st.tuples(*[st.integers(1, 2)] * 7), st.lists(_VEC, min_size=1, max_size=4), st.lists(_VEC, min_size=1, max_size=4))
def test_a_named_payment_is_found_as_the_listed_way_with_those_coins(need, own, lp, rp, lsell, rsell) -> None:
    """§6: the referee checks a command's named payment with `_way_paying`, which stops
    the search at the first purchase with those coins; for every coin pair it gives the
    very Way (units included) that `_ways` lists with those coins, and None for a pair
    `_ways` does not list."""
    own, lsell, rsell = tuple(sorted(set(own))), tuple(sorted(set(lsell))), tuple(sorted(set(rsell)))
    listed = {(w.left, w.right): w for w in payment._ways(need, own, lp, rp, lsell, rsell)}
    for lc in range(0, 13):
        for rc in range(0, 13):
            assert payment._way_paying(need, own, lp, rp, lsell, rsell, lc, rc) == listed.get((lc, rc))


def _played_cities(players: int, games: int, tag: bytes):
    """(the city to act, its left and right neighbours, a Random) at every step of
    `games` random games of `players`."""
    g = get("seven_wonders")
    for n in range(games):
        state = replay(g, g.setup(g.presets[f"{players}p"], Seed(tag + b"-%d" % n)))
        rng = random.Random(n)
        while g.result(state) is None:
            seat = g.to_act(state)[0]
            yield state.cities[seat], state.cities[left_of(seat, players)], state.cities[right_of(seat, players)], rng
            for e in g.decide(state, seat, rng.choice(g.legal_commands(state, seat))):
                state = g.evolve(state, e)


def test_a_named_payment_checks_like_the_listed_ways_on_real_cities() -> None:
    """§6 on the cities of played games: `way_paying` (the referee's path) agrees with
    `ways` for every coin pair on the cards a city might build, cities that cover a cost
    alone (the free way) and cities that cannot pay at all included."""
    kinds = {"free": 0, "bought": 0, "none": 0}
    for me, left, right, rng in _played_cities(4, 4, b"way-paying"):
        for cid in rng.sample(_CARDS, 4):
            need = CATALOG.need[cid]
            listed = {(w.left, w.right): w for w in ways(need, me, left, right)}
            kinds["free" if (0, 0) in listed else "bought" if listed else "none"] += 1
            for lc in range(0, 7):
                for rc in range(0, 7):
                    assert payment.way_paying(need, me, left, right, lc, rc) == listed.get((lc, rc))
    assert min(kinds.values()) >= 20, kinds


_CITY = st.builds(lambda w, side, built, stages: City(wonder=w, side=side, built=tuple(dict.fromkeys(built)),
                                                       stages=min(stages, len(BOARDS[w].sides[side].stages))),
                  st.sampled_from(sorted(BOARDS)), st.sampled_from(["A", "B"]),
                  st.lists(st.sampled_from(_CARDS), max_size=16), st.integers(0, 4))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_CITY, _CITY, _CITY), min_size=1, max_size=3),
       st.lists(st.one_of(_NEED, st.sampled_from([CATALOG.need[c] for c in _CARDS])), min_size=1, max_size=6))
def test_legal_commands_payments_are_the_coins_of_the_listed_ways(cities, needs) -> None:
    """§6: `legal_commands` prices a hand with `payer`, which works on costs of one type
    from each city's most made and sold of it and on any other cost from memos keyed on
    numbered, cut-down productions; for any cities and costs (the memos carried from one
    example to the next, so answers found for other cities are looked up too) it gives
    the coins of exactly the ways `ways` lists, in its order."""
    for me, left, right in cities:
        pay = payment.payer(me, left, right)
        for need in needs:
            assert pay(need) == tuple(coins(ways(need, me, left, right)))


@settings(max_examples=300, deadline=None)
@given(st.tuples(_CITY, _CITY, _CITY), st.lists(st.one_of(_NEED, st.sampled_from([CATALOG.need[c] for c in _CARDS])),
                                                min_size=1, max_size=4))
def test_a_named_payment_is_the_listed_way_with_those_coins_for_any_cities(cities, needs) -> None:
    """§6: `way_paying` (the referee's check of a named payment, one-type costs worked out
    from the coins alone) gives, for any cities, cost and coin pair, the very Way (units
    included) that `ways` lists with those coins, and None for a pair it does not list."""
    me, left, right = cities
    for need in needs:
        listed = {(w.left, w.right): w for w in ways(need, me, left, right)}
        for lc in range(-2, 11):
            for rc in range(-2, 11):
                assert payment.way_paying(need, me, left, right, lc, rc) == listed.get((lc, rc))


def test_legal_commands_payments_are_the_listed_ways_on_played_cities() -> None:
    """§6 on the cities of played games: for every card of the catalog and every stage
    of each city's board, `payer` gives the coins of `ways`' list, in its order."""
    asked = 0
    for me, left, right, _ in _played_cities(5, 3, b"payer"):
        pay = payment.payer(me, left, right)
        for need in [CATALOG.need[c] for c in _CARDS] + [vec(st.cost) for st in BOARDS[me.wonder].sides[me.side].stages]:
            assert pay(need) == tuple(coins(ways(need, me, left, right)))
            asked += 1
    assert asked > 10_000


def test_no_alternative_of_a_stage_produces_or_discounts() -> None:
    """§5.2, §6: a city's production and prices (`payment._info`, keyed on board, stages
    and structures, not on the alternatives picked at a stage) read each built stage's
    fixed effects only. That is exact while no stage alternative (Carthage's, in
    rules/data) produces a resource or lowers a price: this keeps it so."""
    from games.seven_wonders.catalog import Produce, TradeDiscount

    for board in BOARDS.values():
        for side in board.sides.values():
            for stage in side.stages:
                for option in stage.options:
                    assert not any(isinstance(e, (Produce, TradeDiscount)) for e in option)
