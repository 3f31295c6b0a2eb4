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
               reply_to: str) -> list[CommandEnvelope]:
    """Round-robin over the games, each game's commands in order."""
    out: list[CommandEnvelope] = []
    cursors = {g: 0 for g in scripts}
    n = 0
    while cursors:
        for g in list(cursors):
            i = cursors[g]
            if i >= len(scripts[g]):
                del cursors[g]
                continue
            seat, cmd = scripts[g][i]
            n += 1
            out.append(CommandEnvelope(command_id=f"{reply_to}-b{n}", game_id=g, game_type=game.id, seat=seat,
                                       token=tokens[g][seat], command=msgspec.Raw(msgspec.json.encode(cmd)),
                                       reply_to=reply_to))
            cursors[g] = i + 1
    return out


def by_game(envs: Sequence[CommandEnvelope]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for e in envs:
        counts[e.game_id] = counts.get(e.game_id, 0) + 1
    return counts
