"""The benchmark backlog's interleaving (services/bots/backlog.py): order and concurrency."""

from __future__ import annotations

import msgspec

from services.bots.backlog import interleave
from tests.support_toygame import GAME as TOY, Add


def _scripts(games: int, moves: int) -> dict[str, list[tuple[int, Add]]]:
    return {f"g{i}": [(k % 2, Add(amount=1 + k % 3)) for k in range(moves)] for i in range(games)}


def _tokens(scripts: dict[str, list]) -> dict[str, list[str]]:
    return {g: [f"{g}-t0", f"{g}-t1"] for g in scripts}


def _positions(envs) -> dict[str, list[int]]:
    seen: dict[str, list[int]] = {}
    for n, e in enumerate(envs):
        seen.setdefault(e.game_id, []).append(n)
    return seen


def test_round_robin_keeps_each_game_in_order_and_moves_games_in_lockstep():
    scripts = _scripts(4, 6)
    envs = interleave(TOY, scripts, _tokens(scripts), "c")
    assert [e.game_id for e in envs[:4]] == ["g0", "g1", "g2", "g3"]  # every game's first move first
    assert len(envs) == 24 and len({e.command_id for e in envs}) == 24
    for g, script in scripts.items():
        mine = [e for e in envs if e.game_id == g]
        assert [(e.seat, bytes(e.command)) for e in mine] == [(s, msgspec.json.encode(c)) for s, c in script]
        assert all(e.token == f"{g}-t{e.seat}" for e in mine)


def test_staggered_games_start_one_after_another_and_about_c_are_in_play():
    games, moves, c = 40, 20, 10
    scripts = _scripts(games, moves)
    envs = interleave(TOY, scripts, _tokens(scripts), "c", staggered=True, concurrent=c)
    pos = _positions(envs)
    assert all(p == sorted(p) and len(p) == moves for p in pos.values())  # nothing lost, in order
    firsts = [pos[f"g{i}"][0] for i in range(games)]
    assert firsts == sorted(firsts)  # game i starts after game i-1
    # Once the first games have ended, about c games are in play at each point of the stream.
    for n in range(len(envs) // 3, 2 * len(envs) // 3, 25):
        live = sum(1 for p in pos.values() if p[0] <= n <= p[-1])
        assert c - 2 <= live <= c + 2, (n, live)
