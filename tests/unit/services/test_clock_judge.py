"""Clocks and timeouts (issue #28) on a fake clock, without Redis: the clock folded from a log
(projections/clock.py, hand-computed figures) and the judge's timeouts (services/referee/
judge.py): refused before the deadline and for a decision already made, played by the bot
of the clock's `on_timeout` at the deadline, and the judge's Table always the log's fold."""

from __future__ import annotations

import msgspec
import pytest

from events.meta import ClockSet, TimedOut
from games.contract import Decided
from games.arkadia import GAME as ARKADIA
from games.ora_et_labora import GAME as ORA
from games.seven_wonders import GAME as SW
from games.seven_wonders_duel import GAME as DUEL
from projections import clock as clocks
from projections.table import Table, advance, decode, empty
from services import protocol
from services.referee.cache import GameCache
from services.referee.judge import NOT_TIMED_OUT, Judge
from tests.unit.services.test_judge import entry, judged

T0 = 1_700_000_000_000
SEED = bytes(range(32))


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


def _open(game, players: int, clock: protocol.ClockOptions | None, preset: str = "",
          undo: bool = False) -> tuple[Judge, FakeClock, Table, list, list[str]]:
    now = FakeClock()
    cache = GameCache(10)
    cache.secrets["g-1"] = SEED
    judge = Judge(0, 1, 4096, now, cache)
    tokens = [f"tok-{i}" for i in range(players)]
    req = protocol.OpenRequest(token_hashes=[protocol.token_hash(t) for t in tokens], preset=preset or f"{players}p",
                               clock=clock, undo=undo)
    it, got = judged(judge, None, entry("c-open", kind="open", seat=-1, token="", game_type=game.id,
                                        command=msgspec.json.encode(req)))
    assert it.outcome is None and got is not None, it.outcome
    envs, table = got
    return judge, now, table, list(envs), tokens


def _act(judge: Judge, game, table: Table, log: list, seat: int, token: str, n: int) -> Table:
    cmd = game.legal_commands(table.state, seat)[0]
    it, got = judged(judge, table, entry(f"c-{n}", seat=seat, token=token, game_type=game.id,
                                         command=msgspec.json.encode(cmd)))
    assert it.outcome is None and got is not None, it.outcome
    envs, after = got
    log += envs
    assert after == advance(empty("g-1", game), log)  # the judge's table, clock included, is the log's fold
    return after


def _timeout(judge: Judge, game, table: Table, seat: int, n: int):
    deadline = table.clock.deadline(seat) if table.clock is not None else 0
    body = msgspec.json.encode(protocol.TimeoutRequest(deadline=deadline or 0))
    return judged(judge, table, entry(f"t-{n}", kind="timeout", seat=seat, token="", game_type=game.id, command=body))


def test_a_fischer_clock_charges_each_decision_and_adds_the_increment() -> None:
    judge, now, table, log, tokens = _open(DUEL, 2, protocol.ClockOptions(kind="fischer", base_ms=60_000,
                                                                          increment_ms=2_000))
    assert isinstance(decode(DUEL, log[1]), ClockSet)  # right after GameOpened
    first = DUEL.to_act(table.state)[0]
    assert table.clock is not None and table.clock.deadline(first) == T0 + 60_000
    assert table.clock.deadline(1 - first) is None  # not to act: not running
    now.now = T0 + 5_000
    table = _act(judge, DUEL, table, log, first, tokens[first], 1)
    second = DUEL.to_act(table.state)[0]
    if second == first:  # Duel can give a seat another decision at once: its bank runs again
        assert table.clock.deadline(first) == T0 + 5_000 + 57_000
    else:
        assert table.clock.seats[first] == clocks.SeatClock(60_000 - 5_000 + 2_000)
        assert table.clock.deadline(second) == T0 + 5_000 + 60_000


