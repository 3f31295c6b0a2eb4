"""Ora et Labora's turn structure and actions against docs/rules/ora-et-labora.md:
setup (§5), rounds (§6), main and additional actions (§3.5, §7), settlement phases (§8), the
bonus round and the end (§9), and the other modes (§13)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from games.contract import Rejection
from games.ora_et_labora import goods as G
from games.ora_et_labora import rules as R
from games.ora_et_labora import wheel as W
from games.ora_et_labora.commands import (
    AssignClergyman,
    Build,
    BuildSettlement,
    BuyLandscape,
    BuySettlementLandscape,
    Convert,
    Decline,
    EndAction,
    EndSettlement,
    FellTrees,
    PlaceClergyman,
    PlaceNeutralBuilding,
    WorkContract,
)
from games.ora_et_labora.evolve import evolve
from games.ora_et_labora.events import GameEnded, RoundStarted, SettlementPhaseEnded, SettlementPhaseStarted
from games.ora_et_labora.setup import PRESETS, Fixture, layout, mode_of, setup
from games.ora_et_labora.state import AVAILABLE, PRIOR, ChooseClergy, Options, PriorBonus, State, UseFunction


def start(preset: str, first: int = 0) -> State:
    st = State()
    for e in setup(PRESETS[preset], Fixture(start=first)):
        st = evolve(st, e)
    return st


def act(st: State, cmd: Any, seat: int | None = None) -> State:
    seat = R.to_act(st)[0] if seat is None else seat
    out = R.decide(st, seat, cmd)
    assert not isinstance(out, Rejection), out
    for e in out:
        st = evolve(st, e)
    return st


def events(st: State, cmd: Any) -> list:
    out = R.decide(st, R.to_act(st)[0], cmd)
    assert not isinstance(out, Rejection), out
    return out


def rejected(st: State, cmd: Any, seat: int | None = None) -> Rejection:
    out = R.decide(st, R.to_act(st)[0] if seat is None else seat, cmd)
    assert isinstance(out, Rejection), out
    return out


def with_goods(st: State, seat: int, **counts: int) -> State:
    owners = list(st.owners)
    owners[seat] = msgspec.structs.replace(owners[seat], goods=G.holding(counts))
    return msgspec.structs.replace(st, owners=tuple(owners))


def pass_action(st: State) -> State:
    """Place a lay brother (or the prior) on an own free building, decline, end the action."""
    seat = R.to_act(st)[0]
    me = st.owners[seat]
    for b in R.buildings_of(me):
        if R.occupant(st, (seat, b)) is None:
            for prior in (False, True):
                out = R.decide(st, seat, PlaceClergyman(building=b, prior=prior))
                if not isinstance(out, Rejection):
                    for e in out:
                        st = evolve(st, e)
                    return act(act(st, Decline()), EndAction())
    forests = [sp.cell for sp in me.land.spaces if sp.card == "forest"]
    return act(act(st, FellTrees(cell=forests[0] if forests else None)), EndAction())  # no clergyman: fell (§7.2)


def finish_phase(st: State) -> State:
    while st.phase == "settlement" and not st.pending:
        st = act(st, EndSettlement())
    return st


# -- §5 setup ----------------------------------------------------------------------------------------------

def test_5_1_setup_goods_clergy_settlements_and_display() -> None:
    st = start("4p_france", first=2)
    assert st.start == 2 and st.players == 4 and st.mode == "four_player"
    for o in st.owners:
        assert G.as_dict(o.goods) == {"wood": 1, "peat": 1, "grain": 1, "livestock": 1, "clay": 1, "coin": 1}
        assert o.clergy == (AVAILABLE,) * 3
        assert o.hand == ("S1", "S2", "S3", "S4")
    assert len(st.display) == 13 and [len(s) for s in st.stacks] == [6, 7, 7, 8]  # §5.2 4 players
    assert st.districts == (2, 3, 4, 4, 5, 5, 6, 7, 8) and st.plots == (3, 4, 4, 5, 5, 5, 6, 6, 7)


def test_5_2_building_counts_per_mode() -> None:
    for preset, n in (("3p_france", 33), ("2p_ireland", 24), ("2p_long_france", 38), ("2p_long_ireland", 41),
                      ("4p_short_france", 33), ("3p_short_ireland", 24)):
        e = layout(PRESETS[preset], 0)
        assert len(e.display) + sum(len(s) for s in e.stacks) == n, preset


def test_13_4_solo_setup() -> None:
    st = start("1p_france")
    me, neutral = st.owners
    assert me.goods == G.EMPTY and neutral.goods == G.EMPTY and neutral.hand == ()
    assert "G13" not in st.display and neutral.land.space((0, 0)).built == "G13"  # type: ignore[union-attr]
    assert st.districts[0] == 8 and st.plots[0] == 7  # stacks turned over
    assert len(st.display) + sum(len(s) for s in st.stacks) == 36  # 37 used, the Builders' Market outside


def test_5_options_refused_with_a_reason() -> None:
    for bad, words in ((Options(players=2, length="short"), "short game"), (Options(players=5), "1 to 4"),
                       (Options(players=3, length="long"), "long"), (Options(players=4, quarry_removed=True), "C-Quarry")):
        with pytest.raises(ValueError, match=words):
            mode_of(bad)


# -- §6 rounds -------------------------------------------------------------------------------------------------

def test_6_round_one_rotates_the_wheel_and_the_start_player_acts_twice() -> None:
    st = start("4p_france", first=1)
    assert st.round == 1 and st.wheel.value("wood") == 2  # rotated once (§4.2)
    assert st.queue == (1, 2, 3, 0, 1)
    for _ in range(5):
        st = pass_action(st)
    assert st.round == 2 and st.start == 2 and st.queue == (2, 3, 0, 1, 2)  # the marker passes left


def test_6_phase_1_clergy_return_only_when_all_are_placed() -> None:
    st = start("3p_france")  # rounds of 4 actions: seats 0,1,2,0
    for _ in range(4):
        st = pass_action(st)
    # seat 0 placed two clergymen in round 1 (of 3): none come back
    assert sum(at != AVAILABLE for at in st.owners[0].clergy) == 2
    for _ in range(4):
        st = pass_action(st)
    assert st.round == 3
    # seat 1 started round 2 and acted twice: its three clergymen all came back at round 3
    assert st.owners[1].clergy == (AVAILABLE,) * 3


def test_5_3_settlement_phase_a_in_round_7_of_the_four_player_game() -> None:
    st = start("4p_ireland")
    while st.round < 7:
        st = pass_action(st)
    assert st.phase == "settlement" and st.letter == "A" and st.settlers == (2, 3, 0, 1)  # from the start player
    before = set(st.display)
    a_stack = st.stacks[0]
    st = finish_phase(st)
    assert st.phase == "actions" and set(st.display) == before | set(a_stack)
    assert all(o.hand[-1] == "S5" for o in st.owners)  # the Artists Colony (§8 step 3)
    assert st.stacks[0] == () and st.marker == 1


def test_8_a_settlement_is_paid_with_food_and_energy_and_placed_on_allowed_terrain() -> None:
    st = start("4p_ireland")
    while st.round < 7:
        st = pass_action(st)
    seat = R.to_act(st)[0]
    st = with_goods(st, seat, grain=4, wood=2, straw=1, clay=1)
    bad = rejected(st, BuildSettlement(settlement="S2", cell=(0, 3), pay={"grain": 3, "wood": 1, "straw": 2}))
    assert bad.code == "cannot_settle" and "2 energy, not 3" in bad.message  # wood 1 + 2 straw × ½
    assert "coast" in rejected(st, BuildSettlement(settlement="S4", cell=(0, 3), pay={"grain": 3})).message
    assert "clay is neither" in rejected(st, BuildSettlement(settlement="S2", cell=(0, 3),
                                                             pay={"grain": 3, "wood": 3, "clay": 1})).message
    st = act(st, BuildSettlement(settlement="S2", cell=(0, 3), pay={"grain": 3, "wood": 2, "straw": 2}))
    owner = st.owners[seat]
    assert owner.land.space((0, 3)).built == "S2" and "S2" not in owner.hand  # type: ignore[union-attr]
    assert G.as_dict(owner.goods) == {"clay": 1}  # the second straw was the fourth grain, flipped (§2.1)
    assert st.settlers[0] != seat  # one settlement per phase


def test_3_5_one_landscape_per_round_plus_one_per_settlement_phase() -> None:
    st = start("3p_france")
    st = with_goods(st, 0, coin=20)
    st = act(st, BuyLandscape(kind="district", side="plains", row=2))
    assert G.count(st.owners[0].goods, "coin") == 18 and st.districts[0] == 3
    assert rejected(st, BuyLandscape(kind="plot", side="coast", row=0)).code == "purchase_used"
    st = pass_action(st)  # seat 0's first action
    st = pass_action(st)
    st = pass_action(st)
    assert R.to_act(st) == (0,) and st.round == 1  # the start player's second action: still one per round
    assert rejected(st, BuyLandscape(kind="plot", side="coast", row=0)).code == "purchase_used"
    st = pass_action(st)
    assert st.round == 2 and R.to_act(st) == (1,)


def test_3_5_a_landscape_needs_coins_and_a_legal_place() -> None:
    st = start("3p_france")
    assert "costs 2 coins" in rejected(st, BuyLandscape(kind="district", side="hills", row=2)).message
    st = with_goods(st, 0, coin=9)
    assert "row -1 or 2" in rejected(st, BuyLandscape(kind="district", side="hills", row=5)).message
    assert "may start at row" in rejected(st, BuyLandscape(kind="plot", side="coast", row=7)).message


# -- §7 actions ----------------------------------------------------------------------------------------------

def test_7_1_a_work_contract_pays_the_owner_who_chooses_the_clergyman() -> None:
    st = start("3p_france")
    out = events(st, WorkContract(owner=1, building="H1"))
    st = act(st, WorkContract(owner=1, building="H1"))
    assert G.count(st.owners[0].goods, "coin") == 0 and G.count(st.owners[1].goods, "coin") == 2
    assert isinstance(st.pending[-1], ChooseClergy) and R.to_act(st) == (1,)  # the owner decides
    assert [type(e).__name__ for e in out][:2] == ["ActionTaken", "WorkContracted"]
    st = act(st, AssignClergyman(prior=True), seat=1)
    assert st.owners[1].clergy[PRIOR] == (1, "H1")
    top = st.pending[-1]
    assert isinstance(top, UseFunction) and top.seat == 0 and top.building == (1, "H1")


def test_7_1_contracts_refused_without_coins_gift_or_an_available_clergyman() -> None:
    st = with_goods(start("3p_france"), 0)
    assert rejected(st, WorkContract(owner=1, building="H1")).code == "cannot_afford"
    assert rejected(st, WorkContract(owner=1, building="H1", gift=True)).code == "cannot_afford"
    st = with_goods(st, 0, wine=1)
    st2 = act(st, WorkContract(owner=1, building="H1", gift=True))  # §7.1, §15 #19: from the start
    assert G.count(st2.owners[0].goods, "wine") == 0 and G.count(st2.owners[1].goods, "coin") == 1
    owners = list(st.owners)
    owners[1] = msgspec.structs.replace(owners[1], clergy=((1, "H1"), (1, "H2"), (1, "H3")))
    st3 = msgspec.structs.replace(st, owners=tuple(owners))
    assert rejected(st3, WorkContract(owner=1, building="H1", gift=True)).code == "cannot_place"  # occupied
    owners[1] = msgspec.structs.replace(owners[1], clergy=((2, "x"), (2, "y"), (2, "z")))
    st4 = msgspec.structs.replace(st, owners=tuple(owners))
    assert rejected(st4, WorkContract(owner=1, building="H1", gift=True)).code == "no_clergyman"


def test_7_3_build_terrain_cost_cloister_and_the_prior_bonus() -> None:
    st = with_goods(start("4p_france"), 0, wood=3, clay=2, straw=1)
    assert "hillside" in rejected(st, Build(building="F04", cell=(0, 3))).message  # Windmill: coast/hillside
    assert "not empty" in rejected(st, Build(building="G02", cell=(0, 1))).message  # a forest lies there
    assert "cloister" in rejected(st, Build(building="G02", cell=(0, 3))).message  # not touching the Cloister Office
    st = act(st, Build(building="G02", cell=(1, 3)))  # touches the Cloister Office at (1,4)
    assert G.as_dict(st.owners[0].goods) == {"wood": 1, "clay": 2, "straw": 1}
    assert "G02" not in st.display and isinstance(st.pending[-1], PriorBonus)
    st = act(st, PlaceClergyman(building="G02", prior=True))
    assert st.owners[0].clergy[PRIOR] == (0, "G02") and isinstance(st.pending[-1], UseFunction)


def test_11_2_the_winery_raises_the_work_contract_price() -> None:
    st = start("4p_france")
    a = st.stacks[0] + st.stacks[1]
    assert "F21" in a
    st = msgspec.structs.replace(with_goods(st, 0, clay=2, straw=2), display=(*st.display, "F21"))
    st = act(act(st, Build(building="F21", cell=(0, 3))), Decline())
    assert st.contract == 2


def test_7_2_fell_trees_removes_the_card_and_takes_the_wheel_value() -> None:
    st = start("4p_france")
    st = act(st, FellTrees(cell=(0, 1)))
    me = st.owners[0]
    assert me.land.space((0, 1)).card == "" and G.count(me.goods, "wood") == 1 + 2  # type: ignore[union-attr]
    assert st.wheel.value("wood") == 0
    assert rejected(st, FellTrees(cell=(0, 2))).code == "not_now"  # one main action
    st = act(st, Convert(good="grain"))
    assert G.as_dict(st.owners[0].goods)["straw"] == 1


# -- §9 bonus round and the end ------------------------------------------------------------------------

def test_9_bonus_round_priors_back_one_action_each_then_phase_e_and_scores() -> None:
    st = start("3p_short_france")
    while not st.bonus:
        if st.phase == "settlement" and not st.pending:
            st = finish_phase(st)
        else:
            st = pass_action(st)
    assert st.round == 13 and len(st.queue) == 3  # no second action for the start player
    assert all(o.clergy[PRIOR] == AVAILABLE for o in st.owners)
    seat = R.to_act(st)[0]
    assert rejected(st, PlaceClergyman(building="H1")).code == "prior_only"
    other = (seat + 1) % 3
    st = act(st, PlaceClergyman(building="H1", prior=True, owner=other))  # any player's building, no contract
    assert st.owners[seat].clergy[PRIOR] == (other, "H1")
    st = act(act(st, Decline()), EndAction())
    while st.phase == "actions":
        st = act(act(act(st, PlaceClergyman(building="H3", prior=True)), Decline()), EndAction())
    assert st.letter == "E"
    out: list = []
    while st.phase != "over":
        out = events(st, EndSettlement())
        for e in out:
            st = evolve(st, e)
    assert st.phase == "over" and len(st.scores) == 3
    assert isinstance(out[-1], GameEnded) and any(isinstance(e, SettlementPhaseEnded) for e in out)


def test_13_3_short_game_round_goods() -> None:
    st = start("4p_short_ireland")
    assert G.as_dict(st.owners[0].goods) == {"wood": 1, "peat": 1, "grain": 2, "livestock": 2, "clay": 1, "coin": 1}


# -- §13 other modes -----------------------------------------------------------------------------------------

def test_13_1_normal_two_player_turns_of_two_actions_alternating() -> None:
    st = start("2p_france", first=1)
    assert st.wheel.values[1] == 1 and st.wheel.value("wood") == 1  # the back of the wheel
    assert st.queue == (1, 1)
    st = pass_action(pass_action(st))
    assert st.round == 2 and st.queue == (0, 0)


def test_13_2_long_two_player_rounds_and_purchase_windows() -> None:
    st = start("2p_long_france", first=0)
    assert st.queue == (0, 0, 1)
    st = with_goods(with_goods(st, 0, coin=30), 1, coin=30)
    st = act(st, BuyLandscape(kind="district", side="plains", row=2))
    st = pass_action(pass_action(st))
    assert R.to_act(st) == (1,)
    st = act(st, BuyLandscape(kind="district", side="plains", row=2))  # seat 1: the first of its three
    st = pass_action(st)
    assert st.round == 2 and st.queue == (1, 1, 0)
    st = act(st, BuyLandscape(kind="plot", side="coast", row=0))  # one more in the second or third
    assert rejected(st, BuyLandscape(kind="district", side="plains", row=3)).code == "purchase_used"


def test_13_4_solo_settlement_round_neutral_builds_the_display_first() -> None:
    st = start("1p_ireland")
    while st.round < 12:
        st = pass_action(st)
    assert st.letter == "A" and st.pending and R.to_act(st) == (0,)
    n = len(st.display)
    cells = R.legal_commands(st, 0)
    assert all(isinstance(c, PlaceNeutralBuilding) for c in cells)
    for _ in range(n):
        st = act(st, R.legal_commands(st, 0)[0])
    assert st.display == ()
    st = act(st, Decline())  # no neutral prior use
    assert st.phase == "settlement" and not st.pending
    st = finish_phase(st)
    assert len(st.display) == 6 and st.owners[0].hand[-1] == "S5"


def test_13_4_solo_game_ends_after_round_32_with_the_final_phase() -> None:
    st = start("1p_france")
    while st.phase != "over":
        if st.pending:
            st = act(st, R.legal_commands(st, 0)[-1] if not isinstance(st.pending[-1], R.NeutralBuild)
                     else R.legal_commands(st, 0)[0])
        elif st.phase == "settlement":
            st = finish_phase(st)
        else:
            st = pass_action(st)
    assert st.round == 32 and len(st.scores) == 1


def test_round_started_events_record_the_wheel() -> None:
    e = setup(PRESETS["4p_france"], Fixture(start=0))[1]
    assert isinstance(e, RoundStarted) and e.wheel.rotation == 1 and e.queue == (0, 1, 2, 3, 0)
    assert not isinstance(e, SettlementPhaseStarted)


def test_not_your_turn_and_not_now() -> None:
    st = start("4p_france")
    assert R.decide(st, 1, EndAction()).code == "not_your_turn"  # type: ignore[union-attr]
    assert rejected(st, EndAction()).code == "no_main_action"
    assert rejected(st, EndSettlement()).code == "not_now"
    assert rejected(st, BuySettlementLandscape(kind="plot", side="coast", row=0)).code == "not_now"
    # the message names commands as a player types them (the notation's verbs)
    assert rejected(st, EndSettlement()).message == (
        "done is not possible now; your action takes: build, buy, contract, cut, end, fell, place; "
        "convert is always allowed")


def test_13_4_solo_fell_trees_after_the_wood_indicator_left_the_game_clears_the_card_only() -> None:
    """Our ruling (README) on §13.4 + §7.2: the forest is removed, nothing is taken."""
    st = start("1p_france")
    positions = list(st.wheel.positions)
    positions[W.SLOT["wood"]] = W.ABSENT
    st = msgspec.structs.replace(st, wheel=msgspec.structs.replace(st.wheel, positions=tuple(positions)))
    after = act(st, FellTrees(cell=(0, 1)))
    assert after.owners[0].land.space((0, 1)).card == "" and G.count(after.owners[0].goods, "wood") == 0  # type: ignore[union-attr]
    assert FellTrees(cell=(0, 1), joker=True) in R.legal_commands(st, 0)


def _built_on(st: State, owner: int, building: str, cell: tuple[int, int]) -> State:
    owners = list(st.owners)
    land = owners[owner].land
    s = land.space(cell)
    assert s is not None
    from games.ora_et_labora import landscape as L

    owners[owner] = msgspec.structs.replace(owners[owner], land=L.with_space(land, L.Space(s.row, s.col, s.terrain, "", building)))
    return msgspec.structs.replace(st, owners=tuple(owners), display=tuple(b for b in st.display if b != building))


def test_11_2_13_4_a_winery_built_by_the_neutral_player_raises_the_contract_price() -> None:
    st = start("1p_france")
    st = msgspec.structs.replace(st, display=(*st.display, "F21"))
    while st.round < 12:
        st = pass_action(st)
    while isinstance(st.pending[-1], R.NeutralBuild):
        st = act(st, R.legal_commands(st, 0)[0])
    assert "F21" in R.buildings_of(st.owners[1]) and st.contract == 2
    st = with_goods(st, 0, coin=1)
    assert not any(isinstance(c, R.UseNeutralPrior) and not c.gift for c in R.legal_commands(st, 0))


def test_13_4_the_neutral_cloister_building_stays_with_the_cloister_when_it_can() -> None:
    """Covering an unoccupied cloister building keeps the group together (§13.4)."""
    st = start("1p_france")
    st = msgspec.structs.replace(st, display=tuple(b for b in st.display if b not in ("G01", "G02")))
    while st.round < 12:
        st = pass_action(st)
    while isinstance(st.pending[-1], R.NeutralBuild):
        b = st.pending[-1].building
        if b == "F09":
            assert R.neutral_cells(st, b) == [(1, 4)]  # on the Cloister Office: (1,3) is taken
            break
        cells = R.neutral_cells(st, b)
        st = act(st, PlaceNeutralBuilding(cell=(1, 3) if b == "F03" else [c for c in cells if c != (1, 3)][0]))
    else:
        pytest.fail("the Cloister Garden was not reached")


def test_2_1_8_a_settlement_paid_with_grain_flipped_to_straw_is_offered() -> None:
    st = start("4p_ireland")
    while st.round < 7:
        st = pass_action(st)
    seat = R.to_act(st)[0]
    st = with_goods(st, seat, grain=3)
    offered = [c for c in R.legal_commands(st, seat) if isinstance(c, BuildSettlement)]
    assert offered and all(c.settlement == "S1" for c in offered)  # 1 food + 1 energy from 3 grain
    assert not isinstance(R.decide(st, seat, offered[0]), Rejection)


def test_13_1_the_other_player_s_final_action_follows_a_clergy_return() -> None:
    st = start("2p_ireland")
    owners = list(st.owners)
    owners[1] = msgspec.structs.replace(owners[1], clergy=((1, "H1"), (1, "H2"), (1, "H3")))
    st = msgspec.structs.replace(st, owners=tuple(owners), marker=4, stacks=((), (), (), ()), display=st.display[:1])
    st = pass_action(pass_action(st))  # seat 0's turn ends with D out and one building left
    assert st.final and st.queue == (1,) and st.owners[1].clergy == (AVAILABLE,) * 3


def test_9_11_2_priory_in_the_bonus_round_sees_a_prior_sharing_a_building() -> None:
    from games.ora_et_labora.commands import Use
    from games.ora_et_labora.functions import resolve

    st = _built_on(start("3p_france"), 2, "G01", (1, 3))
    owners = list(st.owners)
    owners[0] = msgspec.structs.replace(owners[0], clergy=(AVAILABLE, (0, "H1"), AVAILABLE))
    owners[1] = msgspec.structs.replace(owners[1], clergy=((0, "H1"), AVAILABLE, AVAILABLE))
    st = msgspec.structs.replace(st, owners=tuple(owners), bonus=True)
    out = resolve(st, 2, (2, "G01"), Use(target=(0, "H1")))
    assert not isinstance(out, Rejection) and out.then[0].building == (0, "H1")
