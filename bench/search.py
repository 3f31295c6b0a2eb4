"""The search bot's strength and speed (issue #27): `python -m bench.search`.

Plays whole games in this process through the game contract (no service: the bots are
what is measured): the mcts bot (services/bots/mcts.py) in one seat, rotating over the
seats game by game, every other seat greedy or random. Prints, per title, opponent and
budget, the mcts seat's win share (ties split) with a 95% Wilson interval (the solo game:
its mean score against the opponent kind's own mean on the same deals, and the mean of the
per-deal differences with its 95% interval), its CPU per decision and its random playouts
per second. Deterministic for the seeds given. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from functools import partial
from typing import Any

from games.contract import Seed
from games.fold import replay
from games.registry import GAMES
from services.bots.mcts import MctsBot
from services.bots.policies import BOTS

TITLES = {"seven_wonders_duel": "2p", "seven_wonders": "3p", "seven_wonders-5p": "5p", "arkadia": "2p",
          "ora_et_labora": "2p_france", "ora_et_labora-solo": "1p_france"}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def paired(diffs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of per-deal score differences and its 95% interval (normal approximation:
    for the ≥ 100 deals a row is meant to have; 0 wide for fewer than two)."""
    mean = statistics.mean(diffs)
    half = z * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return mean, mean - half, mean + half


def play(title: str, preset: str, k: int, opponent: str, iterations: int) -> tuple[float, float, int, float, int]:
    """One game: (the mcts seat's win share or score, the opponents' mean score, decisions,
    CPU seconds of the mcts seat, its playouts)."""
    game = GAMES[title.partition("-")[0]]
    state = replay(game, game.setup(game.presets[preset], Seed(b"bench-search/%d" % k)))
    players = state.players
    me = k % players
    bots = [MctsBot(b"g%d" % k, s, iterations=iterations) if s == me else BOTS[opponent](b"g%d" % k, s)
            for s in range(players)]
    cpu, decisions = 0.0, 0
    while game.result(state) is None:
        for seat in game.to_act(state):
            t0 = time.process_time()
            cmd = bots[seat].choose(game, state, seat)
            if seat == me:
                cpu += time.process_time() - t0
                decisions += 1
            for e in game.decide(state, seat, cmd):
                state = game.evolve(state, e)
            if game.result(state) is not None:
                break
    res = game.result(state)
    assert res is not None
    playouts = bots[me].rollouts  # type: ignore[attr-defined]
    if players == 1:
        return float(res.totals[0]), 0.0, decisions, cpu, playouts
    share = 1 / len(res.winners) if me in res.winners else 0.0
    others = statistics.mean(t for s, t in enumerate(res.totals) if s != me)
    return share, others, decisions, cpu, playouts


def solo(title: str, preset: str, k: int, kind: str) -> float:
    """The score of bot `kind` alone on the solo deal number `k`."""
    game = GAMES[title.partition("-")[0]]
    state = replay(game, game.setup(game.presets[preset], Seed(b"bench-search/%d" % k)))
    bot = BOTS[kind](b"g%d" % k, 0)
    while game.result(state) is None:
        for e in game.decide(state, 0, bot.choose(game, state, 0)):
            state = game.evolve(state, e)
    res = game.result(state)
    assert res is not None
    return float(res.totals[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per title, opponent and budget")
    ap.add_argument("--budgets", default="50,200", help="iterations a decision, comma-separated")
    ap.add_argument("--titles", default=",".join(TITLES), help=f"some of {', '.join(TITLES)}")
    ap.add_argument("--opponents", default="greedy,random")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing games at once (the figures do not "
                    "depend on it; on a machine of several cores ≥ 200 games a row become affordable)")
    args = ap.parse_args()
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        _table(args, pool.map if pool is not None else map)


def _counted(results: Iterable[Any], n: int, what: str) -> list[Any]:
    """`results` as a list, telling stderr how many of the `n` games are done (every tenth of
    them, and the last): a row of 200 games takes minutes to hours."""
    got: list[Any] = []
    start, step = time.monotonic(), max(1, n // 10)
    for g in results:
        got.append(g)
        if len(got) % step == 0 or len(got) == n:
            print(f"  {what}: {len(got)}/{n} games, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return got


def _table(args: argparse.Namespace, pmap: Callable[..., Iterable[Any]]) -> None:
    print(f"{'title':24} {'vs':7} {'budget':>6} {'games':>5}  {'mcts win share (95% CI)':28} "
          f"{'ms a decision':>13} {'playouts/s':>10}")
    for title in args.titles.split(","):
        preset = TITLES[title]
        for opponent in args.opponents.split(","):
            for budget in map(int, args.budgets.split(",")):
                got = _counted(pmap(partial(play, title, preset, opponent=opponent, iterations=budget),
                                    range(args.games)), args.games, f"{title} vs {opponent} at {budget}")
                cpu = sum(g[3] for g in got)
                per = 1000 * cpu / max(1, sum(g[2] for g in got))
                rate = sum(g[4] for g in got) / cpu if cpu else 0.0
                if title.endswith("solo"):  # no opponent: the opponent kind plays the same deals alone
                    theirs = list(pmap(partial(solo, title, preset, kind=opponent), range(args.games)))
                    diff, lo, hi = paired([g[0] - t for g, t in zip(got, theirs)])
                    ahead = sum(g[0] > t for g, t in zip(got, theirs))
                    text = (f"score {statistics.mean(g[0] for g in got):.1f} vs {opponent}'s "
                            f"{statistics.mean(theirs):.1f}: {diff:+.1f} ({lo:+.1f} to {hi:+.1f}), "
                            f"ahead on {ahead} of {len(got)} deals")
                else:
                    wins = sum(g[0] for g in got)
                    lo, hi = wilson(wins, len(got))
                    text = f"{wins / len(got):.0%} ({lo:.0%}-{hi:.0%})"
                print(f"{title:24} {opponent:7} {budget:>6} {len(got):>5}  {text:28} {per:>13.1f} {rate:>10.0f}",
                      flush=True)


if __name__ == "__main__":
    main()
