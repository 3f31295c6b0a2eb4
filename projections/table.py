"""A game's log folded into what every reader needs: state, version, chain tip, metadata.

Pure: the referee, the projector, replay and verify all fold envelopes through `advance`,
so they can never disagree about what a log means. Shell-level events (`events.meta`)
set the metadata; every other envelope goes through the game's own `evolve`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
from msgspec.structs import replace

from events.chain import GENESIS
from events.codec import META, PayloadCodec
from events.envelope import Envelope
from events.meta import (META_PREFIX, ClockSet, GameOpened, HostNamed, SeatPlayer, SeatResigned, SeatsTaken,
                         SeedRevealed, TimedOut, Undone, UndoAllowed, is_meta)
from games.contract import Decided, GameDef, Result
from projections import clock as clocks
from projections import undo as undos

_codecs: dict[str, tuple[GameDef, PayloadCodec]] = {}


def codec(game: GameDef) -> PayloadCodec:
    """The payload codec of `game`'s event union, built once per GameDef."""
    hit = _codecs.get(game.id)
    if hit is None or hit[0] is not game:
        hit = (game, PayloadCodec(game.events, game.upcasters))
        _codecs[game.id] = hit
    return hit[1]


def decode(game: GameDef, env: Envelope) -> Any:
    """The event stored in `env`: a shell-level event or one of the game's events."""
    if is_meta(env.type):
        return META.decode(env.type, env.v, env.data)
    return codec(game).decode(env.type, env.v, env.data)


