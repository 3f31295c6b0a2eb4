"""Building functions (games/ora_et_labora/functions.py) against docs/rules/ora-et-labora.md:
every building of §11 (both variants and the heartland), the production wheel (§4.3), Fell
Trees / Cut Peat (§7.2), the short-game bonus (§13.3, §15 #13), the worked examples §14.1-§14.4,
the interpretations of §15 and the disputed rows of §16 switched in the data."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from games.contract import Rejection
from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora import wheel as W
from games.ora_et_labora.catalog import CATALOG, Building
from games.ora_et_labora.commands import Use
from games.ora_et_labora.functions import Outcome, choices, clear, resolve
from games.ora_et_labora.state import (
    AVAILABLE,
    FreeBuild,
    FreeLandscape,
    FreeSettlement,
    Options,
    Owner,
    State,
    UseFunction,
)

FREE = (AVAILABLE, AVAILABLE, AVAILABLE)
SPOT = (0, 3)  # an empty plains space of the heartland (§3.1), next to the Clay Mound (0,4)


def wheel_at(rotation: int) -> W.Wheel:
    """The front wheel after `rotation` rotations, nothing produced: every start indicator
    (and the joker) shows values[rotation] (§4.2)."""
    w = W.new()
    for _ in range(rotation):
        w = W.rotate(w)
    return w


def put(land: L.Landscape, cell: tuple[int, int], built: str) -> L.Landscape:
    sp = land.space(cell)
    assert sp is not None
    return L.with_space(land, L.Space(sp.row, sp.col, sp.terrain, "", built))


def make(goods: dict[str, int] | None = None, *, variant: str = "france", built: dict | None = None,
         theirs: dict | None = None, mode: str = "four_player", length: str = "normal", players: int = 2,
         wheel: W.Wheel | None = None, clergy: tuple = FREE, their_clergy: tuple = FREE, hand: tuple = (),
         display: tuple[str, ...] = (), wonders: int = 8, districts: tuple = (2, 3), plots: tuple = (3, 4),
         short_land: bool = False) -> State:
    """Seat 0 holding `goods` with buildings `built` ({cell: id}) on a heartland, seat 1 with
    `theirs`; in the solo game owner 1 is the neutral player (§13.4)."""
    mine = L.heartland(short=short_land)
    for cell, bid in (built or {}).items():
        mine = put(mine, cell, bid)
    other = L.heartland(short=short_land, neutral=players == 1)
    for cell, bid in (theirs or {}).items():
        other = put(other, cell, bid)
    owners = (Owner(goods=G.holding(goods or {}), land=mine, clergy=clergy, hand=hand),
              Owner(goods=G.holding({}), land=other, clergy=their_clergy))
    return State(phase="actions", options=Options(players=players, variant=variant, length=length),  # type: ignore[arg-type]
                 mode=mode, players=players, owners=owners, wheel=wheel or wheel_at(5), display=display,
                 wonders=wonders, districts=districts, plots=plots)


def at(bid: str, goods: dict[str, int] | None = None, **kw: Any) -> State:
    """`make` with building `bid` on seat 0's SPOT (heartland buildings are there already)."""
    if not bid.startswith("H"):
        kw["built"] = {SPOT: bid, **kw.get("built", {})}
    return make(goods, **kw)


def ok(state: State, bid: str, use: Use, owner: int = 0, seat: int = 0) -> Outcome:
    out = resolve(state, seat, (owner, bid), use)
    assert isinstance(out, Outcome), out
    return out


def no(state: State, bid: str, use: Use, owner: int = 0, seat: int = 0) -> str:
    out = resolve(state, seat, (owner, bid), use)
    assert isinstance(out, Rejection), out
    return out.code


def net(state: State, out: Outcome, seat: int = 0) -> dict[str, int]:
    """The seat's holding after the outcome (paid, then gained)."""
    after = G.take(state.owners[seat].goods, out.paid)
    assert isinstance(after, tuple)
    return G.as_dict(G.add(after, out.gained))


def switched(monkeypatch: pytest.MonkeyPatch, bid: str) -> None:
    """Put the §16 alternative of row `bid` into the catalog (data only, no code change)."""
    row = msgspec.to_builtins(CATALOG.buildings[bid])
    for alt in CATALOG.buildings[bid].alternatives:
        if not alt.field.startswith(("effect_steps", "cost")):
            continue
        node: Any = row
        parts = [p for name, index in re.findall(r"([A-Za-z_]+)|\[(\d+)\]", alt.field) for p in [name or int(index)]]
        for p in parts[:-1]:
            node = node[p]
        node[parts[-1]] = alt.value
    monkeypatch.setitem(CATALOG.buildings, bid, msgspec.convert(row, Building))


# -- §4.3 the production wheel: heartland buildings, Grapevines, Quarries ----------------------


def test_14_1_clay_mound_with_the_joker() -> None:
    """§14.1 worked example, H1 Clay Mound: R=5, clay last used in round 2 shows 4, joker 6."""
    w = wheel_at(2)
    _, w = W.produce(w, "clay", joker=False)
    for _ in range(3):
        w = W.rotate(w)
    s = at("H1", wheel=w)
    out = ok(s, "H1", Use(joker=True))
    assert out.gained == {"clay": 6} and out.paid == {} and out.bonus == {}
    assert out.wheel is not None and out.wheel.value(W.JOKER) == 0 and out.wheel.value("clay") == 4
    plain = ok(s, "H1", Use())
    assert plain.gained == {"clay": 4} and plain.wheel is not None and plain.wheel.value("clay") == 0
    assert plain.wheel.value(W.JOKER) == 6


def test_4_3_clay_mound_rejects_a_choice_of_goods_and_a_removed_joker() -> None:
    """§4.3, §15 #3, H1 Clay Mound: nothing to choose; a joker removed in solo cannot be used."""
    assert no(at("H1"), "H1", Use(goods=("clay",))) == "bad_choice"
    w = W.rotate(wheel_at(12), remove_at_top=True)  # solo: every start indicator at 10 is removed
    assert not w.in_play(W.JOKER)
    assert no(at("H1", wheel=w, players=1, mode="solo"), "H1", Use(joker=True)) == "not_in_play"


def test_4_3_farmyard_grain_or_livestock() -> None:
    """§11 Heartland, H2 Farmyard: choose grain OR livestock; the chosen indicator (or joker) to 0."""
    s = at("H2", wheel=wheel_at(3))  # every indicator shows 4
    out = ok(s, "H2", Use(goods=("livestock",)))
    assert out.gained == {"livestock": 4}
    assert out.wheel is not None and out.wheel.value("livestock") == 0 and out.wheel.value("grain") == 4
    out = ok(s, "H2", Use(goods=("grain",), joker=True))
    assert out.gained == {"grain": 4} and out.wheel is not None and out.wheel.value(W.JOKER) == 0
    assert no(s, "H2", Use()) == "bad_choice"
    assert no(s, "H2", Use(goods=("clay",))) == "bad_choice"
    assert no(s, "H2", Use(goods=("grain", "livestock"))) == "bad_choice"


def test_4_3_cloister_office_takes_coins_even_at_zero() -> None:
    """§11 Heartland, H3 Cloister Office: coins from the coin indicator; at 0 it still is a use (§15 #13)."""
    assert ok(at("H3", wheel=wheel_at(12)), "H3", Use()).gained == {"coin": 10}
    out = ok(at("H3", wheel=wheel_at(0)), "H3", Use())
    assert out.gained == {} and out.wheel is not None


@pytest.mark.parametrize("bid", ["F14", "F31"])
def test_4_3_grapevine_uses_the_joker_before_grapes_enter(bid: str) -> None:
    """§4.3, §11.2, §15 #2, F14/F31 Grapevine: only the joker until the grapes indicator is in play."""
    s = at(bid)
    assert no(s, bid, Use()) == "not_in_play"
    assert ok(s, bid, Use(joker=True)).gained == {"grapes": 6}
    w = W.enter(wheel_at(8), "grapes")
    for _ in range(3):
        w = W.rotate(w)
    assert ok(at(bid, wheel=w), bid, Use()).gained == {"grapes": 4}


@pytest.mark.parametrize("bid", ["G22", "F29"])
def test_4_3_quarry_stone_by_joker_or_indicator(bid: str) -> None:
    """§4.3, §11.2, G22/F29 Quarry: stone from the joker before the stone indicator enters (§5.3)."""
    s = at(bid)
    assert no(s, bid, Use()) == "not_in_play"
    out = ok(s, bid, Use(joker=True))
    assert out.gained == {"stone": 6} and out.wheel is not None and out.wheel.value(W.JOKER) == 0
    w = W.rotate(W.enter(wheel_at(13), "stone"))
    assert ok(at(bid, wheel=w), bid, Use()).gained == {"stone": 2}


