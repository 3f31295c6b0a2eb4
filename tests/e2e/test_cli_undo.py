"""`tablestream new --undo`, `act` and `undo` end to end on an embedded Redis (README "Undo"):
a 7 Wonders pick taken back while the others pick, refused once the turn resolves and in a
game opened without undo, and the log verified with the undo in it."""

from __future__ import annotations

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
