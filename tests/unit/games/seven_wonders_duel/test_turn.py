"""The turn: §5 (discard value, extra turns, the 7-wonder limit), §9 (end of an age)."""

from __future__ import annotations

from games.contract import Rejection
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.commands import BuildWonder
from games.seven_wonders_duel.events import (
    AgeStarted,
    CardDiscarded,
    DecisionOpened,
    TurnStarted,
    WonderBuilt,
    WonderRemoved,
)

from .table import Table


def test_discard_gives_two_coins_plus_one_per_yellow_card() -> None:
    """§5 B, §15 #23."""
    t = Table(ages={1: {19: "tavern", 18: "altar", 17: "theater", 16: "baths"}})
    t.play("build Tavern")  # +4 coins (§11.1)
    assert t.coins() == (11, 7)
    out = t.play("discard Altar")
    assert t.of(CardDiscarded, out)[0].gained == 2
    out = t.play("discard Theater")
    assert t.of(CardDiscarded, out)[0].gained == 3
    assert t.state.discard == ("altar", "theater")


def test_players_alternate_and_a_wonder_with_play_again_gives_an_extra_turn() -> None:
    """§5: The Temple of Artemis: 12 coins and an extra turn."""
    t = Table(ages={1: {19: "altar", 18: "theater", 17: "baths"}})
    t.play("discard Altar", "discard Theater")
    out = t.play("wonder Temple of Artemis with Baths")
    built = t.of(WonderBuilt, out)[0]
    assert built.paid == 8 and built.gained == 12 and built.extra_turn
    assert out[-1] == TurnStarted(seat=0, extra=True)
    assert t.coins() == (9 - 8 + 12, 9)
    assert t.city(0).tucked == ("baths",) and "baths" not in t.state.discard


def _to_last_card(t: Table) -> None:
    while bin(t.state.present).count("1") > 1:
        t.play(t.filler())


def test_extra_turn_on_the_last_card_of_an_age_is_lost() -> None:
    """§5, §15 #3: the age ends; the last active player (pawn centred) chooses who starts."""
    t = Table()
    _to_last_card(t)
    seat = t.seat
    wonder = "Temple of Artemis" if seat == 0 else "Piraeus"
    (card,) = t.accessible()
    out = t.play(f"wonder {wonder} with {card}")
    assert t.of(WonderBuilt, out)[0].extra_turn
    assert not t.of(TurnStarted, out)
    assert out[-1] == DecisionOpened(seat=seat, kind="choose_start")
    assert GAME.legal_commands(t.state, seat) == [GAME.parse_command("choose start me"),
                                                  GAME.parse_command("choose start opponent")]
    out = t.play("choose start opponent")
    assert out == [AgeStarted(age=2, seat=1 - seat, chosen_by=seat)]
    assert t.seat == 1 - seat and t.state.age == 2


def test_the_weaker_player_chooses_who_starts_the_next_age() -> None:
    """§9: the pawn on seat 1's half (seat 0 ahead): seat 1 chooses."""
    t = Table(ages={1: {19: "guard_tower"}})
    t.play("build Guard Tower")
    _to_last_card(t)
    out = t.play(t.filler())
    assert out[-1] == DecisionOpened(seat=1, kind="choose_start")
    assert t.act(0, "choose start me").code == "not_your_turn"
    t.play("choose start me")
    assert t.seat == 1


def test_seventh_wonder_removes_the_last_one() -> None:
    """§5, §15 #22: at most 7 wonders; the remaining one leaves the game at once."""
    t = Table()
    t.finish_age()
    removed = []
    while t.state.phase == "play" and not removed:
        seat = t.seat
        cmds = GAME.legal_commands(t.state, seat)
        wonders = [c for c in cmds if isinstance(c, BuildWonder)]
        out = t.play(GAME.format_command(wonders[0] if wonders else cmds[-1] if t.state.pending else
                                         next(c for c in cmds if type(c).__name__ == "DiscardCard")))
        removed = t.of(WonderRemoved, out)
    (gone,) = removed
    assert sum(len(c.built) for c in t.state.cities) == 7
    assert t.state.wonders_out == (gone.wonder,) and not t.city(0).wonders and not t.city(1).wonders
    if t.state.pending is None and t.state.phase == "play":  # the owner may never build it
        out = GAME.decide(t.state, t.seat, BuildWonder(wonder=gone.wonder, card=t.accessible()[0]))
        assert isinstance(out, Rejection)
        assert out.code == "wonder_removed"
    assert all(not isinstance(c, BuildWonder) for s in (0, 1) for c in GAME.legal_commands(t.state, s))