def test_13_3_short_game_bonus_on_every_wheel_use_even_at_zero() -> None:
    """§13.3 bonus production 1, §15 #13: +1 of the produced good to every seat, even from a 0."""
    s = at("H2", length="short", mode="four_player_short", short_land=True, wheel=wheel_at(0))
    out = ok(s, "H2", Use(goods=("grain",)))
    assert out.gained == {} and out.bonus == {"grain": 1}
    assert ok(at("H1", length="short", mode="four_player_short"), "H1", Use(joker=True)).bonus == {"clay": 1}


# -- §7.2 Fell Trees / Cut Peat ------------------------------------------------------------------


def test_7_2_fell_trees_removes_an_own_forest_and_takes_the_wood_value() -> None:
    """§7.2 Fell Trees: the forest at (0,1) removed, wood indicator's value taken, wood to 0."""
    s = make(wheel=wheel_at(4))
    out = clear(s, 0, "wood", (0, 1), False)
    assert isinstance(out, Outcome)
    assert out.gained == {"wood": 5} and out.removed == ((0, 1),) and out.bonus == {}
    assert out.wheel is not None and out.wheel.value("wood") == 0 and out.wheel.value("peat") == 5
    joker = clear(s, 0, "peat", (1, 0), True)
    assert isinstance(joker, Outcome) and joker.gained == {"peat": 5}
    assert joker.wheel is not None and joker.wheel.value(W.JOKER) == 0 and joker.wheel.value("peat") == 5


def test_7_2_clearing_rejections() -> None:
    """§7.2: only your own card of the right kind; no card named while you still have one."""
    s = make()
    for good, cell in (("wood", (1, 0)), ("peat", (0, 1)), ("wood", (0, 3)), ("wood", (9, 9))):
        out = clear(s, 0, good, cell, False)
        assert isinstance(out, Rejection) and out.code == "bad_cell"
    out = clear(s, 0, "wood", None, False)
    assert isinstance(out, Rejection) and out.code == "bad_cell"
    out = clear(s, 0, "clay", (0, 1), False)
    assert isinstance(out, Rejection) and out.code == "bad_choice"


def test_7_2_no_card_left_gains_nothing_and_keeps_the_wheel() -> None:
    """§7.2, §15 #13: without a moor the action gives nothing, the wheel stays, no short bonus."""
    s = make(length="short", mode="four_player_short")
    bare = msgspec.structs.replace(s.owners[0], land=L.heartland(neutral=True))  # no forest or moor card
    s = msgspec.structs.replace(s, owners=(bare, s.owners[1]))
    assert clear(s, 0, "peat", None, False) == Outcome()
    assert clear(s, 0, "wood", None, True) == Outcome()
    out = clear(s, 0, "peat", (0, 0), False)
    assert isinstance(out, Rejection) and out.code == "bad_cell"


def test_7_2_short_game_bonus_and_an_indicator_at_zero() -> None:
    """§7.2, §13.3, §15 #13: the card goes even at 0, and every seat gets +1 wood."""
    s = make(wheel=wheel_at(0), length="short", mode="three_player_short")
    out = clear(s, 0, "wood", (0, 2), False)
    assert isinstance(out, Outcome) and out.gained == {} and out.bonus == {"wood": 1} and out.removed == ((0, 2),)


# -- start buildings -----------------------------------------------------------------------------


def test_11_priory_uses_a_building_with_a_prior() -> None:
    """§11 Start buildings, G01 Priory, §11.2, §15 #11: a building holding any prior, never a Priory."""
    s = at("G01", theirs={(0, 3): "G12", (1, 3): "G01"}, their_clergy=((1, "G12"), (1, "G01"), AVAILABLE))
    out = ok(s, "G01", Use(target=(1, "G12")))
    assert out.then == (UseFunction(seat=0, building=(1, "G12"), via="priory", chain=((0, "G01"),)),) and out.paid == out.gained == {}
    s2 = msgspec.structs.replace(s, owners=(s.owners[0], msgspec.structs.replace(
        s.owners[1], clergy=((1, "G01"), (1, "G12"), AVAILABLE))))
    assert no(s2, "G01", Use(target=(1, "G12"))) == "bad_target"  # a lay brother stands there
    assert no(s2, "G01", Use(target=(1, "G01"))) == "bad_target"  # a Priory, even with a prior
    assert no(s, "G01", Use()) == "bad_target"
    assert no(s, "G01", Use(target=(1, "G13"))) == "bad_target"  # not built


def test_11_cloister_courtyard_three_different_goods_for_six() -> None:
    """§11 Start buildings, G02 Cloister Courtyard, §15 #4: 1 tile each of 3 types -> 6 of one basic good."""
    s = at("G02", {"wood": 1, "grain": 1, "coin": 6})
    out = ok(s, "G02", Use(goods=("wood",), pay={"wood": 1, "straw": 1, "coin5": 1}))
    assert out.paid == {"wood": 1, "grain": 1, "coin": 5} and out.gained == {"wood": 6}
    assert ok(s, "G02", Use(goods=("coin",), pay={"coin": 1, "coin5": 1, "grain": 1})).gained == {"coin": 6}
    assert no(s, "G02", Use(goods=("wood",), pay={"coin": 2, "wood": 1})) == "bad_payment"
    assert no(s, "G02", Use(goods=("wood",), pay={"coin": 1, "wood": 1})) == "bad_payment"
    assert no(s, "G02", Use(goods=("stone",), pay={"wood": 1, "grain": 1, "coin": 1})) == "bad_choice"
    assert no(s, "G02", Use(goods=("wood",), pay={"wood": 1, "grain": 1, "clay": 1})) == "cannot_afford"


def test_11_grain_storage_one_coin_for_six_grain() -> None:
    """§11 Start buildings, F03 Grain Storage: once per use, no count needed."""
    out = ok(at("F03", {"coin": 2}), "F03", Use())
    assert out.paid == {"coin": 1} and out.gained == {"grain": 6}
    assert no(at("F03"), "F03", Use()) == "cannot_afford"
    assert no(at("F03", {"coin": 2}), "F03", Use(times=(1,))) == "bad_choice"


def test_11_granary_one_coin_for_four_grain_and_a_book() -> None:
    """§11 Start buildings, I03 Granary."""
    out = ok(at("I03", {"coin": 1}, variant="ireland"), "I03", Use())
    assert out.paid == {"coin": 1} and out.gained == {"grain": 4, "book": 1}
    assert no(at("I03", variant="ireland"), "I03", Use()) == "cannot_afford"


def test_11_windmill_up_to_seven_grain() -> None:
    """§11 Start buildings, F04 Windmill: each grain -> 1 flour + 1 straw, at most 7."""
    s = at("F04", {"grain": 9})
    out = ok(s, "F04", Use(times=(7,)))
    assert out.paid == {"grain": 7} and out.gained == {"straw": 7, "flour": 7}
    assert no(s, "F04", Use(times=(8,))) == "over_limit"
    assert no(at("F04", {"grain": 2}), "F04", Use(times=(3,))) == "cannot_afford"
    assert no(s, "F04", Use(times=(0,))) == "nothing_to_do"


def test_11_malthouse_any_number_of_grain() -> None:
    """§11 Start buildings, I04 Malthouse: any number of grain -> malt + straw."""
    out = ok(at("I04", {"grain": 12}, variant="ireland"), "I04", Use(times=(12,)))
    assert out.paid == {"grain": 12} and out.gained == {"straw": 12, "malt": 12}
    assert no(at("I04", {"grain": 1}, variant="ireland"), "I04", Use(times=(-1,))) == "bad_choice"


def test_14_2_bakery_bakes_four_and_sells_two() -> None:
    """§14.2 worked example, F05 Bakery: 4 flour + 1 peat (2 energy) -> 4 bread, 2 sold for 8 coins."""
    s = at("F05", {"flour": 4, "peat": 1})
    out = ok(s, "F05", Use(times=(4, 2), pay={"peat": 1}))
    assert out.paid == {"peat": 1, "flour": 4} and out.gained == {"coin": 8, "bread": 2}
    assert net(s, out) == {"coin": 8, "bread": 2}
    wasteful = ok(at("F05", {"flour": 4, "peat": 1, "wood": 1}), "F05", Use(times=(4, 2), pay={"peat": 1, "wood": 1}))
    assert wasteful.paid == {"wood": 1, "peat": 1, "flour": 4}  # 1 energy wasted, no change (§15 #5)
    assert no(s, "F05", Use(times=(4, 3), pay={"peat": 1})) == "over_limit"
    assert no(s, "F05", Use(times=(4,), pay={"flour": 1})) == "cannot_afford"
    assert no(at("F05", {"flour": 4, "wood": 1}), "F05", Use(times=(4,), pay={"wood": 1})) == "bad_payment"
    assert no(at("F05", {"flour": 4, "peat": 1, "meat": 1}), "F05", Use(times=(4,), pay={"peat": 1, "meat": 1})) == "bad_payment"
    assert no(s, "F05", Use(times=(0, 1))) == "cannot_afford"  # no bread to sell


