"""A new user's rough edges (issue #29 items 2-6), end to end on an embedded Redis: bad
input is one line and exit 2, ids have a syntax, impossible setups are refused, `-h`
works, and the text output is complete and consistent."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from tests.e2e.test_cli import ts

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _one_line_usage_error(p, says: str) -> None:
    """Exit 2, no traceback, and the error's words on one line of stderr."""
    assert p.returncode == 2, (p.returncode, p.stdout[-300:], p.stderr[-800:])
    assert "Traceback" not in p.stderr, p.stderr[-800:]
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and says in lines[0], lines


def test_a_broken_export_and_a_malformed_redis_url_are_one_line_usage_errors(tmp_path):
    data = tmp_path / "ts"
    gid = json.loads(ts("new", "--players", "3", "--id", "broken-1", data=data).stdout)["game_id"]
    exported = ts("export", gid, data=data).stdout.splitlines()
    assert len(exported) >= 3
    missing = tmp_path / "missing.jsonl"
    missing.write_text("\n".join([exported[0], *exported[2:]]) + "\n")
    _one_line_usage_error(ts("import", str(missing), data=tmp_path / "a", check=False),
                          says="line 2: seq 3 where seq 2 belongs")
    swapped = tmp_path / "swapped.jsonl"
    swapped.write_text("\n".join([exported[0], exported[2], exported[1], *exported[3:]]) + "\n")
    _one_line_usage_error(ts("import", str(swapped), data=tmp_path / "b", check=False),
                          says="line 2: seq 3 where seq 2 belongs")
    mixed = tmp_path / "mixed.jsonl"  # a line of another game
    other = json.loads(ts("export", json.loads(ts("new", "--players", "3", data=data).stdout)["game_id"],
                          data=data).stdout.splitlines()[1])
    mixed.write_text("\n".join([exported[0], json.dumps(other), *exported[2:]]) + "\n")
    _one_line_usage_error(ts("import", str(mixed), data=tmp_path / "c", check=False), says="line 2: game")
    edited = tmp_path / "edited.jsonl"  # a line's hash edited: the next line no longer follows it
    second = json.loads(exported[1])
    second["hash"] = ("1" if second["hash"][0] != "1" else "2") + second["hash"][1:]
    edited.write_text("\n".join([exported[0], json.dumps(second), *exported[2:]]) + "\n")
    # it was "import refused (broken): game 'broken-1' exists here", exit 1, in a Redis without it
    _one_line_usage_error(ts("import", str(edited), data=tmp_path / "d", check=False),
                          says="line 3: its prev_hash is not line 2's hash")
    for url in ("notaurl", "redis://127.0.0.1:notaport/0", "redis://:s3cret@127.0.0.1:99999/0"):
        p = ts("verify", "--all", data=data, check=False, env_extra={"REDIS_URL": url})
        _one_line_usage_error(p, says="REDIS_URL is not a Redis URL")
        assert "s3cret" not in p.stderr and "notaport" not in p.stderr  # the value is never echoed


def test_game_ids_have_a_syntax_and_fork_onto_an_existing_id_says_so(tmp_path):
    data = tmp_path / "ts"
    for bad in ("tab\there", "new\nline", "x" * 3000, "{brace}", "-dash-first", ""):
        _one_line_usage_error(ts("new", "--players", "3", "--id", bad, data=data, check=False),
                              says="game id must be 1-100 characters")
    gid = json.loads(ts("new", "--players", "3", "--id", "Good_id.1-x", data=data).stdout)["game_id"]
    assert gid == "Good_id.1-x"
    again = ts("new", "--players", "3", "--id", gid, data=data, check=False)
    assert again.returncode == 1 and "already exists" in again.stdout
    for bad in ("a}b", "y" * 101):
        _one_line_usage_error(ts("fork", gid, "--at", "1", "--id", bad, data=data, check=False),
                              says="game id must be 1-100 characters")
    _one_line_usage_error(ts("fork", gid, "--at", "999", data=data, check=False),
                          says="--at 999 is past the log's end (seq ")
    taken = ts("fork", gid, "--at", "1", "--id", gid, data=data, check=False)
    assert taken.returncode == 1 and f"game '{gid}' already exists" in taken.stderr, taken.stderr
    # a fork's default id stays within the syntax however long the forked id is
    long_id = json.loads(ts("new", "--players", "3", "--id", "z" * 100, data=data).stdout)["game_id"]
    forked = json.loads(ts("fork", long_id, "--at", "1", data=data).stdout)["game_id"]
    assert 1 <= len(forked) <= 100 and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", forked)


def test_impossible_setups_are_refused(tmp_path):
    data = tmp_path / "ts"
    p = ts("stats", "--game", "seven_wonders_duel", "--players", "3", data=data, check=False)
    _one_line_usage_error(p, says="seven_wonders_duel is for 2 players")
    p = ts("play", "--game", "seven_wonders_duel", "--bots", "greedy,greedy,greedy", "--games", "1",
           data=data, check=False)
    _one_line_usage_error(p, says="3 bot kinds for 2 seats")
    p = ts("play", "--game", "arkadia", "--players", "2", "--bots", "random,greedy,random", "--games", "1",
           data=data, check=False)
    _one_line_usage_error(p, says="3 bot kinds for 2 seats")


