"""The seat verbs end to end on an embedded Redis: `new --undo`, `act` and `undo` (README
"Undo": a 7 Wonders pick taken back while the others pick, refused once the turn resolves
and in a game opened without undo, the log verified with the undo in it), and `new --host`,
`abandon` and `resign --bot` (README "Clocks and timeouts")."""

from __future__ import annotations

import base64
import json

from tests.e2e.test_cli import ts


def _moves(data, gid: str, seat: int) -> list[str]:
    return json.loads(ts("moves", gid, str(seat), "--json", data=data).stdout)["moves"]


def test_undo_from_the_command_line(tmp_path):
    data = tmp_path / "ts"
    opened = json.loads(ts("new", "--game", "seven_wonders", "--players", "3", "--undo", data=data).stdout)
    gid, tokens = opened["game_id"], opened["tokens"]
    ts("act", gid, "0", tokens[0], _moves(data, gid, 0)[0], data=data)
    ts("act", gid, "1", tokens[1], _moves(data, gid, 1)[0], data=data)
    taken = json.loads(ts("undo", gid, "0", tokens[0], data=data).stdout)
    assert taken["status"] == "accepted" and len(taken["seqs"]) == 1, taken
    again = ts("undo", gid, "0", tokens[0], data=data, check=False)  # its pick is gone: nothing left to take back
    assert again.returncode == 1 and json.loads(again.stdout)["code"] == "nothing_to_undo", again.stdout
    for seat in (0, 2):  # seat 1's pick still stands; the last pick resolves the turn
        ts("act", gid, str(seat), tokens[seat], _moves(data, gid, seat)[-1], data=data)
    late = ts("undo", gid, "1", tokens[1], data=data, check=False)
    assert late.returncode == 1 and json.loads(late.stdout)["code"] == "nothing_to_undo", late.stdout
    assert "1 of 1 games verified" in ts("verify", gid, data=data).stdout
    plain = json.loads(ts("new", "--game", "seven_wonders", "--players", "3", data=data).stdout)
    ts("act", plain["game_id"], "0", plain["tokens"][0], _moves(data, plain["game_id"], 0)[0], data=data)
    refused = ts("undo", plain["game_id"], "0", plain["tokens"][0], data=data, check=False)
    assert refused.returncode == 1 and json.loads(refused.stdout)["code"] == "undo_not_allowed", refused.stdout


def test_host_abandon_and_resign_with_a_bot_kind(tmp_path):
    data = tmp_path / "ts"
    opened = json.loads(ts("new", "--game", "seven_wonders", "--players", "3", "--host", data=data).stdout)
    gid, tokens, host = opened["game_id"], opened["tokens"], opened["host_token"]
    assert host not in tokens
    wrong = ts("abandon", gid, "2", tokens[0], data=data, check=False)
    assert wrong.returncode == 1 and json.loads(wrong.stdout)["code"] == "bad_token"
    gone = json.loads(ts("abandon", gid, "2", host, "--bot", "greedy", data=data).stdout)
    assert gone["status"] == "accepted"
    resigned = json.loads(ts("resign", gid, "1", tokens[1], "--bot", "greedy", data=data).stdout)
    assert resigned["status"] == "accepted"
    late = ts("act", gid, "1", tokens[1], "discard loom", data=data, check=False)
    assert late.returncode == 1 and json.loads(late.stdout)["code"] == "already_resigned", late.stdout
    log = [json.loads(line) for line in ts("export", gid, data=data).stdout.splitlines()]
    left = [json.loads(base64.b64decode(e["data"])) for e in log if e["type"] == "ts.seat_resigned"]  # payloads in base64
    assert [(x["seat"], x["reason"], x["bot"]) for x in left] == [(2, "host", "greedy"), (1, "resigned", "greedy")]
    plain = json.loads(ts("new", "--game", "seven_wonders", "--players", "3", data=data).stdout)
    assert "host_token" not in plain
    none = ts("abandon", plain["game_id"], "0", host, data=data, check=False)
    assert none.returncode == 1 and json.loads(none.stdout)["code"] == "no_host"
