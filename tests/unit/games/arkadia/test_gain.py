"""The greedy bot's heuristic: rules.gain tells what a command brings the acting seat at
once (issue #4; completions with payouts, §6; castle values, §7.2; exchanges, §5.3)."""

from __future__ import annotations

from games.arkadia import GAME
from games.arkadia.rules import Gain, gain

from .test_castle import two_at_once
from .test_completion import example_12_2


def test_gain_of_a_completion() -> None:
    t = example_12_2()
    g = gain(t.state, 2, GAME.parse_command("workers 0 own 11,6"))
    assert g == Gain(completed=1, seals=(3, 0, 0, 0), gold=0, workers=0, value=6)  # 3 red at value 2


def test_gain_of_a_double_completion_and_of_a_castle_piece() -> None:
    t = two_at_once()
    g = gain(t.state, 2, GAME.parse_command("workers 1 own 10,5"))
    assert g.completed == 2 and g.seals == (3, 3, 0, 0) and g.value == 12
    t.ok(2, "workers 1 own 10,5")
    # a red piece on an unmarked square raises red by 1: 3 red seals gain 3
    assert gain(t.state, 2, GAME.parse_command("castle red 4")).value == 3
    # a red piece on a printed olive square: red +1, olive -1
    assert gain(t.state, 2, GAME.parse_command("castle red 1")).value == 0


def test_gain_of_a_plain_move_and_of_a_rejection() -> None:
    t = example_12_2()
    assert gain(t.state, 2, GAME.parse_command("workers 1 own 7,2")).completed == 0
    assert gain(t.state, 0, GAME.parse_command("end")).code == "not_your_turn"
