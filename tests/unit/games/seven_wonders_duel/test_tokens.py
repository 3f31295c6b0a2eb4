"""Every progress token: §13 (and §6.5, §6.6, §15 #14-15)."""

from __future__ import annotations

from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.events import CardBuilt, DecisionOpened, PawnMoved, ProgressTokenTaken, WonderBuilt
from games.seven_wonders_duel.scoring import score_sheet

from .table import Table

FRONT = {14: "altar", 15: "theater", 16: "baths", 17: "tavern", 18: "guard_tower", 19: "palisade"}


def give(t: Table, seat: int, token: str) -> None:
    """Record that `seat` holds `token` (a fact, as a science pair would write it)."""
    t.state = GAME.evolve(t.state, ProgressTokenTaken(seat=seat, token=token, source="board"))


def offer(t: Table, seat: int, *tokens: str) -> None:
    t.state = GAME.evolve(t.state, DecisionOpened(seat=seat, kind="progress_token", options=tokens))


def test_agriculture_and_urbanism_give_six_coins_others_none() -> None:
    for token, coins in (("agriculture", 6), ("urbanism", 6), ("law", 0), ("masonry", 0)):
        t = Table(ages={1: FRONT})
        offer(t, 0, "agriculture", "urbanism", "law", "masonry")
        out = t.play(f"token {token}")
        assert out[0].gained == coins and t.coins()[0] == 7 + coins, token


def test_agriculture_philosophy_and_mathematics_points() -> None:
    t = Table()
    for tok in ("agriculture", "philosophy", "mathematics"):
        give(t, 0, tok)
    assert score_sheet(t.state, 0)[5] == 4 + 7 + 3 * 3


def test_urbanism_pays_four_on_a_chain() -> None:
    """§14 example 2: Statue free through the mask: +4 coins with Urbanism."""
    t = Table(ages={1: {19: "theater"}, 2: {19: "statue"}})
    t.play("build Theater")
    give(t, 0, "urbanism")
    t.finish_age()
    if t.seat != 0:
        t.play(t.filler(avoid=("statue",)))
    out = t.play("build Statue")
    assert t.of(CardBuilt, out)[0].gained == 4


def test_masonry_and_architecture_waive_two_units() -> None:
    t = Table(ages={1: FRONT})
    give(t, 0, "masonry")
    out = t.play("build Baths")  # 1 stone: waived
    assert t.of(CardBuilt, out)[0].paid == 0
    t = Table(ages={1: FRONT})
    give(t, 0, "architecture")
    out = t.play("wonder Pyramids with Baths")  # 3S 1P at 2 each: 8, minus two units: 4
    assert t.of(WonderBuilt, out)[0].paid == 4


def test_economy_receives_what_the_opponent_pays_for_trading() -> None:
    """§6.6, §15 #14: only the traded part; coin costs go to the bank."""
    t = Table(ages={1: {**FRONT, 19: "stone_pit", 18: "garrison"}})
    give(t, 1, "economy")
    out = t.play("build Stone Pit")  # a coin cost only
    assert t.of(CardBuilt, out)[0].to_opponent == 0
    t.play("discard Altar")
    out = t.play("build Garrison")  # 1 clay bought at 2
    built = t.of(CardBuilt, out)[0]
    assert (built.paid, built.to_opponent) == (2, 2)
    assert t.coins() == (7 - 1 - 2, 9 + 2)


def test_economy_coins_arrive_before_a_military_token_takes_them() -> None:
    """§5 resolution order: pay first, then shields."""
    t = Table(ages={1: {**FRONT, 19: "garrison"}})
    give(t, 1, "economy")
    t.state = GAME.evolve(t.state, PawnMoved(seat=0, shields=2, position=2))
    out = t.play("build Garrison")
    moved = t.of(PawnMoved, out)[0]
    assert moved.tokens == (3,) and moved.lost == 2 and t.coins()[1] == 7 + 2 - 2


def test_strategy_adds_a_shield_to_red_cards_only() -> None:
    t = Table(ages={1: FRONT})
    give(t, 0, "strategy")
    out = t.play("build Guard Tower")
    assert t.of(PawnMoved, out)[0].shields == 2


def test_theology_makes_every_later_wonder_replay() -> None:
    t = Table(ages={1: FRONT})
    give(t, 0, "theology")
    t.play("discard Altar", "discard Theater")
    out = t.play("wonder Pyramids with Baths")
    assert t.of(WonderBuilt, out)[0].extra_turn


def test_law_counts_as_a_symbol() -> None:
    t = Table()
    give(t, 0, "law")
    assert "law" in t.city(0).tokens
