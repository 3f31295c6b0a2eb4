"""The 2-player variant with the Free City (reference §12 and §15 #13-#17)."""

from __future__ import annotations

import pytest

from games.contract import Rejection, Seed
from games.fold import replay
from games.seven_wonders import GAME
from games.seven_wonders.catalog import CATALOG
from games.seven_wonders.events import (
    FreeCityCardDrawn,
    HandsPassed,
    LastCardsDiscarded,
    Options,
    TurnResolved,
    WonderPick,
)
from games.seven_wonders.rules import holder
from games.seven_wonders.setup import Fixture

P1, P2, FC = 0, 1, 2


def _fixture(first: dict[int, list[str]] | None = None, boards=("giza", "rhodes", "babylon"),
             age2: dict[int, list[str]] | None = None, sides: str = "AAA") -> Fixture:
    """3-player decks (§12 set-up); `first[city]` (Age I) and `age2[city]` (Age II) put those
    cards at the front of that city's hand (for the Free City: the top of its pile)."""
    deals = []
    guilds = sorted(CATALOG.guilds)[:5]
    for age in (1, 2, 3):
        deck = sorted(CATALOG.deck(age, 3)) + (guilds if age == 3 else [])
        hands: list[list[str]] = [[], [], []]
        wanted = {1: first or {}, 2: age2 or {}}.get(age, {})
        for city, cards in wanted.items():
            for c in cards:
                deck.remove(c)
                hands[city].append(c)
        for h in hands:
            while len(h) < 7:
                h.append(deck.pop(0))
        deals.append(tuple(tuple(h) for h in hands))
    return Fixture(wonders=tuple(WonderPick(b, side) for b, side in zip(boards, sides)), deals=tuple(deals))


class Game:
    def __init__(self, fx: Fixture) -> None:
        self.events = list(GAME.setup(Options(players=2), fx))
        self.state = replay(GAME, self.events)

    def act(self, seat: int, text: str):
        cmd = GAME.parse_command(text)
        assert not isinstance(cmd, Rejection), cmd
        out = GAME.decide(self.state, seat, cmd)
        if not isinstance(out, Rejection):
            self.events += out
            for e in out:
                self.state = GAME.evolve(self.state, e)
        return out

    def ok(self, seat: int, text: str):
        out = self.act(seat, text)
        assert not isinstance(out, Rejection), (seat, text, out)
        return out

    def until_age(self, age: int) -> None:
        """Everybody plays their first legal command until `age` starts."""
        while self.state.age < age:
            seat = GAME.to_act(self.state)[0]
            self.ok(seat, GAME.format_command(GAME.legal_commands(self.state, seat)[0]))


def test_setup_uses_three_player_decks_a_third_board_and_three_coins_each() -> None:
    """§12 set-up: the 3-player cards (5 guilds), 7 cards per player, 7 in the Free City's
    pile, a board and 3 coins for each of the three cities; P1 draws the top pile card."""
    events = GAME.setup(GAME.presets["2p_free_city"], Seed(b"free city"))
    state = replay(GAME, events)
    assert len(state.cities) == 3 and all(c.coins == 3 for c in state.cities)
    for age in state.deals:
        assert [len(h) for h in age] == [7, 7, 7]
    assert sum(CATALOG.cards[c].guild for h in state.deals[2] for c in h) == 5
    assert isinstance(events[-1], FreeCityCardDrawn) and events[-1].seat == P1
    assert [len(h) for h in state.hands] == [8, 7, 6]
    assert state.hands[P1][-1] == state.deals[0][FC][0]


def test_the_holder_chooses_his_own_card_first_then_the_free_citys() -> None:
    """§12 'Choosing cards': first one card for his own city, then one for the Free City."""
    g = Game(_fixture({P1: ["altar", "theater"]}))
    assert GAME.to_act(g.state) == (P1, P2)
    bad = g.act(P1, "build Altar for free city")
    assert isinstance(bad, Rejection) and bad.code == "own_city_first"
    g.ok(P1, "build Altar")
    assert P1 in GAME.to_act(g.state)
    bad = g.act(P1, "build Theater")
    assert isinstance(bad, Rejection) and bad.code == "free_city_decision"
    bad = g.act(P1, "build Altar for free city")  # the card chosen for himself is gone
    assert isinstance(bad, Rejection) and bad.code == "card_not_in_hand"
    g.ok(P1, "build Theater for free city")
    g.ok(P2, GAME.format_command(GAME.legal_commands(g.state, P2)[-1]))
    resolved = [e for e in g.events if isinstance(e, TurnResolved)][0]
    built = {p.seat: p.card for p in resolved.plays}
    assert built[P1] == "altar" and built[FC] == "theater"
    assert "theater" in g.state.cities[FC].built