def test_a_timeout_is_refused_early_played_at_the_deadline_and_never_twice() -> None:
    judge, now, table, log, tokens = _open(DUEL, 2, protocol.ClockOptions(kind="move", base_ms=30_000,
                                                                          on_timeout="greedy"))
    seat = DUEL.to_act(table.state)[0]
    now.now = T0 + 29_999
    it, got = _timeout(judge, DUEL, table, seat, 1)
    assert got is None and it.outcome.code == NOT_TIMED_OUT and "1 ms left" in it.outcome.message
    it, got = _timeout(judge, DUEL, table, 1 - seat, 2)
    assert got is None and it.outcome.code == NOT_TIMED_OUT and "no decision running" in it.outcome.message
    now.now = T0 + 30_000
    it, got = _timeout(judge, DUEL, table, seat, 3)
    assert it.outcome is None and got is not None
    envs, after = got
    assert decode(DUEL, envs[0]) == TimedOut(seat=seat, by="greedy") and envs[0].seat == seat
    assert len(envs) > 1 and all(e.seat == seat and e.command_id == "t-3" for e in envs)
    log += envs
    assert after == advance(empty("g-1", DUEL), log)
    assert after.clock.timeouts[seat] == 1 and after.version > table.version
    # The same decision cannot time out again: the seat's next decision (if any) runs anew.
    it, got = _timeout(judge, DUEL, after, seat, 4)
    assert got is None and it.outcome.code == NOT_TIMED_OUT


def test_simultaneous_seats_run_at_once_each_on_its_own_clock() -> None:
    judge, now, table, log, tokens = _open(SW, 3, protocol.ClockOptions(kind="move", base_ms=10_000))
    assert SW.to_act(table.state) == (0, 1, 2)
    assert [table.clock.deadline(s) for s in range(3)] == [T0 + 10_000] * 3
    now.now = T0 + 4_000
    table = _act(judge, SW, table, log, 1, tokens[1], 1)
    assert [table.clock.deadline(s) for s in range(3)] == [T0 + 10_000, None, T0 + 10_000]
    now.now = T0 + 10_000
    it, got = _timeout(judge, SW, table, 0, 2)
    assert it.outcome is None and got is not None
    log += got[0]
    table = got[1]
    assert table == advance(empty("g-1", SW), log)
    assert [table.clock.deadline(s) for s in range(3)] == [None, None, T0 + 10_000]
    table = _act(judge, SW, table, log, 2, tokens[2], 3)  # the turn resolves: every seat decides anew
    assert [table.clock.deadline(s) for s in range(3)] == [T0 + 20_000] * 3
    assert table.clock.timeouts == (1, 0, 0)


@pytest.mark.parametrize(("clock", "why"), [
    (protocol.ClockOptions(kind="blitz", base_ms=60_000), "kind is one of"),
    (protocol.ClockOptions(kind="move", base_ms=10), "base_ms of 1000"),
    (protocol.ClockOptions(kind="move", base_ms=60_000, increment_ms=5), "for a fischer clock only"),
    (protocol.ClockOptions(kind="correspondence"), "1-366 days"),
    (protocol.ClockOptions(kind="fischer", base_ms=60_000, on_timeout="resign"), "on_timeout is one of"),
])
def test_a_bad_clock_refuses_the_open(clock: protocol.ClockOptions, why: str) -> None:
    now = FakeClock()
    cache = GameCache(10)
    cache.secrets["g-1"] = SEED
    judge = Judge(0, 1, 4096, now, cache)
    req = protocol.OpenRequest(token_hashes=[protocol.token_hash("a"), protocol.token_hash("b")], preset="2p",
                               clock=clock)
    it, got = judged(judge, None, entry("c-open", kind="open", seat=-1, token="", game_type=DUEL.id,
                                        command=msgspec.json.encode(req)))
    assert got is None and it.outcome.code == "bad_options" and why in it.outcome.message


def test_an_untimed_game_has_no_clock_and_refuses_timeouts() -> None:
    judge, now, table, log, tokens = _open(DUEL, 2, None)
    assert table.clock is None and not any(isinstance(decode(DUEL, e), ClockSet) for e in log)
    now.now = T0 + 10**9
    it, got = _timeout(judge, DUEL, table, DUEL.to_act(table.state)[0], 1)
    assert got is None and it.outcome.code == "no_clock"


