"""Turn structure and resolution: §2, §3, §4, §7; rejections of `decide`."""

from __future__ import annotations

import msgspec

from games.contract import Rejection
from games.seven_wonders import GAME
from games.seven_wonders.commands import Build, BuildFromDiscard, BuildStage, Decline, Discard
from games.seven_wonders.events import (
    AgeStarted,
    CardChosen,
    GameEnded,
    HandsPassed,
    LastCardsDiscarded,
    MilitaryResolved,
    TurnResolved,
)

from .table import Table


def code(got) -> str | None:
    return got.code if isinstance(got, Rejection) else None


# --- setup -------------------------------------------------------------------------------


def test_setup_deals_seven_cards_and_three_coins() -> None:
    """§2.5, §3: 7 cards to every player at the start of an age; 3 coins each."""
    t = Table(n=5)
    assert [len(h) for h in t.state.hands] == [7] * 5
    assert t.coins() == (3,) * 5
    assert (t.state.age, t.state.turn) == (1, 1)
    assert t.state.discard == ()


# --- simultaneous choice ---------------------------------------------------------------------


def test_choices_are_hidden_until_everybody_has_chosen() -> None:
    """§3 step 1, §7 step 1: each player secretly picks a card; until the reveal the other
    seats and spectators only see that a choice was made, never which."""
    t = Table(plan={(0, 1): ["baths"]})
    ev = t.act(0, "build Baths")
    assert [type(e) for e in ev] == [CardChosen]
    assert t.city(0).built == () and "baths" in t.state.hands[0]
    mine = GAME.view(t.state, 0)
    assert mine.choice is not None and mine.choice.card == "baths"
    for seat in (1, 2, None):
        v = GAME.view(t.state, seat)
        assert v.choice is None
        assert v.cities[0].chosen is True and v.cities[1].chosen is False
        assert b"baths" not in msgspec.json.encode(v)  # the one Baths is in seat 0's hand
    assert GAME.to_act(t.state) == (1, 2)


def test_all_choices_are_revealed_together() -> None:
    """§3 step 2, §7 steps 3-5: the last choice reveals and resolves every choice at once."""
    t = Table(plan={(0, 1): ["baths"], (1, 1): ["altar"]})
    assert [type(e) for e in t.act(0, "build Baths")] == [CardChosen]
    assert [type(e) for e in t.act(1, "build Altar")] == [CardChosen]
    ev = t.act(2, t.filler(2))
    assert [type(e) for e in ev] == [CardChosen, TurnResolved, HandsPassed]
    (tr,) = [e for e in ev if isinstance(e, TurnResolved)]
    assert sorted(p.seat for p in tr.plays) == [0, 1, 2]
    assert t.city(0).built == ("baths",) and t.city(1).built == ("altar",)


def test_a_seat_cannot_choose_twice_in_a_turn() -> None:
    """§3: one card per player per turn."""
    t = Table(plan={(0, 1): ["baths", None], (2, 1): [None, None]})
    t.act(0, t.filler(0))
    assert code(t.act(0, t.filler(0))) == "already_chosen"


def test_only_seats_that_owe_a_decision_may_act() -> None:
    """§11.7: while Halicarnassus decides, nobody else acts."""
    t = Table(boards=["halicarnassus", "rhodes", "giza"], sides="BAA", plan={(0, 1): ["ore_vein"]})
    t.turn({0: "build Ore Vein"})
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})
    assert code(t.act(1, t.filler(1))) == "not_your_turn"


# --- hands, passing and the 7th card ------------------------------------------------------


def test_hands_pass_left_in_age_1_right_in_age_2_left_in_age_3() -> None:
    """§0, §3: Age I to the LEFT (seat i gives to i+1), Age II to the RIGHT, Age III LEFT."""
    t = Table(n=4)
    for age, direction in ((1, "left"), (2, "right"), (3, "left")):
        before = t.state.hands
        ev = t.turn()
        played = {p.seat: p.card for p in next(e for e in ev if isinstance(e, TurnResolved)).plays}
        rest = [list(h) for h in before]
        for s, c in played.items():
            rest[s].remove(c)
        assert [e.direction for e in ev if isinstance(e, HandsPassed)] == [direction]
        for s in range(4):
            giver = (s - 1) % 4 if direction == "left" else (s + 1) % 4
            assert sorted(t.state.hands[s]) == sorted(rest[giver])
        t.finish_age()
        assert t.state.age == age + 1 or t.state.phase == "over"


