"""Bot policies: pure choices over a game's legal commands, deterministic given a seed.

Bots play as ordinary clients (services/bots/driver.py sends their commands with their
seat tokens); a policy only picks among `legal_commands`. The greedy bot is fair: it asks
the game's `gain` (games/<id>/heuristic.py) how much each legal command improves its
seat's standing right away, judged only from what that seat may see, and plays the best
one (one ply, no lookahead); ties are broken by its seeded RNG, so games vary but replay
the same for the same seed.
"""

from __future__ import annotations

from typing import Any, Protocol

from games.contract import GameDef
from games.rng import Rng


class Policy(Protocol):
    def choose(self, game: GameDef, state: Any, seat: int) -> Any: ...


class RandomBot:
    """Uniform over the legal commands, from a named RNG stream of its seed."""

    name = "random"

    def __init__(self, seed: bytes, seat: int) -> None:
        self.rng = Rng(seed, f"bot/random/{seat}")

    def choose(self, game: GameDef, state: Any, seat: int) -> Any:
        legal = game.legal_commands(state, seat)
        return legal[self.rng.below(len(legal))]


class GreedyBot:
    """The legal command with the highest `game.gain`, ties broken by its seeded RNG;
    uniform over the legal commands for a game without a `gain`."""

    name = "greedy"

    def __init__(self, seed: bytes, seat: int) -> None:
        self.rng = Rng(seed, f"bot/greedy/{seat}")

    def choose(self, game: GameDef, state: Any, seat: int) -> Any:
        legal = game.legal_commands(state, seat)
        if game.gain is None or len(legal) == 1:
            return legal[self.rng.below(len(legal))]
        best: list[Any] = []
        top = 0
        for cmd in legal:
            value = game.gain(state, seat, cmd)
            if not best or value > top:
                best, top = [cmd], value
            elif value == top:
                best.append(cmd)
        return best[self.rng.below(len(best))]


BOTS = {"random": RandomBot, "greedy": GreedyBot}
