"""Military: §7, §14 example 3, §15 #9-10, #18; supremacy in the middle of an age."""

from __future__ import annotations

from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.events import CardBuilt, GameEnded, PawnMoved
from games.seven_wonders_duel.resolution import move_pawn
from games.seven_wonders_duel.scoring import military_points

from .table import Table


def _move(t: Table, seat: int, shields: int, opp_coins: int) -> list:
    """The events the rules write for `shields` gained by `seat`, applied to the table."""
    out: list = []
    move_pawn(t.state, seat, shields, opp_coins, out)
    for e in out:
        t.state = GAME.evolve(t.state, e)
    return out


def test_example_3_a_military_sequence_with_token_losses() -> None:
    """§14 example 3 (P1 = seat 0, P2 = seat 1 with 4 coins)."""
    t = Table()
    p2 = 4
    assert _move(t, 0, 1, p2)[0].position == 1  # Garrison
    assert _move(t, 1, 2, 7)[0].position == -1  # Walls
    assert _move(t, 0, 2, p2)[0].position == 1  # Archery Range
    (m,) = _move(t, 0, 2, p2)  # Barracks + Strategy
    assert (m.position, m.tokens, m.lost) == (3, (3,), 2)
    p2 -= m.lost
    assert _move(t, 1, 2, 7)[0].position == 1  # The Colossus
    (m,) = _move(t, 0, 3, p2)  # Siege Workshop + Strategy: zone 3-5 again, its token is gone
    assert (m.position, m.tokens, m.lost) == (4, (), 0)
    assert _move(t, 0, 1, p2)[0].position == 5  # Circus Maximus
    (m,) = _move(t, 0, 3, p2)  # Fortifications + Strategy
    assert (m.position, m.tokens, m.lost) == (8, (6,), 2)  # must lose 5, has 2 (§15 #10)
    assert military_points(t.state.pawn, 0) == 10 and military_points(t.state.pawn, 1) == 0
    assert t.state.military_tokens == (-6, -3)


def test_example_3_arsenal_instead_wins_at_once() -> None:
    t = Table()
    for seat, shields in ((0, 1), (1, 2), (0, 2), (0, 2), (1, 2), (0, 3), (0, 1)):
        _move(t, seat, shields, 7)
    out = _move(t, 0, 4, 0)
    assert out[0].position == 9 and isinstance(out[-1], GameEnded)
    assert out[-1].victory == "military" and out[-1].winners == (0,)


def test_crossing_two_zones_applies_both_tokens_two_coins_first() -> None:
    """§7, §15 #9."""
    t = Table()
    (m,) = _move(t, 1, 6, 6)
    assert (m.position, m.tokens, m.lost) == (-6, (-3, -6), 6)


def test_excess_movement_is_ignored_at_the_capital() -> None:
    t = Table()
    out = _move(t, 1, 12, 20)
    assert out[0].position == -9 and out[-1].winners == (1,)


def test_military_points_by_zone() -> None:
    """§7 table: 0 / 2 / 5 / 10 for the favoured player only."""
    assert [military_points(p, 0) for p in (0, 1, 2, 3, 5, 6, 8, -4)] == [0, 2, 2, 5, 5, 10, 10, 0]
    assert military_points(-6, 1) == 10


def test_military_supremacy_in_the_middle_of_an_age() -> None:
    """§5 immediate victories: a red card that reaches the capital ends the game at once."""
    t = Table(ages={1: {19: "guard_tower", 18: "garrison", 17: "palisade", 16: "stable", 14: "altar",
                        15: "theater"}})
    t.play("build Guard Tower", "discard Altar", "build Palisade", "discard Theater")
    for e in [PawnMoved(seat=0, shields=6, position=8, tokens=(3, 6), lost=7)]:  # a recorded fact: +8
        t.state = GAME.evolve(t.state, e)
    out = t.play("build Garrison")
    assert isinstance(out[0], CardBuilt) and isinstance(out[-1], GameEnded)
    assert out[-1].victory == "military" and GAME.result(t.state).winners == (0,)
    assert t.state.present  # cards still in the structure: mid-age
    assert GAME.to_act(t.state) == ()