def test_hand_sizes_go_from_seven_to_two() -> None:
    """§3: hand sizes 7 at turn 1, 6 at turn 2, ... 2 at turn 6."""
    t = Table()
    sizes = []
    for _ in range(6):
        sizes.append(len(t.state.hands[0]))
        t.turn()
    assert sizes == [7, 6, 5, 4, 3, 2]


def test_the_7th_card_is_discarded_without_coins() -> None:
    """§3: turn 6: the other card goes to the discard pile, no coins, not passed."""
    t = Table()
    t.turns(5)
    hands = t.state.hands
    coins = t.coins()
    ev = t.turn()
    (last,) = [e for e in ev if isinstance(e, LastCardsDiscarded)]
    (tr,) = [e for e in ev if isinstance(e, TurnResolved)]
    played = {p.seat: p.card for p in tr.plays}
    for s in range(3):
        (rest,) = [c for c in hands[s] if c != played[s]] if hands[s][0] != hands[s][1] else [hands[s][0]]
        assert last.cards[s] == rest
        assert rest in t.state.discard
    assert tr.coins == (3, 3, 3)  # the 6th cards' discards only
    assert t.coins() == tuple(c + 3 for c in coins)
    assert not [e for e in ev if isinstance(e, HandsPassed)]


def test_an_age_has_six_turns_and_the_game_three_ages() -> None:
    """§3: exactly 6 turns per age, three ages, then military and the end of the game."""
    t = Table(n=4)
    end = t.finish()
    assert isinstance(end, GameEnded)
    resolved = [(e.age, e.turn) for e in t.of(TurnResolved)]
    assert resolved == [(a, k) for a in (1, 2, 3) for k in range(1, 7)]
    assert [e.age for e in t.of(AgeStarted)] == [1, 2, 3]
    assert [e.age for e in t.of(MilitaryResolved)] == [1, 2, 3]
    assert isinstance(t.events[-1], GameEnded)
    assert t.events[-2] == t.of(MilitaryResolved)[-1]
    assert GAME.to_act(t.state) == ()
    # 3 ages x 7 cards x 4 seats all accounted for: structures, stage cards, discards
    placed = sum(len(c.built) + len(c.stage_cards) for c in t.state.cities) + len(t.state.discard)
    assert placed == 3 * 7 * 4


def test_discard_gives_three_coins_always_legal() -> None:
    """§4 C: discarding is always legal and gives 3 coins from the bank."""
    t = Table(plan={(0, 1): ["baths"]})
    assert Discard(card="baths") in GAME.legal_commands(t.state, 0)
    ev = t.turn({0: "discard Baths"})
    (tr,) = [e for e in ev if isinstance(e, TurnResolved)]
    assert tr.coins[0] == 3 and "baths" in t.state.discard


# --- rejections --------------------------------------------------------------------------


def test_card_not_in_hand() -> None:
    """§3: the chosen card must be in the seat's hand."""
    t = Table(plan={(1, 1): ["baths"]})
    assert code(t.act(0, "build Baths")) == "card_not_in_hand"
    assert code(t.act(0, "discard Baths")) == "card_not_in_hand"
    assert code(t.act(0, "wonder Baths")) == "card_not_in_hand"


def test_game_over_rejects_everything() -> None:
    """§9: after the final scoring nobody acts."""
    t = Table()
    t.finish()
    for cmd in (Discard(card="baths"), Decline(), Build(card="palace")):
        assert code(GAME.decide(t.state, 0, cmd)) == "game_over"
    assert GAME.legal_commands(t.state, 0) == []


def test_wonder_complete() -> None:
    """§4 B: each stage only once; with all stages built action B is unavailable."""
    t = Table(boards=["rhodes", "giza", "babylon"], sides="BAA",
              plan={(0, 1): ["stone_pit", "timber_yard", None, "ore_vein"], (0, 2): ["foundry"]})
    t.play([{0: "build Stone Pit"}, {0: "build Timber Yard"}])
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})
    t.turn({0: "build Ore Vein"})
    t.finish_age()
    t.turn({0: "build Foundry"})
    t.turn({0: f"wonder {t.filler(0).split()[1]}"})
    assert t.city(0).stages == 2
    assert code(t.act(0, f"wonder {t.filler(0).split()[1]}")) == "wonder_complete"
    assert not [c for c in GAME.legal_commands(t.state, 0) if isinstance(c, BuildStage)]


