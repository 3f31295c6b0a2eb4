"""Military conflicts: §8, §14 example 4, §15 #22 (and Rhodes' shields, §11.2)."""

from __future__ import annotations

from collections import Counter

from games.seven_wonders.events import AgeStarted, GameEnded, LastCardsDiscarded, MilitaryResolved

from .table import Table


def tokens(t: Table, age: int) -> list[Counter]:
    (mr,) = [e for e in t.of(MilitaryResolved) if e.age == age]
    return [Counter(x) for x in mr.tokens]


def shields(t: Table, age: int) -> tuple[int, ...]:
    (mr,) = [e for e in t.of(MilitaryResolved) if e.age == age]
    return mr.shields


def test_no_shields_anywhere_gives_no_tokens() -> None:
    """§8, §15 #22: equal strength -> no token for either side."""
    t = Table()
    t.finish_age()
    assert shields(t, 1) == (0, 0, 0)
    assert tokens(t, 1) == [Counter(), Counter(), Counter()]
    assert all(c.tokens == () for c in t.state.cities)


def test_conflicts_are_resolved_after_turn_six_before_the_next_age() -> None:
    """§3, §7 step 8: after turn 6 (and its 7th-card discards) the conflicts are resolved,
    then the next age starts."""
    t = Table()
    t.finish_age()
    kinds = [type(e) for e in t.events]
    i = kinds.index(MilitaryResolved)
    assert kinds[i - 1] is LastCardsDiscarded and kinds[i + 1] is AgeStarted


def test_three_ages_of_tokens_and_cumulative_shields_three_players() -> None:
    """§8: victory +1/+3/+5 by age, defeat -1 in every age, ties nothing; with 3 players
    the two other players are the two neighbours and each of the 3 pairs is compared once
    per age; shields are cumulative over the game."""
    t = Table(boards=["rhodes", "giza", "babylon"],
              plan={(0, 1): ["barracks"], (1, 1): ["stone_pit", "timber_yard"], (1, 2): ["walls"]})
    t.turn({0: "build Barracks", 1: "build Stone Pit"})
    t.turn({1: "build Timber Yard"})
    t.finish_age()
    assert shields(t, 1) == (1, 0, 0)
    assert tokens(t, 1) == [Counter({1: 2}), Counter({-1: 1}), Counter({-1: 1})]
    t.turn({1: "build Walls"})  # SSS: board + Stone Pit + Timber Yard
    t.finish_age()
    assert shields(t, 2) == (1, 2, 0)
    assert tokens(t, 2) == [Counter({-1: 1, 3: 1}), Counter({3: 2}), Counter({-1: 2})]
    t.finish()
    assert shields(t, 3) == (1, 2, 0)  # nothing new: Age I and II shields still count
    assert tokens(t, 3) == [Counter({-1: 1, 5: 1}), Counter({5: 2}), Counter({-1: 2})]
    assert [sum(c.tokens) for c in t.state.cities] == [1 + 1 - 1 + 3 - 1 + 5, -1 + 3 + 3 + 5 + 5, -1 - 2 - 2]
    military = [row[0] for row in t.ended().scores]
    assert military == [8, 15, -5]


def test_each_seat_gets_at_most_two_tokens_per_age() -> None:
    """§8: each player receives 0, 1 or 2 tokens per age; a victory for one side is a
    defeat for the other."""
    t = Table(boards=["rhodes", "giza", "babylon", "olympia"], plan={(0, 1): ["barracks"]})
    t.turn({0: "build Barracks"})
    t.finish_age()
    got = tokens(t, 1)
    # seat 0 beats its two neighbours (1 and 3); seat 2 is not its neighbour
    assert got == [Counter({1: 2}), Counter({-1: 1}), Counter(), Counter({-1: 1})]
    assert sum(sum(1 for x in c.elements() if x > 0) for c in got) == sum(c[-1] for c in got)


def test_rhodes_a_stage_2_adds_two_shields() -> None:
    """§8, §11.2: military strength = red cards + Rhodes' stage shields (A stage 2: +2)."""
    t = Table(boards=["rhodes", "olympia", "babylon"],
              plan={(0, 1): [None, "lumber_yard", None, "clay_pool", "clay_pit"]})
    # Rhodes seat 0: LEFT Olympia (W), RIGHT Babylon (C)
    t.turn()  # discard: 6 coins
    t.turn({0: "build Lumber Yard"})
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})  # WW: Lumber Yard + 1 W bought
    t.turn({0: "build Clay Pool"})
    t.turn({0: "build Clay Pit"})
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})  # CCC: Clay Pool + Clay Pit + 1 C bought
    assert t.city(0).stages == 2 and t.state.age == 2  # turn 6 ended Age I
    assert shields(t, 1) == (2, 0, 0)
    assert tokens(t, 1)[0] == Counter({1: 2})