def _drive(judge: Judge, now: FakeClock, game, table: Table, log: list, tokens: list[str], human: int,
           limit: int = 5000) -> Table:
    """Play to the end: `human` moves its first legal command; every other decision is left
    to time out (the clock moved to its deadline), as the timer would have it."""
    n = 100
    while game.result(table.state) is None and n < limit:
        n += 1
        seat = game.to_act(table.state)[0]
        if seat == human and seat not in table.resigned:
            table = _act(judge, game, table, log, seat, tokens[seat], n)
            continue
        deadline = table.clock.deadline(seat)
        assert deadline is not None, (seat, table.clock)
        now.now = max(now.now, deadline)
        it, got = _timeout(judge, game, table, seat, n)
        assert it.outcome is None and got is not None, it.outcome
        log += got[0]
        table = got[1]
    assert game.result(table.state) is not None
    assert table == advance(empty("g-1", game), log)
    return table


def test_a_resigned_seat_is_played_by_a_bot_at_once_and_ranks_last() -> None:
    from events.meta import SeatResigned
    from projections.table import result

    judge, now, table, log, tokens = _open(DUEL, 2, None)  # untimed: resigning gives it a clock
    quitter = DUEL.to_act(table.state)[0]
    it, got = judged(judge, table, entry("r-1", kind="resign", seat=quitter, token="wrong", game_type=DUEL.id))
    assert got is None and it.outcome.code == "bad_token"
    it, got = judged(judge, table, entry("r-2", kind="resign", seat=quitter, token=tokens[quitter], game_type=DUEL.id))
    assert it.outcome is None and got is not None
    log += got[0]
    table = got[1]
    assert [decode(DUEL, e) for e in got[0]] == [SeatResigned(seat=quitter, reason="resigned")]
    assert table.resigned == (quitter,) and table.clock.kind == clocks.UNTIMED
    assert table.clock.deadline(quitter) == now.now  # due at once: the timer has the bot play it
    assert table.clock.deadline(1 - quitter) is None or (1 - quitter) not in DUEL.to_act(table.state)
    it, got = judged(judge, table, entry("r-3", kind="resign", seat=quitter, token=tokens[quitter], game_type=DUEL.id))
    assert got is None and it.outcome.code == "already_resigned"
    table = _drive(judge, now, DUEL, table, log, tokens, human=1 - quitter)
    assert not any(e.type == "ts.timed_out" for e in log)  # a resigned seat's moves are no timeouts
    res = result(table)
    assert res is not None and res.winners == (1 - quitter,) and res.ranks[quitter] == 2
    assert DUEL.result(table.state).totals == res.totals  # the game's own scores stand


def test_forfeit_on_timeout_resigns_the_seat_and_a_bot_plays_on() -> None:
    from events.meta import SeatResigned

    judge, now, table, log, tokens = _open(SW, 3, protocol.ClockOptions(kind="move", base_ms=5_000,
                                                                        on_timeout="forfeit"))
    now.now = T0 + 5_000
    it, got = _timeout(judge, SW, table, 2, 1)
    assert it.outcome is None and got is not None
    events = [decode(SW, e) for e in got[0]]
    assert events[:2] == [TimedOut(seat=2, by="forfeit"), SeatResigned(seat=2, reason="forfeit")]
    log += got[0]
    table = got[1]
    assert table.resigned == (2,) and table.clock.timeouts == (0, 0, 1)
    table = _act(judge, SW, table, log, 0, tokens[0], 2)
    table = _act(judge, SW, table, log, 1, tokens[1], 3)  # the turn resolves
    assert table.clock.deadline(2) == T0 + 5_000  # the resigned seat's next decision: due at once
    assert table.clock.deadline(0) == T0 + 10_000


