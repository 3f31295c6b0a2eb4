"""The Edifice expansion's rules: docs/rules/seven-wonders-edifice.md §3, §4 (A1-A8),
§5 (B1-B6), §7, §10, §11, §13 and §14 (Q-rows), played through `decide` on fixtures."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from games.contract import Rejection, Seed
from games.fold import replay
from games.seven_wonders import GAME
from games.seven_wonders.edifice import EDIFICE
from games.seven_wonders.events import (
    DecisionOpened,
    EdificeCompleted,
    EdificeFailed,
    EdificeJoined,
    EdificePenaltyPaid,
    EdificesDrawn,
    MilitaryResolved,
    Options,
    TurnResolved,
)
from games.seven_wonders.catalog import CATALOG, RESOURCES
from games.seven_wonders.payment import info
from games.seven_wonders.rules import penalty_token_sets, rewarded
from games.seven_wonders.scoring import EDIFICE_CATEGORIES, count, shields
from games.seven_wonders.state import City

from .table import Table


def code(got) -> str | None:
    return got.code if isinstance(got, Rejection) else None


# --- setup (§3, §10, Q16) -------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_setup_draws_one_edifice_per_age_with_the_pawns_of_the_player_count(players: int) -> None:
    """§3 steps 2-4 and §10: one random edifice of each Age, 2/3/3/4/5 pawns on each card."""
    events = GAME.setup(GAME.presets[f"{players}p_edifice"], Seed(b"edifice"))
    drawn = next(e for e in events if isinstance(e, EdificesDrawn))
    assert [EDIFICE.cards[c].age for c in drawn.cards] == [1, 2, 3]
    assert drawn.pawns == {3: 2, 4: 3, 5: 3, 6: 4, 7: 5}[players]
    assert drawn.catalog_hash == EDIFICE.hash
    state = replay(GAME, events)
    assert state.pawns == (drawn.pawns,) * 3 and state.edifice_status == ("project",) * 3


def test_the_draw_varies_with_the_seed_and_games_without_edifice_are_unchanged() -> None:
    """§3 step 3 (at random); a game without the option has no edifice and keeps its bytes."""
    draws = {next(e for e in GAME.setup(Options(players=4, edifice=True), Seed(b"%d" % i))
                  if isinstance(e, EdificesDrawn)).cards for i in range(30)}
    assert len(draws) > 5
    plain = GAME.setup(Options(players=4), Seed(b"x"))
    assert not any(isinstance(e, EdificesDrawn) for e in plain)
    assert b"edifice" not in msgspec.json.encode(plain[0])
    assert msgspec.json.encode(plain[0]) == msgspec.json.encode(GAME.setup(Options(players=4), Seed(b"x"))[0])


def test_edifice_is_refused_with_two_players() -> None:
    """§3 step 6 and §14 Q16: 3-7 players only."""
    with pytest.raises(ValueError, match="3 to 7"):
        GAME.setup(Options(players=2, edifice=True), Seed(b"x"))


# --- participation and completion (§4, §5.1, §13 example 1) -------------------------------------

BOARDS_4 = ["olympia", "giza", "ephesus", "rhodes"]
PLAN_4 = {
    (0, 1): ["lumber_yard", "altar"],  # Olympia A stage 1 = WW: own wood from turn 2
    (1, 1): ["stone_pit", "baths"],  # Giza A stage 1 = SS: own stone
    (2, 1): ["excavation", "theater"],  # Ephesus A stage 1 = SS: 1 coin now, then one stone bought for 2
    (3, 1): ["lumber_yard", "workshop"],  # Rhodes A stage 1 = WW: one wood bought from Olympia for 2
}


def money_changer_table() -> Table:
    t = Table(boards=BOARDS_4, plan=PLAN_4, edifices=("money_changer", "auction_house", "gold_reserves"))
    t.turn({0: "build Lumber Yard", 1: "build Stone Pit", 2: "build Excavation", 3: "build Lumber Yard"})
    return t


def test_joining_pays_the_participation_coins_to_the_bank_with_the_stage() -> None:
    """§4 A1, A3, A4 and §5.1 (example 1): stage and participation paid together; three
    participants take the last three pawns, the card is complete, and each holder gets 4
    coins at the end of the turn; the fourth seat (who could not afford to join) gets none."""
    t = money_changer_table()
    assert t.coins() == (3, 3, 2, 3)
    assert code(t.act(2, "wonder Theater join")) == "cannot_afford"  # 2 for stone + 1 > 2 coins (A3)
    events = t.turn({0: "wonder Altar join", 1: "wonder Baths join", 2: "wonder Theater", 3: "wonder Workshop join"})
    resolved = next(e for e in events if isinstance(e, TurnResolved))
    assert [p.bank for p in resolved.plays] == [1, 1, 0, 1]
    joined = next(e for e in events if isinstance(e, EdificeJoined))
    assert joined.seats == (0, 1, 3) and joined.pawns_left == 0
    done = next(e for e in events if isinstance(e, EdificeCompleted))
    assert done.holders == (0, 1, 3) and done.coins == (4, 4, 0, 4)
    # coins: 3 - 1 + 2 (wood sold to Rhodes) + 4; 3 - 1 + 2 (stone sold to Ephesus) + 4; 2 - 2; 3 - 2 - 1 + 4
    assert t.coins() == (8, 8, 0, 4)
    assert t.state.edifice_status[0] == "completed"


def test_nobody_joins_a_completed_edifice_and_nobody_is_penalised_for_it() -> None:
    """§4 A2, §14 Q10 and §5.2 B2: no participation once complete; no resolution at the end of the Age."""
    t = money_changer_table()
    t.turn({0: "wonder Altar join", 1: "wonder Baths join", 2: "wonder Theater", 3: "wonder Workshop join"})
    assert code(t.act(2, "wonder Theater join")) in ("cannot_join", "card_not_in_hand")
    hand = sorted(t.state.hands[2])
    assert code(t.act(2, f"wonder {hand[0]} join")) == "cannot_join"
    t.finish_age()
    assert not t.of(EdificeFailed)
    assert t.coins()[2] >= 0 and t.state.cities[2].debts == ()


def test_join_is_refused_without_the_expansion() -> None:
    """A1: participation exists only with Edifice."""
    t = Table(boards=BOARDS_4, plan=PLAN_4)
    t.turn({0: "build Lumber Yard", 1: "build Stone Pit", 2: "build Excavation", 3: "build Lumber Yard"})
    assert code(t.act(0, "wonder Altar join")) == "cannot_join"
    assert not any(getattr(c, "join", False) for c in GAME.legal_commands(t.state, 0))


BOARDS_3 = ["olympia", "rhodes", "giza"]
PLAN_3 = {
    (0, 1): ["lumber_yard", "altar", None],
    (1, 1): ["timber_yard", None, "baths"],
    (2, 1): ["stone_pit", None, "theater"],
}


def belvedere_table() -> Table:
    t = Table(boards=BOARDS_3, plan=PLAN_3, edifices=("belvedere", "auction_house", "gold_reserves"))
    t.turn({0: "build Lumber Yard", 1: "build Timber Yard", 2: "build Stone Pit"})
    return t


def test_once_per_age_and_box_pawns_when_the_card_runs_out() -> None:
    """§4 A2/A6 (one participation per Age), A5 and §13 example 3 (more participants than
    pawns: each gets one, the missing ones from the box; all are holders), §5.1."""
    t = belvedere_table()
    t.turn({0: "wonder Altar join"})  # 3 players: 2 pawns (§10); now 1
    assert t.state.pawns[0] == 1
    assert code(t.act(0, f"wonder {sorted(t.state.hands[0])[0]} join")) == "cannot_join"  # already joined (A6)
    join_cmds = [c for c in GAME.legal_commands(t.state, 1) if getattr(c, "join", False)]
    assert join_cmds  # 1 pawn left at the start of the turn: eligible (Q10)
    events = t.turn({1: "wonder Baths join", 2: "wonder Theater join"})
    joined = next(e for e in events if isinstance(e, EdificeJoined))
    assert joined.seats == (1, 2) and joined.pawns_left == 0
    assert next(e for e in events if isinstance(e, EdificeCompleted)).holders == (0, 1, 2)
    assert [c.joined for c in t.state.cities] == [(1,), (1,), (1,)]


def test_belvedere_scores_each_stage_built_by_the_end() -> None:
    """§7 and §13 example 3: VP rewards are computed on the final city (stages built after
    completion count too); the edifice line also holds the debt tokens."""
    t = belvedere_table()
    t.turn({0: "wonder Altar join"})
    t.turn({1: "wonder Baths join", 2: "wonder Theater join"})
    ended = t.finish()
    assert ended.categories == EDIFICE_CATEGORIES
    for seat, row in enumerate(ended.scores):
        city = t.state.cities[seat]
        assert row[-1] == city.stages + sum(city.debts)
        assert city.stages == 1


# --- failure (§5.2 B1-B6, §11, §13 example 2) ---------------------------------------------------

PLAN_SPEND = {(1, 1): ["timber_yard", "clay_pit", "stockade", "altar", "baths", "theater"]}


def test_failure_makes_non_holders_pay_coins_or_take_the_debt_token() -> None:
    """§5.2 B3/B5 (nobody joined: everyone is penalised) and §11: seats with 2 coins pay
    them; the one with 1 coin pays nothing and takes the Age I debt (-2); before the
    conflicts (B1)."""
    t = Table(boards=BOARDS_3, plan=PLAN_SPEND, edifices=("money_changer", "auction_house", "gold_reserves"))
    for name in ("Timber Yard", "Clay Pit", "Stockade", "Altar", "Baths", "Theater"):
        t.turn({1: f"build {name}"})
    assert t.state.age == 2
    failed = t.of(EdificeFailed)[0]
    assert failed.debts == (0, -2, 0)
    assert failed.coins == (-2, 0, -2)
    assert t.events.index(failed) < t.events.index(t.of(MilitaryResolved)[0])
    assert t.state.cities[1].debts == (-2,) and t.state.cities[1].coins == 1
    assert t.state.edifice_status[0] == "failed"


PLAN_RED = {
    (1, 1): ["barracks"],  # Rhodes makes its ore
    (2, 1): ["clay_pool", "guard_tower", "stockade"],  # Giza: clay for the tower, wood bought for the stockade
}


def test_a_discard_penalty_is_paid_at_once_or_chosen_by_the_player() -> None:
    """§5.2 B3 and §14 Q3: no red card -> Age I debt; one red card -> it goes to the
    discard pile; two -> the player chooses which (a decision before the conflicts, which
    then count the city without it)."""
    t = Table(boards=BOARDS_3, plan=PLAN_RED, edifices=("outpost", "auction_house", "gold_reserves"))
    t.turn({1: "build Barracks", 2: "build Clay Pool"})
    t.turn({2: "build Guard Tower"})
    t.turn({2: "build Stockade"})
    while not t.of(EdificeFailed):
        t.turn()
    failed = t.of(EdificeFailed)[0]
    assert failed.debts == (-2, 0, 0)
    assert failed.discard == (None, "barracks", None)
    assert failed.owed == (2,)
    assert GAME.to_act(t.state) == (2,) and GAME.view(t.state, 2).pending == "edifice_penalty"
    assert GAME.view(t.state, 1).pending is None
    assert not t.of(MilitaryResolved)
    assert sorted(GAME.format_command(c) for c in GAME.legal_commands(t.state, 2)) == [
        "give up Guard Tower", "give up Stockade"]
    assert code(t.act(2, "give up Barracks")) == "not_eligible"
    assert code(t.act(2, "discard Altar")) == "decision_pending"
    assert code(t.act(1, "give up Barracks")) == "not_your_turn"
    t.act(2, "give up Stockade")
    assert t.of(EdificePenaltyPaid)[0].card == "stockade"
    assert "stockade" in t.state.discard and "barracks" in t.state.discard
    military = t.of(MilitaryResolved)[0]
    assert military.shields == (0, 0, 1)  # Barracks gone from seat 1, Stockade from seat 2


def test_victory_tokens_penalty_offers_each_distinct_pair() -> None:
    """§5.2 (lose_victory_tokens) and §14 Q4: any two victory tokens, defeat tokens never count."""
    assert penalty_token_sets(City(wonder="giza", side="A", tokens=(1, -1, 3, 5)), 2) == [(1, 3), (1, 5), (3, 5)]
    assert penalty_token_sets(City(wonder="giza", side="A", tokens=(3, 3, -1)), 2) == [(3, 3)]
    assert penalty_token_sets(City(wonder="giza", side="A", tokens=(5, -1, -1)), 2) == []


# --- random play and views -------------------------------------------------------------------


def _invariants(state) -> None:
    """What must hold after every command of an Edifice game (§4, §5, §10, §11)."""
    start = EDIFICE.pawns(state.players)
    for age, (pawns, status) in enumerate(zip(state.pawns, state.edifice_status), 1):
        assert 0 <= pawns <= start
        assert (status == "completed") == (pawns == 0)  # empty card <=> completed (§5.1)
        assert status == "project" or state.age >= age
        for c in state.cities:
            assert c.joined.count(age) <= 1  # once per Age (A6)
            assert (EDIFICE.cards[state.edifices[age - 1]].id in c.rewards) == (status == "completed" and rewarded(c, age))
    for c in state.cities:
        assert c.coins >= 0
        assert all(d in (-2, -3, -5) for d in c.debts) and len(c.debts) <= 3  # one per failed edifice (§11)


def test_random_games_with_edifice_end_and_replay() -> None:
    """Whole games for 3-7 players through decide: legal commands always exist, every edifice
    ends completed or failed, the log replays to the same result, notation round-trips."""
    import random

    for players in range(3, 8):
        for k in range(4):
            rng = random.Random(k)
            preset = f"{players}p_edifice" + ("_all_boards" if k % 2 else "")  # Ur and Carthage too (§12)
            events = list(GAME.setup(GAME.presets[preset], Seed(b"r%d%d" % (players, k))))
            state = replay(GAME, events)
            while GAME.result(state) is None:
                seat = rng.choice(GAME.to_act(state))
                cmds = GAME.legal_commands(state, seat)
                joins = [c for c in cmds if getattr(c, "join", False)]
                cmd = rng.choice(joins if joins and rng.random() < 0.8 else cmds)
                assert GAME.parse_command(GAME.format_command(cmd)) == cmd
                out = GAME.decide(state, seat, cmd)
                assert not isinstance(out, Rejection), (cmd, out)
                events += out
                for e in out:
                    state = GAME.evolve(state, e)
                _invariants(state)
            assert set(state.edifice_status) <= {"completed", "failed"}
            assert GAME.result(replay(GAME, events)) == GAME.result(state)


def test_views_show_the_edifices_but_not_another_seats_join() -> None:
    """§3 (the edifices are open information) and the hidden choice: a seat's participation
    is part of its choice, unseen by the others until the reveal."""
    t, other = money_changer_table(), money_changer_table()
    t.act(0, "wonder Altar join")
    other.act(0, "wonder Altar")
    mine, theirs, spectator = GAME.view(t.state, 0), GAME.view(t.state, 1), GAME.view(t.state, None)
    assert mine.choice is not None and mine.choice.join is True
    for seat, v in ((1, theirs), (None, spectator)):
        assert v.choice is None
        # exactly what they would see had seat 0 not joined
        assert msgspec.json.encode(v) == msgspec.json.encode(GAME.view(other.state, seat))
        assert v.edifices.cards == ("money_changer", "auction_house", "gold_reserves")
        assert v.edifices.pawns == (3, 3, 3)
    assert "Money Changer" in GAME.render(spectator)
    plain = GAME.view(Table(boards=BOARDS_4, plan=PLAN_4).state, None)
    assert b"edifice" not in msgspec.json.encode(plain) and b"debts" not in msgspec.json.encode(plain)


# --- each reward (§9.1, §9.2) -------------------------------------------------------------------
#
# Three players (2 pawns per card): Olympia (seat 0) and Giza (seat 2) make their own stage-1
# resources from Age I on, then both join the edifice of `age` with stage 1 in its first
# turn, which completes it. Seat 1 (Rhodes) builds a Stockade in Age I, so the other two take
# defeat tokens in the Age I conflicts. The earlier Ages' edifices (coin penalties) fail.

PLAN_REWARD = {
    (0, 1): ["lumber_yard"],
    (1, 1): ["stockade"],
    (2, 1): ["stone_pit"],
}
FILLER = {1: "money_changer", 2: "auction_house", 3: "gold_reserves"}


def reward_table(edifice: str) -> Table:
    age = EDIFICE.cards[edifice].age
    chosen = tuple(edifice if a == age else FILLER[a] for a in (1, 2, 3))
    t = Table(boards=BOARDS_3, plan=PLAN_REWARD, edifices=chosen)
    t.turn({0: "build Lumber Yard", 1: "build Stockade", 2: "build Stone Pit"})
    while t.state.age < age:
        t.finish_age()
    h0, h2 = sorted(t.state.hands[0]), sorted(t.state.hands[2])
    t.turn({0: f"wonder {h0[0]} join", 2: f"wonder {h2[0]} join"})
    assert t.state.edifice_status[age - 1] == "completed"
    return t


def test_auction_house_and_gold_reserves_pay_their_coins() -> None:
    """§9.2 Auction House (7 coins) and Gold Reserves (15), each holder, once."""
    for edifice, coins in (("auction_house", 7), ("gold_reserves", 15)):
        t = reward_table(edifice)
        done = t.of(EdificeCompleted)[0]
        assert done.holders == (0, 2) and done.coins == (coins, 0, coins)


def test_staging_camp_gives_a_victory_token_of_five() -> None:
    """§9.1 gain_victory_token: a normal conflict victory token (it scores as military)."""
    t = reward_table("staging_camp")
    assert t.state.cities[0].tokens == (-1, 5) and t.state.cities[2].tokens == (-1, 5)
    assert t.state.cities[1].tokens == (1, 1)


def test_military_school_returns_the_defeat_tokens_held_then() -> None:
    """§9.2 Military School and §14 Q5: a 5 token, and the defeat tokens held at completion
    go back; those of the later conflicts are kept."""
    t = reward_table("military_school")
    assert t.state.cities[0].tokens == (5,) and t.state.cities[2].tokens == (5,)
    assert t.of(EdificeCompleted)[0].defeats_returned == (2, 0, 2)  # Age I and II defeats
    t.finish_age()
    assert t.state.cities[0].tokens == (5, -1)  # Age III's defeat is kept (Q5)


def test_concentric_castle_adds_two_shields_from_this_ages_conflicts_on() -> None:
    """§9.1 gain_shields: permanent, counted in the current Age's conflicts."""
    t = reward_table("concentric_castle")
    assert shields(t.state.cities[0]) == 2 and shields(t.state.cities[2]) == 2
    t.finish_age()
    assert t.of(MilitaryResolved)[-1].shields == (2, 1, 2)


