"""Bot policies: pure choices over a game's legal commands, deterministic given a seed.

Bots play as ordinary clients (services/bots/driver.py sends their commands with their
seat tokens); a policy only picks among `legal_commands`. The greedy bot looks ahead by
folding each candidate and a cheap playout (first legal command for every seat) to the
end, and keeps the candidate with its best final total; it reads the whole state for
that lookahead, so it is a sparring partner, not a fair player.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Protocol

from games.contract import GameDef, Rejection
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
    """Best final total after a deterministic playout, over up to `width` candidates."""

    name = "greedy"

    def __init__(self, seed: bytes, seat: int, width: int = 6, horizon: int = 400) -> None:
        self.rng = Rng(seed, f"bot/greedy/{seat}")
        self.width = width
        self.horizon = horizon

    def choose(self, game: GameDef, state: Any, seat: int) -> Any:
        legal = list(game.legal_commands(state, seat))
        if len(legal) > self.width:
            legal = self.rng.sample(legal, self.width)
        best, best_score = legal[0], None
        for cmd in legal:
            score = self._playout(game, state, seat, cmd)
            if best_score is None or score > best_score:
                best, best_score = cmd, score
        return best

    def _playout(self, game: GameDef, state: Any, seat: int, cmd: Any) -> int:
        out = game.decide(state, seat, cmd)
        if isinstance(out, Rejection):
            return -(10**9)
        state = reduce(game.evolve, out, state)
        for _ in range(self.horizon):
            res = game.result(state)
            if res is not None:
                return res.totals[seat] * 1000 - res.ranks[seat]
            acting = game.to_act(state)
            if not acting:
                break
            s = acting[0]
            out = game.decide(state, s, game.legal_commands(state, s)[0])
            if isinstance(out, Rejection):
                break
            state = reduce(game.evolve, out, state)
        return -(10**6)


BOTS = {"random": RandomBot, "greedy": GreedyBot}