def test_dash_h_is_help_and_no_help_page_shows_a_bool_placeholder(tmp_path):
    data = tmp_path / "ts"
    top = subprocess.run([sys.executable, "-m", "services.cli", "-h"], capture_output=True, text=True, timeout=60)
    assert top.returncode == 0 and "Usage:" in top.stdout and "play" in top.stdout, top.stdout + top.stderr
    assert "<bool>" not in top.stdout
    for verb in ("play", "new", "act", "script", "fork", "view", "replay", "moves", "verify", "stats", "export",
                 "import", "up", "bench"):
        p = ts(verb, "-h", data=data)
        assert "Usage:" in p.stdout and verb in p.stdout, (verb, p.stdout)
        assert "<bool>" not in p.stdout, (verb, p.stdout)
    assert "Usage:" in ts("projections", "rebuild", "-h", data=data).stdout


def test_play_at_80_columns_shows_whole_ids_moving_progress_and_the_views_names(tmp_path):
    """In an 80-column terminal: the setup (Edifice) in the title, every game id whole (it
    was cut to "sev…"), counts that move while the games are in flight, and wonders in the
    words the views use ("Alexandria", not "alexandria"), in play and in stats."""
    data = tmp_path / "ts"
    tty = {"TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1", "COLUMNS": "80", "NO_COLOR": "1"}
    # 6 games, 2 at a time: play lasts several of the bar's refreshes (2 games at once could end
    # within one on a fast moment of the machine, leaving no frame of games in flight)
    out = ANSI.sub("", ts("play", "--preset", "3p_edifice", "--games", "6", "--concurrency", "2",
                          data=data, env_extra=tty).stdout)
    assert "6 games of seven_wonders, 3 players, edifice" in out, out[-2000:]
    ids = re.findall(r"^ok\s+(\S+)", ts("verify", "--all", data=data).stdout, re.M)
    assert len(ids) == 6 and all(i in out for i in ids), (ids, out[-2000:])
    frames = re.findall(r"(\d)/6 games, (\d+) in play, ([\d,]+) commands", out)
    assert any(int(done) < 6 and int(playing) > 0 and 0 < int(n.replace(",", "")) for done, playing, n in frames), frames
    boards = {"Rhodes", "Alexandria", "Ephesus", "Babylon", "Olympia", "Halicarnassus", "Giza"}
    played = re.findall(r" as ([A-Za-z]+)", out)
    assert played and set(played) <= boards, played
    stats = ts("stats", data=data).stdout
    wonders = stats[stats.index("wins by wonder"):]
    assert any(b in wonders for b in boards) and "alexandria" not in wonders and "rhodes" not in wonders


def test_one_game_is_one_game_in_plays_title(tmp_path):
    """Counted nouns agree with their number in play's summary too (it said "1 games of")."""
    out = ts("play", "--game", "seven_wonders_duel", "--games", "1", data=tmp_path / "ts").stdout
    assert "1 game of seven_wonders_duel, 2 players" in " ".join(out.split()), out[-2000:]


def test_view_says_when_it_is_behind_the_log_and_arkadias_board_has_a_legend(tmp_path):
    data = tmp_path / "ts"
    new = json.loads(ts("new", "--players", "3", data=data).stdout)
    gid, tokens = new["game_id"], new["tokens"]
    rebuilt = ts("projections", "rebuild", data=data).stdout  # views at the log's end, no projector after
    assert "rebuilt the projections of 1 game\n" in rebuilt, rebuilt
    first = ts("moves", gid, "0", data=data).stdout.splitlines()[0]
    assert json.loads(ts("act", gid, "0", tokens[0], first, data=data).stdout)["status"] == "accepted"
    behind = ts("view", gid, data=data)
    said = " ".join(behind.stderr.split())
    assert re.search(r"view at seq (\d+), log at (\d+): is a projector running\?", said), said
    seen, logged = map(int, re.search(r"view at seq (\d+), log at (\d+)", said).groups())
    assert seen < logged
    ark = json.loads(ts("new", "--game", "arkadia", "--players", "2", data=data).stdout)["game_id"]
    plain = ts("replay", ark, data=data).stdout
    assert "--legend explains the board's symbols" in plain and "a vacant tent camp" not in plain
    explained = ts("replay", ark, "--legend", data=data).stdout
    assert "a vacant tent camp" in explained and "the castle's courtyard" in explained
    from games.registry import get

    printed = explained.splitlines()  # at 80 columns, each line whole (longer ones were re-wrapped ragged)
    assert all(line in printed for line in get("arkadia").legend.splitlines()), explained
    assert "needs no legend" in ts("replay", gid, "--legend", data=data).stdout