@pytest.mark.parametrize("edifice,options", [("river_port", "WSCO"), ("factory", "GLP")])
def test_river_port_and_factory_produce_one_of_their_resources_never_sold(edifice: str, options: str) -> None:
    """§9.1 produce_one_of and §14 Q6: one unit of a listed type each turn from the next,
    for the holder only (neighbours cannot buy it)."""
    t = reward_table(edifice)
    city = t.state.cities[0]
    before = replace(city, rewards=())
    for r in options:
        i = RESOURCES.index(r)
        assert max(v[i] for v in info(city).own) == max(v[i] for v in info(before).own) + 1
    assert info(city).sell == info(before).sell


@pytest.mark.parametrize("edifice", ["amphitheater", "archives", "artisan_district"])
def test_end_game_rewards_count_the_final_city(edifice: str) -> None:
    """§7, §9.2: Amphitheater 1 VP per blue card, Archives 1 VP per distinct colour, Artisan
    District 2 VP per brown-grey pair (the X row's recommended value), on the final city."""
    t = reward_table(edifice)
    ended = t.finish()
    city = t.state.cities[0]
    colours = {CATALOG.cards[c].color for c in city.built}
    want = {"amphitheater": count(city, "blue"), "archives": len(colours),
            "artisan_district": 2 * min(count(city, "brown"), count(city, "grey"))}[edifice]
    assert ended.scores[0][-1] == want + sum(city.debts)
    assert city.rewards == (edifice,)
    assert "brown" in colours  # the Lumber Yard: Archives counts at least one colour