class Table(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One game's log, folded: never mutated, `advance` returns a new Table.

    (A Struct, not a dataclass: the referee builds one per command, and a frozen
    dataclass's __init__ costs several times more. Not tracked by the cyclic GC: it
    holds values, never a reference back to itself.)"""

    game_id: str
    game: GameDef
    state: Any
    version: int = 0
    last_hash: str = GENESIS
    opened: GameOpened | None = None
    seed: str | None = None  # revealed seed (hex), once the game is over
    seated: tuple[SeatPlayer, ...] = ()  # who holds each seat (`SeatsTaken`), () when not logged
    clock: clocks.Clock | None = None  # the time control (`ClockSet`) folded so far, None without one
    undo: undos.Window | None = None  # the commands that may be taken back; None: the game has no undo
    host: str = ""  # the SHA-256 of the host's token (`HostNamed`), "" for a game without a host

    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None

    @property
    def resigned(self) -> tuple[int, ...]:
        """The seats that left the game (`SeatResigned`), in seat order."""
        flags = self.clock.resigned if self.clock is not None else ()
        return tuple(s for s, bot in enumerate(flags) if bot)


def result(table: Table) -> Result | None:
    """The game's result as the service reports it: the game's own (`GameDef.result`), with
    every seat that resigned ranked below every seat that did not (the others keep their
    order and ties), so a resigned seat wins only if every seat resigned; None while the
    game runs."""
    res = table.game.result(table.state)
    gone = table.resigned
    if res is None or not gone:
        return res
    key = [(s in gone, res.ranks[s]) for s in range(len(res.ranks))]
    ranks = tuple(1 + sum(1 for k in key if k < key[s]) for s in range(len(key)))
    return msgspec.structs.replace(res, ranks=ranks, winners=tuple(s for s, r in enumerate(ranks) if r == 1))


def empty(game_id: str, game: GameDef) -> Table:
    """The table of a game whose log is still empty."""
    return Table(game_id=game_id, game=game, state=game.initial)


def advance(table: Table, envelopes: Iterable[Envelope], known: Decided | None = None) -> Table:
    """`table` after the envelopes that follow it (seq version+1, version+2, ...).

    `known`: the game's own events among the envelopes, in order, as `decide` returned them
    with the state after each (the referee's new envelopes): taken as they are instead of
    decoded and folded a second time."""
    state, version, last, opened, seed = table.state, table.version, table.last_hash, table.opened, table.seed
    seated, clock, undo, host = table.seated, table.clock, table.undo, table.host
    evolve, game = table.game.evolve, table.game
    decode_game, decode_meta = codec(game).decode, META.decode
    evolve_game = evolve
    if known is not None:  # the same steps, on what decide found (so the hot loop tests nothing)
        given, states = iter(known), iter(known.states)
        decode_game = lambda ty, v, data: next(given)  # noqa: E731
        evolve_game = lambda state, event: next(states)  # noqa: E731
    timeout = -1
    undone = False  # an undo: its envelope charges nobody
    shut = None  # a command with an event not quiet, or in which the shell spoke: none of it can be taken back
    for env in envelopes:
        if env.seq != version + 1:
            raise ValueError(f"{table.game_id}: envelope seq {env.seq} after version {version}")
        ty = env.type
        if not ty.startswith(META_PREFIX):  # a game's own event (is_meta, inlined: once per event)
            event = decode_game(ty, env.v, env.data)
            if undo is None:  # only games opened with undo pay for it
                state = evolve_game(state, event)
            else:
                before, state = state, evolve_game(state, event)
                quiet = env.command_id != shut and game.quiet is not None and game.quiet(before, event)
                if not quiet:  # the rest of its command is not quiet either
                    shut = env.command_id
                undo = undos.event(undo, env.seq, env.seat, env.command_id, event, before, state, quiet, game.to_act,
                                   clocks.seat(clock, env.seat))
        else:
            event = decode_meta(ty, env.v, env.data)
            if isinstance(event, Undone):
                if undos.last(undo, event.seat) is None:
                    raise ValueError(f"{table.game_id}: seq {env.seq} takes back a command seat {event.seat} "
                                     "cannot take back")
                state, undo, seat_clock = undos.take_back(undo, event.seat, evolve, game.to_act)  # type: ignore[arg-type]
                if clock is not None:  # the seat's decision runs on as before the command, from its clock then
                    clock = clocks.restore(clock, event.seat, seat_clock)
                    undone = True
            else:
                if isinstance(event, GameOpened):
                    opened = event
                elif isinstance(event, SeedRevealed):
                    seed = event.seed
                elif isinstance(event, SeatsTaken):
                    seated = tuple(event.seats)
                elif isinstance(event, ClockSet):
                    clock = clocks.start(event, opened.players if opened is not None else 0)
                elif isinstance(event, TimedOut):
                    timeout = event.seat  # counted once the command's charge below is made
                elif isinstance(event, SeatResigned):
                    players = opened.players if opened is not None else 0
                    if 0 <= event.seat < players:
                        clock = clocks.resign(clock if clock is not None else clocks.untimed(players), event.seat,
                                              event.bot)
                elif isinstance(event, UndoAllowed):
                    undo = undos.closed(state)
                elif isinstance(event, HostNamed):
                    host = event.token_hash
                else:
                    state = evolve(state, event)
                if undo is not None:  # the shell spoke: nothing before it, nor in its command, is open
                    undo, shut = undos.closed(state), env.command_id
        if clock is not None:  # only games with a time control pay for it
            first = env.command_id != clock.command
            clock = clocks.after(clock, env.time, -1 if undone else env.seat, env.command_id, game.to_act(state))
            if undone:
                undone = False
            elif timeout >= 0:
                if timeout < len(clock.seats):
                    clock = clocks.timed_out(clock, timeout)
                timeout = -1
            elif first and 0 <= env.seat < len(clock.seats) and env.type != "ts.seat_resigned":
                clock = clocks.moved(clock, env.seat)  # a move of its own: its timeout streak ends
        version, last = env.seq, env.hash
    return replace(table, state=state, version=version, last_hash=last, opened=opened, seed=seed, seated=seated,
                   clock=clock, undo=undo, host=host)


def command_end(envelopes: Iterable[Envelope], seq: int) -> int:
    """The seq of the last envelope of the command that wrote envelope `seq`.

    A command's events land together, so a log position inside a command is no state any
    seat ever saw (and a game need not be able to view it): views, replays and forks are
    taken at command boundaries. Positions past the end return the log's last seq.
    """
    end, command = 0, None
    for env in envelopes:
        if env.seq <= seq:
            end, command = env.seq, env.command_id
        elif env.command_id == command:
            end = env.seq
        else:
            break
    return end
