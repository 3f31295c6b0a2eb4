"""The search bot in live service games (issue #27): `tablestream play --bots mcts:N,...`
plays whole games of every title through the stream, the referee and the log, beside the
other kinds, and they verify. Small budgets: this checks the path, bench/search.py the strength."""

from __future__ import annotations

import base64
import json
import re

import pytest

from tests.e2e.test_cli import ts


@pytest.mark.parametrize("game,extra", [
    ("seven_wonders_duel", ()), ("seven_wonders", ("--players", "3")), ("arkadia", ("--players", "2")),
    ("ora_et_labora", ("--preset", "1p_france")),
])
def test_play_with_the_search_bot(tmp_path, game: str, extra: tuple[str, ...]) -> None:
    data = tmp_path / "ts"
    bots = "mcts:4" if "1p_france" in extra else "mcts:4,random"  # (a solo game has one seat)
    out = ts("play", "--game", game, *extra, "--games", "1", "--bots", bots, data=data).stdout
    assert "1 game of" in out and "unfinished" not in out, out
    verified = ts("verify", "--all", data=data).stdout
    assert "1 of 1 games verified" in verified, verified
    gid = re.search(r"^ok\s+(\S+)", verified, re.M).group(1)  # type: ignore[union-attr]
    log = [json.loads(line) for line in ts("export", gid, data=data).stdout.splitlines()]
    seats = json.loads(base64.b64decode(next(e["data"] for e in log if e["type"] == "ts.seats_taken")))["seats"]
    assert seats[0]["id"] == "mcts:4" and seats[-1]["id"] in ("random", "mcts:4"), seats  # who played, as logged
    bad = ts("play", "--game", game, *extra, "--games", "1", "--bots", "mcts:fast", data=data, check=False)
    assert bad.returncode == 2 and "unknown bot kind" in bad.stdout + bad.stderr