def test_agora_repeats_the_own_guild_that_scores_most() -> None:
    """§9.1 repeat_own_guild and §14 Q8: one purple card of the holder's own city applies
    once more (its points on the edifice line); the Scientists Guild's repeat is a second
    wildcard; a neighbour's guild is never repeated."""
    from games.seven_wonders.scoring import score_city

    me = City(wonder="giza", side="A", built=("workers_guild", "traders_guild", "apothecary", "workshop"),
              rewards=("agora",))
    left = City(wonder="babylon", side="A", built=("lumber_yard", "stone_pit", "clay_pool", "spies_guild"))
    right = City(wonder="rhodes", side="A", built=("ore_vein", "marketplace"))
    cities = (me, left, right)
    row, note = score_city(cities, 0, edifice=True)
    base, _ = score_city((replace(me, rewards=()), left, right), 0, edifice=True)
    assert row[:7] == base[:7] and base[7] == 0
    assert row[7] == 4 and "repeated: workers_guild" in note  # 4 brown cards next door beat 1 yellow
    science = replace(me, built=("scientists_guild", "apothecary", "workshop", "scriptorium"))
    row, note = score_city((science, left, right), 0, edifice=True)
    base, _ = score_city((replace(science, rewards=()), left, right), 0, edifice=True)
    assert row[7] == 0 and "repeated: scientists_guild" in note
    assert row[4] > base[4]  # a second wildcard: science scores more
    assert "spies_guild" not in note


