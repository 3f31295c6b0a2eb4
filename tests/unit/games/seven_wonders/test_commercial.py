"""Yellow cards: §10 yellow table, §7 step 5, §15 #4 (counts include the cards placed by
anyone in the same turn; Lighthouse counts itself)."""

from __future__ import annotations

from games.seven_wonders.events import TurnResolved
from games.seven_wonders.scoring import CATEGORIES, score_city
from games.seven_wonders.state import City

from .table import Table

COMMERCIAL = CATEGORIES.index("commercial")


def income(events, seat: int) -> int:
    (tr,) = [e for e in events if isinstance(e, TurnResolved)]
    return tr.coins[seat]


def test_tavern_gives_five_coins_once() -> None:
    """§10: Tavern: +5 coins when built, nothing later and no VP."""
    t = Table(boards=["giza", "babylon", "olympia", "rhodes"], plan={(0, 1): ["tavern", "altar"]})
    assert income(t.turn({0: "build Tavern"}), 0) == 5
    assert income(t.turn({0: "build Altar"}), 0) == 0
    assert t.coins()[0] == 8


def test_vineyard_counts_brown_cards_of_self_and_neighbours_placed_this_turn_too() -> None:
    """§10, §15 #4: Vineyard: +1 coin per brown card in SELF+LEFT+RIGHT, counting the
    brown cards placed by the neighbours in the same turn; the seat across the table does
    not count."""
    t = Table(
        boards=["giza", "babylon", "olympia", "rhodes"],
        plan={(0, 1): ["lumber_yard"], (1, 1): ["stone_pit"], (2, 1): ["ore_vein"], (3, 1): ["clay_pool"],
              (0, 2): ["vineyard"], (1, 2): ["sawmill"], (2, 2): ["quarry"]},
    )
    t.turn({0: "build Lumber Yard", 1: "build Stone Pit", 2: "build Ore Vein", 3: "build Clay Pool"})
    t.finish_age()
    ev = t.turn({0: "build Vineyard", 1: "build Sawmill", 2: "build Quarry"})
    # self 1 (Lumber Yard) + left 2 (Stone Pit, Sawmill placed now) + right 1 (Clay Pool)
    assert income(ev, 0) == 4


def test_bazar_counts_grey_cards_of_self_and_neighbours_placed_this_turn_too() -> None:
    """§10, §15 #4: Bazar: +2 coins per grey card in SELF+LEFT+RIGHT, same-turn cards
    included, the seat across excluded."""
    t = Table(
        boards=["giza", "babylon", "olympia", "rhodes"],
        plan={(0, 1): ["loom_1"], (1, 1): ["glassworks_1"], (3, 1): ["press_1"],
              (0, 2): ["bazar"], (1, 2): ["loom_2"], (2, 2): ["press_2"]},
    )
    t.turn({0: "build Loom", 1: "build Glassworks", 3: "build Press"})
    t.finish_age()
    ev = t.turn({0: "build Bazar", 1: "build Loom", 2: "build Press"})
    assert income(ev, 0) == 2 * (1 + 2 + 1)


def test_chamber_of_commerce_two_coins_and_two_vp_per_own_grey_card() -> None:
    """§10: Chamber of Commerce: +2 coins per grey card in SELF when built, +2 VP per grey
    card in SELF at the end."""
    t = Table(
        boards=["babylon", "giza", "olympia", "rhodes"],
        plan={(0, 1): ["clay_pool", "loom_1", "glassworks_1"], (0, 2): ["press_2"],
              (1, 1): ["press_1"], (0, 3): ["chamber_of_commerce"]},
    )
    t.play([{0: "build Clay Pool", 1: "build Press"}, {0: "build Loom"}, {0: "build Glassworks"}])
    t.finish_age()
    t.turn({0: "build Press"})
    t.finish_age()
    ev = t.turn({0: "build Chamber of Commerce"})  # CCP: board C + Clay Pool + own Press
    assert income(ev, 0) == 2 * 3  # the neighbour's Press does not count
    end = t.finish()
    assert end.scores[0][COMMERCIAL] == 6


def test_haven_lighthouse_arena_coins_when_built_and_vp_at_the_end() -> None:
    """§10, §15 #4: Haven +1 coin per own brown card; Lighthouse +1 coin per own yellow card
    including itself; Arena +3 coins per built stage; at the end 1 VP per brown card, per
    yellow card (Lighthouse counts itself and later yellow cards) and per stage (stages
    built after the Arena count)."""
    t = Table(
        boards=["halicarnassus", "babylon", "olympia"],
        plan={
            (0, 1): ["marketplace", "west_trading_post", "apothecary", "lumber_yard", "ore_vein"],
            (0, 2): ["caravansery", "forum", "dispensary", "foundry", None],
            (0, 3): ["haven", "lighthouse", "arena", None],
        },
    )
    t.play([{0: "build Marketplace"}, {0: "build West Trading Post"}, {0: "build Apothecary"},
            {0: "build Lumber Yard"}, {0: "build Ore Vein"}])
    t.finish_age()
    t.play([{0: "build Caravansery"}, {0: "build Forum"}, {0: "build Dispensary"}, {0: "build Foundry"}])
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})  # Halicarnassus A stage 1 CC
    assert t.city(0).stages == 1
    t.finish_age()
    assert income(t.turn({0: "build Haven"}), 0) == 3  # Lumber Yard, Ore Vein, Foundry
    # Marketplace, West Trading Post, Caravansery, Forum, Haven + Lighthouse itself
    assert income(t.turn({0: "build Lighthouse"}), 0) == 6
    assert income(t.turn({0: "build Arena"}), 0) == 3  # 1 stage
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})  # stage 2 OOO: Ore Vein + Foundry
    assert t.city(0).stages == 2
    end = t.finish()
    # Haven 3 + Lighthouse 7 (Arena came later) + Arena 2 stages
    assert end.scores[0][COMMERCIAL] == 3 + 7 + 2


def test_lighthouse_counts_itself_at_the_end() -> None:
    """§10: Lighthouse: +1 VP per yellow card in SELF, itself included."""
    me = City(wonder="giza", side="A", built=("lighthouse",))
    others = (City(wonder="babylon", side="A", built=("tavern",)), City(wonder="olympia", side="A"))
    assert score_city((me, *others), 0)[0][COMMERCIAL] == 1


def test_arena_vp_is_one_per_stage_at_the_end() -> None:
    """§10: Arena scores 1 VP per built stage of the final city (not the 3 coins)."""
    me = City(wonder="giza", side="A", stages=3, built=("arena",))
    others = (City(wonder="babylon", side="A", stages=3), City(wonder="olympia", side="A"))
    assert score_city((me, *others), 0)[0][COMMERCIAL] == 3


def test_trading_cards_give_no_vp() -> None:
    """§10: Tavern, trading posts, Marketplace, Caravansery, Forum, Vineyard, Bazar: no VP."""
    me = City(wonder="giza", side="A", built=("tavern", "east_trading_post", "west_trading_post",
                                             "marketplace", "caravansery", "forum", "vineyard", "bazar"))
    others = (City(wonder="babylon", side="A"), City(wonder="olympia", side="A"))
    assert score_city((me, *others), 0)[0][COMMERCIAL] == 0
