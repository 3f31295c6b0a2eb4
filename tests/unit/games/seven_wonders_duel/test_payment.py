"""Costs, trading, chains, reductions: §6, §14 examples 1 and 2."""

from __future__ import annotations

from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.commands import BuildCard, DiscardCard
from games.seven_wonders_duel.payment import prices, profile, supply, trade_cost
from games.seven_wonders_duel.events import CardBuilt

from .table import Table


def need(card: str):
    return CATALOG.spec[card].need


def test_example_1_trading_with_one_of_production_and_fixed_prices() -> None:
    """§14 example 1: stone 5, wood 3; Caravansery as stone -> 8 coins; with Stone Reserve -> 2."""
    p1 = profile(("quarry", "logging_camp", "caravansery"))
    p2 = profile(("shelf_quarry", "stone_pit", "lumber_yard", "forum"))
    # P2's Great Lighthouse and Forum are "one of" sources: they never raise P1's prices (§6.3)
    assert prices(p1.fixed, p2.produce) == (3, 2, 5, 2, 2)
    assert trade_cost(need("town_hall"), p1.supply, p2) == 8
    rich = profile(("quarry", "logging_camp", "caravansery", "stone_reserve"))
    assert trade_cost(need("town_hall"), rich.supply, p2) == 2


def test_example_2_masonry_drops_the_two_most_expensive_units() -> None:
    """§14 example 2: Palace with 1W 1C 1S produced, glass at 4: 8 coins, 0 with Masonry."""
    p1 = profile(("lumber_yard", "clay_pool", "quarry"))
    p2 = profile(("glassworks", "glassblower"))
    assert trade_cost(need("palace"), p1.supply, p2) == 8
    assert trade_cost(need("palace"), p1.supply, p2, waived=2) == 0


def test_reduction_larger_than_what_is_bought_is_lost() -> None:
    """§6.5: fewer than 2 units left to buy: the surplus is lost (never negative)."""
    p1 = profile(("lumber_yard", "clay_pool"))
    assert trade_cost(need("baths"), p1.supply, profile(()), waived=2) == 0


def test_one_of_wonders_help_their_owner_only() -> None:
    """§6.2: Piraeus gives glass or papyrus to its owner."""
    base = profile(())
    with_piraeus = supply(base.supply, ("piraeus",))
    assert trade_cost(need("workshop"), base.supply, base) == 2
    assert trade_cost(need("workshop"), with_piraeus, base) == 0


def test_chain_makes_a_card_free_and_urbanism_is_not_paid_without_the_token() -> None:
    """§6.4: Theater's mask makes Statue free in Age II."""
    t = Table(ages={1: {19: "theater"}, 2: {19: "statue"}})
    t.play("build Theater")
    t.finish_age(start="opponent")  # the centred pawn: the last player chooses (§9)
    if t.seat != 0:
        t.play(t.filler(avoid=("statue",)))
    out = t.play("build Statue")
    (built,) = t.of(CardBuilt, out)
    assert built.via == "chain" and built.paid == 0 and built.gained == 0


def test_building_costs_coins_and_traded_resources() -> None:
    """§6.1, §6.3: Stone Pit costs 1 coin; Baths 1 stone bought at 2 (opponent has no stone)."""
    t = Table(ages={1: {19: "stone_pit", 18: "baths"}})
    out = t.play("build Stone Pit")
    assert t.of(CardBuilt, out)[0].paid == 1
    out = t.play("build Baths")  # seat 1: opponent produces 1 stone -> 3 coins
    assert t.of(CardBuilt, out)[0].paid == 3
    assert t.coins() == (6, 4)


def test_cannot_afford_is_rejected() -> None:
    """§5 A: illegal if you cannot pay; §6.2: production never pays coin costs."""
    t = Table(ages={1: {19: "stone_reserve", 18: "wood_reserve", 17: "palisade", 14: "altar", 15: "theater"}})
    t.play("build Stone Reserve", "discard Altar", "build Wood Reserve", "discard Theater")
    assert t.coins() == (1, 11)
    out = t.act(0, "build Palisade")
    assert getattr(out, "code", None) == "cannot_afford"
    legal = GAME.legal_commands(t.state, 0)
    assert BuildCard(card="palisade") not in legal and DiscardCard(card="palisade") in legal
