"""Shell-level events stored in every game's log, whatever the game.

These tags and fields are the storage format; change them only as the versioning policy
in `events/README.md` allows. Their tags start with "ts." so they can never collide with a
game's own tags, and a reader can route them without knowing the game.
"""

from __future__ import annotations

import msgspec

from events.base import Event

META_PREFIX = "ts."
"""Every shell-level tag starts with this; games never use it."""


class GameOpened(Event, tag="ts.game_opened"):
    """A game was created: what is played, under which rules, and the seed commitment.

    `options` is the game's options Struct exactly as JSON, so this event decodes without
    the game. `seed_commitment` is hex sha256 of the seed bytes, revealed later by
    `SeedRevealed`; `rng` names the versioned generator the deals came from. `fixture` is
    True when the deals were fixed explicitly instead of drawn from the seed.
    """

    game_type: str
    players: int
    options: msgspec.Raw
    preset: str  # "" when the options were not a named preset
    rules_version: int
    seed_commitment: str
    rng: str
    seat_token_hashes: list[str]
    fixture: bool


class SeedRevealed(Event, tag="ts.seed_revealed"):
    """The seed (hex) behind `GameOpened.seed_commitment`, published when the game ends."""

    seed: str


class SeatPlayer(msgspec.Struct, frozen=True, kw_only=True):
    """Who holds a seat. `kind`: "bot" (a bot kind the service plays: `id` is the kind),
    "identity" (a gateway identity: `id` is its id), "chat" (a chat user: `id` is
    "<platform>:<user id>") or "name" (a display name given in a lobby: `id` is the
    name). `name` is what to show. A player's rating is kept by `kind:id`."""

    kind: str
    id: str
    name: str


SEAT_PLAYER_KINDS = ("bot", "identity", "chat", "name")


class SeatsTaken(Event, tag="ts.seats_taken"):
    """Who sits in each seat (index = seat), as the seats were claimed: a lobby's claims
    and bot seats, `play`'s bot kinds. Logged by the opening command right after
    `GameOpened` when the open request names the players; a game opened without names
    has none (so logs of such games, and every older log, are unchanged)."""

    seats: list[SeatPlayer]


CLOCK_KINDS = ("move", "fischer", "correspondence")
TIMEOUT_POLICIES = ("random", "greedy", "forfeit", "pass")


class ClockSet(Event, tag="ts.clock_set"):
    """The game's time control, logged by its opening command after `GameOpened` (and
    `SeatsTaken`) when the open request names one; games without one log none.

    `kind`: "move" (every decision gets `base_ms`), "fischer" (each seat has a bank of
    `base_ms`; a decision's time is taken from it, then `increment_ms` is added) or
    "correspondence" (every decision gets `days` days). `on_timeout`: the bot kind that
    plays a timed-out seat's decision ("random" or "greedy"), logged as `TimedOut`
    followed by the move's events; "pass": the seat makes its game's passing move
    (`GameDef.passing`: a discard, a decline), or where the decision has none the bot kind
    `bot` plays it; or "forfeit": the seat also resigns (`SeatResigned`), and the bot kind
    `bot` plays that decision and every later one."""

    kind: str
    base_ms: int = 0
    increment_ms: int = 0
    days: int = 0
    on_timeout: str = "random"
    abandon_after: int = 0
    """After this many timeouts in a row of one seat (no move of its own between), the seat
    is abandoned (`SeatResigned` "abandoned") and the clock's bot plays it on; 0: never."""
    bot: str = "random"
    """The bot kind of "forfeit" (it plays the forfeited seat) and of "pass" (it plays a
    decision with no passing move)."""


class TimedOut(Event, tag="ts.timed_out"):
    """A seat's time for its decision ran out (by the referee's clock, the envelope's
    `time`); the events after it, of the same command, are the move `by` played for it."""

    seat: int
    by: str


class SeatResigned(Event, tag="ts.seat_resigned"):
    """A seat left the game: it resigned (`reason` "resigned", its own command), forfeited
    on a timeout ("forfeit"), was abandoned after `ClockSet.abandon_after` timeouts in a
    row ("abandoned") or by the game's host (`HostNamed`: "host"). From then on the bot kind `bot` plays its decisions as they come (the
    timer finds them due at once), the game goes on to its end, and the result ranks the
    seat below every seat that did not resign (`projections.table.result`)."""

    seat: int
    reason: str
    bot: str = "random"


class HostNamed(Event, tag="ts.host_named"):
    """The game has a host (a lobby's opener): the SHA-256 of its token, logged by the
    opening command when the open request names one. The host may abandon a seat (a
    command of kind "abandon" with the host's token): `SeatResigned` reason "host"."""

    token_hash: str


class UndoAllowed(Event, tag="ts.undo_allowed"):
    """The game allows undo: logged by its opening command (after `ClockSet`, if any) when
    the open request asks for it; games without it log none and refuse every undo
    (`undo_not_allowed`). The fold then keeps the window of commands that may still be
    taken back (`projections.undo`)."""


class Undone(Event, tag="ts.undone"):
    """`seat` took back its last command: the envelopes `first`..`last` (one command, id
    `command_id`) no longer count; the fold replays the commands after them, if any, onto
    the state before them (`projections.undo.take_back`). Nothing is deleted from the log."""

    seat: int
    command_id: str
    first: int
    last: int


MetaEvent = (GameOpened | SeedRevealed | SeatsTaken | ClockSet | TimedOut | SeatResigned | HostNamed | UndoAllowed
             | Undone)


def is_meta(type: str) -> bool:
    """True when an envelope's `type` is a shell-level event rather than a game's own."""
    return type.startswith(META_PREFIX)