def test_concentric_castle_failure_takes_two_victory_tokens_or_gives_the_age_iii_debt() -> None:
    """§5.2 (lose_victory_tokens), §11 and §14 Q4: Rhodes won both conflicts of Ages I and
    II (tokens 1, 1, 3, 3) and chooses which two to return; the others hold no victory
    token (defeats never count) and take the Age III debt, -5 each."""
    t = Table(boards=BOARDS_3, plan=PLAN_REWARD, edifices=("money_changer", "auction_house", "concentric_castle"))
    t.turn({0: "build Lumber Yard", 1: "build Stockade", 2: "build Stone Pit"})
    while not any(f.age == 3 for f in t.of(EdificeFailed)):  # no other decision on these boards
        t.turn()
    assert GAME.to_act(t.state) == (1,) and t.state.age == 3
    failed = t.of(EdificeFailed)[-1]
    assert failed.age == 3 and failed.debts == (-5, 0, -5) and failed.owed == (1,)
    assert t.state.cities[1].tokens == (1, 1, 3, 3)
    assert [GAME.format_command(c) for c in GAME.legal_commands(t.state, 1)] == [
        "return tokens 1 1", "return tokens 1 3", "return tokens 3 3"]
    assert code(t.act(1, "return tokens 5 5")) == "not_eligible"
    t.act(1, "return tokens 1 1")
    assert t.of(EdificePenaltyPaid)[-1].tokens == (1, 1)
    assert t.state.cities[1].tokens == (3, 3, 5, 5)  # then the Age III conflicts