def test_timeouts_in_a_row_abandon_the_seat_and_a_move_of_its_own_ends_the_streak() -> None:
    from events.meta import SeatResigned

    judge, now, table, log, tokens = _open(SW, 3, protocol.ClockOptions(kind="move", base_ms=5_000,
                                                                        on_timeout="greedy", abandon_after=2))
    n = [0]

    def turn(timeouts: set[int]) -> list:
        """One 7 Wonders turn: the seats in `timeouts` time out, the others move; the events
        of seat 0's timeout (if any)."""
        nonlocal table
        mine: list = []
        for seat in (0, 1, 2):
            n[0] += 1
            if seat in timeouts:
                now.now = max(now.now, table.clock.deadline(seat))
                it, got = _timeout(judge, SW, table, seat, n[0])
                assert it.outcome is None and got is not None, it.outcome
                log.extend(got[0])
                table = got[1]
                if seat == 0:
                    mine = [decode(SW, e) for e in got[0]]
            else:
                table = _act(judge, SW, table, log, seat, tokens[seat], n[0])
        return mine

    assert not any(isinstance(e, SeatResigned) for e in turn({0}))
    assert table.clock.streak[0] == 1
    turn(set())  # seat 0 moves itself: its streak ends
    assert table.clock.streak[0] == 0 and table.clock.timeouts[0] == 1
    assert not any(isinstance(e, SeatResigned) for e in turn({0}))
    events = turn({0})
    assert events[:2] == [TimedOut(seat=0, by="greedy"), SeatResigned(seat=0, reason="abandoned", bot="greedy")]
    assert table.resigned == (0,) and table.clock.resigned[0] == "greedy"
    assert table.clock.deadline(0) == now.now  # due at once now: its bot plays it
    assert table == advance(empty("g-1", SW), log)
    assert protocol.parse_clock("move:1m@greedy/3") == protocol.ClockOptions(
        kind="move", base_ms=60_000, on_timeout="greedy", abandon_after=3)


def test_pass_on_timeout_makes_the_games_passing_move_and_a_forfeit_names_its_bot() -> None:
    from events.meta import SeatResigned
    from games.seven_wonders.commands import Discard
    from games.seven_wonders.events import CardChosen

    assert protocol.parse_clock("move:30s@pass:greedy") == protocol.ClockOptions(
        kind="move", base_ms=30_000, on_timeout="pass", bot="greedy")
    assert protocol.parse_clock("move:1m@forfeit:greedy").bot == "greedy"
    assert clocks.problem(protocol.clock_set(protocol.ClockOptions(kind="move", base_ms=5_000, bot="clever")))
    assert clocks.problem(protocol.clock_set(protocol.ClockOptions(kind="move", base_ms=5_000, bot="greedy")))
    judge, now, table, log, tokens = _open(SW, 3, protocol.ClockOptions(kind="move", base_ms=5_000, on_timeout="pass"))
    now.now = T0 + 5_000
    passing = SW.passing(table.state, 1)
    assert isinstance(passing, Discard) and passing in SW.legal_commands(table.state, 1)
    it, got = _timeout(judge, SW, table, 1, 1)
    assert it.outcome is None and got is not None
    events = [decode(SW, e) for e in got[0]]
    assert events[0] == TimedOut(seat=1, by="pass") and list(SW.decide(table.state, 1, passing)) == events[1:]
    assert isinstance(events[1], CardChosen) and events[1].play.action == "discard"
    judge, now, table, log, tokens = _open(SW, 3, protocol.ClockOptions(kind="move", base_ms=5_000,
                                                                        on_timeout="forfeit", bot="greedy"))
    now.now = T0 + 5_000
    it, got = _timeout(judge, SW, table, 2, 1)
    assert [decode(SW, e) for e in got[0]][1] == SeatResigned(seat=2, reason="forfeit", bot="greedy")
    assert got[1].clock.resigned[2] == "greedy"


