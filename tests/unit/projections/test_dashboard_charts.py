"""The dashboard's pure side: what a finished game adds to the counters, and the charts read
back from summed counters (win rates with Wilson intervals, histograms, head-to-head)."""

from __future__ import annotations

import msgspec
import pytest

from events.meta import SeatPlayer

from projections.dashboard import Bucket, Filters, bucket_of, bucket_name, charts, contribution, merge, wilson
from projections.stats import GameRow, SeatRow


def _row(gid: str, wonders: tuple[str, str], victory: str, winner: int, ended_ms: int = 86_400_000) -> GameRow:
    seats = [SeatRow(facets={"seat": str(i), "wonder": w, "victory": victory, "players": "2"},
                     scores=[10 + i, 3], total=13 + i, rank=1 if i == winner else 2) for i, w in enumerate(wonders)]
    return GameRow(game_id=gid, game_type="t", players=2, categories=["civ", "coins"], seats=seats, winners=[winner],
                   events=40, commands=20 + winner, started_ms=0, ended_ms=ended_ms, summary={"turns": 9},
                   options={"players": 2})


def test_wilson_interval_matches_known_values() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)


def test_contribution_counts_a_game_once_and_each_seat_once() -> None:
    bucket, c = contribution(_row("g1", ("rhodes", "giza"), "civilian", 1), {"players": 2})
    assert bucket == Bucket(setup="2 players", day="1970-01-02", kinds="unrecorded")
    assert c["games"] == 1
    assert c["f\twonder\tgiza\twins"] == 1 and "f\twonder\trhodes\twins" not in c
    assert c["f\tvictory\tcivilian\tgames"] == 1 and c["f\tvictory\tcivilian\tplays"] == 2
    assert c["c\tciv\t10"] == 1 and c["c\tcoins\t3"] == 2 and c["t\t14"] == 1
    assert c["l\t21"] == 1 and c["s\tturns\t9"] == 1
    assert c["h\twonder\tgiza\trhodes\twon"] == 1 and "h\twonder\trhodes\tgiza\twon" not in c
    assert c["h\twonder\trhodes\tgiza\tmeet"] == 1
    assert c["v\twonder"] == 1 and "v\tvictory" not in c  # the victory type is the whole game's


def test_charts_from_summed_counters() -> None:
    rows = [_row("g1", ("rhodes", "giza"), "civilian", 1), _row("g2", ("giza", "rhodes"), "military", 0),
            _row("g3", ("rhodes", "babylon"), "civilian", 0)]
    data = charts(merge(contribution(r, {"players": 2})[1] for r in rows))
    assert data["games"] == 3
    giza = next(r for r in data["win_rate"]["wonder"] if r["value"] == "giza")
    assert (giza["plays"], giza["wins"], giza["rate"]) == (2, 2, 1.0)
    assert (giza["lo"], giza["hi"]) == pytest.approx(wilson(2, 2))
    assert "victory" not in data["win_rate"] and "players" in data["win_rate"]
    assert dict(map(tuple, data["victory"]["victory"])) == {"civilian": 2, "military": 1}
    assert data["length"] == [[20, 2], [21, 1]]
    m = data["h2h"]["wonder"]
    i, j = m["values"].index("giza"), m["values"].index("rhodes")
    assert m["meet"][i][j] == 2 and m["won"][i][j] == 2 and m["won"][j][i] == 0
    assert data["categories"]["coins"] == [[3, 6]]


def test_merge_and_filters_pick_buckets() -> None:
    assert merge([{b"games": b"2", b"x": b"1"}, {"games": 3}]) == {"games": 5, "x": 1}
    b = Bucket(setup="2 players", day="2026-12-01", kinds="bot:random,player")
    assert bucket_of(bucket_name(b)) == b
    assert Filters(kind="player").match(b) and Filters(kind="bot").match(b) and not Filters(kind="identity").match(b)
    assert Filters(since="2026-12-01", until="2026-12-01").match(b) and not Filters(since="2026-12-02").match(b)
    assert not Filters(setup="3 players").match(b)


def test_named_players_are_a_facet_and_their_kinds_a_filter() -> None:
    players = [SeatPlayer(kind="bot", id="greedy", name="greedy bot"), SeatPlayer(kind="name", id="Ada", name="Ada")]
    row = msgspec.structs.replace(_row("g1", ("rhodes", "giza"), "civilian", 1), seated=players)
    bucket, c = contribution(row, {"players": 2})
    assert bucket.kinds == "bot:greedy,name"
    assert c["f\tplayer\tAda\twins"] == 1 and c["h\tplayer\tAda\tgreedy bot\twon"] == 1
    assert Filters(kind="bot").match(bucket) and Filters(kind="bot:greedy").match(bucket)
    assert not Filters(kind="bot:random").match(bucket) and not Filters(kind="identity").match(bucket)