def test_11_brewery_brews_then_sells_one_beer() -> None:
    """§11 Start buildings, I05 Brewery: malt + grain -> beer; then sell 1 beer for 7 coins."""
    s = at("I05", {"malt": 2, "grain": 2}, variant="ireland")
    out = ok(s, "I05", Use(times=(2, 1)))
    assert out.paid == {"grain": 2, "malt": 2} and out.gained == {"coin": 7, "beer": 1}
    assert no(s, "I05", Use(times=(2, 2))) == "over_limit"
    assert no(s, "I05", Use(times=(3,))) == "cannot_afford"


def test_15_6_fuel_merchant_pays_the_highest_tier_reached() -> None:
    """§11 Start buildings, G06 Fuel Merchant, §15 #6: one tier, 3/6/9 energy -> 5/8/10 coins."""
    s = at("G06", {"peat": 3, "coal": 3, "wood": 1, "straw": 1})
    assert ok(s, "G06", Use(pay={"peat": 1, "wood": 1})).gained == {"coin": 5}
    assert ok(s, "G06", Use(pay={"coal": 2, "wood": 1})).gained == {"coin": 8}  # 7 energy: still 8
    out = ok(s, "G06", Use(pay={"coal": 3}))
    assert out.gained == {"coin": 10} and out.paid == {"coal": 3}
    assert no(s, "G06", Use(pay={"peat": 1, "straw": 1})) == "bad_payment"  # 2.5 energy
    assert no(s, "G06", Use()) == "bad_payment"


def test_11_peat_coal_kiln_takes_coal_and_coin_and_converts_peat() -> None:
    """§11 Start buildings, G07 Peat Coal Kiln: 1 coal + 1 coin, and any number of peat -> coal."""
    s = at("G07", {"peat": 3})
    assert ok(s, "G07", Use()).gained == {"coal": 1, "coin": 1}
    out = ok(s, "G07", Use(times=(3,)))
    assert out.paid == {"peat": 3} and out.gained == {"coal": 4, "coin": 1}
    assert no(s, "G07", Use(times=(4,))) == "cannot_afford"


def test_11_market_four_different_goods() -> None:
    """§11 Start buildings, F08 Market, §15 #4: 4 different goods -> 7 coins + 1 bread."""
    s = at("F08", {"grain": 2, "wood": 1, "clay": 1})
    out = ok(s, "F08", Use(pay={"grain": 1, "straw": 1, "wood": 1, "clay": 1}))
    assert out.paid == {"wood": 1, "grain": 2, "clay": 1} and out.gained == {"coin": 7, "bread": 1}
    assert no(s, "F08", Use(pay={"grain": 1, "wood": 1, "clay": 1})) == "bad_payment"


def test_11_false_lighthouse_coins_and_beer_or_whiskey() -> None:
    """§11 Start buildings, I08 False Lighthouse."""
    s = at("I08", variant="ireland")
    assert ok(s, "I08", Use(goods=("whiskey",))).gained == {"whiskey": 1, "coin": 3}
    assert ok(s, "I08", Use(goods=("beer",))).gained == {"coin": 3, "beer": 1}
    assert no(s, "I08", Use(goods=("wine",))) == "bad_choice"


def test_15_10_cloister_garden_grapes_then_an_adjacent_own_building() -> None:
    """§11 Start buildings, F09 Cloister Garden, §11.2, §15 #10: own, unoccupied, orthogonally adjacent."""
    s = at("F09", built={(1, 3): "G12"})
    out = ok(s, "F09", Use())
    assert out.gained == {"grapes": 1} and out.then == ()
    out = ok(s, "F09", Use(target=(0, "H1")))  # the Clay Mound at (0,4)
    assert out.gained == {"grapes": 1} and out.then == (UseFunction(seat=0, building=(0, "H1"), via="cloister_garden", chain=((0, "F09"),)),)
    assert ok(s, "F09", Use(target=(0, "G12"))).then[0].building == (0, "G12")  # (1,3), below
    assert no(s, "F09", Use(target=(0, "H2"))) == "bad_target"  # (1,2) is diagonal
    busy = msgspec.structs.replace(s, owners=(msgspec.structs.replace(s.owners[0], clergy=((0, "H1"), AVAILABLE, AVAILABLE)),
                                               s.owners[1]))
    assert no(busy, "F09", Use(target=(0, "H1"))) == "bad_target"
    theirs = make(theirs={(0, 3): "F09"})  # seat 0 uses seat 1's Garden: nothing of seat 0 is next to it
    assert no(theirs, "F09", Use(target=(1, "H1")), owner=1) == "bad_target"
    assert ok(theirs, "F09", Use(), owner=1).gained == {"grapes": 1}


def test_11_spinning_mill_counts_livestock_owned() -> None:
    """§11 Start buildings, I09 Spinning Mill: 1-4 -> 3, 5-8 -> 5, 9+ -> 6 coins; nothing paid."""
    for n, coins in ((1, 3), (4, 3), (5, 5), (8, 5), (9, 6), (20, 6)):
        out = ok(at("I09", {"livestock": n}, variant="ireland"), "I09", Use())
        assert out.gained == {"coin": coins} and out.paid == {}
    assert no(at("I09", variant="ireland"), "I09", Use()) == "nothing_to_do"


def test_11_carpentry_removes_a_forest_then_builds() -> None:
    """§11 Start buildings, F10 Carpentry, §11.2: a forest removed (no wood), then a free build."""
    s = at("F10")
    out = ok(s, "F10", Use(cells=((0, 2),)))
    assert out.removed == ((0, 2),) and out.gained == {} and out.then == (FreeBuild(seat=0, via="carpentry"),)
    assert no(s, "F10", Use(cells=((0, 0),))) == "bad_cell"  # a moor
    assert no(s, "F10", Use(cells=((0, 1), (0, 2)))) == "over_limit"


def test_11_cottage_malt_then_an_adjacent_own_building() -> None:
    """§11 Start buildings, I10 Cottage (⚠ §16: adjacent use, like the Cloister Garden)."""
    s = at("I10", variant="ireland")
    assert ok(s, "I10", Use()).gained == {"malt": 1}
    out = ok(s, "I10", Use(target=(0, "H1")))
    assert out.then == (UseFunction(seat=0, building=(0, "H1"), via="cottage", chain=((0, "I10"),)),)
    assert no(s, "I10", Use(target=(0, "H3"))) == "bad_target"  # (1,4) is diagonal to (0,3)


def test_11_harbor_promenade_and_houseboat_take_their_goods() -> None:
    """§11 Start buildings, F11 Harbor Promenade and I11 Houseboat: fixed goods, nothing paid."""
    assert ok(at("F11"), "F11", Use()).gained == {"wood": 1, "coin": 1, "ceramic": 1, "wine": 1}
    assert ok(at("I11", variant="ireland"), "I11", Use()).gained == {"wood": 1, "peat": 1, "coin": 1, "malt": 1}
    assert no(at("F11"), "F11", Use(pay={"coin": 1})) == "bad_payment"
    assert no(at("I11", variant="ireland"), "I11", Use(joker=True)) == "bad_choice"


def test_14_4_stone_merchant_food_and_energy_per_stone() -> None:
    """§14.4, G12 Stone Merchant: 2 livestock (4 food) + 1 peat (2 energy) -> 2 stone; at most 5."""
    s = at("G12", {"livestock": 2, "peat": 1, "meat": 3, "coal": 2})
    out = ok(s, "G12", Use(times=(2,), pay={"livestock": 2, "peat": 1}))
    assert out.paid == {"peat": 1, "livestock": 2} and out.gained == {"stone": 2}
    assert ok(s, "G12", Use(times=(5,), pay={"meat": 2, "coal": 2})).gained == {"stone": 5}
    assert no(s, "G12", Use(times=(6,), pay={"meat": 3, "coal": 2})) == "over_limit"
    assert no(s, "G12", Use(times=(2,), pay={"livestock": 2})) == "bad_payment"  # no energy
    assert no(s, "G12", Use(times=(1,), pay={"peat": 2})) == "cannot_afford"


