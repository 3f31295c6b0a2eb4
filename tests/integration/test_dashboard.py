"""The dashboard's aggregates over real processes (Redis, `tablestream up`, the gateway): the
projector keeps them as it writes statistics rows, they always equal the sum of what the
stored rows contribute (after a rebuild, an archive and a restore too), and the gateway
serves them as JSON and each chart as CSV, filtered; bad filters get a typed 4xx."""

from __future__ import annotations

import asyncio
import csv
import io
import subprocess
import sys
import os
import time
from collections.abc import Iterator

import httpx
import msgspec
import pytest
import redis

from events import keys
from games import registry
from projections.dashboard import charts, contribution, merge
from projections.ratings import decode_ratings, leaderboard
from projections.stats import aggregate, decode_row
from tests.integration.support_gateway import Deployment, deployment
from tests.support_logs import NAMES, import_games, wait_rows

__all__ = ["deployment", "imported"]

pytestmark = pytest.mark.integration

DUEL = registry.get("seven_wonders_duel")
SW = registry.get("seven_wonders")
GAMES = int(os.environ.get("TS_DASHBOARD_GAMES", "60"))


@pytest.fixture(scope="module")
def imported(deployment: Deployment) -> Iterator[list[str]]:
    """GAMES finished Duel games and 10 of 7 Wonders (3 and 4 players) over the last days,
    imported through the store and projected by `up`'s projector."""
    batches = [(DUEL, GAMES, "2p", 5, "t"), (SW, 6, "3p", 2, "t"), (SW, 4, "4p", 1, "t4")]
    ids = asyncio.run(import_games(deployment.url, batches, int(time.time() * 1000)))
    wait_rows(deployment.url, {DUEL.id: GAMES, SW.id: 10})
    yield ids


def stored_counters(url: str, game_type: str) -> tuple[dict[str, int], dict[str, int]]:
    """(the counters summed over every bucket, the sum of the stored rows' contributions)."""
    r = redis.Redis.from_url(url)
    try:
        game = registry.get(game_type)
        prefix = keys.dashboard(game_type)
        kept = merge(r.hgetall(f"{prefix}:b:{b.decode()}") for b in r.smembers(f"{prefix}:buckets"))
        assert merge([r.hgetall(f"{prefix}:all")]) == kept  # the type's total is the buckets' sum
        rows = [decode_row(v) for v in r.hgetall(keys.stats(game_type)).values()]
        defaults = msgspec.to_builtins(game.options_type())
        return kept, merge(contribution(row, defaults, game.set_facets)[1] for row in rows)
    finally:
        r.close()


def test_the_aggregates_are_the_sum_of_the_rows_and_the_dashboard_agrees_with_stats(deployment: Deployment,
                                                                                   imported: list[str]) -> None:
    base = deployment.gateways[0]
    kept, expected = stored_counters(deployment.url, DUEL.id)
    assert kept == expected and kept["games"] == GAMES
    data = httpx.get(f"{base}/game-types/{DUEL.id}/dashboard", timeout=30).json()
    stats = httpx.get(f"{base}/game-types/{DUEL.id}/stats", timeout=30).json()
    assert data["games"] == stats["games"] == GAMES
    for facet, rows in data["win_rate"].items():
        if facet == "seat":  # stats leaves the seat out; each seat plays every game
            assert [(r["value"], r["plays"]) for r in rows] == [("0", GAMES), ("1", GAMES)]
            continue
        if facet == "player":  # the log's players: not a facet of the game's (checked below)
            continue
        for row in rows:
            cell = stats["by_facet"][facet][row["value"]]
            assert (row["games"], row["plays"], row["wins"]) == (cell["games"], cell["plays"], cell["wins"])
            assert row["lo"] <= row["rate"] <= row["hi"]
    assert "seat" in data["win_rate"] and "start" in data["win_rate"] and "wonders" in data["win_rate"]
    assert sum(n for _, n in data["victory"]["victory"]) == GAMES
    assert sum(n for _, n in data["length"]) == GAMES == sum(n for _, n in data["per_day"])
    assert sum(n for _, n in data["total"]) == 2 * GAMES
    assert data["h2h"]["start"]["values"] == ["first", "second"]
    r = redis.Redis.from_url(deployment.url)
    board = leaderboard(decode_ratings(r.hgetall(keys.ratings(DUEL.id)))[0])
    r.close()
    assert data["ratings"] == board and {x["name"] for x in board} == {*NAMES, "random bot", "greedy bot"}
    assert data["ratings"][0]["ordinal"] >= data["ratings"][-1]["ordinal"]
    players = {x["value"]: x["plays"] for x in data["win_rate"]["player"]}
    assert sum(players.values()) == 2 * GAMES and set(players) == {x["name"] for x in board}
    assert set(data["h2h"]["player"]["values"]) == set(players)