def test_the_free_city_discards_only_when_it_cannot_play() -> None:
    """§12 'Details' / §15 #13: the Free City may not discard a card unless it can play none."""
    g = Game(_fixture({P1: ["altar", "theater"]}))
    g.ok(P1, "build Altar")
    bad = g.act(P1, "discard Theater for free city")
    assert isinstance(bad, Rejection) and bad.code == "free_city_must_play"
    assert all(type(c).__name__ != "Discard" for c in GAME.legal_commands(g.state, P1))


def test_a_free_city_chain_must_be_used() -> None:
    """§12 'Rules for the Free City': a card the Free City can chain must be built through
    the chain (not used for a stage, not discarded)."""
    g = Game(_fixture({P1: ["altar", "baths"]}, age2={P2: ["walls", "aqueduct"]}))
    g.ok(P1, "build Altar")
    g.ok(P1, "build Baths for free city")  # the Free City (Babylon, clay) buys Giza's stone
    g.ok(P2, GAME.format_command(GAME.legal_commands(g.state, P2)[0]))
    assert "baths" in g.state.cities[FC].built
    g.until_age(2)
    assert holder(g.state) == P2 and "aqueduct" in g.state.hands[P2]
    g.ok(P2, "discard Walls")
    offered = [c for c in GAME.legal_commands(g.state, P2) if c.card == "aqueduct"]
    assert [type(c).__name__ for c in offered] == ["Build"] and (offered[0].left, offered[0].right) == (0, 0)
    bad = g.act(P2, "discard Aqueduct for free city")
    assert isinstance(bad, Rejection) and bad.code == "free_city_must_chain"
    bad = g.act(P2, "wonder Aqueduct for free city")  # (its stage is unaffordable here anyway)
    assert isinstance(bad, Rejection) and bad.code in ("free_city_must_chain", "cannot_afford")
    g.ok(P2, "build Aqueduct for free city")


def test_hands_are_swapped_and_the_free_city_card_alternates() -> None:
    """§12 'Moving on' and 'End of an age': hands swap each turn, the Free City card goes to
    the other player; Ages I and III start with P1 (left of the Free City), Age II with P2."""
    state = replay(GAME, GAME.setup(GAME.presets["2p_free_city"], Seed(b"alternate")))
    seen: dict[tuple[int, int], int] = {}
    import random

    rng = random.Random(3)
    events = []
    while GAME.result(state) is None:
        seen[(state.age, state.turn)] = holder(state)
        seat = rng.choice(GAME.to_act(state))
        out = GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat)))
        events += out
        for e in out:
            state = GAME.evolve(state, e)
    assert [seen[(1, t)] for t in range(1, 7)] == [P1, P2, P1, P2, P1, P2]
    assert [seen[(2, t)] for t in range(1, 7)] == [P2, P1, P2, P1, P2, P1]
    assert [seen[(3, t)] for t in range(1, 7)] == [P1, P2, P1, P2, P1, P2]
    assert all(e.direction == "swap" for e in events if isinstance(e, HandsPassed))
    # each age: 18 cards played (6 per city) and the three last cards discarded (card flow check)
    last = [e for e in events if isinstance(e, LastCardsDiscarded)]
    assert len(last) == 3 and all(len([c for c in e.cards if c]) == 3 for e in last)
    for city in state.cities:
        assert len(city.built) + len(city.stage_cards) + 0 <= 18


def test_the_free_city_is_not_a_player_and_cannot_win() -> None:
    """§12 'End of the game' / §15 #17: only the two players are ranked."""
    state = replay(GAME, GAME.setup(GAME.presets["2p_free_city"], Seed(b"winner")))
    import random

    rng = random.Random(5)
    while GAME.result(state) is None:
        seat = rng.choice(GAME.to_act(state))
        for e in GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat))):
            state = GAME.evolve(state, e)
    res = GAME.result(state)
    assert len(res.scores) == 2 and set(res.winners) <= {P1, P2}
    assert len(state.scores) == 3  # the Free City is scored (guilds of the players count it)


