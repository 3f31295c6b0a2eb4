"""The end of the game: docs/rules/arkadia.md §8, §12.5 and §12.6 (worked examples), §13 #18, #19, #22."""

from __future__ import annotations

import random

from games.arkadia import GAME
from games.arkadia.commands import PlaceCastlePiece
from games.arkadia.events import (
    ActionSkipped,
    CastlePiecePlaced,
    FinalRoundStarted,
    FloorCompleted,
    GameEnded,
    TurnEnded,
)
from games.arkadia.scoring import CATEGORIES, final_scores, values
from games.contract import Seed
from games.fold import replay

from .table import Table


def one_turn(t: Table, seat: int) -> list:
    """`seat` plays its turn: the first legal command at every step (castle pieces too)."""
    assert t.state.active == seat and not t.state.acted
    return finish_turn(t, seat)


def finish_turn(t: Table, seat: int) -> list:
    """The rest of `seat`'s turn: the first legal command at each step, ending without a banner."""
    out = []
    while t.state.phase == "play" and t.state.active == seat:
        cmd = GAME.legal_commands(t.state, seat)
        cmd = next((c for c in cmd if c.__class__.__name__ == "EndTurn"), cmd[0])
        out += t.ok(seat, GAME.format_command(cmd))
    return out


def example_12_6() -> Table:
    """§12.6 with A, B, C, D = seats 0-3: floor 1 is full and floor 2 holds 9 pieces; C's
    worker on 10,5 will close two houses at once."""
    t = Table(players=4, hands={0: ["residential_house red", "residential_house olive"]})
    t.do(0, "build residential_house red 10,4 r0")
    t.do(0, "build residential_house olive 10,6 r0")
    t.do(0, "workers 0 own 10,3 11,3 12,4")
    t.do(1, "workers 1 own 10,7 11,7 12,6")
    t.do(2, "workers 0 own 11,5")
    t.fill_floor(1)
    t.fill_floor(2, 9)
    t.turn_to(2)
    return t


def test_12_6_the_tenth_floor_2_piece_starts_the_final_round() -> None:
    t = example_12_6()
    t.ok(2, "workers 1 own 10,5")
    out = t.ok(2, GAME.format_command(GAME.legal_commands(t.state, 2)[0]))
    moved = t.of(FloorCompleted, out)
    assert moved[0].floor == 2 and len(moved[0].leftovers) == 2
    assert t.of(FinalRoundStarted, out) == [FinalRoundStarted(seat=2, turns=5)]
    assert sum(t.state.pools[2]) == 4 + 2 + 2
    # C's second piece of this turn goes on floor 3 (§7.1 step 6)
    cmd = GAME.legal_commands(t.state, 2)[0]
    assert isinstance(cmd, PlaceCastlePiece)
    out = t.ok(2, GAME.format_command(cmd))
    assert t.of(CastlePiecePlaced, out)[0].floor == 3
    # C finishes the turn (a banner is allowed), then D, A, B and C again, then the end
    assert GAME.parse_command("banner") in GAME.legal_commands(t.state, 2)
    t.ok(2, "end")
    order = []
    while t.state.phase == "play":
        order.append(t.state.active)
        one_turn(t, t.state.active)
    assert order == [3, 0, 1, 2]
    (ended,) = t.of(GameEnded)
    assert ended.reason == "castle"
    assert t.of(TurnEnded)[-1].seat == 2


def test_the_final_exchange_converts_every_seal_at_the_final_values() -> None:
    t = example_12_6()
    t.ok(2, "workers 1 own 10,5")
    finish_turn(t, 2)
    while t.state.phase == "play":
        one_turn(t, t.state.active)
    (ended,) = t.of(GameEnded)
    vals = values(t.state.castle)
    assert ended.values == vals and ended.categories == CATEGORIES
    for seat, sc in enumerate(t.state.screens):
        assert ended.exchanged[seat] == sc.seals
        assert ended.scores[seat] == (sc.gold, *(k * v for k, v in zip(sc.seals, vals)))
    res = GAME.result(t.state)
    assert res.totals == tuple(sum(r) for r in ended.scores)
    assert GAME.to_act(t.state) == () and GAME.legal_commands(t.state, 0) == []
    assert t.act(0, "end").code == "game_over"


def test_12_5_final_exchange_and_winner() -> None:
    vals = (3, 2, 4, 1)  # red, olive, black, silver
    scores = final_scores((52, 60), ((6, 1, 2, 5), (0, 3, 5, 0)), vals)
    assert [sum(s) for s in scores] == [85, 86]
    assert _result(scores).winners == (1,)


def test_12_5_a_tie_for_the_most_gold_is_a_shared_victory() -> None:
    """§8 step 4, §13 #19: no tie-breaker."""
    scores = final_scores((52, 59, 10), ((6, 1, 2, 5), (0, 3, 5, 0), (0, 0, 0, 0)), (3, 2, 4, 1))
    res = _result(scores)
    assert [sum(s) for s in scores] == [85, 85, 10]
    assert res.winners == (0, 1) and res.ranks == (1, 1, 3)


def _result(scores):
    t = Table(players=len(scores))
    t.given(GameEnded(reason="castle", values=(0, 0, 0, 0), exchanged=((0, 0, 0, 0),) * len(scores),
                      categories=CATEGORIES, scores=scores))
    return GAME.result(t.state)


def test_a_full_round_without_a_mandatory_action_ends_the_game() -> None:
    """§8 [R] stalemate safeguard: a full round of skipped turns ends the game with the
    final exchange (random 2-player games run out of cards and workers this way)."""
    for seed in range(40):
        rng = random.Random(seed)
        events = list(GAME.setup(GAME.presets["2p"], Seed(bytes([seed]) * 8)))
        state = replay(GAME, events)
        while GAME.result(state) is None:
            seat = GAME.to_act(state)[0]
            out = GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat)))
            events += out
            for e in out:
                state = GAME.evolve(state, e)
        if events[-1].reason == "stalemate":
            turns = [e for e in events if isinstance(e, (ActionSkipped, TurnEnded))][-4:]
            assert [type(e).__name__ for e in turns] == ["ActionSkipped", "TurnEnded"] * 2
            assert {e.seat for e in turns} == {0, 1}
            return
    raise AssertionError("no stalemate in 40 seeded 2-player games")


def test_a_seat_without_an_action_may_still_use_a_banner() -> None:
    """§8 [R], §13 #22: after the skip, the banner (or the end of the turn) is the choice."""
    t = Table(players=2)
    t.given(ActionSkipped(seat=0))
    assert [GAME.format_command(c) for c in GAME.legal_commands(t.state, 0)] == ["banner", "end"]
    out = t.ok(0, "banner")
    assert t.of(TurnEnded, out) and t.screen(0).workers == 5
