"""The CLI end to end for 7 Wonders Duel and Arkadia, on an embedded Redis in a temporary folder.

`tablestream play` for each game (Duel with its default 2 players, Arkadia with
`--players 3`), then `verify`, `replay` and `stats` on the games it played.
"""

from __future__ import annotations

import json
import re

from tests.e2e.test_cli import ts

VICTORIES = {"military", "science", "civilian"}  # games/seven_wonders_duel/events.py Victory


def test_play_verify_replay_stats_duel_and_arkadia(tmp_path):
    data = tmp_path / "ts"
    duel = ts("play", "--game", "seven_wonders_duel", "--games", "2", data=data).stdout
    assert "2 games of seven_wonders_duel" in duel and "commands/s" in duel and "p99" in duel
    # the summary shows Duel's own score categories and each game's victory type
    for column in ("victory", "blue", "green", "wonders", "progress", "military", "total"):
        assert column in duel, duel
    assert sum(duel.count(v) for v in VICTORIES) >= 2, duel
    ark = ts("play", "--game", "arkadia", "--players", "3", "--games", "2", data=data).stdout
    assert "2 games of arkadia" in ark and "commands/s" in ark
    for column in ("gold", "red", "olive", "black", "silver", "total"):
        assert column in ark, ark
    assert "unfinished" not in duel + ark

    verified = ts("verify", "--all", data=data).stdout
    assert "4 of 4 games verified" in verified, verified
    ids = re.findall(r"ok\s+(\S+)", verified)
    assert sorted(i.split("-")[0] for i in ids) == ["arkadia", "arkadia", "seven_wonders_duel", "seven_wonders_duel"]

    duel_id = next(i for i in ids if i.startswith("seven_wonders_duel"))
    ark_id = next(i for i in ids if i.startswith("arkadia"))
    assert "1 of 1 games verified" in ts("verify", duel_id, data=data).stdout
    for gid in (duel_id, ark_id):
        end = json.loads(ts("replay", gid, "--json", data=data).stdout)
        assert end["over"] and end["game_id"] == gid and end["view"]["result"] is not None
    assert "seat 1" in ts("replay", duel_id, "--at", "20", "--as", "1", data=data).stdout
    mid = json.loads(ts("replay", ark_id, "--at", "30", "--as", "2", "--json", data=data).stdout)
    assert mid["seat"] == 2 and not mid["over"] and mid["view"]["hand"] is not None
    spectator = json.loads(ts("replay", ark_id, "--at", "30", "--json", data=data).stdout)
    assert spectator["view"]["hand"] is None
    assert ts("replay", ark_id, "--as", "3", data=data, check=False).returncode == 2  # 3 players: seats 0..2

    s = json.loads(ts("stats", "--game", "seven_wonders_duel", "--json", data=data).stdout)
    assert s["games"] == 2
    by_victory = s["by_facet"]["victory"]
    assert set(by_victory) <= VICTORIES and sum(c["games"] for c in by_victory.values()) == 2
    assert sum(c["wins"] for c in by_victory.values()) >= 2
    # each wonder a seat held counts on its own: 2 games of 8 wonders (7 once the seventh is built)
    assert 14 <= sum(c["plays"] for c in s["by_facet"]["wonders"].values()) <= 16
    assert all("," not in w for w in s["by_facet"]["wonders"])
    text = ts("stats", "--game", "seven_wonders_duel", data=data).stdout
    assert "wins by victory" in text
    total = next(line for line in text.splitlines() if "total" in line)  # the mean total score, as --json has it
    assert f"{s['total']['mean']:.2f}" in total
    a = json.loads(ts("stats", "--game", "arkadia", "--json", data=data).stdout)
    assert a["games"] == 2 and a["by_facet"]["players"] == {"3": {"games": 2, "plays": 6, "wins": a["by_facet"]["players"]["3"]["wins"]}}
    assert set(a["categories"]) == {"gold", "red", "olive", "black", "silver"}
    assert "end" in a["summary"] and sum(a["summary"]["end"].values()) == 2
    assert "score by category" in ts("stats", "--game", "arkadia", data=data).stdout

    # player counts outside a game's range are usage errors
    assert ts("play", "--game", "seven_wonders_duel", "--players", "3", "--games", "1", data=data,
              check=False).returncode == 2
    assert ts("play", "--game", "arkadia", "--players", "5", "--games", "1", data=data, check=False).returncode == 2
