"""Move times (projections/movetimes.py): each seat's time per decision from the log's
times, on logs sealed by the referee's judge under a clock the test sets."""

from __future__ import annotations

import msgspec

from games import registry
from projections import movetimes
from projections.table import Table
from services import protocol
from services.bots.policies import RandomBot
from services.referee.cache import GameCache
from services.referee.judge import Judge
from tests.support_toygame import GAME as TOY
from tests.support_toygame import Add
from tests.unit.services.test_judge import entry, judged, toy

__all__ = ["toy"]  # the toy game registered for these tests too


class Game:
    """A game sealed by a judge whose clock is `now` (ms)."""

    def __init__(self, game_type: str, preset: str, players: int) -> None:
        self.now = 1_000
        self.tokens = [f"tok-{i}" for i in range(players)]
        cache = GameCache(10)
        cache.secrets["g-1"] = bytes(range(32))
        self.judge = Judge(0, 1, 4096, lambda: self.now, cache)
        self.game_type = game_type
        req = protocol.OpenRequest(token_hashes=[protocol.token_hash(t) for t in self.tokens], preset=preset)
        self.log: list = []
        self.table: Table | None = None
        self._send("c-open", -1, "", msgspec.json.encode(req), kind="open")

    def _send(self, command_id: str, seat: int, token: str, command: bytes, kind: str = "act") -> None:
        it, got = judged(self.judge, self.table, entry(command_id, kind=kind, seat=seat, token=token,
                                                      command=command, game_type=self.game_type))
        assert got is not None, it.outcome
        envs, self.table = got
        self.log += envs

    def act(self, at: int, seat: int, command: object) -> None:
        self.now = at
        self._send(f"c-{len(self.log)}", seat, self.tokens[seat], msgspec.json.encode(command))


def test_a_turn_based_game_times_each_decision_from_the_command_before() -> None:
    g = Game("toy", "2p", 2)
    for at, seat in ((1_500, 0), (1_700, 1), (2_700, 0), (2_750, 1)):
        g.act(at, seat, Add(amount=1))
    assert movetimes.decisions(TOY, "g-1", g.log) == [(0, g.log[-4].seq, 500), (1, g.log[-3].seq, 200),
                                                     (0, g.log[-2].seq, 1000), (1, g.log[-1].seq, 50)]
    seats = movetimes.seat_times(TOY, "g-1", g.log)
    assert [(s.decisions, s.total_ms, s.max_ms) for s in seats] == [(2, 1500, 1000), (2, 250, 200)]
    assert seats[0].hist == {512: 1, 1024: 1} and seats[1].hist == {64: 1, 256: 1}
    agg = movetimes.aggregate([seats, seats])
    assert agg["games"] == 2 and agg["all"]["decisions"] == 8 and agg["all"]["mean_ms"] == 1750 / 4
    assert agg["seats"][0]["max_ms"] == 1000 and agg["seats"][1]["p50_ms"] == 64 and agg["seats"][1]["p90_ms"] == 256
    assert movetimes.decode(movetimes.encode(seats)) == seats


def test_seats_that_choose_together_each_count_from_when_they_all_could() -> None:
    sw = registry.get("seven_wonders")
    g = Game("seven_wonders", "3p", 3)
    bots = [RandomBot(b"x", i) for i in range(3)]
    for at, seat in ((1_100, 2), (1_400, 0), (1_600, 1)):  # one pick each, in any order
        assert g.table is not None
        g.act(at, seat, bots[seat].choose(sw, g.table.state, seat))
    assert g.table is not None and set(sw.to_act(g.table.state)) == {0, 1, 2}  # the next pick, all together
    g.act(1_650, 1, bots[1].choose(sw, g.table.state, 1))
    found = [(seat, ms) for seat, _, ms in movetimes.decisions(sw, "g-1", g.log)]
    assert found == [(2, 100), (0, 400), (1, 600), (1, 50)]
