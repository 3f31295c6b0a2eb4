"""The view and its rendering (games/ora_et_labora/view.py), on hand-built states."""

from __future__ import annotations

import msgspec

from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora import wheel as W
from games.ora_et_labora.landscape import Space
from games.ora_et_labora.state import AVAILABLE, ChooseClergy, Options, Owner, State, UseFunction
from games.ora_et_labora.view import ClergyView, View, render, view


def _land_of_seat_0() -> L.Landscape:
    """The heartland, a hills district above it (row -1), a mountain plot (rows 0-1) and a
    coast plot (rows 1-2); the forest at (0,1) felled, the Cloister Courtyard built at (1,3)."""
    land = L.heartland()
    land = L.with_district(land, -1, "hills")
    land = L.with_plot(land, 0, "mountain")
    land = L.with_plot(land, 1, "coast")
    land = L.with_space(land, Space(0, 1, "plains"))
    return L.with_space(land, Space(1, 3, "plains", "", "G02"))


def _wheel() -> W.Wheel:
    """Three rotations (every indicator shows FRONT[3] = 4), grain then produced (back to 0),
    grapes entered after that (0)."""
    w = W.new()
    for _ in range(3):
        w = W.rotate(w)
    _, w = W.produce(w, "grain", joker=False)
    return W.enter(w, "grapes")


def two_player_state(**changes) -> State:
    owners = (
        Owner(goods=G.holding({"wood": 2, "grain": 3, "coin": 6, "book": 1}), land=_land_of_seat_0(),
              clergy=((0, "G02"), (1, "H1"), AVAILABLE), hand=("S2", "S3")),
        Owner(goods=G.holding({"peat": 1, "clay": 4}), land=L.heartland(), clergy=(AVAILABLE, AVAILABLE, AVAILABLE),
              hand=("S1", "S2", "S3", "S4")),
    )
    state = State(phase="actions", options=Options(players=2), mode="two_player", players=2, owners=owners,
                  wheel=_wheel(), round=4, start=1, queue=(1,), display=("F04", "G07", "F11"),
                  stacks=((), ("F21", "G22"), ("F27", "G28"), ("G34",)), marker=1, districts=(4, 5, 5, 6),
                  plots=(4, 5, 5, 5, 6, 6, 7), contract=2, wonders=7,
                  pending=(UseFunction(seat=1, building=(0, "H1"), via="contract"),))
    return msgspec.structs.replace(state, **changes)


def test_the_view_is_the_whole_public_state() -> None:
    v = view(two_player_state(), 0)
    assert v.seat == 0
    assert (v.mode, v.variant, v.length, v.players, v.phase, v.round) == ("two_player", "france", "normal", 2,
                                                                         "actions", 4)
    assert (v.start, v.bonus, v.final, v.contract, v.wonders) == (1, False, False, 2, 7)
    assert (v.acting, v.decision) == (1, "use_function")  # the top of the pending stack
    assert v.pending == (UseFunction(seat=1, building=(0, "H1"), via="contract"),)
    assert [(b.id, b.name) for b in v.display] == [("F04", "Windmill"), ("G07", "Peat Coal Kiln"),
                                                   ("F11", "Harbor Promenade")]
    assert [(s.letter, s.buildings) for s in v.stacks] == [("B", ("F21", "G22")), ("C", ("F27", "G28")),
                                                           ("D", ("G34",))]
    assert v.districts == (4, 5, 5, 6) and v.plots == (4, 5, 5, 5, 6, 6, 7)


def test_the_wheel_shows_each_indicator_in_play() -> None:
    v = view(two_player_state(), None)
    assert v.wheel == {"wood": 4, "peat": 4, "grain": 0, "livestock": 4, "clay": 4, "coin": 4, "joker": 4,
                       "grapes": 0}
    assert "stone" not in v.wheel  # not in play yet
    assert (v.wheel_side, v.rotation) == ("front", 3)


