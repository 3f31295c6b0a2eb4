"""`stats --ratings`, `stats --move-times` and `export --format` end to end, on an embedded
Redis in a temporary folder, over bot games played by `play` (whose log names each seat's
bot kind)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.test_cli import ts

GAMES = 6


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("analytics") / "ts"
    ts("play", "--game", "seven_wonders_duel", "--games", str(GAMES), "--bots", "random,greedy", data=data)
    return data


def test_ratings_are_kept_by_the_projector_and_a_rebuild_gives_the_same(played: Path) -> None:
    live = json.loads(ts("stats", "--game", "seven_wonders_duel", "--ratings", "--json", data=played).stdout)
    assert live["games_rated"] == GAMES
    assert {p["player"]: p["games"] for p in live["players"]} == {"bot:random": GAMES, "bot:greedy": GAMES}
    assert [p["ordinal"] for p in live["players"]] == sorted((p["ordinal"] for p in live["players"]), reverse=True)
    for p in live["players"]:
        assert p["ordinal"] == pytest.approx(p["mu"] - 3 * p["sigma"]) and p["sigma"] < 25 / 3
    assert ts("projections", "rebuild", data=played).returncode == 0
    rebuilt = json.loads(ts("stats", "--game", "seven_wonders_duel", "--ratings", "--json", data=played).stdout)
    assert rebuilt == live  # the same floats: the fold is deterministic
    text = ts("stats", "--game", "seven_wonders_duel", "--ratings", data=played).stdout
    assert "bot:greedy" in text and "ordinal" in text and f"over {GAMES} games" in text
    none = ts("stats", "--game", "arkadia", "--ratings", data=played).stdout
    assert "no rated game yet" in none
