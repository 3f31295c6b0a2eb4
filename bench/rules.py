"""Rules-engine benchmark: random full games per second per player count, and the median
and p99 latency of `legal_commands` and `decide` (payment enumeration included).

    .venv/bin/python bench/rules.py --game seven_wonders --games 100
    .venv/bin/python bench/rules.py --game seven_wonders_duel --games 1000 --reference-rate 49800

Prints figures; asserts nothing. games/s is per second of this process's CPU time (the
machine is shared: CPU time swings less than wall time). `--reference-rate` is another
engine's random games/s measured in the same time window (issue #27: a C++ Duel engine
built by hand, never part of this repository); the table then prints the ratio. Warm caches are part of the measurement: a referee
process keeps them warm too. Run it on an idle machine; compare ratios between runs.
"""

from __future__ import annotations

import random
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from games import get
from games.contract import Seed
from games.fold import replay


def _pct(xs: list[int], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] / 1000  # ns -> µs


def run(game_id: str, players: int, games: int, timed: bool, first_seed: int = 0) -> tuple[float, list[int], list[int]]:
    game = get(game_id)
    preset = next(k for k, o in game.presets.items() if o.players == players)
    legal_ns: list[int] = []
    decide_ns: list[int] = []
    clock = time.perf_counter_ns
    start = time.process_time()
    for i in range(first_seed, first_seed + games):
        rng = random.Random(i)
        state = replay(game, game.setup(game.presets[preset], Seed(i.to_bytes(8, "big") + b"bench")))
        while game.result(state) is None:
            seat = rng.choice(game.to_act(state))
            if timed:
                t0 = clock()
                cmds = game.legal_commands(state, seat)
                t1 = clock()
                out = game.decide(state, seat, rng.choice(cmds))
                t2 = clock()
                legal_ns.append(t1 - t0)
                decide_ns.append(t2 - t1)
            else:
                out = game.decide(state, seat, rng.choice(game.legal_commands(state, seat)))
            for e in out:
                state = game.evolve(state, e)
    return games / (time.process_time() - start), legal_ns, decide_ns


def main(
    game: Annotated[str, typer.Option(help="game id")] = "seven_wonders",
    games: Annotated[int, typer.Option(help="random games per player count")] = 100,
    players: Annotated[list[int] | None, typer.Option(help="player counts (default: all)")] = None,
    reference_rate: Annotated[float | None, typer.Option(help="another engine's random games/s, measured "
                                                         "alongside: print ours as a fraction of it")] = None,
) -> None:
    """Print games/s and latency percentiles of the pure rules engine."""
    g = get(game)
    counts = players or list(range(g.players[0], g.players[1] + 1))
    table = Table(title=f"{game}: random full games on one core")
    cols = ("players", "games/s (CPU)", *(("1/x of reference",) if reference_rate else ()),
            "legal p50 µs", "legal p99 µs", "decide p50 µs", "decide p99 µs", "calls")
    for col in cols:
        table.add_column(col, justify="right")
    for n in counts:
        # distinct seeds for each pass, so the timed pass does not hit caches warmed on
        # the very same games
        rate, _, _ = run(game, n, games, timed=False, first_seed=n * 1_000_000)
        _, legal, decide = run(game, n, max(10, games // 4), timed=True, first_seed=n * 1_000_000 + 500_000)
        ratio = (f"1/{reference_rate / rate:.1f}",) if reference_rate else ()
        table.add_row(str(n), f"{rate:.1f}", *ratio, f"{_pct(legal, .5):.0f}", f"{_pct(legal, .99):.0f}",
                      f"{_pct(decide, .5):.0f}", f"{_pct(decide, .99):.0f}", str(len(legal)))
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
