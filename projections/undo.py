"""The undo window folded from a game's log: which commands may still be taken back.

Pure, folded by `projections.table.advance` for games opened with undo (`UndoAllowed`), so
the referee, the projector, replay and verify agree on every undo. The policy (README
"Undo"): a seat may take back its last command only while
* every event of it is *quiet* by its game's judgement (`GameDef.quiet`: nothing hidden
  revealed or drawn, to anyone);
* no other seat has acted on it: a command of another seat closes it, unless that seat
  was already to act when it was made (simultaneous choices: 7 Wonders' picks stay open
  until the last pick resolves the turn, which is not quiet);
* nothing of the shell happened since (a timeout, a resignation, the opening);
* it is among the last `MAX_OPEN` commands the window holds.

The window holds the state before its oldest open command (`base`) and, per open command,
its events and the state after it; taking one back replays the later ones onto the state
before it, so the fold honours an undo without anything being deleted from the log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec


MAX_OPEN = 32
"""Commands a window holds open at most (a solo game's whole turn history would otherwise
stay open, each with its state): the oldest closes when a newer one opens."""


class Entry(msgspec.Struct, frozen=True, gc=False):
    """One open command: its seat and id, its envelopes' seqs, the seats that were to act
    before it (`pending`), its game events, the state after it (and every entry before
    it), and the seat's clock before it (`projections.clock.SeatClock`, None in an untimed
    game): taking it back gives the seat that clock again, so an undo never buys time."""

    seat: int
    command_id: str
    first: int
    last: int
    pending: frozenset[int]
    events: tuple[Any, ...]
    after: Any
    clock: Any = None


class Window(msgspec.Struct, frozen=True, gc=False):
    """The open commands, oldest first, and the state before the oldest (`base`)."""

    base: Any
    entries: tuple[Entry, ...] = ()


def closed(state: Any) -> Window:
    """A window with nothing open, at `state`."""
    return Window(base=state)


def event(window: Window, seq: int, seat: int, command_id: str, ev: Any, before: Any, after: Any,
          quiet: bool, to_act: Callable[[Any], tuple[int, ...]], seat_clock: Any = None) -> Window:
    """The window after one game event of envelope `seq` (by `seat`, of command `command_id`)
    that took the state from `before` to `after`; `quiet` is the game's judgement of it,
    `seat_clock` the seat's clock before the envelope (None in an untimed game)."""
    entries = window.entries
    if entries and entries[-1].command_id == command_id and entries[-1].seat == seat:
        if not quiet:
            return closed(after)
        last = entries[-1]
        grown = msgspec.structs.replace(last, last=seq, events=(*last.events, ev), after=after)
        return Window(base=window.base, entries=(*entries[:-1], grown))
    if seat < 0 or not quiet:
        return closed(after)
    # A new command: the open commands this seat was not already to act beside close
    # (and every one before them: the window stays one unbroken run of open commands).
    keep = len(entries)
    while keep and seat in entries[keep - 1].pending:
        keep -= 1
    keep = max(keep, len(entries) - MAX_OPEN + 1)
    base = window.base if keep == 0 else entries[keep - 1].after
    entry = Entry(seat=seat, command_id=command_id, first=seq, last=seq, pending=frozenset(to_act(before)),
                  events=(ev,), after=after, clock=seat_clock)
    return Window(base=base, entries=(*entries[keep:], entry))


def last(window: Window | None, seat: int) -> Entry | None:
    """The open command `seat` may take back (its latest in the window), or None."""
    if window is None:
        return None
    for entry in reversed(window.entries):
        if entry.seat == seat:
            return entry
    return None


def take_back(window: Window, seat: int, evolve: Callable[[Any, Any], Any],
              to_act: Callable[[Any], tuple[int, ...]]) -> tuple[Any, Window, Any]:
    """The state and window once `seat`'s last open command is taken back: the commands
    after it are replayed, in order, onto the state before it (each now made while the
    seats to act in that replay were to act: `seat` among them again, so its next
    command leaves them open). Also returns the seat's clock before the command taken back."""
    entries = window.entries
    at = max(i for i, e in enumerate(entries) if e.seat == seat)
    state = window.base if at == 0 else entries[at - 1].after
    kept = list(entries[:at])
    for entry in entries[at + 1:]:
        pending = frozenset(to_act(state))
        for ev in entry.events:
            state = evolve(state, ev)
        kept.append(msgspec.structs.replace(entry, pending=pending, after=state))
    return state, Window(base=window.base, entries=tuple(kept)), entries[at].clock


def seats(window: Window | None) -> list[int]:
    """The seats that may take a command back now, in seat order (public: what makes a
    command quiet is in every audience's view)."""
    if window is None:
        return []
    return sorted({e.seat for e in window.entries})
