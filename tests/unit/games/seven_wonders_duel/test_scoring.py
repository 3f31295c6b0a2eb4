"""Civilian scoring: §10, §11.4 guilds, §14 example 6 and the blue tie-breaker."""

from __future__ import annotations

from msgspec.structs import replace

from games.seven_wonders_duel.scoring import CATEGORIES, civilian_winners, score_sheet
from games.seven_wonders_duel.state import City

from .table import Table


def _example_6():
    """The §14 example 6 end position (built with `replace`: scoring is a pure function of
    the cities and the pawn; how they got there does not matter here)."""
    t = Table()
    p1 = City(coins=14, cards=("altar", "temple", "pantheon", "workshop", "laboratory", "apothecary", "lighthouse",
                               "magistrates_guild"),
              built=("the_pyramids", "the_sphinx"), tokens=("philosophy",))
    p2 = City(coins=11, cards=("theater", "baths", "statue", "palace", "study", "academy", "arena",
                               "moneylenders_guild"),
              built=("the_colossus", "the_appian_way", "the_great_library"), tokens=("agriculture", "mathematics"))
    return replace(t.state, cities=(p1, p2), pawn=4)


def test_example_6_final_civilian_scoring() -> None:
    state = _example_6()
    assert CATEGORIES == ("blue", "green", "yellow", "purple", "wonders", "progress", "coins", "military")
    assert score_sheet(state, 0) == (13, 3, 3, 4, 15, 7, 4, 5)
    assert score_sheet(state, 1) == (17, 6, 3, 4, 10, 10, 3, 0)
    assert sum(score_sheet(state, 0)) == 54 and sum(score_sheet(state, 1)) == 53
    assert civilian_winners((score_sheet(state, 0), score_sheet(state, 1))) == (0,)


def test_tie_goes_to_more_blue_points_then_shared() -> None:
    """§10: equal totals -> most blue VP; still equal -> shared victory."""
    assert civilian_winners(((13, 0, 0, 0, 0, 0, 0, 40), (17, 0, 0, 0, 0, 0, 0, 36))) == (1,)
    assert civilian_winners(((10, 5), (10, 5))) == (0, 1)


def test_guilds_count_the_city_with_the_most() -> None:
    """§11.4: Builders 2 per wonder of the city with most; Moneylenders from the richest."""
    state = _example_6()
    a, b = state.cities
    state = replace(state, cities=(replace(a, cards=("builders_guild",), coins=2), replace(b, coins=20)))
    sheet = score_sheet(state, 0)
    assert sheet[3] == 2 * 3
    state = replace(state, cities=(replace(a, cards=("moneylenders_guild", "shipowners_guild", "quarry"), coins=2),
                                   replace(b, cards=("sawmill", "glassworks"), coins=20)))
    assert score_sheet(state, 0)[3] == 20 // 3 + 2


def test_civilian_game_end_after_age_three() -> None:
    t = Table()
    t.finish_age()
    t.finish_age()
    t.finish_age()
    assert t.state.phase == "over" and t.state.victory == "civilian"
    from games.seven_wonders_duel import GAME

    res = GAME.result(t.state)
    assert res is not None and res.totals == tuple(sum(r) for r in res.scores)
    assert res.tiebreak == tuple(r[0] for r in res.scores)
