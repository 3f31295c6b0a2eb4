"""`stats --ratings`, `stats --move-times` and `export --format` end to end, on an embedded
Redis in a temporary folder, over bot games played by `play` (whose log names each seat's
bot kind)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
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


def _stats(played: Path) -> dict:
    return json.loads(ts("stats", "--game", "seven_wonders_duel", "--json", data=played).stdout)


def test_table_exports_round_trip_the_counts_and_sums_of_stats(played: Path, tmp_path: Path) -> None:
    stats = _stats(played)
    seats = 2 * stats["games"]  # Duel: two seats a game
    for fmt in ("jsonl", "csv", "parquet"):
        out = tmp_path / fmt
        said = json.loads(ts("export", "--format", fmt, "--game", "seven_wonders_duel", "--out", str(out),
                             data=played).stdout)
        assert said["games"] == stats["games"] == GAMES and said["rows"]["seats"] == seats
        tables = {name: _read(fmt, out / f"{name}.{fmt}") for name in ("games", "seats", "scores", "commands")}
        assert len(tables["games"]) == GAMES and len(tables["seats"]) == seats
        for category, m in stats["categories"].items():  # per category: the stats mean times the seats
            points = sum(int(r["points"]) for r in tables["scores"] if r["category"] == category)
            assert points == round(m["mean"] * seats), (fmt, category)
        assert sum(int(r["total"]) for r in tables["seats"]) == round(stats["total"]["mean"] * seats)
        assert len(tables["commands"]) == round(stats["length_commands"]["mean"] * GAMES)
        assert sum(int(r["events"]) for r in tables["games"]) == round(stats["length_events"]["mean"] * GAMES)
        wins = sum(str(r["won"]) in ("True", "true") for r in tables["seats"])
        assert wins == sum(c["wins"] for c in stats["by_facet"]["start"].values())
        assert {r["player"] for r in tables["seats"]} == {"bot:random", "bot:greedy"}
    one = json.loads(ts("export", tables["games"][0]["game_id"], "--format", "jsonl", "--out", str(tmp_path / "one"),
                        data=played).stdout)
    assert one["games"] == 1 and one["rows"]["seats"] == 2
    none = json.loads(ts("export", "--format", "csv", "--game", "seven_wonders_duel", "--option", "wonders=first_game",
                         "--out", str(tmp_path / "none"), data=played).stdout)
    assert none["games"] == 0 and (tmp_path / "none" / "games.csv").read_text().count("\n") == 1  # a header only


def _read(fmt: str, path: Path) -> list[dict]:
    if fmt == "jsonl":
        return [json.loads(x) for x in path.read_text().splitlines()]
    if fmt == "csv":
        with path.open(newline="") as f:
            return list(csv.DictReader(f))
    return pq.read_table(path).to_pylist()


def test_readme_duckdb_query_over_the_parquet_files(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    ts("export", "--format", "parquet", "--all", "--out", str(out), data=played)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    sql = readme.split("<!-- duckdb query: tests/e2e/test_cli_analytics.py -->\n```sql\n", 1)[1].split("```", 1)[0]
    got = duckdb.sql(sql.replace("'export/", f"'{out}/")).fetchall()
    stats = _stats(played)
    by_player = {row[0]: row for row in got}
    assert set(by_player) == {"bot:random", "bot:greedy"} and sum(r[1] for r in got) == 2 * GAMES
    assert sum(r[1] * r[2] for r in got) == round(stats["total"]["mean"] * 2 * GAMES)  # games x mean total


def test_bgstats_export_has_one_play_per_game_with_its_scores_and_winners(played: Path, tmp_path: Path) -> None:
    f = tmp_path / "bgstats.json"
    ts("export", "--format", "bgstats", "--game", "seven_wonders_duel", "--out", str(f), data=played)
    doc = json.loads(f.read_text())
    stats = _stats(played)
    assert doc["games"] == [{"id": 1, "uuid": doc["games"][0]["uuid"], "name": "7 Wonders Duel", "bggId": 173346,
                             "bggYear": 0, "highestWins": True, "noPoints": False, "cooperative": False,
                             "usesTeams": False}]
    assert len(doc["plays"]) == GAMES and {p["name"] for p in doc["players"]} == {"random bot", "greedy bot"}
    scores = [s for p in doc["plays"] for s in p["playerScores"]]
    assert sum(int(s["score"]) for s in scores) == round(stats["total"]["mean"] * 2 * GAMES)
    assert all(sum(s["winner"] for s in p["playerScores"]) >= 1 for p in doc["plays"])
    assert len({p["uuid"] for p in doc["plays"]}) == GAMES  # stable ids, one per game


def test_export_refuses_what_it_cannot_export(played: Path) -> None:
    new = json.loads(ts("new", "--game", "seven_wonders_duel", data=played).stdout)["game_id"]
    running = ts("export", new, "--format", "csv", "--out", "x", data=played, check=False)
    assert running.returncode == 2 and "is not over" in running.stderr
    assert ts("export", new, data=played).stdout.count("\n") >= 1  # the log, as before, for any game
    both = ts("export", "--format", "csv", "--all", "--game", "arkadia", "--out", "x", data=played, check=False)
    assert both.returncode == 2 and "give one of" in both.stderr
    bad = ts("export", "--format", "xlsx", "--all", data=played, check=False)
    assert bad.returncode == 2 and "none of" in bad.stderr.replace("\n", " ")
