"""Every wonder: §12 (and §15 #2, #5-8, #22)."""

from __future__ import annotations

import msgspec

from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.events import (
    CardBuilt,
    CardDestroyed,
    CardsRevealed,
    DecisionOpened,
    PawnMoved,
    ProgressTokenTaken,
    TurnStarted,
    WonderBuilt,
)
from games.seven_wonders_duel.payment import profile, supply, trade_cost
from games.seven_wonders_duel.scoring import score_sheet

from .table import Table

OTHERS = ("circus_maximus", "the_colossus", "the_great_lighthouse", "the_statue_of_zeus")
FRONT = {14: "altar", 15: "theater", 16: "baths", 17: "tavern", 18: "guard_tower", 19: "palisade"}


def table(wonder: str, **kw) -> Table:
    """Seat 0 (P1) owns `wonder` (plus three more), seat 1 four others."""
    mine = (wonder, *[w for w in ("the_pyramids", "the_sphinx", "piraeus", "the_temple_of_artemis")
                      if w != wonder][:3])
    theirs = [w for w in ("the_appian_way", "the_hanging_gardens", "the_mausoleum", "the_great_library",
                          *OTHERS) if w not in mine][:4]
    return Table(wonders=(mine, tuple(theirs)), first=0, **kw)


def rich(t: Table) -> None:
    """Both seats discard twice: 11 coins each, seat 0 to play."""
    t.play("discard Altar", "discard Theater", "discard Guard Tower", "discard Palisade")


def build(t: Table, wonder: str, card: str) -> list:
    return t.play(f"wonder {wonder} with {card}")


def test_appian_way() -> None:
    t = table("the_appian_way", ages={1: FRONT})
    rich(t)
    out = build(t, "Appian Way", "Baths")
    w = t.of(WonderBuilt, out)[0]
    assert (w.gained, w.opponent_lost, w.extra_turn) == (3, 3, True)
    assert t.coins() == (11 - w.paid + 3, 11 - 3) and out[-1] == TurnStarted(seat=0, extra=True)
    assert score_sheet(t.state, 0)[4] == 3


def test_circus_maximus_discards_a_grey_card_after_its_shield() -> None:
    t = table("circus_maximus", ages={1: {**FRONT, 19: "glassworks"}})
    t.play("discard Altar", "build Glassworks")
    out = build(t, "Circus Maximus", "Baths")
    assert [type(e) for e in out] == [WonderBuilt, PawnMoved, DecisionOpened]
    assert out[-1].options == ("glassworks",) and GAME.to_act(t.state) == (0,)
    assert t.act(0, "destroy Quarry").code == "option_not_offered"
    out = t.play("destroy Glassworks")
    assert out == [CardDestroyed(seat=0, card="glassworks"), TurnStarted(seat=1)]
    assert "glassworks" not in t.city(1).cards and t.state.discard[-1] == "glassworks"


def test_statue_of_zeus_with_no_brown_card_to_discard_still_builds() -> None:
    """§15 #5."""
    t = table("the_statue_of_zeus", ages={1: FRONT})
    rich(t)
    out = build(t, "Statue of Zeus", "Baths")
    assert [type(e) for e in out if not isinstance(e, CardsRevealed)] == [WonderBuilt, PawnMoved, TurnStarted]


def test_statue_of_zeus_discards_a_brown_card() -> None:
    t = table("the_statue_of_zeus", ages={1: {**FRONT, 19: "quarry", 18: "lumber_yard", 17: "glassworks"}})
    t.play("discard Altar", "build Quarry", "discard Theater", "build Lumber Yard", "discard Glassworks")
    t.play(t.filler(avoid=("baths",)))
    build(t, "Statue of Zeus", "Baths")
    assert t.state.pending.options == ("lumber_yard", "quarry")
    t.play("destroy Quarry")
    assert t.city(1).cards == ("lumber_yard",)


def test_colossus_moves_the_pawn_two() -> None:
    t = table("the_colossus", ages={1: FRONT})
    t.play("discard Altar", "discard Theater")
    out = build(t, "Colossus", "Baths")
    assert t.of(PawnMoved, out)[0].shields == 2 and t.state.pawn == 2