def test_11_builders_market_two_coins_for_materials() -> None:
    """§11 Start buildings, G13 Builders' Market; solo: it stands on the neutral heartland (§13.4)."""
    s = make({"coin": 2}, players=1, mode="solo")
    out = ok(s, "G13", Use(), owner=1)
    assert out.paid == {"coin": 2} and out.gained == {"wood": 2, "straw": 1, "clay": 2, "stone": 1}
    assert no(make({"coin": 1}, players=1, mode="solo"), "G13", Use(), owner=1) == "cannot_afford"


# -- A buildings -------------------------------------------------------------------------------------


def test_11_sacred_site_book_grain_or_malt_beer_or_whiskey() -> None:
    """§11 A buildings, I14 Sacred Site: choices in step order."""
    s = at("I14", variant="ireland")
    assert ok(s, "I14", Use(goods=("malt", "whiskey"))).gained == {"whiskey": 1, "book": 1, "malt": 2}
    assert ok(s, "I14", Use(goods=("grain", "beer"))).gained == {"grain": 2, "book": 1, "beer": 1}
    assert no(s, "I14", Use(goods=("beer", "grain"))) == "bad_choice"
    assert no(s, "I14", Use(goods=("grain",))) == "bad_choice"


def test_11_financed_estate_one_coin() -> None:
    """§11 A buildings, F15 Financed Estate: 1 coin -> book, bread, 2 grapes, 2 flour."""
    out = ok(at("F15", {"coin": 1}), "F15", Use())
    assert out.paid == {"coin": 1} and out.gained == {"book": 1, "grapes": 2, "flour": 2, "bread": 1}
    assert no(at("F15"), "F15", Use()) == "cannot_afford"


def test_11_druids_house_five_and_three_of_different_basic_goods() -> None:
    """§11 A buildings, I15 Druid's House: 1 book -> 5 of X + 3 of Y, X != Y, basic goods."""
    s = at("I15", {"book": 1}, variant="ireland")
    out = ok(s, "I15", Use(goods=("coin", "clay")))
    assert out.paid == {"book": 1} and out.gained == {"clay": 3, "coin": 5}
    assert no(s, "I15", Use(goods=("coin", "coin"))) == "bad_choice"
    assert no(s, "I15", Use(goods=("stone", "clay"))) == "bad_choice"
    assert no(s, "I15", Use(goods=("wood",))) == "bad_choice"
    assert no(at("I15", variant="ireland"), "I15", Use(goods=("wood", "peat"))) == "cannot_afford"


def test_11_cloister_chapter_house_one_of_each_basic_good() -> None:
    """§11 A buildings, G16 Cloister Chapter House."""
    out = ok(at("G16"), "G16", Use())
    assert out.gained == {g: 1 for g in ("wood", "peat", "grain", "livestock", "clay", "coin")}
    assert no(at("G16"), "G16", Use(times=(1,))) == "bad_choice"


def test_11_cloister_library_books_then_meat_and_wine() -> None:
    """§11 A buildings, F17 Cloister Library: up to 3 coins -> books; then 1 book -> meat + wine."""
    s = at("F17", {"coin": 4})
    out = ok(s, "F17", Use(times=(3, 1)))
    assert out.paid == {"coin": 3} and out.gained == {"meat": 1, "book": 2, "wine": 1}
    assert no(s, "F17", Use(times=(4,))) == "over_limit"
    assert no(s, "F17", Use(times=(0, 1))) == "cannot_afford"


def test_11_scriptorium_one_coin() -> None:
    """§11 A buildings, I17 Scriptorium (⚠ §16: 1 whiskey): 1 coin -> book, meat, whiskey."""
    out = ok(at("I17", {"coin": 1}, variant="ireland"), "I17", Use())
    assert out.paid == {"coin": 1} and out.gained == {"whiskey": 1, "meat": 1, "book": 1}
    assert no(at("I17", variant="ireland"), "I17", Use()) == "cannot_afford"


def test_14_3_cloister_workshop_with_mixed_energy() -> None:
    """§14.3 worked example, G18 Cloister Workshop: 3 ceramics + 1 ornament for peat, wood and 2 grain."""
    s = at("G18", {"clay": 3, "stone": 1, "peat": 1, "wood": 1, "grain": 2})
    out = ok(s, "G18", Use(times=(3, 1), pay={"peat": 1, "wood": 1, "straw": 2}))
    assert out.paid == {"wood": 1, "peat": 1, "grain": 2, "clay": 3, "stone": 1}
    assert out.gained == {"ceramic": 3, "ornament": 1}
    assert no(s, "G18", Use(times=(3, 1), pay={"peat": 1, "wood": 1})) == "bad_payment"
    assert no(s, "G18", Use(times=(4,), pay={"peat": 1, "wood": 1, "straw": 2})) == "over_limit"
    assert no(s, "G18", Use(times=(0, 2), pay={"peat": 1})) == "over_limit"


def test_11_slaughterhouse_livestock_and_straw_for_meat() -> None:
    """§11 A buildings, G19 Slaughterhouse: straw may be flipped from grain (§2.1)."""
    out = ok(at("G19", {"livestock": 3, "straw": 1, "grain": 2}), "G19", Use(times=(3,)))
    assert out.paid == {"grain": 2, "straw": 1, "livestock": 3} and out.gained == {"meat": 3}
    assert no(at("G19", {"livestock": 3, "straw": 1}), "G19", Use(times=(2,))) == "cannot_afford"


# -- B buildings ----------------------------------------------------------------------------------


def test_11_inn_food_for_coins_and_wine_for_six() -> None:
    """§11 B buildings, F20 Inn: food worth up to 7 -> 1 coin per food; and/or 1 wine -> 6 coins."""
    s = at("F20", {"meat": 2, "wine": 2, "grain": 1})
    out = ok(s, "F20", Use(times=(7, 1), pay={"meat": 1, "wine": 1, "grain": 1}))
    assert out.paid == {"grain": 1, "meat": 1, "wine": 2} and out.gained == {"coin": 13}
    assert ok(s, "F20", Use(times=(0, 1))).gained == {"coin": 6}
    assert no(s, "F20", Use(times=(8,), pay={"meat": 2})) == "over_limit"
    assert no(s, "F20", Use(times=(6,), pay={"meat": 1})) == "bad_payment"


def test_11_alehouse_beer_and_or_whiskey() -> None:
    """§11 B buildings, I20 Alehouse: 1 beer -> 8 coins and/or 1 whiskey -> 7 coins."""
    s = at("I20", {"beer": 2, "whiskey": 1}, variant="ireland")
    assert ok(s, "I20", Use(times=(1, 1))).gained == {"coin": 15}
    assert ok(s, "I20", Use(times=(0, 1))).paid == {"whiskey": 1}
    assert no(s, "I20", Use(times=(2,))) == "over_limit"


def test_11_winery_makes_wine_then_sells_one() -> None:
    """§11 B buildings, F21 Winery: grapes -> wine, then 1 wine -> 7 coins."""
    s = at("F21", {"grapes": 3})
    out = ok(s, "F21", Use(times=(3, 1)))
    assert out.paid == {"grapes": 3} and out.gained == {"coin": 7, "wine": 2}
    assert no(s, "F21", Use(times=(3, 2))) == "over_limit"


def test_11_whiskey_distillery_two_whiskey_per_set() -> None:
    """§11 B buildings, I21 Whiskey Distillery: malt + wood + peat -> 2 whiskey, any number."""
    s = at("I21", {"malt": 2, "wood": 2, "peat": 2}, variant="ireland")
    out = ok(s, "I21", Use(times=(2,)))
    assert out.paid == {"wood": 2, "peat": 2, "malt": 2} and out.gained == {"whiskey": 4}
    assert no(s, "I21", Use(times=(3,))) == "cannot_afford"


def test_11_2_bathhouse_returns_all_clergy() -> None:
    """§11 B buildings, F23 Bathhouse, §11.2: 1 coin -> book + ceramic, then ALL own clergymen return."""
    s = at("F23", {"coin": 1}, clergy=((0, "F23"), AVAILABLE, (1, "G12")), theirs={(0, 3): "G12"})
    out = ok(s, "F23", Use())
    assert out.paid == {"coin": 1} and out.gained == {"ceramic": 1, "book": 1} and out.returned == (0, 2)
    assert no(at("F23", clergy=((0, "F23"), AVAILABLE, AVAILABLE)), "F23", Use()) == "cannot_afford"


def test_11_2_locutory_returns_the_prior_and_builds() -> None:
    """§11 B buildings, I23 Locutory, §11.2: 2 coins, the prior comes back, then a free build."""
    s = at("I23", {"coin": 2}, variant="ireland", clergy=((0, "H1"), (0, "I23"), AVAILABLE))
    out = ok(s, "I23", Use())
    assert out.paid == {"coin": 2} and out.returned == (0,) and out.then == (FreeBuild(seat=0, via="locutory"),)
    assert ok(at("I23", {"coin": 2}, variant="ireland"), "I23", Use()).returned == ()
    assert no(at("I23", {"coin": 1}, variant="ireland"), "I23", Use()) == "cannot_afford"


