"""A search bot for every game: single-observer information-set Monte Carlo tree search
(SO-ISMCTS, Cowling, Powley and Whitehouse 2012) through the game contract alone.

Each iteration draws a state of the bot's information set (`GameDef.determinize`: what its
seat may not see drawn anew, so the search never reads a hidden card), walks the tree from
the root with UCB1 over the commands legal in that draw (availability counts: a child is
judged against the iterations in which it could be played), adds one node, plays the rest
of the game at random (at most MAX_ROLLOUT commands, or the game's `horizon`; a playout
cut short judged by the game's `standing` where it has one) and backs up every seat's
reward. Sequential decisions of any seat are tree nodes, each seat maximizing its own
reward (max^n); where several seats act at once (7 Wonders' simultaneous choices) the
bot's own choice is a tree edge and the others' are drawn at random, so no seat's hidden
choice steers the tree. The command played is the root's most visited child. Deterministic
for a seed and an iteration budget (a time budget stops earlier on a slower machine).

Rewards in [0, 1]: a share of first place (ties split), plus a fifth for the seat's score
against the table's spread; a solo game's score s as s / (s + SOLO_SCALE).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from games.contract import GameDef, Result

ITERATIONS = 200
"""Iterations a decision gets by default."""
EXPLORATION = 0.7
"""UCB1's exploration constant (rewards are in [0, 1])."""
MAX_ROLLOUT = 400
"""Commands a random playout makes at most; one cut short scores every seat 0.5."""
SOLO_SCALE = 50.0


class Node:
    """Statistics of one tree node: the seat that chose the command leading here, visits,
    availability, and the sum of that seat's rewards; and the `gain` of each command met
    here, judged once (on the first draw that offered it), for ordering its expansion."""

    __slots__ = ("seat", "visits", "avail", "total", "children", "gains")

    def __init__(self, seat: int = -1) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Any, Node] = {}
        self.gains: dict[Any, int] | None = None


def rewards(result: Result, players: int) -> list[float]:
    """Every seat's reward for a finished game."""
    totals = result.totals
    if players == 1:
        return [max(0.0, totals[0]) / (max(0.0, totals[0]) + SOLO_SCALE)]
    winners = result.winners
    lo, hi = min(totals), max(totals)
    spread = (hi - lo) or 1
    return [(0.8 / len(winners) if s in winners else 0.0) + 0.2 * (totals[s] - lo) / spread for s in range(players)]