def test_free_build_unavailable_without_olympia_a() -> None:
    """§11.6: only Olympia A stage 2 gives a free build."""
    t = Table(boards=["giza", "olympia", "babylon"], sides="ABA", plan={(0, 1): ["baths"]})
    assert code(t.act(0, "build Baths free")) == "free_build_unavailable"


def test_no_such_payment_and_bad_payment() -> None:
    """§6: a named payment must be one of the ways to pay; both sides must be named."""
    t = Table(boards=["giza", "olympia", "babylon"], plan={(0, 1): ["stockade", "baths"]})
    assert code(t.act(0, "build Stockade pay left 0 right 2")) == "no_such_payment"  # W is on the LEFT
    assert code(t.act(0, "build Stockade pay left 1 right 0")) == "no_such_payment"
    assert code(GAME.decide(t.state, 0, Build(card="stockade", left=2))) == "bad_payment"
    assert not isinstance(t.act(0, "build Stockade pay left 2 right 0"), Rejection)


def test_paying_for_a_free_card_is_no_such_payment() -> None:
    """§5.1: a free card costs nothing; a purchase for it is no way to pay."""
    t = Table(plan={(0, 1): ["altar"]})
    assert code(t.act(0, "build Altar pay left 2 right 0")) == "no_such_payment"
    assert not isinstance(t.act(0, "build Altar pay left 0 right 0"), Rejection)


def test_cannot_afford() -> None:
    """§6: nobody sells the resource -> cannot_afford."""
    t = Table(boards=["giza", "olympia", "babylon"], plan={(0, 1): ["workshop"]})
    assert code(t.act(0, "build Workshop")) == "cannot_afford"
    assert not [c for c in GAME.legal_commands(t.state, 0) if isinstance(c, Build) and c.card == "workshop"]


def test_discard_pile_commands_need_a_pending_decision() -> None:
    """§11.7: building from the pile or declining only answers Halicarnassus' decision."""
    t = Table()
    assert code(GAME.decide(t.state, 0, BuildFromDiscard(card="baths"))) == "no_pending_decision"
    assert code(GAME.decide(t.state, 0, Decline())) == "no_pending_decision"


def test_every_legal_command_is_accepted() -> None:
    """§7 step 2: legal_commands and decide agree at the start of a game."""
    t = Table(n=3)
    for seat in range(3):
        for cmd in GAME.legal_commands(t.state, seat):
            assert not isinstance(GAME.decide(t.state, seat, cmd), Rejection), cmd


def test_stage_cards_and_the_discard_pile_stay_hidden() -> None:
    """§2.7, §4 B: the card under a stage stays hidden and the discard pile is face down:
    no other seat's view (nor a spectator's) names them; only counts are public."""
    t = Table(boards=["giza", "babylon", "olympia"], plan={(0, 1): ["stone_pit", "baths"], (1, 1): [None, "altar"]})
    t.turn({0: "build Stone Pit"})
    t.turn({0: "wonder Baths", 1: "discard Altar"})
    assert t.city(0).stages == 1 and "altar" in t.state.discard
    for seat in (1, 2, None):
        v = GAME.view(t.state, seat)
        blob = msgspec.json.encode(v)
        assert b"baths" not in blob and b"altar" not in blob
        assert v.cities[0].stages == 1 and v.discard_size == len(t.state.discard)
    assert b"baths" not in msgspec.json.encode(GAME.view(t.state, 0))


def test_the_commands_legal_commands_builds_by_position_are_the_ones_named_by_field() -> None:
    """`legal_commands` builds its commands positionally (about three times faster than by
    keyword): a reordered field of Build, BuildStage or Discard would list other commands
    than the rules mean, so the order it relies on is pinned here."""
    assert Build("scriptorium", 1, 2, False, True) == Build(card="scriptorium", left=1, right=2, free=False,
                                                            free_city=True)
    assert Build("scriptorium", None, None, True, False) == Build(card="scriptorium", free=True)
    assert BuildStage("loom", 2, 1, True, False, 3) == BuildStage(card="loom", left=2, right=1, free_city=True,
                                                                  join=False, option=3)
    assert BuildStage("loom", 0, 0, False, True, None) == BuildStage(card="loom", left=0, right=0, join=True)
    assert Discard("loom", True) == Discard(card="loom", free_city=True)