def test_every_chart_downloads_as_csv_and_filters_pick_games(deployment: Deployment, imported: list[str]) -> None:
    base = deployment.gateways[0]
    data = httpx.get(f"{base}/game-types/{SW.id}/dashboard", timeout=30).json()
    assert data["games"] == 10 and data["choices"]["setups"] == ["3 players", "4 players"]
    for chart in ("per_day", "win_rate", "categories", "total", "length", "summary", "victory", "latency", "h2h",
                  "ratings"):
        res = httpx.get(f"{base}/game-types/{SW.id}/dashboard/{chart}", params={"format": "csv"}, timeout=30)
        assert res.status_code == 200 and res.headers["content-type"].startswith("text/csv"), (chart, res.text)
        rows = list(csv.reader(io.StringIO(res.text)))
        as_json = httpx.get(f"{base}/game-types/{SW.id}/dashboard/{chart}", params={"format": "json"}, timeout=30).json()
        assert rows[0] == as_json["columns"] and len(rows) - 1 == len(as_json["rows"]), chart
    win = list(csv.DictReader(io.StringIO(httpx.get(f"{base}/game-types/{SW.id}/dashboard/win_rate", timeout=30).text)))
    assert sum(int(r["plays"]) for r in win if r["facet"] == "seat") == 3 * 6 + 4 * 4
    three = httpx.get(f"{base}/game-types/{SW.id}/dashboard", params={"setup": "3 players"}, timeout=30).json()
    assert three["games"] == 6 and sum(n for _, n in three["total"]) == 18
    days = data["choices"]["days"]
    one_day = httpx.get(f"{base}/game-types/{SW.id}/dashboard", params={"since": days[-1], "until": days[-1]}).json()
    assert one_day["games"] == dict(map(tuple, data["per_day"]))[days[-1]]
    rows = [decode_row(v) for v in redis.Redis.from_url(deployment.url).hgetall(keys.stats(SW.id)).values()]
    with_bots = sum(1 for row in rows if any(p.kind == "bot" for p in row.seated))
    with_greedy = sum(1 for row in rows if any(p.kind == "bot" and p.id == "greedy" for p in row.seated))
    assert 0 < with_greedy <= with_bots < 10 and "bot:greedy" in data["choices"]["kinds"]
    assert httpx.get(f"{base}/game-types/{SW.id}/dashboard", params={"kind": "bot"}).json()["games"] == with_bots
    assert httpx.get(f"{base}/game-types/{SW.id}/dashboard", params={"kind": "bot:greedy"}).json()["games"] == with_greedy
    wanted = aggregate([r for r in (decode_row(v) for v in redis.Redis.from_url(deployment.url).hgetall(
        keys.stats(SW.id)).values()) if r.players == 3])
    assert {r["value"]: r["wins"] for r in three["win_rate"]["wonder"]} == {
        k: v["wins"] for k, v in wanted["by_facet"]["wonder"].items()}
    for params, code, status in (({"since": "yesterday"}, "malformed", 400), ({"until": "2026-13-45"}, "malformed", 400),
                                 ({"since": "2026-02-30"}, "malformed", 400), ({"format": "xml"}, "malformed", 400),
                                 ({"setup": "x" * 300}, "malformed", 400)):
        res = httpx.get(f"{base}/game-types/{SW.id}/dashboard/total", params=params)
        assert (res.status_code, res.json()["code"]) == (status, code), res.text
    assert httpx.get(f"{base}/game-types/{SW.id}/dashboard/nope").json()["code"] == "not_found"
    game = imported[0]
    assert httpx.get(f"{base}/games/{game}/svg", params={"token": "x"}).json()["code"] == "token_in_url"
    assert httpx.get(f"{base}/games/{game}/svg", params={"at": 0}).status_code == 400
    assert httpx.get(f"{base}/games/{game}/svg", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert httpx.get(f"{base}/games/nope/svg").json()["code"] == "unknown_game"
    assert httpx.get(f"{base}/static/..%2Fapp.py").status_code == 404
    assert httpx.get(f"{base}/static/secret.txt").json()["code"] == "not_found"
    js = httpx.get(f"{base}/static/plotly.min.js", timeout=30)
    assert js.headers["content-type"].startswith("text/javascript") and len(js.content) > 1_000_000
    page = httpx.get(f"{base}/dashboard")
    assert page.headers["content-type"].startswith("text/html") and "script-src 'self'" in page.headers[
        "content-security-policy"]
    assert httpx.get(f"{base}/game-types/nope/dashboard").status_code == 404


def ts(url: str, *args: str) -> str:
    p = subprocess.run([sys.executable, "-m", "services.cli", *args], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "REDIS_URL": url})
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def test_rebuild_archive_and_restore_keep_the_aggregates_equal_to_the_rows(deployment: Deployment,
                                                                            imported: list[str], tmp_path) -> None:
    before = stored_counters(deployment.url, SW.id)[0]
    ts(deployment.url, "projections", "rebuild")
    kept, expected = stored_counters(deployment.url, SW.id)
    assert kept == expected == before
    gone = [g for g in imported if g.startswith(f"t-{SW.id}-")][:2]
    ts(deployment.url, "archive", *gone, "--dir", str(tmp_path))
    kept, expected = stored_counters(deployment.url, SW.id)
    assert kept == expected and kept["games"] == 8
    r = redis.Redis.from_url(deployment.url)
    assert all(not r.hexists(keys.dashboard(SW.id) + ":contrib", g) for g in gone)
    r.close()
    ts(deployment.url, "restore", *gone, "--dir", str(tmp_path))
    assert stored_counters(deployment.url, SW.id)[0] == before
    assert charts(before)["games"] == 10