class MctsBot:
    """The search bot (see the module's docstring); `iterations` per decision, or `ms` of
    CPU time per decision when given."""

    name = "mcts"
    slow = True  # callers on an event loop run `choose` in a thread

    def __init__(self, seed: bytes, seat: int, iterations: int = ITERATIONS, ms: float | None = None,
                 horizon: int | None = None) -> None:
        self.rng = random.Random(b"bot/mcts/%d/" % seat + seed)
        self.iterations = iterations
        self.ms = ms
        self.horizon = horizon  # None: the game's (GameDef.horizon); 0: to the end
        self.rollouts = 0  # playouts made (for the benchmark's rollouts per second)

    def choose(self, game: GameDef, state: Any, seat: int) -> Any:
        legal = game.legal_commands(state, seat)
        if len(legal) == 1:
            return legal[0]
        if game.determinize is None:
            return legal[self.rng.randrange(len(legal))]
        root = Node()
        stop = None if self.ms is None else time.process_time() + self.ms / 1000
        for _ in range(self.iterations):
            self._iterate(game, game.determinize(state, seat, self.rng), seat, root)
            if stop is not None and time.process_time() > stop:
                break
        playable = {_key(c): c for c in legal}
        best = max((k for k in root.children if k in playable), key=lambda k: root.children[k].visits, default=None)
        return playable[best] if best is not None else legal[0]

    def _iterate(self, game: GameDef, state: Any, me: int, root: Node) -> None:
        rng = self.rng
        path = [root]
        node = root
        while game.result(state) is None:
            acting = game.to_act(state)
            if not acting:
                break
            if len(acting) > 1:  # simultaneous: the others' choices at random, this seat's in the tree
                for s in acting:
                    if s != me:
                        state = _play(game, state, s, rng.choice(game.legal_commands(state, s)))
                if me not in acting or game.result(state) is not None:
                    continue
                seat = me
            else:
                seat = acting[0]
            legal = game.legal_commands(state, seat)
            if not legal:
                break
            keys = [_key(c) for c in legal]
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            untried = [i for i, k in enumerate(keys) if k not in node.children]
            if untried:
                i = self._first(game, state, seat, legal, untried, keys, node)
                child = node.children[keys[i]] = Node(seat)
                child.avail = 1
                state = _play(game, state, seat, legal[i])
                node = child
                path.append(node)
                break  # one node added an iteration: the playout goes on from it
            log_n = {k: math.log(node.children[k].avail) for k in keys}
            k, i = max(((k, i) for i, k in enumerate(keys)),
                       key=lambda ki: _ucb(node.children[ki[0]], log_n[ki[0]]))
            state = _play(game, state, seat, legal[i])
            node = node.children[k]
            path.append(node)
        state, result = self._rollout(game, state)
        if result is not None:
            scores: list[float] | None = rewards(result, len(result.totals))
        elif game.standing is not None:  # cut short: judged by the points it stands at
            scores = rewards(_as_result(game.standing(state)), state.players)
        else:
            scores = None
        for n in path:
            n.visits += 1
            if n.seat >= 0:
                n.total += scores[n.seat] if scores is not None else 0.5

    def _first(self, game: GameDef, state: Any, seat: int, legal: list[Any], untried: list[int],
               keys: list[Any], node: Node) -> int:
        """The untried command to expand: the best by the game's one-ply `gain` (fair: judged
        from what `seat` may see), ties at random; at random for a game without one. Each
        command's gain is judged once a node (a node offers the same commands draw after
        draw, one expanded each time: judging them all again each time cost most of a
        decision where a seat has ~100 commands, as in Arkadia)."""
        if game.gain is None or len(untried) == 1:
            return untried[self.rng.randrange(len(untried))]
        known = node.gains
        if known is None:
            known = node.gains = {}
        gains = []
        for i in untried:
            g = known.get(keys[i])
            if g is None:
                g = known[keys[i]] = game.gain(state, seat, legal[i])
            gains.append(g)
        top = max(gains)
        best = [i for i, g in zip(untried, gains) if g == top]
        return best[self.rng.randrange(len(best))]

    def _rollout(self, game: GameDef, state: Any) -> tuple[Any, Result | None]:
        """The state random play reaches and its result (None if it is cut short)."""
        rng = self.rng
        self.rollouts += 1
        horizon = game.horizon if self.horizon is None else self.horizon
        for _ in range(horizon if horizon and game.standing is not None else MAX_ROLLOUT):
            result = game.result(state)
            if result is not None:
                return state, result
            acting = game.to_act(state)
            if not acting:
                return state, None
            for s in acting:
                state = _play(game, state, s, rng.choice(game.legal_commands(state, s)))
        return state, game.result(state)


def _as_result(points: Any) -> Result:
    """Standing points as a result: the leaders are its winners."""
    totals = tuple(points)
    top = max(totals)
    return Result(categories=("points",), scores=tuple((t,) for t in totals), totals=totals,
                  ranks=tuple(1 + sum(1 for u in totals if u > t) for t in totals),
                  winners=tuple(s for s, t in enumerate(totals) if t == top))


def _ucb(child: Node, log_avail: float) -> float:
    return child.total / child.visits + EXPLORATION * math.sqrt(log_avail / child.visits) if child.visits else math.inf


def _key(command: Any) -> Any:
    """A command as a dict key (commands are frozen Structs; a list field makes one unhashable)."""
    try:
        hash(command)
        return command
    except TypeError:
        return repr(command)


def _play(game: GameDef, state: Any, seat: int, command: Any) -> Any:
    for e in game.decide(state, seat, command):
        state = game.evolve(state, e)
    return state