def test_11_cloister_church_up_to_two_reliquaries() -> None:
    """§11 B buildings, F24 Cloister Church: 1 bread + 1 wine -> 1 reliquary, up to 2 times."""
    s = at("F24", {"bread": 3, "wine": 3})
    out = ok(s, "F24", Use(times=(2,)))
    assert out.paid == {"wine": 2, "bread": 2} and out.gained == {"reliquary": 2}
    assert no(s, "F24", Use(times=(3,))) == "over_limit"


def test_11_chapel_book_and_or_reliquaries() -> None:
    """§11 B buildings, I24 Chapel: 1 coin -> book (once) and/or up to 3 x beer + whiskey -> reliquary."""
    s = at("I24", {"coin": 1, "beer": 3, "whiskey": 3}, variant="ireland")
    out = ok(s, "I24", Use(times=(1, 3)))
    assert out.paid == {"whiskey": 3, "coin": 1, "beer": 3} and out.gained == {"book": 1, "reliquary": 3}
    assert no(s, "I24", Use(times=(2,))) == "over_limit"
    assert no(s, "I24", Use(times=(0, 4))) == "over_limit"


def test_11_2_chamber_of_wonders_thirteen_different_goods() -> None:
    """§11 B buildings, F25 Chamber of Wonders, §11.2, §15 #4: 13 types -> 1 Wonder; none left -> nothing."""
    pay = {g: 1 for g in ("wood", "peat", "coal", "grain", "straw", "livestock", "meat", "clay", "coin", "coin5",
                          "stone", "grapes", "flour")}
    s = at("F25", {**{g: 1 for g in pay if g != "coin5"}, "coin": 6})
    out = ok(s, "F25", Use(pay=pay))
    assert out.gained == {"wonder": 1} and out.wonders == 1 and out.paid["coin"] == 6
    assert no(s, "F25", Use(pay={**pay, "flour": 0})) == "bad_payment"
    assert no(at("F25", {**{g: 1 for g in pay if g != "coin5"}, "coin": 6}, wonders=0), "F25", Use(pay=pay)) == "not_allowed"


def test_11_portico_reliquary_for_two_of_seven() -> None:
    """§11 B buildings, I25 Portico: 1 reliquary -> 2 each of clay, wood, peat, livestock, grain, coins, stone."""
    out = ok(at("I25", {"reliquary": 1}, variant="ireland"), "I25", Use())
    assert out.paid == {"reliquary": 1}
    assert out.gained == {g: 2 for g in ("wood", "peat", "grain", "livestock", "clay", "coin", "stone")}
    assert no(at("I25", variant="ireland"), "I25", Use()) == "cannot_afford"


def test_11_shipyard_once_per_use() -> None:
    """§11 B buildings, G26 Shipyard (⚠ §16: once): 2 wood -> 1 ornament + 5 coins."""
    s = at("G26", {"wood": 5})
    out = ok(s, "G26", Use())
    assert out.paid == {"wood": 2} and out.gained == {"coin": 5, "ornament": 1}
    assert no(s, "G26", Use(times=(2,))) == "bad_choice"


# -- C buildings ----------------------------------------------------------------------------------


def test_15_11_palace_pays_wine_to_use_an_occupied_building() -> None:
    """§11 C buildings, F27 Palace, §15 #11: 1 wine; any clergyman on the target; never itself."""
    s = at("F27", {"wine": 1}, theirs={(0, 3): "F05"}, their_clergy=(AVAILABLE, (1, "F05"), AVAILABLE),
           clergy=((0, "F27"), (0, "H1"), AVAILABLE))
    out = ok(s, "F27", Use(target=(1, "F05")))
    assert out.paid == {"wine": 1} and out.then == (UseFunction(seat=0, building=(1, "F05"), via="palace", chain=((0, "F27"),)),)
    assert ok(s, "F27", Use(target=(0, "H1"))).then[0].building == (0, "H1")  # one's own, too
    assert no(s, "F27", Use(target=(0, "F27"))) == "bad_target"
    assert no(s, "F27", Use(target=(0, "H2"))) == "bad_target"  # unoccupied
    assert no(at("F27", theirs={(0, 3): "F05"}, their_clergy=(AVAILABLE, (1, "F05"), AVAILABLE)), "F27",
              Use(target=(1, "F05"))) == "cannot_afford"


def test_15_11_grand_manor_pays_whiskey() -> None:
    """§11 C buildings, I27 Grand Manor: 1 whiskey -> use a building with any clergyman on it."""
    s = at("I27", {"whiskey": 1}, variant="ireland", theirs={(0, 3): "G12"}, their_clergy=((1, "G12"), AVAILABLE, AVAILABLE))
    out = ok(s, "I27", Use(target=(1, "G12")))
    assert out.paid == {"whiskey": 1} and out.then == (UseFunction(seat=0, building=(1, "G12"), via="grand_manor", chain=((0, "I27"),)),)
    assert no(s, "I27", Use()) == "bad_target"


def test_11_2_castle_builds_a_settlement_from_hand() -> None:
    """§11 C buildings, G28 Castle, §11.2: one settlement from hand, outside a settlement phase."""
    out = ok(at("G28", hand=("S2",)), "G28", Use())
    assert out.then == (FreeSettlement(seat=0),) and out.paid == {}
    assert no(at("G28"), "G28", Use()) == "not_allowed"


def test_11_forest_hut_needs_a_forest() -> None:
    """§11 C buildings, I29 Forest Hut: remove a forest -> 2 livestock, 2 wood, 1 stone (no wheel)."""
    s = at("I29", variant="ireland")
    out = ok(s, "I29", Use(cells=((1, 1),)))
    assert out.removed == ((1, 1),) and out.gained == {"wood": 2, "livestock": 2, "stone": 1} and out.wheel is None
    assert no(s, "I29", Use()) == "bad_cell"
    assert no(s, "I29", Use(cells=((1, 0),))) == "bad_cell"


def test_11_town_estate_ceramic_for_twelve_coins() -> None:
    """§11 C buildings, F30 Town Estate."""
    out = ok(at("F30", {"ceramic": 2}), "F30", Use())
    assert out.paid == {"ceramic": 1} and out.gained == {"coin": 12}
    assert no(at("F30"), "F30", Use()) == "cannot_afford"


def test_11_refectory_beer_meat_and_up_to_four_ceramics() -> None:
    """§11 C buildings, I30 Refectory (⚠ §16: cap 4): the meat just taken may be converted."""
    s = at("I30", {"meat": 3}, variant="ireland")
    out = ok(s, "I30", Use(times=(4,)))
    assert out.paid == {"meat": 3} and out.gained == {"ceramic": 4, "beer": 1}
    assert ok(s, "I30", Use()).gained == {"meat": 1, "beer": 1}
    assert no(at("I30", {"meat": 9}, variant="ireland"), "I30", Use(times=(5,))) == "over_limit"


def test_11_coal_harbor_peat_coal_for_coins_and_whiskey() -> None:
    """§11 C buildings, I31 Coal Harbor (⚠ §16: peat coal): up to 3 x coal -> 3 coins + 1 whiskey."""
    s = at("I31", {"coal": 4, "peat": 4}, variant="ireland")
    out = ok(s, "I31", Use(times=(3,)))
    assert out.paid == {"coal": 3} and out.gained == {"whiskey": 3, "coin": 9}
    assert no(s, "I31", Use(times=(4,))) == "over_limit"
    assert no(at("I31", {"peat": 4}, variant="ireland"), "I31", Use(times=(1,))) == "cannot_afford"


def test_11_2_calefactory_fell_trees_and_cut_peat() -> None:
    """§11 C buildings, F32 Calefactory, §11.2: 1 coin -> Fell Trees and/or Cut Peat, wheel rules, short bonus."""
    s = at("F32", {"coin": 1}, wheel=wheel_at(4), length="short", mode="four_player_short")
    out = ok(s, "F32", Use(goods=("wood", "peat"), cells=((0, 1), (0, 0)), times=(0, 1)))
    assert out.paid == {"coin": 1} and out.gained == {"wood": 5, "peat": 5}
    assert out.removed == ((0, 1), (0, 0)) and out.bonus == {"wood": 1, "peat": 1}
    assert out.wheel is not None and out.wheel.value("wood") == 0 and out.wheel.value(W.JOKER) == 0
    assert out.wheel.value("peat") == 5
    assert ok(s, "F32", Use(goods=("peat",), cells=((1, 0),))).gained == {"peat": 5}
    assert no(s, "F32", Use(goods=("peat", "wood"), cells=((0, 0), (0, 1)))) == "bad_choice"
    assert no(s, "F32", Use(goods=("wood",), cells=((0, 0),))) == "bad_cell"
    assert no(s, "F32", Use(goods=("wood",))) == "bad_cell"
    assert no(s, "F32", Use(goods=("wood",), cells=((0, 1),), times=(2,))) == "bad_choice"
    assert no(s, "F32", Use(goods=("wood",), cells=((0, 1),), joker=True)) == "bad_choice"


