"""Science scoring: §9, §14 example 2, §11.5 (Babylon wildcards), §10 (Scientists Guild)."""

from __future__ import annotations

from itertools import product

import pytest

from games.seven_wonders.scoring import CATEGORIES, score_city, science_points
from games.seven_wonders.state import City

from .table import Table

SCIENCE = CATEGORIES.index("science")


def plain(board: str) -> City:
    return City(wonder=board, side="A")


def science_of(city: City) -> int:
    cities = (city, plain("giza"), plain("rhodes"))
    return score_city(cities, 0)[0][SCIENCE]


def test_rulebook_example_21() -> None:
    """§9: 3 compass + 2 gear + 1 tablet = 9 + 4 + 1 + 7 = 21."""
    assert science_points((3, 2, 1), 0)[0] == 21


def test_rulebook_example_31() -> None:
    """§9: with one more tablet: 9 + 4 + 4 + 2·7 = 31."""
    assert science_points((3, 2, 2), 0)[0] == 31


@pytest.mark.parametrize(
    "counts,score",
    [((0, 0, 0), 0), ((1, 0, 0), 1), ((6, 0, 0), 36), ((1, 1, 1), 10), ((2, 2, 2), 26), ((4, 1, 0), 17)],
)
def test_identical_symbols_squared_plus_seven_per_complete_set(counts, score) -> None:
    """§9: c² + g² + t² + 7·min(c, g, t)."""
    assert science_points(counts, 0)[0] == score


@pytest.mark.parametrize(
    "c,g,t,score",
    [(5, 2, 1, 37), (4, 3, 1, 33), (4, 2, 2, 38), (3, 4, 1, 33), (3, 3, 2, 36), (3, 2, 3, 36)],
)
def test_example_2_table_of_wildcard_assignments(c, g, t, score) -> None:
    """§14 example 2: each row of the table of wildcard assignments."""
    assert science_points((c, g, t), 0)[0] == score


def test_example_2_best_assignment_is_compass_plus_tablet_for_38() -> None:
    """§14 example 2, §9: two wildcards on (3, 2, 1): the engine tries all 3^k
    assignments; best = compass + tablet = 38."""
    score, pick = science_points((3, 2, 1), 2)
    assert score == 38
    assert sorted(pick) == ["compass", "tablet"]


def test_completing_a_set_is_not_always_best() -> None:
    """§9 note: (3, 0, 0) + 1 wildcard: compass (16) beats any set-completing choice."""
    score, pick = science_points((3, 0, 0), 1)
    assert (score, pick) == (16, ("compass",))
    assert science_points((1, 1, 0), 1)[0] == 10  # here the set wins (10 > 4 + 1)


def test_three_wildcards_are_each_chosen_independently() -> None:
    """§9: up to three wildcards, each kind chosen independently (3^3 assignments)."""
    best = max(
        sum(x * x for x in v) + 7 * min(v)
        for pick in product(range(3), repeat=3)
        for v in [[1 + pick.count(0), 1 + pick.count(1), 0 + pick.count(2)]]
    )
    assert science_points((1, 1, 0), 3)[0] == best == 18  # (3,1,1) or (1,1,3)


def test_example_2_babylon_a_with_scientists_guild_scores_44() -> None:
    """§14 example 2: Babylon A (stages 1, 2), compass 3, gear 2, tablet 1, wildcards from
    Babylon A stage 2 and the Scientists Guild: military -1, treasury 1, wonder 3,
    civilian 3, science 38, commercial 0, guilds 0 (no VP of its own) = 44."""
    city = City(
        wonder="babylon", side="A", stages=2, coins=5, tokens=(-1, -1, 3, -1, -1),
        built=("apothecary", "workshop", "scriptorium", "baths", "dispensary", "laboratory", "lodge",
               "scientists_guild"),
    )
    scores, note = score_city((city, plain("giza"), plain("rhodes")), 0)
    assert scores == (-1, 1, 3, 3, 38, 0, 0)
    assert sum(scores) == 44
    assert "compass" in note and "tablet" in note


def test_babylon_a_stage_2_is_a_wildcard_only_once_built() -> None:
    """§11.5: Babylon A stage 2 = one symbol of the owner's choice, chosen at the end."""
    built = ("apothecary", "workshop")
    assert science_of(City(wonder="babylon", side="A", stages=1, built=built)) == 2
    assert science_of(City(wonder="babylon", side="A", stages=2, built=built)) == 10


def test_babylon_b_stage_3_is_a_wildcard() -> None:
    """§11.5, §9: Babylon B stage 3 gives the wildcard (stage 2 does not)."""
    built = ("apothecary", "workshop")
    assert science_of(City(wonder="babylon", side="B", stages=2, built=built)) == 2
    assert science_of(City(wonder="babylon", side="B", stages=3, built=built)) == 10


def test_babylon_b_stage_3_and_scientists_guild_are_two_wildcards() -> None:
    """§9: every wildcard counts: Babylon B stage 3 + Scientists Guild on one compass:
    best of all assignments is gear + tablet -> (1,1,1) = 10 (compass twice: 9)."""
    city = City(wonder="babylon", side="B", stages=3, built=("apothecary", "scientists_guild"))
    assert science_of(city) == 10


def test_scientists_guild_alone_is_one_symbol() -> None:
    """§10: Scientists Guild: no VP, one science wildcard."""
    city = City(wonder="giza", side="A", built=("scientists_guild",))
    scores, _ = score_city((city, plain("babylon"), plain("rhodes")), 0)
    assert scores[SCIENCE] == 1
    assert scores[CATEGORIES.index("guilds")] == 0


def test_a_green_card_under_a_stage_gives_no_symbol() -> None:
    """§4 B, §0: a card tucked under a stage has no colour and no symbol."""
    t = Table(boards=["giza", "babylon", "olympia"], plan={(0, 1): ["stone_pit", "scriptorium"]})
    t.turn({0: "build Stone Pit"})
    t.turn({0: "wonder Scriptorium"})  # Giza A stage 1 SS: board + Stone Pit
    assert t.city(0).stages == 1
    end = t.finish()
    assert end.scores[0][SCIENCE] == 0
    assert end.scores[0][CATEGORIES.index("wonder")] == 3


def test_science_through_a_played_game() -> None:
    """§9: green cards built during the game: one compass, one gear, one tablet -> 10."""
    t = Table(boards=["halicarnassus", "alexandria", "ephesus"],
              plan={(0, 1): ["apothecary", None, "workshop", "scriptorium"]})
    # Halicarnassus seat 0: L on the board, LEFT Alexandria (G), RIGHT Ephesus (P)
    t.turn({0: "build Apothecary"})
    t.turn()
    t.turn({0: "build Workshop"})
    t.turn({0: "build Scriptorium"})
    end = t.finish()
    assert end.scores[0][SCIENCE] == 10