def test_rhodes_b_stages_add_one_shield_each() -> None:
    """§8, §11.2: Rhodes B stage 1 and stage 2 give 1 shield each."""
    t = Table(boards=["rhodes", "giza", "babylon"], sides="BAA",
              plan={(0, 1): ["stone_pit", "timber_yard", None, "ore_vein"], (0, 2): ["foundry"],
                    (2, 1): ["barracks"]})
    t.turn({0: "build Stone Pit"})
    t.turn({0: "build Timber Yard"})
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})  # SSS: Stone Pit + Timber Yard + 1 S from Giza
    t.turn({0: "build Ore Vein"})
    t.finish_age()
    assert shields(t, 1) == (1, 0, 0)
    t.turn({0: "build Foundry"})
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})  # OOOO: board + Ore Vein + Foundry
    assert t.city(0).stages == 2
    t.finish_age()
    assert shields(t, 2) == (2, 0, 0)


def test_example_4_four_players_three_ages() -> None:
    """§14 example 4: shields A1 B0 C2 D1 / A3 B2 C2 D5 / A6 B8 C5 D5 give military
    totals A 7, B 7, C 0, D 4 with 2/3/2/2 defeat tokens; A's Strategists Guild scores
    B's and D's defeat tokens: 3 + 2 = 5 VP."""
    A, B, Cc, D = 0, 1, 2, 3
    t = Table(
        boards=["rhodes", "giza", "olympia", "halicarnassus"],
        plan={
            (A, 1): ["barracks", "lumber_yard", "ore_vein"],
            (B, 1): ["stone_pit", "timber_yard"],
            (Cc, 1): ["clay_pool", "stockade", "guard_tower", "loom_1"],
            (D, 1): ["apothecary", "glassworks_1", "workshop", "guard_tower"],
            (A, 2): ["training_ground"],
            (B, 2): ["walls"],
            (Cc, 2): ["brickyard"],
            (D, 2): ["stables", "archery_range"],
            (A, 3): ["circus", "strategists_guild"],
            (B, 3): ["fortifications", "arsenal"],
            (Cc, 3): ["siege_workshop"],
        },
    )
    t.play([
        {A: "build Barracks", B: "build Stone Pit", Cc: "build Clay Pool", D: "build Apothecary"},
        {A: "build Lumber Yard", B: "build Timber Yard", Cc: "build Stockade", D: "build Glassworks"},
        {A: "build Ore Vein", Cc: "build Guard Tower", D: "build Workshop"},
        {Cc: "build Loom", D: "build Guard Tower"},  # D buys C from C's Clay Pool
    ])
    t.finish_age()
    assert shields(t, 1) == (1, 0, 2, 1)
    t.play([
        {A: "build Training Ground", B: "build Walls", Cc: "build Brickyard", D: "build Stables"},
        {D: "build Archery Range"},
    ])
    t.finish_age()
    assert shields(t, 2) == (3, 2, 2, 5)
    t.play([
        {A: "build Circus", B: "build Fortifications", Cc: "build Siege Workshop"},
        {A: "build Strategists Guild", B: "build Arsenal"},
    ])
    end = t.finish()
    assert shields(t, 3) == (6, 8, 5, 5)
    assert tokens(t, 1) == [Counter({1: 1}), Counter({-1: 2}), Counter({1: 2}), Counter({-1: 1})]
    assert tokens(t, 2) == [Counter({3: 1, -1: 1}), Counter({-1: 1}), Counter({-1: 1}), Counter({3: 2})]
    assert tokens(t, 3) == [Counter({-1: 1, 5: 1}), Counter({5: 2}), Counter({-1: 1}), Counter({-1: 1})]
    assert isinstance(end, GameEnded)
    military = [row[end.categories.index("military")] for row in end.scores]
    assert military == [7, 7, 0, 4]
    assert [c.tokens.count(-1) for c in t.state.cities] == [2, 3, 2, 2]
    assert end.scores[A][end.categories.index("guilds")] == 5