# Two cities with two red structures each when Outpost (Age I, give up a red one) fails.
BOARDS_RED2 = ["olympia", "babylon", "rhodes", "giza"]
PLAN_RED2 = {
    (0, 1): ["stockade", "guard_tower"],  # wood of its own, clay bought from Babylon
    (1, 1): ["guard_tower", "barracks"],  # clay of its own, ore bought from Rhodes
}


def two_owe() -> Table:
    t = Table(boards=BOARDS_RED2, plan=PLAN_RED2, edifices=("outpost", "auction_house", "gold_reserves"))
    t.turn({0: "build Stockade", 1: "build Guard Tower"})
    t.turn({0: "build Guard Tower pay cheapest", 1: "build Barracks pay cheapest"})
    while not t.of(EdificeFailed):
        t.turn()
    return t


def test_penalty_choices_are_made_at_once_and_hidden_until_all_are_in() -> None:
    """§5.2 B6: "Penalties are resolved simultaneously; no penalty depends on another
    player's penalty." Both penalised seats choose at once; the first choice changes
    nothing anyone else sees (nor the chooser's city) until the last one is in; then both
    are paid, in seat order, before the conflicts (B1), which count the cities without."""
    t = two_owe()
    failed = t.of(EdificeFailed)[0]
    assert failed.owed == (0, 1) and failed.debts == (0, 0, -2, -2)
    assert GAME.to_act(t.state) == (0, 1)
    assert GAME.view(t.state, 0).pending == GAME.view(t.state, 1).pending == "edifice_penalty"
    assert GAME.view(t.state, 2).pending is None
    def others() -> dict:  # who still has to choose is public, as in a turn (to_act)
        return {s: replace(GAME.view(t.state, s), to_act=()) for s in (None, 1, 2, 3)}

    before = others()
    got = t.act(0, "give up Stockade")
    assert [type(e).__name__ for e in got] == ["EdificePenaltyChosen"]
    assert others() == before  # what seat 0 chose shows nowhere
    assert "stockade" in t.state.cities[0].built and not t.of(MilitaryResolved)
    assert GAME.to_act(t.state) == (1,) and GAME.view(t.state, 0).pending is None
    mine = GAME.view(t.state, 0)  # the chooser sees its own choice, and only it does
    assert mine.penalty_choice == "give up Stockade" and "your penalty choice: give up Stockade" in GAME.render(mine)
    # absent from every other view document, which stay byte for byte as before
    assert b"penalty_choice" not in msgspec.json.encode(GAME.view(t.state, 1))
    assert code(t.act(0, "give up Guard Tower")) == "not_your_turn"  # one choice each
    assert code(t.act(1, "give up Stockade")) == "not_eligible"
    got = t.act(1, "give up Barracks")
    paid = [e for e in got if isinstance(e, EdificePenaltyPaid)]
    assert [(p.seat, p.card) for p in paid] == [(0, "stockade"), (1, "barracks")]
    assert got.index(paid[-1]) < got.index(t.of(MilitaryResolved)[0])
    assert t.of(MilitaryResolved)[0].shields == (1, 1, 0, 0)  # one Guard Tower each left


