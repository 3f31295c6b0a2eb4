"""The timer service on real processes (issue #28): a 7 Wonders Duel game with a 1-second
clock a decision, in a `tablestream up` process (referee, projector, timer). Decisions
nobody makes time out and the clock's bot plays them; a move made in time is not timed
out; every timeout lands at or after its deadline, once per decision; the deadlines
survive a restart of the service; views show the clock; replay and verify reproduce it."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import msgspec
import pytest
import redis.asyncio as aioredis

from events import keys
from events.envelope import Accepted
from events.meta import TimedOut
from events.store import EventStore
from games.seven_wonders_duel import GAME as duel
from projections.board import decode_doc
from projections.table import Table, advance, decode, empty
from services import protocol
from services.client import Client
from services.verify import verify_games
from tests.integration.support_gateway import Deployment
from tests.integration.support_service import db_url

pytestmark = pytest.mark.integration

CLOCK = protocol.ClockOptions(kind="move", base_ms=1000, on_timeout="random")


async def _log(store: EventStore, gid: str) -> list:
    return await store.read(gid)


def _timeouts(log: list) -> list[tuple[int, object]]:
    """(index in the log, envelope) of every TimedOut."""
    return [(i, e) for i, e in enumerate(log) if e.type == "ts.timed_out"]


async def _wait_timeouts(store: EventStore, gid: str, n: int, timeout: float = 30.0) -> list:
    deadline = time.monotonic() + timeout
    while len(_timeouts(log := await _log(store, gid))) < n:
        assert time.monotonic() < deadline, f"{len(_timeouts(log))} timeouts after {timeout} s, expected {n}"
        await asyncio.sleep(0.1)
    return log


def _check_timeouts(log: list) -> int:
    """Every TimedOut came at or after the deadline of a decision its seat had running, and
    no decision timed out twice (after one, the seat's decision is another, or none)."""
    table: Table = empty(log[0].game_id, duel)
    seen: set[tuple[int, int]] = set()
    count = 0
    i = 0
    while i < len(log):
        j = i
        while j + 1 < len(log) and log[j + 1].command_id == log[i].command_id:
            j += 1
        first = log[i]
        if first.type == "ts.timed_out":
            event = decode(duel, first)
            assert isinstance(event, TimedOut) and event.seat == first.seat and event.by == "random"
            assert table.clock is not None
            deadline = table.clock.deadline(first.seat)
            assert deadline is not None and first.time >= deadline, (deadline, first.time)
            assert (first.seat, deadline) not in seen  # never twice for one decision
            seen.add((first.seat, deadline))
            assert j > i  # the bot's move follows, in the same command
            count += 1
        table = advance(table, log[i:j + 1])
        i = j + 1
    return count


async def test_decisions_time_out_once_at_their_deadline_and_survive_a_restart(r: aioredis.Redis,
                                                                              tmp_path: Path) -> None:
    d = Deployment(db_url(), logs=tmp_path)
    store = EventStore(r)
    try:
        up = d.start("up", "up")
        d.wait_referee()
        async with Client(r, timeout=30) as c:
            gid, tokens, out = await c.open(duel, clock=CLOCK)
            assert isinstance(out, Accepted)
            log = await _wait_timeouts(store, gid, 2)
            # A decision made in time does not time out.
            table = advance(empty(gid, duel), log)
            seat = duel.to_act(table.state)[0]
            t_move = time.time_ns() // 1_000_000
            got = await c.act(duel, gid, seat, tokens[seat], duel.legal_commands(table.state, seat)[0])
            if isinstance(got, Accepted):  # (else the timer was first: the decision had just timed out)
                mine = (await _log(store, gid))[got.seqs[0] - 1]
                assert mine.type != "ts.timed_out" and mine.time >= t_move

            # The service stops; its deadlines stay in Redis, and a new one times them out.
            up.send_signal(signal.SIGTERM)
            assert up.wait(15) == 0
            stopped = len(_timeouts(await _log(store, gid)))
            assert await r.zcard(keys.timers(0)) >= 1
            await asyncio.sleep(1.5)  # a deadline passes while no service runs
            assert len(_timeouts(await _log(store, gid))) == stopped
            d.start("up2", "up")
            log = await _wait_timeouts(store, gid, stopped + 2)
        assert _check_timeouts(log) >= 4
        table = advance(empty(gid, duel), log)
        deadline = time.monotonic() + 10
        while True:  # the projector reaches what was read, then the service stops: nothing moves
            raw = await r.hget(keys.view(0, gid, None), "doc")
            if raw is not None and decode_doc(raw).seq >= table.version:
                break
            assert time.monotonic() < deadline, "the projector did not reach the log's end"
            await asyncio.sleep(0.05)
        d.stop()

        # Views carry the clock (the same for every audience: nothing in it is hidden).
        view = decode_doc(await r.hget(keys.view(0, gid, None), "doc"))
        assert view.clock is not None and view.clock["kind"] == "move"
        assert sum(s["timeouts"] for s in view.clock["seats"]) >= 4
        for seat in (0, 1):
            doc = decode_doc(await r.hget(keys.view(0, gid, seat), "doc"))
            assert doc.seq == view.seq and doc.clock == view.clock
    finally:
        d.stop()
    # Once nothing runs, verify replays the log and finds the stored views (clocks included).
    found = await verify_games(r, store, [gid])
    assert found == {gid: []}, found


async def test_a_resigned_seat_is_played_to_the_end_by_the_timer_and_ranks_last(r: aioredis.Redis,
                                                                               tmp_path: Path) -> None:
    """A seat of an untimed Duel game resigns; the timer has a bot play its decisions as they
    come while the test plays the other seat; the game ends, the resigned seat ranks last
    and the statistics row names it."""
    from projections.table import result

    d = Deployment(db_url(), logs=tmp_path)
    store = EventStore(r)
    try:
        d.start("up", "up")
        d.wait_referee()
        async with Client(r, timeout=30) as c:
            gid, tokens, out = await c.open(duel)
            assert isinstance(out, Accepted)
            table = advance(empty(gid, duel), await _log(store, gid))
            quitter = duel.to_act(table.state)[0]
            player = 1 - quitter
            assert isinstance(await c.resign(duel, gid, quitter, tokens[quitter]), Accepted)
            refused = await c.resign(duel, gid, quitter, tokens[quitter])
            assert refused.code == "already_resigned"
            deadline = time.monotonic() + 60
            while duel.result(table.state) is None:
                assert time.monotonic() < deadline, "the game did not end"
                table = advance(empty(gid, duel), await _log(store, gid))
                if duel.result(table.state) is None and player in duel.to_act(table.state):
                    got = await c.act(duel, gid, player, tokens[player], duel.legal_commands(table.state, player)[0])
                    assert isinstance(got, Accepted), got
                else:
                    await asyncio.sleep(0.05)
        res = result(table)
        assert res is not None and res.winners == (player,) and res.ranks[quitter] == 2
        log = await _log(store, gid)
        bot_moves = {e.command_id for e in log if e.seat == quitter and e.command_id.startswith("timeout-")}
        assert bot_moves and not any(e.type == "ts.timed_out" for e in log)
        deadline = time.monotonic() + 10
        while (row := await r.hget(keys.stats(duel.id), gid)) is None:
            assert time.monotonic() < deadline, "no statistics row"
            await asyncio.sleep(0.05)
        stored = msgspec.json.decode(row)
        assert stored["resigned"] == [quitter] and stored["winners"] == [player]
        assert await r.zcard(keys.timers(0)) == 0  # a finished game leaves no deadline
    finally:
        d.stop()
    assert await verify_games(r, store, [gid]) == {gid: []}