def test_the_clock_line_says_what_a_timeout_brings() -> None:
    def line(**kw) -> str:
        clock = clocks.start(protocol.clock_set(protocol.ClockOptions(kind="move", base_ms=30_000, **kw)), 2)
        return clocks.text(clocks.public(clock), T0)

    assert line() == ("clock (move, on timeout: random bot): seat 0 30.0 s; seat 1 30.0 s")
    assert "on timeout: pass (else greedy bot)" in line(on_timeout="pass", bot="greedy")
    assert "on timeout: forfeit (random bot)" in line(on_timeout="forfeit")
    assert "bot" not in clocks.public(clocks.start(protocol.clock_set(protocol.ClockOptions(
        kind="move", base_ms=30_000)), 2))  # the documents of earlier clocks stay as they were


def test_a_timed_games_events_are_folded_once_by_the_judge() -> None:
    """Issue #23: each new event folded once. In a game with a clock the judge's Table is
    `advance`'s fold of the new envelopes, and nothing folds the game's events before it
    (Duel's decide returns a plain list of events: `games.fold.after` would fold them)."""
    judge, now, table, log, tokens = _open(DUEL, 2, protocol.ClockOptions(kind="fischer", base_ms=60_000,
                                                                          increment_ms=2_000))
    calls = [0]
    evolve = DUEL.evolve

    def counting(state, event):
        calls[0] += 1
        return evolve(state, event)

    object.__setattr__(DUEL, "evolve", counting)  # the registry's own GameDef: the judge checks its identity
    try:
        for n in range(1, 6):
            seat = DUEL.to_act(table.state)[0]
            calls[0] = 0
            before = len(log)
            table = _act(judge, DUEL, table, log, seat, tokens[seat], n)
            folded_by_check = sum(1 for e in log if not e.type.startswith("ts."))  # _act's own check folds the log
            game_events = sum(1 for e in log[before:] if not e.type.startswith("ts."))
            assert game_events >= 1 and calls[0] == game_events + folded_by_check
    finally:
        object.__setattr__(DUEL, "evolve", evolve)


@pytest.mark.parametrize("undo", [False, True], ids=["clock", "clock+undo"])
@pytest.mark.parametrize("game,players,preset", [(SW, 3, "3p"), (ARKADIA, 2, "2p"), (ORA, 2, "2p_france")],
                         ids=lambda x: getattr(x, "id", x))
def test_events_decide_folded_itself_are_not_folded_again(game, players: int, preset: str, undo: bool) -> None:
    """Issue #23: each new event folded once, also where decide folds its own events
    (`Decided`: 7 Wonders' end of turn, Arkadia's and Ora et Labora's automatic steps) in a
    game with a clock (and undo), whose Table `advance` folds for the clock's per-event
    seats: it takes decide's states. The shell's folds are counted (the GameDef's `evolve`;
    a game's decide calls its own module's), over the judge's call alone: none for a
    `Decided`, one an event for a plain list. Before, advance folded a `Decided` again."""
    judge, now, table, log, tokens = _open(game, players, protocol.ClockOptions(kind="fischer", base_ms=600_000,
                                                                                 increment_ms=2_000), preset, undo)
    calls = [0]
    evolve = game.evolve

    def counting(state, event):
        calls[0] += 1
        return evolve(state, event)

    several = 0
    object.__setattr__(game, "evolve", counting)  # the registry's own GameDef: the judge checks its identity
    try:
        for n in range(1, 13):
            seat = game.to_act(table.state)[0]
            cmd = game.legal_commands(table.state, seat)[0]
            calls[0] = 0
            table_before = table
            it, got = judged(judge, table, entry(f"c-{n}", seat=seat, token=tokens[seat], game_type=game.id,
                                                 command=msgspec.json.encode(cmd)))
            assert it.outcome is None and got is not None, it.outcome
            envs, table = got
            game_events = sum(1 for e in envs if not e.type.startswith("ts."))
            by_decide = isinstance(game.decide(table_before.state, seat, cmd), Decided)
            assert game_events >= 1 and calls[0] == (0 if by_decide else game_events), (n, calls[0], game_events)
            several += by_decide and game_events >= 2
            log += envs
            now.now += 1_000
    finally:
        object.__setattr__(game, "evolve", evolve)
    assert several, "no command had several events folded by decide: the case is not covered"
    assert table == advance(empty("g-1", game), log)  # clock and undo window included: the log's fold
