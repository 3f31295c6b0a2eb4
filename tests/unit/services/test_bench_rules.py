"""bench/rules.py: the rules benchmark plays whole random games and, given another engine's
rate (`--reference-rate`, issue #27), prints ours as a fraction of it."""

from __future__ import annotations

from typer.testing import CliRunner
import typer

from bench import rules


def test_run_plays_whole_games_and_times_calls() -> None:
    rate, legal, decide = rules.run("seven_wonders_duel", 2, 3, timed=True, first_seed=7)
    assert rate > 0
    assert len(legal) == len(decide) > 3 * 40  # a Duel game takes well over 40 decisions


def test_reference_rate_prints_the_ratio() -> None:
    app = typer.Typer()
    app.command()(rules.main)
    out = CliRunner().invoke(app, ["--game", "seven_wonders_duel", "--games", "4", "--reference-rate", "1e9"],
                             env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "1/x of reference" in out.output
    assert "1/" in out.output.split("reference")[-1]
    plain = CliRunner().invoke(app, ["--game", "seven_wonders_duel", "--games", "4"], env={"COLUMNS": "200"})
    assert plain.exit_code == 0 and "reference" not in plain.output
