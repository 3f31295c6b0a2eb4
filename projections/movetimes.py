"""Move times: how long each seat took per decision, from the log's timestamps. Pure.

A seat's decision starts when it becomes one of the seats to act (`GameDef.to_act`) after
a command, or right after its own previous command if it must act again, and ends with
its command's envelope time (the referee's clock, ms). Seats that choose together (7
Wonders' picks) each count from the moment they all could choose, not from each other's
picks. A game's times are summed per seat (`SeatTimes`: decisions, total, longest, and a
histogram of power-of-two millisecond buckets, so percentiles survive aggregation);
`aggregate` adds games up per seat and for the whole game type.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from events.envelope import Envelope
from games.contract import GameDef
from projections.table import advance, empty


class SeatTimes(msgspec.Struct, kw_only=True):
    """One seat's decisions in one game (or summed over games)."""

    decisions: int = 0
    total_ms: int = 0
    max_ms: int = 0
    hist: dict[int, int] = {}
    """Decisions by bucket: the key is the bucket's upper bound in ms (1, 2, 4, ...)."""

    def add(self, ms: int) -> None:
        self.decisions += 1
        self.total_ms += ms
        self.max_ms = max(self.max_ms, ms)
        bound = 1 << max(0, ms - 1).bit_length()
        self.hist[bound] = self.hist.get(bound, 0) + 1

    def merge(self, other: SeatTimes) -> None:
        self.decisions += other.decisions
        self.total_ms += other.total_ms
        self.max_ms = max(self.max_ms, other.max_ms)
        for k, v in other.hist.items():
            self.hist[k] = self.hist.get(k, 0) + v


def _commands(envs: Iterable[Envelope]) -> Iterator[list[Envelope]]:
    """The log cut into commands (consecutive envelopes of one command id)."""
    group: list[Envelope] = []
    for e in envs:
        if group and e.command_id != group[0].command_id:
            yield group
            group = []
        group.append(e)
    if group:
        yield group


def decisions(game: GameDef, game_id: str, envs: Iterable[Envelope]) -> list[tuple[int, int, int]]:
    """Each decision of the log: (seat, seq of its command's first envelope, ms it took)."""
    table = empty(game_id, game)
    since: dict[int, int] = {}
    out: list[tuple[int, int, int]] = []
    for cmd in _commands(envs):
        seat, t = cmd[0].seat, cmd[0].time
        if seat >= 0 and seat in since:
            out.append((seat, cmd[0].seq, max(0, t - since[seat])))
        table = advance(table, cmd)
        if game.result(table.state) is not None:
            break
        acting = game.to_act(table.state) if table.opened is not None else ()
        since = {a: since[a] if a in since and a != seat else t for a in acting}
    return out


def seat_times(game: GameDef, game_id: str, envs: Iterable[Envelope]) -> list[SeatTimes]:
    """A game's decisions summed per seat (index = seat)."""
    return by_seat(decisions(game, game_id, envs))


def by_seat(found: list[tuple[int, int, int]]) -> list[SeatTimes]:
    """`decisions` summed per seat (index = seat)."""
    seats = max([s for s, _, _ in found], default=-1) + 1
    out = [SeatTimes() for _ in range(seats)]
    for seat, _, ms in found:
        out[seat].add(ms)
    return out


def percentile(t: SeatTimes, q: float) -> int:
    """The upper bound (ms) of the histogram bucket holding the q-quantile decision."""
    acc = 0
    for bound in sorted(t.hist):
        acc += t.hist[bound]
        if acc >= q * t.decisions:
            return bound
    return 0


def summary(t: SeatTimes) -> dict[str, Any]:
    """Decisions, mean, p50 and p90 (bucket bounds) and longest, in ms."""
    return {"decisions": t.decisions, "mean_ms": t.total_ms / t.decisions if t.decisions else 0.0,
            "p50_ms": percentile(t, 0.5), "p90_ms": percentile(t, 0.9), "max_ms": t.max_ms}


def aggregate(games: Iterable[list[SeatTimes]]) -> dict[str, Any]:
    """Games' seat times added up: per seat (`seats`, by seat number) and in all (`all`)."""
    per_seat: dict[int, SeatTimes] = {}
    every = SeatTimes()
    n = 0
    for g in games:
        n += 1
        for seat, t in enumerate(g):
            per_seat.setdefault(seat, SeatTimes()).merge(t)
            every.merge(t)
    return {"games": n, "all": summary(every), "seats": {s: summary(t) for s, t in sorted(per_seat.items())}}


_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(list[SeatTimes])


def encode(times: list[SeatTimes]) -> bytes:
    return _enc.encode(times)


def decode(data: bytes) -> list[SeatTimes]:
    return _dec.decode(data)