def test_goods_clergy_and_hand_per_owner() -> None:
    v = view(two_player_state(), 1)
    me, other = v.owners
    assert (me.owner, me.label, me.seat) == (0, "seat 0", 0)
    assert me.goods == {"wood": 2, "grain": 3, "coin": 6, "book": 1}
    assert list(me.goods) == ["wood", "grain", "coin", "book"]  # goods order, zeros left out
    assert other.goods == {"peat": 1, "clay": 4}
    assert me.clergy == (ClergyView(role="prior", where=(0, "G02")), ClergyView(role="lay_brother", where=(1, "H1")),
                         ClergyView(role="lay_brother", where="supply"))
    assert all(c.where == "supply" for c in other.clergy) and other.clergy[0].role == "prior"
    assert me.hand == ("S2", "S3") and other.hand == ("S1", "S2", "S3", "S4")


def test_landscape_rows() -> None:
    v = view(two_player_state(), 0)
    land = v.owners[0].land
    assert [r.row for r in land] == [-1, 0, 1, 2]
    top = land[0]
    assert [(s.col, s.terrain, s.card) for s in top.spaces] == [
        (0, "plains", "moor"), (1, "plains", "forest"), (2, "plains", "forest"), (3, "hillside", ""),
        (4, "hillside", "")]
    row0 = {s.col: s for s in land[1].spaces}
    assert sorted(row0) == [0, 1, 2, 3, 4, 5, 6]  # the mountain (col 6) is stored at its plot's top row
    assert (row0[1].card, row0[1].built) == ("", "")  # the felled forest
    assert (row0[4].terrain, row0[4].built) == ("hillside", "H1")
    assert row0[6].terrain == "mountain"
    row1 = {s.col: s for s in land[2].spaces}
    assert sorted(row1) == [-2, -1, 0, 1, 2, 3, 4, 5]
    assert (row1[-2].terrain, row1[-1].terrain, row1[3].built) == ("water", "coast", "G02")
    assert [s.col for s in land[3].spaces] == [-2, -1]
    assert v.owners[0].districts == (-1,)
    assert (v.owners[0].mountain_plots, v.owners[0].coast_plots) == ((0,), (1,))


def test_the_view_encodes_to_json_and_back() -> None:
    v = view(two_player_state(), 0)
    raw = msgspec.json.encode(v)
    data = msgspec.json.decode(raw)
    assert data["game"] == "ora_et_labora"
    assert data["wheel"]["wood"] == 4
    assert data["owners"][0]["goods"] == {"wood": 2, "grain": 3, "coin": 6, "book": 1}
    assert data["owners"][0]["clergy"][0] == {"role": "prior", "where": [0, "G02"]}
    assert data["owners"][0]["clergy"][2] == {"role": "lay_brother", "where": "supply"}
    assert data["pending"][0]["kind"] == "use_function"
    assert msgspec.json.decode(raw, type=View) == v


def test_every_seat_and_a_spectator_see_the_same_state() -> None:
    state = two_player_state()
    spectator = view(state, None)
    assert spectator.seat is None
    assert view(state, 7).seat is None and view(state, -1).seat is None  # not a seat: a spectator
    for seat in (0, 1):
        assert msgspec.structs.replace(view(state, seat), seat=None) == spectator


def test_whose_decision_it_is() -> None:
    assert (view(two_player_state(pending=()), 0).acting, view(two_player_state(pending=()), 0).decision) == (
        1, "action")
    after = view(two_player_state(pending=(), acted=True), 0)
    assert (after.acting, after.decision) == (1, "end_action")
    stacked = two_player_state(pending=(UseFunction(seat=1, building=(0, "H1"), via="contract"),
                                        ChooseClergy(seat=0, user=1, building=(0, "H1"))))
    assert (view(stacked, 0).acting, view(stacked, 0).decision) == (0, "choose_clergy")  # the last opened
    settling = view(two_player_state(pending=(), phase="settlement", letter="B", settlers=(0, 1)), 1)
    assert (settling.acting, settling.decision, settling.letter) == (0, "settlement", "B")
    over = view(two_player_state(pending=(), phase="over", queue=(), categories=("goods", "economic"),
                                 scores=((10, 20), (5, 7))), None)
    assert (over.acting, over.decision, over.scores) == (None, "over", ((10, 20), (5, 7)))


