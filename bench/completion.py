"""Completion benchmark: p50/p99 of `GameDef.complete` per game in mid-game positions.

    .venv/bin/python bench/completion.py --games 3

"cold": the first completion at a position (the seat's candidates listed and formatted,
the first of each word and the first 50 commands decided); "word": the next one at the
same position (after the first word, memoised verdicts reused), as a client typing word
after word asks; "closest": the 3 nearest to a legal command with its first two letters
swapped, at a position not asked before. Prints figures; asserts nothing.
"""

from __future__ import annotations

import random
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from games import completion
from games.contract import Seed
from games.fold import replay
from games.registry import GAMES

PRESETS = {"seven_wonders": "5p", "seven_wonders_duel": "2p", "arkadia": "3p", "ora_et_labora": "4p_france"}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000  # s -> ms


def measure(game_id: str, games: int) -> dict[str, list[float]]:
    """Times of the three asks at every 3rd position of the middle third of random games."""
    game = GAMES[game_id]
    out: dict[str, list[float]] = {"cold": [], "word": [], "closest": [], "commands": []}
    clock = time.perf_counter
    for i in range(games):
        rng = random.Random(i)
        state = replay(game, game.setup(game.presets[PRESETS[game_id]], Seed(i.to_bytes(8, "big") + b"complete")))
        seen: list[tuple[object, int]] = []
        while game.result(state) is None:
            seat = rng.choice(game.to_act(state))
            seen.append((state, seat))
            for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
                state = game.evolve(state, e)
        third = len(seen) // 3
        for state, seat in seen[third: 2 * third: 3]:
            completion._TABLES.clear()
            t = clock()
            top = game.complete(state, seat, "")
            out["cold"].append(clock() - t)
            out["commands"].append(len(top.commands))
            t = clock()
            game.complete(state, seat, top.words[0] + " ")
            out["word"].append(clock() - t)
            completion._TABLES.clear()
            t = clock()
            typo = top.commands[-1]
            game.closest(state, seat, typo[1] + typo[0] + typo[2:], 3)  # its first two letters swapped
            out["closest"].append(clock() - t)
    return out


def main(games: Annotated[int, typer.Option(help="random games per game")] = 3) -> None:
    table = Table("game", "positions", "cold p50 / p99 ms", "next word p50 / p99 ms", "closest p50 / p99 ms")
    for game_id in PRESETS:
        m = measure(game_id, games)
        table.add_row(f"{game_id} ({PRESETS[game_id]})", str(len(m["cold"])),
                      *(f"{_pct(m[k], 0.5):.2f} / {_pct(m[k], 0.99):.2f}" for k in ("cold", "word", "closest")))
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
