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


def test_move_times_count_every_decision_of_every_seat(played: Path) -> None:
    got = json.loads(ts("stats", "--game", "seven_wonders_duel", "--move-times", "--json", data=played).stdout)
    stats = json.loads(ts("stats", "--game", "seven_wonders_duel", "--json", data=played).stdout)
    assert got["games"] == GAMES == stats["games"]
    # each seat command is one decision: as many as the games' commands
    assert got["all"]["decisions"] == round(stats["length_commands"]["mean"] * GAMES)
    assert sorted(got["seats"]) == ["0", "1"]
    assert sum(s["decisions"] for s in got["seats"].values()) == got["all"]["decisions"]
    assert 0 < got["all"]["mean_ms"] <= got["all"]["max_ms"] and got["all"]["p50_ms"] <= got["all"]["p90_ms"]
    assert json.loads(ts("stats", "--game", "seven_wonders_duel", "--move-times", "--json", "--players", "2",
                         data=played).stdout) == got  # the stats filters pick games (all of them are 2 players)
    text = ts("stats", "--game", "seven_wonders_duel", "--move-times", data=played).stdout
    assert "seat 1" in text and "p90" in text