def test_a_rules_version_1_log_that_paid_penalties_one_by_one_still_folds() -> None:
    """Logs written before B6 was followed open a decision per penalised seat and pay it at
    once (DecisionOpened, EdificePenaltyPaid, ...): they fold to the same state as the same
    choices made at once, and a game stopped between the two goes on under today's rules."""
    t = two_owe()
    prefix = list(t.events)
    t.act(0, "give up Stockade")
    t.act(1, "give up Barracks")
    now = t.events[len(prefix):]
    paid = [e for e in now if isinstance(e, EdificePenaltyPaid)]
    rest = now[now.index(paid[-1]) + 1:]
    old = prefix + [DecisionOpened(seat=0, kind="edifice_penalty"), paid[0],
                    DecisionOpened(seat=1, kind="edifice_penalty"), paid[1], *rest]
    assert replay(GAME, old) == replay(GAME, t.events)
    # stopped with seat 0's decision open (version 1), then played on with today's code
    mid = Table(boards=BOARDS_RED2, plan=PLAN_RED2, edifices=("outpost", "auction_house", "gold_reserves"))
    mid.events = prefix + [DecisionOpened(seat=0, kind="edifice_penalty")]
    mid.state = replay(GAME, mid.events)
    assert GAME.to_act(mid.state) == (0,)
    mid.act(0, "give up Stockade")
    assert GAME.to_act(mid.state) == (1,)
    mid.act(1, "give up Barracks")
    assert mid.state == t.state
