"""Bot policies: pure choices over a game's legal commands, deterministic given a seed.

Bots play as ordinary clients (services/bots/driver.py sends their commands with their
seat tokens); a policy only picks among `legal_commands`. The greedy bot is fair: it asks
the game's `gain` (games/<id>/heuristic.py) how much each legal command improves its
seat's standing right away, judged only from what that seat may see, and plays the best
one (one ply, no lookahead), save one decision in twenty taken at random (EXPLORE); ties
are broken by its seeded RNG, so games vary but replay the same for the same seed.
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


EXPLORE = 20
"""The greedy bot plays one decision in this many (on average) uniformly at random. One ply
sees no further than the next command: in Ora et Labora's 2-player games, which end only
when the display is nearly built out (§13.1, §13.2), a purely greedy player never buys the
coast plot or the forest a last building needs, and the game drags on for thousands of
turns; with this much exploration they end in 50-180 rounds (measured here)."""


class GreedyBot:
    """The legal command with the highest `game.gain`, ties broken by its seeded RNG, save
    one decision in EXPLORE (a separate seeded stream) taken uniformly at random; uniform
    over the legal commands for a game without a `gain`."""

    name = "greedy"

    def __init__(self, seed: bytes, seat: int) -> None:
        self.rng = Rng(seed, f"bot/greedy/{seat}")
        self.explore = Rng(seed, f"bot/greedy/{seat}/explore")

    def choose(self, game: GameDef, state: Any, seat: int) -> Any:
        legal = game.legal_commands(state, seat)
        if game.gain is None or len(legal) == 1 or self.explore.below(EXPLORE) == 0:
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


def player(kind: str, seed: bytes, seat: int) -> Policy:
    """A bot of `kind` for play and lobby seats: a kind of BOTS, or the search bot "mcts",
    "mcts:N" (N iterations a decision) or "mcts:Nms" (N ms of CPU a decision). ValueError
    for anything else. (The referee's timeouts use BOTS only: a search would stall it.)"""
    if kind in BOTS:
        return BOTS[kind](seed, seat)
    name, _, budget = kind.partition(":")
    if name != "mcts" or (budget and not budget.removesuffix("ms").isdigit()) or budget in ("0", "0ms"):
        raise ValueError(f"unknown bot kind {kind[:40]!r}; known: {', '.join(BOTS)}, mcts, mcts:N (iterations), "
                         "mcts:Nms")
    from services.bots.mcts import MctsBot  # (the search is only loaded where it plays)

    if budget.endswith("ms"):
        return MctsBot(seed, seat, iterations=1_000_000, ms=float(budget[:-2]))
    return MctsBot(seed, seat, iterations=int(budget) if budget else 200)


def known(kind: str) -> bool:
    """Whether `player` makes a bot of `kind`."""
    try:
        player(kind, b"", 0)
    except ValueError:
        return False
    return True
