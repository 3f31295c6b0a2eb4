"""Final scoring and the winner: §9, §14 examples 1, 3 and 6."""

from __future__ import annotations

from games.fold import replay
from games.seven_wonders import GAME
from games.seven_wonders.events import GameEnded
from games.seven_wonders.scoring import CATEGORIES, result, score_city
from games.seven_wonders.state import City

from .table import Table


def plain(board: str, *built: str, stages: int = 0) -> City:
    return City(wonder=board, side="A", built=tuple(built), stages=stages)


def by_category(scores) -> dict[str, int]:
    return dict(zip(CATEGORIES, scores))


def test_categories_follow_the_score_pad_order() -> None:
    """§9: military, treasury, wonder, civilian, science, commercial, guilds."""
    assert CATEGORIES == ("military", "treasury", "wonder", "civilian", "science", "commercial", "guilds")


# --- §14 example 1 ---------------------------------------------------------------------


def _example_1() -> dict[str, int]:
    me = City(
        wonder="giza", side="A", stages=3, coins=13, tokens=(1, 1, 3, -1, 5, 5),
        built=("stone_pit", "clay_pool", "timber_yard", "press_1", "altar", "guard_tower",
               "temple", "sawmill", "library", "walls",
               "pantheon", "fortifications", "senate", "haven", "magistrates_guild"),
    )
    left = plain("babylon", "theater", "baths", "pawnshop")
    right = plain("olympia", "theater", "baths", "pawnshop", "statue", "aqueduct")
    others = [plain(b) for b in ("rhodes", "ephesus", "alexandria", "halicarnassus")]
    cities = (me, left, *others, right)  # 7 players: LEFT(0) = 1, RIGHT(0) = 6
    return by_category(score_city(cities, 0)[0])


def test_example_1_military_14() -> None:
    """§14 example 1: tokens +1 +1 +3 -1 +5 +5 = 14."""
    assert _example_1()["military"] == 14


def test_example_1_treasury_4() -> None:
    """§9, §14 example 1: ⌊13 / 3⌋ = 4 (leftover coins score nothing)."""
    assert _example_1()["treasury"] == 4


def test_example_1_wonder_15() -> None:
    """§14 example 1: Giza A stages 3 + 5 + 7."""
    assert _example_1()["wonder"] == 15


def test_example_1_civilian_18() -> None:
    """§14 example 1: Altar 2 + Temple 3 + Pantheon 7 + Senate 6."""
    assert _example_1()["civilian"] == 18


def test_example_1_science_1() -> None:
    """§14 example 1: one tablet (Library): 1²."""
    assert _example_1()["science"] == 1


def test_example_1_commercial_4() -> None:
    """§14 example 1: Haven: 4 brown cards (Stone Pit, Clay Pool, Timber Yard, Sawmill)."""
    assert _example_1()["commercial"] == 4


def test_example_1_guilds_8() -> None:
    """§14 example 1: Magistrates: 3 + 5 blue cards in LEFT+RIGHT (not its own 4)."""
    assert _example_1()["guilds"] == 8


def test_example_1_total_64() -> None:
    """§14 example 1: total 64."""
    assert sum(_example_1().values()) == 64


# --- §14 example 3 ---------------------------------------------------------------------


def _example_3() -> dict[str, int]:
    me = City(
        wonder="ephesus", side="B", stages=2, coins=20, tokens=(-1,) * 6,
        built=("lumber_yard", "ore_vein", "clay_pit", "loom_1", "marketplace",
               "brickyard", "foundry", "glassworks_2", "caravansery",
               "haven", "lighthouse", "chamber_of_commerce", "arena", "shipowners_guild", "builders_guild"),
    )
    left = plain("giza", stages=3)
    right = plain("rhodes", stages=1)
    others = (plain("babylon"),)
    return by_category(score_city((me, left, *others, right), 0)[0])


def test_example_3_military_minus_6() -> None:
    """§14 example 3: six -1 tokens."""
    assert _example_3()["military"] == -6


def test_example_3_treasury_6() -> None:
    """§14 example 3: ⌊20 / 3⌋ = 6."""
    assert _example_3()["treasury"] == 6


def test_example_3_wonder_5() -> None:
    """§14 example 3: Ephesus B stage 1 (2) + stage 2 (3)."""
    assert _example_3()["wonder"] == 5


def test_example_3_civilian_and_science_0() -> None:
    """§14 example 3: no blue, no green card."""
    got = _example_3()
    assert (got["civilian"], got["science"]) == (0, 0)


def test_example_3_commercial_17() -> None:
    """§14 example 3: Haven 5 + Lighthouse 6 (counts itself) + Chamber of Commerce 2×2 +
    Arena 2 = 17."""
    assert _example_3()["commercial"] == 17


def test_example_3_guilds_15() -> None:
    """§14 example 3: Shipowners 5 + 2 + 2 = 9 (counts itself); Builders 2 own + 3 + 1 = 6."""
    assert _example_3()["guilds"] == 15


def test_example_3_total_37() -> None:
    """§14 example 3: total 37."""
    assert sum(_example_3().values()) == 37


# --- scoring of a played game and the ranking -------------------------------------------


def test_played_game_scores_every_category_and_totals() -> None:
    """§9: the game ends after the Age III conflicts with one score per category; result()
    totals them; treasury is ⌊coins / 3⌋."""
    t = Table(boards=["giza", "babylon", "olympia"], plan={(0, 1): ["altar"], (0, 2): ["temple"]})
    t.turn({0: "build Altar"})
    t.finish_age()
    t.turn({0: "build Temple"})
    end = t.finish()
    assert end.categories == CATEGORIES
    res = GAME.result(t.state)
    assert res is not None
    assert res.totals == tuple(sum(r) for r in end.scores)
    assert [r[1] for r in end.scores] == [c.coins // 3 for c in t.state.cities]
    assert end.scores[0][CATEGORIES.index("civilian")] == 2 + 3
    assert res.tiebreak == tuple(c.coins for c in t.state.cities)


def _ranked(scores, coins):
    """A state reached by events whose final GameEnded carries the given scores."""
    t = Table()
    t.finish()
    before = replay(GAME, t.events[:-1])
    rows = tuple((s, 0, 0, 0, 0, 0, 0) for s in scores)
    state = GAME.evolve(before, GameEnded(categories=CATEGORIES, scores=rows, coins=tuple(coins),
                                          choices=("", "", "")))
    return result(state)


def test_example_6_more_coins_wins_a_tie() -> None:
    """§9, §14 example 6: P1 61 VP / 7 coins, P2 61 / 5, P3 58 / 15 -> P1 wins."""
    res = _ranked((61, 61, 58), (7, 5, 15))
    assert res.winners == (0,)
    assert res.ranks == (1, 2, 3)
    assert res.totals == (61, 61, 58)


def test_example_6_equal_coins_share_the_victory() -> None:
    """§9, §14 example 6: had P2 also held 7 coins, P1 and P2 share the victory."""
    res = _ranked((61, 61, 58), (7, 7, 15))
    assert res.winners == (0, 1)
    assert res.ranks[:2] == (1, 1) and res.ranks[2] == 3


def test_coins_break_ties_only_between_tied_players() -> None:
    """§9: a player with fewer VP never wins on coins."""
    res = _ranked((58, 61, 60), (30, 0, 9))
    assert res.winners == (1,)
    assert res.ranks == (3, 1, 2)


def test_no_result_before_the_game_is_over() -> None:
    """§9: scoring happens only at the end of the game."""
    t = Table()
    t.finish_age()
    assert GAME.result(t.state) is None