def test_11_filial_church_five_different_goods() -> None:
    """§11 C buildings, I32 Filial Church, §15 #4: 5 different goods -> 1 reliquary."""
    s = at("I32", {"wood": 1, "peat": 1, "grain": 2, "clay": 1}, variant="ireland")
    out = ok(s, "I32", Use(pay={"wood": 1, "peat": 1, "grain": 1, "straw": 1, "clay": 1}))
    assert out.paid == {"wood": 1, "peat": 1, "grain": 2, "clay": 1} and out.gained == {"reliquary": 1}
    assert no(s, "I32", Use(pay={"wood": 1, "peat": 1, "grain": 2, "clay": 1})) == "bad_payment"


def test_11_2_shipping_company_joker_only() -> None:
    """§11 C buildings, F33 Shipping Company, §11.2: 3 energy -> the joker's value of meat, bread or wine."""
    s = at("F33", {"wood": 3, "peat": 1}, wheel=wheel_at(6))
    out = ok(s, "F33", Use(goods=("wine",), pay={"wood": 1, "peat": 1}))
    assert out.paid == {"wood": 1, "peat": 1} and out.gained == {"wine": 6}
    assert out.wheel is not None and out.wheel.value(W.JOKER) == 0 and out.wheel.value("wood") == 6
    assert no(s, "F33", Use(goods=("wine",), pay={"wood": 2})) == "bad_payment"
    assert no(s, "F33", Use(goods=("beer",), pay={"wood": 3})) == "bad_choice"
    short = at("F33", {"wood": 3}, length="short", mode="four_player_short")
    assert ok(short, "F33", Use(goods=("meat",), pay={"wood": 3})).bonus == {"meat": 1}  # §13.3


def test_11_2_cooperage_three_wood_for_the_jokers_beer() -> None:
    """§11 C buildings, I33 Cooperage, §11.2: 3 wood -> the joker's value of beer or whiskey."""
    s = at("I33", {"wood": 3}, variant="ireland", wheel=wheel_at(12))
    out = ok(s, "I33", Use(goods=("beer",)))
    assert out.paid == {"wood": 3} and out.gained == {"beer": 10}
    assert no(at("I33", {"wood": 2}, variant="ireland"), "I33", Use(goods=("beer",))) == "cannot_afford"


# -- D buildings ----------------------------------------------------------------------------------


def test_11_2_sacristy_four_point_goods_for_a_wonder() -> None:
    """§11 D buildings, G34 Sacristy, §11.2: book + ceramic + ornament + reliquary -> Wonder, if one is left."""
    goods = {"book": 1, "ceramic": 1, "ornament": 1, "reliquary": 1}
    out = ok(at("G34", goods), "G34", Use())
    assert out.paid == goods and out.gained == {"wonder": 1} and out.wonders == 1
    assert no(at("G34", goods, wonders=0), "G34", Use()) == "not_allowed"
    assert no(at("G34", {**goods, "book": 0}), "G34", Use()) == "cannot_afford"


def test_11_forgers_workshop_five_then_ten_coins_per_reliquary() -> None:
    """§11 D buildings, F35 Forger's Workshop (⚠ §16: unlimited further reliquaries)."""
    s = at("F35", {"coin": 25})
    out = ok(s, "F35", Use(times=(1, 2)))
    assert out.paid == {"coin": 25} and out.gained == {"reliquary": 3}
    assert no(s, "F35", Use(times=(0, 1))) == "bad_choice"  # a further one needs the first
    assert no(s, "F35", Use(times=(2,))) == "over_limit"
    assert no(s, "F35", Use(times=(1, 3))) == "cannot_afford"


def test_15_7_round_tower_whiskey_coins_and_fourteen_points() -> None:
    """§11 D buildings, I35 Round Tower, §15 #7: 1 whiskey + 5 coins + goods worth 14 points -> Wonder."""
    s = at("I35", {"whiskey": 2, "coin": 10, "ornament": 2, "ceramic": 1, "book": 1, "clay": 1}, variant="ireland")
    out = ok(s, "I35", Use(pay={"ornament": 2, "ceramic": 1, "whiskey": 1, "book": 1}))
    assert out.paid == {"whiskey": 2, "coin": 5, "ceramic": 1, "book": 1, "ornament": 2} and out.gained == {"wonder": 1}
    assert ok(s, "I35", Use(pay={"ornament": 2, "ceramic": 1, "coin5": 1, "book": 1})).paid["coin"] == 10
    assert no(s, "I35", Use(pay={"ornament": 2, "ceramic": 1})) == "bad_payment"  # 11 points
    assert no(s, "I35", Use(pay={"ornament": 2, "ceramic": 1, "book": 1, "clay": 1})) == "bad_payment"
    assert no(at("I35", {"coin": 5, "ornament": 4}, variant="ireland"), "I35", Use(pay={"ornament": 4})) == "cannot_afford"
    # a Wonder is not among the goods §15 #7 names for the 14 points
    w = at("I35", {"whiskey": 1, "coin": 5, "wonder": 1}, variant="ireland", wonders=7)
    assert no(w, "I35", Use(pay={"wonder": 1})) == "bad_payment"


def test_1_a_wonder_paid_goes_back_to_the_supply_of_eight() -> None:
    """§1 ("Wonders are a global pool of 8"), §11.1 (what is paid goes to the supply) and
    §15 #4 (a Wonder may be paid among different goods): the supply counts it back, and a
    Wonder producer may then take it (§11.2)."""
    market = at("F08", {"wonder": 1, "wood": 1, "clay": 1, "peat": 1}, wonders=7)
    out = ok(market, "F08", Use(pay={"wonder": 1, "wood": 1, "clay": 1, "peat": 1}))
    assert out.paid["wonder"] == 1 and out.wonders == -1  # the supply goes from 7 to 8
    pay = {g: 1 for g in ("wood", "peat", "coal", "grain", "livestock", "meat", "clay", "ceramic", "coin",
                          "book", "stone", "ornament", "wonder")}
    chamber = at("F25", pay, wonders=0)  # the Wonder paid is the one taken back
    out = ok(chamber, "F25", Use(pay=pay))
    assert out.paid["wonder"] == 1 and out.gained == {"wonder": 1} and out.wonders == 0


def test_11_pilgrimage_site_two_upgrade_steps() -> None:
    """§11 D buildings, F36 Pilgrimage Site: up to 2 steps; the same tile may rise twice."""
    s = at("F36", {"book": 1, "ornament": 1})
    out = ok(s, "F36", Use(take={"book>ceramic": 1, "ceramic>ornament": 1}))
    assert out.paid == {"book": 1} and out.gained == {"ornament": 1}
    out = ok(s, "F36", Use(take={"book>ceramic": 1, "ornament>reliquary": 1}))
    assert out.paid == {"book": 1, "ornament": 1} and out.gained == {"ceramic": 1, "reliquary": 1}
    assert no(s, "F36", Use(take={"book>ceramic": 1, "ceramic>ornament": 1, "ornament>reliquary": 1})) == "over_limit"
    assert no(s, "F36", Use(take={"book>ornament": 1})) == "bad_choice"
    assert no(s, "F36", Use(take={"ceramic>ornament": 1})) == "cannot_afford"


def test_11_camera_book_and_ceramic_for_a_reliquary() -> None:
    """§11 D buildings, I36 Camera: up to 2 x book + ceramic -> coin, clay, reliquary."""
    s = at("I36", {"book": 3, "ceramic": 3}, variant="ireland")
    out = ok(s, "I36", Use(times=(2,)))
    assert out.paid == {"ceramic": 2, "book": 2} and out.gained == {"clay": 2, "coin": 2, "reliquary": 2}
    assert no(s, "I36", Use(times=(3,))) == "over_limit"


def test_11_dormitory_ceramic_and_books_from_straw_and_wood() -> None:
    """§11 D buildings, F37 Dormitory: 1 ceramic; any number of straw + wood -> book."""
    s = at("F37", {"grain": 2, "wood": 3})
    out = ok(s, "F37", Use(times=(2,)))
    assert out.paid == {"wood": 2, "grain": 2} and out.gained == {"ceramic": 1, "book": 2}
    assert no(s, "F37", Use(times=(3,))) == "cannot_afford"