def test_great_library_shows_three_box_tokens_to_its_owner_only() -> None:
    """§12 ("return the other 2 to the box"); §15 #2: Theology kept here does not make
    this wonder replay."""
    box = ("theology", "philosophy", "strategy", "mathematics", "urbanism")
    t = table("the_great_library", ages={1: FRONT}, box=box,
              tokens=("agriculture", "architecture", "economy", "law", "masonry"))
    rich(t)
    out = build(t, "Great Library", "Tavern")
    assert out[-1] == DecisionOpened(seat=0, kind="great_library", options=box[:3])
    assert GAME.view(t.state, 0).pending.options == box[:3]
    assert GAME.view(t.state, 1).pending.options is None and GAME.view(t.state, None).pending.options is None
    out = t.play("token Theology")
    assert out[0] == ProgressTokenTaken(seat=0, token="theology", source="box", returned=("philosophy", "strategy"))
    assert out[-1] == TurnStarted(seat=1)
    assert t.state.box_tokens == ("philosophy", "strategy", "mathematics", "urbanism")
    assert GAME.view(t.state, 0).box_size == GAME.view(t.state, None).box_size == 4
    # a log of rules version 1 dropped the two returned tokens, and folds as it did then
    old = [msgspec.structs.replace(t.events[0], rules_version=1), *t.events[1:]]
    assert replay(GAME, old).box_tokens == ("mathematics", "urbanism")
    while t.coins()[0] < 8 or t.seat != 0:  # discards until seat 0 can pay 8 again
        t.play(t.filler())
    out = build(t, "Pyramids", t.accessible()[0])  # Theology now: every later wonder replays
    assert t.of(WonderBuilt, out)[0].extra_turn and out[-1] == TurnStarted(seat=0, extra=True)


def test_great_lighthouse_and_piraeus_produce_one_of() -> None:
    """§6.2, §12."""
    t = table("the_great_lighthouse", ages={1: FRONT})
    t.play("discard Altar", "discard Theater")
    build(t, "Great Lighthouse", "Baths")
    have = supply(profile(t.city(0).cards).supply, t.city(0).built)
    assert trade_cost((1, 0, 0, 0, 0), have, profile(())) == 0
    assert trade_cost((1, 1, 0, 0, 0), have, profile(())) == 2
    assert profile(t.city(0).cards).produce == (0, 0, 0, 0, 0)  # not counted for the opponent's prices


def test_piraeus_replays() -> None:
    t = table("piraeus", ages={1: FRONT})
    t.play("discard Altar", "discard Theater")
    out = build(t, "Piraeus", "Baths")
    assert out[-1] == TurnStarted(seat=0, extra=True)


def test_hanging_gardens_sphinx_and_temple_of_artemis() -> None:
    for wonder, coins in (("the_hanging_gardens", 6), ("the_sphinx", 0), ("the_temple_of_artemis", 12)):
        t = table(wonder, ages={1: FRONT})
        t.play("discard Altar", "discard Theater")
        out = build(t, wonder, "Baths")
        w = t.of(WonderBuilt, out)[0]
        assert w.gained == coins and w.extra_turn and out[-1] == TurnStarted(seat=0, extra=True), wonder


def test_mausoleum_builds_from_the_discard_pile_without_urbanism() -> None:
    """§12, §15 #6-7."""
    t = table("the_mausoleum", ages={1: FRONT})
    rich(t)
    for e in [ProgressTokenTaken(seat=0, token="urbanism", source="box")]:  # a recorded fact
        t.state = GAME.evolve(t.state, e)
    out = build(t, "Mausoleum", "Baths")
    assert out[-1] == DecisionOpened(seat=0, kind="mausoleum",
                                     options=("altar", "guard_tower", "palisade", "theater"))
    out = t.play("build Theater from discard")
    assert out[0] == CardBuilt(seat=0, card="theater", position=-1, via="discard_pile")
    assert "theater" not in t.state.discard and "theater" in t.city(0).cards


def test_mausoleum_with_an_empty_pile_gives_nothing() -> None:
    t = table("the_mausoleum", ages={1: FRONT})
    give = ProgressTokenTaken(seat=0, token="agriculture", source="board", gained=6)  # 13 coins
    t.state = GAME.evolve(t.state, give)
    out = build(t, "Mausoleum", "Baths")
    assert [type(e) for e in out] == [WonderBuilt, TurnStarted]


def test_pyramids_score_nine() -> None:
    t = table("the_pyramids", ages={1: FRONT})
    t.play("discard Altar", "discard Theater")
    build(t, "Pyramids", "Baths")
    assert score_sheet(t.state, 0)[4] == 9


def test_wonder_rejections() -> None:
    t = table("the_pyramids", ages={1: FRONT})
    assert t.act(0, "wonder Appian Way with Baths").code == "not_your_wonder"
    t.play("discard Altar", "discard Theater")
    build(t, "Pyramids", "Baths")
    t.play("discard Tavern")
    assert t.act(0, "wonder Pyramids with Guard Tower").code == "wonder_already_built"
    assert t.act(0, "wonder Appian Way with Guard Tower").code == "not_your_wonder"
