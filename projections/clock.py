"""A game's clock folded from its log: each seat's time left and the deadline of its decision.

Pure: times are the envelopes' `time` (the referee's clock, ms), never this process's, so
the referee, the projector, replay and verify fold the same clock from the same log. A
game has a clock only if its opening logged `ClockSet` (events.meta). After every envelope
the seats the game says are to act (`GameDef.to_act`) have their clocks running: a seat's
decision starts when it joins them, and the first event of its next command (its move, or
`TimedOut`) ends the decision and charges the time it took. Seats that act at once (7
Wonders' simultaneous choices) run at once, each on its own clock.

Kinds (README "Clocks and timeouts"): "move" gives every decision `base_ms`;
"correspondence" every decision `days` days; "fischer" gives each seat a bank of `base_ms`
from which each decision's time is taken, then `increment_ms` is added (a bank never goes
below 0). A seat that resigned (`SeatResigned`) has each decision due as it begins, so the
timer has a bot play it; a game without a time control gets an "untimed" clock then, in
which only the resigned seats' decisions come due.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.meta import CLOCK_KINDS, TIMEOUT_POLICIES, ClockSet

DAY_MS = 86_400_000
MAX_CLOCK_MS = 366 * DAY_MS
"""The longest time control accepted (a year): bounds every figure a clock holds."""


class SeatClock(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """One seat's clock: `left_ms` (its bank, or the allowance of its current decision) and
    `since` (when its running decision began; None while it has nothing to decide)."""

    left_ms: int
    since: int | None = None


BOT_KINDS = ("random", "greedy")
"""The bot kinds a clock may name (services.bots.policies.BOTS has the same)."""
UNTIMED = "untimed"
"""The kind of the clock a game without a time control gets once a seat resigns: only the
resigned seats' decisions come due (at once), the others never do."""


class Clock(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A game's clock after a log prefix. `command`: the command whose events were folded
    last (a seat is charged once per command); `timeouts[seat]`: how often it timed out,
    `streak[seat]` how often since its last move of its own; `resigned[seat]`: the bot kind
    playing it since it left the game (`SeatResigned`), its decisions due as they begin."""

    kind: str
    allowance_ms: int  # the time a decision gets (move, correspondence) or the starting bank (fischer)
    increment_ms: int
    on_timeout: str
    seats: tuple[SeatClock, ...]
    timeouts: tuple[int, ...]
    command: str = ""
    resigned: tuple[str, ...] = ()  # per seat: "" or the bot kind that plays it since it left
    streak: tuple[int, ...] = ()  # per seat: its timeouts since its last move of its own
    abandon_after: int = 0
    bot: str = "random"  # the bot kind of on_timeout forfeit and pass (`ClockSet.bot`)

    def deadline(self, seat: int) -> int | None:
        """When `seat`'s running decision times out (ms, the referee's clock), or None; a
        resigned seat's is when it began (a bot plays it at once)."""
        sc = self.seats[seat]
        if sc.since is None:
            return None
        if self.resigned and self.resigned[seat]:
            return sc.since
        return None if self.kind == UNTIMED else sc.since + sc.left_ms


def problem(c: ClockSet) -> str | None:
    """Why a time control cannot be used (a sentence), or None."""
    if c.kind not in CLOCK_KINDS:
        return f"a clock's kind is one of {', '.join(CLOCK_KINDS)}, not {c.kind!r}"
    if c.on_timeout not in TIMEOUT_POLICIES:
        return f"on_timeout is one of {', '.join(TIMEOUT_POLICIES)}, not {c.on_timeout!r}"
    if c.kind == "correspondence":
        if not 1 <= c.days <= 366 or c.base_ms or c.increment_ms:
            return "a correspondence clock gives 1-366 days a move (days), nothing else"
    elif not 1000 <= c.base_ms <= MAX_CLOCK_MS or c.days:
        return f"a {c.kind} clock needs base_ms of 1000 to {MAX_CLOCK_MS} (and no days)"
    if c.increment_ms and c.kind != "fischer" or not 0 <= c.increment_ms <= MAX_CLOCK_MS:
        return f"increment_ms (0 to {MAX_CLOCK_MS}) is for a fischer clock only"
    if not 0 <= c.abandon_after <= 100 or (c.abandon_after and c.on_timeout == "forfeit"):
        return "abandon_after is 0 (never) to 100 timeouts in a row, and not with on_timeout forfeit"
    if c.bot not in BOT_KINDS or (c.bot != "random" and c.on_timeout not in ("forfeit", "pass")):
        return f"bot is one of {', '.join(BOT_KINDS)}, for on_timeout forfeit or pass"
    return None


def start(c: ClockSet, players: int) -> Clock:
    """The clock a game's `ClockSet` sets, no decision running yet."""
    allowance = c.days * DAY_MS if c.kind == "correspondence" else c.base_ms
    return Clock(kind=c.kind, allowance_ms=allowance, increment_ms=c.increment_ms, on_timeout=c.on_timeout, bot=c.bot,
                 seats=tuple(SeatClock(allowance) for _ in range(players)), timeouts=(0,) * players,
                 abandon_after=c.abandon_after)


def untimed(players: int) -> Clock:
    """The clock of a game without a time control, started when a seat resigns."""
    return Clock(kind=UNTIMED, allowance_ms=0, increment_ms=0, on_timeout="random",
                 seats=tuple(SeatClock(0) for _ in range(players)), timeouts=(0,) * players)


