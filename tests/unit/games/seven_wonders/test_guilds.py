"""Guilds, evaluated at the end: §10 guild table, §15 #27.

Four seats: 0 is the owner, 1 its LEFT, 3 its RIGHT and 2 the seat across the table,
which never counts. The owner's own city never counts for the neighbour guilds and
vice versa (§10).
"""

from __future__ import annotations

import pytest

from games.seven_wonders.scoring import CATEGORIES, score_city
from games.seven_wonders.state import City

GUILDS = CATEGORIES.index("guilds")
EVERYTHING = ("lumber_yard", "ore_vein", "loom_1", "glassworks_1", "baths", "altar", "apothecary",
              "workshop", "tavern", "marketplace", "stockade", "barracks")


def city(board: str, *built: str, stages: int = 0, tokens: tuple[int, ...] = (), stage_cards=()) -> City:
    return City(wonder=board, side="A", built=tuple(built), stages=stages, tokens=tokens,
                stage_cards=tuple(stage_cards))


def guild_points(me: City, left: City, right: City, across: City | None = None) -> int:
    across = across or city("rhodes", *EVERYTHING, stages=3, tokens=(-1, -1, -1))
    return score_city((me, left, across, right), 0)[0][GUILDS]


def test_workers_guild_one_per_brown_card_of_the_neighbours() -> None:
    """§10: Workers Guild: 1 VP per brown card in LEFT+RIGHT (a double card is one card;
    the owner's browns, boards' resources and stage cards do not count)."""
    me = city("giza", "workers_guild", "stone_pit", "quarry")
    left = city("babylon", "lumber_yard", "sawmill", "loom_1", stage_cards=("ore_vein",), stages=1)
    right = city("olympia", "clay_pit", "glassworks_1")
    assert guild_points(me, left, right) == 3


def test_craftsmens_guild_two_per_grey_card_of_the_neighbours() -> None:
    """§10, §15 #27: Craftsmens Guild: 2 VP per grey card in LEFT+RIGHT."""
    me = city("giza", "craftsmens_guild", "press_1")
    left = city("babylon", "loom_1", "glassworks_2", "lumber_yard")
    right = city("olympia", "press_2")
    assert guild_points(me, left, right) == 2 * 3


def test_traders_guild_one_per_yellow_card_of_the_neighbours() -> None:
    """§10: Traders Guild: 1 VP per yellow card in LEFT+RIGHT."""
    me = city("giza", "traders_guild", "tavern")
    left = city("babylon", "marketplace", "forum", "haven")
    right = city("olympia", "east_trading_post")
    assert guild_points(me, left, right) == 4


def test_philosophers_guild_one_per_green_card_of_the_neighbours() -> None:
    """§10: Philosophers Guild: 1 VP per green card in LEFT+RIGHT (its own greens still
    give their science symbols, not guild VP)."""
    me = city("giza", "philosophers_guild", "workshop")
    left = city("babylon", "apothecary", "library")
    right = city("olympia", "scriptorium", "school", "academy")
    assert guild_points(me, left, right) == 5


def test_spies_guild_one_per_red_card_of_the_neighbours() -> None:
    """§10: Spies Guild: 1 VP per red card in LEFT+RIGHT (cards, not shields)."""
    me = city("giza", "spies_guild", "stockade")
    left = city("babylon", "walls", "circus")
    right = city("rhodes", "barracks", stages=2)  # Rhodes' stage shields are no red card
    across = city("olympia", "arsenal", "fortifications")
    assert guild_points(me, left, right, across) == 3


def test_magistrates_guild_one_per_blue_card_of_the_neighbours() -> None:
    """§10: Magistrates Guild: 1 VP per blue card in LEFT+RIGHT."""
    me = city("giza", "magistrates_guild", "palace")
    left = city("babylon", "baths", "altar")
    right = city("olympia", "pantheon")
    assert guild_points(me, left, right) == 3


def test_strategists_guild_counts_the_neighbours_defeat_tokens() -> None:
    """§10: Strategists Guild: 1 VP per -1 token held by LEFT+RIGHT (victory tokens and
    the owner's own defeats do not count)."""
    me = city("giza", "strategists_guild", tokens=(-1, -1, 1))
    left = city("babylon", tokens=(-1, 3, -1, 5))
    right = city("olympia", tokens=(-1, 1))
    assert guild_points(me, left, right) == 3


def test_shipowners_guild_counts_own_brown_grey_and_purple_itself_included() -> None:
    """§10: Shipowners Guild: 1 VP per brown, grey and purple card in SELF (counts itself);
    neighbours' cards do not count."""
    me = city("giza", "shipowners_guild", "stone_pit", "sawmill", "loom_1", "spies_guild", "altar")
    left = city("babylon", *EVERYTHING)
    right = city("olympia", *EVERYTHING)
    # brown 2 + grey 1 + purple 2 (itself and Spies) = 5; Spies itself: no red at the neighbours
    spies = 2 + 2  # left and right each own Stockade and Barracks
    assert guild_points(me, left, right) == 5 + spies


def test_builders_guild_counts_stages_of_self_and_both_neighbours() -> None:
    """§10: Builders Guild: 1 VP per built wonder stage in SELF+LEFT+RIGHT."""
    me = city("giza", "builders_guild", stages=2)
    left = city("babylon", stages=3)
    right = city("olympia", stages=1)
    assert guild_points(me, left, right) == 6


def test_scientists_guild_gives_no_vp() -> None:
    """§10: Scientists Guild: no VP of its own (a science wildcard, §9)."""
    me = city("giza", "scientists_guild")
    left = city("babylon", *EVERYTHING)
    right = city("olympia", *EVERYTHING)
    scores = score_city((me, left, city("rhodes"), right), 0)[0]
    assert scores[GUILDS] == 0
    assert scores[CATEGORIES.index("science")] == 1


@pytest.mark.parametrize(
    "guild",
    ["workers_guild", "craftsmens_guild", "traders_guild", "philosophers_guild", "spies_guild",
     "magistrates_guild", "strategists_guild"],
)
def test_neighbour_guilds_ignore_the_city_across_the_table(guild: str) -> None:
    """§0, §10: a city only interacts with its two neighbours."""
    me = city("giza", guild)
    assert guild_points(me, city("babylon"), city("olympia")) == 0


def test_guild_points_land_in_the_guilds_category_only() -> None:
    """§9: guild VP go to the Guilds category."""
    me = city("giza", "magistrates_guild")
    left = city("babylon", "baths")
    scores = score_city((me, left, city("rhodes"), city("olympia")), 0)[0]
    assert scores == (0, 1, 0, 0, 0, 0, 1)