def test_render_shows_header_wheel_display_and_each_landscape() -> None:
    text = render(view(two_player_state(), 0))
    lines = text.splitlines()
    assert lines[0].startswith("Ora et Labora · two_player (france) · round 4 · seat 1 to act: use function 0:H1 ·")
    assert "view of seat 0" in lines[0]
    assert lines[1] == "wheel (front, rotation 3): wood 4 peat 4 grain 0 livestock 4 clay 4 coin 4 joker 4 grapes 0"
    assert "display: F04 Windmill, G07 Peat Coal Kiln, F11 Harbor Promenade" in lines
    assert "stack B: F21 G22" in lines
    assert "districts 4 5 5 6 · plots 4 5 5 5 6 6 7 · contract 2 · wonders 7" in lines
    assert "[seat 0] wood 2 grain 3 coin 6 book 1" in lines
    assert "[seat 1 · start · to act] peat 1 clay 4" in lines
    assert "    clergy prior 0:G02, brother 1:H1, brother supply · hand S2 S3" in lines
    # the grid: columns -2 .. 6, a token of up to four characters and a space per space
    assert lines.index("      -2   -1   0    1    2    3    4    5    6") > 0
    assert "   -1           mm   ff   ff   ^^   ^^" in lines
    assert "    0           mm   ..   ff   ..   H1   ^^   MM" in lines
    assert "    1 ~~   ::   mm   ff   H2   G02* H3   ^^   ''" in lines  # G02: seat 0's prior on it
    assert "    2 ~~   ::" in lines
    # seat 1's heartland: its H1 is occupied by seat 0's lay brother (a work contract)
    assert "    0 mm   ff   ff   ..   H1*" in lines
    assert "    1 mm   ff   H2   ..   H3" in lines
    assert render(view(two_player_state(), None)).splitlines()[0].endswith("view of spectator")


def test_render_of_a_solo_game_labels_the_neutral_player() -> None:
    neutral = Owner(goods=G.EMPTY, land=L.heartland(neutral=True), clergy=(AVAILABLE,) * 3)
    me = Owner(goods=G.holding({"coin": 1}), land=L.heartland(), clergy=((0, "H3"), AVAILABLE, AVAILABLE),
               hand=("S1",))
    state = State(phase="actions", options=Options(players=1), mode="solo", players=1, owners=(me, neutral),
                  wheel=W.new(), round=1, queue=(0,), display=("G01",), stacks=(("F14",), (), (), ()))
    v = view(state, 0)
    assert [(o.label, o.seat) for o in v.owners] == [("seat 0", 0), ("neutral", None)]
    assert v.owners[1].goods == {}
    text = render(v)
    assert "[neutral] nothing" in text
    assert "    0 G13  ..   ..   ..   H1" in text
    assert "    1 mm   ff   H2   ..   H3*" in text
    assert "stack A: F14" in text and "stack B" not in text


def test_render_of_a_four_player_game_is_short() -> None:
    owners = []
    for _ in range(4):
        land = L.with_district(L.with_district(L.heartland(), -1, "plains"), 2, "hills")
        land = L.with_plot(L.with_plot(land, -1, "coast"), 1, "mountain")
        owners.append(Owner(goods=G.holding({g: 1 for g in G.GOODS}), land=land, clergy=(AVAILABLE,) * 4,
                            hand=("S1", "S2", "S3", "S4", "S5")))
    display = ("G01", "G02", "F03", "F04", "F05", "G06", "G07", "F08", "F09", "F10", "F11", "G12", "G13")
    state = State(phase="actions", options=Options(players=4), mode="four_player", players=4,
                  owners=tuple(owners), wheel=W.new(), round=2, queue=(2, 3, 0, 1), display=display,
                  stacks=(("F14", "F15", "G16"), ("F20",), ("F27",), ("G34",)), districts=(4, 4), plots=(5,))
    lines = render(view(state, 2)).splitlines()
    assert len(lines) <= 60
    assert "seat 2 to act: action" in lines[0]
    assert max(len(line) for line in lines if not line.startswith("[")) <= 110
