"""A backlog of real, legal commands from many games of any GameDef (bench and tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.envelope import CommandEnvelope
from games.contract import GameDef, Rejection
from projections.table import Table
from services.bots.policies import RandomBot


def script_game(game: GameDef, table: Table, seed: bytes) -> list[tuple[int, Any]]:
    """A whole game's (seat, command) list from `table` on, by random legal play."""
    state = table.state
    bots = [RandomBot(seed, s) for s in range(table.opened.players)]  # type: ignore[union-attr]
    out: list[tuple[int, Any]] = []
    while game.result(state) is None:
        for seat in game.to_act(state):
            cmd = bots[seat].choose(game, state, seat)
            events = game.decide(state, seat, cmd)
            assert not isinstance(events, Rejection), events
            for e in events:
                state = game.evolve(state, e)
            out.append((seat, cmd))
            if seat not in game.to_act(state) and len(game.to_act(state)) == 0:
                break
    return out


def interleave(game: GameDef, scripts: dict[str, list[tuple[int, Any]]], tokens: dict[str, list[str]],
               reply_to: str, *, staggered: bool = False, concurrent: int | None = None) -> list[CommandEnvelope]:
    """The games' commands merged into one stream, each game's commands in order.

    By default round-robin: every game makes its n-th move in the same round, so they all
    reach the same stage (say, the end of an age) together. With `staggered`, games start
    one after another, the i-th i/C of a mean game length after the first (C: `concurrent`,
    by default the number of games): once the first game would have ended, about C games
    are in play at every moment, spread evenly over every stage of play, as in a service
    where games start at different times; the expensive moments (ends of ages, final
    scoring) then arrive spread out instead of all at once.
    """
    order = list(scripts)
    mean = sum(len(s) for s in scripts.values()) / max(1, len(scripts))
    spread = max(1, concurrent or len(order))
    keyed: list[tuple[float, int, int]] = []
    for rank, g in enumerate(order):
        start = rank * mean / spread if staggered else 0.0
        keyed += [(start + i, rank, i) for i in range(len(scripts[g]))]
    keyed.sort()
    out: list[CommandEnvelope] = []
    for n, (_, rank, i) in enumerate(keyed, start=1):
        g = order[rank]
        seat, cmd = scripts[g][i]
        out.append(CommandEnvelope(command_id=f"{reply_to}-b{n}", game_id=g, game_type=game.id, seat=seat,
                                   token=tokens[g][seat], command=msgspec.Raw(msgspec.json.encode(cmd)),
                                   reply_to=reply_to))
    return out


def by_game(envs: Sequence[CommandEnvelope]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for e in envs:
        counts[e.game_id] = counts.get(e.game_id, 0) + 1
    return counts
