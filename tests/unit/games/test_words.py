"""Counted nouns in what players read: "1 coin", never "1 coins" (issue #29, item 6)."""

from __future__ import annotations

import re

import msgspec
import pytest

import games
from games.words import count
from tests.unit.games.test_completion import positions

ONE_PLURAL = re.compile(r"(?<![\d.])-?1 (coins|cards|pawns)\b")


def test_count_says_one_noun_and_many_nouns():
    assert [count(n, "coin") for n in (0, 1, 2, -1)] == ["0 coins", "1 coin", "2 coins", "-1 coin"]
    assert count(1, "piece", "pieces") == "1 piece" and count(3, "die", "dice") == "3 dice"


@pytest.mark.parametrize("game_id", ["seven_wonders", "seven_wonders_duel"])
def test_a_city_with_one_coin_reads_1_coin(game_id: str):
    game = games.get(game_id)
    state, _ = next(positions(game, sorted(game.presets)[0], 7, 1))
    city = state.cities[0]
    poor = msgspec.structs.replace(state, cities=(msgspec.structs.replace(city, coins=1), *state.cities[1:]))
    text = game.render(game.view(poor, None))
    assert "1 coin " in text or "1 coin," in text, text
    assert not ONE_PLURAL.search(text), text


@pytest.mark.parametrize("game_id", ["seven_wonders", "seven_wonders_duel", "arkadia", "ora_et_labora"])
def test_no_board_text_says_1_with_a_plural(game_id: str):
    game = games.get(game_id)
    preset = sorted(game.presets)[0]
    for state, _ in positions(game, preset, 3, 3):
        for seat in (None, *game.to_act(state)):
            text = game.render(game.view(state, seat))
            assert not ONE_PLURAL.search(text), text