def resign(clock: Clock, seat: int, bot: str = "random") -> Clock:
    """`clock` with `seat` resigned, played by `bot`: its decisions come due as they begin."""
    flags = list(clock.resigned or ("",) * len(clock.seats))
    flags[seat] = bot or "random"
    return msgspec.structs.replace(clock, resigned=tuple(flags))


def moved(clock: Clock, seat: int) -> Clock:
    """`clock` after a move of `seat`'s own (not a timeout): its timeout streak ends."""
    if not clock.streak or not clock.streak[seat]:
        return clock
    streak = list(clock.streak)
    streak[seat] = 0
    return msgspec.structs.replace(clock, streak=tuple(streak))


def after(clock: Clock, time: int, seat: int, command_id: str, acting: Sequence[int]) -> Clock:
    """`clock` after an envelope of `command_id` by `seat` at `time`, the game's seats to act
    after it being `acting`. The first envelope of a seat's command charges that seat's
    running decision; then every seat in `acting` runs (a decision begins at `time` for one
    that was not running) and every other seat stops."""
    seats = list(clock.seats)
    if command_id != clock.command and 0 <= seat < len(seats) and (sc := seats[seat]).since is not None:
        if clock.kind == "fischer":
            used = max(0, time - sc.since)
            seats[seat] = SeatClock(min(MAX_CLOCK_MS, max(0, sc.left_ms - used) + clock.increment_ms))
        else:
            seats[seat] = SeatClock(clock.allowance_ms)
    for s, sc in enumerate(seats):
        running = s in acting
        if running and sc.since is None:
            seats[s] = SeatClock(sc.left_ms if clock.kind == "fischer" else clock.allowance_ms, time)
        elif not running and sc.since is not None:
            seats[s] = SeatClock(sc.left_ms)  # stopped without a move of its own: not charged
    return msgspec.structs.replace(clock, seats=tuple(seats), command=command_id)


def seat(clock: Clock | None, seat: int) -> SeatClock | None:
    """`seat`'s clock, or None (no clock, or not a seat: the system)."""
    if clock is None or not 0 <= seat < len(clock.seats):
        return None
    return clock.seats[seat]


def restore(clock: Clock, seat: int, sc: SeatClock | None) -> Clock:
    """`clock` with `seat`'s clock set back to `sc` (an undo: the decision it took back runs
    on from when it began, with the time it had then; nothing is refunded or added)."""
    if sc is None or not 0 <= seat < len(clock.seats):
        return clock
    seats = list(clock.seats)
    seats[seat] = sc
    return msgspec.structs.replace(clock, seats=tuple(seats))


def timed_out(clock: Clock, seat: int) -> Clock:
    """`clock` counting one more timeout of `seat` (and one more in its streak)."""
    counts = list(clock.timeouts)
    counts[seat] += 1
    streak = list(clock.streak or (0,) * len(clock.seats))
    streak[seat] += 1
    return msgspec.structs.replace(clock, timeouts=tuple(counts), streak=tuple(streak))


def public(clock: Clock) -> dict[str, object]:
    """What every view shows of the clock (nothing in it is hidden): per seat its time left
    (`left_ms`: its bank, or the allowance of its decision), its deadline, its timeouts and,
    once it left the game, the bot kind playing it (`played_by`)."""
    seats = []
    for s, sc in enumerate(clock.seats):
        seat: dict[str, object] = {"seat": s, "left_ms": sc.left_ms, "deadline": clock.deadline(s),
                                   "timeouts": clock.timeouts[s]}
        if clock.resigned and clock.resigned[s]:
            seat["played_by"] = clock.resigned[s]
        seats.append(seat)
    shown: dict[str, object] = {"kind": clock.kind, "increment_ms": clock.increment_ms, "on_timeout": clock.on_timeout,
                                "seats": seats}
    if clock.bot != "random":  # (absent by default: the documents of earlier games stay as they were)
        shown["bot"] = clock.bot
    return shown


def duration(ms: int) -> str:
    """A time left in words: tenths of seconds under 10 minutes, minutes under 2 days, days."""
    return f"{ms / 1000:.1f} s" if ms < 600_000 else f"{ms / 60_000:.0f} min" if ms < 172_800_000 else \
        f"{ms / 86_400_000:.1f} days"


def left(seat: dict[str, Any], now: int) -> int:
    """A seat's time left (ms) in a public clock (`public`): counting down from `now` for a
    running decision, else its bank or allowance."""
    return seat["left_ms"] if seat["deadline"] is None else max(0, seat["deadline"] - now)


def text(clock: dict[str, Any], now: int) -> str:
    """A public clock (`public`) in one line, for a terminal or a chat: each seat's time left
    (counting down from `now`, the reader's time, for a running decision) and its timeouts."""
    parts = []
    for s in clock["seats"]:
        running = "" if s["deadline"] is None else " (to move)"
        out = f", {s['timeouts']} timeout{'' if s['timeouts'] == 1 else 's'}" if s["timeouts"] else ""
        parts.append(f"seat {s['seat']} {duration(left(s, now))}{running}{out}")
    extra = f" +{duration(clock['increment_ms'])}" if clock["increment_ms"] else ""
    return f"clock ({clock['kind']}{extra}, on timeout: {timeout_words(clock)}): " + "; ".join(parts)


def timeout_words(clock: dict[str, Any]) -> str:
    """What a timeout brings, in words, from a public clock: "greedy bot", "pass (else random bot)"."""
    policy, bot = clock["on_timeout"], clock.get("bot", "random")
    if policy == "pass":
        return f"pass (else {bot} bot)"
    if policy == "forfeit":
        return f"forfeit ({bot} bot)"
    return f"{policy} bot"