def test_the_free_citys_choice_is_seen_by_its_controller_only() -> None:
    """§12 / hidden information: the other player sees that it has chosen, not what."""
    g = Game(_fixture({P1: ["altar", "theater"]}))
    g.ok(P1, "build Altar")
    g.ok(P1, "build Theater for free city")
    assert GAME.view(g.state, P1).free_city_choice is not None
    assert GAME.view(g.state, P2).free_city_choice is None
    assert GAME.view(g.state, None).free_city_choice is None
    assert GAME.view(g.state, P2).cities[FC].chosen is True


@pytest.mark.parametrize("text", ["build Baths pay cheapest for free city", "discard Tavern for free city",
                                  "wonder Loom pay left 1 right 0 for free city", "decline for free city",
                                  "build Temple from discard for free city"])
def test_free_city_notation_round_trips(text: str) -> None:
    """Notation of §12 decisions: '... for free city'."""
    cmd = GAME.parse_command(text)
    assert not isinstance(cmd, Rejection) and cmd.free_city is True
    assert GAME.format_command(cmd) == text


FC_PILE = ["lumber_yard", "altar", "timber_yard", "theater", "clay_pool", "ore_vein", "marketplace"]


def babylon_free_city_at_its_last_card() -> Game:
    """The Free City is Babylon B and builds its stage 2 in Age I, so in turn 6 the
    controller plays the last card of its pile, a Marketplace (free), for it (§15 #16)."""
    g = Game(_fixture({P2: ["guard_tower"], FC: FC_PILE}, boards=("halicarnassus", "alexandria", "babylon"),
                      sides="AAB"))

    def spare(seat: int) -> str:
        return "discard " + next(c for c in sorted(g.state.hands[seat]) if c not in FC_PILE)

    g.ok(P1, spare(P1)); g.ok(P1, "build Lumber Yard for free city"); g.ok(P2, "build Guard Tower pay cheapest")
    g.ok(P2, spare(P2)); g.ok(P2, "wonder Altar pay cheapest for free city"); g.ok(P1, spare(P1))
    g.ok(P1, spare(P1)); g.ok(P1, "build Timber Yard for free city"); g.ok(P2, spare(P2))
    g.ok(P2, spare(P2)); g.ok(P2, "wonder Theater pay cheapest for free city"); g.ok(P1, spare(P1))
    assert g.state.cities[FC].stages == 2
    while g.state.pending is None:  # turns 5 and 6: own discards, the Free City's first legal play
        seat = GAME.to_act(g.state)[0]
        cmds = GAME.legal_commands(g.state, seat)
        own = [c for c in cmds if type(c).__name__ == "Discard" and not c.free_city]
        g.ok(seat, GAME.format_command(own[0] if own else cmds[0]))
    assert (g.state.pending.kind, g.state.pending.city) == ("seventh_card", FC)
    assert g.state.hands[FC] == ("marketplace",)
    return g


def test_the_free_citys_seventh_card_follows_the_free_citys_rules() -> None:
    """§15 #16 (the controller plays the Free City's last card, mirroring Babylon B's power)
    with §12's rules for the Free City: it discards for 3 coins only when it can play none,
    so a Marketplace it can build is built; the controller sees the card it decides on."""
    g = babylon_free_city_at_its_last_card()
    seat = g.state.pending.seat
    view = GAME.view(g.state, seat)
    assert view.hand == ("marketplace",) and view.pending == "seventh_card" and view.pending_city == FC
    assert "the Free City's last card" in GAME.render(view) and "Marketplace" in GAME.render(view)
    assert [GAME.format_command(c) for c in GAME.legal_commands(g.state, seat)] == [
        "build Marketplace pay left 0 right 0 for free city"]
    bad = g.act(seat, "discard Marketplace for free city")
    assert isinstance(bad, Rejection) and bad.code == "free_city_must_play"
    g.ok(seat, "build Marketplace for free city")
    assert "marketplace" in g.state.cities[FC].built