def test_15_12_bulwark_book_for_free_landscapes() -> None:
    """§11 D buildings, I37 Bulwark, §15 #12: 1 book -> the top district and/or plot, free."""
    s = at("I37", {"book": 1}, variant="ireland")
    out = ok(s, "I37", Use())
    assert out.paid == {"book": 1} and out.then == (FreeLandscape(seat=0, kinds=("district", "plot")),)
    assert ok(at("I37", {"book": 1}, variant="ireland", plots=()), "I37", Use()).then[0].kinds == ("district",)
    assert no(at("I37", {"book": 1}, variant="ireland", plots=(), districts=()), "I37", Use()) == "not_allowed"
    assert no(at("I37", variant="ireland"), "I37", Use()) == "cannot_afford"


def test_11_printing_office_books_per_forest() -> None:
    """§11 D buildings, F38 Printing Office: up to 4 forests removed -> 1 book each (no wood)."""
    land = L.with_district(L.heartland(), 2, "hills")  # two more forests at (2,1), (2,2)
    s = at("F38")
    s = msgspec.structs.replace(s, owners=(msgspec.structs.replace(s.owners[0], land=put(land, SPOT, "F38")),
                                           s.owners[1]))
    out = ok(s, "F38", Use(cells=((0, 1), (0, 2), (1, 1), (2, 1))))
    assert out.gained == {"book": 4} and len(out.removed) == 4 and out.wheel is None
    assert no(s, "F38", Use(cells=((0, 1), (0, 2), (1, 1), (2, 1), (2, 2)))) == "over_limit"
    assert no(s, "F38", Use(cells=((0, 1), (0, 1)))) == "bad_cell"
    assert no(s, "F38", Use()) == "nothing_to_do"


def test_15_9_festival_ground_points_up_to_the_forest_and_moor_cards() -> None:
    """§11 D buildings, I38 Festival Ground, §15 #9: 1 beer -> point goods worth at most the cards (5 here)."""
    s = at("I38", {"beer": 1}, variant="ireland")
    out = ok(s, "I38", Use(take={"book": 1, "ceramic": 1}))
    assert out.paid == {"beer": 1} and out.gained == {"ceramic": 1, "book": 1}
    assert no(s, "I38", Use(take={"ornament": 1, "book": 1})) == "over_limit"
    assert no(s, "I38", Use(take={"wonder": 1})) == "bad_choice"
    short = at("I38", {"beer": 1}, variant="ireland", short_land=True)  # 3 cards
    assert no(short, "I38", Use(take={"ornament": 1})) == "over_limit"


def test_11_estate_six_energy_or_ten_food_per_repetition() -> None:
    """§11 D buildings, G39 Estate: up to 2 x (6 energy OR 10 food) -> 1 book + 1 ornament."""
    s = at("G39", {"coal": 2, "meat": 2, "livestock": 1})
    out = ok(s, "G39", Use(times=(2,), pay={"coal": 2, "meat": 2}))
    assert out.paid == {"coal": 2, "meat": 2} and out.gained == {"book": 2, "ornament": 2}
    assert ok(s, "G39", Use(times=(1,), pay={"meat": 2})).gained == {"book": 1, "ornament": 1}
    assert no(s, "G39", Use(times=(2,), pay={"coal": 2, "meat": 1, "livestock": 1})) == "bad_payment"
    assert no(s, "G39", Use(times=(3,), pay={"coal": 2, "meat": 2})) == "over_limit"


@pytest.mark.parametrize("bid,variant", [("F40", "france"), ("I40", "ireland")])
def test_11_2_hospice_and_guesthouse_use_a_display_building(bid: str, variant: str) -> None:
    """§11 D buildings, F40 Hospice / I40 Guesthouse, §11.2: a building still in the display, as if owned."""
    s = at(bid, {"coin": 1, "livestock": 2, "peat": 1}, variant=variant, display=("G12", "G22", "F09", "I10"))
    out = ok(s, bid, Use(target=(-1, "G12")))
    via = "hospice" if bid == "F40" else "guesthouse"
    assert out.then == (UseFunction(seat=0, building=(-1, "G12"), via=via, chain=((0, bid),)),)
    assert no(s, bid, Use(target=(-1, "G13"))) == "bad_target"
    assert no(s, bid, Use(target=(0, "H1"))) == "bad_target"
    # The display building's own use, as the next Use: the function works as if owned.
    assert ok(s, "G12", Use(times=(1,), pay={"livestock": 1, "peat": 1}), owner=-1).gained == {"stone": 1}
    assert ok(s, "G22", Use(joker=True), owner=-1).gained == {"stone": 6}
    garden = "F09" if variant == "france" else "I10"
    assert no(s, garden, Use(target=(0, "H1")), owner=-1) == "bad_target"  # it stands in no landscape
    assert ok(s, garden, Use(), owner=-1).gained in ({"grapes": 1}, {"malt": 1})
    assert no(s, "G13", Use(), owner=-1) == "no_such_building"


