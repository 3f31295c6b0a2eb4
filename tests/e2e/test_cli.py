"""The CLI end to end, on an embedded Redis (no REDIS_URL) in a temporary folder."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path




def ts(*args: str, data: Path, env_extra: dict[str, str] | None = None, check: bool = True):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(env_extra or {})
    p = subprocess.run([sys.executable, "-m", "services.cli", *args, "--data-dir", str(data)],
                       capture_output=True, text=True, env=env, timeout=240)
    if check:
        assert p.returncode == 0, p.stdout + p.stderr
    return p


def test_readme_play_then_verify_replay_export_import_fork_script(tmp_path):
    data = tmp_path / "ts"
    # README's first command as it stands (20 games: a hundred bots on one client, the
    # projector behind the referee when the last game ends).
    games = int(os.environ.get("TS_E2E_GAMES", "20"))
    out = ts("play", "--game", "seven_wonders", "--players", "5", "--games", str(games), data=data).stdout
    assert "commands/s" in out and "p99" in out
    verified = ts("verify", "--all", data=data).stdout
    assert f"{games} of {games} games verified" in verified
    finished = re.search(r"^ok\s+(\S+)", verified, re.M).group(1)  # type: ignore[union-attr]
    past = ts("fork", finished, "--at", "99999", data=data, check=False)  # past the end: named, not "the end"
    end = re.search(r"past the log's end \(seq (\d+)\)", past.stderr)
    assert past.returncode == 2 and end, past.stderr
    late = ts("fork", finished, "--at", end.group(1), data=data, check=False)  # a finished copy that would never verify
    assert late.returncode == 2 and "is over" in late.stderr, late.stderr
    # every game is in the statistics as soon as `play` has ended
    stats = json.loads(ts("stats", "--json", data=data).stdout)
    assert stats["games"] == games and stats["setups"] == {"5 players": games}
    # statistics of one setup: the filters pick by player count and option
    assert json.loads(ts("stats", "--players", "5", "--option", "sides=random", "--json", data=data).stdout)["games"] == games
    assert json.loads(ts("stats", "--option", "edifice=true", "--json", data=data).stdout)["games"] == 0
    typo = ts("stats", "--option", "edifce=true", data=data, check=False)
    assert typo.returncode == 2 and "has no option 'edifce'" in typo.stderr
    wrong = ts("stats", "--option", "edifice=True", data=data, check=False)  # JSON's true, not Python's
    said = " ".join(wrong.stderr.replace("│", " ").split())  # the words of rich's error box
    assert wrong.returncode == 2 and "is no value of seven_wonders's option 'edifice'" in said, said
    assert "No finished game to show with these filters" in ts("stats", "--players", "4", data=data).stdout
    # a new game, an act, a view, a replay, export/import/fork
    new = json.loads(ts("new", "--players", "3", data=data).stdout)
    gid, tokens = new["game_id"], new["tokens"]
    bad = ts("act", gid, "0", tokens[1], "discard Loom", data=data, check=False)
    assert bad.returncode == 1 and json.loads(bad.stdout)["code"] == "bad_token"
    assert ts("replay", gid, "--as", "0", data=data).returncode == 0
    assert ts("view", "nope", data=data, check=False).returncode == 3
    exported = ts("export", gid, data=data).stdout
    f = tmp_path / "g.jsonl"
    f.write_text(exported)
    other = tmp_path / "other"
    ts("import", str(f), data=other)
    assert "1 of 1" in ts("verify", gid, data=other).stdout
    fork = json.loads(ts("fork", gid, "--at", "3", data=data).stdout)
    assert fork["forked_from"] == gid
    # a scripted game with one bad command
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"game": "seven_wonders", "preset": "3p",
                                  "commands": [{"seat": 0, "command": "discard Nothing"},
                                               {"seat": 3, "command": "discard Loom"}]}))
    lines = [json.loads(x) for x in ts("script", str(script), data=data).stdout.splitlines()]
    assert lines[0]["step"] == "open" and lines[-1]["rejected"] == 2
    # a seat the game does not have: the words `act` uses for it
    assert lines[2]["outcome"]["code"] == "unknown_seat" and lines[2]["outcome"]["message"] == "seat must be 0..2"
    assert ts("script", str(script), "--strict", data=data, check=False).returncode == 1
    assert ts("projections", "rebuild", data=data).returncode == 0
    assert "ok" in ts("verify", "--all", data=data).stdout


def test_bench_prints_every_figure_against_its_target(tmp_path):
    """`tablestream bench` end to end on a small backlog: it starts its own Redis, and its
    table has every figure the service issue asks for, with the targets beside them."""
    p = ts("bench", "--games", "20", "--commands", "1500", "--latency-seconds", "0.3", data=tmp_path)
    out = p.stdout
    flat = " ".join(out.split())  # rich wraps long lines at the terminal's width
    for row in ("raw limit", "referee / raw", "p50 at half load", "p99 at half load", "AOF everysec / AOF off"):
        assert row in out, out
    assert "≥ 50%" in out and "< 10" in out and "≥ 90%" in out
    assert "(0 rejected)" in flat  # every command of the backlog was legal and answered
    # where a drain's CPU went: the referee's and Redis's, per command
    assert re.search(r"CPU a command \(medians\): the referee [\d.]+ µs \(\d+% busy\), Redis [\d.]+ µs", flat), flat
    assert "machine: a Python loop step takes" in flat
    # what the host (hypervisor) took of each CPU, beside the drains' and the latency's figures
    if os.path.exists("/proc/stat"):
        took = r"the host took CPU \d+ \d+%(, CPU \d+ \d+%)* "
        assert re.search(took + r"of the CPUs during a drain \(medians\) \(steal time\)", flat), flat
        assert re.search(took + r"of the CPUs while measured \(steal time\)", flat), flat
        assert re.search(r"host steal during \(c\), worst CPU\s*│\s*\d+%", out), out
    else:  # no figure rather than a made-up one
        assert flat.count("the host's steal time is not known here") == 2, flat


def test_a_script_plays_from_a_fixture_with_the_edifice_expansion(tmp_path):
    """README "Scripted games": the fixture fixes boards, deals and (Edifice) the edifices;
    the commands run in order through the service; a bad fixture is a usage error."""
    import msgspec

    from games.seven_wonders.events import Options
    from games.seven_wonders.setup import deal

    data = tmp_path / "ts"
    fx = msgspec.structs.replace(deal(Options(players=3, edifice=True), b"doc"),
                                 edifices=("outpost", "river_port", "archives"))
    hand = sorted(fx.deals[0][0])
    script = tmp_path / "e.json"
    script.write_text(json.dumps({"game": "seven_wonders", "preset": "3p_edifice", "fixture": msgspec.to_builtins(fx),
                                  "commands": [{"seat": 0, "command": f"discard {hand[0]}"}]}))
    lines = [json.loads(x) for x in ts("script", str(script), "--strict", data=data).stdout.splitlines()]
    assert lines[0]["step"] == "open" and lines[0]["outcome"]["status"] == "accepted"
    assert lines[1]["outcome"]["status"] == "accepted" and lines[-1]["rejected"] == 0
    gid = lines[0]["game_id"]
    shown = ts("replay", gid, data=data).stdout
    assert "Outpost" in shown and "River Port" in shown and "Archives" in shown
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "seven_wonders", "preset": "3p", "fixture": {"wonders": 1},
                               "commands": []}))
    assert ts("script", str(bad), data=data, check=False).returncode == 2


def test_an_ora_et_labora_script_with_a_work_contract(tmp_path):
    """README "Scripted games" with Ora et Labora's notation: the fixture fixes the start
    player; an action is its main action, the function's `use` and `end`; a work contract
    asks the owner which clergyman goes (`assign`)."""
    data = tmp_path / "ts"
    script = tmp_path / "oel.json"
    steps = [(1, "fell 0,1"), (1, "end"), (1, "place H1"), (1, "use"), (1, "end"),
             (0, "contract 1 H3"), (1, "assign brother"), (0, "use"), (0, "end")]
    script.write_text(json.dumps({"game": "ora_et_labora", "preset": "2p_france", "fixture": {"start": 1},
                                  "commands": [{"seat": s, "command": c} for s, c in steps]}))
    lines = [json.loads(x) for x in ts("script", str(script), "--strict", data=data).stdout.splitlines()]
    assert [x["outcome"]["status"] for x in lines[1:1 + len(steps)]] == ["accepted"] * len(steps)
    assert lines[-1]["rejected"] == 0
    shown = ts("replay", lines[0]["game_id"], "--json", data=data).stdout  # the log's end, no projector needed
    view = json.loads(shown)["view"]
    goods = [o["goods"] for o in view["owners"]]
    assert goods[0]["coin"] == 2 and goods[1]["coin"] == 2  # 1 - 1 (fee) + 2 (Cloister Office); 1 + 1 (fee)
    assert goods[1]["wood"] == 2 and goods[1]["clay"] == 2
    # `moves`: what a seat may send now, in the notation `act` takes (README)
    listed = json.loads(ts("moves", lines[0]["game_id"], "0", "--json", data=data).stdout)
    assert listed["to_act"] == [0] and "place H1" in listed["moves"] and "fell 0,2" in listed["moves"]
    assert "nothing to do now" in ts("moves", lines[0]["game_id"], "1", data=data).stdout
    assert ts("moves", lines[0]["game_id"], "7", data=data, check=False).returncode == 2


def test_up_can_run_the_projector_alone(tmp_path):
    """`up --no-referee` is a projector process of its own (say on another CPU than the
    referee's): it projects what a referee elsewhere lands, and it sets no referee
    heartbeat, so `new` and `act` still start their own referee rather than wait for one."""
    data = tmp_path / "ts"
    assert ts("up", "--no-referee", "--no-projector", data=data, check=False).returncode == 2
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    proj = subprocess.Popen([sys.executable, "-m", "services.cli", "up", "--no-referee", "--data-dir", str(data)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        new = json.loads(ts("new", "--players", "3", data=data).stdout)
        gid, tokens = new["game_id"], new["tokens"]
        move = ts("moves", gid, "0", data=data).stdout.splitlines()[0]
        assert json.loads(ts("act", gid, "0", tokens[0], move, data=data).stdout)["status"] == "accepted"
        deadline = time.monotonic() + 20
        seen = None
        while time.monotonic() < deadline:
            got = ts("view", gid, "--as", "0", "--json", data=data, check=False)
            if got.returncode == 0:
                seen = json.loads(got.stdout)
                if seen["seq"] >= 4:  # opened (3 events), then the move
                    break
            time.sleep(0.2)
        assert seen is not None and seen["seq"] >= 4, (seen, got.returncode, got.stdout[-300:], got.stderr[-500:])
    finally:
        proj.send_signal(signal.SIGINT)
        _, errors = proj.communicate(timeout=20)
    assert proj.returncode == 0, errors
    assert "projector on 1 shard(s)" in errors and "referee" not in errors


def test_new_with_a_clock_shows_it_in_the_view_and_refuses_a_bad_one(tmp_path):
    """README "Clocks": `new --clock` opens a timed game; `view` prints its clock line; a
    clock the referee cannot use, or one that does not parse, is refused with exit 2 or 1."""
    data = tmp_path / "ts"
    bad = ts("new", "--game", "seven_wonders_duel", "--clock", "fischer", data=data, check=False)
    assert bad.returncode == 2 and "--clock:" in bad.stderr and "Traceback" not in bad.stderr
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    up = subprocess.Popen([sys.executable, "-m", "services.cli", "up", "--data-dir", str(data)],
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        refused = ts("new", "--game", "seven_wonders_duel", "--clock", "move:10ms", data=data, check=False)
        assert refused.returncode == 1 and json.loads(refused.stdout)["code"] == "bad_options"
        gid = json.loads(ts("new", "--game", "seven_wonders_duel", "--clock", "fischer:5m+3s@greedy",
                            data=data).stdout)["game_id"]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            got = ts("view", gid, data=data, check=False)
            if got.returncode == 0:
                break
            time.sleep(0.2)
        line = " ".join(got.stdout.split())
        assert "clock (fischer +3.0 s, on timeout: greedy bot): seat 0 " in line, got.stdout  # seats in order
        first = int(re.search(r"to act: (\d)", line).group(1))  # Duel's first player is drawn
        assert re.search(rf"seat {first} \d+\.\d s \(to move\)", line), line
        assert f"seat {1 - first} 300.0 s" in line and line.count("(to move)") == 1, line
    finally:
        up.send_signal(signal.SIGINT)
        up.communicate(timeout=20)
    assert up.returncode == 0


def test_bad_input_on_the_command_line_is_a_clear_usage_or_not_found_error(tmp_path):
    """README "CLI", exit codes (2 usage, 3 not found): each of these was a traceback with
    exit 1, a silent choice, or a hang (found by a walk through README)."""
    data, files = tmp_path / "ts", tmp_path

    def fails(code: int, *args: str, says: str, env: dict[str, str] | None = None) -> None:
        p = ts(*args, data=data, check=False, env_extra=env)
        assert p.returncode == code and says in " ".join(p.stderr.split()), (args, p.returncode, p.stderr[-500:])
        assert "Traceback" not in p.stderr

    # checked before any Redis is needed
    fails(3, "play", "--game", "chess", says="unknown game 'chess'")
    fails(3, "stats", "--game", "chess", says="unknown game 'chess'")
    fails(2, "play", "--bots", "smart", says="unknown bot kind 'smart'")
    fails(2, "play", "--concurrency", "0", says="concurrency")
    fails(2, "play", "--games", "-1", says="games")
    fails(2, "new", "--preset", "3p", "--players", "5", says="preset '3p' is for 3 players, not 5")
    (files / "bad.json").write_text('{"game": 1}')
    fails(2, "new", "--fixture", str(files / "bad.json"), says="bad fixture")
    fails(2, "new", "--fixture", str(files / "none.json"), says="cannot read the fixture")
    (files / "bad.jsonl").write_text('{"x": 1}\n')
    fails(2, "import", str(files / "bad.jsonl"), says="line 1: not an envelope")
    fails(2, "import", str(files / "none.jsonl"), says="cannot read")
    # with a game
    gid = json.loads(ts("new", "--players", "3", data=data).stdout)["game_id"]
    fails(3, "view", "nogame", says="no game 'nogame'")
    fails(2, "view", gid, "--as", "7", says="seat must be 0..2")
    fails(3, "view", gid, says="the projector")
    fails(2, "fork", gid, "--at", "0", says="--at is a log position")
    fails(2, "replay", gid, "--at", "-1", says="--at is a log position")
    (files / "g.jsonl").write_text(ts("export", gid, data=data).stdout)
    moved = ts("import", str(files / "g.jsonl"), data=tmp_path / "other")
    assert "this game is not over" in " ".join(moved.stderr.split())
    # a process with another SHARDS than the deployment's would look on the wrong shards
    fails(2, "view", gid, says="laid out for SHARDS=1, this process has SHARDS=2", env={"SHARDS": "2"})
    fails(2, "view", gid, says="SHARDS must be a whole number of at least 1", env={"SHARDS": "0"})
    # an imported log whose payload no longer decodes is a finding of verify, not a
    # traceback, and `verify --all` goes on to the other games
    lines = (files / "g.jsonl").read_text().splitlines()
    lines[-1] = re.sub(r'"data":"(.)', lambda m: '"data":"' + ("Z" if m.group(1) != "Z" else "Y"), lines[-1], count=1)
    assert lines[-1] != (files / "g.jsonl").read_text().splitlines()[-1]
    (files / "bad_payload.jsonl").write_text("\n".join(lines) + "\n")
    third = tmp_path / "third"
    ts("import", str(files / "bad_payload.jsonl"), data=third)
    ts("new", "--players", "3", data=third)
    checked = ts("verify", "--all", data=third, check=False)
    assert checked.returncode == 1 and "Traceback" not in checked.stderr, checked.stderr[-800:]
    assert f"FAIL {gid}" in checked.stdout and "1 of 2 games verified" in checked.stdout