@pytest.mark.parametrize("mode,budget", [("four_player", 6), ("two_player_long", 4), ("solo", 3)])
def test_15_8_house_of_the_brotherhood_rate_per_cloister_building(mode: str, budget: int) -> None:
    """§11 D buildings, G41 House of the Brotherhood, §15 #8: 5 coins -> point goods within
    R x cloister buildings (here Cloister Office, the House, a Priory: 3), R 2 / 1.5 (down) / 1."""
    s = at("G41", {"coin": 5}, built={(1, 3): "G01"}, mode=mode, players=1 if mode == "solo" else 2)
    out = ok(s, "G41", Use(take={"book": budget // 2}))
    assert out.paid == {"coin": 5} and out.gained == {"book": budget // 2}
    assert no(s, "G41", Use(take={"book": budget // 2 + 1})) == "over_limit"
    assert no(at("G41", {"coin": 4}, mode=mode), "G41", Use(take={"book": 1})) == "cannot_afford"


# -- conventions shared by every function --------------------------------------------------------


def test_11_1_a_use_that_changes_nothing_or_names_a_missing_building_is_refused() -> None:
    """§11.1 (a function may be declined — that is the separate Decline): empty uses and bad places."""
    s = at("F05", {"flour": 1})
    assert no(s, "F05", Use()) == "nothing_to_do"
    assert no(s, "F05", Use(times=(0, 0, 0))) == "bad_choice"
    assert no(s, "F04", Use(times=(1,))) == "no_such_building"
    assert no(s, "F05", Use(times=(1,)), owner=1) == "no_such_building"
    assert no(s, "S1", Use()) == "no_such_building"
    assert no(s, "F05", Use(target=(0, "H1"))) == "bad_target"
    assert no(s, "F05", Use(take={"book": 1})) == "bad_choice"
    assert no(s, "F05", Use(cells=((0, 1),))) == "bad_cell"


def test_15_20_a_work_contract_user_acts_with_his_own_goods_and_landscape() -> None:
    """§7.1, §15 #20: seat 1 uses seat 0's Carpentry: seat 1's goods, seat 1's forests."""
    s = at("F10")
    out = ok(s, "F10", Use(cells=((0, 1),)), owner=0, seat=1)
    assert out.removed == ((0, 1),) and out.then == (FreeBuild(seat=1, via="carpentry"),)
    s = at("G13")
    assert no(s, "G13", Use(), seat=1) == "cannot_afford"  # seat 1 holds nothing


# -- §16: disputed rows switched in the data change the behaviour ---------------------------------


def test_16_forgers_workshop_alternative_caps_the_further_reliquaries(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16 F35 Forger's Workshop: alternative max 2 reliquaries (5 + 10 coins)."""
    s = at("F35", {"coin": 25})
    switched(monkeypatch, "F35")
    assert ok(s, "F35", Use(times=(1, 1))).gained == {"reliquary": 2}
    assert no(s, "F35", Use(times=(1, 2))) == "over_limit"


def test_16_refectory_alternative_is_unlimited(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16 I30 Refectory: alternative, meat -> ceramic without a cap."""
    s = at("I30", {"meat": 9}, variant="ireland")
    switched(monkeypatch, "I30")
    assert ok(s, "I30", Use(times=(10,))).gained == {"beer": 1, "ceramic": 10}


def test_16_scriptorium_alternative_two_whiskey(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16 I17 Scriptorium: alternative 2 whiskey."""
    switched(monkeypatch, "I17")
    assert ok(at("I17", {"coin": 1}, variant="ireland"), "I17", Use()).gained["whiskey"] == 2


def test_16_shipyard_alternative_is_repeatable(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16 G26 Shipyard: alternative repeatable, so the conversion takes a count."""
    switched(monkeypatch, "G26")
    s = at("G26", {"wood": 5})
    assert ok(s, "G26", Use(times=(2,))).gained == {"coin": 10, "ornament": 2}
    assert no(s, "G26", Use()) == "nothing_to_do"


def test_16_coal_harbor_alternative_takes_peat(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16 I31 Coal Harbor: alternative input peat."""
    switched(monkeypatch, "I31")
    out = ok(at("I31", {"peat": 2}, variant="ireland"), "I31", Use(times=(2,)))
    assert out.paid == {"peat": 2} and out.gained == {"whiskey": 2, "coin": 6}


def test_16_cottage_alternative_malt_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16 I10 Cottage: alternative, no adjacent use."""
    switched(monkeypatch, "I10")
    s = at("I10", variant="ireland")
    assert ok(s, "I10", Use()).gained == {"malt": 1}
    assert no(s, "I10", Use(target=(0, "H1"))) == "bad_target"


# -- choices: every entry accepted, for every building of both variants ----------------------------


RICH = {g: 6 for g in G.GOODS if g != "wonder"}


def _states(variant: str, bid: str) -> list[tuple[State, tuple[int, str]]]:
    """Varied states with `bid` usable: rich, poor, the short game, the solo game, a contract."""
    everything = tuple(CATALOG.selection("four_player", variant))
    display = tuple(b for b in everything if b != bid)
    placed = ((0, "H1"), (1, "H3"), AVAILABLE)
    theirs = ((1, "H2"), AVAILABLE, AVAILABLE)
    poor = {"coin": 2, "grain": 3, "wood": 1, "peat": 1, "book": 1, "wine": 1, "whiskey": 1}
    out = []
    for goods, kw in ((RICH, {}), (poor, {"wheel": wheel_at(0)}),
                      (RICH, {"length": "short", "mode": "four_player_short", "short_land": True, "wheel": wheel_at(12)}),
                      (poor, {"players": 1, "mode": "solo", "wheel": W.rotate(wheel_at(12), remove_at_top=True)})):
        s = at(bid, goods, variant=variant, display=display, clergy=placed, their_clergy=theirs, hand=("S1",), **kw)
        out.append((s, (0, bid)))
    if not bid.startswith("H"):  # seat 1 uses seat 0's building through a work contract
        out.append((at(bid, RICH, variant=variant, display=display, clergy=placed), (0, bid)))
    return out


@pytest.mark.parametrize("variant", ["france", "ireland"])
def test_choices_are_all_accepted_by_resolve_for_every_building(variant: str) -> None:
    """§11, §5.2: for every building of the variant (and H1-H3), `choices` on varied states is
    deterministic, small, and every entry is accepted by `resolve`; the rich state offers at
    least one use of every building."""
    ids = [b.id for b in CATALOG.buildings.values() if b.variant in ("both", variant)]
    for bid in ids:
        for k, (s, place) in enumerate(_states(variant, bid)):
            seat = 1 if k == 4 else 0
            found = choices(s, seat, place)
            assert found == choices(s, seat, place)
            assert len(found) <= 40
            for use in found:
                assert isinstance(resolve(s, seat, place, use), Outcome), (bid, use)
            if k == 0:
                assert found, f"{bid}: no use offered in the rich state"


def test_choices_examples() -> None:
    """§14.2, §4.3: the Bakery offers baking everything and selling two; the Farmyard both goods and the joker."""
    bakery = choices(at("F05", {"flour": 4, "peat": 1}), 0, (0, "F05"))
    assert Use(times=(4, 2), pay={"peat": 1}) in bakery
    farm = choices(at("H2"), 0, (0, "H2"))
    assert {(u.goods, u.joker) for u in farm} == {(("grain",), False), (("grain",), True),
                                                  (("livestock",), False), (("livestock",), True)}
    assert choices(at("G34"), 0, (0, "G34")) == []  # nothing to pay with
    assert choices(at("F05"), 0, (0, "G34")) == []  # no such building


def test_every_building_of_the_catalog_has_a_function_test() -> None:
    """§11: every building id of the catalog (France, Ireland, generic, heartland) is named in a
    test above (the choices test covers them all again)."""
    tests = Path(__file__).read_text().split("# -- choices:")[0]
    named = set(re.findall(r'"([HGFI]\d+)"', tests))
    assert set(CATALOG.buildings) <= named, sorted(set(CATALOG.buildings) - named)


def test_ruling_no_building_is_used_twice_in_one_chain_of_functions() -> None:
    """README ruling on §11.2: Hospice → the display's Priory → back to the Hospice (its prior
    on it) would loop for free; a building already used in the chain cannot be used again."""
    s = at("F40", {"coin": 1}, display=("G01",))
    s = msgspec.structs.replace(s, owners=(msgspec.structs.replace(s.owners[0], clergy=((0, "F40"), *s.owners[0].clergy[1:])),
                                           *s.owners[1:]))
    first = ok(s, "F40", Use(target=(-1, "G01")))
    step = first.then[0]
    assert step.chain == ((0, "F40"),)
    s2 = msgspec.structs.replace(s, pending=(step,))
    assert no(s2, "G01", Use(target=(0, "F40")), owner=-1) == "bad_target"
    assert all(u.target != (0, "F40") for u in choices(s2, 0, (-1, "G01")))


def test_13_4_calefactory_fells_without_the_wood_indicator_like_the_main_action() -> None:
    """§11 C buildings, F32 Calefactory, solo (§13.4) after the wood indicator left the game:
    the forest is removed and nothing taken, as with the main action (README ruling)."""
    w = W.new()
    positions = list(w.positions)
    positions[W.SLOT["wood"]] = W.ABSENT
    s = at("F32", {"coin": 1}, mode="solo", players=1, wheel=msgspec.structs.replace(w, positions=tuple(positions)))
    out = ok(s, "F32", Use(goods=("wood",), times=(0,), cells=((0, 1),)))
    assert out.removed == ((0, 1),) and out.gained == {} and out.paid == {"coin": 1} and out.wheel is None
    joker = ok(s, "F32", Use(goods=("wood",), times=(1,), cells=((0, 1),)))
    assert joker.wheel is not None and joker.wheel.value(W.JOKER) == 0


def test_15_5_choices_pay_without_waste_when_an_exact_payment_exists() -> None:
    """§2.2, §15 #5: surplus is lost, so the payments offered drop the tiles they do not need
    (G06 Fuel Merchant, F33 Shipping Company, G39 Estate, F20 Inn)."""
    s = at("G06", {"wood": 1, "coal": 1})
    assert [u.pay for u in choices(s, 0, (0, "G06"))] == [{"coal": 1}]
    s = at("G06", {"wood": 2, "peat": 1, "coal": 3})
    pays = [u.pay for u in choices(s, 0, (0, "G06"))]
    assert all(G.energy_halves(p) in (6, 12, 18) for p in pays) and len(pays) == 3  # 3, 6 and 9 energy exactly
    s = at("G39", {"wood": 2, "coal": 2})
    assert [u.pay for u in choices(s, 0, (0, "G39"))] == [{"coal": 2}]
    s = at("F20", {"grain": 2, "livestock": 1, "meat": 1})
    assert {G.food(u.pay) for u in choices(s, 0, (0, "F20"))} == {1, 2, 3, 4, 5, 6, 7}


def test_15_8_choices_offer_the_most_points_within_the_budget() -> None:
    """§15 #8, #9: any budget of 2 or more is met exactly (a leftover point turns a
    reliquary into ornament + ceramic + book)."""
    from games.ora_et_labora.function_choices import _point_mixes

    for budget in range(2, 40):
        best = _point_mixes(budget)[0]
        assert G.point_goods_within(best, budget) == "" and sum(G.POINTS[g] * n for g, n in best.items()) == budget
    assert _point_mixes(1) == []


def test_11_stone_merchant_choices_reach_the_most_stone_the_goods_pay_for() -> None:
    """§11 Start buildings, G12 Stone Merchant: with 12 grain (2 food + 2 grain as straw per
    stone) three stones are affordable and offered."""
    s = at("G12", {"grain": 12})
    assert max(u.times[0] for u in choices(s, 0, (0, "G12"))) == 3


def test_11_1_calefactory_needs_at_least_one_of_its_actions() -> None:
    """§11 C buildings, F32 Calefactory: "and/or" is one or both (§11.1); paying for nothing is refused."""
    assert no(at("F32", {"coin": 1}), "F32", Use()) == "bad_choice"


def test_11_a_use_that_changes_nothing_net_is_refused() -> None:
    """§11 B buildings, F20 Inn: coins paid as food for as many coins change nothing."""
    assert no(at("F20", {"coin": 5}), "F20", Use(times=(3, 0), pay={"coin": 3})) == "nothing_to_do"
    assert all(u.pay.get("coin", 0) == 0 for u in choices(at("F20", {"coin": 5, "grain": 1}), 0, (0, "F20")))
